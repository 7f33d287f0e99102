/* The solver's core in C: the engine's moves and the depth-first search of search.py.
 *
 * This file is a second, faster implementation of two things that exist in Python:
 *
 * - the engine's raw moves, playing and taking back a move (engine.py: raw_moves, push_raw,
 *   pop), over the same rules model (rules.py), read from a "spec" tuple of small ints that
 *   core.py builds from a GameRules;
 * - the search of search.py (children and their order, safe moves, stock macros, the
 *   canonical key, the rounds with capped deals, the clear-end test).
 *
 * The tests compare the two on random positions of every game: the same legal moves, the same
 * positions after playing them, the same children in the same order, equal keys for positions
 * whose Python keys are equal. The Python solver stays the reference and the fallback.
 *
 * Cards are bytes: rank * 4 + suit, plus 64 when face up (cards.py). A pile is bottom first.
 * The transposition table holds 128-bit keys: a pile's hash is a sum of Zobrist numbers of
 * (height, card), updated as cards come and go; piles that the rules treat alike are combined
 * by a sum (order does not matter), the others with their place. Two positions with different
 * canonical keys collide with probability about 2^-128 per pair: negligible next to any budget.
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
