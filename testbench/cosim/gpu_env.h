/* gpu_env.h: the whole GPU (gpu_top: the SM driver + NUM_SM real SM tops, docs/gpu_top.md) as the
 * GPU cosim sees it: the observation vector compared against the RTL every cycle, and a
 * workload-like random environment around the C model with the system-level "nothing lost"
 * monitors (specs: docs/sm_driver.md "Invariants", docs/sm_top.md, docs/preempt_engine.md):
 *
 *   - a host launching kernels (legal shapes, grids of 1..a few hundred TBs, idempotent flags, SM
 *     masks, admission CAP / RESERVE, relaunch after kdone, a few illegal launches) and phases of
 *     cfg_policy (FCFS, SPART with disjoint masks and mask changes, SMK_OD, SMK_P, QOS), cfg_max2,
 *     cfg_evict, cfg_pmode; a QoS manager's random requests (request port, random rq_give) and lookups;
 *   - (issue 5) the real QoS manager (u_qm): phases where the host enables it (MCTRL EN, MODE QOS / SMK /
 *     OFF, every SCHEME, TLP on and off, short epochs), disables and re-enables it mid-epoch, reads its
 *     registers; launches carry kl_goal, kl_x, kl_t. While `own` = 1 the host's csr_*, rd_addr, rq_*,
 *     lk_* are dropped by gpu_top's mux (the env keeps driving them); monitors: the mux, EPOCH_START on
 *     all SMs in one cycle, the manager's register writes (addresses, QUOTA only to a kernel slot the
 *     lookup port reported), one request outstanding at a time, its outputs 0 while not owning;
 *   - per SM a pipelines model (instructions left per warp, kept per rank in the TB ledger across a
 *     SAVE and a RESTORE on any SM; ready with stalls; busy after each issue; exits), completions
 *     into the quota unit, CSR writes (quota mode OFF, some phases with SMK quotas);
 *   - per SM a storage model (register lines per physical warp, control lines, shared-memory lines
 *     per slot; 64-bit signatures per TB identity, rewritten at issue);
 *   - one GPU-wide context memory serving every SM's engine port (random latency, reordering,
 *     backpressure): a context saved by SM a may be restored on SM b;
 *   - monitors: TB ledger keyed by (launch instance, TB id), bit-exact contexts across SMs, issue
 *     monitor, the driver's spec order of events, command legality, PTBQ shadow, limits, kl_rej /
 *     kdone predicted exactly, watchdogs, set_id = the ledger's TB id, request acks (only for an
 *     accepted request, latency bound, a grant's partition change), rq_pend / rq_rdy, lookups.
 * All decisions are here (C); cosim_gpu.cpp and gpu_vl.cpp only move values to and from Verilator. */
#ifndef GPU_ENV_H
#define GPU_ENV_H
#include "gpu_top.h"
#include "rng.h"
#include "sm_env.h" /* SM_OBS, sm_obs_t, sm_obs_from_model */
#include "qm_env.h" /* QM_OBS, QO_*: the QoS manager's observation list and packing (cosim_qm) */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint32_t rst;
    gpu_in_t in;
} gpu_stim_t;

#define GD_KN SMK_KERNELS
#define GD_NSM SMK_NUM_SM
#define GD_SLOTS (SMK_NUM_SM * SMK_TB_SLOTS)
/* ---- the driver's part of the observation vector: its output ports and every state element
 * (rtl/sm_driver.v "State packing"). Per SM by s, per SM per kernel s*KN+k, per slot s*T+t,
 * kernel slots s*KS+j, usage k*4+x / s*4+x (x: REG, SL, W, TB). */
#define GPU_DRV_OBS(X)                                                                             \
    X(kl_rej, 1) X(kdone_v, 1) X(kdone_k, 1)                                                       \
    X(set_v, GD_NSM) X(set_tb, GD_NSM) X(set_mask, GD_NSM) X(set_ks, GD_NSM) X(set_nreg, GD_NSM)   \
    X(set_smem, GD_NSM) X(set_go, GD_NSM) X(cmd_v, GD_NSM) X(cmd_op, GD_NSM) X(cmd_tb, GD_NSM)     \
    X(cmd_ptr, GD_NSM) X(cmd_idem, GD_NSM)                                                         \
    X(set_id, GD_NSM) X(rq_rdy, 1) X(rq_ack_v, 1) X(rq_ack_st, 1) X(rq_ack_kv, 1) X(rq_ack_n, 1)  \
    X(lk_cnt, 1) X(lk_part, 1) X(lk_ksv, 1) X(lk_ks, 1)                                            \
    X(kv, 1) X(kold, GD_KN) X(kn, GD_KN) X(kr, GD_KN) X(km, GD_KN) X(kdreg, GD_KN)                 \
    X(kgrid, GD_KN) X(knext, GD_KN) X(kndone, GD_KN) X(kqos, 1) X(kidem, 1) X(kmask, GD_KN)       \
    X(kadm, GD_KN) X(klim, GD_KN) X(U, GD_KN * 4) X(u, GD_NSM * 4)                                 \
    X(cnt, GD_NSM * GD_KN) X(part, GD_NSM * GD_KN) X(ksv, GD_NSM) X(ksk, GD_NSM * SMK_KSLOTS)      \
    X(sv, GD_NSM) X(spre, GD_NSM) X(sfill, GD_NSM) X(sk, GD_SLOTS) X(sid, GD_SLOTS)                \
    X(busy, 1) X(bpb, 1) X(rl_v, 1) X(rl_op, GD_NSM) X(rl_tb, GD_NSM) X(rl_st, GD_NSM)             \
    X(dp, GD_NSM) X(qst, SMK_PTBQ) X(qk, SMK_PTBQ) X(qid, SMK_PTBQ) X(qs, SMK_PTBQ)                \
    X(qt, SMK_PTBQ) X(pb, 1) X(plan_v, 1) X(plan_kc, 1) X(plan_kv, 1) X(plan_sm, 1)                \
    X(plan_left, 1) X(pdirty, 1) X(pact, 1) X(pcur, 1) X(pcnt_ks, 1) X(pgot, 1) X(prun, 1) X(psrv, 1) X(ptop, 1) X(prr, 1) X(prt, 1) X(pc, GD_KN) X(pacc, 4)      \
    X(pph, 1) X(pcand_r, 1) X(plat_r, 1) X(pkv_r, GD_KN)                                          \
    X(a1_st, 1) X(a1_kc, 1) X(a1_s, 1) X(a1_f, 1) X(a1_smv, 1) X(a1_best, 1) X(a1_kv, 1) X(a1_q, 1) X(a1_acc, 4) \
    X(a1_rk, GD_KN) X(a1_kvm, 1) X(a1_rv, 1) X(a1_rc, 1) X(a1_nouf, 1) X(a1_omax, 1) X(a1_omin, 1) X(a1_nmax, 1) \
    X(a1_nmin, 1) X(a1_ok, 1) X(a1_pw, 4) X(a1_pcd, 1) X(dp1_v, 1) X(dp2_v, 1) X(dp2_kind, 1) X(dp2_s, 1) X(dp2_k, 1) X(dp2_r, 1) \
    X(rq_st, 1) X(rq_k, 1) X(rq_ret, 1) X(rq_s, 1) X(rq_j, 1) X(rq_c, 1) X(rq_q, 1) X(rq_npk, 1) X(rq_pend, 1)  \
    X(rq_pk, GD_NSM) X(rq_g, GD_KN) X(acc, 4) X(w, 4)
#define GPU_DRV_OBS_ENUM(nm, n) GD_##nm, GD_##nm##_end = GD_##nm + (n)-1,
enum { GPU_DRV_OBS(GPU_DRV_OBS_ENUM) GD_N };
#undef GPU_DRV_OBS_ENUM
#define GD_FIRST_STATE GD_kv

/* driver part, then every SM as sm_env's SM_OBS (outputs, then the state of its four parts), then
 * (issue 5) the QoS manager as qm_env's QM_OBS: its outputs through gpu_top (q[QO_m_rdata] =
 * m_rdata, q[QO_own] = own, q[QO_csr_we .. QO_rq_give] = qm_csr_we .. qm_rq_give) and its state of
 * docs/qos_mgr.md section 13 (u_qm), named and packed as in the manager-alone cosim, pl_keep (QO_pl_keep) included. */
typedef struct {
    uint64_t d[GD_N];
    sm_obs_t s[SMK_NUM_SM];
    uint64_t q[QO_QM_N];
} gpu_obs_t;

void gpu_obs_from_model(const gpu_top_t *g, const gpu_out_t *o, gpu_obs_t *ob);
/* Print each differing signal (cycle, drv.NAME[i], sm[s].NAME[i] or qm.NAME[i], reference, RTL; the
 * first 16) as obs_diff does; returns their number. */
int gpu_obs_diff(const gpu_obs_t *ref, const gpu_obs_t *rtl, uint64_t cycle);

typedef struct gpu_env gpu_env_t;
gpu_env_t *gpu_env_new(uint64_t seed);
void gpu_env_free(gpu_env_t *e);
/* Draw this cycle's inputs: host, configuration and, per SM, pipelines, CSR, memory, cap. */
void gpu_env_gen(gpu_env_t *e, gpu_stim_t *st);
/* Observe this cycle's outputs and state of the C model (after gpu_eval, before gpu_commit): run
 * every monitor, then advance host, pipelines, storage, memory and ledger by one clock edge.
 * Returns the number of invariant violations (each printed with its cycle). */
int gpu_env_observe(gpu_env_t *e, const gpu_stim_t *st, const gpu_top_t *g, const gpu_out_t *o);
/* End of run: accounting of every TB identity; summary (per policy) when verbose. */
int gpu_env_finish(gpu_env_t *e, const gpu_top_t *g, int verbose);
uint64_t gpu_env_cycle(const gpu_env_t *e);

#ifdef __cplusplus
}
#endif
#endif
