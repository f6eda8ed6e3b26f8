/* unit_util.h: small helpers shared by the Criterion unit tests (test_warp_sched.c,
 * test_quota_unit.c, and the others' bench checks). Header-only, static inline; U_NEEDS expands
 * to Criterion calls where it is used. */
#ifndef SMK_UNIT_UTIL_H
#define SMK_UNIT_UTIL_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quota_unit.h"
#include "rng.h"
#include "warp_sched.h"

/* ---- one test's own assumptions: inside a test body, skip with the unmet condition named when this
 * configuration cannot hold what the test checks (a worked example's numbers, a second kernel slot);
 * everything else a test needs is derived from the configuration */
#define U_NEEDS(cond)                                                                                        \
    do {                                                                                                     \
        if (!(cond))                                                                                         \
            cr_skip_test("this configuration cannot hold the test (needs " #cond ")");                       \
    } while (0)

/* ---- warp ids and masks ------------------------------------------------------------------ */

static inline wmask_t u_bit(int w) { return 1ULL << w; }
/* global warp id of local index l of scheduler s (docs/warp_sched.md: w = s + l*S) */
static inline int u_wid(int s, int l) { return s + l * SMK_SCHED; }

/* ---- one clock cycle: outputs of this cycle, then the clock edge ---------------------------- */

static inline void ws_step(warp_sched_t *ws, const ws_in_t *in, ws_out_t *out)
{
    ws_eval(ws, in, out);
    ws_commit(ws, in, out);
}

static inline void qu_step(quota_unit_t *q, const qu_in_t *in, qu_out_t *out)
{
    qu_eval(q, in, out);
    qu_commit(q, in, out);
}

/* One cycle with a register write (csr_we = 1) on top of the caller's other inputs `in`
 * (pass inputs with no activity for a plain set-up write). Returns that cycle's outputs
 * (e.g. epoch_end of a CMD.EPOCH_START write). */
static inline qu_out_t qu_write(quota_unit_t *q, const qu_in_t *in, uint32_t addr, uint32_t data)
{
    qu_in_t w = *in;
    qu_out_t o;
    w.csr_we = 1, w.csr_addr = addr, w.csr_wdata = data;
    qu_step(q, &w, &o);
    return o;
}

/* SM_CTRL value from its fields (hw/regmap.def) */
static inline uint32_t u_ctrl(uint32_t policy, uint32_t qmode, uint32_t qscheme, uint32_t rollneg)
{
    return policy << SMK_SM_CTRL_POLICY_LSB | qmode << SMK_SM_CTRL_QMODE_LSB |
           qscheme << SMK_SM_CTRL_QSCHEME_LSB | rollneg << SMK_SM_CTRL_ROLLNEG_LSB;
}

/* ---- randomness: cmodel/sim/rng.h, fixed default seed, UNIT_SEED=<n> in the environment to
 * replay another; the seed is printed. -------------------------------------------------------- */

static inline uint64_t u_seed(const char *test, uint64_t dflt)
{
    const char *e = getenv("UNIT_SEED");
    const uint64_t seed = e && *e ? strtoull(e, NULL, 0) : dflt;
    fprintf(stderr, "[%s] %s: seed %llu\n", SMK_CFG_NAME, test, (unsigned long long)seed);
    return seed;
}

/* ---- warp_sched and quota_unit suites (test_warp_sched.c, test_quota_unit.c) ---------------- */

/* local-index bit l (0 <= l < SMK_LWARPS <= 64) of a 64-bit local mask */
static inline uint64_t u_lb(int l) { return 1ULL << l; }
/* every local index of a scheduler */
#define U_LALL ((uint64_t)SMK_MASK(SMK_LWARPS))
/* the warps with local index in the 64-bit local mask lmask, in every scheduler (any
 * SMK_LWARPS up to 64) */
static inline wmask_t u_rep64(uint64_t lmask)
{
    wmask_t m = 0;
    for (int l = 0; l < SMK_LWARPS; l++)
        if ((lmask >> l) & 1)
            for (int s = 0; s < SMK_SCHED; s++)
                m |= u_bit(u_wid(s, l));
    return m;
}
/* the same in scheduler s only (any SMK_LWARPS up to 64) */
static inline wmask_t u_loc64(int s, uint64_t lmask)
{
    wmask_t m = 0;
    for (int l = 0; l < SMK_LWARPS; l++)
        if ((lmask >> l) & 1)
            m |= u_bit(u_wid(s, l));
    return m;
}
/* the local mask of the locals [lo, hi) */
static inline uint64_t u_lrange(int lo, int hi) { return SMK_MASK(hi) & ~SMK_MASK(lo); }

#endif
