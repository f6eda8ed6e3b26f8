// cosim_gpu.cpp: the GPU cosim's harness (gpu_top: the SM driver, NUM_SM SM tops and the QoS
// manager): what the lockstep driver (lockstep.h) needs of this block. It moves values between the C
// environment (gpu_env.c: stimulus, monitors, observation) plus the C model (gpu_top.c) and the
// Verilated gpu_top (through gpu_vl.h, shared with smk --rtl); all decisions live in C.
#include "gpu_vl.h"
#include "lockstep.h"

struct gpu_block : lockstep_block<Vgpu_top> {
    gpu_top_t m;
    gpu_env_t *env = nullptr;
    gpu_stim_t st;
    gpu_out_t out;
    gpu_obs_t ref, rtl;
    ~gpu_block() { gpu_env_free(env); }
    void start(uint64_t seed) override
    {
        gpu_reset(&m);
        env = gpu_env_new(seed);
    }
    void generate() override
    {
        gpu_env_gen(env, &st);
        gpu_eval(&m, &st.in, &out);
    }
    void drive(Vgpu_top *top) override { gpu_vl_drive(top, st.rst, &st.in); }
    int compare(Vgpu_top *top, uint64_t c) override
    {
        gpu_obs_from_model(&m, &out, &ref);
        gpu_vl_observe(top, &rtl, &ref);
        return gpu_obs_diff(&ref, &rtl, c);
    }
    int commit() override
    {
        const int v = gpu_env_observe(env, &st, &m, &out);
        if (st.rst) gpu_reset(&m);
        else gpu_commit(&m, &st.in, &out);
        return v;
    }
    int finish(bool passed, bool summary) override { return passed ? gpu_env_finish(env, &m, summary) : 0; }
};

int main(int argc, char **argv)
{
    char about[1024]; // --help
    std::snprintf(about, sizeof about,
                  "Runs the C model and the RTL of the GPU (gpu_top: the SM driver + %d SM tops + the QoS\n"
                  "manager) in lockstep under a workload-like random environment (host, manager phases,\n"
                  "pipelines, storage, one context memory), comparing every output and every state element\n"
                  "every cycle and checking the TB ledger, the driver's, the engines' and the manager's\n"
                  "invariants (testbench/cosim/gpu_env.h).\n",
                  SMK_NUM_SM);
    return lockstep_run<gpu_block>(argc, argv, {"cosim_gpu", 20000, about});
}
