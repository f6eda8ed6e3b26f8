/* sm_side.c: pipelines, storage and context-memory port around one SM, shared by the SM and GPU
 * cosims' environments (sm_side.h). */
#include "sm_side.h"

#include <string.h>

#define NW SMK_WARPS
#define NT SMK_TB_SLOTS
#define CL SMK_CTL_LINES
#define RMAX SMK_MAX_REGS
#define MMAX SMK_SMEM_LINES

static inline int bit(uint64_t v, int i) { return (int)((v >> i) & 1); }

void sd_init(sm_side_t *d)
{
    memset(d, 0, sizeof *d);
    for (int w = 0; w < NW; w++)
        d->wtb[w] = -1;
    d->rsp_i = -1;
}

void sd_warp_phase(sd_knobs_t *k, rng_t *r, uint32_t p_long_max, uint32_t lat_l_max)
{
    k->p_ready = 10 + rng_below(r, 91);
    k->lat_s = 2 + rng_below(r, 6);
    k->p_long = rng_below(r, p_long_max);
    k->lat_l = 20 + rng_below(r, lat_l_max);
    k->p_exit = 20 + rng_below(r, 81);
    /* docs/sm_top.md, contract with the pipelines: a stopped warp may exit only in the cycle its last
     * in-flight instruction retires (it then counts as not idle); a stopped, idle warp never exits.
     * In half of the phases stopped warps never exit at all. */
    k->exit_stopped = rng_chance(r, 1, 2);
    /* pipeline-blocked warps (pblk, docs/warp_sched.md): a warp with work left that is not ready is
     * blocked by its full unit with this probability (percent; 0 in a quarter of the phases) */
    k->p_pblk = rng_chance(r, 1, 4) ? 0 : rng_below(r, 101);
}

void sd_mem_phase(sm_side_t *d, rng_t *r)
{
    static const uint32_t lat_tab[] = {1, 2, 4, 10, 30, 100};
    d->lmax = lat_tab[rng_below(r, sizeof lat_tab / sizeof lat_tab[0])];
    d->p_rdy = rng_chance(r, 1, 2) ? 100 : 10 + rng_below(r, 90);
    d->p_ooo = rng_below(r, 101);
}

void sd_gen(sm_side_t *d, const sd_knobs_t *k, rng_t *r, uint64_t cycle, wmask_t stopped, int noise, sm_in_t *in)
{
    for (wmask_t x = d->live; x; x &= x - 1) {
        const int w = smk_ctz(x);
        const int busy = d->busy_until[w] > cycle;
        if (busy)
            in->wbusy |= 1ULL << w;
        if (d->left[w] && rng_chance(r, busy ? k->p_ready / 2 : k->p_ready, 100))
            in->ready |= 1ULL << w;
        else if (d->left[w] && k->p_pblk && rng_chance(r, k->p_pblk, 100)) /* never with ready */
            in->pblk |= 1ULL << w;
        const int retired = d->busy_until[w] == cycle; /* last in-flight work retires now */
        if (!d->left[w] && !busy && (!bit(stopped, w) || (k->exit_stopped && retired)) && rng_chance(r, k->p_exit, 100))
            in->wexit |= 1ULL << w;
    }
    /* completions from the issue delay line, plus noise */
    for (int p = 0; p < SMK_CP; p++) {
        const int dl = (int)(cycle % SD_PIPE);
        if (d->pipe[dl][p].v) {
            in->cp_v |= 1u << p;
            in->cp_ks[p] = d->pipe[dl][p].ks, in->cp_act[p] = d->pipe[dl][p].act;
            d->pipe[dl][p].v = 0;
        } else if (noise && rng_chance(r, 1, 50)) {
            in->cp_v |= 1u << p;
            in->cp_ks[p] = (uint8_t)rng_below(r, 1u << SMK_KS_W);
            in->cp_act[p] = (uint8_t)rng_below(r, 1u << SMK_ACT_W);
        }
    }
    /* memory: ready, and at most one response among the due requests (oldest or random) */
    in->mem_req_rdy = rng_chance(r, d->p_rdy, 100);
    int due[SD_MEMQ], nd = 0;
    d->rsp_i = -1;
    for (int i = 0; i < d->nmq; i++)
        if (d->mq[i].due <= cycle)
            due[nd++] = i;
    if (nd) {
        d->rsp_i = rng_chance(r, d->p_ooo, 100) ? due[rng_below(r, (uint32_t)nd)] : due[0];
        in->mem_rsp_v = 1, in->mem_rsp_tag = d->mq[d->rsp_i].tag;
    } else if (noise && rng_chance(r, 1, 4)) {
        in->mem_rsp_tag = (uint32_t)rng_next(r) & (uint32_t)SMK_MASK(SMK_CTX_TAG_W); /* noise without valid */
    }
}

void sd_launch(sm_side_t *d, wmask_t mask, int rec, const uint32_t *left)
{
    int j = 0;
    for (wmask_t x = mask; x; x &= x - 1, j++) {
        const int w = smk_ctz(x);
        d->wtb[w] = rec, d->wrank[w] = (uint8_t)j, d->left[w] = left[j], d->busy_until[w] = 0;
    }
    d->live |= mask;
}

void sd_remove(sm_side_t *d, wmask_t mask)
{
    for (wmask_t x = mask; x; x &= x - 1) {
        const int w = smk_ctz(x);
        d->wtb[w] = -1, d->left[w] = 0;
    }
    d->live &= ~mask;
}

void sd_keep_left(const sm_side_t *d, wmask_t mask, uint32_t *left)
{
    int j = 0;
    for (wmask_t x = mask; x; x &= x - 1, j++) {
        const int w = smk_ctz(x);
        left[j] = bit(d->live, w) ? d->left[w] : 0;
    }
}

wmask_t sd_busy(const sm_side_t *d, wmask_t mask, uint64_t cycle)
{
    wmask_t b = 0;
    for (wmask_t x = mask; x; x &= x - 1)
        if (d->busy_until[smk_ctz(x)] > cycle)
            b |= x & -x;
    return b;
}

void sd_issues(sm_side_t *d, const sd_knobs_t *k, rng_t *r, uint64_t *gen, uint64_t cycle, const ws_out_t *wo,
               uint32_t act_range, sd_shape_fn *shape, const void *ctx)
{
    for (int s = 0; s < SMK_SCHED; s++) {
        if (!bit(wo->iss_v, s))
            continue;
        const int w = wo->iss_wid[s];
        if (w >= NW || d->wtb[w] < 0)
            continue;
        uint32_t R, M;
        int slot;
        shape(ctx, d->wtb[w], &R, &M, &slot);
        if (d->left[w])
            d->left[w]--;
        const uint64_t lat = rng_chance(r, k->p_long, 100) ? k->lat_l + rng_below(r, k->lat_l) : 2 + rng_below(r, k->lat_s);
        if (cycle + lat > d->busy_until[w])
            d->busy_until[w] = cycle + lat;
        const uint32_t id = (uint32_t)d->wtb[w];
        ++*gen;
        if (R)
            d->reg[w][rng_below(r, R)] = sd_sig(id, SMK_CTX_KIND_REG, d->wrank[w], 0, *gen);
        else
            d->ctl[w][0] = sd_sig(id, SMK_CTX_KIND_CTL, d->wrank[w], 0, *gen);
        if (M && rng_chance(r, 1, 8))
            d->smem[slot][rng_below(r, M)] = sd_sig(id, SMK_CTX_KIND_SMEM, 0, 0, *gen);
        const int p = s * SMK_CMPL_PER_SCHED + (int)rng_below(r, SMK_CMPL_PER_SCHED);
        const int dl = (int)((cycle + SD_PIPE) % SD_PIPE);
        d->pipe[dl][p].v = 1, d->pipe[dl][p].ks = wo->iss_ks[s];
        d->pipe[dl][p].act = (uint8_t)(rng_chance(r, 3, 4) ? SMK_WARP_SIZE : rng_below(r, act_range));
    }
}

wmask_t sd_exits(sm_side_t *d, wmask_t wexit, uint64_t cycle)
{
    wmask_t bad = 0;
    for (wmask_t x = wexit & SMK_WMASK_ALL; x; x &= x - 1) {
        const int w = smk_ctz(x);
        if (!bit(d->live, w) || d->left[w] || d->busy_until[w] > cycle)
            bad |= 1ULL << w;
        d->live &= ~(1ULL << w);
    }
    return bad;
}

static inline uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
uint64_t sd_sig(uint32_t id, uint32_t kind, uint32_t j, uint32_t idx, uint64_t gen)
{
    return mix(mix(mix((uint64_t)id << 2 | kind) ^ ((uint64_t)j << 32 | idx)) ^ gen);
}

uint64_t *sd_line(sm_side_t *d, uint32_t kind, uint32_t wid, uint32_t idx, uint32_t tb)
{
    if (kind == SMK_CTX_KIND_CTL && wid < NW && idx < CL)
        return &d->ctl[wid][idx];
    if (kind == SMK_CTX_KIND_REG && wid < NW && idx < RMAX)
        return &d->reg[wid][idx];
    if (kind == SMK_CTX_KIND_SMEM && tb < NT && idx + 1 <= MMAX)
        return &d->smem[tb][idx];
    return NULL;
}

uint64_t sd_get(sm_side_t *d, uint32_t kind, uint32_t wid, uint32_t idx, uint32_t tb)
{
    const uint64_t *l = sd_line(d, kind, wid, idx, tb);
    return l ? *l : 0;
}

void sd_put(sm_side_t *d, uint32_t kind, uint32_t wid, uint32_t idx, uint32_t tb, uint64_t v)
{
    uint64_t *l = sd_line(d, kind, wid, idx, tb);
    if (l)
        *l = v;
}

void sd_fill(sm_side_t *d, int id, wmask_t mask, int slot, uint32_t R, uint32_t M, uint64_t gen)
{
    int j = 0;
    for (wmask_t x = mask; x; x &= x - 1, j++) {
        const int w = smk_ctz(x);
        for (int c = 0; c < CL; c++)
            d->ctl[w][c] = sd_sig((uint32_t)id, SMK_CTX_KIND_CTL, (uint32_t)j, (uint32_t)c, gen);
        for (uint32_t i = 0; i < R; i++)
            d->reg[w][i] = sd_sig((uint32_t)id, SMK_CTX_KIND_REG, (uint32_t)j, i, gen);
    }
    for (uint32_t i = 0; i < M; i++)
        d->smem[slot][i] = sd_sig((uint32_t)id, SMK_CTX_KIND_SMEM, 0, i, gen);
}

uint32_t sd_read(const sm_side_t *d, wmask_t mask, int slot, uint32_t n, uint32_t R, uint32_t M, uint64_t *out)
{
    int j = 0;
    for (wmask_t x = mask; x; x &= x - 1, j++) {
        const int w = smk_ctz(x);
        for (int c = 0; c < CL; c++)
            out[j * CL + c] = d->ctl[w][c];
        for (uint32_t i = 0; i < R; i++)
            out[n * CL + j * R + i] = d->reg[w][i];
    }
    for (uint32_t i = 0; i < M; i++)
        out[n * CL + n * R + i] = d->smem[slot][i];
    return n * CL + n * R + M;
}

int sd_diff(const sm_side_t *d, wmask_t mask, int slot, uint32_t n, uint32_t R, uint32_t M, const uint64_t *snap)
{
    uint64_t cur[SMK_CTX_MAX_LINES];
    const uint32_t L = sd_read(d, mask, slot, n, R, M, cur);
    for (uint32_t i = 0; i < L; i++)
        if (cur[i] != snap[i])
            return (int)i;
    return -1;
}

void sd_push(sm_side_t *d, rng_t *r, uint64_t cycle, uint32_t tag, uint32_t we, uint64_t addr)
{
    sd_req_t *q = &d->mq[d->nmq++];
    q->tag = tag, q->we = we, q->addr = addr;
    q->due = cycle + 1 + rng_below(r, d->lmax);
}

sd_req_t sd_take(sm_side_t *d)
{
    const sd_req_t q = d->mq[d->rsp_i];
    d->mq[d->rsp_i] = d->mq[--d->nmq];
    return q;
}
