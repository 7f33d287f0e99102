/* Part of _core.c (one translation unit: _core.c includes the parts in order):
   the canonical key and the transposition table. */

typedef struct { uint64_t a, b; } Key;

static int tableau_interchangeable(const Pos *p) {
    const Spec *sp = p->sp;
    if (sp->has_covers) return 0;  /* each covered or covering pile keeps its place */
    return !sp->deals_to_tableau || (!p->len[0] && !sp->stock_reformed);
}

/* search.py GameKnowledge.gather_left */
static inline int gather_left(const Pos *p) {
    const Spec *sp = p->sp;
    return sp->redeal == R_GATHER && (sp->redeals < 0 || p->redeals_used < sp->redeals);
}

/* search.py GameKnowledge.reserves_interchangeable */
static inline int reserves_interchangeable(const Pos *p) {
    return p->sp->nr > 0 && !p->len[0] && !gather_left(p);
}

static inline void addk(Key *k, uint64_t x1, uint64_t x2, uint64_t salt) {
    k->a += mix1(x1 + salt * 0x9E3779B97F4A7C15ULL);
    k->b += mix2(x2 + salt * 0xD1B54A32D192ED03ULL);
}

static void free_pos_struct(Pos *p) {
    if (!p) return;
    free(p->ops);
    free(p->mstart);
    free(p->mraw);
    free(p);
}

static Key pos_key_cut(const Pos *p, int cycle) {
    const Spec *sp = p->sp;
    Key k = {0, 0};
    if (sp->stock_cycle && cycle) {
        /* the cycle of stock and waste cards in dealing order, from its lowest card */
        uint8_t seq[2 * MAXL];
        int n = 0, lo = 0;
        for (int i = p->len[0] - 1; i >= 0; i--) seq[n++] = p->c[0][i] & 63;
        for (int i = 0; i < p->len[sp->waste]; i++) seq[n++] = p->c[sp->waste][i] & 63;
        for (int i = 1; i < n; i++)
            if (seq[i] < seq[lo]) lo = i;
        uint64_t a = 0, b = 0;
        for (int i = 0; i < n; i++) {
            uint8_t c = seq[(lo + i) % n];
            a += Z1[i][c];
            b += Z2[i][c];
        }
        addk(&k, a, b, 1007);
    } else if (sp->stock_turns && cycle) {
        /* the stock and waste cards in dealing order, and where they are cut: any cut that
           clicks reach from the waste's turning over (multiples of the draw, or the end) is
           one and the same (search.py's key) */
        int nw = p->len[sp->waste], ns = p->len[0], n = 0;
        uint64_t a = 0, b = 0;
        for (int i = 0; i < nw; i++, n++) {
            uint8_t c = p->c[sp->waste][i] & 63;
            a += Z1[n][c];
            b += Z2[n][c];
        }
        for (int i = ns - 1; i >= 0; i--, n++) {
            uint8_t c = p->c[0][i] & 63;
            a += Z1[n][c];
            b += Z2[n][c];
        }
        uint64_t cut = (ns && nw % sp->draw) ? (uint64_t)nw : 0;
        addk(&k, a, b, 1008);
        addk(&k, cut, cut, 1009);
    } else if (sp->stock_reformed) {
        addk(&k, p->h1[0], p->h2[0], 1001);
        if (sp->waste_sink) {
            uint64_t w = p->len[sp->waste] ? (uint64_t)top(p, sp->waste) + 1 : 0;
            addk(&k, w, w, 1010);
        } else if (sp->waste >= 0) addk(&k, p->h1[sp->waste], p->h2[sp->waste], 1002);
        if (sp->limited_redeals) addk(&k, (uint64_t)p->redeals_used, (uint64_t)p->redeals_used, 1003);
    } else {
        addk(&k, (uint64_t)p->len[0], (uint64_t)p->len[0], 1004);
    }
    for (int i = sp->c0; i < sp->c0 + sp->nc; i++) addk(&k, p->h1[i], p->h2[i], 1005);
    int rinter = reserves_interchangeable(p);
    for (int i = sp->r0; i < sp->r0 + sp->nr; i++)
        addk(&k, p->h1[i], p->h2[i], rinter ? 1008 : 2000 + (uint64_t)i);
    int inter = tableau_interchangeable(p);
    for (int i = sp->t0; i < sp->t0 + sp->nt; i++)
        addk(&k, p->h1[i], p->h2[i], inter ? 1006 : 3000 + (uint64_t)i);
    k.a |= 1; /* never the empty slot */
    return k;
}

static inline Key pos_key(const Pos *p) { return pos_key_cut(p, 1); }

typedef struct {
    Key *slots;
    size_t cap, used, max_cap;
} Table;

/* The table's slots: an anonymous mapping (zeroed), in huge pages where the kernel allows
   (madvise): a table of millions of positions is read at random, and with 4 KiB pages nearly
   every lookup also missed the TLB. */
static Key *slots_alloc(size_t cap) {
    size_t bytes = cap * sizeof(Key);
    if (bytes < ((size_t)2 << 20)) return calloc(cap, sizeof(Key));
    void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(m, bytes, MADV_HUGEPAGE);
#endif
    return (Key *)m;
}

static void slots_free(Key *s, size_t cap) {
    if (!s) return;
    size_t bytes = cap * sizeof(Key);
    if (bytes < ((size_t)2 << 20)) free(s);
    else munmap(s, bytes);
}

static int table_init(Table *t, size_t cap, size_t max_cap) {
    t->slots = slots_alloc(cap);
    t->cap = cap;
    t->used = 0;
    t->max_cap = max_cap;
    return t->slots ? 0 : -1;
}

static void table_free(Table *t) { slots_free(t->slots, t->cap); t->slots = NULL; }

/* Empty again. A large table gets fresh pages (the kernel zeroes only those touched again)
   rather than a memset of all of them: a table sized for a long search may be cleared after a
   short phase (solve_pos runs several). */
static void table_clear(Table *t) {
    if (!t->used) return;
    if (t->cap * sizeof(Key) >= ((size_t)2 << 20)) {
        Key *s = slots_alloc(t->cap);
        if (s) {
            slots_free(t->slots, t->cap);
            t->slots = s;
            t->used = 0;
            return;
        }
    }
    memset(t->slots, 0, t->cap * sizeof(Key));
    t->used = 0;
}

/* 1: added, 0: already there, -1: full (memory bound reached). */
static int table_add(Table *t, Key k) {
    if ((t->used + 1) * 2 > t->cap) {
        if (t->cap * 2 > t->max_cap) return -1;
        size_t cap = t->cap * 2;
        Key *s = slots_alloc(cap);
        if (!s) return -1;
        for (size_t i = 0; i < t->cap; i++) {
            Key x = t->slots[i];
            if (!x.a) continue;
            size_t h = (size_t)(x.b & (cap - 1));
            while (s[h].a) h = (h + 1) & (cap - 1);
            s[h] = x;
        }
        slots_free(t->slots, t->cap);
        t->slots = s;
        t->cap = cap;
    }
    size_t h = (size_t)(k.b & (t->cap - 1));
    while (t->slots[h].a) {
        if (t->slots[h].a == k.a && t->slots[h].b == k.b) return 0;
        h = (h + 1) & (t->cap - 1);
    }
    t->slots[h] = k;
    t->used++;
    return 1;
}
