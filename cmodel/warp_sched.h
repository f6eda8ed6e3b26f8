/* warp_sched.h: C reference model of the Enhanced Warp Scheduler (spec: docs/warp_sched.md). */
#ifndef WARP_SCHED_H
#define WARP_SCHED_H
#include <string.h>

#include "smk_util.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef WS_QGATE
#define WS_QGATE 1 /* 0 = quota gating removed (area comparison only) */
#endif
#ifndef WS_IDLE_ARB
#define WS_IDLE_ARB 1 /* 1 = an eligible warp that lost arbitration is idle too (rule 5) */
#endif

typedef struct {
    /* architectural state (docs/warp_sched.md "State"; field order: the per-cycle ones first) */
    wmask_t valid;
    wmask_t idle_r;           /* the last cycle's idle warps (pipeline-blocked, or eligible and not
                               * issued), minus the warps launched at its edge (idle_cnt counts them) */
    /* derived, kept for speed (a function of ks[] only) */
    wmask_t kmask[SMK_KSLOTS]; /* warps whose ks == k (valid or not) */
    uint32_t last_v;          /* bit s: last[s] still names the same warp */
    uint8_t last[SMK_SCHED];  /* local index of last issued warp */
    uint8_t ks[SMK_WARPS];
    wmask_t older[SMK_WARPS]; /* bit j set: warp j (same scheduler) is older than warp w */
    /* derived from kmask[] and valid, kept for speed (ws_derive): allow_t[q] = OR of kmask[k] over
     * the bits k of q (every kmask when quota gating is compiled out), rebuilt on a launch (the only
     * change of kmask[]); act_c = ks_active, on a launch or a finish */
    wmask_t allow_t[1u << SMK_KSLOTS];
    uint32_t act_c;
} warp_sched_t;

typedef struct {
    uint32_t policy; /* SMK_POLICY_GTO / SMK_POLICY_LRR */
    uint32_t launch_v;
    wmask_t launch_mask;
    uint32_t launch_ks;
    wmask_t finish_mask, ready, stop;
    wmask_t pblk;    /* ready but for a full pipeline unit (never with ready: docs/warp_sched.md) */
    uint32_t qallow; /* bit k */
} ws_in_t;

typedef struct {
    uint32_t iss_v; /* bit s */
    uint8_t iss_wid[SMK_SCHED], iss_ks[SMK_SCHED];
    uint8_t idle_cnt[SMK_KSLOTS], held_cnt[SMK_KSLOTS];
    uint32_t ks_active; /* bit k */
    wmask_t wvalid;
} ws_out_t;

/* ---- ws_eval's body, inline for the SM top's hot path (ws_eval is the same function) ---- */
/* Warps of scheduler s: bits s, s+S, s+2S, ... = ((2^W - 1) / (2^S - 1)) << s, since S divides W. */
#define WS_SMASK(s) ((SMK_WMASK_ALL / SMK_MASK(SMK_SCHED)) << (s))

/* iss_wid / iss_ks are gathered in a register (byte s = scheduler s) and stored with one store per
 * array when the host allows it: a consumer that copies an array with one wide load (sm_top) then
 * gets it by store forwarding instead of a stall on four byte stores. */
#if SMK_SCHED <= 8 && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define WS_PACK 1
#else
#define WS_PACK 0
#endif

/* Oldest warp of the eligible set e (non-empty, one scheduler): walk to an older eligible warp
 * until none is left. Each step moves strictly older in a total order, so it ends at the oldest. */
static inline int ws_oldest(const warp_sched_t *ws, wmask_t e)
{
    int i = smk_ctz(e);
    wmask_t x;
    while ((x = e & ws->older[i]) != 0)
        i = smk_ctz(x);
    return i;
}

/* Schedulers with at least one warp in e: bit s. With a power-of-two SCHED the warps of scheduler s
 * are the bits congruent to s modulo SCHED, so OR-folding the mask down to SCHED bits gives it. */
static inline uint32_t ws_sched_nonempty(wmask_t e)
{
#if (SMK_SCHED & (SMK_SCHED - 1)) == 0
    for (int sh = 32; sh >= SMK_SCHED; sh >>= 1)
        e |= e >> sh;
    return (uint32_t)(e & SMK_MASK(SMK_SCHED));
#else
    uint32_t m = 0;
    for (int s = 0; s < SMK_SCHED; s++)
        m |= (uint32_t)((e & WS_SMASK(s)) != 0) << s;
    return m;
#endif
}

/* idle_cnt / held_cnt gathered in a register (byte k = slot k), one store per array */
#if SMK_KSLOTS <= 8 && WS_PACK
#define WS_PACKK 1
#else
#define WS_PACKK 0
#endif

/* The issue choice of scheduler s (rule 4 of docs/warp_sched.md) from its eligible warps e (not empty) */
static inline int ws_pick1_i(const warp_sched_t *ws, uint32_t policy, wmask_t e, int s)
{
    const int lastg = s + ws->last[s] * SMK_SCHED;
    if (policy == SMK_POLICY_LRR) {
        /* bits above lastg (2ULL << 63 == 0 is well defined), else wrap to the lowest */
        const wmask_t above = e & ~((2ULL << lastg) - 1ULL);
        return smk_ctz(above ? above : e);
    }
    if (((ws->last_v >> s) & 1) && ((e >> lastg) & 1))
        return lastg;
    return ws_oldest(ws, e);
}

/* The issue choice of every scheduler (rule 4 of docs/warp_sched.md) from the eligible warps elig:
 * writes out->iss_v, iss_wid, iss_ks; returns the mask of the issued warps (ws_pick1_i per scheduler
 * with an eligible warp). */
static inline wmask_t ws_pick_i(const warp_sched_t *ws, uint32_t policy, wmask_t elig, ws_out_t *out)
{
    uint32_t iss_v = 0;
    wmask_t issued = 0;
#if WS_PACK
    uint64_t wid = 0, iks = 0; /* byte s = scheduler s */
#else
    memset(out->iss_wid, 0, sizeof out->iss_wid);
    memset(out->iss_ks, 0, sizeof out->iss_ks);
#endif
    /* only the schedulers with an eligible warp */
    for (uint32_t sx = elig ? ws_sched_nonempty(elig) : 0; sx; sx &= sx - 1) {
        const int s = smk_ctz(sx);
        const int w = ws_pick1_i(ws, policy, elig & WS_SMASK(s), s);
        iss_v |= 1u << s;
        issued |= 1ULL << w;
#if WS_PACK
        wid |= (uint64_t)w << (8 * s);
        iks |= (uint64_t)ws->ks[w] << (8 * s);
#else
        out->iss_wid[s] = (uint8_t)w;
        out->iss_ks[s] = ws->ks[w];
#endif
    }
#if WS_PACK
    memcpy(out->iss_wid, &wid, sizeof out->iss_wid);
    memcpy(out->iss_ks, &iks, sizeof out->iss_ks);
#endif
    out->iss_v = iss_v;
    return issued;
}

static inline void ws_eval_i(const warp_sched_t *ws, const ws_in_t *in, ws_out_t *out)
{
    const wmask_t cand = ws->valid & in->ready & ~in->stop;
    const wmask_t allow = ws->allow_t[in->qallow & (uint32_t)SMK_MASK(SMK_KSLOTS)];
    const uint32_t act = ws->act_c; /* ks_active */
    const wmask_t elig = cand & allow, held = cand & ~allow;
    (void)ws_pick_i(ws, in->policy, elig, out);

    /* idle: the registered mask of the last cycle's idle warps (rule 5; none of them was launched
     * at the edge, so kmask[] is their slot then) */
    const wmask_t idle = ws->idle_r;
#if WS_PACKK
    uint64_t ic = 0, hc = 0;
    if (idle)
        for (int k = 0; k < SMK_KSLOTS; k++)
            ic |= (uint64_t)smk_popc(idle & ws->kmask[k]) << (8 * k);
    if (held) /* warps held by their quota: none while every slot is allowed */
        for (int k = 0; k < SMK_KSLOTS; k++)
            hc |= (uint64_t)smk_popc(held & ws->kmask[k]) << (8 * k);
    memcpy(out->idle_cnt, &ic, sizeof out->idle_cnt);
    memcpy(out->held_cnt, &hc, sizeof out->held_cnt);
#else
    for (int k = 0; k < SMK_KSLOTS; k++) {
        const wmask_t km = ws->kmask[k];
        out->idle_cnt[k] = (uint8_t)smk_popc(idle & km);
        out->held_cnt[k] = (uint8_t)smk_popc(held & km);
    }
#endif
    out->ks_active = act;
    out->wvalid = ws->valid;
}

/* The warps that may count idle (clock-edge rule 5 of docs/warp_sched.md) before the issued ones
 * are taken out: pipeline-blocked, and (WS_IDLE_ARB) ready */
static inline wmask_t ws_idle_src_i(wmask_t ready, wmask_t pblk)
{
    return WS_IDLE_ARB ? (ready | pblk) : pblk;
}
/* idle_r' (clock-edge rule 5 of docs/warp_sched.md): the valid, not stopped, allowed warps of this
 * cycle (from the state before the edge) that are pipeline-blocked or (WS_IDLE_ARB) ready, and did
 * not issue (out->iss_v / iss_wid), minus the launched warps L */
static inline wmask_t ws_idle_next_i(const warp_sched_t *ws, const ws_in_t *in, const ws_out_t *out, wmask_t L)
{
    wmask_t idle = ws->valid & ws_idle_src_i(in->ready, in->pblk) & ~in->stop &
                   ws->allow_t[in->qallow & (uint32_t)SMK_MASK(SMK_KSLOTS)];
    for (uint32_t x = out->iss_v & (uint32_t)SMK_MASK(SMK_SCHED); x; x &= x - 1)
        idle &= ~(1ULL << out->iss_wid[smk_ctz(x)]);
    return idle & ~L & SMK_WMASK_ALL;
}
/* the part of ws_commit that an issue makes: last[s] names the warp w scheduler s issued */
static inline void ws_issue1_i(warp_sched_t *ws, int s, int w)
{
    ws->last[s] = (uint8_t)(w / SMK_SCHED);
    ws->last_v |= 1u << s;
}
/* the part of ws_commit that the issues make */
static inline void ws_commit_issues_i(warp_sched_t *ws, const ws_out_t *out)
{
    for (uint32_t x = out->iss_v & (uint32_t)SMK_MASK(SMK_SCHED); x; x &= x - 1) {
        const int s = smk_ctz(x);
        ws_issue1_i(ws, s, out->iss_wid[s]);
    }
}

/* The common cycle: no warp finishes and none is launched. Then ws_commit changes only last /
 * last_v, by the issues (ws_commit_issues_i), and idle_r (ws_idle_next_i with L = 0). The one definition of the rule: ws_commit_quiet_i
 * tests it, and the SM's quiet cycle implies it (docs/sm_top.md "Quiet cycles"). */
static inline int ws_common_i(const ws_in_t *in)
{
    return !((in->finish_mask & SMK_WMASK_ALL) || (in->launch_v && (in->launch_mask & SMK_WMASK_ALL)));
}
/* ws_commit in the common cycle (ws_common_i): exactly what ws_commit changes then; returns 0
 * (nothing done) in any other cycle */
static inline int ws_commit_quiet_i(warp_sched_t *ws, const ws_in_t *in, const ws_out_t *out)
{
    if (!ws_common_i(in))
        return 0;
    ws->idle_r = ws_idle_next_i(ws, in, out, 0);
    ws_commit_issues_i(ws, out);
    return 1;
}
/* ---- end of ws_eval's body ---- */

/* the derived fields allow_t and act_c from kmask[] and valid */
void ws_derive(warp_sched_t *ws);

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
