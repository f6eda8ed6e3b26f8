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
    int issued_k[1 << SMK_KS_W] = {0}; /* slot ids >= KSLOTS are never eligible */
    for (int s = 0; s < SMK_SCHED; s++) {
        wmask_t e = elig & WS_SMASK(s);
        out->iss_wid[s] = 0;
        out->iss_ks[s] = 0;
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
        out->iss_wid[s] = (uint8_t)w;
        out->iss_ks[s] = ws->ks[w];
        issued_k[ws->ks[w]]++;
    }
    out->iss_v = iss_v;

    uint32_t act = 0;
    for (int k = 0; k < SMK_KSLOTS; k++) {
        const wmask_t km = ws->kmask[k];
        out->idle_cnt[k] = (uint8_t)(smk_popc(elig & km) - issued_k[k]);
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

    const wmask_t gone = F | L;
    for (int s = 0; s < SMK_SCHED; s++) {
        if ((out->iss_v >> s) & 1) {
            ws->last[s] = (uint8_t)(out->iss_wid[s] / SMK_SCHED);
            ws->last_v |= 1u << s;
        }
        if ((gone >> (s + ws->last[s] * SMK_SCHED)) & 1)
            ws->last_v &= ~(1u << s);
    }
}
