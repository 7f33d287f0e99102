/* Part of _core.c (one translation unit: _core.c includes the parts in order):
   the best-first search of Klondike-type games and its restarts (a win finder). */

/* Draw-three waste games (Klondike draw 3, Athena) have no deal onto the tableau to cut a beam
   into stages: a plain best-first search over the exact search's children (stock macros
   included), ranked by an evaluation of the position, up to a number of new positions, looks
   for a win. It proves nothing: it answers won (a line the engine replays) or nothing. Tries
   of several weightings (kbest_orders) and growing sizes, see kbest_search. */

enum { KW_HOME, KW_DOWN, KW_BLOCK, KW_STOCK, KW_REACH, KW_PLAY, KW_SPACE, KW_KING, KW_DEPTH,
       KW_NOISE, KW_N };

/* The evaluation: cards home, face-down cards, cards lying above a lower card of their own
   suit (it waits for them to move on the tableau), cards in the stock and waste, and those that
   clicks alone bring to the waste's top in the current cycle (and of them those that can be
   played now), empty piles, Kings at the bottom of a pile. */
static int evaluate_klondike(const Pos *p, const int *w) {
    const Spec *sp = p->sp;
    int e = w[KW_HOME] * p->fcards;
    int blocked = 0, spaces = 0;
    int tops[MAXP], nt = 0;
    for (int i = sp->t0; i < sp->t0 + sp->nt; i++) {
        int n = p->len[i];
        const uint8_t *c = p->c[i];
        if (!n) { spaces++; e += w[KW_SPACE]; continue; }
        tops[nt++] = c[n - 1];
        int fd = 0;
        while (fd < n && !(c[fd] & UPF)) fd++;
        e -= w[KW_DOWN] * fd;
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
                int ok = can_go_home(p, c);
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
} KStage;

/* Among equal priorities, by a hash of the position (salted per try), then newest first. */
static inline int kheap_better(const KStage *st, int a, int b) {
    if (st->v[a].prio != st->v[b].prio) return st->v[a].prio > st->v[b].prio;
    if (st->v[a].tie != st->v[b].tie) return st->v[a].tie > st->v[b].tie;
    return a > b;
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
                     long long max_nodes, const Budget *bud, long long *states, Line *won,
                     int *all) {
    KStage st;
    memset(&st, 0, sizeof st);
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
    while (st.hn && visited < max_nodes) {
        int nd = kheap_pop(&st);
        snap_read(p, st.store + st.v[nd].snap);
        int depth = st.v[nd].depth + 1;
        Last last = {0, {0, 0, 0}, 0};
        cx->kids.n = 0;
        if (children(p, &cx->mode, &last, &cx->kids, cx->buf)) { result = -1; goto end; }
        int nk = cx->kids.n;
        for (int c = 0; c < nk; c++) {
            Child ch = cx->kids.v[c];
            Move click = {-1, -1, 0};
            int steps = 0, bad = 0;
            for (int q = 0; q < ch.clicks && !bad; q++, steps++) bad = push_move(p, click);
            if (!bad) { bad = push_move(p, ch.m); steps++; }
            if (bad) { result = -1; goto end; }
            if (won_after_move(p)) {
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
                int child = knode_add(&st, p, nd, ch.clicks, ch.m, prio, (uint32_t)h, depth);
                if (child < 0 || kheap_push(&st, child)) { result = -1; goto end; }
            }
            for (int q = 0; q < steps; q++) pop_move(p);
            if (added < 0) goto end;
        }
        if (!(visited & 63) && spent(bud, *states)) goto end;
    }
    if (!st.hn) *all = 1;
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
    /* home down block stock reach play space king depth noise */
    {20, 8, 4, 1, 1, 2, 6, 3, 0, 16},
    {20, 8, 4, 1, 1, 2, 6, 3, 0, 40},
    {20, 8, 4, 1, 1, 2, 6, 3, 0, 100},
    {10, 10, 6, 2, 2, 2, 4, 4, 0, 20},
    {20, 8, 4, 0, 0, 0, 6, 3, 0, 40},
    {20, 8, 0, 1, 1, 2, 6, 3, 1, 40},
};
#define KBEST_NORDERS ((int)(sizeof kbest_orders / sizeof kbest_orders[0]))

/* The Luby sequence (1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...), i from 1: the restarts' sizes. */
static long long luby(long long i) {
    for (;;) {
        long long k = 1;
        while (((long long)1 << k) - 1 < i) k++;
        if (((long long)1 << k) - 1 == i) return (long long)1 << (k - 1);
        i -= ((long long)1 << (k - 1)) - 1;
    }
}

/* The first try's size; a round of the weightings has KBEST_FIRST times luby(round) positions
   a try. Restarts of Luby sizes rather than doubling sizes: on Klondike draw 3 deals 1001-1400
   they won the same hard deals, most of the later ones in fewer positions. */
#define KBEST_FIRST 5000

/* The best-first search: tries of the weightings in turn, KBEST_FIRST times luby(round)
   positions each, until a win or the budget's end; it stops when every weighting of a round
   saw all its children allow (a larger try would see the same). The tries' salts run from
   salt0 (solve_pos's second run takes other salts than its first). */
static int kbest_search(Pos *root, Ctx *cx, uint64_t salt0, const Budget *bud, long long *states,
                        Line *won) {
    long long size = KBEST_FIRST;
    long long round = 1;
    int alls = 0;
    /* a table of its own, sized for a try (room for its positions, half full): the solver's
       table is sized for its whole budget (up to 2^24 slots), and clearing it for every try
       costs fresh pages over all of it */
    Table tab = {0};
    for (int t = 0; !spent(bud, *states); t++) {
        int k = t % KBEST_NORDERS;
        int all = 0;
        size_t cap = (size_t)1 << 12;
        while ((long long)cap < 4 * (size + 1024) && cap < cx->table.max_cap) cap *= 2;
        if (cap != tab.cap) {
            table_free(&tab);
            if (table_init(&tab, cap, cx->table.max_cap)) return -1;
        }
        int r = kbest_try(root, cx, &tab, kbest_orders[k],
                          0x9e3779b97f4a7c15ULL * (salt0 + (uint64_t)t + 1), size, bud, states,
                          won, &all);
        if (r) { table_free(&tab); return r; }
        alls += all;
        if (k == KBEST_NORDERS - 1) {
            if (alls == KBEST_NORDERS) break;  /* every weighting saw all its children allow */
            alls = 0;
            size = KBEST_FIRST * luby(++round);
        }
    }
    table_free(&tab);
    return 0;
}

/* The streamlined searches' first cap below a card turned up (levels 1 and 2, where the
   best-first search runs), times FLIP_GROW a round, see solve_pos. */
#define FLIP_CAP0 300
#define FLIP_GROW 4
/* Level 2's deadline (of the budget, from the start) when the best-first search runs (a
   quarter when it does not: the honest player's samples). */
#define LEVEL2_SHARE 0.15
