// The server's JSON API (docs/web-contract.md): every call returns the parsed body, or throws
// an ApiError carrying the HTTP status and the server's sentence (`detail`).
//
// Deal numbers run to 2^64 - 1, past JavaScript's exact integers: the client keeps every deal
// number as a string of digits, read from the JSON text before it is parsed and written into
// the JSON text as a bare number (the API takes numbers, not strings).

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
    init.body = writeJson(body);
  }
  let res;
  try {
    res = await fetch(url, init);
  } catch (e) {
    throw new ApiError(0, "The server cannot be reached");
  }
  let data = null;
  try {
    data = readJson(await res.text());
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

const NUMBER_FIELD = /"number":\s*(\d+)/g;

/** JSON text to data, each "number" field's digits kept whole as a string. */
export function readJson(text) {
  return JSON.parse(text.replace(NUMBER_FIELD, '"number":"$1"'));
}

/** Data to JSON text, a "number" given as a string of digits written as a bare number. */
export function writeJson(body) {
  const text = JSON.stringify(body);
  return typeof body.number === "string" && /^\d+$/.test(body.number)
    ? text.replace(`"number":"${body.number}"`, `"number":${body.number}`) : text;
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
  history: (game) => call("GET", `/api/history${game ? `?game=${encodeURIComponent(game)}` : ""}`),
  resetStats: (game) => call("DELETE", `/api/stats${game ? `?game=${encodeURIComponent(game)}` : ""}`),
  stats: () => call("GET", "/api/stats"),
  leaderboard: (game, day) => call("GET",
    `/api/daily/${encodeURIComponent(game)}/${encodeURIComponent(day)}/leaderboard`),
  me: () => call("GET", "/api/me"),
  setName: (name) => call("PUT", "/api/me", { name }),
  forget: () => call("DELETE", "/api/me"),
  makeCode: () => call("POST", "/api/me/code", {}),
  signIn: (code) => call("POST", "/api/me/sign-in", { code }),
  browsers: () => call("GET", "/api/me/browsers"),
  signOut: (id) => call("DELETE", `/api/me/browsers/${encodeURIComponent(id)}`),
  reportName: (name) => call("POST", "/api/names/report", { name }),
  resign: (id, version) =>
    call("POST", `/api/games/${encodeURIComponent(id)}/resign`, { version }),
  analyse: (id) => call("POST", `/api/games/${encodeURIComponent(id)}/analysis`, {}),
  analysis: (id) => call("GET", `/api/games/${encodeURIComponent(id)}/analysis`),
  position: (id, line, at, from) => call("GET",
    `/api/games/${encodeURIComponent(id)}/analysis/position?line=${line}&at=${at}`
    + `${from === null || from === undefined ? "" : `&from=${from}`}`),
};
