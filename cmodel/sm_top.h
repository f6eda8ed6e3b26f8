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
    /* derived, kept for speed (functions of the state, maintained by sm_reset / sm_commit; not
     * architectural, not compared by the cosims; code that writes tmask/run/live directly must
     * call sm_sync afterwards) */
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
    /* not a port: 1 = a quiet cycle evaluated and committed by the caller (gpu_quiet_out_i: only
     * set_rej, tb_done, qo.rd_data, po and wi.launch_v are written, and of the issues what the
     * caller writes: tm_step writes wo.iss_v, and iss_wid / iss_ks only in its -DSMK_QUIET_CHECK
     * build; every other field keeps whatever it held); 0 = sm_eval */
    uint32_t quiet;
} sm_out_t;

void sm_reset(sm_top_t *sm);
/* Recompute the derived fields (done_c, wslots) from the slot table, after the state was written
 * other than by sm_reset / sm_commit (e.g. a checkpoint loaded field by field). */
void sm_sync(sm_top_t *sm);
/* Outputs of this cycle from current state and inputs (no state change). */
void sm_eval(const sm_top_t *sm, const sm_in_t *in, sm_out_t *out);
/* Clock edge: next state from current state, inputs and this cycle's outputs (from sm_eval). */
void sm_commit(sm_top_t *sm, const sm_in_t *in, const sm_out_t *out);
/* ---- the quiet cycle (docs/sm_top.md "Quiet cycles"), for C-only runs (cmodel/sim/timing.c tm_step;
 * checked against sm_eval / sm_commit by make smk-check) ---- */
extern const pe_out_t sm_zero_po; /* the engine's outputs when idle */
/* The cycle is quiet, from the state and the five inputs the test reads: no set-up offered, no
 * pending go, no exit, no finished TB, no register write, the engine idle with no command, no epoch
 * timer expiry, no sampling tick, not exhausted in a gating quota mode. Then sm_eval's outputs are
 * set_rej = tb_done = wi.launch_v = 0, po = sm_zero_po, qo.rd_data = qu_read(&sm->qu, rd_addr) and
 * the issues of ws_pick_i(&sm->ws, qu_policy_i(&sm->qu), sm_quiet_elig_i(sm, ready), wo) (ws_pick1_i
 * per scheduler with an eligible warp); sm_commit is sm_commit_quiet_i. */
static inline int sm_quiet_i(const sm_top_t *sm, uint32_t set_v, wmask_t wexit, uint32_t csr_we, uint32_t cmd_v)
{
    const quota_unit_t *q = &sm->qu;
    if ((set_v & 1) | sm->go | (wexit & SMK_WMASK_ALL) | sm->done_c | csr_we | (uint32_t)!pe_idle(&sm->pe, cmd_v))
        return 0;
    if (qu_tmr_i(q) || (q->sample_per != 0 && (uint64_t)q->scnt + 1 >= q->sample_per))
        return 0;
    const uint32_t act = sm->ws.act_c;
    return !(qu_gating_i(q) && act != 0 && (act & qu_pos_i(q)) == 0);
}
/* the eligible warps of a quiet cycle: ws_eval_i's elig with stop = 0 and qallow = qu_qallow */
static inline wmask_t sm_quiet_elig_i(const sm_top_t *sm, wmask_t ready)
{
    const quota_unit_t *q = &sm->qu;
    return sm->ws.valid & ready & sm->ws.allow_t[qu_gating_i(q) ? qu_pos_i(q) : (uint32_t)SMK_MASK(SMK_KSLOTS)];
}
#if QU_PK
/* sm_commit of a quiet cycle: per issue (scheduler s, warp w of slot ks), ws_issue1_i(&sm->ws, s, w)
 * and qu_iss1_i(ks) added to isum, as the caller picks them; then this, with csum the completion ports'
 * packed sum (qu_cp_sum_i, or qu_cp1_i per completion as they are granted). The slot table and the tb_idle memo do not change (the memo is only not
 * brought up to date: it stays a valid memo); the quota unit's common-cycle commit; the engine's
 * quiet path with no DRAIN flag. */
static inline void sm_commit_quiet_i(sm_top_t *sm, uint64_t isum, uint64_t csum)
{
    qu_count_pk_i(&sm->qu, qu_mode_i(&sm->qu), isum, csum, sm->ws.act_c);
    sm->pe.out &= (uint32_t)SMK_MASK(SMK_PE_OUT_W);
}
#endif

#ifdef __cplusplus
}
#endif
#endif
