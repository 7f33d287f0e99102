/* Part of _core.c (one translation unit: _core.c includes the parts in order):
   the depth-first search (search_round) and the draw-one guide. */

/* The relaxation's part with the order bound at every position (solve_pos) stops when the bound
   has cut nothing in its first RELAX_IDLE positions (Ctx.idle_stop): where the bound pays, it
   cuts within the first few thousand positions (its first cut came at 6 to 13,132 positions in
   the draw-one twins of Klondike draw 3 deals 1067, 1118, 1134, 1143 and 1175); the covering
   rule alone then gets the rest of the relaxation's share. */
#define RELAX_IDLE 100000

/* One depth-first round (search.py _search) under the rules of cx->mode. Returns the status;
   *cut set when the cap cut. */
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
    const Mode *md = &cx->mode;
    if (children(p, md, &last, &cx->kids, cx->buf)) goto oom;
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
        if (won_after_move(p)) {
            status = ST_WON;
            if (current_line(p, depth0, won_line)) goto oom;
            break;
        }
        Key key = pos_key(p);
        if (md->relax_cover && ch.m.s == p->sp->waste && p->sp->kind[ch.m.d] == K_TABLEAU) {
            /* to be covered at once: apart from the same position reached otherwise */
            uint64_t c = (uint64_t)(top(p, ch.m.d) & 63);
            key.a ^= mix1(c + 0x636f766572ULL);
            key.b ^= mix2(c + 0x636f766572ULL);
            key.a |= 1;
        } else if (md->relax_home) {
            Last due = {1, ch.m, 0};
            if (home_due(p, md, &due) >= 0) {
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
            (spent(bud, *states) ||
             (cx->idle_stop > 0 && !cx->bound_cuts && *states - states0 >= cx->idle_stop))) {
            /* the budget spent, or, in the relaxation's part with the order bound, the bound cut
               nothing in its first idle_stop positions */
            for (int q = 0; q < steps; q++) pop_move(p);
            status = ST_UNKNOWN;
            break;
        }
        if (md->relax_bound && p->sp->kind[ch.m.d] == K_TABLEAU && ch.m.s >= 0 &&
            p->sp->kind[ch.m.s] != K_FOUNDATION && order_lost(p)) {
            cx->bound_cuts++;
            /* no order of play wins from here (tried after a move onto the tableau from the
               stock or the tableau only: the moves that the bound's cuts followed, measured) */
            for (int q = 0; q < steps; q++) pop_move(p);
            continue;
        }
        if (p->sp->reserve_only && proven_lost(p)) {  /* no order of play wins from here */
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
        if (children(p, md, &last, &cx->kids, cx->buf)) goto oom;
        nf = &cx->frames.f[cx->frames.n - 1];
        nf->nkids = cx->kids.n - nf->kid0;
        if (cap >= 0) {
            if (md->flip_cap ? p->ops[p->nops - 1].op == OP_FLIP : ch.m.s < 0 && ch.clicks == 0) {
                long long left = md->flip_cap
                                     ? 1 + (long long)tableau_down(p, p->sp) * 8 / md->flip_cap
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
   cycle (see solve_pos). */
static Spec draw_one_spec(const Spec *sp) {
    Spec one = *sp;
    one.draw = 1;
    one.waste_safe = 1;
    one.stock_turns = 0;
    one.stock_cycle = sp->packs == 1;
    return one;
}
