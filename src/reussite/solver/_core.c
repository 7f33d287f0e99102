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
enum { B_ANY, B_ALT, B_SAME };
enum { F_COMPLETE, F_IN_SUIT, F_ANY_SUIT };
enum { A_DEAL_TABLEAU, A_DEAL_RESERVE, A_DRAW_WASTE };
enum { R_NONE, R_TURN_WASTE, R_GATHER };
enum { OP_TRANSFER, OP_FLIP, OP_REDEAL, OP_DRAW, OP_TURN };
/* OP_DRAW: n cards from the stock to the waste, turned up; OP_TURN: the n waste cards back to
   the stock, turned down, a redeal used (one record each instead of two per card). */
enum { ST_WON, ST_LOST, ST_UNKNOWN };

typedef struct {
    int npiles, waste, f0, nf, c0, nc, r0, nr, t0, nt;
    int kind[MAXP];
    int build, unit_suit, space_king, ftakes, gives_back, between, auto_collect, res_to_tab;
    int action, draw, not_while_empty, skip_empty, redeal, redeals, total;
    int copies[64];
    /* derived */
    int deals_to_tableau, deals_to_piles, stock_reformed, limited_redeals, safe_foundation;
    int waste_safe, unlimited, stock_cycle, stock_turns, reserve_only, packs;
    int order_bound;      /* the order bound applies (Klondike-type games, see order_lost) */
    int zmask;            /* the bits of a card that the key sees (ranks only: suits never matter) */
    int rank_copies[14];
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
    if (RANK(t) != RANK(c) + 1) return 0;
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

static int stock_allowed(const Pos *p) {
    const Spec *sp = p->sp;
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
        if (p->len[i]) { singles[ns][0] = i; singles[ns][1] = 1; singles[ns][2] = 0; ns++; }
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
                } else if (!sp->space_king || RANK(c) == 13) ADD(i, j, 1);
            }
        if (singles[k][2] && !complete)
            for (int j = f0; j < f1; j++)
                if (j != i && accepts(p, j, c)) ADD(i, j, 1);
        if (sp->kind[i] == K_CELL)
            for (int j = c0; j < c1; j++)
                if (!p->len[j]) ADD(i, j, 1);
    }
    for (int i = t0; i < t1; i++) {
        if (!p->len[i]) continue;
        int k = run_length(p, i);
        int r0 = RANK(top(p, i));
        for (int j = t0; j < t1; j++) {
            if (p->len[j]) {
                int m = RANK(top(p, j)) - r0;
                if (m >= 1 && m <= k && fits(sp, p->c[i][p->len[i] - m], top(p, j))) ADD(i, j, m);
            } else if (j != i) {
                if (sp->space_king) {
                    int m = 13 - r0 + 1;
                    if (m <= k) ADD(i, j, m);
                } else
                    for (int m = 1; m <= k; m++) ADD(i, j, m);
            }
        }
        for (int j = c0; j < c1; j++)
            if (!p->len[j]) ADD(i, j, 1);
        if (complete) {
            if (k >= 13 && r0 == 1 && !sp->auto_collect)
                for (int j = f0; j < f1; j++)
                    if (!p->len[j]) ADD(i, j, 13);
        } else {
            int c = top(p, i);
            for (int j = f0; j < f1; j++)
                if (accepts(p, j, c)) ADD(i, j, 1);
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

static inline int is_won(const Pos *p) { return p->fcards == p->sp->total; }

/* ------------------------------------------------------------------ canonical key */

typedef struct { uint64_t a, b; } Key;

static int tableau_interchangeable(const Pos *p) {
    const Spec *sp = p->sp;
    return !sp->deals_to_tableau || (!p->len[0] && !sp->stock_reformed);
}

/* search.py GameKnowledge.gather_left */
static inline int gather_left(const Pos *p) {
    const Spec *sp = p->sp;
    return sp->redeal == R_GATHER && (sp->redeals < 0 || p->redeals_used < sp->redeals);
}

/* search.py GameKnowledge.reserves_interchangeable */
static inline int reserves_interchangeable(const Pos *p) {
    return p->sp->nr > 0 && !p->len[0] && !gather_left(p);
}

static inline void addk(Key *k, uint64_t x1, uint64_t x2, uint64_t salt) {
    k->a += mix1(x1 + salt * 0x9E3779B97F4A7C15ULL);
    k->b += mix2(x2 + salt * 0xD1B54A32D192ED03ULL);
}

static void free_pos_struct(Pos *p) {
    if (!p) return;
    free(p->ops);
    free(p->mstart);
    free(p->mraw);
    free(p);
}

static Key pos_key_cut(const Pos *p, int cycle) {
    const Spec *sp = p->sp;
    Key k = {0, 0};
    if (sp->stock_cycle && cycle) {
        /* the cycle of stock and waste cards in dealing order, from its lowest card */
        uint8_t seq[2 * MAXL];
        int n = 0, lo = 0;
        for (int i = p->len[0] - 1; i >= 0; i--) seq[n++] = p->c[0][i] & 63;
        for (int i = 0; i < p->len[sp->waste]; i++) seq[n++] = p->c[sp->waste][i] & 63;
        for (int i = 1; i < n; i++)
            if (seq[i] < seq[lo]) lo = i;
        uint64_t a = 0, b = 0;
        for (int i = 0; i < n; i++) {
            uint8_t c = seq[(lo + i) % n];
            a += Z1[i][c];
            b += Z2[i][c];
        }
        addk(&k, a, b, 1007);
    } else if (sp->stock_turns && cycle) {
        /* the stock and waste cards in dealing order, and where they are cut: any cut that
           clicks reach from the waste's turning over (multiples of the draw, or the end) is
           one and the same (search.py's key) */
        int nw = p->len[sp->waste], ns = p->len[0], n = 0;
        uint64_t a = 0, b = 0;
        for (int i = 0; i < nw; i++, n++) {
            uint8_t c = p->c[sp->waste][i] & 63;
            a += Z1[n][c];
            b += Z2[n][c];
        }
        for (int i = ns - 1; i >= 0; i--, n++) {
            uint8_t c = p->c[0][i] & 63;
            a += Z1[n][c];
            b += Z2[n][c];
        }
        uint64_t cut = (ns && nw % sp->draw) ? (uint64_t)nw : 0;
        addk(&k, a, b, 1008);
        addk(&k, cut, cut, 1009);
    } else if (sp->stock_reformed) {
        addk(&k, p->h1[0], p->h2[0], 1001);
        if (sp->waste >= 0) addk(&k, p->h1[sp->waste], p->h2[sp->waste], 1002);
        if (sp->limited_redeals) addk(&k, (uint64_t)p->redeals_used, (uint64_t)p->redeals_used, 1003);
    } else {
        addk(&k, (uint64_t)p->len[0], (uint64_t)p->len[0], 1004);
    }
    for (int i = sp->c0; i < sp->c0 + sp->nc; i++) addk(&k, p->h1[i], p->h2[i], 1005);
    int rinter = reserves_interchangeable(p);
    for (int i = sp->r0; i < sp->r0 + sp->nr; i++)
        addk(&k, p->h1[i], p->h2[i], rinter ? 1008 : 2000 + (uint64_t)i);
    int inter = tableau_interchangeable(p);
    for (int i = sp->t0; i < sp->t0 + sp->nt; i++)
        addk(&k, p->h1[i], p->h2[i], inter ? 1006 : 3000 + (uint64_t)i);
    k.a |= 1; /* never the empty slot */
    return k;
}

static inline Key pos_key(const Pos *p) { return pos_key_cut(p, 1); }

typedef struct {
    Key *slots;
    size_t cap, used, max_cap;
} Table;

/* The table's slots: an anonymous mapping (zeroed), in huge pages where the kernel allows
   (madvise): a table of millions of positions is read at random, and with 4 KiB pages nearly
   every lookup also missed the TLB. */
static Key *slots_alloc(size_t cap) {
    size_t bytes = cap * sizeof(Key);
    if (bytes < ((size_t)2 << 20)) return calloc(cap, sizeof(Key));
    void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(m, bytes, MADV_HUGEPAGE);
#endif
    return (Key *)m;
}

static void slots_free(Key *s, size_t cap) {
    if (!s) return;
    size_t bytes = cap * sizeof(Key);
    if (bytes < ((size_t)2 << 20)) free(s);
    else munmap(s, bytes);
}

static int table_init(Table *t, size_t cap, size_t max_cap) {
    t->slots = slots_alloc(cap);
    t->cap = cap;
    t->used = 0;
    t->max_cap = max_cap;
    return t->slots ? 0 : -1;
}

static void table_free(Table *t) { slots_free(t->slots, t->cap); t->slots = NULL; }

/* Empty again. A large table gets fresh pages (the kernel zeroes only those touched again)
   rather than a memset of all of them: a table sized for a long search may be cleared after a
   short phase (solve_pos runs several). */
static void table_clear(Table *t) {
    if (!t->used) return;
    if (t->cap * sizeof(Key) >= ((size_t)2 << 20)) {
        Key *s = slots_alloc(t->cap);
        if (s) {
            slots_free(t->slots, t->cap);
            t->slots = s;
            t->used = 0;
            return;
        }
    }
    memset(t->slots, 0, t->cap * sizeof(Key));
    t->used = 0;
}

/* 1: added, 0: already there, -1: full (memory bound reached). */
static int table_add(Table *t, Key k) {
    if ((t->used + 1) * 2 > t->cap) {
        if (t->cap * 2 > t->max_cap) return -1;
        size_t cap = t->cap * 2;
        Key *s = slots_alloc(cap);
        if (!s) return -1;
        for (size_t i = 0; i < t->cap; i++) {
            Key x = t->slots[i];
            if (!x.a) continue;
            size_t h = (size_t)(x.b & (cap - 1));
            while (s[h].a) h = (h + 1) & (cap - 1);
            s[h] = x;
        }
        slots_free(t->slots, t->cap);
        t->slots = s;
        t->cap = cap;
    }
    size_t h = (size_t)(k.b & (t->cap - 1));
    while (t->slots[h].a) {
        if (t->slots[h].a == k.a && t->slots[h].b == k.b) return 0;
        h = (h + 1) & (t->cap - 1);
    }
    t->slots[h] = k;
    t->used++;
    return 1;
}

/* ------------------------------------------------------------------ children (search.py) */

typedef struct { int16_t clicks; Move m; int score; } Child;

static int home_count(const Pos *p, int v) {
    int r = RANK(v), s = SUIT(v), n = 0;
    for (int f = p->sp->f0; f < p->sp->f0 + p->sp->nf; f++)
        if (p->len[f] && SUIT(p->c[f][0]) == s && p->len[f] >= r) n++;
    return n;
}

/* search.py is_safe_any_suit */
static int is_safe_any_suit(const Pos *p, int src) {
    const Spec *sp = p->sp;
    int c = top(p, src), r = RANK(c);
    if (gather_left(p)) return 0;
    if (sp->skip_empty && p->len[0] && p->len[src] < 2) return 0;
    int slots = 0, home = 0;
    for (int f = sp->f0; f < sp->f0 + sp->nf; f++) {
        int h = p->len[f];
        if (h == r - 1) slots++;
        else if (h >= r) home++;
    }
    int total = 0;
    for (int s = 0; s < 4; s++) total += sp->copies[r * 4 + s];
    return slots >= total - home;
}

/* search.py GameKnowledge.proven_lost: the rank bound of reserve-only any-suit games. */
#define MAXC 256

typedef struct {
    int n;
    uint8_t rk[MAXC];        /* rank */
    uint8_t least[MAXC];     /* the least place: counts of lower ranks under it, and chains */
    uint8_t above[MAXC][14]; /* cards of each higher rank above it */
    int16_t under[MAXC];     /* the card right under it when placed, -1 none */
    int16_t st[MAXP][MAXL];  /* the simulated piles (card ids, bottom first) */
    int ns[MAXP];
} Bound;

static void bound_place(Bound *b, int j, int r) {
    int under[14] = {0};
    int id = b->n++;
    int lo = 1;
    for (int q = 0; q < b->ns[j]; q++) {
        int y = b->st[j][q];
        under[b->rk[y]]++;
        if (b->rk[y] < r) b->above[y][r]++;
        if (b->rk[y] <= r && b->least[y] + 1 > lo) lo = b->least[y] + 1;
    }
    for (int s = 1; s < r; s++)
        if (under[s] + 1 > lo) lo = under[s] + 1;
    b->rk[id] = (uint8_t)r;
    b->least[id] = (uint8_t)(lo < 255 ? lo : 255);
    memset(b->above[id], 0, 14);
    b->under[id] = (int16_t)(b->ns[j] ? b->st[j][b->ns[j] - 1] : -1);
    b->st[j][b->ns[j]++] = (int16_t)id;
}

/* search.py playable: the loose test, then the counting one (the cards of each rank from the
   card up its pile against the most of that rank any line can have played by now) */
static int bound_playable(const int *home, const int *played, const int *count, int r) {
    if (home[r - 1] + played[r - 1] <= home[r]) return 0;
    int most = 1000;
    for (int s = 1; s < 14; s++) {
        int a = played[s] + (s == r), c = home[s - 1] - home[s] + most;
        most = a < c ? a : c;
        if (count[s] + (s == r) > most) return 0;
    }
    return 1;
}

static void bound_play_ahead(Bound *b, int nr, const int *home, int *played) {
    int counts[MAXP][14];
    memset(counts, 0, sizeof(int) * 14 * (size_t)nr);
    int moved = 1;
    while (moved) {
        moved = 0;
        for (int j = 0; j < nr; j++)
            while (b->ns[j]) {
                int r = b->rk[b->st[j][b->ns[j] - 1]];
                if (!bound_playable(home, played, counts[j], r)) break;
                b->ns[j]--;
                played[r]++;
                counts[j][r]++;
                moved = 1;
            }
    }
}

static __thread Bound bound_scratch;

static int proven_lost(const Pos *p) {
    const Spec *sp = p->sp;
    if (!sp->reserve_only || gather_left(p)) return 0;
    int heights[15] = {0};
    for (int f = sp->f0; f < sp->f0 + sp->nf; f++) heights[p->len[f] < 14 ? p->len[f] : 14]++;
    int home[14], left[14];
    home[0] = 1000; /* an ace could always go home */
    left[0] = 0;
    int reached = sp->nf;
    for (int r = 1; r < 14; r++) {
        reached -= heights[r - 1];
        home[r] = reached;
        left[r] = sp->rank_copies[r] - reached;
    }
    Bound *b = &bound_scratch;
    b->n = 0;
    int nr = sp->nr, highest = 0;
    int occupied[MAXP];
    for (int j = 0; j < nr; j++) {
        int i = sp->r0 + j;
        b->ns[j] = 0;
        occupied[j] = p->len[i] > 0;
        if (p->len[i] && RANK(p->c[i][0]) > highest) highest = RANK(p->c[i][0]);
        for (int k = 0; k < p->len[i]; k++) bound_place(b, j, RANK(p->c[i][k]));
    }
    int played[14] = {0};
    bound_play_ahead(b, nr, home, played);
    int nstock = p->len[0], dealt = 0;
    while (dealt < nstock) {
        int targets[MAXP], nt = 0, unsure = 0;
        for (int j = 0; j < nr; j++) {
            if (sp->skip_empty) {
                if (occupied[j] && !b->ns[j]) unsure = 1;
                if (occupied[j]) targets[nt++] = j;
            } else targets[nt++] = j;
        }
        if (unsure || !nt) break;
        for (int q = 0; q < nt && dealt < nstock; q++) {
            bound_place(b, targets[q], RANK(p->c[0][nstock - 1 - dealt]));
            dealt++;
        }
        bound_play_ahead(b, nr, home, played);
    }
    if (dealt == nstock)
        for (int j = 0; j < nr; j++)
            if (b->ns[j]) return 1; /* a card that no order of play can ever play */
    int ncards = b->n;
    /* the most place of each placed card: the higher ranks above it, then the chains */
    int most[MAXC];
    for (int id = 0; id < ncards; id++) {
        int r = b->rk[id], h = left[r];
        for (int s = r + 1; s < 14; s++)
            if (b->above[id][s] && left[s] - b->above[id][s] < h) h = left[s] - b->above[id][s];
        most[id] = h;
    }
    for (int a = ncards - 1; a >= 0; a--)
        for (int y = b->under[a]; y >= 0; y = b->under[y])
            if (b->rk[y] <= b->rk[a] && most[a] - 1 < most[y]) most[y] = most[a] - 1;
    /* Hall's condition, rank by rank (search.py _places) */
    uint8_t lo[14][MAXC];
    int hi[14][MAXC];
    int cnt[14] = {0};
    for (int id = 0; id < ncards + (nstock - dealt); id++) {
        int r, l, h;
        if (id < ncards) {
            r = b->rk[id];
            l = b->least[id];
            h = most[id];
        } else {
            r = RANK(p->c[0][nstock - 1 - dealt - (id - ncards)]);
            l = sp->skip_empty && highest < r ? 2 : 1;
            h = left[r];
        }
        if (h < l) return 1;
        lo[r][cnt[r]] = (uint8_t)l;
        hi[r][cnt[r]] = h;
        cnt[r]++;
    }
    for (int r = 2; r < 14; r++) {
        uint8_t used[MAXC];
        memset(used, 0, (size_t)cnt[r]);
        int done = 0;
        for (int place = 1; place <= left[r]; place++) {
            int best = -1;
            for (int q = 0; q < cnt[r]; q++)
                if (!used[q] && lo[r][q] <= place && (best < 0 || hi[r][q] < hi[r][best])) best = q;
            if (best < 0) continue;
            if (hi[r][best] < place) return 1;
            used[best] = 1;
            done++;
        }
        if (done < cnt[r]) return 1;
    }
    return 0;
}

#define OB_MAXOPT 2400
/* Adds to *nopt the options of a card placed onto a parent p of card b (or b into a space
   when a King), moving from pile t at height k (t < 0: from the stock or waste): returns 1
   when one of them needs nothing, -1 when the arrays are full. */
static int ob_places(const Pos *p, int b, int t, int k, const int8_t *pile_of,
                     const int8_t *idx_of, const uint8_t *in_sw, uint64_t above,
                     uint64_t *od, uint64_t *oe, int *nopt) {
    const Spec *sp = p->sp;
    if (RANK(b) == 13) {
        /* a King goes to a space: another pile must be empty by then */
        for (int u = sp->t0; u < sp->t0 + sp->nt; u++) {
            if (u == t) continue;
            if (!p->len[u]) return 1;
            if (*nopt >= OB_MAXOPT) return -1;
            od[*nopt] = ((uint64_t)1 << (p->c[u][0] & 63)) | above;
            oe[*nopt] = 0;
            (*nopt)++;
        }
        return 0;
    }
    for (int s = 0; s < 4; s++) {
        int q = (RANK(b) + 1) * 4 + s;
        if (RED(q) == RED(b)) continue;
        int qt = pile_of[q];
        uint64_t need_d = 0, need_e = 0;
        if (qt < 0) {
            if (!in_sw[q]) return 1;   /* on a foundation or a reserve: may come */
            need_e = (uint64_t)1 << q; /* in the stock or waste: it must reach the tableau */
        } else {
            int qi = idx_of[q];
            if (qt == t) {
                if (qi < k) continue;  /* under b: never a top while b is there */
                need_d = (uint64_t)1 << q;
            } else if (qi == p->len[qt] - 1) return 1;
            else need_d = (uint64_t)1 << (p->c[qt][qi + 1] & 63);
        }
        if (*nopt >= OB_MAXOPT) return -1;
        od[*nopt] = need_d | above;
        oe[*nopt] = need_e;
        (*nopt)++;
    }
    return 0;
}

/* search.py GameKnowledge.order_lost: the order bound of Klondike-type games (one pack,
   alternate colours, Kings only in spaces, in-suit foundations, no cells, no deal onto the
   tableau). Events: T(c), the first time card c goes home from now (cards home: done); D(x),
   the first time tableau card x leaves its pile; E(v), the first time stock or waste card v
   reaches the tableau. Every winning line orders them so that each event's needs come first
   (docs/solver.md):
   - T(c) needs T(the card one lower of its suit) and, for a tableau card, D(c);
   - D(x) needs D(the card on x) (it leaves first or with x) and one of: going home (T(one
     lower)); or a run based on x or on a face-up card b under x (valid from b to x: the
     cards under x stay put while it is there) moved onto a parent p of b (one rank higher,
     the other colour): nothing when p is on a foundation or a reserve, or a pile's top; E(p)
     when p is in the stock or waste; D(the card on p) when p lies in another pile; D(p) when
     p lies above x in x's pile; impossible when p lies under b in x's pile; a King base goes
     into a space: nothing when a pile is empty, else D(the bottom card of another pile);
   - E(v) needs one of the same places for v itself (a parent, or a space for a King).
   Events are marked, again and again, when what they need is marked; a winning line marks
   every one in its own order, so a T left unmarked means no line wins. */
static int order_lost(const Pos *p) {
    const Spec *sp = p->sp;
    int8_t pile_of[64], idx_of[64];
    uint8_t in_sw[64];
    int height[4] = {0, 0, 0, 0};
    memset(pile_of, -1, sizeof pile_of);
    memset(in_sw, 0, sizeof in_sw);
    for (int f = sp->f0; f < sp->f0 + sp->nf; f++)
        if (p->len[f]) height[SUIT(p->c[f][0])] = p->len[f];
    for (int i = 0; i < p->len[0]; i++) in_sw[p->c[0][i] & 63] = 1;
    if (sp->waste >= 0)
        for (int i = 0; i < p->len[sp->waste]; i++) in_sw[p->c[sp->waste][i] & 63] = 1;
    uint64_t mt = 0, md = ~(uint64_t)0, me = ~(uint64_t)0;   /* marked T, D and E events */
    for (int v = 0; v < 64; v++) {
        if (v < 4 || v >= 56 || RANK(v) <= height[SUIT(v)]) mt |= (uint64_t)1 << v;
        if (in_sw[v]) me &= ~((uint64_t)1 << v);
    }
    for (int t = sp->t0; t < sp->t0 + sp->nt; t++)
        for (int i = 0; i < p->len[t]; i++) {
            int v = p->c[t][i] & 63;
            pile_of[v] = (int8_t)t;
            idx_of[v] = (int8_t)i;
            md &= ~((uint64_t)1 << v);
        }
    /* the options of each D(x) and E(v) still to mark: (T, D, E needed) */
    static __thread uint64_t ot[OB_MAXOPT], od[OB_MAXOPT], oe[OB_MAXOPT];
    int ostart[64], oend[64], estart[64], eend[64], nopt = 0;
    for (int t = sp->t0; t < sp->t0 + sp->nt; t++) {
        const uint8_t *c = p->c[t];
        int n = p->len[t];
        for (int i = 0; i < n; i++) {
            int x = c[i] & 63, free_ = 0;
            /* the card on x leaves first, or with x (D(x) >= D(that card), a tie allowed) */
            uint64_t above = i + 1 < n ? (uint64_t)1 << (c[i + 1] & 63) : 0;
            ostart[x] = nopt;
            ot[nopt] = (uint64_t)1 << (x - 4 >= 0 ? x - 4 : 0);   /* home */
            od[nopt] = above;
            oe[nopt] = 0;
            nopt++;
            for (int k = i; k >= 0 && !free_; k--) {
                int b = c[k];
                if (k < i && (!(b & UPF) || RANK(b) != RANK(c[k + 1]) + 1 ||
                              RED(b) == RED(c[k + 1])))
                    break;
                int from = nopt;
                int r = ob_places(p, b, t, k, pile_of, idx_of, in_sw, above, od, oe, &nopt);
                if (r < 0) return 0;
                for (int o = from; o < nopt; o++) ot[o] = 0;
                if (r) free_ = 1;
            }
            if (free_) {
                ot[nopt] = 0;
                od[nopt] = above;
                oe[nopt] = 0;
                nopt++;
            }
            oend[x] = nopt;
            if (free_ && !above) md |= (uint64_t)1 << x;
        }
    }
    for (uint64_t m = ~me; m; m &= m - 1) {
        int v = __builtin_ctzll(m);
        estart[v] = nopt;
        int from = nopt;
        int r = ob_places(p, v, -1, 0, pile_of, idx_of, in_sw, 0, od, oe, &nopt);
        if (r < 0) return 0;
        for (int o = from; o < nopt; o++) ot[o] = 0;
        eend[v] = nopt;
        if (r) me |= (uint64_t)1 << v;
    }
    for (;;) {
        int changed = 0;
        for (uint64_t m = ~me; m; m &= m - 1) {
            int v = __builtin_ctzll(m);
            for (int o = estart[v]; o < eend[v]; o++)
                if (!(od[o] & ~md) && !(oe[o] & ~me)) {
                    me |= (uint64_t)1 << v;
                    changed = 1;
                    break;
                }
        }
        for (uint64_t m = ~md; m; m &= m - 1) {
            int x = __builtin_ctzll(m);
            for (int o = ostart[x]; o < oend[x]; o++)
                if (!(ot[o] & ~mt) && !(od[o] & ~md) && !(oe[o] & ~me)) {
                    md |= (uint64_t)1 << x;
                    changed = 1;
                    break;
                }
        }
        for (uint64_t m = ~mt; m; m &= m - 1) {
            int v = __builtin_ctzll(m);
            if (((mt >> (v - 4)) & 1) && ((md >> v) & 1)) {
                mt |= (uint64_t)1 << v;
                changed = 1;
            }
        }
        if (!~mt) return 0;
        if (!changed) return 1;
    }
}

static int is_safe(const Pos *p, int c) {
    const Spec *sp = p->sp;
    int r = RANK(c);
    if (r == 1) return 1;
    for (int s = 0; s < 4; s++) {
        int v = (r - 1) * 4 + s;
        if (!sp->copies[v]) continue;
        if (sp->build == B_ALT && RED(v) == RED(c)) continue;
        if (sp->build == B_SAME && s != SUIT(c)) continue;
        if (home_count(p, v) < sp->copies[v]) return 0;
    }
    return 1;
}

typedef struct { int a, b, c; } Triple;

typedef struct {
    Child *v;
    int n, cap;
} Kids;

static int kids_add(Kids *k, int clicks, Move m, int score) {
    if (k->n >= k->cap) {
        Child *v = grow_to(k->v, &k->cap, k->n + 1, sizeof *v, 256);
        if (!v) return -1;
        k->v = v;
    }
    Child *c = &k->v[k->n++];
    c->clicks = (int16_t)clicks;
    c->m = m;
    c->score = score;
    return 0;
}

typedef struct {
    int have;
    Move m;
    int ops;
} Last;

static int has_triple(Triple *h, int n, int a, int b, int c) {
    for (int i = 0; i < n; i++)
        if (h[i].a == a && h[i].b == b && h[i].c == c) return 1;
    return 0;
}

/* search.py GameKnowledge.score: INT_MIN when pruned. */
static int score_move(const Pos *p, Move m, const Last *last, int first_cell, int first_space,
                      Triple *homes, int *nh) {
    const Spec *sp = p->sp;
    int src = m.s, dst = m.d, n = m.n;
    if (src < 0) return 30;
    int sk = sp->kind[src], dk = sp->kind[dst];
    int ls = p->len[src], ld = p->len[dst];
    if (dk == K_FOUNDATION) {
        if (sk == K_FOUNDATION) return INT32_MIN;
        int hs = ld && sp->safe_foundation ? SUIT(p->c[dst][0]) : -1;
        if (has_triple(homes, *nh, src, ld, hs)) return INT32_MIN;
        homes[*nh].a = src; homes[*nh].b = ld; homes[*nh].c = hs; (*nh)++;
        if (sp->safe_foundation && (sk == K_TABLEAU || sk == K_CELL || (sk == K_WASTE && sp->waste_safe))
            && is_safe(p, top(p, src)))
            return SAFE;
        if (sp->reserve_only && sk == K_RESERVE && is_safe_any_suit(p, src)) return SAFE;
        return 100;
    }
    if (dk == K_CELL && (sk == K_CELL || dst != first_cell)) return INT32_MIN;
    if (dk == K_TABLEAU && !ld && first_space >= 0 &&
        (dst != first_space || (sk == K_TABLEAU && n == ls)))
        return INT32_MIN;
    if (last->have && last->ops == 1 && last->m.s == dst && last->m.d == src && last->m.n == n)
        return INT32_MIN;
    int rest = ls - n;
    int c = p->c[src][rest];
    int same_suit_dst = ld && SUIT(top(p, dst)) == SUIT(c);
    int score;
    if (sk == K_TABLEAU) {
        if (rest > 0 && !(p->c[src][rest - 1] & UPF)) score = 90;
        else if (rest == 0) score = ld ? 70 : 40;
        else if (!fits(sp, c, p->c[src][rest - 1])) score = 65;
        else if (SUIT(p->c[src][rest - 1]) != SUIT(c) && same_suit_dst) score = 60;
        else score = 20;
    } else if (sk == K_FOUNDATION) {
        score = 5;
    } else {
        score = 65;
    }
    if (dk == K_CELL) score = (score < 50 ? score : 50) - 35;
    else if (same_suit_dst) score += 5;
    return score;
}

/* The draw-one relaxation (solve_pos): while set, a card from the stock or waste that goes to the
   tableau must be covered at once: the only children after it put a card on it (exact in a
   draw-one game turned over without limit, see docs/solver.md), and such a position is keyed
   apart from the same position reached otherwise. */
static __thread int relax_cover = 0;
/* The draw-one relaxation, with relax_cover: a card from the stock or waste that goes home
   (not a King, not safe) must be followed at once by the next card of its suit going home: the
   only children after it are that card's moves to the foundation, and such a position is keyed
   apart too (exact in a draw-one game turned over without limit, see docs/solver.md, "Home at
   once"). */
static __thread int relax_home = 0;

/* What the draw-one relaxation's rules can use at the next move (children, with relax_cover):
   the cards of the stock and waste, the foundations' top cards (when they give back), the
   tableau piles' top cards (face up), and each pile's run bases (a face-up card whose run
   reaches the pile's top). */
typedef struct {
    uint64_t sw, fnd, tops, bases_all, bases[MAXP];
    uint64_t want[64];  /* for each card, the cards that may be put on it */
    int want_build;     /* the build rule want was filled for, plus 1 */
} Avail;
static __thread Avail relax_avail;

static void avail_fill(const Pos *p, Avail *a) {
    const Spec *sp = p->sp;
    a->sw = a->fnd = a->tops = a->bases_all = 0;
    if (a->want_build != sp->build + 1) {  /* once a game: the cards that fit on each card */
        a->want_build = sp->build + 1;
        for (int c = 0; c < 64; c++) {
            a->want[c] = 0;
            for (int y = 0; RANK(c) > 1 && y < 64; y++)
                if (RANK(y) + 1 == RANK(c) && sp->copies[y] && fits(sp, y | UPF, c | UPF))
                    a->want[c] |= (uint64_t)1 << y;
        }
    }
    for (int i = 0; i < p->len[0]; i++) a->sw |= (uint64_t)1 << (p->c[0][i] & 63);
    if (sp->waste >= 0)
        for (int i = 0; i < p->len[sp->waste]; i++) a->sw |= (uint64_t)1 << (p->c[sp->waste][i] & 63);
    if (sp->gives_back)
        for (int f = sp->f0; f < sp->f0 + sp->nf; f++)
            if (p->len[f]) a->fnd |= (uint64_t)1 << (top(p, f) & 63);
    for (int t = sp->t0; t < sp->t0 + sp->nt; t++) {
        uint64_t b = 0;
        int n = p->len[t];
        for (int i = n - 1; i >= 0; i--) {
            int v = p->c[t][i];
            if (!(v & UPF) || (i < n - 1 && !fits(sp, p->c[t][i + 1], v))) break;
            b |= (uint64_t)1 << (v & 63);
        }
        a->bases[t] = b;
        a->bases_all |= b;
        if (n && (top(p, t) & UPF)) a->tops |= (uint64_t)1 << (top(p, t) & 63);
    }
}

/* The covering rule (relax_cover): once card c from the waste is on tableau pile j, can the
   next move put a card on it? A card one rank lower of the other colour from the stock or
   waste, from a foundation's top, or at the base of a run reaching another pile's top. When
   none can, the child would have no child: a dead end, not searched (it holds no win). */
static int cover_exists(const Avail *a, int c, int j) {
    return (a->want[c] & (a->sw | a->fnd | (a->bases_all ^ a->bases[j]))) != 0;
}

/* The home-at-once rule (relax_home): once card c (not a King) from the waste is home, can the
   next card of its suit go home at once, from a pile's top or from the stock or waste? */
static int next_home_exists(const Avail *a, int c) {
    if (RANK(c) >= 13) return 1;
    uint64_t y = (uint64_t)1 << (c + 4);
    return ((a->sw | a->tops) & y) != 0;
}

static int waste_moves(const Pos *p, int c, int clicks, Kids *out, int first_space) {
    const Spec *sp = p->sp;
    int w = sp->waste;
    if (sp->ftakes != F_COMPLETE) {
        int homes[MAXP][2], nh = 0;
        int r = RANK(c);
        for (int f = sp->f0; f < sp->f0 + sp->nf; f++) {
            int ld = p->len[f];
            if (ld) {
                int t = top(p, f);
                if (RANK(t) + 1 != r || (sp->safe_foundation && SUIT(t) != SUIT(c))) continue;
            } else if (r != 1) continue;
            int hs = ld && sp->safe_foundation ? SUIT(p->c[f][0]) : -1;
            int dup = 0;
            for (int q = 0; q < nh; q++)
                if (homes[q][0] == ld && homes[q][1] == hs) dup = 1;
            if (dup) continue;
            homes[nh][0] = ld; homes[nh][1] = hs; nh++;
            int safe = sp->waste_safe && sp->unlimited && is_safe(p, c);
            if (relax_home && !safe && !next_home_exists(&relax_avail, c & 63)) continue;  /* a dead end */
            Move m = {(int8_t)w, (int8_t)f, 1};
            if (kids_add(out, clicks, m, safe ? SAFE : 100 - clicks)) return -1;
        }
    }
    for (int j = sp->t0; j < sp->t0 + sp->nt; j++) {
        Move m = {(int8_t)w, (int8_t)j, 1};
        if (p->len[j]) {
            int t = top(p, j);
            if (fits(sp, c, t)) {
                if (relax_cover && !cover_exists(&relax_avail, c & 63, j)) continue;  /* dead end */
                int bonus = SUIT(t) == SUIT(c) ? 10 : 0;
                if (kids_add(out, clicks, m, 65 + bonus - clicks)) return -1;
            }
        } else if ((!sp->space_king || RANK(c) == 13) && (first_space < 0 || j == first_space)) {
            if (relax_cover && !cover_exists(&relax_avail, c & 63, j)) continue;  /* dead end */
            if (kids_add(out, clicks, m, 65 - clicks)) return -1;
        }
    }
    return 0;
}

static int macro_children(const Pos *p, Kids *out, int first_space) {
    const Spec *sp = p->sp;
    uint8_t stock[MAXL], waste[MAXL];
    int ns = p->len[0], nw = p->len[sp->waste];
    memcpy(stock, p->c[0], (size_t)ns);
    memcpy(waste, p->c[sp->waste], (size_t)nw);
    int redeals = p->redeals_used;
    /* states seen: (waste length, redeals since now when limited) */
    static __thread uint8_t seen[8][MAXL + 1];
    memset(seen, 0, sizeof seen);
    seen[0][nw] = 1;
    int clicks = 0;
    for (;;) {
        if (ns) {
            int k = ns < sp->draw ? ns : sp->draw;
            for (int q = 0; q < k; q++) waste[nw++] = stock[--ns];
        } else if ((nw && sp->redeals < 0) || (redeals < (sp->redeals > 0 ? sp->redeals : 0) && nw)) {
            for (int q = nw - 1; q >= 0; q--) stock[ns++] = waste[q];
            nw = 0;
            redeals++;
        } else return 0;
        clicks++;
        int sr = sp->limited_redeals ? redeals - p->redeals_used : 0;
        if (sr >= 8) return -1; /* more redeals than any game of the catalogue allows */
        if (seen[sr][nw]) return 0;
        seen[sr][nw] = 1;
        if (nw && waste_moves(p, waste[nw - 1] | UPF, clicks, out, first_space)) return -1;
    }
}

/* Stable sort by decreasing score (insertion sort: lists are short). */
static void sort_kids(Child *v, int n) {
    for (int i = 1; i < n; i++) {
        Child x = v[i];
        int j = i - 1;
        while (j >= 0 && v[j].score < x.score) { v[j + 1] = v[j]; j--; }
        v[j + 1] = x;
    }
}

/* The win finder of draw-three waste games (C only, see solve_pos): while set, children()
   streamlines the search. It proves nothing. */
static __thread int streamline = 0;
/* The reserve games' streamlined search: 0, the engine's order of plays; otherwise the salt of
   a random order (restarts, see reserve_restarts). */
static __thread uint64_t stream_salt = 0;
static __thread int stream_nobound = 0;  /* experiments: the win search without the rank bound */
/* The draw-one relaxation's first part (solve_pos): while set, search_round tries the order bound
   (order_lost) at every position it adds after a move onto the tableau from the stock or the
   tableau, and does not search below one it proves lost (the
   bound holds at any position of a Klondike-type game, see docs/solver.md). */
static __thread int relax_bound = 0;

/* The foundation whose next card must go home now (relax_home), or -1. */
static int home_due(const Pos *p, const Last *last) {
    const Spec *sp = p->sp;
    if (!relax_home || !last->have || last->m.s != sp->waste || sp->waste < 0 ||
        sp->kind[last->m.d] != K_FOUNDATION || !p->len[last->m.d])
        return -1;
    int c = top(p, last->m.d);
    if (RANK(c) == 13 || is_safe(p, c)) return -1;
    return last->m.d;
}

/* The draw-three win finder's capped rounds (solve_pos): while set, search_round treats a move
   that turns a face-down card up as a deal is treated in the capped rounds (the positions
   searched under it capped), so that a streamlined search cannot sink for ever below one early
   choice. The value: the face-down cards of the root (for the cap's scale). */
static __thread int flip_cap = 0;

/* Appends the children of p (best first, a safe one alone) to out. -1 on memory error. */
static int children(const Pos *p, const Last *last, Kids *out, Move *buf) {
    const Spec *sp = p->sp;
    int start = out->n;
    int inter = tableau_interchangeable(p);
    int first_cell = -1, first_space = -1;
    for (int i = sp->c0; i < sp->c0 + sp->nc; i++)
        if (!p->len[i]) { first_cell = i; break; }
    if (inter)
        for (int i = sp->t0; i < sp->t0 + sp->nt; i++)
            if (!p->len[i]) { first_space = i; break; }
    Triple homes[MAXP * MAXP];
    int nh = 0;
    int nm = raw_moves(p, buf);
    int has_stock = 0;
    int cover = relax_cover && last->have && last->m.s == sp->waste &&
                sp->kind[last->m.d] == K_TABLEAU ? last->m.d : -1;
    if (cover < 0) cover = home_due(p, last);  /* the next card of its suit home, at once */
    if (relax_cover) avail_fill(p, &relax_avail);
    for (int q = 0; q < nm; q++) {
        Move m = buf[q];
        if (m.s < 0) has_stock = 1;
        if (m.s < 0 && sp->waste >= 0) continue;
        if (cover >= 0 && m.d != cover) continue;
        int sc = score_move(p, m, last, first_cell, first_space, homes, &nh);
        if (sc == INT32_MIN) continue;
        if (relax_cover && m.s == sp->waste) {  /* dead ends of the relaxation's rules */
            int c = top(p, m.s) & 63;
            if (sp->kind[m.d] == K_TABLEAU && !cover_exists(&relax_avail, c, m.d)) continue;
            if (sp->kind[m.d] == K_FOUNDATION && relax_home && sc < SAFE &&
                !next_home_exists(&relax_avail, c))
                continue;
        }
        if (sc >= SAFE && cover < 0) {
            out->n = start;
            return kids_add(out, 0, m, sc);
        }
        if (kids_add(out, 0, m, sc)) return -1;
    }
    if (sp->waste >= 0 && has_stock && macro_children(p, out, first_space)) return -1;
    if (cover >= 0) {
        int k = start;
        for (int q = start; q < out->n; q++)
            if (out->v[q].m.d == cover) out->v[k++] = out->v[q];
        out->n = k;
        sort_kids(out->v + start, out->n - start);
        return 0;
    }
    sort_kids(out->v + start, out->n - start);
    if (out->n > start && out->v[start].score >= SAFE) out->n = start + 1;
    if (streamline && sp->reserve_only) {
        /* the reserve games' streamliner: no deal while a card can go home */
        int k = start, plays = 0;
        for (int q = start; q < out->n; q++) plays += out->v[q].m.s >= 0;
        if (plays && streamline == 1)
            for (int q = start; q < out->n; q++)
                if (out->v[q].m.s >= 0) out->v[k++] = out->v[q];
        if (plays && streamline == 1) out->n = k;
        if (stream_salt && out->n - start > 1) {
            /* a restart of the portfolio: the plays in an order drawn from the salt and the
               position (the same position, the same order within one try) */
            Key pk = pos_key(p);
            for (int q = start; q < out->n; q++) {
                const Child *c = &out->v[q];
                uint64_t h = mix1(pk.a ^ (stream_salt * 0x9E3779B97F4A7C15ULL) ^
                                  ((uint64_t)(c->m.s + 1) << 8) ^ (uint64_t)(c->m.d + 1));
                out->v[q].score = (int)(h >> 33);
            }
            sort_kids(out->v + start, out->n - start);
        }
        return 0;
    }
    if (streamline) {
        /* any card that can go home without a click goes home alone (not at level 3);
           nothing comes back from a foundation */
        int k = start;
        for (int q = start; q < out->n; q++) {
            Child c = out->v[q];
            if (sp->kind[c.m.s] == K_FOUNDATION) continue;
            if (streamline == 2 && !c.clicks && sp->kind[c.m.s] == K_TABLEAU
                && sp->kind[c.m.d] == K_TABLEAU) {
                int rest = p->len[c.m.s] - c.m.n;
                if (rest > 0 && (p->c[c.m.s][rest - 1] & UPF)
                    && fits(sp, p->c[c.m.s][rest], p->c[c.m.s][rest - 1]))
                    continue; /* a shuffle: the run already sits on a card it fits */
            }
            if (streamline < 3 && !c.clicks && sp->kind[c.m.d] == K_FOUNDATION) {
                out->v[start] = c;
                out->n = start + 1;
                return 0;
            }
            out->v[k++] = c;
        }
        out->n = k;
    }
    return 0;
}

/* ------------------------------------------------------------------ the beam's evaluation */

/* How promising a position of a tableau game looks, for the beam: cards home (a completed
   suit outweighs the links it had), face-down cards, empty piles, cards in cells, and how well
   the face-up cards are ordered (a same-suit link counts 2, a face-up card on one it does not
   fit -1, a link of another suit `any_link`: 1 or 0, the beam's two evaluations). Only the
   beam uses it. */
/* The reserve games' evaluation (Leap Year, Auld Lang Syne), for the beam only: cards home,
   less a penalty for every reserve pile emptied while the stock still deals (the stock's cards
   then fall on fewer piles), less a weight for every card lying above a card of lower rank in
   its pile (the lower card waits for it). */
static __thread int beam_w_empty = 50, beam_w_inv = 3;  /* beam_search's second try: 10 */

static int evaluate_reserve(const Pos *p) {
    const Spec *sp = p->sp;
    int e = 10 * p->fcards, inv = 0;
    for (int i = sp->r0; i < sp->r0 + sp->nr; i++) {
        int n = p->len[i];
        const uint8_t *c = p->c[i];
        if (!n) {
            if (p->len[0]) e -= beam_w_empty;
            continue;
        }
        for (int k = 0; k < n; k++) {
            int r = RANK(c[k]);
            for (int q = k + 1; q < n; q++) inv += RANK(c[q]) > r;
        }
    }
    return e - beam_w_inv * inv;
}

static int evaluate(const Pos *p, int any_link) {
    const Spec *sp = p->sp;
    if (sp->reserve_only) return evaluate_reserve(p);
    int e = 6 * p->fcards;
    for (int i = sp->t0; i < sp->t0 + sp->nt; i++) {
        int n = p->len[i];
        const uint8_t *c = p->c[i];
        if (!n) { e += 8; continue; }
        for (int k = 0; k < n; k++) {
            if (!(c[k] & UPF)) { e -= 5; continue; }
            if (k == 0 || !(c[k - 1] & UPF)) continue;
            int lower = c[k - 1], upper = c[k];
            if (fits(sp, upper, lower)) e += sp->build == B_ANY && SUIT(lower) == SUIT(upper) ? 2 : any_link;
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
   Without them the stages' best-first searches drown in shuffles of equal score: with them,
   wins in Spider 4 suits and Astrocyte (none before at 10 s a deal). */
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

typedef struct {
    double deadline; /* < 0: none */
    long long max_states; /* < 0: none */
} Budget;

/* The clock of budgets in seconds: wall time, or the CPU time of the searching thread (so that
   a shared machine's load does not change what a budget buys). Set per search. */
static __thread clockid_t budget_clock = CLOCK_MONOTONIC;

static double now(void) {
    struct timespec ts;
    clock_gettime(budget_clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int spent(const Budget *b, long long states) {
    if (b->max_states >= 0 && states >= b->max_states) return 1;
    return b->deadline >= 0 && now() >= b->deadline;
}

/* ------------------------------------------------------------------ the search */

/* search.py _progress: cards turned up by the player's moves, cards sent home (x2), over the
   moves played from move index `from` on. */
static int progress_since(const Pos *p, int from) {
    const Spec *sp = p->sp;
    int gain = 0;
    for (int m = from; m < p->nmoves; m++) {
        int start = p->mstart[m], end = m + 1 < p->nmoves ? p->mstart[m + 1] : p->nops;
        for (int k = start; k < end; k++) {
            const Op *o = &p->ops[k];
            if (o->op == OP_TRANSFER) {
                if (sp->kind[o->b] == K_FOUNDATION) gain += 2 * o->n;
                else if (sp->kind[o->a] == K_FOUNDATION) gain -= 2 * o->n;
            } else if (o->op == OP_FLIP && k > start) {
                const Op *pr = &p->ops[k - 1];
                if (pr->op == OP_TRANSFER && pr->a == o->a && sp->kind[o->a] != K_STOCK) gain += 1;
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

typedef struct {
    Table table;
    Kids kids;
    Frames frames;
    Move *buf;
    Line best;      /* best line of the current round (raw moves) */
    int err;
    int beam;       /* 1: a beam search for a win first (tableau games dealt onto) */
    int cut;        /* the beam's try left something out (its width or reach was reached) */
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

/* ------------------------------------------------------------------ the beam (a win finder) */

/* Where the stock deals onto the tableau (Spider, Astrocyte...), a depth-first search tends to
   sink into the rearrangements of one early deal. Before it, a beam search looks for a win:
   the game is cut into stages at the deals; from the (up to `width`) seed positions of a stage
   a best-first search (no deal) visits up to `reach` new positions, and the `width` best
   positions where a deal is allowed (by evaluate) are dealt onto and seed the next stage. After
   the last deal a best-first search from all the seeds, then the exact search from each, look
   for a win. It proves nothing: it answers won (with a line that the engine replays) or
   nothing, and the exact search then runs on what budget is left. Tries grow (three
   orderings a size, see beam_search) and stop when one saw all it could (cx->cut not set).
   The stages leave out the moves of beam_skip. */

typedef struct {
    int score;
    Key key;
    uint8_t *snap;
    int snaplen;
    Move *line;
    int linelen;
} Cand;

/* The current try's ordering: the weight of a link of another suit in the evaluation (1 or 0),
   and whether positions of equal score are taken in an order drawn from a hash of the position
   (salted per try) rather than newest first. */
static __thread int beam_any_link = 1, beam_hash_ties = 0;
static __thread uint64_t beam_salt = 0;

static int snap_size(const Pos *p) {
    int n = 1;
    for (int i = 0; i < p->sp->npiles; i++) n += 1 + p->len[i];
    return n;
}

static void snap_write(const Pos *p, uint8_t *b) {
    int k = 0;
    b[k++] = (uint8_t)p->redeals_used;
    for (int i = 0; i < p->sp->npiles; i++) {
        b[k++] = (uint8_t)p->len[i];
        memcpy(b + k, p->c[i], (size_t)p->len[i]);
        k += p->len[i];
    }
}

/* Append p's snapshot to a growing store (doubling, 1 MiB first): 0, and *at its offset, or
   -1 when memory ran out (the store is then unchanged). */
static int snap_append(uint8_t **store, size_t *used, size_t *scap, const Pos *p, size_t *at) {
    size_t need = (size_t)snap_size(p);
    if (*used + need > *scap) {
        size_t cap = *scap ? *scap * 2 : (size_t)1 << 20;
        while (cap < *used + need) cap *= 2;
        uint8_t *b = realloc(*store, cap);
        if (!b) return -1;
        *store = b;
        *scap = cap;
    }
    *at = *used;
    snap_write(p, *store + *used);
    *used += need;
    return 0;
}

static void snap_read(Pos *p, const uint8_t *b) {
    const Spec *sp = p->sp;
    int k = 0;
    p->nmoves = p->nops = 0;
    p->redeals_used = b[k++];
    p->fcards = 0;
    for (int i = 0; i < sp->npiles; i++) {
        int n = b[k++];
        p->len[i] = 0;
        p->h1[i] = p->h2[i] = 0;
        for (int q = 0; q < n; q++) put(p, i, b[k++]);
        if (sp->kind[i] == K_FOUNDATION) p->fcards += n;
    }
}

typedef struct {
    Cand *v;
    int n, width, worst;
    int cut;          /* a position was left out for want of width */
} Beam;

static void cand_free(Cand *c) { free(c->snap); free(c->line); c->snap = NULL; c->line = NULL; }

static void beam_clear(Beam *b) {
    for (int i = 0; i < b->n; i++) cand_free(&b->v[i]);
    b->n = 0;
    b->worst = 0;
}

/* Offers the current position (reached by the given line) to the beam: it keeps the `width`
   best, without duplicates. */
static int beam_offer(Beam *b, Pos *p, int score, Key k, const Move *line, int nline) {
    if (b->n == b->width && score <= b->v[b->worst].score) { b->cut = 1; return 0; }
    for (int i = 0; i < b->n; i++)
        if (b->v[i].key.a == k.a && b->v[i].key.b == k.b) return 0;
    Cand *c;
    if (b->n < b->width) c = &b->v[b->n++];
    else { c = &b->v[b->worst]; cand_free(c); b->cut = 1; }
    c->score = score;
    c->key = k;
    c->snaplen = snap_size(p);
    c->snap = malloc((size_t)c->snaplen);
    c->linelen = nline;
    c->line = malloc(sizeof(Move) * (size_t)(nline + 1));
    if (!c->snap || !c->line) return -1;
    snap_write(p, c->snap);
    if (nline) memcpy(c->line, line, sizeof(Move) * (size_t)nline);
    b->worst = 0;
    for (int i = 1; i < b->n; i++)
        if (b->v[i].score < b->v[b->worst].score) b->worst = i;
    return 0;
}

/* A stage: a best-first search from the seeds (no deal), up to `reach` new positions; every
   position where a deal is allowed is offered to the next stage's beam. Nodes keep their
   position (a snapshot) and their parent, so a line is read back from any of them. */

typedef struct {
    int parent;       /* node index, or -1 for a seed */
    int seed;         /* index of its seed in the stage's beam */
    Move m;
    int score;
    uint32_t tie;     /* among equal scores, the higher first (then the newest) */
    size_t snap;      /* offset in the snapshot store */
} Node;

typedef struct {
    Node *v;
    int n, cap;
    uint8_t *store;
    size_t used, scap;
    int *heap;
    int hn, hcap;
} Stage;

static int stage_node(Stage *st, Pos *p, int parent, int seed, Move m, int score) {
    if (st->n >= st->cap) {
        Node *v = grow_to(st->v, &st->cap, st->n + 1, sizeof *v, 4096);
        if (!v) return -1;
        st->v = v;
    }
    size_t at;
    if (snap_append(&st->store, &st->used, &st->scap, p, &at)) return -1;
    Node *nd = &st->v[st->n];
    nd->parent = parent;
    nd->seed = seed;
    nd->m = m;
    nd->score = score;
    nd->tie = beam_hash_ties ? (uint32_t)mix1(pos_key(p).a ^ beam_salt) : 0;
    nd->snap = at;
    return st->n++;
}

static inline int heap_better(const Stage *st, int a, int b) {
    if (st->v[a].score != st->v[b].score) return st->v[a].score > st->v[b].score;
    if (st->v[a].tie != st->v[b].tie) return st->v[a].tie > st->v[b].tie;
    return a > b;
}

INDEX_HEAP(heap_push, heap_pop, Stage, heap_better)

/* The whole line to a node (plus `extra` when have_extra): its seed's line, then the moves. */
static int node_line(const Stage *st, const Beam *cur, int nd, Line *path, Line *out,
                     int have_extra, Move extra) {
    path->n = 0;
    if (have_extra && line_add(path, extra)) return -1;
    for (int k = nd; st->v[k].parent >= 0; k = st->v[k].parent)
        if (line_add(path, st->v[k].m)) return -1;
    const Cand *seed = &cur->v[st->v[nd].seed];
    out->n = 0;
    for (int q = 0; q < seed->linelen; q++)
        if (line_add(out, seed->line[q])) return -1;
    for (int q = path->n - 1; q >= 0; q--)
        if (line_add(out, path->v[q])) return -1;
    return 0;
}

/* One stage from the seeds in cur. 1: won (line in *won), 0: done, -1: error. */
static int beam_stage(Pos *p, Ctx *cx, Beam *cur, long long reach, long long *states,
                      Beam *next, Line *won, const Budget *bud) {
    Stage st;
    memset(&st, 0, sizeof st);
    int result = 0;
    Line path = {0}, full = {0};
    long long visited = 0;
    for (int i = 0; i < cur->n; i++) {
        snap_read(p, cur->v[i].snap);
        if (p->sp->reserve_only && proven_lost(p)) continue;
        table_add(&cx->table, pos_key(p));
        int nd = stage_node(&st, p, -1, i, (Move){0, 0, 0}, evaluate(p, beam_any_link));
        if (nd < 0 || heap_push(&st, nd)) { result = -1; goto end; }
        if (stock_allowed(p) &&
            beam_offer(next, p, st.v[nd].score, pos_key(p), cur->v[i].line, cur->v[i].linelen)) {
            result = -1;
            goto end;
        }
    }
    while (st.hn && visited < reach) {
        int nd = heap_pop(&st);
        snap_read(p, st.store + st.v[nd].snap);
        Last last = {0, {0, 0, 0}, 0};  /* no reversal rule here: the table stops loops */
        cx->kids.n = 0;
        if (children(p, &last, &cx->kids, cx->buf)) { result = -1; goto end; }
        int nk = cx->kids.n;
        for (int c = 0; c < nk; c++) {
            Move m = cx->kids.v[c].m;
            if (m.s < 0) continue; /* the deal ends the stage */
            if (beam_skip(p, m)) continue;
            if (push_move(p, m)) { result = -1; goto end; }
            if (!p->len[0] && is_won(p)) {
                if (node_line(&st, cur, nd, &path, won, 1, m)) result = -1;
                else result = 1;
                goto end;
            }
            int added = table_add(&cx->table, pos_key(p));
            if (added > 0 && p->sp->reserve_only && proven_lost(p)) {
                (*states)++;  /* no order of play wins from here: not offered */
                added = 0;
            }
            if (added > 0) {
                visited++;
                (*states)++;
                int child = stage_node(&st, p, nd, st.v[nd].seed, m, evaluate(p, beam_any_link));
                if (child < 0 || heap_push(&st, child)) { result = -1; goto end; }
                int sc = st.v[child].score;
                if (stock_allowed(p) && next->n == next->width && sc <= next->v[next->worst].score)
                    next->cut = 1;
                else if (stock_allowed(p)) {
                    if (node_line(&st, cur, child, &path, &full, 0, (Move){0, 0, 0}) ||
                        beam_offer(next, p, sc, pos_key(p), full.v, full.n)) {
                        result = -1;
                        goto end;
                    }
                }
            }
            pop_move(p);
            if (added < 0) goto end;
        }
        if (!(visited & 63) && spent(bud, *states)) break;
    }
    if (st.hn) cx->cut = 1; /* positions left unexpanded */
end:
    free(st.v);
    free(st.store);
    free(st.heap);
    free(path.v);
    free(full.v);
    return result;
}

/* The face-down cards of the tableau piles (the flip caps' scale). */
static int tableau_down(const Pos *p, const Spec *sp) {
    int fd = 0;
    for (int i = sp->t0; i < sp->t0 + sp->nt; i++)
        for (int k = 0; k < p->len[i] && !(p->c[i][k] & UPF); k++) fd++;
    return fd;
}

static int search_round(Pos *p, Ctx *cx, const Budget *bud, long long *states, long long cap,
                        int best_line, int *cut, Line *won_line);

/* After the last deal: the exact search from each seed, on an equal share of the reach. */
static int beam_last(Pos *p, Ctx *cx, Beam *cur, long long reach, long long *states, Line *won,
                     const Budget *bud) {
    Line line = {0};
    for (int i = 0; i < cur->n; i++) {
        snap_read(p, cur->v[i].snap);
        Budget b = {bud->deadline, *states + reach / cur->n};
        if (bud->max_states >= 0 && bud->max_states < b.max_states) b.max_states = bud->max_states;
        int cut = 0;
        int r = search_round(p, cx, &b, states, -1, 0, &cut, &line);
        if (cx->err) { free(line.v); return -1; }
        if (r == ST_UNKNOWN) cx->cut = 1;
        if (r == ST_WON) {
            won->n = 0;
            for (int q = 0; q < cur->v[i].linelen; q++) line_add(won, cur->v[i].line[q]);
            for (int q = 0; q < line.n; q++) line_add(won, line.v[q]);
            free(line.v);
            return 1;
        }
        if (spent(bud, *states)) break;
    }
    free(line.v);
    return 0;
}

/* One try of the beam with the given width and reach. 1: won, 0: no win found, -1: error. */
static int beam_try(Pos *root, Ctx *cx, int width, long long reach, const Budget *bud,
                    long long *states, Line *won) {
    const Spec *sp = root->sp;
    Pos *p = calloc(1, sizeof(Pos));
    Beam cur = {calloc((size_t)width, sizeof(Cand)), 0, width, 0};
    Beam next = {calloc((size_t)width, sizeof(Cand)), 0, width, 0};
    int result = 0;
    if (!p || !cur.v || !next.v) { result = -1; goto end; }
    p->sp = sp;
    cur.v[0].snaplen = snap_size(root);
    cur.v[0].snap = malloc((size_t)cur.v[0].snaplen);
    cur.v[0].line = malloc(sizeof(Move));
    if (!cur.v[0].snap || !cur.v[0].line) { result = -1; goto end; }
    snap_write(root, cur.v[0].snap);
    cur.v[0].linelen = 0;
    cur.n = 1;
    while (cur.n && result == 0) {
        table_clear(&cx->table);
        snap_read(p, cur.v[0].snap);
        if (!p->len[0]) {
            /* after the last deal: a best-first search for a win from all the seeds, then
               the exact search from each */
            result = beam_stage(p, cx, &cur, reach, states, &next, won, bud);
            if (result) break;
            result = beam_last(p, cx, &cur, reach, states, won, bud);
            break;
        }
        result = beam_stage(p, cx, &cur, reach, states, &next, won, bud);
        if (result || spent(bud, *states)) break;
        /* deal onto the best positions: the next stage's seeds */
        beam_clear(&cur);
        for (int i = 0; i < next.n; i++) {
            Cand *c = &next.v[i];
            snap_read(p, c->snap);
            if (!p->len[0] || push_move(p, (Move){-1, -1, 0})) continue;
            if (!p->len[0] && is_won(p)) {
                won->n = 0;
                for (int q = 0; q < c->linelen; q++) line_add(won, c->line[q]);
                line_add(won, (Move){-1, -1, 0});
                result = 1;
                break;
            }
            Cand *d = &cur.v[cur.n++];
            d->score = c->score;
            d->snaplen = snap_size(p);
            d->snap = malloc((size_t)d->snaplen);
            d->line = malloc(sizeof(Move) * (size_t)(c->linelen + 1));
            if (!d->snap || !d->line) { result = -1; break; }
            snap_write(p, d->snap);
            memcpy(d->line, c->line, sizeof(Move) * (size_t)c->linelen);
            d->line[c->linelen] = (Move){-1, -1, 0};
            d->linelen = c->linelen + 1;
        }
        if (next.cut) cx->cut = 1;
        next.cut = 0;
        beam_clear(&next);
    }
end:
    if (cur.v) beam_clear(&cur);
    if (next.v) beam_clear(&next);
    free(cur.v);
    free(next.v);
    free_pos_struct(p);
    return result;
}

/* Beam tries of growing width and reach until a win or the budget's end. Each size is tried
   three ways, which win different deals: without a reward for links of another suit in the
   evaluation (Spider 4 suits deal 8), with it (deal 19), and without it but with the ties of
   equal score broken by a hash of the position, salted per try (Spider deal 35, Astrocyte deal
   44), not newest first. Then the reach doubles and the width grows by the square root of 2
   (8, 11, 16, 22, 32...). */
static int beam_search(Pos *root, Ctx *cx, const Budget *bud, long long *states, Line *won) {
    long long reach = 8000;
    int size = 0; /* reach 8,000 * 2^size, width 8 * 2^(size/2) */
    for (int t = 0; !spent(bud, *states); t++) {
        double w = (double)(8LL << (size / 2)) * (size & 1 ? 1.4142135623730951 : 1.0);
        int width = w < 4096.0 ? (int)w : 4096;
        cx->cut = 0;
        beam_any_link = t % 3 == 1;
        beam_hash_ties = t % 3 == 2;
        beam_w_inv = t % 3 == 1 ? 10 : 3;  /* the reserve games' second ordering */
        beam_salt = 0x9e3779b97f4a7c15ULL * (uint64_t)(t + 1);
        int r = beam_try(root, cx, width, reach, bud, states, won);
        beam_any_link = 1;
        beam_hash_ties = 0;
        beam_w_inv = 3;
        if (r) return r;
        if (!cx->cut) return 0; /* it saw all it could: a wider one would see the same */
        if (t % 3 == 2) { reach *= 2; size++; }
    }
    return 0;
}

/* ------------------------------------------------------------------ Klondike best-first (a win finder) */

/* Draw-three waste games (Klondike draw 3, Athena) have no deal onto the tableau to cut a beam
   into stages: a plain best-first search over the exact search's children (stock macros
   included), ranked by an evaluation of the position, up to a number of new positions, looks
   for a win. It proves nothing: it answers won (a line the engine replays) or nothing. Tries
   of several weightings (kbest_orders) and growing sizes, see kbest_search. */

enum { KW_HOME, KW_DOWN, KW_DOWN2, KW_BLOCK, KW_STOCK, KW_REACH, KW_PLAY, KW_SPACE, KW_KING,
       KW_DEPTH, KW_LEVEL, KW_TIES, KW_NOISE, KW_GHOME, KW_GSTOCK, KW_WIDTH, KW_N };

/* A guide for the best-first search (kbest_guide): a winning line of the same position drawing
   one card at a time, as the order in which it sends the cards home and the order in which it
   takes them from the stock and waste. KW_GHOME counts, per position, the longest prefix of
   the first order whose cards are all home; KW_GSTOCK that of the second whose cards have all
   left the stock and waste. */
static __thread uint8_t guide_home[64], guide_stock[64];
static __thread int guide_nh = 0, guide_ns = 0;

static int guide_bonus(const Pos *p, const int *w) {
    const Spec *sp = p->sp;
    int e = 0;
    if (w[KW_GHOME] && guide_nh) {
        uint64_t home = 0;
        for (int f = sp->f0; f < sp->f0 + sp->nf; f++)
            for (int k = 0; k < p->len[f]; k++) home |= (uint64_t)1 << (p->c[f][k] & 63);
        int k = 0;
        while (k < guide_nh && (home >> guide_home[k] & 1)) k++;
        e += w[KW_GHOME] * k;
    }
    if (w[KW_GSTOCK] && guide_ns && sp->waste >= 0) {
        uint64_t in = 0;
        for (int k = 0; k < p->len[0]; k++) in |= (uint64_t)1 << (p->c[0][k] & 63);
        for (int k = 0; k < p->len[sp->waste]; k++) in |= (uint64_t)1 << (p->c[sp->waste][k] & 63);
        int k = 0;
        while (k < guide_ns && !(in >> guide_stock[k] & 1)) k++;
        e += w[KW_GSTOCK] * k;
    }
    return e;
}

/* The evaluation: cards home, face-down cards (and their square per pile: a deep pile costs
   more), cards lying above a lower card of their own suit (it waits for them to move on the
   tableau), cards in the stock and waste, and those that clicks alone bring to the waste's top
   in the current cycle (and of them those that can be played now), empty piles, Kings at the
   bottom of a pile. */
static int evaluate_klondike(const Pos *p, const int *w) {
    const Spec *sp = p->sp;
    int e = w[KW_HOME] * p->fcards + guide_bonus(p, w);
    int blocked = 0, spaces = 0;
    int tops[MAXP], nt = 0;
    for (int i = sp->t0; i < sp->t0 + sp->nt; i++) {
        int n = p->len[i];
        const uint8_t *c = p->c[i];
        if (!n) { spaces++; e += w[KW_SPACE]; continue; }
        tops[nt++] = c[n - 1];
        int fd = 0;
        while (fd < n && !(c[fd] & UPF)) fd++;
        e -= w[KW_DOWN] * fd + w[KW_DOWN2] * fd * fd;
        if (RANK(c[0]) == 13 && (c[0] & UPF)) e += w[KW_KING];
        int low[4] = {14, 14, 14, 14};  /* lowest rank of each suit seen below */
        for (int k = 0; k < n; k++) {
            int s = SUIT(c[k]), r = RANK(c[k]);
            if (low[s] < r) blocked++;
            else low[s] = r;
        }
    }
    e -= w[KW_BLOCK] * blocked;
    if (sp->waste < 0) return e;
    int ns = p->len[0], nw = p->len[sp->waste];
    e -= w[KW_STOCK] * (ns + nw);
    if (!w[KW_REACH] && !w[KW_PLAY]) return e;
    /* the cards that clicks alone bring to the waste's top, one cycle */
    uint8_t stock[MAXL], waste[MAXL];
    memcpy(stock, p->c[0], (size_t)ns);
    memcpy(waste, p->c[sp->waste], (size_t)nw);
    uint64_t seen_cards = 0;
    uint8_t seen[MAXL + 1];
    memset(seen, 0, sizeof seen);
    int reach = 0, play = 0;
    int turned = 0;
    for (;;) {
        if (nw) {
            int c = waste[nw - 1] & 63;
            uint64_t bit = (uint64_t)1 << c;
            if (!(seen_cards & bit)) {
                seen_cards |= bit;
                reach++;
                int ok = 0;
                for (int f = sp->f0; f < sp->f0 + sp->nf && !ok; f++) ok = accepts(p, f, c);
                for (int q = 0; q < nt && !ok; q++) ok = fits(sp, c, tops[q]);
                if (!ok && spaces && RANK(c) == 13) ok = 1;
                play += ok;
            }
        }
        if (ns) {
            int k = ns < sp->draw ? ns : sp->draw;
            for (int q = 0; q < k; q++) waste[nw++] = stock[--ns];
        } else if (nw && (sp->redeals < 0 || !turned)) {
            for (int q = nw - 1; q >= 0; q--) stock[ns++] = waste[q];
            nw = 0;
            turned = 1;
        } else break;
        if (seen[nw] > 1) break;
        seen[nw]++;
    }
    return e + w[KW_REACH] * reach + w[KW_PLAY] * play;
}

typedef struct {
    int parent;
    int prio;
    uint32_t tie;
    int16_t clicks;
    int16_t depth;
    Move m;
    size_t snap;
} KNode;

typedef struct {
    KNode *v;
    int n, cap;
    uint8_t *store;
    size_t used, scap;
    int *heap;
    int hn, hcap;
    int ties;   /* 0: newest first among equal priorities, 1: by a hash, 2: oldest first */
} KStage;

static inline int kheap_better(const KStage *st, int a, int b) {
    if (st->v[a].prio != st->v[b].prio) return st->v[a].prio > st->v[b].prio;
    if (st->v[a].tie != st->v[b].tie) return st->v[a].tie > st->v[b].tie;
    return st->ties == 2 ? a < b : a > b;
}

INDEX_HEAP(kheap_push, kheap_pop, KStage, kheap_better)

static int knode_add(KStage *st, const Pos *p, int parent, int clicks, Move m, int prio,
                     uint32_t tie, int depth) {
    if (st->n >= st->cap) {
        KNode *v = grow_to(st->v, &st->cap, st->n + 1, sizeof *v, 4096);
        if (!v) return -1;
        st->v = v;
    }
    size_t at;
    if (snap_append(&st->store, &st->used, &st->scap, p, &at)) return -1;
    KNode *nd = &st->v[st->n];
    nd->parent = parent;
    nd->prio = prio;
    nd->tie = tie;
    nd->clicks = (int16_t)clicks;
    nd->depth = (int16_t)(depth < 32767 ? depth : 32767);
    nd->m = m;
    nd->snap = at;
    return st->n++;
}

/* The line to node nd, then `clicks` clicks and m. */
static int knode_line(const KStage *st, int nd, int clicks, Move m, Line *out) {
    Line rev = {0};
    int rc = 0;
    Move click = {-1, -1, 0};
    if (line_add(&rev, m)) rc = -1;
    for (int q = 0; q < clicks && !rc; q++) rc = line_add(&rev, click);
    for (int k = nd; k >= 0 && st->v[k].parent >= 0 && !rc; k = st->v[k].parent) {
        rc = line_add(&rev, st->v[k].m);
        for (int q = 0; q < st->v[k].clicks && !rc; q++) rc = line_add(&rev, click);
    }
    out->n = 0;
    for (int q = rev.n - 1; q >= 0 && !rc; q--) rc = line_add(out, rev.v[q]);
    free(rev.v);
    return rc;
}

/* One best-first try: up to max_nodes new positions. 1 won (line in *won), 0 not, -1 error;
   *all set when it saw every position its children allow. */
static int kbest_try(Pos *root, Ctx *cx, Table *tab, const int *w, uint64_t salt,
                     long long max_nodes, long long width, const Budget *bud, long long *states,
                     Line *won, int *all) {
    KStage st;
    memset(&st, 0, sizeof st);
    st.ties = w[KW_TIES];
    Pos *p = calloc(1, sizeof(Pos));
    int result = 0;
    long long visited = 0;
    *all = 0;
    if (!p) return -1;
    p->sp = root->sp;
    table_clear(tab);
    table_add(tab, pos_key(root));
    int r0 = knode_add(&st, root, -1, 0, (Move){0, 0, 0}, 0, 0, 0);
    if (r0 < 0 || kheap_push(&st, r0)) { result = -1; goto end; }
    /* KW_WIDTH: at most that many positions expanded at each depth (a beam in best-first
       order: the search cannot sink into one line's endless variations) */
    static __thread int at_depth[32768];
    int beam_cut = 0;
    if (width) memset(at_depth, 0, sizeof at_depth);
    while (st.hn && (max_nodes < 0 || visited < max_nodes)) {
        int nd = kheap_pop(&st);
        if (width && at_depth[st.v[nd].depth]++ >= width) { beam_cut = 1; continue; }
        snap_read(p, st.store + st.v[nd].snap);
        int depth = st.v[nd].depth + 1;
        Last last = {0, {0, 0, 0}, 0};
        cx->kids.n = 0;
        streamline = w[KW_LEVEL];
        int rc = children(p, &last, &cx->kids, cx->buf);
        streamline = 0;
        if (rc) { result = -1; goto end; }
        int nk = cx->kids.n;
        for (int c = 0; c < nk; c++) {
            Child ch = cx->kids.v[c];
            Move click = {-1, -1, 0};
            int steps = 0, bad = 0;
            for (int q = 0; q < ch.clicks && !bad; q++, steps++) bad = push_move(p, click);
            if (!bad) { bad = push_move(p, ch.m); steps++; }
            if (bad) { result = -1; goto end; }
            if (!p->len[0] && is_won(p)) {
                result = knode_line(&st, nd, ch.clicks, ch.m, won) ? -1 : 1;
                goto end;
            }
            Key key = pos_key(p);
            int added = table_add(tab, key);
            if (added > 0) {
                visited++;
                (*states)++;
                int prio = evaluate_klondike(p, w) - w[KW_DEPTH] * depth;
                uint64_t h = mix1(key.a ^ salt);
                if (w[KW_NOISE]) prio += (int)((h >> 40) % (uint64_t)(w[KW_NOISE] + 1));
                uint32_t tie = w[KW_TIES] == 1 ? (uint32_t)h : 0;
                int child = knode_add(&st, p, nd, ch.clicks, ch.m, prio, tie, depth);
                if (child < 0 || kheap_push(&st, child)) { result = -1; goto end; }
            }
            for (int q = 0; q < steps; q++) pop_move(p);
            if (added < 0) goto end;
        }
        if (!(visited & 63) && spent(bud, *states)) goto end;
    }
    if (!st.hn && !beam_cut) *all = 1;
end:
    free(st.v);
    free(st.store);
    free(st.heap);
    free_pos_struct(p);
    return result;
}

/* The weightings tried in turn (KW_* order). Each priority gets a random bonus (0 to
   KW_NOISE, from a hash of the position salted per try) and ties are broken by the hash, so
   that every try differs: random restarts. Measured one at a time on Klondike draw 3 (the 72
   deals of 1-1,000 left unknown, 1.5 s of CPU each), without noise they win 5 to 8 deals each,
   with a noise of 16, 40 or 100 11 or 12, and different ones. */
static const int kbest_orders[][KW_N] = {
    /* home down down2 block stock reach play space king depth level ties noise */
    {20, 8, 0, 4, 1, 1, 2, 6, 3, 0, 0, 1, 16},
    {20, 8, 0, 4, 1, 1, 2, 6, 3, 0, 0, 1, 40},
    {20, 8, 0, 4, 1, 1, 2, 6, 3, 0, 0, 1, 100},
    {10, 10, 0, 6, 2, 2, 2, 4, 4, 0, 0, 1, 20},
    {20, 8, 0, 4, 0, 0, 0, 6, 3, 0, 0, 1, 40},
    {20, 8, 0, 0, 1, 1, 2, 6, 3, 1, 0, 1, 40},
};
#define KBEST_NORDERS ((int)(sizeof kbest_orders / sizeof kbest_orders[0]))

/* The Luby sequence (1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...), i from 1: the restarts' sizes when
   grow is 0 (kbest_tries). */
static long long luby(long long i) {
    for (;;) {
        long long k = 1;
        while (((long long)1 << k) - 1 < i) k++;
        if (((long long)1 << k) - 1 == i) return (long long)1 << (k - 1);
        i -= ((long long)1 << (k - 1)) - 1;
    }
}

/* Tries of growing size (`first` positions, multiplied by `grow` after each round of the
   weightings ws[0..nw-1]; grow 0: `first` times luby(round)) until a win or the budget's end;
   stops when a try saw all its children allow (a larger one would see the same) in every
   weighting of a round. The salts run from `salt0`. */
static int kbest_tries(Pos *root, Ctx *cx, const int (*ws)[KW_N], int nw, long long first,
                       int grow, uint64_t salt0, const Budget *bud, long long *states,
                       Line *won) {
    long long size = first;
    long long round = 1;  /* grow 0: the round's size is first times luby(round) */
    int alls = 0;
    /* a table of its own, sized for a try (room for its positions, half full): the solver's
       table is sized for its whole budget (up to 2^24 slots), and clearing it for every try
       costs fresh pages over all of it */
    Table tab = {0};
    for (int t = 0; !spent(bud, *states); t++) {
        int k = t % nw;
        int all = 0;
        long long width = ws[k][KW_WIDTH] * (size / first);
        size_t cap = (size_t)1 << 12;
        while ((long long)cap < 4 * (size + 1024) && cap < cx->table.max_cap) cap *= 2;
        if (cap != tab.cap) {
            table_free(&tab);
            if (table_init(&tab, cap, cx->table.max_cap)) return -1;
        }
        int r = kbest_try(root, cx, &tab, ws[k],
                          0x9e3779b97f4a7c15ULL * (salt0 + (uint64_t)t + 1),
                          width ? -1 : size, width, bud, states, won, &all);
        if (r) { table_free(&tab); return r; }
        alls += all;
        if (k == nw - 1) {
            if (alls == nw) break;  /* every weighting saw all its children allow */
            alls = 0;
            if (grow) size *= grow;
            else size = first * luby(++round);
        }
    }
    table_free(&tab);
    return 0;
}

/* Only for experiments (py_best_first): explicit weightings and sizes. */
#define KBEST_MAXUSER 16
static __thread int kbest_user = 0;
static __thread int kbest_w[KBEST_MAXUSER][KW_N];
static __thread long long kbest_first = 0;
static __thread int kbest_grow = 2;

#define KBEST_FIRST 5000
/* The built-in tries' growth: 0, restarts of Luby sizes (KBEST_FIRST times 1, 1, 2, 1, 1, 2,
   4, ...) since session 9 (2 before, each try twice the last): on deals 1001-1400 the same 30
   hard best-first wins, 4 of 5 later ones in fewer positions, about 25 % more positions a
   second (docs/solver.md, helper k3win9); the whole run of deals 1-1,000 measured with it. */
#define KBEST_GROW 0
/* For measurements only (py_tune): the built-in tries' first size and growth, the best-first
   phase's share, and a stop after the win finders of draw-three games (the answer then unknown
   unless one of them won). */
static __thread long long tune_first = KBEST_FIRST;
static __thread int tune_grow = KBEST_GROW;
static __thread double tune_share = -1.0;
static __thread int tune_stop = 0;
static __thread double tune_l1 = -1.0;
static __thread uint64_t kbest_salt0 = 0;
/* The streamlined searches' first cap below a card turned up (levels 1 and 2; 0: one round,
   no cap), see solve_pos. */
#define FLIP_CAP0 300
#define FLIP_GROW 4
static __thread long long tune_flip1 = FLIP_CAP0, tune_flip2 = FLIP_CAP0;
/* Level 3 after level 1 ran to its deadline: up to this share of the budget (0: none, the
   shipped schedule: in the solver level 3 won nothing the others did not, and it took the
   second best-first search's time, see docs/solver.md; _core.tune sets it for experiments). */
#define LEVEL3_SHARE 0.0
static __thread double tune_l3 = LEVEL3_SHARE;
/* Level 2's deadline (of the budget, from the start) when the best-first search runs (a
   quarter when it does not: the honest player's samples). */
#define LEVEL2_SHARE 0.15
static __thread double tune_l2 = LEVEL2_SHARE;
/* The exact search of draw-three games turned over without limit (session 9, for experiments):
   in rounds capped at the flips (flip_cap), the first cap this, times FLIP_GROW a round until a
   round cut nothing off (that round is the whole exact search: lost is proved there); 0: one
   uncapped round, the shipped setting (capped, it won no deal the win finders did not and cost
   a loss proof, see docs/solver-s9-k3win9.md). Not when the best line is asked for. */
#define EXACT_CAP0 0
static __thread long long tune_xcap = EXACT_CAP0;
static int kbest_search(Pos *root, Ctx *cx, const Budget *bud, long long *states, Line *won) {
    if (kbest_user)
        return kbest_tries(root, cx, (const int (*)[KW_N])kbest_w, kbest_user, kbest_first,
                           kbest_grow, 0, bud, states, won);
    return kbest_tries(root, cx, kbest_orders, KBEST_NORDERS, tune_first, tune_grow,
                       kbest_salt0, bud, states, won);
}

/* How much of the depth-first tree search_round has seen, estimated from its frames (Knuth's
   estimate: each child of a frame taken to hold an equal part of the frame's subtree): the
   finished children of the root, plus the finished part of the child being searched, and so on
   down. 0 at the start, 1 at the end. */
static double dfs_progress(const Ctx *cx) {
    double f = 0.0, w = 1.0;
    for (int q = 0; q < cx->frames.n; q++) {
        const Frame *fr = &cx->frames.f[q];
        if (fr->nkids <= 0) break;
        int done = q < cx->frames.n - 1 ? fr->i - 1 : fr->i;
        f += w * (double)done / (double)fr->nkids;
        w /= (double)fr->nkids;
        if (w < 1e-30) break;  /* what lies deeper cannot change the answer to any use */
    }
    return f;
}

static __thread long long relax_bound_cuts = 0;  /* positions the order bound cut off */
/* The relaxation's part with the order bound at every position (solve_pos) stops when the bound
   has cut nothing in its first RELAX_IDLE positions (0: never): where the bound pays, it cuts
   within the first few thousand positions (its first cut came at 6 to 13,132 positions in the
   draw-one twins of Klondike draw 3 deals 1067, 1118, 1134, 1143 and 1175); the rule alone then
   gets the rest of the relaxation's share. relax_idle_now: set during that part only. */
#define RELAX_IDLE 100000
static __thread long long relax_idle = RELAX_IDLE, relax_idle_now = 0;
/* The relaxation's search with the rule (solve_pos) goes on past its share of the budget, up to
   relax_ext (RELAX_EXT_END of the budget from the start), while dfs_progress says it has seen at
   least RELAX_MIN_PROGRESS of its tree: on the draw-one twins measured, a search that ended
   lost within a few seconds was past 5e-4 within its first tenth, one left unknown after 6-10 s
   below 2e-10 all the time (docs/solver-s9-k3loss9.md). */
#define RELAX_MIN_PROGRESS 3e-4
static __thread const Budget *relax_ext = NULL;
static __thread double relax_min_progress = RELAX_MIN_PROGRESS;

/* Experiments (py_stream, level + 10): the depth-first search's children ordered by the
   best-first search's evaluation of the position each leads to (kbest_orders[0], no noise). */
static __thread int order_eval = 0;
static void order_by_eval(Pos *p, Kids *kids, int k0) {
    Move click = {-1, -1, 0};
    for (int q = k0; q < kids->n; q++) {
        Child *c = &kids->v[q];
        if (c->score >= SAFE) continue;
        int steps = 0, bad = 0;
        for (int t = 0; t < c->clicks && !bad; t++, steps++) bad = push_move(p, click);
        if (!bad) { bad = push_move(p, c->m); steps++; }
        c->score = bad ? INT32_MIN + 1 : evaluate_klondike(p, kbest_orders[0]);
        for (int t = 0; t < steps; t++) pop_move(p);
    }
    sort_kids(kids->v + k0, kids->n - k0);
}

/* One depth-first round (search.py _search). Returns the status; *cut set when the cap cut. */
static int search_round(Pos *p, Ctx *cx, const Budget *bud, long long *states, long long cap,
                        int best_line, int *cut, Line *won_line) {
    int depth0 = p->nmoves;
    long long states0 = *states;
    int status = ST_LOST;
    int best_gain = 0;
    long long stock_size = p->len[0] > 0 ? p->len[0] : 1;
    Last last = {0, {0, 0, 0}, 0};
    *cut = 0;
    cx->best.n = 0;
    table_clear(&cx->table);
    table_add(&cx->table, pos_key(p));
    cx->kids.n = 0;
    cx->frames.n = 0;
    if (frames_push(&cx->frames)) goto oom;
    if (children(p, &last, &cx->kids, cx->buf)) goto oom;
    cx->frames.f[0].kid0 = 0;
    cx->frames.f[0].nkids = cx->kids.n;
    int ndealt = 0; /* frames with dealt set, on the path */
    while (cx->frames.n) {
        Frame *fr = &cx->frames.f[cx->frames.n - 1];
        if (fr->i >= fr->nkids) {
            if (fr->dealt) ndealt--;
            pop_frame(p, &cx->frames, &cx->kids);
            continue;
        }
        Child ch = cx->kids.v[fr->kid0 + fr->i];
        fr->i++;
        int parent_gain = fr->gain;
        Move click = {-1, -1, 0};
        for (int q = 0; q < ch.clicks; q++)
            if (push_move(p, click)) goto oom;
        if (push_move(p, ch.m)) goto oom;
        int steps = ch.clicks + 1;
        if (!p->len[0] && is_won(p)) {
            status = ST_WON;
            if (current_line(p, depth0, won_line)) goto oom;
            break;
        }
        Key key = pos_key(p);
        if (relax_cover && ch.m.s == p->sp->waste && p->sp->kind[ch.m.d] == K_TABLEAU) {
            /* to be covered at once: apart from the same position reached otherwise */
            uint64_t c = (uint64_t)(top(p, ch.m.d) & 63);
            key.a ^= mix1(c + 0x636f766572ULL);
            key.b ^= mix2(c + 0x636f766572ULL);
            key.a |= 1;
        } else if (relax_home) {
            Last due = {1, ch.m, 0};
            if (home_due(p, &due) >= 0) {
                /* its next card home at once: apart too */
                uint64_t c = (uint64_t)(top(p, ch.m.d) & 63);
                key.a ^= mix1(c + 0x686f6d65ULL);
                key.b ^= mix2(c + 0x686f6d65ULL);
                key.a |= 1;
            }
        }
        int added = table_add(&cx->table, key);
        if (added == 0) {
            for (int q = 0; q < steps; q++) pop_move(p);
            continue;
        }
        if (added < 0) {  /* the memory bound: an honest unknown */
            for (int q = 0; q < steps; q++) pop_move(p);
            status = ST_UNKNOWN;
            break;
        }
        (*states)++;
        if (!(*states & 255) &&
            ((spent(bud, *states) &&
              !(relax_ext && !spent(relax_ext, *states) &&
                dfs_progress(cx) >= relax_min_progress)) ||
             (relax_idle_now > 0 && !relax_bound_cuts && *states - states0 >= relax_idle_now))) {
            /* the budget spent (and, in the relaxation's search when relax_ext is set, the
               search not making progress or relax_ext spent too), or, in the relaxation's part
               with the order bound, the bound cut nothing in its first relax_idle_now positions */
            for (int q = 0; q < steps; q++) pop_move(p);
            status = ST_UNKNOWN;
            break;
        }
        if (relax_bound && p->sp->kind[ch.m.d] == K_TABLEAU && ch.m.s >= 0 &&
            p->sp->kind[ch.m.s] != K_FOUNDATION && order_lost(p)) {
            relax_bound_cuts++;
            /* no order of play wins from here (tried after a move onto the tableau from the
               stock or the tableau only: the moves that the bound's cuts followed, measured) */
            for (int q = 0; q < steps; q++) pop_move(p);
            continue;
        }
        if (p->sp->reserve_only && !stream_nobound && proven_lost(p)) {  /* no order of play wins from here */
            for (int q = 0; q < steps; q++) pop_move(p);
            continue;
        }
        int gain = 0;
        if (best_line) {
            gain = parent_gain + progress_since(p, p->nmoves - steps);
            if (gain > best_gain) {
                best_gain = gain;
                if (current_line(p, depth0, &cx->best)) goto oom;
            }
        }
        if (frames_push(&cx->frames)) goto oom;
        Frame *nf = &cx->frames.f[cx->frames.n - 1];
        nf->steps = steps;
        nf->gain = gain;
        nf->kid0 = cx->kids.n;
        last.have = 1;
        last.m = ch.m;
        last.ops = last_ops(p);
        if (children(p, &last, &cx->kids, cx->buf)) goto oom;
        nf = &cx->frames.f[cx->frames.n - 1];
        if (order_eval) order_by_eval(p, &cx->kids, nf->kid0);
        nf->nkids = cx->kids.n - nf->kid0;
        if (cap >= 0) {
            if (flip_cap ? p->ops[p->nops - 1].op == OP_FLIP : ch.m.s < 0 && ch.clicks == 0) {
                long long left = flip_cap ? 1 + (long long)tableau_down(p, p->sp) * 8 / flip_cap
                                          : 1 + (long long)p->len[0] * 8 / stock_size;
                nf->dealt = 1;
                nf->dealt_at = *states;
                nf->dealt_cap = cap * left;
                ndealt++;
            }
            if (!(*states & 31) && ndealt) {
                int over = -1;
                for (int q = 1; q < cx->frames.n; q++) {
                    Frame *d = &cx->frames.f[q];
                    if (d->dealt && *states - d->dealt_at > d->dealt_cap) { over = q; break; }
                }
                if (over > 0) {
                    *cut = 1;
                    while (cx->frames.n > over) {
                        if (cx->frames.f[cx->frames.n - 1].dealt) ndealt--;
                        pop_frame(p, &cx->frames, &cx->kids);
                    }
                }
            }
        }
    }
    /* unwind to the root */
    while (p->nmoves > depth0) pop_move(p);
    return status;
oom:
    while (p->nmoves > depth0) pop_move(p);
    cx->err = 1;
    return ST_UNKNOWN;
}

/* The best-first search's guide (guide_bonus): the exact search of the same position drawing one
   card at a time (the draw-one relaxation's probe, solve_pos), on `bud`; when it wins, its line
   gives the orders. 1 when it won (guide set), 0 not (guide cleared), -1 memory error. *lost set
   when the draw-one search saw everything (then the position is lost: see the relaxation). */
static int kbest_guide(Pos *p, Ctx *cx, const Budget *bud, long long *states, int *lost) {
    const Spec *sp = p->sp;
    Spec one = *sp;
    one.draw = 1;
    one.waste_safe = 1;
    one.stock_turns = 0;
    one.stock_cycle = sp->packs == 1;
    int cut = 0;
    Line line = {0};
    guide_nh = guide_ns = 0;
    *lost = 0;
    p->sp = &one;
    int r = search_round(p, cx, bud, states, -1, 0, &cut, &line);
    int rc = 0;
    if (cx->err) rc = -1;
    else if (r == ST_LOST) *lost = 1;
    else if (r == ST_WON) {
        uint64_t home = 0, out = 0;
        int depth0 = p->nmoves, q;
        for (q = 0; q < line.n; q++) {
            Move m = line.v[q];
            if (m.s >= 0) {
                int c = p->c[m.s][p->len[m.s] - m.n] & 63;
                uint64_t bit = (uint64_t)1 << c;
                if (one.kind[m.d] == K_FOUNDATION && !(home & bit) && guide_nh < 64) {
                    home |= bit;
                    guide_home[guide_nh++] = (uint8_t)c;
                }
                if (m.s == one.waste && !(out & bit) && guide_ns < 64) {
                    out |= bit;
                    guide_stock[guide_ns++] = (uint8_t)c;
                }
            }
            if (push_move(p, m)) { rc = -1; break; }
        }
        while (p->nmoves > depth0) pop_move(p);
        if (!rc) rc = 1;
    }
    p->sp = sp;
    free(line.v);
    if (rc != 1) guide_nh = guide_ns = 0;
    return rc;
}

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
   4 deals: tuned on deals 1001-1100 (docs/solver-s9-leap9.md). */
#define WIDE_SHARE 0.3
/* Below this budget of positions no wide beam (a setting takes 0.5-3 million). */
#define WIDE_MIN_STATES 2000000
#define RESERVE_BEAM_END 0.65
static const int WIDE_SETTINGS[][5] = {{2000, 2000, 3, 50, 4}, {2000, 1000, 10, 50, 4}};
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
       PH_LEVEL3 };
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

/* ------------------------------------------------------------------ the reserve games' wide beam */

/* Leap Year (any-suit foundations fed only from reserves, a stock dealt onto the non-empty
   reserves, no gathering): a beam over the deals, on ranks only. From each of the `width`
   positions kept at a deal, every position that plays alone can reach before the next deal
   (up to `cap` of them; the safe cards of is_safe_any_suit go home at once) is dealt onto; the
   dealt positions, each once, are ranked by evaluate_reserve's terms (10 a card home, less
   `w_empty` for each pile emptied while the stock deals, less `w_inv` for each card above a
   lower one) and the best `width` kept. After the last deal, a position from which plays alone
   empty every pile is a win: its line is replayed on the engine's moves. It proves nothing:
   a win (a line the engine replays) or nothing. C only (solve_pos, wide_beam). */
#define WB_NR 8     /* reserve piles at most */
#define WB_H 48     /* cards in a pile at most (a taller one is left out: a win finder) */
#define WB_LINE 512 /* plays and deals in a line at most */
typedef struct {
    uint8_t c[WB_NR][WB_H];
    uint8_t len[WB_NR];
    uint8_t alive;
    int16_t si;         /* stock cards dealt */
    int16_t nm;         /* the line: 0..nr-1 a play from that pile, 255 a deal */
    int8_t h[14];       /* rank-r cards home (h[0]: the foundations) */
    int ev, seq;        /* its evaluation; the order in which its deal found it */
    uint64_t key;
    uint8_t mv[WB_LINE];
} WbState;

typedef struct {
    int nr, ns, copies[14];
    uint8_t stock[MAXL];  /* ranks, in dealing order */
    int width, cap, w_inv, w_empty;
    int bound_deals;      /* the rank bound on a dealt position this few deals from the end */
    const Spec *sp;       /* the game (for the rank bound) */
    Pos *bp;              /* a scratch position the rank bound reads (wb_lost) */
    long long bound_cut;  /* dealt positions the bound left out */
    uint64_t z[WB_NR][WB_H][14], zsi[MAXL + 1], zal[256];
    uint64_t *set; size_t scap, sn;    /* the keys seen at this deal (dealt positions) */
    uint64_t *loc; uint32_t *lgen, gen; size_t lcap, ln;  /* the keys of one closure (slots of
                                                            this generation) */
    WbState *heap; int hn;             /* the best dealt positions, worst first */
    WbState *stack; int stn;
    int won, seq; WbState win;
    long long states;
} Wb;

static uint64_t wb_key(const Wb *w, const WbState *s) {
    uint64_t k = w->zsi[s->si] ^ w->zal[s->alive];
    for (int q = 0; q < w->nr; q++)
        for (int i = 0; i < s->len[q]; i++) k ^= w->z[q][i][s->c[q][i]];
    return k | 1;
}

/* 1 when k was not in the set (now added), 0 when it was, -1 on memory error */
static int wb_add(uint64_t **set, size_t *cap, size_t *n, uint64_t k) {
    if (*n * 2 >= *cap) {
        size_t oc = *cap, nc = oc ? oc * 2 : (size_t)1 << 12;
        uint64_t *ot = *set, *t = calloc(nc, 8);
        if (!t) return -1;
        for (size_t i = 0; i < oc; i++)
            if (ot[i]) {
                size_t j = ot[i] & (nc - 1);
                while (t[j]) j = (j + 1) & (nc - 1);
                t[j] = ot[i];
            }
        free(ot);
        *set = t; *cap = nc;
    }
    size_t j = k & (*cap - 1);
    while ((*set)[j]) {
        if ((*set)[j] == k) return 0;
        j = (j + 1) & (*cap - 1);
    }
    (*set)[j] = k;
    (*n)++;
    return 1;
}

static int wb_eval(const Wb *w, const WbState *s) {
    int e = 0, inv = 0;
    for (int r = 1; r < 14; r++) e += 10 * s->h[r];
    for (int q = 0; q < w->nr; q++) {
        if (!(s->alive >> q & 1)) { if (s->si < w->ns) e -= w->w_empty; continue; }
        for (int k = 0; k < s->len[q]; k++)
            for (int i = k + 1; i < s->len[q]; i++) inv += s->c[q][i] > s->c[q][k];
    }
    return e - w->w_inv * inv;
}

static inline int wb_legal(const WbState *s, int q) {
    if (!s->len[q]) return 0;
    int r = s->c[q][s->len[q] - 1];
    return s->h[r - 1] > s->h[r];
}

static void wb_play(const Wb *w, WbState *s, int q) {
    s->mv[s->nm++] = (uint8_t)q;
    s->h[s->c[q][--s->len[q]]]++;
    if (!s->len[q] && s->si < w->ns) s->alive &= (uint8_t)~(1u << q);
}

/* the safe cards (is_safe_any_suit): every foundation waiting for them, their pile keeps one */
static void wb_safe(const Wb *w, WbState *s) {
    for (int moved = 1; moved;) {
        moved = 0;
        for (int q = 0; q < w->nr; q++)
            while (s->nm < WB_LINE - 1 && (s->len[q] > 1 || (s->len[q] == 1 && s->si >= w->ns))) {
                int r = s->c[q][s->len[q] - 1];
                if (s->h[r - 1] < w->copies[r] || !wb_legal(s, q)) break;
                wb_play(w, s, q);
                moved = 1;
            }
    }
}

/* The rank bound (proven_lost) on a dealt position, rebuilt as a position of the game: the
   foundations from the counts home (h[r] of them reached r), the reserves and the stock on ranks
   (suit 0: the bound reads ranks only). 1: no line wins from it. */
static int wb_lost(Wb *w, const WbState *s) {
    const Spec *sp = w->sp;
    Pos *p = w->bp;
    p->len[0] = w->ns - s->si;
    for (int i = 0; i < p->len[0]; i++) p->c[0][p->len[0] - 1 - i] = (uint8_t)(w->stock[s->si + i] << 2);
    for (int k = 0; k < sp->nf; k++) {
        int f = sp->f0 + k, ht = 0;
        while (ht < 13 && s->h[ht + 1] > k) ht++;
        p->len[f] = ht;
        for (int r = 1; r <= ht; r++) p->c[f][r - 1] = (uint8_t)(r << 2);
    }
    for (int q = 0; q < w->nr; q++) {
        int i = sp->r0 + q;
        p->len[i] = s->len[q];
        for (int k = 0; k < s->len[q]; k++) p->c[i][k] = (uint8_t)(s->c[q][k] << 2);
    }
    return proven_lost(p);
}

/* a ranks below b: a lower evaluation, or the same found later */
static inline int wb_worse(const WbState *a, const WbState *b) {
    return a->ev < b->ev || (a->ev == b->ev && a->seq > b->seq);
}

/* whether a dealt position with this evaluation would be kept now (wb_keep's test) */
static inline int wb_would_keep(const Wb *w, const WbState *s) {
    return w->hn < w->width || wb_worse(&w->heap[0], s);
}

/* keeps a dealt position among the best `width` (a heap, worst on top) */
static void wb_keep(Wb *w, const WbState *s) {
    WbState *h = w->heap;
    int i;
    if (w->hn == w->width) {
        if (!wb_worse(&h[0], s)) return;
        for (i = 0;;) {  /* the worst replaced, sifted down */
            int a = 2 * i + 1, b = a + 1, m = -1;
            const WbState *least = s;
            if (a < w->hn && wb_worse(&h[a], least)) { m = a; least = &h[a]; }
            if (b < w->hn && wb_worse(&h[b], least)) m = b;
            if (m < 0) break;
            h[i] = h[m];
            i = m;
        }
        h[i] = *s;
        return;
    }
    i = w->hn++;
    while (i > 0 && wb_worse(s, &h[(i - 1) / 2])) { h[i] = h[(i - 1) / 2]; i = (i - 1) / 2; }
    h[i] = *s;
}

static int wb_better(const void *a, const void *b) {
    const WbState *x = a, *y = b;
    return wb_worse(x, y) - wb_worse(y, x);  /* the best first */
}

/* the closure's set: 1 when k was not in it (now added), 0 when it was */
static int wb_local(Wb *w, uint64_t k) {
    size_t j = k & (w->lcap - 1);
    while (w->lgen[j] == w->gen) {
        if (w->loc[j] == k) return 0;
        j = (j + 1) & (w->lcap - 1);
    }
    w->lgen[j] = w->gen;
    w->loc[j] = k;
    w->ln++;
    return 1;
}

/* every position plays alone reach from s (up to cap), each dealt onto; -1 on memory error */
static int wb_closure(Wb *w, const WbState *s0) {
    w->gen++;
    w->ln = 0;
    w->stn = 0;
    w->stack[w->stn++] = *s0;
    while (w->stn) {
        WbState s = w->stack[--w->stn];
        w->states++;
        if (s.si >= w->ns) {
            int any = 0;
            for (int q = 0; q < w->nr; q++) any |= s.len[q];
            if (!any) { w->won = 1; w->win = s; return 0; }
        } else if (s.alive && s.nm < WB_LINE - 1) {
            WbState t = s;
            int tall = 0;
            t.mv[t.nm++] = 255;
            for (int q = 0; q < w->nr && t.si < w->ns; q++)
                if (t.alive >> q & 1) {
                    if (t.len[q] >= WB_H) { tall = 1; break; }
                    t.c[q][t.len[q]++] = w->stock[t.si++];
                }
            if (!tall) {
                wb_safe(w, &t);
                t.key = wb_key(w, &t);
                int a = wb_add(&w->set, &w->scap, &w->sn, t.key);
                if (a < 0) return -1;
                if (a) {
                    t.ev = wb_eval(w, &t);
                    t.seq = w->seq++;
                    if (wb_would_keep(w, &t)) {
                        if (w->bound_deals > 0 && w->ns - t.si <= w->bound_deals * w->nr &&
                            wb_lost(w, &t))
                            w->bound_cut++;
                        else
                            wb_keep(w, &t);
                    }
                }
            }
        }
        for (int q = 0; q < w->nr; q++) {
            if (!wb_legal(&s, q) || s.nm >= WB_LINE - 1 || (int)w->ln >= w->cap) continue;
            WbState t = s;
            wb_play(w, &t, q);
            wb_safe(w, &t);
            if (wb_local(w, wb_key(w, &t)) && w->stn < w->cap + WB_NR) w->stack[w->stn++] = t;
        }
    }
    return 0;
}

/* The games the wide beam is for (Leap Year): reserves only, emptied reserves skipped by the
   deals, no gathering. */
static int wide_beam_game(const Spec *sp) {
    return sp->reserve_only && sp->skip_empty && sp->redeal != R_GATHER;
}

/* The wide beam from p with these settings: 1 won (the engine's moves in *won, replayed from p),
   0 not (the budget spent, or every position left out), -1 on memory error. */
static __thread long long wb_bound_cut; /* the last wide beam's positions the bound left out */
static int wide_beam(Pos *p, const Budget *bud, long long *states, Line *won, int width,
                     int cap, int w_inv, int w_empty, int bound_deals) {
    const Spec *sp = p->sp;
    if (sp->nr > WB_NR || sp->nr < 1) return 0;
    Wb *w = calloc(1, sizeof *w);
    if (!w) return -1;
    int rc = 0;
    w->nr = sp->nr;
    w->ns = p->len[0];
    w->width = width; w->cap = cap; w->w_inv = w_inv; w->w_empty = w_empty;
    w->bound_deals = bound_deals;
    w->sp = sp;
    if (bound_deals > 0) {
        w->bp = calloc(1, sizeof(Pos));
        if (!w->bp) { free(w); return -1; }
        w->bp->sp = sp;
    }
    for (int r = 1; r < 14; r++) w->copies[r] = sp->rank_copies[r];
    for (int i = 0; i < w->ns; i++) w->stock[i] = (uint8_t)RANK(p->c[0][w->ns - 1 - i]);
    uint64_t x = 0x5769646542656D31ULL;
    for (int q = 0; q < WB_NR; q++)
        for (int i = 0; i < WB_H; i++)
            for (int r = 0; r < 14; r++) w->z[q][i][r] = splitmix(&x);
    for (int i = 0; i <= MAXL; i++) w->zsi[i] = splitmix(&x);
    for (int i = 0; i < 256; i++) w->zal[i] = splitmix(&x);
    WbState *beam = malloc(sizeof(WbState) * (size_t)width);
    w->heap = malloc(sizeof(WbState) * (size_t)width);
    w->stack = malloc(sizeof(WbState) * (size_t)(cap + WB_NR + 1));
    w->lcap = 1;
    while (w->lcap < (size_t)cap * 2) w->lcap *= 2;
    w->loc = malloc(w->lcap * 8);
    w->lgen = calloc(w->lcap, sizeof *w->lgen);
    if (!beam || !w->heap || !w->stack || !w->loc || !w->lgen) { rc = -1; goto out; }
    WbState *s = &beam[0];
    memset(s, 0, sizeof *s);
    s->h[0] = (int8_t)sp->nf;
    for (int f = sp->f0; f < sp->f0 + sp->nf; f++)
        for (int r = 1; r <= p->len[f] && r < 14; r++) s->h[r]++;
    for (int q = 0; q < w->nr; q++) {
        int i = sp->r0 + q;
        if (p->len[i] > WB_H) goto out;
        s->len[q] = (uint8_t)p->len[i];
        for (int k = 0; k < p->len[i]; k++) s->c[q][k] = (uint8_t)RANK(p->c[i][k]);
        if (p->len[i]) s->alive |= (uint8_t)(1u << q);
    }
    wb_safe(w, s);
    int bn = 1;
    while (!w->won) {
        w->hn = 0;
        w->seq = 0;
        if (w->set) memset(w->set, 0, w->scap * 8);
        w->sn = 0;
        for (int i = 0; i < bn && !w->won; i++) {
            if (wb_closure(w, &beam[i])) { rc = -1; goto out; }
            if (spent(bud, *states + w->states)) goto out;
        }
        if (w->won || !w->hn) break;
        memcpy(beam, w->heap, sizeof(WbState) * (size_t)w->hn);
        bn = w->hn;
        qsort(beam, (size_t)bn, sizeof(WbState), wb_better);
    }
    if (w->won) {
        /* replay the line on the engine's moves: a play goes to the first foundation that
           takes it (raw_moves' order), a deal is the stock's move */
        Move *buf = malloc(sizeof(Move) * (size_t)max_moves(sp));
        int played = 0, ok = buf != NULL;
        won->n = 0;
        for (int k = 0; ok && k < w->win.nm; k++) {
            int nm = raw_moves(p, buf), q = w->win.mv[k], found = -1;
            for (int j = 0; j < nm && found < 0; j++) {
                Move m = buf[j];
                if (q == 255 ? m.s < 0 : m.s == sp->r0 + q && sp->kind[m.d] == K_FOUNDATION)
                    found = j;
            }
            if (found < 0 || push_move(p, buf[found]) || line_add(won, buf[found])) { ok = 0; break; }
            played++;
        }
        ok = ok && is_won(p);
        while (played--) pop_move(p);
        free(buf);
        if (!ok) won->n = 0;
        rc = ok;
    }
out:
    *states += w->states;
    wb_bound_cut = w->bound_cut;
    free(beam); free(w->heap); free(w->stack); free(w->loc); free(w->lgen); free(w->set);
    free(w->bp);
    free(w);
    return rc;
}

static int solve_pos(Pos *p, double time_limit, long long max_states, int best_line,
                     size_t max_table, int ordering, int streamlined, int best_first,
                     Result *res) {
    const Spec *sp = p->sp;
    double start = now();
    Ctx cx;
    memset(&cx, 0, sizeof cx);
    cx.beam = ordering && (sp->deals_to_tableau && sp->nt > 0 ||
                           sp->reserve_only && sp->redeal != R_GATHER && !best_line) &&
              (max_states < 0 || max_states >= BEAM_MIN_STATES);
    res->states = 0;
    res->line.n = 0;
    solve_phase = PH_ROOT;
    if (is_won(p)) { res->status = ST_WON; return 0; }
    if (proven_lost(p) || (sp->order_bound && order_lost(p))) { res->status = ST_LOST; return 0; }
    cx.buf = malloc(sizeof(Move) * (size_t)max_moves(sp));
    /* The table's first size: room (half full) for the positions the budget should reach,
       about a million a second, up to 2^24 slots (256 MiB): growing it step by step cost a
       rehash of every position at each doubling. */
    double expect = max_states >= 0 ? (double)max_states : -1.0;
    if (time_limit >= 0 && (expect < 0 || time_limit * 1e6 < expect)) expect = time_limit * 1e6;
    size_t cap0 = 1 << 16;
    while ((double)cap0 < 2.0 * expect && cap0 < ((size_t)1 << 24) && cap0 * 2 <= max_table)
        cap0 *= 2;
    if (!cx.buf || table_init(&cx.table, cap0, max_table)) { free(cx.buf); return -1; }
    Budget whole = {time_limit < 0 ? -1.0 : start + time_limit, max_states};
    Budget first = {time_limit < 0 ? -1.0 : start + time_limit / 3,
                    max_states < 0 ? -1 : max_states / 3};
    Line won = {0}, bestall = {0};
    long long total = 0;
    int status = ST_UNKNOWN;
    if (cx.beam) {
        /* the whole budget (it stops early when a try saw all it could), but a third when
           the caller wants the exact search's best line (the honest player's samples); in
           Leap Year and Auld Lang Syne half, then the streamlined restarts up to
           RESERVE_STREAM_END (not when the best line is asked for: the honest player's
           samples keep the exact search alone) */
        double beam_end = 0.5;
        if (wide_beam_game(sp) && (max_states < 0 || max_states >= WIDE_MIN_STATES)) {
            /* Leap Year: the wide beam first (wide_beam, its settings in turn) up to
               WIDE_SHARE of the budget, then the beam up to RESERVE_BEAM_END */
            Budget wide = {time_limit < 0 ? -1.0 : start + time_limit * WIDE_SHARE,
                           max_states < 0 ? -1 : (long long)((double)max_states * WIDE_SHARE)};
            solve_phase = PH_WIDE;
            for (int t = 0; t < (int)(sizeof WIDE_SETTINGS / sizeof WIDE_SETTINGS[0]); t++) {
                const int *ws = WIDE_SETTINGS[t];
                int r = wide_beam(p, &wide, &total, &won, ws[0], ws[1], ws[2], ws[3], ws[4]);
                if (r < 0) { cx.err = 1; goto done; }
                if (r > 0) { status = ST_WON; goto done; }
                if (spent(&wide, total)) break;
            }
            beam_end = RESERVE_BEAM_END;
        }
        Budget half = {time_limit < 0 ? -1.0 : start + time_limit * beam_end,
                       max_states < 0 ? -1 : (long long)((double)max_states * beam_end)};
        solve_phase = PH_BEAM;
        int r = beam_search(p, &cx, best_line ? &first : sp->reserve_only ? &half : &whole,
                            &total, &won);
        if (r < 0) cx.err = 1;
        if (r > 0) { status = ST_WON; goto done; }
        first.deadline = time_limit < 0 ? -1.0 : now() + (start + time_limit - now()) / 3;
        if (max_states >= 0) first.max_states = total + (max_states - total) / 3;
    }
    if (streamlined < 0) streamlined = !best_line;
    /* Draw three, turned over without limit (Klondike draw 3, Athena): a best-first search
       looks for a win (kbest_search), on KBEST_SHARE of the budget, after the level-2
       streamlined search, before level 1 (which keeps a deadline from the start, LEVEL1_SHARE:
       on a won deal level 1 loses that time, on a lost deal, where level 1 runs out of
       positions early, the exact search does); when level 1 runs to that deadline, again up to
       half of the budget; alone when the streamlined searches are off. A win or nothing. Not
       when the best line is asked for. */
    int do_kbest = ordering && best_first && !best_line && sp->waste >= 0 && sp->draw > 1 &&
                   sp->safe_foundation && sp->stock_turns;
    if (do_kbest && !(ordering && streamlined && sp->waste >= 0 && sp->draw > 1 &&
                      sp->safe_foundation)) {
        int r = kbest_phase(p, &cx, time_limit, max_states, &total, &won);
        do_kbest = 0;
        if (r < 0) { cx.err = 1; goto done; }
        if (r > 0) { status = ST_WON; goto done; }
    }
    if (ordering && streamlined && sp->waste >= 0 && sp->draw > 1 && sp->safe_foundation) {
        /* Draw three (Klondike draw 3, Athena): streamlined searches look for a win with up to
           half the budget. Level 1: every card that can go home without a click goes home as
           the only child, and no card comes back from a foundation; level 2 also never moves
           a run that already sits on a card it fits (a shuffle). Level 2 runs first, with up
           to a quarter of the budget, then level 1 up to half of it. Not exact (a card may be
           needed on the tableau, a click or a shuffle may be needed first), so they answer a
           win (a line the engine replays) or nothing; the exact search then runs on what is
           left. By default (streamlined < 0) not when the best line is asked for; the honest
           player asks for them explicitly (streamlined 1). Where the best-first search runs
           (kbest_ran): in rounds capped at the flips (stream_rounds), level 2 to LEVEL2_SHARE,
           and after level 1 ran to its deadline level 3 to tune_l3 (LEVEL3_SHARE: 0, off); the
           honest player's samples keep one round each, level 2 to a quarter. */
        int kbest_ran = do_kbest;
        int fd0 = tableau_down(p, sp);  /* the root's (flip_cap's scale) */
        double l1_share = tune_l1 >= 0 ? tune_l1 : kbest_ran ? LEVEL1_SHARE : 0.5;
        for (int level = 2; level >= 1; level--) {
            double share = level == 2 ? (kbest_ran ? tune_l2 : 0.25) : l1_share;
            if (level == 1 && do_kbest) {
                int r = kbest_phase(p, &cx, time_limit, max_states, &total, &won);
                do_kbest = 0;
                if (r < 0) { cx.err = 1; goto done; }
                if (r > 0) { status = ST_WON; goto done; }
            }
            Budget part = {time_limit < 0 ? -1.0 : start + time_limit * share,
                           max_states < 0 ? -1 : (long long)((double)max_states * share)};
            solve_phase = level == 2 ? PH_LEVEL2 : PH_LEVEL1;
            int r = stream_rounds(p, &cx, &part, &total, level,
                                  !kbest_ran ? 0 : level == 2 ? tune_flip2 : tune_flip1,
                                  FLIP_GROW, fd0, &won, NULL);
            if (cx.err) goto done;
            if (r == ST_WON) { status = ST_WON; goto done; }
            if (level == 1 && r == ST_UNKNOWN && kbest_ran && l1_share < 0.5) {
                /* level 1 ran to its deadline: level 3 (nothing back from a foundation, but
                   no card sent home but the safe ones) up to tune_l3 of the budget, then the
                   best-first search again (other restarts) up to half of it, where level 1
                   would have gone on */
                if (tune_l3 > l1_share) {
                    Budget l3 = {time_limit < 0 ? -1.0 : start + time_limit * tune_l3,
                                 max_states < 0 ? -1 : (long long)((double)max_states * tune_l3)};
                    solve_phase = PH_LEVEL3;
                    int r3 = stream_rounds(p, &cx, &l3, &total, 3, tune_flip1, FLIP_GROW, fd0,
                                           &won, NULL);
                    if (cx.err) goto done;
                    if (r3 == ST_WON) { status = ST_WON; goto done; }
                }
                Budget rest = {time_limit < 0 ? -1.0 : start + time_limit * 0.5,
                               max_states < 0 ? -1 : (long long)((double)max_states * 0.5)};
                solve_phase = PH_KBEST;
                kbest_salt0 = 1000;
                int rk = kbest_search(p, &cx, &rest, &total, &won);
                kbest_salt0 = 0;
                if (rk < 0) { cx.err = 1; goto done; }
                if (rk > 0) { status = ST_WON; goto done; }
            }
        }
    }
    if (tune_stop && sp->stock_turns && sp->waste >= 0) goto done;
    if (ordering && !best_line && sp->stock_turns && sp->waste >= 0 && !sp->not_while_empty) {
        /* Draw three, turned over without limit (Klondike draw 3, Athena): the same position
           played drawing one card at a time is a relaxation (every card of the stock and waste
           can be brought to the waste's top by clicks alone, so every line of draw three is a
           line of draw one, clicks aside). Its exact search proves some deals lost in far fewer
           positions (no grouping of the stock by threes): lost there is lost here. A win there
           proves nothing (the exact search runs on what is left). Up to RELAX_SHARE of the
           budget, after the streamlined searches (which keep their shares: the wins they find
           late in them stay found). */
        Spec one = *sp;
        one.draw = 1;
        one.waste_safe = 1;
        one.stock_turns = 0;
        one.stock_cycle = sp->packs == 1;
        int cut = 0;
        Line ignored = {0};
        solve_phase = PH_RELAX;
        p->sp = &one;
        /* first a short probe without the covering rule, which finds a draw-one win sooner
           (the rule's search tries fewer stock cards early): when draw one wins, the relaxation
           cannot prove anything, and the exact search gets the rest */
        Budget probe = {time_limit < 0 ? -1.0 : now() + time_limit * RELAX_PROBE,
                        max_states < 0 ? -1 : total + (long long)((double)max_states * RELAX_PROBE)};
        int r = search_round(p, &cx, &probe, &total, -1, 0, &cut, &ignored);
        if (r == ST_UNKNOWN && !cx.err) {
            Budget part = {time_limit < 0 ? -1.0 : now() + time_limit * RELAX_SHARE,
                           max_states < 0 ? -1 : total + (long long)((double)max_states * RELAX_SHARE)};
            relax_cover = 1;
            relax_home = 1;
            if (sp->order_bound) {
                /* first with the order bound at every position: slower (some 3 times fewer
                   positions a second) but it cuts whole subtrees off in some deals */
                Budget bpart = {time_limit < 0 ? -1.0 : now() + time_limit * RELAX_BOUND,
                                max_states < 0 ? -1 : total + (long long)((double)max_states * RELAX_BOUND)};
                relax_bound = 1;
                relax_bound_cuts = 0;
                relax_idle_now = relax_idle;
                r = search_round(p, &cx, &bpart, &total, -1, 0, &cut, &ignored);
                relax_idle_now = 0;
                relax_bound = 0;
            }
            if (r == ST_UNKNOWN && !cx.err) {
                /* past its share while it makes progress (dfs_progress), up to RELAX_EXT_END of
                   the budget from the start */
                Budget ext = {time_limit < 0 ? -1.0 : start + time_limit * relax_ext_end,
                              max_states < 0 ? -1
                                             : (long long)((double)max_states * relax_ext_end)};
                relax_ext = relax_ext_end > 0 ? &ext : NULL;
                r = search_round(p, &cx, &part, &total, -1, 0, &cut, &ignored);
                relax_ext = NULL;
            }
            relax_cover = 0;
            relax_home = 0;
        }
        p->sp = sp;
        free(ignored.v);
        if (cx.err) goto done;
        if (r == ST_LOST) { status = ST_LOST; goto done; }
    }
    if (ordering && !best_line && sp->reserve_only && sp->redeal != R_GATHER) {
        /* Leap Year, Auld Lang Syne: a streamlined search (no deal while a card can go home)
           looks for a win after the beam, up to RESERVE_STREAM_END of the budget (half
           without the beam); not exact, so it answers a win (a line the engine replays) or
           nothing, and the exact search runs on what is left. */
        double share = cx.beam ? RESERVE_STREAM_END : 0.5;
        Budget end = {time_limit < 0 ? -1.0 : start + time_limit * share,
                      max_states < 0 ? -1 : (long long)((double)max_states * share)};
        /* restarts: try 0 in the engine's order, then orders drawn from the salt t, each on
           RESTART_SIZE positions; a try that saw the whole streamlined space ends them (any
           order would see the same space) */
        Table big = cx.table;  /* a small table of its own: clearing the search's large
                                  one before every try (fresh pages) cost more than the try */
        if (table_init(&cx.table, (size_t)1 << 16, max_table)) { cx.table = big; cx.err = 1; goto done; }
        solve_phase = PH_RESERVE;
        for (uint64_t t = 0;; t++) {
            long long cap = total + RESTART_SIZE;
            Budget part = {end.deadline,
                           end.max_states < 0 || cap < end.max_states ? cap : end.max_states};
            int cut = 0;
            streamline = 1;
            stream_salt = t;
            int r = search_round(p, &cx, &part, &total, -1, 0, &cut, &won);
            streamline = 0;
            stream_salt = 0;
            if (cx.err || r == ST_WON || r == ST_LOST || spent(&end, total)) {
                table_free(&cx.table);
                cx.table = big;
                if (cx.err) goto done;
                if (r == ST_WON) { status = ST_WON; goto done; }
                break;
            }
        }
        first.deadline = time_limit < 0 ? -1.0 : now() + (start + time_limit - now()) / 3;
        if (max_states >= 0) first.max_states = total + (max_states - total) / 3;
    }
    int nrounds = sp->deals_to_piles ? 2 : 1;
    /* draw three turned over without limit (Klondike draw 3, Athena): the exact search in rounds
       capped at the flips (tune_xcap, EXACT_CAP0), as the streamlined searches; the round that
       cuts nothing is the whole search */
    int xcapped = ordering && !best_line && tune_xcap > 0 && nrounds == 1 && sp->waste >= 0 &&
                  sp->draw > 1 && sp->safe_foundation && sp->stock_turns;
    int xfd = xcapped ? tableau_down(p, sp) : 0;
    solve_phase = PH_EXACT;
    for (int r = 0; r < nrounds && !cx.err; r++) {
        const Budget *b = (nrounds == 2 && r == 0) ? &first : &whole;
        long long cap = (nrounds == 2 && r == 1) ? FIRST_DEAL_CAP : xcapped ? tune_xcap : -1;
        for (;;) {
            int cut = 0;
            flip_cap = xcapped ? (xfd ? xfd : 1) : 0;
            status = search_round(p, &cx, b, &total, cap, best_line, &cut, &won);
            flip_cap = 0;
            if (cx.err) break;
            if (status == ST_UNKNOWN && best_line && cx.best.n > bestall.n) {
                bestall.n = 0;
                for (int q = 0; q < cx.best.n; q++) line_add(&bestall, cx.best.v[q]);
            }
            if (status == ST_WON) goto done;
            if (status == ST_UNKNOWN || !cut) break;
            cap *= 4;
        }
        if (status == ST_LOST || spent(&whole, total)) break;
    }
done:
    res->status = cx.err ? ST_UNKNOWN : status;
    res->states = total;
    if (status == ST_WON && !cx.err) {
        res->line = won;
        won.v = NULL;
    } else if (status == ST_UNKNOWN && best_line) {
        res->line = bestall;
        bestall.v = NULL;
    }
    free(won.v);
    free(bestall.v);
    ctx_free(&cx);
    return cx.err ? -1 : 0;
}

/* search.py is_stuck. 1 stuck, 0 not, -1 memory error. */
static int stuck(Pos *p, long long max_states) {
    const Spec *sp = p->sp;
    int mm = max_moves(sp);
    Move *buf = malloc(sizeof(Move) * (size_t)mm);
    if (!buf) return -1;
    int nm = raw_moves(p, buf);
    if (!nm) { free(buf); return !is_won(p); }
    int home = p->fcards;
    int depth0 = p->nmoves;
    Table t;
    if (table_init(&t, 1 << 10, (size_t)1 << 30)) { free(buf); return -1; }
    table_add(&t, pos_key_cut(p, 0));
    long long seen = 1;
    /* a stack of move lists: arena of moves with per-level start/count/index */
    Move *arena = NULL;
    int an = 0, acap = 0;
    int *lv_start = NULL, *lv_n = NULL, *lv_i = NULL;
    int ln = 0, lcap = 0;
    int result = 1;
#define PUSH_LEVEL(cnt) do { \
        if (ln >= lcap) { lcap = lcap ? lcap * 2 : 256; \
            lv_start = realloc(lv_start, sizeof(int) * (size_t)lcap); \
            lv_n = realloc(lv_n, sizeof(int) * (size_t)lcap); \
            lv_i = realloc(lv_i, sizeof(int) * (size_t)lcap); \
            if (!lv_start || !lv_n || !lv_i) { result = -1; goto end; } } \
        if (an + (cnt) > acap) { acap = (an + (cnt)) * 2; \
            arena = realloc(arena, sizeof(Move) * (size_t)acap); \
            if (!arena) { result = -1; goto end; } } \
        memcpy(arena + an, buf, sizeof(Move) * (size_t)(cnt)); \
        lv_start[ln] = an; lv_n[ln] = (cnt); lv_i[ln] = 0; an += (cnt); ln++; } while (0)
    PUSH_LEVEL(nm);
    while (ln) {
        int L = ln - 1;
        if (lv_i[L] >= lv_n[L]) {
            an = lv_start[L];
            ln--;
            if (p->nmoves > depth0) pop_move(p);
            continue;
        }
        Move m = arena[lv_start[L] + lv_i[L]++];
        if (m.s < 0 && !sp->stock_reformed) { result = 0; goto end; }
        if (m.s < 0 && p->len[0] && sp->waste < 0) { result = 0; goto end; }
        if (push_move(p, m)) { result = -1; goto end; }
        int changed = p->fcards > home || is_won(p);
        for (int k = p->mstart[p->nmoves - 1]; k < p->nops && !changed; k++) {
            Op *o = &p->ops[k];
            if (o->op == OP_FLIP && (sp->kind[o->a] == K_TABLEAU || sp->kind[o->a] == K_RESERVE))
                changed = 1;
        }
        if (changed) { result = 0; goto end; }
        int added = table_add(&t, pos_key_cut(p, 0));
        if (added == 0) { pop_move(p); continue; }
        if (added < 0) { result = 0; goto end; }
        seen++;
        if (seen > max_states) { result = 0; goto end; }
        nm = raw_moves(p, buf);
        PUSH_LEVEL(nm);
    }
end:
#undef PUSH_LEVEL
    while (p->nmoves > depth0) pop_move(p);
    free(arena); free(lv_start); free(lv_n); free(lv_i); free(buf);
    table_free(&t);
    return result;
}

/* ------------------------------------------------------------------ Python glue */

static int parse_spec(PyObject *o, Spec *sp) {
    /* (npiles, waste, f0, nf, c0, nc, r0, nr, t0, nt, build, unit_suit, space_king, ftakes,
        gives_back, between, auto_collect, res_to_tab, action, draw, not_while_empty,
        skip_empty, redeal, redeals, total, copies(64 ints)) */
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 26) {
        PyErr_SetString(PyExc_ValueError, "spec: a tuple of 26 items");
        return -1;
    }
    int *fields[] = {&sp->npiles, &sp->waste, &sp->f0, &sp->nf, &sp->c0, &sp->nc, &sp->r0,
                     &sp->nr, &sp->t0, &sp->nt, &sp->build, &sp->unit_suit, &sp->space_king,
                     &sp->ftakes, &sp->gives_back, &sp->between, &sp->auto_collect,
                     &sp->res_to_tab, &sp->action, &sp->draw, &sp->not_while_empty,
                     &sp->skip_empty, &sp->redeal, &sp->redeals, &sp->total};
    for (int i = 0; i < 25; i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(o, i));
        if (v == -1 && PyErr_Occurred()) return -1;
        *fields[i] = (int)v;
    }
    PyObject *cp = PyTuple_GET_ITEM(o, 25);
    if (!PyTuple_Check(cp) || PyTuple_GET_SIZE(cp) != 64) {
        PyErr_SetString(PyExc_ValueError, "spec: copies is a tuple of 64 ints");
        return -1;
    }
    for (int i = 0; i < 64; i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(cp, i));
        if (v == -1 && PyErr_Occurred()) return -1;
        sp->copies[i] = (int)v;
    }
    if (sp->npiles < 1 || sp->npiles > MAXP) {
        PyErr_SetString(PyExc_ValueError, "spec: too many piles");
        return -1;
    }
    for (int i = 0; i < sp->npiles; i++) sp->kind[i] = K_STOCK;
    if (sp->waste >= 0) sp->kind[sp->waste] = K_WASTE;
    for (int i = sp->f0; i < sp->f0 + sp->nf; i++) sp->kind[i] = K_FOUNDATION;
    for (int i = sp->c0; i < sp->c0 + sp->nc; i++) sp->kind[i] = K_CELL;
    for (int i = sp->r0; i < sp->r0 + sp->nr; i++) sp->kind[i] = K_RESERVE;
    for (int i = sp->t0; i < sp->t0 + sp->nt; i++) sp->kind[i] = K_TABLEAU;
    sp->deals_to_tableau = sp->action == A_DEAL_TABLEAU;
    sp->deals_to_piles = sp->action != A_DRAW_WASTE;
    sp->stock_reformed = sp->action == A_DRAW_WASTE || sp->redeals != 0;
    sp->limited_redeals = sp->redeals > 0;
    sp->safe_foundation = sp->ftakes == F_IN_SUIT;
    sp->waste_safe = sp->action == A_DRAW_WASTE && sp->draw == 1;
    sp->unlimited = sp->redeals < 0;
    sp->packs = sp->total / 52;
    sp->stock_cycle = sp->action == A_DRAW_WASTE && sp->draw == 1 && sp->unlimited && sp->packs == 1;
    sp->stock_turns = sp->action == A_DRAW_WASTE && sp->draw > 1 && sp->unlimited;
    sp->reserve_only = sp->ftakes == F_ANY_SUIT && sp->nt == 0 && sp->nc == 0;
    sp->zmask = sp->reserve_only ? 0xFC : 0xFF;
    sp->order_bound = sp->ftakes == F_IN_SUIT && sp->build == B_ALT && !sp->unit_suit &&
                      sp->space_king && sp->nc == 0 && sp->nt > 0 && sp->packs == 1 &&
                      sp->total == 52 && !sp->deals_to_tableau && !sp->auto_collect;
    for (int r = 0; r < 14; r++) {
        sp->rank_copies[r] = 0;
        for (int q = 0; q < 4; q++) sp->rank_copies[r] += r * 4 + q < 64 ? sp->copies[r * 4 + q] : 0;
    }
    return 0;
}

static Pos *make_pos(const Spec *sp, PyObject *piles, PyObject *redeals) {
    if (!PyTuple_Check(piles) || PyTuple_GET_SIZE(piles) != sp->npiles) {
        PyErr_SetString(PyExc_ValueError, "piles: a tuple of bytes, one per pile");
        return NULL;
    }
    Pos *p = calloc(1, sizeof(Pos));
    if (!p) { PyErr_NoMemory(); return NULL; }
    p->sp = sp;
    p->redeals_used = (int)PyLong_AsLong(redeals);
    if (p->redeals_used == -1 && PyErr_Occurred()) { free(p); return NULL; }
    for (int i = 0; i < sp->npiles; i++) {
        PyObject *b = PyTuple_GET_ITEM(piles, i);
        if (!PyBytes_Check(b) || PyBytes_GET_SIZE(b) >= MAXL) {
            PyErr_SetString(PyExc_ValueError, "piles: each pile is bytes, shorter than 256");
            free(p);
            return NULL;
        }
        const uint8_t *s = (const uint8_t *)PyBytes_AS_STRING(b);
        for (Py_ssize_t k = 0; k < PyBytes_GET_SIZE(b); k++) {
            if (s[k] >= 128) {
                PyErr_SetString(PyExc_ValueError, "piles: a card value is below 128");
                free(p);
                return NULL;
            }
            put(p, i, s[k]);
        }
        if (sp->kind[i] == K_FOUNDATION) p->fcards += p->len[i];
    }
    return p;
}

static void free_pos(Pos *p) {
    if (!p) return;
    free(p->ops);
    free(p->mstart);
    free(p->mraw);
    free(p);
}

static PyObject *moves_list(const Move *v, int n) {
    PyObject *l = PyList_New(n);
    if (!l) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *t = Py_BuildValue("(iii)", (int)v[i].s, (int)v[i].d, (int)v[i].n);
        if (!t) { Py_DECREF(l); return NULL; }
        PyList_SET_ITEM(l, i, t);
    }
    return l;
}

static int parse_move(PyObject *o, Move *m) {
    int s, d, n;
    if (!PyArg_ParseTuple(o, "iii", &s, &d, &n)) return -1;
    m->s = (int8_t)s;
    m->d = (int8_t)d;
    m->n = (int16_t)n;
    return 0;
}

static PyObject *piles_tuple(const Pos *p) {
    PyObject *t = PyTuple_New(p->sp->npiles);
    if (!t) return NULL;
    for (int i = 0; i < p->sp->npiles; i++) {
        PyObject *b = PyBytes_FromStringAndSize((const char *)p->c[i], p->len[i]);
        if (!b) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, i, b);
    }
    return t;
}

/* The position of (spec, piles, redeals), its rules parsed into *sp (which it points to, so
 * *sp must outlive it); NULL with a Python exception set. */
static Pos *spec_pos(PyObject *spec, PyObject *piles, PyObject *redeals, Spec *sp) {
    if (parse_spec(spec, sp)) return NULL;
    return make_pos(sp, piles, redeals);
}

/* The same from a call's arguments (spec, piles, redeals). */
static Pos *args_pos(PyObject *args, Spec *sp) {
    PyObject *spec, *piles, *redeals;
    if (!PyArg_ParseTuple(args, "OOO", &spec, &piles, &redeals)) return NULL;
    return spec_pos(spec, piles, redeals, sp);
}

static PyObject *py_legal_moves(PyObject *self, PyObject *args) {
    Spec sp;
    Pos *p = args_pos(args, &sp);
    if (!p) return NULL;
    Move *buf = malloc(sizeof(Move) * (size_t)max_moves(&sp));
    if (!buf) { free_pos(p); return PyErr_NoMemory(); }
    int n = raw_moves(p, buf);
    PyObject *r = moves_list(buf, n);
    free(buf);
    free_pos(p);
    return r;
}

/* play(spec, piles, redeals, moves) -> (piles, redeals, piles after taking every move back) */
static PyObject *py_play(PyObject *self, PyObject *args) {
    PyObject *spec, *piles, *redeals, *moves;
    if (!PyArg_ParseTuple(args, "OOOO", &spec, &piles, &redeals, &moves)) return NULL;
    Spec sp;
    Pos *p = spec_pos(spec, piles, redeals, &sp);
    if (!p) return NULL;
    PyObject *seq = PySequence_Fast(moves, "moves: a sequence of (src, dst, n)");
    if (!seq) { free_pos(p); return NULL; }
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        Move m;
        if (parse_move(PySequence_Fast_GET_ITEM(seq, i), &m) || push_move(p, m)) {
            Py_DECREF(seq);
            free_pos(p);
            if (!PyErr_Occurred()) PyErr_NoMemory();
            return NULL;
        }
    }
    Py_DECREF(seq);
    PyObject *after = piles_tuple(p);
    int red = p->redeals_used;
    Key k = pos_key(p);
    while (p->nmoves) pop_move(p);
    PyObject *back = piles_tuple(p);
    free_pos(p);
    if (!after || !back) { Py_XDECREF(after); Py_XDECREF(back); return NULL; }
    return Py_BuildValue("(NiNKK)", after, red, back, (unsigned long long)k.a,
                         (unsigned long long)k.b);
}

static PyObject *py_children(PyObject *self, PyObject *args) {
    PyObject *spec, *piles, *redeals, *lastm;
    int lops;
    if (!PyArg_ParseTuple(args, "OOOOi", &spec, &piles, &redeals, &lastm, &lops)) return NULL;
    Spec sp;
    Pos *p = spec_pos(spec, piles, redeals, &sp);
    if (!p) return NULL;
    Last last = {0, {0, 0, 0}, lops};
    if (lastm != Py_None) {
        if (parse_move(lastm, &last.m)) { free_pos(p); return NULL; }
        last.have = 1;
    }
    Kids kids = {0};
    Move *buf = malloc(sizeof(Move) * (size_t)max_moves(&sp));
    if (!buf || children(p, &last, &kids, buf)) {
        free(buf); free(kids.v); free_pos(p);
        return PyErr_NoMemory();
    }
    PyObject *l = PyList_New(kids.n);
    for (int i = 0; l && i < kids.n; i++) {
        PyObject *step = PyTuple_New(kids.v[i].clicks + 1);
        for (int q = 0; q < kids.v[i].clicks; q++)
            PyTuple_SET_ITEM(step, q, Py_BuildValue("(iii)", -1, -1, 0));
        Move m = kids.v[i].m;
        PyTuple_SET_ITEM(step, kids.v[i].clicks, Py_BuildValue("(iii)", m.s, m.d, m.n));
        PyList_SET_ITEM(l, i, Py_BuildValue("(Ni)", step, kids.v[i].score));
    }
    free(buf); free(kids.v); free_pos(p);
    return l;
}

/* A search's result as Python values, its line freed: the line as a list of moves (NULL and
   an exception set when the search ran out of memory, rc != 0, or the list failed). */
static PyObject *result_line(int rc, Result *res) {
    if (rc) { free(res->line.v); return PyErr_NoMemory(); }
    PyObject *line = moves_list(res->line.v, res->line.n);
    free(res->line.v);
    return line;
}

/* A search's answer for Python: (status, line, positions), freeing the line. */
static PyObject *result_value(int rc, Result *res) {
    PyObject *line = result_line(rc, res);
    if (!line) return NULL;
    return Py_BuildValue("(iNL)", res->status, line, res->states);
}

static PyObject *py_solve(PyObject *self, PyObject *args) {
    PyObject *spec, *piles, *redeals;
    double time_limit;
    long long max_states;
    int best_line;
    unsigned long long max_table;
    int ordering = 1, cpu = 0, streamlined = -1, best_first = 1;
    if (!PyArg_ParseTuple(args, "OOOdLpK|ipip", &spec, &piles, &redeals, &time_limit, &max_states,
                          &best_line, &max_table, &ordering, &cpu, &streamlined, &best_first))
        return NULL;
    Spec sp;
    Pos *p = spec_pos(spec, piles, redeals, &sp);
    if (!p) return NULL;
    Result res;
    memset(&res, 0, sizeof res);
    int rc;
    Py_BEGIN_ALLOW_THREADS
    budget_clock = cpu ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC;
    rc = solve_pos(p, time_limit, max_states, best_line, (size_t)max_table, ordering,
                   streamlined, best_first, &res);
    Py_END_ALLOW_THREADS
    free_pos(p);
    return result_value(rc, &res);
}

/* Experiments: streamlined restarts alone. Try t (0, 1, ...) runs the reserve streamlined
   search with the salt first_salt + t (0: the engine's order) on `size` positions (times
   `growth` every `every` tries), until a win, the time limit or `tries` tries. */
static int restarts_pos(Pos *p, double time_limit, long long size, int tries, int every,
                        double growth, uint64_t first_salt, int level, Result *res, int *which) {
    double start = now();
    Ctx cx;
    memset(&cx, 0, sizeof cx);
    res->states = 0;
    res->line.n = 0;
    res->status = ST_UNKNOWN;
    *which = -1;
    cx.buf = malloc(sizeof(Move) * (size_t)max_moves(p->sp));
    if (!cx.buf || table_init(&cx.table, (size_t)1 << 20, (size_t)1 << 28)) { free(cx.buf); return -1; }
    long long total = 0;
    Line won = {0};
    double sz = (double)size;
    for (int t = 0; t < tries; t++) {
        Budget part = {time_limit < 0 ? -1.0 : start + time_limit, total + (long long)sz};
        int cut = 0;
        streamline = level == 3 ? 1 : level;
        stream_nobound = level == 3;
        stream_salt = first_salt + (uint64_t)t;
        int r = search_round(p, &cx, &part, &total, -1, 0, &cut, &won);
        streamline = 0;
        stream_salt = 0;
        stream_nobound = 0;
        if (cx.err) break;
        if (r == ST_WON) { res->status = ST_WON; *which = t; break; }
        if (time_limit >= 0 && now() >= start + time_limit) break;
        if (every > 0 && (t + 1) % every == 0) sz *= growth;
    }
    res->states = total;
    if (res->status == ST_WON) { res->line = won; won.v = NULL; }
    free(won.v);
    ctx_free(&cx);
    return cx.err ? -1 : 0;
}

/* Experiments and tests: the reserve games' wide beam alone, one setting:
   (status, line, positions). */
static PyObject *py_wide_beam(PyObject *self, PyObject *args) {
    PyObject *spec, *piles, *redeals;
    double time_limit;
    int width, cap, w_inv, w_empty, cpu, bound_deals = 0;
    if (!PyArg_ParseTuple(args, "OOOdiiiip|i", &spec, &piles, &redeals, &time_limit, &width,
                          &cap, &w_inv, &w_empty, &cpu, &bound_deals))
        return NULL;
    if (width < 1 || cap < 1) { PyErr_SetString(PyExc_ValueError, "width and cap must be >= 1"); return NULL; }
    Spec sp;
    Pos *p = spec_pos(spec, piles, redeals, &sp);
    if (!p) return NULL;
    Result res;
    memset(&res, 0, sizeof res);
    res.status = ST_UNKNOWN;
    int rc = 0;
    Py_BEGIN_ALLOW_THREADS
    budget_clock = cpu ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC;
    Budget b = {time_limit < 0 ? -1.0 : now() + time_limit, -1};
    if (wide_beam_game(&sp)) {
        int r = wide_beam(p, &b, &res.states, &res.line, width, cap, w_inv, w_empty,
                          bound_deals);
        if (r < 0) rc = -1;
        if (r > 0) res.status = ST_WON;
    }
    Py_END_ALLOW_THREADS
    free_pos(p);
    return result_value(rc, &res);
}

static PyObject *py_wide_beam_cut(PyObject *self, PyObject *args) {
    return PyLong_FromLongLong(wb_bound_cut);
}

static PyObject *py_restarts(PyObject *self, PyObject *args) {
    PyObject *spec, *piles, *redeals;
    double time_limit, growth;
    long long size;
    int tries, every, cpu, level = 1;
    unsigned long long salt;
    if (!PyArg_ParseTuple(args, "OOOdLiidKp|i", &spec, &piles, &redeals, &time_limit, &size,
                          &tries, &every, &growth, &salt, &cpu, &level))
        return NULL;
    Spec sp;
    Pos *p = spec_pos(spec, piles, redeals, &sp);
    if (!p) return NULL;
    Result res;
    memset(&res, 0, sizeof res);
    int rc, which = -1;
    Py_BEGIN_ALLOW_THREADS
    budget_clock = cpu ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC;
    rc = restarts_pos(p, time_limit, size, tries, every, growth, (uint64_t)salt, level, &res, &which);
    Py_END_ALLOW_THREADS
    free_pos(p);
    PyObject *line = result_line(rc, &res);
    if (!line) return NULL;
    return Py_BuildValue("(iNLi)", res.status, line, res.states, which);
}

static PyObject *py_is_stuck(PyObject *self, PyObject *args) {
    PyObject *spec, *piles, *redeals;
    long long max_states;
    if (!PyArg_ParseTuple(args, "OOOL", &spec, &piles, &redeals, &max_states)) return NULL;
    Spec sp;
    Pos *p = spec_pos(spec, piles, redeals, &sp);
    if (!p) return NULL;
    int r = stuck(p, max_states);
    free_pos(p);
    if (r < 0) return PyErr_NoMemory();
    return PyBool_FromLong(r);
}

static PyObject *py_proven_lost(PyObject *self, PyObject *args) {
    Spec sp;
    Pos *p = args_pos(args, &sp);
    if (!p) return NULL;
    int r = proven_lost(p);
    free_pos(p);
    return PyBool_FromLong(r);
}

static PyObject *py_order_lost(PyObject *self, PyObject *args) {
    Spec sp;
    Pos *p = args_pos(args, &sp);
    if (!p) return NULL;
    int r = sp.order_bound && order_lost(p);
    free_pos(p);
    return PyBool_FromLong(r);
}

/* ------------------------------------------------------------------ visible planning */
/* The planning of the honest player of Spider-type games (honest_visible.py). The position it
 * gets is *masked*: every face-down card, and every card of the stock, is given as 0, so
 * nothing here can read a hidden card. A best-first search over the legal moves (never a
 * deal: what a deal brings is unseen) keeps the position of highest evaluation (v_eval,
 * visible information only). A card turned up by a move is an *unknown* (0 turned face up,
 * rank 0): nothing fits on it and it never moves, so every line found can be played in the
 * real game whatever the hidden cards are, and is worth at least what was found (the card
 * seen may allow more, never less). */

enum { VW_DOWN, VW_COL, VW_EMPTY, VW_SUIT, VW_RANK, VW_BREAK, VW_CELL, VW_CELL2, VW_HOME,
       VW_REACH, VW_UNK, VW_DEPTH, VW_BURY, VW_RUN, VW_KCELL, VW_KHIGH, VW_CLEAN, VW_KING,
       VW_EMPTY1, VW_MOBILE, VW_N };

static inline int v_unknown(int c) { return (c & UPF) && RANK(c) == 0; }

/* The evaluation of a (masked) position, higher is better; `predeal`: as the position a deal
 * is made from (an empty pile that forbids the deal costs more than anything else). */
static int v_eval(const Pos *p, const int *w, int predeal) {
    const Spec *sp = p->sp;
    /* a completed suit counts as the run of 12 links it was, and HOME more */
    int e = (w[VW_HOME] + 12 * w[VW_SUIT] + 66 * w[VW_RUN]) * (p->fcards / 13);
    int empty = 0;
    for (int i = sp->t0; i < sp->t0 + sp->nt; i++) {
        int n = p->len[i];
        if (!n) { empty++; continue; }
        const uint8_t *c = p->c[i];
        int down = 0;
        while (down < n && !(c[down] & UPF)) down++;
        int units = 1, run = 0;
        for (int k = down + 1; k < n; k++) {
            int lo = c[k - 1], up = c[k];
            if (v_unknown(lo) || v_unknown(up)) continue;
            if (RANK(lo) == RANK(up) + 1 && SUIT(lo) == SUIT(up)) {
                e += w[VW_SUIT] + w[VW_RUN] * run;  /* a run of L links: RUN * L(L-1)/2 more */
                run++;
                continue;
            }
            run = 0;
            if (RANK(lo) == RANK(up) + 1) { e += w[VW_RANK]; units++; }
            else { e -= w[VW_BREAK]; units++; }
        }
        if (down) e -= w[VW_DOWN] * down + w[VW_COL] + w[VW_REACH] * units
                        + w[VW_BURY] * down * (units - 1);
        else {
            /* a pile with nothing face down: one in-suit run is nearly an empty pile, and a
               King at its base never needs moving again */
            if (units == 1) e += w[VW_CLEAN];
            if (!v_unknown(c[0]) && RANK(c[0]) == 13) e += w[VW_KING];
        }
        /* a King above other cards can leave them only for an empty pile */
        if (w[VW_KHIGH])
            for (int k = 1; k < n; k++)
                if ((c[k] & UPF) && RANK(c[k]) == 13) e -= w[VW_KHIGH];
        if (v_unknown(c[n - 1])) e += w[VW_UNK];
    }
    if (w[VW_MOBILE]) {
        /* each pile with a face-down card whose top piece (in-suit run) could move now: onto
           another pile's top of the next rank, or to an empty pile */
        int tops[16] = {0}, bases[16] = {0}, hasdown[16] = {0}, nt = sp->nt < 16 ? sp->nt : 16;
        for (int j = 0; j < nt; j++) {
            int i = sp->t0 + j, n = p->len[i];
            if (!n) continue;
            const uint8_t *c = p->c[i];
            hasdown[j] = !(c[0] & UPF);
            if (v_unknown(c[n - 1]) || !(c[n - 1] & UPF)) continue;
            tops[j] = RANK(c[n - 1]);
            int k = n - 1;
            while (k > 0 && (c[k - 1] & UPF) && !v_unknown(c[k - 1])
                   && RANK(c[k - 1]) == RANK(c[k]) + 1 && SUIT(c[k - 1]) == SUIT(c[k])) k--;
            bases[j] = RANK(c[k]);
            if (k == 0 || !(c[k - 1] & UPF)) bases[j] |= 32;  /* moving it turns a card up */
        }
        for (int j = 0; j < nt; j++) {
            if (!hasdown[j] || !bases[j]) continue;
            int r = bases[j] & 31, ok = empty > 0;
            for (int q = 0; q < nt && !ok; q++) ok = q != j && tops[q] == r + 1;
            if (ok) e += w[VW_MOBILE] * ((bases[j] & 32) ? 2 : 1);
        }
    }
    int cells = 0;
    for (int i = sp->c0; i < sp->c0 + sp->nc; i++) {
        cells += p->len[i] > 0;
        /* a King in a cell can go back only to an empty pile */
        if (p->len[i] && RANK(p->c[i][0]) == 13) e -= w[VW_KCELL];
    }
    e -= w[VW_CELL] * cells + w[VW_CELL2] * cells * cells;
    if (predeal && sp->not_while_empty && p->len[0]) e -= 100000 * empty;
    else e += w[VW_EMPTY] * empty + (empty ? w[VW_EMPTY1] : 0);
    return e;
}

/* The key of a masked position: its piles of each kind interchangeable (the search sees every
 * hidden card as the same 0, and the evaluation treats piles alike). */
static Key v_key(const Pos *p) {
    const Spec *sp = p->sp;
    Key k = {0, 0};
    addk(&k, (uint64_t)p->len[0], (uint64_t)p->len[0], 1004);
    for (int i = sp->c0; i < sp->c0 + sp->nc; i++) addk(&k, p->h1[i], p->h2[i], 1005);
    for (int i = sp->t0; i < sp->t0 + sp->nt; i++) addk(&k, p->h1[i], p->h2[i], 1006);
    k.a |= 1;
    return k;
}

/* A move the visible search leaves out: a deal, a move of an unknown card, a whole pile
 * onto an empty pile, a move to an empty pile or cell other than the first (the same
 * position, up to interchangeable piles). */
static int v_skip(const Pos *p, Move m) {
    const Spec *sp = p->sp;
    if (m.s < 0 || v_unknown(top(p, m.s))) return 1;
    if (p->len[m.d]) return 0;
    if (sp->kind[m.d] == K_TABLEAU) {
        if (sp->kind[m.s] == K_TABLEAU && m.n == p->len[m.s]) return 1;
        for (int j = sp->t0; j < m.d; j++)
            if (!p->len[j]) return 1;
    } else if (sp->kind[m.d] == K_CELL) {
        for (int j = sp->c0; j < m.d; j++)
            if (!p->len[j]) return 1;
    }
    return 0;
}

typedef struct { int parent, eval, depth, prio, first; Move m; size_t snap; } VNode;

typedef struct {
    VNode *v; int n, cap;
    int *heap; int hn, hcap;
    uint8_t *snaps; size_t sn, scap;
} VSearch;

static void vs_free(VSearch *s) { free(s->v); free(s->heap); free(s->snaps); }

static inline int v_better(const VSearch *s, int a, int b) {
    if (s->v[a].prio != s->v[b].prio) return s->v[a].prio > s->v[b].prio;
    return a < b;
}

INDEX_HEAP(v_heap_push, v_heap_pop, VSearch, v_better)

static int v_add(VSearch *s, const Pos *p, int parent, Move m, int eval, int depth, int prio) {
    if (s->n >= s->cap) {
        VNode *v = grow_to(s->v, &s->cap, s->n + 1, sizeof *v, 4096);
        if (!v) return -1;
        s->v = v;
    }
    size_t at;
    if (snap_append(&s->snaps, &s->sn, &s->scap, p, &at)) return -1;
    VNode *nd = &s->v[s->n];
    nd->parent = parent; nd->m = m; nd->eval = eval; nd->depth = depth; nd->prio = prio;
    nd->first = parent <= 0 ? s->n : s->v[parent].first;  /* the root's child it comes from */
    nd->snap = at;
    return s->n++;
}

static int v_line(const VSearch *s, int best, Line *out) {
    Move none = {0, 0, 0};
    int n = 0;
    for (int q = best; q > 0; q = s->v[q].parent) n++;
    out->n = 0;
    for (int i = 0; i < n; i++)
        if (line_add(out, none)) return -1;
    int i = n;
    for (int q = best; q > 0; q = s->v[q].parent) out->v[--i] = s->v[q].m;
    return 0;
}

/* The alternatives of visible_plan: the ng nodes of top sorted by evaluation, highest first
   (a stable insertion sort: the first found among equals first), the k best of them written
   as lines. 0, or -1 when memory runs out. */
static int v_alts(const VSearch *s, int *top, int ng, int k, Line *alts, int *alt_eval,
                  int *nalt) {
    for (int a = 1; a < ng; a++) {
        int x = top[a], b = a;
        while (b > 0 && s->v[top[b - 1]].eval < s->v[x].eval) { top[b] = top[b - 1]; b--; }
        top[b] = x;
    }
    *nalt = ng < k ? ng : k;
    for (int a = 0; a < *nalt; a++) {
        alt_eval[a] = s->v[top[a]].eval;
        if (v_line(s, top[a], &alts[a])) return -1;
    }
    return 0;
}

/* The best line from p (masked) within max_nodes positions: its moves into *out, the best and
 * the root's evaluations, the positions seen. stop_at_reveal: a position where a card was
 * turned up is not searched further. With k > 0 and alts: also the best position reached
 * through each of the root's moves, the k best of them (evaluation down, then the order they
 * were found), their lines into alts[0..*nalt), their evaluations into alt_eval. 0, or -1
 * when memory ran out. */
static int visible_plan(Pos *p, const int *w, int predeal, long long max_nodes,
                        int stop_at_reveal, Line *out, int *best_eval, int *root_eval,
                        long long *seen, int k_alt, Line *alts, int *alt_eval, int *nalt) {
    VSearch s;
    memset(&s, 0, sizeof s);
    Table t;
    Move *buf = malloc(sizeof(Move) * (size_t)max_moves(p->sp));
    if (!buf || table_init(&t, 1 << 16, (size_t)1 << 26)) { free(buf); return -1; }
    int rc = 0;
    int e0 = v_eval(p, w, predeal);
    Move none = {0, 0, 0};
    if (v_add(&s, p, -1, none, e0, 0, e0) < 0 || v_heap_push(&s, 0)) { rc = -1; goto done; }
    table_add(&t, v_key(p));
    int best = 0;
    long long count = 1;
    while (s.hn && count < max_nodes) {
        int nd = v_heap_pop(&s);
        snap_read(p, s.snaps + s.v[nd].snap);
        int depth = s.v[nd].depth;
        int nm = raw_moves(p, buf);
        for (int k = 0; k < nm && count < max_nodes; k++) {
            Move m = buf[k];
            if (v_skip(p, m)) continue;
            if (push_move(p, m)) { rc = -1; goto done; }
            int r = table_add(&t, v_key(p));
            if (r < 0) { pop_move(p); goto finish; }
            if (r == 1) {
                count++;
                int turned = 0;
                for (int q = p->mstart[p->nmoves - 1]; q < p->nops; q++)
                    if (p->ops[q].op == OP_FLIP) turned = 1;
                int e = v_eval(p, w, predeal);
                int id = v_add(&s, p, nd, m, e, depth + 1, e - w[VW_DEPTH] * (depth + 1));
                if (id < 0) { pop_move(p); rc = -1; goto done; }
                if (e > s.v[best].eval) best = id;
                if (!(stop_at_reveal && turned) && v_heap_push(&s, id)) {
                    pop_move(p); rc = -1; goto done;
                }
            }
            pop_move(p);
        }
    }
finish:
    if (v_line(&s, best, out)) { rc = -1; goto done; }
    *best_eval = s.v[best].eval;
    *root_eval = e0;
    *seen = count;
    if (k_alt > 0 && alts) {
        /* the best node of each root child's subtree (the first found among equals) */
        int *top = malloc(sizeof(int) * (size_t)(s.n + 1));
        if (!top) { rc = -1; goto done; }
        int ng = 0;
        for (int q = 1; q < s.n; q++) {
            if (s.v[q].parent == 0) { top[ng++] = q; continue; }
            for (int g = ng - 1; g >= 0; g--)
                if (s.v[top[g]].first == s.v[q].first) {
                    if (s.v[q].eval > s.v[top[g]].eval) top[g] = q;
                    break;
                }
        }
        int bad = v_alts(&s, top, ng, k_alt, alts, alt_eval, nalt);
        free(top);
        if (bad) { rc = -1; goto done; }
    }
done:
    free(buf);
    table_free(&t);
    vs_free(&s);
    return rc;
}

/* visible_plan(spec, masked piles, redeals, weights, predeal, max_nodes, stop_at_reveal
   [, k]) -> (best evaluation, root evaluation, line, positions[, alternatives]); with k > 0,
   alternatives: [(evaluation, line)], the best position through each of the root's moves, the
   k best of them. */
static PyObject *py_visible_plan(PyObject *self, PyObject *args) {
    PyObject *spec, *piles, *redeals, *weights;
    int predeal, stop_at_reveal, k_alt = 0;
    long long max_nodes;
    if (!PyArg_ParseTuple(args, "OOOOpLp|i", &spec, &piles, &redeals, &weights, &predeal,
                          &max_nodes, &stop_at_reveal, &k_alt))
        return NULL;
    if (k_alt < 0 || k_alt > 256) {
        PyErr_SetString(PyExc_ValueError, "k: 0 to 256");
        return NULL;
    }
    if (!PyTuple_Check(weights) || PyTuple_GET_SIZE(weights) != VW_N) {
        PyErr_SetString(PyExc_ValueError, "weights: a tuple of VW_N (20) ints");
        return NULL;
    }
    int w[VW_N];
    for (int i = 0; i < VW_N; i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(weights, i));
        if (v == -1 && PyErr_Occurred()) return NULL;
        w[i] = (int)v;
    }
    Spec sp;
    Pos *p = spec_pos(spec, piles, redeals, &sp);
    if (!p) return NULL;
    Line line = {0};
    int be = 0, re = 0, rc, nalt = 0;
    long long seen = 0;
    int na = k_alt;
    Line *alts = na ? calloc((size_t)na, sizeof(Line)) : NULL;
    int *alt_eval = na ? calloc((size_t)na, sizeof(int)) : NULL;
    if (k_alt && (!alts || !alt_eval)) {
        free(alts); free(alt_eval); free_pos(p);
        return PyErr_NoMemory();
    }
    Py_BEGIN_ALLOW_THREADS
    rc = visible_plan(p, w, predeal, max_nodes, stop_at_reveal, &line, &be, &re, &seen,
                      k_alt, alts, alt_eval, &nalt);
    Py_END_ALLOW_THREADS
    free_pos(p);
    PyObject *l = NULL, *alist = NULL;
    if (rc) { PyErr_NoMemory(); goto out; }
    l = moves_list(line.v, line.n);
    if (!l) goto out;
    if (!k_alt) {
        free(line.v);
        return Py_BuildValue("(iiNL)", be, re, l, seen);
    }
    alist = PyList_New(nalt);
    if (!alist) goto out;
    for (int a = 0; a < nalt; a++) {
        PyObject *ml = moves_list(alts[a].v, alts[a].n);
        PyObject *pair = ml ? Py_BuildValue("(iN)", alt_eval[a], ml) : NULL;
        if (!pair) goto out;
        PyList_SET_ITEM(alist, a, pair);
    }
    free(line.v);
    for (int a = 0; a < na; a++) free(alts[a].v);
    free(alts); free(alt_eval);
    return Py_BuildValue("(iiNLN)", be, re, l, seen, alist);
out:
    Py_XDECREF(l); Py_XDECREF(alist);
    free(line.v);
    if (alts) for (int a = 0; a < na; a++) free(alts[a].v);
    free(alts); free(alt_eval);
    return NULL;
}

/* best_first(spec, piles, redeals, weights (KW_N ints, or () for the built-in orderings),
   time_limit, max_states, cpu) -> (status, line, positions): the Klondike best-first search
   alone, for experiments. */
static PyObject *py_best_first(PyObject *self, PyObject *args) {
    PyObject *spec, *piles, *redeals, *weights;
    double time_limit;
    long long max_states, first = 5000, guide = 0;
    int cpu, grow = 2;
    if (!PyArg_ParseTuple(args, "OOOOdLp|LiL", &spec, &piles, &redeals, &weights, &time_limit,
                          &max_states, &cpu, &first, &grow, &guide))
        return NULL;
    /* weights: () for the built-in orderings, a tuple of KW_N ints, or a tuple of such tuples */
    if (!PyTuple_Check(weights)) {
        PyErr_SetString(PyExc_TypeError, "weights: a tuple");
        return NULL;
    }
    int nw = 0, w[KBEST_MAXUSER][KW_N];
    Py_ssize_t nt = PyTuple_GET_SIZE(weights);
    int nested = nt > 0 && PyTuple_Check(PyTuple_GET_ITEM(weights, 0));
    for (Py_ssize_t q = 0; q < (nested ? nt : nt ? 1 : 0); q++) {
        PyObject *one = nested ? PyTuple_GET_ITEM(weights, q) : weights;
        if (!PyTuple_Check(one) || PyTuple_GET_SIZE(one) != KW_N || nw >= KBEST_MAXUSER) {
            PyErr_SetString(PyExc_ValueError, "weights: tuples of KW_N ints");
            return NULL;
        }
        for (int i = 0; i < KW_N; i++) {
            long v = PyLong_AsLong(PyTuple_GET_ITEM(one, i));
            if (v == -1 && PyErr_Occurred()) return NULL;
            w[nw][i] = (int)v;
        }
        nw++;
    }
    Spec sp;
    Pos *p = spec_pos(spec, piles, redeals, &sp);
    if (!p) return NULL;
    Line won = {0};
    long long states = 0;
    int r = 0, err = 0;
    Py_BEGIN_ALLOW_THREADS
    budget_clock = cpu ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC;
    Ctx cx;
    memset(&cx, 0, sizeof cx);
    cx.buf = malloc(sizeof(Move) * (size_t)max_moves(&sp));
    if (!cx.buf || table_init(&cx.table, (size_t)1 << 22, (size_t)1 << 28)) err = 1;
    else {
        Budget b = {time_limit < 0 ? -1.0 : now() + time_limit, max_states};
        int lost = 0;
        if (guide > 0) {
            Budget gb = {b.deadline, guide};
            if (kbest_guide(p, &cx, &gb, &states, &lost) < 0) err = 1;
        }
        kbest_user = nw;
        if (nw) memcpy(kbest_w, w, sizeof w);
        kbest_first = first;
        kbest_grow = grow;
        /* the built-in weightings (nw 0) with these sizes too */
        long long first0 = tune_first;
        int grow0 = tune_grow;
        tune_first = first;
        tune_grow = grow;
        r = err || lost ? 0 : kbest_search(p, &cx, &b, &states, &won);
        tune_first = first0;
        tune_grow = grow0;
        kbest_user = 0;
        guide_nh = guide_ns = 0;
        if (r < 0) err = 1;
    }
    ctx_free(&cx);
    Py_END_ALLOW_THREADS
    free_pos(p);
    if (err) { free(won.v); return PyErr_NoMemory(); }
    PyObject *line = moves_list(won.v, r > 0 ? won.n : 0);
    free(won.v);
    if (!line) return NULL;
    return Py_BuildValue("(iNL)", r > 0 ? ST_WON : ST_UNKNOWN, line, states);
}

/* Experiments: a streamlined search of draw-three games alone (level 2 or 1, 0 none), in capped
   rounds at the flips (flip_cap) from cap0 positions, times grow each round, when cap0 > 0.
   (status, line, positions, rounds). A win or nothing. */
static PyObject *py_stream(PyObject *self, PyObject *args) {
    PyObject *spec, *piles, *redeals;
    double time_limit;
    long long max_states, cap0;
    int level, cpu, grow;
    if (!PyArg_ParseTuple(args, "OOOdLpiLi", &spec, &piles, &redeals, &time_limit, &max_states,
                          &cpu, &level, &cap0, &grow))
        return NULL;
    Spec sp;
    Pos *p = spec_pos(spec, piles, redeals, &sp);
    if (!p) return NULL;
    long long states = 0;
    int r = ST_UNKNOWN, err = 0, rounds = 0;
    Line won = {0};
    Py_BEGIN_ALLOW_THREADS
    budget_clock = cpu ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC;
    Ctx cx;
    if (ctx_open(&cx, &sp, time_limit, max_states)) err = 1;
    else {
        Budget b = {time_limit < 0 ? -1.0 : now() + time_limit, max_states};
        order_eval = level >= 10;
        r = stream_rounds(p, &cx, &b, &states, level % 10, cap0, grow, tableau_down(p, &sp),
                          &won, &rounds);
        order_eval = 0;
        if (cx.err) err = 1;
        /* streamlined: proves nothing; level 0 (the exact search's children, capped or not):
           a round that cut nothing saw the whole space, lost */
        if (r == ST_LOST && level % 10) r = ST_UNKNOWN;
    }
    ctx_free(&cx);
    Py_END_ALLOW_THREADS
    free_pos(p);
    if (err) { free(won.v); return PyErr_NoMemory(); }
    PyObject *line = moves_list(won.v, r == ST_WON ? won.n : 0);
    free(won.v);
    if (!line) return NULL;
    return Py_BuildValue("(iNLi)", r, line, states, rounds);
}

/* One exact search round alone (no win finder, no relaxation), with the draw-one covering rule
   (relax: exact only in a draw-one game turned over without limit) and the order bound at every
   position (bound: Klondike-type games) if asked for. For the tests and for measuring.
   (status, positions). */
static PyObject *py_exhaust(PyObject *self, PyObject *args) {
    PyObject *spec, *piles, *redeals;
    double time_limit;
    long long max_states;
    int relax, bound, cpu, home = 0;
    if (!PyArg_ParseTuple(args, "OOOdLppp|p", &spec, &piles, &redeals, &time_limit, &max_states,
                          &relax, &bound, &cpu, &home))
        return NULL;
    Spec sp;
    Pos *p = spec_pos(spec, piles, redeals, &sp);
    if (!p) return NULL;
    long long states = 0;
    int r = ST_UNKNOWN, err = 0;
    Py_BEGIN_ALLOW_THREADS
    budget_clock = cpu ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC;
    Ctx cx;
    if (ctx_open(&cx, &sp, time_limit, max_states)) err = 1;
    else if (is_won(p)) r = ST_WON;
    else {
        Budget b = {time_limit < 0 ? -1.0 : now() + time_limit, max_states};
        Line won = {0};
        int cut = 0;
        relax_cover = relax;
        relax_home = relax && home;
        relax_bound = bound && sp.order_bound;
        r = search_round(p, &cx, &b, &states, -1, 0, &cut, &won);
        relax_cover = 0;
        relax_home = 0;
        relax_bound = 0;
        free(won.v);
        if (cx.err) err = 1;
    }
    ctx_free(&cx);
    Py_END_ALLOW_THREADS
    free_pos(p);
    if (err) return PyErr_NoMemory();
    return Py_BuildValue("(iL)", r, states);
}

/* tune(first, grow, share, stop, level1, flip1, flip2, level3, level2, exact_cap), each also by
   keyword: the win finders' schedule for measurements and tests. Every argument left out (or -1,
   stop False) is the shipped setting, so tune() restores them all. */
static PyObject *py_tune(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *names[] = {"first", "grow", "share", "stop", "level1", "flip1", "flip2",
                            "level3", "level2", "exact_cap", NULL};
    long long first = -1, f1 = -1, f2 = -1, xcap = -1;
    int grow = -1, stop = 0;
    double share = -1.0, l1 = -1.0, l3 = -1.0, l2 = -1.0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|LidpdLLddL", names, &first, &grow, &share,
                                     &stop, &l1, &f1, &f2, &l3, &l2, &xcap))
        return NULL;
    tune_first = first >= 0 ? first : KBEST_FIRST;
    tune_grow = grow >= 0 ? grow : KBEST_GROW;
    tune_share = share;  /* < 0: KBEST_SHARE */
    tune_stop = stop;
    tune_l1 = l1;        /* < 0: the shipped deadlines of level 1 */
    tune_flip1 = f1 >= 0 ? f1 : FLIP_CAP0;
    tune_flip2 = f2 >= 0 ? f2 : FLIP_CAP0;
    tune_l3 = l3 >= 0 ? l3 : LEVEL3_SHARE;
    tune_l2 = l2 >= 0 ? l2 : LEVEL2_SHARE;
    tune_xcap = xcap >= 0 ? xcap : EXACT_CAP0;
    Py_RETURN_NONE;
}

/* tune_relax(end, least_progress, idle), each also by keyword: the draw-one relaxation's
   extension and idle stop, for measurements and tests. Left out or negative: the shipped
   setting (RELAX_EXT_END, RELAX_MIN_PROGRESS, RELAX_IDLE); 0 switches the extension or the idle
   stop off. */
static PyObject *py_tune_relax(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *names[] = {"end", "least_progress", "idle", NULL};
    double ext = -1.0, prog = -1.0;
    long long idle = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|ddL", names, &ext, &prog, &idle)) return NULL;
    relax_ext_end = ext >= 0 ? ext : RELAX_EXT_END;
    relax_min_progress = prog >= 0 ? prog : RELAX_MIN_PROGRESS;
    relax_idle = idle >= 0 ? idle : RELAX_IDLE;
    Py_RETURN_NONE;
}

static PyObject *py_last_phase(PyObject *self, PyObject *args) {
    (void)self; (void)args;
    return PyLong_FromLong(solve_phase);
}

static PyMethodDef methods[] = {
    {"exhaust", py_exhaust, METH_VARARGS, "One exact search round alone, with the covering rule"
     " and the order bound at every position if asked for: (status, positions)."},
    {"tune", (PyCFunction)(void (*)(void))py_tune, METH_VARARGS | METH_KEYWORDS,
     "For measurements and tests only: tune(first, grow, share, stop, level1, flip1, flip2,"
     " level3, level2, exact_cap), the draw-three win finders' schedule (the best-first search's"
     " first size and growth, 0: Luby sizes; its share; stop after the win finders; level 1's"
     " deadline; the flip caps; level 3's and level 2's deadlines; the exact search's first flip"
     " cap, 0: one round). Left out or -1: the shipped setting."},
    {"tune_relax", (PyCFunction)(void (*)(void))py_tune_relax, METH_VARARGS | METH_KEYWORDS,
     "For measurements and tests only: tune_relax(end, least_progress, idle) of the draw-one"
     " relaxation (RELAX_EXT_END, RELAX_MIN_PROGRESS, RELAX_IDLE); left out or negative: the"
     " shipped setting; 0 switches the extension or the idle stop off."},
    {"last_phase", py_last_phase, METH_NOARGS, "The phase of the last solve (this thread) that"
     " ran last: 0 root, 1 beam, 2 best-first, 3 level 2, 4 level 1, 5 relaxation, 6 reserve"
     " streamlined, 7 exact, 8 the wide beam (Leap Year), 9 level 3."},
    {"best_first", py_best_first, METH_VARARGS, "The Klondike best-first win finder alone."},
    {"stream", py_stream, METH_VARARGS, "Experiments: a draw-three streamlined search alone, in"
     " rounds capped at the flips: (status, line, positions, rounds)."},
    {"visible_plan", py_visible_plan, METH_VARARGS, "The honest planning search on a masked"
     " position: (best, root, line, positions)."},
    {"order_lost", py_order_lost, METH_VARARGS, "The order bound of Klondike-type games."},
    {"proven_lost", py_proven_lost, METH_VARARGS, "The rank bound of reserve-only games."},
    {"legal_moves", py_legal_moves, METH_VARARGS, "The legal raw moves of a position."},
    {"play", py_play, METH_VARARGS, "Play raw moves; the piles after, the redeals, the piles"
     " after taking them back, the key."},
    {"children", py_children, METH_VARARGS, "The search's children of a position, with scores."},
    {"wide_beam_cut", py_wide_beam_cut, METH_NOARGS, "Experiments: the dealt positions the"
     " rank bound left out of this thread's last wide beam."},
    {"wide_beam", py_wide_beam, METH_VARARGS, "Experiments and tests: the reserve games' wide"
     " beam alone, one setting: (status, line, states)."},
    {"restarts", py_restarts, METH_VARARGS, "Experiments: the reserve streamlined search's"
     " restarts alone: (status, line, states, try)."},
    {"solve", py_solve, METH_VARARGS, "Full-information search: (status, line, states)."},
    {"is_stuck", py_is_stuck, METH_VARARGS, "The clear-end test."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core",
                                    "The solver's core in C (see core.py).", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__core(void) {
    init_zobrist();
    return PyModule_Create(&module);
}
