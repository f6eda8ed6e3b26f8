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
    /* not a port: 1 lets gpu_eval take an SM's quiet path (sm_eval_quiet), whose outputs are only
     * those a C-only run reads (docs/gpu_top.md "Quiet SM cycles"); 0 (the cosims): every output */
    uint32_t quiet_ok;
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
void gpu_commit(gpu_top_t *g, const gpu_in_t *in, const gpu_out_t *out);

#ifdef __cplusplus
}
#endif
#endif
