// The game's clock, as the server defines it (docs/web-contract.md): the time up to the last
// change (`elapsed_seconds`), plus the spell since then, which counts up to `idle_cap_seconds`
// and not at all while the game is paused or over. The client shows exactly that: the server's
// `idle_seconds` when the view came, plus the time since, frozen at the cap, so the time shown
// never has to go back when the next answer comes.

/** The clock of one view, received at `now` (milliseconds, performance.now()). */
export function clockOf(view, now) {
  return {
    base: view.elapsed_seconds || 0,
    idle: view.idle_seconds || 0,
    cap: view.idle_cap_seconds ?? Infinity,
    running: view.status === "playing" && !view.paused,
    at: now,
  };
}

/** The seconds a clock shows at `now`. */
export function secondsAt(clock, now) {
  if (!clock.running) return clock.base;
  return clock.base + Math.min(clock.idle + Math.max(0, now - clock.at) / 1000, clock.cap);
}

/** 75 -> "1:15"; an hour and more -> "1:02:03". */
export function formatTime(seconds) {
  const s = Math.floor(seconds);
  const hours = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return hours ? `${hours}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}
