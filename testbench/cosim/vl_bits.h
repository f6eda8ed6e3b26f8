// vl_bits.h: bit-field access on Verilator's port and signal types, shared by the cosim shims.
// gbits/sbits read/write w bits at lsb of an integral value (up to 64 bits) or of a VlWide<N>
// (word-wise). Packed vectors put element i at [i*w +: w], so element i is gbits(v, i*w, w).
#ifndef VL_BITS_H
#define VL_BITS_H
#include <cstddef>
#include <cstdint>

#include "verilated.h"

template <typename T> static inline uint64_t gbits(const T &v, int lsb, int w)
{
    if (lsb >= 64)
        return 0;
    const uint64_t x = (uint64_t)v >> lsb;
    return w >= 64 ? x : x & ((1ULL << w) - 1);
}
template <std::size_t N> static inline uint64_t gbits(const VlWide<N> &v, int lsb, int w)
{
    uint64_t r = 0;
    for (int got = 0; got < w;) {
        const int b = lsb + got, wi = b / 32, bi = b % 32;
        const int take = (32 - bi) < (w - got) ? (32 - bi) : (w - got);
        const uint64_t chunk = ((uint64_t)v[wi] >> bi) & ((1ULL << take) - 1);
        r |= chunk << got;
        got += take;
    }
    return r;
}
template <typename T> static inline void sbits(T &v, int lsb, int w, uint64_t x)
{
    const uint64_t m = (w >= 64 ? ~0ULL : ((1ULL << w) - 1)) << lsb;
    v = (T)(((uint64_t)v & ~m) | ((x << lsb) & m));
}
template <std::size_t N> static inline void sbits(VlWide<N> &v, int lsb, int w, uint64_t x)
{
    for (int put = 0; put < w;) {
        const int b = lsb + put, wi = b / 32, bi = b % 32;
        const int take = (32 - bi) < (w - put) ? (32 - bi) : (w - put);
        const uint32_t m = (uint32_t)(((1ULL << take) - 1) << bi);
        v[wi] = (v[wi] & ~m) | ((uint32_t)((x >> put) << bi) & m);
        put += take;
    }
}
#endif
