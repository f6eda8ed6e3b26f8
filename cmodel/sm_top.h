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
    /* 1: written by sm_eval_quiet, which writes only set_rej, tb_done, wo.iss_v / iss_wid / iss_ks,
     * qo.rd_data, po and wi.launch_v (every other field keeps whatever it held) */
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
/* The quiet cycle (docs/sm_top.md "Quiet cycles"), for C-only runs: if the SM's cycle is quiet,
 * sm_eval_quiet writes the outputs listed at sm_out_t.quiet, exactly as sm_eval computes them, sets
 * quiet = 1 and returns 1; sm_commit_quiet is then sm_commit of that cycle. Otherwise it returns 0
 * and writes nothing. */
int sm_eval_quiet(const sm_top_t *sm, const sm_in_t *in, sm_out_t *out);
void sm_commit_quiet(sm_top_t *sm, const sm_in_t *in, const sm_out_t *out);

#ifdef __cplusplus
}
#endif
#endif
