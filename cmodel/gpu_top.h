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
 * committed by the caller (docs/gpu_top.md "Quiet SM cycles"). */
void gpu_commit(gpu_top_t *g, const gpu_in_t *in, const gpu_out_t *out);

/* gpu_eval in its steps (docs/gpu_top.md "Cycle order", "Steps, SM by SM"), for an environment that works SM by
 * SM: gpu_eval_begin (the manager's outputs, the driver), then gpu_eval_sm for s = 0 .. NUM_SM-1 in
 * that order, or for an SM whose cycle is quiet the caller's own quiet step (sm_quiet_i,
 * gpu_quiet_out_i), then gpu_eval_end (the manager's inputs). gpu_eval is exactly that with
 * gpu_eval_sm for every SM. */
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
/* Step 3 for SM s in a quiet cycle: its outputs as sm_eval gives them (set_rej, tb_done,
 * wi.launch_v and po zero, qo.rd_data), s[s].quiet = 1, and what the driver receives from it. The
 * issues (wo.iss_*) are the caller's; si[s] is not written. */
static inline void gpu_quiet_out_i(gpu_out_t *o, int s, uint32_t rd_data)
{
    sm_out_t *so = &o->s[s];
    so->qo.rd_data = rd_data;
    so->set_rej = 0, so->tb_done = 0, so->wi.launch_v = 0;
    so->po = sm_zero_po;
    so->quiet = 1;
    o->di.set_rej[s] = 0, o->di.cmd_full[s] = 0;
    o->di.rsp_v[s] = 0, o->di.rsp_op[s] = 0, o->di.rsp_tb[s] = 0;
    o->di.rsp_status[s] = 0, o->di.rsp_ptr[s] = 0;
    o->di.tb_done[s] = 0;
}

#ifdef __cplusplus
}
#endif
#endif
