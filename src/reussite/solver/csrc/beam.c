/* Part of _core.c (one translation unit: _core.c includes the parts in order):
   the beam of Spider-type and reserve games (a win finder). */

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

static int stage_node(Stage *st, const BeamOrder *o, Pos *p, int parent, int seed, Move m,
                      int score) {
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
    nd->tie = o->hash_ties ? (uint32_t)mix1(pos_key(p).a ^ o->salt) : 0;
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
        int nd = stage_node(&st, &cx->order, p, -1, i, (Move){0, 0, 0}, evaluate(p, &cx->order));
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
        if (children(p, &cx->mode, &last, &cx->kids, cx->buf)) { result = -1; goto end; }
        int nk = cx->kids.n;
        for (int c = 0; c < nk; c++) {
            Move m = cx->kids.v[c].m;
            if (m.s < 0) continue; /* the deal ends the stage */
            if (beam_skip(p, m)) continue;
            if (push_move(p, m)) { result = -1; goto end; }
            if (won_after_move(p)) {
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
                int child = stage_node(&st, &cx->order, p, nd, st.v[nd].seed, m,
                                       evaluate(p, &cx->order));
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
        Budget b = {bud->deadline, *states + reach / cur->n, bud->clock};
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
            if (won_after_move(p)) {
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
        /* the reserve games' second ordering weighs a card above a lower one 10, not 3 */
        cx->order = (BeamOrder){t % 3 == 1, t % 3 == 2, 0x9e3779b97f4a7c15ULL * (uint64_t)(t + 1),
                                t % 3 == 1 ? 10 : 3};
        int r = beam_try(root, cx, width, reach, bud, states, won);
        if (r) return r;
        if (!cx->cut) return 0; /* it saw all it could: a wider one would see the same */
        if (t % 3 == 2) { reach *= 2; size++; }
    }
    return 0;
}
