/* Part of _core.c (one translation unit: _core.c includes the parts in order):
   the module's Python functions (glue: arguments, results, the experiments' wrappers). */

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

/* abstract(spec, piles, redeals, time_limit, max_states[, cpu, chunk]) -> (status, positions):
   the card-set search of Klondike-type games alone (abstract.c); status -1 when it does not
   apply. With chunk > 0 the search runs in resumed runs of chunk positions each (the tests
   check that it answers as one run). */
static PyObject *py_abstract(PyObject *self, PyObject *args) {
    PyObject *spec, *piles, *redeals;
    double time_limit;
    long long max_states, chunk = 0;
    int cpu = 1;
    if (!PyArg_ParseTuple(args, "OOOdL|pL", &spec, &piles, &redeals, &time_limit, &max_states,
                          &cpu, &chunk))
        return NULL;
    Spec sp;
    Pos *p = spec_pos(spec, piles, redeals, &sp);
    if (!p) return NULL;
    int r;
    long long states = 0;
    Py_BEGIN_ALLOW_THREADS
    budget_clock = cpu ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC;
    double deadline = time_limit < 0 ? -1.0 : now() + time_limit;
    AbRun run;
    memset(&run, 0, sizeof run);
    for (;;) {  /* one run, or resumed runs of `chunk` positions */
        long long cap = max_states;
        if (chunk > 0 && (max_states < 0 || states + chunk < max_states)) cap = states + chunk;
        Budget b = {deadline, cap < 0 ? -1 : cap - states};
        long long added;
        r = abstract_resume(&run, p, &b, (size_t)1 << 30, &added);
        states += added;
        if (chunk <= 0 || r != ST_UNKNOWN || (max_states >= 0 && states >= max_states) ||
            (deadline >= 0 && now() >= deadline))
            break;
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
                            "level3", "level2", "exact_cap", "useless", NULL};
    long long first = -1, f1 = -1, f2 = -1, xcap = -1;
    int grow = -1, stop = 0, useless = -1;
    double share = -1.0, l1 = -1.0, l3 = -1.0, l2 = -1.0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|LidpdLLddLi", names, &first, &grow, &share,
                                     &stop, &l1, &f1, &f2, &l3, &l2, &xcap, &useless))
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
    tune_useless = useless >= 0 ? useless : USELESS0;
    Py_RETURN_NONE;
}

/* tune_cardset(on, first, end, safe), each also by keyword: the card-set search in solve (on:
   1 or 0), the shares of the budget where its two runs end, its safe-card pruning (1 or 0);
   left out or negative: the shipped setting. Apart from tune(), which leaves it as it is. */
static PyObject *py_tune_cardset(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *names[] = {"on", "first", "end", "safe", "lines", NULL};
    int on = -1, safe = -1, lines = -1;
    double first = -1.0, end = -1.0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|iddii", names, &on, &first, &end, &safe,
                                     &lines))
        return NULL;
    tune_cardset_lines = lines >= 0 ? lines : 0;
    tune_cardset = on >= 0 ? on : 1;
    tune_cardset_first = first >= 0 ? first : CARDSET_FIRST;
    tune_cardset_end = end >= 0 ? end : CARDSET_END;
    tune_cardset_safe = safe >= 0 ? safe : 1;
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
    {"tune_cardset", (PyCFunction)(void (*)(void))py_tune_cardset, METH_VARARGS | METH_KEYWORDS,
     "Measurements and tests: the card-set search in solve, its shares, its safe-card pruning."},
    {"abstract", py_abstract, METH_VARARGS, "The card-set search of Klondike-type games alone."},
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
