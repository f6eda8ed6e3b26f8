/* sm_driver.c: the central TB dispatcher, bit- and cycle-accurate (spec: docs/sm_driver.md).
 * drv_eval selects this cycle's event and decision from the registered state (and wused / cfg_*),
 * and drives the SM ports; drv_commit applies the event, the decision (as reported in drv_out_t:
 * dec_*, ev_*, set_*, cmd_*), the host ports, the partition unit and the latches at the edge.
 * Integer arithmetic only, explicit widths, no allocation. Section names in comments are the spec's. */
#include "sm_driver.h"

#include <string.h>

#define NSM DRV_NSM
#define KN DRV_KN
#define KS DRV_KS
#define NT DRV_T
#define PQ DRV_PQ
#define NR DRV_NRES
#define TALL SMK_MASK(NT)
#define WALL SMK_WMASK_ALL
#define SALL SMK_MASK(NSM)
#define KALL SMK_MASK(KN)
#define UWM SMK_MASK(SMK_UW)
#define GWM SMK_MASK(SMK_GRID_W)
#define CNTM SMK_MASK(SMK_TBS_W + 1)
#define PROT SMK_PART_ROT
#define OP_SAVE SMK_PE_OP_SAVE
#define OP_RESTORE SMK_PE_OP_RESTORE
#define OP_DRAIN SMK_PE_OP_DRAIN
#define OP_DROP SMK_PE_OP_DROP

static const uint32_t MULT[NR] = {SMK_M_REG, SMK_M_SL, SMK_M_W, SMK_M_TB};
static const uint32_t LIM[NR] = {SMK_LIM_REG, SMK_LIM_SL, SMK_LIM_W, SMK_LIM_TB};
/* QOS filling key ("Initial allocation: the QOS filling rule"): the warp count pc[k] * kn(k) is
 * the share with multipliers (0, 0, 1, 0) */
static const uint32_t MULT_QOS[NR] = {0, 0, 1, 0};

/* ---------------------------------------------------------------- pure functions of the spec */

uint32_t drv_share(const uint32_t u[DRV_NRES], const uint32_t mult[DRV_NRES])
{
    uint32_t m = 0;
    for (int x = 0; x < DRV_NRES; x++) {
        const uint32_t v = u[x] * mult[x];
        m = v > m ? v : m;
    }
    return m;
}

int drv_range_shrinks(const uint32_t *rk, uint64_t valid, int n, int kc, uint32_t rkc_new, int kv,
                      uint32_t rkv_new)
{
    uint32_t omin = UINT32_MAX, omax = 0, nmin = UINT32_MAX, nmax = 0;
    int any = 0;
    for (int k = 0; k < n; k++) {
        if (!(valid >> k & 1))
            continue;
        any = 1;
        const uint32_t o = rk[k], v = k == kc ? rkc_new : k == kv ? rkv_new : o;
        omin = o < omin ? o : omin, omax = o > omax ? o : omax;
        nmin = v < nmin ? v : nmin, nmax = v > nmax ? v : nmax;
    }
    return any && nmax - nmin < omax - omin;
}

/* One step of the progressive filling ("Partitions"), in two parts the decision pipeline registers
 * between (drv_pipe = 1: "Partitions", "The filling step with drv_pipe = 1").
 * fill_eval: the candidates (bit k) of the step and key[k], the share of pc[k] * d[k] of a candidate
 * (0 for the others). fill_argmin: the candidate with the lowest key; among equal keys a kernel with
 * pgot bit k = 0 first, then the rotation turn (top bit k = 1), then one with lat bit k = 0 (last
 * chance: no later SM of the run allows it), then the highest index (the order (key, pgot[k],
 * ~top[k], lat[k], KN-1-k), lowest first); -1 if none. Shared by drv_fill and the partition unit. */
static uint64_t fill_eval(int n, const uint32_t d[][DRV_NRES], uint64_t allowed, const uint32_t lim[DRV_NRES],
                          const uint32_t mult[DRV_NRES], const uint32_t acc[DRV_NRES], const uint32_t *pc,
                          uint32_t nks, uint32_t ks, uint32_t max2, int uw, int shw, uint32_t *key)
{
    /* uw, shw > 0: the widths of the hardware's key ("Partitions"): each product pc[k] * d_x(k) is
     * taken mod 2^uw and each share term mod 2^(shw+1), the key mod 2^shw (exact whenever pc[k] *
     * d_x(k) <= LIM_x); 0: exact (drv_fill's abstract units, the QOS warp count) */
    const uint64_t um = uw ? SMK_MASK(uw) : UINT64_MAX, em = shw ? SMK_MASK(shw + 1) : UINT64_MAX,
                   km = shw ? SMK_MASK(shw) : UINT64_MAX;
    uint64_t cand = 0;
    const int ks_ok = nks < ks && (!max2 || nks < 2);
    for (int k = 0; k < n; k++) {
        key[k] = 0;
        if (!(allowed >> k & 1))
            continue;
        if ((d[k][0] | d[k][1] | d[k][2] | d[k][3]) == 0) /* never in the model (d_tb = 1) */
            continue;
        int ok = pc[k] > 0 || ks_ok;
        for (int x = 0; x < DRV_NRES && ok; x++)
            ok = acc[x] + d[k][x] <= lim[x];
        if (!ok)
            continue;
        cand |= UINT64_C(1) << k;
        uint64_t sh = 0;
        for (int x = 0; x < DRV_NRES; x++) {
            const uint64_t v = (((uint64_t)pc[k] * d[k][x]) & um) * mult[x] & em;
            sh = v > sh ? v : sh;
        }
        key[k] = (uint32_t)(sh & km);
    }
    return cand;
}

static int fill_argmin(int n, uint64_t cand, const uint32_t *key, uint64_t pgot, uint64_t top, uint64_t lat)
{
    int best = -1;
    uint32_t bs = 0, bg = 0;
    for (int k = 0; k < n; k++) {
        if (!(cand >> k & 1))
            continue;
        const uint32_t sh = key[k];
        const uint32_t g = (uint32_t)((pgot >> k & 1) << 2 | (~top >> k & 1) << 1 | (lat >> k & 1));
        /* lower key; equal key: pgot 0 before 1, then the turn (~top 0 before 1), then lat 0 before
         * 1 (g = {pgot, ~top, lat}); equal all: the higher index (scanned later) */
        if (best < 0 || sh < bs || (sh == bs && g <= bg))
            best = k, bs = sh, bg = g;
    }
    return best;
}

static int fill_pick(int n, const uint32_t d[][DRV_NRES], uint64_t allowed, const uint32_t lim[DRV_NRES],
                     const uint32_t mult[DRV_NRES], const uint32_t acc[DRV_NRES], const uint32_t *pc,
                     uint32_t nks, uint32_t ks, uint32_t max2, uint64_t pgot, uint64_t top, uint64_t lat,
                     int hw, uint64_t *cand)
{
    uint32_t key[64];
    const uint64_t c = fill_eval(n, d, allowed, lim, mult, acc, pc, nks, ks, max2, hw ? SMK_UW : 0, hw ? SMK_SHW : 0, key);
    *cand |= c;
    return fill_argmin(n, c, key, pgot, top, lat);
}

void drv_fill(int n, const uint32_t d[][DRV_NRES], uint64_t allowed, const uint32_t lim[DRV_NRES],
              const uint32_t mult[DRV_NRES], int ks, int max2, uint64_t pgot, uint64_t top, uint64_t lat,
              uint32_t *part, uint64_t *cand)
{
    uint32_t acc[DRV_NRES] = {0, 0, 0, 0}, nks = 0;
    uint64_t cd = 0;
    for (int k = 0; k < n; k++)
        part[k] = 0;
    for (;;) {
        const int b = fill_pick(n, d, allowed, lim, mult, acc, part, nks, (uint32_t)ks, (uint32_t)max2, pgot, top,
                                lat, 0, &cd);
        if (b < 0) {
            if (cand)
                *cand = cd;
            return;
        }
        if (part[b] == 0)
            nks++;
        part[b]++;
        for (int x = 0; x < DRV_NRES; x++)
            acc[x] += d[b][x];
    }
}

/* ---------------------------------------------------------------- derived values */

static inline uint32_t bit(uint64_t v, uint32_t i) { return (uint32_t)(v >> i & 1); }

/* d(k): rows, lines, warps, 1 */
static inline void dem(const sm_driver_t *d, uint32_t k, uint32_t x[NR])
{
    x[0] = d->kdreg[k], x[1] = d->km[k], x[2] = d->kn[k], x[3] = 1;
}
static inline uint32_t share_of(const uint32_t u[NR]) { return drv_share(u, MULT); }
static inline uint32_t rk_of(const sm_driver_t *d, uint32_t k) { return share_of(d->U[k]); }
static inline uint32_t rsm_of(const sm_driver_t *d, uint32_t s) { return share_of(d->u[s]); }

/* ks_of(s, k): j or -1 */
static inline int ks_of(const sm_driver_t *d, uint32_t s, uint32_t k)
{
    for (uint32_t j = 0; j < KS; j++)
        if (bit(d->ksv[s], j) && d->ksk[s][j] == k)
            return (int)j;
    return -1;
}
static inline int ks_free(const sm_driver_t *d, uint32_t s)
{
    const uint32_t f = ~(uint32_t)d->ksv[s] & (uint32_t)SMK_MASK(KS);
    return f ? smk_ctz(f) : -1;
}
static inline uint32_t nks_of(const sm_driver_t *d, uint32_t s) { return (uint32_t)smk_popc(d->ksv[s] & SMK_MASK(KS)); }
static inline uint32_t ks_room(uint32_t nks, uint32_t max2) { return nks < KS && (!max2 || nks < 2); }
/* preemptible slots: sv & ~spre & ~sfill & ~dp (a TB whose completion is latched is never a victim) */
static inline tmask_t avail_of(const sm_driver_t *d, uint32_t s)
{
    return d->sv[s] & ~d->spre[s] & ~d->sfill[s] & ~d->dp[s] & TALL;
}
/* slots of `avail` whose kernel is in kernel set ks */
static inline tmask_t slots_of(const sm_driver_t *d, uint32_t s, tmask_t avail, uint64_t kset)
{
    tmask_t r = 0;
    for (tmask_t x = avail; x; x &= x - 1) {
        const uint32_t t = (uint32_t)smk_ctz(x);
        r |= (tmask_t)bit(kset, d->sk[s][t]) << t;
    }
    return r;
}
static inline uint32_t highbit(uint64_t m) { return 63u - (uint32_t)__builtin_clzll(m); }

static wmask_t wsel(wmask_t used, uint32_t n)
{
    wmask_t f = ~used & WALL, m = 0;
    for (; n && f; n--) {
        const wmask_t b = f & (~f + 1);
        m |= b, f &= ~b;
    }
    return m;
}

/* this cycle's derived values shared by the decision steps of drv_eval */
typedef struct {
    uint32_t policy, max2;
    uint64_t elig, hasq;       /* bit k */
    uint8_t pqsel[KN];         /* pq_sel(k) */
    int freeq;                 /* lowest FREE PTBQ entry, -1 if none */
    uint64_t cmdok;            /* bit s */
    uint64_t resv_sm;          /* SMs blocked for non-RESERVE kernels (kmask of the short r), 0 if none */
    int resv_r;
    uint32_t wfree[NSM];       /* popcount(~wused[s]) */
} ctx_t;

/* the decision of this cycle (mirrored into drv_out_t) */
typedef struct {
    uint32_t kind, s, t, k, id, q;
    uint32_t op;               /* command op of EVICT/RESV/PLAN_PRE */
    uint32_t a1_go, a1_kc;     /* drv_out_t's */
    uint32_t act;              /* the execution acts ("Decision pipeline") */
    uint32_t pl_dec, pl_clear; /* decision 3: plan_left -= 1; plan_v = 0 */
} dec_t;

/* the choice ("Decision pipeline"): kind DRV_CH_*, S, K, R */
typedef struct {
    uint32_t kind, s, k;
    uint64_t r;
} dch_t;

static int fits(const sm_driver_t *d, const ctx_t *c, uint32_t s, uint32_t k)
{
    /* a pure AND of the spec's terms; the cheap and selective ones first */
    if (!bit(d->kmask[k], s))
        return 0;
    if ((c->policy == DRV_SMK_P || c->policy == DRV_QOS) && d->cnt[s][k] >= d->part[s][k])
        return 0;
    if (d->plan_v && s == d->plan_sm && k != d->plan_kc)
        return 0;
    const uint32_t *u = d->u[s];
    if (u[0] + d->kdreg[k] > SMK_LIM_REG || u[1] + d->km[k] > SMK_LIM_SL || u[2] + d->kn[k] > SMK_LIM_W ||
        u[3] >= SMK_LIM_TB)
        return 0;
    if (ks_of(d, s, k) < 0 && !ks_room(nks_of(d, s), c->max2))
        return 0;
    if (c->wfree[s] < d->kn[k])
        return 0;
    if (bit(c->resv_sm, s) && d->kadm[k] != DRV_ADM_RESERVE)
        return 0;
    return 1;
}

/* lowest SM where k fits, -1 if none */
static int fits_any(const sm_driver_t *d, const ctx_t *c, uint32_t k)
{
    for (uint64_t x = d->kmask[k] & SALL; x; x &= x - 1)
        if (fits(d, c, (uint32_t)smk_ctz(x), k))
            return smk_ctz(x);
    return -1;
}

/* decision 4's TB choice for kernel K on SM S (fits(S, K) known); kind NONE if a SAVED entry waits
 * for cmd_ok(S) */
static void dispatch(const sm_driver_t *d, const ctx_t *c, uint32_t K, uint32_t S, dec_t *r)
{
    r->s = S, r->k = K, r->q = 0;
    if (bit(c->hasq, K)) {
        const uint32_t i = c->pqsel[K];
        r->q = i, r->id = d->qid[i];
        if (d->qst[i] == DRV_Q_SAVED) {
            if (!bit(c->cmdok, S)) {
                r->kind = DRV_DEC_NONE;
                return;
            }
            r->kind = DRV_DEC_RESTORE;
        } else {
            r->kind = DRV_DEC_RERUN;
        }
    } else {
        r->kind = DRV_DEC_NEW, r->id = d->knext[K];
    }
    r->t = (uint32_t)smk_ctz(~d->sv[S] & TALL); /* exists: u_tb(S) < T */
}

/* Algorithm 1 unit, step 4 (decision 5, the unit in RNG): does the range of rK over the kernels in
 * use strictly shrink with rK(Kv) <- share(U(Kv) - p * d(Kv)) and rK(Kc) <- share(U(Kc) + d(Kc))?
 * p * d(Kv) is a1_acc; none of Kv's usage may have fallen below it since step 3 (else no plan). */
static int a1_shrinks(const sm_driver_t *d, uint32_t Kc)
{
    const uint32_t Kv = d->a1_kv;
    uint32_t dc[NR], rk[KN], a[NR], b[NR];
    dem(d, Kc, dc);
    for (int i = 0; i < NR; i++) {
        if (d->U[Kv][i] < d->a1_acc[i])
            return 0;
        a[i] = d->U[Kc][i] + dc[i], b[i] = d->U[Kv][i] - d->a1_acc[i];
    }
    for (uint32_t k = 0; k < KN; k++)
        rk[k] = bit(d->kv, k) ? rk_of(d, k) : 0;
    return drv_range_shrinks(rk, d->kv & KALL, KN, (int)Kc, share_of(a), (int)Kv, share_of(b));
}

/* Step 1's operands of SM s for Kc: candidate (kmask[Kc][s] and a TB of another kernel in pre(s))
 * and w = u(s) - cnt[s][Kc] * d(Kc) (exact: those TBs are counted in u; computed for any s); the
 * value is share(w) */
static void a1_smv_w(const sm_driver_t *d, uint32_t Kc, uint32_t s, uint32_t *cand, uint32_t w[NR])
{
    uint32_t dc[NR];
    dem(d, Kc, dc);
    for (int i = 0; i < NR; i++)
        w[i] = (uint32_t)((d->u[s][i] - d->cnt[s][Kc] * dc[i]) & UWM);
    *cand = bit(d->kmask[Kc], s) && slots_of(d, s, avail_of(d, s), KALL & ~(1ULL << Kc)) != 0;
}

/* One step of the Algorithm 1 unit at the clock edge, from the registered state (called before any
 * other state update of drv_commit; writes only a1_*). */
static void a1_step(sm_driver_t *d, const drv_in_t *in, const drv_out_t *o)
{
    const uint32_t Kc = d->a1_kc;
    switch (d->a1_st) {
    case DRV_A1_IDLE:
        if (!o->a1_go)
            return;
        d->a1_st = DRV_A1_SMV, d->a1_kc = o->a1_kc, d->a1_s = 0, d->a1_f = 0, d->a1_best = 0;
        if (SMK_DRV_PIPE) /* SM 0's operands, one cycle ahead of its SMV cycle */
            a1_smv_w(d, o->a1_kc, 0, &d->a1_pcd, d->a1_pw);
        return;
    case DRV_A1_SMV: { /* step 1, SM a1_s: the highest share(u(s) - cnt[s][Kc] * d(Kc)) among the
                        * SMs of kmask[Kc] with a TB of another kernel in pre(s); ties: lowest */
        const uint32_t s = d->a1_s;
        uint32_t cand, w[NR];
        if (SMK_DRV_PIPE) /* drv_pipe = 1: SM s's operands registered in the previous cycle */
            cand = d->a1_pcd, memcpy(w, d->a1_pw, sizeof w);
        else
            a1_smv_w(d, Kc, s, &cand, w);
        const uint32_t v = share_of(w);
        if (cand && (!d->a1_f || v > d->a1_best))
            d->a1_f = 1, d->a1_smv = s, d->a1_best = v;
        if (SMK_DRV_PIPE && s != NSM - 1) /* and SM s + 1's, for the next cycle */
            a1_smv_w(d, Kc, s + 1, &d->a1_pcd, d->a1_pw);
        if (s == NSM - 1)
            d->a1_s = 0, d->a1_st = d->a1_f ? DRV_A1_KV : DRV_A1_IDLE;
        else
            d->a1_s = s + 1;
        return;
    }
    case DRV_A1_KV: { /* step 2: Kv = the highest rK among the kernels != Kc with a TB in pre(SMv) */
        const uint32_t sv = d->a1_smv;
        uint64_t kset = 0;
        for (tmask_t x = avail_of(d, sv); x; x &= x - 1) {
            const uint32_t k = d->sk[sv][smk_ctz(x)];
            if (k != Kc)
                kset |= 1ULL << k;
        }
        int kv = -1;
        uint32_t bk = 0;
        for (uint64_t x = kset; x; x &= x - 1) {
            const uint32_t k = (uint32_t)smk_ctz(x), v = rk_of(d, k);
            if (kv < 0 || v > bk)
                kv = (int)k, bk = v;
        }
        if (kv < 0) {
            d->a1_st = DRV_A1_IDLE;
        } else {
            d->a1_st = DRV_A1_P, d->a1_kv = (uint32_t)kv, d->a1_q = 0;
            memset(d->a1_acc, 0, sizeof d->a1_acc);
        }
        return;
    }
    case DRV_A1_P: { /* step 3, q = a1_q + 1: does removing q TBs of Kv let one TB of Kc fit on SMv? */
        const uint32_t sv = d->a1_smv, Kv = d->a1_kv, q = d->a1_q + 1, c1 = d->cnt[sv][Kv];
        uint32_t dc[NR], dv[NR];
        dem(d, Kc, dc);
        dem(d, Kv, dv);
        for (int i = 0; i < NR; i++)
            d->a1_acc[i] += dv[i]; /* q * d_x(Kv) <= T * LIM_x: no wrap in AW bits */
        const uint32_t wfree = (uint32_t)smk_popc(~in->wused[sv] & WALL);
        const uint32_t ks = ks_of(d, sv, Kc) >= 0 || ks_room(nks_of(d, sv), in->cfg_max2 & 1) || q == c1;
        int ok = q <= c1 && wfree + d->a1_acc[DRV_R_W] >= dc[DRV_R_W] && ks;
        for (int i = 0; i < NR && ok; i++)
            ok = d->u[sv][i] + dc[i] <= LIM[i] + d->a1_acc[i];
        d->a1_q = q;
        if (ok)
            d->a1_st = SMK_DRV_PIPE ? DRV_A1_R1 : DRV_A1_RNG;
        else if (q >= c1)
            d->a1_st = DRV_A1_IDLE;
        return;
    }
    case DRV_A1_R1: { /* drv_pipe = 1: the shares step 4 reads, registered */
        const uint32_t Kv = d->a1_kv;
        uint32_t dc[NR], a[NR], b[NR];
        dem(d, Kc, dc);
        d->a1_nouf = 1;
        for (int i = 0; i < NR; i++) {
            d->a1_nouf &= d->U[Kv][i] >= d->a1_acc[i];
            a[i] = d->U[Kc][i] + dc[i], b[i] = d->U[Kv][i] - d->a1_acc[i];
        }
        for (uint32_t k = 0; k < KN; k++)
            d->a1_rk[k] = rk_of(d, k);
        d->a1_kvm = d->kv & KALL;
        d->a1_rv = d->a1_nouf ? share_of(b) : 0;
        d->a1_rc = share_of(a);
        d->a1_st = DRV_A1_R2;
        return;
    }
    case DRV_A1_R2: { /* the range ends over the kernels of a1_kvm, before and after (0 if none) */
        uint32_t omin = UINT32_MAX, omax = 0, nmin = UINT32_MAX, nmax = 0;
        for (uint64_t x = d->a1_kvm; x; x &= x - 1) {
            const uint32_t k = (uint32_t)smk_ctz(x), o = d->a1_rk[k];
            const uint32_t v = k == Kc ? d->a1_rc : k == d->a1_kv ? d->a1_rv : o;
            omin = o < omin ? o : omin, omax = o > omax ? o : omax;
            nmin = v < nmin ? v : nmin, nmax = v > nmax ? v : nmax;
        }
        if (!d->a1_kvm)
            omin = nmin = 0;
        d->a1_omax = omax, d->a1_omin = omin, d->a1_nmax = nmax, d->a1_nmin = nmin;
        d->a1_st = DRV_A1_R3;
        return;
    }
    case DRV_A1_R3:
        d->a1_ok = d->a1_nouf && d->a1_kvm && d->a1_nmax - d->a1_nmin < d->a1_omax - d->a1_omin;
        d->a1_st = DRV_A1_RNG;
        return;
    default: /* RNG: decision 5 was this cycle's (drv_eval); back to IDLE either way */
        d->a1_st = DRV_A1_IDLE;
        return;
    }
}

/* rq_rdy ("Request port"): per GPU (cfg_qctl PGPU) a pending preemption anywhere holds the port */
static inline int rq_rdy_of(const sm_driver_t *d, const drv_in_t *in)
{
    return d->rq_st == DRV_RQ_IDLE && !d->pact && !d->pdirty && !((in->cfg_qctl & DRV_QC_PGPU) && d->rq_pend);
}
/* QOS with preemptions per SM (cfg_qctl PGPU = 0): decision 1's evictions neither wait for nor set pb */
static inline int evict_sm(const drv_in_t *in)
{
    return (in->cfg_policy & 7) == DRV_QOS && !(in->cfg_qctl & DRV_QC_PGPU);
}
/* work(k) without kv ("Derived values"): a TB of k left to dispatch, new or from the PTBQ */
static int has_work(const sm_driver_t *d, uint32_t k)
{
    if (d->knext[k] < d->kgrid[k])
        return 1;
    for (int i = 0; i < PQ; i++)
        if ((d->qst[i] == DRV_Q_SAVED || d->qst[i] == DRV_Q_RERUN) && d->qk[i] == k)
            return 1;
    return 0;
}
/* the decision's values from the registered state of this cycle that every step reads */
static void ctx_init(const sm_driver_t *d, const drv_in_t *in, ctx_t *c)
{
    c->policy = in->cfg_policy & 7, c->max2 = in->cfg_max2 & 1;
    c->cmdok = ~d->busy & ~d->rl_v & SALL;
    c->freeq = -1, c->hasq = 0;
    for (int i = PQ - 1; i >= 0; i--) {
        const uint32_t st = d->qst[i];
        if (st == DRV_Q_FREE)
            c->freeq = i;
        else if (st == DRV_Q_SAVED || st == DRV_Q_RERUN)
            c->hasq |= 1ULL << d->qk[i], c->pqsel[d->qk[i]] = (uint8_t)i;
    }
    c->elig = 0;
    for (uint64_t x = d->kv & KALL; x; x &= x - 1) {
        const uint32_t k = (uint32_t)smk_ctz(x);
        const int work = bit(c->hasq, k) || d->knext[k] < d->kgrid[k];
        const int adm = d->kadm[k] != DRV_ADM_CAP || d->U[k][DRV_R_TB] < d->klim[k];
        if (work && adm)
            c->elig |= 1ULL << k;
    }
    c->resv_sm = 0, c->resv_r = -1;
}

static inline int part_pol_of(uint32_t policy) { return policy == DRV_SMK_P || policy == DRV_QOS; } /* QOS: SMK_P's rules */
static inline int evict_pol_of(uint32_t policy) { return policy == DRV_SPART || part_pol_of(policy); }

/* decision 1's slot on SM s: the highest slot of pre(s) whose kernel may not stay (0 if none) */
static tmask_t evict_slots(const sm_driver_t *d, const ctx_t *c, uint32_t s)
{
    uint64_t bad = 0;
    for (uint32_t k = 0; k < KN; k++)
        if (d->cnt[s][k] && (c->policy == DRV_SPART ? !bit(d->kmask[k], s) : d->cnt[s][k] > d->part[s][k]))
            bad |= 1ULL << k;
    return bad ? slots_of(d, s, avail_of(d, s), bad) : 0;
}
/* decision 2's slots on SM s: pre(s) of non-RESERVE kernels */
static tmask_t resv_slots(const sm_driver_t *d, uint32_t s)
{
    uint64_t nonres = 0;
    for (uint32_t k = 0; k < KN; k++)
        nonres |= (uint64_t)(d->kadm[k] != DRV_ADM_RESERVE) << k;
    return slots_of(d, s, avail_of(d, s), nonres);
}

/* The choice ("Decision pipeline"): (kind, S, K, R) from this cycle's registered state, wused and
 * configuration. c from ctx_init; fills c->wfree, c->resv_sm, c->resv_r. */
static void choose(const sm_driver_t *d, const drv_in_t *in, ctx_t *c, dch_t *ch)
{
    memset(ch, 0, sizeof *ch);
    const int part_pol = part_pol_of(c->policy), evict_pol = evict_pol_of(c->policy);
    /* nothing can happen: no eligible kernel, no plan, no eviction candidate possible */
    if (!c->elig && !d->plan_v && !evict_pol)
        return;
    for (uint32_t s = 0; s < NSM; s++)
        c->wfree[s] = (uint32_t)smk_popc(~in->wused[s] & WALL);
    /* RESERVE: the lowest short kernel */
    for (uint64_t x = c->elig; x; x &= x - 1) {
        const uint32_t k = (uint32_t)smk_ctz(x);
        if (d->kadm[k] == DRV_ADM_RESERVE && d->U[k][DRV_R_TB] < d->klim[k] && fits_any(d, c, k) < 0) {
            c->resv_r = (int)k, c->resv_sm = d->kmask[k] & SALL;
            break;
        }
    }
    ch->r = c->resv_sm;

    /* 1. eviction */
    if (evict_pol && (!d->pb || evict_sm(in))) {
        for (uint64_t x = c->cmdok; x; x &= x - 1) {
            const uint32_t s = (uint32_t)smk_ctz(x);
            if (!evict_slots(d, c, s))
                continue;
            if ((in->cfg_evict & 3) == OP_SAVE && c->freeq < 0)
                break; /* no eviction this cycle; the next decisions apply */
            ch->kind = DRV_CH_EVICT, ch->s = s;
            return;
        }
    }
    /* 2. reservation drain */
    if (c->resv_r >= 0 && !d->pb) {
        for (uint64_t x = c->resv_sm & c->cmdok; x; x &= x - 1) {
            const uint32_t s = (uint32_t)smk_ctz(x);
            if (resv_slots(d, s)) {
                ch->kind = DRV_CH_RESV, ch->s = s;
                return;
            }
        }
    }
    /* 3. plan step (applies iff plan_v & ~pb & (plan_left == 0 | cmd_ok(plan_sm) & a FREE entry)) */
    if (d->plan_v && !d->pb && (d->plan_left == 0 || (bit(c->cmdok, d->plan_sm) && c->freeq >= 0))) {
        ch->kind = DRV_CH_PLAN, ch->s = d->plan_sm, ch->k = d->plan_kc;
        return;
    }
    if (!c->elig)
        return;
    /* 4. dispatch, 5. preemption start */
    if (c->policy == DRV_SMK_OD) {
        uint32_t Kc = 0, bk = 0;
        int have = 0;
        for (uint64_t x = c->elig; x; x &= x - 1) {
            const uint32_t k = (uint32_t)smk_ctz(x), v = rk_of(d, k);
            if (!have || v < bk)
                Kc = k, bk = v, have = 1;
        }
        int smc = -1;
        uint32_t bs = 0;
        for (uint64_t x = d->kmask[Kc] & SALL; x; x &= x - 1) {
            const uint32_t s = (uint32_t)smk_ctz(x), v = rsm_of(d, s);
            if (smc < 0 || v < bs)
                smc = (int)s, bs = v;
        }
        if (smc < 0)
            return;
        if (fits(d, c, (uint32_t)smc, Kc))
            ch->kind = DRV_CH_DISP, ch->s = (uint32_t)smc, ch->k = Kc;
        else if (!d->plan_v && !d->pb)
            ch->kind = DRV_CH_MISS, ch->s = (uint32_t)smc, ch->k = Kc;
    } else if (part_pol) {
        uint64_t cand = c->elig;
        while (cand) {
            uint32_t K = 0, bk = 0;
            int have = 0;
            for (uint64_t x = cand; x; x &= x - 1) {
                const uint32_t k = (uint32_t)smk_ctz(x), v = rk_of(d, k);
                if (!have || v < bk)
                    K = k, bk = v, have = 1;
            }
            int S = -1;
            uint32_t bs = 0;
            for (uint64_t x = d->kmask[K] & SALL; x; x &= x - 1) {
                const uint32_t s = (uint32_t)smk_ctz(x);
                if (!fits(d, c, s, K))
                    continue;
                const uint32_t v = rsm_of(d, s);
                if (S < 0 || v < bs)
                    S = (int)s, bs = v;
            }
            if (S >= 0) {
                ch->kind = DRV_CH_DISP, ch->s = (uint32_t)S, ch->k = K;
                return;
            }
            cand &= ~(1ULL << K);
        }
    } else { /* FCFS, SPART, 5..7 */
        uint64_t cand = c->elig;
        while (cand) {
            uint32_t K = (uint32_t)smk_ctz(cand);
            for (uint64_t x = cand; x; x &= x - 1) {
                const uint32_t k = (uint32_t)smk_ctz(x);
                if (!(d->kold[k] & cand)) {
                    K = k;
                    break;
                }
            }
            /* FCFS: the lowest SM where K fits; SPART: the one with the lowest rSM (the TBs of a
             * kernel spread over the SMs of its mask) */
            int S = fits_any(d, c, K);
            if (c->policy == DRV_SPART && S >= 0) {
                uint32_t bs = rsm_of(d, (uint32_t)S);
                for (uint64_t x = d->kmask[K] & SALL & ~SMK_MASK(S + 1); x; x &= x - 1) {
                    const uint32_t s = (uint32_t)smk_ctz(x), v = rsm_of(d, s);
                    if (v < bs && fits(d, c, s, K))
                        S = (int)s, bs = v;
                }
            }
            if (S >= 0) {
                ch->kind = DRV_CH_DISP, ch->s = (uint32_t)S, ch->k = K;
                return;
            }
            cand &= ~(1ULL << K);
        }
    }
}

/* The execution ("Decision pipeline") of the choice ch on this cycle's registered state: c from
 * ctx_init of this cycle; reads c->wfree[ch->s] only (set here) and takes resv_block from ch->r.
 * r->act: the execution acts (a command, a set-up, a plan step or decision 5). */
static void execute(const sm_driver_t *d, const drv_in_t *in, ctx_t *c, const dch_t *ch, dec_t *r)
{
    memset(r, 0, sizeof *r);
    const uint32_t S = ch->s, K = ch->k;
    c->resv_sm = ch->r;
    c->wfree[S] = (uint32_t)smk_popc(~in->wused[S] & WALL);
    switch (ch->kind) {
    case DRV_CH_EVICT: {
        if (!evict_pol_of(c->policy) || (d->pb && !evict_sm(in)) || !bit(c->cmdok, S))
            return;
        const tmask_t m = evict_slots(d, c, S);
        const uint32_t op = (in->cfg_evict & 3) == OP_SAVE ? OP_SAVE : OP_DRAIN;
        if (!m || (op == OP_SAVE && c->freeq < 0))
            return;
        const uint32_t t = highbit(m);
        r->kind = DRV_DEC_EVICT, r->s = S, r->t = t, r->k = d->sk[S][t], r->id = d->sid[S][t], r->op = op;
        r->q = op == OP_SAVE ? (uint32_t)c->freeq : 0;
        r->act = 1;
        return;
    }
    case DRV_CH_RESV: {
        if (d->pb || !bit(c->cmdok, S))
            return;
        const tmask_t m = resv_slots(d, S);
        if (!m)
            return;
        const uint32_t t = highbit(m);
        r->kind = DRV_DEC_RESV, r->s = S, r->t = t, r->k = d->sk[S][t], r->id = d->sid[S][t], r->op = OP_DRAIN;
        r->act = 1;
        return;
    }
    case DRV_CH_PLAN: {
        if (!d->plan_v || d->pb)
            return;
        const uint32_t P = d->plan_sm, Kc = d->plan_kc;
        if (d->plan_left > 0) {
            if (!bit(c->cmdok, P) || c->freeq < 0)
                return;
            r->act = 1;
            const tmask_t m = slots_of(d, P, avail_of(d, P), 1ULL << d->plan_kv);
            if (m) {
                const uint32_t t = highbit(m), k = d->sk[P][t];
                r->kind = DRV_DEC_PLAN_PRE, r->s = P, r->t = t, r->k = k, r->id = d->sid[P][t];
                r->q = (uint32_t)c->freeq;
                r->op = ((in->cfg_pmode & 3) == OP_DROP && bit(d->kidem, k)) ? OP_DROP : OP_SAVE;
                r->pl_dec = 1;
            } else {
                r->pl_clear = 1; /* no such slot: the plan ends */
            }
        } else {
            r->act = 1, r->pl_clear = 1; /* the plan ends either way */
            c->wfree[P] = (uint32_t)smk_popc(~in->wused[P] & WALL);
            if (bit(c->elig, Kc) && fits(d, c, P, Kc))
                dispatch(d, c, Kc, P, r);
        }
        return;
    }
    case DRV_CH_DISP:
        if (bit(c->elig, K) && fits(d, c, S, K)) {
            dispatch(d, c, K, S, r);
            r->act = r->kind != DRV_DEC_NONE;
        }
        return;
    case DRV_CH_MISS:
        if (d->plan_v || d->pb)
            return;
        /* decision 5: the Algorithm 1 unit starts from IDLE, or, in RNG for this Kc, starts the plan */
        r->a1_go = 1, r->a1_kc = K;
        if (d->a1_st == DRV_A1_RNG && d->a1_kc == K && (SMK_DRV_PIPE ? d->a1_ok != 0 : a1_shrinks(d, K) != 0)) {
            r->kind = DRV_DEC_PLAN_START, r->s = d->a1_smv, r->k = K, r->id = d->a1_kv,
            r->t = d->a1_q; /* PLAN_START: dec_id = Kv, dec_slot = p */
            r->act = 1;
        }
        return;
    default:
        return;
    }
}

/* ---------------------------------------------------------------- interface */

void drv_reset(sm_driver_t *d) { memset(d, 0, sizeof *d); }

/* ---------------------------------------------------------------- decision memo (model speed only) */

/* the configuration inputs the choice reads, as it masks them */
static inline uint32_t memo_cfg_of(const drv_in_t *in)
{
    return (in->cfg_policy & 7) | (in->cfg_max2 & 1) << 3 | (in->cfg_evict & 3) << 4 | (in->cfg_pmode & 3) << 6 |
           (in->cfg_qctl & DRV_QC_PGPU) << 7;
}
/* the choice reads wused only as wfree[s] = popcount(~wused[s]): the same wused is enough */
static inline int memo_wused_same(const sm_driver_t *d, const drv_in_t *in)
{
    wmask_t diff = 0;
    for (uint32_t s = 0; s < NSM; s++)
        diff |= (in->wused[s] ^ d->memo_wused[s]) & WALL;
    return diff == 0;
}

void drv_eval(const sm_driver_t *d, const drv_in_t *in, drv_out_t *o)
{
    memset(o, 0, sizeof *o);
    o->kl_rej = d->kl_rej, o->kdone_v = d->kdone_v, o->kdone_k = d->kdone_k;

    /* request port (registered) and lookup port (combinational reads; out of range reads 0) */
    o->rq_rdy = rq_rdy_of(d, in);
    o->rq_ack_v = d->rq_ack_v, o->rq_ack_st = d->rq_ack_st, o->rq_ack_kv = d->rq_ack_kv, o->rq_ack_n = d->rq_ack_n;
    {
        const uint32_t ls = in->lk_s & (uint32_t)SMK_MASK(SMK_SMW), lk = in->lk_k & (uint32_t)SMK_MASK(SMK_KID_W);
        if (ls < NSM && lk < KN) {
            o->lk_cnt = d->cnt[ls][lk], o->lk_part = d->part[ls][lk];
            const int j = ks_of(d, ls, lk);
            o->lk_ksv = j >= 0, o->lk_ks = j >= 0 ? (uint32_t)j : 0;
        }
    }

    /* event */
    if (d->rl_v & SALL) {
        const uint32_t s = (uint32_t)smk_ctz(d->rl_v & SALL);
        o->ev_kind = DRV_EV_RSP, o->ev_sm = s, o->ev_slot = d->rl_tb[s];
    } else {
        tmask_t anyd = 0; /* quick reject, vectorizes: no latched completion anywhere */
        for (uint32_t s = 0; s < NSM; s++)
            anyd |= d->dp[s];
        for (uint32_t s = 0; s < NSM && (anyd & TALL); s++)
            if (d->dp[s] & TALL) {
                o->ev_kind = DRV_EV_DONE, o->ev_sm = s, o->ev_slot = (uint32_t)smk_ctz(d->dp[s] & TALL);
                break;
            }
    }

    /* decision ("Decision pipeline"): this cycle's choice (from the memo when the state it reads is
     * unchanged since the last cycle and so are its other inputs; see sm_driver_t), and the
     * execution of this cycle's choice (drv_pipe = 0) or of dp2 (drv_pipe = 1) */
    ctx_t c;
    int cv = 0; /* c computed (ctx_init) */
    dch_t ch;
    if (d->memo_v && d->memo_cfg == memo_cfg_of(in) && memo_wused_same(d, in)) {
        ch.kind = d->memo_ch[0], ch.s = d->memo_ch[1], ch.k = d->memo_ch[2], ch.r = d->memo_r;
    } else {
        ctx_init(d, in, &c), cv = 1;
        choose(d, in, &c, &ch);
    }
    o->ch_kind = ch.kind, o->ch_s = ch.s, o->ch_k = ch.k, o->ch_r = ch.r;
    dec_t r;
    const dch_t e = {SMK_DRV_PIPE ? (d->dp2_v ? d->dp2_kind : DRV_CH_NONE) : ch.kind, SMK_DRV_PIPE ? d->dp2_s : ch.s,
                     SMK_DRV_PIPE ? d->dp2_k : ch.k, SMK_DRV_PIPE ? d->dp2_r : ch.r};
    if (e.kind == DRV_CH_NONE) {
        memset(&r, 0, sizeof r);
    } else {
        if (!cv)
            ctx_init(d, in, &c);
        execute(d, in, &c, &e, &r);
    }
    o->act = r.act, o->pl_dec = r.pl_dec, o->pl_clear = r.pl_clear;
    o->dec_kind = r.kind, o->dec_sm = r.s, o->dec_slot = r.t, o->dec_k = r.k, o->dec_id = r.id, o->dec_q = r.q;
    o->a1_go = r.a1_go, o->a1_kc = r.a1_kc;
    const uint32_t s = r.s;
    switch (r.kind) {
    case DRV_DEC_EVICT:
    case DRV_DEC_RESV:
    case DRV_DEC_PLAN_PRE:
        o->cmd_v[s] = 1, o->cmd_op[s] = r.op, o->cmd_tb[s] = r.t, o->cmd_idem[s] = bit(d->kidem, r.k);
        o->cmd_ptr[s] = r.op == OP_DRAIN ? 0 : ((uint64_t)r.q * SMK_CTX_MAX_LINES) & SMK_MASK(SMK_CTX_PTR_W);
        break;
    case DRV_DEC_NEW:
    case DRV_DEC_RERUN:
    case DRV_DEC_RESTORE: {
        const uint32_t k = r.k;
        const int j = ks_of(d, s, k);
        o->set_v[s] = 1, o->set_tb[s] = r.t, o->set_mask[s] = wsel(in->wused[s], d->kn[k]);
        o->set_ks[s] = (uint32_t)(j >= 0 ? j : ks_free(d, s));
        o->set_nreg[s] = d->kr[k], o->set_smem[s] = d->km[k];
        o->set_go[s] = r.kind != DRV_DEC_RESTORE;
        o->set_id[s] = r.id & (uint32_t)GWM; /* knext[K] (NEW) or qid[i] (RERUN, RESTORE) */
        if (r.kind == DRV_DEC_RESTORE) {
            o->cmd_v[s] = 1, o->cmd_op[s] = OP_RESTORE, o->cmd_tb[s] = r.t, o->cmd_idem[s] = bit(d->kidem, k);
            o->cmd_ptr[s] = ((uint64_t)r.q * SMK_CTX_MAX_LINES) & SMK_MASK(SMK_CTX_PTR_W);
        }
        break;
    }
    default:
        break;
    }
}

/* retire(s, t) */
static void retire(sm_driver_t *d, uint32_t s, uint32_t t)
{
    const uint32_t k = d->sk[s][t];
    uint32_t x[NR];
    dem(d, k, x);
    d->sv[s] &= ~(1ULL << t);
    for (int i = 0; i < NR; i++) {
        d->u[s][i] = (uint32_t)((d->u[s][i] - x[i]) & UWM);
        d->U[k][i] = (uint32_t)((d->U[k][i] - x[i]) & UWM);
    }
    d->cnt[s][k] = (uint8_t)((d->cnt[s][k] - 1u) & CNTM);
    if (d->cnt[s][k] == 0) {
        const int j = ks_of(d, s, k);
        if (j >= 0)
            d->ksv[s] &= (uint16_t)~(1u << j);
    }
}

static int find_q(const sm_driver_t *d, uint32_t st, uint32_t s)
{
    for (int i = 0; i < PQ; i++)
        if (d->qst[i] == st && d->qs[i] == s)
            return i;
    return -1;
}

/* The request unit ("QoS", "Request port"): one step from the registered state. Runs first in
 * drv_commit, so every value it reads (part, cnt, pb, the kernel table) is the registered one; it
 * writes only part[rq_s][*] (not IDLE: the partition unit is idle) and its own state. */
static void rq_step(sm_driver_t *d, const drv_in_t *in, uint32_t rdy)
{
    const uint32_t pol = in->cfg_policy & 7;
    /* rq_pend[x]: cleared when SM x's victim is down to its partition (and, per GPU, no preemption
     * is in flight), or outside QOS; a VICTIM grant below sets it (the set wins) */
    const int pgpu = (in->cfg_qctl & DRV_QC_PGPU) != 0;
    const uint64_t pend0 = d->rq_pend; /* IDLE's refusal reads the registered rq_pend */
    for (uint64_t m = d->rq_pend; m; m &= m - 1) {
        const uint32_t x = (uint32_t)smk_ctz(m), v = d->rq_pk[x];
        if (pol != DRV_QOS || (d->cnt[x][v] <= d->part[x][v] && !(pgpu && d->pb)))
            d->rq_pend &= ~(1ULL << x);
    }
    uint32_t ack = 0, ack_st = 0, ack_kv = 0, ack_n = 0;
    switch (d->rq_st) {
    case DRV_RQ_IDLE:
        if ((in->rq_v & 1) && rdy) {
            const uint32_t k = in->rq_k & (uint32_t)SMK_MASK(SMK_KID_W), s = in->rq_sm & (uint32_t)SMK_MASK(SMK_SMW);
            if (k >= KN || s >= NSM || !bit(d->kv, k) || !bit(d->kmask[k], s) || !has_work(d, k) ||
                bit(pend0, s)) {
                ack = 1, ack_st = DRV_ACK_REFUSED;
            } else {
                d->rq_k = k, d->rq_s = s, d->rq_ret = in->rq_ret & 1;
                for (uint32_t j = 0; j < KN; j++)
                    d->rq_g[j] = in->rq_give[j] & (uint32_t)CNTM;
                memset(d->acc, 0, sizeof d->acc);
                d->rq_npk = 0, d->rq_j = 0, d->rq_st = DRV_RQ_SUM;
            }
        }
        break;
    case DRV_RQ_SUM: {
        const uint32_t j = d->rq_j, s = d->rq_s;
        if (j < KN) {
            uint32_t x[NR];
            dem(d, j, x);
            for (int i = 0; i < NR; i++)
                d->acc[i] = (uint32_t)((d->acc[i] + d->part[s][j] * x[i]) & UWM);
            d->rq_npk += d->part[s][j] != 0;
        }
        d->rq_j = (j + 1) & (uint32_t)SMK_MASK(SMK_KID_W + 1);
        if (j + 1 >= KN) {
            memcpy(d->w, d->acc, sizeof d->w);
            d->rq_c = d->rq_ret ? 1u << SMK_KID_W : 0, d->rq_q = 0, d->rq_st = DRV_RQ_SCAN;
        }
        break;
    }
    case DRV_RQ_SCAN: {
        const uint32_t k = d->rq_k, s = d->rq_s, v = d->rq_c & (uint32_t)SMK_MASK(SMK_KID_W),
                       P = d->rq_c >> SMK_KID_W & 1, q = d->rq_q;
        const uint32_t pv = v < KN ? d->part[s][v] : 0;
        uint32_t dk[NR];
        dem(d, k, dk);
        int fit = d->part[s][k] != 0 || ks_room(d->rq_npk, in->cfg_max2 & 1) || (q != 0 && q == pv);
        for (int i = 0; i < NR && fit; i++)
            fit = d->w[i] + dk[i] <= LIM[i];
        if (fit) {
            d->part[s][k] = (uint8_t)((d->part[s][k] + 1u) & CNTM);
            ack = 1;
            if (q == 0) {
                ack_st = DRV_ACK_FREE;
            } else {
                d->part[s][v] = (uint8_t)((pv - q) & CNTM);
                d->rq_pend |= 1ULL << s, d->rq_pk[s] = (uint8_t)v;
                ack_st = DRV_ACK_VICTIM, ack_kv = v, ack_n = q;
            }
        } else if (v != k && v < KN && pv > q &&
                   (P ? bit(d->kqos, v) && q + 1 <= d->rq_g[v] : !bit(d->kqos, v))) {
            uint32_t dv[NR];
            dem(d, v, dv);
            for (int i = 0; i < NR; i++)
                d->w[i] = (uint32_t)((d->w[i] - dv[i]) & UWM);
            d->rq_q = (q + 1) & (uint32_t)CNTM;
        } else if (P && v == KN - 1) {
            ack = 1, ack_st = DRV_ACK_REFUSED;
        } else {
            d->rq_c = (d->rq_c + 1) & (uint32_t)SMK_MASK(SMK_KID_W + 1);
            d->rq_q = 0;
            memcpy(d->w, d->acc, sizeof d->w);
        }
        break;
    }
    default:
        break;
    }
    if (ack)
        d->rq_st = DRV_RQ_IDLE;
    d->rq_ack_v = ack, d->rq_ack_st = ack_st, d->rq_ack_kv = ack_kv, d->rq_ack_n = ack_n;
}

void drv_commit(sm_driver_t *d, const drv_in_t *in, const drv_out_t *o)
{
    /* memo (sm_driver_t): quiet = this edge writes no state element that the choice reads. The
     * request unit writes part[][] only in SCAN, the partition unit only while pact (its own
     * state pc, pacc, pcnt_ks, pgot is not read by the choice; pgot is written at a start, where
     * pact is 0, and at the end of an SM, where pact is 1); every other
     * write of such an element comes with an event, a decision, a plan step, a host port or a
     * latch below. */
    uint32_t quiet = d->rq_st != DRV_RQ_SCAN && !d->pact && o->ev_kind == DRV_EV_NONE && !o->act &&
                     !(in->kl_v & 1) && !(in->km_v & 1);
    /* the Algorithm 1 unit first: it reads the registered state and writes only a1_*, which the
     * choice does not read (the execution does, every cycle) */
    a1_step(d, in, o);
    /* KEEP: does the launched entry hold partition units (registered part, read before the request
     * and partition units write it below)? */
    int held = 0;
    if (in->kl_v & 1) {
        const uint32_t kk = in->kl_k & (uint32_t)SMK_MASK(SMK_KID_W);
        for (uint32_t x = 0; x < NSM && kk < KN; x++)
            held |= d->part[x][kk] != 0;
    }
    /* request unit first (registered state); the partition unit starts only from IDLE */
    const uint32_t rq_idle = d->rq_st == DRV_RQ_IDLE;
    rq_step(d, in, rq_rdy_of(d, in));
    /* QOS with KEEP: an application's partitions last across its relaunches */
    const int keep = (in->cfg_policy & 7) == DRV_QOS && (in->cfg_qctl & DRV_QC_KEEP);
    /* values of the registered state needed after the updates below */
    const uint64_t kv0 = d->kv;
    const uint32_t dk = o->dec_kind;
    /* plan step (decision 3) applied this cycle: the execution says */
    const uint32_t plan_clear = o->pl_clear, plan_dec = o->pl_dec;

    /* rotation timer ("Rotation"): counts down; prt = 1 sets pdirty unless a run starts now. A start
     * clears it and the end of a run may reload it (below; prt is 0 while pact) */
    const uint32_t prt_fire = d->prt == 1;
    if (d->prt)
        d->prt--;
    /* partition unit (from the registered state) */
    uint32_t pstart = 0, peval = 0;
    if (!d->pact) {
        if (d->pdirty && rq_idle) {
            pstart = 1;
            d->pact = 1, d->pcur = 0, d->pcnt_ks = 0, d->pgot = 0, d->prun = 0, d->psrv = 0, d->prt = 0, d->pph = 0;
            memset(d->pc, 0, sizeof d->pc);
            memset(d->pacc, 0, sizeof d->pacc);
        }
    } else {
        const uint32_t s = d->pcur;
        uint32_t dm[KN][NR];
        uint64_t allowed = 0;
        for (uint32_t k = 0; k < KN; k++) {
            dem(d, k, dm[k]);
            allowed |= (uint64_t)(bit(d->kv, k) & bit(d->kmask[k], s)) << k;
        }
        /* lat (last-chance tie-break): bit k = kernel k is allowed on some SM after pcur in this
         * run, kmask[k] & above != 0 with above = the SMs > pcur (none at SM NSM-1) */
        const uint64_t above = s + 1 < NSM ? SMK_MASK(NSM) & ~SMK_MASK(s + 1) : 0;
        uint64_t lat = 0;
        for (uint32_t k = 0; k < KN; k++)
            lat |= (uint64_t)((d->kmask[k] & above) != 0) << k;
        const int qos = (in->cfg_policy & 7) == DRV_QOS;
        if (qos) { /* allowed(k, pcur): kqos[k] | rank(k) == owner(pcur); lat of a non-QoS kernel
                    * also needs rank(k) == owner(pcur + 1) */
            const uint64_t nqm = d->kv & ~d->kqos & KALL;
            const uint32_t nq = (uint32_t)smk_popc(nqm), own = s * nq / NSM, own1 = (s + 1) * nq / NSM;
            uint64_t al = 0, ln = 0;
            for (uint32_t k = 0; k < KN; k++) {
                const uint32_t rk = (uint32_t)smk_popc(nqm & SMK_MASK(k));
                al |= (uint64_t)(bit(d->kqos, k) || (bit(nqm, k) && rk == own)) << k;
                ln |= (uint64_t)(bit(d->kqos, k) || (s + 1 < NSM && rk == own1)) << k;
            }
            allowed &= al;
            lat &= ln;
        }
        uint64_t cd = 0;
        int b = -1;
        if (SMK_DRV_PIPE) {
            /* drv_pipe = 1: evaluate (pph 0) registers the step's candidates, their keys and lat;
             * commit (pph 1) picks from those registers and acts on the state of its own cycle */
            if (!d->pph) {
                uint32_t key[KN];
                cd = fill_eval(KN, (const uint32_t(*)[NR])dm, allowed, LIM, qos ? MULT_QOS : MULT, d->pacc, d->pc,
                               d->pcnt_ks, KS, in->cfg_max2 & 1, qos ? 0 : SMK_UW, qos ? 0 : SMK_SHW, key);
                d->pcand_r = cd, d->plat_r = lat & cd, peval = 1; /* pph: below, with the kernel table's writes */
                for (uint32_t k = 0; k < KN; k++)
                    d->pkv_r[k] = key[k];
                d->psrv |= cd;
                goto pdone; /* the evaluate cycle changes nothing else of the unit */
            }
            b = fill_argmin(KN, d->pcand_r, d->pkv_r, d->pgot, d->ptop, d->plat_r);
            d->pph = 0;
        } else {
            b = fill_pick(KN, (const uint32_t(*)[NR])dm, allowed, LIM, qos ? MULT_QOS : MULT, d->pacc, d->pc,
                          d->pcnt_ks, KS, in->cfg_max2 & 1, d->pgot, d->ptop, lat, !qos, &cd);
        }
        const uint64_t psrv = d->psrv | cd; /* the candidates of this run so far */
        d->psrv = psrv;
        if (b >= 0) {
            if (d->pc[b] == 0)
                d->pcnt_ks = (d->pcnt_ks + 1) & (uint32_t)SMK_MASK(SMK_KS_W + 1);
            d->pc[b] = (d->pc[b] + 1) & (uint32_t)CNTM;
            for (int i = 0; i < NR; i++)
                d->pacc[i] = (uint32_t)((d->pacc[i] + dm[b][i]) & UWM);
        } else {
            uint64_t g = d->pgot, got = 0;
            for (uint32_t k = 0; k < KN; k++)
                got |= (uint64_t)(d->pc[k] != 0) << k;
            g |= got;
            /* pgot: the kernels with a partition on an SM of this run; wrap (clear) once every
             * kernel in use has one */
            d->pgot = (g & d->kv & KALL) == (d->kv & KALL) ? 0 : g & KALL;
            const uint64_t prun = d->prun | got;
            d->prun = prun;
            if (s + 1 >= NSM) { /* rotation ("Rotation"): the starved kernels of the run */
                const uint64_t stv = d->kv & psrv & ~prun & KALL;
                if (stv) {
                    /* the first starved kernel at or after prr, cyclically */
                    const uint64_t hi = stv & ~SMK_MASK(d->prr);
                    const uint32_t t = (uint32_t)__builtin_ctzll(hi ? hi : stv);
                    d->ptop = 1ULL << t;
                    d->prr = t + 1 < KN ? t + 1 : 0;
                    if ((in->cfg_policy & 7) == DRV_SMK_P)
                        d->prt = PROT;
                } else {
                    d->ptop = 0;
                }
            }
            if (s < NSM)
                for (uint32_t k = 0; k < KN; k++)
                    d->part[s][k] = (uint8_t)d->pc[k];
            memset(d->pc, 0, sizeof d->pc);
            memset(d->pacc, 0, sizeof d->pacc);
            d->pcnt_ks = 0;
            if (s + 1 >= NSM)
                d->pact = 0, d->pcur = 0;
            else
                d->pcur = s + 1;
        }
    }
pdone:;
    uint32_t dirty = 0, ktw = 0; /* ktw: the kernel table is written at this edge (a launch, a mask, a kernel finishing) */

    /* event */
    uint32_t kdone_v = 0, kdone_k = d->kdone_k;
    tmask_t dclear = 0;
    uint32_t ev_s = o->ev_sm;
    if (o->ev_kind == DRV_EV_RSP) {
        const uint32_t s = ev_s, t = d->rl_tb[s], op = d->rl_op[s], st = d->rl_st[s];
        d->busy &= ~(1ULL << s), d->rl_v &= ~(1ULL << s);
        if (t < NT)
            d->spre[s] &= ~(1ULL << t), d->sfill[s] &= ~(1ULL << t);
        if (op == OP_SAVE || op == OP_DROP) {
            const int i = find_q(d, DRV_Q_PEND, s);
            if (st == SMK_PE_ST_OK) {
                if (i >= 0)
                    d->qst[i] = op == OP_SAVE ? DRV_Q_SAVED : DRV_Q_RERUN;
                if (t < NT)
                    retire(d, s, t);
            } else if (i >= 0) {
                d->qst[i] = DRV_Q_FREE;
            }
        } else if (op == OP_RESTORE && st == SMK_PE_ST_OK) {
            const int i = find_q(d, DRV_Q_REST, s);
            if (i >= 0)
                d->qst[i] = DRV_Q_FREE;
        }
        if (bit(d->bpb, s))
            d->pb = 0, d->bpb &= ~(1ULL << s);
    } else if (o->ev_kind == DRV_EV_DONE) {
        const uint32_t s = ev_s, t = o->ev_slot, k = d->sk[s][t];
        dclear = 1ULL << t;
        retire(d, s, t);
        d->kndone[k] = (uint32_t)((d->kndone[k] + 1) & GWM);
        if (d->kndone[k] == d->kgrid[k]) {
            d->kv &= ~(1ULL << k);
            kdone_v = 1, kdone_k = k, dirty = !keep, ktw = 1; /* KEEP: the entry's partitions wait for its relaunch */
        }
    }

    /* decision */
    const uint32_t s = o->dec_sm, t = o->dec_slot, k = o->dec_k, q = o->dec_q;
    switch (dk) {
    case DRV_DEC_EVICT:
    case DRV_DEC_RESV:
    case DRV_DEC_PLAN_PRE: {
        const uint32_t op = o->cmd_op[s];
        d->spre[s] |= 1ULL << t;
        d->busy |= 1ULL << s;
        if (op == OP_SAVE || op == OP_DROP) {
            d->qst[q] = DRV_Q_PEND, d->qk[q] = (uint8_t)k, d->qid[q] = d->sid[s][t];
            d->qs[q] = (uint8_t)s, d->qt[q] = (uint8_t)t;
        }
        if ((op != OP_DRAIN || dk == DRV_DEC_RESV) && !(dk == DRV_DEC_EVICT && evict_sm(in)))
            d->pb = 1, d->bpb |= 1ULL << s;
        break;
    }
    case DRV_DEC_NEW:
    case DRV_DEC_RERUN:
    case DRV_DEC_RESTORE: {
        const uint32_t j = o->set_ks[s];
        uint32_t x[NR];
        dem(d, k, x);
        d->sv[s] |= 1ULL << t;
        d->spre[s] &= ~(1ULL << t);
        d->sk[s][t] = (uint8_t)k;
        d->sid[s][t] = o->dec_id & (uint32_t)GWM;
        d->ksv[s] |= (uint16_t)(1u << j), d->ksk[s][j] = (uint8_t)k;
        for (int i = 0; i < NR; i++) {
            d->u[s][i] = (uint32_t)((d->u[s][i] + x[i]) & UWM);
            d->U[k][i] = (uint32_t)((d->U[k][i] + x[i]) & UWM);
        }
        d->cnt[s][k] = (uint8_t)((d->cnt[s][k] + 1u) & CNTM);
        if (dk == DRV_DEC_NEW) {
            d->knext[k] = (d->knext[k] + 1) & (uint32_t)GWM;
            d->sfill[s] &= ~(1ULL << t);
        } else if (dk == DRV_DEC_RERUN) {
            d->qst[q] = DRV_Q_FREE;
            d->sfill[s] &= ~(1ULL << t);
        } else {
            d->qst[q] = DRV_Q_REST, d->qs[q] = (uint8_t)s, d->qt[q] = (uint8_t)t;
            d->sfill[s] |= 1ULL << t;
            d->busy |= 1ULL << s;
        }
        break;
    }
    case DRV_DEC_PLAN_START:
        d->plan_v = 1, d->plan_kc = k, d->plan_kv = o->dec_id, d->plan_sm = s, d->plan_left = o->dec_slot;
        break;
    default:
        break;
    }
    quiet &= !plan_dec && !plan_clear;
    if (plan_dec)
        d->plan_left = (d->plan_left - 1) & (uint32_t)CNTM;
    if (plan_clear)
        d->plan_v = 0;

    /* host ports */
    uint32_t kl_rej = 0;
    if (in->kl_v & 1) {
        const uint32_t kk = in->kl_k & (uint32_t)SMK_MASK(SMK_KID_W);
        const uint32_t n = in->kl_n & (uint32_t)SMK_MASK(SMK_WID_W + 1);
        const uint32_t r = in->kl_r & (uint32_t)SMK_MASK(SMK_REGN_W);
        const uint32_t m = in->kl_m & (uint32_t)SMK_MASK(SMK_SMLN_W);
        const uint32_t grid = in->kl_grid & (uint32_t)GWM;
        const uint64_t mask = in->kl_mask & SALL;
        const int ok = kk < KN && !bit(kv0, kk) && grid != 0 && mask != 0 && n >= 1 && n <= SMK_WARPS &&
                       r <= SMK_MAX_REGS && n * r <= SMK_LIM_REG && m <= SMK_LIM_SL;
        if (ok) {
            d->kv |= 1ULL << kk;
            d->kold[kk] = kv0 & KALL;
            for (uint32_t j = 0; j < KN; j++)
                d->kold[j] &= ~(1ULL << kk);
            d->kn[kk] = (uint16_t)n, d->kr[kk] = (uint16_t)r, d->km[kk] = (uint16_t)m;
            d->kdreg[kk] = (uint16_t)(n * r);
            d->kgrid[kk] = grid, d->knext[kk] = 0, d->kndone[kk] = 0;
            d->kqos = (d->kqos & ~(1ULL << kk)) | (uint64_t)(in->kl_qos & 1) << kk;
            d->kidem = (d->kidem & ~(1ULL << kk)) | (uint64_t)(in->kl_idem & 1) << kk;
            d->kmask[kk] = mask;
            d->kadm[kk] = (uint8_t)(in->kl_adm & 3);
            d->klim[kk] = in->kl_lim & (uint32_t)GWM;
            memset(d->U[kk], 0, sizeof d->U[kk]);
            /* KEEP: a relaunch into an entry that still holds partition units keeps them */
            dirty |= !(keep && (in->kl_keep & 1) && held);
            ktw = 1;
        } else {
            kl_rej = 1;
        }
    }
    if (in->km_v & 1) {
        const uint32_t kk = in->km_k & (uint32_t)SMK_MASK(SMK_KID_W);
        if (kk < KN)
            d->kmask[kk] = in->km_mask & SALL;
        dirty = 1, ktw = 1;
    }
    d->kl_rej = kl_rej;
    d->kdone_v = kdone_v, d->kdone_k = kdone_k;
    d->pdirty = (d->pdirty & !pstart) | dirty | (prt_fire & !pstart);
    /* drv_pipe = 1: an evaluate cycle is followed by its commit unless the kernel table is written at
     * its edge; then the step is evaluated again on the new table ("Partitions") */
    if (peval)
        d->pph = !ktw;

    /* latching */
    for (uint32_t x = 0; x < NSM; x++) {
        if (in->rsp_v[x] & 1) {
            quiet = 0;
            d->rl_v |= 1ULL << x;
            d->rl_op[x] = (uint8_t)(in->rsp_op[x] & 3);
            d->rl_tb[x] = (uint8_t)(in->rsp_tb[x] & SMK_MASK(SMK_TBS_W));
            d->rl_st[x] = (uint8_t)(in->rsp_status[x] & 7);
        }
    }
    /* dp' = ((dp & ~clear of the DONE event) | tb_done) & TALL, the clear applied first (the same
     * value); the loop vectorizes */
    if (o->ev_kind == DRV_EV_DONE)
        d->dp[ev_s] &= ~dclear;
    tmask_t dchg = 0;
    for (uint32_t x = 0; x < NSM; x++) {
        const tmask_t dpn = (d->dp[x] | in->tb_done[x]) & TALL;
        dchg |= dpn ^ d->dp[x];
        d->dp[x] = dpn;
    }
    quiet &= dchg == 0;

    /* the decision pipeline (drv_pipe = 1): dp2 <- the choice of the previous cycle's state, dp1 <-
     * this cycle's; an execution that acts drops both */
    if (SMK_DRV_PIPE) {
        d->dp2_v = d->dp1_v && !o->act && d->dp1_kind != DRV_CH_NONE;
        d->dp2_kind = d->dp1_kind, d->dp2_s = d->dp1_s, d->dp2_k = d->dp1_k, d->dp2_r = d->dp1_r;
        d->dp1_v = !o->act;
        d->dp1_kind = o->ch_kind, d->dp1_s = o->ch_s, d->dp1_k = o->ch_k, d->dp1_r = o->ch_r;
    }

    /* memo: this cycle's choice holds for the next cycle if its other inputs are the same */
    d->memo_v = quiet;
    if (quiet) {
        d->memo_cfg = memo_cfg_of(in);
        for (uint32_t x = 0; x < NSM; x++)
            d->memo_wused[x] = in->wused[x] & WALL;
        d->memo_ch[0] = o->ch_kind, d->memo_ch[1] = o->ch_s, d->memo_ch[2] = o->ch_k, d->memo_r = o->ch_r;
    }
}
