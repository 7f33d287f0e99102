/* Part of _core.c (one translation unit: _core.c includes the parts in order):
   the depth-first search (search_round) and the draw-one guide. */

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

/* The rules of the draw-one relaxation of a draw-three game: the same piles drawing one card at a
   time, so the safe moves from a draw-one waste apply and the stock with the waste is one
   cycle (docs/solver.md, "The draw-one relaxation"). */
static Spec draw_one_spec(const Spec *sp) {
    Spec one = *sp;
    one.draw = 1;
    one.waste_safe = 1;
    one.stock_turns = 0;
    one.stock_cycle = sp->packs == 1;
    return one;
}

/* The best-first search's guide (guide_bonus): the exact search of the same position drawing one
   card at a time (the draw-one relaxation's probe, solve_pos), on `bud`; when it wins, its line
   gives the orders. 1 when it won (guide set), 0 not (guide cleared), -1 memory error. *lost set
   when the draw-one search saw everything (then the position is lost: see the relaxation). */
static int kbest_guide(Pos *p, Ctx *cx, const Budget *bud, long long *states, int *lost) {
    const Spec *sp = p->sp;
    Spec one = draw_one_spec(sp);
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
