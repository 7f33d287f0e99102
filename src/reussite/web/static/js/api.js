// The server's JSON API (docs/web-contract.md): every call returns the parsed body, or throws
// an ApiError carrying the HTTP status and the server's sentence (`detail`).

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
    this.detail = detail;
  }
}

async function call(method, url, body) {
  const init = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(url, init);
  } catch (e) {
    throw new ApiError(0, "The server cannot be reached");
  }
  let data = null;
  try {
    data = await res.json();
  } catch (e) {
    data = null;
  }
  if (!res.ok) {
    let detail = data && data.detail;
    if (Array.isArray(detail)) detail = detail.map((d) => d.msg || String(d)).join("; ");
    throw new ApiError(res.status, detail || `Error ${res.status}`);
  }
  return data;
}

export const api = {
  newGame: (game, options = {}) => call("POST", "/api/games", { game, ...options }),
  view: (id) => call("GET", `/api/games/${encodeURIComponent(id)}`),
  playing: (game) =>
    call("GET", `/api/games?game=${encodeURIComponent(game)}&status=playing`),
  move: (id, move, version) =>
    call("POST", `/api/games/${encodeURIComponent(id)}/moves`, { move, version }),
  action: (id, name, version) =>
    call("POST", `/api/games/${encodeURIComponent(id)}/${name}`, { version }),
  hint: (id) => call("GET", `/api/games/${encodeURIComponent(id)}/hint`),
};
