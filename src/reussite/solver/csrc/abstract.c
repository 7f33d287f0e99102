/* Part of _core.c (one translation unit: _core.c includes the parts in order):
   the card-set search of Klondike-type games (Klondike, Klondike draw 3, Athena, Minerva), a
   loss proof and a win finder (docs/solver.md, "The card-set search", with the proofs).

   The search forgets how the face-up tableau cards are arranged. A position is seen as: the
   cards home in each suit; for each pile, how many of its own cards (those under the base of
   its top run, and the base) are still in place; the cards left in the stock and waste (their
   order never changes: cards only leave it), how far the waste reaches and the turns left;
   the reserve's cards left (Minerva). Every other card is face up on the tableau: a base, a
   King on the table, or a card lying on one of its two *parents* (one rank higher, the other
   colour). A card may be put on a parent when the visible parents outnumber the visible cards
   of its rank and colour lying on parents; a card may go home when the visible cards of its
   rank and colour outnumber those lying on them. Every move of the real game is a move of
   this picture or leaves it unchanged, so **lost here is lost**; a win here is turned into
   real moves, each checked against the legal moves (cardset_line), and answered only when
   they win. */

#include <math.h>

/* The counts below are popcounts: the machine's instruction where there is one (x86-64 since
   2008), the compiler's loop elsewhere. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC target("popcnt")
#define AB_POPCNT_PUSHED 1
#endif

#define AB_MAXP 8
#define AB_MAXC 16

typedef struct {
    const Spec *sp;
    int np;                              /* tableau piles */
    int draw;                            /* cards a click turns */
    int back;                            /* foundation cards may come back */
    int n0;                              /* stock and waste cards at the root */
    uint8_t d0[32];                      /* them, in the order clicks bring them (card index) */
    uint8_t col[AB_MAXP][AB_MAXC];       /* each pile's own cards, bottom first (card index) */
    uint8_t up[AB_MAXP][AB_MAXC];        /* an own card face up at the root (Athena's deal) */
    int collen[AB_MAXP];
    uint64_t par[52], pair[52], kids[52];/* parents; the card and its twin; its children */
    uint64_t kings;
    uint8_t dpos[52];                    /* each card's place in d0 (255: not in the deck) */
    int limited;                         /* the waste turned over at most `turns0` times more */
    int turns0;
    uint8_t res[32];                     /* the reserve, bottom first (Minerva) */
    int nres;
} AbSpec;

typedef struct {
    uint64_t vis;        /* face-up tableau cards */
    uint32_t deck;       /* bit q: d0[q] is still in the stock or waste */
    uint8_t fnd[4];      /* cards home per suit */
    uint8_t k[AB_MAXP];  /* own cards still in place per pile (0: empty or a King on the table) */
    uint8_t w;           /* the waste holds the first w cards left in the deck */
    uint8_t turns;       /* turns of the waste left (limited redeals; 0 otherwise) */
    uint8_t rr;          /* the reserve's cards left (Minerva) */
} AbState;

/* The table of states: each slot a state's key (ab_key, under 2^62) times 4 plus its mark;
   0: free. */
typedef struct {
    uint64_t *v;
    size_t cap, n, max;
} AbTable;

/* A state searched to the end (its every child seen) or on the search's path: met again, it
   is not searched again; AB_TODO: to search (new, or on the path when a budget cut the search:
   the next run searches it again, so that a run resumes where the last one stopped, and every
   state in the table but those is one whose children are all in it). */
enum { AB_DONE = 1, AB_PATH = 2, AB_TODO = 3 };

static int abt_init(AbTable *t, size_t cap, size_t max) {
    t->v = calloc(cap, sizeof(uint64_t));
    t->cap = cap; t->n = 0; t->max = max;
    return t->v ? 0 : -1;
}

static void abt_free(AbTable *t) { free(t->v); t->v = NULL; }

/* The slot of `key`, added (AB_TODO) when absent; -1 when the table is full (or out of
   memory). */
static long long abt_slot(AbTable *t, uint64_t key) {
    if (2 * (t->n + 1) > t->cap) {
        if (2 * t->cap > t->max) return -1;
        AbTable g;
        if (abt_init(&g, 2 * t->cap, t->max)) return -1;
        for (size_t i = 0; i < t->cap; i++)
            if (t->v[i]) {
                size_t j = (size_t)mix1(t->v[i] >> 2) & (g.cap - 1);
                while (g.v[j]) j = (j + 1) & (g.cap - 1);
                g.v[j] = t->v[i];
            }
        g.n = t->n;
        abt_free(t);
        *t = g;
    }
    size_t j = (size_t)mix1(key) & (t->cap - 1);
    for (;;) {
        uint64_t x = t->v[j];
        if (!x) break;
        if (x >> 2 == key) return (long long)j;
        j = (j + 1) & (t->cap - 1);
    }
    t->v[j] = key << 2 | AB_TODO;
    t->n++;
    return (long long)j;
}

static inline int abt_mark(const AbTable *t, long long j) { return (int)(t->v[j] & 3); }
static inline void abt_set(AbTable *t, long long j, int m) { t->v[j] = (t->v[j] & ~3ULL) | (uint64_t)m; }

/* Card indices: a card's byte less 4 (rank * 4 + suit - 4, 0..51), so SUIT and RED read them
   as they read cards. */
static inline int ab_rank(int ci) { return ci / 4 + 1; }
static inline uint64_t ab_bit(int ci) { return (uint64_t)1 << ci; }


/* The waste's reach, canonical: a waste whose length is a multiple of the draw, or the whole
   deck, reaches what an empty waste reaches (clicks go from one to the other). */
static int ab_norm_w(const AbSpec *as, int w, int n) {
    if (as->limited) return w;  /* the turns left tell these apart */
    return (w % as->draw == 0 || w == n) ? 0 : w;
}

/* The state's key: a number in mixed radix (cards home per suit, own cards in place per
   pile, the deck's cards left, the waste's reach), under 2^62 (ab_setup checks). */
static uint64_t ab_key(const AbSpec *as, const AbState *s) {
    uint64_t x = 0;
    for (int i = 0; i < 4; i++) x = x * 14 + s->fnd[i];
    for (int i = 0; i < as->np; i++) x = x * (uint64_t)(as->collen[i] + 1) + s->k[i];
    x = x * (uint64_t)(as->nres + 1) + s->rr;
    x = x * (uint64_t)(as->turns0 + 1) + s->turns;
    x = (x << as->n0) | s->deck;
    return x * (uint64_t)(as->n0 + 1) + s->w;
}

static uint64_t ab_bases(const AbSpec *as, const AbState *s) {
    uint64_t m = 0;
    for (int i = 0; i < as->np; i++)
        if (s->k[i]) m |= ab_bit(as->col[i][s->k[i] - 1]);
    return m;
}

/* Pile i's base leaves (home or onto the tableau): its next own card turns up and is the base,
   unless it fits on the own card under it and that one is face up (Athena's deal): then it
   lies on it, and the top run, and the base, go down (as far as that goes on). */
static void ab_reveal(const AbSpec *as, AbState *s, int i) {
    s->k[i]--;
    while (s->k[i]) {
        int k = s->k[i], nb = as->col[i][k - 1];
        s->vis |= ab_bit(nb);
        if (k >= 2 && as->up[i][k - 2] && fits(as->sp, nb + 4, as->col[i][k - 2] + 4)) {
            s->k[i]--;
            continue;
        }
        if (k == 1 && ab_rank(nb) == 13) s->k[i] = 0;  /* a King on the table */
        break;
    }
}

/* Some place takes card ci (not a base of the count: off the tableau, or a base). */
static int ab_fits(const AbSpec *as, const AbState *s, uint64_t nonbase, int ci) {
    if (ab_rank(ci) == 13) {
        int used = 0;
        for (int i = 0; i < as->np; i++) used += s->k[i] > 0;
        used += __builtin_popcountll(s->vis & as->kings & nonbase);
        return used < as->np;
    }
    return __builtin_popcountll(s->vis & as->par[ci]) >
           __builtin_popcountll(nonbase & as->pair[ci] & ~ab_bit(ci));
}

/* A move of the card-set search, as the winning line records it. */
enum { AB_HOME, AB_REVEAL, AB_DECK_HOME, AB_DECK_TAB, AB_BACK, AB_RES_HOME, AB_RES_TAB };
typedef struct { uint8_t type, a; } AbStep;  /* a: a card index, or a pile (AB_REVEAL) */

typedef struct {
    const AbSpec *as;
    AbTable t;
    Budget bud;
    long long states;
    int err, cut;
    int safe;            /* safe cards home as the only child (Settings.cardset_safe) */
    AbStep *steps;       /* a win's moves, the last first (recorded as the search unwinds) */
    AbState *kid;        /* the children of the states on the path, AB_MAXKIDS a depth */
    AbStep *kstep;
    uint64_t *kkey;
    int nsteps, capsteps;
} AbCtx;

static int ab_step(AbCtx *cx, int type, int a) {
    if (cx->nsteps >= cx->capsteps) {
        AbStep *v = grow_to(cx->steps, &cx->capsteps, cx->nsteps + 1, sizeof *v, 256);
        if (!v) { cx->err = 1; return -1; }
        cx->steps = v;
    }
    cx->steps[cx->nsteps].type = (uint8_t)type;
    cx->steps[cx->nsteps].a = (uint8_t)a;
    cx->nsteps++;
    return 0;
}

static int ab_won(const AbState *s) {
    return s->fnd[0] == 13 && s->fnd[1] == 13 && s->fnd[2] == 13 && s->fnd[3] == 13;
}

/* ST_WON, ST_LOST (every state reachable from s seen, none won) or ST_UNKNOWN; `key`: s's. */
static int ab_dfs(AbCtx *cx, const AbState *s, uint64_t key, int depth);

#define AB_MAXKIDS 80
#define AB_MAXDEPTH 4000

/* The children of s (a card home, a base off its pile, a stock or waste card reached by
   clicks to the foundations or the tableau, a foundation card back), with the moves that make
   them; their number. A safe card home from the tableau (an Ace, or a card whose two cards
   one rank lower of the other colour are home), or from the stock and waste when drawing one,
   when one can go, is the only child (with cx->safe; docs/solver.md, "The card-set search"). */
static int ab_children(const AbCtx *cx, const AbState *s, AbState *kid, AbStep *step) {
    const AbSpec *as = cx->as;
    uint64_t bases = ab_bases(as, s), nonbase = s->vis & ~bases;
    int n = 0;
    /* a tableau card home; safe ones first, alone */
    for (int pass = cx->safe ? 0 : 1; pass < 2; pass++)
        for (int su = 0; su < 4; su++) {
            if (s->fnd[su] == 13) continue;
            int ci = s->fnd[su] * 4 + su, r = ab_rank(ci);
            /* drawing one with no limit on turns every stock and waste card is in reach */
            int q = as->dpos[ci];
            int in_deck = pass == 0 && as->draw == 1 && !as->limited && q < as->n0 &&
                          (s->deck >> q & 1);
            if (!(s->vis >> ci & 1) && !in_deck) continue;
            if (pass == 0 && r > 1) {
                int red = RED(ci), ok = 1;
                for (int o = 0; o < 4; o++)
                    if ((o == 1 || o == 2) != red && s->fnd[o] < r - 1) ok = 0;
                if (!ok) continue;
            }
            if (in_deck) {
                kid[n] = *s;
                kid[n].deck &= ~((uint32_t)1 << q);
                kid[n].fnd[su]++;
                kid[n].w = 0;
                step[n].type = AB_DECK_HOME; step[n].a = (uint8_t)ci;
                return n + 1;
            }
            int lying = __builtin_popcountll(nonbase & as->kids[ci]);
            if (__builtin_popcountll(s->vis & as->pair[ci]) <= lying) continue;
            AbState *k = &kid[n];
            *k = *s;
            k->vis &= ~ab_bit(ci);
            k->fnd[su]++;
            for (int i = 0; i < as->np; i++)
                if (s->k[i] && as->col[i][s->k[i] - 1] == ci) { ab_reveal(as, k, i); break; }
            step[n].type = AB_HOME; step[n].a = (uint8_t)ci;
            n++;
            if (pass == 0) return n;
        }
    /* a base moved off its pile's own cards */
    for (int i = 0; i < as->np; i++) {
        if (!s->k[i]) continue;
        int b = as->col[i][s->k[i] - 1];
        if (!ab_fits(as, s, nonbase, b)) continue;
        kid[n] = *s;
        ab_reveal(as, &kid[n], i);
        step[n].type = AB_REVEAL; step[n].a = (uint8_t)i;
        n++;
    }
    /* a stock or waste card reached by clicks */
    uint8_t dk[32], dq[32];
    int nd = 0;
    for (int q = 0; q < as->n0; q++)
        if (s->deck >> q & 1) { dq[nd] = (uint8_t)q; dk[nd++] = as->d0[q]; }
    if (nd) {
        uint8_t seen[3][33];
        memset(seen, 0, sizeof seen);
        int w = s->w, pass = 0, left = s->turns;
        for (;;) {
            int sp_ = as->limited ? pass : 0;  /* passes with different turns left differ */
            if (w && !seen[sp_][w]) {
                seen[sp_][w] = 1;
                int ci = dk[w - 1], su = SUIT(ci);
                AbState base = *s;
                base.deck &= ~((uint32_t)1 << dq[w - 1]);
                base.w = (uint8_t)ab_norm_w(as, w - 1, nd - 1);
                base.turns = (uint8_t)left;
                if (s->fnd[su] * 4 + su == ci) {
                    kid[n] = base;
                    kid[n].fnd[su]++;
                    step[n].type = AB_DECK_HOME; step[n].a = (uint8_t)ci;
                    n++;
                }
                if (ab_fits(as, s, nonbase, ci)) {
                    kid[n] = base;
                    kid[n].vis |= ab_bit(ci);
                    step[n].type = AB_DECK_TAB; step[n].a = (uint8_t)ci;
                    n++;
                }
            }
            if (w < nd) w = w + as->draw < nd ? w + as->draw : nd;
            else if (as->limited) {
                if (left <= 0 || pass >= 2) break;
                left--; pass++; w = 0;
            } else { w = 0; if (++pass > 1) break; }
        }
    }
    /* the reserve's top card (Minerva) home or onto the tableau */
    if (s->rr) {
        int ci = as->res[s->rr - 1], su = SUIT(ci);
        if (s->fnd[su] * 4 + su == ci) {
            kid[n] = *s;
            kid[n].rr--;
            kid[n].fnd[su]++;
            step[n].type = AB_RES_HOME; step[n].a = (uint8_t)ci;
            n++;
        }
        if (ab_fits(as, s, nonbase, ci)) {
            kid[n] = *s;
            kid[n].rr--;
            kid[n].vis |= ab_bit(ci);
            step[n].type = AB_RES_TAB; step[n].a = (uint8_t)ci;
            n++;
        }
    }
    /* a foundation card back */
    if (as->back)
        for (int su = 0; su < 4; su++) {
            if (!s->fnd[su]) continue;
            int ci = (s->fnd[su] - 1) * 4 + su;
            if (!ab_fits(as, s, nonbase, ci)) continue;
            kid[n] = *s;
            kid[n].fnd[su]--;
            kid[n].vis |= ab_bit(ci);
            step[n].type = AB_BACK; step[n].a = (uint8_t)ci;
            n++;
        }
    return n;
}

static int ab_dfs(AbCtx *cx, const AbState *s, uint64_t key, int depth) {
    const AbSpec *as = cx->as;
    if (ab_won(s)) return ST_WON;
    long long slot = abt_slot(&cx->t, key);
    if (slot < 0) { cx->cut = 1; return ST_UNKNOWN; }
    int mk = abt_mark(&cx->t, slot);
    if (mk == AB_DONE || mk == AB_PATH) return ST_LOST;  /* searched, or a cycle */
    cx->states++;
    if (cx->cut || ((cx->states & 1023) == 0 && spent(&cx->bud, cx->states)) ||
        depth >= AB_MAXDEPTH) {
        cx->cut = 1;  /* left AB_TODO */
        return ST_UNKNOWN;
    }
    abt_set(&cx->t, slot, AB_PATH);
    AbState *kid = cx->kid + (size_t)depth * AB_MAXKIDS;
    AbStep *step = cx->kstep + (size_t)depth * AB_MAXKIDS;
    uint64_t *keys = cx->kkey + (size_t)depth * AB_MAXKIDS;
    int n = ab_children(cx, s, kid, step), unknown = 0, r = ST_LOST;
    for (int i = 0; i < n; i++) {  /* the keys first, their slots fetched ahead */
        keys[i] = ab_key(as, &kid[i]);
        __builtin_prefetch(&cx->t.v[(size_t)mix1(keys[i]) & (cx->t.cap - 1)]);
    }
    size_t cap = cx->t.cap;
    for (int i = 0; i < n; i++) {
        int rr = ab_dfs(cx, &kid[i], keys[i], depth + 1);
        if (rr == ST_WON) { ab_step(cx, step[i].type, step[i].a); r = ST_WON; break; }
        if (rr == ST_UNKNOWN) { unknown = 1; if (cx->cut) break; }
    }
    if (r != ST_WON && unknown) r = ST_UNKNOWN;
    if (cx->t.cap != cap) slot = abt_slot(&cx->t, key);  /* the table grew: its slot moved */
    if (slot >= 0) abt_set(&cx->t, slot, cx->cut ? AB_TODO : AB_DONE);
    return r;
}

/* The height of the base of tableau pile i's top run (the face-up cards at its top each lying on
   the card one higher of the other colour, as far down as they go); 0 for an empty pile. The
   cards under the base, face down or (Athena's deal) face up, are the pile's own cards still
   in place: they stay where they are until the base leaves. */
static int cs_base(const Pos *p, int i) {
    int n = p->len[i];
    if (!n) return 0;
    const uint8_t *c = p->c[i];
    int b = n - 1;
    while (b > 0 && (c[b - 1] & UPF) && fits(p->sp, c[b], c[b - 1])) b--;
    return b;
}

/* The card-set picture of p, when its game and position allow it: 0, else -1 (the search
   does not apply). */
static int ab_setup(const Pos *p, AbSpec *as, AbState *s) {
    const Spec *sp = p->sp;
    int limited = !sp->unlimited;
    if (!sp->order_bound || sp->waste < 0 || sp->nc || sp->nt > AB_MAXP || sp->nf != 4 ||
        sp->draw < 1 || (limited && !(sp->redeal == R_TURN_WASTE && sp->redeals > 0)) ||
        sp->nr > 1 || (sp->nr && !sp->res_to_tab))
        return -1;
    memset(as, 0, sizeof *as);
    memset(s, 0, sizeof *s);
    as->sp = sp;
    as->np = sp->nt;
    as->draw = sp->draw;
    as->back = sp->gives_back;
    as->limited = limited;
    if (limited) {
        as->turns0 = sp->redeals - p->redeals_used;
        if (as->turns0 < 0 || as->turns0 > 2) return -1;
        s->turns = (uint8_t)as->turns0;
    }
    if (sp->nr) {  /* a reserve (Minerva): its top card goes home or onto the tableau */
        int r = sp->r0, m = p->len[r];
        if (m > 32) return -1;
        for (int q = 0; q < m; q++) {
            int ci = (p->c[r][q] & 63) - 4;
            if (ci < 0 || ci >= 52) return -1;
            as->res[q] = (uint8_t)ci;
        }
        as->nres = m;
        s->rr = (uint8_t)m;
    }
    int ns = p->len[0], nw = p->len[sp->waste];
    if (ns + nw > 32) return -1;
    for (int q = 0; q < nw; q++) as->d0[as->n0++] = (uint8_t)((p->c[sp->waste][q] & 63) - 4);
    for (int q = ns - 1; q >= 0; q--) as->d0[as->n0++] = (uint8_t)((p->c[0][q] & 63) - 4);
    memset(as->dpos, 255, sizeof as->dpos);
    for (int q = 0; q < as->n0; q++) as->dpos[as->d0[q]] = (uint8_t)q;
    s->deck = as->n0 >= 32 ? 0xFFFFFFFFu : (((uint32_t)1 << as->n0) - 1);
    s->w = (uint8_t)ab_norm_w(as, nw, as->n0);
    for (int f = sp->f0; f < sp->f0 + sp->nf; f++)
        if (p->len[f]) {
            int t = top(p, f);
            s->fnd[SUIT(t)] = (uint8_t)RANK(t);
        }
    for (int j = 0; j < sp->nt; j++) {
        int i = sp->t0 + j, n = p->len[i];
        const uint8_t *c = p->c[i];
        if (n && !(c[n - 1] & UPF)) return -1;  /* a face-down top */
        int down = cs_base(p, i);  /* the base: the lowest card of the top run */
        if (down + 1 > AB_MAXC) return -1;
        for (int k = 0; k < n; k++) {
            int ci = (c[k] & 63) - 4;
            if (ci < 0 || ci >= 52) return -1;
            if (k >= down) s->vis |= ab_bit(ci);
            if (k <= down) {
                as->col[j][k] = (uint8_t)ci;
                as->up[j][k] = (c[k] & UPF) != 0;
            }
        }
        if (!n) continue;
        as->collen[j] = down + 1;
        s->k[j] = (uint8_t)(down + 1);
        if (!down && RANK(c[0]) == 13) s->k[j] = 0;
    }
    double bits = 4 * log2(14.0) + (double)as->n0 + log2((double)as->n0 + 1.0) +
                  log2((double)as->nres + 1.0) + log2((double)as->turns0 + 1.0);
    for (int j = 0; j < sp->nt; j++) bits += log2((double)as->collen[j] + 1.0);
    if (bits > 61.5) return -1;  /* the key would not fit in 62 bits */
    for (int ci = 0; ci < 52; ci++) {
        int r = ab_rank(ci), red = RED(ci);
        for (int cj = 0; cj < 52; cj++) {
            int r2 = ab_rank(cj), red2 = RED(cj);
            if (r2 == r + 1 && red2 != red) as->par[ci] |= ab_bit(cj);
            if (r2 == r && red2 == red) as->pair[ci] |= ab_bit(cj);
            if (r2 == r - 1 && red2 != red) as->kids[ci] |= ab_bit(cj);
        }
        if (r == 13) as->kings |= ab_bit(ci);
    }
    return 0;
}

/* A card-set search that can be resumed (one root). */
typedef struct {
    AbSpec as;
    AbState root;
    AbCtx cx;
    int ready;
} AbRun;

static void abrun_free(AbRun *run) {
    if (run->ready) abt_free(&run->cx.t);
    free(run->cx.steps);
    free(run->cx.kid);
    free(run->cx.kstep);
    free(run->cx.kkey);
    run->cx.steps = NULL;
    run->cx.kid = NULL;
    run->cx.kstep = NULL;
    run->cx.kkey = NULL;
    run->ready = 0;
}

/* The card-set search from p, resumed where the last run on `run` stopped (a fresh `run`:
   zeroed): ST_LOST (a proof), ST_WON (the picture's line in run->cx.steps; it proves
   nothing), ST_UNKNOWN (the budget ran out), -1 (it does not apply); *added: the positions this
   run added. safe: Settings.cardset_safe, read by the first run. */
static int abstract_resume(AbRun *run, const Pos *p, int safe, const Budget *bud,
                           size_t max_table, long long *added) {
    *added = 0;
    if (!run->ready) {
        if (ab_setup(p, &run->as, &run->root)) return -1;
        memset(&run->cx, 0, sizeof run->cx);
        run->cx.as = &run->as;
        run->cx.safe = safe;
        size_t max = max_table / 2 > ((size_t)1 << 21) ? max_table / 2 : ((size_t)1 << 21);
        size_t slots = (size_t)AB_MAXDEPTH * AB_MAXKIDS;
        run->cx.kid = malloc(slots * sizeof(AbState));
        run->cx.kstep = malloc(slots * sizeof(AbStep));
        run->cx.kkey = malloc(slots * sizeof(uint64_t));
        if (!run->cx.kid || !run->cx.kstep || !run->cx.kkey ||
            abt_init(&run->cx.t, (size_t)1 << 20, max)) {
            run->ready = 1;
            abrun_free(run);
            return -1;
        }
        run->ready = 1;
    }
    AbCtx *cx = &run->cx;
    cx->as = &run->as;
    long long before = cx->states;
    cx->bud = *bud;  /* its positions: those this run adds */
    if (bud->max_states >= 0) cx->bud.max_states = before + bud->max_states;
    cx->cut = 0;
    int r = ab_dfs(cx, &run->root, ab_key(&run->as, &run->root), 0);
    *added = cx->states - before;
    if (r == ST_LOST && cx->cut) r = ST_UNKNOWN;
    if (cx->err) r = ST_UNKNOWN;
    if (r == ST_WON)  /* the moves in order */
        for (int i = 0, j = cx->nsteps - 1; i < j; i++, j--) {
            AbStep t = cx->steps[i]; cx->steps[i] = cx->steps[j]; cx->steps[j] = t;
        }
    return r;
}

static int cardset_line(Pos *p, const AbStep *steps, int nsteps, Line *out);

/* Shares of solve_pos's budget (from the start) where the card-set search's two runs end. */
#define CARDSET_FIRST 0.3
#define CARDSET_END 0.95

/* One run of the card-set search from p (resumed on `run`) up to `share` of the budget from
   `start`; its positions are added to *total. ST_LOST: a proof; ST_WON: its line of real moves
   in *won (replayable); ST_UNKNOWN, with *seen_win set when the picture was won but its line
   did not become one of real moves (never seen); -1: it does not apply to p. *phase set to
   PH_CARDSET when it runs. Times are of the clock clk. */
static int cardset_phase(AbRun *run, Pos *p, int safe, clockid_t clk, double start,
                         double time_limit, long long max_states, double share,
                         size_t max_table, long long *total, Line *won, int *seen_win,
                         int *phase) {
    Budget b = {time_limit < 0 ? -1.0 : start + time_limit * share,
                max_states < 0 ? -1 : (long long)((double)max_states * share) - *total, clk};
    if (b.max_states == 0 || (b.max_states < 0 && max_states >= 0)) return ST_UNKNOWN;
    if (b.deadline >= 0 && now(clk) >= b.deadline) return ST_UNKNOWN;
    *phase = PH_CARDSET;
    long long added;
    int r = abstract_resume(run, p, safe, &b, max_table, &added);
    *total += added;
    if (r == ST_WON) {
        if (cardset_line(p, run->cx.steps, run->cx.nsteps, won) == 0) return ST_WON;
        won->n = 0;
        *seen_win = 1;
        return ST_UNKNOWN;
    }
    return r;
}

/* The tableau pile (not `not`) that takes card c now: its top a parent of c, or, for a King,
   the first space; -1 when none. */
static int cs_dest(const Pos *p, int c, int not) {
    const Spec *sp = p->sp;
    for (int j = sp->t0; j < sp->t0 + sp->nt; j++) {
        if (j == not) continue;
        if (p->len[j] ? (top(p, j) & UPF) && fits(sp, c, top(p, j)) : RANK(c) == 13) return j;
    }
    return -1;
}

static int cs_home(const Pos *p, int c) {
    const Spec *sp = p->sp;
    for (int f = sp->f0; f < sp->f0 + sp->nf; f++)
        if (accepts(p, f, c)) return f;
    return -1;
}

/* Play m when it is legal (one of raw_moves) and record it: 0, else -1. */
static int cs_play(Pos *p, Move m, Move *buf, Line *out) {
    int n = raw_moves(p, buf), ok = 0;
    for (int k = 0; k < n && !ok; k++)
        ok = buf[k].s == m.s && buf[k].d == m.d && buf[k].n == m.n;
    if (!ok || push_move(p, m)) return -1;
    if (line_add(out, m)) { pop_move(p); return -1; }
    return 0;
}

/* The real moves of the card-set search's winning line from p (its root): each step made
   legal as the counts promise (a card lying on the card to go home moved onto its twin first,
   clicks up to a stock card); every move is checked against the legal moves and p is left as
   it was. 0 with the line in *out when it ends in a won position, else -1 (never expected:
   the line is then not used). */
static int cardset_line(Pos *p, const AbStep *steps, int nsteps, Line *out) {
    const Spec *sp = p->sp;
    Move *buf = malloc(sizeof(Move) * (size_t)max_moves(sp));
    if (!buf) return -1;
    int base = p->nmoves, rc = -1;
    out->n = 0;
    for (int q = 0; q < nsteps; q++) {
        int type = steps[q].type, a = steps[q].a;
        if (type == AB_REVEAL) {
            int i = sp->t0 + a, n = p->len[i], d = cs_base(p, i);
            if (d >= n) goto done;
            int j = cs_dest(p, p->c[i][d], i);
            Move m = {(int8_t)i, (int8_t)j, (int16_t)(n - d)};
            if (j < 0 || cs_play(p, m, buf, out)) goto done;
            continue;
        }
        int c = (a + 4) | UPF;
        if (type == AB_HOME) {
            int pi = -1, h = -1;
            for (int j = sp->t0; j < sp->t0 + sp->nt && pi < 0; j++)
                for (int k = 0; k < p->len[j]; k++)
                    if (p->c[j][k] == c) { pi = j; h = k; break; }
            if (pi < 0) goto done;
            if (h < p->len[pi] - 1) {  /* the card on it goes onto its twin */
                int twin = ((RANK(c) * 4 + (3 - SUIT(c))) | UPF), j2 = -1;
                for (int j = sp->t0; j < sp->t0 + sp->nt; j++)
                    if (j != pi && p->len[j] && top(p, j) == twin) j2 = j;
                Move m = {(int8_t)pi, (int8_t)j2, (int16_t)(p->len[pi] - 1 - h)};
                if (j2 < 0 || cs_play(p, m, buf, out)) goto done;
            }
            int f = cs_home(p, c);
            Move m = {(int8_t)pi, (int8_t)f, 1};
            if (f < 0 || cs_play(p, m, buf, out)) goto done;
            continue;
        }
        if (type == AB_RES_HOME || type == AB_RES_TAB) {
            int r = sp->r0;
            int dst = type == AB_RES_HOME ? cs_home(p, c) : cs_dest(p, c, -1);
            Move m = {(int8_t)r, (int8_t)dst, 1};
            if (!p->len[r] || (top(p, r) | UPF) != c || dst < 0 || cs_play(p, m, buf, out))
                goto done;
            continue;
        }
        if (type == AB_BACK) {
            int f0 = -1;
            for (int f = sp->f0; f < sp->f0 + sp->nf; f++)
                if (p->len[f] && top(p, f) == c) f0 = f;
            int j = cs_dest(p, c, -1);
            Move m = {(int8_t)f0, (int8_t)j, 1};
            if (f0 < 0 || j < 0 || cs_play(p, m, buf, out)) goto done;
            continue;
        }
        /* a stock or waste card: clicks until it is the waste's top */
        int limit = 2 * (p->len[0] + p->len[sp->waste]) + 4;
        while (!(p->len[sp->waste] && (top(p, sp->waste) | UPF) == c)) {
            Move click = {-1, -1, 0};
            if (--limit < 0 || cs_play(p, click, buf, out)) goto done;
        }
        int dst = type == AB_DECK_HOME ? cs_home(p, c) : cs_dest(p, c, -1);
        Move m = {(int8_t)sp->waste, (int8_t)dst, 1};
        if (dst < 0 || cs_play(p, m, buf, out)) goto done;
    }
    rc = is_won(p) ? 0 : -1;
done:
    while (p->nmoves > base) pop_move(p);
    free(buf);
    return rc;
}

#ifdef AB_POPCNT_PUSHED
#pragma GCC pop_options
#endif
