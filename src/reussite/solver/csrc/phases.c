/* Part of _core.c (one translation unit: _core.c includes the parts in order):
   the budget's shares of the phases, streamlined rounds, search contexts. */

#define FIRST_DEAL_CAP 300
/* The reserve games' streamlined search: positions per restart (solve_pos). */
#define RESTART_SIZE 20000
/* Leap Year, Auld Lang Syne: after the beam's half of the budget, the streamlined restarts up
   to this share (the exact search gets the rest). */
#define RESERVE_STREAM_END 0.95
/* Leap Year: the wide beam (wide_beam) first, up to this share of the budget, its settings
   (width, closure cap, weight of an inversion, of an emptied pile, the deals from the end of the
   stock where the rank bound leaves out the dealt positions it proves lost) in turn; then the
   beam up to RESERVE_BEAM_END (half of the budget without the wide beam). The bound in the last
   4 deals: tuned on deals 1001-1100 (docs/solver-s9-leap9.md). Session 13 (the wide beam twice
   as fast): the shares (0.3 and 0.65 before) and the settings after the first two, tuned on
   the 56 deals of 1001-1100 the rank bound does not lose at the root: 26 won before, 38 after
   (docs/solver-figures.md, "Leap Year: the wide beam twice as fast"). */
#define WIDE_SHARE 0.75
/* Below this budget of positions no wide beam (a setting takes 0.5-3 million). */
#define WIDE_MIN_STATES 2000000
#define RESERVE_BEAM_END 0.92
static const int WIDE_SETTINGS[][5] = {{2000, 2000, 3, 50, 4}, {2000, 1000, 10, 50, 4},
                                       {2000, 2000, 6, 50, 4}, {4000, 2000, 6, 50, 4},
                                       {8000, 4000, 3, 50, 4}};
/* The draw-one relaxation of draw-three games (solve_pos): up to this share of the budget, after
   the streamlined searches. */
#define RELAX_SHARE 0.1
/* Its first probe, without the covering rule: up to this share. */
#define RELAX_PROBE 0.02
/* Then, with the rule, the order bound tried at every position: up to this share (taken from
   the RELAX_SHARE of the search with the rule alone, which follows). */
#define RELAX_BOUND 0.05
/* The end of the relaxation's search with the rule when it makes progress (of the budget, from the
   start; 0: no extension). Off: at 95 % and a least progress of 3e-4 it proved Klondike draw 3
   deal 256 lost but left deal 151 unknown (lost by the exact search without it), and deal 1
   needed 2 million positions instead of 200,000 (docs/solver-s9-k3loss9.md); a switch for
   measurements (_core.tune_relax). */
#define RELAX_EXT_END 0.0
static __thread double relax_ext_end = RELAX_EXT_END;
/* Below this budget of positions no beam: its first try alone takes about 40,000 (5 stages of
   8,000) and the exact search does better with them (Spider 1 suit on 20,000 positions). */
#define BEAM_MIN_STATES 100000
/* The best-first win finder of draw-three games (kbest_search): this share of the budget,
   after the level-2 streamlined search (before level 1, which keeps its deadline). */
#define KBEST_SHARE 0.1
/* Level 1's deadline when the best-first search runs (of the budget, from the start): when level
   1 runs to it, the best-first search again up to half of the budget. */
#define LEVEL1_SHARE 0.4

typedef struct {
    int status;
    long long states;
    Line line;
} Result;

/* A streamlined search of draw-three games (streamline `level`; 0: the exact search's
   children), in rounds that cap the positions searched below each card turned up (flip_cap:
   cap, times grow a round, until a round cut nothing off) when cap > 0, else one round. fd0:
   the root's face-down cards; *rounds (if not NULL) counts the rounds. The status of the last
   round (won, or unknown at the budget's end; lost: the streamlined space has no win, which
   proves nothing at a level above 0). */
static int stream_rounds(Pos *p, Ctx *cx, const Budget *part, long long *total, int level,
                         long long cap, int grow, int fd0, Line *won, int *rounds) {
    int r;
    for (;;) {
        int cut = 0;
        flip_cap = cap > 0 ? (fd0 ? fd0 : 1) : 0;
        streamline = level;
        r = search_round(p, cx, part, total, cap > 0 ? cap : -1, 0, &cut, won);
        streamline = 0;
        flip_cap = 0;
        if (rounds) (*rounds)++;
        if (cx->err || r != ST_LOST || !cut || cap <= 0) return r;
        cap *= grow;
    }
}

/* Which phase of solve_pos ran last (the one that decided, when the answer is won or lost):
   for the tests and the measurements (core.last_phase). */
enum { PH_ROOT, PH_BEAM, PH_KBEST, PH_LEVEL2, PH_LEVEL1, PH_RELAX, PH_RESERVE, PH_EXACT, PH_WIDE,
       PH_LEVEL3, PH_CARDSET };
static __thread int solve_phase = PH_ROOT;


/* The best-first search of draw-three games: KBEST_SHARE of the budget from now (not up to a
   fixed share of it: on a lost deal the level-2 streamlined search before it runs out of
   positions early, and the exact search would lose the difference). */
static int kbest_phase(Pos *p, Ctx *cx, double time_limit, long long max_states,
                       long long *total, Line *won) {
    solve_phase = PH_KBEST;
    double share = tune_share >= 0 ? tune_share : KBEST_SHARE;
    Budget part = {time_limit < 0 ? -1.0 : now() + time_limit * share,
                   max_states < 0 ? -1 : *total + (long long)((double)max_states * share)};
    return kbest_search(p, cx, &part, total, won);
}

/* Frees what a search context holds (its move buffer, children, frames, best line, table). */
static void ctx_free(Ctx *cx) {
    free(cx->buf);
    free(cx->kids.v);
    free(cx->frames.f);
    free(cx->best.v);
    table_free(&cx->table);
}

/* A search context for the experiments' wrappers (py_stream, py_exhaust): zeroed, a move buffer,
   and a table sized for the expected positions (max_states, else a million a second of
   time_limit), growing to 2^28. 0, or 1 on memory error (ctx_free frees what was made). */
static int ctx_open(Ctx *cx, const Spec *sp, double time_limit, long long max_states) {
    memset(cx, 0, sizeof *cx);
    cx->buf = malloc(sizeof(Move) * (size_t)max_moves(sp));
    double expect = max_states >= 0 ? (double)max_states : time_limit * 1e6;
    size_t cap0 = (size_t)1 << 16;
    while (cap0 < ((size_t)1 << 24) && (double)cap0 < 2.0 * expect) cap0 *= 2;
    return !cx->buf || table_init(&cx->table, cap0, (size_t)1 << 28);
}
