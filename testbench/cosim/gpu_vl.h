// gpu_vl.h: the Verilated gpu_top's inputs and outputs, shared by the GPU cosim (cosim_gpu.cpp) and
// `smk run --rtl` (smk_rtl.cpp), so that both read the RTL the same way (gpu_vl.cpp).
#ifndef GPU_VL_H
#define GPU_VL_H
#include <cstdint>

#include "Vgpu_top.h"
extern "C" {
#include "gpu_env.h"
}

// gpu_top's inputs: rst and the C model's inputs of this cycle
void gpu_vl_drive(Vgpu_top *top, uint32_t rst, const gpu_in_t *in);
// the RTL's observation vector (gpu_env.h: the driver's part, every SM's, the QoS manager's): every
// output, and every state element read from the Verilated hierarchy; in a mutant build (-DMUTANT)
// the state elements are ref's
void gpu_vl_observe(Vgpu_top *top, gpu_obs_t *rtl, const gpu_obs_t *ref);
#endif
