/* smk_rtl.h: the lockstep hook of `smk run --rtl` (docs/smk.md "RTL back-end"). cmodel/sim/smk.c
 * and smk_run.c, compiled by gcc with -DSMK_RTL into build/<cfg>/libsmkrun.a, call these functions; the thin
 * Verilator shim testbench/cosim/smk_rtl.cpp defines them around the Verilated rtl/gpu_top.v. The
 * plain `smk` (no -DSMK_RTL) contains none of this: given --rtl it execs its sibling smk_rtl (with --fst
 * the twin wave/smk_rtl, built with Verilator's --trace-fst; smk_rtl itself has no waveforms). */
#ifndef SMK_RTL_H
#define SMK_RTL_H
#include "gpu_top.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Once, before the first run. bin, args: the command line that replays this run, its binary (argv[0]
 * as given) and the rest (the same smk command line with no --fst / --window); the shim appends
 * "--fst FILE --window A:B", and without waveforms compiled in replaces bin by the make command and
 * path of its waveform twin (build/<cfg>/wave/smk_rtl). fst: write an FST waveform of the lockstep
 * cycles win_a..win_b (counted over all the runs of the command, isolated runs first, then the shared
 * run), or NULL; without waveforms compiled in, fst names the twin and exits with status 1. */
void smk_rtl_open(const char *bin, const char *args, uint64_t seed, const char *fst, uint64_t win_a, uint64_t win_b);
/* Start of each run (after gpu_reset of the C model): two cycles of rst on the RTL. */
void smk_rtl_reset(void);
/* Every cycle, after gpu_eval and before gpu_commit of the C model: drive the RTL with the C model's
 * inputs `in`, compare every output and every state element against the C model (g, o), then clock
 * the RTL. On a mismatch: prints cycle, signal, C and RTL values, seed and the replay command, and
 * exits with status 1. label: the run ("isolated tpacf", "shared"), c: its cycle. */
void smk_rtl_cycle(const gpu_top_t *g, const gpu_in_t *in, const gpu_out_t *o, const char *label, uint64_t c);
/* After the last run: closes the waveform; prints one line (cycles compared) on stderr. */
void smk_rtl_close(void);

#ifdef __cplusplus
}
#endif
#endif
