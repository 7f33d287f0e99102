// After the game: asking for its analysis (and waiting for it), and the analysis panel, which
// steps through the player's game, or the solver's win from the last winnable position, with
// every card shown. The table itself draws each position (app.js): the panel only says which.

const REPLAY_MS = { slow: 1600, normal: 900, fast: 400 };
// The controls' icons, drawn (the media symbols are missing from many fonts).
const svg = (d) => `<svg viewBox="0 0 24 24" width="1.1em" height="1.1em" fill="currentColor">`
  + `<path d="${d}"/></svg>`;
const ICONS = {
  start: svg("M5 4h3v16H5zM20 4v16L9 12z"), back: svg("M16 4v16L5 12z"),
  play: svg("M7 4v16l13-8z"), pause: svg("M6 4h4v16H6zM14 4h4v16h-4z"),
  forward: svg("M8 4v16l11-8z"), end: svg("M16 4h3v16h-3zM4 4v16l11-8z"),
};
const POLL_MS = 1000;

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/**
 * Ask for the analysis of game `id` (`ask`: POST, else only read it) and wait until it is done
 * or failed, telling `onState` where it stands (queued, running) every poll. Gives up quietly
 * (null) as soon as `still()` is false: the player went to another game.
 */
export async function awaitAnalysis(api, id, ask, onState, still) {
  let s = ask ? await api.analyse(id) : await api.analysis(id);
  while (s.state === "queued" || s.state === "running") {
    onState(s);
    await sleep(POLL_MS);
    if (!still()) return null;
    s = await api.analysis(id);
  }
  if (still()) onState(s);
  return s;
}

/** Where an analysis stands, in words ("In the queue: 2 ahead", "Analysing…"). */
export function stateText(s, t) {
  if (s.state === "queued" && s.ahead) return t("analysis_queued").replace("{n}", String(s.ahead));
  if (s.state === "queued" || s.state === "running") return t("analysis_running");
  if (s.state === "failed") return s.detail || "";
  return "";
}

/**
 * The analysis panel. `draw(position)` puts a position (the server's, every card named) on the
 * table; `close()` goes back to the game. `api`, `h`, `t`, `cardName` and `pileName` are the
 * page's own.
 */
export function createReview({ api, h, t, cardName, pileName, draw, close }) {
  const st = {
    id: null, result: null, line: "player", at: 0, length: 0, piles: null,
    timer: 0, playing: false, chain: Promise.resolve(), gen: 0, pending: 0,
  };
  const btn = (cls, label, icon, onclick) => {
    const b = h("button", { type: "button", class: `btn ${cls}`, "aria-label": label,
      title: label, onclick }, h("span", { class: "icon", "aria-hidden": "true" }));
    b.firstChild.innerHTML = ICONS[icon];
    return b;
  };

  const title = h("h2", { id: "analysis-title", text: t("analysis") });
  const summary = h("p", { class: "analysis-summary" });
  const losing = h("p", { class: "analysis-losing" });
  const uncertain = h("p", { class: "analysis-uncertain" });
  const link = h("a", { class: "analysis-link", text: t("analysis_link") });
  const back = h("button", { type: "button", class: "btn btn-back-to-game", onclick: () => close() },
    t("back_to_game"));
  const ticks = h("div", { class: "ticks", "aria-hidden": "true" });
  const range = h("input", { type: "range", min: "0", max: "0", step: "1", value: "0",
    class: "timeline-range", "aria-label": t("timeline") });
  range.addEventListener("input", () => go(st.line, Number(range.value)));
  const legend = h("p", { class: "timeline-legend" },
    h("span", { class: "key key-losing" }, t("legend_losing")),
    h("span", { class: "key key-suspect" }, t("legend_suspect")));
  const caption = h("p", { class: "analysis-caption", "aria-live": "polite" });
  const note = h("p", { class: "analysis-note", role: "status" });
  const playBtn = btn("btn-replay-play", t("play"), "play", () => togglePlay());
  const speedSelect = h("select", { class: "replay-speed", "aria-label": t("replay_speed") });
  for (const name of Object.keys(REPLAY_MS)) {
    const o = h("option", { value: name, text: t(`speed_${name}`) });
    if (name === "normal") o.selected = true;
    speedSelect.append(o);
  }
  speedSelect.addEventListener("change", () => { if (st.playing) schedule(); });
  const showWin = h("button", { type: "button", class: "btn btn-show-win", onclick: () => winFromHere() },
    t("show_win"));
  const yourMoves = h("button", { type: "button", class: "btn btn-your-moves",
    onclick: () => backToPlayer() }, t("your_moves"));
  const controls = h("div", { class: "replay-controls", role: "group", "aria-label": t("timeline") },
    btn("btn-replay-start", t("to_start"), "start", () => stop() || go(st.line, 0)),
    btn("btn-replay-back", t("step_back"), "back", () => stop() || step(-1)),
    playBtn,
    btn("btn-replay-forward", t("step_forward"), "forward", () => stop() || step(1)),
    btn("btn-replay-end", t("to_end"), "end", () => stop() || go(st.line, st.length)),
    h("label", { class: "replay-speed-label" }, h("span", { text: t("replay_speed") }), speedSelect),
    showWin, yourMoves);
  const el = h("section", { class: "analysis", hidden: "", "aria-labelledby": "analysis-title" },
    h("div", { class: "analysis-head" }, title, back),
    summary, losing, uncertain,
    h("div", { class: "timeline" }, ticks, range), legend, caption, controls, note, link);

  /** The marks of the timeline: one tick a move, the losing move and the suspects marked. */
  function drawTicks() {
    ticks.textContent = "";
    const r = st.result;
    const suspects = new Set(st.line === "player" ? r.suspect_moves || [] : []);
    const lost = st.line === "player" ? r.losing_move : null;
    for (let m = 1; m <= st.length; m++) {
      const cls = m === lost ? "tick losing" : suspects.has(m) ? "tick suspect" : "tick";
      const tick = h("span", { class: cls, "data-move": String(m) });
      tick.style.left = `${(100 * m) / st.length}%`;
      ticks.append(tick);
    }
    legend.hidden = st.line !== "player" || (lost === null && !suspects.size);
    legend.firstChild.hidden = lost === null;
    legend.lastChild.hidden = !suspects.size;
  }

  function moveText(move) {
    if (!move) return t("position_deal");
    if (move.type === "stock") return t("stock_move");
    const pile = st.piles[move.to] || [];
    const card = pile[pile.length - move.count]?.card;
    const what = card ? `${cardName(card, t)}, ` : "";
    return `${what}${pileName(move.from)} → ${pileName(move.to)}`;
  }

  /** Where the panel stands, said in the caption, on the range and for screen readers. */
  function describe() {
    const r = st.result;
    const moves = st.line === "player" ? r.player_line : r.win_from_last;
    const where = st.line === "player"
      ? t("position_move").replace("{at}", String(st.at)).replace("{length}", String(st.length))
      : t("win_move").replace("{at}", String(st.at)).replace("{length}", String(st.length))
        .replace("{k}", String(r.last_winnable));
    const what = st.at ? moveText(moves[st.at - 1]) : st.line === "player" ? t("position_deal")
      : t("win_start").replace("{k}", String(r.last_winnable));
    const lostHere = st.line === "player" && st.at && st.at === r.losing_move
      ? ` ${t("legend_losing")}.` : "";
    caption.textContent = `${where}: ${what}.${lostHere}`;
    range.max = String(st.length);
    range.value = String(st.at);
    range.setAttribute("aria-valuetext", caption.textContent);
    el.dataset.line = st.line;
    el.dataset.at = String(st.at);
    el.dataset.length = String(st.length);
    const canWin = r.last_winnable !== null && (r.win_from_last || []).length > 0;
    showWin.hidden = st.line !== "player" || !canWin;
    yourMoves.hidden = st.line !== "win";
  }

  /** Show position `at` of `line` (one step from the one shown: animated). */
  function go(line, at) {
    const gen = st.gen;
    st.pending += 1;
    el.dataset.busy = "1";
    st.chain = st.chain.then(async () => {
      if (gen !== st.gen) return;
      const from = line === st.line && st.piles ? st.at : null;
      const max = line === "player" ? st.result.moves : (st.result.win_from_last || []).length;
      const target = Math.max(0, Math.min(max, at));
      if (target === from) {
        describe();
        return;
      }
      let pos;
      try {
        pos = await api.position(st.id, line, target, from);
      } catch (e) {
        stop();
        note.textContent = e.detail || String(e);
        return;
      }
      if (gen !== st.gen) return;
      note.textContent = "";
      const lineChanged = line !== st.line || !st.length;
      Object.assign(st, { line, at: pos.at, length: pos.length, piles: pos.piles });
      el.dataset.status = pos.status;
      if (lineChanged) drawTicks();
      describe();
      draw(pos);
    }).finally(() => {
      st.pending -= 1;
      if (!st.pending) el.dataset.busy = "0";
    }).catch((e) => { note.textContent = String(e); });
    return st.chain;
  }

  const step = (d) => go(st.line, st.at + d);

  function schedule() {
    clearTimeout(st.timer);
    st.timer = setTimeout(async () => {
      if (!st.playing) return;
      if (st.at >= st.length) {
        stop();
        return;
      }
      await step(1);
      if (st.playing) schedule();
    }, REPLAY_MS[speedSelect.value] ?? REPLAY_MS.normal);
  }

  function setPlaying(on) {
    st.playing = on;
    playBtn.querySelector(".icon").innerHTML = on ? ICONS.pause : ICONS.play;
    playBtn.setAttribute("aria-label", on ? t("pause") : t("play"));
    playBtn.title = playBtn.getAttribute("aria-label");
    playBtn.setAttribute("aria-pressed", String(on));
    el.dataset.playing = on ? "1" : "0";
  }

  /** Stop playing (returns nothing: the buttons chain it with `||`). */
  function stop() {
    clearTimeout(st.timer);
    setPlaying(false);
  }

  async function togglePlay() {
    if (st.playing) {
      stop();
      return;
    }
    setPlaying(true);
    if (st.at >= st.length) await go(st.line, 0);
    schedule();
  }

  /** The solver's win from the last winnable position, played on its own. */
  async function winFromHere() {
    stop();
    await go("win", 0);
    setPlaying(true);
    schedule();
  }

  function backToPlayer() {
    stop();
    return go("player", st.result.last_winnable ?? 0);
  }

  function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const inField = e.target.closest?.("select, textarea, input:not([type=range])");
    if (inField) return;
    const keys = {
      ArrowRight: () => step(1), ArrowLeft: () => step(-1),
      Home: () => go(st.line, 0), End: () => go(st.line, st.length),
    };
    if (keys[e.key]) {
      stop();
      keys[e.key]();
    } else if (e.key === " " && !e.target.closest?.("button, a")) {
      togglePlay();
    } else if (e.key === "Escape") {
      close();
    } else {
      return;
    }
    e.preventDefault();
  }

  return {
    el,
    get open() { return !el.hidden; },
    onKey,
    /** Open the panel on game `id`'s analysis `result`, at position `at` of `line`. */
    show(id, result, line, at, address) {
      st.gen += 1;
      stop();
      Object.assign(st, { id, result, line, at: 0, length: 0, piles: null });
      summary.textContent = result.summary || "";
      losing.textContent = result.losing_text || "";
      losing.hidden = !result.losing_text;
      const unsure = result.uncertain || [];
      uncertain.textContent = unsure.length
        ? t("uncertain").replace("{list}", unsure.join(", ")) : "";
      uncertain.hidden = !unsure.length;
      link.href = address;
      note.textContent = "";
      el.hidden = false;
      return go(line, at);
    },
    hide() {
      st.gen += 1;
      stop();
      el.hidden = true;
    },
    focus() { range.focus(); },
  };
}
