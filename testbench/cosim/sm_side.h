/* sm_side.h: what surrounds one SM's ports in the SM cosim (sm_env.c) and, once per SM, in the GPU
 * cosim (gpu_env.c): the warps' pipelines, the storage the engine saves and restores, and the SM's
 * port to the context memory. Storage lines are 64-bit signatures sd_sig(TB identity, kind, rank
 * j, index, generation) instead of 128-byte lines: a signature mismatch is exactly as visible as a
 * mismatch of the line. Everything random comes from the caller's rng_t, in the order the functions
 * are called. */
#ifndef SM_SIDE_H
#define SM_SIDE_H
#include "rng.h"
#include "sm_top.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SD_PIPE 4   /* issue -> completion port delay */
#define SD_MEMQ 256 /* memory requests outstanding (>= OMAX) */

/* the pipelines' knobs, drawn per phase (sd_warp_phase) */
typedef struct {
    uint32_t p_ready, lat_s, p_long, lat_l, p_exit, exit_stopped, p_pblk;
} sd_knobs_t;

typedef struct {
    uint32_t tag, we;
    uint64_t addr, due;
} sd_req_t;

typedef struct {
    /* pipelines */
    wmask_t live;                         /* launched, not exited */
    int wtb[SMK_WARPS];                   /* the caller's TB record of each warp, -1 */
    uint8_t wrank[SMK_WARPS];             /* rank of the warp in its TB */
    uint32_t left[SMK_WARPS];             /* instructions left */
    uint64_t busy_until[SMK_WARPS];       /* last in-flight instruction retires at this cycle */
    struct { uint8_t v, ks, act; } pipe[SD_PIPE][SMK_CP]; /* completions on their way */
    /* storage: register lines per physical warp, control lines per warp, shared memory per slot */
    uint64_t reg[SMK_WARPS][SMK_MAX_REGS > 0 ? SMK_MAX_REGS : 1], ctl[SMK_WARPS][SMK_CTL_LINES];
    uint64_t smem[SMK_TB_SLOTS][SMK_SMEM_LINES];
    /* memory port: accepted requests, this cycle's response (index into mq, -1), per-phase knobs */
    sd_req_t mq[SD_MEMQ];
    int nmq, rsp_i;
    uint32_t lmax, p_rdy, p_ooo;
} sm_side_t;

void sd_init(sm_side_t *d);
/* Per phase: the pipelines' knobs (memory latencies up to lat_l_max, in p_long_max percent of the
 * issues at most), and the memory port's (latency 1..Lmax, mem_req_rdy, reordering). */
void sd_warp_phase(sd_knobs_t *k, rng_t *r, uint32_t p_long_max, uint32_t lat_l_max);
void sd_mem_phase(sm_side_t *d, rng_t *r);

/* This cycle's pipeline and memory inputs: wbusy, ready (with stalls), wexit (a warp with no
 * instruction left that is not busy; one of `stopped` only in the cycle its last in-flight
 * instruction retires, and only if k->exit_stopped), the completions due, mem_req_rdy and at most
 * one response among the due requests (d->rsp_i). noise: random completions on idle ports and a
 * random mem_rsp_tag without mem_rsp_v. */
void sd_gen(sm_side_t *d, const sd_knobs_t *k, rng_t *r, uint64_t cycle, wmask_t stopped, int noise, sm_in_t *in);

/* Pipelines at the clock edge. */
void sd_launch(sm_side_t *d, wmask_t mask, int rec, const uint32_t *left); /* left: by rank */
void sd_remove(sm_side_t *d, wmask_t mask);
void sd_keep_left(const sm_side_t *d, wmask_t mask, uint32_t *left);       /* by rank; 0 once exited */
wmask_t sd_busy(const sm_side_t *d, wmask_t mask, uint64_t cycle);         /* warps still busy */
/* R, M and slot of the caller's TB record rec (the issuing warp's) */
typedef void sd_shape_fn(const void *ctx, int rec, uint32_t *R, uint32_t *M, int *slot);
/* Every issue of wo: one instruction less, busy for a latency, one register line (a control line
 * when R = 0) and sometimes a shared-memory line rewritten with a new generation (*gen), a completion
 * on one of the scheduler's ports SD_PIPE cycles later (active threads: the warp size, or below
 * act_range). */
void sd_issues(sm_side_t *d, const sd_knobs_t *k, rng_t *r, uint64_t *gen, uint64_t cycle, const ws_out_t *wo,
               uint32_t act_range, sd_shape_fn *shape, const void *ctx);
/* The exits of wexit (warps no longer live); returns those that break the contract (not live,
 * instructions left or busy). */
wmask_t sd_exits(sm_side_t *d, wmask_t wexit, uint64_t cycle);

/* Storage. */
uint64_t sd_sig(uint32_t id, uint32_t kind, uint32_t j, uint32_t idx, uint64_t gen);
/* the line (kind, physical warp, index; shared memory: of slot tb), or NULL outside the storage */
uint64_t *sd_line(sm_side_t *d, uint32_t kind, uint32_t wid, uint32_t idx, uint32_t tb);
uint64_t sd_get(sm_side_t *d, uint32_t kind, uint32_t wid, uint32_t idx, uint32_t tb); /* 0 outside */
void sd_put(sm_side_t *d, uint32_t kind, uint32_t wid, uint32_t idx, uint32_t tb, uint64_t v);
/* every line of TB identity id (warps mask, slot, R register lines, M shared-memory lines): generation gen */
void sd_fill(sm_side_t *d, int id, wmask_t mask, int slot, uint32_t R, uint32_t M, uint64_t gen);
/* The context of the n warps of mask and of slot in layout order (docs/preempt_engine.md: control
 * lines by rank, register lines by rank, shared memory) into out; returns its length L. */
uint32_t sd_read(const sm_side_t *d, wmask_t mask, int slot, uint32_t n, uint32_t R, uint32_t M, uint64_t *out);
/* The first line of that context that differs from snap, or -1. */
int sd_diff(const sm_side_t *d, wmask_t mask, int slot, uint32_t n, uint32_t R, uint32_t M, const uint64_t *snap);

/* Memory port at the clock edge: an accepted request (due 1..lmax cycles later), this cycle's response
 * taken out of the queue. */
void sd_push(sm_side_t *d, rng_t *r, uint64_t cycle, uint32_t tag, uint32_t we, uint64_t addr);
sd_req_t sd_take(sm_side_t *d);

#ifdef __cplusplus
}
#endif
#endif
