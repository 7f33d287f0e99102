// Auto-finish: when the server's view carries `finish` (nothing is left to decide and moves
// to the foundations, with stock clicks, win the game), the player is offered to finish; each
// move of the line is then played through the API like any other, and animated, the server
// judging each one and naming the next.

const pause = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/**
 * Play the view's `finish` moves one after the other. `current()` gives the latest view,
 * `play(move)` plays one move and draws its answer; `stepMs` is the pause between two moves
 * (so that each glide is seen). Stops as soon as the view names no next move.
 */
export async function finishGame(current, play, stepMs) {
  for (let guard = 0; guard < 2000; guard++) {
    const v = current();
    if (!v || v.status !== "playing" || !v.finish) return;
    await play(v.finish);
    if (stepMs) await pause(stepMs);
  }
}
