/* sm_top.h: C reference model of one SM: warp_sched + quota_unit + preempt_engine joined by the TB
 * slot table and the launch arbiter (spec: docs/sm_top.md). Same interface style as the blocks:
 * sm_reset, sm_eval (this cycle's outputs, no state change), sm_commit (clock edge). */
#ifndef SM_TOP_H
#define SM_TOP_H
#include "preempt_engine.h"
#include "quota_unit.h"
#include "warp_sched.h"

#ifdef __cplusplus
extern "C" {
#endif

/* a set of TB slots in the derived nibble table: 32 bits when they suffice (half the cache lines) */
#if SMK_TB_SLOTS <= 32
typedef uint32_t sm_wsl_t;
#else
typedef uint64_t sm_wsl_t;
#endif

typedef struct {
    /* (field order: the fields every cycle reads first, the per-warp and per-slot tables after) */
    /* TB slot table (docs/sm_top.md "State") */
    tmask_t alloc, run, go;          /* T */
    wmask_t live, wused;             /* W */
    /* derived, kept for speed (functions of the state, maintained by sm_reset / sm_commit and the
     * quiet step; not architectural, not compared by the cosims) */
    tmask_t done_c;                  /* tb_done (rule S3) of the current state */
    wmask_t idle_key;                /* the slots hit by idle_key (= ~tb_idle for wbusy | wexit == */
    sm_wsl_t idle_hit;               /* idle_key): the last cycle's, reused while it repeats */
    /* the three blocks */
    quota_unit_t qu;
    preempt_engine_t pe;
    warp_sched_t ws;
    /* TB slot table, per slot */
    uint8_t tks[SMK_TB_SLOTS];       /* KS_W */
    uint16_t tnreg[SMK_TB_SLOTS];    /* REGN_W */
    uint16_t tsml[SMK_TB_SLOTS];     /* SMLN_W */
    wmask_t tmask[SMK_TB_SLOTS];     /* W */
    /* derived: [i][v] = slots t with tmask[t] & (v << 4i) != 0 */
    sm_wsl_t wslots[(SMK_WARPS + 3) / 4][16];
} sm_top_t;

/* Every input port of sm_top (docs/sm_top.md "Ports"). */
typedef struct {
    /* driver: slot set-up */
    uint32_t set_v, set_tb, set_ks, set_nreg, set_smem, set_go;
    wmask_t set_mask;
    /* driver: engine commands */
    uint32_t cmd_v, cmd_op, cmd_tb, cmd_idem, cap;
    uint64_t cmd_ptr;
    /* pipelines */
    wmask_t ready, wbusy, wexit;
    wmask_t pblk; /* ready but for a full pipeline unit (never with ready) */
    uint32_t cp_v; /* bit p */
    uint8_t cp_ks[SMK_CP], cp_act[SMK_CP];
    /* CSR */
    uint32_t csr_we, csr_addr, csr_wdata, rd_addr;
    /* memory */
    uint32_t mem_req_rdy, mem_rsp_v, mem_rsp_tag;
} sm_in_t;

/* Every output port of sm_top, plus the block-level signals the composition computes (kept so that
 * sm_commit does not recompute them and so that testbenches can observe the internal wiring). */
typedef struct {
    uint32_t set_rej;
    tmask_t tb_alloc, tb_run, tb_done;
    wmask_t wused;
    ws_out_t wo; /* iss_v, iss_wid, iss_ks, idle_cnt, held_cnt, ks_active, wvalid */
    qu_out_t qo; /* rd_data, qallow, policy, epoch_end */
    pe_out_t po; /* cmd_full, rsp_*, free_*, launch_*, stop, draining, lk_tb, mem_req_*, st_* */
    /* internal wiring (not ports) */
    ws_in_t wi;
    qu_in_t qi;
    pe_in_t pi;
    uint32_t set_ok;
    pe_comb_t pc; /* the engine's combinational signals of this cycle, reused by sm_commit */
    /* not a port: 1 = a quiet cycle, evaluated and committed at once by sm_quiet_step_i (which
     * writes only set_rej, tb_done, wo.iss_v, qo.rd_data, po and wi.launch_v, and wo.iss_wid /
     * iss_ks in its -DSMK_QUIET_CHECK build; every other field keeps whatever it held); 0 = sm_eval */
    uint32_t quiet;
} sm_out_t;

void sm_reset(sm_top_t *sm);
/* Outputs of this cycle from current state and inputs (no state change). */
void sm_eval(const sm_top_t *sm, const sm_in_t *in, sm_out_t *out);
/* Clock edge: next state from current state, inputs and this cycle's outputs (from sm_eval). */
void sm_commit(sm_top_t *sm, const sm_in_t *in, const sm_out_t *out);

/* ---- the quiet cycle (docs/sm_top.md "Quiet cycles"): sm_eval and sm_commit at once, for C-only
 * runs (gpu_quiet_sm_i; checked against sm_eval / sm_commit by make smk-check) ---- */
extern const pe_out_t sm_zero_po; /* the engine's outputs when idle */
/* The cycle is quiet, from the state and the four inputs the rule reads: no set-up offered, no
 * pending go, no exit, no finished TB, and the engine idle with no command (so E1-E4 change nothing,
 * every engine output is 0 and, by S4-S6, warp_sched has no launch and no finish: its common cycle,
 * ws_common_i); and the quota unit's common cycle (qu_common_i: no register write, no epoch timer
 * expiry, no sampling tick, not exhausted while gating). The one definition of the rule. */
static inline int sm_quiet_i(const sm_top_t *sm, uint32_t set_v, wmask_t wexit, uint32_t csr_we, uint32_t cmd_v)
{
    if ((set_v & 1) | sm->go | (wexit & SMK_WMASK_ALL) | sm->done_c | (uint32_t)!pe_idle(&sm->pe, cmd_v))
        return 0;
    return qu_common_i(&sm->qu, csr_we, sm->ws.act_c);
}
/* The quiet step exists where the quota unit takes a cycle's counts as packed per-slot sums */
#define SM_QUIET QU_PK
#if SM_QUIET
/* The consumer of a quiet step's issues: called once per issue, in scheduler order (lowest s first),
 * with the scheduler s and the warp w it issued */
typedef void sm_issue_fn(void *ctx, int s, int w);
/* A quiet cycle (sm_quiet_i), evaluated and committed: writes the outputs of sm_eval that a quiet
 * cycle has (set_rej, tb_done, wi.launch_v = 0, po = sm_zero_po; qo.rd_data = qu_read of rd_addr;
 * the issues' wo.iss_v) and o->quiet = 1, hands every issue to on_issue(ctx, s, w) (ws_eval_i's
 * choice with stop = 0 and qallow from S6; wo.iss_wid and iss_ks are written only in the
 * -DSMK_QUIET_CHECK build), and makes sm_commit's changes: warp_sched's and the quota unit's
 * common-cycle commits (ws_commit_quiet_i, qu_commit_quiet_i) and the idle engine's
 * (pe_commit_idle_i); the slot table does not change, and the tb_idle memo stays as it is (a valid
 * memo, not brought up to date). Of the inputs it reads ready, pblk, rd_addr and the completion ports as
 * cp_sum, their packed per-slot sum (qu_cp_sum_i of cp_v, cp_ks, cp_act; a caller that fills the
 * ports one by one may add qu_cp1_i per completion). on_issue may not read or write the SM. */
static inline __attribute__((always_inline)) void sm_quiet_step_i(sm_top_t *sm, wmask_t ready, wmask_t pblk, uint32_t rd_addr,
                                                                 uint64_t cp_sum, sm_out_t *o,
                                                                 sm_issue_fn *on_issue, void *ctx)
{
    quota_unit_t *const q = &sm->qu;
    warp_sched_t *const ws = &sm->ws;
    const uint32_t policy = qu_policy_i(q);
    const wmask_t allow = ws->valid & ws->allow_t[qu_qallow_i(q, ws->act_c)];
    const wmask_t elig = allow & ready;
    o->qo.rd_data = qu_read(q, rd_addr);
    /* ws_pick_i, and per issue ws_commit_issues_i's update and the quota unit's count (a
     * scheduler's pick reads only its own last[s] and last_v bit) */
    uint32_t iss_v = 0;
    uint64_t isum = 0;
    wmask_t issued = 0;
#ifdef SMK_QUIET_CHECK
    memset(o->wo.iss_wid, 0, sizeof o->wo.iss_wid);
    memset(o->wo.iss_ks, 0, sizeof o->wo.iss_ks);
#endif
    for (uint32_t sx = elig ? ws_sched_nonempty(elig) : 0; sx; sx &= sx - 1) {
        const int s = smk_ctz(sx);
        const int w = ws_pick1_i(ws, policy, elig & WS_SMASK(s), s);
        const uint32_t ks = ws->ks[w];
        isum += qu_iss1_i(ks);
        iss_v |= 1u << s;
        issued |= 1ULL << w;
#ifdef SMK_QUIET_CHECK
        o->wo.iss_wid[s] = (uint8_t)w, o->wo.iss_ks[s] = (uint8_t)ks;
#endif
        on_issue(ctx, s, w);
        ws_issue1_i(ws, s, w);
    }
    o->wo.iss_v = iss_v;
    /* ws_idle_next_i: no launch in a quiet cycle, stop = 0 */
    ws->idle_r = allow & ws_idle_src_i(ready, pblk) & ~issued;
    o->set_rej = 0, o->tb_done = 0, o->wi.launch_v = 0;
    o->po = sm_zero_po;
    o->quiet = 1;
    qu_count_pk_i(q, qu_mode_i(q), isum, cp_sum, ws->act_c);
    pe_commit_idle_i(&sm->pe);
}
#endif

#ifdef __cplusplus
}
#endif
#endif
