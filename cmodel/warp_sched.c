/* warp_sched.c: Enhanced Warp Scheduler, bit- and cycle-accurate (spec: docs/warp_sched.md).
 * Hot path: bit masks only; no allocation; the age matrix is one 64-bit row per warp. */
#include "warp_sched.h"

#include <string.h>

/* Warps of scheduler s: bits s, s+S, s+2S, ... = ((2^W - 1) / (2^S - 1)) << s, since S divides W. */
#define WS_SMASK(s) ((SMK_WMASK_ALL / SMK_MASK(SMK_SCHED)) << (s))

wmask_t ws_sched_mask(int s) { return WS_SMASK(s); }

void ws_reset(warp_sched_t *ws)
{
    memset(ws, 0, sizeof *ws);
    for (int s = 0; s < SMK_SCHED; s++)
        ws->last[s] = SMK_LWARPS - 1;
    ws->kmask[0] = SMK_WMASK_ALL; /* every ks[] is 0 */
}

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
static inline int oldest(const warp_sched_t *ws, wmask_t e)
{
    int i = smk_ctz(e);
    wmask_t x;
    while ((x = e & ws->older[i]) != 0)
        i = smk_ctz(x);
    return i;
}

void ws_eval(const warp_sched_t *ws, const ws_in_t *in, ws_out_t *out)
{
    const wmask_t cand = ws->valid & in->ready & ~in->stop;
    wmask_t allow = 0;
    for (int k = 0; k < SMK_KSLOTS; k++)
        if (!WS_QGATE || ((in->qallow >> k) & 1))
            allow |= ws->kmask[k];
    const wmask_t elig = cand & allow;

    uint32_t iss_v = 0;
    wmask_t issued = 0;
#if WS_PACK
    uint64_t wid = 0, iks = 0; /* byte s = scheduler s */
#else
    memset(out->iss_wid, 0, sizeof out->iss_wid);
    memset(out->iss_ks, 0, sizeof out->iss_ks);
#endif
    for (int s = 0; s < SMK_SCHED; s++) {
        const wmask_t e = elig & WS_SMASK(s);
        if (!e)
            continue;
        const int lastg = s + ws->last[s] * SMK_SCHED;
        int w;
        if (in->policy == SMK_POLICY_LRR) {
            /* bits above lastg (2ULL << 63 == 0 is well defined), else wrap to the lowest */
            wmask_t above = e & ~((2ULL << lastg) - 1ULL);
            w = smk_ctz(above ? above : e);
        } else if (((ws->last_v >> s) & 1) && ((e >> lastg) & 1)) {
            w = lastg;
        } else {
            w = oldest(ws, e);
        }
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

    /* idle: eligible and not issued (an issued warp w is in kmask[ks[w]] and in no other kmask, so
     * this is popc(elig & kmask[k]) minus the issues of slot k) */
    const wmask_t idle = elig & ~issued;
    uint32_t act = 0;
    for (int k = 0; k < SMK_KSLOTS; k++) {
        const wmask_t km = ws->kmask[k];
        out->idle_cnt[k] = (uint8_t)smk_popc(idle & km);
        out->held_cnt[k] = (uint8_t)smk_popc(cand & ~allow & km);
        act |= (uint32_t)((ws->valid & km) != 0) << k;
    }
    out->ks_active = act;
    out->wvalid = ws->valid;
}

void ws_commit(warp_sched_t *ws, const ws_in_t *in, const ws_out_t *out)
{
    const wmask_t F = in->finish_mask & SMK_WMASK_ALL;
    const wmask_t L = in->launch_v ? (in->launch_mask & SMK_WMASK_ALL) : 0;
    const wmask_t stay = ws->valid & ~F & ~L;

    if (L) {
        const uint32_t k = in->launch_ks & SMK_MASK(SMK_KS_W);
        for (int j = 0; j < SMK_KSLOTS; j++)
            ws->kmask[j] &= ~L;
        if (k < SMK_KSLOTS)
            ws->kmask[k] |= L;
        for (int w = 0; w < SMK_WARPS; w++) {
            if ((L >> w) & 1) {
                const wmask_t sm = WS_SMASK(w % SMK_SCHED);
                ws->ks[w] = (uint8_t)k;
                ws->older[w] = (stay & sm) | (L & sm & ((1ULL << w) - 1ULL));
            } else {
                ws->older[w] &= ~L;
            }
        }
    }
    ws->valid = stay | L; /* = (valid & ~F) | L */

    /* per scheduler: an issue names the issued warp, then a warp that finishes or is launched
     * over no longer is the same warp (the schedulers are independent, so two passes) */
    const uint32_t iv = out->iss_v & (uint32_t)SMK_MASK(SMK_SCHED);
    for (uint32_t x = iv; x; x &= x - 1) {
        const int s = smk_ctz(x);
        ws->last[s] = (uint8_t)(out->iss_wid[s] / SMK_SCHED);
    }
    ws->last_v |= iv;
    const wmask_t gone = F | L;
    if (gone)
        for (int s = 0; s < SMK_SCHED; s++)
            if ((gone >> (s + ws->last[s] * SMK_SCHED)) & 1)
                ws->last_v &= ~(1u << s);
}
