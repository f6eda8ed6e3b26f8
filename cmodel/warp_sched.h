/* warp_sched.h: C reference model of the Enhanced Warp Scheduler (spec: docs/warp_sched.md). */
#ifndef WARP_SCHED_H
#define WARP_SCHED_H
#include "smk_util.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef WS_QGATE
#define WS_QGATE 1 /* 0 = quota gating removed (area comparison only) */
#endif

typedef struct {
    /* architectural state (docs/warp_sched.md "State") */
    wmask_t valid;
    uint8_t ks[SMK_WARPS];
    wmask_t older[SMK_WARPS]; /* bit j set: warp j (same scheduler) is older than warp w */
    uint8_t last[SMK_SCHED];  /* local index of last issued warp */
    uint32_t last_v;          /* bit s: last[s] still names the same warp */
    /* derived, kept for speed (a function of ks[] only) */
    wmask_t kmask[SMK_KSLOTS]; /* warps whose ks == k (valid or not) */
} warp_sched_t;

typedef struct {
    uint32_t policy; /* SMK_POLICY_GTO / SMK_POLICY_LRR */
    uint32_t launch_v;
    wmask_t launch_mask;
    uint32_t launch_ks;
    wmask_t finish_mask, ready, stop;
    uint32_t qallow; /* bit k */
} ws_in_t;

typedef struct {
    uint32_t iss_v; /* bit s */
    uint8_t iss_wid[SMK_SCHED], iss_ks[SMK_SCHED];
    uint8_t idle_cnt[SMK_KSLOTS], held_cnt[SMK_KSLOTS];
    uint32_t ks_active; /* bit k */
    wmask_t wvalid;
} ws_out_t;

/* Mask of the warps of scheduler s (w mod SCHED == s). */
wmask_t ws_sched_mask(int s);
void ws_reset(warp_sched_t *ws);
/* Outputs of this cycle from current state and inputs (no state change). */
void ws_eval(const warp_sched_t *ws, const ws_in_t *in, ws_out_t *out);
/* Clock edge: next state from current state, inputs and this cycle's outputs. */
void ws_commit(warp_sched_t *ws, const ws_in_t *in, const ws_out_t *out);

#ifdef __cplusplus
}
#endif
#endif
