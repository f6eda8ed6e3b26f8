/* pe_env.c: composed model, environment (SM slots + storage, driver, memory) and monitors of the
 * preemption-engine cosim (docs/preempt_engine.md, "Environment contract", "Testbench invariants").
 *
 * The monitors never read the engine's state: they keep their own shadow of the command queue,
 * of the command in progress and of the DRAIN flags, computed from the ports, and predict every
 * output that the spec makes exact (cmd_full, lk_tb, responses and their cycles, free / launch,
 * stop, draining, mem_req_v and its fields, st_*). Line data is a 64-bit signature per line. */
#include "pe_env.h"

#include <stdio.h>
#include <string.h>

#define QD SMK_PE_QDEPTH
#define NT SMK_TB_SLOTS
#define NW SMK_WARPS
#define CL SMK_CTL_LINES
#define RMAX SMK_MAX_REGS
#define MMAX SMK_SMEM_LINES
#define OMAX SMK_PE_OMAX
#define IW SMK_CTX_IDX_W
#define WIDW SMK_WID_W
#define MAXL SMK_CTX_MAX_LINES
#define PWM SMK_MASK(SMK_CTX_PTR_W)
#define OP_SAVE SMK_PE_OP_SAVE
#define OP_RESTORE SMK_PE_OP_RESTORE
#define OP_DRAIN SMK_PE_OP_DRAIN
#define OP_DROP SMK_PE_OP_DROP
#define ST_OK SMK_PE_ST_OK
#define ST_FIN SMK_PE_ST_FIN
#define LAT_CAP 48  /* memory model's maximum latency, any phase */
#define RDY_GAP 12  /* memory model's longest run of mem_req_rdy = 0 */
#define NBLK ((uint64_t)PE_NBLK * MAXL <= (PWM + 1) ? PE_NBLK : (int)((PWM + 1) / MAXL))

/* ------------------------------------------------------------------ composed model */
void pe_model_reset(pe_model_t *m)
{
    memset(m, 0, sizeof *m);
    pe_reset(&m->pe);
}
void pe_model_eval(pe_model_t *m, const pe_stim_t *st) { pe_eval(&m->pe, &st->in, &m->o); }
void pe_model_commit(pe_model_t *m, const pe_stim_t *st)
{
    if (st->rst)
        pe_reset(&m->pe);
    else
        pe_commit(&m->pe, &st->in, &m->o);
}

/* ------------------------------------------------------------------ observation */
#define PE_SIG(nm, n) {#nm, PO_##nm, (n)},
OBS_DEFINE_TABLE(pe_obs_table, PE_OBS, PE_SIG, PO_N);

void pe_obs_from_model(const pe_model_t *m, pe_obs_t *ob)
{
    uint64_t *v = ob->v;
    const pe_out_t *o = &m->o;
    const preempt_engine_t *p = &m->pe;
    v[PO_cmd_full] = o->cmd_full, v[PO_rsp_v] = o->rsp_v, v[PO_rsp_op] = o->rsp_op, v[PO_rsp_tb] = o->rsp_tb;
    v[PO_rsp_status] = o->rsp_status, v[PO_rsp_ptr] = o->rsp_ptr;
    v[PO_free_v] = o->free_v, v[PO_free_tb] = o->free_tb, v[PO_launch_v] = o->launch_v;
    v[PO_launch_tb] = o->launch_tb, v[PO_stop] = o->stop, v[PO_draining] = o->draining, v[PO_lk_tb] = o->lk_tb;
    v[PO_mem_req_v] = o->mem_req_v, v[PO_mem_req_we] = o->mem_req_we, v[PO_mem_req_addr] = o->mem_req_addr;
    v[PO_mem_req_tag] = o->mem_req_tag, v[PO_st_re] = o->st_re, v[PO_st_we] = o->st_we, v[PO_st_tb] = o->st_tb;
    v[PO_st_kind] = o->st_kind, v[PO_st_wid] = o->st_wid, v[PO_st_idx] = o->st_idx;
    v[PO_fsm] = p->fsm;
    for (int i = 0; i < QD; i++) {
        v[PO_q_op + i] = p->q_op[i], v[PO_q_tb + i] = p->q_tb[i];
        v[PO_q_ptr + i] = p->q_ptr[i], v[PO_q_idem + i] = p->q_idem[i];
    }
    v[PO_q_head] = p->q_head, v[PO_q_cnt] = p->q_cnt, v[PO_cur_op] = p->cur_op, v[PO_cur_tb] = p->cur_tb;
    v[PO_cur_st] = p->cur_st, v[PO_cur_ptr] = p->cur_ptr, v[PO_tmask] = p->tmask, v[PO_nreg] = p->nreg;
    v[PO_nsml] = p->nsml, v[PO_klim] = p->klim, v[PO_ph] = p->ph, v[PO_wrem] = p->wrem, v[PO_idx] = p->idx;
    v[PO_addr] = p->addr, v[PO_out] = p->out, v[PO_drain] = p->drain, v[PO_dpend] = p->dpend;
}

/* ------------------------------------------------------------------ helpers */
#define VIOL(e, nviol, ...) ((nviol) += env_viol((e)->cycle, __VA_ARGS__))

static inline uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
/* the line signature hash(tb_id, kind, j, index, generation) */
static uint64_t line_sig(const pe_env_t *e, uint32_t id, uint32_t kind, uint32_t j, uint32_t idx, uint32_t gen)
{
    return mix64(e->seed * 0x9e3779b97f4a7c15ULL ^ mix64(((uint64_t)id << 40) ^ ((uint64_t)gen << 20)) ^
                 ((uint64_t)kind << 60 | (uint64_t)j << 32 | idx));
}
static inline uint32_t lowbit(uint64_t m) { return m ? (uint32_t)smk_ctz(m) : 0; }
static inline uint32_t umin(uint32_t a, uint32_t b) { return a < b ? a : b; }
/* index of the j-th set bit of m */
static uint32_t nth_bit(wmask_t m, uint32_t j)
{
    while (j--)
        m &= m - 1;
    return lowbit(m);
}

typedef struct { uint32_t kind, j, wid, idx; } line_t;
/* line i of the layout of a TB with warp mask `mask`, n warps, R registers, M shared lines */
static line_t layout(wmask_t mask, uint32_t n, uint32_t R, uint32_t i)
{
    line_t l;
    if (i < n * CL)
        l.kind = SMK_CTX_KIND_CTL, l.j = i / CL, l.idx = i % CL;
    else if (i < n * CL + n * R)
        l.kind = SMK_CTX_KIND_REG, l.j = (i - n * CL) / R, l.idx = (i - n * CL) % R;
    else
        l.kind = SMK_CTX_KIND_SMEM, l.j = 0, l.idx = i - n * CL - n * R;
    l.wid = l.kind == SMK_CTX_KIND_SMEM ? 0 : nth_bit(mask, l.j);
    return l;
}
static uint32_t tag_of(line_t l) { return l.kind << (WIDW + IW) | l.wid << IW | l.idx; }

/* storage line of slot t (NULL if out of range) */
static uint64_t *sto(pe_env_t *e, uint32_t t, uint32_t kind, uint32_t wid, uint32_t idx)
{
    if (kind == SMK_CTX_KIND_CTL)
        return wid < NW && idx < CL ? &e->ctl[wid][idx] : NULL;
    if (kind == SMK_CTX_KIND_REG)
        return wid < NW && idx < RMAX ? &e->reg[wid][idx] : NULL;
    if (kind == SMK_CTX_KIND_SMEM)
        return t < NT && idx + 1 <= MMAX ? &e->smem[t][idx] : NULL;
    return NULL;
}

static uint32_t slot_R(const pe_slot_t *s) { return umin(s->nraw, RMAX); }
static uint32_t slot_M(const pe_slot_t *s) { return umin(s->mraw, MMAX); }
static uint32_t slot_L(const pe_slot_t *s)
{
    const uint32_t n = (uint32_t)smk_popc(s->mask);
    return n * CL + n * slot_R(s) + slot_M(s);
}

static uint64_t blk_base(const pe_env_t *e, int b) { return (e->blk_off + (uint64_t)b * MAXL) & PWM; }
/* block and offset of a line address, or -1 */
static int addr_blk(const pe_env_t *e, uint64_t a, uint32_t *off)
{
    const uint64_t d = (a - e->blk_off) & PWM;
    *off = 0;
    if (d >= (uint64_t)NBLK * MAXL)
        return -1;
    *off = (uint32_t)(d % MAXL);
    return (int)(d / MAXL);
}

/* ------------------------------------------------------------------ ledger */
static int lg_new(pe_env_t *e)
{
    for (uint32_t i = 0; i < e->nid; i++)
        if (e->id[i].state == LG_NONE)
            return (int)i;
    return e->nid < PE_IDS ? (int)e->nid++ : -1;
}

static int lg_move(pe_env_t *e, uint32_t id, int from, int to, const char *why)
{
    int nv = 0;
    if (id >= e->nid || e->id[id].state != from) {
        VIOL(e, nv, "ledger: TB %u is in state %d, expected %d before %s", id, id < e->nid ? e->id[id].state : -1,
             from, why);
        return nv;
    }
    e->lg_cnt[from]--;
    if (to == LG_FINISHED) { /* finished identities are counted, and their record is recycled */
        e->lg_finished++;
        e->id[id].state = LG_NONE;
    } else {
        e->lg_cnt[to]++;
        e->id[id].state = (uint8_t)to;
    }
    return nv;
}

/* ------------------------------------------------------------------ init, phases */
static void env_clear(pe_env_t *e)
{
    memset(e->sl, 0, sizeof e->sl);
    for (int t = 0; t < NT; t++)
        e->sl[t].blk = -1;
    e->wbusy = 0, e->van_c = 0;
    memset(e->blk, 0, sizeof e->blk);
    for (int b = 0; b < PE_NBLK; b++)
        e->blk[b].reserved = -1;
    memset(e->mem_ok, 0, sizeof e->mem_ok);
    e->nmq = 0;
    e->nid = 0;
    memset(e->lg_cnt, 0, sizeof e->lg_cnt);
    e->lg_created = e->lg_finished = 0;
    e->qn = 0;
    e->cur_v = 0;
    e->last_fsm_rsp = e->cycle;
    e->sh_drain = e->sh_dpend = 0;
    e->full_run = 0;
    /* blocks start anywhere, or so that 2^PW falls 1-4 lines into block x / MAXL: a context in that
     * block wraps (clock-edge rule 4, cover point c_pe_e4_addr_wrap) */
    if (rng_chance(&e->r, 1, 2)) {
        const uint32_t x = rng_below(&e->r, (uint32_t)umin(NBLK * MAXL, 1u << 30));
        e->blk_off = (PWM + 1 - (uint64_t)(x / MAXL) * MAXL - 1 - (x % MAXL) % 4) & PWM;
    } else {
        e->blk_off = rng_next(&e->r) & PWM;
    }
}

static void new_phase(pe_env_t *e)
{
    rng_t *r = &e->r;
    e->phase_end = e->cycle + 300 + rng_below(r, 3000);
    e->p_cmd = 5 + rng_below(r, 300);                      /* per mille */
    e->p_launch = 5 + rng_below(r, 200);                   /* per mille per empty slot */
    e->p_alloc = rng_below(r, 101);                        /* percent of placements that are restores */
    e->hold = rng_chance(r, 1, 4);                         /* TBs do not finish by themselves */
    e->p_done = 1 + rng_below(r, rng_chance(r, 1, 3) ? 60 : 8); /* per mille per running TB */
    e->p_issue = rng_below(r, 101);                        /* percent per running TB */
    e->infl_max = rng_chance(r, 1, 4) ? rng_below(r, 40) : rng_below(r, 6);
    e->p_illegal = rng_chance(r, 1, 3) ? rng_below(r, 40) : rng_below(r, 5);
    e->ignore_full = rng_chance(r, 1, 5);
    e->p_rst = e->allow_reset && rng_chance(r, 1, 6) ? 1 + rng_below(r, 5) : 0; /* per 10000 */
    e->lat_kind = rng_below(r, 2);
    e->lat_fix = 1 + rng_below(r, rng_chance(r, 1, 2) ? 4 : LAT_CAP);
    e->lat_max = 2 + rng_below(r, LAT_CAP - 1);
    e->rdy_kind = rng_below(r, 3);
    e->rdy_b = 2 + rng_below(r, 11);
    e->rdy_p = 10 + rng_below(r, 81);
    e->small_shapes = !rng_chance(r, 1, 4);
    e->cap_kind = rng_below(r, 3);
    e->p_stray = rng_chance(r, 1, 4) ? 1 + rng_below(r, 20) : 0; /* percent */
}

void pe_env_init(pe_env_t *e, uint64_t seed, int allow_reset)
{
    memset(e, 0, sizeof *e);
    rng_seed(&e->r, seed);
    e->seed = seed;
    e->allow_reset = allow_reset;
    env_clear(e);
    new_phase(e);
}

/* ------------------------------------------------------------------ SM model */
static wmask_t pick_warps(pe_env_t *e, uint32_t n)
{
    wmask_t freew = ~e->wbusy & SMK_WMASK_ALL, m = 0;
    uint32_t nfree = (uint32_t)smk_popc(freew);
    for (uint32_t i = 0; i < n && nfree > 0; i++, nfree--) {
        const wmask_t bit = 1ULL << nth_bit(freew, rng_below(&e->r, nfree));
        m |= bit;
        freew &= ~bit;
    }
    return m;
}

/* write every line of slot t's TB (its identity, generation gen) */
static void fill_tb(pe_env_t *e, uint32_t t, int garbage)
{
    pe_slot_t *s = &e->sl[t];
    const uint32_t n = (uint32_t)smk_popc(s->mask), L = slot_L(s);
    for (uint32_t i = 0; i < L; i++) {
        const line_t l = layout(s->mask, n, slot_R(s), i);
        *sto(e, t, l.kind, l.wid, l.idx) =
            garbage ? rng_next(&e->r) : line_sig(e, s->id, l.kind, l.j, l.idx, e->id[s->id].gen);
    }
}

static int pending_for(const pe_env_t *e, uint32_t t)
{
    for (int i = 0; i < e->qn; i++)
        if (e->q[i].tb == t)
            return 1;
    return e->cur_v && e->cur.tb == t;
}

static void place_tbs(pe_env_t *e, uint32_t cmd_tb_now)
{
    rng_t *r = &e->r;
    for (uint32_t t = 0; t < NT; t++) {
        pe_slot_t *s = &e->sl[t];
        if (t == cmd_tb_now || pending_for(e, t))
            continue;
        if (s->st == SL_ALLOC && rng_chance(r, 1, 400)) { /* the driver gives up the slot */
            e->blk[s->blk].reserved = -1;
            e->wbusy &= ~s->mask;
            memset(s, 0, sizeof *s);
            s->blk = -1;
            continue;
        }
        if (s->st != SL_EMPTY || !rng_chance(r, e->p_launch, 1000))
            continue;
        const uint32_t nfree = (uint32_t)smk_popc(~e->wbusy & SMK_WMASK_ALL);
        if (rng_chance(r, e->p_alloc, 100)) { /* allocate for the RESTORE of a saved context */
            int b = -1;
            const uint32_t k0 = rng_below(r, NBLK);
            for (uint32_t k = 0; k < NBLK && b < 0; k++) {
                const uint32_t c = (k0 + k) % NBLK;
                if (e->blk[c].saved && e->blk[c].reserved < 0 && e->blk[c].n <= nfree)
                    b = (int)c;
            }
            if (b < 0)
                continue;
            pe_blk_t *bk = &e->blk[b];
            s->st = SL_ALLOC;
            s->mask = pick_warps(e, bk->n);
            s->nraw = bk->nraw, s->mraw = bk->mraw, s->id = bk->id, s->blk = b;
            bk->reserved = (int)t;
            e->wbusy |= s->mask;
            fill_tb(e, t, 1);
            continue;
        }
        /* a TB launched by the SM: a rerun of a dropped TB, or a new one */
        int id = -1;
        for (uint32_t i = 0; i < e->nid && id < 0; i++)
            if (e->id[i].state == LG_DROPPED && e->id[i].n <= nfree)
                id = (int)i;
        uint32_t n, nraw, mraw;
        if (id >= 0) {
            n = e->id[id].n, nraw = e->id[id].nraw, mraw = e->id[id].mraw;
            lg_move(e, (uint32_t)id, LG_DROPPED, LG_RUNNING, "rerun");
        } else {
            if (nfree == 0 || (id = lg_new(e)) < 0)
                continue;
            const uint32_t rtop = (uint32_t)SMK_MASK(SMK_REGN_W), mtop = (uint32_t)SMK_MASK(SMK_SMLN_W);
            nraw = e->small_shapes ? rng_below(r, 5) : rng_below(r, RMAX + 1);
            if (rtop > RMAX && rng_chance(r, 1, 16))
                nraw = RMAX + 1 + rng_below(r, rtop - RMAX);
            mraw = e->small_shapes ? rng_below(r, 4) : rng_below(r, MMAX + 1);
            if (mtop > MMAX && rng_chance(r, 1, 16))
                mraw = MMAX + 1 + rng_below(r, mtop - MMAX);
            /* the small shapes' 0..4 registers and 0..3 lines within the lk_nreg / lk_smem fields (a
             * value wider than its port would reach the RTL unmasked, the C model masked) */
            nraw = umin(nraw, rtop), mraw = umin(mraw, mtop);
            const uint32_t reff = umin(nraw, RMAX);
            uint32_t nmax = reff ? (SMK_REGS / SMK_WARP_SIZE) / reff : NW;
            nmax = umin(umin(nmax, nfree), e->small_shapes ? 4 : NW);
            n = rng_chance(r, 1, 64) ? 0 : 1 + rng_below(r, nmax);
            e->id[id] = (pe_tbid_t){.state = LG_RUNNING, .gen = 0, .blk = -1, .n = n, .nraw = nraw, .mraw = mraw};
            e->lg_cnt[LG_RUNNING]++;
            e->lg_created++;
        }
        s->st = SL_RUN;
        s->mask = pick_warps(e, n);
        s->nraw = nraw, s->mraw = mraw, s->id = (uint32_t)id, s->blk = -1, s->ninfl = 0;
        e->wbusy |= s->mask;
        e->id[id].gen++;
        fill_tb(e, t, 0);
    }
}

static void slot_vacate(pe_env_t *e, uint32_t t)
{
    e->wbusy &= ~e->sl[t].mask;
    memset(&e->sl[t], 0, sizeof e->sl[t]);
    e->sl[t].blk = -1;
}

/* ------------------------------------------------------------------ monitor helpers */
static int cur_stopping(const pe_env_t *e)
{
    return e->cur_v && (e->cur.op == OP_SAVE || e->cur.op == OP_DROP) && e->cur_s == ST_OK && !e->cur_fin_at &&
           e->cycle > e->cur_pop;
}
static wmask_t exp_stop(const pe_env_t *e) { return cur_stopping(e) ? e->cur_mask : 0; }
/* the command's transfer is running this cycle (the engine is in XFER by the shadow's count) */
static int cur_xfer(const pe_env_t *e)
{
    if (!e->cur_v || e->cur_s != ST_OK || e->cur_fin_at || e->cur_nacc >= e->cur_L)
        return 0;
    if (e->cur.op == OP_RESTORE)
        return e->cycle > e->cur_pop;
    if (e->cur.op == OP_SAVE)
        return e->cur_idle_at_set && e->cycle > e->cur_idle_at;
    return 0;
}

/* ------------------------------------------------------------------ stimulus */
void pe_env_gen(pe_env_t *e, const preempt_engine_t *pe, pe_stim_t *st)
{
    rng_t *r = &e->r;
    memset(st, 0, sizeof *st);
    if (e->cycle >= e->phase_end)
        new_phase(e);
    pe_in_t *in = &st->in;
    st->rst = e->p_rst && rng_chance(r, e->p_rst, 10000);

    /* the directed contract break: the stopped TB of every 16th SAVE / DROP vanishes in its first STOP cycle
     * (its slot empties at this edge without tb_done; counted, not drawn: the streams stay as they are) */
    if (!st->rst && cur_stopping(e) && e->cycle == e->cur_pop + 1 && e->cur.tb < NT &&
        e->sl[e->cur.tb].st == SL_RUN && (e->van_cmds++ & 15) == 15)
        e->van_c = e->cycle;
    if (e->van_c == e->cycle && e->van_c)
        e->wbusy &= ~e->sl[e->cur.tb].mask, e->sl[e->cur.tb].st = SL_EMPTY;
    /* SM slot state (registered) */
    const wmask_t stp = exp_stop(e);
    for (uint32_t t = 0; t < NT; t++) {
        const pe_slot_t *s = &e->sl[t];
        const tmask_t b = 1ULL << t;
        if (s->st == SL_RUN)
            in->tb_run |= b;
        if (s->st == SL_ALLOC)
            in->tb_alloc |= b;
        if (s->st != SL_RUN || s->ninfl == 0)
            in->tb_idle |= b;
        /* a TB finishes by itself, unless it is stopped and drained (contract 1: in XFER it cannot) */
        const int stopped_idle = (stp & s->mask) && s->ninfl == 0 && s->mask != 0;
        const int stopped_empty = cur_stopping(e) && e->cur.tb == t && s->ninfl == 0;
        if (s->st == SL_RUN && !e->hold && !stopped_idle && !stopped_empty && rng_chance(r, e->p_done, 1000))
            in->tb_done |= b;
    }

    /* lookup port: lk_tb is a function of the engine's state */
    const uint32_t lt = pe_lk_tb(pe);
    if (lt < NT && e->sl[lt].st != SL_EMPTY) {
        in->lk_mask = e->sl[lt].mask, in->lk_nreg = e->sl[lt].nraw, in->lk_smem = e->sl[lt].mraw;
    } else { /* an empty slot: anything */
        in->lk_mask = rng_next(r) & SMK_WMASK_ALL;
        in->lk_nreg = rng_below(r, (uint32_t)SMK_MASK(SMK_REGN_W) + 1);
        in->lk_smem = rng_below(r, (uint32_t)SMK_MASK(SMK_SMLN_W) + 1);
    }
    const uint32_t otop = (uint32_t)SMK_MASK(SMK_PE_OUT_W);
    in->cap = e->cap_kind == 0 ? 0 : e->cap_kind == 1 ? 1 + rng_below(r, OMAX) : rng_below(r, otop + 1);

    /* memory */
    if (e->rdy_kind == 0)
        in->mem_req_rdy = 1;
    else if (e->rdy_kind == 1)
        in->mem_req_rdy = e->cycle >= e->last_acc + e->rdy_b || e->last_acc == 0;
    else
        in->mem_req_rdy = rng_chance(r, e->rdy_p, 100);
    if (e->rdy_gap >= RDY_GAP)
        in->mem_req_rdy = 1;
    int pick = -1, ndue = 0;
    for (int i = 0; i < e->nmq; i++)
        if (e->mq[i].due <= e->cycle) {
            if (e->lat_kind == 0) { /* fixed latency: in order of due cycle */
                if (pick < 0 || e->mq[i].due < e->mq[pick].due)
                    pick = i;
            } else if (rng_below(r, (uint32_t)++ndue) == 0) /* any order */
                pick = i;
        }
    if (pick >= 0) {
        in->mem_rsp_v = 1;
        in->mem_rsp_tag = e->mq[pick].tag;
        e->rsp_pick = pick;
    } else {
        e->rsp_pick = -1;
        in->mem_rsp_tag = rng_chance(r, 1, 2) ? rng_next(r) & SMK_MASK(SMK_CTX_TAG_W) : 0; /* ignored */
        /* a stray response while nothing is outstanding breaks contract 5; the engine must ignore it
         * (rule 6: out = 0, or not in XFER) */
        if (e->nmq == 0 && rng_chance(r, e->p_stray, 100))
            in->mem_rsp_v = 1, e->n_stray++;
    }

    /* driver */
    const int full = e->qn == QD;
    int offer = rng_chance(r, e->p_cmd, 1000);
    if (full && (!e->ignore_full || e->full_run >= 3))
        offer = 0;
    if (offer) {
        uint32_t op = rng_below(r, 100);
        op = op < 35 ? OP_SAVE : op < 60 ? OP_RESTORE : op < 80 ? OP_DRAIN : OP_DROP;
        const int illegal = rng_chance(r, e->p_illegal, 100);
        uint32_t cand[NT], nc = 0, t;
        for (t = 0; t < NT; t++)
            if (op == OP_RESTORE ? e->sl[t].st == SL_ALLOC : e->sl[t].st == SL_RUN)
                cand[nc++] = t;
        t = (illegal || nc == 0) ? rng_below(r, NT) : cand[rng_below(r, nc)];
        uint64_t ptr = rng_next(r) & PWM;
        uint32_t idem = op == OP_DROP ? (illegal ? (uint32_t)rng_chance(r, 2, 3) : 1u) : rng_below(r, 2);
        if (op == OP_SAVE) { /* a free context block (never overlapping a live context) */
            int b = -1;
            const uint32_t k0 = rng_below(r, NBLK); /* any block, so that the one across 2^PW is used too */
            for (uint32_t k = 0; k < NBLK && b < 0; k++)
                if (!e->blk[(k0 + k) % NBLK].used)
                    b = (int)((k0 + k) % NBLK);
            if (b < 0)
                offer = 0;
            else
                ptr = blk_base(e, b), e->blk[b].used = 1;
        } else if (op == OP_RESTORE && e->sl[t].st == SL_ALLOC) {
            ptr = blk_base(e, e->sl[t].blk); /* its context, never another */
        }
        if (offer) {
            in->cmd_v = 1, in->cmd_op = op, in->cmd_tb = t, in->cmd_ptr = ptr, in->cmd_idem = idem;
        }
    }
    e->full_run = (in->cmd_v && full) ? e->full_run + 1 : 0;
}

/* ------------------------------------------------------------------ monitors (outputs) */
static int expect(pe_env_t *e, const char *what, uint64_t got, uint64_t want)
{
    int nv = 0;
    if (got != want)
        VIOL(e, nv, "%s = 0x%llx, expected 0x%llx", what, (unsigned long long)got, (unsigned long long)want);
    return nv;
}

/* Every field of the stimulus fits its input port of rtl/preempt_engine.v (cosim_pe.cpp assigns each to its port
 * as it is): a wider value is a testbench bug (cosim_env.h, env_port). Reset cycles included: the ports are driven
 * then too. */
static int port_fits(const pe_env_t *e, const pe_stim_t *st)
{
    const pe_in_t *in = &st->in;
    int nv = 0;
#define PORT(f, w) (nv += env_port(e->cycle, NULL, -1, #f, -1, (uint64_t)(f), (w)))
    PORT(st->rst, 1), PORT(in->cmd_v, 1), PORT(in->cmd_op, 2), PORT(in->cmd_tb, SMK_TBS_W);
    PORT(in->cmd_ptr, SMK_CTX_PTR_W), PORT(in->cmd_idem, 1), PORT(in->tb_run, NT), PORT(in->tb_alloc, NT);
    PORT(in->tb_idle, NT), PORT(in->tb_done, NT), PORT(in->lk_mask, NW), PORT(in->lk_nreg, SMK_REGN_W);
    PORT(in->lk_smem, SMK_SMLN_W), PORT(in->cap, SMK_PE_OUT_W), PORT(in->mem_req_rdy, 1), PORT(in->mem_rsp_v, 1);
    PORT(in->mem_rsp_tag, SMK_CTX_TAG_W);
#undef PORT
    return nv;
}

int pe_env_check(pe_env_t *e, const pe_stim_t *st, const pe_out_t *o)
{
    int nv = port_fits(e, st);
    const pe_in_t *in = &st->in;
    const uint64_t c = e->cycle;
    e->chk_rej = 0, e->chk_fsm = 0, e->chk_drn = -1, e->set_d = 0;
    if (st->rst)
        return nv;
    /* queue */
    nv += expect(e, "cmd_full", o->cmd_full, e->qn == QD);
    nv += expect(e, "lk_tb", o->lk_tb, e->qn ? e->q[0].tb : 0);
    /* stop-fetch: exactly the mask of the slot under SAVE/DROP, from the first STOP cycle */
    nv += expect(e, "stop", o->stop, exp_stop(e));
    nv += expect(e, "draining", o->draining, e->sh_drain);

    /* response port: ERR_QFULL, then the FSM's, then DRAIN completions lowest slot first */
    const int rej = in->cmd_v && e->qn == QD;
    uint32_t w_v = 0, w_op = 0, w_tb = 0, w_st = 0, w_free = 0, w_launch = 0;
    uint64_t w_ptr = 0;
    if (rej) {
        w_v = 1, w_op = in->cmd_op, w_tb = in->cmd_tb, w_st = SMK_PE_ST_ERR_QFULL, w_ptr = in->cmd_ptr;
        e->chk_rej = 1;
        e->n_qfull++;
    } else if (e->cur_v && e->cur_due && c >= e->cur_due) {
        w_v = 1, w_op = e->cur.op, w_tb = e->cur.tb, w_ptr = e->cur.ptr;
        w_st = e->cur_fin_at ? ST_FIN : e->cur_s;
        w_free = (w_op == OP_SAVE || w_op == OP_DROP) && w_st == ST_OK;
        w_launch = w_op == OP_RESTORE && w_st == ST_OK;
        e->chk_fsm = 1;
    } else if (e->sh_dpend) {
        w_v = 1, w_op = OP_DRAIN, w_tb = lowbit(e->sh_dpend), w_st = ST_OK, w_ptr = 0;
        e->chk_drn = (int)w_tb;
    }
    nv += expect(e, "rsp_v", o->rsp_v, w_v);
    nv += expect(e, "rsp_op", o->rsp_op, w_op);
    nv += expect(e, "rsp_tb", o->rsp_tb, w_tb);
    nv += expect(e, "rsp_status", o->rsp_status, w_st);
    nv += expect(e, "rsp_ptr", o->rsp_ptr, w_ptr);
    nv += expect(e, "free_v", o->free_v, w_free);
    nv += expect(e, "free_tb", o->free_tb, w_free ? w_tb : 0);
    nv += expect(e, "launch_v", o->launch_v, w_launch);
    nv += expect(e, "launch_tb", o->launch_tb, w_launch ? w_tb : 0);

    /* memory requests only in the transfer, in layout order, under the throttle */
    const int xf = cur_xfer(e);
    const uint32_t want_req = xf && e->cur_out < e->cur_k;
    if (e->cur_v && e->cur_out > e->cur_k)
        VIOL(e, nv, "throttle: %u outstanding, limit %u", e->cur_out, e->cur_k);
    if (o->mem_req_v && in->mem_req_rdy && e->cur_out >= e->cur_k) /* the memory model's own count */
        VIOL(e, nv, "throttle: request accepted with %u outstanding, limit min(max(n,1),capeff) = %u", e->cur_out,
             e->cur_k);
    nv += expect(e, "mem_req_v", o->mem_req_v, want_req);
    line_t l = {0, 0, 0, 0};
    if (want_req) {
        l = layout(e->cur_mask, e->cur_n, e->cur_R, e->cur_nacc);
        nv += expect(e, "mem_req_we", o->mem_req_we, e->cur.op == OP_SAVE);
        nv += expect(e, "mem_req_addr", o->mem_req_addr, (e->cur.ptr + e->cur_nacc) & PWM);
        nv += expect(e, "mem_req_tag", o->mem_req_tag, tag_of(l));
    } else {
        nv += expect(e, "mem_req_we", o->mem_req_we, 0);
        nv += expect(e, "mem_req_addr", o->mem_req_addr, 0);
        nv += expect(e, "mem_req_tag", o->mem_req_tag, 0);
    }
    if (e->pend_req && !(o->mem_req_v && o->mem_req_addr == e->prev_o.mem_req_addr &&
                         o->mem_req_tag == e->prev_o.mem_req_tag && o->mem_req_we == e->prev_o.mem_req_we))
        VIOL(e, nv, "mem_req dropped or changed before it was accepted");
    /* storage: read in the accepting cycle (SAVE), write in the response cycle (RESTORE) */
    const uint32_t w_re = want_req && in->mem_req_rdy && e->cur.op == OP_SAVE;
    const uint32_t w_we = in->mem_rsp_v && e->rsp_pick >= 0 && e->cur_v && e->cur.op == OP_RESTORE;
    nv += expect(e, "st_re", o->st_re, w_re);
    nv += expect(e, "st_we", o->st_we, w_we);
    uint32_t sk = 0, sw = 0, si = 0;
    if (w_re)
        sk = l.kind, sw = l.wid, si = l.idx;
    else if (w_we)
        sk = in->mem_rsp_tag >> (WIDW + IW) & 3u, sw = in->mem_rsp_tag >> IW & (uint32_t)SMK_MASK(WIDW),
        si = in->mem_rsp_tag & (uint32_t)SMK_MASK(IW);
    nv += expect(e, "st_tb", o->st_tb, (w_re || w_we) ? e->cur.tb : 0);
    nv += expect(e, "st_kind", o->st_kind, sk);
    nv += expect(e, "st_wid", o->st_wid, sw);
    nv += expect(e, "st_idx", o->st_idx, si);

    /* watchdog */
    if (e->cur_v && c > e->cur_deadline)
        VIOL(e, nv, "watchdog: %s of slot %u popped in cycle %llu has no response by cycle %llu",
             e->cur.op == OP_SAVE ? "SAVE" : e->cur.op == OP_RESTORE ? "RESTORE" : e->cur.op == OP_DRAIN ? "DRAIN" : "DROP",
             e->cur.tb, (unsigned long long)e->cur_pop, (unsigned long long)e->cur_deadline);
    if (e->cur_v && rej)
        e->cur_deadline++;
    for (int i = 0; i < e->qn; i++)
        if (c > e->q[i].cyc + 64 + (uint64_t)QD * (MAXL * (LAT_CAP + OMAX + RDY_GAP + 2) + 4096)) {
            VIOL(e, nv, "watchdog: command of cycle %llu never popped", (unsigned long long)e->q[i].cyc);
            break;
        }

    /* the pop (shadow): the FSM is idle and the queue holds a command pushed in an earlier cycle */
    if (!e->cur_v && e->qn && e->q[0].cyc < c && e->last_fsm_rsp < c) {
        const pe_cmd_t h = e->q[0];
        memmove(e->q, e->q + 1, sizeof e->q[0] * (size_t)(QD - 1));
        e->qn--;
        const uint32_t t = h.tb, in_t = t < NT;
        const pe_slot_t *s = &e->sl[in_t ? t : 0];
        const int run = in_t && s->st == SL_RUN, alloc = in_t && s->st == SL_ALLOC;
        const int done = in_t && ((in->tb_done >> t) & 1), bsy = in_t && (((e->sh_drain | e->sh_dpend) >> t) & 1);
        uint32_t sx;
        if (h.op == OP_DROP && !h.idem)
            sx = SMK_PE_ST_ERR_NOTIDEM;
        else if (bsy || (h.op == OP_RESTORE && run))
            sx = SMK_PE_ST_ERR_BUSY;
        else if ((h.op != OP_RESTORE && !run) || (h.op == OP_RESTORE && !alloc))
            sx = SMK_PE_ST_ERR_EMPTY;
        else if ((h.op == OP_SAVE || h.op == OP_DROP) && done)
            sx = ST_FIN;
        else
            sx = ST_OK;
        e->n_cmd++;
        if (h.op == OP_DRAIN && sx == ST_OK) {
            e->set_d = 1ULL << t;
        } else {
            e->cur_v = 1, e->cur = h, e->cur_s = sx, e->cur_pop = c;
            e->cur_mask = s->mask, e->cur_n = (uint32_t)smk_popc(s->mask), e->cur_R = slot_R(s), e->cur_M = slot_M(s);
            e->cur_L = e->cur_n * CL + e->cur_n * e->cur_R + e->cur_M;
            e->cur_id = s->id;
            const uint32_t cap = in->cap & (uint32_t)SMK_MASK(SMK_PE_OUT_W);
            const uint32_t capeff = (cap == 0 || cap > OMAX) ? OMAX : cap;
            e->cur_k = umin(e->cur_n ? e->cur_n : 1, capeff);
            e->cur_fin_at = 0, e->cur_idle_at_set = 0, e->cur_nacc = e->cur_nrsp = e->cur_out = 0;
            memset(e->cur_wr, 0, sizeof e->cur_wr);
            e->cur_due = 0;
            if (sx != ST_OK)
                e->cur_due = c + 1;
            else if (h.op == OP_RESTORE && e->cur_L == 0)
                e->cur_due = c + 2;
            e->cur_deadline = c + 8 + (uint64_t)e->cur_L * (LAT_CAP + OMAX + RDY_GAP + 2);
        }
    }
    e->prev_o = *o;
    e->pend_req = o->mem_req_v && !in->mem_req_rdy;
    return nv;
}

/* ------------------------------------------------------------------ clock edge */
int pe_env_final(pe_env_t *e)
{
    int nv = 0;
    uint64_t run = 0, saved = 0, drop = 0;
    for (uint32_t t = 0; t < NT; t++) {
        const pe_slot_t *s = &e->sl[t];
        if (s->st == SL_RUN) {
            run++;
            if (e->id[s->id].state != LG_RUNNING)
                VIOL(e, nv, "ledger: slot %u runs TB %u whose state is %d", t, s->id, e->id[s->id].state);
        }
        if (s->st == SL_ALLOC && (s->blk < 0 || !e->blk[s->blk].saved || e->blk[s->blk].reserved != (int)t))
            VIOL(e, nv, "ledger: allocated slot %u has no saved context", t);
    }
    for (int b = 0; b < NBLK; b++)
        if (e->blk[b].saved) {
            saved++;
            if (e->id[e->blk[b].id].state != LG_SAVED || e->id[e->blk[b].id].blk != b)
                VIOL(e, nv, "ledger: context block %d holds TB %u whose state is %d", b, e->blk[b].id,
                     e->id[e->blk[b].id].state);
        }
    for (uint32_t i = 0; i < e->nid; i++)
        drop += e->id[i].state == LG_DROPPED;
    if (run != e->lg_cnt[LG_RUNNING] || saved != e->lg_cnt[LG_SAVED] || drop != e->lg_cnt[LG_DROPPED] ||
        e->lg_created != run + saved + drop + e->lg_finished)
        VIOL(e, nv,
             "ledger: TBs not conserved: created %llu, running %llu (ledger %llu), saved %llu (ledger %llu), "
             "dropped %llu (ledger %llu), finished %llu",
             (unsigned long long)e->lg_created, (unsigned long long)run, (unsigned long long)e->lg_cnt[LG_RUNNING],
             (unsigned long long)saved, (unsigned long long)e->lg_cnt[LG_SAVED], (unsigned long long)drop,
             (unsigned long long)e->lg_cnt[LG_DROPPED], (unsigned long long)e->lg_finished);
    return nv;
}

int pe_env_commit(pe_env_t *e, const pe_stim_t *st, const pe_out_t *o)
{
    int nv = 0;
    const pe_in_t *in = &st->in;
    const uint64_t c = e->cycle;
    rng_t *r = &e->r;
    if (st->rst) { /* the engine, the memory system and the SM are reset together (contract 5) */
        nv += pe_env_final(e);
        env_clear(e);
        e->n_resets++;
        e->pend_req = 0;
        e->cycle++;
        return nv;
    }
    if (o->rsp_v)
        e->n_rsp[o->rsp_op & 7][o->rsp_status & 7]++;
    /* a SAVE rejected or answered without a saved context gives its block back */
    if (e->chk_rej && in->cmd_op == OP_SAVE) {
        uint32_t off;
        const int b = addr_blk(e, in->cmd_ptr, &off);
        if (b >= 0 && off == 0 && !e->blk[b].saved)
            e->blk[b].used = 0;
    }

    /* memory: this cycle's response (one), then this cycle's accept */
    if (e->rsp_pick >= 0) {
        const pe_mreq_t q = e->mq[e->rsp_pick];
        e->mq[e->rsp_pick] = e->mq[--e->nmq];
        if (!e->cur_v) {
            VIOL(e, nv, "memory response with no command in progress");
        } else {
            e->cur_nrsp++, e->cur_out--;
            if (!q.we) { /* RESTORE: read data goes to the storage write of this cycle */
                uint32_t off;
                const int b = addr_blk(e, q.addr, &off);
                const uint32_t i = (uint32_t)((q.addr - e->cur.ptr) & PWM);
                if (b < 0 || !e->mem_ok[b][off])
                    VIOL(e, nv, "RESTORE read of line 0x%llx, which holds no saved data", (unsigned long long)q.addr);
                else if (o->st_we) {
                    uint64_t *p = sto(e, o->st_tb, o->st_kind, o->st_wid, o->st_idx);
                    if (!p)
                        VIOL(e, nv, "storage write outside storage (kind %u wid %u idx %u)", o->st_kind, o->st_wid,
                             o->st_idx);
                    else
                        *p = e->mem[b][off];
                    if (i < MAXL)
                        e->cur_wr[i]++;
                }
            }
            if (e->cur_nrsp == e->cur_L && e->cur_nacc == e->cur_L)
                e->cur_due = c + 1;
        }
    }
    if (o->mem_req_v && in->mem_req_rdy) {
        e->last_acc = c;
        if (e->nmq >= PE_MEMQ || !e->cur_v) {
            VIOL(e, nv, "memory request with no command in progress or too many outstanding");
        } else {
            const uint32_t lat = e->lat_kind == 0 ? e->lat_fix : 1 + rng_below(r, e->lat_max);
            e->mq[e->nmq++] = (pe_mreq_t){.tag = o->mem_req_tag, .we = o->mem_req_we, .addr = o->mem_req_addr, .due = c + lat};
            e->cur_nacc++, e->cur_out++;
            e->n_lines++;
            if (o->mem_req_we) { /* write data = storage read data of the accepting cycle */
                uint32_t off;
                const int b = addr_blk(e, o->mem_req_addr, &off);
                const uint64_t *p = sto(e, o->st_tb, o->st_kind, o->st_wid, o->st_idx);
                if (b < 0 || !p) {
                    VIOL(e, nv, "SAVE write to line 0x%llx outside its context or from outside storage",
                         (unsigned long long)o->mem_req_addr);
                } else {
                    e->mem[b][off] = *p;
                    e->mem_ok[b][off] = 1;
                }
            }
        }
    }
    e->rdy_gap = in->mem_req_rdy ? 0 : e->rdy_gap + 1;

    /* FSM response: round trip, ledger */
    if (e->chk_fsm) {
        const uint32_t t = e->cur.tb, stt = e->cur_fin_at ? ST_FIN : e->cur_s;
        uint32_t off;
        const int b = addr_blk(e, e->cur.ptr, &off);
        if (e->nmq)
            VIOL(e, nv, "response with %d memory requests still outstanding", e->nmq);
        if (e->cur.op == OP_SAVE && stt == ST_OK) {
            if (b < 0 || off != 0) {
                VIOL(e, nv, "SAVE OK to a pointer the driver did not allocate");
            } else {
                for (uint32_t i = 0; i < e->cur_L; i++) {
                    const uint32_t o2 = i; /* blocks are MAXL long, contexts never longer */
                    if (!e->mem_ok[b][o2] || e->mem[b][o2] != e->snap[b][i]) {
                        const line_t l = layout(e->cur_mask, e->cur_n, e->cur_R, i);
                        VIOL(e, nv, "round trip: saved line %u (kind %u, warp j=%u, idx %u) of slot %u = 0x%llx, "
                             "snapshot 0x%llx", i, l.kind, l.j, l.idx, t, (unsigned long long)e->mem[b][o2],
                             (unsigned long long)e->snap[b][i]);
                        break;
                    }
                }
                pe_blk_t *bk = &e->blk[b];
                bk->saved = 1, bk->id = e->cur_id, bk->L = e->cur_L, bk->n = e->cur_n;
                bk->nraw = e->sl[t].nraw, bk->mraw = e->sl[t].mraw, bk->reserved = -1;
                nv += lg_move(e, e->cur_id, LG_RUNNING, LG_SAVED, "SAVE OK");
                e->id[e->cur_id].blk = b;
                slot_vacate(e, t);
            }
        } else if (e->cur.op == OP_SAVE && b >= 0 && off == 0 && !e->blk[b].saved) {
            e->blk[b].used = 0;
        }
        if (e->cur.op == OP_RESTORE && stt == ST_OK) {
            pe_slot_t *s = &e->sl[t];
            if (b < 0 || off != 0 || !e->blk[b].saved || s->blk != b) {
                VIOL(e, nv, "RESTORE OK of pointer 0x%llx, which is not this slot's saved context (restored twice?)",
                     (unsigned long long)e->cur.ptr);
            } else {
                for (uint32_t i = 0; i < e->cur_L; i++) {
                    const line_t l = layout(s->mask, e->cur_n, e->cur_R, i);
                    const uint64_t *p = sto(e, t, l.kind, l.wid, l.idx);
                    if (e->cur_wr[i] != 1 || *p != e->snap[b][i]) {
                        VIOL(e, nv, "round trip: restored line %u (kind %u, warp j=%u -> wid %u, idx %u) of slot %u = "
                             "0x%llx, saved 0x%llx, written %u times", i, l.kind, l.j, l.wid, l.idx, t,
                             (unsigned long long)*p, (unsigned long long)e->snap[b][i], e->cur_wr[i]);
                        break;
                    }
                }
                nv += lg_move(e, s->id, LG_SAVED, LG_RUNNING, "RESTORE OK");
                e->id[s->id].blk = -1;
                memset(&e->blk[b], 0, sizeof e->blk[b]);
                e->blk[b].reserved = -1;
                s->st = SL_RUN, s->blk = -1, s->ninfl = 0;
                e->n_rt++;
            }
        }
        if (e->cur.op == OP_DROP && stt == ST_OK) {
            nv += lg_move(e, e->cur_id, LG_RUNNING, LG_DROPPED, "DROP OK");
            slot_vacate(e, t);
        }
        if (stt == ST_FIN && e->cur_fin_at)
            e->n_fin_stop++;
        e->cur_v = 0;
        e->last_fsm_rsp = c;
    }
    if (e->chk_drn >= 0)
        e->sh_dpend &= ~(1ULL << e->chk_drn);

    /* the vanished TB (contract break): the engine ends the command with FIN as for a tb_done */
    if (e->van_c == c && e->van_c) {
        const uint32_t t = e->cur.tb;
        e->cur_fin_at = c, e->cur_due = c + 1;
        nv += lg_move(e, e->sl[t].id, LG_RUNNING, LG_FINISHED, "vanished (a contract break)");
        e->n_van++;
        slot_vacate(e, t);
        e->van_c = 0;
    }
    /* TBs finishing by themselves; DRAIN flags */
    const tmask_t done = in->tb_done & SMK_MASK(NT), dm = e->sh_drain | e->set_d;
    e->sh_drain = dm & ~done;
    e->sh_dpend |= dm & done;
    for (uint32_t t = 0; t < NT; t++)
        if ((done >> t) & 1) {
            if (e->cur_v && e->cur.tb == t && e->cur_s == ST_OK && c > e->cur_pop &&
                (e->cur.op == OP_SAVE || e->cur.op == OP_DROP)) {
                if (e->cur_idle_at_set && e->cur.op == OP_SAVE)
                    VIOL(e, nv, "environment: slot %u finished during its transfer", t);
                e->cur_fin_at = c, e->cur_due = c + 1;
            }
            nv += lg_move(e, e->sl[t].id, LG_RUNNING, LG_FINISHED, "tb_done");
            e->n_tbdone++;
            slot_vacate(e, t);
        }

    /* SAVE / DROP: the TB is stopped and drained (first idle STOP cycle): the snapshot */
    if (cur_stopping(e) && !e->cur_idle_at_set && ((in->tb_idle >> e->cur.tb) & 1)) {
        e->cur_idle_at_set = 1, e->cur_idle_at = c;
        if (e->cur.op == OP_DROP) {
            e->cur_due = c + 1;
        } else {
            uint32_t off;
            const int b = addr_blk(e, e->cur.ptr, &off);
            if (b >= 0)
                for (uint32_t i = 0; i < e->cur_L; i++) {
                    const line_t l = layout(e->cur_mask, e->cur_n, e->cur_R, i);
                    e->snap[b][i] = *sto(e, e->cur.tb, l.kind, l.wid, l.idx);
                }
            if (e->cur_L == 0)
                e->cur_due = c + 2;
        }
    } else if (cur_stopping(e) && !e->cur_idle_at_set) {
        e->cur_deadline++; /* D: cycles waiting for the TB to drain */
    }

    /* the SM: warps of running TBs issue unless stopped; in-flight instructions write their lines */
    const wmask_t stp = exp_stop(e);
    for (uint32_t t = 0; t < NT; t++) {
        pe_slot_t *s = &e->sl[t];
        if (s->st != SL_RUN)
            continue;
        const uint32_t n = (uint32_t)smk_popc(s->mask);
        if (n && rng_chance(r, e->p_issue, 100)) {
            const uint32_t w = nth_bit(s->mask, rng_below(r, n));
            if (!((o->stop >> w) & 1)) {
                if ((stp >> w) & 1)
                    VIOL(e, nv, "issue monitor: warp %u of stopped slot %u issued", w, t);
                if (s->ninfl < PE_INFL) {
                    const uint32_t L = slot_L(s);
                    s->infl_due[s->ninfl] = c + rng_below(r, e->infl_max + 1);
                    s->infl_line[s->ninfl++] = rng_below(r, L ? L : 1);
                }
            }
        }
        for (int i = 0; i < s->ninfl;) {
            if (s->infl_due[i] <= c) {
                const uint32_t L = slot_L(s);
                if (L) {
                    const line_t l = layout(s->mask, n, slot_R(s), s->infl_line[i] % L);
                    *sto(e, t, l.kind, l.wid, l.idx) = line_sig(e, s->id, l.kind, l.j, l.idx, ++e->id[s->id].gen);
                }
                s->ninfl--;
                s->infl_due[i] = s->infl_due[s->ninfl], s->infl_line[i] = s->infl_line[s->ninfl];
            } else {
                i++;
            }
        }
    }

    /* driver: the command offered this cycle enters the shadow queue */
    if (in->cmd_v && !e->chk_rej) {
        if (e->qn >= QD)
            VIOL(e, nv, "shadow queue overflow");
        else
            e->q[e->qn++] = (pe_cmd_t){.op = (uint8_t)in->cmd_op, .tb = (uint8_t)in->cmd_tb,
                                       .idem = (uint8_t)in->cmd_idem, .ptr = in->cmd_ptr, .cyc = c};
    }
    place_tbs(e, in->cmd_v ? in->cmd_tb : NT);
    e->cycle++;
    return nv;
}

void pe_env_summary(const pe_env_t *e)
{
    static const char *opn[4] = {"SAVE", "RESTORE", "DRAIN", "DROP"};
    static const char *stn[6] = {"OK", "FIN", "ERR_EMPTY", "ERR_BUSY", "ERR_NOTIDEM", "ERR_QFULL"};
    printf("summary: %llu cycles, %llu commands popped, %llu lines transferred, %llu round trips checked, "
           "%llu stray memory responses, %llu resets, %llu TBs finished by themselves (%llu during a SAVE/DROP stop), "
           "%llu vanished in STOP (directed contract breaks)\n",
           (unsigned long long)e->cycle, (unsigned long long)e->n_cmd, (unsigned long long)e->n_lines,
           (unsigned long long)e->n_rt, (unsigned long long)e->n_stray, (unsigned long long)e->n_resets, (unsigned long long)e->n_tbdone,
           (unsigned long long)e->n_fin_stop, (unsigned long long)e->n_van);
    for (int op = 0; op < 4; op++) {
        printf("  %-7s", opn[op]);
        for (int s = 0; s < 6; s++)
            printf(" %s %llu", stn[s], (unsigned long long)e->n_rsp[op][s]);
        printf("\n");
    }
}
