/* timing.h: the SM pipelines and the memory system around gpu_top, driven by a workload
 * (docs/workload.md "Timing model"). Per SM and per cycle it produces what the SM consumes: ready,
 * wbusy and wexit per warp, completions with active-thread counts on the completion ports, and the
 * responses to the preemption engines' context requests; it observes issues, launches, set-ups,
 * engine commands, frees and memory requests. Global-memory lines and context lines share one model
 * of NCH memory channels (a line to channel c starts at max(now, free[c]), holds the channel for
 * mem_service cycles and completes mem_latency cycles later), so kernels interfere through it.
 *
 * Completions wait for a completion port in a FIFO per SM, by due cycle, then issue order
 * (docs/workload.md "Timing model").
 *
 * Cost: per cycle and SM one bucket of a timing wheel (the completions due, spliced onto the SM's
 * queue) and a few mask operations; per issue one draw, two table lookups (per kernel, built by
 * tm_new) and one event; per completion one event served. No allocation after tm_new.
 * Deterministic for a given seed. */
#ifndef SMK_TIMING_H
#define SMK_TIMING_H
#include "gpu_top.h"
#include "workload.h"

typedef struct timing timing_t;

typedef struct {
    uint64_t thr;      /* thread instructions completed (sum of active threads) */
    uint64_t wis;      /* warp instructions issued */
    uint64_t wis_dropped; /* of those, issued by TBs that a DROP then discarded (they rerun) */
    uint64_t tbs;      /* TBs completed */
    uint64_t gmem_lines, dram_lines;
} tm_kstat_t;

typedef struct {
    uint64_t ctx_lines;     /* context lines served (save and restore) */
    uint64_t saves, drops, restores_launched;
    uint64_t cp_deferred;   /* completion-cycles spent waiting for a port (one per waiting event per cycle) */
} tm_stat_t;

/* kmap[k] = workload kernel index of driver kernel-table entry k (k < nk; nk <= SMK_KERNELS). */
timing_t *tm_new(const workload_t *wl, const int *kmap, int nk, uint64_t seed);
void tm_free(timing_t *t);
/* Before gpu_eval of cycle `cycle`: fill the pipelines', memory-response and cap fields of in->sm[*]
 * (not the CSR fields). */
void tm_inputs(timing_t *t, const gpu_top_t *g, gpu_in_t *in, uint64_t cycle);
/* After gpu_eval, before gpu_commit of the same cycle: observe issues, set-ups, commands, launches,
 * frees, completions of TBs and memory requests. */
void tm_observe(timing_t *t, const gpu_top_t *g, const gpu_out_t *o, uint64_t cycle);
/* The C-only cycle (docs/workload.md "Timing model", "tm_step"): tm_inputs, gpu_eval and tm_observe,
 * SM by SM, and the clock edge of every SM whose cycle is quiet (gpu_quiet_sm_i, docs/sm_top.md
 * "Quiet cycles"; gpu_commit then commits the others). The host's inputs of `in` set; its pipelines', memory and
 * cap fields are written here. Every result is what tm_inputs, gpu_eval, tm_observe and gpu_commit
 * give (but the numbering of the events in the pool, which no result depends on). */
void tm_step(timing_t *t, gpu_top_t *g, gpu_in_t *in, gpu_out_t *o, uint64_t cycle);
const tm_kstat_t *tm_kstat(const timing_t *t, int k);
const tm_stat_t *tm_stat(const timing_t *t);
/* --ctx-free (docs/smk.md): every context line of the preemption engines is answered in the cycle
 * after its request (the engine contract's least latency), takes no channel time and is not counted in
 * ctx_lines: a save or restore costs no memory traffic, only the engine's one line per cycle. Set
 * before the first cycle; 0 (the default) is the memory model of docs/workload.md. */
void tm_set_ctx_free(timing_t *t, int on);
/* Reset every statistic (for a warm-up before a measured interval; smk does not use one today). */
void tm_reset_stats(timing_t *t);

#endif
