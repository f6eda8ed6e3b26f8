/* drv_env.h: the SM driver (sm_driver: kernel table, per-SM resource table, slot mirror, PTBQ,
 * FCFS / SPART / SMK_OD / SMK_P, admission) as the driver cosim sees it: the observation vector
 * compared against the RTL every cycle, and a random environment around the C model (spec:
 * docs/sm_driver.md; the SM side: docs/sm_top.md and docs/preempt_engine.md):
 *
 *   - a random SM-side responder per SM, at port level: TB slot table (alloc / go / run, S2 set-up
 *     acceptance, the launch arbiter, registered wused), TBs that finish after random times
 *     (tb_done), an engine model with the real command queue (cmd_full), the real legality table
 *     at the pop (ERR_EMPTY / FIN / ...), STOP / XFER / DONE with random drain and transfer delays,
 *     stopped TBs that may still finish (FIN), DRAIN completions when the TB finishes, RESTORE ->
 *     launch; one response per SM per cycle;
 *   - a random host: kernel launches (legal, illegal, into busy entries), shapes, grids, QoS and
 *     idempotent flags, masks (disjoint in SPART phases), admission CAP / RESERVE, mask changes,
 *     relaunches; phases of cfg_policy (QOS included) / cfg_max2 / cfg_evict / cfg_pmode; random resets;
 *     targeted phases (aimed at the mutation survivors, docs/mutation_notes.md): one shape for every
 *     launch (ties of rK and of the partition key), SMK_OD pressure (long TBs, small and large kernels
 *     mixed), and directed Algorithm 1 phases (reset, one or two victim kernels of small TBs fill every
 *     slot, optionally one per SM, then a kernel whose TB needs warps, shared memory, registers or a
 *     slot of them);
 *   - a random QoS manager: requests (legal and illegal, random rq_give), presented whatever rq_rdy,
 *     and random lookups (lk_s, lk_k);
 *   - monitors, from the environment's own records (TB ledger keyed by (launch instance, TB id),
 *     slot view, PTBQ shadow, context memory) and the spec's rules, on the C model's outputs and
 *     state (the RTL equals them by the lockstep compare): limits, counters = sums over the slot
 *     mirror, set_rej / cmd_full never 1, events only for delivered responses / tb_done in the
 *     spec's order, command legality, TB ledger, one preemption in flight, PTBQ shadow, dispatch
 *     choice per policy (fits, kernel and SM), kl_rej / kdone, no-starvation watchdogs; request
 *     unit: acks only for accepted requests, invalid ones REFUSED the next cycle, the latency bound,
 *     ack fields 0 without rq_ack_v, a grant's partition change (requester +1, victim -n, a QoS
 *     victim within rq_give) and the SM's partitions within its limits, partitions <= T, rq_pend and
 *     rq_rdy as the ports imply; set_id = the ledger's TB id; lookup = the environment's slot view;
 *     partition coverage after every partition run with a constant kernel table (drv_pcov_step: no
 *     servable kernel left with partition 0 everywhere where docs/sm_driver.md "Partitions" promises
 *     it one).
 * All decisions are here (C); cosim_drv.cpp only moves values to and from Verilator. */
#ifndef DRV_ENV_H
#define DRV_ENV_H
#include "cosim_env.h"
#include "rng.h"
#include "sm_driver.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DRV_NSM_ SMK_NUM_SM
#define DRV_KN_ SMK_KERNELS
#define DRV_SLOTS_ (SMK_NUM_SM * SMK_TB_SLOTS)

/* one cycle of stimulus: reset plus every input port of sm_driver */
typedef struct {
    uint32_t rst;
    drv_in_t in;
} drv_stim_t;

/* ---- observation vector: every output port and every state element (docs/sm_driver.md "State").
 * Per-SM outputs are indexed by SM; per-SM-per-kernel state by s*KN+k, per-slot state by s*T+t,
 * kernel-slot state by s*KS+j. */
#define DRV_OBS(X)                                                                                 \
    /* outputs */                                                                                  \
    X(kl_rej, 1) X(kdone_v, 1) X(kdone_k, 1)                                                       \
    X(set_v, SMK_NUM_SM) X(set_tb, SMK_NUM_SM) X(set_mask, SMK_NUM_SM) X(set_ks, SMK_NUM_SM)       \
    X(set_nreg, SMK_NUM_SM) X(set_smem, SMK_NUM_SM) X(set_go, SMK_NUM_SM)                          \
    X(cmd_v, SMK_NUM_SM) X(cmd_op, SMK_NUM_SM) X(cmd_tb, SMK_NUM_SM) X(cmd_ptr, SMK_NUM_SM)        \
    X(cmd_idem, SMK_NUM_SM)                                                                        \
    X(set_id, SMK_NUM_SM) X(rq_rdy, 1) X(rq_ack_v, 1) X(rq_ack_st, 1) X(rq_ack_kv, 1)              \
    X(rq_ack_n, 1) X(lk_cnt, 1) X(lk_part, 1) X(lk_ksv, 1) X(lk_ks, 1)                             \
    /* kernel table */                                                                             \
    X(kv, 1) X(kold, DRV_KN_) X(kn, DRV_KN_) X(kr, DRV_KN_) X(km, DRV_KN_) X(kdreg, DRV_KN_)      \
    X(kgrid, DRV_KN_) X(knext, DRV_KN_) X(kndone, DRV_KN_) X(kqos, 1) X(kidem, 1)                 \
    X(kmask, DRV_KN_) X(kadm, DRV_KN_) X(klim, DRV_KN_)                                            \
    X(U_reg, DRV_KN_) X(U_sl, DRV_KN_) X(U_w, DRV_KN_) X(U_tb, DRV_KN_)                            \
    /* per SM */                                                                                   \
    X(u_reg, SMK_NUM_SM) X(u_sl, SMK_NUM_SM) X(u_w, SMK_NUM_SM) X(u_tb, SMK_NUM_SM)                \
    X(cnt, SMK_NUM_SM * DRV_KN_) X(part, SMK_NUM_SM * DRV_KN_)                                     \
    X(ksv, SMK_NUM_SM) X(ksk, SMK_NUM_SM * SMK_KSLOTS)                                             \
    X(sv, SMK_NUM_SM) X(spre, SMK_NUM_SM) X(sfill, SMK_NUM_SM)                                     \
    X(sk, DRV_SLOTS_) X(sid, DRV_SLOTS_)                                                           \
    X(busy, 1) X(bpb, 1) X(rl_v, 1)                                                                \
    X(rl_op, SMK_NUM_SM) X(rl_tb, SMK_NUM_SM) X(rl_st, SMK_NUM_SM) X(dp, SMK_NUM_SM)               \
    /* PTBQ */                                                                                     \
    X(qst, SMK_PTBQ) X(qk, SMK_PTBQ) X(qid, SMK_PTBQ) X(qs, SMK_PTBQ) X(qt, SMK_PTBQ)              \
    /* global */                                                                                   \
    X(pb, 1) X(plan_v, 1) X(plan_kc, 1) X(plan_kv, 1) X(plan_sm, 1) X(plan_left, 1)                \
    X(a1_st, 1) X(a1_kc, 1) X(a1_s, 1) X(a1_f, 1) X(a1_smv, 1) X(a1_best, 1) X(a1_kv, 1) X(a1_q, 1)    \
    X(a1_acc, 4)                                                                                   \
    X(a1_rk, DRV_KN_) X(a1_kvm, 1) X(a1_rv, 1) X(a1_rc, 1) X(a1_nouf, 1)                              \
    X(a1_omax, 1) X(a1_omin, 1) X(a1_nmax, 1) X(a1_nmin, 1) X(a1_ok, 1) X(a1_pw, 4) X(a1_pcd, 1)      \
    /* decision pipeline (drv_pipe = 1; 0 otherwise) */                                            \
    X(dp1_v, 1) X(dp2_v, 1) X(dp2_kind, 1) X(dp2_s, 1) X(dp2_k, 1) X(dp2_r, 1)                     \
    X(s_kl_rej, 1) X(s_kdone_v, 1) X(s_kdone_k, 1)                                                 \
    /* partition unit */                                                                           \
    X(pdirty, 1) X(pact, 1) X(pcur, 1) X(pcnt_ks, 1) X(pgot, 1) X(prun, 1) X(psrv, 1) X(ptop, 1) X(prr, 1) X(prt, 1) X(pc, DRV_KN_)                                \
    X(pph, 1) X(pcand_r, 1) X(plat_r, 1) X(pkv_r, DRV_KN_)                                        \
    X(pacc_reg, 1) X(pacc_sl, 1) X(pacc_w, 1) X(pacc_tb, 1)                                        \
    /* request unit (outputs rq_ack_* above are the registered state s_rq_ack_*) */                \
    X(rq_st, 1) X(rq_k, 1) X(rq_ret, 1) X(rq_s, 1) X(rq_j, 1) X(rq_c, 1) X(rq_q, 1) X(rq_npk, 1) X(rq_pend, 1)  \
    X(rq_pk, SMK_NUM_SM) X(rq_g, DRV_KN_) X(acc, 4) X(w, 4)                                                 \
    X(s_rq_ack_v, 1) X(s_rq_ack_st, 1) X(s_rq_ack_kv, 1) X(s_rq_ack_n, 1)
#define DRV_OBS_ENUM(nm, n) DO_##nm, DO_##nm##_end = DO_##nm + (n)-1,
enum { DRV_OBS(DRV_OBS_ENUM) DO_N };
#undef DRV_OBS_ENUM
#define DO_FIRST_STATE DO_kv
typedef struct { uint64_t v[DO_N]; } drv_obs_t;

/* Fill the reference observation from the C model (state before the edge, outputs of drv_eval).
 * Output fields are compared as they are, also when their valid bit is 0 (both models drive 0). */
void drv_obs_from_model(const sm_driver_t *m, const drv_out_t *o, drv_obs_t *ob);
/* Zero the output fields whose valid bit is 0 (not used by the cosim; for comparing against an
 * implementation that leaves them undefined). */
void drv_obs_gate(drv_obs_t *ob);
extern const obs_table_t drv_obs_table; /* names and widths of DRV_OBS, for obs_diff */

/* ---- environment (opaque: drv_env.c) */
typedef struct drv_env drv_env_t;

drv_env_t *drv_env_new(uint64_t seed);
void drv_env_free(drv_env_t *e);
/* Draw this cycle's inputs: reset, host ports, configuration, and the responder's registered
 * outputs (rsp_*, tb_done, wused). set_rej / cmd_full are 0 here (see drv_env_react). */
void drv_env_gen(drv_env_t *e, drv_stim_t *st);
/* After drv_eval: the SM tops' combinational answers to this cycle's driver outputs (set_rej by
 * rule S2, cmd_full = the engine queue is full), written into st->in. The driver ignores them. */
void drv_env_react(drv_env_t *e, drv_stim_t *st, const drv_out_t *o);
/* Observe this cycle's outputs and state of the C model (after drv_eval, before drv_commit): run
 * every monitor, then advance the responder, host view and ledger by one clock edge. Returns the
 * number of invariant violations found (each printed with its cycle). */
int drv_env_observe(drv_env_t *e, const drv_stim_t *st, const sm_driver_t *m, const drv_out_t *o);
/* End of run: accounting (PTBQ shadow vs contexts, ledger). Returns the number of violations;
 * prints a summary when verbose. */
int drv_env_finish(drv_env_t *e, const sm_driver_t *m, int verbose);
uint64_t drv_env_cycle(const drv_env_t *e);
/* Each stimulus field of the driver's input ports (rtl/sm_driver.v) fits its port width: the host ports and
 * rq_give, and with sm_side also kl_keep and the SM tops' per-SM inputs (set_rej .. wused; gpu_top wires those
 * from its SM tops and takes kl_keep on a port of its own). part names the struct in the report ("st->in").
 * Returns the number of fields that do not fit, each reported by env_port (cosim_env.h). Used by drv_env and
 * gpu_env. */
int drv_host_port_fits(uint64_t cycle, const char *part, const drv_in_t *in, int sm_side);

/* ---- partition coverage monitor (docs/sm_driver.md "Partitions": pgot; docs/verification.md),
 * shared by drv_env.c and gpu_env.c. Call once per cycle (after reset: zero the struct) with the
 * partition unit's pact of this cycle and the caller's own view of the kernel table in this cycle
 * (live entries, per-TB demand rows / lines / warps / 1, masks as written, QoS flags) and cfg_*.
 * A run is the cycles with pact = 1; in the first cycle after it, if the view and cfg_max2 /
 * QOS-ness stayed constant over the run, part[][] is checked. Returns the violations (printed as
 * "INVARIANT cycle C: ..."). */
typedef struct {
    int on, ok, qos, max2, pol;
    int live[DRV_KN_], kq[DRV_KN_];
    uint32_t d[DRV_KN_][DRV_NRES];
    uint64_t mask[DRV_KN_];
    uint64_t top0;            /* ptop and prr at the run's start (the rotation turn of the run) */
    uint32_t prr0;
    uint32_t streak[DRV_KN_]; /* consecutive checked runs that left kernel k starved */
    uint64_t due;             /* rotation timer: the cycle by which a new run must be pending, 0 = none */
    uint64_t n_run, n_count, n_zero, n_last; /* runs checked, runs where the counting form applied, kernels with
                                              * part 0, of them checked at their last-chance SM */
    uint64_t n_rot, n_turn;   /* checked runs that starved a kernel (rotation), runs served a kernel's turn */
    uint32_t max_streak;
} drv_pcov_t;
/* after a reset of the driver: forget the run in progress, the streaks and the timer (the counts stay) */
void drv_pcov_reset(drv_pcov_t *c);
int drv_pcov_step(drv_pcov_t *c, const sm_driver_t *m, const int live[DRV_KN_], const uint32_t dsh[DRV_KN_][DRV_NRES],
                  const uint64_t mask[DRV_KN_], const int kq[DRV_KN_], uint32_t cfg_policy, uint32_t cfg_max2,
                  uint64_t cycle);

#ifdef __cplusplus
}
#endif
#endif
