/* Part of _core.c (one translation unit: _core.c includes the parts in order):
   the spec, positions, the engine's raw moves, playing and taking back a move. */

#define _POSIX_C_SOURCE 200809L
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <limits.h>
#include <sys/mman.h>

#define MAXP 48      /* piles */
#define MAXL 256     /* cards in one pile */
#define UPF 64
#define SAFE 1000

#define RANK(c) (((c) & 63) >> 2)
#define SUIT(c) ((c) & 3)
#define RED(c) (SUIT(c) == 1 || SUIT(c) == 2)

enum { K_STOCK, K_WASTE, K_FOUNDATION, K_CELL, K_RESERVE, K_TABLEAU };
enum { B_ANY, B_ALT, B_SAME, B_NONE };
enum { W_NOTHING, W_UP_OR_DOWN, W_UP_OR_DOWN_WRAP };  /* rules.WasteTakes */
enum { F_COMPLETE, F_IN_SUIT, F_ANY_SUIT };
enum { A_DEAL_TABLEAU, A_DEAL_RESERVE, A_DRAW_WASTE, A_NONE };
enum { U_SUIT, U_ALT, U_SINGLE, U_ANY_UP };  /* rules.Unit */
enum { R_NONE, R_TURN_WASTE, R_GATHER };
enum { OP_TRANSFER, OP_FLIP, OP_REDEAL, OP_DRAW, OP_TURN };
/* OP_DRAW: n cards from the stock to the waste, turned up; OP_TURN: the n waste cards back to
   the stock, turned down, a redeal used (one record each instead of two per card). */
enum { ST_WON, ST_LOST, ST_UNKNOWN };

typedef struct {
    int npiles, waste, f0, nf, c0, nc, r0, nr, t0, nt;
    int kind[MAXP];
    int build, unit, unit_suit, space_king, space_none, limited, ftakes, gives_back, between, auto_collect, res_to_tab;
    int action, draw, not_while_empty, skip_empty, redeal, redeals, total;
    int stock_rows;       /* rows the stock deals onto the tableau from the deal (Spider 5) */
    int waste_takes;      /* rules.WasteTakes: the tableau's top cards the waste accepts */
    int goal;             /* cards to put away to win: all (foundations), or those dealt onto
                             the tableau and reserves (a game without foundations) */
    int copies[64];
    /* derived */
    int deals_to_tableau, deals_to_piles, stock_reformed, limited_redeals, safe_foundation;
    int waste_safe, unlimited, stock_cycle, stock_turns, reserve_only, packs;
    int order_bound;      /* the order bound applies (Klondike-type games, see order_lost) */
    int clear_win;        /* no foundations: won when the tableau, reserves and cells are empty */
    int waste_sink;       /* the waste's cards never leave it: only its top card matters */
    int waste_macros;     /* children: stock clicks only before a move of the waste's card */
    int zmask;            /* the bits of a card that the key sees (ranks only: suits never matter) */
    int rank_copies[14];
    int has_covers;       /* rules.Tableau.covers: some tableau piles cover others */
    uint64_t covered_by[MAXP];  /* for each pile, the piles covering it (a mask) */
    uint64_t covering[MAXP];    /* for each pile, the piles it covers */
} Spec;

typedef struct { int8_t s, d; int16_t n; } Move;
typedef struct { uint8_t op; int8_t a, b; uint8_t n; } Op;

typedef struct {
    const Spec *sp;
    uint8_t c[MAXP][MAXL];
    int len[MAXP];
    int redeals_used;
    int fcards;
    uint64_t h1[MAXP], h2[MAXP];
    Op *ops;
    int nops, capops;
    int *mstart;      /* index in ops where each played move starts */
    Move *mraw;
    int nmoves, capmoves;
} Pos;

static uint64_t Z1[MAXL][128], Z2[MAXL][128];

static uint64_t splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint64_t mix1(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint64_t mix2(uint64_t z) {
    z = (z ^ (z >> 33)) * 0xFF51AFD7ED558CCDULL;
    z = (z ^ (z >> 33)) * 0xC4CEB9FE1A85EC53ULL;
    return z ^ (z >> 33);
}

static void init_zobrist(void) {
    uint64_t x = 0x5265757373697465ULL; /* "Reussite" */
    for (int i = 0; i < MAXL; i++)
        for (int v = 0; v < 128; v++) {
            Z1[i][v] = splitmix(&x);
            Z2[i][v] = splitmix(&x);
        }
}

/* ------------------------------------------------------------------ position basics */

/* A growing array: ``buf`` (of ``elem``-byte items, ``*cap`` of them) reallocated to hold at
 * least ``need`` items, its capacity doubled from ``first``; the new buffer (``*cap`` set),
 * or NULL when memory runs out (``buf`` and ``*cap`` untouched, still valid). */
static void *grow_to(void *buf, int *cap, int need, size_t elem, int first) {
    int c = *cap ? *cap : first;
    while (c < need) c *= 2;
    void *v = realloc(buf, elem * (size_t)c);
    if (v) *cap = c;
    return v;
}

/* A binary heap of node indices, best first by ``better(s, a, b)``, in the fields ``heap``,
 * ``hn``, ``hcap`` of a ``Type``: defines ``push`` (-1 when memory runs out) and ``pop`` (the
 * best; the heap must not be empty). Written once for the searches that keep one (the beam's
 * stage, the visible search); a macro so that ``better`` is inlined. */
#define INDEX_HEAP(push, pop, Type, better) \
    static int push(Type *s, int node) { \
        if (s->hn >= s->hcap) { \
            int *h = grow_to(s->heap, &s->hcap, s->hn + 1, sizeof *h, 4096); \
            if (!h) return -1; \
            s->heap = h; \
        } \
        int i = s->hn++; \
        s->heap[i] = node; \
        while (i > 0) { \
            int up = (i - 1) / 2; \
            if (!better(s, s->heap[i], s->heap[up])) break; \
            int t = s->heap[i]; s->heap[i] = s->heap[up]; s->heap[up] = t; \
            i = up; \
        } \
        return 0; \
    } \
    static int pop(Type *s) { \
        int top = s->heap[0]; \
        s->heap[0] = s->heap[--s->hn]; \
        int i = 0; \
        for (;;) { \
            int l = 2 * i + 1, r = l + 1, b = i; \
            if (l < s->hn && better(s, s->heap[l], s->heap[b])) b = l; \
            if (r < s->hn && better(s, s->heap[r], s->heap[b])) b = r; \
            if (b == i) break; \
            int t = s->heap[i]; s->heap[i] = s->heap[b]; s->heap[b] = t; \
            i = b; \
        } \
        return top; \
    }

static int grow_history(Pos *p) {
    if (p->nops + 64 > p->capops) {
        Op *o = grow_to(p->ops, &p->capops, p->nops + 64, sizeof *o, 4096);
        if (!o) return -1;
        p->ops = o;
    }
    if (p->nmoves + 2 > p->capmoves) {
        int cap = p->capmoves ? p->capmoves * 2 : 1024;
        int *m = realloc(p->mstart, sizeof(int) * (size_t)(cap + 1));
        if (!m) return -1;
        p->mstart = m;
        Move *r = realloc(p->mraw, sizeof(Move) * (size_t)cap);
        if (!r) return -1;
        p->mraw = r;
        p->capmoves = cap;
    }
    return 0;
}

static inline void put(Pos *p, int i, uint8_t c) {
    int h = p->len[i]++;
    p->c[i][h] = c;
    int z = c & p->sp->zmask;
    p->h1[i] += Z1[h][z];
    p->h2[i] += Z2[h][z];
}

static inline uint8_t take(Pos *p, int i) {
    int h = --p->len[i];
    uint8_t c = p->c[i][h];
    int z = c & p->sp->zmask;
    p->h1[i] -= Z1[h][z];
    p->h2[i] -= Z2[h][z];
    return c;
}

static inline void flip_top(Pos *p, int i) {
    int h = p->len[i] - 1;
    uint8_t c = p->c[i][h], d = c ^ UPF;
    int zc = c & p->sp->zmask, zd = d & p->sp->zmask;
    p->c[i][h] = d;
    p->h1[i] += Z1[h][zd] - Z1[h][zc];
    p->h2[i] += Z2[h][zd] - Z2[h][zc];
}

/* n cards from the top of s onto d, keeping their order. */
static inline void transfer(Pos *p, int s, int d, int n) {
    const Spec *sp = p->sp;
    int base = p->len[s] - n;
    for (int k = 0; k < n; k++) put(p, d, p->c[s][base + k]);
    for (int k = 0; k < n; k++) take(p, s);
    if (sp->kind[d] == K_FOUNDATION) p->fcards += n;
    if (sp->kind[s] == K_FOUNDATION) p->fcards -= n;
}

static inline void rec(Pos *p, int op, int a, int b, int n) {
    Op *o = &p->ops[p->nops++];
    o->op = (uint8_t)op;
    o->a = (int8_t)a;
    o->b = (int8_t)b;
    o->n = (uint8_t)n;
}

static inline int top(const Pos *p, int i) { return p->c[i][p->len[i] - 1]; }

static int run_length(const Pos *p, int i) {
    int n = p->len[i];
    if (!n) return 0;
    const uint8_t *c = p->c[i];
    int k = 1;
    if (p->sp->unit == U_SINGLE) return 1;
    if (p->sp->unit == U_ANY_UP) {
        while (k < n && (c[n - k - 1] & UPF)) k++;
        return k;
    }
    while (k < n) {
        int upper = c[n - k], lower = c[n - k - 1];
        if (!(lower & UPF) || RANK(lower) != RANK(upper) + 1) break;
        if (p->sp->unit_suit) {
            if (SUIT(lower) != SUIT(upper)) break;
        } else if (RED(lower) == RED(upper)) break;
        k++;
    }
    return k;
}

static inline int fits(const Spec *sp, int c, int t) {
    if (sp->build == B_NONE || RANK(t) != RANK(c) + 1) return 0;
    if (sp->build == B_ANY) return 1;
    if (sp->build == B_ALT) return RED(t) != RED(c);
    return SUIT(t) == SUIT(c);
}

/* Foundation j takes card c now (one-card foundations). */
static inline int accepts(const Pos *p, int j, int c) {
    const Spec *sp = p->sp;
    if (!p->len[j]) return RANK(c) == 1;
    int t = top(p, j);
    if (RANK(t) == 13 || RANK(t) + 1 != RANK(c)) return 0;
    return sp->ftakes != F_IN_SUIT || SUIT(t) == SUIT(c);
}

/* Some foundation takes card c now. */
static int can_go_home(const Pos *p, int c) {
    const Spec *sp = p->sp;
    for (int f = sp->f0; f < sp->f0 + sp->nf; f++)
        if (accepts(p, f, c)) return 1;
    return 0;
}

/* How many cards may move as a unit where free cells and empty piles limit it (engine.py
   run_limit): (free cells + 1) x 2^(empty piles), the target not counted when it is a space. */
static int run_limit(const Pos *p, int to_space) {
    const Spec *sp = p->sp;
    int free = 0, spaces = -to_space;
    for (int j = sp->c0; j < sp->c0 + sp->nc; j++) free += !p->len[j];
    for (int j = sp->t0; j < sp->t0 + sp->nt; j++) spaces += !p->len[j];
    return (free + 1) << (spaces > 0 ? spaces : 0);
}

static int stock_allowed(const Pos *p) {
    const Spec *sp = p->sp;
    if (sp->action == A_NONE) return 0;
    int redeal_left = sp->redeals < 0 || p->redeals_used < sp->redeals;
    if (sp->action == A_DRAW_WASTE) {
        if (p->len[0]) return 1;
        if (!p->len[sp->waste]) return 0;
        return sp->redeal != R_NONE && redeal_left;
    }
    if (!p->len[0]) {
        if (sp->redeal == R_GATHER) {
            if (!redeal_left) return 0;
            for (int i = sp->r0; i < sp->r0 + sp->nr; i++)
                if (p->len[i]) return 1;
            return 0;
        }
        return 0;
    }
    if (sp->not_while_empty)
        for (int i = sp->t0; i < sp->t0 + sp->nt; i++)
            if (!p->len[i]) return 0;
    int a = sp->action == A_DEAL_TABLEAU ? sp->t0 : sp->r0;
    int b = a + (sp->action == A_DEAL_TABLEAU ? sp->nt : sp->nr);
    if (a == b) return 0;
    if (!sp->skip_empty) return 1;
    for (int i = a; i < b; i++)
        if (p->len[i]) return 1;
    return 0;
}

static int is_suit_run(const Pos *p, int i) {
    const uint8_t *c = p->c[i];
    int n = p->len[i];
    int suit = SUIT(c[n - 1]);
    for (int k = 1; k < 13; k++) {
        int lower = c[n - k - 1], upper = c[n - k];
        if (SUIT(lower) != suit || RANK(lower) != RANK(upper) + 1 || !(lower & UPF)) return 0;
    }
    return 1;
}

/* Pile i is covered (rules.Tableau.covers): a pile covering it still holds a card. */
static inline int is_covered(const Pos *p, int i) {
    uint64_t m = p->sp->covered_by[i];
    while (m) {
        int j = __builtin_ctzll(m);
        if (p->len[j]) return 1;
        m &= m - 1;
    }
    return 0;
}

/* Pile s was just emptied: each face-down card it covered, now covered by no pile, turns up
   (engine.py Position._uncover, in the same order). */
static void uncover(Pos *p, int s) {
    uint64_t m = p->sp->covering[s];
    while (m) {
        int i = __builtin_ctzll(m);
        m &= m - 1;
        if (p->len[i] && !(top(p, i) & UPF) && !is_covered(p, i)) {
            flip_top(p, i);
            rec(p, OP_FLIP, i, 0, 0);
        }
    }
}

/* Emptying pile s would turn up a face-down card it covers (engine.py would_uncover). */
static int would_uncover(const Pos *p, int s) {
    uint64_t m = p->sp->covering[s];
    while (m) {
        int i = __builtin_ctzll(m);
        m &= m - 1;
        if (!p->len[i] || (top(p, i) & UPF)) continue;
        uint64_t c = p->sp->covered_by[i] & ~((uint64_t)1 << s);
        int open = 1;
        while (c) {
            int j = __builtin_ctzll(c);
            c &= c - 1;
            if (p->len[j]) { open = 0; break; }
        }
        if (open) return 1;
    }
    return 0;
}

#define ADD(S, D, N) do { out[n].s = (int8_t)(S); out[n].d = (int8_t)(D); \
                          out[n].n = (int16_t)(N); n++; } while (0)

/* Every legal move, in the engine's order (engine.py raw_moves). out needs room for all. */
static int raw_moves(const Pos *p, Move *out) {
    const Spec *sp = p->sp;
    int n = 0;
    int complete = sp->ftakes == F_COMPLETE;
    int t0 = sp->t0, t1 = sp->t0 + sp->nt, f0 = sp->f0, f1 = sp->f0 + sp->nf;
    int c0 = sp->c0, c1 = sp->c0 + sp->nc;
    int singles[MAXP][3], ns = 0;
    if (sp->waste >= 0 && p->len[sp->waste]) {
        singles[ns][0] = sp->waste; singles[ns][1] = 1; singles[ns][2] = !complete; ns++;
    }
    for (int i = c0; i < c1; i++)
        if (p->len[i]) {
            singles[ns][0] = i; singles[ns][1] = 1; singles[ns][2] = !complete; ns++;
        }
    for (int i = sp->r0; i < sp->r0 + sp->nr; i++)
        if (p->len[i] && (top(p, i) & UPF)) {
            singles[ns][0] = i; singles[ns][1] = sp->res_to_tab; singles[ns][2] = 1; ns++;
        }
    if (sp->gives_back || sp->between)
        for (int i = f0; i < f1; i++)
            if (p->len[i]) {
                singles[ns][0] = i; singles[ns][1] = sp->gives_back; singles[ns][2] = sp->between;
                ns++;
            }
    for (int k = 0; k < ns; k++) {
        int i = singles[k][0];
        int c = top(p, i);
        if (singles[k][1])
            for (int j = t0; j < t1; j++) {
                if (p->len[j]) {
                    if (fits(sp, c, top(p, j))) ADD(i, j, 1);
                } else if (!sp->space_none && (!sp->space_king || RANK(c) == 13)) ADD(i, j, 1);
            }
        if (singles[k][2] && !complete)
            for (int j = f0; j < f1; j++)
                if (j != i && accepts(p, j, c)) ADD(i, j, 1);
        if (sp->kind[i] == K_CELL)
            for (int j = c0; j < c1; j++)
                if (!p->len[j]) ADD(i, j, 1);
    }
    int any_up = sp->unit == U_ANY_UP;
    int limit = 0, limit_space = 0;
    if (sp->limited) { limit = run_limit(p, 0); limit_space = run_limit(p, 1); }
    for (int i = t0; i < t1; i++) {
        if (!p->len[i] || is_covered(p, i)) continue;
        int k = run_length(p, i);
        int r0 = RANK(top(p, i));
        const uint8_t *pc = p->c[i] + p->len[i];  /* pc[-m]: the m-th card from the top */
        for (int j = t0; j < t1; j++) {
            if (p->len[j]) {
                if (any_up) {
                    int hi = limit && limit < k ? limit : k;
                    for (int m = 1; m <= hi; m++)
                        if (fits(sp, pc[-m], top(p, j))) ADD(i, j, m);
                    continue;
                }
                int m = RANK(top(p, j)) - r0;
                if (m >= 1 && m <= k && fits(sp, pc[-m], top(p, j)) && (!limit || m <= limit))
                    ADD(i, j, m);
            } else if (j != i && !sp->space_none) {
                int hi = limit && limit_space < k ? limit_space : k;
                if (sp->space_king) {
                    if (any_up) {
                        for (int m = 1; m <= hi; m++)
                            if (RANK(pc[-m]) == 13) ADD(i, j, m);
                        continue;
                    }
                    int m = 13 - r0 + 1;
                    if (m <= hi) ADD(i, j, m);
                } else
                    for (int m = 1; m <= hi; m++) ADD(i, j, m);
            }
        }
        for (int j = c0; j < c1; j++)
            if (!p->len[j]) ADD(i, j, 1);
        if (complete) {
            if (k >= 13 && r0 == 1 && !sp->auto_collect && (!any_up || is_suit_run(p, i)))
                for (int j = f0; j < f1; j++)
                    if (!p->len[j]) ADD(i, j, 13);
        } else {
            int c = top(p, i);
            for (int j = f0; j < f1; j++)
                if (accepts(p, j, c)) ADD(i, j, 1);
        }
        if (sp->waste_takes != W_NOTHING && p->len[sp->waste]) {
            int c = top(p, i), w = top(p, sp->waste);
            int gap = RANK(c) > RANK(w) ? RANK(c) - RANK(w) : RANK(w) - RANK(c);
            if ((c & UPF) && (gap == 1 || (gap == 12 && sp->waste_takes == W_UP_OR_DOWN_WRAP)))
                ADD(i, sp->waste, 1);
        }
    }
    if (stock_allowed(p)) ADD(-1, -1, 0);
    return n;
}

/* An upper bound on the number of legal moves, for sizing buffers. */
static int max_moves(const Spec *sp) {
    int np = sp->npiles;
    return np * np * 14 + 8;
}


static void deal_row(Pos *p, int a, int b, int skip_empty) {
    for (int i = a; i < b; i++) {
        if (!p->len[0]) break;
        if (skip_empty && !p->len[i]) continue;
        put(p, i, take(p, 0) | UPF);
        rec(p, OP_TRANSFER, 0, i, 1);
        rec(p, OP_FLIP, i, 0, 0);
    }
}

static void click_stock(Pos *p) {
    const Spec *sp = p->sp;
    if (sp->action == A_DRAW_WASTE) {
        int w = sp->waste;
        if (p->len[0]) {
            int k = p->len[0] < sp->draw ? p->len[0] : sp->draw;
            for (int q = 0; q < k; q++) put(p, w, take(p, 0) | UPF);
            rec(p, OP_DRAW, 0, w, k);
        } else {
            int k = p->len[w];
            while (p->len[w]) put(p, 0, take(p, w) & ~UPF);
            p->redeals_used++;
            rec(p, OP_TURN, w, 0, k);
        }
    } else if (!p->len[0]) {
        for (int i = sp->r0 + sp->nr - 1; i >= sp->r0; i--)
            while (p->len[i]) {
                put(p, 0, take(p, i) & ~UPF);
                rec(p, OP_TRANSFER, i, 0, 1);
                rec(p, OP_FLIP, 0, 0, 0);
            }
        p->redeals_used++;
        rec(p, OP_REDEAL, 0, 0, 0);
        deal_row(p, sp->r0, sp->r0 + sp->nr, 0);
    } else if (sp->action == A_DEAL_TABLEAU) {
        deal_row(p, sp->t0, sp->t0 + sp->nt, sp->skip_empty);
    } else {
        deal_row(p, sp->r0, sp->r0 + sp->nr, sp->skip_empty);
    }
}

static void collect_suits(Pos *p) {
    const Spec *sp = p->sp;
    for (int i = sp->t0; i < sp->t0 + sp->nt; i++) {
        int n = p->len[i];
        if (n >= 13 && RANK(p->c[i][n - 1]) == 1 && RANK(p->c[i][n - 13]) == 13 &&
            (p->c[i][n - 13] & UPF) && is_suit_run(p, i)) {
            int f = -1;
            for (int j = sp->f0; j < sp->f0 + sp->nf; j++)
                if (!p->len[j]) { f = j; break; }
            if (f < 0) return; /* cannot happen with a well-formed game */
            transfer(p, i, f, 13);
            rec(p, OP_TRANSFER, i, f, 13);
            if (p->len[i] && !(top(p, i) & UPF)) {
                flip_top(p, i);
                rec(p, OP_FLIP, i, 0, 0);
            }
        }
    }
}

static int push_move(Pos *p, Move m) {
    if (grow_history(p)) return -1;
    p->mstart[p->nmoves] = p->nops;
    p->mraw[p->nmoves] = m;
    p->nmoves++;
    if (m.s < 0) {
        click_stock(p);
    } else {
        transfer(p, m.s, m.d, m.n);
        rec(p, OP_TRANSFER, m.s, m.d, m.n);
        if (p->len[m.s] && !(top(p, m.s) & UPF)) {
            flip_top(p, m.s);
            rec(p, OP_FLIP, m.s, 0, 0);
        }
        if (!p->len[m.s] && p->sp->covering[m.s]) uncover(p, m.s);
    }
    if (p->sp->auto_collect) collect_suits(p);
    return 0;
}

static void pop_move(Pos *p) {
    int start = p->mstart[--p->nmoves];
    for (int k = p->nops - 1; k >= start; k--) {
        Op *o = &p->ops[k];
        if (o->op == OP_TRANSFER) transfer(p, o->b, o->a, o->n);
        else if (o->op == OP_FLIP) flip_top(p, o->a);
        else if (o->op == OP_DRAW) {
            for (int q = 0; q < o->n; q++) put(p, 0, take(p, o->b) & ~UPF);
        } else if (o->op == OP_TURN) {
            for (int q = 0; q < o->n; q++) put(p, o->a, take(p, 0) | UPF);
            p->redeals_used--;
        } else p->redeals_used--;
    }
    p->nops = start;
}

static inline int last_ops(const Pos *p) {
    return p->nops - p->mstart[p->nmoves - 1];
}

/* The cards put away for good (engine.py cards_done): on the foundations, or, in a game
   without foundations, off the tableau, reserves and cells. */
static int home_cards(const Pos *p) {
    const Spec *sp = p->sp;
    if (!sp->clear_win) return p->fcards;
    int left = 0;
    for (int i = 0; i < sp->npiles; i++)
        if (sp->kind[i] == K_TABLEAU || sp->kind[i] == K_RESERVE || sp->kind[i] == K_CELL)
            left += p->len[i];
    return sp->goal - left;
}

static inline int is_won(const Pos *p) { return home_cards(p) == p->sp->goal; }

/* Won, tested where the search tests it: after a move, only with an empty stock where the
   foundations must hold every card. */
static inline int won_after_move(const Pos *p) {
    return (!p->len[0] || p->sp->clear_win) && is_won(p);
}
