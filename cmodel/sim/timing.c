/* timing.c: pipelines and memory model around gpu_top (timing.h, docs/workload.md "Timing model"). */
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

#define NSM SMK_NUM_SM
#define NW SMK_WARPS
#define NT SMK_TB_SLOTS
#define NCP SMK_CP
#define KN SMK_KERNELS
#define PQ SMK_PTBQ
#define CH SMK_CTX_MAX_LINES
#define WHEEL (1u << 11)     /* timing-wheel buckets (cycles) per SM; events due later wait in the far list */
#define MQ 256               /* outstanding context requests per SM (the engine allows <= PE_OMAX) */
#define NONE 0xffffffffu
#define FP 8                 /* channel times in 1/256 cycle */

/* The fields written at every issue or completion are not of a character type (uint8_t): a store
 * through one may alias anything, and the compiler would reload every other value after it. */
typedef struct {     /* a warp and its generation: kept whole by the warp, copied into its events */
    uint32_t gen : 16; /* incremented when the warp slot is freed or launched (its events become stale) */
    uint32_t w : 8, sm : 8;
} wid_t;

typedef struct {     /* 16 bytes */
    uint32_t next;   /* the list the event is in: a wheel bucket, the far list, an SM's queue, the free list */
    uint32_t due;    /* cycle, modulo 2^32 (an event is never due 2^32 cycles or more after its issue) */
    wid_t id;        /* the warp at issue (stale when id.gen differs from the warp's) */
    uint32_t act : 8, lines : 8; /* lines: L1 misses of a global instruction (held in the SM's MSHRs) */
    /* the warp waits for this instruction (wait bit). A warp issues only when ready, so not while it
     * waits: while a dependent instruction is in flight and its warp's generation is unchanged, it
     * is the only one the warp waits for (-DTM_CHECK checks this against an explicit record) */
    uint32_t dep : 16;
} ev_t;

/* per warp: everything one issue or completion touches, 16 bytes (4 warps per cache line) */
typedef struct {
    uint32_t left;   /* instructions left to issue */
    wid_t id;
    uint16_t infl, ncls; /* instructions in flight; the class of the next one */
    uint8_t kid, ks, nthr; /* written at launch only */
    uint8_t ib;       /* instructions in the warp's instruction buffer (docs/workload.md "Front end") */
} twarp_t;

/* per driver kernel-table entry: its statistics and what an issue reads of its kernel (tm_new), in
 * one 1024-byte block (addressed by a shift). The two draws compared with cumulative thresholds
 * (the next class, r_cls, and the active threads, r_act; issue_all()) are looked up by their top 8
 * bits: the entry is the result when no threshold falls inside the range of those 8 bits (the
 * count of thresholds at or below the draw is then the same for all of it), else TK_SLOW and
 * issue_all() compares with the thresholds as wl_kernel_t gives them. */
#define TK_SLOW 0xffu
#define TK_BYTES 1024
typedef struct {
    tm_kstat_t ks;
    const wl_kernel_t *k;
    uint64_t dep_lim;        /* (r >> 43) < dep_lim  <=>  r_dep = (r >> 43) << 11 < t_dep */
    uint8_t cls_of[256];     /* the class: the number of thresholds cmix[i] (i < WL_NCLASS - 1) at or below r_cls */
    uint8_t act_of[256];     /* act_thr[a], capped at TK_SLOW - 1 (the warp's nthr <= 32 caps it anyway) */
    uint8_t pad[TK_BYTES - sizeof(tm_kstat_t) - 16 - 512];
} tkern_t;
_Static_assert(sizeof(tkern_t) == TK_BYTES, "tkern_t: one power-of-2 block per kernel");

typedef struct {
    /* the masks and counters of every cycle, in one cache line */
    _Alignas(64) wmask_t wait, full, done, busy;
    wmask_t gnext;   /* the warp's next instruction is a global-memory one */
    /* the front end (docs/workload.md "Front end"): the warps whose instruction buffer is empty */
    wmask_t ibe;
    uint32_t mem_out; /* L1-miss lines in flight (MSHRs) */
    /* the SM's completion queue (docs/workload.md "Timing model"): events due but not yet given a
     * port, by due cycle, then issue order; a FIFO through ev_t.next */
    uint32_t qhead, qtail;
    /* the fetch made in the previous cycle: how many warps (their indices, generations and the
     * instructions each brings follow), and the last warp fetched */
    uint16_t nf, flast;
    /* the pipelines (docs/workload.md "Pipelines"), second cache line: per unit, the warps whose next
     * instruction goes to it, when it is free (ALU: cycle afree with aused of its alu_units starts
     * taken; SFU, LD/ST: the cycle of their next possible start) and its queue of instructions
     * issued and not yet started (timing_t.qst: head qh, count qn) */
    _Alignas(64) wmask_t unext[WL_NUNIT];
    /* the warps whose next instruction is an f32 multiply (also in unext[WL_U_ALU], its first choice),
     * and those of them the SFU admits in this cycle (inputs_sm; issue_one sends them there) */
    wmask_t fnext, fsfu;
    uint64_t afree, ufree[WL_NUNIT];
    uint32_t aused;
    uint8_t qh[WL_NUNIT], qn[WL_NUNIT];
    uint8_t fw[8], fn[8];
    uint16_t fgen[8];
    twarp_t wv[NW];  /* per warp */
    /* per TB slot */
    uint8_t cmd_op[NT];
    uint16_t cmd_q[NT];
    /* context requests in flight (the entries themselves: timing_t.mq) */
    int nmq;
    uint64_t mq_min;
} tsm_t;

typedef struct {
    uint64_t due[MQ];
    uint32_t tag[MQ];
} mq_t;

typedef struct {     /* a FIFO of events through ev_t.next; empty when head == NONE (tail is then stale) */
    uint32_t head, tail;
} elist_t;

struct timing {
    const workload_t *wl;
    tkern_t tk[KN];
    int nk;
    rng_t r;
    uint32_t nch, max_inflight, mem_lat, l1_lat, l2_lat, mshr, ctx_prio, ctx_free;
    uint32_t aun, qcap[WL_NUNIT], fwarps, ibsz;
    uint32_t iv[WL_NCLASS]; /* cycles a start holds its unit: the SFU classes' intervals, shared 1 (ALU, global: unused) */
    wmask_t smask[SMK_SCHED]; /* the warps of scheduler s: w mod S = s */
    uint32_t dlat[WL_NCLASS]; /* an instruction of class cls (not global) is due at start + dlat[cls] */
    uint64_t serv_fp;
    uint64_t ch_free[64];
    tsm_t sm[NSM];
    /* per SM and pipeline: the start cycles of the instructions in its queue, a FIFO (starts increase) */
    uint64_t qst[NSM][WL_NUNIT][WL_QUEUE_MAX];
    mq_t mq[NSM];
    /* saved progress per PTBQ entry, by warp rank */
    uint32_t saved[PQ][NW];
    uint32_t nev, free_head; /* events: the pool (ev, at the end) and its free list */
    uint32_t nmq;            /* context requests in flight, all SMs (tsm_t.nmq: per SM) */
    /* per cycle modulo WHEEL and per SM: the events due in that cycle, in issue order (the SMs of a
     * cycle side by side: one or two cache lines per cycle) */
    elist_t wheel[WHEEL][NSM];
    elist_t far;                /* events due WHEEL or more cycles after their issue, in issue order */
    tm_stat_t st;
#ifdef TM_CHECK
    /* -DTM_CHECK: check the order of completions (docs/workload.md "Timing model"): per SM, the
     * granted events' (due cycle, issue number) keys strictly increase, and none is early; and
     * ev_t.dep against the event each warp waits for (NONE: none) */
    uint64_t *seq, *cdue, nseq, now, last_due[NSM], last_seq[NSM];
    uint32_t wait_ev[NSM][NW];
#endif
    ev_t ev[]; /* nev events (tm_new) */
};

timing_t *tm_new(const workload_t *wl, const int *kmap, int nk, uint64_t seed)
{
    /* every warp can have max_inflight instructions in flight; the rest is slack for the events of
     * removed warps (DROP) that are still in the wheel or in a waiting queue */
    const uint32_t nev = (uint32_t)NSM * NW * (wl->m.max_inflight + 1) + 1024;
    /* tsm_t is 64-byte aligned: aligned_alloc, size rounded up to the alignment */
    const size_t sz = (sizeof(timing_t) + (size_t)nev * sizeof(ev_t) + 63) / 64 * 64;
    timing_t *t = aligned_alloc(64, sz);
    if (!t)
        return NULL;
    memset(t, 0, sz);
    t->wl = wl, t->nk = nk, t->nev = nev;
    for (int k = 0; k < nk; k++) {
        const wl_kernel_t *wk = &wl->k[kmap[k]];
        tkern_t *tk = &t->tk[k];
        tk->k = wk;
        tk->dep_lim = (wk->t_dep + (1u << 11) - 1) >> 11; /* x << 11 < t  <=>  x < ceil(t / 2^11) */
        for (uint64_t b = 0; b < 256; b++) {
            /* the draws of the range: r_cls = lo .. lo + 2^24 - 2^10, r_act = lo .. lo + 2^24 - 2^11 */
            const uint64_t lo = b << 24, hi_cls = lo + (1u << 24) - (1u << 10), hi_act = lo + (1u << 24) - (1u << 11);
            uint32_t n = 0, mixed = 0;
            for (int i = 0; i < WL_NCLASS - 1; i++)
                n += lo >= wk->cmix[i], mixed |= wk->cmix[i] > lo && wk->cmix[i] <= hi_cls;
            tk->cls_of[b] = (uint8_t)(mixed ? TK_SLOW : n);
            n = 0, mixed = 0;
            for (uint32_t i = 0; i + 1 < wk->n_act; i++)
                n += lo >= wk->cact[i], mixed |= wk->cact[i] > lo && wk->cact[i] <= hi_act;
            tk->act_of[b] = (uint8_t)(mixed ? TK_SLOW : wk->act_thr[n] < TK_SLOW ? wk->act_thr[n] : TK_SLOW - 1);
        }
    }
    rng_seed(&t->r, seed);
    t->nch = wl->m.mem_channels, t->max_inflight = wl->m.max_inflight, t->mem_lat = wl->m.mem_latency;
    t->l1_lat = wl->m.l1_latency, t->l2_lat = wl->m.l2_latency, t->mshr = wl->m.mshr, t->ctx_prio = wl->m.ctx_priority;
    /* the latencies: integer multiplies and f32 multiplies take the ALU's, an f32 divide the SFU's
     * (docs/workload.md "Pipelines") */
    static const uint8_t lat_of[WL_NCLASS] = {WL_ALU, WL_SFU, WL_SHARED, WL_SHARED, WL_ALU, WL_ALU, WL_ALU, WL_SFU};
    for (int i = 0; i < WL_NCLASS; i++)
        t->dlat[i] = wl->m.lat[lat_of[i]] ? wl->m.lat[lat_of[i]] : 1, t->iv[i] = wl->m.sint[i];
    t->iv[WL_SHARED] = 1;
    t->aun = wl->m.alu_units;
    t->fwarps = wl->m.fetch_warps, t->ibsz = wl->m.ibuffer;
    for (int u = 0; u < WL_NUNIT; u++)
        t->qcap[u] = wl->m.queue[u];
    for (int w = 0; w < NW; w++)
        t->smask[w % SMK_SCHED] |= (wmask_t)1 << w;
    t->serv_fp = (uint64_t)(wl->m.mem_service * (1 << FP) + 0.5);
    if (!t->serv_fp)
        t->serv_fp = 1;
    for (uint32_t i = 0; i < t->nev; i++)
        t->ev[i].next = i + 1 < t->nev ? i + 1 : NONE;
    t->free_head = 0;
#ifdef TM_CHECK
    t->seq = calloc(t->nev, sizeof *t->seq), t->cdue = calloc(t->nev, sizeof *t->cdue);
    if (!t->seq || !t->cdue) {
        free(t->seq), free(t->cdue), free(t);
        return NULL;
    }
#endif
    for (uint32_t b = 0; b < WHEEL; b++)
        for (int s = 0; s < NSM; s++)
            t->wheel[b][s].head = NONE;
    t->far.head = NONE;
    for (int s = 0; s < NSM; s++) {
        for (int w = 0; w < NW; w++) {
            t->sm[s].wv[w].id = (wid_t){.gen = 0, .w = (uint32_t)w, .sm = (uint32_t)s};
#ifdef TM_CHECK
            t->wait_ev[s][w] = NONE;
#endif
        }
        t->sm[s].mq_min = UINT64_MAX;
        t->sm[s].ibe = ~(wmask_t)0, t->sm[s].flast = NW - 1;
        t->sm[s].qhead = t->sm[s].qtail = NONE;
    }
    return t;
}

void tm_free(timing_t *t)
{
    if (t) {
#ifdef TM_CHECK
        free(t->seq), free(t->cdue);
#endif
        free(t);
    }
}

const tm_kstat_t *tm_kstat(const timing_t *t, int k) { return &t->tk[k].ks; }
const tm_stat_t *tm_stat(const timing_t *t) { return &t->st; }
void tm_set_ctx_free(timing_t *t, int on) { t->ctx_free = on != 0; }

void tm_reset_stats(timing_t *t)
{
    for (int k = 0; k < KN; k++)
        memset(&t->tk[k].ks, 0, sizeof t->tk[k].ks);
    memset(&t->st, 0, sizeof t->st);
}

/* append event e, whose next is NONE, to l */
static inline void el_link(timing_t *t, elist_t *l, uint32_t e)
{
    if (l->head == NONE)
        l->head = e;
    else
        t->ev[l->tail].next = e;
    l->tail = e;
}

static inline void el_append(timing_t *t, elist_t *l, uint32_t e)
{
    t->ev[e].next = NONE;
    el_link(t, l, e);
}

/* Event e of SM s (next NONE, due set), issued in cycle c, due in cycle due > c: into the wheel
 * bucket of (due, s), or, if it is due WHEEL or more cycles later, into the far list. Both are FIFOs,
 * so a bucket holds its events in issue order: an issue in cycle c can only reach buckets up to
 * c + WHEEL - 1, and a far event moves into its bucket (far_move) before any issue can reach it. */
static inline void ev_push(timing_t *t, int s, uint32_t e, uint64_t due, uint64_t c)
{
    elist_t *const col = &t->wheel[0][s]; /* the SM's buckets, NSM apart */
    el_link(t, due - c < WHEEL ? col + (due & (WHEEL - 1)) * NSM : &t->far, e);
}

/* At the start of cycle c: the far events due in cycle c + WHEEL - 1 (the cycle that no issue of
 * cycle c - 1 could reach) move, in issue order, into their buckets (which are empty). The far list
 * is empty unless latencies or memory queues exceed WHEEL cycles; it is scanned whole. */
static void far_move(timing_t *t, uint64_t c)
{
    const uint32_t d = (uint32_t)(c + WHEEL - 1);
    uint32_t e = t->far.head, prev = NONE;
    while (e != NONE) {
        const uint32_t nx = t->ev[e].next;
        if (t->ev[e].due == d) {
            if (prev == NONE)
                t->far.head = nx;
            else
                t->ev[prev].next = nx;
            if (t->far.tail == e)
                t->far.tail = prev;
            el_append(t, &t->wheel[d & (WHEEL - 1)][t->ev[e].id.sm], e);
        } else
            prev = e;
        e = nx;
    }
}

/* SM m's completion queue in cycle c, served from its head (docs/workload.md "Timing model"): an
 * entry whose warp was removed (DROP) since its issue is discarded without a port (its MSHRs are
 * given back); the others take the free ports in queue order (cp_v bit 0, 1, ...); serving stops at
 * the first live entry that finds none. Returns the number of ports taken; adds the completions'
 * packed per-slot sum (qu_cp1_i) to *csum. */
static inline uint32_t serve_queue(timing_t *restrict t, sm_in_t *restrict si, tsm_t *restrict m, uint64_t c,
                                   uint64_t *restrict csum)
{
    ev_t *const ev = t->ev;
    const uint32_t c32 = (uint32_t)c;
    uint32_t ncp = 0, e = m->qhead;
    while (e != NONE) {
        ev_t *const v = &ev[e];
        const uint32_t nx = v->next;
        const uint32_t w = v->id.w;
        twarp_t *const x = &m->wv[w];
        if (v->id.gen == x->id.gen) { /* live: the completion, on the next port */
            if (ncp == NCP)
                break;
#ifdef TM_CHECK
            const uint32_t sm = v->id.sm;
            if (t->cdue[e] > t->now || t->cdue[e] < t->last_due[sm] ||
                (t->cdue[e] == t->last_due[sm] && t->seq[e] <= t->last_seq[sm])) {
                fprintf(stderr, "smk: TM_CHECK: SM %u cycle %llu: completion due %llu issue %llu after due %llu issue %llu\n",
                        sm, (unsigned long long)t->now, (unsigned long long)t->cdue[e],
                        (unsigned long long)t->seq[e], (unsigned long long)t->last_due[sm],
                        (unsigned long long)t->last_seq[sm]);
                exit(3);
            }
            t->last_due[sm] = t->cdue[e], t->last_seq[sm] = t->seq[e];
            if ((t->wait_ev[sm][w] == e) != v->dep) {
                fprintf(stderr, "smk: TM_CHECK: SM %u cycle %llu: warp %u: dep %u, waits for event %u, not %u\n", sm,
                        (unsigned long long)t->now, w, v->dep, t->wait_ev[sm][w], e);
                exit(3);
            }
            if (v->dep)
                t->wait_ev[sm][w] = NONE;
#endif
            t->st.cp_deferred += c32 - v->due; /* cycles it waited for a port */
            si->cp_ks[ncp] = x->ks;
            si->cp_act[ncp] = (uint8_t)v->act;
#if SM_QUIET
            *csum += qu_cp1_i(x->ks, v->act);
#else
            (void)csum;
#endif
            ncp++;
            t->tk[x->kid].ks.thr += v->act;
            /* branch-free (both conditions are data: random latencies and dependences) */
            m->full &= ~(1ULL << w);
            m->busy &= ~((wmask_t)(--x->infl == 0) << w); /* its last instruction in flight */
            m->wait &= ~((wmask_t)v->dep << w);            /* the one the warp waits for */
        }
        /* granted or stale: its MSHRs are given back, the event is free */
        m->mem_out -= v->lines;
        v->next = t->free_head, t->free_head = e;
        e = nx;
    }
    m->qhead = e; /* qtail is stale when the queue is empty */
    return ncp;
}

/* one 128-byte line through channel ch, requested in cycle now: cycle of its completion */
static inline uint64_t dram(timing_t *t, uint32_t ch, uint64_t now)
{
    uint64_t start = now << FP;
    if (t->ch_free[ch] > start)
        start = t->ch_free[ch];
    t->ch_free[ch] = start + t->serv_fp;
    return ((t->ch_free[ch] + (1u << FP) - 1) >> FP) + t->mem_lat;
}

/* a context line: like dram(), or with ctx_priority ahead of the queued lines (it still takes its
 * service time from the channel, so the queued lines behind it are delayed) */
static inline uint64_t dram_ctx(timing_t *t, uint32_t ch, uint64_t now)
{
    if (t->ctx_free) /* --ctx-free: no channel, answered in the next cycle */
        return now + 1;
    if (!t->ctx_prio)
        return dram(t, ch, now);
    const uint64_t start = now << FP;
    if (t->ch_free[ch] < start)
        t->ch_free[ch] = start;
    t->ch_free[ch] += t->serv_fp;
    return ((start + t->serv_fp + (1u << FP) - 1) >> FP) + t->mem_lat;
}

/* the pipeline of each instruction class (docs/workload.md "Pipelines"); fmul: its first choice */
static const uint8_t unit_of[WL_NCLASS] = {WL_U_ALU, WL_U_SFU, WL_U_LDST, WL_U_LDST, WL_U_SFU, WL_U_SFU, WL_U_ALU, WL_U_SFU};

/* the schedulers with a warp in mask x (warp w belongs to scheduler w mod S): bit s set. With S a
 * power of two and W a power of two the mask folds onto its low S bits; otherwise one test per
 * scheduler. */
static inline uint32_t sched_want(const timing_t *t, wmask_t x)
{
#if (SMK_SCHED & (SMK_SCHED - 1)) == 0 && (NW & (NW - 1)) == 0
    (void)t;
    for (int sh = NW / 2; sh >= SMK_SCHED; sh >>= 1)
        x |= x >> sh;
    return (uint32_t)(x & ((1u << SMK_SCHED) - 1));
#else
    uint32_t want = 0;
    for (int q = 0; q < SMK_SCHED; q++)
        want |= (uint32_t)((x & t->smask[q]) != 0) << q;
    return want;
#endif
}

/* tm_inputs before the SMs: the far events due in reach */
static inline void inputs_begin(timing_t *t, uint64_t c)
{
#ifdef TM_CHECK
    t->now = c;
#endif
    if (t->far.head != NONE)
        far_move(t, c);
}

/* tm_inputs of SM s; returns the packed per-slot sum of its completions (qu_cp1_i) */
static inline __attribute__((always_inline)) uint64_t inputs_sm(timing_t *restrict t, const gpu_top_t *g, sm_in_t *restrict si, int s, uint64_t c)
{
    elist_t *const bk = &t->wheel[c & (WHEEL - 1)][s];
    tsm_t *const m = &t->sm[s];
    si->mem_rsp_v = 0;
    si->mem_req_rdy = 1;
    si->cap = 0;
    /* completions: the events due now join the tail of the SM's queue (they are due later and
     * issued later than every event waiting there), then the queue is served from its head */
    const uint32_t bh = bk->head;
    if (bh != NONE) {
        if (m->qhead == NONE)
            m->qhead = bh;
        else
            t->ev[m->qtail].next = bh;
        m->qtail = bk->tail;
        bk->head = NONE;
    }
    uint32_t ncp = 0;
    uint64_t csum = 0;
    if (m->qhead != NONE)
        ncp = serve_queue(t, si, m, c, &csum);
    si->cp_v = (1u << ncp) - 1; /* ports 0 .. ncp - 1 */
    /* valid warps only: the SM top's live set (registered state) */
    const wmask_t live = g->sm[s].live, busy = m->busy, done = m->done;
    /* the front end (docs/workload.md "Front end"): the fetch of the previous cycle fills its warps'
     * instruction buffers (a warp removed since is skipped: its generation changed); then this
     * cycle's fetch takes up to fetch_warps live warps with an empty buffer and instructions left,
     * round robin after the last warp fetched */
    for (uint32_t i = 0; i < m->nf; i++) { /* (none in most cycles) */
        twarp_t *const x = &m->wv[m->fw[i]];
        if (x->id.gen == m->fgen[i])
            x->ib = (uint8_t)m->fn[i], m->ibe &= ~((wmask_t)1 << m->fw[i]);
    }
    m->nf = 0;
    for (wmask_t need = live & m->ibe & ~done; need && m->nf < t->fwarps;) {
        const wmask_t after = m->flast + 1 < NW ? need & (~(wmask_t)0 << (m->flast + 1)) : 0;
        const uint32_t w = (uint32_t)smk_ctz(after ? after : need);
        const twarp_t *const x = &m->wv[w];
        m->fw[m->nf] = (uint8_t)w, m->fgen[m->nf] = (uint16_t)x->id.gen;
        m->fn[m->nf] = (uint8_t)(x->left < t->ibsz ? x->left : t->ibsz);
        m->nf++, m->flast = (uint16_t)w, need &= ~((wmask_t)1 << w);
    }
    const wmask_t cand = live & ~(m->wait | m->full | done | m->ibe | (m->mem_out >= t->mshr ? m->gnext : 0));
    /* the pipelines (docs/workload.md "Pipelines"): the instructions issued before cycle c that start
     * after it wait in their unit's queue; a unit admits room = min(width, queue - waiting) issues
     * this cycle. The schedulers that want it (one of their candidate warps' next instruction goes
     * to it) get it, unless more than room want it: then the first room of them in cycle c's
     * rotation (scheduler s has rank (s - c) mod S) */
    wmask_t blocked = 0, fm = 0, fsfu = 0; /* fm: f32 multiplies the ALU does not admit (they try the SFU) */
    /* only warps their scheduler may issue claim a unit: warp_sched's allow (the quota gate) and not
     * stopped (the engine's stop-fetch), both functions of registered state, the values warp_sched
     * sees in this cycle. A warp held by its quota or stopped keeps its readiness (it is ready when
     * its scheduler is admitted, pipeline-blocked when not) but never takes a unit from another
     * scheduler's eligible warp: the papers' scheduler never considers it */
    wmask_t may = 0;
    if (cand) {
        const sm_top_t *const sm = &g->sm[s];
        may = sm->ws.allow_t[qu_gate_i(&sm->qu, qu_pos_i(&sm->qu), sm->ws.act_c)] & ~pe_stop_i(&sm->pe);
    }
    for (int u = 0; cand && u < WL_NUNIT; u++) {
        const wmask_t cu = (cand & m->unext[u]) | (u == WL_U_SFU ? fm : 0);
        if (!cu)
            continue;
        /* the queue's started entries leave (lazily: only a unit some warp wants can issue) */
        const uint64_t *const qst = t->qst[s][u];
        while (m->qn[u] && qst[m->qh[u]] <= c)
            m->qh[u] = (uint8_t)((m->qh[u] + 1) % WL_QUEUE_MAX), m->qn[u]--;
        const uint32_t width = u == WL_U_ALU ? t->aun : 1;
        const uint32_t qroom = t->qcap[u] - m->qn[u];
        const uint32_t room = qroom < width ? qroom : width;
        const uint32_t want = sched_want(t, cu & may);
        wmask_t grant = ~(wmask_t)0;
        if ((uint32_t)smk_popc(want) > room) {
            grant = 0;
            const int r0 = (int)(c % SMK_SCHED);
            for (int k = 0, g = 0; k < SMK_SCHED && g < (int)room; k++) {
                const int q = (r0 + k) % SMK_SCHED;
                if (want >> q & 1)
                    grant |= t->smask[q], g++;
            }
        }
        const wmask_t blk = cu & ~grant;
        if (u == WL_U_ALU)
            fm = blk & m->fnext, blocked |= blk & ~fm; /* an f32 multiply not admitted tries the SFU */
        else
            blocked |= blk, fsfu |= u == WL_U_SFU ? fm & grant : 0;
    }
    m->fsfu = fsfu;
    si->ready = cand & ~blocked;
    si->pblk = blocked; /* ready but for their unit: the QoS manager's idle warps (pblk) */
    si->wbusy = live & busy;
    si->wexit = live & done & ~busy;
    /* context responses (none while no request is in flight) */
    if (t->nmq && m->nmq && m->mq_min <= c) {
        mq_t *q = &t->mq[s];
        /* the earliest due response (ties: lowest index), one per cycle */
        int best = -1;
        uint64_t bd = UINT64_MAX, second = UINT64_MAX;
        for (int i = 0; i < m->nmq; i++) {
            if (q->due[i] < bd)
                second = bd, bd = q->due[i], best = i;
            else if (q->due[i] < second)
                second = q->due[i];
        }
        si->mem_rsp_v = 1, si->mem_rsp_tag = q->tag[best];
        m->nmq--, t->nmq--;
        q->due[best] = q->due[m->nmq], q->tag[best] = q->tag[m->nmq];
        m->mq_min = second;
        t->st.ctx_lines += !t->ctx_free;
    }
    return csum;
}

void tm_inputs(timing_t *t, const gpu_top_t *g, gpu_in_t *in, uint64_t c)
{
    inputs_begin(t, c);
    for (int s = 0; s < NSM; s++)
        inputs_sm(t, g, &in->sm[s], s, c);
}

/* An issue of warp w of SM s in cycle c. Per issue: one draw r from *rs (the caller's copy of t->r,
 * kept in registers), one event into the wheel (or the far list), the warp's masks. The issues of a
 * cycle are made in issue-port order (lowest q first: the issue number of docs/workload.md "Timing
 * model"): issue_all, or the quiet step's consumer quiet_issue. */
static inline __attribute__((always_inline)) void issue_one(timing_t *restrict t, tsm_t *restrict m,
                                                           rng_t *restrict rs, int s, size_t w, uint64_t c)
{
    ev_t *const ev = t->ev;
    /* w and kid as size_t: every use then indexes with the same value, computed once */
    twarp_t *const x = &m->wv[w];
    /* the event, filled in field by field as its values are known (its pad is never read) */
    const uint32_t e = t->free_head;
    if (e == NONE) { /* cannot happen: the pool holds max_inflight + 1 per warp */
        fprintf(stderr, "smk: internal error: event pool exhausted\n");
        exit(3);
    }
    ev_t *const v = &ev[e];
    t->free_head = v->next;
    v->next = NONE, v->id = x->id;
    tkern_t *const tk = &t->tk[(size_t)x->kid];
    tk->ks.wis++;
    const wmask_t bw = 1ULL << w;
    /* a warp issues only when ready, so not when done (left > 0: a warp launched with none left is
     * done at once) and not with an empty instruction buffer (ib > 0) */
#ifdef TM_CHECK
    if (x->left == 0 || x->ib == 0) {
        fprintf(stderr, "smk: TM_CHECK: SM %d cycle %llu: warp %zu issued with %s\n", s, (unsigned long long)c, w,
                x->left == 0 ? "no instruction left" : "an empty instruction buffer");
        exit(3);
    }
#endif
    if (--x->left == 0)
        m->done |= bw;
    if (--x->ib == 0)
        m->ibe |= bw;
    m->busy |= bw;
    m->full |= ++x->infl >= t->max_inflight ? bw : 0;
    /* one draw: 22 bits for the next class (r_cls), 21 for the active threads (r_act), 21 for the
     * dependence (r_dep), each compared with thresholds out of 2^32 after a shift (resolution
     * 2^-21): r_cls = (r & 0x3fffff) << 10, r_act = ((r >> 22) & 0x1fffff) << 11,
     * r_dep = (r >> 43) << 11; their top 8 bits are r's bits 14-21 and 35-42 */
    const uint64_t r = rng_next(rs);
    const int cls = x->ncls;
    /* the class of the warp's next instruction, drawn now so that ready can depend on it (cmix is
     * cumulative and its last non-zero class is 2^32, so the count is the class index) */
    uint32_t nc = tk->cls_of[(r >> 14) & 0xffu];
    if (nc == TK_SLOW) {
        const uint64_t r_cls = (r & 0x3fffffu) << 10, *cmix = tk->k->cmix;
        nc = 0;
        for (int i = 0; i < WL_NCLASS - 1; i++)
            nc += r_cls >= cmix[i];
    }
    x->ncls = (uint16_t)nc;
    /* gnext: the warp's bit is (cls == WL_GLOBAL) until now (an issue or a launch sets both; a
     * warp cleared by an exit or a free is not live again before its next launch), so it
     * changes only with the class's global-ness */
#ifdef TM_CHECK
    if ((m->gnext >> w & 1) != (cls == WL_GLOBAL)) {
        fprintf(stderr, "smk: TM_CHECK: SM %d cycle %llu: warp %zu: gnext differs from its class %d\n", s,
                (unsigned long long)c, w, cls);
        exit(3);
    }
    if ((m->fnext >> w & 1) != (cls == WL_FMUL) || ((m->fsfu >> w & 1) && cls != WL_FMUL)) {
        fprintf(stderr, "smk: TM_CHECK: SM %d cycle %llu: warp %zu: fnext or fsfu differs from its class %d\n", s,
                (unsigned long long)c, w, cls);
        exit(3);
    }
#endif
    if ((nc == WL_GLOBAL) != (cls == WL_GLOBAL))
        m->gnext ^= bw;
    if ((nc == WL_FMUL) != (cls == WL_FMUL))
        m->fnext ^= bw;
    m->unext[unit_of[cls]] &= ~bw, m->unext[unit_of[nc]] |= bw;
    /* the unit of this instruction: its class's, or the SFU for an f32 multiply the SFU admitted */
    const uint32_t u = m->fsfu >> w & 1 ? WL_U_SFU : unit_of[cls];
    /* active threads: act_thr[a], a = the number of thresholds cact[i] (i < n_act - 1) at or
     * below r_act */
    uint32_t act = tk->act_of[(r >> 35) & 0xffu];
    if (act == TK_SLOW) {
        const wl_kernel_t *k = tk->k;
        const uint64_t r_act = ((r >> 22) & 0x1fffffu) << 11;
        uint32_t a = 0;
        for (uint32_t i = 0; i + 1 < k->n_act; i++)
            a += r_act >= k->cact[i];
        act = k->act_thr[a];
    }
    const uint32_t dep = (r >> 43) < tk->dep_lim; /* r_dep: the warp waits for this instruction */
    m->wait |= (wmask_t)dep << w;
    v->act = act < x->nthr ? act : x->nthr, v->dep = dep;
    /* the instruction's start in its pipeline: the first free start at or after c */
    uint64_t start;
    if (u == WL_U_ALU) {
        if (m->afree < c)
            m->afree = c, m->aused = 0;
        start = m->afree;
        if (++m->aused == t->aun)
            m->afree++, m->aused = 0;
    } else
        start = m->ufree[u] > c ? m->ufree[u] : c;
    uint64_t due;
    uint32_t miss = 0;
    if (cls != WL_GLOBAL) {
        due = start + t->dlat[cls];
        if (u != WL_U_ALU)
            m->ufree[u] = start + t->iv[cls];
    } else {
        const wl_kernel_t *k = tk->k;
        uint32_t n = k->lines_int;
        if (k->t_lines_frac)
            n += (rng_next(rs) >> 32) < k->t_lines_frac;
        due = start + t->l1_lat;
        m->ufree[u] = start + n; /* the LD/ST unit sends one line per cycle */
        tk->ks.gmem_lines += n;
        for (uint32_t i = 0; i < n; i++) {
            /* one draw per line: 21 bits L1 hit, 21 bits L2 hit, 22 bits channel */
            const uint64_t y = rng_next(rs);
            uint64_t d;
            if (((y & 0x1fffffu) << 11) < k->t_l1)
                d = start + t->l1_lat;
            else if ((((y >> 21) & 0x1fffffu) << 11) < k->t_l2)
                d = start + t->l2_lat, miss++;
            else {
                const uint32_t ch = (uint32_t)(((y >> 42) * t->nch) >> 22);
                d = dram(t, ch, start), miss++;
                tk->ks.dram_lines++;
            }
            if (d > due)
                due = d;
        }
        if (due <= start)
            due = start + 1;
        m->mem_out += miss;
    }
    if (start > c) { /* it waits in the unit's queue until its start */
        t->qst[s][u][(m->qh[u] + m->qn[u]) % WL_QUEUE_MAX] = start, m->qn[u]++;
    }
    v->due = (uint32_t)due, v->lines = miss;
    ev_push(t, s, e, due, c);
#ifdef TM_CHECK
    t->seq[e] = t->nseq++, t->cdue[e] = due;
    if (dep)
        t->wait_ev[s][w] = e;
#endif

}

static void issue_all(timing_t *restrict t, tsm_t *restrict m, rng_t *restrict rs, int s, const ws_out_t *wo,
                      uint64_t c)
{
    for (uint32_t iv = wo->iss_v; iv; iv &= iv - 1)
        issue_one(t, m, rs, s, wo->iss_wid[smk_ctz(iv)], c);
}

static void clear_warps(timing_t *t, int s, wmask_t mask)
{
    tsm_t *m = &t->sm[s];
    for (wmask_t x = mask; x; x &= x - 1) {
        const int w = smk_ctz(x);
        m->wv[w].id.gen++, m->wv[w].infl = 0, m->wv[w].left = 0;
#ifdef TM_CHECK
        t->wait_ev[s][w] = NONE;
#endif
    }
#ifndef TM_CHECK
    (void)t, (void)s;
#endif
    m->wait &= ~mask, m->full &= ~mask, m->done &= ~mask, m->busy &= ~mask, m->gnext &= ~mask, m->fnext &= ~mask;
    for (int u = 0; u < WL_NUNIT; u++)
        m->unext[u] &= ~mask;
    m->ibe |= mask;
    for (wmask_t x = mask; x; x &= x - 1)
        m->wv[smk_ctz(x)].ib = 0;
}

/* The rare work of SM s in cycle c (exits, TB completions, frees, driver commands, launches, context
 * requests): its draws are taken from t->r. */
static void tm_observe_rare(timing_t *t, const gpu_top_t *g, const gpu_out_t *o, int s, uint64_t c)
{
    const drv_out_t *d = &o->d;
    tsm_t *m = &t->sm[s];
    const sm_out_t *so = &o->s[s];
    const pe_out_t *po = &so->po;
    const wmask_t ex = o->si[s].wexit;
    /* exits: the warps leave at this edge */
    if (ex)
        clear_warps(t, s, ex);
    /* TBs that finished by themselves */
    for (tmask_t x = so->tb_done; x; x &= x - 1)
        t->tk[g->drv.sk[s][smk_ctz(x)]].ks.tbs++; /* the driver's mirror: held until it retires the slot */
    /* SAVE / DROP done: keep the progress of a saved TB, by warp rank */
    if (po->free_v) {
        const int tb = (int)po->free_tb;
        const wmask_t mask = g->sm[s].tmask[tb];
        if (m->cmd_op[tb] == SMK_PE_OP_SAVE) {
            int rank = 0;
            for (wmask_t x = mask; x; x &= x - 1)
                t->saved[m->cmd_q[tb]][rank++] = m->wv[smk_ctz(x)].left;
            t->st.saves++;
        } else { /* DROP: the TB's work is lost (warps that already exited have left = 0) */
            const int kid = g->drv.sk[s][tb];
            for (wmask_t x = mask; x; x &= x - 1)
                t->tk[kid].ks.wis_dropped += t->tk[kid].k->insts - m->wv[smk_ctz(x)].left;
            t->st.drops++;
        }
        clear_warps(t, s, mask);
    }
    /* driver commands (the kernel of a slot is the driver's mirror sk, written at the set-up's edge,
     * before any launch of the slot) */
    if (d->cmd_v[s]) {
        const uint32_t tb = d->cmd_tb[s];
        m->cmd_op[tb] = (uint8_t)d->cmd_op[s];
        m->cmd_q[tb] = (uint16_t)((d->cmd_ptr[s] / CH) % PQ);
    }
    /* launches: warps appear at this edge */
    if (so->wi.launch_v) {
        const int eng = po->launch_v != 0;
        const int tb = eng ? (int)po->launch_tb : smk_ctz(g->sm[s].go);
        const int kid = g->drv.sk[s][tb];
        const wl_kernel_t *k = t->tk[kid].k;
        const uint32_t *src = eng ? t->saved[m->cmd_q[tb]] : NULL;
        int rank = 0;
        for (wmask_t x = so->wi.launch_mask; x; x &= x - 1, rank++) {
            const int w = smk_ctz(x);
            const wmask_t bw = 1ULL << w;
            m->wv[w].id.gen++;
            m->wv[w].left = src ? src[rank] : k->insts;
            m->wv[w].kid = (uint8_t)kid, m->wv[w].ks = (uint8_t)so->wi.launch_ks;
            const int th = (int)k->threads - 32 * rank;
            m->wv[w].nthr = (uint8_t)(th >= 32 ? 32 : th > 0 ? th : 1);
            m->wv[w].infl = 0, m->wv[w].ib = 0;
#ifdef TM_CHECK
            t->wait_ev[s][w] = NONE;
#endif
            m->wait &= ~bw, m->full &= ~bw, m->busy &= ~bw, m->ibe |= bw;
            const uint64_t rc = rng_next(&t->r) & 0xffffffffu;
            int nc = 0;
            while (nc < WL_NCLASS - 1 && rc >= k->cmix[nc])
                nc++;
            m->wv[w].ncls = (uint16_t)nc;
            if (nc == WL_GLOBAL)
                m->gnext |= bw;
            else
                m->gnext &= ~bw;
            if (nc == WL_FMUL)
                m->fnext |= bw;
            else
                m->fnext &= ~bw;
            for (int u = 0; u < WL_NUNIT; u++)
                m->unext[u] &= ~bw;
            m->unext[unit_of[nc]] |= bw;
            if (m->wv[w].left == 0)
                m->done |= bw;
            else
                m->done &= ~bw;
        }
        t->st.restores_launched += eng;
    }
    /* context requests: accepted at once (mem_req_rdy = 1), served by the channels */
    if (po->mem_req_v) {
        if (m->nmq == MQ) {
            fprintf(stderr, "smk: internal error: more than %d context requests outstanding on SM %d\n", MQ, s);
            exit(3);
        }
        const uint64_t due = dram_ctx(t, (uint32_t)(po->mem_req_addr % t->nch), c);
        mq_t *q = &t->mq[s];
        q->due[m->nmq] = due, q->tag[m->nmq] = po->mem_req_tag, m->nmq++, t->nmq++;
        if (due < m->mq_min)
            m->mq_min = due;
    }
}

/* tm_observe of SM s, with the draws of the issues taken from *rs (the rare work's from t->r) */
static inline void observe_sm(timing_t *t, const gpu_top_t *g, const gpu_out_t *o, int s, uint64_t c, rng_t *rs)
{
    const sm_out_t *so = &o->s[s];
    const pe_out_t *po = &so->po;
    /* issues */
    if (so->wo.iss_v)
        issue_all(t, &t->sm[s], rs, s, &so->wo, c);
    /* the rest is rare: one test for all of it */
    if (o->si[s].wexit | so->tb_done | po->free_v | o->d.cmd_v[s] | so->wi.launch_v | po->mem_req_v) {
        t->r = *rs;
        tm_observe_rare(t, g, o, s, c);
        *rs = t->r;
    }
}

void tm_observe(timing_t *t, const gpu_top_t *g, const gpu_out_t *o, uint64_t c)
{
    rng_t r = t->r; /* the draws of this cycle, in registers; stored back at the end */
    for (int s = 0; s < NSM; s++)
        observe_sm(t, g, o, s, c, &r);
    t->r = r;
}

/* tm_step's consumer of a quiet SM's issues (sm_issue_fn, called in scheduler order): issue_one.
 * Inlined, the context's fields stay in registers (the draws' state r included). */
typedef struct {
    timing_t *t;
    tsm_t *m;
    rng_t *rs;
    int s;
    uint64_t c;
} quiet_ctx_t;
static inline __attribute__((always_inline)) void quiet_issue(void *ctx, int q, int w)
{
    const quiet_ctx_t *x = ctx;
    (void)q;
    issue_one(x->t, x->m, x->rs, x->s, (size_t)w, x->c);
}

void tm_step(timing_t *t, gpu_top_t *g, gpu_in_t *in, gpu_out_t *o, uint64_t c)
{
    inputs_begin(t, c);
    gpu_eval_begin(g, in, o);
    rng_t r = t->r; /* the draws of this cycle, in registers; stored back at the end */
    for (int s = 0; s < NSM; s++) {
        const uint64_t csum = inputs_sm(t, g, &in->sm[s], s, c);
#if SM_QUIET
        quiet_ctx_t qx = {t, &t->sm[s], &r, s, c};
        if (gpu_quiet_sm_i(g, in, o, s, csum, quiet_issue, &qx)) /* the SM's quiet cycle, evaluated and committed */
            continue;
#else
        (void)csum;
#endif
        gpu_eval_sm(g, in, o, s);
        observe_sm(t, g, o, s, c, &r);
    }
    t->r = r;
    gpu_eval_end(in, o);
}
