// smk_rtl.cpp: the thin C++ shim Verilator needs for `smk run --rtl` (build/<cfg>/smk_rtl; docs/smk.md
// "RTL back-end"). smk itself (cmodel/sim/smk*.c, workload.c, timing.c, built by gcc with -DSMK_RTL)
// owns main, the host and the timing model; every cycle it calls smk_rtl_cycle (smk_rtl.h) after the
// C gpu_top's gpu_eval. This file drives the Verilated rtl/gpu_top.v with exactly the C model's
// inputs, compares every output and every state element (gpu_env.c's observation vector and
// compare, the GPU cosim's), and clocks the RTL. No decision is made here.
//
// The Verilator-side moves (port and hierarchy names of the Verilated gpu_top) are the GPU cosim's:
// gpu_vl.h, so both harnesses read the RTL the same way.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "cosim_wave.h" // COSIM_WAVE_MAKE, COSIM_WAVE_DIR: the twin with waveforms (wave/smk_rtl)
#include "gpu_vl.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif

extern "C" {
#include "smk_rtl.h"
}

namespace {
Vgpu_top *top;
#if VM_TRACE
VerilatedFstC *tfp;
#else
struct nowave {
    void dump(uint64_t) {}
    void close() {}
} *tfp; // always null: built without waveforms
#endif
std::string replay_base;
uint64_t rseed, win_a, win_b, lc; // lc: lockstep cycles so far, over all runs of the command
uint64_t lc_run;                    // lc at the start of the current run
gpu_obs_t ref, rtl;
} // namespace

extern "C" void smk_rtl_open(const char *bin, const char *args, uint64_t seed, const char *fst, uint64_t a,
                             uint64_t b)
{
#if VM_TRACE
    replay_base = std::string(bin) + " " + args;
#else
    (void)bin;
    replay_base = std::string(COSIM_WAVE_MAKE) + " " + COSIM_WAVE_DIR + "/smk_rtl && " + COSIM_WAVE_DIR + "/smk_rtl " + args;
    if (fst) {
        std::fprintf(stderr, "smk: --fst: this smk_rtl is built without waveforms; its twin with them: %s %s/smk_rtl "
                             "(smk run --rtl --fst runs it)\n",
                     COSIM_WAVE_MAKE, COSIM_WAVE_DIR);
        std::exit(1);
    }
#endif
    const char *vargv[] = {"smk_rtl"};
    Verilated::commandArgs(1, vargv);
    top = new Vgpu_top;
    rseed = seed, win_a = a, win_b = b, lc = 0;
#if VM_TRACE
    if (fst) {
        Verilated::traceEverOn(true);
        tfp = new VerilatedFstC;
        top->trace(tfp, 99);
        tfp->open(fst);
    }
#endif
}

// two cycles of rst before cycle 0 of each run, as cosim_gpu (the C model has just been gpu_reset)
extern "C" void smk_rtl_reset(void)
{
    for (int i = 0; i < 2; i++) top->rst = 1, top->clk = 0, top->eval(), top->clk = 1, top->eval();
    lc_run = lc;
}

extern "C" void smk_rtl_cycle(const gpu_top_t *g, const gpu_in_t *in, const gpu_out_t *o, const char *label,
                              uint64_t c)
{
    gpu_vl_drive(top, 0, in);
    top->clk = 0;
    top->eval();
    const bool dump = tfp && lc >= win_a && lc <= win_b;
    if (dump) tfp->dump(2 * lc);
    gpu_obs_from_model(g, o, &ref);
    gpu_vl_observe(top, &rtl, &ref);
    // cheap path: the whole vectors agree (gpu_obs_t is plain uint64_t arrays)
    if (__builtin_expect(std::memcmp(&ref, &rtl, sizeof ref) != 0, 0)) {
        char replay[10240];
        // the waveform window: the last 50 cycles, within this run
        const uint64_t lo = lc - lc_run > 50 ? lc - 50 : lc_run;
        std::snprintf(replay, sizeof replay, "%s --fst mismatch_%llu.fst --window %llu:%llu", replay_base.c_str(),
                      (unsigned long long)rseed, (unsigned long long)lo, (unsigned long long)lc);
        std::fflush(stdout);
        if (const int bad = gpu_obs_diff(&ref, &rtl, c)) {
            obs_report(bad, c, replay);
            std::printf("smk --rtl: C model and RTL differ in the %s run at cycle %llu (lockstep cycle %llu), "
                        "seed %llu, config %s\n",
                        label, (unsigned long long)c, (unsigned long long)lc, (unsigned long long)rseed,
                        SMK_CFG_NAME);
            std::fflush(stdout);
            std::fprintf(stderr, "smk: --rtl: mismatch between the C model and the RTL at cycle %llu of the %s run "
                                 "(seed %llu); see stdout\n",
                         (unsigned long long)c, label, (unsigned long long)rseed);
            if (tfp) tfp->close();
            std::exit(1);
        }
    }
    top->clk = 1;
    top->eval();
    if (dump) tfp->dump(2 * lc + 1);
    lc++;
}

extern "C" void smk_rtl_close(void)
{
    if (tfp) tfp->close();
    std::fprintf(stderr, "smk --rtl: C model and RTL (gpu_top, config %s) agreed on every output and state element, "
                         "%llu cycles in lockstep (isolated and shared runs)\n",
                 SMK_CFG_NAME, (unsigned long long)lc);
    top->final();
    delete top;
    top = nullptr;
}
