/* sm_driver.h: C reference model of the central TB dispatcher (spec: docs/sm_driver.md).
 * Same interface style as the other blocks: drv_reset, drv_eval (this cycle's outputs, no state
 * change), drv_commit (clock edge). The state is exactly the spec's "State" tables. */
#ifndef SM_DRIVER_H
#define SM_DRIVER_H
#include "preempt_engine.h" /* tmask_t, wmask_t, PE_OP/PE_ST enums */

#ifdef __cplusplus
extern "C" {
#endif

#define DRV_NSM SMK_NUM_SM
#define DRV_KN SMK_KERNELS
#define DRV_KS SMK_KSLOTS
#define DRV_T SMK_TB_SLOTS
#define DRV_PQ SMK_PTBQ

enum { DRV_FCFS = 0, DRV_SPART = 1, DRV_SMK_OD = 2, DRV_SMK_P = 3, DRV_QOS = 4 };  /* cfg_policy */
enum { DRV_ADM_NONE = 0, DRV_ADM_CAP = 1, DRV_ADM_RESERVE = 2 };                  /* kl_adm */
enum { DRV_Q_FREE = 0, DRV_Q_PEND = 1, DRV_Q_SAVED = 2, DRV_Q_REST = 3, DRV_Q_RERUN = 4 }; /* qst */
enum { DRV_R_REG = 0, DRV_R_SL = 1, DRV_R_W = 2, DRV_R_TB = 3, DRV_NRES = 4 };    /* resources */

typedef struct {
    /* kernel table */
    uint64_t kv;                    /* bit k */
    uint64_t kold[DRV_KN];          /* bit j: kernel j older than k */
    uint16_t kn[DRV_KN], kr[DRV_KN], km[DRV_KN], kdreg[DRV_KN];
    uint32_t kgrid[DRV_KN], knext[DRV_KN], kndone[DRV_KN];
    uint64_t kqos, kidem;           /* bit k */
    uint64_t kmask[DRV_KN];         /* bit s (num_sm <= 64, enforced by hw/) */
    uint8_t kadm[DRV_KN];
    uint32_t klim[DRV_KN];
    uint32_t U[DRV_KN][DRV_NRES];   /* GPU-wide usage */
    /* per SM */
    uint32_t u[DRV_NSM][DRV_NRES];
    uint8_t cnt[DRV_NSM][DRV_KN], part[DRV_NSM][DRV_KN];
    uint16_t ksv[DRV_NSM];          /* bit j */
    uint8_t ksk[DRV_NSM][DRV_KS];
    tmask_t sv[DRV_NSM], spre[DRV_NSM], sfill[DRV_NSM];
    uint8_t sk[DRV_NSM][DRV_T];
    uint32_t sid[DRV_NSM][DRV_T];
    uint64_t busy, bpb, rl_v;       /* bit s */
    uint8_t rl_op[DRV_NSM], rl_tb[DRV_NSM], rl_st[DRV_NSM];
    tmask_t dp[DRV_NSM];
    /* PTBQ */
    uint8_t qst[DRV_PQ], qk[DRV_PQ], qs[DRV_PQ], qt[DRV_PQ];
    uint32_t qid[DRV_PQ];
    /* global */
    uint32_t pb, plan_v, plan_kc, plan_kv, plan_sm, plan_left;
    /* Algorithm 1 unit (docs/sm_driver.md "Algorithm 1: preemption start"): one step per cycle */
    uint32_t a1_st, a1_kc, a1_s, a1_f, a1_smv, a1_best, a1_kv, a1_q;
    uint32_t a1_acc[DRV_NRES];      /* a1_q * d_x(a1_kv) */
    /* drv_pipe = 1: RNG in steps R1, R2, R3 ("Algorithm 1", "With drv_pipe = 1") */
    uint32_t a1_rk[DRV_KN];         /* R1: rK(k) */
    uint64_t a1_kvm;                /* R1: kv */
    uint32_t a1_rv, a1_rc, a1_nouf; /* R1: share(U(Kv) - a1_acc) (0 unless a1_nouf), share(U(Kc) + d(Kc)), U(Kv) >= a1_acc */
    uint32_t a1_omax, a1_omin, a1_nmax, a1_nmin; /* R2: the range ends before and after */
    uint32_t a1_ok;                 /* R3: the range shrinks */
    uint32_t a1_pw[DRV_NRES];       /* drv_pipe = 1: u(s) - cnt[s][Kc] * d(Kc) of SM s = a1_s, from the cycle before */
    uint32_t a1_pcd;                /* and its candidacy */
    uint32_t kl_rej, kdone_v, kdone_k;
    /* partition unit */
    uint32_t pdirty, pact, pcur, pcnt_ks;
    uint64_t pgot;                  /* bit k: kernel k has a partition on an SM of this run (since the wrap) */
    uint64_t prun, psrv;            /* bit k: a partition on an SM of this run / a candidate in this run */
    uint64_t ptop;                  /* one-hot (or 0): the kernel of this run's rotation turn */
    uint32_t prr, prt;              /* rotation pointer (a kernel index); rotation timer (cycles) */
    uint32_t pc[DRV_KN];
    uint32_t pacc[DRV_NRES];
    /* the filling step's registers with drv_pipe = 1 (all 0 otherwise): the phase (0 evaluate, 1
     * commit), the evaluated candidates, their lat bits and keys (0 for a non-candidate) */
    uint32_t pph;
    uint64_t pcand_r, plat_r;
    uint32_t pkv_r[DRV_KN];
    /* request unit (docs/sm_driver.md "QoS") */
    uint32_t rq_st, rq_k, rq_s, rq_j, rq_c, rq_q, rq_npk;
    uint32_t rq_ret;                /* the accepted request is a give-back: SCAN starts at pass 1 */
    uint64_t rq_pend;               /* per SM: a VICTIM grant's preemption is pending there */
    uint8_t rq_pk[DRV_NSM];         /* per SM: that grant's victim kernel */
    uint32_t rq_g[DRV_KN];
    uint32_t acc[DRV_NRES], w[DRV_NRES];
    uint32_t rq_ack_v, rq_ack_st, rq_ack_kv, rq_ack_n;
    /* decision pipeline (docs/sm_driver.md "Decision pipeline"; drv_pipe = 1, all 0 otherwise):
     * dp1_v, and dp2 the choice executed in this cycle. dp1_kind, dp1_s, dp1_k, dp1_r are the
     * model's form of stage S1: the choice of the previous cycle's state itself (the RTL holds the
     * values it is computed from; not compared) */
    uint32_t dp1_v, dp2_v, dp2_kind, dp2_s, dp2_k;
    uint64_t dp2_r;
    uint32_t dp1_kind, dp1_s, dp1_k;
    uint64_t dp1_r;
    /* Not in the spec's State tables: a memo for model speed only (no behaviour of its own).
     * drv_commit sets memo_v when the edge left every state element the choice ("Decision
     * pipeline") reads unchanged (no event, no execution that acts, ...); memo_cfg / memo_wused are
     * the choice's other inputs of that cycle (cfg_policy, cfg_max2, cfg_evict, cfg_pmode, cfg_qctl
     * PGPU; wused) and memo_ch / memo_r the choice. drv_eval reuses it when its inputs are the same. drv_reset clears memo_v; code that writes the state directly must clear it too. */
    uint32_t memo_v, memo_cfg;
    uint32_t memo_ch[3];            /* the choice's kind, S, K */
    uint64_t memo_r;                /* and R */
    wmask_t memo_wused[DRV_NSM];
} sm_driver_t;

typedef struct {
    /* host */
    uint32_t kl_v, kl_k, kl_n, kl_r, kl_m, kl_grid, kl_qos, kl_idem, kl_adm, kl_lim;
    uint64_t kl_mask;
    uint32_t km_v, km_k;
    uint64_t km_mask;
    uint32_t cfg_policy, cfg_max2, cfg_evict, cfg_pmode;
    uint32_t kl_keep;  /* the launch is a relaunch of the entry's application (with kl_v) */
    uint32_t cfg_qctl; /* QOS controls: DRV_QC_KEEP, DRV_QC_PGPU (docs/sm_driver.md "QoS") */
    /* QoS manager: request and lookup ports */
    uint32_t rq_v, rq_k, rq_sm, rq_ret; /* rq_ret: a give-back request (pass 1 only) */
    uint32_t rq_give[DRV_KN];
    uint32_t lk_s, lk_k;
    /* from each SM */
    uint32_t set_rej[DRV_NSM], cmd_full[DRV_NSM];
    uint32_t rsp_v[DRV_NSM], rsp_op[DRV_NSM], rsp_tb[DRV_NSM], rsp_status[DRV_NSM];
    uint64_t rsp_ptr[DRV_NSM];
    tmask_t tb_done[DRV_NSM];
    wmask_t wused[DRV_NSM];
} drv_in_t;

typedef struct {
    uint32_t kl_rej, kdone_v, kdone_k;
    /* QoS manager: request and lookup ports */
    uint32_t rq_rdy, rq_ack_v, rq_ack_st, rq_ack_kv, rq_ack_n;
    uint32_t lk_cnt, lk_part, lk_ksv, lk_ks;
    /* to each SM */
    uint32_t set_id[DRV_NSM];
    uint32_t set_v[DRV_NSM], set_tb[DRV_NSM], set_ks[DRV_NSM], set_nreg[DRV_NSM], set_smem[DRV_NSM],
        set_go[DRV_NSM];
    wmask_t set_mask[DRV_NSM];
    uint32_t cmd_v[DRV_NSM], cmd_op[DRV_NSM], cmd_tb[DRV_NSM], cmd_idem[DRV_NSM];
    uint64_t cmd_ptr[DRV_NSM];
    /* not ports: this cycle's decision and event, for testbenches and traces (drv_commit applies
     * them). EVICT/RESV/PLAN_PRE: dec_sm, dec_slot = the victim's SM and slot, dec_k, dec_id its
     * kernel and TB id, dec_q the PEND entry (SAVE/DROP; 0 for DRAIN). NEW/RERUN/RESTORE: dec_sm,
     * dec_slot = S, t of the set-up, dec_k = K, dec_id = TB id, dec_q = the PTBQ entry (RERUN,
     * RESTORE; 0 for NEW). PLAN_START: dec_sm = SMv, dec_k = Kc, dec_id = Kv, dec_slot = p. */
    uint32_t dec_kind;  /* DRV_DEC_* */
    uint32_t dec_sm, dec_slot, dec_k, dec_id, dec_q;
    uint32_t ev_kind;   /* DRV_EV_* */
    uint32_t ev_sm, ev_slot;
    /* not ports: the SMK_OD dispatch found its kernel Kc = a1_kc not fitting on SMc with ~plan_v and
     * ~pb, and no decision 1-4 applies (the Algorithm 1 unit starts from IDLE) */
    uint32_t a1_go, a1_kc;
    /* not ports ("Decision pipeline"): this cycle's choice ch(state) (kind DRV_CH_*, S, K, R); the
     * execution of this cycle acts; its plan step decrements plan_left / ends the plan */
    uint32_t ch_kind, ch_s, ch_k;
    uint64_t ch_r;
    uint32_t act, pl_dec, pl_clear;
} drv_out_t;

enum { DRV_DEC_NONE = 0, DRV_DEC_EVICT, DRV_DEC_RESV, DRV_DEC_PLAN_PRE, DRV_DEC_NEW, DRV_DEC_RERUN,
       DRV_DEC_RESTORE, DRV_DEC_PLAN_START };
enum { DRV_CH_NONE = 0, DRV_CH_EVICT, DRV_CH_RESV, DRV_CH_PLAN, DRV_CH_DISP, DRV_CH_MISS }; /* dp2_kind */
enum { DRV_EV_NONE = 0, DRV_EV_RSP, DRV_EV_DONE };
enum { DRV_RQ_IDLE = 0, DRV_RQ_SUM = 1, DRV_RQ_SCAN = 2 };                       /* rq_st */
enum { DRV_A1_IDLE = 0, DRV_A1_SMV = 1, DRV_A1_KV = 2, DRV_A1_P = 3, DRV_A1_RNG = 4, DRV_A1_R1 = 5, DRV_A1_R2 = 6,
       DRV_A1_R3 = 7 }; /* a1_st (R1-R3: drv_pipe = 1) */
enum { DRV_QC_KEEP = 1, DRV_QC_PGPU = 2 };                                        /* cfg_qctl */
enum { DRV_ACK_FREE = 1, DRV_ACK_VICTIM = 2, DRV_ACK_REFUSED = 3 };              /* rq_ack_st */

void drv_reset(sm_driver_t *d);
/* Outputs of this cycle from current state and inputs (no state change). */
void drv_eval(const sm_driver_t *d, const drv_in_t *in, drv_out_t *out);
/* Clock edge: next state from current state, inputs and this cycle's outputs (from drv_eval). */
void drv_commit(sm_driver_t *d, const drv_in_t *in, const drv_out_t *out);

/* ---- pure functions of the spec, exported for unit tests (any limits, not only the config's) */
/* share = max over resources of u[x] * mult[x] ("Units and exact dominant shares") */
uint32_t drv_share(const uint32_t u[DRV_NRES], const uint32_t mult[DRV_NRES]);
/* Algorithm 1 step 4: does the range of rk[0..n-1] (only entries with bit i of `valid`) strictly
 * shrink when rk[kv] becomes rkv_new and rk[kc] becomes rkc_new? */
int drv_range_shrinks(const uint32_t *rk, uint64_t valid, int n, int kc, uint32_t rkc_new, int kv,
                      uint32_t rkv_new);
/* Progressive filling of one SM ("Partitions"), all at once: n kernels with demands d[k][x],
 * allowed (bit k), per-SM limits lim[x], multipliers mult[x], kernel-slot limit ks (and 2 with
 * max2), and the partition unit's pgot at the start of that SM (bit k; 0 for the first SM of a
 * run, or one SM alone), its ptop (the rotation turn: one-hot or 0) and its lat (bit k: kernel k
 * is allowed on an SM after that one in the run; 0 for the last SM, or one SM alone); equal keys:
 * pgot 0 first, then the ptop kernel, then lat 0, then the highest index; writes part[k]. With
 * cand != NULL, *cand = the kernels that were a candidate at some step (bit k). The sequential partition unit of the model must give the same result.
 * The QOS filling rule is the same call with mult = {0, 0, 1, 0} (the warp count is the key),
 * allowed = the kernels allowed(k, s) on that SM and lat also requiring allowed(k, s + 1) of a
 * non-QoS kernel. */
void drv_fill(int n, const uint32_t d[][DRV_NRES], uint64_t allowed, const uint32_t lim[DRV_NRES],
              const uint32_t mult[DRV_NRES], int ks, int max2, uint64_t pgot, uint64_t top, uint64_t lat,
              uint32_t *part, uint64_t *cand);

#ifdef __cplusplus
}
#endif
#endif
