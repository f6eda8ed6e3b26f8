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

void pe_reset(preempt_engine_t *pe);
/* Outputs of this cycle from current state and inputs (no state change). */
void pe_eval(const preempt_engine_t *pe, const pe_in_t *in, pe_out_t *out);
/* Clock edge: next state from current state and this cycle's inputs. */
void pe_commit(preempt_engine_t *pe, const pe_in_t *in, const pe_out_t *out);
/* lk_tb as a function of state only (= pe_out_t.lk_tb), for environments that compute lk_* first */
uint32_t pe_lk_tb(const preempt_engine_t *pe);

#ifdef __cplusplus
}
#endif
#endif
