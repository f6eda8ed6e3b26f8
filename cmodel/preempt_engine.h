/* preempt_engine.h: C reference model of the per-SM preemption engine (spec: docs/preempt_engine.md).
 * Same interface style as warp_sched: pe_reset, pe_eval (this cycle's outputs, no state change),
 * pe_commit (clock edge). The state is exactly the spec's "State" table. */
#ifndef PREEMPT_ENGINE_H
#define PREEMPT_ENGINE_H
#include "smk_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* FSM states and position phases (docs/preempt_engine.md "State"); phases CTL/REG/SMEM are the
 * CTX_KIND values of hw/regmap.def */
enum { PE_FSM_IDLE = 0, PE_FSM_STOP = 1, PE_FSM_XFER = 2, PE_FSM_DONE = 3 };
enum { PE_PH_CTL = SMK_CTX_KIND_CTL, PE_PH_REG = SMK_CTX_KIND_REG, PE_PH_SMEM = SMK_CTX_KIND_SMEM, PE_PH_END = 3 };

typedef uint64_t tmask_t; /* one bit per TB slot (SMK_TB_SLOTS <= 64, enforced by hw/) */

typedef struct {
    uint8_t fsm;                     /* 2 bits */
    uint8_t q_op[SMK_PE_QDEPTH];     /* 2 */
    uint8_t q_tb[SMK_PE_QDEPTH];     /* TBS_W */
    uint64_t q_ptr[SMK_PE_QDEPTH];   /* PW */
    uint8_t q_idem[SMK_PE_QDEPTH];   /* 1 */
    uint8_t q_head, q_cnt;           /* QPTR_W, QCNT_W */
    uint8_t cur_op, cur_tb, cur_st;  /* 2, TBS_W, 3 */
    uint64_t cur_ptr;                /* PW */
    wmask_t tmask;                   /* W */
    uint32_t nreg, nsml, klim;       /* REGN_W, SMLN_W, OW */
    uint8_t ph;                      /* 2 */
    wmask_t wrem;                    /* W */
    uint32_t idx;                    /* IW */
    uint64_t addr;                   /* PW */
    uint32_t out;                    /* OW */
    tmask_t drain, dpend;            /* T */
} preempt_engine_t;

typedef struct {
    uint32_t cmd_v, cmd_op, cmd_tb, cmd_idem;
    uint64_t cmd_ptr;
    tmask_t tb_run, tb_alloc, tb_idle, tb_done;
    wmask_t lk_mask;
    uint32_t lk_nreg, lk_smem, cap;
    uint32_t mem_req_rdy, mem_rsp_v, mem_rsp_tag;
} pe_in_t;

typedef struct {
    uint32_t cmd_full;
    uint32_t rsp_v, rsp_op, rsp_tb, rsp_status;
    uint64_t rsp_ptr;
    uint32_t free_v, free_tb, launch_v, launch_tb;
    wmask_t stop;
    tmask_t draining;
    uint32_t lk_tb;
    uint32_t mem_req_v, mem_req_we, mem_req_tag;
    uint64_t mem_req_addr;
    uint32_t st_re, st_we, st_tb, st_kind, st_wid, st_idx;
} pe_out_t;

/* This cycle's combinational signals of the engine (docs/preempt_engine.md C1..C8), shared by
 * pe_eval_c and pe_commit_c so that a composition computes them once per cycle. Not ports. */
typedef struct {
    uint32_t quiet; /* IDLE, empty queue, no command offered: only the DRAIN flags can act (then only
                     * quiet, g_d and dsel are meaningful) */
    uint32_t full, push, rej, pop;
    uint32_t hop, ht, hidem;
    uint64_t hptr;
    uint32_t s; /* legality status (C2), meaningful when pop */
    uint32_t cwid, acc, rcv, req_v;
    uint32_t g_q, g_f, g_d, dsel;
} pe_comb_t;

void pe_reset(preempt_engine_t *pe);
/* Outputs of this cycle from current state and inputs (no state change). */
void pe_eval(const preempt_engine_t *pe, const pe_in_t *in, pe_out_t *out);
/* Clock edge: next state from current state and this cycle's inputs. */
void pe_commit(preempt_engine_t *pe, const pe_in_t *in, const pe_out_t *out);
/* The same as pe_eval / pe_commit, with this cycle's combinational signals kept in *c by pe_eval_c
 * and reused by pe_commit_c (same state, same inputs): the fast path of compositions (sm_top). */
void pe_eval_c(const preempt_engine_t *pe, const pe_in_t *in, pe_out_t *out, pe_comb_t *c);
void pe_commit_c(preempt_engine_t *pe, const pe_in_t *in, const pe_comb_t *c);
/* The engine has nothing to do this cycle: FSM in IDLE, queue empty, no DRAIN flag or pending DRAIN
 * completion, no command offered (cmd_v). Then every output is 0 and the clock edge changes no state
 * (docs/preempt_engine.md C1..C10, E1..E5), so a composition may skip pe_eval_c and use zeros for
 * the outputs and {quiet = 1, g_d = 0, dsel = 0} for *c (pe_commit_c then changes nothing). */
static inline int pe_idle(const preempt_engine_t *pe, uint32_t cmd_v)
{
    return ((cmd_v & 1) | pe->fsm | pe->q_cnt | pe->drain | pe->dpend) == 0;
}
/* pe_commit_c of a quiet cycle (FSM in IDLE, queue empty, no command) with no DRAIN flag (pe_idle):
 * no push, no pop, `out` keeps its value (E1..E5) */
static inline void pe_commit_idle_i(preempt_engine_t *pe) { pe->out &= (uint32_t)SMK_MASK(SMK_PE_OUT_W); }
/* stop (docs/preempt_engine.md C10) as a function of state only (= pe_out_t.stop): the TB's warps
 * while the FSM stops or saves it, and in DONE after a successful SAVE or DROP. Its one definition:
 * pe_eval_c uses it, and the timing model reads it to leave stopped warps out of pipeline admission */
static inline wmask_t pe_stop_i(const preempt_engine_t *pe)
{
    const int stopping = pe->fsm == PE_FSM_STOP || (pe->fsm == PE_FSM_XFER && pe->cur_op == SMK_PE_OP_SAVE) ||
                         (pe->fsm == PE_FSM_DONE && (pe->cur_op == SMK_PE_OP_SAVE || pe->cur_op == SMK_PE_OP_DROP) &&
                          pe->cur_st == SMK_PE_ST_OK);
    return stopping ? pe->tmask : 0;
}
/* lk_tb as a function of state only (= pe_out_t.lk_tb), for environments that compute lk_* first */
uint32_t pe_lk_tb(const preempt_engine_t *pe);

#ifdef __cplusplus
}
#endif
#endif
