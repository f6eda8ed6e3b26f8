/* rng.h: the testbench's only source of randomness (xoshiro256**, seeded by splitmix64).
 * Every run prints its seed; the same seed replays the same stimulus. */
#ifndef SMK_RNG_H
#define SMK_RNG_H
#include <stdint.h>

typedef struct { uint64_t s[4]; } rng_t;

static inline uint64_t rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline void rng_seed(rng_t *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) { /* splitmix64 */
        uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        r->s[i] = z ^ (z >> 31);
    }
}

static inline uint64_t rng_next(rng_t *r)
{
    uint64_t *s = r->s, res = rng_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0], s[3] ^= s[1], s[1] ^= s[2], s[0] ^= s[3], s[2] ^= t, s[3] = rng_rotl(s[3], 45);
    return res;
}

/* uniform in [0, n) (n >= 1), multiply-shift: bias < 2^-32, fine for stimulus */
static inline uint32_t rng_below(rng_t *r, uint32_t n) { return (uint32_t)(((rng_next(r) >> 32) * n) >> 32); }
/* true with probability num/den */
static inline int rng_chance(rng_t *r, uint32_t num, uint32_t den) { return rng_below(r, den) < num; }
#endif
