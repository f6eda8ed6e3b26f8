/* gpu_top.h: C reference model of the GPU: the SM driver, NUM_SM SM tops and the QoS manager
 * (docs/gpu_top.md, docs/qos_mgr.md section 10). Same interface style as the blocks: gpu_reset,
 * gpu_eval (outputs of this cycle, no state change), gpu_commit (clock edge). */
#ifndef GPU_TOP_H
#define GPU_TOP_H
#include "qos_mgr.h"
#include "sm_driver.h"
#include "sm_top.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    sm_driver_t drv;
    sm_top_t sm[SMK_NUM_SM];
    qos_mgr_t qm;
} gpu_top_t;

/* Inputs: the driver's host and configuration ports (the per-SM fields of `host` are ignored: they
 * come from the SM tops; its rq_* and lk_* fields are the host's request and lookup ports, used
 * only while the manager does not own the SMs, `own == 0`), per SM the pipelines, CSR, memory and
 * throttle-cap ports (the set_* and cmd_* fields of sm[s] are ignored: they come from the driver;
 * csr_* and rd_addr are the host's, used only while `own == 0`), the host port of the QoS manager
 * (m_*) and the launch fields only the manager reads (kl_goal, kl_x, kl_t, kl_keep; they go with
 * host.kl_v). All-zero new fields leave the manager disabled: gpu_top then behaves as before
 * issue 5. */
typedef struct {
    drv_in_t host;
    sm_in_t sm[SMK_NUM_SM];
    uint32_t m_we, m_addr, m_wdata, m_raddr;
    uint32_t kl_goal, kl_x, kl_t;
    uint32_t kl_keep; /* relaunch: the manager keeps the entry's history (docs/qos_mgr.md section 4) */
} gpu_in_t;

/* Outputs of every block and the effective inputs each block saw (the internal wiring). m holds
 * the manager's outputs (m_rdata, own, its csr_*, rd_addr, lk_*, rq_* whatever `own`), mi the
 * manager's effective inputs; di.rq_* / di.lk_* and si[s].csr_* / rd_addr are the muxed values. */
typedef struct {
    drv_out_t d;
    sm_out_t s[SMK_NUM_SM];
    drv_in_t di;
    sm_in_t si[SMK_NUM_SM];
    qm_out_t m;
    qm_in_t mi;
} gpu_out_t;

void gpu_reset(gpu_top_t *g);
void gpu_eval(const gpu_top_t *g, const gpu_in_t *in, gpu_out_t *out);
/* Clock edge. An SM with s[s].quiet = 1 is left as it is: its cycle was a quiet one, evaluated and
 * committed by gpu_quiet_sm_i (docs/gpu_top.md "Quiet SM cycles"). */
void gpu_commit(gpu_top_t *g, const gpu_in_t *in, const gpu_out_t *out);

/* gpu_eval in its steps (docs/gpu_top.md "Cycle order", "Steps, SM by SM"), for an environment that works SM by
 * SM: gpu_eval_begin (the manager's outputs, the driver), then for s = 0 .. NUM_SM-1 in that order
 * gpu_eval_sm, or gpu_quiet_sm_i where it takes the SM's cycle, then gpu_eval_end (the manager's
 * inputs). gpu_eval is exactly that with gpu_eval_sm for every SM. */
void gpu_eval_begin(const gpu_top_t *g, const gpu_in_t *in, gpu_out_t *out);
void gpu_eval_sm(const gpu_top_t *g, const gpu_in_t *in, gpu_out_t *out, int s);
void gpu_eval_end(const gpu_in_t *in, gpu_out_t *out);
/* SM s's effective inputs (step 3: in->sm[s], set-up and command from out->d, register ports from
 * out->m while it owns the SMs), after gpu_eval_begin */
void gpu_sm_in(const gpu_in_t *in, const gpu_out_t *out, int s, sm_in_t *si);

/* The register ports SM s sees (muxed on `own`), after gpu_eval_begin */
static inline uint32_t gpu_sm_csr_we_i(const gpu_in_t *in, const gpu_out_t *o, int s)
{
    return o->m.own ? (uint32_t)(o->m.csr_we >> s & 1u) : in->sm[s].csr_we;
}
static inline uint32_t gpu_sm_rd_addr_i(const gpu_in_t *in, const gpu_out_t *o, int s)
{
    return o->m.own ? o->m.rd_addr[s] : in->sm[s].rd_addr;
}

#if SM_QUIET
#ifdef SMK_QUIET_CHECK
/* -DSMK_QUIET_CHECK: SM s's quiet step (after it, from sm_top state `before`) against sm_eval /
 * sm_commit of the same cycle; on a difference one line on stderr and exit status 3 */
void gpu_quiet_check(const sm_top_t *before, const gpu_top_t *g, const gpu_in_t *in, const gpu_out_t *o, int s,
                     uint64_t cp_sum);
#endif
/* The quiet step of SM s (docs/gpu_top.md "Quiet SM cycles"), in place of gpu_eval_sm and SM s's
 * part of gpu_commit: after gpu_eval_begin, with in->sm[s]'s pipeline ports set and cp_sum the
 * packed per-slot sum of its completion ports. If SM s's cycle is quiet (sm_quiet_i on its
 * effective inputs), evaluates and commits it (sm_quiet_step_i: the fields of out->s[s] a quiet
 * cycle has, s[s].quiet = 1 so that gpu_commit leaves the SM, and each issue handed to
 * on_issue(ctx, s, w) in scheduler order), writes the driver's inputs from SM s and returns 1; else
 * changes nothing and returns 0. out->si[s] is not written. */
static inline __attribute__((always_inline)) int gpu_quiet_sm_i(gpu_top_t *g, const gpu_in_t *in, gpu_out_t *o,
                                                                int s, uint64_t cp_sum, sm_issue_fn *on_issue,
                                                                void *ctx)
{
    sm_top_t *const sm = &g->sm[s];
    if (!sm_quiet_i(sm, o->d.set_v[s], in->sm[s].wexit, gpu_sm_csr_we_i(in, o, s), o->d.cmd_v[s]))
        return 0;
#ifdef SMK_QUIET_CHECK
    static sm_top_t before;
    before = *sm;
#endif
    sm_quiet_step_i(sm, in->sm[s].ready, in->sm[s].pblk, gpu_sm_rd_addr_i(in, o, s), cp_sum, &o->s[s], on_issue, ctx);
    /* the driver's inputs from SM s (gpu_eval_sm's wiring): all 0 */
    o->di.set_rej[s] = 0, o->di.cmd_full[s] = 0;
    o->di.rsp_v[s] = 0, o->di.rsp_op[s] = 0, o->di.rsp_tb[s] = 0;
    o->di.rsp_status[s] = 0, o->di.rsp_ptr[s] = 0;
    o->di.tb_done[s] = 0;
#ifdef SMK_QUIET_CHECK
    gpu_quiet_check(&before, g, in, o, s, cp_sum);
#endif
    return 1;
}
#endif

#ifdef __cplusplus
}
#endif
#endif
