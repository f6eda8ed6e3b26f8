/* sm_env.h: one whole SM (sm_top: warp_sched + quota_unit + preempt_engine + TB slot table) as the
 * SM cosim sees it: the observation vector compared against the RTL every cycle, and a random
 * environment around the C model (spec: docs/sm_top.md, docs/preempt_engine.md "Environment
 * contract" and "Testbench invariants"):
 *
 *   - pipelines: per warp instructions left, ready with random stalls, latency after issue (wbusy),
 *     long memory latencies, completions into the quota unit, exits;
 *   - storage: register lines per physical warp, control lines per warp, shared-memory lines per
 *     slot, with 64-bit line signatures hash(tb identity, kind, rank j, index, generation) (a
 *     signature mismatch is as visible as a mismatch of the line's bytes); a line of the issuing
 *     warp is rewritten with a new generation at every issue;
 *   - memory: random latency, out of order, at most one response per cycle, random ready;
 *   - a random driver: fresh TBs, SAVE / RESTORE / DRAIN / DROP, illegal commands and set-ups,
 *     ERR_QFULL, cap, register writes, resets; two fresh TBs set up around a RESTORE's launch, so
 *     that two go wait in one cycle (the launch arbiter's lowest-go case);
 *   - monitors, independent of both models: TB ledger, issue monitor, exact expected responses
 *     (status by an independent predicate), exact expected stop, memory requests, storage accesses
 *     and throttle, bit-exact contexts, set_rej, slot-table outputs, end-of-run accounting.
 * All decisions are here (C); cosim_sm.cpp only moves values to and from Verilator. */
#ifndef SM_ENV_H
#define SM_ENV_H
#include "cosim_env.h"
#include "rng.h"
#include "sm_top.h"

#ifdef __cplusplus
extern "C" {
#endif

/* one cycle of stimulus: reset plus every input port of sm_top */
typedef struct {
    uint32_t rst;
    sm_in_t in;
} sm_stim_t;

/* ---- observation vector: every output port and every state element of the four parts */
#define SM_OBS(X)                                                                                  \
    /* outputs */                                                                                  \
    X(set_rej, 1) X(tb_alloc, 1) X(tb_run, 1) X(tb_done, 1) X(wused, 1)                            \
    X(iss_v, 1) X(iss_wid, SMK_SCHED) X(iss_ks, SMK_SCHED) X(idle_cnt, SMK_KSLOTS)                 \
    X(held_cnt, SMK_KSLOTS) X(ks_active, 1) X(wvalid, 1) X(stop, 1)                                \
    X(qallow, 1) X(policy, 1) X(epoch_end, 1) X(rd_data, 1)                                        \
    X(cmd_full, 1) X(rsp_v, 1) X(rsp_op, 1) X(rsp_tb, 1) X(rsp_status, 1) X(rsp_ptr, 1)            \
    X(free_v, 1) X(free_tb, 1) X(launch_v, 1) X(launch_tb, 1) X(draining, 1)                       \
    X(mem_req_v, 1) X(mem_req_we, 1) X(mem_req_addr, 1) X(mem_req_tag, 1)                          \
    X(st_re, 1) X(st_we, 1) X(st_tb, 1) X(st_kind, 1) X(st_wid, 1) X(st_idx, 1)                    \
    /* warp_sched state */                                                                         \
    X(valid, 1) X(ks, SMK_WARPS) X(older, SMK_WARPS) X(last, SMK_SCHED) X(last_v, 1)               \
    X(idle_r, 1)                                                                                   \
    /* quota_unit state */                                                                         \
    X(sm_ctrl, 1) X(epoch_len, 1) X(sample_per, 1) X(qos_mask, 1) X(quota, SMK_KSLOTS)             \
    X(cnt, SMK_KSLOTS) X(ecnt, 1) X(scnt, 1) X(epochs, 1) X(ep_cycles, 1) X(ep_samples, 1)         \
    X(nsamp, 1) X(thr, SMK_KSLOTS) X(wis, SMK_KSLOTS) X(idle, SMK_KSLOTS) X(cyc, SMK_KSLOTS)       \
    X(s_thr, SMK_KSLOTS) X(s_wis, SMK_KSLOTS) X(s_idle, SMK_KSLOTS) X(s_cyc, SMK_KSLOTS)           \
    X(tin_r, SMK_KSLOTS) X(iin_r, SMK_KSLOTS)                                                      \
    /* preempt_engine state */                                                                     \
    X(fsm, 1) X(q_op, SMK_PE_QDEPTH) X(q_tb, SMK_PE_QDEPTH) X(q_ptr, SMK_PE_QDEPTH)                \
    X(q_idem, SMK_PE_QDEPTH) X(q_head, 1) X(q_cnt, 1) X(cur_op, 1) X(cur_tb, 1) X(cur_st, 1)       \
    X(cur_ptr, 1) X(pe_tmask, 1) X(nreg, 1) X(nsml, 1) X(klim, 1) X(ph, 1) X(wrem, 1) X(idx, 1)    \
    X(addr, 1) X(out, 1) X(drain, 1) X(dpend, 1)                                                   \
    /* TB slot table state */                                                                      \
    X(alloc, 1) X(run, 1) X(go, 1) X(tmask, SMK_TB_SLOTS) X(tks, SMK_TB_SLOTS)                     \
    X(tnreg, SMK_TB_SLOTS) X(tsml, SMK_TB_SLOTS) X(live, 1) X(s_wused, 1)
#define SM_OBS_ENUM(nm, n) SO_##nm, SO_##nm##_end = SO_##nm + (n)-1,
enum { SM_OBS(SM_OBS_ENUM) SO_N };
#undef SM_OBS_ENUM
#define SO_FIRST_STATE SO_valid
typedef struct { uint64_t v[SO_N]; } sm_obs_t;

/* Fill the reference observation from the C model (state before the edge, outputs of sm_eval). */
void sm_obs_from_model(const sm_top_t *m, const sm_out_t *o, sm_obs_t *ob);
extern const obs_table_t sm_obs_table; /* names and widths of SM_OBS, for obs_diff */

/* ---- environment (opaque: sm_env.c) */
typedef struct sm_env sm_env_t;

sm_env_t *sm_env_new(uint64_t seed);
void sm_env_free(sm_env_t *e);
/* Draw this cycle's inputs (driver, pipelines, memory, CSR, reset). */
void sm_env_gen(sm_env_t *e, sm_stim_t *st);
/* Observe this cycle's outputs of the C model (after sm_eval, before sm_commit): run every monitor,
 * update ledger, pipelines, storage and memory. Returns the number of invariant violations found
 * (each printed with its cycle). */
int sm_env_observe(sm_env_t *e, const sm_stim_t *st, const sm_top_t *m, const sm_out_t *o);
/* End of run: accounting of every TB identity (nothing lost, nothing duplicated). Returns the number
 * of violations; prints a summary when verbose. */
int sm_env_finish(sm_env_t *e, int verbose);
uint64_t sm_env_cycle(const sm_env_t *e);

#ifdef __cplusplus
}
#endif
#endif
