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
    X(lk_s, 1) X(lk_k, 1) X(rq_v, 1) X(rq_k, 1) X(rq_sm, 1) X(rq_give, QM_KN)                         \
    X(mctrl, 1) X(epoch_len, 1) X(sample_per, 1) X(st, 1) X(init_i, 1) X(et, 1) X(L, 1)               \
    X(cur_mode, 1) X(epochs, 1)                                                                      \
    X(mv, QM_KN) X(mqos, QM_KN) X(mkn, QM_KN) X(mgoal, QM_KN) X(mx, QM_KN) X(mt, QM_KN)              \
    X(fresh, QM_KN) X(wcnt, QM_KN) X(wc, QM_KN) X(isum, QM_KN) X(tsum, QM_KN) X(cum_i, QM_KN)        \
    X(cum_c, QM_KN) X(ipc_ep, QM_KN) X(hist, QM_KN) X(alpha, QM_KN) X(agoal, QM_KN) X(hgive, QM_KN)  \
    X(qpt, QM_KN) X(smk_r, QM_KN)                                                                    \
    X(pl_v, 1) X(pl_k, 1) X(pl_n, 1) X(pl_qos, 1) X(pl_goal, 1) X(pl_x, 1) X(pl_t, 1)                \
    X(P, 1) X(ratio, 1) X(gN, 1) X(Q, 1) X(qm, QM_NSM) X(ga_i, 1) X(ga_t, 1)                         \
    X(g_s, 1) X(g_k, 1) X(g_ksv, 1) X(g_ks, 1) X(g_cnt, 1) X(x_q, 1) X(x_v, 1) X(x_s, 1) X(x_ks, 1)  \
    X(cb, QM_KN) X(kb, QM_KN) X(sumc, 1) X(F, 1)                                                     \
    X(tl_st, 1) X(tl_s, 1) X(tl_v, 1) X(smp, 1) X(idl, 1) X(sk, 1) X(itb, QM_KN) X(give, QM_KN)      \
    X(rq_k_r, 1) X(rq_sm_r, 1)
#define QM_OBS_ENUM(nm, n) QO_##nm, QO_##nm##_end = QO_##nm + (n)-1,
enum { QM_OBS(QM_OBS_ENUM) QO_N };
#undef QM_OBS_ENUM
/* state compared by this stand-alone cosim only, after the shared list (QM_OBS is also the GPU
 * cosim's list, gpu_env.c): pl_keep, the latched kl_keep (docs/qos_mgr.md section 4) */
enum { QO_pl_keep = QO_N, QO_QM_N };
#define QO_FIRST_STATE QO_mctrl
typedef struct { uint64_t v[QO_QM_N]; } qm_obs_t;

void qm_obs_from_model(const qm_model_t *m, qm_obs_t *o);
/* Print each differing signal (cycle, name, ref, RTL) and the replay command; returns the count. */
int qm_obs_compare(const qm_obs_t *ref, const qm_obs_t *rtl, uint64_t cycle, const char *replay);

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
    uint32_t rl_state, rl_k, rl_off, rl_epoch, rl_norej; /* relaunch pattern (qm_env.c relaunch_point) */
    /* driver stub: lookup tables per (s, k) */
    uint32_t cnt[QM_NSM][QM_KN], part[QM_NSM][QM_KN], ksv[QM_NSM][QM_KN], ks[QM_NSM][QM_KN];
    /* scripted SM registers: the value behind every read address */
    uint32_t smreg[QM_NSM][QM_SMREGS];
    /* request port: accepted request waiting for its ack */
    int rq_pend;
    uint32_t rq_due, ack_st, ack_kv, ack_n;
    uint32_t prev_kl_v, rst_left;
    int script; /* position in the phase-start host writes (3 = none) */
    /* statistics */
    uint64_t n_directed[3], n_mdis, n_relaunch;
    uint64_t n_launch, n_keep, n_req, n_victim, n_epochs_seen, n_snaps, n_quota, n_dis, n_rst, n_tlp_sm, n_tlp_rd, n_focus;
} qm_env_t;

void qm_env_init(qm_env_t *e, uint64_t seed);
/* inputs that do not depend on this cycle's outputs: rst, host port, launches, kdone, rq_rdy, acks */
void qm_env_gen(qm_env_t *e, qm_stim_t *st);
/* lookup results and SM read data for this cycle's outputs */
void qm_env_respond(const qm_env_t *e, const qm_out_t *o, qm_stim_t *st);
/* clock edge of the environment (request acceptance, ack scheduling, statistics) */
void qm_env_commit(qm_env_t *e, const qm_stim_t *st, const qm_out_t *o);
void qm_env_summary(const qm_env_t *e);

#ifdef __cplusplus
}
#endif
#endif
