/* Part of _core.c (one translation unit: _core.c includes the parts in order):
   solve_pos: the phases in order; the clear-end test. */

static int solve_run(Pos *p, double time_limit, long long max_states, int best_line,
                     size_t max_table, int ordering, int streamlined, int best_first,
                     Result *res);

/* The full-information search (the phases below, solve_run). A search asked for its best line
   (the honest player's samples) keeps the idle splits and descents: the honest player was
   measured and tuned with those searches, and with the rule in them it won no more (docs/
   solver-figures.md, "idle splits and descents"). */
static int solve_pos(Pos *p, double time_limit, long long max_states, int best_line,
                     size_t max_table, int ordering, int streamlined, int best_first,
                     Result *res) {
    int was = idle_off;
    idle_off = best_line;
    int rc = solve_run(p, time_limit, max_states, best_line, max_table, ordering, streamlined,
                       best_first, res);
    idle_off = was;
    return rc;
}

static int solve_run(Pos *p, double time_limit, long long max_states, int best_line,
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
    /* Klondike-type games: the card-set search (abstract.c), first up to CARDSET_FIRST of the
       budget, resumed after the win finders up to CARDSET_END; it answers lost (a proof) or won
       (a line of real moves); a win of its picture that gave no such line still skips the
       relaxation (a loss proof too). Not when the best line is asked for (tune_cardset_lines:
       experiments). */
    int cardset = ordering && (!best_line || tune_cardset_lines) && tune_cardset;
    int cardset_won = 0;
    AbRun abrun;
    memset(&abrun, 0, sizeof abrun);
    if (cardset) {
        int r = cardset_phase(&abrun, p, start, time_limit, max_states, tune_cardset_first,
                              max_table, &total, &won, &cardset_won);
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
    if (cardset && !cardset_won) {
        int r = cardset_phase(&abrun, p, start, time_limit, max_states, tune_cardset_end,
                              max_table, &total, &won, &cardset_won);
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
    abrun_free(&abrun);
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
