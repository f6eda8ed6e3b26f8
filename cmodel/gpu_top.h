/* gpu_top.h: C reference model of the GPU: the SM driver and NUM_SM SM tops (docs/gpu_top.md).
 * The QoS manager joins in issue 5. Same interface style as the blocks: gpu_reset, gpu_eval
 * (outputs of this cycle, no state change), gpu_commit (clock edge). */
#ifndef GPU_TOP_H
#define GPU_TOP_H
#include "sm_driver.h"
#include "sm_top.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    sm_driver_t drv;
    sm_top_t sm[SMK_NUM_SM];
} gpu_top_t;

/* Inputs: the driver's host and configuration ports (the per-SM fields of `host` are ignored: they
 * come from the SM tops), and per SM the pipelines, CSR, memory and throttle-cap ports (the
 * set_* and cmd_* fields of sm[s] are ignored: they come from the driver). */
typedef struct {
    drv_in_t host;
    sm_in_t sm[SMK_NUM_SM];
} gpu_in_t;

/* Outputs of every block and the effective inputs each block saw (the internal wiring). */
typedef struct {
    drv_out_t d;
    sm_out_t s[SMK_NUM_SM];
    drv_in_t di;
    sm_in_t si[SMK_NUM_SM];
} gpu_out_t;

void gpu_reset(gpu_top_t *g);
void gpu_eval(const gpu_top_t *g, const gpu_in_t *in, gpu_out_t *out);
void gpu_commit(gpu_top_t *g, const gpu_in_t *in, const gpu_out_t *out);

#ifdef __cplusplus
}
#endif
#endif
