/* Part of _core.c (one translation unit: _core.c includes the parts in order):
   the beam's evaluation, budgets, frames and lines shared by the searches. */

/* The beam's ordering in its current try (beam_search sets it in the context, Ctx.order: three
   orderings in turn, each wins deals the others do not). */
typedef struct {
    int any_link;   /* evaluate: the weight of a link of another suit (1 or 0) */
    int hash_ties;  /* equal scores taken in an order drawn from a hash of the position (salted
                       per try) rather than newest first */
    uint64_t salt;
    int w_inv;      /* evaluate_reserve: the weight of a card above a lower one */
} BeamOrder;

/* evaluate_reserve: the penalty of a reserve pile emptied while the stock still deals. */
#define BEAM_W_EMPTY 50

/* The reserve games' evaluation (Leap Year, Auld Lang Syne), for the beam only: cards home,
   less a penalty for every reserve pile emptied while the stock still deals (the stock's cards
   then fall on fewer piles), less a weight for every card lying above a card of lower rank in
   its pile (the lower card waits for it). */
static int evaluate_reserve(const Pos *p, int w_inv) {
    const Spec *sp = p->sp;
    int e = 10 * p->fcards, inv = 0;
    for (int i = sp->r0; i < sp->r0 + sp->nr; i++) {
        int n = p->len[i];
        const uint8_t *c = p->c[i];
        if (!n) {
            if (p->len[0]) e -= BEAM_W_EMPTY;
            continue;
        }
        for (int k = 0; k < n; k++) {
            int r = RANK(c[k]);
            for (int q = k + 1; q < n; q++) inv += RANK(c[q]) > r;
        }
    }
    return e - w_inv * inv;
}

/* How promising a position of a tableau game looks, for the beam: cards home (a completed
   suit outweighs the links it had), face-down cards, empty piles, cards in cells, and how well
   the face-up cards are ordered (a same-suit link counts 2, a face-up card on one it does not
   fit -1, a link of another suit o->any_link). In reserve games, evaluate_reserve. */
static int evaluate(const Pos *p, const BeamOrder *o) {
    const Spec *sp = p->sp;
    if (sp->reserve_only) return evaluate_reserve(p, o->w_inv);
    int e = 6 * p->fcards;
    for (int i = sp->t0; i < sp->t0 + sp->nt; i++) {
        int n = p->len[i];
        const uint8_t *c = p->c[i];
        if (!n) { e += 8; continue; }
        for (int k = 0; k < n; k++) {
            if (!(c[k] & UPF)) { e -= 5; continue; }
            if (k == 0 || !(c[k - 1] & UPF)) continue;
            int lower = c[k - 1], upper = c[k];
            if (fits(sp, upper, lower)) e += sp->build == B_ANY && SUIT(lower) == SUIT(upper) ? 2 : o->any_link;
            else e -= 1;
        }
    }
    for (int i = sp->c0; i < sp->c0 + sp->nc; i++)
        if (p->len[i]) e -= 2;
    return e;
}

/* Moves the beam leaves out (it proves nothing, so it may; the exact search tries them all):
   - a same-suit run split (part of it moved off the same-suit card it lies on) anywhere but
     onto a card of its own suit: it trades a same-suit link for a weaker one;
   - a whole pile moved to an empty pile, and a move to an empty pile other than the first:
     the same cards end up in the same order, only in another place.
   Without them the stages' best-first searches drown in shuffles of equal score, and the beam
   wins no deal of Spider 4 suits or Astrocyte in 10 s; with them it wins some. */
static int beam_skip(const Pos *p, Move m) {
    const Spec *sp = p->sp;
    if (m.s < 0 || sp->kind[m.s] != K_TABLEAU) return 0;
    int dk = sp->kind[m.d];
    if (dk == K_FOUNDATION) return 0;
    int rest = p->len[m.s] - m.n, ld = p->len[m.d];
    int c = p->c[m.s][rest];
    if (rest > 0) {
        int below = p->c[m.s][rest - 1];
        if ((below & UPF) && fits(sp, c, below) && SUIT(below) == SUIT(c) &&
            !(dk == K_TABLEAU && ld && SUIT(top(p, m.d)) == SUIT(c)))
            return 1;
    }
    if (dk == K_TABLEAU && !ld) {
        if (rest == 0) return 1;
        for (int j = sp->t0; j < m.d; j++)
            if (!p->len[j]) return 1;
    }
    return 0;
}

/* The time on a budget's clock in seconds: wall time (CLOCK_MONOTONIC), or the CPU time of the
   searching thread (CLOCK_THREAD_CPUTIME_ID, so that a shared machine's load does not change
   what a budget buys). */
static double now(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct {
    double deadline;      /* < 0: none; else a time of `clock` */
    long long max_states; /* < 0: none */
    clockid_t clock;      /* read only with a deadline */
} Budget;

static int spent(const Budget *b, long long states) {
    if (b->max_states >= 0 && states >= b->max_states) return 1;
    return b->deadline >= 0 && now(b->clock) >= b->deadline;
}

/* ------------------------------------------------------------------ the search */

/* A tableau, reserve or cell pile: the piles a game without foundations must empty. */
static inline int in_layout(const Spec *sp, int i) {
    return sp->kind[i] == K_TABLEAU || sp->kind[i] == K_RESERVE || sp->kind[i] == K_CELL;
}

/* search.py _progress: cards turned up by the player's moves, cards sent home (x2; in a game
   without foundations, cards put away off the tableau, reserves and cells), over the moves
   played from move index `from` on. */
static int progress_since(const Pos *p, int from) {
    const Spec *sp = p->sp;
    int gain = 0;
    for (int m = from; m < p->nmoves; m++) {
        int start = p->mstart[m], end = m + 1 < p->nmoves ? p->mstart[m + 1] : p->nops;
        /* a move off a tableau pile that covers others: each card it turns up counts */
        int uncovering = sp->has_covers && p->ops[start].op == OP_TRANSFER &&
                         sp->kind[p->ops[start].a] == K_TABLEAU;
        for (int k = start; k < end; k++) {
            const Op *o = &p->ops[k];
            if (o->op == OP_TRANSFER) {
                if (sp->kind[o->b] == K_FOUNDATION) gain += 2 * o->n;
                else if (sp->kind[o->a] == K_FOUNDATION) gain -= 2 * o->n;
                else if (sp->clear_win && in_layout(sp, o->a) != in_layout(sp, o->b))
                    gain += in_layout(sp, o->a) ? 2 * o->n : -2 * o->n;  /* put away, or back */
            } else if (o->op == OP_FLIP && k > start) {
                const Op *pr = &p->ops[k - 1];
                if ((pr->op == OP_TRANSFER && pr->a == o->a && sp->kind[o->a] != K_STOCK) ||
                    (uncovering && sp->kind[o->a] == K_TABLEAU))
                    gain += 1;
            }
        }
    }
    return gain;
}

typedef struct {
    int kid0, nkids, i;    /* this level's children in the arena, next to try */
    int steps;             /* moves pushed for the step that led here (0 at the root) */
    int gain;
    int dealt;             /* 1 when the step that led here was a deal (capped rounds) */
    long long dealt_at, dealt_cap;
} Frame;

typedef struct {
    Frame *f;
    int n, cap;
} Frames;

static int frames_push(Frames *fs) {
    if (fs->n >= fs->cap) {
        Frame *f = grow_to(fs->f, &fs->cap, fs->n + 1, sizeof *f, 1024);
        if (!f) return -1;
        fs->f = f;
    }
    memset(&fs->f[fs->n], 0, sizeof(Frame));
    fs->n++;
    return 0;
}

typedef struct {
    Move *v;
    int n, cap;
} Line;

static int line_add(Line *l, Move m) {
    if (l->n >= l->cap) {
        Move *v = grow_to(l->v, &l->cap, l->n + 1, sizeof *v, 512);
        if (!v) return -1;
        l->v = v;
    }
    l->v[l->n++] = m;
    return 0;
}

/* A search's context: its settings, the rules of the phase running, and what the phases
   share (the table, the children's arena, the frames, the move buffer). */
typedef struct {
    const Settings *set;  /* SHIPPED, or a test hook's */
    Mode mode;            /* the rules of the phase running (children, search_round) */
    BeamOrder order;      /* the beam's current try */
    Table table;
    Kids kids;
    Frames frames;
    Move *buf;
    Line best;      /* best line of the current round (raw moves) */
    int err;
    int beam;       /* 1: a beam search for a win first (tableau games dealt onto) */
    int cut;        /* the beam's try left something out (its width or reach was reached) */
    int phase;      /* the phase of solve_pos running (PH_*), the one that decided at the end */
    long long bound_cuts;  /* search_round with Mode.relax_bound: positions the bound cut */
    long long idle_stop;   /* > 0: search_round stops after that many positions while
                              bound_cuts is 0 (the relaxation's part with the order bound) */
} Ctx;

/* Moves played along the current path, from the root's history length. */
static int current_line(const Pos *p, int depth0, Line *l) {
    l->n = 0;
    for (int k = depth0; k < p->nmoves; k++)
        if (line_add(l, p->mraw[k])) return -1;
    return 0;
}

static void pop_frame(Pos *p, Frames *fs, Kids *kids) {
    Frame *fr = &fs->f[fs->n - 1];
    kids->n = fr->kid0;
    for (int q = 0; q < fr->steps; q++) pop_move(p);
    fs->n--;
}
