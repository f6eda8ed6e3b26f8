/* drv_env.c: observation vector and random environment with monitors for the SM-driver cosim
 * (drv_env.h).
 *
 * Every expected value below comes from the environment's own records (host view of the kernel
 * table, TB ledger, the driver's slot mirror as seen on its ports, PTBQ shadow, context memory,
 * delivered responses and tb_done pulses) and the spec's rules (docs/sm_driver.md), and is
 * compared with the C model's outputs and state every cycle; the RTL equals the C model by the
 * lockstep compare. The model's self-report of its decision and event (drv_out_t dec_* / ev_*,
 * not ports) is used to name the TB of a set-up and is itself checked against the ports. */
#include "drv_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the request unit's SCAN candidates (docs/sm_driver.md "Request port"): all 2^KW values of pass 0, KN of pass 1 */
#define RQ_NC ((1u << SMK_KID_W) + (uint32_t)KN)

#define NSM SMK_NUM_SM
#define KN SMK_KERNELS
#define KS SMK_KSLOTS
#define NT SMK_TB_SLOTS
#define NW SMK_WARPS
#define PQ SMK_PTBQ
#define QD SMK_PE_QDEPTH
#define CTX SMK_CTX_MAX_LINES
#define RMAX SMK_MAX_REGS
#define GMAX ((uint32_t)SMK_MASK(SMK_GRID_W))
#define WALL SMK_WMASK_ALL
#define NMASK SMK_MASK(NSM)
#define LIM_REG SMK_LIM_REG
#define LIM_SL SMK_LIM_SL
#define LIM_W SMK_LIM_W
#define LIM_TB SMK_LIM_TB

#define OP_SAVE SMK_PE_OP_SAVE
#define OP_RESTORE SMK_PE_OP_RESTORE
#define OP_DRAIN SMK_PE_OP_DRAIN
#define OP_DROP SMK_PE_OP_DROP
#define ST_OK SMK_PE_ST_OK
#define ST_FIN SMK_PE_ST_FIN
#define ST_EMPTY SMK_PE_ST_ERR_EMPTY
#define ST_BUSY SMK_PE_ST_ERR_BUSY
#define ST_NOTIDEM SMK_PE_ST_ERR_NOTIDEM

/* ================================================================== observation vector */
#define DRV_SIG(nm, n) {#nm, DO_##nm, (n)},
OBS_DEFINE_TABLE(drv_obs_table, DRV_OBS, DRV_SIG, DO_N);

void drv_obs_from_model(const sm_driver_t *m, const drv_out_t *o, drv_obs_t *ob)
{
    uint64_t *v = ob->v;
    memset(ob, 0, sizeof *ob);
    v[DO_kl_rej] = o->kl_rej, v[DO_kdone_v] = o->kdone_v, v[DO_kdone_k] = o->kdone_k;
    for (int s = 0; s < NSM; s++) {
        v[DO_set_v + s] = o->set_v[s], v[DO_set_tb + s] = o->set_tb[s], v[DO_set_mask + s] = o->set_mask[s];
        v[DO_set_ks + s] = o->set_ks[s], v[DO_set_nreg + s] = o->set_nreg[s];
        v[DO_set_smem + s] = o->set_smem[s], v[DO_set_go + s] = o->set_go[s];
        v[DO_cmd_v + s] = o->cmd_v[s], v[DO_cmd_op + s] = o->cmd_op[s], v[DO_cmd_tb + s] = o->cmd_tb[s];
        v[DO_cmd_ptr + s] = o->cmd_ptr[s], v[DO_cmd_idem + s] = o->cmd_idem[s];
        v[DO_set_id + s] = o->set_id[s];
    }
    v[DO_rq_rdy] = o->rq_rdy, v[DO_rq_ack_v] = o->rq_ack_v, v[DO_rq_ack_st] = o->rq_ack_st;
    v[DO_rq_ack_kv] = o->rq_ack_kv, v[DO_rq_ack_n] = o->rq_ack_n;
    v[DO_lk_cnt] = o->lk_cnt, v[DO_lk_part] = o->lk_part, v[DO_lk_ksv] = o->lk_ksv, v[DO_lk_ks] = o->lk_ks;
    v[DO_kv] = m->kv, v[DO_kqos] = m->kqos, v[DO_kidem] = m->kidem;
    for (int k = 0; k < KN; k++) {
        v[DO_kold + k] = m->kold[k], v[DO_kn + k] = m->kn[k], v[DO_kr + k] = m->kr[k];
        v[DO_km + k] = m->km[k], v[DO_kdreg + k] = m->kdreg[k];
        v[DO_kgrid + k] = m->kgrid[k], v[DO_knext + k] = m->knext[k], v[DO_kndone + k] = m->kndone[k];
        v[DO_kmask + k] = m->kmask[k], v[DO_kadm + k] = m->kadm[k], v[DO_klim + k] = m->klim[k];
        v[DO_U_reg + k] = m->U[k][DRV_R_REG], v[DO_U_sl + k] = m->U[k][DRV_R_SL];
        v[DO_U_w + k] = m->U[k][DRV_R_W], v[DO_U_tb + k] = m->U[k][DRV_R_TB];
        v[DO_pc + k] = m->pc[k], v[DO_pkv_r + k] = m->pkv_r[k];
    }
    for (int s = 0; s < NSM; s++) {
        v[DO_u_reg + s] = m->u[s][DRV_R_REG], v[DO_u_sl + s] = m->u[s][DRV_R_SL];
        v[DO_u_w + s] = m->u[s][DRV_R_W], v[DO_u_tb + s] = m->u[s][DRV_R_TB];
        for (int k = 0; k < KN; k++)
            v[DO_cnt + s * KN + k] = m->cnt[s][k], v[DO_part + s * KN + k] = m->part[s][k];
        v[DO_ksv + s] = m->ksv[s];
        for (int j = 0; j < KS; j++)
            v[DO_ksk + s * KS + j] = m->ksk[s][j];
        v[DO_sv + s] = m->sv[s], v[DO_spre + s] = m->spre[s], v[DO_sfill + s] = m->sfill[s];
        for (int t = 0; t < NT; t++)
            v[DO_sk + s * NT + t] = m->sk[s][t], v[DO_sid + s * NT + t] = m->sid[s][t];
        v[DO_rl_op + s] = m->rl_op[s], v[DO_rl_tb + s] = m->rl_tb[s], v[DO_rl_st + s] = m->rl_st[s];
        v[DO_dp + s] = m->dp[s];
    }
    v[DO_busy] = m->busy, v[DO_bpb] = m->bpb, v[DO_rl_v] = m->rl_v;
    for (int i = 0; i < PQ; i++) {
        v[DO_qst + i] = m->qst[i], v[DO_qk + i] = m->qk[i], v[DO_qid + i] = m->qid[i];
        v[DO_qs + i] = m->qs[i], v[DO_qt + i] = m->qt[i];
    }
    v[DO_pb] = m->pb, v[DO_plan_v] = m->plan_v, v[DO_plan_kc] = m->plan_kc, v[DO_plan_kv] = m->plan_kv;
    v[DO_plan_sm] = m->plan_sm, v[DO_plan_left] = m->plan_left;
    v[DO_a1_st] = m->a1_st, v[DO_a1_kc] = m->a1_kc, v[DO_a1_s] = m->a1_s, v[DO_a1_f] = m->a1_f;
    v[DO_a1_smv] = m->a1_smv, v[DO_a1_best] = m->a1_best, v[DO_a1_kv] = m->a1_kv, v[DO_a1_q] = m->a1_q;
    for (int x = 0; x < 4; x++)
        v[DO_a1_acc + x] = m->a1_acc[x];
    for (int k = 0; k < KN; k++)
        v[DO_a1_rk + k] = m->a1_rk[k];
    v[DO_a1_kvm] = m->a1_kvm, v[DO_a1_rv] = m->a1_rv, v[DO_a1_rc] = m->a1_rc, v[DO_a1_nouf] = m->a1_nouf;
    v[DO_a1_omax] = m->a1_omax, v[DO_a1_omin] = m->a1_omin, v[DO_a1_nmax] = m->a1_nmax, v[DO_a1_nmin] = m->a1_nmin;
    v[DO_a1_ok] = m->a1_ok, v[DO_a1_pcd] = m->a1_pcd;
    for (int x = 0; x < 4; x++)
        v[DO_a1_pw + x] = m->a1_pw[x];
    v[DO_dp1_v] = m->dp1_v, v[DO_dp2_v] = m->dp2_v, v[DO_dp2_kind] = m->dp2_kind, v[DO_dp2_s] = m->dp2_s;
    v[DO_dp2_k] = m->dp2_k, v[DO_dp2_r] = m->dp2_r;
    v[DO_s_kl_rej] = m->kl_rej, v[DO_s_kdone_v] = m->kdone_v, v[DO_s_kdone_k] = m->kdone_k;
    v[DO_pdirty] = m->pdirty, v[DO_pact] = m->pact, v[DO_pcur] = m->pcur, v[DO_pcnt_ks] = m->pcnt_ks, v[DO_pgot] = m->pgot;
    v[DO_prun] = m->prun, v[DO_psrv] = m->psrv, v[DO_ptop] = m->ptop, v[DO_prr] = m->prr, v[DO_prt] = m->prt;
    v[DO_pacc_reg] = m->pacc[DRV_R_REG], v[DO_pacc_sl] = m->pacc[DRV_R_SL];
    v[DO_pacc_w] = m->pacc[DRV_R_W], v[DO_pacc_tb] = m->pacc[DRV_R_TB];
    v[DO_pph] = m->pph, v[DO_pcand_r] = m->pcand_r, v[DO_plat_r] = m->plat_r;
    v[DO_rq_st] = m->rq_st, v[DO_rq_k] = m->rq_k, v[DO_rq_ret] = m->rq_ret, v[DO_rq_s] = m->rq_s, v[DO_rq_j] = m->rq_j;
    v[DO_rq_c] = m->rq_c, v[DO_rq_q] = m->rq_q, v[DO_rq_npk] = m->rq_npk, v[DO_rq_pend] = m->rq_pend;
    for (int s = 0; s < NSM; s++)
        v[DO_rq_pk + s] = m->rq_pk[s];
    for (int k = 0; k < KN; k++)
        v[DO_rq_g + k] = m->rq_g[k];
    for (int x = 0; x < DRV_NRES; x++)
        v[DO_acc + x] = m->acc[x], v[DO_w + x] = m->w[x];
    v[DO_s_rq_ack_v] = m->rq_ack_v, v[DO_s_rq_ack_st] = m->rq_ack_st;
    v[DO_s_rq_ack_kv] = m->rq_ack_kv, v[DO_s_rq_ack_n] = m->rq_ack_n;
}

void drv_obs_gate(drv_obs_t *ob)
{
    uint64_t *v = ob->v;
    if (!v[DO_kdone_v])
        v[DO_kdone_k] = 0;
    if (!v[DO_rq_ack_v])
        v[DO_rq_ack_st] = v[DO_rq_ack_kv] = v[DO_rq_ack_n] = 0;
    for (int s = 0; s < NSM; s++) {
        if (!v[DO_set_v + s])
            v[DO_set_tb + s] = v[DO_set_mask + s] = v[DO_set_ks + s] = v[DO_set_nreg + s] = v[DO_set_smem + s] =
                v[DO_set_go + s] = v[DO_set_id + s] = 0;
        if (!v[DO_cmd_v + s])
            v[DO_cmd_op + s] = v[DO_cmd_tb + s] = v[DO_cmd_ptr + s] = v[DO_cmd_idem + s] = 0;
    }
}

/* ================================================================== environment state */
enum { T_NONE = 0, T_SET, T_RUN, T_RT, T_SAVED, T_DROPPED, T_DONE, T_N };
static const char *const tname[T_N] = {"never set up", "set up", "running", "restore target", "saved", "dropped", "completed"};
enum { F_IDLE = 0, F_STOP, F_XFER, F_DONE };

typedef struct {                /* one accepted kernel launch */
    int k;
    uint32_t grid, n, r, m, idem, adm, lim, qos;
    uint32_t nfresh;            /* fresh ids set up (= the driver's knext) */
    uint32_t ndone_drv;         /* done events processed by the driver (= kndone) */
    uint32_t ndone_port;        /* tb_done pulses */
    uint8_t *st;                /* per id: T_* */
    uint8_t *ncomp;             /* per id: completions */
    int alive;
    uint64_t seq;               /* launch order */
} inst_t;

typedef struct { int v, inst; uint32_t id; uint8_t ks; } dslot_t;  /* the driver's slot as seen on its ports */

typedef struct {                /* a command of the driver, from its cycle to the event processing its response */
    int v, pb, q, inst;
    uint32_t op, tb, id;
    uint64_t ptr, cyc;
} ocmd_t;

typedef struct {                /* PTBQ shadow entry */
    uint8_t st;
    int inst, s, t;
    uint32_t id;
} eq_t;

typedef struct {                /* responder: one SM top (slot table + launch arbiter + engine) */
    tmask_t alloc, go, run;
    wmask_t tmask[NT];
    uint32_t tnreg[NT], tsml[NT], life[NT];
    uint8_t tks[NT];
    int tinst[NT];
    uint32_t tid[NT];
    wmask_t wused;
    struct { uint8_t op, tb, idem; uint64_t ptr; } q[QD];
    int qh, qc;
    uint8_t fsm, cur_op, cur_tb, cur_st;
    uint64_t cur_ptr;
    uint32_t cd;
    tmask_t drain, dpend;
    /* this cycle's registered outputs (drv_env_gen) */
    uint32_t rsp_v, rsp_op, rsp_tb, rsp_st;
    uint64_t rsp_ptr;
    tmask_t done;
    int g_f;
} rsm_t;

struct drv_env {
    rng_t r;
    rng_t rp; /* the tie pairs' own draws (phase), so that the main stream is the same up to the first pair */
    uint64_t cycle, phase_end, nphase;
    /* knobs */
    uint32_t policy, max2, evict, pmode, qctl;
    uint32_t p_keep;            /* percent of launches with kl_keep */
    uint32_t p_launch, p_busy, p_bad, p_km, shape, gstyle, p_cap, p_resv, p_rst;
    uint32_t fs_n, fs_r, fs_m;  /* shape 4: one shape for every launch of the phase (equal shares) */
    int fs_pair;                /* shape 4 as a tie pair: odd kernels one warp of fs2_r registers, no lines */
    uint32_t fs2_r;
    uint64_t n_wover;           /* SM-cycles with popcount(wused) > u_w */
    uint64_t n_odp, n_fixs;     /* SMK_OD pressure phases, one-shape phases */
    uint64_t n_pair;            /* one-shape phases made tie pairs */
    /* directed Algorithm 1 phase: reset, nvk victim kernels of small TBs fill every TB slot, then one
     * kernel whose TB needs some of them back (warps, shared memory, registers or slots binding) */
    int dir, dir_nvk, dir_k[4], dir_pin;
    uint64_t dir_t0, n_dir;
    /* its high-id variant (1 in 2 when GW is 10..13): the victims' grids are near GMAX and their TBs
     * live 1-4 cycles until each has set up hi_id fresh ids (cycle dir_tb), then 2500-5000; the large
     * kernel comes 150 cycles later. hi_id alternates from one high-id phase to the next between
     * (GMAX + 1) / 2 + 16 and (GMAX + 1) / 4 + 16, so the PTBQ, sid and set_id carry ids with bit GW-1
     * set (a grid below 2^(GW-1) never reaches it) or, every other time, ids of 2^(GW-2) + 16.. with
     * bit GW-2 set and bit GW-1 clear (mutant 61 of the 2026-11-21 sample: a slot-0 command while
     * slot 5 holds such an id); the next phase starts with a reset (the victims' remaining
     * thousands of TBs would hold two kernel entries for a very long time) */
    int dir_hi, rst_next;
    uint32_t hi_id;
    /* its completion variant (dir_fin, 1 in 3 of the other directed phases when GW is 10..13): four kernel
     * entries in turn (round robin over the phases of a run) launched with 1-4-cycle TBs and grids
     * just above 2^(GW-2) (one of the four above 2^(GW-1)) that run to their end, so that every
     * entry's kndone crosses its two top bits and the kernel finishes (mutant 72 of the a8be06d
     * sample: bit GW-2 of entry 3's kndone stuck at 0); the phase ends when the four have finished */
    int dir_fin;
    uint64_t n_dirfin, n_finok;
    uint64_t dir_tb, n_dirhi, n_hiid, n_hiid_last, n_hiid2;
    uint32_t dir_n[4], dir_r[4], dir_m[4], dir_g[4];
    uint32_t lmin, lmax, dmax, xmax, rmax, p_race;
    uint32_t p_rq, p_rqbad, rq_gmax;  /* request port: percent per cycle, percent illegal, largest rq_give */
    /* request unit as the ports imply (docs/sm_driver.md "QoS") */
    int klast[KN];              /* latest instance of entry k (alive or not: the driver keeps its shape) */
    int rq_busy;                /* a request was accepted and its ack has not come */
    int rq_inval;               /* ... it was invalid: REFUSED in the next cycle */
    uint64_t rq_acc;            /* its acceptance cycle */
    uint32_t rq_k, rq_s, rq_g[KN];
    uint8_t rq_p0[KN];          /* part[rq_s][*] at the acceptance */
    int rq_tchg;                /* a launch or kernel finish since the acceptance */
    uint64_t pend;              /* rq_pend mirror, per SM: set by a VICTIM grant, cleared per the spec */
    int pend_k[NSM];            /* rq_pk mirror: the victim of SM s's pending grant */
    int xpd_v, xpd;             /* pdirty predicted for the next cycle (docs/sm_driver.md "QoS controls") */
    /* QOS filling: the previous cycle's partition-unit step (which kernels it could add) */
    int pf_v;
    uint32_t pf_cur, pf_pc[KN];
    uint64_t pf_allowed; /* KN bits (up to 64) */
    uint64_t n_qfill;
    /* partition-run coverage (docs/sm_driver.md "Partitions", pgot): a run is checked when it ends if
     * the kernel table, cfg_max2 and QOS-or-not stayed as at its first filling cycle */
    drv_pcov_t pcov;
    /* host view */
    int kal[KN];                /* current instance of entry k, or -1 */
    uint64_t hmask[KN];         /* kmask as written */
    uint64_t spart[KN];         /* SPART partition */
    int kmq[4 * KN], nkmq;      /* mask changes to send (entry) */
    uint64_t kmm[4 * KN];       /* and their masks */
    uint32_t prt_obs;           /* the rotation timer prt of the last cycle observed (directed: timer drop) */
    uint64_t n_tdrop_opp, n_tdrop, n_tdrop_hit; /* chances of the directed timer drop, mask changes sent for it;
                                                 * cycles with prt = 1 and a start (by any cause) */
    uint64_t seq;
    int exp_rej, exp_kdone, exp_kdone_k;
    int kl_pred;                /* this cycle's launch: predicted accept */
    /* ledger */
    inst_t *in;
    int nin, capin;
    /* driver view from its ports */
    dslot_t ds[NSM][NT];
    ocmd_t oc[NSM];
    int pbn;                    /* commands holding pb in flight */
    int rp_v[NSM];              /* response delivered, not yet processed */
    uint32_t rp_op[NSM], rp_tb[NSM], rp_st[NSM];
    tmask_t dpend[NSM];         /* tb_done delivered, not yet processed (the driver's dp) */
    tmask_t xspre[NSM], xsfill[NSM]; /* spre / sfill as the ports imply */
    int dinst[NSM][NT];
    uint32_t did[NSM][NT];
    eq_t eq[PQ];
    struct { int v, inst; uint32_t id, n, r, m; } ctx[PQ];  /* context memory, one block per PTBQ entry */
    /* responder */
    rsm_t sm[NSM];
    /* per-cycle derived usage (from ds) */
    uint32_t eu[NSM][DRV_NRES], eU[KN][DRV_NRES], ecnt[NSM][KN];
    int eks[NSM][KS];
    /* watchdogs */
    int wd_k;
    uint64_t wd_n, wd_max, wd_bound, wd_worst;
    int plan_exp_kc;
    int plan_was, plan_applies; /* plan_v and "decision 3 applies" of the previous cycle */
    /* decision pipeline (docs/sm_driver.md "Decision pipeline", drv_pipe = 1): the choices this
     * environment validated (the model's ch of each cycle), held as the pipeline must hold them:
     * hp1 = the previous cycle's choice, hp2 = the one executed in this cycle */
    int hp1_v, hp2_v;
    uint32_t hp1_kind, hp1_s, hp1_k, hp2_kind, hp2_s, hp2_k;
    uint64_t hp1_r, hp2_r;
    uint64_t n_stale, n_choice[6];    /* executions that did nothing (a stale choice); choices by kind */
    /* statistics */
    uint64_t n_launch, n_rej, n_kdone, n_fresh, n_rerun, n_restore, n_cmd[4], n_st[6], n_evict, n_resv, n_plan,
        n_planstart, n_done, n_rst, n_km, n_pol[8], max_inst_alive;
    uint64_t n_rq, n_rqign, n_ack[4], n_rqlat_max, n_qos_cyc;
    /* QoS controls: relaunches with kl_keep that kept partitions (no pdirty), VICTIM grants while another
     * SM's grant was pending, no-work refusals, pend refusals, evictions under PGPU = 0 while pb,
     * QOS cycles by cfg_qctl */
    uint64_t n_keepkept, n_pend2, n_nowork, n_pendref, n_evpb, n_qctl[4];
};

static void phase(drv_env_t *e);
static void dir_phase(drv_env_t *e);
static int dir_gen(drv_env_t *e, drv_stim_t *st);
static int lowest_free_q(const drv_env_t *e);
static uint64_t rand_smmask(drv_env_t *e);
uint64_t drv_env_cycle(const drv_env_t *e) { return e->cycle; }

static inline int bit(uint64_t v, int i) { return (int)((v >> i) & 1); }
/* QOS with per-SM preemptions (cfg_qctl PGPU = 0): evictions neither wait for nor set pb */
static inline int evict_sm(const drv_in_t *in)
{
    return in->cfg_policy == DRV_QOS && !(in->cfg_qctl & DRV_QC_PGPU);
}
#define viol(e, ...) env_viol((e)->cycle, __VA_ARGS__) /* cosim_env.h */

static void d_of(const inst_t *I, uint32_t d[DRV_NRES])
{
    d[DRV_R_REG] = I->n * I->r, d[DRV_R_SL] = I->m, d[DRV_R_W] = I->n, d[DRV_R_TB] = 1;
}
static const uint32_t mult[DRV_NRES] = {SMK_M_REG, SMK_M_SL, SMK_M_W, SMK_M_TB};
static const uint32_t lim[DRV_NRES] = {LIM_REG, LIM_SL, LIM_W, LIM_TB};
static uint32_t share(const uint32_t u[DRV_NRES])
{
    uint32_t r = 0;
    for (int x = 0; x < DRV_NRES; x++)
        if (u[x] * mult[x] > r)
            r = u[x] * mult[x];
    return r;
}

/* ---- responder reset */
static void rsm_reset(rsm_t *p)
{
    memset(p, 0, sizeof *p);
    for (int t = 0; t < NT; t++)
        p->tinst[t] = -1;
}

static void env_reset(drv_env_t *e)
{
    for (int i = 0; i < e->nin; i++)
        e->in[i].alive = 0;
    for (int k = 0; k < KN; k++)
        e->kal[k] = -1, e->hmask[k] = 0, e->klast[k] = -1;
    memset(e->ds, 0, sizeof e->ds);
    memset(e->oc, 0, sizeof e->oc);
    memset(e->rp_v, 0, sizeof e->rp_v);
    memset(e->dpend, 0, sizeof e->dpend);
    memset(e->xspre, 0, sizeof e->xspre), memset(e->xsfill, 0, sizeof e->xsfill);
    memset(e->eq, 0, sizeof e->eq);
    memset(e->ctx, 0, sizeof e->ctx);
    e->pbn = 0, e->nkmq = 0;
    e->exp_rej = 0, e->exp_kdone = 0;
    e->wd_k = -1, e->wd_n = 0;
    e->plan_exp_kc = -1;
    e->plan_was = e->plan_applies = 0;
    e->hp1_v = e->hp2_v = 0, e->hp1_kind = e->hp2_kind = 0, e->hp1_s = e->hp2_s = e->hp1_k = e->hp2_k = 0;
    e->hp1_r = e->hp2_r = 0;
    e->rq_busy = e->rq_inval = e->rq_tchg = 0, e->pend = 0, e->pf_v = 0, e->xpd_v = 0;
    memset(e->pend_k, 0, sizeof e->pend_k);
    drv_pcov_reset(&e->pcov);
    for (int s = 0; s < NSM; s++)
        rsm_reset(&e->sm[s]);
}

drv_env_t *drv_env_new(uint64_t seed)
{
    drv_env_t *e = calloc(1, sizeof *e);
    if (!e) abort();
    rng_seed(&e->r, seed);
    rng_seed(&e->rp, seed ^ UINT64_C(0x7e1e9a1f5eed0001));
    env_reset(e);
    phase(e);
    return e;
}

void drv_env_free(drv_env_t *e)
{
    if (!e) /* as free(NULL): a harness that ends before its start (--help, a bad option) */
        return;
    for (int i = 0; i < e->nin; i++)
        free(e->in[i].st), free(e->in[i].ncomp);
    free(e->in), free(e);
}

/* ================================================================== stimulus */
static void spart_partition(drv_env_t *e)
{
    rng_t *r = &e->r;
    for (int k = 0; k < KN; k++)
        e->spart[k] = 0;
    /* every SM to one entry; with few SMs some entries get none */
    const int nk = 1 + (int)rng_below(r, KN);
    for (int s = 0; s < NSM; s++)
        e->spart[rng_below(r, (uint32_t)nk)] |= 1ULL << s;
    e->nkmq = 0;
    for (int k = 0; k < KN; k++)
        if (e->kal[k] >= 0 && e->hmask[k] != e->spart[k])
            e->kmm[e->nkmq] = e->spart[k], e->kmq[e->nkmq++] = k;
}

static void phase(drv_env_t *e)
{
    rng_t *r = &e->r;
    if (e->dir && e->dir_hi)
        e->rst_next = 1;
    e->dir_hi = 0;
    const int longp = rng_chance(r, 1, 6);
    e->phase_end = e->cycle + (longp ? 5000 + rng_below(r, 20000) : 300 + rng_below(r, 4000));
    e->nphase++;
    /* FCFS, SPART, SMK_OD, SMK_P, QOS; every 5th phase QOS with requests (every seed has them) */
    const int fq = e->nphase % 5 == 3;
    /* SMK_OD pressure (1 phase in 5 besides the QOS ones): Algorithm 1 runs only under SMK_OD when the
     * policy's pick does not fit, so these phases keep the SMs full with long-lived TBs of many kernels */
    const int odp = !fq && rng_chance(r, 1, 5);
    e->n_odp += odp;
    e->policy = fq ? DRV_QOS : odp ? DRV_SMK_OD : rng_below(r, 5);
    e->max2 = rng_chance(r, 1, 4);
    e->evict = rng_chance(r, 1, 2) ? OP_SAVE : OP_DRAIN;
    e->pmode = rng_chance(r, 1, 2) ? OP_SAVE : OP_DROP;
    e->qctl = rng_below(r, 4); /* cfg_qctl: KEEP, PGPU (all four values) */
    e->p_keep = rng_chance(r, 1, 4) ? 100 : rng_below(r, 101);
    e->p_launch = 2 + rng_below(r, rng_chance(r, 1, 3) ? 300 : 40); /* per mille */
    e->p_busy = rng_below(r, 15);                                     /* percent */
    e->p_bad = rng_below(r, 12);                                      /* percent */
    e->p_km = rng_chance(r, 1, 3) ? 1 + rng_below(r, 8) : 0;          /* per mille */
    e->shape = rng_below(r, 4);
    e->gstyle = rng_below(r, 4);
    /* one shape for the whole phase (1 in 4; 1 in 2 under SMK_P and QOS, which fill partitions): kernels
     * with equal TB counts tie on rK and on the partition key (tie rules; the low share bits of a dominant
     * register or shared-memory demand) */
    if (rng_chance(r, 1, e->policy == DRV_SMK_P || e->policy == DRV_QOS ? 2 : 4)) {
        e->shape = 4, e->n_fixs++;
        const uint32_t rm = RMAX, lo = rm > 40 ? 33 : rm / 2;
        switch (rng_below(r, 5)) {
        case 4: { /* near ties: a TB's register, line and warp terms (docs/sm_driver.md "share") within
                   * a few units of the warp term T = n x M_W, often equal, so that max4's six compares
                   * decide at their boundaries, on one TB and on kernel and SM sums of them (aimed at
                   * mutants 10 and 57 of the sample, a compare's operand off by 16 near a tie, which
                   * still survive: docs/mutation_notes.md) */
            const uint32_t nn = 1 + rng_below(r, NW / 4 > 1 ? NW / 4 : 1), t = nn * SMK_M_W;
            const int da = rng_chance(r, 1, 3) ? 0 : (int)rng_below(r, 33) - 16; /* register term - T */
            const int db = rng_chance(r, 1, 3) ? 0 : (int)rng_below(r, 9) - 4;   /* (line term - T) / M_SL */
            /* no line term on an SM without shared memory (M_SL = 0) */
            const int rr = ((int)t + da) / (int)(nn * SMK_M_REG),
                      mm = SMK_M_SL ? (int)(t / (SMK_M_SL ? SMK_M_SL : 1)) + db : 0;
            e->fs_n = nn, e->fs_r = rr < 0 ? 0 : rr > (int)rm ? rm : (uint32_t)rr;
            e->fs_m = mm < 0 ? 0 : (uint32_t)mm;
            break;
        }
        case 0:
        case 3: /* register-dominant */
            e->fs_n = 1 + rng_below(r, NW < 4 ? NW : 4), e->fs_r = lo + rng_below(r, rm - lo + 1);
            e->fs_m = rng_below(r, 9);
            break;
        case 1: /* shared-memory dominant */
            e->fs_n = 1 + rng_below(r, NW < 2 ? NW : 2), e->fs_r = rng_below(r, 20 > rm ? rm + 1 : 20);
            e->fs_m = LIM_SL / 8 + 1 + rng_below(r, LIM_SL / 4);
            break;
        default: /* mixed */
            e->fs_n = 1 + rng_below(r, NW / 2), e->fs_r = rng_below(r, rm + 1);
            e->fs_m = rng_below(r, LIM_SL / 4 + 1);
            break;
        }
        if (e->fs_n > NW) e->fs_n = NW;
        if (e->fs_n * e->fs_r > LIM_REG) e->fs_r = LIM_REG / e->fs_n;
        if (e->fs_m > LIM_SL) e->fs_m = LIM_SL;
        /* a tie pair (1 in 3 of these phases under SMK_P and QOS, where partitions are filled): even
         * kernels a register-dominant TB worth two of the share's TB terms (register term t2 = 2 M_TB,
         * warp term at most t2, no lines), odd kernels one warp with few registers (TB-dominant). An even
         * kernel at pc = j and an odd one at pc = 2j then tie on the partition key 2j M_TB with the
         * register term deciding the even one's key: mutant 108 of docs/mutation_notes.md, a register
         * term's low bit flipped at 256 on small, which one-shape phases cannot reach (two equal
         * register-dominant kernels at a key of 256 fill the SM's register rows). Drawn from a stream of
         * their own (rp): the phases before the first pair are those of the stream without pairs */
        e->fs_pair = 0;
        if ((e->policy == DRV_SMK_P || e->policy == DRV_QOS) && rng_chance(&e->rp, 1, 3)) {
            const uint32_t t2 = 2 * SMK_M_TB, nw = t2 / SMK_M_W;
            const uint32_t na = nw < 1 ? 1 : nw > NW ? NW : nw, ra = SMK_M_REG ? t2 / (na * SMK_M_REG) : 0;
            const uint32_t rb = SMK_M_TB / (SMK_M_REG ? SMK_M_REG : 1);
            if (SMK_M_REG && ra <= rm && na * ra * SMK_M_REG == t2 && na * ra <= LIM_REG && na * SMK_M_W <= t2) {
                e->fs_pair = 1, e->n_pair++;
                e->fs_n = na, e->fs_r = ra, e->fs_m = 0;
                e->fs2_r = rng_below(&e->rp, (rb < rm ? rb : rm) + 1);
            }
        }
    }
    e->p_cap = rng_below(r, 30), e->p_resv = rng_chance(r, 1, 2) ? rng_below(r, 30) : 0;
    e->p_rst = rng_chance(r, 1, 8);
    static const uint32_t lifes[][2] = {{1, 8}, {5, 60}, {40, 400}, {300, 3000}};
    const int li = (int)rng_below(r, 4);
    e->lmin = lifes[li][0], e->lmax = lifes[li][1];
    static const uint32_t dl[] = {0, 2, 12, 60, 300};
    e->dmax = dl[rng_below(r, 5)], e->xmax = dl[rng_below(r, 5)], e->rmax = dl[rng_below(r, 5)];
    e->p_race = rng_chance(r, 1, 2) ? rng_below(r, 100) : 0;
    if (odp) { /* long TBs, many launches, large grids, no busy or illegal launches */
        e->lmin = 300, e->lmax = 3000;
        e->p_launch = rng_chance(r, 1, 2) ? 40 + rng_below(r, 200) : 5 + rng_below(r, 30);
        e->p_busy = 0, e->p_bad = 0, e->gstyle = 2 + rng_below(r, 2);
        if (e->shape != 4) /* small and large kernels side by side: victims of many small TBs for a large
                            * kernel, so that several resources bind in Algorithm 1 */
            e->shape = 5;
    }
    /* QoS manager's requests: mostly in QOS phases, a few under the other policies (the unit runs
     * under every policy; rq_pend clears there) */
    e->p_rq = e->policy == DRV_QOS ? (rng_chance(r, 1, 6) && !fq ? 0 : 1 + rng_below(r, rng_chance(r, 1, 2) ? 5 : 60))
                                   : (rng_chance(r, 1, 3) ? rng_below(r, 5) : 0);
    e->p_rqbad = rng_below(r, 25);
    e->rq_gmax = rng_chance(r, 1, 2) ? 2 : NT + 1;
    if (e->policy == DRV_SPART) {
        spart_partition(e);
    } else { /* kernels left without SMs by a SPART phase get SMs again */
        e->nkmq = 0;
        for (int k = 0; k < KN; k++)
            if (e->kal[k] >= 0 && !e->hmask[k])
                e->kmm[e->nkmq] = rand_smmask(e), e->kmq[e->nkmq++] = k;
    }
    e->dir = 0;
    if (!fq && !odp && KN >= 2 && rng_chance(r, 1, 6)) /* a victim and a large kernel: two entries */
        dir_phase(e);
    e->wd_k = -1, e->wd_n = 0;
    /* starvation bound: a TB lives at most lmax cycles (TBs of earlier phases at most 3000), an
     * engine command takes at most dmax + xmax + rmax + queueing */
    e->wd_bound = 40000;
}

/* directed Algorithm 1 phase (SMK_OD): see struct drv_env. Entry 0 .. nvk-1 of dir_k are the victims
 * (launched in cycles t0+2, t0+4, grid 64: they keep every slot of every SM busy for the phase), the
 * last one the large kernel (cycle t0+150). */
/* the directed shapes 0..last made legal launches on any configuration: at most NW warps and RMAX
 * registers, n * r within the registers and m within the shared-memory lines (and so within the kl_m
 * field, whose largest value is at least LIM_SL). Never changes a named configuration's draws: their
 * shapes are within these limits (a one-line SM, randcfg seed 7 file 5, had m = 2 put on a 1-bit port) */
static void dir_legal(drv_env_t *e, int last)
{
    for (int i = 0; i <= last; i++) {
        if (e->dir_n[i] > NW) e->dir_n[i] = NW;
        if (e->dir_r[i] > RMAX) e->dir_r[i] = RMAX;
        if (e->dir_n[i] * e->dir_r[i] > LIM_REG) e->dir_r[i] = LIM_REG / e->dir_n[i];
        if (e->dir_m[i] > LIM_SL) e->dir_m[i] = LIM_SL;
    }
}

static void dir_phase(drv_env_t *e)
{
    rng_t *r = &e->r;
    e->dir = 1, e->dir_t0 = e->cycle, e->n_dir++;
    e->phase_end = e->cycle + 2500 + rng_below(r, 2500);
    e->policy = DRV_SMK_OD;
    e->p_launch = 0, e->p_km = 0, e->p_rq = 0, e->p_rst = 0, e->p_bad = 0, e->p_cap = e->p_resv = 0;
    e->nkmq = 0;
    e->lmin = 2500, e->lmax = 5000;
    e->dir_nvk = 1 + (int)rng_below(r, 2);
    if (e->dir_nvk + 1 > KN) /* the victims and the large kernel need distinct entries */
        e->dir_nvk = KN - 1;
    e->dir_pin = e->dir_nvk > 1 && NSM > 1 && rng_chance(r, 1, 2); /* victim i only on SM i */
    uint64_t used = 0;
    for (int i = 0; i <= e->dir_nvk; i++) { /* distinct entries */
        int k;
        do k = (int)rng_below(r, KN); while (used >> k & 1);
        used |= UINT64_C(1) << k, e->dir_k[i] = k;
    }
    const uint32_t rm = RMAX;
    const int bind = (int)rng_below(r, 4); /* 0 warps, 1 shared memory, 2 registers, 3 TB slots */
    for (int i = 0; i < e->dir_nvk; i++) {
        e->dir_g[i] = 64;
        e->dir_n[i] = bind == 0 ? 1 + rng_below(r, NW / LIM_TB > 1 ? NW / LIM_TB : 1) : 1;
        e->dir_r[i] = bind == 2 ? rm / 2 + rng_below(r, rm - rm / 2 + 1) : rng_below(r, 9);
        e->dir_m[i] = bind == 1 ? LIM_SL / LIM_TB / 2 + rng_below(r, LIM_SL / LIM_TB / 2 + 1)
                                : rng_below(r, 3);
    }
    const int b = e->dir_nvk;
    e->dir_g[b] = 1 + rng_below(r, 12);
    e->dir_n[b] = bind == 0   ? NW / 2 + rng_below(r, NW - NW / 2) + 1
                  : bind == 2 ? NW / 4 + rng_below(r, NW / 4) + 1
                              : 1 + rng_below(r, 4);
    e->dir_r[b] = bind == 2 ? rm : rng_below(r, 9);
    e->dir_m[b] = bind == 1 ? LIM_SL / 4 + rng_below(r, LIM_SL - LIM_SL / 4 + 1) : rng_below(r, 3);
    dir_legal(e, b);
    e->dir_hi = GMAX >= 1023 && GMAX <= 8191 && rng_chance(r, 1, 2);
    e->dir_tb = 0;
    e->dir_fin = !e->dir_hi && GMAX >= 1023 && GMAX <= 8191 && KN >= 4 && rng_chance(r, 1, 3);
    if (e->dir_fin) {
        e->dir_nvk = 4;
        for (int i = 0; i < 4; i++) {
            e->dir_k[i] = (int)((e->n_dirfin * 4 + (uint64_t)i) % KN);
            e->dir_g[i] = (i == (int)(e->n_dirfin % 4) ? (GMAX + 1) / 2 : (GMAX + 1) / 4) + 16 + rng_below(r, 32);
            e->dir_n[i] = 1, e->dir_r[i] = rng_below(r, 9), e->dir_m[i] = rng_below(r, 3);
        }
        e->dir_pin = 0, e->lmin = 1, e->lmax = 4;
        e->phase_end = e->cycle + 200000; /* ended at once when the four have finished */
        e->n_dirfin++;
        dir_legal(e, 3);
        return;
    }
    if (e->dir_hi) { /* warps bind: each victim TB NW / LIM_TB warps, each large TB a whole SM, so one
                      * large TB displaces a whole SM's victims (all PQ entries on small) */
        const uint32_t vn = NW / LIM_TB ? NW / LIM_TB : 1;
        for (int i = 0; i < e->dir_nvk; i++)
            e->dir_g[i] = GMAX - rng_below(r, 32), e->dir_n[i] = vn, e->dir_r[i] = rng_below(r, 9),
            e->dir_m[i] = rng_below(r, 3);
        e->dir_g[b] = 1 + rng_below(r, 4), e->dir_n[b] = NW, e->dir_r[b] = rng_below(r, 9), e->dir_m[b] = rng_below(r, 3);
        dir_legal(e, b);
        e->lmin = 1, e->lmax = 4;
        e->phase_end = e->cycle + 40000; /* set again at the large kernel's launch */
        e->hi_id = (e->n_dirhi & 1) ? (GMAX + 1) / 4 + 16 : (GMAX + 1) / 2 + 16;
        e->n_dirhi++;
    }
}

static int hi_ready(const drv_env_t *e)
{
    for (int i = 0; i < e->dir_nvk; i++) {
        const int a = e->kal[e->dir_k[i]];
        if (a >= 0 && e->in[a].nfresh < e->hi_id)
            return 0;
    }
    return 1;
}

/* this cycle's stimulus of a directed phase: returns 1 when it drove the cycle (reset) */
static int dir_gen(drv_env_t *e, drv_stim_t *st)
{
    rng_t *r = &e->r;
    drv_in_t *in = &st->in;
    const uint64_t c = e->cycle - e->dir_t0;
    if (c == 0) {
        st->rst = 1;
        return 1;
    }
    int i = -1;
    if (e->dir_fin) {
        if (c >= 2 && c <= 8 && !(c & 1))
            i = (int)(c / 2 - 1);
        else if (c > 8) {
            int alive = 0;
            for (int j = 0; j < 4; j++)
                alive |= e->kal[e->dir_k[j]] >= 0;
            if (!alive)
                e->phase_end = e->cycle, e->n_finok++;
        }
    } else if (c == 2) i = 0;
    else if (c == 4 && e->dir_nvk > 1) i = 1;
    else if (e->dir_hi) {
        if (!e->dir_tb && c > 4 && (hi_ready(e) || c > 30000)) /* warm-up over: long lives from now */
            e->dir_tb = e->cycle, e->lmin = 2500, e->lmax = 5000;
        if (e->dir_tb && e->cycle == e->dir_tb + 150)
            i = e->dir_nvk, e->phase_end = e->cycle + 2500 + rng_below(r, 2500);
    } else if (c == 150) i = e->dir_nvk;
    if (i >= 0) {
        in->kl_v = 1, in->kl_k = (uint32_t)e->dir_k[i], in->kl_grid = e->dir_g[i];
        in->kl_mask = e->dir_pin && i < e->dir_nvk ? 1ULL << i : NMASK;
        in->kl_n = e->dir_n[i], in->kl_r = e->dir_r[i], in->kl_m = e->dir_m[i];
        in->kl_qos = 0, in->kl_idem = rng_chance(r, 1, 2), in->kl_adm = DRV_ADM_NONE, in->kl_lim = 1;
    }
    return 0;
}

static uint64_t rand_smmask(drv_env_t *e)
{
    rng_t *r = &e->r;
    if (rng_chance(r, 1, 3))
        return NMASK;
    uint64_t m = rng_next(r) & NMASK;
    if (rng_chance(r, 1, 2))
        m &= rng_next(r);
    if (!m)
        m = 1ULL << rng_below(r, NSM);
    return m;
}

static void gen_shape(drv_env_t *e, drv_in_t *in)
{
    rng_t *r = &e->r;
    uint32_t n, R, M;
    const uint32_t shape = e->shape == 5 ? rng_below(r, 2) : e->shape;
    switch (shape) {
    case 0: /* small */
        n = 1 + rng_below(r, NW < 4 ? NW : 4), R = rng_below(r, 33 > RMAX ? RMAX + 1 : 33), M = rng_below(r, 9);
        break;
    case 4: /* the phase's one shape, or its tie pair's by the kernel's parity */
        n = e->fs_n, R = e->fs_r, M = e->fs_m;
        if (e->fs_pair && (in->kl_k & 1))
            n = 1, R = e->fs2_r, M = 0;
        break;
    case 1: /* large: few per SM */
        n = NW / 4 + rng_below(r, NW - NW / 4) + 1, R = rng_below(r, RMAX + 1), M = rng_below(r, LIM_SL + 1);
        break;
    default: /* mixed */
        n = 1 + rng_below(r, NW / 2), R = rng_below(r, RMAX + 1), M = rng_below(r, LIM_SL / 4 + 1);
        break;
    }
    if (n > NW)
        n = NW;
    if (n * R > LIM_REG)
        R = LIM_REG / n;
    if (M > (uint32_t)SMK_MASK(SMK_SMLN_W)) /* the small shape's 0..8 lines in a narrower kl_m field */
        M = (uint32_t)SMK_MASK(SMK_SMLN_W);
    in->kl_n = n, in->kl_r = R, in->kl_m = M;
    if (rng_chance(r, e->p_bad, 100)) { /* illegal launches: kl_rej */
        switch (rng_below(r, 6)) {
        case 0: in->kl_n = 0; break;
        case 1: in->kl_n = NW + 1 + rng_below(r, (uint32_t)SMK_MASK(SMK_WID_W + 1) - NW); break;
        case 2: in->kl_n = NW, in->kl_r = (uint32_t)SMK_MASK(SMK_REGN_W); break; /* n*R > LIM_REG or R > RMAX */
        case 3: { /* one draw as before; an even draw is mapped to just over the limit (LIM_SL + 1 .. + 4),
                   * so that the launch check's compare is exercised at its boundary (mutation run,
                   * docs/mutation_notes.md: a limit off by a few lines) */
            const uint32_t range = (uint32_t)SMK_MASK(SMK_SMLN_W) - LIM_SL; /* kl_m <= the field's max */
            if (range == 0) { /* the field cannot hold more than LIM_SL lines */
                in->kl_n = 0;
                break;
            }
            const uint32_t rng_ = range ? range : 1; /* (not a constant 0 divisor for the compiler) */
            const uint32_t v = rng_below(r, rng_);
            in->kl_m = LIM_SL + 1 + ((v & 1) ? v : ((v >> 1) % 4) % rng_);
            break;
        }
        case 4: in->kl_grid = 0; break;
        default: in->kl_mask = 0; break;
        }
    }
}

void drv_env_gen(drv_env_t *e, drv_stim_t *st)
{
    rng_t *r = &e->r;
    drv_in_t *in = &st->in;
    memset(st, 0, sizeof *st);
    if (e->cycle >= e->phase_end)
        phase(e);
    in->cfg_policy = e->policy, in->cfg_max2 = e->max2, in->cfg_evict = e->evict, in->cfg_pmode = e->pmode;
    in->cfg_qctl = e->qctl;
    if (e->rst_next) {
        e->rst_next = 0;
        st->rst = 1;
        return;
    }
    if (e->p_rst && rng_chance(r, 1, 4000)) {
        st->rst = 1;
        return;
    }
    if (e->dir && dir_gen(e, st))
        return;
    /* responder outputs: functions of its registered state */
    for (int s = 0; s < NSM; s++) {
        rsm_t *p = &e->sm[s];
        p->done = 0;
        for (tmask_t x = p->run; x; x &= x - 1) {
            const int t = smk_ctz(x);
            if (p->life[t] == 0)
                p->done |= 1ULL << t;
        }
        p->g_f = p->fsm == F_DONE;
        p->rsp_v = 0, p->rsp_op = p->rsp_tb = p->rsp_st = 0, p->rsp_ptr = 0;
        if (p->g_f)
            p->rsp_v = 1, p->rsp_op = p->cur_op, p->rsp_tb = p->cur_tb, p->rsp_st = p->cur_st, p->rsp_ptr = p->cur_ptr;
        else if (p->dpend)
            p->rsp_v = 1, p->rsp_op = OP_DRAIN, p->rsp_tb = (uint32_t)smk_ctz(p->dpend), p->rsp_st = ST_OK;
        in->rsp_v[s] = p->rsp_v, in->rsp_op[s] = p->rsp_op, in->rsp_tb[s] = p->rsp_tb;
        in->rsp_status[s] = p->rsp_st, in->rsp_ptr[s] = p->rsp_ptr;
        in->tb_done[s] = p->done;
        in->wused[s] = p->wused;
    }
    /* host: a launch */
    if (!e->dir && rng_chance(r, e->p_launch, 1000)) {
        int k = -1;
        if (rng_chance(r, e->p_busy, 100)) {
            int c[KN], n = 0;
            for (int j = 0; j < KN; j++)
                if (e->kal[j] >= 0) c[n++] = j;
            if (n) k = c[rng_below(r, (uint32_t)n)];
        } else {
            int c[KN], n = 0;
            for (int j = 0; j < KN; j++)
                if (e->kal[j] < 0 && (e->policy != DRV_SPART || e->spart[j])) c[n++] = j;
            if (n) k = c[rng_below(r, (uint32_t)n)];
        }
        if (k >= 0) {
            in->kl_v = 1, in->kl_k = (uint32_t)k;
            static const uint32_t gmax[] = {3, 12, 60, 400};
            uint32_t g = 1 + rng_below(r, gmax[e->gstyle]);
            in->kl_grid = g > GMAX ? GMAX : g;
            in->kl_mask = e->policy == DRV_SPART ? e->spart[k] : rand_smmask(e);
            in->kl_qos = rng_chance(r, 1, 4), in->kl_idem = rng_chance(r, 1, 2);
            in->kl_keep = rng_chance(r, e->p_keep, 100);
            const uint32_t a = rng_below(r, 100);
            in->kl_adm = a < e->p_cap ? DRV_ADM_CAP : a < e->p_cap + e->p_resv ? DRV_ADM_RESERVE : DRV_ADM_NONE;
            /* mostly small limits (they bind); 1 in 10 a large one: half uniform, half 2^b plus
             * 0..19, b the top bit of GW half the time, else 4 .. GW-2, so that each high bit of
             * klim decides against a TB count (a uniform draw almost never does: klim's top bit
             * stuck at 0 needs 2^(GW-1) + a few; docs/mutation_notes.md, sm_driver) */
            if (!rng_chance(r, 1, 10))
                in->kl_lim = 1 + rng_below(r, 12);
            else if (rng_chance(r, 1, 2))
                in->kl_lim = rng_below(r, 1u << SMK_GRID_W);
            else {
                const uint32_t b = rng_chance(r, 1, 2) ? SMK_GRID_W - 1 : 4 + rng_below(r, SMK_GRID_W - 5);
                in->kl_lim = (1u << b) + rng_below(r, 20);
            }
            if (in->kl_adm == DRV_ADM_CAP && in->kl_lim == 0)
                in->kl_lim = 1;
            gen_shape(e, in);
        }
    }
    /* QoS manager: a request (presented whatever rq_rdy; accepted iff rq_rdy), the lookup port */
    if (e->p_rq && rng_chance(r, e->p_rq, 100)) {
        in->rq_v = 1;
        int c[KN], n = 0;
        for (int j = 0; j < KN; j++)
            if (e->kal[j] >= 0) c[n++] = j;
        if (n && !rng_chance(r, e->p_rqbad, 100)) { /* a kernel in use on an SM of its mask (mostly) */
            const int k = c[rng_below(r, (uint32_t)n)];
            in->rq_k = (uint32_t)k;
            const uint64_t mk = e->hmask[k] & NMASK;
            int sel = -1;
            if (mk) {
                uint32_t i = rng_below(r, (uint32_t)smk_popc(mk));
                for (uint64_t x = mk; x; x &= x - 1)
                    if (i-- == 0) { sel = smk_ctz(x); break; }
            }
            in->rq_sm = sel >= 0 ? (uint32_t)sel : rng_below(r, NSM);
        } else {
            in->rq_k = rng_below(r, 1u << SMK_KID_W), in->rq_sm = rng_below(r, 1u << SMK_SMW);
        }
        in->rq_ret = rng_chance(r, 1, 4); /* a give-back request: SCAN's pass 1 only */
        for (int j = 0; j < KN; j++)
            in->rq_give[j] = rng_chance(r, 1, 8) ? rng_below(r, 1u << (SMK_TBS_W + 1)) : rng_below(r, e->rq_gmax + 1);
    }
    in->lk_s = rng_chance(r, 1, 8) ? rng_below(r, 1u << SMK_SMW) : rng_below(r, NSM);
    in->lk_k = rng_below(r, 1u << SMK_KID_W);
    /* host: mask changes (SPART: the partition, one entry per cycle) */
    if (e->policy == DRV_SPART) {
        if (e->nkmq == 0 && e->p_km && rng_chance(r, e->p_km, 4000)) {
            /* move one SM to another entry */
            const int s = (int)rng_below(r, NSM), k2 = (int)rng_below(r, KN);
            for (int k = 0; k < KN; k++)
                if (bit(e->spart[k], s) && k != k2) {
                    e->spart[k] &= ~(1ULL << s), e->spart[k2] |= 1ULL << s;
                    if (e->kal[k] >= 0) e->kmm[e->nkmq] = e->spart[k], e->kmq[e->nkmq++] = k;
                    if (e->kal[k2] >= 0) e->kmm[e->nkmq] = e->spart[k2], e->kmq[e->nkmq++] = k2;
                }
        }
    } else if (e->p_km && rng_chance(r, e->p_km, 1000)) {
        /* any entry, the one launched in this cycle included (the mask change wins, docs/sm_driver.md
         * "Host ports") */
        int k = (int)rng_below(r, KN);
        /* 1 in 4 with a launch in the cycle: that launch's entry (the rule, cover point c_drv_h_mask_launch;
         * drawn from rp, so the main stream's draws stay as they were) */
        if (in->kl_v && rng_chance(&e->rp, 1, 4))
            k = (int)in->kl_k;
        in->km_v = 1, in->km_k = (uint32_t)k, in->km_mask = rand_smmask(e);
    }
    while (!in->km_v && e->nkmq) {
        const int k = e->kmq[0];
        const uint64_t mk = e->kmm[0];
        e->nkmq--;
        memmove(e->kmq, e->kmq + 1, (size_t)e->nkmq * sizeof e->kmq[0]);
        memmove(e->kmm, e->kmm + 1, (size_t)e->nkmq * sizeof e->kmm[0]);
        if (in->kl_v && (int)in->kl_k == k)
            continue;
        in->km_v = 1, in->km_k = (uint32_t)k, in->km_mask = mk;
    }
    /* directed: the rotation timer's last count in the cycle the partition unit starts (docs/sm_driver.md
     * "Rotation", Timer: its set of pdirty is dropped; cover point c_drv_pu_timer_drop). prt was 3 in the cycle
     * last observed, so it is 1 in the next one; a mask change in this cycle (an entry in use given its own mask
     * again: no mask changes) sets pdirty for that cycle, and the unit starts there if it is idle. Every other
     * such chance (counted, not drawn: the random streams are not touched), so that the timer's own set of
     * pdirty (c_drv_pu_timer) keeps its chances too. */
    if (e->prt_obs == 3 && !in->km_v && (e->n_tdrop_opp++ & 1) == 0)
        for (int k = 0; k < KN; k++)
            if (e->kal[k] >= 0 && !(in->kl_v && (int)in->kl_k == k)) {
                in->km_v = 1, in->km_k = (uint32_t)k, in->km_mask = e->hmask[k] & NMASK;
                e->n_tdrop++;
                break;
            }
}

/* S2 and the engine queue, on this cycle's driver outputs */
void drv_env_react(drv_env_t *e, drv_stim_t *st, const drv_out_t *o)
{
    for (int s = 0; s < NSM; s++) {
        const rsm_t *p = &e->sm[s];
        st->in.set_rej[s] = 0, st->in.cmd_full[s] = 0;
        if (st->rst)
            continue;
        if (o->set_v[s]) {
            const uint32_t t = o->set_tb[s];
            const int ok = t < NT && !bit(p->alloc, (int)t) && !bit(p->run, (int)t) && (o->set_mask[s] & WALL) != 0 &&
                           (o->set_mask[s] & p->wused) == 0;
            st->in.set_rej[s] = !ok;
        }
        st->in.cmd_full[s] = p->qc == QD;
    }
}

/* ================================================================== policy (env's own computation) */
typedef struct {
    const drv_env_t *e;
    const sm_driver_t *m;
    const drv_in_t *in;
    int resv_r;              /* lowest short RESERVE kernel, or -1 */
    uint64_t resv_m;         /* the SMs fits blocks for non-RESERVE kernels (resv_block): kmask of resv_r, or,
                              * for an execution with drv_pipe = 1, the R of its choice */
    uint64_t elig;           /* bit k */
} pctx_t;

static int has_pq(const drv_env_t *e, int k, int *q)
{
    for (int i = 0; i < PQ; i++)
        if ((e->eq[i].st == DRV_Q_SAVED || e->eq[i].st == DRV_Q_RERUN) && e->eq[i].inst == e->kal[k]) {
            if (q) *q = i;
            return 1;
        }
    return 0;
}

static int nks_of(const drv_env_t *e, int s)
{
    int n = 0;
    for (int j = 0; j < KS; j++)
        n += e->eks[s][j] >= 0;
    return n;
}
static int ks_of(const drv_env_t *e, int s, int k)
{
    for (int j = 0; j < KS; j++)
        if (e->eks[s][j] == k) return j;
    return -1;
}

static int fits0(const pctx_t *c, int s, int k) /* fits without resv_block */
{
    const drv_env_t *e = c->e;
    const inst_t *I = &e->in[e->kal[k]];
    if (!bit(e->hmask[k], s))
        return 0;
    uint32_t d[DRV_NRES];
    d_of(I, d);
    for (int x = 0; x < DRV_NRES; x++)
        if (e->eu[s][x] + d[x] > lim[x]) return 0;
    if (ks_of(e, s, k) < 0) {
        const int n = nks_of(e, s);
        if (!(n < KS && (!c->in->cfg_max2 || n < 2))) return 0;
    }
    if ((uint32_t)smk_popc(~c->in->wused[s] & WALL) < I->n)
        return 0;
    if ((c->in->cfg_policy == DRV_SMK_P || c->in->cfg_policy == DRV_QOS) && !(e->ecnt[s][k] < c->m->part[s][k]))
        return 0;
    if (c->m->plan_v && (uint32_t)s == c->m->plan_sm && (uint32_t)k != c->m->plan_kc)
        return 0;
    return 1;
}
static int fits(const pctx_t *c, int s, int k)
{
    const drv_env_t *e = c->e;
    if (e->in[e->kal[k]].adm != DRV_ADM_RESERVE && bit(c->resv_m, s))
        return 0;
    return fits0(c, s, k);
}
static int fits_any(const pctx_t *c, int k)
{
    for (int s = 0; s < NSM; s++)
        if (fits(c, s, k)) return 1;
    return 0;
}

static void pctx_init(pctx_t *c, const drv_env_t *e, const sm_driver_t *m, const drv_in_t *in)
{
    c->e = e, c->m = m, c->in = in, c->resv_r = -1, c->resv_m = 0, c->elig = 0;
    for (int k = 0; k < KN; k++) {
        if (e->kal[k] < 0) continue;
        const inst_t *I = &e->in[e->kal[k]];
        const int work = has_pq(e, k, 0) || I->nfresh < I->grid;
        const int adm_ok = I->adm != DRV_ADM_CAP || e->eU[k][DRV_R_TB] < I->lim;
        if (work && adm_ok) c->elig |= 1ULL << k;
    }
    for (int k = 0; k < KN && c->resv_r < 0; k++) {
        if (!bit(c->elig, k)) continue;
        const inst_t *I = &e->in[e->kal[k]];
        if (I->adm != DRV_ADM_RESERVE || !(e->eU[k][DRV_R_TB] < I->lim)) continue;
        int any = 0;
        for (int s = 0; s < NSM && !any; s++)
            any = fits0(c, s, k);
        if (!any) c->resv_r = k;
    }
    c->resv_m = c->resv_r >= 0 ? e->hmask[c->resv_r] & SMK_MASK(NSM) : 0;
}

/* decision 4: the kernel and SM the policy picks (K = -1: none; S = -1: K picked but does not fit) */
static void choose(const pctx_t *c, int *K, int *S)
{
    const drv_env_t *e = c->e;
    *K = -1, *S = -1;
    const uint32_t pol = c->in->cfg_policy;
    if (pol == DRV_FCFS || pol == DRV_SPART) {
        for (int k = 0; k < KN; k++)
            if (bit(c->elig, k) && fits_any(c, k) && (*K < 0 || e->in[e->kal[k]].seq < e->in[e->kal[*K]].seq))
                *K = k;
        /* FCFS: the lowest SM where K fits; SPART: the lowest share among them (ties: lowest) */
        uint32_t bs = ~0u;
        if (*K >= 0)
            for (int s = 0; s < NSM; s++)
                if (fits(c, s, *K) && (*S < 0 || (pol == DRV_SPART && share(e->eu[s]) < bs)))
                    *S = s, bs = share(e->eu[s]);
    } else if (pol == DRV_SMK_OD || pol == DRV_SMK_P || pol == DRV_QOS) {
        const int pp = pol != DRV_SMK_OD; /* SMK_P and QOS: SMK_P's rule */
        uint32_t best = ~0u;
        for (int k = 0; k < KN; k++) {
            if (!bit(c->elig, k)) continue;
            if (pp && !fits_any(c, k)) continue;
            const uint32_t rk = share(e->eU[k]);
            if (rk < best) best = rk, *K = k;
        }
        if (*K < 0) return;
        uint32_t bs = ~0u;
        int sel = -1;
        for (int s = 0; s < NSM; s++) {
            if (!bit(e->hmask[*K], s)) continue;
            if (pp && !fits(c, s, *K)) continue;
            const uint32_t rs = share(e->eu[s]);
            if (rs < bs) bs = rs, sel = s;
        }
        if (sel >= 0 && (pp || fits(c, sel, *K))) *S = sel;
    }
}

/* ================================================================== monitors */
static void derive(drv_env_t *e)
{
    memset(e->eu, 0, sizeof e->eu), memset(e->eU, 0, sizeof e->eU), memset(e->ecnt, 0, sizeof e->ecnt);
    for (int s = 0; s < NSM; s++) {
        for (int j = 0; j < KS; j++)
            e->eks[s][j] = -1;
        for (int t = 0; t < NT; t++) {
            const dslot_t *d = &e->ds[s][t];
            if (!d->v) continue;
            const inst_t *I = &e->in[d->inst];
            uint32_t dd[DRV_NRES];
            d_of(I, dd);
            for (int x = 0; x < DRV_NRES; x++)
                e->eu[s][x] += dd[x], e->eU[I->k][x] += dd[x];
            e->ecnt[s][I->k]++;
            e->eks[s][d->ks] = I->k;
        }
    }
}

/* the state of the driver against the environment's records (state before this cycle's edge) */
static int check_state(drv_env_t *e, const sm_driver_t *m)
{
    int nv = 0;
    for (int k = 0; k < KN; k++) {
        const int al = e->kal[k] >= 0;
        if (bit(m->kv, k) != al) {
            nv += viol(e, "kv[%d] = %d, expected %d (host view: accepted launches and kdone)", k, bit(m->kv, k), al);
            continue;
        }
        if (!al) continue;
        const inst_t *I = &e->in[e->kal[k]];
        if (m->knext[k] != I->nfresh || m->kndone[k] != I->ndone_drv || m->kgrid[k] != I->grid || m->kn[k] != I->n ||
            m->kr[k] != I->r || m->km[k] != I->m || m->kdreg[k] != I->n * I->r || m->kmask[k] != e->hmask[k] ||
            bit(m->kidem, k) != (int)I->idem || m->kadm[k] != I->adm || m->klim[k] != I->lim)
            nv += viol(e, "kernel entry %d: knext %u kndone %u grid %u n %u r %u m %u kmask 0x%llx adm %u lim %u, expected "
                       "%u %u %u %u %u %u 0x%llx %u %u", k, m->knext[k], m->kndone[k], m->kgrid[k], m->kn[k], m->kr[k],
                       m->km[k], (unsigned long long)m->kmask[k], m->kadm[k], m->klim[k], I->nfresh, I->ndone_drv,
                       I->grid, I->n, I->r, I->m, (unsigned long long)e->hmask[k], I->adm, I->lim);
        for (int j = 0; j < KN; j++)
            if (j != k && e->kal[j] >= 0 && bit(m->kold[k], j) != (e->in[e->kal[j]].seq < I->seq))
                nv += viol(e, "kold[%d] bit %d = %d, but kernel %d was launched %s", k, j, bit(m->kold[k], j), j,
                           e->in[e->kal[j]].seq < I->seq ? "earlier" : "later");
        for (int x = 0; x < DRV_NRES; x++)
            if (m->U[k][x] != e->eU[k][x])
                nv += viol(e, "U[%d][%d] = %u, sum over the driver's slots = %u", k, x, m->U[k][x], e->eU[k][x]);
    }
    for (int s = 0; s < NSM; s++) {
        for (int x = 0; x < DRV_NRES; x++) {
            if (m->u[s][x] != e->eu[s][x])
                nv += viol(e, "u[%d][%d] = %u, sum over the driver's slots = %u", s, x, m->u[s][x], e->eu[s][x]);
            if (e->eu[s][x] > lim[x])
                nv += viol(e, "SM %d resource %d: %u held, limit %u", s, x, e->eu[s][x], lim[x]);
        }
        int nks = 0;
        for (int k = 0; k < KN; k++) {
            if (m->cnt[s][k] != e->ecnt[s][k])
                nv += viol(e, "cnt[%d][%d] = %u, slots held = %u", s, k, m->cnt[s][k], e->ecnt[s][k]);
        }
        for (int j = 0; j < KS; j++) {
            const int use = e->eks[s][j] >= 0;
            nks += use;
            if (bit(m->ksv[s], j) != use || (use && m->ksk[s][j] != (uint32_t)e->eks[s][j]))
                nv += viol(e, "SM %d kernel slot %d: ksv %d ksk %u, slots held say %d (kernel %d)", s, j,
                           bit(m->ksv[s], j), m->ksk[s][j], use, e->eks[s][j]);
        }
        if (m->ksv[s] >> KS)
            nv += viol(e, "SM %d: ksv 0x%x beyond KS", s, m->ksv[s]);
        for (int t = 0; t < NT; t++) {
            const dslot_t *d = &e->ds[s][t];
            if (bit(m->sv[s], t) != d->v) {
                nv += viol(e, "sv[%d][%d] = %d, the ports say %d", s, t, bit(m->sv[s], t), d->v);
                continue;
            }
            if (d->v && (m->sk[s][t] != (uint32_t)e->in[d->inst].k || m->sid[s][t] != d->id))
                nv += viol(e, "slot %d/%d holds kernel %u id %u, the ports say kernel %d id %u", s, t, m->sk[s][t],
                           m->sid[s][t], e->in[d->inst].k, d->id);
        }
        const ocmd_t *c = &e->oc[s];
        if (bit(m->busy, s) != c->v)
            nv += viol(e, "busy[%d] = %d, commands in flight on the ports: %d", s, bit(m->busy, s), c->v);
        if (bit(m->rl_v, s) != e->rp_v[s])
            nv += viol(e, "rl_v[%d] = %d, responses delivered and not processed: %d", s, bit(m->rl_v, s), e->rp_v[s]);
        if (m->dp[s] != e->dpend[s])
            nv += viol(e, "dp[%d] = 0x%llx, tb_done delivered and not processed: 0x%llx", s,
                       (unsigned long long)m->dp[s], (unsigned long long)e->dpend[s]);
        const tmask_t spre = e->xspre[s], sfill = e->xsfill[s];
        if (m->spre[s] != spre || m->sfill[s] != sfill)
            nv += viol(e, "SM %d: spre 0x%llx sfill 0x%llx, expected 0x%llx 0x%llx", s, (unsigned long long)m->spre[s],
                       (unsigned long long)m->sfill[s], (unsigned long long)spre, (unsigned long long)sfill);
        if (bit(m->bpb, s) != (c->v && c->pb))
            nv += viol(e, "bpb[%d] = %d, expected %d", s, bit(m->bpb, s), c->v && c->pb);
    }
    if (e->pbn > 1)
        nv += viol(e, "%d preemption operations in flight", e->pbn);
    if ((int)m->pb != (e->pbn > 0))
        nv += viol(e, "pb = %u, preemption operations in flight: %d", m->pb, e->pbn);
    for (int i = 0; i < PQ; i++) {
        const eq_t *q = &e->eq[i];
        if (m->qst[i] != q->st) {
            nv += viol(e, "PTBQ entry %d: qst %u, expected %u", i, m->qst[i], q->st);
            continue;
        }
        if (q->st == DRV_Q_FREE) continue;
        if (m->qk[i] != (uint32_t)e->in[q->inst].k || m->qid[i] != q->id)
            nv += viol(e, "PTBQ entry %d: kernel %u id %u, expected %d %u", i, m->qk[i], m->qid[i], e->in[q->inst].k, q->id);
        if ((q->st == DRV_Q_PEND || q->st == DRV_Q_REST) && (m->qs[i] != (uint32_t)q->s || m->qt[i] != (uint32_t)q->t))
            nv += viol(e, "PTBQ entry %d: SM %u slot %u, expected %d %d", i, m->qs[i], m->qt[i], q->s, q->t);
    }
    return nv;
}

static int lowest_free_q(const drv_env_t *e)
{
    for (int i = 0; i < PQ; i++)
        if (e->eq[i].st == DRV_Q_FREE) return i;
    return -1;
}

/* decision 1 on SM x: the highest slot of pre(x) whose kernel may not stay (SPART: outside its mask;
 * SMK_P, QOS: above its partition), -1 if none */
static int evict_hi(const drv_env_t *e, const sm_driver_t *m, const drv_in_t *in, int x)
{
    for (int u = NT - 1; u >= 0; u--) {
        const dslot_t *dd = &e->ds[x][u];
        if (!dd->v || bit(e->dpend[x], u)) continue; /* pre(s) = sv & ~spre & ~sfill & ~dp */
        const int kk = e->in[dd->inst].k;
        if (in->cfg_policy == DRV_SPART ? !bit(e->hmask[kk], x) : e->ecnt[x][kk] > m->part[x][kk])
            return u;
    }
    return -1;
}
/* decision 2 on SM x: the highest slot of pre(x) of a non-RESERVE kernel, -1 if none */
static int resv_hi(const drv_env_t *e, int x)
{
    for (int u = NT - 1; u >= 0; u--) {
        const dslot_t *dd = &e->ds[x][u];
        if (dd->v && !bit(e->dpend[x], u) && e->in[dd->inst].adm != DRV_ADM_RESERVE)
            return u;
    }
    return -1;
}

/* TB identity of a driver decision (the model names it, the monitors check it) */
static int check_dispatch(drv_env_t *e, const pctx_t *pc, const drv_stim_t *st, const sm_driver_t *m,
                          const drv_out_t *o, int s)
{
    int nv = 0;
    const drv_in_t *in = &st->in;
    const int k = (int)o->dec_k;
    if (k >= KN || e->kal[k] < 0)
        return viol(e, "dispatch of kernel %d, which is not in use", k);
    inst_t *I = &e->in[e->kal[k]];
    const uint32_t t = o->set_tb[s], id = o->dec_id;
    if (t >= NT || e->ds[s][t].v)
        nv += viol(e, "set-up into slot %u of SM %d, which the driver holds", t, s);
    for (uint32_t u = 0; u < t && u < NT; u++)
        if (!e->ds[s][u].v) { nv += viol(e, "set-up into slot %u of SM %d, slot %u is free (lowest first)", t, s, u); break; }
    if (o->set_nreg[s] != I->r || o->set_smem[s] != I->m || (uint32_t)smk_popc(o->set_mask[s]) != I->n)
        nv += viol(e, "set-up of kernel %d: nreg %u smem %u warps %d, kernel shape %u %u %u", k, o->set_nreg[s],
                   o->set_smem[s], smk_popc(o->set_mask[s]), I->r, I->m, I->n);
    wmask_t wsel = 0, fr = ~in->wused[s] & WALL;
    for (uint32_t j = 0; j < I->n && fr; j++)
        wsel |= fr & -fr, fr &= fr - 1;
    if (o->set_mask[s] != wsel)
        nv += viol(e, "set-up mask 0x%llx, the %u lowest free warps are 0x%llx", (unsigned long long)o->set_mask[s],
                   I->n, (unsigned long long)wsel);
    const int ko = ks_of(e, s, k);
    int kexp = ko;
    if (kexp < 0)
        for (int j = 0; j < KS && kexp < 0; j++)
            if (e->eks[s][j] < 0) kexp = j;
    if ((int)o->set_ks[s] != kexp)
        nv += viol(e, "set-up kernel slot %u, expected %d", o->set_ks[s], kexp);
    if (ko < 0 && in->cfg_max2 && nks_of(e, s) >= 2)
        nv += viol(e, "MAX2: a third kernel on SM %d", s);
    if (!fits(pc, s, k))
        nv += viol(e, "kernel %d set up on SM %d where it does not fit", k, s);
    int q = -1;
    const int hp = has_pq(e, k, &q);
    if (o->dec_kind == DRV_DEC_NEW) {
        if (hp)
            nv += viol(e, "new TB id %u of kernel %d while PTBQ entry %d holds its %s TB %u", id, k, q,
                       e->eq[q].st == DRV_Q_SAVED ? "SAVED" : "RERUN", e->eq[q].id);
        if (id != I->nfresh || id >= I->grid)
            nv += viol(e, "fresh TB id %u of kernel %d: expected %u (grid %u)", id, k, I->nfresh, I->grid);
        else if (I->st[id] != T_NONE)
            nv += viol(e, "TB %u of kernel %d set up fresh twice (state %s)", id, k, tname[I->st[id]]);
        if (!o->set_go[s] || o->cmd_v[s])
            nv += viol(e, "fresh set-up with go %u and a command %u", o->set_go[s], o->cmd_v[s]);
    } else {
        if (!hp || (int)o->dec_q != q)
            nv += viol(e, "%s from PTBQ entry %u, expected the lowest SAVED/RERUN entry of kernel %d (%d)",
                       o->dec_kind == DRV_DEC_RERUN ? "rerun" : "restore", o->dec_q, k, hp ? q : -1);
        const int want = o->dec_kind == DRV_DEC_RERUN ? DRV_Q_RERUN : DRV_Q_SAVED;
        if (o->dec_q >= PQ || e->eq[o->dec_q].st != want || e->eq[o->dec_q].inst != e->kal[k] ||
            e->eq[o->dec_q].id != id)
            return nv + viol(e, "%s of kernel %d id %u from PTBQ entry %u, which does not hold it",
                             o->dec_kind == DRV_DEC_RERUN ? "rerun" : "restore", k, id, o->dec_q);
        if (I->st[id] != (o->dec_kind == DRV_DEC_RERUN ? T_DROPPED : T_SAVED))
            nv += viol(e, "TB %u of kernel %d dispatched as %s while %s", id, k,
                       o->dec_kind == DRV_DEC_RERUN ? "rerun" : "restore", tname[I->st[id]]);
        if (o->dec_kind == DRV_DEC_RERUN && (!o->set_go[s] || o->cmd_v[s]))
            nv += viol(e, "rerun set-up with go %u and a command %u", o->set_go[s], o->cmd_v[s]);
        if (o->dec_kind == DRV_DEC_RESTORE) {
            if (o->set_go[s] || !o->cmd_v[s] || o->cmd_op[s] != OP_RESTORE || o->cmd_tb[s] != t ||
                o->cmd_ptr[s] != (uint64_t)o->dec_q * CTX)
                nv += viol(e, "restore: set-up go %u, command %u op %u slot %u ptr 0x%llx; expected go 0 and RESTORE "
                           "of slot %u ptr 0x%llx in the same cycle", o->set_go[s], o->cmd_v[s], o->cmd_op[s],
                           o->cmd_tb[s], (unsigned long long)o->cmd_ptr[s], t, (unsigned long long)o->dec_q * CTX);
            if (e->oc[s].v)
                nv += viol(e, "restore on SM %d with a command in flight", s);
            if (!e->ctx[o->dec_q].v || e->ctx[o->dec_q].inst != e->kal[k] || e->ctx[o->dec_q].id != id)
                nv += viol(e, "restore of kernel %d id %u from context %u, which does not hold it", k, id, o->dec_q);
        }
    }
    /* set_id: the TB id of the set-up (knext for a new TB, the entry's id for a RERUN / RESTORE) */
    const uint32_t xid = o->dec_kind == DRV_DEC_NEW ? I->nfresh : hp ? e->eq[q].id : ~0u;
    if (o->set_id[s] != (xid & GMAX))
        nv += viol(e, "set_id[%d] = %u, the TB id of the set-up is %u", s, o->set_id[s], xid);
    (void)m;
    return nv;
}

static int check_command(drv_env_t *e, const pctx_t *pc, const drv_stim_t *st, const sm_driver_t *m,
                         const drv_out_t *o, int s)
{
    (void)pc;
    int nv = 0;
    const drv_in_t *in = &st->in;
    const uint32_t t = o->cmd_tb[s], op = o->cmd_op[s];
    if (e->oc[s].v)
        return viol(e, "command on SM %d while its command of cycle %llu is unanswered", s, (unsigned long long)e->oc[s].cyc);
    if (t >= NT || !e->ds[s][t].v)
        return viol(e, "command %u on slot %u of SM %d, which the driver does not hold", op, t, s);
    const dslot_t *d = &e->ds[s][t];
    const inst_t *I = &e->in[d->inst];
    const int k = I->k;
    if (o->dec_sm != (uint32_t)s || o->dec_slot != t)
        nv += viol(e, "decision names SM %u slot %u, the command is on %d/%u", o->dec_sm, o->dec_slot, s, t);
    if (op == OP_DROP && !I->idem)
        nv += viol(e, "DROP of kernel %d, which is not idempotent", k);
    if (o->cmd_idem[s] != I->idem)
        nv += viol(e, "command of kernel %d with cmd_idem %u, kidem %u", k, o->cmd_idem[s], I->idem);
    if (bit(e->dpend[s], (int)t))
        nv += viol(e, "command %u on slot %u of SM %d, whose TB's completion is latched (not in pre)", op, t, s);
    if (op == OP_DRAIN && o->cmd_ptr[s] != 0)
        nv += viol(e, "DRAIN with pointer 0x%llx", (unsigned long long)o->cmd_ptr[s]);
    const int pbop = o->dec_kind == DRV_DEC_PLAN_PRE || o->dec_kind == DRV_DEC_RESV ||
                     (o->dec_kind == DRV_DEC_EVICT && op == OP_SAVE && !evict_sm(in));
    if (o->dec_kind == DRV_DEC_EVICT && !evict_sm(in) && e->pbn)
        nv += viol(e, "an eviction while pb (cfg_qctl %u)", in->cfg_qctl);
    if (o->dec_kind == DRV_DEC_EVICT && evict_sm(in) && e->pbn)
        e->n_evpb++;
    if (pbop && e->pbn)
        nv += viol(e, "a second preemption operation while one is in flight");
    if (op == OP_SAVE || op == OP_DROP) {
        const int lq = lowest_free_q(e);
        if ((int)o->dec_q != lq)
            nv += viol(e, "%s takes PTBQ entry %u, the lowest FREE entry is %d", op == OP_SAVE ? "SAVE" : "DROP", o->dec_q, lq);
        if (o->cmd_ptr[s] != (uint64_t)o->dec_q * CTX)
            nv += viol(e, "SAVE/DROP pointer 0x%llx, entry %u's context is at 0x%llx", (unsigned long long)o->cmd_ptr[s],
                       o->dec_q, (unsigned long long)o->dec_q * CTX);
        if (o->dec_q < PQ && e->ctx[o->dec_q].v)
            nv += viol(e, "SAVE into context %u, which holds the unrestored context of kernel %d id %u", o->dec_q,
                       e->in[e->ctx[o->dec_q].inst].k, e->ctx[o->dec_q].id);
    }
    /* highest eligible slot of the SM */
    int hi = -1;
    switch (o->dec_kind) {
    case DRV_DEC_EVICT:
        if (op != (in->cfg_evict == OP_SAVE ? OP_SAVE : OP_DRAIN))
            nv += viol(e, "eviction with op %u, cfg_evict %u", op, in->cfg_evict);
        if (in->cfg_policy != DRV_SPART && in->cfg_policy != DRV_SMK_P && in->cfg_policy != DRV_QOS)
            nv += viol(e, "eviction under policy %u", in->cfg_policy);
        hi = evict_hi(e, m, in, s);
        if (hi < 0)
            nv += viol(e, "eviction on SM %d, which holds no TB of pre(s) that may not stay", s);
        break;
    case DRV_DEC_RESV:
        if (op != OP_DRAIN)
            nv += viol(e, "reservation drain with op %u", op);
        if (I->adm == DRV_ADM_RESERVE)
            nv += viol(e, "reservation drain of a RESERVE kernel's TB");
        hi = resv_hi(e, s);
        break;
    case DRV_DEC_PLAN_PRE: {
        /* the plan step applies under any cfg_policy once a plan exists (a plan is only started under
         * SMK_OD; models' reading of "Plan step (SMK_OD, plan_v)") */
        if (!m->plan_v || m->plan_left == 0 || m->pb)
            nv += viol(e, "plan step with plan_v %u plan_left %u pb %u", m->plan_v, m->plan_left, m->pb);
        if ((uint32_t)s != m->plan_sm || (uint32_t)k != m->plan_kv)
            nv += viol(e, "plan preempts kernel %d on SM %d, the plan says kernel %u on SM %u", k, s, m->plan_kv, m->plan_sm);
        const uint32_t want = in->cfg_pmode == OP_DROP && I->idem ? OP_DROP : OP_SAVE;
        if (op != want)
            nv += viol(e, "plan preemption with op %u, expected %u (cfg_pmode %u, idempotent %u)", op, want, in->cfg_pmode,
                       I->idem);
        for (int u = NT - 1; u >= 0; u--)
            if (e->ds[s][u].v && !bit(e->dpend[s], u) && e->in[e->ds[s][u].inst].k == k) { hi = u; break; }
        break;
    }
    default:
        nv += viol(e, "command %u on SM %d with decision kind %u", op, s, o->dec_kind);
    }
    if (hi >= 0 && (uint32_t)hi != t)
        nv += viol(e, "command %u on slot %u of SM %d, the highest eligible slot is %d", op, t, s, hi);
    return nv;
}

/* Partition coverage after a partition run (docs/sm_driver.md "Partitions", "What the rule
 * guarantees"; declared in drv_env.h, also used by gpu_env.c), from the caller's own kernel
 * records (shape, QoS flag, mask as written) and the spec's rules only. k is servable on s if in
 * use, allowed on s (mask; under QOS also QoS or rank(k) == floor(s * nq / NSM)) and one TB fits
 * on an empty SM. For a servable kernel with part 0 on every SM and every SM s where it is
 * servable, with New(s) = the kernels whose first partition > 0 is on s: |New(s)| == KSe (KS, or
 * min(KS, 2) with cfg_max2), or one TB of k does not fit next to one TB of each of New(s). And
 * the counting form: if all servable kernels share one set S of SMs and their number A <= |S|
 * (or A <= |S| x KSe and any KSe of them fit together), every one has a partition somewhere.
 * Checked in the cycle after the run's last step (pact 1 -> 0), for runs whose kernel table,
 * cfg_max2 and QOS-ness were constant over the run.
 * Rotation ("Rotation"): with T = the run's turn (the model's ptop when the run started) and the
 * starved kernels = servable somewhere, part 0 on every SM: T is never starved (at its first
 * servable SM it is the first pick); the turn after the run (ptop, prr) is the first starved kernel
 * at or after the run's prr, cyclically, and prr the one after it (no starved kernel: ptop 0, prr
 * unchanged); no kernel is starved by more than KN consecutive checked runs; and under SMK_P a run
 * that starved a kernel is followed by pdirty (or a run) at the latest part_rotate cycles after
 * this check. */

void drv_pcov_reset(drv_pcov_t *c)
{
    c->on = 0, c->due = 0;
    memset(c->streak, 0, sizeof c->streak);
}

int drv_pcov_step(drv_pcov_t *c, const sm_driver_t *m, const int live[DRV_KN_], const uint32_t dsh[DRV_KN_][DRV_NRES],
                  const uint64_t mask[DRV_KN_], const int kq[DRV_KN_], uint32_t cfg_policy, uint32_t cfg_max2,
                  uint64_t cycle)
{
    int nv = 0;
    const uint32_t pact = m->pact;
    const uint8_t(*part)[DRV_KN_] = (const uint8_t(*)[DRV_KN_])m->part;
    const int qos = (cfg_policy & 7) == DRV_QOS, max2 = (int)(cfg_max2 & 1);
    if (c->due) { /* the rotation timer of the last starving SMK_P run */
        if (m->pdirty || pact)
            c->due = 0;
        else if (cycle >= c->due) {
            nv += env_viol(cycle, "rotation: no partition run pending %d cycles after a run that starved a kernel",
                            SMK_PART_ROT);
            c->due = 0;
        }
    }
    if (pact) {
        int same = c->on && c->qos == qos && c->max2 == max2;
        for (int k = 0; k < KN && same; k++)
            same = c->live[k] == !!live[k] &&
                   (!live[k] || (c->mask[k] == mask[k] && c->kq[k] == !!kq[k] && !memcmp(c->d[k], dsh[k], sizeof c->d[k])));
        c->pol = (int)(cfg_policy & 7); /* the policy of the run's last cycle (the timer's) */
        if (!c->on) {
            c->on = 1, c->ok = 1, c->qos = qos, c->max2 = max2;
            c->top0 = m->ptop, c->prr0 = m->prr;
            for (int k = 0; k < KN; k++) {
                c->live[k] = !!live[k], c->mask[k] = live[k] ? mask[k] : 0, c->kq[k] = live[k] && kq[k];
                for (int x = 0; x < DRV_NRES; x++)
                    c->d[k][x] = live[k] ? dsh[k][x] : 0;
            }
        } else if (!same) {
            c->ok = 0;
        }
        return nv;
    }
    if (!c->on)
        return nv;
    c->on = 0;
    if (!c->ok) { /* streaks count consecutive checked runs */
        memset(c->streak, 0, sizeof c->streak);
        return nv;
    }
    c->n_run++;
    const int pq = c->qos, kse = c->max2 && KS > 2 ? 2 : KS;
    uint64_t sv[KN]; /* SMs where k is servable */
    int nq = 0, rk[KN];
    for (int k = 0; k < KN; k++)
        nq += c->live[k] && !c->kq[k];
    for (int k = 0, rank = 0; k < KN; k++) {
        sv[k] = 0;
        rk[k] = rank;
        if (!c->live[k]) continue;
        int fit = 1;
        for (int x = 0; x < DRV_NRES; x++)
            fit &= c->d[k][x] <= lim[x];
        for (int s = 0; s < NSM && fit; s++)
            if (bit(c->mask[k], s) && (!pq || c->kq[k] || rank == s * nq / NSM)) sv[k] |= 1ULL << s;
        rank += !c->kq[k];
    }
    /* first[j]: the lowest SM with part[s][j] > 0, or NSM */
    int first[KN];
    for (int j = 0; j < KN; j++) {
        first[j] = NSM;
        for (int s = NSM - 1; s >= 0; s--)
            if (part[s][j]) first[j] = s;
        if (first[j] < NSM && !c->live[j])
            nv += env_viol(cycle, "partition run: part[%d][%d] = %u for an entry not in use", first[j], j,
                            part[first[j]][j]);
    }
    /* pgot before the filling of each SM (the spec's update, from the run's own part values) */
    uint64_t pg[DRV_NSM_ + 1], lv = 0;
    for (int k = 0; k < KN; k++)
        lv |= (uint64_t)c->live[k] << k;
    pg[0] = 0;
    for (int s = 0; s < NSM; s++) {
        uint64_t g = pg[s];
        for (int j = 0; j < KN; j++)
            g |= (uint64_t)(part[s][j] != 0) << j;
        pg[s + 1] = (g & lv) == lv ? 0 : g;
    }
    for (int k = 0; k < KN; k++) {
        if (!sv[k] || first[k] < NSM) continue;
        c->n_zero++;
        /* last chance (the lat tie-break): at the last SM L where k is servable it has lat = 0 and
         * pgot = 0, so only the kernels ordered before it in the key-0 round (pgot 0, lat 0, higher
         * index) can have taken L's kernel slots or its room: P = those with part[L] > 0 */
        const int L = 63 - __builtin_clzll(sv[k]);
        const uint64_t above = L + 1 < 64 ? ~0ULL << (L + 1) : 0;
#define LAT(j) ((c->mask[j] & above) != 0 && (!pq || c->kq[j] || (L + 1 < NSM && rk[j] == (L + 1) * nq / NSM)))
        if (!LAT(k) && !(c->top0 >> k & 1)) { /* (a starved turn is a violation below) */
            int np = 0, over = 0;
            uint32_t sum[DRV_NRES] = {0, 0, 0, 0};
            for (int j = 0; j < KN; j++) /* ordered before k: the turn, or lat 0 and a higher index */
                if (j != k && part[L][j] && !(pg[L] >> j & 1) && ((c->top0 >> j & 1) || (j > k && !LAT(j)))) {
                    np++;
                    for (int x = 0; x < DRV_NRES; x++)
                        sum[x] += c->d[j][x];
                }
            for (int x = 0; x < DRV_NRES; x++)
                over |= sum[x] + c->d[k][x] > lim[x];
            c->n_last++;
            if (np < kse && !over)
                nv += env_viol(cycle, "partition run: kernel %d has partition 0 on every SM, but on SM %d, its last chance "
                                "(lat 0, pgot 0), only %d kernel(s) ordered before it got a partition (KSe %d) and its TB "
                                "fits next to them", k, L, np, kse);
        }
#undef LAT
        if (c->top0 >> k & 1)
            nv += env_viol(cycle, "rotation: kernel %d had the run's turn (ptop) and is servable on SM %d, but has "
                            "partition 0 on every SM", k, __builtin_ctzll(sv[k]));
        for (int s = 0; s < NSM; s++) {
            if (!bit(sv[k], s)) continue;
            int nnew = 0, over = 0;
            uint32_t sum[DRV_NRES] = {0, 0, 0, 0};
            for (int j = 0; j < KN; j++)
                if (first[j] == s) {
                    nnew++;
                    for (int x = 0; x < DRV_NRES; x++)
                        sum[x] += c->d[j][x];
                }
            for (int x = 0; x < DRV_NRES; x++)
                over |= sum[x] + c->d[k][x] > lim[x];
            if (nnew < kse && !over)
                nv += env_viol(cycle, "partition run: kernel %d has partition 0 on every SM, but on SM %d (where it is "
                                "servable) only %d kernel(s) got their first partition (KSe %d) and its TB fits next "
                                "to them", k, s, nnew, kse);
        }
    }
    /* rotation: the next turn, streaks, the timer */
    uint64_t stv = 0;
    for (int k = 0; k < KN; k++)
        if (sv[k] && first[k] == NSM) stv |= 1ULL << k;
    uint64_t etop = 0;
    uint32_t eprr = c->prr0;
    if (stv) {
        const uint64_t hi = stv & ~SMK_MASK(c->prr0);
        const int t = __builtin_ctzll(hi ? hi : stv);
        etop = 1ULL << t, eprr = t + 1 < KN ? (uint32_t)t + 1 : 0;
        c->n_rot++;
        if (c->pol == DRV_SMK_P)
            c->due = cycle + SMK_PART_ROT;
    }
    c->n_turn += c->top0 != 0;
    if (m->ptop != etop || m->prr != eprr)
        nv += env_viol(cycle, "rotation: after the run ptop = %#llx, prr = %u; expected %#llx, %u (starved %#llx, "
                        "prr at the start %u)", (unsigned long long)m->ptop, m->prr, (unsigned long long)etop, eprr,
                        (unsigned long long)stv, c->prr0);
    for (int k = 0; k < KN; k++) {
        c->streak[k] = stv >> k & 1 ? c->streak[k] + 1 : 0;
        if (c->streak[k] > c->max_streak)
            c->max_streak = c->streak[k];
        if (c->streak[k] > KN)
            nv += env_viol(cycle, "rotation: kernel %d starved by %u consecutive partition runs (at most KN = %d)", k,
                            c->streak[k], KN);
    }
    /* counting form */
    uint64_t S = 0;
    int A = 0, same = 1;
    for (int k = 0; k < KN; k++) {
        if (!sv[k]) continue;
        if (A && sv[k] != S) same = 0;
        S = sv[k], A++;
    }
    if (A && same) {
        const int ns = smk_popc(S);
        int light = 1; /* any kse of them fit together: the kse largest demands of each resource */
        for (int x = 0; x < DRV_NRES && light; x++) {
            uint32_t v[KN], sum = 0;
            int n = 0;
            for (int k = 0; k < KN; k++)
                if (sv[k]) v[n++] = c->d[k][x];
            for (int i = 0; i < kse && i < n; i++) { /* partial selection sort, descending */
                int b = i;
                for (int j = i + 1; j < n; j++)
                    if (v[j] > v[b]) b = j;
                const uint32_t t = v[i];
                v[i] = v[b], v[b] = t;
                sum += v[i];
            }
            light = sum <= lim[x];
        }
        if (A <= ns || (light && A <= ns * kse)) {
            c->n_count++;
            for (int k = 0; k < KN; k++)
                if (sv[k] && first[k] == NSM)
                    nv += env_viol(cycle, "partition run: %d servable kernels on the same %d SMs (KSe %d, %s), but "
                                    "kernel %d has partition 0 on every SM", A, ns, kse,
                                    light ? "any KSe fit together" : "A <= |S|", k);
        }
    }
    return nv;
}

static int check_pgot(drv_env_t *e, const drv_in_t *in, const sm_driver_t *m)
{
    int live[KN], kq[KN];
    uint32_t dsh[KN][DRV_NRES];
    for (int k = 0; k < KN; k++) {
        live[k] = e->kal[k] >= 0, kq[k] = 0;
        memset(dsh[k], 0, sizeof dsh[k]);
        if (live[k]) d_of(&e->in[e->kal[k]], dsh[k]), kq[k] = (int)e->in[e->kal[k]].qos;
    }
    return drv_pcov_step(&e->pcov, m, live, (const uint32_t(*)[DRV_NRES])dsh, e->hmask, kq, in->cfg_policy,
                         in->cfg_max2, e->cycle);
}

static void new_inst(drv_env_t *e, const drv_in_t *in)
{
    if (e->nin == e->capin) {
        e->capin = e->capin ? 2 * e->capin : 256;
        e->in = realloc(e->in, (size_t)e->capin * sizeof *e->in);
        if (!e->in) abort();
    }
    inst_t *I = &e->in[e->nin];
    memset(I, 0, sizeof *I);
    I->k = (int)in->kl_k, I->grid = in->kl_grid, I->n = in->kl_n, I->r = in->kl_r, I->m = in->kl_m;
    I->idem = in->kl_idem, I->adm = in->kl_adm, I->lim = in->kl_lim, I->alive = 1, I->seq = ++e->seq;
    I->qos = in->kl_qos & 1;
    e->klast[in->kl_k] = e->nin;
    I->st = calloc(I->grid, 1), I->ncomp = calloc(I->grid, 1);
    if (!I->st || !I->ncomp) abort();
    e->kal[in->kl_k] = e->nin++;
}

static int launch_legal(const drv_in_t *in)
{
    return in->kl_grid != 0 && (in->kl_mask & NMASK) != 0 && in->kl_n >= 1 && in->kl_n <= NW && in->kl_r <= RMAX &&
           in->kl_n * in->kl_r <= LIM_REG && in->kl_m <= LIM_SL;
}

static uint32_t draw(rng_t *r, uint32_t lo, uint32_t hi) { return lo + rng_below(r, hi - lo + 1); }

/* the responder's clock edge for SM s; ledger moves on the SM's ports */
static int rsm_edge(drv_env_t *e, int s, const drv_out_t *o)
{
    rng_t *r = &e->r;
    rsm_t *p = &e->sm[s];
    int nv = 0;
    const tmask_t done = p->done, run0 = p->run;
    /* pop and legality */
    int pop = p->fsm == F_IDLE && p->qc > 0, pst = 0;
    uint8_t hop = 0, ht = 0, hidem = 0;
    uint64_t hptr = 0;
    if (pop) {
        hop = p->q[p->qh].op, ht = p->q[p->qh].tb, hidem = p->q[p->qh].idem, hptr = p->q[p->qh].ptr;
        const int run = ht < NT && bit(p->run, ht), al = ht < NT && bit(p->alloc & ~p->go, ht);
        const int dn = ht < NT && bit(done, ht), bsy = ht < NT && bit(p->drain | p->dpend, ht);
        if (hop == OP_DROP && !hidem) pst = ST_NOTIDEM;
        else if (bsy || (hop == OP_RESTORE && run)) pst = ST_BUSY;
        else if ((hop != OP_RESTORE && !run) || (hop == OP_RESTORE && !al)) pst = ST_EMPTY;
        else if ((hop == OP_SAVE || hop == OP_DROP) && dn) pst = ST_FIN;
        else pst = ST_OK;
        if (pst == ST_NOTIDEM || pst == ST_BUSY || (hop == OP_RESTORE && pst != ST_OK))
            nv += viol(e, "SM %d engine: command op %u slot %u gets status %d (the driver never causes it)", s, hop, ht, pst);
    }
    /* the response of this cycle (registered outputs) and its ledger effect */
    const int eng_launch = p->g_f && p->cur_op == OP_RESTORE && p->cur_st == ST_OK;
    const int eng_free = p->g_f && (p->cur_op == OP_SAVE || p->cur_op == OP_DROP) && p->cur_st == ST_OK;
    if (p->rsp_v) {
        e->rp_v[s] = 1, e->rp_op[s] = p->rsp_op, e->rp_tb[s] = p->rsp_tb, e->rp_st[s] = p->rsp_st;
        e->n_st[p->rsp_st < 6 ? p->rsp_st : 5]++;
        const int t = (int)p->rsp_tb;
        if (eng_free) {
            inst_t *I = &e->in[p->tinst[t]];
            const uint32_t id = p->tid[t];
            if (I->st[id] != T_RUN)
                nv += viol(e, "%s OK of kernel %d id %u, which is %s", p->cur_op == OP_SAVE ? "SAVE" : "DROP", I->k, id,
                           tname[I->st[id]]);
            I->st[id] = p->cur_op == OP_SAVE ? T_SAVED : T_DROPPED;
            if (p->cur_op == OP_SAVE) {
                const uint64_t q = p->cur_ptr / CTX;
                if (p->cur_ptr % CTX || q >= PQ)
                    nv += viol(e, "SAVE pointer 0x%llx is not a context block", (unsigned long long)p->cur_ptr);
                else
                    e->ctx[q].v = 1, e->ctx[q].inst = p->tinst[t], e->ctx[q].id = id, e->ctx[q].n = (uint32_t)smk_popc(p->tmask[t]),
                    e->ctx[q].r = p->tnreg[t], e->ctx[q].m = p->tsml[t];
            }
        }
        if (eng_launch) {
            const uint64_t q = p->cur_ptr / CTX;
            inst_t *I = &e->in[p->tinst[t]];
            const uint32_t id = p->tid[t];
            if (q >= PQ || !e->ctx[q].v || e->ctx[q].inst != p->tinst[t] || e->ctx[q].id != id ||
                e->ctx[q].n != (uint32_t)smk_popc(p->tmask[t]) || e->ctx[q].r != p->tnreg[t] || e->ctx[q].m != p->tsml[t])
                nv += viol(e, "RESTORE of kernel %d id %u from 0x%llx: the context there is not this TB's (or was restored "
                           "already, or the slot's shape differs)", I->k, id, (unsigned long long)p->cur_ptr);
            else
                e->ctx[q].v = 0;
            if (I->st[id] != T_RT)
                nv += viol(e, "RESTORE OK of kernel %d id %u, which is %s", I->k, id, tname[I->st[id]]);
            I->st[id] = T_RUN;
        }
    }
    /* launch arbiter */
    int lt = -1;
    if (eng_launch) lt = p->cur_tb;
    else if (p->go) lt = smk_ctz(p->go);
    wmask_t freed = 0, setm = 0;
    /* set-up */
    if (o->set_v[s]) {
        const uint32_t t = o->set_tb[s];
        const int ok = t < NT && !bit(p->alloc, (int)t) && !bit(p->run, (int)t) && (o->set_mask[s] & WALL) != 0 &&
                       (o->set_mask[s] & p->wused) == 0;
        if (!ok)
            nv += viol(e, "set_rej on SM %d: set-up of slot %u mask 0x%llx (alloc %d run %d wused 0x%llx)", s, t,
                       (unsigned long long)o->set_mask[s], t < NT && bit(p->alloc, (int)t), t < NT && bit(p->run, (int)t),
                       (unsigned long long)p->wused);
        else {
            p->alloc |= 1ULL << t;
            p->go = (p->go & ~(1ULL << t)) | ((tmask_t)(o->set_go[s] & 1) << t);
            p->tmask[t] = o->set_mask[s], p->tks[t] = (uint8_t)o->set_ks[s];
            p->tnreg[t] = o->set_nreg[s], p->tsml[t] = o->set_smem[s];
            p->tinst[t] = e->ds[s][t].inst, p->tid[t] = e->ds[s][t].id; /* written by the decision just before */
            setm = o->set_mask[s];
        }
    }
    if (lt >= 0) {
        const tmask_t b = 1ULL << lt;
        p->alloc &= ~b, p->go &= ~b, p->run |= b;
        p->life[lt] = draw(r, e->lmin, e->lmax);
        if (!eng_launch) {
            inst_t *I = &e->in[p->tinst[lt]];
            if (I->st[p->tid[lt]] != T_SET)
                nv += viol(e, "launch of kernel %d id %u, which is %s", I->k, p->tid[lt], tname[I->st[p->tid[lt]]]);
            I->st[p->tid[lt]] = T_RUN;
        }
    }
    /* natural completions */
    for (tmask_t x = done; x; x &= x - 1) {
        const int t = smk_ctz(x);
        inst_t *I = &e->in[p->tinst[t]];
        const uint32_t id = p->tid[t];
        if (I->st[id] != T_RUN)
            nv += viol(e, "tb_done of kernel %d id %u, which is %s", I->k, id, tname[I->st[id]]);
        if (++I->ncomp[id] != 1)
            nv += viol(e, "kernel %d id %u completes a second time", I->k, id);
        I->st[id] = T_DONE, I->ndone_port++;
        e->dpend[s] |= 1ULL << t, e->dinst[s][t] = p->tinst[t], e->did[s][t] = id;
        p->run &= ~(1ULL << t), freed |= p->tmask[t];
        e->n_done++;
    }
    if (eng_free)
        p->run &= ~(1ULL << p->cur_tb), freed |= p->tmask[p->cur_tb];
    /* stopped slot and life */
    const int stopping = p->fsm == F_STOP || (p->fsm == F_XFER && p->cur_op == OP_SAVE) ||
                         (p->fsm == F_DONE && (p->cur_op == OP_SAVE || p->cur_op == OP_DROP) && p->cur_st == ST_OK);
    int stay_stop = 0;
    /* engine FSM */
    const uint8_t f0 = p->fsm;
    switch (f0) {
    case F_IDLE:
        if (pop) {
            p->cur_op = hop, p->cur_tb = ht, p->cur_ptr = hptr, p->cur_st = (uint8_t)pst;
            if (pst != ST_OK) p->fsm = F_DONE;
            else if (hop == OP_DRAIN) p->fsm = F_IDLE;
            else if (hop == OP_RESTORE) p->fsm = F_XFER, p->cd = draw(r, 0, e->rmax);
            else p->fsm = F_STOP, p->cd = draw(r, 0, e->dmax);
        }
        break;
    case F_STOP:
        if (bit(done, p->cur_tb) || !bit(run0, p->cur_tb))
            p->fsm = F_DONE, p->cur_st = ST_FIN;
        else if (p->cd == 0)
            p->fsm = p->cur_op == OP_SAVE ? F_XFER : F_DONE, p->cd = draw(r, 0, e->xmax);
        else
            p->cd--, stay_stop = 1;
        break;
    case F_XFER:
        if (p->cd == 0) p->fsm = F_DONE;
        else p->cd--;
        break;
    case F_DONE:
        p->fsm = F_IDLE;
        break;
    }
    for (tmask_t x = p->run; x; x &= x - 1) {
        const int t = smk_ctz(x);
        if (t == lt) continue;
        const int stp = stopping && t == p->cur_tb;
        if (!stp || (stay_stop && rng_chance(r, e->p_race, 100)))
            if (p->life[t]) p->life[t]--;
    }
    /* DRAIN flags */
    const tmask_t setd = (f0 == F_IDLE && pop && pst == ST_OK && hop == OP_DRAIN) ? 1ULL << ht : 0;
    const tmask_t dm = p->drain | setd;
    const int g_d = !p->g_f && p->dpend;
    const tmask_t dclr = g_d ? p->dpend & -p->dpend : 0;
    p->drain = dm & ~done;
    p->dpend = (p->dpend & ~dclr) | (dm & done);
    /* queue */
    if (pop)
        p->qh = p->qh + 1 == QD ? 0 : p->qh + 1, p->qc--;
    if (o->cmd_v[s]) {
        if (p->qc == QD) /* fullness is judged on the registered count (ERR_QFULL) */
            nv += viol(e, "SM %d: command offered with cmd_full", s);
        else {
            const int tl = (p->qh + p->qc) % QD;
            p->q[tl].op = (uint8_t)o->cmd_op[s], p->q[tl].tb = (uint8_t)o->cmd_tb[s];
            p->q[tl].idem = (uint8_t)o->cmd_idem[s], p->q[tl].ptr = o->cmd_ptr[s];
            p->qc++;
        }
    }
    p->wused = (p->wused | setm) & ~freed;
    return nv;
}

/* The request and lookup ports (docs/sm_driver.md "QoS"), from the environment's records: requests
 * it presented and saw accepted (rq_v & rq_rdy), kernels in use and masks (host view), slots and
 * kernel slots held (ports), PTBQ / pb (ports). The partitions themselves are the driver's (the
 * partition unit's result is compared with the RTL); the monitors check how a grant changes them.
 * Called before the edge with this cycle's state; updates the mirror (acceptance, ack, rq_pend). */
static int check_rq(drv_env_t *e, const drv_in_t *in, const sm_driver_t *m, const drv_out_t *o)
{
    int nv = 0;
    const uint32_t st = o->rq_ack_st, kv = o->rq_ack_kv, n = o->rq_ack_n;
    if (in->cfg_policy == DRV_QOS)
        e->n_qos_cyc++;
    if (!o->rq_ack_v && (st || kv || n))
        nv += viol(e, "rq_ack_st %u kv %u n %u with rq_ack_v 0", st, kv, n);
    if (o->rq_ack_v) {
        if (!e->rq_busy) {
            nv += viol(e, "rq_ack_v without an accepted request in flight");
        } else {
            const uint64_t lat = e->cycle - e->rq_acc;
            const uint32_t k = e->rq_k, s = e->rq_s;
            if (lat > e->n_rqlat_max) e->n_rqlat_max = lat;
            if (st >= 1 && st <= 3) e->n_ack[st]++;
            if (e->rq_inval) {
                if (lat != 1 || st != DRV_ACK_REFUSED || kv || n)
                    nv += viol(e, "invalid request (kernel %u SM %u) answered st %u kv %u n %u after %llu cycles; expected "
                               "REFUSED 0 0 after 1", k, s, st, kv, n, (unsigned long long)lat);
            } else if (lat < 1 + KN + 1 || lat > 1 + KN + RQ_NC + (e->rq_tchg ? 2 * NT : NT)) {
                /* docs/sm_driver.md "QoS": SUM KN cycles, SCAN at most NC = 2^KW + KN candidate cycles (pass 0
                 * visits every KW-bit v) + the steps, and the steps of one pass are at most T (part only falls
                 * during a request). An entry that finishes and is relaunched with the other QoS flag during
                 * the request (rq_tchg) can step in both passes: 2T. */
                nv += viol(e, "request (kernel %u SM %u) answered after %llu cycles, outside [KN + 2, 1 + KN + NC + %uT]",
                           k, s, (unsigned long long)lat, e->rq_tchg ? 2u : 1u);
            } else {
                int d[KN];
                for (int j = 0; j < KN; j++)
                    d[j] = 0;
                if (st == DRV_ACK_FREE) {
                    if (kv || n) nv += viol(e, "FREE ack with kv %u n %u", kv, n);
                    d[k] = 1;
                } else if (st == DRV_ACK_VICTIM) {
                    if (kv >= KN || kv == k || n == 0 || n > e->rq_p0[kv])
                        nv += viol(e, "VICTIM ack: victim %u gives %u TBs, requester %u; its partition was %u", kv, n, k,
                                   kv < KN ? e->rq_p0[kv] : 0);
                    else {
                        d[k] = 1, d[kv] = -(int)n;
                        if (!e->rq_tchg && e->klast[kv] >= 0 && e->in[e->klast[kv]].qos && n > e->rq_g[kv])
                            nv += viol(e, "QoS victim %u gives %u TBs, rq_give was %u", kv, n, e->rq_g[kv]);
                    }
                } else if (st != DRV_ACK_REFUSED || kv || n) {
                    nv += viol(e, "ack st %u kv %u n %u", st, kv, n);
                }
                for (int j = 0; j < KN; j++)
                    if ((int)m->part[s][j] != (int)e->rq_p0[j] + d[j])
                        nv += viol(e, "after ack st %u: part[%u][%d] = %u, was %u at the acceptance, expected change %d",
                                   st, s, j, m->part[s][j], e->rq_p0[j], d[j]);
                if (st == DRV_ACK_VICTIM && !e->rq_tchg) { /* the SM's partitions within its limits */
                    uint32_t tot[DRV_NRES] = {0, 0, 0, 0}, np = 0;
                    for (int j = 0; j < KN; j++) {
                        if (!m->part[s][j]) continue;
                        np++;
                        if (e->klast[j] < 0) { nv += viol(e, "part[%u][%d] of an entry never launched", s, j); continue; }
                        uint32_t dd[DRV_NRES];
                        d_of(&e->in[e->klast[j]], dd);
                        for (int x = 0; x < DRV_NRES; x++)
                            tot[x] += m->part[s][j] * dd[x];
                    }
                    for (int x = 0; x < DRV_NRES; x++)
                        if (tot[x] > lim[x])
                            nv += viol(e, "VICTIM grant on SM %u: partitions take %u of resource %d, limit %u", s, tot[x], x,
                                       lim[x]);
                    if (np > KS)
                        nv += viol(e, "VICTIM grant on SM %u: %u kernels with a partition, KS %d", s, np, KS);
                }
            }
        }
        if (o->rq_ack_v && st == DRV_ACK_VICTIM && e->rq_s < NSM) { /* rq_pend[rq_s] was set at the grant edge */
            e->n_pend2 += (e->pend & ~(1ULL << e->rq_s)) != 0;
            e->pend |= 1ULL << e->rq_s, e->pend_k[e->rq_s] = (int)kv;
        }
        e->rq_busy = 0;
    }
    for (int s = 0; s < NSM; s++) {
        uint32_t sum = 0;
        for (int j = 0; j < KN; j++)
            sum += m->part[s][j];
        if (sum > NT)
            nv += viol(e, "SM %d: partitions total %u TBs, T = %d", s, sum, NT);
    }
    const int pgpu = (in->cfg_qctl & DRV_QC_PGPU) != 0;
    if (m->rq_pend != e->pend)
        nv += viol(e, "rq_pend = 0x%llx, expected 0x%llx (set by a VICTIM grant, cleared when the victim is down to its "
                   "partition and, per GPU, ~pb)", (unsigned long long)m->rq_pend, (unsigned long long)e->pend);
    for (int x = 0; x < NSM; x++)
        if (bit(e->pend, x) && (int)m->rq_pk[x] != e->pend_k[x])
            nv += viol(e, "rq_pk[%d] = %u, expected %d (the victim of SM %d's pending grant)", x, m->rq_pk[x], e->pend_k[x], x);
    const int rdy = !e->rq_busy && !m->pact && !m->pdirty && !(pgpu && e->pend);
    if ((int)o->rq_rdy != rdy)
        nv += viol(e, "rq_rdy = %u, expected %d (request in flight %d, pact %u, pdirty %u, rq_pend 0x%llx, PGPU %d)",
                   o->rq_rdy, rdy, e->rq_busy, m->pact, m->pdirty, (unsigned long long)e->pend, pgpu);
    if (in->rq_v && o->rq_rdy) {
        const uint32_t k = in->rq_k & (uint32_t)SMK_MASK(SMK_KID_W), s = in->rq_sm & (uint32_t)SMK_MASK(SMK_SMW);
        e->rq_busy = 1, e->rq_acc = e->cycle, e->rq_k = k, e->rq_s = s, e->rq_tchg = 0;
        e->rq_inval = k >= KN || s >= NSM || e->kal[k] < 0 || !bit(e->hmask[k], (int)s);
        if (!e->rq_inval) { /* no TB, no grant; one pending preemption per SM ("QoS controls") */
            const inst_t *I = &e->in[e->kal[k]];
            if (I->nfresh >= I->grid && !has_pq(e, (int)k, NULL))
                e->rq_inval = 1, e->n_nowork++;
            else if (bit(e->pend, (int)s))
                e->rq_inval = 1, e->n_pendref++;
        }
        for (int j = 0; j < KN; j++)
            e->rq_g[j] = in->rq_give[j] & (uint32_t)SMK_MASK(SMK_TBS_W + 1), e->rq_p0[j] = s < NSM ? m->part[s][j] : 0;
        e->n_rq++;
    } else if (in->rq_v) {
        e->n_rqign++;
    }
    /* rq_pend[x] clear at this edge: SM x's victim down to its partition (and, per GPU, no preemption in
     * flight), or not QOS */
    for (int x = 0; x < NSM; x++)
        if (bit(e->pend, x) && (in->cfg_policy != DRV_QOS ||
                                (e->ecnt[x][e->pend_k[x]] <= m->part[x][e->pend_k[x]] && !(pgpu && e->pbn))))
            e->pend &= ~(1ULL << x);
    /* QOS filling rule: a TB added to pc[k] by the previous step (same SM still being filled) went to
     * a kernel allowed there: in use, in its mask, and QoS or rank(k) == floor(pcur * nq / NSM). A
     * step is one cycle (drv_pipe = 0) or an evaluate cycle (pph = 0, the candidates' cycle: the rule
     * is read there) and a commit cycle (pph = 1, pc changes at its edge): drv_pipe = 1 records in the
     * cycles with pph = 0 and checks in the next such cycle */
    const int pf_at = !SMK_DRV_PIPE || m->pph == 0;
    if (pf_at && e->pf_v && m->pact && m->pcur == e->pf_cur)
        for (int k = 0; k < KN; k++)
            if (m->pc[k] == e->pf_pc[k] + 1) {
                e->n_qfill++;
                if (!bit(e->pf_allowed, k))
                    nv += viol(e, "QOS filling of SM %u gave a TB to kernel %d, which is not allowed there (allowed 0x%llx)",
                               e->pf_cur, k, (unsigned long long)e->pf_allowed);
            }
    if (pf_at)
        e->pf_v = m->pact && in->cfg_policy == DRV_QOS && m->pcur < NSM;
    if (pf_at && e->pf_v) {
        uint32_t nq = 0;
        uint64_t al = 0;
        for (int k = 0; k < KN; k++)
            nq += e->kal[k] >= 0 && !e->in[e->kal[k]].qos;
        const uint32_t own = m->pcur * nq / NSM;
        for (int k = 0, rank = 0; k < KN; k++) {
            if (e->kal[k] < 0) continue;
            const int q = (int)e->in[e->kal[k]].qos;
            if (bit(e->hmask[k], (int)m->pcur) && (q || (uint32_t)rank == own)) al |= UINT64_C(1) << k;
            rank += !q;
        }
        e->pf_cur = m->pcur, e->pf_allowed = al;
        for (int k = 0; k < KN; k++)
            e->pf_pc[k] = m->pc[k];
    }
    nv += check_pgot(e, in, m);
    /* lookup port: combinational reads (out of range: 0) */
    {
        const uint32_t ls = in->lk_s & (uint32_t)SMK_MASK(SMK_SMW), lk = in->lk_k & (uint32_t)SMK_MASK(SMK_KID_W);
        uint32_t xc = 0, xp = 0, xv = 0, xs = 0;
        if (ls < NSM && lk < KN) {
            xc = e->ecnt[ls][lk], xp = m->part[ls][lk];
            const int j = ks_of(e, (int)ls, (int)lk);
            xv = j >= 0, xs = j >= 0 ? (uint32_t)j : 0;
        }
        if (o->lk_cnt != xc || o->lk_part != xp || o->lk_ksv != xv || o->lk_ks != xs)
            nv += viol(e, "lookup (%u, %u): cnt %u part %u ksv %u ks %u, expected %u %u %u %u", ls, lk, o->lk_cnt,
                       o->lk_part, o->lk_ksv, o->lk_ks, xc, xp, xv, xs);
    }
    return nv;
}

/* Every input field of the stimulus fits its port (rtl/sm_driver.v). A wider value is a stimulus bug: the
 * harness would put bits beyond the port on the Verilated model's input, while the C model masks them
 * (the environment's expectations, made of the unmasked value, then disagree with both). drv_env.h. */
int drv_host_port_fits(uint64_t cycle, const char *part, const drv_in_t *in, int sm_side)
{
    int nv = 0;
#define PORT(f, w) (nv += env_port(cycle, part, -1, #f, -1, (uint64_t)in->f, (w))) /* cosim_env.h */
    PORT(kl_v, 1), PORT(kl_k, SMK_KID_W), PORT(kl_n, SMK_WID_W + 1), PORT(kl_r, SMK_REGN_W);
    PORT(kl_m, SMK_SMLN_W), PORT(kl_grid, SMK_GRID_W), PORT(kl_qos, 1), PORT(kl_idem, 1);
    PORT(kl_mask, NSM), PORT(kl_adm, 2), PORT(kl_lim, SMK_GRID_W);
    PORT(km_v, 1), PORT(km_k, SMK_KID_W), PORT(km_mask, NSM);
    PORT(cfg_policy, 3), PORT(cfg_max2, 1), PORT(cfg_evict, 2), PORT(cfg_pmode, 2);
    PORT(cfg_qctl, 2), PORT(rq_v, 1), PORT(rq_k, SMK_KID_W), PORT(rq_sm, SMK_SMW);
    PORT(rq_ret, 1), PORT(lk_s, SMK_SMW), PORT(lk_k, SMK_KID_W);
#define PORTI(f, i, w) (nv += env_port(cycle, part, -1, #f, (i), (uint64_t)in->f[i], (w)))
    for (int k = 0; k < SMK_KERNELS; k++)
        PORTI(rq_give, k, SMK_TBS_W + 1);
    if (sm_side) {
        PORT(kl_keep, 1);
        for (int s = 0; s < NSM; s++) {
            PORTI(set_rej, s, 1), PORTI(cmd_full, s, 1), PORTI(rsp_v, s, 1), PORTI(rsp_op, s, 2);
            PORTI(rsp_tb, s, SMK_TBS_W), PORTI(rsp_status, s, 3), PORTI(rsp_ptr, s, SMK_CTX_PTR_W);
            PORTI(tb_done, s, NT), PORTI(wused, s, NW);
        }
    }
#undef PORT
#undef PORTI
    return nv;
}

int drv_env_observe(drv_env_t *e, const drv_stim_t *st, const sm_driver_t *m, const drv_out_t *o)
{
    const drv_in_t *in = &st->in;
    int nv = drv_host_port_fits(e->cycle, "st->in", in, 1);
    e->prt_obs = st->rst ? 0 : m->prt;
    if (st->rst) {
        env_reset(e);
        e->n_rst++;
        e->cycle++;
        return nv;
    }
    derive(e);
    nv += check_state(e, m);
    if (e->xpd_v && (int)m->pdirty != e->xpd)
        nv += viol(e, "pdirty = %u, expected %d (launch / mask change / kernel finish / rotation; KEEP: a finish and a "
                   "kl_keep relaunch into an entry holding partitions do not set it)", m->pdirty, e->xpd);
    e->xpd_v = 0;
    if (in->cfg_policy == DRV_QOS)
        e->n_qctl[in->cfg_qctl & 3]++;
    /* statistic: an SM using more warps than the driver counts on it (popcount(wused) > u_w); while this
     * never happens the free-warp checks (nfw) are implied by the u_w checks (docs/mutation_notes.md) */
    for (int s = 0; s < NSM; s++)
        e->n_wover += (uint32_t)smk_popc(in->wused[s]) > m->u[s][DRV_R_W];
    /* registered outputs predicted one cycle earlier */
    if (o->kl_rej != (uint32_t)e->exp_rej)
        nv += viol(e, "kl_rej = %u, expected %d", o->kl_rej, e->exp_rej);
    if (o->kdone_v != (uint32_t)e->exp_kdone || (o->kdone_v && o->kdone_k != (uint32_t)e->exp_kdone_k))
        nv += viol(e, "kdone_v = %u kdone_k = %u, expected %d %d", o->kdone_v, o->kdone_k, e->exp_kdone, e->exp_kdone_k);
    e->exp_rej = e->exp_kdone = 0;
    if (e->plan_exp_kc >= 0 && (!m->plan_v || m->plan_kc != (uint32_t)e->plan_exp_kc))
        nv += viol(e, "preemption start: plan_v %u plan_kc %u, expected a plan for kernel %d", m->plan_v, m->plan_kc,
                   e->plan_exp_kc);
    e->plan_exp_kc = -1;
    /* a plan ends only in a cycle where decision 3 applies: plan_v & ~pb & (plan_left == 0 |
     * cmd_ok(plan_sm) & a FREE PTBQ entry) */
    if (e->plan_was && !m->plan_v && !e->plan_applies)
        nv += viol(e, "the preemption plan ended in the previous cycle, where the plan step did not apply (pb or no "
                   "cmd_ok / FREE entry)");
    e->plan_was = (int)m->plan_v;
    e->plan_applies = m->plan_v && !e->pbn && (m->plan_left == 0 || (m->plan_sm < NSM && !e->oc[m->plan_sm].v &&
                                                                      lowest_free_q(e) >= 0));
    /* the event: lowest SM with a latched response, else lowest SM / slot with a latched tb_done */
    int es = -1, et = -1, ek = DRV_EV_NONE;
    for (int s = 0; s < NSM && es < 0; s++)
        if (e->rp_v[s]) es = s, et = (int)e->rp_tb[s], ek = DRV_EV_RSP;
    for (int s = 0; s < NSM && es < 0; s++)
        if (e->dpend[s]) es = s, et = smk_ctz(e->dpend[s]), ek = DRV_EV_DONE;
    if (o->ev_kind != (uint32_t)ek || (ek != DRV_EV_NONE && (o->ev_sm != (uint32_t)es || o->ev_slot != (uint32_t)et)))
        nv += viol(e, "event kind %u SM %u slot %u, expected kind %d SM %d slot %d (latched responses first, lowest SM; "
                   "then tb_done, lowest SM and slot)", o->ev_kind, o->ev_sm, o->ev_slot, ek, es, et);
    /* ports of this cycle */
    int nset = 0, ncmd = 0, ss = -1, cs = -1;
    for (int s = 0; s < NSM; s++) {
        if (o->set_v[s]) nset++, ss = s;
        if (o->cmd_v[s]) ncmd++, cs = s;
        if (in->set_rej[s]) nv += viol(e, "set_rej[%d] = 1", s);
        if (in->cmd_full[s] && o->cmd_v[s]) nv += viol(e, "cmd_full[%d] = 1 with a command", s);
        if (in->cmd_full[s] && QD >= 2) nv += viol(e, "cmd_full[%d] = 1 (pe_queue_depth >= 2)", s);
        if (!o->set_v[s] && o->set_id[s]) nv += viol(e, "set_id[%d] = %u without set_v", s, o->set_id[s]);
    }
    nv += check_rq(e, in, m, o);
    if (nset > 1 || ncmd > 1)
        nv += viol(e, "%d set-ups and %d commands in one cycle (one decision per cycle)", nset, ncmd);
    pctx_t pc, px; /* this cycle's state; and for the execution, with the R of the choice it executes */
    pctx_init(&pc, e, m, in);
    px = pc;
    if (SMK_DRV_PIPE)
        px.resv_m = e->hp2_r;
    const int disp = o->dec_kind == DRV_DEC_NEW || o->dec_kind == DRV_DEC_RERUN || o->dec_kind == DRV_DEC_RESTORE;
    if (disp) {
        if (nset != 1 || ss != (int)o->dec_sm || (o->dec_kind != DRV_DEC_RESTORE && ncmd))
            nv += viol(e, "dispatch decision %u on SM %u, but %d set-ups (SM %d) and %d commands", o->dec_kind, o->dec_sm,
                       nset, ss, ncmd);
        else
            nv += check_dispatch(e, &px, st, m, o, ss);
    } else if (nset) {
        nv += viol(e, "set-up on SM %d with decision kind %u", ss, o->dec_kind);
    }
    if (ncmd == 1 && o->dec_kind != DRV_DEC_RESTORE)
        nv += check_command(e, &px, st, m, o, cs);
    else if (!ncmd && (o->dec_kind == DRV_DEC_EVICT || o->dec_kind == DRV_DEC_RESV || o->dec_kind == DRV_DEC_PLAN_PRE))
        nv += viol(e, "decision kind %u without a command", o->dec_kind);
    if (nv) { /* the policy checks and the edge below assume a consistent state; the run stops here */
        e->cycle++;
        return nv;
    }
    /* ---- the choice of this cycle's state (docs/sm_driver.md "Decision pipeline"): the model's
     * o->ch_* against the environment's own reading of decisions 1-5 */
    {
        const uint32_t ck = o->ch_kind, cs = o->ch_s, ckk = o->ch_k;
        if (ck < 6) e->n_choice[ck]++;
        const int ev_pol = in->cfg_policy == DRV_SPART || in->cfg_policy == DRV_SMK_P || in->cfg_policy == DRV_QOS;
        /* decision 1: the lowest SM with cmd_ok holding a TB of pre(s) that may not stay; for SAVE a FREE entry */
        int d1 = -1;
        if (ev_pol && (!e->pbn || evict_sm(in)))
            for (int x = 0; x < NSM && d1 < 0; x++)
                if (!e->oc[x].v && !e->rp_v[x] && evict_hi(e, m, in, x) >= 0) d1 = x;
        const int d1_ok = d1 >= 0 && (in->cfg_evict != OP_SAVE || lowest_free_q(e) >= 0);
        /* decision 2: the short RESERVE kernel's lowest SM with cmd_ok and a TB of pre(s) to drain */
        int d2 = -1;
        if (pc.resv_r >= 0 && !e->pbn)
            for (int x = 0; x < NSM && d2 < 0; x++)
                if (bit(e->hmask[pc.resv_r], x) && !e->oc[x].v && !e->rp_v[x] && resv_hi(e, x) >= 0) d2 = x;
        /* decision 3 applies exactly when plan_v & ~pb & (plan_left == 0 | cmd_ok(plan_sm) & a FREE entry);
         * a waiting plan lets decision 4 run */
        const int papp = m->plan_v && !e->pbn &&
                         (m->plan_left == 0 || (m->plan_sm < NSM && !e->oc[m->plan_sm].v && !e->rp_v[m->plan_sm] &&
                                                lowest_free_q(e) >= 0));
        int K, S;
        choose(&pc, &K, &S);
        const uint64_t xr = pc.resv_m;
        if (o->ch_r != xr)
            nv += viol(e, "choice R = 0x%llx, the short RESERVE kernel's mask is 0x%llx", (unsigned long long)o->ch_r,
                       (unsigned long long)xr);
        if (d1_ok) {
            if (ck != DRV_CH_EVICT || (int)cs != d1)
                nv += viol(e, "decision 1 applies on SM %d (a TB above its partition or outside its mask on an SM with "
                           "cmd_ok; pb %d, cfg_qctl %u), but the choice is kind %u SM %u", d1, e->pbn > 0, in->cfg_qctl, ck, cs);
        } else if (ck == DRV_CH_EVICT) {
            nv += viol(e, "choice EVICT on SM %u, where decision 1 does not apply (lowest candidate %d)", cs, d1);
        } else if (d2 >= 0) {
            if (ck != DRV_CH_RESV || (int)cs != d2)
                nv += viol(e, "decision 2 applies on SM %d (short RESERVE kernel %d), but the choice is kind %u SM %u", d2,
                           pc.resv_r, ck, cs);
        } else if (ck == DRV_CH_RESV) {
            nv += viol(e, "choice RESV on SM %u, where decision 2 does not apply (short kernel %d)", cs, pc.resv_r);
        } else if (papp) {
            if (ck != DRV_CH_PLAN || cs != m->plan_sm || ckk != m->plan_kc)
                nv += viol(e, "the plan step applies (plan_left %u), but the choice is kind %u SM %u kernel %u",
                           m->plan_left, ck, cs, ckk);
        } else if (ck == DRV_CH_PLAN) {
            nv += viol(e, "choice PLAN while the plan step does not apply (plan_v %u, pb %d)", m->plan_v, e->pbn > 0);
        } else if (ck == DRV_CH_DISP) {
            if ((int)ckk != K || (int)cs != S)
                nv += viol(e, "policy %u chooses kernel %u on SM %u, expected kernel %d on SM %d", in->cfg_policy, ckk, cs,
                           K, S);
        } else if (ck == DRV_CH_MISS) {
            if (in->cfg_policy != DRV_SMK_OD || m->plan_v || e->pbn || K < 0 || S >= 0 || (int)ckk != K)
                nv += viol(e, "choice MISS of kernel %u with policy %u plan_v %u pb %d, the policy picks kernel %d SM %d",
                           ckk, in->cfg_policy, m->plan_v, e->pbn > 0, K, S);
        } else if (K >= 0 && S >= 0) {
            nv += viol(e, "choice kind %u, but policy %u can dispatch kernel %d on SM %d", ck, in->cfg_policy, K, S);
        }
        if (ck > DRV_CH_MISS || (ck == DRV_CH_NONE && (cs || ckk)))
            nv += viol(e, "choice kind %u SM %u kernel %u", ck, cs, ckk);

        /* ---- the execution: of this cycle's choice (drv_pipe = 0) or of the choice made two cycles
         * ago as this environment holds it (drv_pipe = 1) */
        const int pipe = SMK_DRV_PIPE;
        const uint32_t xk = pipe ? (e->hp2_v ? e->hp2_kind : DRV_CH_NONE) : ck, xs = pipe ? e->hp2_s : cs,
                       xkk = pipe ? e->hp2_k : ckk;
        if (pipe && (m->dp1_v != (uint32_t)e->hp1_v || m->dp2_v != (uint32_t)e->hp2_v || m->dp2_kind != e->hp2_kind ||
                     m->dp2_s != e->hp2_s || m->dp2_k != e->hp2_k || m->dp2_r != e->hp2_r))
            nv += viol(e, "decision pipeline: dp1_v %u dp2 v %u kind %u S %u K %u R 0x%llx, expected %d / %d %u %u %u 0x%llx",
                       m->dp1_v, m->dp2_v, m->dp2_kind, m->dp2_s, m->dp2_k, (unsigned long long)m->dp2_r, e->hp1_v, e->hp2_v,
                       e->hp2_kind, e->hp2_s, e->hp2_k, (unsigned long long)e->hp2_r);
        if (!pipe && (m->dp1_v || m->dp2_v || m->dp2_kind || m->dp2_s || m->dp2_k || m->dp2_r))
            nv += viol(e, "decision pipeline registers not 0 with drv_pipe = 0");
        const uint32_t dk = o->dec_kind;
        if (disp && !((xk == DRV_CH_DISP && o->dec_k == xkk && o->dec_sm == xs) ||
                      (xk == DRV_CH_PLAN && o->dec_k == m->plan_kc && o->dec_sm == m->plan_sm && m->plan_left == 0)))
            nv += viol(e, "dispatch of kernel %u on SM %u, the choice executed is kind %u SM %u kernel %u (plan %u: kernel "
                       "%u SM %u left %u)", o->dec_k, o->dec_sm, xk, xs, xkk, m->plan_v, m->plan_kc, m->plan_sm, m->plan_left);
        if ((dk == DRV_DEC_EVICT && (xk != DRV_CH_EVICT || o->dec_sm != xs)) ||
            (dk == DRV_DEC_RESV && (xk != DRV_CH_RESV || o->dec_sm != xs)) || (dk == DRV_DEC_PLAN_PRE && xk != DRV_CH_PLAN))
            nv += viol(e, "decision kind %u on SM %u, the choice executed is kind %u SM %u", dk, o->dec_sm, xk, xs);
        if (dk == DRV_DEC_PLAN_PRE && !papp)
            nv += viol(e, "plan step while it does not apply (pb %d, cmd_ok(plan_sm) %d)", e->pbn > 0,
                       m->plan_sm < NSM && !e->oc[m->plan_sm].v);
        if (dk == DRV_DEC_PLAN_START) {
            if (xk != DRV_CH_MISS || o->dec_k != xkk || m->plan_v || e->pbn)
                nv += viol(e, "preemption start of kernel %u: the choice executed is kind %u kernel %u, plan_v %u pb %d",
                           o->dec_k, xk, xkk, m->plan_v, e->pbn > 0);
            e->plan_exp_kc = (int)xkk;
            e->n_planstart++;
        }
        if (o->a1_go != (xk == DRV_CH_MISS && !m->plan_v && !e->pbn) || (o->a1_go && o->a1_kc != xkk))
            nv += viol(e, "a1_go %u a1_kc %u, the choice executed is kind %u kernel %u (plan_v %u pb %d)", o->a1_go, o->a1_kc,
                       xk, xkk, m->plan_v, e->pbn > 0);
        const int act = nset || ncmd || dk == DRV_DEC_PLAN_START || (xk == DRV_CH_PLAN && papp);
        if (o->act != (uint32_t)act)
            nv += viol(e, "the execution acts = %u, expected %d (set-ups %d, commands %d, decision %u)", o->act, act, nset,
                       ncmd, dk);
        if (xk != DRV_CH_NONE && xk != DRV_CH_MISS && !act)
            e->n_stale++;
        /* no starvation: the kernel the policy picks is dispatched in bounded time */
        if (K >= 0 && !(disp && (int)o->dec_k == K)) {
            if (K == e->wd_k) e->wd_n++;
            else e->wd_k = K, e->wd_n = 1;
            if (e->wd_n > e->wd_worst) e->wd_worst = e->wd_n;
            if (e->wd_n > e->wd_bound)
                nv += viol(e, "starvation: kernel %d (policy %u's pick%s) not dispatched for %llu cycles", K,
                           in->cfg_policy, S < 0 ? ", fits nowhere" : "", (unsigned long long)e->wd_n);
        } else {
            e->wd_k = -1, e->wd_n = 0;
        }
        /* the pipeline's edge */
        if (pipe) {
            e->hp2_v = e->hp1_v && !act && e->hp1_kind != DRV_CH_NONE;
            e->hp2_kind = e->hp1_kind, e->hp2_s = e->hp1_s, e->hp2_k = e->hp1_k, e->hp2_r = e->hp1_r;
            e->hp1_v = !act;
            e->hp1_kind = ck, e->hp1_s = cs, e->hp1_k = ckk, e->hp1_r = o->ch_r;
        }
    }
    if (nv) {
        e->cycle++;
        return nv;
    }
    /* ================= clock edge of the environment */
    /* host: launch and mask change (state of this cycle) */
    int kl_dirty = 0; /* the launch sets pdirty */
    const int qkeep = in->cfg_policy == DRV_QOS && (in->cfg_qctl & DRV_QC_KEEP);
    if (in->kl_v) {
        const int k = (int)in->kl_k;
        const int acc = e->kal[k] < 0 && launch_legal(in); /* kal = the driver's kv in this cycle */
        if (acc) { /* KEEP: a relaunch (kl_keep) into an entry holding partition units keeps them */
            int held = 0;
            for (int x = 0; x < NSM; x++)
                held |= m->part[x][k] != 0;
            kl_dirty = !(qkeep && in->kl_keep && held);
            e->n_keepkept += !kl_dirty;
        }
        e->exp_rej = !acc;
        e->n_launch++;
        if (!acc) e->n_rej++;
    }
    /* event processed by the driver */
    if (ek == DRV_EV_RSP) {
        ocmd_t *c = &e->oc[es];
        e->rp_v[es] = 0;
        const uint32_t op = e->rp_op[es], sta = e->rp_st[es];
        if (!c->v || c->op != op || c->tb != e->rp_tb[es])
            nv += viol(e, "response op %u slot %u on SM %d does not match the command in flight", op, e->rp_tb[es], es);
        if (c->pb) e->pbn--;
        if (c->q >= 0) {
            eq_t *q = &e->eq[c->q];
            if (op == OP_RESTORE) {
                if (sta == ST_OK) q->st = DRV_Q_FREE;
            } else if (sta == ST_OK) {
                q->st = op == OP_SAVE ? DRV_Q_SAVED : DRV_Q_RERUN;
            } else {
                q->st = DRV_Q_FREE;
            }
        }
        if ((op == OP_SAVE || op == OP_DROP) && sta == ST_OK)
            e->ds[es][c->tb].v = 0;
        e->xspre[es] &= ~(1ULL << e->rp_tb[es]), e->xsfill[es] &= ~(1ULL << e->rp_tb[es]);
        memset(c, 0, sizeof *c);
    } else if (ek == DRV_EV_DONE) {
        e->dpend[es] &= ~(1ULL << et);
        inst_t *I = &e->in[e->dinst[es][et]];
        if (!e->ds[es][et].v || e->ds[es][et].inst != e->dinst[es][et] || e->ds[es][et].id != e->did[es][et])
            nv += viol(e, "done event of slot %d/%d, which the driver does not hold with that TB", es, et);
        e->ds[es][et].v = 0;
        if (I->alive && ++I->ndone_drv == I->grid) {
            I->alive = 0;
            e->kal[I->k] = -1;
            e->exp_kdone = 1, e->exp_kdone_k = I->k;
            e->n_kdone++;
            e->rq_tchg = 1;
        }
    }
    /* pdirty at the edge ("Partitions", "QoS controls"): set by an accepted launch (not a KEEP relaunch
     * into an entry holding partitions), a mask change, a kernel finishing (not under KEEP), the rotation
     * timer's last count; cleared when the partition unit starts (pdirty & ~pact & rq_st IDLE), where
     * only the first three sets win */
    {
        const int pstart = !m->pact && m->pdirty && m->rq_st == DRV_RQ_IDLE;
        e->n_tdrop_hit += pstart && m->prt == 1;
        e->xpd = kl_dirty || in->km_v || (e->exp_kdone && !qkeep) || (!pstart && (m->pdirty || m->prt == 1));
        e->xpd_v = 1;
    }
    /* decision */
    if (disp && !nv) {
        const int s = (int)o->dec_sm, t = (int)o->set_tb[s], k = (int)o->dec_k;
        inst_t *I = &e->in[e->kal[k]];
        dslot_t *d = &e->ds[s][t];
        d->v = 1, d->inst = e->kal[k], d->id = o->dec_id, d->ks = (uint8_t)o->set_ks[s];
        e->xspre[s] &= ~(1ULL << t); /* a stale spre of an unanswered command (FIN / ERR_EMPTY) */
        e->xsfill[s] = (e->xsfill[s] & ~(1ULL << t)) | ((tmask_t)(o->dec_kind == DRV_DEC_RESTORE) << t);
        if (o->dec_kind != DRV_DEC_NEW && (o->dec_id >> (SMK_GRID_W - 1) & 1))
            e->n_hiid++, e->n_hiid_last += o->dec_q == PQ - 1;
        else if (o->dec_kind != DRV_DEC_NEW && (o->dec_id >> (SMK_GRID_W - 2) & 1))
            e->n_hiid2++;
        if (o->dec_kind == DRV_DEC_NEW) I->nfresh++, I->st[o->dec_id] = T_SET, e->n_fresh++;
        else if (o->dec_kind == DRV_DEC_RERUN) e->eq[o->dec_q].st = DRV_Q_FREE, I->st[o->dec_id] = T_SET, e->n_rerun++;
        else {
            eq_t *q = &e->eq[o->dec_q];
            q->st = DRV_Q_REST, q->s = s, q->t = t;
            I->st[o->dec_id] = T_RT;
            ocmd_t *c = &e->oc[s];
            c->v = 1, c->pb = 0, c->q = (int)o->dec_q, c->inst = d->inst, c->op = OP_RESTORE, c->tb = (uint32_t)t;
            c->id = o->dec_id, c->ptr = o->cmd_ptr[s], c->cyc = e->cycle;
            e->n_restore++, e->n_cmd[OP_RESTORE]++;
        }
        e->n_pol[in->cfg_policy & 7]++;
    } else if (ncmd == 1 && !nv) {
        const int s = cs;
        const dslot_t *d = &e->ds[s][o->cmd_tb[s]];
        ocmd_t *c = &e->oc[s];
        c->v = 1, c->op = o->cmd_op[s], c->tb = o->cmd_tb[s], c->ptr = o->cmd_ptr[s], c->cyc = e->cycle;
        c->inst = d->inst, c->id = d->id, c->q = -1;
        c->pb = o->dec_kind == DRV_DEC_PLAN_PRE || o->dec_kind == DRV_DEC_RESV ||
                (o->dec_kind == DRV_DEC_EVICT && c->op == OP_SAVE && !evict_sm(in));
        if (c->pb) e->pbn++;
        e->xspre[s] |= 1ULL << c->tb;
        if (c->op == OP_SAVE || c->op == OP_DROP) {
            eq_t *q = &e->eq[o->dec_q];
            c->q = (int)o->dec_q;
            q->st = DRV_Q_PEND, q->inst = d->inst, q->id = d->id, q->s = s, q->t = (int)c->tb;
        }
        e->n_cmd[c->op & 3]++;
        if (o->dec_kind == DRV_DEC_EVICT) e->n_evict++;
        if (o->dec_kind == DRV_DEC_RESV) e->n_resv++;
        if (o->dec_kind == DRV_DEC_PLAN_PRE) e->n_plan++;
    }
    /* responders */
    for (int s = 0; s < NSM; s++)
        nv += rsm_edge(e, s, o);
    /* host edge: launch accepted, mask change */
    if (in->kl_v && !e->exp_rej)
        new_inst(e, in), e->hmask[in->kl_k] = in->kl_mask & NMASK, e->rq_tchg = 1;
    if (in->km_v)
        e->hmask[in->km_k] = in->km_mask & NMASK, e->n_km++;
    int na = 0;
    for (int k = 0; k < KN; k++)
        na += e->kal[k] >= 0;
    if ((uint64_t)na > e->max_inst_alive) e->max_inst_alive = (uint64_t)na;
    e->cycle++;
    return nv;
}

int drv_env_finish(drv_env_t *e, const sm_driver_t *m, int verbose)
{
    int nv = 0;
    /* every TB accounted for: completed at most once (checked at each tb_done); every SAVED/DROPPED TB
     * of a live kernel has its PTBQ entry (checked every cycle through the shadow) */
    uint64_t nsaved = 0, ndropped = 0, nrun = 0, ncomp = 0;
    for (int i = 0; i < e->nin; i++) {
        const inst_t *I = &e->in[i];
        for (uint32_t id = 0; id < I->grid; id++) {
            if (I->ncomp[id] > 1) nv += viol(e, "kernel %d id %u completed %u times", I->k, id, I->ncomp[id]);
            ncomp += I->ncomp[id];
            if (!I->alive) continue;
            if (I->st[id] == T_SAVED || I->st[id] == T_DROPPED) {
                I->st[id] == T_SAVED ? nsaved++ : ndropped++;
                int found = 0;
                for (int q = 0; q < PQ; q++)
                    found |= e->eq[q].st != DRV_Q_FREE && e->eq[q].inst == i && e->eq[q].id == id;
                if (!found) nv += viol(e, "kernel %d id %u is %s but no PTBQ entry holds it", I->k, id, tname[I->st[id]]);
            }
            if (I->st[id] == T_RUN || I->st[id] == T_SET || I->st[id] == T_RT) nrun++;
        }
    }
    (void)m;
    if (verbose) {
        printf("summary: cycles %llu, phases %llu, resets %llu\n", (unsigned long long)e->cycle,
               (unsigned long long)e->nphase, (unsigned long long)e->n_rst);
        printf("  phases: SMK_OD pressure %llu, one-shape %llu (tie pairs %llu), directed Algorithm 1 %llu (high ids %llu: restores and "
               "reruns of ids with bit GW-1 set %llu, from PTBQ entry PQ-1 %llu; with only bit GW-2 of the two %llu; completions of "
               "grids above 2^(GW-2) %llu, all four finished in %llu); SM-cycles with more warps in use than "
               "u_w %llu\n", (unsigned long long)e->n_odp, (unsigned long long)e->n_fixs, (unsigned long long)e->n_pair,
               (unsigned long long)e->n_dir,
               (unsigned long long)e->n_dirhi, (unsigned long long)e->n_hiid, (unsigned long long)e->n_hiid_last,
               (unsigned long long)e->n_hiid2, (unsigned long long)e->n_dirfin, (unsigned long long)e->n_finok,
               (unsigned long long)e->n_wover);
        printf("  host: launches %llu (refused %llu), kernels finished %llu, mask changes %llu (directed timer drop: %llu "
               "of %llu chances; prt = 1 at a start %llu), at most %llu kernels in use\n",
               (unsigned long long)e->n_launch, (unsigned long long)e->n_rej, (unsigned long long)e->n_kdone,
               (unsigned long long)e->n_km, (unsigned long long)e->n_tdrop, (unsigned long long)e->n_tdrop_opp,
               (unsigned long long)e->n_tdrop_hit, (unsigned long long)e->max_inst_alive);
        printf("  dispatch: fresh %llu, reruns %llu, restores %llu; by policy FCFS %llu SPART %llu SMK_OD %llu SMK_P %llu; "
               "choices EVICT %llu RESV %llu PLAN %llu DISP %llu MISS %llu, executions that did nothing (a SAVED entry "
               "waiting for its SM%s) %llu (drv_pipe %d)\n", (unsigned long long)e->n_fresh, (unsigned long long)e->n_rerun,
               (unsigned long long)e->n_restore, (unsigned long long)e->n_pol[0], (unsigned long long)e->n_pol[1],
               (unsigned long long)e->n_pol[2], (unsigned long long)e->n_pol[3], (unsigned long long)e->n_choice[1],
               (unsigned long long)e->n_choice[2], (unsigned long long)e->n_choice[3], (unsigned long long)e->n_choice[4],
               (unsigned long long)e->n_choice[5], SMK_DRV_PIPE ? ", or a choice stale by its execution" : "",
               (unsigned long long)e->n_stale, SMK_DRV_PIPE);
        printf("  commands: SAVE %llu RESTORE %llu DRAIN %llu DROP %llu; evictions %llu, reservation drains %llu, "
               "preemption plans %llu (victims %llu)\n", (unsigned long long)e->n_cmd[0], (unsigned long long)e->n_cmd[1],
               (unsigned long long)e->n_cmd[2], (unsigned long long)e->n_cmd[3], (unsigned long long)e->n_evict,
               (unsigned long long)e->n_resv, (unsigned long long)e->n_planstart, (unsigned long long)e->n_plan);
        printf("  responses: OK %llu FIN %llu ERR_EMPTY %llu; TBs completed %llu; at the end: running %llu saved %llu "
               "dropped %llu; longest wait of the policy's pick %llu cycles\n", (unsigned long long)e->n_st[0],
               (unsigned long long)e->n_st[1], (unsigned long long)e->n_st[2], (unsigned long long)ncomp,
               (unsigned long long)nrun, (unsigned long long)nsaved, (unsigned long long)ndropped,
               (unsigned long long)e->wd_worst);
        printf("  QoS: QOS cycles %llu (dispatches %llu); requests accepted %llu, ignored (rq_rdy 0) %llu; acks FREE %llu "
               "VICTIM %llu REFUSED %llu; longest acceptance-to-ack %llu cycles; QOS filling steps %llu\n",
               (unsigned long long)e->n_qos_cyc,
               (unsigned long long)e->n_pol[DRV_QOS], (unsigned long long)e->n_rq, (unsigned long long)e->n_rqign,
               (unsigned long long)e->n_ack[1], (unsigned long long)e->n_ack[2], (unsigned long long)e->n_ack[3],
               (unsigned long long)e->n_rqlat_max, (unsigned long long)e->n_qfill);
        printf("  QoS controls: QOS cycles by cfg_qctl 0/1/2/3 %llu %llu %llu %llu; KEEP relaunches that kept partitions "
               "%llu; VICTIM grants while another SM's was pending %llu; refusals: no work %llu, SM pending %llu; "
               "evictions under PGPU = 0 while pb %llu\n",
               (unsigned long long)e->n_qctl[0], (unsigned long long)e->n_qctl[1], (unsigned long long)e->n_qctl[2],
               (unsigned long long)e->n_qctl[3], (unsigned long long)e->n_keepkept, (unsigned long long)e->n_pend2,
               (unsigned long long)e->n_nowork, (unsigned long long)e->n_pendref, (unsigned long long)e->n_evpb);
        printf("  partition runs checked for coverage %llu (counting form applied %llu); kernels left with partition 0 "
               "everywhere %llu (checked at their last-chance SM %llu)\n", (unsigned long long)e->pcov.n_run,
               (unsigned long long)e->pcov.n_count, (unsigned long long)e->pcov.n_zero, (unsigned long long)e->pcov.n_last);
        printf("  rotation: runs that starved a kernel %llu, runs with a turn %llu, longest starvation %u runs (at most "
               "KN = %d)\n", (unsigned long long)e->pcov.n_rot, (unsigned long long)e->pcov.n_turn, e->pcov.max_streak, DRV_KN);
        for (int k = 0; k < KN; k++) {
            if (e->kal[k] < 0) continue;
            const inst_t *I = &e->in[e->kal[k]];
            printf("  kernel %d: grid %u set up %u completed %u, n %u r %u m %u, adm %u lim %u, mask 0x%llx, idem %u\n", k,
                   I->grid, I->nfresh, I->ndone_drv, I->n, I->r, I->m, I->adm, I->lim, (unsigned long long)e->hmask[k],
                   I->idem);
        }
    }
    return nv;
}
