/* Part of _core.c (one translation unit: _core.c includes the parts in order):
   the loss bounds: the rank bound of the reserve games, the order bound of Klondike-type games. */

typedef struct { int16_t clicks; Move m; int score; } Child;

static int home_count(const Pos *p, int v) {
    int r = RANK(v), s = SUIT(v), n = 0;
    for (int f = p->sp->f0; f < p->sp->f0 + p->sp->nf; f++)
        if (p->len[f] && SUIT(p->c[f][0]) == s && p->len[f] >= r) n++;
    return n;
}

/* search.py is_safe_any_suit */
static int is_safe_any_suit(const Pos *p, int src) {
    const Spec *sp = p->sp;
    int c = top(p, src), r = RANK(c);
    if (gather_left(p)) return 0;
    if (sp->skip_empty && p->len[0] && p->len[src] < 2) return 0;
    int slots = 0, home = 0;
    for (int f = sp->f0; f < sp->f0 + sp->nf; f++) {
        int h = p->len[f];
        if (h == r - 1) slots++;
        else if (h >= r) home++;
    }
    int total = 0;
    for (int s = 0; s < 4; s++) total += sp->copies[r * 4 + s];
    return slots >= total - home;
}

/* search.py GameKnowledge.proven_lost: the rank bound of reserve-only any-suit games. */
#define MAXC 256

typedef struct {
    int n;
    uint8_t rk[MAXC];        /* rank */
    uint8_t least[MAXC];     /* the least place: counts of lower ranks under it, and chains */
    uint8_t above[MAXC][14]; /* cards of each higher rank above it */
    int16_t under[MAXC];     /* the card right under it when placed, -1 none */
    int16_t st[MAXP][MAXL];  /* the simulated piles (card ids, bottom first) */
    int ns[MAXP];
} Bound;

static void bound_place(Bound *b, int j, int r) {
    int under[14] = {0};
    int id = b->n++;
    int lo = 1;
    for (int q = 0; q < b->ns[j]; q++) {
        int y = b->st[j][q];
        under[b->rk[y]]++;
        if (b->rk[y] < r) b->above[y][r]++;
        if (b->rk[y] <= r && b->least[y] + 1 > lo) lo = b->least[y] + 1;
    }
    for (int s = 1; s < r; s++)
        if (under[s] + 1 > lo) lo = under[s] + 1;
    b->rk[id] = (uint8_t)r;
    b->least[id] = (uint8_t)(lo < 255 ? lo : 255);
    memset(b->above[id], 0, 14);
    b->under[id] = (int16_t)(b->ns[j] ? b->st[j][b->ns[j] - 1] : -1);
    b->st[j][b->ns[j]++] = (int16_t)id;
}

/* search.py playable: the loose test, then the counting one (the cards of each rank from the
   card up its pile against the most of that rank any line can have played by now) */
static int bound_playable(const int *home, const int *played, const int *count, int r) {
    if (home[r - 1] + played[r - 1] <= home[r]) return 0;
    int most = 1000;
    for (int s = 1; s < 14; s++) {
        int a = played[s] + (s == r), c = home[s - 1] - home[s] + most;
        most = a < c ? a : c;
        if (count[s] + (s == r) > most) return 0;
    }
    return 1;
}

static void bound_play_ahead(Bound *b, int nr, const int *home, int *played) {
    int counts[MAXP][14];
    memset(counts, 0, sizeof(int) * 14 * (size_t)nr);
    int moved = 1;
    while (moved) {
        moved = 0;
        for (int j = 0; j < nr; j++)
            while (b->ns[j]) {
                int r = b->rk[b->st[j][b->ns[j] - 1]];
                if (!bound_playable(home, played, counts[j], r)) break;
                b->ns[j]--;
                played[r]++;
                counts[j][r]++;
                moved = 1;
            }
    }
}

/* proven_lost's working space: per thread for speed only (too large for the stack of a bound
   called at every position), not a setting. */
static __thread Bound bound_scratch;

static int proven_lost(const Pos *p) {
    const Spec *sp = p->sp;
    if (!sp->reserve_only || gather_left(p)) return 0;
    int heights[15] = {0};
    for (int f = sp->f0; f < sp->f0 + sp->nf; f++) heights[p->len[f] < 14 ? p->len[f] : 14]++;
    int home[14], left[14];
    home[0] = 1000; /* an ace could always go home */
    left[0] = 0;
    int reached = sp->nf;
    for (int r = 1; r < 14; r++) {
        reached -= heights[r - 1];
        home[r] = reached;
        left[r] = sp->rank_copies[r] - reached;
    }
    Bound *b = &bound_scratch;
    b->n = 0;
    int nr = sp->nr, highest = 0;
    int occupied[MAXP];
    for (int j = 0; j < nr; j++) {
        int i = sp->r0 + j;
        b->ns[j] = 0;
        occupied[j] = p->len[i] > 0;
        if (p->len[i] && RANK(p->c[i][0]) > highest) highest = RANK(p->c[i][0]);
        for (int k = 0; k < p->len[i]; k++) bound_place(b, j, RANK(p->c[i][k]));
    }
    int played[14] = {0};
    bound_play_ahead(b, nr, home, played);
    int nstock = p->len[0], dealt = 0;
    while (dealt < nstock) {
        int targets[MAXP], nt = 0, unsure = 0;
        for (int j = 0; j < nr; j++) {
            if (sp->skip_empty) {
                if (occupied[j] && !b->ns[j]) unsure = 1;
                if (occupied[j]) targets[nt++] = j;
            } else targets[nt++] = j;
        }
        if (unsure || !nt) break;
        for (int q = 0; q < nt && dealt < nstock; q++) {
            bound_place(b, targets[q], RANK(p->c[0][nstock - 1 - dealt]));
            dealt++;
        }
        bound_play_ahead(b, nr, home, played);
    }
    if (dealt == nstock)
        for (int j = 0; j < nr; j++)
            if (b->ns[j]) return 1; /* a card that no order of play can ever play */
    int ncards = b->n;
    /* the most place of each placed card: the higher ranks above it, then the chains */
    int most[MAXC];
    for (int id = 0; id < ncards; id++) {
        int r = b->rk[id], h = left[r];
        for (int s = r + 1; s < 14; s++)
            if (b->above[id][s] && left[s] - b->above[id][s] < h) h = left[s] - b->above[id][s];
        most[id] = h;
    }
    for (int a = ncards - 1; a >= 0; a--)
        for (int y = b->under[a]; y >= 0; y = b->under[y])
            if (b->rk[y] <= b->rk[a] && most[a] - 1 < most[y]) most[y] = most[a] - 1;
    /* Hall's condition, rank by rank (search.py _places) */
    uint8_t lo[14][MAXC];
    int hi[14][MAXC];
    int cnt[14] = {0};
    for (int id = 0; id < ncards + (nstock - dealt); id++) {
        int r, l, h;
        if (id < ncards) {
            r = b->rk[id];
            l = b->least[id];
            h = most[id];
        } else {
            r = RANK(p->c[0][nstock - 1 - dealt - (id - ncards)]);
            l = sp->skip_empty && highest < r ? 2 : 1;
            h = left[r];
        }
        if (h < l) return 1;
        lo[r][cnt[r]] = (uint8_t)l;
        hi[r][cnt[r]] = h;
        cnt[r]++;
    }
    for (int r = 2; r < 14; r++) {
        uint8_t used[MAXC];
        memset(used, 0, (size_t)cnt[r]);
        int done = 0;
        for (int place = 1; place <= left[r]; place++) {
            int best = -1;
            for (int q = 0; q < cnt[r]; q++)
                if (!used[q] && lo[r][q] <= place && (best < 0 || hi[r][q] < hi[r][best])) best = q;
            if (best < 0) continue;
            if (hi[r][best] < place) return 1;
            used[best] = 1;
            done++;
        }
        if (done < cnt[r]) return 1;
    }
    return 0;
}

#define OB_MAXOPT 2400
/* Adds to *nopt the options of a card placed onto a parent p of card b (or b into a space
   when a King), moving from pile t at height k (t < 0: from the stock or waste): returns 1
   when one of them needs nothing, -1 when the arrays are full. */
static int ob_places(const Pos *p, int b, int t, int k, const int8_t *pile_of,
                     const int8_t *idx_of, const uint8_t *in_sw, uint64_t above,
                     uint64_t *od, uint64_t *oe, int *nopt) {
    const Spec *sp = p->sp;
    if (RANK(b) == 13) {
        /* a King goes to a space: another pile must be empty by then */
        for (int u = sp->t0; u < sp->t0 + sp->nt; u++) {
            if (u == t) continue;
            if (!p->len[u]) return 1;
            if (*nopt >= OB_MAXOPT) return -1;
            od[*nopt] = ((uint64_t)1 << (p->c[u][0] & 63)) | above;
            oe[*nopt] = 0;
            (*nopt)++;
        }
        return 0;
    }
    for (int s = 0; s < 4; s++) {
        int q = (RANK(b) + 1) * 4 + s;
        if (RED(q) == RED(b)) continue;
        int qt = pile_of[q];
        uint64_t need_d = 0, need_e = 0;
        if (qt < 0) {
            if (!in_sw[q]) return 1;   /* on a foundation or a reserve: may come */
            need_e = (uint64_t)1 << q; /* in the stock or waste: it must reach the tableau */
        } else {
            int qi = idx_of[q];
            if (qt == t) {
                if (qi < k) continue;  /* under b: never a top while b is there */
                need_d = (uint64_t)1 << q;
            } else if (qi == p->len[qt] - 1) return 1;
            else need_d = (uint64_t)1 << (p->c[qt][qi + 1] & 63);
        }
        if (*nopt >= OB_MAXOPT) return -1;
        od[*nopt] = need_d | above;
        oe[*nopt] = need_e;
        (*nopt)++;
    }
    return 0;
}

/* search.py GameKnowledge.order_lost: the order bound of Klondike-type games (one pack,
   alternate colours, Kings only in spaces, in-suit foundations, no cells, no deal onto the
   tableau). Events: T(c), the first time card c goes home from now (cards home: done); D(x),
   the first time tableau card x leaves its pile; E(v), the first time stock or waste card v
   reaches the tableau. Every winning line orders them so that each event's needs come first
   (docs/solver.md):
   - T(c) needs T(the card one lower of its suit) and, for a tableau card, D(c);
   - D(x) needs D(the card on x) (it leaves first or with x) and one of: going home (T(one
     lower)); or a run based on x or on a face-up card b under x (valid from b to x: the
     cards under x stay put while it is there) moved onto a parent p of b (one rank higher,
     the other colour): nothing when p is on a foundation or a reserve, or a pile's top; E(p)
     when p is in the stock or waste; D(the card on p) when p lies in another pile; D(p) when
     p lies above x in x's pile; impossible when p lies under b in x's pile; a King base goes
     into a space: nothing when a pile is empty, else D(the bottom card of another pile);
   - E(v) needs one of the same places for v itself (a parent, or a space for a King).
   Events are marked, again and again, when what they need is marked; a winning line marks
   every one in its own order, so a T left unmarked means no line wins. */
static int order_lost(const Pos *p) {
    const Spec *sp = p->sp;
    int8_t pile_of[64], idx_of[64];
    uint8_t in_sw[64];
    int height[4] = {0, 0, 0, 0};
    memset(pile_of, -1, sizeof pile_of);
    memset(in_sw, 0, sizeof in_sw);
    for (int f = sp->f0; f < sp->f0 + sp->nf; f++)
        if (p->len[f]) height[SUIT(p->c[f][0])] = p->len[f];
    for (int i = 0; i < p->len[0]; i++) in_sw[p->c[0][i] & 63] = 1;
    if (sp->waste >= 0)
        for (int i = 0; i < p->len[sp->waste]; i++) in_sw[p->c[sp->waste][i] & 63] = 1;
    uint64_t mt = 0, md = ~(uint64_t)0, me = ~(uint64_t)0;   /* marked T, D and E events */
    for (int v = 0; v < 64; v++) {
        if (v < 4 || v >= 56 || RANK(v) <= height[SUIT(v)]) mt |= (uint64_t)1 << v;
        if (in_sw[v]) me &= ~((uint64_t)1 << v);
    }
    for (int t = sp->t0; t < sp->t0 + sp->nt; t++)
        for (int i = 0; i < p->len[t]; i++) {
            int v = p->c[t][i] & 63;
            pile_of[v] = (int8_t)t;
            idx_of[v] = (int8_t)i;
            md &= ~((uint64_t)1 << v);
        }
    /* the options of each D(x) and E(v) still to mark: (T, D, E needed); per thread for speed
       only (scratch, not a setting) */
    static __thread uint64_t ot[OB_MAXOPT], od[OB_MAXOPT], oe[OB_MAXOPT];
    int ostart[64], oend[64], estart[64], eend[64], nopt = 0;
    for (int t = sp->t0; t < sp->t0 + sp->nt; t++) {
        const uint8_t *c = p->c[t];
        int n = p->len[t];
        for (int i = 0; i < n; i++) {
            int x = c[i] & 63, free_ = 0;
            /* the card on x leaves first, or with x (D(x) >= D(that card), a tie allowed) */
            uint64_t above = i + 1 < n ? (uint64_t)1 << (c[i + 1] & 63) : 0;
            ostart[x] = nopt;
            ot[nopt] = (uint64_t)1 << (x - 4 >= 0 ? x - 4 : 0);   /* home */
            od[nopt] = above;
            oe[nopt] = 0;
            nopt++;
            for (int k = i; k >= 0 && !free_; k--) {
                int b = c[k];
                if (k < i && (!(b & UPF) || RANK(b) != RANK(c[k + 1]) + 1 ||
                              RED(b) == RED(c[k + 1])))
                    break;
                int from = nopt;
                int r = ob_places(p, b, t, k, pile_of, idx_of, in_sw, above, od, oe, &nopt);
                if (r < 0) return 0;
                for (int o = from; o < nopt; o++) ot[o] = 0;
                if (r) free_ = 1;
            }
            if (free_) {
                ot[nopt] = 0;
                od[nopt] = above;
                oe[nopt] = 0;
                nopt++;
            }
            oend[x] = nopt;
            if (free_ && !above) md |= (uint64_t)1 << x;
        }
    }
    for (uint64_t m = ~me; m; m &= m - 1) {
        int v = __builtin_ctzll(m);
        estart[v] = nopt;
        int from = nopt;
        int r = ob_places(p, v, -1, 0, pile_of, idx_of, in_sw, 0, od, oe, &nopt);
        if (r < 0) return 0;
        for (int o = from; o < nopt; o++) ot[o] = 0;
        eend[v] = nopt;
        if (r) me |= (uint64_t)1 << v;
    }
    for (;;) {
        int changed = 0;
        for (uint64_t m = ~me; m; m &= m - 1) {
            int v = __builtin_ctzll(m);
            for (int o = estart[v]; o < eend[v]; o++)
                if (!(od[o] & ~md) && !(oe[o] & ~me)) {
                    me |= (uint64_t)1 << v;
                    changed = 1;
                    break;
                }
        }
        for (uint64_t m = ~md; m; m &= m - 1) {
            int x = __builtin_ctzll(m);
            for (int o = ostart[x]; o < oend[x]; o++)
                if (!(ot[o] & ~mt) && !(od[o] & ~md) && !(oe[o] & ~me)) {
                    md |= (uint64_t)1 << x;
                    changed = 1;
                    break;
                }
        }
        for (uint64_t m = ~mt; m; m &= m - 1) {
            int v = __builtin_ctzll(m);
            if (((mt >> (v - 4)) & 1) && ((md >> v) & 1)) {
                mt |= (uint64_t)1 << v;
                changed = 1;
            }
        }
        if (!~mt) return 0;
        if (!changed) return 1;
    }
}
