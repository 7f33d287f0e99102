/* The solver's core in C: the engine's moves, the exact search of search.py, and the phases
 * only the C core has.
 *
 * Two things here are a second, faster implementation of what exists in Python:
 *
 * - the engine's raw moves, playing and taking back a move (engine.py: raw_moves, push_raw,
 *   pop), over the same rules model (rules.py), read from a "spec" tuple of small ints that
 *   core.py builds from a GameRules;
 * - the exact search of search.py (children and their order, safe moves, stock macros, idle
 *   splits and descents, the canonical key, the loss bounds, the rounds with capped deals, the
 *   clear-end test).
 *
 * The tests compare the two on random positions of every game: the same legal moves, the same
 * positions after playing them, the same children in the same order, equal keys for positions
 * whose Python keys are equal, and on a budget of positions the same search. The Python
 * search stays the reference and the fallback.
 *
 * The rest has no Python twin (core.py's docstring lists it): the win finders (the beams, the
 * best-first search, the streamlined searches, the wide beam), which answer a win with a line
 * the engine replays or nothing, and the loss proofs of the card-set search and the draw-one
 * relaxation; solve_pos runs them before the exact search, each on a share of the budget.
 *
 * Cards are bytes: rank * 4 + suit, plus 64 when face up (cards.py). A pile is bottom first.
 * The transposition table holds 128-bit keys: a pile's hash is a sum of Zobrist numbers of
 * (height, card), updated as cards come and go; piles that the rules treat alike are combined
 * by a sum (order does not matter), the others with their place. Two positions with different
 * canonical keys collide with probability about 2^-128 per pair: negligible next to any budget.
 *
 * The search's settings (Settings: what a test may switch off) and the rules of the phase
 * running (Mode) travel in each search's context (Ctx), the clock with each budget (Budget);
 * the only thread-local variables are scratch buffers and caches kept per thread for speed.
 */

/* The parts, in the order each needs the ones before it (a single translation unit, so
   that every function stays static and inlinable): */
#include "csrc/pos.c"
#include "csrc/key.c"
#include "csrc/bounds.c"
#include "csrc/children.c"
#include "csrc/common.c"
#include "csrc/beam.c"
#include "csrc/best_first.c"
#include "csrc/exact.c"
#include "csrc/phases.c"
#include "csrc/abstract.c"
#include "csrc/wide_beam.c"
#include "csrc/solve.c"
#include "csrc/visible.c"
#include "csrc/python.c"
