/* Part of _core.c (one translation unit: _core.c includes the parts in order):
   the budget's shares of the phases, streamlined rounds, search contexts. */

#define FIRST_DEAL_CAP 300
/* The reserve games' streamlined search: positions per restart (solve_pos). */
#define RESTART_SIZE 20000
/* Leap Year, Auld Lang Syne: after the beam's half of the budget, the streamlined restarts up
   to this share (the exact search gets the rest). */
#define RESERVE_STREAM_END 0.95
/* Leap Year: the wide beam (wide_beam) first, up to this share of the budget, its settings
   (width, closure cap, weight of an inversion, the deals from the end of the stock where the
   rank bound leaves out the dealt positions it proves lost) in turn; then the
   beam up to RESERVE_BEAM_END (half of the budget without the wide beam). Shares and settings
   tuned on the 56 deals of Leap Year 1001-1100 the rank bound does not lose at the root. */
#define WIDE_SHARE 0.75
/* Below this budget of positions no wide beam (a setting takes 0.5-3 million). */
#define WIDE_MIN_STATES 2000000
#define RESERVE_BEAM_END 0.92
static const int WIDE_SETTINGS[][4] = {{2000, 2000, 3, 4}, {2000, 1000, 10, 4},
                                       {2000, 2000, 6, 4}, {4000, 2000, 6, 4},
                                       {8000, 4000, 3, 4}};
/* The draw-one relaxation of draw-three games (solve_pos): up to this share of the budget, after
   the streamlined searches. */
#define RELAX_SHARE 0.1
/* Its first probe, without the covering rule: up to this share. */
#define RELAX_PROBE 0.02
/* Then, with the rule, the order bound tried at every position: up to this share (taken from
   the RELAX_SHARE of the search with the rule alone, which follows). */
#define RELAX_BOUND 0.05
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
    int phase;  /* the phase that ran last (PH_*) */
} Result;

/* A streamlined search of draw-three games (streamline `level`, 1 or 2), in rounds that cap the
   positions searched below each card turned up (Mode.flip_cap: cap, times grow a round, until a
   round cut nothing off) when cap > 0, else one round. The cap keeps a streamlined search from
   sinking for ever below one early choice. fd0: the root's face-down cards (the cap's scale);
   *rounds (if not NULL) counts the rounds. The status of the last round: won, or unknown at
   the budget's end; lost means the streamlined space has no win, which proves nothing. */
static int stream_rounds(Pos *p, Ctx *cx, const Budget *part, long long *total, int level,
                         long long cap, int grow, int fd0, Line *won, int *rounds) {
    int r;
    for (;;) {
        int cut = 0;
        cx->mode.flip_cap = cap > 0 ? (fd0 ? fd0 : 1) : 0;
        cx->mode.streamline = level;
        r = search_round(p, cx, part, total, cap > 0 ? cap : -1, 0, &cut, won);
        cx->mode.streamline = 0;
        cx->mode.flip_cap = 0;
        if (rounds) (*rounds)++;
        if (cx->err || r != ST_LOST || !cut || cap <= 0) return r;
        cap *= grow;
    }
}

/* The reserve games' streamlined search (no deal while a card can go home) in restarts: try t
   plays in an order drawn from the salt salt0 + t (0: the engine's order), each on `size`
   positions, until a win, `end` is spent or `tries` tries (< 0: no limit); a try that saw the
   whole streamlined space ends them (any order would see the same space). ST_WON (the line in
   *won, *which the winning try) or ST_UNKNOWN: it proves nothing. The tries use a small table of
   their own: clearing the search's large one before every try (fresh pages) cost more than the
   try. */
static int reserve_restarts(Pos *p, Ctx *cx, const Budget *end, long long *total, long long size,
                            uint64_t salt0, long long tries, Line *won, long long *which) {
    Table big = cx->table;
    if (table_init(&cx->table, (size_t)1 << 16, big.max_cap)) {
        cx->table = big;
        cx->err = 1;
        return ST_UNKNOWN;
    }
    int status = ST_UNKNOWN;
    for (long long t = 0; tries < 0 || t < tries; t++) {
        long long cap = *total + size;
        Budget part = {end->deadline,
                       end->max_states < 0 || cap < end->max_states ? cap : end->max_states,
                       end->clock};
        int cut = 0;
        cx->mode.streamline = 1;
        cx->mode.stream_salt = salt0 + (uint64_t)t;
        int r = search_round(p, cx, &part, total, -1, 0, &cut, won);
        cx->mode.streamline = 0;
        cx->mode.stream_salt = 0;
        if (r == ST_WON && !cx->err) {
            status = ST_WON;
            *which = t;
            break;
        }
        if (cx->err || r == ST_LOST || spent(end, *total)) break;
    }
    table_free(&cx->table);
    cx->table = big;
    return status;
}

/* The phases of solve_pos (Ctx.phase): the one that ran last, which decided when the answer
   is won or lost. The tests read it (core.testing_last_phase). */
enum { PH_ROOT, PH_BEAM, PH_KBEST, PH_LEVEL2, PH_LEVEL1, PH_RELAX, PH_RESERVE, PH_EXACT, PH_WIDE,
       PH_CARDSET };

/* The best-first search of draw-three games: KBEST_SHARE of the budget from now (not up to a
   fixed share of it: on a lost deal the level-2 streamlined search before it runs out of
   positions early, and the exact search would lose the difference). */
static int kbest_phase(Pos *p, Ctx *cx, clockid_t clk, double time_limit, long long max_states,
                       long long *total, Line *won) {
    cx->phase = PH_KBEST;
    Budget part = {time_limit < 0 ? -1.0 : now(clk) + time_limit * KBEST_SHARE,
                   max_states < 0 ? -1 : *total + (long long)((double)max_states * KBEST_SHARE),
                   clk};
    return kbest_search(p, cx, 0, &part, total, won);
}

/* Frees what a search context holds (its move buffer, children, frames, best line, table). */
static void ctx_free(Ctx *cx) {
    free(cx->buf);
    free(cx->kids.v);
    free(cx->frames.f);
    free(cx->best.v);
    table_free(&cx->table);
}

/* A search context for the test hooks (testing_exhaust, testing_stream, testing_restarts):
   zeroed, the settings `set` (no best line asked for), a move buffer, and a table sized for
   max_states positions (< 0: a million), growing to 2^28. 0, or 1 on memory error (ctx_free
   frees what was made). */
static int ctx_open(Ctx *cx, const Spec *sp, const Settings *set, long long max_states) {
    memset(cx, 0, sizeof *cx);
    cx->set = set;
    cx->mode.idle = set->idle;
    cx->buf = malloc(sizeof(Move) * (size_t)max_moves(sp));
    double expect = max_states >= 0 ? (double)max_states : 1e6;
    size_t cap0 = (size_t)1 << 16;
    while (cap0 < ((size_t)1 << 24) && (double)cap0 < 2.0 * expect) cap0 *= 2;
    return !cx->buf || table_init(&cx->table, cap0, (size_t)1 << 28);
}
