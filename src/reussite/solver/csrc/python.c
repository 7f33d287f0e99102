/* Part of _core.c (one translation unit: _core.c includes the parts in order):
   the module's Python functions (glue: arguments and results). The product calls solve,
   is_stuck and visible_plan; the functions named testing_* are test hooks: they run one part of
   the search alone, or compare a part with search.py, for tests/solver. */

/* Settings from Python: None (SHIPPED) or a tuple (cardset, cardset_safe, kbest, idle) of ints
   (a test hook's, for one call). 0, or -1 with an exception set. */
static int parse_settings(PyObject *o, Settings *set) {
    *set = SHIPPED;
    if (o == Py_None) return 0;
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 4) {
        PyErr_SetString(PyExc_ValueError, "settings: None or a tuple of 4 ints");
        return -1;
    }
    int *fields[] = {&set->cardset, &set->cardset_safe, &set->kbest, &set->idle};
    for (int i = 0; i < 4; i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(o, i));
        if (v == -1 && PyErr_Occurred()) return -1;
        *fields[i] = v != 0;
    }
    return 0;
}

static int parse_spec(PyObject *o, Spec *sp) {
    /* (npiles, waste, f0, nf, c0, nc, r0, nr, t0, nt, build, unit, space_king, space_none,
        limited, ftakes, gives_back, between, auto_collect, res_to_tab, action, draw,
        not_while_empty, skip_empty, redeal, redeals, total, stock_rows, waste_takes, goal,
        copies(64 ints), covers(a mask of piles per tableau pile, or none)) */
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 32) {
        PyErr_SetString(PyExc_ValueError, "spec: a tuple of 32 items");
        return -1;
    }
    int *fields[] = {&sp->npiles, &sp->waste, &sp->f0, &sp->nf, &sp->c0, &sp->nc, &sp->r0,
                     &sp->nr, &sp->t0, &sp->nt, &sp->build, &sp->unit, &sp->space_king,
                     &sp->space_none, &sp->limited,
                     &sp->ftakes, &sp->gives_back, &sp->between, &sp->auto_collect,
                     &sp->res_to_tab, &sp->action, &sp->draw, &sp->not_while_empty,
                     &sp->skip_empty, &sp->redeal, &sp->redeals, &sp->total, &sp->stock_rows,
                     &sp->waste_takes, &sp->goal};
    for (int i = 0; i < 30; i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(o, i));
        if (v == -1 && PyErr_Occurred()) return -1;
        *fields[i] = (int)v;
    }
    sp->unit_suit = sp->unit == U_SUIT;
    PyObject *cp = PyTuple_GET_ITEM(o, 30);
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
    PyObject *cv = PyTuple_GET_ITEM(o, 31);
    if (!PyTuple_Check(cv) || (PyTuple_GET_SIZE(cv) != 0 && PyTuple_GET_SIZE(cv) != sp->nt)) {
        PyErr_SetString(PyExc_ValueError, "spec: covers is a tuple of a mask per tableau pile");
        return -1;
    }
    sp->has_covers = PyTuple_GET_SIZE(cv) > 0;
    for (int i = 0; i < MAXP; i++) sp->covered_by[i] = sp->covering[i] = 0;
    for (int t = 0; t < PyTuple_GET_SIZE(cv); t++) {
        unsigned long long v = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(cv, t));
        if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
        int i = sp->t0 + t;
        sp->covered_by[i] = (uint64_t)v;
        for (int j = 0; j < sp->npiles; j++)
            if (v >> j & 1) sp->covering[j] |= (uint64_t)1 << i;
    }
    for (int i = 0; i < sp->npiles; i++) sp->kind[i] = K_STOCK;
    if (sp->waste >= 0) sp->kind[sp->waste] = K_WASTE;
    for (int i = sp->f0; i < sp->f0 + sp->nf; i++) sp->kind[i] = K_FOUNDATION;
    for (int i = sp->c0; i < sp->c0 + sp->nc; i++) sp->kind[i] = K_CELL;
    for (int i = sp->r0; i < sp->r0 + sp->nr; i++) sp->kind[i] = K_RESERVE;
    for (int i = sp->t0; i < sp->t0 + sp->nt; i++) sp->kind[i] = K_TABLEAU;
    sp->clear_win = sp->nf == 0;
    /* the waste's cards never leave it (Golf): the key holds its top card alone */
    sp->waste_sink = sp->waste >= 0 && sp->waste_takes != W_NOTHING && sp->redeal == R_NONE &&
                     sp->nf == 0 && sp->nc == 0 && sp->build == B_NONE && sp->space_none;
    /* clicks then a waste move (macro_children) only where a click changes nothing else */
    sp->waste_macros = sp->waste >= 0 && sp->waste_takes == W_NOTHING;
    sp->deals_to_tableau = sp->action == A_DEAL_TABLEAU;
    sp->deals_to_piles = sp->action == A_DEAL_TABLEAU || sp->action == A_DEAL_RESERVE;
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
    sp->order_bound = sp->ftakes == F_IN_SUIT && sp->build == B_ALT && sp->unit == U_ALT &&
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

/* testing_children(spec, piles, redeals, last move or None, its ops, settings) -> [(step,
   score)]: the exact search's children (search.py's children, compared by the tests). */
static PyObject *py_children(PyObject *self, PyObject *args) {
    PyObject *spec, *piles, *redeals, *lastm, *so;
    int lops;
    if (!PyArg_ParseTuple(args, "OOOOiO", &spec, &piles, &redeals, &lastm, &lops, &so))
        return NULL;
    Settings set;
    if (parse_settings(so, &set)) return NULL;
    Mode md = {0};
    md.idle = set.idle;
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
    if (!buf || children(p, &md, &last, &kids, buf)) {
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

/* The same with a fourth item, `extra` (the phase, the winning try, the positions cut...). */
static PyObject *result_value4(int rc, Result *res, long long extra) {
    PyObject *line = result_line(rc, res);
    if (!line) return NULL;
    return Py_BuildValue("(iNLL)", res->status, line, res->states, extra);
}

/* solve(spec, piles, redeals, time_limit, max_states, best_line, max_table, ordering, cpu,
   streamlined[, settings]) -> (status, line, positions, phase): the full-information search
   (solve_pos). ordering 0: exactly search.py's search (no win finder, no card-set search, no
   relaxation); streamlined -1: the draw-three streamlined searches unless best_line; settings:
   None (the product) or a test's (parse_settings). */
static PyObject *py_solve(PyObject *self, PyObject *args) {
    PyObject *spec, *piles, *redeals, *so = Py_None;
    double time_limit;
    long long max_states;
    int best_line, ordering, cpu, streamlined;
    unsigned long long max_table;
    if (!PyArg_ParseTuple(args, "OOOdLpKpii|O", &spec, &piles, &redeals, &time_limit,
                          &max_states, &best_line, &max_table, &ordering, &cpu, &streamlined,
                          &so))
        return NULL;
    Settings set;
    if (parse_settings(so, &set)) return NULL;
    Spec sp;
    Pos *p = spec_pos(spec, piles, redeals, &sp);
    if (!p) return NULL;
    Result res;
    memset(&res, 0, sizeof res);
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = solve_pos(p, &set, cpu ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, time_limit,
                   max_states, best_line, (size_t)max_table, ordering, streamlined, &res);
    Py_END_ALLOW_THREADS
    free_pos(p);
    return result_value4(rc, &res, res.phase);
}

/* testing_wide_beam(spec, piles, redeals, width, cap, w_inv, bound_deals) -> (status,
   line, positions, positions the rank bound left out): the reserve games' wide beam alone, one
   setting, no budget (status unknown at once in the games it is not for). */
static PyObject *py_wide_beam(PyObject *self, PyObject *args) {
    PyObject *spec, *piles, *redeals;
    int width, cap, w_inv, bound_deals;
    if (!PyArg_ParseTuple(args, "OOOiiii", &spec, &piles, &redeals, &width, &cap, &w_inv,
                          &bound_deals))
        return NULL;
    if (width < 1 || cap < 1) {
        PyErr_SetString(PyExc_ValueError, "width and cap must be >= 1");
        return NULL;
    }
    Spec sp;
    Pos *p = spec_pos(spec, piles, redeals, &sp);
    if (!p) return NULL;
    Result res;
    memset(&res, 0, sizeof res);
    res.status = ST_UNKNOWN;
    int rc = 0;
    long long cut = 0;
    Py_BEGIN_ALLOW_THREADS
    Budget b = {-1.0, -1};
    if (wide_beam_game(&sp)) {
        int r = wide_beam(p, &b, &res.states, &res.line, width, cap, w_inv, bound_deals, &cut);
        if (r < 0) rc = -1;
        if (r > 0) res.status = ST_WON;
    }
    Py_END_ALLOW_THREADS
    free_pos(p);
    return result_value4(rc, &res, cut);
}

/* testing_restarts(spec, piles, redeals, size, tries, salt0) -> (status, line, positions, the
   winning try or -1): the reserve games' streamlined restarts alone (reserve_restarts, as
   solve_pos runs them), `tries` tries of `size` positions from the salt salt0. */
static PyObject *py_restarts(PyObject *self, PyObject *args) {
    PyObject *spec, *piles, *redeals;
    long long size, tries;
    unsigned long long salt0;
    if (!PyArg_ParseTuple(args, "OOOLLK", &spec, &piles, &redeals, &size, &tries, &salt0))
        return NULL;
    Spec sp;
    Pos *p = spec_pos(spec, piles, redeals, &sp);
    if (!p) return NULL;
    Result res;
    memset(&res, 0, sizeof res);
    res.status = ST_UNKNOWN;
    long long which = -1;
    int rc = 0;
    Py_BEGIN_ALLOW_THREADS
    Ctx cx;
    if (ctx_open(&cx, &sp, &SHIPPED, -1)) rc = -1;
    else {
        Budget end = {-1.0, -1};
        res.status = reserve_restarts(p, &cx, &end, &res.states, size, salt0, tries, &res.line,
                                      &which);
        if (cx.err) rc = -1;
    }
    ctx_free(&cx);
    Py_END_ALLOW_THREADS
    free_pos(p);
    if (res.status != ST_WON) res.line.n = 0;
    return result_value4(rc, &res, which);
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

/* testing_cardset(spec, piles, redeals, max_states, chunk, safe) -> (status, positions): the
   card-set search of Klondike-type games alone (abstract.c); status -1 when it does not apply.
   With chunk > 0 it runs in resumed runs of chunk positions each (the tests check that it
   answers as one run); safe: its safe-card pruning (Settings.cardset_safe). */
static PyObject *py_abstract(PyObject *self, PyObject *args) {
    PyObject *spec, *piles, *redeals;
    long long max_states, chunk;
    int safe;
    if (!PyArg_ParseTuple(args, "OOOLLp", &spec, &piles, &redeals, &max_states, &chunk, &safe))
        return NULL;
    Spec sp;
    Pos *p = spec_pos(spec, piles, redeals, &sp);
    if (!p) return NULL;
    int r;
    long long states = 0;
    Py_BEGIN_ALLOW_THREADS
    AbRun run;
    memset(&run, 0, sizeof run);
    for (;;) {  /* one run, or resumed runs of `chunk` positions */
        long long cap = max_states;
        if (chunk > 0 && (max_states < 0 || states + chunk < max_states)) cap = states + chunk;
        Budget b = {-1.0, cap < 0 ? -1 : cap - states};
        long long added;
        r = abstract_resume(&run, p, safe, &b, (size_t)1 << 30, &added);
        states += added;
        if (chunk <= 0 || r != ST_UNKNOWN || (max_states >= 0 && states >= max_states)) break;
    }
    abrun_free(&run);
    Py_END_ALLOW_THREADS
    free_pos(p);
    return Py_BuildValue("(iL)", r, states);
}

static PyObject *py_order_lost(PyObject *self, PyObject *args) {
    Spec sp;
    Pos *p = args_pos(args, &sp);
    if (!p) return NULL;
    int r = sp.order_bound && order_lost(p);
    free_pos(p);
    return PyBool_FromLong(r);
}

/* visible_plan(spec, masked piles, redeals, weights, predeal, max_nodes) -> (best evaluation,
   root evaluation, line, positions). */
static PyObject *py_visible_plan(PyObject *self, PyObject *args) {
    PyObject *spec, *piles, *redeals, *weights;
    int predeal;
    long long max_nodes;
    if (!PyArg_ParseTuple(args, "OOOOpL", &spec, &piles, &redeals, &weights, &predeal,
                          &max_nodes))
        return NULL;
    if (!PyTuple_Check(weights) || PyTuple_GET_SIZE(weights) != VW_N) {
        PyErr_SetString(PyExc_ValueError, "weights: a tuple of VW_N (14) ints");
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
    int be = 0, re = 0, rc;
    long long seen = 0;
    Py_BEGIN_ALLOW_THREADS
    rc = visible_plan(p, w, predeal, max_nodes, &line, &be, &re, &seen);
    Py_END_ALLOW_THREADS
    free_pos(p);
    if (rc) { free(line.v); return PyErr_NoMemory(); }
    PyObject *l = moves_list(line.v, line.n);
    free(line.v);
    if (!l) return NULL;
    return Py_BuildValue("(iiNL)", be, re, l, seen);
}

/* testing_stream(spec, piles, redeals, max_states, level, cap) -> (status, line, positions,
   rounds): a streamlined search of draw-three games alone (level 1 or 2), in rounds capped at
   the flips from `cap` positions (times FLIP_GROW a round) when cap > 0, else one round
   (stream_rounds, as solve_pos runs it). A win or nothing: lost means the streamlined space
   has no win, which proves nothing, so it is answered unknown. */
static PyObject *py_stream(PyObject *self, PyObject *args) {
    PyObject *spec, *piles, *redeals;
    long long max_states, cap;
    int level;
    if (!PyArg_ParseTuple(args, "OOOLiL", &spec, &piles, &redeals, &max_states, &level, &cap))
        return NULL;
    if (level != 1 && level != 2) {
        PyErr_SetString(PyExc_ValueError, "level: 1 or 2");
        return NULL;
    }
    Spec sp;
    Pos *p = spec_pos(spec, piles, redeals, &sp);
    if (!p) return NULL;
    Result res;
    memset(&res, 0, sizeof res);
    int rc = 0, rounds = 0;
    Py_BEGIN_ALLOW_THREADS
    Ctx cx;
    if (ctx_open(&cx, &sp, &SHIPPED, max_states)) rc = -1;
    else {
        Budget b = {-1.0, max_states};
        res.status = stream_rounds(p, &cx, &b, &res.states, level, cap, FLIP_GROW,
                                   tableau_down(p, &sp), &res.line, &rounds);
        if (cx.err) rc = -1;
        if (res.status == ST_LOST) res.status = ST_UNKNOWN;
    }
    ctx_free(&cx);
    Py_END_ALLOW_THREADS
    free_pos(p);
    if (res.status != ST_WON) res.line.n = 0;
    return result_value4(rc, &res, rounds);
}

/* testing_exhaust(spec, piles, redeals, max_states, cover, bound, home) -> (status, positions):
   one exact search round alone (no win finder, no bound at the root), with the draw-one
   relaxation's rules (cover: the covering rule, home: with it the home-at-once rule; exact only
   in a draw-one game turned over without limit) and the order bound at every position (bound:
   Klondike-type games) if asked for. */
static PyObject *py_exhaust(PyObject *self, PyObject *args) {
    PyObject *spec, *piles, *redeals;
    long long max_states;
    int cover, bound, home;
    if (!PyArg_ParseTuple(args, "OOOLppp", &spec, &piles, &redeals, &max_states, &cover, &bound,
                          &home))
        return NULL;
    Spec sp;
    Pos *p = spec_pos(spec, piles, redeals, &sp);
    if (!p) return NULL;
    long long states = 0;
    int r = ST_UNKNOWN, err = 0;
    Py_BEGIN_ALLOW_THREADS
    Ctx cx;
    if (ctx_open(&cx, &sp, &SHIPPED, max_states)) err = 1;
    else if (is_won(p)) r = ST_WON;
    else {
        Budget b = {-1.0, max_states};
        Line won = {0};
        int cut = 0;
        cx.mode.relax_cover = cover;
        cx.mode.relax_home = cover && home;
        cx.mode.relax_bound = bound && sp.order_bound;
        r = search_round(p, &cx, &b, &states, -1, 0, &cut, &won);
        free(won.v);
        if (cx.err) err = 1;
    }
    ctx_free(&cx);
    Py_END_ALLOW_THREADS
    free_pos(p);
    if (err) return PyErr_NoMemory();
    return Py_BuildValue("(iL)", r, states);
}

static PyMethodDef methods[] = {
    {"solve", py_solve, METH_VARARGS, "Full-information search: (status, line, positions,"
     " phase)."},
    {"is_stuck", py_is_stuck, METH_VARARGS, "The clear-end test."},
    {"visible_plan", py_visible_plan, METH_VARARGS, "The honest planning search on a masked"
     " position: (best, root, line, positions)."},
    /* test hooks (tests/solver): one part of the search alone, or a part compared with
       search.py */
    {"testing_legal_moves", py_legal_moves, METH_VARARGS, "Test hook: the legal raw moves of a"
     " position."},
    {"testing_play", py_play, METH_VARARGS, "Test hook: play raw moves; the piles after, the"
     " redeals, the piles after taking them back, the key."},
    {"testing_children", py_children, METH_VARARGS, "Test hook: the search's children of a"
     " position, with scores."},
    {"testing_proven_lost", py_proven_lost, METH_VARARGS, "Test hook: the rank bound of"
     " reserve-only games."},
    {"testing_order_lost", py_order_lost, METH_VARARGS, "Test hook: the order bound of"
     " Klondike-type games."},
    {"testing_exhaust", py_exhaust, METH_VARARGS, "Test hook: one exact search round alone, with"
     " the relaxation's rules and the order bound at every position if asked for: (status,"
     " positions)."},
    {"testing_cardset", py_abstract, METH_VARARGS, "Test hook: the card-set search alone:"
     " (status, positions)."},
    {"testing_stream", py_stream, METH_VARARGS, "Test hook: a draw-three streamlined search"
     " alone, in rounds capped at the flips: (status, line, positions, rounds)."},
    {"testing_restarts", py_restarts, METH_VARARGS, "Test hook: the reserve streamlined search's"
     " restarts alone: (status, line, positions, try)."},
    {"testing_wide_beam", py_wide_beam, METH_VARARGS, "Test hook: the reserve games' wide beam"
     " alone, one setting: (status, line, positions, positions cut)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core",
                                    "The solver's core in C (see core.py).", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__core(void) {
    init_zobrist();
    return PyModule_Create(&module);
}
