/* workload.h: workload description files (docs/workload.md "Format"): one `machine` block (memory
 * system and pipeline latencies) and up to WL_MAX_KERNELS `kernel NAME` blocks (per-TB resources,
 * grid, instructions per warp, instruction mix, memory behaviour, branch divergence, idempotence).
 * Every key of a block is required; anything unknown, repeated, out of range or followed by garbage
 * is an error "FILE:LINE: reason". The parser does not know the hardware configuration: smk checks
 * the kernels against it (wl_check_fit). */
#ifndef SMK_WORKLOAD_H
#define SMK_WORKLOAD_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define WL_MAX_KERNELS 64
#define WL_NAME_MAX 31   /* characters of a kernel name */
#define WL_MAX_ACT 32    /* entries of an active-thread distribution (one per thread count) */
#define WL_PROB_ONE 4294967296.0 /* probabilities are kept as thresholds out of 2^32 */

/* instruction classes (docs/workload.md "Pipelines"): the four of the papers' mix, then the arithmetic that
 * GPGPU-Sim 3.x sends to the SFU: integer multiply and multiply-add (SFU only), f32 multiply (the ALU, or
 * the SFU when the ALU does not admit it), f32 divide (SFU) */
enum { WL_ALU = 0, WL_SFU = 1, WL_SHARED = 2, WL_GLOBAL = 3, WL_IMUL = 4, WL_IMAD = 5, WL_FMUL = 6, WL_FDIV = 7,
       WL_NCLASS = 8 };
/* the SM's pipelines (docs/workload.md "Pipelines"): ALU, SFU, LD/ST (shared and global) */
enum { WL_U_ALU = 0, WL_U_SFU = 1, WL_U_LDST = 2, WL_NUNIT = 3 };
#define WL_QUEUE_MAX 64  /* instructions a pipeline may hold issued and not yet started */

typedef struct {
    uint32_t mem_channels;   /* memory controllers (channels) shared by the whole GPU */
    double mem_service;      /* core cycles one channel is busy per 128-byte line */
    uint32_t mem_latency;    /* DRAM latency beyond the channel's service, core cycles */
    uint32_t l1_latency, l2_latency;
    uint32_t lat[3];         /* ALU, SFU, shared-memory latency (cycles until the result is usable) */
    uint32_t max_inflight;   /* instructions one warp may have in flight (scoreboard) */
    uint32_t mshr;           /* L1-miss lines one SM may have in flight; a warp whose next
                              * instruction is a global one waits while they are all in use */
    int ctx_priority;        /* context lines of the preemption engines go ahead of queued lines */
    uint32_t alu_units;      /* ALU instructions the SM issues and starts per cycle */
    uint32_t sint[WL_NCLASS]; /* per class on the SFU (sfu, imul, imad, fmul, fdiv; others 0): cycles
                               * between its start there and the SFU's next start */
    uint32_t queue[WL_NUNIT]; /* per pipeline: instructions issued, not yet started, at most */
    uint32_t fetch_warps;    /* warps whose instruction buffer an SM fills per cycle */
    uint32_t ibuffer;        /* instructions one fetch brings and a warp's instruction buffer holds */
    int line;                /* line of the block (for messages) */
} wl_machine_t;

typedef struct {
    char name[WL_NAME_MAX + 1];
    int line;                /* line of `kernel NAME` */
    uint32_t threads;        /* threads per TB */
    uint32_t warps;          /* ceil(threads / 32) */
    uint32_t regs;           /* registers per thread */
    uint32_t smem_bytes;     /* shared memory per TB */
    uint32_t grid;           /* TBs */
    uint32_t insts;          /* warp instructions per warp */
    double mix[WL_NCLASS];   /* fractions of warp instructions per class (WL_ALU ..., sum 1) */
    double dep;              /* probability that the next instruction needs this one's result */
    double lines;            /* 128-byte transactions per global-memory instruction (coalescing), 1..32 */
    double l1_hit, l2_hit;   /* hit rates (l2_hit: of the L1 misses) */
    uint32_t n_act;          /* active-thread distribution: n_act pairs (threads, probability) */
    uint32_t act_thr[WL_MAX_ACT];
    double act_p[WL_MAX_ACT];
    int idempotent;
    /* derived (wl_load): cumulative thresholds out of 2^32 for one 32-bit draw */
    uint64_t cmix[WL_NCLASS], cact[WL_MAX_ACT], t_dep, t_l1, t_l2;
    uint32_t lines_int;      /* floor(lines) */
    uint64_t t_lines_frac;   /* chance of one more line */
} wl_kernel_t;

typedef struct {
    char path[256];
    wl_machine_t m;
    int nk;
    wl_kernel_t k[WL_MAX_KERNELS];
} workload_t;

/* Parse `path` into *wl. Returns 0, or -1 with a one-line message "FILE:LINE: reason" in err. */
int wl_load(const char *path, workload_t *wl, char *err, size_t errlen);
/* The same from an open file f; path names it in the messages and in wl->path */
int wl_parse(FILE *f, const char *path, workload_t *wl, char *err, size_t errlen);
/* Index of the kernel called `name`, or -1. */
int wl_find(const workload_t *wl, const char *name);
/* Can one TB of kernel k be placed on an SM of this configuration, and its grid be launched? 0, or -1
 * with "FILE:LINE: kernel NAME: reason" in err. */
int wl_check_fit(const workload_t *wl, int k, uint32_t warps_per_sm, uint32_t reg_rows_per_sm,
                 uint32_t smem_bytes_per_sm, uint32_t max_regs, uint32_t grid_max, uint32_t tb_slots,
                 char *err, size_t errlen);

#endif
