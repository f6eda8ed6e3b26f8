/* smk_util.h: fixed-width helpers shared by every block of the C model.
 * All arithmetic that the RTL must match is integer, with explicit widths and saturation. */
#ifndef SMK_UTIL_H
#define SMK_UTIL_H
#include <stdint.h>
#include "smk_cfg.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t wmask_t; /* one bit per warp slot (SMK_WARPS <= 64, enforced by hw/) */

#define SMK_MASK(bits) ((bits) >= 64 ? ~0ULL : ((1ULL << (bits)) - 1ULL))
#define SMK_WMASK_ALL SMK_MASK(SMK_WARPS)

static inline int smk_popc(uint64_t x) { return __builtin_popcountll(x); }
static inline int smk_ctz(uint64_t x) { return __builtin_ctzll(x); }

/* Two's-complement saturation to a signed width w (w <= 32). */
static inline int64_t smk_sat_signed(int64_t x, int w)
{
    const int64_t hi = (INT64_C(1) << (w - 1)) - 1, lo = -(INT64_C(1) << (w - 1));
    return x > hi ? hi : x < lo ? lo : x;
}
/* Unsigned saturation to width w (w <= 32). */
static inline uint64_t smk_sat_unsigned(uint64_t x, int w)
{
    const uint64_t hi = SMK_MASK(w);
    return x > hi ? hi : x;
}

#ifdef __cplusplus
}
#endif
#endif
