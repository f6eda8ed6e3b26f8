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

typedef struct {     /* 16 bytes */
    uint32_t next;   /* the list the event is in: a wheel bucket, the far list, an SM's queue, the free list */
    uint32_t due;    /* cycle, modulo 2^32 (an event is never due 2^32 cycles or more after its issue) */
    uint16_t gen;    /* warp generation at issue (stale after a free) */
    uint8_t sm, w, act, lines; /* lines: L1 misses of a global instruction (held in the SM's MSHRs) */
} ev_t;

typedef struct {
    /* the masks and counters of every cycle, in one cache line */
    _Alignas(64) wmask_t wait, full, done, busy;
    wmask_t gnext;   /* the warp's next instruction is a global-memory one */
    uint32_t mem_out; /* L1-miss lines in flight (MSHRs) */
    uint32_t ncp;     /* completion ports used in this cycle */
    /* the SM's completion queue (docs/workload.md "Timing model"): events due but not yet given a
     * port, by due cycle, then issue order; a FIFO through ev_t.next */
    uint32_t qhead, qtail;
    /* per warp: everything one issue or completion touches, 16 bytes (4 warps per cache line) */
    struct {
        uint32_t left, wait_ev;
        uint16_t gen;
        uint8_t infl, kid, ks, nthr, ncls, pad;
    } wv[NW];
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
    const wl_kernel_t *kk[KN];
    int nk;
    rng_t r;
    uint32_t nch, max_inflight, mem_lat, l1_lat, l2_lat, lat[3], mshr, ctx_prio;
    uint64_t serv_fp;
    uint64_t ch_free[64];
    tsm_t sm[NSM];
    mq_t mq[NSM];
    /* saved progress per PTBQ entry, by warp rank */
    uint32_t saved[PQ][NW];
    /* events */
    ev_t *ev;
    uint32_t nev, free_head;
    /* per cycle modulo WHEEL and per SM: the events due in that cycle, in issue order (the SMs of a
     * cycle side by side: one or two cache lines per cycle) */
    elist_t wheel[WHEEL][NSM];
    elist_t far;                /* events due WHEEL or more cycles after their issue, in issue order */
    tm_kstat_t ks[KN];
    tm_stat_t st;
#ifdef TM_CHECK
    /* -DTM_CHECK: check the order of completions (docs/workload.md "Timing model"): per SM, the
     * granted events' (due cycle, issue number) keys strictly increase, and none is early */
    uint64_t *seq, *cdue, nseq, now, last_due[NSM], last_seq[NSM];
#endif
};

timing_t *tm_new(const workload_t *wl, const int *kmap, int nk, uint64_t seed)
{
    /* tsm_t is 64-byte aligned: aligned_alloc, size rounded up to the alignment */
    const size_t sz = (sizeof(timing_t) + 63) / 64 * 64;
    timing_t *t = aligned_alloc(64, sz);
    if (!t)
        return NULL;
    memset(t, 0, sz);
    t->wl = wl, t->nk = nk;
    for (int k = 0; k < nk; k++)
        t->kk[k] = &wl->k[kmap[k]];
    rng_seed(&t->r, seed);
    t->nch = wl->m.mem_channels, t->max_inflight = wl->m.max_inflight, t->mem_lat = wl->m.mem_latency;
    t->l1_lat = wl->m.l1_latency, t->l2_lat = wl->m.l2_latency, t->mshr = wl->m.mshr, t->ctx_prio = wl->m.ctx_priority;
    for (int i = 0; i < 3; i++)
        t->lat[i] = wl->m.lat[i];
    t->serv_fp = (uint64_t)(wl->m.mem_service * (1 << FP) + 0.5);
    if (!t->serv_fp)
        t->serv_fp = 1;
    /* every warp can have max_inflight instructions in flight; the rest is slack for the events of
     * removed warps (DROP) that are still in the wheel or in a waiting queue */
    t->nev = (uint32_t)NSM * NW * (t->max_inflight + 1) + 1024;
    t->ev = calloc(t->nev, sizeof *t->ev);
    if (!t->ev) {
        free(t);
        return NULL;
    }
    for (uint32_t i = 0; i < t->nev; i++)
        t->ev[i].next = i + 1 < t->nev ? i + 1 : NONE;
    t->free_head = 0;
#ifdef TM_CHECK
    t->seq = calloc(t->nev, sizeof *t->seq), t->cdue = calloc(t->nev, sizeof *t->cdue);
    if (!t->seq || !t->cdue) {
        free(t->seq), free(t->cdue), free(t->ev), free(t);
        return NULL;
    }
#endif
    for (uint32_t b = 0; b < WHEEL; b++)
        for (int s = 0; s < NSM; s++)
            t->wheel[b][s].head = NONE;
    t->far.head = NONE;
    for (int s = 0; s < NSM; s++) {
        for (int w = 0; w < NW; w++)
            t->sm[s].wv[w].wait_ev = NONE;
        t->sm[s].mq_min = UINT64_MAX;
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
        free(t->ev), free(t);
    }
}

const tm_kstat_t *tm_kstat(const timing_t *t, int k) { return &t->ks[k]; }
const tm_stat_t *tm_stat(const timing_t *t) { return &t->st; }
void tm_reset_stats(timing_t *t)
{
    memset(t->ks, 0, sizeof t->ks);
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
    el_link(t, due - c < WHEEL ? &t->wheel[due & (WHEEL - 1)][s] : &t->far, e);
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
            el_append(t, &t->wheel[d & (WHEEL - 1)][t->ev[e].sm], e);
        } else
            prev = e;
        e = nx;
    }
}

static inline void ev_release(timing_t *t, uint32_t e)
{
    t->ev[e].next = t->free_head, t->free_head = e;
}

/* the completion of event e (due, its warp still live) on the next completion port of its SM */
static inline void grant(timing_t *t, sm_in_t *si, tsm_t *m, uint32_t e)
{
    const ev_t *v = &t->ev[e];
    const int w = v->w;
#ifdef TM_CHECK
    const uint32_t sm = v->sm;
    if (t->cdue[e] > t->now || t->cdue[e] < t->last_due[sm] ||
        (t->cdue[e] == t->last_due[sm] && t->seq[e] <= t->last_seq[sm])) {
        fprintf(stderr, "smk: TM_CHECK: SM %u cycle %llu: completion due %llu issue %llu after due %llu issue %llu\n", sm,
                (unsigned long long)t->now, (unsigned long long)t->cdue[e], (unsigned long long)t->seq[e],
                (unsigned long long)t->last_due[sm], (unsigned long long)t->last_seq[sm]);
        exit(3);
    }
    t->last_due[sm] = t->cdue[e], t->last_seq[sm] = t->seq[e];
#endif
    const uint32_t p = m->ncp++;
    m->mem_out -= v->lines;
    si->cp_v |= 1u << p;
    si->cp_ks[p] = m->wv[w].ks;
    si->cp_act[p] = v->act;
    t->ks[m->wv[w].kid].thr += v->act;
    const wmask_t bw = 1ULL << w;
    m->full &= ~bw;
    /* branch-free (both conditions are data: random latencies and dependences) */
    const wmask_t last = 0ULL - (wmask_t)(--m->wv[w].infl == 0);   /* its last instruction in flight */
    const wmask_t waited = 0ULL - (wmask_t)(m->wv[w].wait_ev == e); /* the one the warp waits for */
    m->busy &= ~(bw & last);
    m->wait &= ~(bw & waited);
    m->wv[w].wait_ev = waited ? NONE : m->wv[w].wait_ev;
    ev_release(t, e);
}

/* Serve SM m's queue in cycle c, from its head: an entry whose warp was removed (DROP) since its
 * issue is discarded without a port (its MSHRs are given back); the others take the free ports in
 * queue order; serving stops at the first live entry that finds none. */
static inline void serve_queue(timing_t *t, sm_in_t *si, tsm_t *m, uint64_t c)
{
    uint32_t e = m->qhead;
    while (e != NONE) {
        const ev_t *v = &t->ev[e];
        const uint32_t nx = v->next;
        if (v->gen != m->wv[v->w].gen) {
            m->mem_out -= v->lines;
            ev_release(t, e);
        } else if (m->ncp < NCP) {
            t->st.cp_deferred += (uint32_t)c - v->due; /* cycles it waited for a port */
            grant(t, si, m, e);
        } else
            break;
        e = nx;
    }
    m->qhead = e; /* qtail is stale when the queue is empty */
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
    if (!t->ctx_prio)
        return dram(t, ch, now);
    const uint64_t start = now << FP;
    if (t->ch_free[ch] < start)
        t->ch_free[ch] = start;
    t->ch_free[ch] += t->serv_fp;
    return ((start + t->serv_fp + (1u << FP) - 1) >> FP) + t->mem_lat;
}

void tm_inputs(timing_t *t, const gpu_top_t *g, gpu_in_t *in, uint64_t c)
{
#ifdef TM_CHECK
    t->now = c;
#endif
    if (t->far.head != NONE)
        far_move(t, c);
    elist_t *bk = t->wheel[c & (WHEEL - 1)];
    for (int s = 0; s < NSM; s++) {
        tsm_t *m = &t->sm[s];
        sm_in_t *si = &in->sm[s];
        si->cp_v = 0;
        si->mem_rsp_v = 0;
        si->mem_req_rdy = 1;
        si->cap = 0;
        m->ncp = 0;
        /* completions: the events due now join the tail of the SM's queue (they are due later and
         * issued later than every event waiting there), then the queue is served from its head */
        if (bk[s].head != NONE) {
            if (m->qhead == NONE)
                m->qhead = bk[s].head;
            else
                t->ev[m->qtail].next = bk[s].head;
            m->qtail = bk[s].tail;
            bk[s].head = NONE;
        }
        if (m->qhead != NONE)
            serve_queue(t, si, m, c);
        /* valid warps only: the SM top's live set (registered state) */
        const wmask_t live = g->sm[s].live;
        si->ready = live & ~(m->wait | m->full | m->done | (m->mem_out >= t->mshr ? m->gnext : 0));
        si->wbusy = live & m->busy;
        si->wexit = live & m->done & ~m->busy;
        if (m->nmq && m->mq_min <= c) {
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
            m->nmq--;
            q->due[best] = q->due[m->nmq], q->tag[best] = q->tag[m->nmq];
            m->mq_min = second;
            t->st.ctx_lines++;
        }
    }
}

static void issue(timing_t *t, int s, int w, uint64_t c)
{
    tsm_t *m = &t->sm[s];
    const wl_kernel_t *k = t->kk[m->wv[w].kid];
    const wmask_t bw = 1ULL << w;
    t->ks[m->wv[w].kid].wis++;
    if (m->wv[w].left && --m->wv[w].left == 0)
        m->done |= bw;
    /* one draw: 22 bits for the next class, 21 for the active threads, 21 for the dependence
     * (compared with thresholds out of 2^32 after a shift: resolution 2^-21) */
    const uint64_t r = rng_next(&t->r);
    const uint64_t r_cls = (r & 0x3fffffu) << 10, r_act = ((r >> 22) & 0x1fffffu) << 11, r_dep = (r >> 43) << 11;
    const int cls = m->wv[w].ncls;
    /* the class of the warp's next instruction, drawn now so that ready can depend on it; branch-free
     * (cmix is cumulative and its last non-zero class is 2^32, so the sum is the class index) */
    const int nc = (r_cls >= k->cmix[0]) + (r_cls >= k->cmix[1]) + (r_cls >= k->cmix[2]);
    m->wv[w].ncls = (uint8_t)nc;
    m->gnext = (m->gnext & ~bw) | (nc == WL_GLOBAL ? bw : 0);
    uint32_t a = 0;
    for (uint32_t i = 0; i + 1 < k->n_act; i++)
        a += r_act >= k->cact[i];
    uint32_t act = k->act_thr[a];
    act = act < m->wv[w].nthr ? act : m->wv[w].nthr;
    uint64_t due;
    uint32_t miss = 0;
    if (cls != WL_GLOBAL)
        due = c + t->lat[cls];
    else {
        uint32_t n = k->lines_int;
        if (k->t_lines_frac)
            n += (rng_next(&t->r) >> 32) < k->t_lines_frac;
        due = c + t->l1_lat;
        t->ks[m->wv[w].kid].gmem_lines += n;
        for (uint32_t i = 0; i < n; i++) {
            /* one draw per line: 21 bits L1 hit, 21 bits L2 hit, 22 bits channel */
            const uint64_t x = rng_next(&t->r);
            uint64_t d;
            if (((x & 0x1fffffu) << 11) < k->t_l1)
                d = c + t->l1_lat;
            else if ((((x >> 21) & 0x1fffffu) << 11) < k->t_l2)
                d = c + t->l2_lat, miss++;
            else {
                const uint32_t ch = (uint32_t)(((x >> 42) * t->nch) >> 22);
                d = dram(t, ch, c), miss++;
                t->ks[m->wv[w].kid].dram_lines++;
            }
            if (d > due)
                due = d;
        }
    }
    if (due <= c)
        due = c + 1;
    const uint32_t e = t->free_head;
    if (e == NONE) { /* cannot happen: the pool holds max_inflight + 1 per warp */
        fprintf(stderr, "smk: internal error: event pool exhausted\n");
        exit(3);
    }
    t->free_head = t->ev[e].next;
    t->ev[e] = (ev_t){.next = NONE, .due = (uint32_t)due, .gen = m->wv[w].gen, .sm = (uint8_t)s, .w = (uint8_t)w,
                      .act = (uint8_t)act, .lines = (uint8_t)miss};
    m->mem_out += miss;
    ev_push(t, s, e, due, c);
#ifdef TM_CHECK
    t->seq[e] = t->nseq++, t->cdue[e] = due;
#endif
    t->st.events++;
    m->busy |= bw;
    m->full |= ++m->wv[w].infl >= t->max_inflight ? bw : 0;
    const int dep = r_dep < k->t_dep;
    m->wait |= dep ? bw : 0;
    m->wv[w].wait_ev = dep ? e : m->wv[w].wait_ev;
}

static void clear_warps(tsm_t *m, wmask_t mask)
{
    for (wmask_t x = mask; x; x &= x - 1) {
        const int w = smk_ctz(x);
        m->wv[w].gen++, m->wv[w].infl = 0, m->wv[w].left = 0, m->wv[w].wait_ev = NONE;
    }
    m->wait &= ~mask, m->full &= ~mask, m->done &= ~mask, m->busy &= ~mask, m->gnext &= ~mask;
}

void tm_observe(timing_t *t, const gpu_top_t *g, const gpu_out_t *o, uint64_t c)
{
    const drv_out_t *d = &o->d;
    for (int s = 0; s < NSM; s++) {
        tsm_t *m = &t->sm[s];
        const sm_out_t *so = &o->s[s];
        const pe_out_t *po = &so->po;
        /* issues */
        for (uint32_t iv = so->wo.iss_v; iv; iv &= iv - 1) {
            const int q = smk_ctz(iv);
            issue(t, s, so->wo.iss_wid[q], c);
        }
        /* exits: the warps leave at this edge */
        const wmask_t ex = o->si[s].wexit;
        if (ex)
            clear_warps(m, ex);
        /* TBs that finished by themselves */
        for (tmask_t x = so->tb_done; x; x &= x - 1)
            t->ks[g->drv.sk[s][smk_ctz(x)]].tbs++; /* the driver's mirror: held until it retires the slot */
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
                    t->ks[kid].wis_dropped += t->kk[kid]->insts - m->wv[smk_ctz(x)].left;
                t->st.drops++;
            }
            clear_warps(m, mask);
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
            const wl_kernel_t *k = t->kk[kid];
            const uint32_t *src = eng ? t->saved[m->cmd_q[tb]] : NULL;
            int rank = 0;
            for (wmask_t x = so->wi.launch_mask; x; x &= x - 1, rank++) {
                const int w = smk_ctz(x);
                const wmask_t bw = 1ULL << w;
                m->wv[w].gen++;
                m->wv[w].left = src ? src[rank] : k->insts;
                m->wv[w].kid = (uint8_t)kid, m->wv[w].ks = (uint8_t)so->wi.launch_ks;
                const int th = (int)k->threads - 32 * rank;
                m->wv[w].nthr = (uint8_t)(th >= 32 ? 32 : th > 0 ? th : 1);
                m->wv[w].infl = 0, m->wv[w].wait_ev = NONE;
                m->wait &= ~bw, m->full &= ~bw, m->busy &= ~bw;
                const uint64_t rc = rng_next(&t->r) & 0xffffffffu;
                int nc = 0;
                while (nc < WL_NCLASS - 1 && rc >= k->cmix[nc])
                    nc++;
                m->wv[w].ncls = (uint8_t)nc;
                if (nc == WL_GLOBAL)
                    m->gnext |= bw;
                else
                    m->gnext &= ~bw;
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
            q->due[m->nmq] = due, q->tag[m->nmq] = po->mem_req_tag, m->nmq++;
            if (due < m->mq_min)
                m->mq_min = due;
        }
    }
}
