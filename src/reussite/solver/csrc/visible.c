/* Part of _core.c (one translation unit: _core.c includes the parts in order):
   the visible planning of the honest player (masked positions). */

/* The planning of the honest player of Spider-type games (honest_visible.py). The position it
 * gets is *masked*: every face-down card, and every card of the stock, is given as 0, so
 * nothing here can read a hidden card. A best-first search over the legal moves (never a
 * deal: what a deal brings is unseen) keeps the position of highest evaluation (v_eval,
 * visible information only). A card turned up by a move is an *unknown* (0 turned face up,
 * rank 0): nothing fits on it and it never moves, so every line found can be played in the
 * real game whatever the hidden cards are, and is worth at least what was found (the card
 * seen may allow more, never less). */

enum { VW_DOWN, VW_COL, VW_EMPTY, VW_SUIT, VW_RANK, VW_BREAK, VW_CELL, VW_CELL2, VW_HOME,
       VW_REACH, VW_UNK, VW_RUN, VW_KCELL, VW_KHIGH, VW_N };

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
        if (down) e -= w[VW_DOWN] * down + w[VW_COL] + w[VW_REACH] * units;
        /* a King above other cards can leave them only for an empty pile */
        if (w[VW_KHIGH])
            for (int k = 1; k < n; k++)
                if ((c[k] & UPF) && RANK(c[k]) == 13) e -= w[VW_KHIGH];
        if (v_unknown(c[n - 1])) e += w[VW_UNK];
    }
    int cells = 0;
    for (int i = sp->c0; i < sp->c0 + sp->nc; i++) {
        cells += p->len[i] > 0;
        /* a King in a cell can go back only to an empty pile */
        if (p->len[i] && RANK(p->c[i][0]) == 13) e -= w[VW_KCELL];
    }
    e -= w[VW_CELL] * cells + w[VW_CELL2] * cells * cells;
    if (predeal && sp->not_while_empty && p->len[0]) e -= 100000 * empty;
    else e += w[VW_EMPTY] * empty;
    return e;
}

/* The key of a masked position: its piles of each kind interchangeable (the search sees every
 * hidden card as the same 0, and the evaluation treats piles alike). */
static Key v_key(const Pos *p) {
    const Spec *sp = p->sp;
    Key k = {0, 0};
    addk(&k, (uint64_t)p->len[0], (uint64_t)p->len[0], 1004);
    for (int i = sp->c0; i < sp->c0 + sp->nc; i++) addk(&k, p->h1[i], p->h2[i], 1005);
    for (int i = sp->t0; i < sp->t0 + sp->nt; i++)
        addk(&k, p->h1[i], p->h2[i], sp->has_covers ? 3000 + (uint64_t)i : 1006);
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

typedef struct { int parent, eval; Move m; size_t snap; } VNode;

typedef struct {
    VNode *v; int n, cap;
    int *heap; int hn, hcap;
    uint8_t *snaps; size_t sn, scap;
} VSearch;

static void vs_free(VSearch *s) { free(s->v); free(s->heap); free(s->snaps); }

static inline int v_better(const VSearch *s, int a, int b) {
    if (s->v[a].eval != s->v[b].eval) return s->v[a].eval > s->v[b].eval;
    return a < b;
}

INDEX_HEAP(v_heap_push, v_heap_pop, VSearch, v_better)

static int v_add(VSearch *s, const Pos *p, int parent, Move m, int eval) {
    if (s->n >= s->cap) {
        VNode *v = grow_to(s->v, &s->cap, s->n + 1, sizeof *v, 4096);
        if (!v) return -1;
        s->v = v;
    }
    size_t at;
    if (snap_append(&s->snaps, &s->sn, &s->scap, p, &at)) return -1;
    VNode *nd = &s->v[s->n];
    nd->parent = parent; nd->m = m; nd->eval = eval;
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

/* The best line from p (masked) within max_nodes positions: its moves into *out, the best and
 * the root's evaluations, the positions seen. A card turned up is an unknown face-up card (0)
 * and the search goes on past it: nothing fits on it and it does not move, so a line found is
 * playable whatever the card is. 0, or -1 when memory ran out. */
static int visible_plan(Pos *p, const int *w, int predeal, long long max_nodes, Line *out,
                        int *best_eval, int *root_eval, long long *seen) {
    VSearch s;
    memset(&s, 0, sizeof s);
    Table t;
    Move *buf = malloc(sizeof(Move) * (size_t)max_moves(p->sp));
    if (!buf || table_init(&t, 1 << 16, (size_t)1 << 26)) { free(buf); return -1; }
    int rc = 0;
    int e0 = v_eval(p, w, predeal);
    Move none = {0, 0, 0};
    if (v_add(&s, p, -1, none, e0) < 0 || v_heap_push(&s, 0)) { rc = -1; goto done; }
    table_add(&t, v_key(p));
    int best = 0;
    long long count = 1;
    while (s.hn && count < max_nodes) {
        int nd = v_heap_pop(&s);
        snap_read(p, s.snaps + s.v[nd].snap);
        int nm = raw_moves(p, buf);
        for (int k = 0; k < nm && count < max_nodes; k++) {
            Move m = buf[k];
            if (v_skip(p, m)) continue;
            if (push_move(p, m)) { rc = -1; goto done; }
            int r = table_add(&t, v_key(p));
            if (r < 0) { pop_move(p); goto finish; }
            if (r == 1) {
                count++;
                int e = v_eval(p, w, predeal);
                int id = v_add(&s, p, nd, m, e);
                if (id < 0) { pop_move(p); rc = -1; goto done; }
                if (e > s.v[best].eval) best = id;
                if (v_heap_push(&s, id)) { pop_move(p); rc = -1; goto done; }
            }
            pop_move(p);
        }
    }
finish:
    if (v_line(&s, best, out)) { rc = -1; goto done; }
    *best_eval = s.v[best].eval;
    *root_eval = e0;
    *seen = count;
done:
    free(buf);
    table_free(&t);
    vs_free(&s);
    return rc;
}
