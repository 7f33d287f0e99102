/* Part of _core.c (one translation unit: _core.c includes the parts in order):
   solve_pos: the phases in order; the clear-end test. */

/* The full-information search: the phases below in order, under the settings `set` (SHIPPED
   in the product). A search asked for its best line (the honest player's samples) keeps the
   idle splits and descents: the honest player was tuned with those searches, and with the
   rule in them it won no more. res->phase: the phase that ran last. */
static int solve_pos(Pos *p, const Settings *set, clockid_t clk, double time_limit,
                     long long max_states, int best_line, size_t max_table, int ordering,
                     int streamlined, Result *res) {
    const Spec *sp = p->sp;
    double start = now(clk);
    Ctx cx;
    memset(&cx, 0, sizeof cx);
    cx.set = set;
    cx.mode.idle = set->idle && !best_line;
    /* the beam plans across the stock's deals: not where the stock holds a single row
       (Scorpion's three cards), which the exact search alone decides sooner */
    cx.beam = ordering && ((sp->deals_to_tableau && sp->nt > 0 && sp->stock_rows > 1) ||
                           (sp->reserve_only && sp->redeal != R_GATHER && !best_line)) &&
              (max_states < 0 || max_states >= BEAM_MIN_STATES);
    res->states = 0;
    res->line.n = 0;
    res->phase = PH_ROOT;
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
    Budget whole = {time_limit < 0 ? -1.0 : start + time_limit, max_states, clk};
    Budget first = {time_limit < 0 ? -1.0 : start + time_limit / 3,
                    max_states < 0 ? -1 : max_states / 3, clk};
    Line won = {0}, bestall = {0};
    long long total = 0;
    int status = ST_UNKNOWN;
    /* Klondike-type games: the card-set search (abstract.c), first up to CARDSET_FIRST of the
       budget, resumed after the win finders up to CARDSET_END; it answers lost (a proof) or won
       (a line of real moves); a win of its picture that gave no such line still skips the
       relaxation (a loss proof too). Not when the best line is asked for (the honest player's
       samples and the hints search as they were tuned). */
    int cardset = ordering && !best_line && set->cardset;
    int cardset_won = 0;
    AbRun abrun;
    memset(&abrun, 0, sizeof abrun);
    if (cardset) {
        int r = cardset_phase(&abrun, p, set->cardset_safe, clk, start, time_limit, max_states,
                              CARDSET_FIRST, max_table, &total, &won, &cardset_won, &cx.phase);
        if (r < 0) cardset = 0;  /* not for this game or position */
        else if (r != ST_UNKNOWN) { status = r; goto done; }
    }
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
                           max_states < 0 ? -1 : (long long)((double)max_states * WIDE_SHARE), clk};
            cx.phase = PH_WIDE;
            for (int t = 0; t < (int)(sizeof WIDE_SETTINGS / sizeof WIDE_SETTINGS[0]); t++) {
                const int *ws = WIDE_SETTINGS[t];
                int r = wide_beam(p, &wide, &total, &won, ws[0], ws[1], ws[2], ws[3], NULL);
                if (r < 0) { cx.err = 1; goto done; }
                if (r > 0) { status = ST_WON; goto done; }
                if (spent(&wide, total)) break;
            }
            beam_end = RESERVE_BEAM_END;
        }
        Budget half = {time_limit < 0 ? -1.0 : start + time_limit * beam_end,
                       max_states < 0 ? -1 : (long long)((double)max_states * beam_end), clk};
        cx.phase = PH_BEAM;
        int r = beam_search(p, &cx, best_line ? &first : sp->reserve_only ? &half : &whole,
                            &total, &won);
        if (r < 0) cx.err = 1;
        if (r > 0) { status = ST_WON; goto done; }
        first.deadline = time_limit < 0 ? -1.0 : now(clk) + (start + time_limit - now(clk)) / 3;
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
    int do_kbest = ordering && set->kbest && !best_line && sp->waste >= 0 && sp->draw > 1 &&
                   sp->safe_foundation && sp->stock_turns;
    if (do_kbest && !(ordering && streamlined && sp->waste >= 0 && sp->draw > 1 &&
                      sp->safe_foundation)) {
        int r = kbest_phase(p, &cx, clk, time_limit, max_states, &total, &won);
        do_kbest = 0;
        if (r < 0) { cx.err = 1; goto done; }
        if (r > 0) { status = ST_WON; goto done; }
    }
    if (ordering && streamlined && sp->waste >= 0 && sp->draw > 1 && sp->safe_foundation) {
        /* Draw three (Klondike draw 3, Athena): streamlined searches look for a win with up to
           half the budget (children(): level 2, then level 1). Not exact, so they answer a win
           (a line the engine replays) or nothing; the exact search then runs on what is left.
           By default (streamlined < 0) not when the best line is asked for; the honest player
           asks for them explicitly (streamlined 1). Where the best-first search runs
           (kbest_ran): in rounds capped at the flips (stream_rounds, from FLIP_CAP0), level 2
           to LEVEL2_SHARE, level 1 to LEVEL1_SHARE; otherwise (the honest player's samples) one
           round each, level 2 to a quarter, level 1 to half. */
        int kbest_ran = do_kbest;
        int fd0 = tableau_down(p, sp);  /* the root's (the flip caps' scale) */
        double l1_share = kbest_ran ? LEVEL1_SHARE : 0.5;
        for (int level = 2; level >= 1; level--) {
            double share = level == 2 ? (kbest_ran ? LEVEL2_SHARE : 0.25) : l1_share;
            if (level == 1 && do_kbest) {
                int r = kbest_phase(p, &cx, clk, time_limit, max_states, &total, &won);
                do_kbest = 0;
                if (r < 0) { cx.err = 1; goto done; }
                if (r > 0) { status = ST_WON; goto done; }
            }
            Budget part = {time_limit < 0 ? -1.0 : start + time_limit * share,
                           max_states < 0 ? -1 : (long long)((double)max_states * share), clk};
            cx.phase = level == 2 ? PH_LEVEL2 : PH_LEVEL1;
            int r = stream_rounds(p, &cx, &part, &total, level, kbest_ran ? FLIP_CAP0 : 0,
                                  FLIP_GROW, fd0, &won, NULL);
            if (cx.err) goto done;
            if (r == ST_WON) { status = ST_WON; goto done; }
            if (level == 1 && r == ST_UNKNOWN && kbest_ran) {
                /* level 1 ran to its deadline: the best-first search again (other restarts:
                   its salts from 1000) up to half of the budget, where level 1 would have
                   gone on */
                Budget rest = {time_limit < 0 ? -1.0 : start + time_limit * 0.5,
                               max_states < 0 ? -1 : (long long)((double)max_states * 0.5), clk};
                cx.phase = PH_KBEST;
                int rk = kbest_search(p, &cx, 1000, &rest, &total, &won);
                if (rk < 0) { cx.err = 1; goto done; }
                if (rk > 0) { status = ST_WON; goto done; }
            }
        }
    }
    if (cardset && !cardset_won) {
        int r = cardset_phase(&abrun, p, set->cardset_safe, clk, start, time_limit, max_states,
                              CARDSET_END, max_table, &total, &won, &cardset_won, &cx.phase);
        if (r != ST_UNKNOWN) { status = r; goto done; }
    }
    if (ordering && !best_line && sp->stock_turns && sp->waste >= 0 && !sp->not_while_empty &&
        !cardset_won) {
        /* Draw three, turned over without limit (Klondike draw 3, Athena): the same position
           played drawing one card at a time is a relaxation (every card of the stock and waste
           can be brought to the waste's top by clicks alone, so every line of draw three is a
           line of draw one, clicks aside). Its exact search proves some deals lost in far fewer
           positions (no grouping of the stock by threes): lost there is lost here. A win there
           proves nothing (the exact search runs on what is left). Up to RELAX_SHARE of the
           budget, after the streamlined searches (which keep their shares: the wins they find
           late in them stay found). */
        Spec one = draw_one_spec(sp);
        int cut = 0;
        Line ignored = {0};
        cx.phase = PH_RELAX;
        p->sp = &one;
        /* first a short probe without the covering rule, which finds a draw-one win sooner
           (the rule's search tries fewer stock cards early): when draw one wins, the relaxation
           cannot prove anything, and the exact search gets the rest */
        Budget probe = {time_limit < 0 ? -1.0 : now(clk) + time_limit * RELAX_PROBE,
                        max_states < 0 ? -1 : total + (long long)((double)max_states * RELAX_PROBE),
                        clk};
        int r = search_round(p, &cx, &probe, &total, -1, 0, &cut, &ignored);
        if (r == ST_UNKNOWN && !cx.err) {
            Budget part = {time_limit < 0 ? -1.0 : now(clk) + time_limit * RELAX_SHARE,
                           max_states < 0 ? -1 : total + (long long)((double)max_states * RELAX_SHARE),
                           clk};
            cx.mode.relax_cover = 1;
            cx.mode.relax_home = 1;
            if (sp->order_bound) {
                /* first with the order bound at every position: slower (some 3 times fewer
                   positions a second) but it cuts whole subtrees off in some deals */
                Budget bpart = {time_limit < 0 ? -1.0 : now(clk) + time_limit * RELAX_BOUND,
                                max_states < 0 ? -1 : total + (long long)((double)max_states * RELAX_BOUND),
                                clk};
                cx.mode.relax_bound = 1;
                cx.bound_cuts = 0;
                cx.idle_stop = RELAX_IDLE;
                r = search_round(p, &cx, &bpart, &total, -1, 0, &cut, &ignored);
                cx.idle_stop = 0;
                cx.mode.relax_bound = 0;
            }
            if (r == ST_UNKNOWN && !cx.err)
                r = search_round(p, &cx, &part, &total, -1, 0, &cut, &ignored);
            cx.mode.relax_cover = 0;
            cx.mode.relax_home = 0;
        }
        p->sp = sp;
        free(ignored.v);
        if (cx.err) goto done;
        if (r == ST_LOST) { status = ST_LOST; goto done; }
    }
    if (ordering && !best_line && sp->reserve_only && sp->redeal != R_GATHER) {
        /* Leap Year, Auld Lang Syne: a streamlined search (no deal while a card can go home)
           looks for a win after the beam, up to RESERVE_STREAM_END of the budget (half
           without the beam), in restarts of RESTART_SIZE positions (reserve_restarts); not
           exact, so it answers a win (a line the engine replays) or nothing, and the exact
           search runs on what is left. */
        double share = cx.beam ? RESERVE_STREAM_END : 0.5;
        Budget end = {time_limit < 0 ? -1.0 : start + time_limit * share,
                      max_states < 0 ? -1 : (long long)((double)max_states * share), clk};
        cx.phase = PH_RESERVE;
        long long which;
        int r = reserve_restarts(p, &cx, &end, &total, RESTART_SIZE, 0, -1, &won, &which);
        if (cx.err) goto done;
        if (r == ST_WON) { status = ST_WON; goto done; }
        first.deadline = time_limit < 0 ? -1.0 : now(clk) + (start + time_limit - now(clk)) / 3;
        if (max_states >= 0) first.max_states = total + (max_states - total) / 3;
    }
    /* The exact search: where the stock deals onto piles, a first plain round on a third of the
       budget, then rounds capped at the deals (FIRST_DEAL_CAP, times 4 a round) until one cuts
       nothing off (that round saw everything: lost is proved there) */
    int nrounds = sp->deals_to_piles ? 2 : 1;
    cx.phase = PH_EXACT;
    for (int r = 0; r < nrounds && !cx.err; r++) {
        const Budget *b = (nrounds == 2 && r == 0) ? &first : &whole;
        long long cap = (nrounds == 2 && r == 1) ? FIRST_DEAL_CAP : -1;
        for (;;) {
            int cut = 0;
            status = search_round(p, &cx, b, &total, cap, best_line, &cut, &won);
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
    abrun_free(&abrun);
    res->status = cx.err ? ST_UNKNOWN : status;
    res->states = total;
    res->phase = cx.phase;
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
    int home = home_cards(p);
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
        int changed = home_cards(p) > home || is_won(p);
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
