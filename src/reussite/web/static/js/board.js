// The daily deal's leaderboard beside the table (section.daily-board, docs/web-contract.md):
// the day's ranked wins and the clean ones (no undo, no hint), the player's own row marked
// even outside the top 100. Names are the players' own: written as text, never as markup.

import { api } from "./api.js";
import { readStrings } from "./strings.js";
import { formatTime } from "./timer.js";

const section = document.querySelector("section.daily-board");
const strings = readStrings("daily-strings");
const t = (k) => strings[k] ?? k;
let shownStatus = null;
let loading = null;

function cell(tag, text, cls) {
  const el = document.createElement(tag);
  el.textContent = text;
  if (cls) el.className = cls;
  return el;
}

/** A button that reports a name chosen by a player (POST /api/names/report): once a
 * reporter and name; an operator may then hide it (reussite names hide). */
function reportButton(name) {
  const b = cell("button", t("report"), "report-name");
  b.type = "button";
  b.setAttribute("aria-label", t("report_label").replace("{name}", name));
  b.addEventListener("click", () => {
    b.disabled = true;
    api.reportName(name).then(() => {
      b.textContent = t("reported");
    }).catch((err) => {
      b.textContent = err?.detail || t("failed");
    });
  });
  return b;
}

function row(e) {
  const tr = document.createElement("tr");
  if (e.you) {
    tr.className = "you";
    tr.setAttribute("aria-current", "true");
  }
  const help = [e.used_undo ? t("undo") : "", e.used_hint ? t("hint") : ""].filter(Boolean);
  const name = cell("td", e.you ? `${e.name} (${t("you")})` : e.name, "name");
  if (e.chosen && !e.you) name.append(" ", reportButton(e.name));
  tr.append(cell("td", String(e.rank), "rank"),
    name,
    cell("td", String(e.moves), "moves"),
    cell("td", formatTime(e.seconds), "time"),
    cell("td", help.length ? help.join(", ") : "—", "help"));
  return tr;
}

function table(kind, board) {
  const wrap = document.createElement("div");
  wrap.className = `board board-${kind}`;
  wrap.dataset.count = String(board.count);
  wrap.append(cell("h3", t(kind === "all" ? "all_wins" : "clean_wins")));
  if (!board.entries.length) {
    wrap.append(cell("p", t("no_wins"), "board-empty"));
    return wrap;
  }
  const tbl = document.createElement("table");
  const head = document.createElement("tr");
  for (const k of ["rank", "player", "moves", "time", "help"]) head.append(cell("th", t(k)));
  head.querySelectorAll("th").forEach((th) => th.setAttribute("scope", "col"));
  const thead = document.createElement("thead");
  thead.append(head);
  const body = document.createElement("tbody");
  board.entries.forEach((e) => body.append(row(e)));
  if (board.you && !board.entries.some((e) => e.you)) {
    const gap = document.createElement("tr");
    gap.className = "gap";
    const td = cell("td", "…");
    td.colSpan = 5;
    gap.append(td);
    body.append(gap, row(board.you));
  }
  tbl.append(thead, body);
  wrap.append(tbl);
  return wrap;
}

/** Read the board again and draw it. */
export async function refreshBoard() {
  if (!section) return;
  if (loading) return;
  const { game, day } = section.dataset;
  loading = api.leaderboard(game, day).then((data) => {
    const out = section.querySelector(".boards");
    out.replaceChildren(table("all", data.all), table("clean", data.clean));
    section.dataset.loaded = "1";
    section.dataset.count = String(data.all.count);
  }).catch(() => {
    section.querySelector(".boards").replaceChildren(cell("p", t("failed"), "board-empty"));
  }).finally(() => {
    loading = null;
  });
  await loading;
}

/** The table drew a view: a game just won on this page shows its place on the board. */
export function boardAfter(view) {
  const first = shownStatus === null;
  const won = view.status === "won" && shownStatus !== null && shownStatus !== "won";
  shownStatus = view.status;
  if (first || won) refreshBoard();
}
