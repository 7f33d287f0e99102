// A win worth having: the cards of the foundations cascade home (each falls in from above the
// table, bouncing once, one after the other), then a summary of the game: time, moves, whether
// undo or hints were used, and the player's best for this game from /api/stats. No animation
// when the site's animation setting is off or the system asks for reduced motion.

const FALL_MS = 650;

export function reducedMotion() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

/** Cascade the top cards of the foundations; resolves when the last one lands. */
export function cascade(foundationEls, speed) {
  if (!speed || reducedMotion()) return Promise.resolve();
  const cards = foundationEls.flatMap((el) => [...el.querySelectorAll(":scope > .card")]);
  const anims = cards.map((c, i) => {
    const rise = c.getBoundingClientRect().bottom + 40;
    return c.animate([
      { transform: `translateY(${-rise}px) rotate(${i % 2 ? 14 : -14}deg)`, opacity: 0 },
      { transform: "translateY(0) rotate(0deg)", opacity: 1, offset: 0.7 },
      { transform: "translateY(-12px)", offset: 0.85 },
      { transform: "none" },
    ], { duration: FALL_MS * speed, delay: i * 90 * speed, easing: "ease-in",
      fill: "backwards" }).finished.catch(() => undefined);
  });
  return Promise.all(anims).then(() => undefined);
}

/** The player's best for `game` from the answer of /api/stats (or null). */
export function bestOf(stats, game) {
  const s = (stats || []).find((g) => g.game === game);
  if (!s || !s.won) return null;
  return { time: s.best_time_seconds, moves: s.fewest_moves, won: s.won, played: s.played };
}
