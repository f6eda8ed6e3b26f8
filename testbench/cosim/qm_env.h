/* qm_env.h: the QoS manager as its stand-alone cosim sees it: the C model (one qos_mgr), a random
 * environment (host register port, snooped launches with refusals and completions, scripted SM
 * register responses, a driver stub for the lookup and request ports), and the observation vector
 * compared against the RTL every cycle: every output and the state of docs/qos_mgr.md section 13.
 *
 * Cycle order (docs/qos_mgr.md section 10): qm_env_gen (inputs that do not depend on the manager),
 * qm_model_eval (the manager's outputs: a function of its state and m_raddr), qm_env_respond
 * (lk_* and rd_data from this cycle's lk_s/lk_k and rd_addr), then the edge. */
#ifndef QM_ENV_H
#define QM_ENV_H
#include "cosim_env.h"
#include "qos_mgr.h"
#include "rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- composed model (just the manager) */
typedef struct {
    uint32_t rst;
    qm_in_t in;
} qm_stim_t;

typedef struct {
    qos_mgr_t q;
    qm_out_t o;
} qm_model_t;

void qm_model_reset(qm_model_t *m);
void qm_model_eval(qm_model_t *m, const qm_stim_t *st); /* fills m->o */
void qm_model_commit(qm_model_t *m, const qm_stim_t *st);

/* ---- observation vector: every output, then the state of section 13 */
#define QM_OBS(X)                                                                                    \
    X(m_rdata, 1) X(own, 1) X(csr_we, 1) X(csr_addr, QM_NSM) X(csr_wdata, QM_NSM) X(rd_addr, QM_NSM)  \
    X(lk_s, 1) X(lk_k, 1) X(rq_v, 1) X(rq_k, 1) X(rq_sm, 1) X(rq_ret, 1) X(rq_give, QM_KN)                         \
    X(mctrl, 1) X(epoch_len, 1) X(sample_per, 1) X(st, 1) X(init_i, 1) X(et, 1) X(L, 1)               \
    X(cur_mode, 1) X(epochs, 1)                                                                      \
    X(mv, QM_KN) X(mqos, QM_KN) X(mkn, QM_KN) X(mgoal, QM_KN) X(mx, QM_KN) X(mt, QM_KN)              \
    X(fresh, QM_KN) X(wcnt, QM_KN) X(wc, QM_KN) X(isum, QM_KN) X(tsum, QM_KN) X(cum_i, QM_KN)        \
    X(cum_c, QM_KN) X(ipc_ep, QM_KN) X(hist, QM_KN) X(alpha, QM_KN) X(agoal, QM_KN) X(hgive, QM_KN)  \
    X(qpt, QM_KN) X(smk_r, QM_KN) X(dbt, QM_KN)                                                      \
    X(pl_v, 1) X(pl_k, 1) X(pl_n, 1) X(pl_qos, 1) X(pl_goal, 1) X(pl_x, 1) X(pl_t, 1)                \
    X(P, 1) X(ratio, 1) X(gN, 1) X(Q, 1) X(qm, QM_NSM) X(ga_i, 1) X(ga_t, 1)                         \
    X(g_s, 1) X(g_k, 1) X(g_ksv, 1) X(g_ks, 1) X(g_cnt, 1) X(x_q, 1) X(x_v, 1) X(x_s, 1) X(x_ks, 1)  \
    X(cb, QM_KN) X(kb, QM_KN) X(sumc, 1) X(F, 1)                                                     \
    X(tl_st, 1) X(tl_s, 1) X(tl_n, 1) X(tl_v, 1) X(smp, 1) X(idl, 1) X(sk, 1) X(itb, QM_KN) X(give, QM_KN)      \
    X(rq_k_r, 1) X(rq_sm_r, 1) X(rq_ret_r, 1)
#define QM_OBS_ENUM(nm, n) QO_##nm, QO_##nm##_end = QO_##nm + (n)-1,
enum { QM_OBS(QM_OBS_ENUM) QO_N };
#undef QM_OBS_ENUM
/* state compared by this stand-alone cosim only, after the shared list (QM_OBS is also the GPU
 * cosim's list, gpu_env.c): pl_keep, the latched kl_keep (docs/qos_mgr.md section 4) */
enum { QO_pl_keep = QO_N, QO_QM_N };
#define QO_FIRST_STATE QO_mctrl
typedef struct { uint64_t v[QO_QM_N]; } qm_obs_t;

/* Every output and state element of the manager, packed as QM_OBS (+ pl_keep) says; shared by
 * qm_obs_from_model (cosim_qm) and gpu_env.c (the manager inside gpu_top). */
static inline void qm_obs_fill(const qos_mgr_t *q, const qm_out_t *o, uint64_t *v)
{
    v[QO_m_rdata] = o->m_rdata, v[QO_own] = o->own, v[QO_csr_we] = o->csr_we;
    for (int s = 0; s < QM_NSM; s++) {
        v[QO_csr_addr + s] = o->csr_addr[s], v[QO_csr_wdata + s] = o->csr_wdata[s];
        v[QO_rd_addr + s] = o->rd_addr[s], v[QO_qm + s] = q->qm[s];
    }
    v[QO_lk_s] = o->lk_s, v[QO_lk_k] = o->lk_k;
    v[QO_rq_v] = o->rq_v, v[QO_rq_k] = o->rq_k, v[QO_rq_sm] = o->rq_sm, v[QO_rq_ret] = o->rq_ret;
    v[QO_mctrl] = q->mctrl, v[QO_epoch_len] = q->epoch_len, v[QO_sample_per] = q->sample_per;
    v[QO_st] = q->st, v[QO_init_i] = q->init_i, v[QO_et] = q->et, v[QO_L] = q->L;
    v[QO_cur_mode] = q->cur_mode, v[QO_epochs] = q->epochs;
    for (int k = 0; k < QM_KN; k++) {
        v[QO_rq_give + k] = o->rq_give[k];
        v[QO_mv + k] = q->mv[k], v[QO_mqos + k] = q->mqos[k], v[QO_mkn + k] = q->mkn[k];
        v[QO_mgoal + k] = q->mgoal[k], v[QO_mx + k] = q->mx[k], v[QO_mt + k] = q->mt[k];
        v[QO_fresh + k] = q->fresh[k], v[QO_wcnt + k] = q->wcnt[k], v[QO_wc + k] = q->wc[k];
        v[QO_isum + k] = q->isum[k], v[QO_tsum + k] = q->tsum[k], v[QO_cum_i + k] = q->cum_i[k];
        v[QO_cum_c + k] = q->cum_c[k], v[QO_ipc_ep + k] = q->ipc_ep[k], v[QO_hist + k] = q->hist[k];
        v[QO_alpha + k] = q->alpha[k], v[QO_agoal + k] = q->agoal[k], v[QO_hgive + k] = q->hgive[k];
        v[QO_qpt + k] = q->qpt[k], v[QO_smk_r + k] = q->smk_r[k], v[QO_dbt + k] = q->dbt[k];
        v[QO_cb + k] = q->cb[k], v[QO_kb + k] = q->kb[k];
        v[QO_itb + k] = q->itb[k], v[QO_give + k] = q->give[k];
    }
    v[QO_pl_v] = q->pl_v, v[QO_pl_k] = q->pl_k, v[QO_pl_n] = q->pl_n, v[QO_pl_qos] = q->pl_qos;
    v[QO_pl_goal] = q->pl_goal, v[QO_pl_x] = q->pl_x, v[QO_pl_t] = q->pl_t, v[QO_pl_keep] = q->pl_keep;
    v[QO_P] = q->P, v[QO_ratio] = q->ratio, v[QO_gN] = q->gN, v[QO_Q] = q->Q;
    v[QO_ga_i] = q->ga_i, v[QO_ga_t] = q->ga_t;
    v[QO_g_s] = q->g_s, v[QO_g_k] = q->g_k, v[QO_g_ksv] = q->g_ksv, v[QO_g_ks] = q->g_ks, v[QO_g_cnt] = q->g_cnt;
    v[QO_x_q] = q->x_q, v[QO_x_v] = q->x_v, v[QO_x_s] = q->x_s, v[QO_x_ks] = q->x_ks;
    v[QO_sumc] = q->sumc, v[QO_F] = q->F;
    v[QO_tl_st] = q->tl_st, v[QO_tl_s] = q->tl_s, v[QO_tl_n] = q->tl_n, v[QO_tl_v] = q->tl_v, v[QO_smp] = q->smp;
    v[QO_idl] = q->idl, v[QO_sk] = q->sk, v[QO_rq_k_r] = q->rq_k_r, v[QO_rq_sm_r] = q->rq_sm_r;
    v[QO_rq_ret_r] = q->rq_ret_r;
}
void qm_obs_from_model(const qm_model_t *m, qm_obs_t *o);
extern const obs_table_t qm_obs_table; /* names and widths of QM_OBS and pl_keep, for obs_diff */

/* ---- environment */
#define QM_SMREGS 256 /* SM register addresses (ADDR_W = 8) */
/* phase kinds (qm_env_t.focus) */
enum { QM_F_NONE = 0, QM_F_TLP, QM_F_SMK, QM_F_LOWIPC, QM_F_DIS };

typedef struct {
    rng_t r;
    uint64_t cycle, seed;
    /* phase knobs */
    uint64_t phase_end;
    uint32_t p_host, p_dis, p_launch, p_rej, p_done, p_rdy, p_stray, p_rst, p_churn, lat_max, len_kind;
    uint32_t mode, tlp;
    int focus; /* QM_F_*: TLP phase (QOS mode, TLP on, long epochs, QoS launches with goals above any
                * history) or one of the directed phases of qm_env.c's new_phase */
    uint32_t dis_reen, dis_epoch, dis_off; /* QM_F_DIS: re-enable pending, next armed epoch, offset */
    uint32_t dis_init;                     /* QM_F_DIS: disable in the INIT that this re-enable starts */
    uint64_t n_reen, n_ep_end, n_dis_init, n_latch_w; /* QM_F_DIS: re-enables, epoch ends seen, directed
                                                        * disables in INIT, MCTRL rewrites at an epoch end */
    uint32_t rl_state, rl_k, rl_off, rl_epoch, rl_norej; /* relaunch pattern (qm_env.c relaunch_point) */
    uint32_t smk_fsat; /* QM_F_SMK: launches with the largest T and long epochs (F saturates) */
    uint32_t smk_lone; /* every other QM_F_SMK phase: x = 2^-16, t = 1 launches, SM 0's lookups show the lowest such
                        * kernel in use alone with one TB (sumc = 1 raw), epochs with L x SCHED >= 2^16 (Fd saturates) */
    uint64_t n_smkph, n_lone;
    /* driver stub: lookup tables per (s, k) */
    uint32_t cnt[QM_NSM][QM_KN], part[QM_NSM][QM_KN], ksv[QM_NSM][QM_KN], ks[QM_NSM][QM_KN];
    /* scripted SM registers: the value behind every read address */
    uint32_t smreg[QM_NSM][QM_SMREGS];
    /* request port: accepted request waiting for its ack */
    int rq_pend;
    uint32_t rq_due, ack_st, ack_kv, ack_n;
    uint32_t prev_kl_v, prev_kl_k, rst_left;
    int script; /* position in the phase-start host writes (3 = none) */
    /* statistics */
    uint64_t n_directed[3], n_mdis, n_relaunch, n_kd_commit, n_snap_ack;
    uint64_t n_launch, n_keep, n_req, n_victim, n_epochs_seen, n_snaps, n_quota, n_dis, n_rst, n_tlp_sm, n_tlp_rd, n_focus;
} qm_env_t;

void qm_env_init(qm_env_t *e, uint64_t seed);
/* inputs that do not depend on this cycle's outputs: rst, host port, launches, kdone, rq_rdy, acks */
void qm_env_gen(qm_env_t *e, qm_stim_t *st);
/* lookup results and SM read data for this cycle's outputs */
void qm_env_respond(const qm_env_t *e, const qm_out_t *o, qm_stim_t *st);
/* clock edge of the environment (request acceptance, ack scheduling, statistics). Returns the number of
 * invariant violations (each printed with its cycle): stimulus fields wider than their ports. */
int qm_env_commit(qm_env_t *e, const qm_stim_t *st, const qm_out_t *o);
void qm_env_summary(const qm_env_t *e);

#ifdef __cplusplus
}
#endif
#endif
