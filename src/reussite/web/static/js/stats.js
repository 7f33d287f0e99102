// The statistics page (/stats): the server renders the table; this module adds the recent
// games (GET /api/history), a chart of their results drawn as inline SVG, and the reset of
// the statistics with a confirmation (DELETE /api/stats).

import { api } from "./api.js";
import { fill, readStrings } from "./strings.js";

const root = document.getElementById("stats");
const lang = root?.dataset.lang || document.documentElement.lang || "en";
const strings = readStrings("stats-strings");
const t = (key, values = {}) => fill(strings[key] ?? key, values);

const SVG = "http://www.w3.org/2000/svg";
const svg = (tag, attrs = {}) => {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
};
const h = (tag, attrs = {}, ...kids) => {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v);
  }
  for (const kid of kids) if (kid) el.append(kid);
  return el;
};

const gameName = (entry) => entry.names?.[lang] ?? entry.names?.en ?? entry.game;
const clock = (seconds) => {
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};
const when = (iso) => {
  try {
    return new Date(iso).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
  } catch (e) {
    return iso;
  }
};

/** Running win rate (%) after each game, oldest first. */
export function runningRate(results) {
  let won = 0;
  return results.map((r, i) => {
    if (r === "won") won += 1;
    return (100 * won) / (i + 1);
  });
}

/** The chart: one mark per game, oldest on the left (won up, lost or abandoned down), and the
 * running win rate as a line over them. */
function drawChart(entries, width) {
  const games = [...entries].reverse();
  const results = games.map((e) => e.result);
  const count = (r) => results.filter((x) => x === r).length;
  const rates = runningRate(results);
  const W = Math.max(280, Math.round(width)); // drawn at the page's own scale: text stays legible
  const H = 180;
  const left = 46;
  const top = 8;
  const plot = 110; // the win rate's height, 0 to 100 %
  const band = top + plot + 14; // the results' strip
  const step = (W - left - 4) / Math.max(games.length, 1);
  const x = (i) => left + step * (i + 0.5);
  const bar = Math.min(Math.max(step * 0.7, 2), 18);
  const label = t("chart", { n: games.length, won: count("won"), lost: count("lost"),
    abandoned: count("abandoned"), rate: `${Math.round(rates.at(-1) ?? 0)} %` });
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label,
    class: "chart-svg", preserveAspectRatio: "xMidYMid meet" });
  const title = svg("title");
  title.textContent = label;
  chart.append(title);
  for (const p of [0, 50, 100]) {
    const y = top + plot * (1 - p / 100);
    chart.append(svg("line", { x1: left, x2: W - 4, y1: y, y2: y, class: "grid" }));
    const tx = svg("text", { x: left - 4, y: y + 4, class: "axis" });
    tx.textContent = `${p} %`;
    chart.append(tx);
  }
  games.forEach((g, i) => {
    const won = g.result === "won";
    const mark = svg("rect", {
      x: x(i) - bar / 2, width: bar,
      y: won ? band : band + 12, height: won ? 12 : g.result === "lost" ? 24 : 12,
      class: `mark ${g.result}`,
    });
    const tip = svg("title");
    tip.textContent = `${gameName(g)} — ${t(g.result)} — ${when(g.ended_at)}`;
    mark.append(tip);
    chart.append(mark);
  });
  if (games.length) {
    const points = rates.map((r, i) => `${x(i).toFixed(1)},${(top + plot * (1 - r / 100)).toFixed(1)}`);
    chart.append(svg("polyline", { points: points.join(" "), class: "rate" }));
  }
  const legend = [["won", t("won")], ["lost", t("lost")], ["abandoned", t("abandoned")],
    ["rate", t("win_rate")]].map(([cls, text]) => h("span", { class: `key ${cls}` },
    h("span", { class: "swatch", "aria-hidden": "true" }), text));
  return [chart, legend];
}

function historyItem(e) {
  const facts = [h("span", { class: `result ${e.result}`, text: t(e.result) }),
    h("span", { class: "game", text: gameName(e) })];
  if (e.number !== null && e.number !== undefined) {
    facts.push(h("span", { class: "number", text: t("deal", { number: e.number }) }));
  }
  facts.push(h("span", { class: "moves", text: t("moves", { n: e.moves }) }),
    h("span", { class: "time", text: `${t("time")} ${clock(e.seconds)}` }));
  const help = [e.used_undo ? t("undo") : "", e.used_hint ? t("hint") : ""].filter(Boolean);
  if (help.length) facts.push(h("span", { class: "help", text: help.join(", ") }));
  facts.push(h("time", { datetime: e.ended_at, text: when(e.ended_at) }));
  return h("li", { "data-result": e.result }, ...facts);
}

async function showHistory(section, game) {
  const list = section.querySelector(".history");
  const drawing = section.querySelector(".chart-drawing");
  const legend = section.querySelector(".chart-legend");
  let entries;
  try {
    entries = await api.history(game);
  } catch (e) {
    list.replaceChildren(h("li", { class: "empty", text: t("history_failed") }));
    return;
  }
  section.dataset.count = String(entries.length);
  if (!entries.length) {
    drawing.replaceChildren();
    legend.replaceChildren();
    list.replaceChildren(h("li", { class: "empty", text: t("no_games") }));
    return;
  }
  const [chart, keys] = drawChart(entries, drawing.clientWidth || 600);
  drawing.replaceChildren(chart);
  legend.replaceChildren(...keys);
  list.replaceChildren(...entries.map(historyItem));
}

function setUpReset(section, select) {
  const para = root.querySelector(".stats-reset");
  const dialog = root.querySelector(".confirm-reset");
  const button = para.querySelector(".btn-reset");
  para.hidden = false;
  button.addEventListener("click", () => {
    const game = select.value;
    const name = select.selectedOptions[0]?.textContent ?? game;
    dialog.querySelector("#reset-text").textContent = game
      ? t("confirm_game", { game: name }) : t("confirm_all");
    dialog.returnValue = "";
    dialog.showModal();
  });
  dialog.addEventListener("close", async () => {
    if (dialog.returnValue !== "reset") return;
    try {
      await api.resetStats(select.value);
    } catch (e) {
      para.querySelector(".reset-status").textContent = `${t("reset_failed")} (${e.detail})`;
      return;
    }
    // The table is the server's: the page is drawn again from the statistics left.
    window.location.reload();
  });
}

const section = root?.querySelector(".results");
if (section) {
  const select = section.querySelector("select");
  section.hidden = false;
  select.addEventListener("change", () => showHistory(section, select.value));
  setUpReset(section, select);
  showHistory(section, select.value);
}
