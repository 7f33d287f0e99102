/* Part of _core.c (one translation unit: _core.c includes the parts in order):
   the reserve games' wide beam (a win finder). */

/* Leap Year (any-suit foundations fed only from reserves, a stock dealt onto the non-empty
   reserves, no gathering): a beam over the deals, on ranks only. From each of the `width`
   positions kept at a deal, every position that plays alone can reach before the next deal
   (up to `cap` of them; the safe cards of is_safe_any_suit go home at once) is dealt onto; the
   dealt positions, each once, are ranked by evaluate_reserve's terms (10 a card home, less
   BEAM_W_EMPTY for each pile emptied while the stock deals, less `w_inv` for each card above a
   lower one) and the best `width` kept. After the last deal, a position from which plays alone
   empty every pile is a win: its line is replayed on the engine's moves. It proves nothing:
   a win (a line the engine replays) or nothing. C only (solve_pos). */
#define WB_NR 8     /* reserve piles at most */
#define WB_H 48     /* cards in a pile at most (a taller one is left out: a win finder) */
#define WB_LINE 512 /* plays and deals in a line at most */
typedef struct {
    uint8_t c[WB_NR][WB_H];
    uint8_t lo[WB_NR][WB_H]; /* for each card, the cards under it of a lower rank (wb_lower) */
    uint8_t len[WB_NR];
    uint8_t alive;
    int16_t si;         /* stock cards dealt */
    int16_t nm;         /* the line: 0..nr-1 a play from that pile, 255 a deal */
    int8_t h[14];       /* rank-r cards home (h[0]: the foundations) */
    int ev, seq;        /* its evaluation; the order in which its deal found it */
    int inv;            /* cards above a lower one (the sum of lo[][] over the piles) */
    uint64_t key;
    uint8_t mv[WB_LINE];
} WbState;

typedef struct {
    int nr, ns, copies[14];
    uint8_t stock[MAXL];  /* ranks, in dealing order */
    int width, cap, w_inv;
    int bound_deals;      /* the rank bound on a dealt position this few deals from the end */
    const Spec *sp;       /* the game (for the rank bound) */
    Pos *bp;              /* a scratch position the rank bound reads (wb_lost) */
    long long bound_cut;  /* dealt positions the bound left out */
    uint64_t z[WB_NR][WB_H][14], zsi[MAXL + 1], zal[256];
    uint64_t *set; size_t scap, sn;    /* the keys seen at this deal (dealt positions) */
    uint64_t *loc; uint32_t *lgen, gen; size_t lcap, ln;  /* the keys of one closure (slots of
                                                            this generation) */
    WbState *heap; int hn;             /* the best dealt positions, worst first */
    WbState cur;                       /* the closure's position, played in place */
    int won, seq; WbState win;
    long long states;
} Wb;

/* the first position's key, from scratch (wb_play, wb_unplay, wb_deal and wb_undeal keep every
   position's up to date; the tables look it up with its lowest bit set, so that no key is 0) */
static uint64_t wb_key(const Wb *w, const WbState *s) {
    uint64_t k = w->zsi[s->si] ^ w->zal[s->alive];
    for (int q = 0; q < w->nr; q++)
        for (int i = 0; i < s->len[q]; i++) k ^= w->z[q][i][s->c[q][i]];
    return k;
}

/* 1 when k was not in the set (now added), 0 when it was, -1 on memory error */
static int wb_add(uint64_t **set, size_t *cap, size_t *n, uint64_t k) {
    if (*n * 2 >= *cap) {
        size_t oc = *cap, nc = oc ? oc * 2 : (size_t)1 << 12;
        uint64_t *ot = *set, *t = calloc(nc, 8);
        if (!t) return -1;
        for (size_t i = 0; i < oc; i++)
            if (ot[i]) {
                size_t j = ot[i] & (nc - 1);
                while (t[j]) j = (j + 1) & (nc - 1);
                t[j] = ot[i];
            }
        free(ot);
        *set = t; *cap = nc;
    }
    size_t j = k & (*cap - 1);
    while ((*set)[j]) {
        if ((*set)[j] == k) return 0;
        j = (j + 1) & (*cap - 1);
    }
    (*set)[j] = k;
    (*n)++;
    return 1;
}

/* the cards under card i of pile q of a lower rank (what it adds to the cards above a lower one
   while it lies there) */
static inline int wb_lower(const WbState *s, int q, int i) {
    int n = 0, r = s->c[q][i];
    for (int k = 0; k < i; k++) n += s->c[q][k] < r;
    return n;
}

/* the evaluation without its cards above lower ones: 10 a card home, less BEAM_W_EMPTY a pile
   emptied while the stock deals (the evaluation is this less w_inv times s->inv) */
static int wb_base(const Wb *w, const WbState *s) {
    int e = 0;
    for (int r = 1; r < 14; r++) e += 10 * s->h[r];
    if (s->si < w->ns)
        for (int q = 0; q < w->nr; q++) e -= (s->alive >> q & 1) ? 0 : BEAM_W_EMPTY;
    return e;
}

static inline int wb_legal(const WbState *s, int q) {
    if (!s->len[q]) return 0;
    int r = s->c[q][s->len[q] - 1];
    return s->h[r - 1] > s->h[r];
}

/* plays the top card of pile q in place: its line, the counts home, the key, the pile's life (the
   card stays in c[q], above the top, for wb_unplay) */
static inline void wb_play(const Wb *w, WbState *s, int q) {
    s->mv[s->nm++] = (uint8_t)q;
    int i = --s->len[q], r = s->c[q][i];
    s->h[r]++;
    s->inv -= s->lo[q][i];
    s->key ^= w->z[q][i][r];
    if (!i && s->si < w->ns) {
        s->key ^= w->zal[s->alive];
        s->alive &= (uint8_t)~(1u << q);
        s->key ^= w->zal[s->alive];
    }
}

/* takes the last play back */
static inline void wb_unplay(const Wb *w, WbState *s) {
    int q = s->mv[--s->nm], i = s->len[q]++, r = s->c[q][i];
    s->h[r]--;
    s->inv += s->lo[q][i];
    s->key ^= w->z[q][i][r];
    if (!i && s->si < w->ns) {
        s->key ^= w->zal[s->alive];
        s->alive |= (uint8_t)(1u << q);
        s->key ^= w->zal[s->alive];
    }
}

/* the safe cards (is_safe_any_suit: every foundation waiting for them, their pile keeps one)
   played in place, pile by pile until none is left (a safe card stays playable, so the
   position reached does not depend on the order); the number of plays (wb_unplay takes them
   back). A rank r card is safe when every foundation waits for one (h[r-1] at least its copies;
   h only falls from rank to rank, so every lower rank is safe too). */
static int wb_safe(const Wb *w, WbState *s) {
    int n = 0, last = s->si >= w->ns;
    for (;;) {
        int smax = 1, moved = 0;  /* the highest safe rank */
        while (smax < 13 && s->h[smax] >= w->copies[smax + 1]) smax++;
        for (int q = 0; q < w->nr; q++) {
            int L = s->len[q];
            if ((L > 1 || (L == 1 && last)) && s->c[q][L - 1] <= smax && s->nm < WB_LINE - 1) {
                wb_play(w, s, q);
                n++;
                moved = 1;
            }
        }
        if (!moved) return n;
    }
}

/* The rank bound (proven_lost) on a dealt position, rebuilt as a position of the game: the
   foundations from the counts home (h[r] of them reached r), the reserves and the stock on ranks
   (suit 0: the bound reads ranks only). 1: no line wins from it. */
static int wb_lost(Wb *w, const WbState *s) {
    const Spec *sp = w->sp;
    Pos *p = w->bp;
    p->len[0] = w->ns - s->si;
    for (int i = 0; i < p->len[0]; i++) p->c[0][p->len[0] - 1 - i] = (uint8_t)(w->stock[s->si + i] << 2);
    for (int k = 0; k < sp->nf; k++) {
        int f = sp->f0 + k, ht = 0;
        while (ht < 13 && s->h[ht + 1] > k) ht++;
        p->len[f] = ht;
        for (int r = 1; r <= ht; r++) p->c[f][r - 1] = (uint8_t)(r << 2);
    }
    for (int q = 0; q < w->nr; q++) {
        int i = sp->r0 + q;
        p->len[i] = s->len[q];
        for (int k = 0; k < s->len[q]; k++) p->c[i][k] = (uint8_t)(s->c[q][k] << 2);
    }
    return proven_lost(p);
}

/* a ranks below b: a lower evaluation, or the same found later */
static inline int wb_worse(const WbState *a, const WbState *b) {
    return a->ev < b->ev || (a->ev == b->ev && a->seq > b->seq);
}

/* whether a dealt position with this evaluation would be kept now (wb_keep's test) */
static inline int wb_would_keep(const Wb *w, const WbState *s) {
    return w->hn < w->width || wb_worse(&w->heap[0], s);
}

/* keeps a dealt position among the best `width` (a heap, worst on top) */
static void wb_keep(Wb *w, const WbState *s) {
    WbState *h = w->heap;
    int i;
    if (w->hn == w->width) {
        if (!wb_worse(&h[0], s)) return;
        for (i = 0;;) {  /* the worst replaced, sifted down */
            int a = 2 * i + 1, b = a + 1, m = -1;
            const WbState *least = s;
            if (a < w->hn && wb_worse(&h[a], least)) { m = a; least = &h[a]; }
            if (b < w->hn && wb_worse(&h[b], least)) m = b;
            if (m < 0) break;
            h[i] = h[m];
            i = m;
        }
        h[i] = *s;
        return;
    }
    i = w->hn++;
    while (i > 0 && wb_worse(s, &h[(i - 1) / 2])) { h[i] = h[(i - 1) / 2]; i = (i - 1) / 2; }
    h[i] = *s;
}

static int wb_better(const void *a, const void *b) {
    const WbState *x = a, *y = b;
    return wb_worse(x, y) - wb_worse(y, x);  /* the best first */
}

/* the closure's set: 1 when k was not in it (now added), 0 when it was */
static int wb_local(Wb *w, uint64_t k) {
    size_t j = k & (w->lcap - 1);
    while (w->lgen[j] == w->gen) {
        if (w->loc[j] == k) return 0;
        j = (j + 1) & (w->lcap - 1);
    }
    w->lgen[j] = w->gen;
    w->loc[j] = k;
    w->ln++;
    return 1;
}

/* deals a row onto the live piles in place (the line gets 255); the number of cards dealt, their
   piles in to[] and what they cover in saved[] (card and lo, two a pile: wb_undeal puts them
   back), or -1 when a pile would grow too tall (nothing changed) */
static int wb_deal(const Wb *w, WbState *s, uint8_t *to, uint8_t *saved) {
    int k = 0;
    for (int q = 0; q < w->nr && s->si + k < w->ns; q++)
        if (s->alive >> q & 1) {
            if (s->len[q] >= WB_H) return -1;
            to[k++] = (uint8_t)q;
        }
    s->mv[s->nm++] = 255;
    s->key ^= w->zsi[s->si] ^ w->zsi[s->si + k];
    for (int j = 0; j < k; j++) {
        int q = to[j], i = s->len[q]++, r = w->stock[s->si++];
        saved[2 * j] = s->c[q][i];
        saved[2 * j + 1] = s->lo[q][i];
        s->c[q][i] = (uint8_t)r;
        s->lo[q][i] = (uint8_t)wb_lower(s, q, i);
        s->inv += s->lo[q][i];
        s->key ^= w->z[q][i][r];
    }
    return k;
}

static void wb_undeal(const Wb *w, WbState *s, int k, const uint8_t *to, const uint8_t *saved) {
    for (int j = k - 1; j >= 0; j--) {
        int q = to[j], i = --s->len[q];
        s->key ^= w->z[q][i][s->c[q][i]];
        s->inv -= s->lo[q][i];
        s->c[q][i] = saved[2 * j];
        s->lo[q][i] = saved[2 * j + 1];
        s->si--;
    }
    s->key ^= w->zsi[s->si] ^ w->zsi[s->si + k];
    s->nm--;
}

/* a dealt position: kept among the best when it ranks above the worst kept (or the beam is not
   full), was not met before at this deal, and the rank bound does not lose it. Its evaluation
   is computed only when the counts home, less the emptied piles, would rank above the worst
   (the cards above lower ones only lower it); a position left out so is never kept later at
   this deal (the worst kept only rises), so the keys of the others need not be looked up.
   -1 on memory error. */
static int wb_consider(Wb *w, WbState *t) {
    int base = wb_base(w, t);
    if (w->hn == w->width && base <= w->heap[0].ev) return 0;
    t->ev = base - w->w_inv * t->inv;
    t->seq = w->seq;  /* after every position met so far */
    if (!wb_would_keep(w, t)) return 0;
    int a = wb_add(&w->set, &w->scap, &w->sn, t->key | 1);
    if (a <= 0) return a;
    w->seq++;
    if (w->bound_deals > 0 && w->ns - t->si <= w->bound_deals * w->nr && wb_lost(w, t))
        w->bound_cut++;
    else
        wb_keep(w, t);
    return 0;
}

/* One position of a closure, played in place in s and left as it was: it is counted, dealt onto
   (wb_consider), and the positions one play away not met before in this closure are marked,
   then searched in turn, the last first. 1 won (w->win), 0, -1 on memory error. */
static int wb_node(Wb *w, WbState *s) {
    w->states++;
    if (s->si >= w->ns) {
        int any = 0;
        for (int q = 0; q < w->nr; q++) any |= s->len[q];
        if (!any) { w->won = 1; w->win = *s; return 1; }
    } else if (s->alive && s->nm < WB_LINE - 1) {
        uint8_t to[WB_NR], saved[2 * WB_NR];
        int k = wb_deal(w, s, to, saved);
        if (k >= 0) {
            int n = wb_safe(w, s), r = wb_consider(w, s);
            while (n--) wb_unplay(w, s);
            wb_undeal(w, s, k, to, saved);
            if (r < 0) return -1;
        }
    }
    uint8_t kids[WB_NR];
    int nk = 0;
    for (int q = 0; q < w->nr; q++) {
        if (!wb_legal(s, q) || s->nm >= WB_LINE - 1 || (int)w->ln >= w->cap) continue;
        wb_play(w, s, q);
        int n = wb_safe(w, s);
        if (wb_local(w, s->key | 1)) kids[nk++] = (uint8_t)q;
        while (n--) wb_unplay(w, s);
        wb_unplay(w, s);
    }
    while (nk--) {
        wb_play(w, s, kids[nk]);
        int n = wb_safe(w, s), r = wb_node(w, s);
        if (r) return r;
        while (n--) wb_unplay(w, s);
        wb_unplay(w, s);
    }
    return 0;
}

/* every position plays alone reach from s0 (up to cap), each dealt onto; -1 on memory error */
static int wb_closure(Wb *w, const WbState *s0) {
    w->gen++;
    w->ln = 0;
    w->cur = *s0;  /* its key and counts as kept (kept up to date since the first position) */
    return wb_node(w, &w->cur) < 0 ? -1 : 0;
}

/* The games the wide beam is for (Leap Year): reserves only, emptied reserves skipped by the
   deals, no gathering. */
static int wide_beam_game(const Spec *sp) {
    return sp->reserve_only && sp->skip_empty && sp->redeal != R_GATHER;
}

/* The wide beam from p with these settings: 1 won (the engine's moves in *won, replayed from p),
   0 not (the budget spent, or every position left out), -1 on memory error. *cut (if not NULL):
   the dealt positions the rank bound left out. */
static int wide_beam(Pos *p, const Budget *bud, long long *states, Line *won, int width,
                     int cap, int w_inv, int bound_deals, long long *cut) {
    const Spec *sp = p->sp;
    if (sp->nr > WB_NR || sp->nr < 1) return 0;
    Wb *w = calloc(1, sizeof *w);
    if (!w) return -1;
    int rc = 0;
    w->nr = sp->nr;
    w->ns = p->len[0];
    w->width = width; w->cap = cap; w->w_inv = w_inv;
    w->bound_deals = bound_deals;
    w->sp = sp;
    if (bound_deals > 0) {
        w->bp = calloc(1, sizeof(Pos));
        if (!w->bp) { free(w); return -1; }
        w->bp->sp = sp;
    }
    for (int r = 1; r < 14; r++) w->copies[r] = sp->rank_copies[r];
    for (int i = 0; i < w->ns; i++) w->stock[i] = (uint8_t)RANK(p->c[0][w->ns - 1 - i]);
    uint64_t x = 0x5769646542656D31ULL;
    for (int q = 0; q < WB_NR; q++)
        for (int i = 0; i < WB_H; i++)
            for (int r = 0; r < 14; r++) w->z[q][i][r] = splitmix(&x);
    for (int i = 0; i <= MAXL; i++) w->zsi[i] = splitmix(&x);
    for (int i = 0; i < 256; i++) w->zal[i] = splitmix(&x);
    WbState *beam = malloc(sizeof(WbState) * (size_t)width);
    w->heap = malloc(sizeof(WbState) * (size_t)width);
    w->lcap = 1;
    while (w->lcap < (size_t)cap * 2) w->lcap *= 2;
    w->loc = malloc(w->lcap * 8);
    w->lgen = calloc(w->lcap, sizeof *w->lgen);
    if (!beam || !w->heap || !w->loc || !w->lgen) { rc = -1; goto out; }
    WbState *s = &beam[0];
    memset(s, 0, sizeof *s);
    s->h[0] = (int8_t)sp->nf;
    for (int f = sp->f0; f < sp->f0 + sp->nf; f++)
        for (int r = 1; r <= p->len[f] && r < 14; r++) s->h[r]++;
    for (int q = 0; q < w->nr; q++) {
        int i = sp->r0 + q;
        if (p->len[i] > WB_H) goto out;
        s->len[q] = (uint8_t)p->len[i];
        for (int k = 0; k < p->len[i]; k++) s->c[q][k] = (uint8_t)RANK(p->c[i][k]);
        for (int k = 0; k < p->len[i]; k++) {
            s->lo[q][k] = (uint8_t)wb_lower(s, q, k);
            s->inv += s->lo[q][k];
        }
        if (p->len[i]) s->alive |= (uint8_t)(1u << q);
    }
    s->key = wb_key(w, s);
    wb_safe(w, s);
    int bn = 1;
    while (!w->won) {
        w->hn = 0;
        w->seq = 0;
        if (w->set) memset(w->set, 0, w->scap * 8);
        w->sn = 0;
        for (int i = 0; i < bn && !w->won; i++) {
            if (wb_closure(w, &beam[i])) { rc = -1; goto out; }
            if (spent(bud, *states + w->states)) goto out;
        }
        if (w->won || !w->hn) break;
        memcpy(beam, w->heap, sizeof(WbState) * (size_t)w->hn);
        bn = w->hn;
        qsort(beam, (size_t)bn, sizeof(WbState), wb_better);
    }
    if (w->won) {
        /* replay the line on the engine's moves: a play goes to the first foundation that
           takes it (raw_moves' order), a deal is the stock's move */
        Move *buf = malloc(sizeof(Move) * (size_t)max_moves(sp));
        int played = 0, ok = buf != NULL;
        won->n = 0;
        for (int k = 0; ok && k < w->win.nm; k++) {
            int nm = raw_moves(p, buf), q = w->win.mv[k], found = -1;
            for (int j = 0; j < nm && found < 0; j++) {
                Move m = buf[j];
                if (q == 255 ? m.s < 0 : m.s == sp->r0 + q && sp->kind[m.d] == K_FOUNDATION)
                    found = j;
            }
            if (found < 0 || push_move(p, buf[found]) || line_add(won, buf[found])) { ok = 0; break; }
            played++;
        }
        ok = ok && is_won(p);
        while (played--) pop_move(p);
        free(buf);
        if (!ok) won->n = 0;
        rc = ok;
    }
out:
    *states += w->states;
    if (cut) *cut = w->bound_cut;
    free(beam); free(w->heap); free(w->loc); free(w->lgen); free(w->set);
    free(w->bp);
    free(w);
    return rc;
}
