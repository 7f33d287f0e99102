// Réussite's table: draws a game from the server's view and turns the player's gestures
// (drag and drop, click-click, double-click, keyboard) into moves. The server is the referee:
// the view's `legal_moves` light up destinations without a round trip, and a refused move
// comes back with the rule's sentence, which we show.

import { api, ApiError } from "./api.js";
import { cardElement, cardName, rankOf } from "./cards.js";
import { animate, snapshot, springBack as glideBack } from "./animate.js";
import { drawOrder, fanTops, indexShare, largestCardFitting, peakPlaces, sized, tableMetrics }
  from "./layout.js";
import { loadSettings, saveSettings, SPEEDS } from "./settings.js";
import { SCORINGS, scoreText } from "./scoring.js";
import { clockOf, formatTime, secondsAt } from "./timer.js";
import { eventsAfterGuess, predict, undoEvents } from "./optimistic.js";
import { finishGame } from "./finish.js";
import { bestOf, cascade } from "./celebrate.js";
import { applyLooks, looksControls } from "./looks.js";
import { playSound, soundOf } from "./sound.js";
import { awaitAnalysis, createReview, stateText } from "./review.js";
import { boardAfter } from "./board.js";
import { readStrings } from "./strings.js";

const FALLBACK = {
  new_game: "New game", restart: "Restart", undo: "Undo", redo: "Redo", hint: "Hint",
  no_hint: "No move to suggest", deal_number: "Deal", moves: "Moves", time: "Time",
  score: "Score", stock: "stock", waste: "waste", foundation: "foundation", cell: "cell",
  reserve: "reserve", tableau: "pile", face_down: "face-down card", empty: "empty",
  won: "You won!", lost: "No more moves", stuck: "Stuck", play_again: "Play again",
  settings: "Settings", four_colours: "Four-colour suits", left_handed: "Left-handed",
  animation: "Animation", speed_off: "off", speed_fast: "fast", speed_normal: "normal",
  speed_slow: "slow", auto_collect: "Auto-collect", winnable_only: "Winnable deals only",
  card_name: "{rank} of {suit}", suit_S: "spades", suit_H: "hearts", suit_D: "diamonds",
  suit_C: "clubs", redeals_left: "Redeals left", cards_left: "Cards left",
  confirm_new: "Abandon the game in progress and deal a new one?", keep_playing: "Keep playing",
  bad_number: "A deal number is a whole number from 0 to {max}.",
  scoring: "Scoring", scoring_off: "none", scoring_standard: "standard", scoring_vegas: "Vegas",
  score_vegas: "Vegas score",
  pause: "Pause", resume: "Resume", paused: "Paused", finish: "Finish the game",
  finish_offer: "Every card can go home.", summary_time: "Time", summary_moves: "Moves",
  summary_undo: "Undo used", summary_hint: "Hints used", summary_yes: "yes", summary_no: "no",
  summary_best: "Your best for this game", summary_first: "Your first win of this game!",
  summary_wins: "Games won", same_deal: "Same deal again", close: "Close",
  court_letters: "JQK", sound: "Sound", card_back: "Card back", back_navy: "Navy lattice",
  back_red: "Red dots", back_black: "Black and gold", table_colour: "Table colour",
  felt_green: "Green", felt_blue: "Blue", felt_wine: "Wine red", felt_slate: "Slate grey",
  give_up: "Give up", confirm_give_up: "Give up this game? It counts as a loss.",
  given_up: "Given up", cancel: "Cancel", analyse: "Analyse this game",
  confirm_seal: "The analysis shows every card: this game then ends for good, with no more undo.",
  analysis_queued: "In the queue: {n} ahead", analysis_running: "Analysing…",
  retry: "Try again", analysis: "Analysis", back_to_game: "Back to the game",
  analysis_link: "Link to this analysis", timeline: "Your moves, one by one",
  legend_losing: "The move that lost the game", legend_suspect: "The loss lies among these moves",
  position_deal: "The deal, before the first move", position_move: "After move {at} of {length}",
  win_move: "The solver's win from your move {k}: move {at} of {length}",
  win_start: "The position after your move {k}, from which a win existed",
  stock_move: "A click on the stock", face_down_shown: "face down",
  uncertain: "The solver could not decide, within its budget, the positions after your moves {list}.",
  play: "Play", step_back: "Previous move", step_forward: "Next move", to_start: "To the start",
  to_end: "To the end", replay_speed: "Replay speed", show_win: "Show the win from here",
  your_moves: "Back to your moves",
};
["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack",
  "queen", "king"].forEach((n, i) => { FALLBACK[`rank_${i + 1}`] = n; });

const ICONS = { new_game: "+", restart: "⟲", undo: "↶", redo: "↷", give_up: "⚑", settings: "⚙" };
// The hint's icon is a light bulb ("?" reads as help).
const BULB = '<svg viewBox="0 0 24 24" width="1.15em" height="1.15em" fill="currentColor">'
  + '<path d="M12 2a7 7 0 0 0-4 12.7V17a1 1 0 0 0 1 1h6a1 1 0 0 0 1-1v-2.3A7 7 0 0 0 12 2z'
  + 'M9 19.5h6V21a1 1 0 0 1-1 1h-4a1 1 0 0 1-1-1z"/></svg>';

const DRAG_THRESHOLD = 5;
const MIN_INDEX_PX = 12; // the smallest corner index worth keeping cards this size for
const DOUBLE_TAP_MS = 400;

const root = document.getElementById("game");
// The largest deal number: reussite.deals.MAX_DEAL_NUMBER (2^64 - 1; a browser test checks
// that the two agree).
const MAX_DEAL_NUMBER = "18446744073709551615";
const gameId = root?.dataset.gameId;
// A daily deal's page (/daily/{game}/{day}): its games are that day's deal.
const dailyDay = root?.dataset.daily || null;
const PREPARING_TRIES = 24; // a day's deal being prepared: asked again for about two minutes
// The texts: the server's list (#ui-strings) and the table's own, from its template.
const strings = readStrings("ui-strings", "table-strings");
const t = (k) => strings[k] ?? FALLBACK[k] ?? k;
const settings = loadSettings();

const state = {
  view: null,
  selection: null, // {pile, count}
  held: null, // keyboard pick-up {pile, count}
  focus: 0, // index into pileOrder
  kbCount: 1,
  lastTap: null,
  compact: false,
  metrics: { cw: 80, ch: 112 },
  base: null, // the metrics that fit the screen, before tall piles make the cards smaller
  drag: null,
  clock: null, // the game's clock (timer.js)
  hintTimer: 0,
  toastTimer: 0,
  analysis: null, // {id, text, failed}: where the analysis asked for on this table stands
  review: false, // the analysis panel is open: the table shows its positions
  final: null, // the game's own view while the panel shows its positions
};

const els = {};
let pileOrder = []; // pile ids in DOM order, for keyboard focus
const pileEls = new Map();
let chain = Promise.resolve();

// ---------------------------------------------------------------- small helpers

const kindOf = (pile) => pile.split(":")[0];
const pileNo = (pile) => Number(pile.split(":")[1] ?? 0);
const h = (tag, attrs = {}, ...kids) => {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v);
  }
  for (const kid of kids) if (kid) el.append(kid);
  return el;
};
const speed = () => SPEEDS[settings.animation] ?? 1;
const sameMove = (a, b) => a.type === b.type
  && (a.type === "stock" || (a.from === b.from && a.to === b.to && a.count === b.count));
const isLegal = (m) => state.view?.legal_moves.some((l) => sameMove(l, m));
const cardLabel = (entry) => {
  if (!entry.up || !entry.card) return t("face_down");
  // A card the analysis shows although it lay face down says so.
  return entry.revealed ? `${cardName(entry.card, t)} (${t("face_down_shown")})`
    : cardName(entry.card, t);
};
const pileName = (pile) => (pile.includes(":") ? `${t(kindOf(pile))} ${pileNo(pile) + 1}`
  : t(kindOf(pile)));

function pileLabel(pile) {
  const kind = kindOf(pile);
  const name = pileName(pile);
  const cards = state.view.piles[pile];
  if (!cards.length) return `${name}: ${t("empty")}`;
  if (kind === "stock") return `${name}: ${cards.length}`;
  const down = cards.filter((c) => !c.up).length;
  // As drawn: a foundation holding a whole suit shows (and names) its King on top.
  const ups = drawOrder(kind, cards).map((i) => cards[i]).filter((c) => c.up).map(cardLabel);
  const shown = kind === "tableau" || (kind === "reserve" && fansReserves()) ? ups : ups.slice(-1);
  const parts = [];
  if (down) parts.push(`${down} × ${t("face_down")}`);
  return `${name}: ${[...parts, ...shown].join(", ")}`;
}

function fansReserves() {
  return !Object.keys(state.view.piles).some((p) => kindOf(p) === "tableau");
}

// ---------------------------------------------------------------- building the table

const review = createReview({ api, h, t, cardName, pileName, draw: drawPosition,
  close: closeReview });

function buildChrome() {
  root.classList.add("reussite");
  root.textContent = "";
  // Buttons carry an icon and a label; narrow screens show the icons only (the label stays
  // the accessible name).
  const btn = (key, onclick, extra = {}) => {
    const icon = h("span", { class: "icon", "aria-hidden": "true", text: ICONS[key] ?? "" });
    if (key === "hint") icon.innerHTML = BULB;
    return h("button", { type: "button", class: `btn btn-${key}`, "data-action": key, onclick,
      "aria-label": t(key), ...extra }, icon, h("span", { class: "label", text: t(key) }));
  };
  // A text field, not type=number: the wheel and the arrows must not deal another game, and
  // the number may be longer than a double holds.
  els.number = h("input", {
    type: "text", inputmode: "numeric", autocomplete: "off", spellcheck: "false",
    class: "deal-number", "aria-label": t("deal_number"), name: "number",
  });
  els.number.addEventListener("change", onDealNumber);
  els.undo = btn("undo", () => act("undo"), { title: `${t("undo")} (Ctrl+Z)` });
  els.redo = btn("redo", () => act("redo"), { title: `${t("redo")} (Ctrl+Y)` });
  els.settings = buildSettings();
  els.toolbar = h("div", { class: "toolbar", role: "toolbar" },
    btn("new_game", () => askNewGame({})),
    btn("restart", () => act("restart")),
    els.undo, els.redo,
    btn("hint", showHint, { title: `${t("hint")} (H)` }),
    els.giveUp = btn("give_up", askGiveUp),
    h("label", { class: "deal" }, h("span", { text: t("deal_number") }), els.number),
    els.settings);
  els.moves = h("span", { class: "stat-moves" });
  els.time = h("span", { class: "stat-time" });
  els.score = h("span", { class: "stat-score" });
  els.redeals = h("span", { class: "stat-redeals" });
  els.pause = h("button", { type: "button", class: "btn-pause", "aria-label": t("pause"),
    title: `${t("pause")} (P)`, onclick: pauseAsked },
  h("span", { "aria-hidden": "true", text: "❚❚" }));
  els.status = h("div", { class: "statusbar" },
    h("span", {}, `${t("moves")} `, els.moves),
    h("span", { class: "stat-clock" }, `${t("time")} `, els.time, els.pause),
    els.score, els.redeals);
  els.table = h("div", { class: "table", role: "application",
    "aria-roledescription": "card table" });
  els.toast = h("div", { class: "toast", role: "status", "aria-live": "polite" });
  els.banner = h("div", { class: "banner", hidden: "" });
  els.confirm = h("dialog", { class: "confirm", "aria-labelledby": "confirm-text" },
    h("form", { method: "dialog" },
      h("p", { id: "confirm-text", text: t("confirm_new") }),
      h("div", { class: "confirm-buttons" },
        h("button", { class: "btn", value: "keep", autofocus: "" }, t("keep_playing")),
        h("button", { class: "btn btn-abandon", value: "abandon" }, t("new_game")))));
  els.pausedCover = h("div", { class: "paused-cover", hidden: "" },
    h("strong", { text: t("paused") }),
    h("button", { type: "button", class: "btn btn-resume", onclick: () => setPaused(false) },
      t("resume")));
  els.finish = h("div", { class: "finish-offer", hidden: "" },
    h("span", { text: t("finish_offer") }),
    h("button", { type: "button", class: "btn btn-finish", onclick: finish }, t("finish")));
  els.summary = h("dialog", { class: "win-summary", "aria-labelledby": "summary-title" });
  els.confirmGiveUp = confirmDialog("confirm-give-up", t("confirm_give_up"), t("keep_playing"),
    t("give_up"));
  els.confirmSeal = confirmDialog("confirm-seal", t("confirm_seal"), t("cancel"), t("analyse"));
  els.analysisNote = h("span", { class: "analysis-state", role: "status" });
  els.review = review.el;
  root.append(els.toolbar, els.status, els.review, els.table, els.banner, els.finish,
    els.pausedCover, els.toast, els.confirm, els.confirmGiveUp, els.confirmSeal, els.summary);
  applySettings();
}

/** A question with two answers: Cancel (which has the focus, as Escape) and `yes`. */
function confirmDialog(id, text, no, yes) {
  return h("dialog", { class: "confirm", "aria-labelledby": `${id}-text` },
    h("form", { method: "dialog" },
      h("p", { id: `${id}-text`, text }),
      h("div", { class: "confirm-buttons" },
        h("button", { class: "btn", value: "no", autofocus: "" }, no),
        h("button", { class: "btn btn-abandon", value: "yes" }, yes))));
}

/** Ask `dialog`; true when the player says yes. */
function ask(dialog) {
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
  });
}

function buildSettings() {
  const check = (key, prop) => {
    const input = h("input", { type: "checkbox", name: prop });
    input.checked = settings[prop];
    input.addEventListener("change", () => {
      settings[prop] = input.checked;
      saveSettings(settings);
      applySettings();
      if (prop === "autoCollect" && input.checked) enqueue(autoCollect);
    });
    return h("label", { class: "setting" }, input, h("span", { text: t(key) }));
  };
  const choice = (prop, names, key, onchange) => {
    const select = h("select", { name: prop });
    for (const name of names) {
      const o = h("option", { value: name, text: t(`${key}_${name}`) });
      if (settings[prop] === name) o.selected = true;
      select.append(o);
    }
    select.addEventListener("change", () => {
      settings[prop] = select.value;
      saveSettings(settings);
      onchange?.();
    });
    return select;
  };
  // Only the games with a choice of scores (the page says so) offer it.
  const scoring = root.dataset.scoring
    ? h("label", { class: "setting" }, h("span", { text: t("scoring") }),
      choice("scoring", SCORINGS, "scoring", updateScore))
    : null;
  const looks = looksControls(settings, t, () => {
    saveSettings(settings);
    applyLooks(root, settings);
  });
  return h("details", { class: "settings" },
    h("summary", { "aria-label": t("settings"), title: t("settings") },
      h("span", { class: "icon", "aria-hidden": "true", text: ICONS.settings }),
      h("span", { class: "label", text: t("settings") })),
    h("div", { class: "settings-panel" },
      check("four_colours", "fourColours"),
      check("left_handed", "leftHanded"),
      check("auto_collect", "autoCollect"),
      check("winnable_only", "winnableOnly"),
      scoring,
      check("sound", "sound"),
      h("label", { class: "setting" }, h("span", { text: t("animation") }),
        choice("animation", Object.keys(SPEEDS), "speed", applySettings)),
      ...looks));
}

function applySettings() {
  root.classList.toggle("four-colours", settings.fourColours);
  root.classList.toggle("left-handed", settings.leftHanded);
  root.classList.toggle("no-motion", !speed());
  applyLooks(root, settings);
  if (!state.view) return;
  for (const [pile, cards] of Object.entries(state.view.piles)) drawPile(pile, cards);
  layout();
}

/** Make the pile elements for this game (once per game kind). */
function buildPiles(view) {
  els.table.textContent = "";
  pileEls.clear();
  const ids = Object.keys(view.piles);
  const of = (kind) => ids.filter((p) => kindOf(p) === kind);
  const fan = !of("tableau").length;
  const group = (cls, piles) => {
    const g = h("div", { class: `group ${cls}` });
    for (const p of piles) g.append(makePile(p, view));
    return g;
  };
  const stockGroup = group("stock-group", [...of("stock"), ...of("waste")]);
  stockGroup.hidden = view.has_stock === false; // FreeCell and the like: every card dealt
  const top = h("div", { class: "row top" },
    stockGroup,
    of("cell").length ? group("cells", of("cell")) : null,
    !fan && of("reserve").length ? group("reserves stacked", of("reserve")) : null,
    h("div", { class: "spacer" }),
    group("foundations", of("foundation")));
  els.table.append(top);
  els.top = top;
  if (fan && of("reserve").length) els.table.append(group("row fans reserves", of("reserve")));
  if (view.covers) els.table.append(group("row peaks tableau", of("tableau")));
  else if (of("tableau").length) els.table.append(group("row fans tableau", of("tableau")));
  pileOrder = [...els.table.querySelectorAll(".pile")].filter((e) => !e.closest("[hidden]"))
    .map((e) => e.dataset.pile);
  state.focus = Math.min(state.focus, pileOrder.length - 1);
  els.table.dataset.game = view.game;
  els.table.dataset.piles = ids.join(" ");
}

function makePile(pile, view) {
  const kind = kindOf(pile);
  const fanned = (kind === "tableau" && !view.covers) || (kind === "reserve"
    && !Object.keys(view.piles).some((p) => kindOf(p) === "tableau"));
  const el = h("div", {
    class: `pile pile-${kind}${fanned ? " fanned" : ""}`, "data-pile": pile, tabindex: "-1",
    role: "button",
  });
  if (kind === "stock" || (kind === "reserve" && !fanned)) {
    el.append(h("span", { class: "count", "aria-hidden": "true" }));
  }
  pileEls.set(pile, el);
  return el;
}

// ---------------------------------------------------------------- sizing

function layout() {
  const v = state.view;
  if (!v) return;
  const ids = Object.keys(v.piles);
  const n = { stock: 0, waste: 0, foundation: 0, cell: 0, reserve: 0, tableau: 0 };
  for (const p of ids) n[kindOf(p)] += 1;
  if (v.has_stock === false) n.stock = 0;
  // Piles covering others (TriPeaks): as wide as the open row, as tall as its overlapping rows.
  const peaks = v.covers ? peakPlaces(v.covers) : null;
  if (peaks) n.tableau = peaks.cols;
  const H = window.innerHeight;
  const above = Math.min(H * 0.25, Math.max(0, root.getBoundingClientRect().top + window.scrollY));
  const bars = state.review ? els.review.offsetHeight
    : (els.toolbar.offsetHeight || 44) + (els.status.offsetHeight || 24);
  const chrome = above + bars + 16;
  const width = els.table.clientWidth || root.clientWidth || window.innerWidth;
  state.base = tableMetrics(n, width, H - chrome);
  setMetrics(state.base);
  fitCards();
  if (peaks) placePeaks(peaks);
  placeAll();
  orderPiles();
}

/**
 * Where each tableau pile of a game whose piles cover others lies (layout.peakPlaces), placed
 * in cards and gaps: the open piles side by side, each covered pile half a card higher than
 * the piles covering it, centred above them.
 */
function placePeaks(peaks) {
  const { cw, ch, gap } = state.metrics;
  const step = cw + gap;
  const group = els.table.querySelector(".peaks");
  group.style.width = `${(peaks.cols - 1) * step + cw}px`;
  group.style.height = `${peaks.rows * ch * 0.5 + ch}px`;
  for (const [i, place] of peaks.places.entries()) {
    const el = pileEls.get(`tableau:${i}`);
    el.style.left = `${place.x * step}px`;
    el.style.top = `${place.row * ch * 0.5}px`;
  }
}

function setMetrics(m) {
  state.metrics = m;
  root.style.setProperty("--cw", `${m.cw}px`);
  root.style.setProperty("--ch", `${m.ch}px`);
  root.style.setProperty("--idx", `${Math.ceil(m.ch * indexShare(m.compact))}px`);
  root.style.setProperty("--gap", `${m.gap}px`);
  root.style.setProperty("--fcols", String(m.fCols));
  root.classList.toggle("narrow", state.base.narrow); // the toolbar follows the screen
  els.top.classList.toggle("wrap", m.wrap);
  if (m.compact !== state.compact) {
    state.compact = m.compact;
    for (const [pile, cards] of Object.entries(state.view.piles)) drawPile(pile, cards);
  }
}

/**
 * Cards as large as the screen allows (state.base), but small enough that every fanned pile
 * fits below its top with each face-up card's index whole (layout.fanTops): a tall pile first
 * closes up its face-down cards, then its face-up ones down to their index, and only then
 * makes every card smaller.
 */
function fitCards() {
  const cur = state.metrics;
  const tableTop = els.table.getBoundingClientRect().top;
  const H = window.innerHeight;
  const piles = [];
  for (const [pile, el] of pileEls) {
    if (!el.classList.contains("fanned")) continue;
    const top = el.getBoundingClientRect().top;
    // Rows of cards above the pile: they shrink with the cards, lifting the pile.
    const rows = Math.round((top - tableTop) / cur.ch);
    piles.push({ ups: state.view.piles[pile].map((c) => c.up),
      room: (ch) => Math.max(ch * 2.2, H - top - rows * (ch - cur.ch) - 12) });
  }
  const cw = largestCardFitting(state.base.cw, piles, MIN_INDEX_PX);
  if (cw !== cur.cw) setMetrics(sized(cw, state.base.wrap, state.base.fCols));
}

/**
 * The keyboard's order of the piles: as they are seen, line by line and left to right (the
 * left-handed layout puts the stock on the right of its row).
 */
function orderPiles() {
  const focused = pileOrder[state.focus];
  const at = new Map([...pileEls].map(([p, el]) => [p, el.getBoundingClientRect()]));
  pileOrder = [...pileEls.keys()].sort((a, b) => {
    const ra = at.get(a);
    const rb = at.get(b);
    return Math.abs(ra.top - rb.top) > state.metrics.ch / 2 ? ra.top - rb.top : ra.left - rb.left;
  });
  state.focus = Math.max(0, pileOrder.indexOf(focused));
}

/** Place the cards of every pile (the sizes stay: they depend on the screen, not the view). */
function placeAll() {
  // Read every pile's place first, then write: one layout pass instead of one per pile.
  const ids = [...pileEls.keys()];
  const tops = new Map(ids.map((p) => [p, pileEls.get(p).getBoundingClientRect().top]));
  for (const pile of ids) placeCards(pile, tops.get(pile) + window.scrollY);
}

/** Position the cards of one pile; fanned piles squeeze to stay on the screen. */
function placeCards(pile, top) {
  const el = pileEls.get(pile);
  const cards = [...el.querySelectorAll(":scope > .card")];
  const { cw, ch } = state.metrics;
  if (el.classList.contains("fanned")) {
    const avail = Math.max(ch * 2.2, window.innerHeight + window.scrollY - top - 8);
    const fan = fanTops(cards.map((c) => c.classList.contains("up")), ch, avail, state.compact);
    cards.forEach((c, i) => {
      c.style.top = `${fan.tops[i]}px`;
      c.style.left = "0px";
    });
    el.style.height = `${fan.height}px`;
  } else if (el.classList.contains("draw3")) {
    // Draw three: the top three cards of the waste fan out, away from the stock.
    const dir = settings.leftHanded ? -1 : 1;
    cards.forEach((c, i) => {
      c.style.top = "0px";
      c.style.left = `${dir * Math.round(Math.max(0, i - (cards.length - 3)) * cw * 0.3)}px`;
    });
  } else {
    cards.forEach((c) => { c.style.top = "0px"; c.style.left = "0px"; });
  }
}

// ---------------------------------------------------------------- drawing a view

function render(view, opts = {}) {
  const t0 = performance.now();
  const old = state.view;
  const rects = old && old.game === view.game && pileEls.size ? snapshot(pileEls) : null;
  const oldLens = old ? Object.fromEntries(Object.entries(old.piles).map(([p, c]) => [p, c.length]))
    : null;
  const sameKind = old && old.game === view.game
    && Object.keys(old.piles).join() === Object.keys(view.piles).join();
  state.view = view;
  if (!sameKind) buildPiles(view);
  for (const [pile, cards] of Object.entries(view.piles)) {
    // Only piles that changed are drawn again (the stock always: its look follows the moves).
    if (!sameKind || pile === "stock" || !samePile(old.piles[pile], cards)) drawPile(pile, cards);
  }
  if (view.review) {
    clearMarks();
    applyFocus();
  } else {
    updateChrome();
  }
  if (sameKind) {
    fitCards();
    placeAll();
  } else {
    layout();
  }
  if (rects) animate(pileEls, rects, oldLens, view.events || [], { from: opts.from, speed: speed() });
  if (old && old.id === view.id && old.status === "playing" && view.status === "won"
    && !view.guessed && !view.review && !old.review) celebrate(view);
  if (settings.sound) playSound(soundOf(old, view));
  performance.measure?.("reussite:render", { start: t0 }); // read by bench/client_speed.py
}

function samePile(a, b) {
  return a.length === b.length && a.every((e, i) => e.card === b[i].card && e.up === b[i].up);
}

function drawPile(pile, cards) {
  const el = pileEls.get(pile);
  for (const c of el.querySelectorAll(":scope > .card")) c.remove();
  const kind = kindOf(pile);
  // Squared piles only show their top cards: the rest cannot be seen anyway.
  const keep = el.classList.contains("fanned") ? cards.length
    : kind === "waste" ? 3 : 2;
  const frag = document.createDocumentFragment();
  // Each card keeps its index in the view (the animations find it by that), whatever the
  // order it is drawn in (drawOrder: a whole suit on a foundation shows its King).
  for (const i of drawOrder(kind, cards).slice(-keep)) {
    const c = cardElement(cards[i], cardLabel(cards[i]),
      { compact: state.compact, fourColours: settings.fourColours,
        letters: t("court_letters") });
    c.dataset.index = String(i);
    c.dataset.pile = pile;
    if (cards[i].revealed) c.classList.add("revealed");
    frag.append(c);
  }
  el.append(frag);
  el.dataset.count = String(cards.length);
  el.classList.toggle("empty", !cards.length);
  el.classList.toggle("draw3", kind === "waste" && isDrawThree());
  el.setAttribute("aria-label", pileLabel(pile));
  const count = el.querySelector(".count");
  if (count) count.textContent = cards.length > 1 || kind === "stock" ? String(cards.length || "") : "";
  if (kind === "stock") {
    el.classList.toggle("can-redeal", !cards.length
      && state.view.legal_moves.some((m) => m.type === "stock"));
  }
}

// Games that draw three cards at a time: the waste shows its top three fanned.
const isDrawThree = () => (state.view?.draw ?? 1) > 1;

function updateChrome() {
  const v = state.view;
  els.undo.disabled = !v.can_undo;
  els.redo.disabled = !v.can_redo;
  // The box shows the deal on the table, but what is being typed in it stays while moves go.
  // A deal the site chose keeps its number secret (null) until the game is over.
  const shown = v.number ?? "";
  if (document.activeElement !== els.number || els.number.dataset.shown !== shown) {
    els.number.value = shown;
    els.number.dataset.shown = shown;
    els.number.removeAttribute("aria-invalid");
  }
  els.moves.textContent = String(v.moves ?? 0);
  updateScore();
  const stockLen = v.piles.stock?.length ?? 0;
  // Redeals are worth showing when some are left, or when the stock has run out.
  const showRedeals = typeof v.redeals_left === "number" && (v.redeals_left > 0 || !stockLen);
  const redeals = showRedeals ? ` · ${t("redeals_left")} ${v.redeals_left}` : "";
  // A game dealt whole (FreeCell) has no stock to count.
  els.redeals.textContent = v.has_stock === false ? "" : `${t("cards_left")} ${stockLen}${redeals}`;
  if (!v.guessed) state.clock = clockOf(v, performance.now());
  tick();
  root.classList.toggle("paused", !!v.paused);
  els.pausedCover.hidden = !v.paused;
  els.pause.disabled = v.status !== "playing";
  els.giveUp.disabled = v.status !== "playing" || !!v.paused;
  els.finish.hidden = !v.finish || v.status !== "playing";
  if (v.status !== "won" && els.summary.open) els.summary.close();
  if (v.paused) resumeAfterHiding(v);
  root.dataset.status = v.status;
  root.dataset.version = String(v.version);
  root.dataset.gameUid = v.id;
  root.dataset.number = shown;
  root.classList.toggle("won", v.status === "won");
  showBanner(v.status);
  if (dailyDay) boardAfter(v);
  const url = addressOf(v);
  if (url.href !== window.location.href || history.state?.id !== v.id) {
    history.replaceState({ id: v.id }, "", url);
  }
  clearMarks();
  applyFocus();
}

function updateScore() {
  const v = state.view;
  if (!v) return;
  els.score.textContent = scoreText(v, settings.scoring, t);
  els.score.hidden = !els.score.textContent;
}

function tick() {
  if (!state.clock) return;
  els.time.textContent = formatTime(secondsAt(state.clock, performance.now()));
}

/** Pause or resume the game's clock, on the server too (a paused table hides its cards). */
function setPaused(paused) {
  return enqueue(async () => {
    const v = state.view;
    if (!v || !!v.paused === paused || (paused && v.status !== "playing")) return;
    render(await api.action(v.id, paused ? "pause" : "resume", v.version));
    if (!paused) applyFocus(true);
  });
}

// A game is paused when its tab stays hidden a moment (leaving the page is no pause: the
// page is gone before the moment ends), and starts again by itself when the player is back
// (a reload included); one paused on request waits for Resume.
const HIDDEN_PAUSE = "reussite.hiddenPause";
const HIDDEN_MS = 1000;
let hiddenTimer = 0;

function onVisibility() {
  clearTimeout(hiddenTimer);
  if (document.visibilityState === "hidden") {
    hiddenTimer = setTimeout(() => {
      const v = state.view;
      if (document.visibilityState !== "hidden" || v?.status !== "playing" || v.paused) return;
      sessionStorage.setItem(HIDDEN_PAUSE, v.id);
      setPaused(true);
    }, HIDDEN_MS);
  } else if (state.view) {
    resumeAfterHiding(state.view);
  }
}

/** A pause the player asks for: it lasts until Resume, reloads included. */
function pauseAsked() {
  sessionStorage.removeItem(HIDDEN_PAUSE);
  return setPaused(true);
}

function resumeAfterHiding(v) {
  if (sessionStorage.getItem(HIDDEN_PAUSE) !== v.id || document.visibilityState !== "visible") {
    return;
  }
  sessionStorage.removeItem(HIDDEN_PAUSE);
  if (v.paused) setPaused(false);
}

/** Play the rest of the game for the player (the server names each move: view.finish). */
function finish() {
  els.finish.hidden = true;
  return enqueue(() => finishGame(() => state.view,
    (m) => sendMove(m, { noCollect: true }), 60 * speed()));
}

/** The win: the cards cascade home, then the summary of the game. */
async function celebrate(view) {
  const stats = api.stats().catch(() => null);
  // Where the cards went home: the foundations, or the waste of a game without any (Golf).
  let homes = [...pileEls].filter(([p]) => kindOf(p) === "foundation").map(([, e]) => e);
  if (!homes.length && pileEls.has("waste")) homes = [pileEls.get("waste")];
  await cascade(homes, speed());
  if (state.view?.id !== view.id) return;
  showSummary(view, bestOf(await stats, view.game));
}

function showSummary(view, best) {
  const d = els.summary;
  d.textContent = "";
  const row = (label, value) => h("div", { class: "summary-row" },
    h("dt", { text: label }), h("dd", { text: value }));
  const facts = h("dl", {},
    row(t("summary_time"), formatTime(view.elapsed_seconds)),
    row(t("summary_moves"), String(view.moves)),
    row(t("summary_undo"), view.used_undo ? t("summary_yes") : t("summary_no")),
    row(t("summary_hint"), view.used_hint ? t("summary_yes") : t("summary_no")));
  const bestPart = !best || best.won <= 1 ? h("p", { class: "summary-best", text: t("summary_first") })
    : h("div", { class: "summary-best" }, h("h3", { text: t("summary_best") }),
      h("dl", {}, row(t("summary_time"), formatTime(best.time ?? 0)),
        row(t("summary_moves"), String(best.moves ?? "")),
        row(t("summary_wins"), `${best.won} / ${best.played}`)));
  const close = () => d.close();
  d.append(h("h2", { id: "summary-title", text: t("won") }), facts, bestPart,
    h("div", { class: "confirm-buttons" },
      h("button", { type: "button", class: "btn", onclick: close }, t("close")),
      canAnalyse(view) ? h("button", { type: "button", class: "btn btn-analyse",
        onclick: () => { close(); analyseGame(); } }, t("analyse")) : null,
      view.number !== undefined && view.number !== null
        ? h("button", { type: "button", class: "btn btn-same-deal",
          onclick: () => { close(); startGame({ number: view.number }, true); } }, t("same_deal"))
        : null,
      h("button", { type: "button", class: "btn btn-new-game", autofocus: "",
        onclick: () => { close(); startGame({}, true); } }, t("new_game"))));
  // Not modal: undo and the table stay within reach. The banner waits behind it.
  els.banner.hidden = true;
  d.addEventListener("close", () => { els.banner.hidden = state.view?.status === "playing"; },
    { once: true });
  d.show();
}

/** The analysis shows every card: a daily deal's opens only once its day is over (its
 * number, null until then, is shown from that moment). */
function canAnalyse(v) {
  return !v.daily || (v.number !== null && v.number !== undefined);
}

function showBanner(status) {
  const b = els.banner;
  if (status === "playing") {
    b.hidden = true;
    return;
  }
  b.textContent = "";
  b.className = `banner banner-${status}`;
  const again = h("button", { type: "button", class: "btn btn-play-again",
    onclick: () => askNewGame({}) }, t("play_again"));
  const v = state.view;
  const said = status === "won" ? t("won") : v.ended === "resigned" ? t("given_up") : t("lost");
  b.append(h("strong", { text: said }), again);
  if (status === "lost" && v.can_undo) {
    b.append(h("button", { type: "button", class: "btn", onclick: () => act("undo") }, t("undo")));
  }
  const a = state.analysis?.id === v.id ? state.analysis : null;
  if (!a?.busy && canAnalyse(v)) {
    b.append(h("button", { type: "button", class: "btn btn-analyse", onclick: analyseGame },
      a?.failed ? t("retry") : t("analyse")));
  }
  els.analysisNote.textContent = a?.text ?? "";
  b.append(els.analysisNote);
  b.hidden = false;
}

// ---------------------------------------------------------------- talking to the server

let pending = 0;

/** Actions run one after the other, each on the latest view; data-busy tells when all are done. */
function enqueue(fn) {
  pending += 1;
  root.dataset.busy = "1";
  chain = chain.then(fn).catch(reportError).finally(() => {
    pending -= 1;
    if (!pending) root.dataset.busy = "0";
  });
  return chain;
}

function reportError(e) {
  if (e instanceof ApiError && e.status === 409 && !state.review) {
    return api.view(state.view.id).then((v) => render(v));
  }
  toast(e instanceof ApiError ? e.detail : String(e));
  return undefined;
}

function toast(text, ms = 2600) {
  els.toast.textContent = text;
  els.toast.classList.add("show");
  clearTimeout(state.toastTimer);
  state.toastTimer = setTimeout(() => els.toast.classList.remove("show"), ms);
}

/** Play a move; on refusal throw the ApiError (callers show its sentence). */
async function sendMove(move, opts = {}) {
  const v = state.view;
  // A legal move is drawn at once; the server's answer fills in what it turns up.
  const guess = isLegal(move) ? predict(v, move) : null;
  if (guess) render(guess, opts);
  let next;
  try {
    next = await api.move(v.id, move, v.version);
  } catch (e) {
    if (guess && state.view === guess) render({ ...v, events: undoEvents(move) });
    throw e;
  }
  render(guess ? { ...next, events: eventsAfterGuess(next.events, move) } : next,
    guess ? {} : opts);
  if (settings.autoCollect && !opts.noCollect) await autoCollect();
  return next;
}

function playMove(move, opts = {}) {
  return enqueue(async () => {
    try {
      await sendMove(move, opts);
    } catch (e) {
      if (opts.onRefuse) opts.onRefuse();
      throw e;
    }
  });
}

function act(name) {
  return enqueue(async () => {
    if (!state.view) return;
    if (name === "undo" && !state.view.can_undo) return;
    if (name === "redo" && !state.view.can_redo) return;
    const v = await api.action(state.view.id, name, state.view.version);
    state.selection = null;
    state.held = null;
    render(v);
  });
}

/** Collect what is safe to collect (completed suits, low cards), one move at a time. */
async function autoCollect() {
  for (let guard = 0; guard < 120; guard++) {
    const v = state.view;
    if (v.status !== "playing") return;
    const m = v.legal_moves.find(isSafeCollect);
    if (!m) return;
    render(await api.move(v.id, m, v.version));
  }
}

function isSafeCollect(m) {
  if (m.type !== "move" || kindOf(m.to) !== "foundation" || kindOf(m.from) === "foundation") {
    return false;
  }
  const v = state.view;
  if (m.count === 13) return true;
  const src = v.piles[m.from];
  const card = src[src.length - 1]?.card;
  if (!card) return false;
  const r = rankOf(card);
  if (r <= 2) return true;
  // Alternating-colour games: a low card is "safe" to collect when both foundations of the
  // other colour are near its rank.
  if (v.build !== "down, alternating colours") return false;
  const red = card[1] === "H" || card[1] === "D";
  const tops = Object.entries(v.piles).filter(([p]) => kindOf(p) === "foundation")
    .map(([, cards]) => cards[cards.length - 1]?.card).filter(Boolean);
  const other = red ? "SC" : "HD";
  return [...other].every((s) => tops.some((c) => c[1] === s && rankOf(c) >= r - 1));
}

/** A new game; when no deal of this game is known to be winnable yet, say so and deal any. */
async function newGame(body) {
  if (dailyDay && body.number === undefined) return dailyGame();
  try {
    return await api.newGame(gameId, body);
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 422 || !body.winnable) throw e;
    toast(e.detail);
    return api.newGame(gameId, {});
  }
}

/** The page's daily deal, asked for again while the server prepares it (503, Retry-After). */
async function dailyGame() {
  for (let i = 1; ; i += 1) {
    try {
      return await api.newGame(gameId, { daily: dailyDay });
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 503 || i >= PREPARING_TRIES) throw e;
      toast(e.detail, 5000);
      await new Promise((resolve) => { setTimeout(resolve, 5000); });
    }
  }
}

async function startGame(options, userAsked) {
  return enqueue(async () => {
    const body = {};
    if (options.number !== undefined) body.number = options.number;
    else if (settings.winnableOnly) body.winnable = true;
    const v = await newGame(body);
    if (userAsked) history.pushState({ id: v.id }, "", addressOf(v));
    show(v);
    if (settings.sound) playSound("deal");
  });
}

/**
 * The page's address for a game: its deal number when the view carries it (a link that deals
 * it again), else the game's own id (a secret deal: its number is not shown until the end).
 */
function addressOf(v) {
  const url = new URL(window.location.href);
  url.searchParams.delete("analysis");
  if (v.number === null || v.number === undefined) {
    url.searchParams.delete("number");
    url.searchParams.set("id", v.id);
  } else {
    url.searchParams.delete("id");
    url.searchParams.set("number", v.number);
  }
  return url;
}

/** Draw a view of another game than the one on the table. */
function show(v) {
  state.selection = null;
  state.held = null;
  state.view = null;
  render(v);
}

/** A game in progress (moves played, neither won nor lost) is not thrown away unasked. */
function confirmAbandon() {
  const v = state.view;
  if (!v || v.status !== "playing" || !v.moves) return Promise.resolve(true);
  const d = els.confirm;
  d.returnValue = "";
  d.showModal();
  return new Promise((resolve) => {
    d.addEventListener("close", () => resolve(d.returnValue === "abandon"), { once: true });
  });
}

async function askNewGame(options) {
  if (await confirmAbandon()) return startGame(options, true);
  if (state.view) els.number.value = state.view.number ?? "";
  return undefined;
}

/**
 * The deal number typed, as a string of digits without leading zeros, or null. Deal numbers
 * run past JavaScript's exact integers: they stay strings, compared as BigInts.
 */
function dealNumber(raw) {
  const s = raw.trim();
  if (!/^\d{1,40}$/.test(s) || BigInt(s) > BigInt(MAX_DEAL_NUMBER)) return null;
  return BigInt(s).toString();
}

function onDealNumber() {
  const raw = els.number.value;
  if (!raw.trim()) {
    if (state.view) els.number.value = state.view.number ?? "";
    return;
  }
  const number = dealNumber(raw);
  if (number === null) {
    els.number.setAttribute("aria-invalid", "true");
    toast(t("bad_number").replace("{max}", MAX_DEAL_NUMBER), 6000);
    return;
  }
  els.number.removeAttribute("aria-invalid");
  if (number !== state.view?.number) askNewGame({ number });
}

/**
 * The game a history entry showed (its id in history.state, else the id in its URL), or the
 * deal its URL names.
 */
async function gameOfHistory(entry) {
  const id = entry?.id || new URL(window.location.href).searchParams.get("id");
  if (id) {
    try {
      return await api.view(id);
    } catch (e) {
      // gone since: deal its number again, if the address has one
    }
  }
  const raw = new URL(window.location.href).searchParams.get("number");
  const number = raw === null ? null : dealNumber(raw);
  return number === null ? null : newGame({ number });
}

async function resume() {
  const url = new URL(window.location.href);
  // A link to a game's analysis (or a reload of it) opens the panel again.
  const analysis = url.searchParams.get("analysis") === "1" || !!history.state?.analysis;
  if (history.state?.id || url.searchParams.get("id") || url.searchParams.get("number") !== null) {
    // A reload, or Back to this page, shows the game it showed; a shared link deals its deal.
    await enqueue(async () => {
      const found = await gameOfHistory(history.state);
      if (found) show(found);
    });
    if (state.view) {
      if (analysis && state.view.status !== "playing") followAnalysis(state.view.id, false);
      return;
    }
  }
  return enqueue(async () => {
    let games = [];
    try {
      games = await api.playing(gameId);
    } catch (e) {
      games = [];
    }
    // A daily deal's page resumes that day's game, a game's page any other game of its kind.
    const mine = (games || []).find((g) => g.game === gameId && g.status === "playing"
      && (g.daily ?? null) === dailyDay);
    let view = null;
    if (mine) {
      try {
        view = await api.view(mine.id);
      } catch (e) {
        view = null; // gone since the list was made: deal a new one
      }
    }
    if (!view) view = await newGame(settings.winnableOnly ? { winnable: true } : {});
    render(view);
  });
}

// ---------------------------------------------------------------- what a gesture means

function movesFrom(pile, count) {
  return state.view.legal_moves.filter((m) => m.type === "move" && m.from === pile
    && m.count === count);
}

/** Double-click: to a foundation where legal, else the single best legal move of this run. */
function bestMoveFor(pile, count) {
  const v = state.view;
  const fnd = v.legal_moves.filter((m) => m.type === "move" && m.from === pile
    && kindOf(m.to) === "foundation" && m.count >= count);
  if (fnd.length) return fnd[0];
  const rank = (m) => {
    const k = kindOf(m.to);
    const dst = v.piles[m.to];
    const src = v.piles[m.from];
    const uncovers = src.length > count && !src[src.length - count - 1].up;
    let s = uncovers ? 4 : 0;
    if (k === "tableau" && dst.length) {
      s += 10;
      const top = dst[dst.length - 1].card;
      const moved = src[src.length - count].card;
      if (top && moved && top[1] === moved[1]) s += 3;
    } else if (k === "tableau") {
      s += src.length === count ? -5 : 3;
    } else if (k === "cell") {
      s += 1;
    }
    return s;
  };
  const options = movesFrom(pile, count).sort((a, b) => rank(b) - rank(a));
  return options[0] || null;
}

function runCount(pile, index) {
  const cards = state.view.piles[pile];
  return kindOf(pile) === "tableau" ? cards.length - index : 1;
}

function canPickUp(pile, index) {
  const cards = state.view.piles[pile];
  const kind = kindOf(pile);
  if (kind === "stock" || !cards[index]?.up) return false;
  if (kind === "tableau") return true;
  return index === cards.length - 1;
}

function markTargets(pile, count) {
  for (const m of movesFrom(pile, count)) pileEls.get(m.to)?.classList.add("target");
}

function clearMarks() {
  for (const el of els.table.querySelectorAll(".target, .selected, .hint, .kb-pick, .held")) {
    el.classList.remove("target", "selected", "hint", "kb-pick", "held");
  }
  els.undo.classList.remove("hint");
  if (state.selection) showSelection();
  if (state.held) showHeld();
}

/** The elements of the top `count` cards of a pile, as drawn. */
function cardsOf(pile, count) {
  const el = pileEls.get(pile);
  const top = new Set(drawOrder(kindOf(pile), state.view.piles[pile]).slice(-count).map(String));
  return [...el.querySelectorAll(":scope > .card")].filter((c) => top.has(c.dataset.index));
}

function showSelection() {
  const { pile, count } = state.selection;
  for (const c of cardsOf(pile, count)) c.classList.add("selected");
  markTargets(pile, count);
}

function showHeld() {
  const { pile, count } = state.held;
  for (const c of cardsOf(pile, count)) c.classList.add("held");
  markTargets(pile, count);
}

function select(pile, count) {
  state.selection = { pile, count };
  clearMarks();
}

function deselect() {
  state.selection = null;
  clearMarks();
}

function clickStock() {
  deselect();
  return playMove({ type: "stock" });
}

function tapCard(pile, index) {
  const now = performance.now();
  const last = state.lastTap;
  state.lastTap = { pile, index, time: now };
  if (kindOf(pile) === "stock") return clickStock();
  const sel = state.selection;
  if (last && last.pile === pile && last.index === index && now - last.time < DOUBLE_TAP_MS) {
    state.lastTap = null;
    deselect();
    const m = bestMoveFor(pile, runCount(pile, index));
    if (m) return playMove(m);
    return undefined;
  }
  if (sel && sel.pile !== pile) {
    state.lastTap = null; // the tap that ends a click-click move starts no double-tap
    return moveSelectionTo(pile);
  }
  if (sel && sel.pile === pile && sel.count === runCount(pile, index)) {
    deselect();
    return undefined;
  }
  if (canPickUp(pile, index)) select(pile, runCount(pile, index));
  else deselect();
  return undefined;
}

function tapPile(pile) {
  if (kindOf(pile) === "stock") return clickStock();
  if (state.selection && state.selection.pile !== pile) return moveSelectionTo(pile);
  deselect();
  return undefined;
}

function moveSelectionTo(pile) {
  const { pile: from, count } = state.selection;
  deselect();
  return playMove({ type: "move", from, to: pile, count });
}

// ---------------------------------------------------------------- drag and drop

function onPointerDown(e) {
  if (e.button !== 0 || !state.view || state.review) return;
  const cardEl = e.target.closest(".card");
  const pileEl = e.target.closest(".pile");
  if (!pileEl) return;
  const pile = pileEl.dataset.pile;
  focusPile(pile, false);
  if (!cardEl) {
    state.drag = { pile, index: -1, x: e.clientX, y: e.clientY, started: false, id: e.pointerId };
    return;
  }
  const index = Number(cardEl.dataset.index);
  state.drag = { pile, index, x: e.clientX, y: e.clientY, started: false, id: e.pointerId,
    draggable: canPickUp(pile, index), count: runCount(pile, index) };
  e.preventDefault();
}

function onPointerMove(e) {
  const d = state.drag;
  if (!d || d.id !== e.pointerId || d.index < 0 || !d.draggable) return;
  const dx = e.clientX - d.x;
  const dy = e.clientY - d.y;
  if (!d.started) {
    if (Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
    d.started = true;
    d.cards = cardsOf(d.pile, d.count);
    for (const c of d.cards) {
      for (const a of c.getAnimations()) a.finish();
      c.classList.add("dragging");
    }
    state.selection = null;
    clearMarks();
    markTargets(d.pile, d.count);
  }
  for (const c of d.cards) c.style.transform = `translate(${dx}px, ${dy}px)`;
  e.preventDefault();
}

function onPointerUp(e) {
  const d = state.drag;
  if (!d || d.id !== e.pointerId) return;
  state.drag = null;
  if (!d.started) {
    if (d.index < 0) tapPile(d.pile);
    else tapCard(d.pile, d.index);
    return;
  }
  const target = dropTarget(d);
  if (!target || target === d.pile) {
    springBack(d.cards);
    clearMarks();
    return;
  }
  const from = new Map();
  const len = state.view.piles[target].length;
  d.cards.forEach((c, k) => from.set(`${target}#${len + k}`, c.getBoundingClientRect()));
  playMove({ type: "move", from: d.pile, to: target, count: d.count },
    { from, onRefuse: () => springBack(d.cards) });
}

function onPointerCancel(e) {
  const d = state.drag;
  if (!d || d.id !== e.pointerId) return;
  state.drag = null;
  if (d.started) springBack(d.cards);
  clearMarks();
}

function springBack(cards) {
  glideBack(cards, speed());
  clearMarks();
}

/** The pile the dragged run is dropped on: the most overlap with its first card. */
function dropTarget(d) {
  const r = d.cards[0].getBoundingClientRect();
  let best = null;
  let bestArea = 0;
  for (const [pile, el] of pileEls) {
    if (pile === d.pile) continue;
    const p = el.getBoundingClientRect();
    const bottom = el.classList.contains("fanned") ? Math.max(p.bottom, p.top + r.height) : p.bottom;
    const w = Math.min(r.right, p.right) - Math.max(r.left, p.left);
    const hgt = Math.min(r.bottom, bottom) - Math.max(r.top, p.top);
    const area = w > 0 && hgt > 0 ? w * hgt : 0;
    if (area > bestArea) {
      bestArea = area;
      best = pile;
    }
  }
  return best;
}

// ---------------------------------------------------------------- hint

async function showHint() {
  return enqueue(async () => {
    const res = await api.hint(state.view.id);
    clearMarks();
    if (!res.move) {
      // No useful move: the sentence says why (undo, or deal; the game cannot be won any
      // more from here), and the way out it names is marked.
      toast(res.text || t("no_hint"));
      if (res.reason === "undo" || res.reason === "undo_or_deal") {
        if (state.view.can_undo) els.undo.classList.add("hint");
        if (res.reason === "undo_or_deal") pileEls.get("stock")?.classList.add("hint");
        clearTimeout(state.hintTimer);
        state.hintTimer = setTimeout(clearMarks, 2500);
      }
      return;
    }
    if (res.move.type === "stock") {
      pileEls.get("stock")?.classList.add("hint");
    } else {
      for (const c of cardsOf(res.move.from, res.move.count)) c.classList.add("hint");
      pileEls.get(res.move.to)?.classList.add("hint");
    }
    if (res.text) toast(res.text);
    clearTimeout(state.hintTimer);
    state.hintTimer = setTimeout(clearMarks, 2500);
  });
}

// ---------------------------------------------------------------- after the game

/** Give up (asked first): the game ends lost, for good; the banner then offers its analysis. */
async function askGiveUp() {
  const v = state.view;
  if (!v || v.status !== "playing" || !(await ask(els.confirmGiveUp))) return undefined;
  return enqueue(async () => {
    if (state.view?.id !== v.id || state.view.status !== "playing") return;
    render(await api.action(v.id, "resign", state.view.version));
  });
}

/** Where the analysis of the game on the table stands, said in the banner. */
function noteAnalysis(id, fields) {
  state.analysis = { id, ...fields };
  if (state.view?.id === id && !state.review && state.view.status !== "playing") {
    showBanner(state.view.status);
  }
}

/**
 * Ask for the analysis of the game on the table (over: won, lost or given up), wait for it
 * and open the panel. A stuck game could still be undone: the player is told first that the
 * analysis ends it for good.
 */
async function analyseGame() {
  const v = state.view;
  if (!v || v.status === "playing" || state.analysis?.busy) return;
  if (v.can_undo && !v.sealed && !(await ask(els.confirmSeal))) return;
  await followAnalysis(v.id, true);
}

/** Wait for game `id`'s analysis (`ask`: POST it first) and open the panel when it is done. */
async function followAnalysis(id, ask) {
  noteAnalysis(id, { busy: true, text: t("analysis_running") });
  let s = null;
  try {
    s = await awaitAnalysis(api, id, ask, (now) => {
      noteAnalysis(id, { busy: now.state !== "failed", failed: now.state === "failed",
        text: stateText(now, t) });
    }, () => state.view?.id === id);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404 && !ask) {
      state.analysis = null; // none asked for yet: the banner offers it
      return;
    }
    noteAnalysis(id, { failed: true, text: e instanceof ApiError ? e.detail : String(e) });
    return;
  }
  if (ask) {
    // Asking seals the game (no more undo): the table shows it so.
    await enqueue(async () => {
      if (state.view?.id === id && !state.review) render(await api.view(id));
    });
  }
  if (s?.state === "done" && state.view?.id === id) {
    state.analysis = null;
    await openReview(s.result, ask);
  }
}

/** The page's address of a game's analysis (a link that opens it again). */
function analysisAddress(v) {
  const url = new URL(window.location.href);
  url.searchParams.delete("number");
  url.searchParams.set("id", v.id);
  url.searchParams.set("analysis", "1");
  return url;
}

/**
 * Open the analysis panel over the game on the table: it starts on the losing move when
 * there is one, else at the game's last position. `push`: a new history entry (Back closes).
 */
async function openReview(result, push) {
  const v = state.final ?? state.view;
  state.final = v;
  state.review = true;
  root.classList.add("reviewing");
  root.dataset.review = "1";
  els.banner.hidden = true;
  els.finish.hidden = true;
  if (els.summary.open) els.summary.close();
  const url = analysisAddress(v);
  state.reviewPushed = push;
  if (push) history.pushState({ id: v.id, analysis: true }, "", url);
  else history.replaceState({ id: v.id, analysis: true }, "", url);
  const at = result.losing_move ?? result.moves;
  await review.show(v.id, result, "player", at, url.href);
  layout();
  review.focus();
}

/** A position of the analysis, drawn on the table: every card face up, the hidden ones marked. */
function drawPosition(pos) {
  const v = state.final;
  const piles = Object.fromEntries(Object.entries(pos.piles).map(([pile, cards]) => [pile,
    cards.map((c) => ({ card: c.card, up: true, revealed: !c.up }))]));
  render({ id: v.id, game: v.game, version: v.version, status: pos.status, piles,
    events: pos.events, legal_moves: [], can_undo: false, can_redo: false, draw: pos.draw,
    has_stock: pos.has_stock, build: pos.build, review: true });
}

/** Back to the game as it ended (Back in the history, when the panel made its own entry). */
function closeReview() {
  if (!state.review) return undefined;
  if (history.state?.analysis && state.reviewPushed) {
    history.back(); // the entry before shows the game: popstate leaves the panel
    return undefined;
  }
  return leaveReview();
}

function leaveReview() {
  return enqueue(async () => {
    if (!state.review) return;
    review.hide();
    state.review = false;
    root.classList.remove("reviewing");
    delete root.dataset.review;
    const id = state.final.id;
    state.final = null;
    let v;
    try {
      v = await api.view(id);
    } catch (e) {
      v = null;
    }
    show(v ?? await newGame({}));
    applyFocus(true);
  });
}

// ---------------------------------------------------------------- keyboard

function focusPile(pile, move = true) {
  const i = pileOrder.indexOf(pile);
  if (i < 0) return;
  state.focus = i;
  state.kbCount = 1;
  applyFocus(move);
}

function applyFocus(moveFocus = false) {
  pileOrder.forEach((p, i) => pileEls.get(p)?.setAttribute("tabindex", i === state.focus ? "0" : "-1"));
  const el = pileEls.get(pileOrder[state.focus]);
  for (const c of els.table.querySelectorAll(".kb-pick")) c.classList.remove("kb-pick");
  if (!el) return;
  if (moveFocus) el.focus();
  if (!state.held && root.contains(document.activeElement) && document.activeElement === el) {
    const pile = pileOrder[state.focus];
    const len = state.view.piles[pile].length;
    if (len && kindOf(pile) !== "stock") {
      for (const c of cardsOf(pile, state.kbCount)) c.classList.add("kb-pick");
    }
  }
}

function onTableKey(e) {
  if (!state.view || state.review || e.ctrlKey || e.metaKey || e.altKey) return;
  const pile = pileOrder[state.focus];
  const cards = state.view.piles[pile] || [];
  const ups = kindOf(pile) === "tableau" ? cards.length - cards.findIndex((c) => c.up) : 1;
  let handled = true;
  switch (e.key) {
    case "ArrowRight":
    case "ArrowLeft": {
      const step = e.key === "ArrowRight" ? 1 : -1;
      state.focus = (state.focus + step + pileOrder.length) % pileOrder.length;
      state.kbCount = 1;
      applyFocus(true);
      break;
    }
    case "Home":
      state.focus = 0;
      applyFocus(true);
      break;
    case "End":
      state.focus = pileOrder.length - 1;
      applyFocus(true);
      break;
    case "ArrowUp":
      state.kbCount = Math.min(ups, state.kbCount + 1);
      applyFocus();
      announce(`${state.kbCount}`);
      break;
    case "ArrowDown":
      state.kbCount = Math.max(1, state.kbCount - 1);
      applyFocus();
      announce(`${state.kbCount}`);
      break;
    case "Enter":
    case " ":
      keyActivate(pile, cards);
      break;
    case "Escape":
      state.held = null;
      deselect();
      applyFocus();
      break;
    case "f":
    case "F": {
      const m = cards.length ? bestMoveFor(pile, 1) : null;
      if (m) playMove(m);
      break;
    }
    default:
      if (/^[1-9]$/.test(e.key)) {
        state.kbCount = Math.min(ups, Number(e.key));
        applyFocus();
      } else {
        handled = false;
      }
  }
  if (handled) e.preventDefault();
}

function keyActivate(pile, cards) {
  if (state.held) {
    const { pile: from, count } = state.held;
    state.held = null;
    if (from === pile) {
      clearMarks();
      return;
    }
    playMove({ type: "move", from, to: pile, count });
    return;
  }
  if (kindOf(pile) === "stock") {
    clickStock();
    return;
  }
  if (!cards.length) return;
  const count = Math.min(state.kbCount, cards.length);
  if (!canPickUp(pile, cards.length - count)) {
    toast(t("face_down"));
    return;
  }
  state.held = { pile, count };
  state.kbCount = 1;
  clearMarks();
  announce(cardsOfLabel(pile, count));
}

const cardsOfLabel = (pile, count) => state.view.piles[pile].slice(-count).map(cardLabel)
  .join(", ");

function announce(text) {
  els.toast.textContent = text;
}

function onGlobalKey(e) {
  if (!state.view || [...root.querySelectorAll("dialog.confirm")].some((d) => d.open)) return;
  if (state.review) {
    review.onKey(e);
    return;
  }
  if (state.view.paused) {
    if (e.key.toLowerCase() === "p" && !e.target.closest?.("input, select, textarea")) {
      setPaused(false);
      e.preventDefault();
    }
    return;
  }
  const inField = e.target.closest?.("input, select, textarea");
  const k = e.key.toLowerCase();
  if ((e.ctrlKey || e.metaKey) && !e.altKey && !inField) {
    if (k === "z" && !e.shiftKey) {
      act("undo");
      e.preventDefault();
    } else if (k === "y" || (k === "z" && e.shiftKey)) {
      act("redo");
      e.preventDefault();
    }
    return;
  }
  if (inField || e.ctrlKey || e.metaKey || e.altKey) return;
  if (k === "d") {
    clickStock();
    e.preventDefault();
  } else if (k === "h") {
    showHint();
    e.preventDefault();
  } else if (k === "p") {
    pauseAsked();
    e.preventDefault();
  }
}

// ---------------------------------------------------------------- start

function start() {
  if (!root || !gameId) return;
  buildChrome();
  els.table.addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove, { passive: false });
  window.addEventListener("pointerup", onPointerUp);
  window.addEventListener("pointercancel", onPointerCancel);
  els.table.addEventListener("keydown", onTableKey);
  els.table.addEventListener("focusin", (e) => {
    const p = e.target.closest?.(".pile");
    if (p) {
      state.focus = pileOrder.indexOf(p.dataset.pile);
      applyFocus();
    }
  });
  document.addEventListener("keydown", onGlobalKey);
  // The page's "skip to the table" link: to the pile the keyboard was last on.
  document.querySelector(".skip-link")?.addEventListener("click", (e) => {
    e.preventDefault();
    applyFocus(true);
  });
  document.addEventListener("pointerdown", (e) => {
    if (els.settings.open && !els.settings.contains(e.target)) els.settings.open = false;
  });
  let resizeTimer = 0;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(layout, 60);
  });
  // Back and Forward show the game each entry showed, as it now stands (not a fresh deal).
  window.addEventListener("popstate", (e) => {
    // Back from the analysis panel shows the game again; Forward opens the panel again.
    if (state.review && !e.state?.analysis) {
      leaveReview();
      return;
    }
    if (state.review) return;
    enqueue(async () => {
      if (!(e.state?.id && e.state.id === state.view?.id)) {
        const v = await gameOfHistory(e.state);
        if (v) show(v);
      }
      if (e.state?.analysis && state.view && state.view.status !== "playing") {
        followAnalysis(state.view.id, false);
      }
    });
  });
  setInterval(tick, 250);
  document.addEventListener("visibilitychange", onVisibility);
  resume();
}

start();
