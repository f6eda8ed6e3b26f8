/* warp_sched.c: Enhanced Warp Scheduler, bit- and cycle-accurate (spec: docs/warp_sched.md).
 * Hot path: bit masks only; no allocation; the age matrix is one 64-bit row per warp. */
#include "warp_sched.h"

#include <string.h>

wmask_t ws_sched_mask(int s) { return WS_SMASK(s); }

/* allow_t from kmask[]: allow_t[q] = allow_t[q without its lowest bit k] | kmask[k], one OR per
 * entry (2^K entries; only a launch changes kmask[]) */
static void ws_derive_allow(warp_sched_t *ws)
{
    if (!WS_QGATE) {
        wmask_t a = 0;
        for (int k = 0; k < SMK_KSLOTS; k++)
            a |= ws->kmask[k];
        for (uint32_t q = 0; q < (1u << SMK_KSLOTS); q++)
            ws->allow_t[q] = a;
        return;
    }
    ws->allow_t[0] = 0;
    for (uint32_t q = 1; q < (1u << SMK_KSLOTS); q++)
        ws->allow_t[q] = ws->allow_t[q & (q - 1)] | ws->kmask[__builtin_ctz(q)];
}

/* act_c from kmask[] and valid */
static void ws_derive_act(warp_sched_t *ws)
{
    uint32_t act = 0;
    for (int k = 0; k < SMK_KSLOTS; k++)
        act |= (uint32_t)((ws->valid & ws->kmask[k]) != 0) << k;
    ws->act_c = act;
}

void ws_derive(warp_sched_t *ws)
{
    ws_derive_allow(ws);
    ws_derive_act(ws);
}

void ws_reset(warp_sched_t *ws)
{
    memset(ws, 0, sizeof *ws);
    for (int s = 0; s < SMK_SCHED; s++)
        ws->last[s] = SMK_LWARPS - 1;
    ws->kmask[0] = SMK_WMASK_ALL; /* every ks[] is 0 */
    ws_derive(ws);
}

void ws_eval(const warp_sched_t *ws, const ws_in_t *in, ws_out_t *out) { ws_eval_i(ws, in, out); }

void ws_commit(warp_sched_t *ws, const ws_in_t *in, const ws_out_t *out)
{
    const wmask_t F = in->finish_mask & SMK_WMASK_ALL;
    const wmask_t L = in->launch_v ? (in->launch_mask & SMK_WMASK_ALL) : 0;
    const wmask_t stay = ws->valid & ~F & ~L;
    const wmask_t idle_nx = ws_idle_next_i(ws, in, out, L); /* from the state before the edge */

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
    ws->idle_r = idle_nx;
    if (L)
        ws_derive_allow(ws); /* a finish leaves kmask[] as it is */
    if (L | F)
        ws_derive_act(ws);

    /* per scheduler: an issue names the issued warp, then a warp that finishes or is launched
     * over no longer is the same warp (the schedulers are independent, so two passes) */
    ws_commit_issues_i(ws, out);
    const wmask_t gone = F | L;
    if (gone)
        for (int s = 0; s < SMK_SCHED; s++)
            if ((gone >> (s + ws->last[s] * SMK_SCHED)) & 1)
                ws->last_v &= ~(1u << s);
}
