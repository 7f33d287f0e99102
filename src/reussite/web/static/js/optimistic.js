// Optimistic moves: a move the view lists as legal is drawn at once where the player put it,
// before the server answers. Only what the player already sees moves: a card the move uncovers
// stays face down in the guess (its face is the server's to tell), a stock click (which turns
// up cards) waits for the answer, and so does anything the rules do on their own after the
// move (a completed suit leaving, a card turning over): the server's events bring them.

/** The view as it will be after the pile move `move`, as far as the player can know it. */
export function predict(view, move) {
  if (move.type !== "move") return null;
  const src = view.piles[move.from];
  const dst = view.piles[move.to];
  if (!src || !dst || src.length < move.count) return null;
  const piles = { ...view.piles };
  piles[move.from] = src.slice(0, src.length - move.count);
  piles[move.to] = [...dst, ...src.slice(src.length - move.count)];
  return {
    ...view,
    piles,
    moves: (view.moves ?? 0) + 1,
    legal_moves: [], // nothing is known to be legal until the server says
    finish: null,
    can_undo: true,
    events: [{ type: "move", from: move.from, to: move.to, count: move.count }],
    guessed: true,
  };
}

/** The server's events for a move already drawn by `predict`: its first step is on screen. */
export function eventsAfterGuess(events, move) {
  const [first, ...rest] = events || [];
  const same = first && first.type === "move" && first.from === move.from
    && first.to === move.to && first.count === move.count;
  return same ? rest : events || [];
}

/** The steps that take a guessed move back (for the cards to glide home on a refusal). */
export function undoEvents(move) {
  return [{ type: "move", from: move.to, to: move.from, count: move.count }];
}
