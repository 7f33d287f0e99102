/* Part of _core.c (one translation unit: _core.c includes the parts in order):
   the children of a position and their order (search.py), the stock macros, the relaxation's rules. */

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

/* The search's settings: the parts of solve that a test may switch off to test the others
   alone. The product always runs SHIPPED; a test hook passes its own value for one call. The
   value travels in the search's context (Ctx.set) and, for children(), in its Mode. */
typedef struct {
    int cardset;      /* solve runs the card-set search (abstract.c) */
    int cardset_safe; /* the card-set search sends a safe card home as the only child */
    int kbest;        /* solve runs the draw-three best-first search (best_first.c) */
    int idle;         /* idle splits and descents are left out (idle_move) */
} Settings;

static const Settings SHIPPED = {1, 1, 1, 1};

/* The rules of the search that is running, as children() and search_round read them: the
   exact search (streamline 0, no relaxation rule, no flip cap), or one of solve_pos's other
   phases, which sets its fields in the context (Ctx.mode) while it runs. */
typedef struct {
    int idle;             /* idle splits and descents left out (Settings.idle, no best line) */
    int streamline;       /* 0: exact; 1, 2: the streamlined levels (see children) */
    uint64_t stream_salt; /* the reserve restarts: the plays' order drawn from it (0: the
                             engine's order) */
    int relax_cover;      /* the draw-one relaxation's covering rule */
    int relax_home;       /* and its home-at-once rule */
    int relax_bound;      /* the order bound tried at every position (search_round) */
    int flip_cap;         /* capped rounds at the flips: the root's face-down cards, or 0 */
} Mode;

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
        if ((rest > 0 && !(p->c[src][rest - 1] & UPF)) ||
            (rest == 0 && sp->has_covers && would_uncover(p, src)))
            score = 90;
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

/* The draw-one relaxation's rules (solve_pos, Mode.relax_cover and relax_home), exact in a
   draw-one game turned over without limit:
   - covering: a card from the stock or waste that goes to the tableau must be covered at once
     (the only children after it put a card on it): a line that leaves it uncovered can play it
     later instead, when its cover comes;
   - home at once: a card from the stock or waste that goes home (not a King, not safe) must be
     followed at once by the next card of its suit going home: a line that sends it home earlier
     than needed can send it home just before that next card.
   A position reached under either obligation is keyed apart from the same position reached
   otherwise (search_round).

   What the rules can use at the next move: the cards of the stock and waste, the foundations'
   top cards (when they give back), the tableau piles' top cards (face up), and each pile's run
   bases (a face-up card whose run reaches the pile's top). */
typedef struct {
    uint64_t sw, fnd, tops, bases_all, bases[MAXP];
} Avail;

/* For each card, the cards that may be put on it in the tableau (one rank lower, as the build
   rule says, in the pack): the relaxation's rules and the idle moves read it. A cache of the
   last game's build rule, per thread for speed only (not a setting: it depends on the rules). */
static __thread uint64_t fit_want[64];
static __thread int fit_want_build = 0;  /* the build rule fit_want was filled for, plus 1 */

static const uint64_t *fit_wants(const Spec *sp) {
    if (fit_want_build != sp->build + 1) {  /* once a game */
        fit_want_build = sp->build + 1;
        for (int c = 0; c < 64; c++) {
            fit_want[c] = 0;
            for (int y = 0; RANK(c) > 1 && y < 64; y++)
                if (RANK(y) + 1 == RANK(c) && sp->copies[y] && fits(sp, y | UPF, c | UPF))
                    fit_want[c] |= (uint64_t)1 << y;
        }
    }
    return fit_want;
}

static void avail_fill(const Pos *p, Avail *a) {
    const Spec *sp = p->sp;
    a->sw = a->fnd = a->tops = a->bases_all = 0;
    fit_wants(sp);
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

/* The covering rule: once card c from the waste is on tableau pile j, can the
   next move put a card on it? A card one rank lower of the other colour from the stock or
   waste, from a foundation's top, or at the base of a run reaching another pile's top. When
   none can, the child would have no child: a dead end, not searched (it holds no win). */
static int cover_exists(const Avail *a, int c, int j) {
    return (fit_want[c] & (a->sw | a->fnd | (a->bases_all ^ a->bases[j]))) != 0;
}

/* The home-at-once rule: once card c (not a King) from the waste is home, can the
   next card of its suit go home at once, from a pile's top or from the stock or waste? */
static int next_home_exists(const Avail *a, int c) {
    if (RANK(c) >= 13) return 1;
    uint64_t y = (uint64_t)1 << (c + 4);
    return ((a->sw | a->tops) & y) != 0;
}

static int waste_moves(const Pos *p, const Mode *md, const Avail *av, int c, int clicks,
                       Kids *out, int first_space) {
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
            if (md->relax_home && !safe && !next_home_exists(av, c & 63))
                continue;  /* a dead end */
            Move m = {(int8_t)w, (int8_t)f, 1};
            if (kids_add(out, clicks, m, safe ? SAFE : 100 - clicks)) return -1;
        }
    }
    for (int j = sp->t0; j < sp->t0 + sp->nt; j++) {
        Move m = {(int8_t)w, (int8_t)j, 1};
        if (p->len[j]) {
            int t = top(p, j);
            if (fits(sp, c, t)) {
                if (md->relax_cover && !cover_exists(av, c & 63, j)) continue;  /* dead end */
                int bonus = SUIT(t) == SUIT(c) ? 10 : 0;
                if (kids_add(out, clicks, m, 65 + bonus - clicks)) return -1;
            }
        } else if (!sp->space_none && (!sp->space_king || RANK(c) == 13) &&
                   (first_space < 0 || j == first_space)) {
            if (md->relax_cover && !cover_exists(av, c & 63, j)) continue;  /* dead end */
            if (kids_add(out, clicks, m, 65 - clicks)) return -1;
        }
    }
    return 0;
}

static int macro_children(const Pos *p, const Mode *md, const Avail *av, Kids *out,
                          int first_space) {
    const Spec *sp = p->sp;
    uint8_t stock[MAXL], waste[MAXL];
    int ns = p->len[0], nw = p->len[sp->waste];
    memcpy(stock, p->c[0], (size_t)ns);
    memcpy(waste, p->c[sp->waste], (size_t)nw);
    int redeals = p->redeals_used;
    /* states seen: (waste length, redeals since now when limited); per thread for speed only */
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
        if (nw && waste_moves(p, md, av, waste[nw - 1] | UPF, clicks, out, first_space))
            return -1;
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

/* The foundation whose next card must go home now (the home-at-once rule), or -1. */
static int home_due(const Pos *p, const Mode *md, const Last *last) {
    const Spec *sp = p->sp;
    if (!md->relax_home || !last->have || last->m.s != sp->waste || sp->waste < 0 ||
        sp->kind[last->m.d] != K_FOUNDATION || !p->len[last->m.d])
        return -1;
    int c = top(p, last->m.d);
    if (RANK(c) == 13 || is_safe(p, c)) return -1;
    return last->m.d;
}

/* Splits useful only through the move that follows them (Klondike-type games without a
   reserve: in-suit foundations, alternating colours, runs moved whole, Kings only in spaces),
   left out when Mode.idle is set, but not under the relaxation's rules (the argument below
   does not hold with them). */

/* The cards no move can take now: those of the tableau under the run that reaches each pile's
   top (face down, or face up under a card that does not fit). */
static uint64_t idle_buried(const Pos *p) {
    const Spec *sp = p->sp;
    uint64_t b = 0;
    for (int t = sp->t0; t < sp->t0 + sp->nt; t++) {
        int n = p->len[t], i = n - 1;
        if (!n || !(p->c[t][i] & UPF)) i = n;  /* nothing face up on top: all buried */
        else
            while (i > 0 && (p->c[t][i - 1] & UPF) && fits(sp, p->c[t][i], p->c[t][i - 1])) i--;
        for (int k = 0; k < i; k++) b |= (uint64_t)1 << (p->c[t][k] & 63);
    }
    return b;
}

/* 1 when the legal move m can be left out of the search (search.py idle_split, idle_descent):
   a split, a run taken off a face-up card X it fits (X stays in its pile), when X cannot go
   home now and every card that fits on X, the run's base Y aside, is buried (idle_buried); a
   descent, a foundation's top card X put onto the tableau, when every card that fits on X is
   buried and the card under X on its foundation fits on no tableau pile's top. A split changes
   only which card is on X: a line that plays it can play it just before X is used (X home, or
   a card put on X), carrying the run along with X until then, and what that use needs first
   does not need the split; so the use is possible as soon as the split is played (a descent
   alike: X given a card, or the card under it let down). *buried: idle_buried(p) once *filled. */
static int idle_move(const Pos *p, Move m, uint64_t *buried, int *filled) {
    const Spec *sp = p->sp;
    if (m.s < 0 || sp->kind[m.d] != K_TABLEAU) return 0;
    int x, y = -1;
    if (sp->kind[m.s] == K_FOUNDATION) {
        /* a foundation's top F put onto the tableau: kept when the card under F (same suit,
           one lower) can follow it onto a tableau pile's top at once */
        x = top(p, m.s);
        int n = p->len[m.s];
        if (n >= 2)
            for (int t = sp->t0; t < sp->t0 + sp->nt; t++)
                if (p->len[t] && (top(p, t) & UPF) && fits(sp, p->c[m.s][n - 2] | UPF, top(p, t)))
                    return 0;
    } else if (sp->kind[m.s] == K_TABLEAU) {
        int rest = p->len[m.s] - m.n;
        if (rest <= 0) return 0;
        x = p->c[m.s][rest - 1];
        y = p->c[m.s][rest];
        if (!(x & UPF) || !fits(sp, y, x) || can_go_home(p, x)) return 0;
    } else return 0;
    if (!*filled) { *buried = idle_buried(p); *filled = 1; }
    uint64_t want = fit_wants(sp)[x & 63] & ~(y >= 0 ? (uint64_t)1 << (y & 63) : 0);
    return (want & ~*buried) == 0;
}

static inline int idle_on(const Spec *sp, const Mode *md) {
    return sp->order_bound && sp->nr == 0 && md->idle && !md->relax_cover;
}

/* Appends the children of p (best first, a safe one alone) to out, under the rules of md.
   -1 on memory error. */
static int children(const Pos *p, const Mode *md, const Last *last, Kids *out, Move *buf) {
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
    int cover = md->relax_cover && last->have && last->m.s == sp->waste &&
                sp->kind[last->m.d] == K_TABLEAU ? last->m.d : -1;
    if (cover < 0) cover = home_due(p, md, last);  /* the next card of its suit home, at once */
    Avail av;
    if (md->relax_cover) avail_fill(p, &av);
    int idle = idle_on(sp, md), idle_filled = 0;
    uint64_t idle_buried_now = 0;
    for (int q = 0; q < nm; q++) {
        Move m = buf[q];
        if (m.s < 0) has_stock = 1;
        if (m.s < 0 && sp->waste_macros) continue;
        if (cover >= 0 && m.d != cover) continue;
        int sc = score_move(p, m, last, first_cell, first_space, homes, &nh);
        if (sc == INT32_MIN) continue;
        if (idle && idle_move(p, m, &idle_buried_now, &idle_filled)) continue;
        if (md->relax_cover && m.s == sp->waste) {  /* dead ends of the relaxation's rules */
            int c = top(p, m.s) & 63;
            if (sp->kind[m.d] == K_TABLEAU && !cover_exists(&av, c, m.d)) continue;
            if (sp->kind[m.d] == K_FOUNDATION && md->relax_home && sc < SAFE &&
                !next_home_exists(&av, c))
                continue;
        }
        if (sc >= SAFE && cover < 0) {
            out->n = start;
            return kids_add(out, 0, m, sc);
        }
        if (kids_add(out, 0, m, sc)) return -1;
    }
    if (sp->waste_macros && has_stock && macro_children(p, md, &av, out, first_space)) return -1;
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
    if (md->streamline && sp->reserve_only) {
        /* the reserve games' streamlined search: no deal while a card can go home */
        int k = start, plays = 0;
        for (int q = start; q < out->n; q++) plays += out->v[q].m.s >= 0;
        if (plays) {
            for (int q = start; q < out->n; q++)
                if (out->v[q].m.s >= 0) out->v[k++] = out->v[q];
            out->n = k;
        }
        if (md->stream_salt && out->n - start > 1) {
            /* a restart: the plays in an order drawn from the salt and the position (the same
               position, the same order within one try) */
            Key pk = pos_key(p);
            for (int q = start; q < out->n; q++) {
                const Child *c = &out->v[q];
                uint64_t h = mix1(pk.a ^ (md->stream_salt * 0x9E3779B97F4A7C15ULL) ^
                                  ((uint64_t)(c->m.s + 1) << 8) ^ (uint64_t)(c->m.d + 1));
                out->v[q].score = (int)(h >> 33);
            }
            sort_kids(out->v + start, out->n - start);
        }
        return 0;
    }
    if (md->streamline) {
        /* the streamlined searches of draw-three games (levels 1 and 2): any card that can go
           home without a click goes home alone, nothing comes back from a foundation; level 2
           also never moves a run that already sits on a card it fits (a shuffle). They prove
           nothing (a card may be needed on the tableau, a shuffle may be needed first). */
        int k = start;
        for (int q = start; q < out->n; q++) {
            Child c = out->v[q];
            if (sp->kind[c.m.s] == K_FOUNDATION) continue;
            if (md->streamline == 2 && !c.clicks && sp->kind[c.m.s] == K_TABLEAU
                && sp->kind[c.m.d] == K_TABLEAU) {
                int rest = p->len[c.m.s] - c.m.n;
                if (rest > 0 && (p->c[c.m.s][rest - 1] & UPF)
                    && fits(sp, p->c[c.m.s][rest], p->c[c.m.s][rest - 1]))
                    continue; /* a shuffle: the run already sits on a card it fits */
            }
            if (!c.clicks && sp->kind[c.m.d] == K_FOUNDATION) {
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
