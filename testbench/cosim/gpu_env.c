/* gpu_env.c: observation vector and workload-like random environment with system-level monitors for
 * the GPU cosim (gpu_env.h).
 *
 * Identity of a TB set up by the driver: its kernel and TB id are not on any port, so the monitor
 * takes them from the driver's decision report (drv_out_t dec_*, C model; the RTL's equal state
 * sk / sid is compared every cycle) and checks the claim against its own records: a fresh id must
 * be the kernel's next one and never set up before, a rerun must be a dropped TB, a RESTORE's
 * pointer must hold a context the monitor saw saved (the identity then comes from the monitor's
 * own pointer map, and the context is compared bit-exact through the destination's mask). Events
 * (the driver's processing of a latched response or completion) are checked against the spec's
 * order from the monitor's own record of what was latched. Everything else is from the ports. */
#include "gpu_env.h"
#include "drv_env.h" /* drv_pcov_step: the partition coverage monitor; drv_host_port_fits */
#include "sm_side.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NSM SMK_NUM_SM
#define KN SMK_KERNELS
#define NW SMK_WARPS
#define NT SMK_TB_SLOTS
#define NS SMK_SCHED
#define NKS SMK_KSLOTS
#define CL SMK_CTL_LINES
#define RMAX SMK_MAX_REGS
#define MMAX SMK_SMEM_LINES
#define PW SMK_CTX_PTR_W
#define CH SMK_CTX_MAX_LINES
#define PQ SMK_PTBQ
#define NMEM (PQ * CH)
#define WALL SMK_WMASK_ALL
#define TALL SMK_MASK(NT)
#define LREG SMK_LIM_REG
#define LSL SMK_LIM_SL
#define GMAXV ((1u << SMK_GRID_W) - 1)
#define NPOL 5

#define OP_SAVE SMK_PE_OP_SAVE
#define OP_RESTORE SMK_PE_OP_RESTORE
#define OP_DRAIN SMK_PE_OP_DRAIN
#define OP_DROP SMK_PE_OP_DROP
#define ST_OK SMK_PE_ST_OK
#define ST_FIN SMK_PE_ST_FIN
#define ST_EMPTY SMK_PE_ST_ERR_EMPTY

/* ================================================================== observation vector */
#define GD_SIG(nm, n) {#nm, GD_##nm, (n)},
OBS_DEFINE_TABLE(gpu_drv_obs_table, GPU_DRV_OBS, GD_SIG, GD_N);

void gpu_obs_from_model(const gpu_top_t *g, const gpu_out_t *o, gpu_obs_t *ob)
{
    const sm_driver_t *d = &g->drv;
    const drv_out_t *q = &o->d;
    uint64_t *v = ob->d;
    memset(v, 0, sizeof ob->d);
    v[GD_kl_rej] = q->kl_rej, v[GD_kdone_v] = q->kdone_v, v[GD_kdone_k] = q->kdone_k;
    for (int s = 0; s < NSM; s++) {
        v[GD_set_v + s] = q->set_v[s], v[GD_set_tb + s] = q->set_tb[s], v[GD_set_mask + s] = q->set_mask[s];
        v[GD_set_ks + s] = q->set_ks[s], v[GD_set_nreg + s] = q->set_nreg[s], v[GD_set_smem + s] = q->set_smem[s];
        v[GD_set_go + s] = q->set_go[s];
        v[GD_cmd_v + s] = q->cmd_v[s], v[GD_cmd_op + s] = q->cmd_op[s], v[GD_cmd_tb + s] = q->cmd_tb[s];
        v[GD_cmd_ptr + s] = q->cmd_ptr[s], v[GD_cmd_idem + s] = q->cmd_idem[s];
        v[GD_set_id + s] = q->set_id[s];
        for (int x = 0; x < 4; x++)
            v[GD_u + s * 4 + x] = d->u[s][x];
        for (int k = 0; k < KN; k++)
            v[GD_cnt + s * KN + k] = d->cnt[s][k], v[GD_part + s * KN + k] = d->part[s][k];
        v[GD_ksv + s] = d->ksv[s];
        for (int j = 0; j < NKS; j++)
            v[GD_ksk + s * NKS + j] = d->ksk[s][j];
        v[GD_sv + s] = d->sv[s], v[GD_spre + s] = d->spre[s], v[GD_sfill + s] = d->sfill[s];
        for (int t = 0; t < NT; t++)
            v[GD_sk + s * NT + t] = d->sk[s][t], v[GD_sid + s * NT + t] = d->sid[s][t];
        v[GD_rl_op + s] = d->rl_op[s], v[GD_rl_tb + s] = d->rl_tb[s], v[GD_rl_st + s] = d->rl_st[s];
        v[GD_dp + s] = d->dp[s];
    }
    v[GD_kv] = d->kv, v[GD_kqos] = d->kqos, v[GD_kidem] = d->kidem;
    for (int k = 0; k < KN; k++) {
        v[GD_kold + k] = d->kold[k], v[GD_kn + k] = d->kn[k], v[GD_kr + k] = d->kr[k], v[GD_km + k] = d->km[k];
        v[GD_kdreg + k] = d->kdreg[k], v[GD_kgrid + k] = d->kgrid[k], v[GD_knext + k] = d->knext[k];
        v[GD_kndone + k] = d->kndone[k], v[GD_kmask + k] = d->kmask[k], v[GD_kadm + k] = d->kadm[k];
        v[GD_klim + k] = d->klim[k], v[GD_pc + k] = d->pc[k], v[GD_pkv_r + k] = d->pkv_r[k];
        for (int x = 0; x < 4; x++)
            v[GD_U + k * 4 + x] = d->U[k][x];
    }
    v[GD_busy] = d->busy, v[GD_bpb] = d->bpb, v[GD_rl_v] = d->rl_v;
    for (int i = 0; i < PQ; i++) {
        v[GD_qst + i] = d->qst[i], v[GD_qk + i] = d->qk[i], v[GD_qid + i] = d->qid[i];
        v[GD_qs + i] = d->qs[i], v[GD_qt + i] = d->qt[i];
    }
    v[GD_pb] = d->pb, v[GD_plan_v] = d->plan_v, v[GD_plan_kc] = d->plan_kc, v[GD_plan_kv] = d->plan_kv;
    v[GD_plan_sm] = d->plan_sm, v[GD_plan_left] = d->plan_left;
    v[GD_a1_st] = d->a1_st, v[GD_a1_kc] = d->a1_kc, v[GD_a1_s] = d->a1_s, v[GD_a1_f] = d->a1_f;
    v[GD_a1_smv] = d->a1_smv, v[GD_a1_best] = d->a1_best, v[GD_a1_kv] = d->a1_kv, v[GD_a1_q] = d->a1_q;
    for (int x = 0; x < 4; x++)
        v[GD_a1_acc + x] = d->a1_acc[x];
    for (int k = 0; k < GD_KN; k++)
        v[GD_a1_rk + k] = d->a1_rk[k];
    v[GD_a1_kvm] = d->a1_kvm, v[GD_a1_rv] = d->a1_rv, v[GD_a1_rc] = d->a1_rc, v[GD_a1_nouf] = d->a1_nouf;
    v[GD_a1_omax] = d->a1_omax, v[GD_a1_omin] = d->a1_omin, v[GD_a1_nmax] = d->a1_nmax, v[GD_a1_nmin] = d->a1_nmin;
    v[GD_a1_ok] = d->a1_ok, v[GD_a1_pcd] = d->a1_pcd;
    for (int x = 0; x < 4; x++)
        v[GD_a1_pw + x] = d->a1_pw[x];
    v[GD_dp1_v] = d->dp1_v, v[GD_dp2_v] = d->dp2_v, v[GD_dp2_kind] = d->dp2_kind, v[GD_dp2_s] = d->dp2_s;
    v[GD_dp2_k] = d->dp2_k, v[GD_dp2_r] = d->dp2_r;
    v[GD_pdirty] = d->pdirty, v[GD_pact] = d->pact, v[GD_pcur] = d->pcur, v[GD_pcnt_ks] = d->pcnt_ks, v[GD_pgot] = d->pgot;
    v[GD_prun] = d->prun, v[GD_psrv] = d->psrv, v[GD_ptop] = d->ptop, v[GD_prr] = d->prr, v[GD_prt] = d->prt;
    for (int x = 0; x < 4; x++)
        v[GD_pacc + x] = d->pacc[x];
    v[GD_pph] = d->pph, v[GD_pcand_r] = d->pcand_r, v[GD_plat_r] = d->plat_r;
    v[GD_rq_rdy] = q->rq_rdy, v[GD_rq_ack_v] = q->rq_ack_v, v[GD_rq_ack_st] = q->rq_ack_st;
    v[GD_rq_ack_kv] = q->rq_ack_kv, v[GD_rq_ack_n] = q->rq_ack_n;
    v[GD_lk_cnt] = q->lk_cnt, v[GD_lk_part] = q->lk_part, v[GD_lk_ksv] = q->lk_ksv, v[GD_lk_ks] = q->lk_ks;
    v[GD_rq_st] = d->rq_st, v[GD_rq_k] = d->rq_k, v[GD_rq_ret] = d->rq_ret, v[GD_rq_s] = d->rq_s, v[GD_rq_j] = d->rq_j;
    v[GD_rq_c] = d->rq_c, v[GD_rq_q] = d->rq_q, v[GD_rq_npk] = d->rq_npk, v[GD_rq_pend] = d->rq_pend;
    for (int s = 0; s < NSM; s++)
        v[GD_rq_pk + s] = d->rq_pk[s];
    for (int k = 0; k < KN; k++)
        v[GD_rq_g + k] = d->rq_g[k];
    for (int x = 0; x < 4; x++)
        v[GD_acc + x] = d->acc[x], v[GD_w + x] = d->w[x];
    for (int s = 0; s < NSM; s++)
        sm_obs_from_model(&g->sm[s], &o->s[s], &ob->s[s]);
    memset(ob->q, 0, sizeof ob->q);
    qm_obs_fill(&g->qm, &o->m, ob->q);
}

int gpu_obs_diff(const gpu_obs_t *ref, const gpu_obs_t *rtl, uint64_t cycle)
{
    int bad = obs_diff(&gpu_drv_obs_table, ref->d, rtl->d, cycle, "drv", -1, 0, 16);
    for (int s = 0; s < NSM; s++)
        bad = obs_diff(&sm_obs_table, ref->s[s].v, rtl->s[s].v, cycle, "sm", s, bad, 16);
    return obs_diff(&qm_obs_table, ref->q, rtl->q, cycle, "qm", -1, bad, 16);
}

/* ================================================================== environment state */
enum { SS_FREE = 0, SS_GO, SS_ALLOC, SS_RUN };                                       /* SM slot view */
enum { TS_GO = 0, TS_RUN, TS_SAVED, TS_FINISHED, TS_DROPPED, TS_RERUN, TS_RGO, TS_N }; /* identity */
static const char *const ts_name[TS_N] = {"set-up", "running", "saved", "finished", "dropped", "rerun", "restore target"};

typedef struct {
    uint32_t inst, id, attempt;
    uint8_t st, frozen, vis;     /* vis: its SAVE/DROP response was processed by the driver */
    int sm, slot;                /* GO / RGO / RUN */
    int ctx;                     /* SAVED / RGO: context index (ptr / CH) */
    int save_sm;                 /* SM of the last SAVE (cross-SM restores) */
    uint32_t left[NW];           /* instructions left per rank */
} tbrec_t;

typedef struct {
    uint32_t k, grid, n, r, m, idem, qos, adm, lim;
    uint64_t mask;
    uint8_t *done, *started;
    uint32_t ndone, nstarted, nproc; /* completions seen, fresh ids set up, completions the driver processed */
    uint32_t npq;                /* its saved / dropped TBs the driver's PTBQ holds (SAVED, RERUN) */
    uint64_t t_launch, t_prog, t_alldone, t_kdone;
    int live;
} inst_t;

typedef struct {
    uint8_t st, ks;
    int rec;
    wmask_t mask;
} slot_t;

typedef struct {
    /* driver command outstanding on this SM (until the driver processes its response) */
    int cv, cop, cslot, crec, cctx, cresp, csnap, ckind;
    int cpb;                     /* the command holds pb: a SAVE/DROP but an eviction under QOS with PGPU = 0 */
    uint64_t ccyc;
    uint32_t rl_pend;            /* response latched, not yet processed by the driver */
    tmask_t dpend;               /* completions latched, not yet processed */
    uint32_t dpend_inst[NT];
    slot_t sl[NT];
    sm_side_t sd;                /* pipelines, storage, memory port (sm_side.h) */
    uint32_t cap;
    /* CSR writes queued */
    uint32_t csr_a[8], csr_d[8];
    int ncsr;
    uint64_t snap[CH];
} smv_t;

struct gpu_env {
    rng_t r;
    uint64_t cycle, phase_end, nphase;
    /* knobs */
    uint32_t qctl;               /* cfg_qctl: KEEP, PGPU */
    uint32_t policy, max2, evict, pmode, p_launch, gmax, nmax, rbig, mbig, p_idem, p_adm, p_bad, p_mchg;
    uint32_t imax, p_zero, quota;
    sd_knobs_t wk;               /* the pipelines' (sm_side.h) */
    uint32_t p_rq, p_rqbad;      /* QoS manager's request port: per mille per cycle, percent illegal */
    uint32_t p_qos, p_full;      /* percent of launches: QoS kernels, mask of all SMs */
    /* request unit as the ports imply (docs/sm_driver.md "QoS") */
    int rq_busy, rq_inval, pend_k[NSM];
    uint64_t pend;               /* rq_pend mirror per SM, rq_pk of its bits */
    /* QoS controls: QOS cycles by cfg_qctl, KEEP relaunches that kept partitions, VICTIM grants while another SM's
     * was pending, refusals for no work / a pending SM, evictions under PGPU = 0 while pb */
    uint64_t n_qctl[4], n_keepkept, n_pend2, n_nowork, n_pendref, n_evpb;
    uint64_t rq_acc;
    uint32_t rq_k, rq_s, rq_g[KN];
    uint8_t rq_p0[KN];
    uint64_t n_rq, n_ack[4];
    drv_pcov_t pcov;             /* partition coverage after each partition run (drv_env.h) */
    /* host */
    inst_t *inst;
    uint32_t ninst, capinst;
    int ek[KN];                  /* live instance of each kernel entry, -1 */
    uint64_t kmask_v[KN];        /* the driver's kmask as the host set it */
    int kl_exp;                  /* kl_rej expected next cycle (-1: none) */
    int kdone_exp, kdone_k;      /* kdone expected next cycle */
    uint32_t kmq_k[64];
    uint64_t kmq_m[64];
    int nkmq;
    uint64_t t_remask;
    uint64_t t_kmask[KN];        /* last launch / mask change of each entry */
    uint64_t t_block, idle_since[NSM]; /* FCFS/SPART starvation check */
    /* ledger */
    tbrec_t *rec;
    uint32_t nrec, caprec;
    /* contexts: owner record per context index (-1), snapshot per context */
    int ctx_rec[PQ];
    int drop_rec[PQ];            /* dropped identity awaiting its rerun, by PTBQ entry (its DROP's pointer / CH) */
    uint64_t (*csnap)[CH];
    uint64_t mem[NMEM];
    smv_t *sm;
    uint64_t gen, t_prog;
    /* statistics, per policy */
    uint64_t n_done[NPOL], n_save[NPOL], n_xrest[NPOL], n_rest[NPOL], n_drop[NPOL], n_evict[NPOL], n_pre[NPOL],
        n_resv[NPOL], n_kdone[NPOL], n_cyc[NPOL], n_fin[NPOL];
    uint64_t n_launch, n_rej, n_issue, n_mchg, n_lines, n_rerun, n_dispatch;
    /* QoS manager (issue 5): the host's intent, its write queue to the manager's registers, and what
     * the monitors saw on the ports */
    int qm_want;                 /* the host wants the manager enabled in this phase */
    uint32_t mctrl, m_len, m_sp; /* MCTRL (EN = 1), EPOCH_LEN, SAMPLE_PER of this phase */
    uint32_t p_mdis, p_mre;      /* per million per cycle: disable mid-epoch (re-enable later), MCTRL rewrite */
    uint64_t t_retry;            /* next (re-)enable / disable attempt not before this cycle */
    uint32_t mw_a[8], mw_d[8];
    int nmw;
    uint32_t nmph;               /* manager phases so far */
    int own;                     /* `own` of the last observed cycle */
    int qrq_out;                 /* a request of the manager was accepted and has no ack yet */
    int rq_qm;                   /* the request in progress came from the manager */
    uint64_t lkv[NSM][NKS];      /* cycle + 1 of the last lookup (while own) reporting kernel slot j of SM s */
    uint32_t last_ctrl;          /* last SM_CTRL the manager wrote (to all SMs) */
    uint64_t n_men, n_mdis, n_mwr, n_mown, n_minit, n_mep[4][4], n_msnap, n_mquota, n_mrq, n_mack[4], n_hdrop, n_hrqdrop;
    uint64_t n_goal[5], n_keep;          /* QoS launches by goal kind: 0, tiny, realistic, unreachable, VMAX */
};

uint64_t gpu_env_cycle(const gpu_env_t *e) { return e->cycle; }

static inline int bit(uint64_t v, int i) { return (int)((v >> i) & 1); }
#define viol(e, ...) env_viol((e)->cycle, __VA_ARGS__) /* cosim_env.h */

static int new_rec(gpu_env_t *e)
{
    if (e->nrec == e->caprec) {
        e->caprec = e->caprec ? 2 * e->caprec : 4096;
        e->rec = realloc(e->rec, e->caprec * sizeof *e->rec);
        if (!e->rec) abort();
    }
    tbrec_t *r = &e->rec[e->nrec];
    memset(r, 0, sizeof *r);
    r->sm = r->slot = r->ctx = r->save_sm = -1;
    return (int)e->nrec++;
}

gpu_env_t *gpu_env_new(uint64_t seed)
{
    gpu_env_t *e = calloc(1, sizeof *e);
    if (!e) abort();
    e->sm = calloc(NSM, sizeof *e->sm);
    e->csnap = calloc(PQ, sizeof *e->csnap);
    if (!e->sm || !e->csnap) abort();
    rng_seed(&e->r, seed);
    for (int k = 0; k < KN; k++)
        e->ek[k] = -1;
    for (int i = 0; i < PQ; i++)
        e->ctx_rec[i] = e->drop_rec[i] = -1;
    for (int s = 0; s < NSM; s++) {
        smv_t *m = &e->sm[s];
        sd_init(&m->sd);
        for (int t = 0; t < NT; t++)
            m->sl[t].rec = -1;
    }
    e->kl_exp = -1, e->kdone_exp = 0;
    return e;
}

void gpu_env_free(gpu_env_t *e)
{
    if (!e) /* as free(NULL): a harness that ends before its start (--help, a bad option) */
        return;
    for (uint32_t i = 0; i < e->ninst; i++)
        free(e->inst[i].done), free(e->inst[i].started);
    free(e->inst), free(e->rec), free(e->sm), free(e->csnap), free(e);
}

/* ================================================================== stimulus */
static int nlive_kernels(const gpu_env_t *e, int *list)
{
    int n = 0;
    for (int k = 0; k < KN; k++)
        if (e->ek[k] >= 0)
            list[n++] = k;
    return n;
}

static void queue_km(gpu_env_t *e, uint32_t k, uint64_t m)
{
    if (e->nkmq < 64 && m)
        e->kmq_k[e->nkmq] = k, e->kmq_m[e->nkmq] = m & SMK_MASK(NSM), e->nkmq++;
}

/* SPART: give the live kernels disjoint SM sets (shared only when there are more kernels than SMs) */
static void spart_remask(gpu_env_t *e)
{
    int list[KN];
    const int n = nlive_kernels(e, list);
    if (!n)
        return;
    uint64_t m[KN] = {0};
    const uint32_t rot = rng_below(&e->r, NSM);
    for (int s = 0; s < NSM; s++)
        m[(s + rot) % NSM % n] |= 1ULL << s;
    for (int i = 0; i < n; i++) {
        if (!m[i])
            m[i] = 1ULL << ((uint32_t)i % NSM);
        queue_km(e, (uint32_t)list[i], m[i]);
    }
}

/* host writes to the manager's registers, one per cycle */
static void queue_mw(gpu_env_t *e, uint32_t a, uint32_t d)
{
    if (e->nmw < 8)
        e->mw_a[e->nmw] = a, e->mw_d[e->nmw] = d, e->nmw++;
}
static void queue_enable(gpu_env_t *e)
{
    queue_mw(e, SMK_QM_REG_EPOCH_LEN, e->m_len);
    queue_mw(e, SMK_QM_REG_SAMPLE_PER, e->m_sp);
    queue_mw(e, SMK_QM_REG_MCTRL, e->mctrl);
    e->t_retry = e->cycle + 8;
}
static void queue_disable(gpu_env_t *e)
{
    /* EN = 0, the other fields random (they only land in MCTRL) */
    queue_mw(e, SMK_QM_REG_MCTRL, (uint32_t)rng_next(&e->r) & (uint32_t)SMK_MASK(SMK_QM_REG_MCTRL_BITS) & ~QM_FMASK(MCTRL, EN));
    e->n_mdis += e->own;
    e->t_retry = e->cycle + 8;
}

/* The manager's part of a phase: enabled (MODE QOS with each SCHEME, TLP on / off, SMK, OFF; short
 * epochs) or disabled (the host drives the SMs' registers and the request port as in issue 4). The
 * first seven manager phases of every seed follow a fixed schedule so that every mode and scheme occurs. */
static void qm_phase(gpu_env_t *e, int host_qos)
{
    rng_t *r = &e->r;
    const uint32_t ph = (uint32_t)(e->nphase - 1) % 5;
    /* phase 2 of every 5 is the host's QOS phase with requests, phase 1 the policy rotation: manager
     * disabled */
    const int want = host_qos || ph == 1 ? 0 : ph == 0 || ph == 3 ? 1 : rng_chance(r, 1, 3);
    if (!want) {
        if (e->qm_want)
            queue_disable(e);
        e->qm_want = 0;
        return;
    }
    static const uint8_t sched[7][3] = {
        {SMK_QMODE_QOS, SMK_QSCHEME_NAIVE, 1}, {SMK_QMODE_SMK, SMK_QSCHEME_ROLLOVER, 0},
        {SMK_QMODE_QOS, SMK_QSCHEME_ELASTIC, 1}, {SMK_QMODE_OFF, SMK_QSCHEME_NAIVE, 1},
        {SMK_QMODE_QOS, SMK_QSCHEME_ROLLOVER, 1}, {SMK_QMODE_QOS, SMK_QSCHEME_ROLLOVER_TIME, 1},
        {SMK_QMODE_QOS, SMK_QSCHEME_ELASTIC, 0}};
    uint32_t mode, scheme, tlp;
    if (e->nmph < 7) {
        mode = sched[e->nmph][0], scheme = sched[e->nmph][1], tlp = sched[e->nmph][2];
    } else {
        const uint32_t y = rng_below(r, 10);
        mode = y < 6 ? SMK_QMODE_QOS : y < 8 ? SMK_QMODE_SMK : y < 9 ? SMK_QMODE_OFF : 3; /* 3 = OFF */
        scheme = rng_below(r, 4), tlp = rng_chance(r, 4, 5); /* every QSCHEME */
    }
    e->nmph++;
    /* the manager's requests and initial allocation need QOS; SMK mode with the SMK policies too */
    if (mode == SMK_QMODE_QOS)
        e->policy = DRV_QOS;
    else if (mode == SMK_QMODE_SMK)
        e->policy = rng_chance(r, 1, 3) ? DRV_SMK_OD : rng_chance(r, 1, 2) ? DRV_SMK_P : DRV_QOS;
    e->mctrl = QM_FLD(MCTRL, EN, 1) | QM_FLD(MCTRL, MODE, mode) | QM_FLD(MCTRL, SCHEME, scheme) |
               QM_FLD(MCTRL, ROLLNEG, rng_below(r, 2)) | QM_FLD(MCTRL, POLICY, rng_below(r, 2)) | QM_FLD(MCTRL, TLP, tlp) |
               QM_FLD(MCTRL, DEBT, rng_below(r, 2)) | QM_FLD(MCTRL, TLPQ, rng_below(r, 2)) |
               QM_FLD(MCTRL, GIVE, rng_below(r, 2)) | QM_FLD(MCTRL, NOHIST, rng_chance(r, 1, 4));
    const uint32_t lc = mode == SMK_QMODE_SMK ? QM_LC_SMK : QM_LC_QOS;
    /* L - LC cycles are left to Algorithm 3-1 each epoch: at least 300 in the scheduled phases */
    uint32_t len = e->nmph > 7 && rng_chance(r, 1, 10) ? rng_below(r, lc) /* raised to LC */
                                                       : lc + (e->nmph <= 7 ? 300 : 0) + rng_below(r, 1000 + 200 * NSM) +
                                                             (rng_chance(r, 1, 6) ? 3000 : 0);
    len &= (uint32_t)SMK_MASK(SMK_EPOCH_W);
    e->m_len = len;
    const uint32_t L = len > lc ? len : lc;
    e->m_sp = rng_chance(r, 3, 4) ? L / 100 : rng_below(r, L / 4 + 1);
    e->p_mdis = rng_chance(r, 1, 4) ? 0 : 5 + rng_below(r, 60);
    e->p_mre = rng_chance(r, 1, 2) ? 0 : 5 + rng_below(r, 30);
    e->phase_end = e->cycle + 5000 + rng_below(r, 15000);
    if (e->qm_want && e->own && rng_chance(r, 1, 2)) {
        /* rewrite while running (the mode / scheme apply from the next epoch), or disable first and
         * re-enable later */
        queue_mw(e, SMK_QM_REG_EPOCH_LEN, e->m_len);
        queue_mw(e, SMK_QM_REG_SAMPLE_PER, e->m_sp);
        queue_mw(e, SMK_QM_REG_MCTRL, e->mctrl);
    } else if (e->qm_want && e->own) {
        queue_disable(e);
        e->t_retry = e->cycle + 1 + rng_below(r, rng_chance(r, 1, 2) ? 4 : 300);
    }
    e->qm_want = 1;
    e->n_men++;
}

/* an IPC goal, U16.16 thread instructions per cycle GPU-wide (docs/qos_mgr.md section 9) */
static uint32_t rnd_goal(gpu_env_t *e)
{
    rng_t *r = &e->r;
    const uint32_t maxipc = NSM * NS * SMK_WARP_SIZE; /* thread instructions per cycle, GPU-wide */
    const uint32_t y = rng_below(r, 100);
    if (y < 2) return e->n_goal[0]++, 0;
    if (y < 14) return e->n_goal[1]++, rng_below(r, QM_ONE);                                /* tiny: below 1 */
    if (y < 80) return e->n_goal[2]++, QM_ONE * (1 + rng_below(r, maxipc / 2)) + rng_below(r, QM_ONE);
    if (y < 97) return e->n_goal[3]++, QM_ONE * (maxipc + rng_below(r, 3 * maxipc)) + rng_below(r, QM_ONE);
    return e->n_goal[4]++, QM_VMAX;
}

static void phase(gpu_env_t *e)
{
    rng_t *r = &e->r;
    e->phase_end = e->cycle + 2000 + rng_below(r, 15000);
    const uint32_t x = rng_below(r, 100);
    const uint32_t old = e->policy;
    /* every 5th phase QOS with requests (every seed has them) */
    const int fq = e->nphase++ % 5 == 2;
    e->policy = fq ? DRV_QOS : x < 20 ? DRV_FCFS : x < 36 ? DRV_SPART : x < 60 ? DRV_SMK_OD : x < 78 ? DRV_SMK_P : DRV_QOS;
    /* every 5th phase FCFS, SPART, SMK_OD, SMK_P in turn (every seed has each, also with the manager's
     * long phases) */
    if ((e->nphase - 1) % 5 == 1) {
        static const uint32_t rot[4] = {DRV_FCFS, DRV_SPART, DRV_SMK_OD, DRV_SMK_P};
        e->policy = rot[(e->nphase / 5) % 4];
    }
    qm_phase(e, fq);
    e->p_rq = e->policy == DRV_QOS ? (rng_chance(r, 1, 5) && !fq ? 0 : 1 + rng_below(r, 200))
                                   : rng_chance(r, 1, 4) ? 5 : 0;
    e->p_rqbad = rng_below(r, 20);
    e->t_block = e->cycle;
    e->max2 = rng_chance(r, 1, 4);
    e->evict = rng_chance(r, 1, 2) ? OP_SAVE : OP_DRAIN;
    e->pmode = rng_chance(r, 1, 2) ? OP_SAVE : OP_DROP;
    e->qctl = rng_below(r, 4);
    e->p_launch = rng_chance(r, 1, 4) ? 2 : 5 + rng_below(r, 60); /* per mille */
    static const uint32_t gtab[] = {1, 3, 8, 20, 60, 150, 300};
    e->gmax = gtab[rng_below(r, sizeof gtab / sizeof gtab[0])];
    e->nmax = 1 + rng_below(r, NW);
    e->rbig = rng_chance(r, 1, 4), e->mbig = rng_chance(r, 1, 4);
    e->p_idem = rng_below(r, 101), e->p_adm = rng_below(r, 30), e->p_bad = rng_below(r, 5);
    e->p_mchg = rng_chance(r, 1, 3) ? rng_below(r, 3) : 0; /* per mille */
    e->imax = rng_chance(r, 1, 4) ? 400 : 5 + rng_below(r, 120);
    e->p_zero = rng_below(r, 10);
    sd_warp_phase(&e->wk, r, 20, 200);
    e->quota = rng_chance(r, 1, 5);
    for (int s = 0; s < NSM; s++) {
        smv_t *m = &e->sm[s];
        sd_mem_phase(&m->sd, r);
        m->cap = rng_chance(r, 1, 3) ? 0 : rng_below(r, 1u << SMK_PE_OUT_W);
        /* quota unit: OFF, or SMK quotas with short epochs (refilled every epoch) */
        m->ncsr = 0;
        if (e->quota) {
            m->csr_a[m->ncsr] = SMK_REG_EPOCH_LEN, m->csr_d[m->ncsr++] = 100 + rng_below(r, 2000);
            for (int k = 0; k < NKS && m->ncsr < 6; k++)
                m->csr_a[m->ncsr] = SMK_REG_QUOTA + (uint32_t)k, m->csr_d[m->ncsr++] = 200 + rng_below(r, 20000);
            m->csr_a[m->ncsr] = SMK_REG_SM_CTRL;
            m->csr_d[m->ncsr++] = rng_below(r, 2) | SMK_QMODE_SMK << SMK_SM_CTRL_QMODE_LSB |
                                  rng_below(r, 4) << SMK_SM_CTRL_QSCHEME_LSB;
            m->csr_a[m->ncsr] = SMK_REG_CMD, m->csr_d[m->ncsr++] = 1;
        } else {
            m->csr_a[m->ncsr] = SMK_REG_SM_CTRL, m->csr_d[m->ncsr++] = rng_below(r, 2);
        }
    }
    e->p_qos = 25, e->p_full = 50;
    if (e->qm_want && QM_GET(MCTRL, MODE, e->mctrl) == SMK_QMODE_QOS) {
        /* the manager's QOS phases: QoS and non-QoS kernels sharing every SM, so that Algorithm 3-1 finds
         * QoS kernels below their goals and the driver finds victims */
        e->p_qos = 50, e->p_full = 85;
        if (e->gmax < 60)
            e->gmax = 60;
        if (e->p_launch < 20)
            e->p_launch = 20;
    }
    if (e->policy == DRV_SPART && (old != DRV_SPART || rng_chance(r, 1, 2)))
        spart_remask(e);
}

static void gen_launch(gpu_env_t *e, drv_in_t *h)
{
    rng_t *r = &e->r;
    int freek[KN], nf = 0;
    for (int k = 0; k < KN; k++)
        if (e->ek[k] < 0)
            freek[nf++] = k;
    const int bad = rng_chance(r, e->p_bad, 100);
    if (!nf && !bad)
        return;
    h->kl_v = 1;
    h->kl_k = nf && !(bad && rng_chance(r, 1, 2)) ? (uint32_t)freek[rng_below(r, (uint32_t)nf)] : rng_below(r, KN);
    uint32_t n = 1 + rng_below(r, e->nmax);
    uint32_t rr = e->rbig ? rng_below(r, RMAX + 1) : rng_below(r, 33 < RMAX + 1 ? 33 : RMAX + 1);
    while (n * rr > LREG)
        rr /= 2;
    h->kl_n = n, h->kl_r = rr;
    h->kl_m = e->mbig ? rng_below(r, LSL + 1) : rng_below(r, 9 < LSL + 1 ? 9 : LSL + 1);
    h->kl_grid = 1 + rng_below(r, e->gmax < GMAXV ? e->gmax : GMAXV); /* within the kl_grid field */
    h->kl_qos = rng_chance(r, e->p_qos, 100);
    if (e->p_qos >= 50) { /* the manager's QOS phases: at least one QoS and one non-QoS kernel live */
        int nq = 0, nn = 0;
        for (int k = 0; k < KN; k++)
            if (e->ek[k] >= 0)
                nq += e->inst[e->ek[k]].qos != 0, nn += e->inst[e->ek[k]].qos == 0;
        if (!nq || !nn)
            h->kl_qos = !nq;
    }
    h->kl_idem = rng_chance(r, e->p_idem, 100);
    h->kl_mask = rng_chance(r, e->p_full, 100) ? SMK_MASK(NSM) : (rng_next(r) & SMK_MASK(NSM));
    if (!h->kl_mask)
        h->kl_mask = 1ULL << rng_below(r, NSM);
    if (e->policy == DRV_SPART) { /* an SM nobody owns, else one SM */
        uint64_t owned = 0;
        for (int k = 0; k < KN; k++)
            if (e->ek[k] >= 0)
                owned |= e->kmask_v[k];
        const uint64_t fr = ~owned & SMK_MASK(NSM);
        h->kl_mask = fr ? fr : 1ULL << rng_below(r, NSM);
    }
    h->kl_adm = DRV_ADM_NONE, h->kl_lim = 0;
    if (rng_chance(r, e->p_adm, 100)) {
        h->kl_adm = rng_chance(r, 1, 2) ? DRV_ADM_CAP : DRV_ADM_RESERVE;
        h->kl_lim = 1 + rng_below(r, NT);
    }
    if (bad) { /* illegal (or into a busy entry): refused */
        switch (rng_below(r, 6)) {
        case 0: h->kl_grid = 0; break;
        case 1: h->kl_mask = 0; break;
        case 2: h->kl_n = rng_chance(r, 1, 2) ? 0 : NW + 1 + rng_below(r, (1u << (SMK_WID_W + 1)) - NW - 1 + 1); break;
        case 3: h->kl_r = RMAX < (1u << SMK_REGN_W) - 1 ? RMAX + 1 : h->kl_r; h->kl_n = NW; h->kl_r = h->kl_r < 2 ? 2 : h->kl_r;
            if (h->kl_r > (uint32_t)SMK_MASK(SMK_REGN_W)) /* within the kl_r field (1 bit with max_regs_per_thread 1) */
                h->kl_r = (uint32_t)SMK_MASK(SMK_REGN_W);
            if (NW * h->kl_r <= LREG && h->kl_r <= RMAX) h->kl_grid = 0; /* force an illegal launch */
            break;
        case 4: h->kl_m = LSL < (1u << SMK_SMLN_W) - 1 ? LSL + 1 : LSL; if (h->kl_m <= LSL) h->kl_mask = 0; break;
        default: break; /* maybe a busy entry */
        }
        h->kl_n &= (uint32_t)SMK_MASK(SMK_WID_W + 1);
    }
}

void gpu_env_gen(gpu_env_t *e, gpu_stim_t *st)
{
    rng_t *r = &e->r;
    memset(st, 0, sizeof *st);
    if (e->cycle >= e->phase_end)
        phase(e);
    drv_in_t *h = &st->in.host;
    h->cfg_policy = e->policy, h->cfg_max2 = e->max2, h->cfg_evict = e->evict, h->cfg_pmode = e->pmode;
    h->cfg_qctl = e->qctl;
    if (rng_chance(r, e->p_launch, 1000))
        gen_launch(e, h);
    /* the manager's launch fields (junk without kl_v: the manager samples them only with it) */
    if (h->kl_v) {
        st->in.kl_goal = h->kl_qos ? rnd_goal(e) : rng_chance(r, 1, 2) ? 0 : (uint32_t)rng_next(r);
        st->in.kl_x = rng_chance(r, 1, 10) ? rng_below(r, 1u << 17) : rng_chance(r, 1, 10) ? QM_ONE : rng_below(r, QM_ONE);
        st->in.kl_t = rng_below(r, rng_chance(r, 1, 8) ? 1u << QM_GVW : NT + 1);
        /* a relaunch of the application that last held the entry keeps its history (the host's promise;
         * the manager does not check it) */
        st->in.kl_keep = rng_chance(r, 1, 2);
        e->n_keep += st->in.kl_keep;
    } else if (rng_chance(r, 1, 4)) {
        st->in.kl_goal = (uint32_t)rng_next(r), st->in.kl_x = rng_below(r, 1u << 17), st->in.kl_t = rng_below(r, 1u << QM_GVW);
        st->in.kl_keep = rng_below(r, 2);
    }
    /* the manager's host port: (re-)enable while wanted and not owning, disable while owning and not
     * wanted (an EN = 1 write during STOP is ignored: retried), mid-epoch disables, MCTRL / EPOCH_LEN
     * rewrites while running, stray writes to read-only and unmapped addresses; random reads */
    if (!e->nmw && e->cycle >= e->t_retry) {
        if (e->qm_want && !e->own)
            queue_enable(e);
        else if (!e->qm_want && e->own)
            queue_disable(e);
        else if (e->qm_want && e->own && rng_chance(r, e->p_mdis, 1000000)) {
            queue_disable(e);
            e->t_retry = e->cycle + 1 + rng_below(r, rng_chance(r, 1, 3) ? 4 : 3000);
        } else if (e->qm_want && e->own && rng_chance(r, e->p_mre, 1000000)) {
            if (rng_chance(r, 1, 2)) {
                const uint32_t sc = rng_below(r, 4), tl = rng_below(r, 2);
                e->mctrl = (e->mctrl & ~(QM_FMASK(MCTRL, SCHEME) | QM_FMASK(MCTRL, TLP))) | QM_FLD(MCTRL, SCHEME, sc) |
                           QM_FLD(MCTRL, TLP, tl);
                if (QM_GET(MCTRL, MODE, e->mctrl) != SMK_QMODE_SMK && rng_chance(r, 1, 3))
                    e->mctrl = (e->mctrl & ~QM_FMASK(MCTRL, MODE)) |
                               QM_FLD(MCTRL, MODE, rng_chance(r, 1, 4) ? SMK_QMODE_OFF : SMK_QMODE_QOS);
                queue_mw(e, SMK_QM_REG_MCTRL, e->mctrl);
            } else {
                queue_mw(e, SMK_QM_REG_EPOCH_LEN, (e->m_len + rng_below(r, 2000)) & (uint32_t)SMK_MASK(SMK_EPOCH_W));
            }
        } else if (rng_chance(r, 1, 3000)) {
            /* a read-only register (STATUS .. PROD) or any address above them */
            queue_mw(e, rng_chance(r, 1, 2) ? SMK_QM_REG_STATUS + rng_below(r, SMK_QM_REG_PROD - SMK_QM_REG_STATUS + 1)
                                            : SMK_QM_REG_PROD + 1 + rng_below(r, (1u << SMK_QM_ADDR_W) - SMK_QM_REG_PROD - 1),
                     (uint32_t)rng_next(r));
        }
    }
    if (e->nmw) {
        st->in.m_we = 1, st->in.m_addr = e->mw_a[0], st->in.m_wdata = e->mw_d[0];
        memmove(e->mw_a, e->mw_a + 1, (size_t)(e->nmw - 1) * sizeof e->mw_a[0]);
        memmove(e->mw_d, e->mw_d + 1, (size_t)(e->nmw - 1) * sizeof e->mw_d[0]);
        e->nmw--;
        e->n_mwr++;
    }
    {
        static const uint32_t base[] = {SMK_QM_REG_IPC_EP, SMK_QM_REG_HIST, SMK_QM_REG_ALPHA, SMK_QM_REG_AGOAL,
                                        SMK_QM_REG_QPT,    SMK_QM_REG_TBS,  SMK_QM_REG_GOAL};
        const uint32_t y = rng_below(r, 4);
        st->in.m_raddr = y == 0 ? rng_below(r, SMK_QM_REG_PROD + 1) : y == 3 ? rng_below(r, 1u << SMK_QM_ADDR_W)
                                                           : base[rng_below(r, 7)] + rng_below(r, KN + 1);
        /* within the m_raddr field: with 64 kernels the GOAL window's index KN runs past its 9 bits (a value
         * wider than the port reaches the Verilated RTL unmasked; the C model masks it) */
        st->in.m_raddr &= (uint32_t)SMK_MASK(SMK_QM_ADDR_W);
    }
    /* QoS manager: a request (accepted iff rq_rdy), random rq_give; the lookup port */
    if (e->p_rq && rng_chance(r, e->p_rq, 1000)) {
        int list[KN];
        const int n = nlive_kernels(e, list);
        h->rq_v = 1;
        if (n && !rng_chance(r, e->p_rqbad, 100)) {
            const uint32_t k = (uint32_t)list[rng_below(r, (uint32_t)n)];
            const uint64_t mk = e->kmask_v[k] & SMK_MASK(NSM);
            uint32_t sm = rng_below(r, NSM);
            for (int i = 0; i < 8 && mk && !bit(mk, (int)sm); i++)
                sm = rng_below(r, NSM);
            h->rq_k = k, h->rq_sm = sm;
        } else {
            h->rq_k = rng_below(r, 1u << SMK_KID_W), h->rq_sm = rng_below(r, 1u << SMK_SMW);
        }
        h->rq_ret = rng_chance(r, 1, 4); /* a give-back request: the driver's pass 1 only */
        for (int j = 0; j < KN; j++)
            h->rq_give[j] = rng_below(r, rng_chance(r, 1, 2) ? 3 : 1u << (SMK_TBS_W + 1));
    }
    h->lk_s = rng_below(r, 1u << SMK_SMW), h->lk_k = rng_below(r, 1u << SMK_KID_W);
    if (e->nkmq) {
        h->km_v = 1, h->km_k = e->kmq_k[0], h->km_mask = e->kmq_m[0];
        memmove(e->kmq_k, e->kmq_k + 1, (size_t)(e->nkmq - 1) * sizeof e->kmq_k[0]);
        memmove(e->kmq_m, e->kmq_m + 1, (size_t)(e->nkmq - 1) * sizeof e->kmq_m[0]);
        e->nkmq--;
    } else if (e->policy == DRV_SPART && e->cycle >= e->t_remask) {
        e->t_remask = e->cycle + 500 + rng_below(r, 4000);
        spart_remask(e);
    } else if (e->policy != DRV_SPART && rng_chance(r, e->p_mchg, 1000)) {
        int list[KN];
        const int n = nlive_kernels(e, list);
        if (n) {
            uint64_t m = rng_next(r) & SMK_MASK(NSM);
            queue_km(e, (uint32_t)list[rng_below(r, (uint32_t)n)], m ? m : SMK_MASK(NSM));
        }
    }
    for (int s = 0; s < NSM; s++) {
        smv_t *m = &e->sm[s];
        sm_in_t *in = &st->in.sm[s];
        /* pipelines, completions, memory port: a warp of a TB under an outstanding SAVE/DROP may be stopped */
        const wmask_t maybe_stopped =
            m->cv && (m->cop == OP_SAVE || m->cop == OP_DROP) && m->cslot >= 0 ? m->sl[m->cslot].mask : 0;
        sd_gen(&m->sd, &e->wk, r, e->cycle, maybe_stopped, 0, in);
        in->cap = m->cap;
        if (m->ncsr && rng_chance(r, 1, 4)) {
            in->csr_we = 1, in->csr_addr = m->csr_a[0], in->csr_wdata = m->csr_d[0];
            memmove(m->csr_a, m->csr_a + 1, (size_t)(m->ncsr - 1) * sizeof m->csr_a[0]);
            memmove(m->csr_d, m->csr_d + 1, (size_t)(m->ncsr - 1) * sizeof m->csr_d[0]);
            m->ncsr--;
        }
        in->rd_addr = rng_below(r, 1u << SMK_ADDR_W);
    }
}

/* ================================================================== monitors and models */
static void launch_warps(gpu_env_t *e, int s, int t)
{
    smv_t *m = &e->sm[s];
    slot_t *sl = &m->sl[t];
    tbrec_t *tr = &e->rec[sl->rec];
    sd_launch(&m->sd, sl->mask, sl->rec, tr->left);
    tr->st = TS_RUN, tr->sm = s, tr->slot = t, tr->frozen = 0, tr->vis = 0;
    sl->st = SS_RUN;
}

static const inst_t *inst_of(const gpu_env_t *e, int rid) { return &e->inst[e->rec[rid].inst]; }

/* the TB in slot t of SM s leaves it (SAVE OK, DROP OK, completion) */
static void free_slot(gpu_env_t *e, int s, int t)
{
    smv_t *m = &e->sm[s];
    sd_remove(&m->sd, m->sl[t].mask);
    memset(&m->sl[t], 0, sizeof m->sl[t]);
    m->sl[t].rec = -1;
}

/* The request and lookup ports: an ack only for an accepted request, invalid ones REFUSED in the next
 * cycle, the latency bound, ack fields 0 without rq_ack_v, the partition change of a grant, the
 * partitions of an SM at most T TBs, rq_pend / rq_rdy as the ports imply (kernels in use and masks
 * from the host view; cnt and pb from the driver, whose slot accounting the other monitors check). */
static int check_rq(gpu_env_t *e, const drv_in_t *h, const drv_out_t *d, const sm_driver_t *D)
{
    int bad = 0;
    const uint32_t st = d->rq_ack_st, kv = d->rq_ack_kv, n = d->rq_ack_n;
    if (!d->rq_ack_v && (st || kv || n))
        bad += viol(e, "rq_ack_st %u kv %u n %u with rq_ack_v 0", st, kv, n);
    if (d->rq_ack_v) {
        const uint64_t lat = e->cycle - e->rq_acc;
        if (!e->rq_busy) {
            bad += viol(e, "rq_ack_v without an accepted request");
        } else if (e->rq_inval) {
            if (lat != 1 || st != DRV_ACK_REFUSED || kv || n)
                bad += viol(e, "invalid request (kernel %u SM %u): ack st %u kv %u n %u after %llu cycles", e->rq_k,
                            e->rq_s, st, kv, n, (unsigned long long)lat);
        } else if (lat < 1 + KN + 1 || lat > 1 + KN + 3 * KN + NT || st < 1 || st > 3) {
            bad += viol(e, "request (kernel %u SM %u): ack st %u after %llu cycles", e->rq_k, e->rq_s, st,
                        (unsigned long long)lat);
        } else {
            int dl[KN] = {0};
            if (st == DRV_ACK_FREE) {
                dl[e->rq_k] = 1;
                if (kv || n) bad += viol(e, "FREE ack with kv %u n %u", kv, n);
            } else if (st == DRV_ACK_VICTIM) {
                if (kv >= KN || kv == e->rq_k || !n || n > e->rq_p0[kv])
                    bad += viol(e, "VICTIM ack: kernel %u gives %u TBs (requester %u)", kv, n, e->rq_k);
                else
                    dl[e->rq_k] = 1, dl[kv] = -(int)n;
            } else if (kv || n) {
                bad += viol(e, "REFUSED ack with kv %u n %u", kv, n);
            }
            for (int j = 0; j < KN; j++)
                if ((int)D->part[e->rq_s][j] != (int)e->rq_p0[j] + dl[j])
                    bad += viol(e, "ack st %u: part[%u][%d] %u, was %u, expected change %d", st, e->rq_s, j,
                                D->part[e->rq_s][j], e->rq_p0[j], dl[j]);
        }
        if (st >= 1 && st <= 3) e->n_ack[st]++;
        if (st == DRV_ACK_VICTIM && e->rq_s < NSM) { /* rq_pend[rq_s] set at the grant edge */
            e->n_pend2 += (e->pend & ~(1ULL << e->rq_s)) != 0;
            e->pend |= 1ULL << e->rq_s, e->pend_k[e->rq_s] = (int)kv;
        }
        e->rq_busy = 0;
    }
    for (int s = 0; s < NSM; s++) {
        uint32_t sum = 0;
        for (int j = 0; j < KN; j++)
            sum += D->part[s][j];
        if (sum > NT)
            bad += viol(e, "SM %d: partitions total %u TBs, T = %d", s, sum, NT);
    }
    const int pgpu = (h->cfg_qctl & DRV_QC_PGPU) != 0;
    if (D->rq_pend != e->pend)
        bad += viol(e, "rq_pend 0x%llx, expected 0x%llx", (unsigned long long)D->rq_pend, (unsigned long long)e->pend);
    for (int x = 0; x < NSM; x++)
        if (bit(e->pend, x) && (int)D->rq_pk[x] != e->pend_k[x])
            bad += viol(e, "rq_pk[%d] %u, expected %d", x, D->rq_pk[x], e->pend_k[x]);
    const int rdy = !e->rq_busy && !D->pact && !D->pdirty && !(pgpu && e->pend);
    if ((int)d->rq_rdy != rdy)
        bad += viol(e, "rq_rdy %u, expected %d", d->rq_rdy, rdy);
    if (h->rq_v && d->rq_rdy) {
        const uint32_t k = h->rq_k & (uint32_t)SMK_MASK(SMK_KID_W), s = h->rq_sm & (uint32_t)SMK_MASK(SMK_SMW);
        e->rq_busy = 1, e->rq_acc = e->cycle, e->rq_k = k, e->rq_s = s, e->n_rq++;
        e->rq_inval = k >= KN || s >= NSM || e->ek[k] < 0 || !bit(e->kmask_v[k], (int)s);
        if (!e->rq_inval) { /* no TB, no grant (the driver's knext and PTBQ); one pending preemption per SM */
            int work = D->knext[k] < D->kgrid[k];
            for (int i = 0; i < PQ; i++)
                work |= (D->qst[i] == DRV_Q_SAVED || D->qst[i] == DRV_Q_RERUN) && D->qk[i] == k;
            if (!work)
                e->rq_inval = 1, e->n_nowork++;
            else if (bit(e->pend, (int)s))
                e->rq_inval = 1, e->n_pendref++;
        }
        for (int j = 0; j < KN; j++)
            e->rq_g[j] = h->rq_give[j], e->rq_p0[j] = s < NSM ? D->part[s][j] : 0;
    }
    for (int x = 0; x < NSM; x++)
        if (bit(e->pend, x) && (h->cfg_policy != DRV_QOS ||
                                (D->cnt[x][e->pend_k[x]] <= D->part[x][e->pend_k[x]] && !(pgpu && D->pb))))
            e->pend &= ~(1ULL << x);
    /* QoS controls' statistics (the rules themselves are compared with the RTL every cycle) */
    if (h->cfg_policy == DRV_QOS) {
        e->n_qctl[h->cfg_qctl & 3]++;
        if (d->dec_kind == DRV_DEC_EVICT && !pgpu && D->pb)
            e->n_evpb++;
    }
    /* lookup: combinational reads of the driver's state */
    const uint32_t ls = h->lk_s & (uint32_t)SMK_MASK(SMK_SMW), lk = h->lk_k & (uint32_t)SMK_MASK(SMK_KID_W);
    uint32_t xc = 0, xp = 0, xv = 0, xs = 0;
    if (ls < NSM && lk < KN) {
        xc = D->cnt[ls][lk], xp = D->part[ls][lk];
        for (uint32_t j = 0; j < NKS; j++)
            if (bit(D->ksv[ls], (int)j) && D->ksk[ls][j] == lk)
                xv = 1, xs = j;
    }
    if (d->lk_cnt != xc || d->lk_part != xp || d->lk_ksv != xv || d->lk_ks != xs)
        bad += viol(e, "lookup (%u, %u): %u %u %u %u, expected %u %u %u %u", ls, lk, d->lk_cnt, d->lk_part, d->lk_ksv,
                    d->lk_ks, xc, xp, xv, xs);
    return bad;
}

/* The QoS manager at gpu_top's ports (docs/gpu_top.md, docs/qos_mgr.md sections 3, 6, 7, 8):
 *   - the mux: with own = 1 every SM's csr_* / rd_addr and the driver's rq_* / lk_* are the manager's
 *     (the host's are dropped), with own = 0 the host's; with own = 0 the manager's outputs are 0
 *     (rq_give excepted: it holds the last request's vector);
 *   - with own = 1 the manager's register writes: CMD (SNAP, EPOCH_START) to all SMs in the same cycle
 *     with the same data, SM_CTRL / EPOCH_LEN (0) / SAMPLE_PER / QOS_MASK to all SMs at once, QUOTA to
 *     one SM per cycle, only to a kernel slot the lookup port reported valid on that SM at most
 *     KN + D + 3 cycles earlier, value <= QMAX; no other address;
 *   - one request of the manager at a time: no rq_v after an accepted request until its ack.
 * Counts the coverage (epochs by mode and scheme, snapshots, QUOTA writes, requests and acks). */
static int check_qm_mux(gpu_env_t *e, const gpu_stim_t *st, const gpu_out_t *o)
{
    int bad = 0;
    const qm_out_t *m = &o->m;
    const drv_in_t *h = &st->in.host, *di = &o->di;
    const int own = m->own != 0;
    e->own = own;
    e->n_mown += own;
    /* driver's request and lookup ports */
    const drv_in_t *src = h;
    drv_in_t mx;
    if (own) {
        mx = *h;
        mx.rq_v = m->rq_v, mx.rq_k = m->rq_k, mx.rq_sm = m->rq_sm, mx.rq_ret = m->rq_ret, mx.lk_s = m->lk_s, mx.lk_k = m->lk_k;
        memcpy(mx.rq_give, m->rq_give, sizeof mx.rq_give);
        src = &mx;
        e->n_hrqdrop += h->rq_v;
    }
    if (di->rq_v != src->rq_v || di->rq_k != src->rq_k || di->rq_sm != src->rq_sm || di->rq_ret != src->rq_ret || di->lk_s != src->lk_s ||
        di->lk_k != src->lk_k || memcmp(di->rq_give, src->rq_give, sizeof di->rq_give))
        bad += viol(e, "own %d: the driver's request / lookup port (rq_v %u k %u sm %u, lk %u %u) is not the %s's", own,
                    di->rq_v, di->rq_k, di->rq_sm, di->lk_s, di->lk_k, own ? "manager" : "host");
    /* SMs' register ports */
    for (int s = 0; s < NSM; s++) {
        const sm_in_t *si = &o->si[s], *hs = &st->in.sm[s];
        const uint32_t we = own ? (uint32_t)(m->csr_we >> s & 1) : hs->csr_we;
        const uint32_t a = own ? m->csr_addr[s] : hs->csr_addr, wd = own ? m->csr_wdata[s] : hs->csr_wdata;
        const uint32_t ra = own ? m->rd_addr[s] : hs->rd_addr;
        if (si->csr_we != we || (we && (si->csr_addr != a || si->csr_wdata != wd)) || si->rd_addr != ra)
            bad += viol(e, "own %d: SM %d register port (we %u addr 0x%x data 0x%x rd 0x%x) is not the %s's (we %u addr "
                           "0x%x data 0x%x rd 0x%x)",
                        own, s, si->csr_we, si->csr_addr, si->csr_wdata, si->rd_addr, own ? "manager" : "host", we, a, wd, ra);
        if (own)
            e->n_hdrop += hs->csr_we;
        if (!own && ((m->csr_we >> s & 1) || m->csr_addr[s] || m->csr_wdata[s] || m->rd_addr[s]))
            bad += viol(e, "manager drives SM %d's register port (we %u addr 0x%x data 0x%x rd 0x%x) with own = 0", s,
                        (uint32_t)(m->csr_we >> s & 1), m->csr_addr[s], m->csr_wdata[s], m->rd_addr[s]);
    }
    if (!own && (m->lk_s || m->lk_k || m->rq_v || m->rq_k || m->rq_sm))
        bad += viol(e, "manager drives lookup (%u, %u) / request (v %u k %u sm %u) with own = 0", m->lk_s, m->lk_k,
                    m->rq_v, m->rq_k, m->rq_sm);
    return bad;
}

/* the manager's register writes while it owns the ports; the lookups it saw; one request at a time */
/* the manager's register writes (while it owns the ports): CMD to all SMs at once with one value,
 * SM_CTRL / EPOCH_LEN (0) / SAMPLE_PER / QOS_MASK to all at once, QUOTA to one SM, of a kernel slot
 * the lookup port reported, at most QMAX; nothing else; coverage of epochs and snapshots */
static int check_qm_csr(gpu_env_t *e, const qm_out_t *m)
{
    int bad = 0;
    const uint64_t c = e->cycle;
    int ncmd = 0, nall = 0, nq = 0;
    uint32_t cmdd = 0, alla = 0;
    for (int s = 0; s < NSM; s++) {
        if (!(m->csr_we >> s & 1))
            continue;
        const uint32_t a = m->csr_addr[s], wd = m->csr_wdata[s];
        if (a == SMK_REG_CMD) {
            if (ncmd++ && wd != cmdd)
                bad += viol(e, "manager: CMD 0x%x to SM %d, 0x%x to a lower SM in the same cycle", wd, s, cmdd);
            cmdd = wd;
        } else if (a >= SMK_REG_QUOTA && a < SMK_REG_QUOTA + NKS) {
            const uint32_t ks = a - SMK_REG_QUOTA;
            nq++;
            e->n_mquota++;
            if (!e->lkv[s][ks] || c + 1 - e->lkv[s][ks] > KN + QM_D + 2 * QM_MM + 1) /* SMK: A lookup .. B write */
                bad += viol(e, "manager: QUOTA[%u] of SM %d written (0x%x), no kernel holds that slot by the lookup port "
                               "(last seen %lld cycles ago)",
                            ks, s, wd, e->lkv[s][ks] ? (long long)(c + 1 - e->lkv[s][ks]) : -1LL);
            if (wd > QM_QMAX)
                bad += viol(e, "manager: QUOTA[%u] of SM %d = 0x%x > QMAX", ks, s, wd);
        } else if (a == SMK_REG_SM_CTRL || a == SMK_REG_EPOCH_LEN || a == SMK_REG_SAMPLE_PER || a == SMK_REG_QOS_MASK) {
            if (nall++ && a != alla)
                bad += viol(e, "manager: register 0x%x of SM %d, 0x%x of a lower SM in the same cycle", a, s, alla);
            alla = a;
            if (a == SMK_REG_EPOCH_LEN && wd)
                bad += viol(e, "manager: EPOCH_LEN of SM %d = %u (the SMs' timers must be off)", s, wd);
            if (a == SMK_REG_SM_CTRL)
                e->last_ctrl = wd;
        } else {
            bad += viol(e, "manager writes register 0x%x (0x%x) of SM %d", a, wd, s);
        }
    }
    if (ncmd && ncmd != NSM)
        bad += viol(e, "manager: CMD 0x%x written to %d of the %d SMs in one cycle (EPOCH_START / SNAP on all at once)",
                    cmdd, ncmd, NSM);
    if (nall && nall != NSM)
        bad += viol(e, "manager: register 0x%x written to %d of the %d SMs in one cycle", alla, nall, NSM);
    if (nq > 1)
        bad += viol(e, "manager: QUOTA written to %d SMs in one cycle", nq);
    if ((ncmd && (nall || nq)) || (nall && nq))
        bad += viol(e, "manager: CMD / all-SM / QUOTA writes mixed in one cycle");
    if (ncmd && (cmdd & 2))
        e->n_msnap++;
    if (ncmd && cmdd == 1) {
        const uint32_t md = e->last_ctrl >> SMK_SM_CTRL_QMODE_LSB & 3, sc = e->last_ctrl >> SMK_SM_CTRL_QSCHEME_LSB & 3;
        e->n_mep[md][sc]++;
    } else if (ncmd && cmdd == 3) {
        e->n_minit++;
    }
    return bad;
}

/* while owning: the manager's register writes, the lookups it saw, one request at a time; the acks of
 * its requests */
static int check_qm_requests(gpu_env_t *e, const gpu_out_t *o)
{
    int bad = 0;
    const qm_out_t *m = &o->m;
    const drv_in_t *di = &o->di;
    const drv_out_t *d = &o->d;
    const uint64_t c = e->cycle;
    const int own = m->own != 0;
    if (own) {
        bad += check_qm_csr(e, m);
        /* lookups (what the port reported, for the QUOTA check) */
        if (m->lk_s < NSM && m->lk_k < KN && d->lk_ksv && d->lk_ks < NKS)
            e->lkv[m->lk_s][d->lk_ks] = c + 1;
        /* one request at a time */
        if (m->rq_v && e->qrq_out)
            bad += viol(e, "manager: request (kernel %u SM %u) while its previous request has no ack", m->rq_k, m->rq_sm);
    }
    if (d->rq_ack_v) {
        if (e->rq_qm && d->rq_ack_st <= 3)
            e->n_mack[d->rq_ack_st]++;
        e->qrq_out = 0, e->rq_qm = 0;
    }
    if (di->rq_v && d->rq_rdy) {
        e->rq_qm = own;
        if (own)
            e->qrq_out = 1, e->n_mrq++;
    }
    return bad;
}


/* ================================================================== monitors, one cycle
 * gpu_env_observe runs the checks on this cycle's outputs and the moves of the environment across
 * the clock edge in this order; gpu_cyc_t carries what one step leaves to the next. */
typedef struct {
    const gpu_stim_t *st;
    const gpu_top_t *g;
    const gpu_out_t *o;
    uint64_t c;
    uint32_t pol;   /* the policy's statistics index */
    int xev, xs, xt; /* the driver's event expected this cycle: kind, SM, slot */
    int n_pre_out;  /* SAVE/DROP commands holding pb outstanding GPU-wide */
} gpu_cyc_t;

/* host ports: kl_rej and kdone exactly as predicted; a kdone retires the launch */
static int check_host(gpu_env_t *e, const gpu_cyc_t *y)
{
    const drv_out_t *d = &y->o->d;
    int bad = 0;
    if ((int)d->kl_rej != (e->kl_exp == 1))
        bad += viol(e, "kl_rej %u, expected %d (launch of the previous cycle %s)", d->kl_rej, e->kl_exp == 1,
                    e->kl_exp < 0 ? "none" : e->kl_exp ? "illegal" : "legal");
    if (d->kdone_v != (uint32_t)e->kdone_exp || (e->kdone_exp && d->kdone_k != (uint32_t)e->kdone_k))
        bad += viol(e, "kdone_v %u (kernel %u), expected %d (kernel %d)", d->kdone_v, d->kdone_k, e->kdone_exp,
                    e->kdone_k);
    if (d->kdone_v && e->ek[d->kdone_k] >= 0) {
        inst_t *in = &e->inst[e->ek[d->kdone_k]];
        if (in->ndone != in->grid)
            bad += viol(e, "kdone of kernel %u with %u of %u TBs completed", d->kdone_k, in->ndone, in->grid);
        for (uint32_t i = 0; i < in->grid; i++)
            if (in->done[i] != 1) {
                bad += viol(e, "kdone of kernel %u: TB %u completed %u times", d->kdone_k, i, in->done[i]);
                break;
            }
        in->live = 0, in->t_kdone = y->c;
        e->ek[d->kdone_k] = -1;
        e->n_kdone[y->pol]++;
    }
    return bad;
}

/* partition coverage after each partition run (docs/sm_driver.md "Partitions": pgot), from the
 * host view: live entries, shapes, masks as written, QoS flags */
static int check_pcov(gpu_env_t *e, const gpu_cyc_t *y)
{
    const drv_in_t *h = &y->st->in.host;
    int live[KN], kq[KN];
    uint32_t dsh[KN][DRV_NRES];
    for (int k = 0; k < KN; k++) {
        live[k] = e->ek[k] >= 0, kq[k] = 0;
        memset(dsh[k], 0, sizeof dsh[k]);
        if (live[k]) {
            const inst_t *I = &e->inst[e->ek[k]];
            dsh[k][DRV_R_REG] = I->n * I->r, dsh[k][DRV_R_SL] = I->m, dsh[k][DRV_R_W] = I->n, dsh[k][DRV_R_TB] = 1;
            kq[k] = (int)I->qos;
        }
    }
    return drv_pcov_step(&e->pcov, &y->g->drv, live, (const uint32_t(*)[DRV_NRES])dsh, e->kmask_v, kq,
                         h->cfg_policy, h->cfg_max2, y->c);
}

/* the driver's event this cycle: spec order (lowest SM with a latched response, else the lowest SM
 * with latched completions, lowest slot) from the monitor's record of what was latched; PTBQ shadow:
 * entries in use = SAVE/DROP/RESTORE commands not yet processed + saved and dropped TBs the driver
 * holds (SAVED, RERUN) */
static int check_event(gpu_env_t *e, gpu_cyc_t *y)
{
    const drv_out_t *d = &y->o->d;
    int bad = 0;
    y->xev = DRV_EV_NONE;
    for (int s = 0; s < NSM && y->xev == DRV_EV_NONE; s++)
        if (e->sm[s].rl_pend)
            y->xev = DRV_EV_RSP, y->xs = s;
    for (int s = 0; s < NSM && y->xev == DRV_EV_NONE; s++)
        if (e->sm[s].dpend)
            y->xev = DRV_EV_DONE, y->xs = s, y->xt = smk_ctz(e->sm[s].dpend);
    if ((int)d->ev_kind != y->xev || (y->xev != DRV_EV_NONE && (int)d->ev_sm != y->xs) ||
        (y->xev == DRV_EV_DONE && (int)d->ev_slot != y->xt))
        bad += viol(e, "driver event %u (SM %u slot %u), expected %d (SM %d slot %d)", d->ev_kind, d->ev_sm,
                    d->ev_slot, y->xev, y->xs, y->xt);
    uint32_t used = 0;
    for (int s = 0; s < NSM; s++)
        used += e->sm[s].cv && e->sm[s].cop != OP_DRAIN;
    for (int k = 0; k < KN; k++)
        if (e->ek[k] >= 0)
            used += e->inst[e->ek[k]].npq;
    if (used > PQ)
        bad += viol(e, "%u PTBQ entries in use, more than the %d entries", used, PQ);
    for (int s = 0; s < NSM; s++)
        y->n_pre_out += e->sm[s].cv && e->sm[s].cpb;
    return bad;
}

/* SM s's slot-table outputs against the monitor's view, and its slots in the driver's mirror;
 * set_rej never rises, cmd_full only with pe_queue_depth 1 and never with a command offered */
static int check_slots(gpu_env_t *e, const gpu_cyc_t *y, int s)
{
    const smv_t *m = &e->sm[s];
    const sm_out_t *so = &y->o->s[s];
    const sm_in_t *si = &y->o->si[s];
    const sm_driver_t *D = &y->g->drv;
    int bad = 0;
    tmask_t x_alloc = 0, x_run = 0, x_done = 0;
    wmask_t x_used = 0;
    for (int t = 0; t < NT; t++) {
        const slot_t *sl = &m->sl[t];
        if (sl->st != SS_FREE) {
            x_used |= sl->mask;
            /* the driver's mirror holds every slot the SM holds, with its kernel and TB id */
            const tbrec_t *tr = &e->rec[sl->rec];
            if (!bit(D->sv[s], t) || D->sk[s][t] != e->inst[tr->inst].k || D->sid[s][t] != tr->id)
                bad += viol(e, "SM %d slot %d holds kernel %u TB %u; the driver's mirror: sv %d kernel %u id %u", s, t,
                            e->inst[tr->inst].k, tr->id, bit(D->sv[s], t), D->sk[s][t], D->sid[s][t]);
        }
        if (sl->st == SS_ALLOC || sl->st == SS_GO)
            x_alloc |= 1ULL << t;
        if (sl->st == SS_RUN) {
            x_run |= 1ULL << t;
            if ((sl->mask & m->sd.live) == 0)
                x_done |= 1ULL << t;
        }
    }
    if (so->tb_alloc != x_alloc || so->tb_run != x_run || so->tb_done != x_done || so->wused != x_used ||
        so->wo.wvalid != m->sd.live)
        bad += viol(e, "SM %d slot table: alloc 0x%llx run 0x%llx done 0x%llx wused 0x%llx wvalid 0x%llx, expected "
                       "0x%llx 0x%llx 0x%llx 0x%llx 0x%llx",
                    s, (unsigned long long)so->tb_alloc, (unsigned long long)so->tb_run,
                    (unsigned long long)so->tb_done, (unsigned long long)so->wused,
                    (unsigned long long)so->wo.wvalid, (unsigned long long)x_alloc, (unsigned long long)x_run,
                    (unsigned long long)x_done, (unsigned long long)x_used, (unsigned long long)m->sd.live);
    if (so->set_rej)
        bad += viol(e, "SM %d: set_rej rose (set-up of slot %u mask 0x%llx)", s, si->set_tb,
                    (unsigned long long)si->set_mask);
    /* the driver has at most one command per SM in the engine (cmd_ok): with a queue of 2 or more
     * cmd_full never rises; with pe_queue_depth 1 it is 1 while that command waits in the queue,
     * and no command may be offered then (docs/sm_driver.md "Invariants") */
    if (so->po.cmd_full && (si->cmd_v || SMK_PE_QDEPTH >= 2))
        bad += viol(e, "SM %d: cmd_full rose%s", s, si->cmd_v ? " with a command offered" : "");
    return bad;
}

/* stop: only the slot under SM s's outstanding SAVE/DROP, its whole mask (its TB frozen, a SAVE's
 * context snapshot at the first stop cycle); issue monitor */
static int check_stop_issue(gpu_env_t *e, const gpu_cyc_t *y, int s)
{
    smv_t *m = &e->sm[s];
    const sm_out_t *so = &y->o->s[s];
    const pe_out_t *po = &so->po;
    int bad = 0;
    if (po->stop) {
        if (!m->cv || (m->cop != OP_SAVE && m->cop != OP_DROP) || m->cslot < 0 || po->stop != m->sl[m->cslot].mask)
            bad += viol(e, "SM %d: stop 0x%llx without a SAVE/DROP of that slot outstanding", s,
                        (unsigned long long)po->stop);
        else {
            tbrec_t *tr = &e->rec[m->crec];
            tr->frozen = 1;
            if (m->cop == OP_SAVE && !m->csnap) { /* snapshot at the first stop cycle */
                const inst_t *in = &e->inst[tr->inst];
                sd_read(&m->sd, m->sl[m->cslot].mask, m->cslot, in->n, in->r, in->m, m->snap);
                m->csnap = 1;
            }
        }
    }
    for (int q = 0; q < NS; q++) {
        if (!bit(so->wo.iss_v, q))
            continue;
        e->n_issue++;
        const int w = so->wo.iss_wid[q];
        const int rid = w < NW ? m->sd.wtb[w] : -1;
        if (w >= NW || w % NS != q || !bit(m->sd.live, w) || !bit(y->o->si[s].ready, w) || rid < 0) {
            bad += viol(e, "SM %d scheduler %d issued warp %d: not a live, ready warp of a TB", s, q, w);
            continue;
        }
        const tbrec_t *tr = &e->rec[rid];
        if (tr->st != TS_RUN || tr->frozen || bit(po->stop, w))
            bad += viol(e, "SM %d warp %d of kernel %u TB %u issued while %s", s, w, e->inst[tr->inst].k, tr->id,
                        tr->st != TS_RUN ? ts_name[tr->st] : "stopped");
        if (tr->st == TS_RUN && so->wo.iss_ks[q] != m->sl[tr->slot].ks)
            bad += viol(e, "SM %d warp %d issued with kernel slot %u, its TB's is %u", s, w, so->wo.iss_ks[q],
                        m->sl[tr->slot].ks);
    }
    return bad;
}

/* SM s's memory port and storage: accept -> storage read (SAVE) into the context memory, the request
 * queued; response -> storage write (RESTORE) */
static int sm_memory(gpu_env_t *e, const gpu_cyc_t *y, int s)
{
    sm_side_t *d = &e->sm[s].sd;
    const pe_out_t *po = &y->o->s[s].po;
    int bad = 0;
    const int acc = po->mem_req_v && y->o->si[s].mem_req_rdy;
    if (po->st_re != (uint32_t)(acc && po->mem_req_we))
        bad += viol(e, "SM %d: st_re %u, expected %d (accepted write request)", s, po->st_re, acc && po->mem_req_we);
    const int rd_rsp = d->rsp_i >= 0 && !d->mq[d->rsp_i].we;
    if (po->st_we != (uint32_t)rd_rsp)
        bad += viol(e, "SM %d: st_we %u, expected %d (response to a read request)", s, po->st_we, rd_rsp);
    if (acc) {
        if (po->mem_req_addr >= NMEM || d->nmq >= SD_MEMQ) {
            bad += viol(e, "SM %d: request address 0x%llx outside the %d contexts (or %d outstanding)", s,
                        (unsigned long long)po->mem_req_addr, PQ, d->nmq);
        } else {
            if (po->mem_req_we)
                e->mem[po->mem_req_addr] = sd_get(d, po->st_kind, po->st_wid, po->st_idx, po->st_tb);
            sd_push(d, &e->r, y->c, po->mem_req_tag, po->mem_req_we, po->mem_req_addr);
            e->n_lines++;
        }
    }
    if (d->rsp_i >= 0) {
        const sd_req_t q = sd_take(d);
        if (rd_rsp && po->st_we)
            sd_put(d, po->st_kind, po->st_wid, po->st_idx, po->st_tb, e->mem[q.addr]);
    }
    return bad;
}

/* SAVE / DROP OK on SM s: the TB leaves slot t (instructions left kept per rank); a SAVE's memory
 * lines equal the snapshot taken at its stop, which becomes the context's */
static int save_drop_ok(gpu_env_t *e, const gpu_cyc_t *y, int s, uint32_t op, uint32_t t, tbrec_t *tr)
{
    smv_t *m = &e->sm[s];
    int bad = 0;
    if (!tr || tr->st != TS_RUN || tr->sm != s || tr->slot != (int)t || !tr->frozen)
        return viol(e, "SM %d: %s OK for slot %u whose TB is not running there or was never stopped", s,
                    op == OP_SAVE ? "SAVE" : "DROP", t);
    sd_keep_left(&m->sd, m->sl[t].mask, tr->left);
    if (op == OP_SAVE) {
        const inst_t *in = &e->inst[tr->inst];
        const int ci = m->cctx;
        const uint32_t L = in->n * CL + in->n * in->r + in->m;
        if (!m->csnap)
            bad += viol(e, "SM %d: SAVE OK without a stop", s);
        for (uint32_t i = 0; i < L; i++)
            if (e->mem[(uint32_t)ci * CH + i] != m->snap[i]) {
                bad += viol(e, "SAVE of kernel %u TB %u on SM %d: memory line %u of context %d differs from the TB at "
                               "its stop",
                            in->k, tr->id, s, i, ci);
                break;
            }
        memcpy(e->csnap[ci], m->snap, L * sizeof m->snap[0]);
        e->ctx_rec[ci] = m->crec;
        tr->st = TS_SAVED, tr->ctx = ci, tr->save_sm = s;
        e->n_save[y->pol]++;
    } else {
        tr->st = TS_DROPPED, tr->ctx = m->cctx;
        e->n_drop[y->pol]++;
    }
    tr->sm = tr->slot = -1;
    free_slot(e, s, (int)t);
    return bad;
}

/* SM s's response: it answers the outstanding command; its effect on the TB */
static int edge_response(gpu_env_t *e, const gpu_cyc_t *y, int s)
{
    smv_t *m = &e->sm[s];
    const pe_out_t *po = &y->o->s[s].po;
    if (!po->rsp_v)
        return 0;
    const uint32_t op = po->rsp_op, t = po->rsp_tb, stt = po->rsp_status;
    m->rl_pend = 1;
    if (!m->cv || m->cresp || (uint32_t)m->cop != op || (uint32_t)m->cslot != t)
        return viol(e, "SM %d: response (op %u slot %u status %u) without a matching outstanding command "
                       "(cv %d op %d slot %d answered %d)",
                    s, op, t, stt, m->cv, m->cop, m->cslot, m->cresp);
    m->cresp = 1 + (int)stt;
    tbrec_t *tr = m->crec >= 0 ? &e->rec[m->crec] : NULL;
    int bad = 0;
    if ((op == OP_SAVE || op == OP_DROP) && stt == ST_OK) {
        bad += save_drop_ok(e, y, s, op, t, tr);
    } else if (op == OP_SAVE || op == OP_DROP) {
        if (stt != ST_FIN && stt != ST_EMPTY)
            bad += viol(e, "SM %d: %s of slot %u answered with status %u", s, op == OP_SAVE ? "SAVE" : "DROP", t, stt);
        else
            e->n_fin[y->pol]++;
    } else if (op == OP_RESTORE) {
        if (stt != ST_OK)
            bad += viol(e, "SM %d: RESTORE of slot %u answered with status %u", s, t, stt);
        if (!po->launch_v || po->launch_tb != t)
            bad += viol(e, "SM %d: RESTORE OK of slot %u without its launch", s, t);
    } else if (op == OP_DRAIN && stt != ST_OK && stt != ST_EMPTY && stt != ST_FIN) {
        bad += viol(e, "SM %d: DRAIN of slot %u answered with status %u", s, t, stt);
    }
    return bad;
}

/* SM s's natural completions (tb_done): the TB vanishes, its completion latched for the driver */
static int edge_done(gpu_env_t *e, const gpu_cyc_t *y, int s)
{
    smv_t *m = &e->sm[s];
    int bad = 0;
    for (tmask_t x = y->o->s[s].tb_done; x; x &= x - 1) {
        const int t = smk_ctz(x);
        const int rid = m->sl[t].rec;
        if (rid < 0)
            continue; /* reported by the slot-table check */
        tbrec_t *tr = &e->rec[rid];
        inst_t *in = &e->inst[tr->inst];
        tr->st = TS_FINISHED, tr->sm = tr->slot = -1;
        if (++in->done[tr->id] > 1)
            bad += viol(e, "kernel %u TB %u completed twice", in->k, tr->id);
        in->ndone++;
        in->t_prog = e->t_prog = y->c;
        if (in->ndone == in->grid)
            in->t_alldone = y->c;
        e->n_done[y->pol]++;
        m->dpend |= 1ULL << t, m->dpend_inst[t] = tr->inst;
        free_slot(e, s, t);
    }
    return bad;
}

/* SM s's launches: the engine's (a RESTORE, context bit-exact through the destination's mask), else
 * the lowest slot waiting with go */
static int edge_launch(gpu_env_t *e, const gpu_cyc_t *y, int s)
{
    smv_t *m = &e->sm[s];
    const pe_out_t *po = &y->o->s[s].po;
    int bad = 0;
    if (!po->launch_v) {
        for (int t = 0; t < NT; t++)
            if (m->sl[t].st == SS_GO) {
                launch_warps(e, s, t);
                break;
            }
        return 0;
    }
    const int t = (int)po->launch_tb;
    slot_t *sl = &m->sl[t];
    if (t >= NT || sl->st != SS_ALLOC || sl->rec < 0)
        return viol(e, "SM %d: engine launches slot %d, which is not a restore target", s, t);
    tbrec_t *tr = &e->rec[sl->rec];
    const inst_t *in = &e->inst[tr->inst];
    const int i = sd_diff(&m->sd, sl->mask, t, in->n, in->r, in->m, e->csnap[tr->ctx]);
    if (i >= 0)
        bad += viol(e, "RESTORE of kernel %u TB %u (saved on SM %d) into SM %d slot %d: context line %d differs from "
                       "the one saved",
                    in->k, tr->id, tr->save_sm, s, t, i);
    e->ctx_rec[tr->ctx] = -1;
    tr->ctx = -1;
    e->n_rest[y->pol]++;
    e->n_xrest[y->pol] += tr->save_sm != s;
    launch_warps(e, s, t);
    return bad;
}

/* a set-up of kernel K (launch ii) on SM s: the kernel's shape and mask; the kernel slot shared by
 * the kernel's TBs on the SM, never with another kernel; at most KS kernels, no third under MAX2;
 * the SM's limits */
static int check_setup(gpu_env_t *e, const gpu_cyc_t *y, int s, uint32_t K, const inst_t *in)
{
    const sm_in_t *si = &y->o->si[s];
    const sm_driver_t *D = &y->g->drv;
    const smv_t *m = &e->sm[s];
    int bad = 0;
    if ((uint32_t)smk_popc(si->set_mask) != in->n || si->set_nreg != in->r || si->set_smem != in->m ||
        !bit(e->kmask_v[K], s))
        bad += viol(e, "SM %d: set-up of kernel %u with %d warps, R %u, M %u; the kernel has %u, %u, %u, mask 0x%llx", s,
                    K, smk_popc(si->set_mask), si->set_nreg, si->set_smem, in->n, in->r, in->m,
                    (unsigned long long)e->kmask_v[K]);
    int distinct = 0, has_k = 0;
    uint64_t seen = 0;
    uint32_t regs = in->n * in->r, lines = in->m, warps = in->n, slots = 1;
    for (int u = 0; u < NT; u++) {
        const slot_t *x = &m->sl[u];
        if (x->st == SS_FREE)
            continue;
        const inst_t *xi = inst_of(e, x->rec);
        regs += xi->n * xi->r, lines += xi->m, warps += xi->n, slots++;
        if (!bit(seen, xi->k))
            seen |= 1ull << xi->k, distinct++;
        if (xi->k == K) {
            has_k = 1;
            if (x->ks != si->set_ks)
                bad += viol(e, "SM %d: kernel %u set up in kernel slot %u, its TBs there use %u", s, K, si->set_ks, x->ks);
        } else if (x->ks == si->set_ks) {
            bad += viol(e, "SM %d: kernel %u set up in kernel slot %u, held by kernel %u", s, K, si->set_ks, xi->k);
        }
    }
    if (si->set_ks >= NKS || distinct + !has_k > NKS)
        bad += viol(e, "SM %d: kernel slot %u, %d kernels", s, si->set_ks, distinct + !has_k);
    int drv_has = 0;
    for (int j = 0; j < NKS; j++)
        drv_has |= bit(D->ksv[s], j) && D->ksk[s][j] == K;
    if (y->st->in.host.cfg_max2 && !has_k && !drv_has && distinct + 1 > 2)
        bad += viol(e, "SM %d: a third kernel (%u) under MAX2", s, K);
    if (regs > LREG || lines > LSL || warps > NW || slots > NT)
        bad += viol(e, "SM %d over its limits: rows %u, lines %u, warps %u, slots %u", s, regs, lines, warps, slots);
    return bad;
}

/* a fresh TB id dispatched: exactly the kernel's next one, never set up before, none while the kernel
 * has a SAVED or dropped TB in the driver's PTBQ; its new identity */
static int new_tb(gpu_env_t *e, const gpu_cyc_t *y, int s, int ii, int *rid)
{
    const drv_out_t *d = &y->o->d;
    inst_t *in = &e->inst[ii];
    const uint32_t K = d->dec_k, id = d->dec_id;
    int bad = 0;
    if (id != in->nstarted || id >= in->grid || in->started[id])
        bad += viol(e, "kernel %u: new TB id %u dispatched; expected %u of %u (set up %u times)", K, id, in->nstarted,
                    in->grid, id < in->grid ? in->started[id] : 0);
    if (d->set_id[s] != in->nstarted)
        bad += viol(e, "SM %d: set_id %u, the new TB id is %u", s, d->set_id[s], in->nstarted);
    if (in->npq)
        bad += viol(e, "kernel %u: new TB id %u dispatched while %u of its TBs are saved or dropped", K, id, in->npq);
    if (id < in->grid)
        in->started[id]++;
    in->nstarted++;
    *rid = new_rec(e);
    tbrec_t *tr = &e->rec[*rid];
    tr->inst = (uint32_t)ii, tr->id = id;
    for (uint32_t j = 0; j < in->n; j++)
        tr->left[j] = rng_chance(&e->r, e->p_zero, 100) ? 0 : 1 + rng_below(&e->r, e->imax);
    return bad;
}

/* the rerun of a TB the monitor saw dropped: a new identity of the same TB id. *rid = -1: no such TB */
static int rerun_tb(gpu_env_t *e, const gpu_cyc_t *y, int s, int ii, int *rid)
{
    const drv_out_t *d = &y->o->d;
    inst_t *in = &e->inst[ii];
    int old = -1, bad = 0;
    for (uint32_t i = 0; i < e->nrec && old < 0; i++)
        if (e->rec[i].st == TS_DROPPED && e->rec[i].inst == (uint32_t)ii && e->rec[i].id == d->dec_id && e->rec[i].vis)
            old = (int)i;
    *rid = -1;
    if (old < 0)
        return viol(e, "kernel %u: rerun of TB %u, which was not dropped", d->dec_k, d->dec_id);
    if (d->set_id[s] != e->rec[old].id)
        bad += viol(e, "SM %d: set_id %u, the rerun TB id is %u", s, d->set_id[s], e->rec[old].id);
    e->rec[old].st = TS_RERUN;
    in->npq--;
    if (e->rec[old].ctx >= 0 && e->rec[old].ctx < PQ)
        e->drop_rec[e->rec[old].ctx] = -1;
    *rid = new_rec(e);
    tbrec_t *tr = &e->rec[*rid];
    tr->inst = (uint32_t)ii, tr->id = e->rec[old].id, tr->attempt = e->rec[old].attempt + 1;
    for (uint32_t j = 0; j < in->n; j++)
        tr->left[j] = rng_chance(&e->r, e->p_zero, 100) ? 0 : 1 + rng_below(&e->r, e->imax);
    e->n_rerun++;
    return bad;
}

/* a RESTORE set-up into slot t: the identity is the one the monitor saw saved at the command's
 * pointer. *rid = -1: no saved context there */
static int restore_tb(gpu_env_t *e, const gpu_cyc_t *y, int s, int t, int ii, int *rid)
{
    const sm_in_t *si = &y->o->si[s];
    const drv_out_t *d = &y->o->d;
    const uint64_t ptr = si->cmd_ptr;
    const int ci = (int)(ptr / CH);
    int bad = 0;
    *rid = -1;
    if (!si->cmd_v || si->cmd_op != OP_RESTORE || si->cmd_tb != (uint32_t)t || ptr % CH || ci >= PQ ||
        e->ctx_rec[ci] < 0 || e->rec[e->ctx_rec[ci]].st != TS_SAVED || !e->rec[e->ctx_rec[ci]].vis)
        return viol(e, "SM %d: restore set-up of slot %d with command v %u op %u slot %u pointer 0x%llx: no saved "
                       "context there",
                    s, t, si->cmd_v, si->cmd_op, si->cmd_tb, (unsigned long long)ptr);
    *rid = e->ctx_rec[ci];
    e->inst[ii].npq--;
    if (d->set_id[s] != e->rec[*rid].id)
        bad += viol(e, "SM %d: set_id %u, the restored TB id is %u", s, d->set_id[s], e->rec[*rid].id);
    if (e->rec[*rid].inst != (uint32_t)ii)
        bad += viol(e, "SM %d: restore of a context of kernel %u for kernel %u", s, inst_of(e, *rid)->k, d->dec_k);
    return bad;
}

/* the driver's set-up on SM s (its decision: a fresh TB, a rerun, a RESTORE target): checked, the
 * identity placed in its slot. Returns the violations; *skip: the set-up names no TB (the SM's
 * command is then not looked at) */
static int edge_setup(gpu_env_t *e, const gpu_cyc_t *y, int s, int *skip)
{
    const sm_in_t *si = &y->o->si[s];
    const drv_out_t *d = &y->o->d;
    const uint32_t dk = d->dec_kind, K = d->dec_k;
    smv_t *m = &e->sm[s];
    const int t = (int)si->set_tb;
    const int ii = K < KN ? e->ek[K] : -1;
    *skip = 1;
    if ((dk != DRV_DEC_NEW && dk != DRV_DEC_RERUN && dk != DRV_DEC_RESTORE) || (int)d->dec_sm != s || ii < 0 ||
        t >= NT || m->sl[t].st != SS_FREE)
        return viol(e, "SM %d: set-up of slot %d (decision %u, kernel %u) for no live kernel or a busy slot", s, t, dk, K);
    inst_t *in = &e->inst[ii];
    int rid;
    int bad = check_setup(e, y, s, K, in);
    if (dk == DRV_DEC_NEW)
        bad += new_tb(e, y, s, ii, &rid);
    else if (dk == DRV_DEC_RERUN)
        bad += rerun_tb(e, y, s, ii, &rid);
    else
        bad += restore_tb(e, y, s, t, ii, &rid);
    if (rid < 0)
        return bad;
    *skip = 0;
    tbrec_t *tr = &e->rec[rid];
    slot_t *sl = &m->sl[t];
    sl->rec = rid, sl->mask = si->set_mask, sl->ks = (uint8_t)si->set_ks;
    tr->sm = s, tr->slot = t;
    if (si->set_go) {
        sl->st = SS_GO, tr->st = TS_GO;
        sd_fill(&m->sd, rid, sl->mask, t, in->r, in->m, 0);
    } else {
        sl->st = SS_ALLOC, tr->st = TS_RGO;
        sd_fill(&m->sd, rid, sl->mask, t, in->r, in->m, 0xdeadULL + y->c); /* junk */
    }
    in->t_prog = e->t_prog = y->c;
    e->n_dispatch++;
    return bad;
}

/* the driver's command to SM s: one unanswered per SM, one SAVE/DROP GPU-wide, to a slot holding a TB,
 * DROP only of idempotent kernels, SAVE/DROP to a free context */
static int edge_command(gpu_env_t *e, gpu_cyc_t *y, int s)
{
    const sm_in_t *si = &y->o->si[s];
    const uint32_t dk = y->o->d.dec_kind;
    smv_t *m = &e->sm[s];
    const uint32_t op = si->cmd_op, t = si->cmd_tb;
    int bad = 0;
    if (m->cv || m->rl_pend)
        bad += viol(e, "SM %d: command (op %u slot %u) while one is unanswered or unprocessed", s, op, t);
    /* docs/sm_driver.md "QoS controls": under QOS with PGPU = 0 an eviction neither waits for nor sets pb */
    const drv_in_t *h = &y->st->in.host;
    const int cpb = (op == OP_SAVE || op == OP_DROP) &&
                    !(dk == DRV_DEC_EVICT && h->cfg_policy == DRV_QOS && !(h->cfg_qctl & DRV_QC_PGPU));
    if (cpb && y->n_pre_out > 0)
        bad += viol(e, "SM %d: a second SAVE/DROP in flight GPU-wide", s);
    if (op == OP_RESTORE && !si->set_v)
        bad += viol(e, "SM %d: RESTORE without its set-up", s);
    const int rid = t < NT ? m->sl[t].rec : -1;
    /* a slot whose TB completed and whose completion the driver has not processed may be commanded
     * (the engine answers FIN / ERR_EMPTY); any other empty slot may not */
    if (op != OP_RESTORE && (t >= NT || (rid < 0 && !bit(m->dpend, (int)t))))
        bad += viol(e, "SM %d: command %u to slot %u, which holds no TB", s, op, t);
    if (op == OP_DROP && rid >= 0 && !inst_of(e, rid)->idem)
        bad += viol(e, "SM %d: DROP of a TB of a non-idempotent kernel", s);
    int ci = -1;
    if (op == OP_SAVE || op == OP_DROP) {
        const uint64_t ptr = si->cmd_ptr;
        ci = (int)(ptr / CH);
        if (ptr % CH || ci >= PQ || e->ctx_rec[ci] >= 0 || e->drop_rec[ci] >= 0)
            bad += viol(e, "SM %d: %s to pointer 0x%llx, not a free context", s, op == OP_SAVE ? "SAVE" : "DROP",
                        (unsigned long long)ptr);
        for (int u = 0; u < NSM; u++)
            if (u != s && e->sm[u].cv && e->sm[u].cop == OP_SAVE && e->sm[u].cctx == ci)
                bad += viol(e, "SM %d: SAVE to the context SM %d is saving into", s, u);
        y->n_pre_out += cpb;
    }
    m->cpb = cpb;
    m->cv = 1, m->cop = (int)op, m->cslot = (int)t, m->crec = rid, m->cctx = ci, m->cresp = 0, m->csnap = 0;
    m->ccyc = y->c, m->ckind = (int)dk;
    if (dk == DRV_DEC_EVICT)
        e->n_evict[y->pol]++;
    else if (dk == DRV_DEC_PLAN_PRE)
        e->n_pre[y->pol]++;
    else if (dk == DRV_DEC_RESV)
        e->n_resv[y->pol]++;
    return bad;
}

/* the driver's decision on each SM: set-up (and a RESTORE with it) or a command */
static int edge_decision(gpu_env_t *e, gpu_cyc_t *y)
{
    const drv_out_t *d = &y->o->d;
    int bad = 0;
    for (int s = 0; s < NSM; s++) {
        int skip = 0;
        if (!d->set_v[s] && d->set_id[s])
            bad += viol(e, "SM %d: set_id %u without set_v", s, d->set_id[s]);
        if (y->o->si[s].set_v)
            bad += edge_setup(e, y, s, &skip);
        if (!skip && y->o->si[s].cmd_v)
            bad += edge_command(e, y, s);
    }
    return bad;
}

/* host: the launch (legal: a new instance; else kl_rej expected) and the mask change at this edge */
static void edge_host(gpu_env_t *e, const gpu_cyc_t *y)
{
    const drv_in_t *h = &y->st->in.host;
    e->kl_exp = -1;
    if (h->kl_v) {
        const uint32_t k = h->kl_k;
        const int ok = e->ek[k] < 0 && h->kl_grid != 0 && (h->kl_mask & SMK_MASK(NSM)) != 0 && h->kl_n >= 1 &&
                       h->kl_n <= NW && h->kl_r <= RMAX && h->kl_n * h->kl_r <= LREG && h->kl_m <= LSL;
        e->kl_exp = !ok;
        if (ok && h->cfg_policy == DRV_QOS && (h->cfg_qctl & DRV_QC_KEEP) && y->st->in.kl_keep) {
            int held = 0; /* a KEEP relaunch into an entry holding partitions: no partition run */
            for (int x = 0; x < NSM; x++)
                held |= y->g->drv.part[x][k] != 0;
            e->n_keepkept += held;
        }
        if (!ok) {
            e->n_rej++;
        } else {
            if (e->ninst == e->capinst) {
                e->capinst = e->capinst ? 2 * e->capinst : 256;
                e->inst = realloc(e->inst, e->capinst * sizeof *e->inst);
                if (!e->inst) abort();
            }
            inst_t *in = &e->inst[e->ninst];
            memset(in, 0, sizeof *in);
            in->k = k, in->grid = h->kl_grid, in->n = h->kl_n, in->r = h->kl_r, in->m = h->kl_m;
            in->idem = h->kl_idem, in->qos = h->kl_qos, in->adm = h->kl_adm, in->lim = h->kl_lim;
            in->mask = h->kl_mask & SMK_MASK(NSM);
            in->done = calloc(in->grid, 1), in->started = calloc(in->grid, 1);
            if (!in->done || !in->started) abort();
            in->t_launch = in->t_prog = y->c, in->live = 1;
            e->ek[k] = (int)e->ninst++;
            e->kmask_v[k] = in->mask, e->t_kmask[k] = y->c;
            e->n_launch++;
            if (!e->t_prog)
                e->t_prog = y->c;
        }
    }
    if (h->km_v) {
        e->kmask_v[h->km_k] = h->km_mask & SMK_MASK(NSM), e->t_kmask[h->km_k] = y->c;
        e->n_mchg++;
    }
}

static void tb_shape(const void *ctx, int rec, uint32_t *R, uint32_t *M, int *slot)
{
    const gpu_env_t *e = ctx;
    const inst_t *in = inst_of(e, rec);
    *R = in->r, *M = in->m, *slot = e->rec[rec].slot;
}

/* pipelines of SM s (issues, exits); its outstanding command is answered in bounded time */
static int edge_pipelines(gpu_env_t *e, const gpu_cyc_t *y, int s)
{
    smv_t *m = &e->sm[s];
    int bad = 0;
    sd_issues(&m->sd, &e->wk, &e->r, &e->gen, y->c, &y->o->s[s].wo, SMK_WARP_SIZE + 1, tb_shape, e);
    for (wmask_t x = sd_exits(&m->sd, y->o->si[s].wexit, y->c); x; x &= x - 1)
        bad += viol(e, "environment: SM %d warp %d exits while not live, with work left or busy", s, smk_ctz(x));
    if (m->cv && !m->cresp && y->c - m->ccyc > 400000)
        bad += viol(e, "watchdog: SM %d command op %d slot %d issued in cycle %llu has no response", s, m->cop,
                    m->cslot, (unsigned long long)m->ccyc);
    return bad;
}

/* watchdogs: kernels progress and finish */
static int check_progress(gpu_env_t *e, uint64_t c)
{
    int bad = 0;
    for (int k = 0; k < KN; k++)
        if (e->ek[k] >= 0) {
            const inst_t *in = &e->inst[e->ek[k]];
            if (in->ndone < in->grid && c - in->t_prog > 1500000)
                bad += viol(e, "watchdog: kernel %u (launched in cycle %llu, %u of %u TBs done) made no progress for "
                               "1.5M cycles (policy %u)",
                            k, (unsigned long long)in->t_launch, in->ndone, in->grid, e->policy);
            if (in->ndone == in->grid && c - in->t_alldone > 4u * NSM * NT + 100)
                bad += viol(e, "watchdog: kernel %u completed its TBs in cycle %llu but no kdone", k,
                            (unsigned long long)in->t_alldone);
        }
    return bad;
}

/* FCFS / SPART: an SM that holds nothing, with nothing in flight, gets a TB of some kernel within a
 * bounded time while a kernel allowed on it (admission NONE) has fresh TBs left. The bound holds
 * while no RESERVE kernel is live, no saved or dropped TB waits (its RESTORE may wait for a busy
 * engine), no command is in flight and the policy and masks do not change: then every cycle some
 * kernel fits somewhere and is dispatched, so within NSM x T dispatches the idle SM gets one. */
static int check_starvation(gpu_env_t *e, uint64_t c)
{
    int bad = 0;
    int blocked = e->policy != DRV_FCFS && e->policy != DRV_SPART;
    for (int k = 0; k < KN && !blocked; k++)
        if (e->ek[k] >= 0)
            blocked = e->inst[e->ek[k]].adm == DRV_ADM_RESERVE || e->inst[e->ek[k]].npq;
    for (int s = 0; s < NSM && !blocked; s++)
        blocked = e->sm[s].cv || e->sm[s].rl_pend;
    if (blocked)
        e->t_block = c;
    const uint64_t B = 4ull * NSM * NT + 1000;
    for (int s = 0; s < NSM; s++) {
        const smv_t *m = &e->sm[s];
        int idle = !m->dpend && !m->rl_pend && !m->cv;
        for (int t = 0; t < NT && idle; t++)
            idle = m->sl[t].st == SS_FREE;
        if (!idle) {
            e->idle_since[s] = c + 1;
            continue;
        }
        if (c < B || c - B < e->idle_since[s] || c - B < e->t_block)
            continue;
        for (int k = 0; k < KN; k++) {
            if (e->ek[k] < 0)
                continue;
            const inst_t *in = &e->inst[e->ek[k]];
            if (in->adm == DRV_ADM_NONE && bit(e->kmask_v[k], s) && in->nstarted < in->grid && e->t_kmask[k] + B <= c) {
                bad += viol(e, "starvation: SM %d idle since cycle %llu under %s while kernel %u has %u fresh TBs "
                               "and may use it",
                            s, (unsigned long long)e->idle_since[s], e->policy == DRV_FCFS ? "FCFS" : "SPART", k,
                            in->grid - in->nstarted);
                e->idle_since[s] = c + 1; /* report once */
                break;
            }
        }
    }
    return bad;
}

/* every 16 cycles: the driver's own counters equal the sums over its slot mirror, within the limits;
 * no PTBQ entry lost (every saved / dropped TB the driver was told of is in its PTBQ, at the entry of
 * its pointer) */
static int check_counters(gpu_env_t *e, const sm_driver_t *D)
{
    int bad = 0;
    uint32_t U[KN][4] = {{0}};
    for (int s = 0; s < NSM; s++) {
        uint32_t u[4] = {0}, cn[KN] = {0};
        for (int t = 0; t < NT; t++) {
            if (!bit(D->sv[s], t))
                continue;
            const uint32_t k = D->sk[s][t];
            if (k >= KN)
                continue;
            const uint32_t dx[4] = {D->kdreg[k], D->km[k], D->kn[k], 1};
            for (int x = 0; x < 4; x++)
                u[x] += dx[x], U[k][x] += dx[x];
            cn[k]++;
        }
        for (int x = 0; x < 4; x++)
            if (u[x] != D->u[s][x])
                bad += viol(e, "driver: u[%d][%d] = %u, its slot mirror sums to %u", s, x, D->u[s][x], u[x]);
        for (int k = 0; k < KN; k++)
            if (cn[k] != D->cnt[s][k])
                bad += viol(e, "driver: cnt[%d][%d] = %u, its slot mirror holds %u", s, k, D->cnt[s][k], cn[k]);
        if (u[0] > LREG || u[1] > LSL || u[2] > NW || u[3] > NT)
            bad += viol(e, "driver: SM %d over its limits in its own mirror", s);
    }
    for (int i = 0; i < PQ; i++) {
        const int rs = e->ctx_rec[i], rd = e->drop_rec[i];
        if (rs >= 0 && e->rec[rs].st == TS_SAVED && e->rec[rs].vis &&
            (D->qst[i] != DRV_Q_SAVED || D->qk[i] != inst_of(e, rs)->k || D->qid[i] != e->rec[rs].id))
            bad += viol(e, "PTBQ entry %d: kernel %u TB %u saved there, the driver has state %u kernel %u id %u", i,
                        inst_of(e, rs)->k, e->rec[rs].id, D->qst[i], D->qk[i], D->qid[i]);
        if (rd >= 0 && (D->qst[i] != DRV_Q_RERUN || D->qk[i] != inst_of(e, rd)->k || D->qid[i] != e->rec[rd].id))
            bad += viol(e, "PTBQ entry %d: kernel %u TB %u dropped there, the driver has state %u kernel %u id %u", i,
                        inst_of(e, rd)->k, e->rec[rd].id, D->qst[i], D->qk[i], D->qid[i]);
    }
    for (int k = 0; k < KN; k++)
        for (int x = 0; x < 4; x++)
            if (U[k][x] != D->U[k][x])
                bad += viol(e, "driver: U[%d][%d] = %u, its slot mirror sums to %u", k, x, D->U[k][x], U[k][x]);
    return bad;
}

/* the driver's event takes effect at this edge: a completion processed (kdone the next cycle after the
 * launch's last), a response processed (a SAVE/DROP OK: the TB in the driver's PTBQ) */
static void edge_event(gpu_env_t *e, const gpu_cyc_t *y)
{
    int nk = 0, nkk = 0;
    if (y->xev == DRV_EV_DONE) {
        smv_t *m = &e->sm[y->xs];
        inst_t *in = &e->inst[m->dpend_inst[y->xt]];
        m->dpend &= ~(1ULL << y->xt);
        if (++in->nproc == in->grid)
            nk = 1, nkk = (int)in->k; /* registered pulse next cycle */
    } else if (y->xev == DRV_EV_RSP) {
        smv_t *m = &e->sm[y->xs];
        m->rl_pend = 0;
        if (m->cv && m->cresp == 1 + ST_OK && m->crec >= 0 && (m->cop == OP_SAVE || m->cop == OP_DROP)) {
            tbrec_t *tr = &e->rec[m->crec];
            tr->vis = 1;
            e->inst[tr->inst].npq++;
            if (m->cop == OP_DROP && tr->ctx >= 0 && tr->ctx < PQ)
                e->drop_rec[tr->ctx] = m->crec;
        }
        m->cv = 0;
    }
    e->kdone_exp = nk, e->kdone_k = nkk;
}

/* Every field of the stimulus that gpu_vl_drive puts on an input port of rtl/gpu_top.v fits it (scalars assigned as
 * they are, the per-SM and per-kernel fields to their slices of the packed ports): a wider value is a testbench bug
 * (cosim_env.h, env_port). Not ports, so not checked: the host's per-SM fields (set_rej .. wused: gpu_top wires the
 * SM tops' outputs there), host.kl_keep (the port is in->kl_keep) and each SM's set_* / cmd_* (the driver's). */
static int port_fits(const gpu_env_t *e, const gpu_stim_t *st)
{
    const gpu_in_t *in = &st->in;
    const drv_in_t *h = &in->host;
    int bad = 0;
#define PORT(f, w) (bad += env_port(e->cycle, NULL, -1, #f, -1, (uint64_t)(f), (w)))
#define SMP(f, w) (bad += env_port(e->cycle, "in->sm", s, #f, -1, (uint64_t)si->f, (w)))
    PORT(st->rst, 1), PORT(in->m_we, 1), PORT(in->m_addr, SMK_QM_ADDR_W), PORT(in->m_wdata, 32);
    PORT(in->m_raddr, SMK_QM_ADDR_W), PORT(in->kl_goal, 32), PORT(in->kl_x, 17), PORT(in->kl_t, QM_GVW);
    PORT(in->kl_keep, 1);
    bad += drv_host_port_fits(e->cycle, "in->host", h, 0); /* drv_env.h */
    for (int s = 0; s < NSM; s++) {
        const sm_in_t *si = &in->sm[s];
        SMP(cap, SMK_PE_OUT_W), SMP(ready, NW), SMP(pblk, NW), SMP(wbusy, NW), SMP(wexit, NW), SMP(cp_v, SMK_CP);
        SMP(csr_we, 1), SMP(csr_addr, SMK_ADDR_W), SMP(csr_wdata, SMK_DATA_W), SMP(rd_addr, SMK_ADDR_W);
        SMP(mem_req_rdy, 1), SMP(mem_rsp_v, 1), SMP(mem_rsp_tag, SMK_CTX_TAG_W);
        for (int p = 0; p < SMK_CP; p++) {
            bad += env_port(e->cycle, "in->sm", s, "cp_ks", p, si->cp_ks[p], SMK_KS_W);
            bad += env_port(e->cycle, "in->sm", s, "cp_act", p, si->cp_act[p], SMK_ACT_W);
        }
    }
#undef PORT
#undef SMP
    return bad;
}

int gpu_env_observe(gpu_env_t *e, const gpu_stim_t *st, const gpu_top_t *g, const gpu_out_t *o)
{
    gpu_cyc_t y = {.st = st, .g = g, .o = o, .c = e->cycle, .pol = e->policy < NPOL ? e->policy : 0};
    e->n_cyc[y.pol]++;
    int bad = port_fits(e, st);
    bad += check_host(e, &y);
    bad += check_pcov(e, &y);
    /* the request and lookup ports as the driver sees them (the manager's while it owns them) */
    bad += check_qm_mux(e, st, o);
    bad += check_qm_requests(e, o);
    bad += check_rq(e, &o->di, &o->d, &g->drv);
    bad += check_event(e, &y);
    for (int s = 0; s < NSM; s++) {
        bad += check_slots(e, &y, s);
        bad += check_stop_issue(e, &y, s);
        bad += sm_memory(e, &y, s);
    }
    for (int s = 0; s < NSM; s++) {
        bad += edge_response(e, &y, s);
        bad += edge_done(e, &y, s);
        bad += edge_launch(e, &y, s);
    }
    bad += edge_decision(e, &y);
    edge_host(e, &y);
    for (int s = 0; s < NSM; s++)
        bad += edge_pipelines(e, &y, s);
    int live[KN];
    bad += check_progress(e, y.c);
    bad += check_starvation(e, y.c);
    if (nlive_kernels(e, live) && y.c - e->t_prog > 300000)
        bad += viol(e, "watchdog: no TB dispatched or completed for 300K cycles with kernels live (policy %u)", e->policy);
    if ((y.c & 15) == 0)
        bad += check_counters(e, &g->drv);
    edge_event(e, &y);
    e->cycle++;
    return bad;
}

int gpu_env_finish(gpu_env_t *e, const gpu_top_t *g, int verbose)
{
    (void)g;
    int bad = 0;
    uint64_t cnt[TS_N] = {0};
    for (uint32_t i = 0; i < e->nrec; i++)
        cnt[e->rec[i].st]++;
    /* every TB id of every launch: completed at most once; completed iff its current identity finished;
     * every saved context owned by exactly one saved or restoring identity */
    uint64_t tbs = 0, done = 0, kdone = 0;
    for (uint32_t i = 0; i < e->ninst; i++) {
        const inst_t *in = &e->inst[i];
        tbs += in->grid;
        kdone += !in->live;
        for (uint32_t j = 0; j < in->grid; j++) {
            if (in->done[j] > 1)
                bad += viol(e, "ledger: kernel launch %u TB %u completed %u times", i, j, in->done[j]);
            if (in->started[j] > 1)
                bad += viol(e, "ledger: kernel launch %u TB %u set up fresh %u times", i, j, in->started[j]);
            done += in->done[j];
        }
        if (!in->live && in->ndone != in->grid)
            bad += viol(e, "ledger: kernel launch %u finished with %u of %u TBs", i, in->ndone, in->grid);
    }
    for (uint32_t i = 0; i < e->nrec; i++) {
        const tbrec_t *tr = &e->rec[i];
        const inst_t *in = &e->inst[tr->inst];
        if (tr->st == TS_FINISHED && in->done[tr->id] != 1)
            bad += viol(e, "ledger: finished identity %u of TB %u not counted once", i, tr->id);
        if ((tr->st == TS_SAVED || tr->st == TS_RGO) && (tr->ctx < 0 || e->ctx_rec[tr->ctx] != (int)i))
            bad += viol(e, "ledger: saved TB %u without its context", tr->id);
        if (tr->st != TS_FINISHED && tr->st != TS_RERUN && !in->live)
            bad += viol(e, "ledger: TB %u of a finished kernel is %s", tr->id, ts_name[tr->st]);
    }
    if (verbose) {
        printf("ledger: %u kernel launches (%llu finished, %llu refused), %llu TBs, %llu completed; identities: running "
               "%llu, set up %llu, saved %llu, restore targets %llu, dropped %llu, reruns %llu\n",
               e->ninst, (unsigned long long)kdone, (unsigned long long)e->n_rej, (unsigned long long)tbs,
               (unsigned long long)done, (unsigned long long)cnt[TS_RUN], (unsigned long long)cnt[TS_GO],
               (unsigned long long)cnt[TS_SAVED], (unsigned long long)cnt[TS_RGO], (unsigned long long)cnt[TS_DROPPED],
               (unsigned long long)e->n_rerun);
        static const char *pn[NPOL] = {"FCFS", "SPART", "SMK_OD", "SMK_P", "QOS"};
        printf("partition runs checked for coverage %llu (counting form applied %llu); kernels left with partition 0 "
               "everywhere %llu (checked at their last-chance SM %llu)\n", (unsigned long long)e->pcov.n_run,
               (unsigned long long)e->pcov.n_count, (unsigned long long)e->pcov.n_zero, (unsigned long long)e->pcov.n_last);
        printf("rotation: runs that starved a kernel %llu, runs with a turn %llu, longest starvation %u runs (at most "
               "KN = %d)\n", (unsigned long long)e->pcov.n_rot, (unsigned long long)e->pcov.n_turn, e->pcov.max_streak, DRV_KN);
        printf("requests accepted %llu: FREE %llu VICTIM %llu REFUSED %llu\n", (unsigned long long)e->n_rq,
               (unsigned long long)e->n_ack[1], (unsigned long long)e->n_ack[2], (unsigned long long)e->n_ack[3]);
        printf("QoS controls: QOS cycles by cfg_qctl 0/1/2/3 %llu %llu %llu %llu; launches with kl_keep into an entry "
               "holding partitions under KEEP %llu; VICTIM grants while another SM's was pending %llu; refusals: no work "
               "%llu, SM pending %llu; evictions under PGPU = 0 while pb %llu\n",
               (unsigned long long)e->n_qctl[0], (unsigned long long)e->n_qctl[1], (unsigned long long)e->n_qctl[2],
               (unsigned long long)e->n_qctl[3], (unsigned long long)e->n_keepkept, (unsigned long long)e->n_pend2,
               (unsigned long long)e->n_nowork, (unsigned long long)e->n_pendref, (unsigned long long)e->n_evpb);
        for (int p = 0; p < NPOL; p++)
            printf("policy %-6s cycles %8llu: TBs completed %6llu, kernels done %4llu, saves %5llu, restores %5llu "
                   "(cross-SM %5llu), drops %4llu, SAVE/DROP ended FIN/EMPTY %4llu, evictions %5llu, preemptions %5llu, "
                   "reservation drains %4llu\n",
                   pn[p], (unsigned long long)e->n_cyc[p], (unsigned long long)e->n_done[p],
                   (unsigned long long)e->n_kdone[p], (unsigned long long)e->n_save[p], (unsigned long long)e->n_rest[p],
                   (unsigned long long)e->n_xrest[p], (unsigned long long)e->n_drop[p], (unsigned long long)e->n_fin[p],
                   (unsigned long long)e->n_evict[p], (unsigned long long)e->n_pre[p], (unsigned long long)e->n_resv[p]);
        printf("events: warp issues %llu, TB set-ups %llu, mask changes %llu, context lines moved %llu\n",
               (unsigned long long)e->n_issue, (unsigned long long)e->n_dispatch, (unsigned long long)e->n_mchg,
               (unsigned long long)e->n_lines);
        static const char *mn[4] = {"OFF", "SMK", "QOS", "3?"}, *sn[4] = {"naive", "elastic", "rollover", "rollover-time"};
        printf("manager: phases %llu, cycles owning %llu, host writes %llu, disables while running %llu, INITs %llu, "
               "snapshots %llu, QUOTA writes %llu; host writes dropped %llu, host requests dropped %llu\n",
               (unsigned long long)e->n_men, (unsigned long long)e->n_mown, (unsigned long long)e->n_mwr,
               (unsigned long long)e->n_mdis, (unsigned long long)e->n_minit, (unsigned long long)e->n_msnap,
               (unsigned long long)e->n_mquota, (unsigned long long)e->n_hdrop, (unsigned long long)e->n_hrqdrop);
        printf("manager epochs (EPOCH_START after a computation) by QMODE/SCHEME written:");
        for (int md = 0; md < 3; md++)
            for (int sc = 0; sc < 4; sc++)
                printf(" %s/%s %llu", mn[md], sn[sc], (unsigned long long)e->n_mep[md][sc]);
        printf("\nmanager TLP requests accepted %llu: FREE %llu VICTIM %llu REFUSED %llu; QoS goals: zero %llu, tiny %llu, "
               "realistic %llu, unreachable %llu, VMAX %llu; launches with kl_keep %llu\n",
               (unsigned long long)e->n_mrq, (unsigned long long)e->n_mack[1], (unsigned long long)e->n_mack[2],
               (unsigned long long)e->n_mack[3], (unsigned long long)e->n_goal[0], (unsigned long long)e->n_goal[1],
               (unsigned long long)e->n_goal[2], (unsigned long long)e->n_goal[3], (unsigned long long)e->n_goal[4],
               (unsigned long long)e->n_keep);
    }
    return bad;
}
