/* issue_env.h: the SM issue path (warp_sched + quota_unit) as the cosim sees it: the composed C
 * model, its stimulus generators (constrained-random and a small timing-model scenario), the
 * observation vector compared against the RTL every cycle, and independent invariant checks. */
#ifndef ISSUE_ENV_H
#define ISSUE_ENV_H
#include "cosim_env.h"
#include "quota_unit.h"
#include "rng.h"
#include "warp_sched.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- composed C model: the same wiring as testbench/cosim/issue_path.v */
typedef struct {
    warp_sched_t ws;
    quota_unit_t qu;
    ws_in_t wi;
    qu_in_t qi;
    ws_out_t wo;
    qu_out_t qo;
} issue_model_t;

/* One cycle of stimulus: every input port of issue_path. */
typedef struct {
    uint32_t rst;
    uint32_t launch_v, launch_ks;
    wmask_t launch_mask, finish_mask, ready, stop, pblk;
    uint32_t csr_we, csr_addr, csr_wdata, rd_addr;
    uint32_t cp_v;
    uint8_t cp_ks[SMK_CP], cp_act[SMK_CP];
} issue_stim_t;

void issue_model_reset(issue_model_t *m);
void issue_model_eval(issue_model_t *m, const issue_stim_t *st); /* fills m->wo, m->qo */
void issue_model_commit(issue_model_t *m, const issue_stim_t *st);

/* ---- observation vector: every output and every architectural state element */
#define ISSUE_OBS(X)                                                                               \
    X(iss_v, 1) X(iss_wid, SMK_SCHED) X(iss_ks, SMK_SCHED) X(idle_cnt, SMK_KSLOTS)                 \
    X(held_cnt, SMK_KSLOTS) X(ks_active, 1) X(wvalid, 1) X(qallow, 1) X(policy, 1) X(epoch_end, 1) \
    X(rd_data, 1)                                                                                  \
    X(valid, 1) X(ks, SMK_WARPS) X(older, SMK_WARPS) X(last, SMK_SCHED) X(last_v, 1)               \
    X(idle_r, 1)                                                                                   \
    X(sm_ctrl, 1) X(epoch_len, 1) X(sample_per, 1) X(qos_mask, 1) X(quota, SMK_KSLOTS)             \
    X(cnt, SMK_KSLOTS) X(ecnt, 1) X(scnt, 1) X(epochs, 1) X(ep_cycles, 1) X(ep_samples, 1)         \
    X(nsamp, 1) X(thr, SMK_KSLOTS) X(wis, SMK_KSLOTS) X(idle, SMK_KSLOTS) X(cyc, SMK_KSLOTS)       \
    X(s_thr, SMK_KSLOTS) X(s_wis, SMK_KSLOTS) X(s_idle, SMK_KSLOTS) X(s_cyc, SMK_KSLOTS)           \
    X(tin_r, SMK_KSLOTS) X(iin_r, SMK_KSLOTS)
#define OBS_ENUM(nm, n) OBS_##nm, OBS_##nm##_end = OBS_##nm + (n)-1,
enum { ISSUE_OBS(OBS_ENUM) OBS_N };
#undef OBS_ENUM
typedef struct { uint64_t v[OBS_N]; } issue_obs_t;

/* Fill the reference observation from the C model (after issue_model_eval). */
void issue_obs_from_model(const issue_model_t *m, issue_obs_t *o);
extern const obs_table_t issue_obs_table; /* names and widths of ISSUE_OBS, for obs_diff */

/* ---- stimulus */
enum { ENV_RANDOM = 0, ENV_SCENARIO = 1 };
typedef struct {
    wmask_t warps;
    uint8_t ks, stopped, used;
} env_tb_t;
typedef struct { uint8_t v, ks, act; } env_cp_t; /* one completion in the scenario's delay line */

typedef struct {
    rng_t r;
    int mode;
    uint64_t cycle;
    env_tb_t tb[SMK_TB_SLOTS];
    wmask_t busy; /* warps owned by live TBs */
    /* random-mode knobs, re-drawn at each phase */
    uint64_t phase_end;
    uint32_t p_launch, p_finish, p_stop, ready_kind, pblk_kind, p_cp, act_kind, p_csr, p_rst, ks_span;
    uint32_t long_phase;          /* no epoch boundaries for a long time: counters climb high */
    uint32_t force_n;             /* register writes forced at the start of a phase (queue) */
    uint32_t force_a[4], force_d[4];
    /* scenario mode (timing model) */
    uint32_t left[SMK_WARPS];      /* instructions left per warp */
    uint64_t ready_at[SMK_WARPS];  /* cycle from which the warp is ready */
    env_cp_t pipe[8][SMK_CP];      /* completion delay line */
    wmask_t pending_finish;
    uint32_t scen_step;            /* CSR programming sequence position */
    uint64_t tbs_done[SMK_KSLOTS];
} issue_env_t;

void env_init(issue_env_t *e, int mode, uint64_t seed);
/* scenario: epoch length and the quota (thread instructions per epoch) of kernel slot k (0 or 1) */
#define SCEN_EPOCH_LEN 10000
uint32_t scen_quota(int k);
/* Draw this cycle's inputs. */
void env_gen(issue_env_t *e, issue_stim_t *st);
/* Feed this cycle's model outputs back (scenario mode: issues start latencies, completions). */
void env_observe(issue_env_t *e, const issue_stim_t *st, const issue_model_t *m);

/* Independent invariants on the C model's outputs (not a second model): an issued warp is valid,
 * ready, not stopped, of its scheduler and its slot is allowed; counters stay in range; and every
 * stimulus field fits its port of issue_path.v. Returns the number of violations, printing each. */
int issue_check_invariants(const issue_model_t *m, const issue_stim_t *st, uint64_t cycle);

#ifdef __cplusplus
}
#endif
#endif
