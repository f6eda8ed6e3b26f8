/* sm_env.c: observation vector and random environment with monitors for the SM cosim (sm_env.h).
 *
 * The monitors never look inside the models except for the observation vector: every expected
 * value below is computed from the environment's own records (driver queue, TB ledger, slot view,
 * pipelines, storage, memory) and the spec's rules, and compared with the C model's outputs every
 * cycle; the RTL equals the C model by the lockstep compare. */
#include "sm_env.h"
#include "sm_side.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NW SMK_WARPS
#define NT SMK_TB_SLOTS
#define NS SMK_SCHED
#define NK SMK_KSLOTS
#define QD SMK_PE_QDEPTH
#define CL SMK_CTL_LINES
#define RMAX SMK_MAX_REGS
#define MMAX SMK_SMEM_LINES
#define OMAX SMK_PE_OMAX
#define PW SMK_CTX_PTR_W
#define IW SMK_CTX_IDX_W
#define WIDW SMK_WID_W
#define CH SMK_CTX_MAX_LINES /* one context chunk: the largest context */
/* chunks the driver hands out: 48, or as many as fit below 2^ctx_ptr_width with the base's margin
 * (a narrow pointer with large contexts: ctx_ptr_width 18, 131,075-line contexts hold 1) */
#define NCH ((int)((uint64_t)48 * CH + 8 <= PMASK ? 48 : (PMASK - 8) / CH > 0 ? (PMASK - 8) / CH : 1))
#define NMAXW (NW < 2 ? 1 : NW / 2 < 16 ? NW / 2 : 16) /* warps of the largest fresh TB the driver draws */
#define WALL SMK_WMASK_ALL
#define TALL SMK_MASK(NT)
#define PMASK SMK_MASK(PW)
#define LINE_REGS (SMK_REGS / SMK_WARP_SIZE) /* register lines of the SM */

#define OP_SAVE SMK_PE_OP_SAVE
#define OP_RESTORE SMK_PE_OP_RESTORE
#define OP_DRAIN SMK_PE_OP_DRAIN
#define OP_DROP SMK_PE_OP_DROP
#define ST_OK SMK_PE_ST_OK
#define ST_FIN SMK_PE_ST_FIN
#define ST_EMPTY SMK_PE_ST_ERR_EMPTY
#define ST_BUSY SMK_PE_ST_ERR_BUSY
#define ST_NOTIDEM SMK_PE_ST_ERR_NOTIDEM
#define ST_QFULL SMK_PE_ST_ERR_QFULL

/* ================================================================== observation vector */
#define SM_SIG(nm, n) {#nm, SO_##nm, (n)},
OBS_DEFINE_TABLE(sm_obs_table, SM_OBS, SM_SIG, SO_N);

void sm_obs_from_model(const sm_top_t *m, const sm_out_t *o, sm_obs_t *ob)
{
    uint64_t *v = ob->v;
    const ws_out_t *wo = &o->wo;
    const pe_out_t *po = &o->po;
    const warp_sched_t *ws = &m->ws;
    const quota_unit_t *q = &m->qu;
    const preempt_engine_t *pe = &m->pe;
    memset(ob, 0, sizeof *ob);
    v[SO_set_rej] = o->set_rej;
    v[SO_tb_alloc] = o->tb_alloc, v[SO_tb_run] = o->tb_run, v[SO_tb_done] = o->tb_done;
    v[SO_wused] = o->wused;
    v[SO_iss_v] = wo->iss_v;
    for (int s = 0; s < NS; s++) {
        v[SO_iss_wid + s] = wo->iss_wid[s];
        v[SO_iss_ks + s] = wo->iss_ks[s];
        v[SO_last + s] = ws->last[s];
    }
    for (int k = 0; k < NK; k++) {
        v[SO_idle_cnt + k] = wo->idle_cnt[k];
        v[SO_held_cnt + k] = wo->held_cnt[k];
        v[SO_quota + k] = q->quota[k];
        v[SO_cnt + k] = (uint64_t)(uint32_t)q->cnt[k] & SMK_MASK(SMK_QUOTA_W);
        v[SO_thr + k] = q->thr[k], v[SO_wis + k] = q->wis[k];
        v[SO_idle + k] = q->idle[k], v[SO_cyc + k] = q->cyc[k];
        v[SO_s_thr + k] = q->s_thr[k], v[SO_s_wis + k] = q->s_wis[k];
        v[SO_s_idle + k] = q->s_idle[k], v[SO_s_cyc + k] = q->s_cyc[k];
        v[SO_tin_r + k] = q->tin_r[k], v[SO_iin_r + k] = q->iin_r[k];
    }
    v[SO_ks_active] = wo->ks_active;
    v[SO_wvalid] = wo->wvalid;
    v[SO_stop] = po->stop;
    v[SO_qallow] = o->qo.qallow, v[SO_policy] = o->qo.policy;
    v[SO_epoch_end] = o->qo.epoch_end, v[SO_rd_data] = o->qo.rd_data;
    v[SO_cmd_full] = po->cmd_full;
    v[SO_rsp_v] = po->rsp_v, v[SO_rsp_op] = po->rsp_op, v[SO_rsp_tb] = po->rsp_tb;
    v[SO_rsp_status] = po->rsp_status, v[SO_rsp_ptr] = po->rsp_ptr;
    v[SO_free_v] = po->free_v, v[SO_free_tb] = po->free_tb;
    v[SO_launch_v] = po->launch_v, v[SO_launch_tb] = po->launch_tb;
    v[SO_draining] = po->draining;
    v[SO_mem_req_v] = po->mem_req_v, v[SO_mem_req_we] = po->mem_req_we;
    v[SO_mem_req_addr] = po->mem_req_addr, v[SO_mem_req_tag] = po->mem_req_tag;
    v[SO_st_re] = po->st_re, v[SO_st_we] = po->st_we, v[SO_st_tb] = po->st_tb;
    v[SO_st_kind] = po->st_kind, v[SO_st_wid] = po->st_wid, v[SO_st_idx] = po->st_idx;
    /* warp_sched */
    v[SO_valid] = ws->valid;
    for (int w = 0; w < NW; w++) {
        v[SO_ks + w] = ws->ks[w];
        v[SO_older + w] = ws->older[w];
    }
    v[SO_last_v] = ws->last_v, v[SO_idle_r] = ws->idle_r;
    /* quota_unit */
    v[SO_sm_ctrl] = q->sm_ctrl, v[SO_epoch_len] = q->epoch_len;
    v[SO_sample_per] = q->sample_per, v[SO_qos_mask] = q->qos_mask;
    v[SO_ecnt] = q->ecnt, v[SO_scnt] = q->scnt, v[SO_epochs] = q->epochs;
    v[SO_ep_cycles] = q->ep_cycles, v[SO_ep_samples] = q->ep_samples, v[SO_nsamp] = q->nsamp;
    /* preempt_engine */
    v[SO_fsm] = pe->fsm;
    for (int i = 0; i < QD; i++) {
        v[SO_q_op + i] = pe->q_op[i], v[SO_q_tb + i] = pe->q_tb[i];
        v[SO_q_ptr + i] = pe->q_ptr[i], v[SO_q_idem + i] = pe->q_idem[i];
    }
    v[SO_q_head] = pe->q_head, v[SO_q_cnt] = pe->q_cnt;
    v[SO_cur_op] = pe->cur_op, v[SO_cur_tb] = pe->cur_tb, v[SO_cur_st] = pe->cur_st;
    v[SO_cur_ptr] = pe->cur_ptr, v[SO_pe_tmask] = pe->tmask;
    v[SO_nreg] = pe->nreg, v[SO_nsml] = pe->nsml, v[SO_klim] = pe->klim;
    v[SO_ph] = pe->ph, v[SO_wrem] = pe->wrem, v[SO_idx] = pe->idx;
    v[SO_addr] = pe->addr, v[SO_out] = pe->out, v[SO_drain] = pe->drain, v[SO_dpend] = pe->dpend;
    /* slot table */
    v[SO_alloc] = m->alloc, v[SO_run] = m->run, v[SO_go] = m->go;
    for (int t = 0; t < NT; t++) {
        v[SO_tmask + t] = m->tmask[t], v[SO_tks + t] = m->tks[t];
        v[SO_tnreg + t] = m->tnreg[t], v[SO_tsml + t] = m->tsml[t];
    }
    v[SO_live] = m->live, v[SO_s_wused] = m->wused;
}

/* ================================================================== environment state */
enum { SS_FREE = 0, SS_GO, SS_ALLOC, SS_RUN };                      /* slot view */
enum { TS_GO = 0, TS_RUN, TS_SAVED, TS_FINISHED, TS_DROPPED, TS_RERUN, TS_KILLED, TS_N }; /* ledger */
static const char *const ts_name[TS_N] = {"set-up", "running", "saved", "finished", "dropped", "rerun", "killed by reset"};
enum { IF_STOP = 1, IF_XFER, IF_DONE };                              /* in-flight FSM command */

typedef struct {
    uint32_t lid, attempt;
    uint8_t ks, n, st, frozen;
    uint32_t nraw, mraw;         /* R, M as set (the engine clamps) */
    int slot, chunk, tslot;      /* running slot; saved chunk; slot allocated for its RESTORE */
    uint32_t left[NW];           /* instructions left per rank (kept while saved); a legal set-up of
                                  * the bad-set-up draws may have more than NMAXW warps */
} tbrec_t;

typedef struct {
    uint8_t st, ks;
    int tb;                      /* ledger record (GO, RUN; ALLOC: the saved record it restores) */
    wmask_t mask;
    uint32_t nraw, mraw;
    int nrest;                   /* RESTORE commands to this slot accepted and not yet answered */
} slot_t;

typedef struct {
    uint8_t op, tb, idem;
    uint64_t ptr;
    int chunk;                   /* SAVE: the chunk reserved for it */
    uint64_t cyc;
} cmd_t;

struct sm_env {
    rng_t r;
    uint64_t cycle;
    /* knobs, re-drawn per phase */
    uint64_t phase_end;
    uint32_t p_setup, p_cmd, w_save, w_rest, w_drain, w_drop, w_bad, p_qfull, p_badset;
    uint32_t nmax, imax, p_zero, rbig, mbig;
    sd_knobs_t wk;
    uint32_t cap_kind, cap, p_csr, p_rst, ks_span, kidem, p_rsend;
    /* ledger */
    tbrec_t *rec;
    uint32_t nrec, caprec, nlid;
    uint8_t *lid_done;           /* completions per logical TB */
    int *lid_cur;                /* current record of each logical TB */
    uint32_t caplid;
    int rerun[256];
    int nrerun;
    /* slots, driver queue, in-flight command, drain tracking */
    slot_t sl[NT];
    cmd_t fifo[16];
    int fhead, fcnt;
    struct {
        int v, ph;
        cmd_t c;
        uint32_t s, fst;         /* status at the pop, final status */
        uint64_t pop;
        int tb, slot;
        wmask_t mask;
        uint32_t n, R, M, L, klim, acc;
    } inf;
    tmask_t drainw, dpendx;
    /* chunks */
    uint8_t chunk_used[NCH];
    uint64_t base;
    /* pipelines, storage and memory port (sm_side.h); generation of the last line written */
    sm_side_t sd;
    uint64_t gen;
    /* memory: the context chunks, the snapshot of each SAVE's context at its stop */
    uint64_t mem[NCH * CH];
    uint64_t snap[NCH][CH];
    /* this cycle's driver choices, registered in observe */
    int set_rec, cmd_chunk;
    int golow;                   /* the directed S4 case: the engine's RESTORE launch comes in this cycle */
    int golow_arm;               /* ... drawn for the RESTORE popped in cycle golow_pop - 1 */
    uint64_t golow_pop;
    /* statistics */
    uint64_t n_issue, n_setrej, n_cmd[4][6], n_qfull, n_fin, n_done, n_saved, n_restored, n_dropped, n_killed, n_rst;
    uint64_t n_lines, max_out, n_launch, n_golow_dir, n_golow;
};

static void phase(sm_env_t *e);

uint64_t sm_env_cycle(const sm_env_t *e) { return e->cycle; }

/* ---- helpers */
static inline int bit(uint64_t v, int i) { return (int)((v >> i) & 1); }
static int jth(wmask_t m, int j) /* physical warp of rank j */
{
    while (j-- > 0)
        m &= m - 1;
    return m ? smk_ctz(m) : -1;
}
static inline uint32_t reff(uint32_t r) { return r > RMAX ? RMAX : r; }
static inline uint32_t meff(uint32_t m) { return m > MMAX ? MMAX : m; }

#define viol(e, ...) env_viol((e)->cycle, __VA_ARGS__) /* cosim_env.h */

static int new_rec(sm_env_t *e, int lid_or_neg)
{
    if (e->nrec == e->caprec) {
        e->caprec = e->caprec ? 2 * e->caprec : 1024;
        e->rec = realloc(e->rec, e->caprec * sizeof *e->rec);
        if (!e->rec) abort();
    }
    tbrec_t *r = &e->rec[e->nrec];
    memset(r, 0, sizeof *r);
    r->slot = r->chunk = r->tslot = -1;
    if (lid_or_neg < 0) {
        if (e->nlid == e->caplid) {
            e->caplid = e->caplid ? 2 * e->caplid : 1024;
            e->lid_done = realloc(e->lid_done, e->caplid);
            e->lid_cur = realloc(e->lid_cur, e->caplid * sizeof(int));
            if (!e->lid_done || !e->lid_cur) abort();
        }
        r->lid = e->nlid++;
        e->lid_done[r->lid] = 0;
    } else {
        r->lid = (uint32_t)lid_or_neg;
    }
    e->lid_cur[r->lid] = (int)e->nrec;
    return (int)e->nrec++;
}

sm_env_t *sm_env_new(uint64_t seed)
{
    sm_env_t *e = calloc(1, sizeof *e);
    if (!e) abort();
    rng_seed(&e->r, seed);
    e->inf.v = 0;
    sd_init(&e->sd);
    /* contexts live at the top of the address space, so the high address bits toggle */
    e->base = (PMASK - (uint64_t)NCH * CH - 7) & ~(uint64_t)0xf;
    for (int t = 0; t < NT; t++)
        e->sl[t].tb = -1;
    return e;
}

void sm_env_free(sm_env_t *e)
{
    if (!e) /* as free(NULL): a harness that ends before its start (--help, a bad option) */
        return;
    free(e->rec), free(e->lid_done), free(e->lid_cur), free(e);
}

static wmask_t slot_used(const sm_env_t *e)
{
    wmask_t m = 0;
    for (int t = 0; t < NT; t++)
        if (e->sl[t].st != SS_FREE)
            m |= e->sl[t].mask;
    return m;
}

static wmask_t pick_warps(sm_env_t *e, wmask_t freew, int n)
{
    wmask_t m = 0;
    int nfree = smk_popc(freew);
    for (int i = 0; i < n && nfree > 0; i++, nfree--) {
        const int w = jth(freew, (int)rng_below(&e->r, (uint32_t)nfree));
        m |= 1ULL << w;
        freew &= ~(1ULL << w);
    }
    return m;
}

static int free_slot(sm_env_t *e, int for_restore)
{
    int c[NT], n = 0;
    for (int t = 0; t < NT; t++)
        if (e->sl[t].st == SS_FREE && (!for_restore || e->sl[t].nrest == 0))
            c[n++] = t;
    return n ? c[rng_below(&e->r, (uint32_t)n)] : -1;
}

static int slot_in(sm_env_t *e, int st)
{
    int c[NT], n = 0;
    for (int t = 0; t < NT; t++)
        if (e->sl[t].st == st && (st != SS_ALLOC || e->sl[t].nrest == 0))
            c[n++] = t;
    return n ? c[rng_below(&e->r, (uint32_t)n)] : -1;
}

static int free_chunk(sm_env_t *e)
{
    const int s = (int)rng_below(&e->r, NCH);
    for (int i = 0; i < NCH; i++)
        if (!e->chunk_used[(s + i) % NCH])
            return (s + i) % NCH;
    return -1;
}

/* ================================================================== stimulus */
static void phase(sm_env_t *e)
{
    rng_t *r = &e->r;
    e->phase_end = e->cycle + 500 + rng_below(r, 4000);
    e->p_setup = 5 + rng_below(r, 300);   /* per mille */
    e->p_cmd = 3 + rng_below(r, 120);     /* per mille */
    e->w_save = rng_below(r, 10), e->w_rest = 1 + rng_below(r, 10), e->w_drain = rng_below(r, 6);
    e->w_drop = rng_below(r, 6), e->w_bad = rng_below(r, 4);
    e->p_qfull = rng_chance(r, 1, 3) ? 10 + rng_below(r, 40) : 0; /* percent, when the queue is full */
    e->p_badset = rng_chance(r, 1, 3) ? rng_below(r, 20) : 0;      /* percent of set-ups */
    e->nmax = 1 + rng_below(r, NMAXW);
    e->imax = rng_chance(r, 1, 4) ? 2000 : 5 + rng_below(r, 300);
    e->p_zero = rng_below(r, 10);
    e->rbig = rng_chance(r, 1, 5), e->mbig = rng_chance(r, 1, 5);
    sd_warp_phase(&e->wk, r, 30, 300);
    sd_mem_phase(&e->sd, r);
    e->cap_kind = rng_below(r, 4);
    e->cap = e->cap_kind == 0 ? 0 : rng_below(r, 1u << SMK_PE_OUT_W);
    e->p_csr = rng_below(r, 30);
    e->p_rst = rng_chance(r, 1, 8);
    e->ks_span = 1 + rng_below(r, NK);
    e->kidem = (uint32_t)rng_next(r) | (rng_chance(r, 1, 2) ? ~0u : 0);
    e->p_rsend = 5 + rng_below(r, 95);
}

static const uint32_t csr_addrs[] = {SMK_REG_SM_CTRL, SMK_REG_EPOCH_LEN, SMK_REG_SAMPLE_PER, SMK_REG_QOS_MASK,
                                     SMK_REG_CMD, SMK_REG_QUOTA, SMK_REG_QUOTA, SMK_REG_QUOTA, SMK_REG_CNT};

static void random_csr(sm_env_t *e, sm_in_t *in)
{
    rng_t *r = &e->r;
    uint32_t a = csr_addrs[rng_below(r, sizeof csr_addrs / sizeof csr_addrs[0])], d = (uint32_t)rng_next(r);
    if (a == SMK_REG_QUOTA || a == SMK_REG_CNT)
        a += rng_below(r, NK);
    if (rng_chance(r, 1, 16))
        a = rng_below(r, 1u << SMK_ADDR_W);
    else if (a == SMK_REG_SM_CTRL)
        d = (d & ~(3u << SMK_SM_CTRL_QMODE_LSB)) | (rng_below(r, 3) << SMK_SM_CTRL_QMODE_LSB);
    else if (a == SMK_REG_EPOCH_LEN)
        d = 20 + rng_below(r, 1000);
    else if (a == SMK_REG_SAMPLE_PER)
        d = rng_below(r, 40);
    else if (a >= SMK_REG_QUOTA && a < SMK_REG_QUOTA + NK)
        d = rng_below(r, 4000);
    else if (a >= SMK_REG_CNT && a < SMK_REG_CNT + NK)
        d = rng_below(r, 2000);
    else if (a == SMK_REG_CMD) /* EPOCH_START and SNAP in every combination */
        d = rng_below(r, 4);
    in->csr_we = 1, in->csr_addr = a, in->csr_wdata = d;
}

/* shape of a fresh TB */
static void fresh_shape(sm_env_t *e, uint32_t *n, uint32_t *R, uint32_t *M)
{
    rng_t *r = &e->r;
    *n = 1 + rng_below(r, e->nmax);
    uint32_t rr = e->rbig ? rng_below(r, RMAX + 1) : rng_below(r, 17 < RMAX + 1 ? 17 : RMAX + 1);
    while (*n * rr > LINE_REGS)
        rr /= 2;
    *R = rr;
    if (e->mbig)
        *M = rng_chance(r, 1, 4) ? MMAX + rng_below(r, (1u << SMK_SMLN_W) - MMAX) : rng_below(r, MMAX + 1);
    else
        *M = rng_below(r, 9);
    if (*M >= (1u << SMK_SMLN_W))
        *M = (1u << SMK_SMLN_W) - 1;
}

static void gen_setup(sm_env_t *e, sm_in_t *in)
{
    rng_t *r = &e->r;
    const wmask_t used = slot_used(e), freew = ~used & WALL;
    e->set_rec = -1;
    if (rng_chance(r, e->p_badset, 100)) { /* probably illegal: busy slot, empty or overlapping mask */
        in->set_v = 1;
        in->set_tb = rng_below(r, 1u << SMK_TBS_W);
        switch (rng_below(r, 3)) {
        case 0: in->set_mask = 0; break;
        case 1: in->set_mask = (rng_next(r) & used) | pick_warps(e, freew, 1); break;
        default: in->set_mask = pick_warps(e, freew, 1 + (int)rng_below(r, 3)); break;
        }
        in->set_ks = rng_below(r, 1u << SMK_KS_W);
        in->set_nreg = rng_below(r, 4), in->set_smem = rng_below(r, 4);
        /* within the ports' fields (1 bit with max_regs_per_thread 1 or one shared-memory line): a
         * wider value reaches the Verilated RTL unmasked, the C model masks it */
        in->set_nreg &= (uint32_t)SMK_MASK(SMK_REGN_W), in->set_smem &= (uint32_t)SMK_MASK(SMK_SMLN_W);
        in->set_go = 1; /* if it happens to be legal, it is a fresh TB */
        return;
    }
    /* restore set-up for a saved context that has no slot yet */
    if (rng_chance(r, 1, 2)) {
        int list[NCH] = {0}, nc = 0, cand;
        for (uint32_t i = e->nrec > 4096 ? e->nrec - 4096 : 0; i < e->nrec; i++)
            if (e->rec[i].st == TS_SAVED && e->rec[i].tslot < 0 && nc < NCH)
                list[nc++] = (int)i;
        if (nc) {
            cand = list[rng_below(r, (uint32_t)nc)];
            const tbrec_t *tr = &e->rec[cand];
            const int t = free_slot(e, 1);
            if (t >= 0 && smk_popc(freew) >= tr->n) {
                in->set_v = 1, in->set_tb = (uint32_t)t, in->set_mask = pick_warps(e, freew, tr->n);
                in->set_ks = tr->ks, in->set_nreg = tr->nraw, in->set_smem = tr->mraw, in->set_go = 0;
                e->set_rec = cand;
                return;
            }
        }
    }
    /* fresh TB, or the rerun of a dropped one */
    uint32_t n, R, M;
    fresh_shape(e, &n, &R, &M);
    uint32_t ks = rng_below(r, e->ks_span);
    if (e->nrerun && rng_chance(r, 1, 2)) {
        const tbrec_t *tr = &e->rec[e->rerun[0]];
        n = tr->n, R = tr->nraw, M = tr->mraw, ks = tr->ks;
    }
    const int t = free_slot(e, 0);
    if (t < 0 || smk_popc(freew) < (int)n)
        return;
    in->set_v = 1, in->set_tb = (uint32_t)t, in->set_mask = pick_warps(e, freew, (int)n);
    in->set_ks = ks, in->set_nreg = R, in->set_smem = M, in->set_go = 1;
}

/* a fresh TB with go, at most half the free warps (the directed S4 case) */
static void gen_go_setup(sm_env_t *e, sm_in_t *in)
{
    rng_t *r = &e->r;
    const wmask_t freew = ~slot_used(e) & WALL;
    uint32_t n, R, M;
    fresh_shape(e, &n, &R, &M);
    e->set_rec = -1;
    const int t = free_slot(e, 0);
    if (t < 0 || !freew)
        return;
    if (smk_popc(freew) < 2 * (int)n) /* leave warps for the second one */
        n = smk_popc(freew) > 1 ? (uint32_t)smk_popc(freew) / 2 : 1;
    in->set_v = 1, in->set_tb = (uint32_t)t, in->set_mask = pick_warps(e, freew, (int)n);
    in->set_ks = rng_below(r, e->ks_span), in->set_nreg = R, in->set_smem = M, in->set_go = 1;
}

/* the memory's response in this cycle is the last one of a RESTORE's transfer (every line
 * requested, one outstanding): the engine answers OK and launches the slot in the next cycle */
static int restore_ends_next(const sm_env_t *e)
{
    return e->inf.v && e->inf.c.op == OP_RESTORE && e->inf.ph == IF_XFER && e->inf.pop < e->cycle &&
           e->inf.acc >= e->inf.L && e->sd.nmq == 1 && e->sd.rsp_i >= 0;
}

static void gen_cmd(sm_env_t *e, sm_in_t *in)
{
    rng_t *r = &e->r;
    const int full = e->fcnt >= QD;
    e->cmd_chunk = -1;
    if (full && !rng_chance(r, e->p_qfull, 100))
        return;
    const uint32_t wsum = e->w_save + e->w_rest + e->w_drain + e->w_drop + e->w_bad;
    if (!wsum)
        return;
    uint32_t x = rng_below(r, wsum);
    int t = -1;
    uint32_t op;
    uint64_t ptr = rng_next(r) & PMASK;
    uint32_t idem = 0;
    if (x < e->w_save) {
        op = OP_SAVE, t = slot_in(e, SS_RUN);
    } else if ((x -= e->w_save) < e->w_rest) {
        op = OP_RESTORE, t = slot_in(e, SS_ALLOC);
        if (t >= 0)
            ptr = e->base + (uint64_t)e->rec[e->sl[t].tb].chunk * CH;
    } else if ((x -= e->w_rest) < e->w_drain) {
        op = OP_DRAIN, t = slot_in(e, SS_RUN);
    } else if ((x -= e->w_drain) < e->w_drop) {
        op = OP_DROP, t = slot_in(e, SS_RUN);
        if (t >= 0)
            idem = (e->kidem >> e->sl[t].ks) & 1;
    } else { /* any op, any slot (a RESTORE never into an allocated slot: see gen_setup) */
        op = rng_below(r, 4), t = (int)rng_below(r, 1u << SMK_TBS_W), idem = rng_below(r, 2);
        if (op == OP_RESTORE && t < NT && (e->sl[t].st == SS_ALLOC || (in->set_v && !in->set_go && in->set_tb == (uint32_t)t)))
            t = -1;
    }
    if (t < 0)
        return;
    if (op == OP_SAVE) {
        const int c = free_chunk(e);
        if (c < 0)
            return;
        e->cmd_chunk = c;
        ptr = e->base + (uint64_t)c * CH;
    }
    in->cmd_v = 1, in->cmd_op = op, in->cmd_tb = (uint32_t)t, in->cmd_ptr = ptr, in->cmd_idem = idem;
}

/* stop expected in this cycle: the slot under a SAVE/DROP popped OK, from the first STOP cycle until
 * the response (removed at once when the TB finishes by itself) */
static wmask_t stop_exp(const sm_env_t *e)
{
    if (!e->inf.v || (e->inf.c.op != OP_SAVE && e->inf.c.op != OP_DROP) || e->inf.s != ST_OK)
        return 0;
    if (e->inf.ph == IF_DONE && e->inf.fst != ST_OK)
        return 0;
    return e->inf.mask;
}

void sm_env_gen(sm_env_t *e, sm_stim_t *st)
{
    rng_t *r = &e->r;
    sm_in_t *in = &st->in;
    memset(st, 0, sizeof *st);
    e->set_rec = -1, e->cmd_chunk = -1, e->sd.rsp_i = -1;
    if (e->cycle >= e->phase_end)
        phase(e);
    const int golow = e->golow;
    e->golow = 0;
    if (e->p_rst && rng_chance(r, 1, 3000)) {
        st->rst = 1;
        in->cap = e->cap;
        return;
    }
    /* pipelines, completions, memory */
    sd_gen(&e->sd, &e->wk, r, e->cycle, stop_exp(e), 1, in);
    /* driver. Directed case of the launch arbiter (docs/sm_top.md S4, cover point c_st_s4_go_lowest:
     * the lowest of several pending go): a fresh TB set up with go in the cycle of a RESTORE's last
     * memory response and another in the next cycle, in which the engine launches the restored slot
     * and the arbiter holds the first go back, leave two go pending in the cycle after. Drawn for
     * half of the RESTOREs (from the seed, once per command at its transfer); while such a transfer
     * runs the driver sets up nothing else, so that slots and warps stay free for the pair */
    const int xfer_rest = e->inf.v && e->inf.c.op == OP_RESTORE && e->inf.ph == IF_XFER;
    if (xfer_rest && e->golow_pop != e->inf.pop + 1)
        e->golow_pop = e->inf.pop + 1, e->golow_arm = rng_chance(r, 1, 2);
    const int armed = xfer_rest && e->golow_arm && e->golow_pop == e->inf.pop + 1;
    if (golow) {
        gen_go_setup(e, in);
    } else if (armed && restore_ends_next(e)) {
        gen_go_setup(e, in);
        e->golow = 1, e->n_golow_dir++;
    } else if (!armed && rng_chance(r, e->p_setup, 1000)) {
        gen_setup(e, in);
    }
    if (rng_chance(r, e->p_cmd, 1000))
        gen_cmd(e, in);
    if (golow && in->cmd_v && e->fcnt >= QD) /* an ERR_QFULL response would delay the launch */
        in->cmd_v = 0;
    /* a RESTORE for a freshly allocated slot sometimes comes in the set-up cycle itself */
    if (!in->cmd_v && in->set_v && !in->set_go && e->set_rec >= 0 && rng_chance(r, e->p_rsend, 400)) {
        in->cmd_v = 1, in->cmd_op = OP_RESTORE, in->cmd_tb = in->set_tb;
        in->cmd_ptr = e->base + (uint64_t)e->rec[e->set_rec].chunk * CH;
        in->cmd_idem = 0;
        if (e->fcnt >= QD && !rng_chance(r, e->p_qfull, 100))
            in->cmd_v = 0;
    }
    in->cap = e->cap_kind == 3 ? rng_below(r, 1u << SMK_PE_OUT_W) : e->cap;
    if (rng_chance(r, e->p_csr, 1000))
        random_csr(e, in);
    in->rd_addr = rng_below(r, 1u << SMK_ADDR_W);
}

/* ================================================================== monitors and models */
/* layout offset x of the in-flight command -> (kind, physical warp, index) and its tag */
static uint32_t tag_of(const sm_env_t *e, uint32_t x, uint32_t *kind, uint32_t *wid, uint32_t *idx)
{
    const uint32_t n = e->inf.n, R = e->inf.R;
    if (x < n * CL) {
        *kind = SMK_CTX_KIND_CTL, *wid = (uint32_t)jth(e->inf.mask, (int)(x / CL)), *idx = x % CL;
    } else if (x < n * CL + n * R) {
        const uint32_t y = x - n * CL;
        *kind = SMK_CTX_KIND_REG, *wid = (uint32_t)jth(e->inf.mask, (int)(y / R)), *idx = y % R;
    } else {
        *kind = SMK_CTX_KIND_SMEM, *wid = 0, *idx = x - n * CL - n * R;
    }
    return *kind << (WIDW + IW) | *wid << IW | *idx;
}

static void launch_warps(sm_env_t *e, int t)
{
    slot_t *s = &e->sl[t];
    tbrec_t *tr = &e->rec[s->tb];
    sd_launch(&e->sd, s->mask, s->tb, tr->left);
    tr->st = TS_RUN, tr->slot = t, tr->frozen = 0;
    s->st = SS_RUN;
    e->n_launch++;
}

static void release_cmd(sm_env_t *e, const cmd_t *c)
{
    if (c->chunk >= 0)
        e->chunk_used[c->chunk] = 0;
    if (c->op == OP_RESTORE && c->tb < NT && e->sl[c->tb].nrest > 0)
        e->sl[c->tb].nrest--;
}

static void env_reset(sm_env_t *e)
{
    for (int t = 0; t < NT; t++) {
        slot_t *s = &e->sl[t];
        if ((s->st == SS_GO || s->st == SS_RUN) && s->tb >= 0) {
            e->rec[s->tb].st = TS_KILLED;
            e->n_killed++;
        }
        if (s->st == SS_ALLOC && s->tb >= 0)
            e->rec[s->tb].tslot = -1;
        memset(s, 0, sizeof *s);
        s->tb = -1;
    }
    for (int i = 0; i < e->fcnt; i++)
        release_cmd(e, &e->fifo[(e->fhead + i) % 16]);
    if (e->inf.v)
        release_cmd(e, &e->inf.c);
    for (int t = 0; t < NT; t++)
        e->sl[t].nrest = 0;
    e->fcnt = e->fhead = 0;
    e->inf.v = 0;
    e->drainw = e->dpendx = 0;
    e->sd.nmq = 0;
    sd_remove(&e->sd, WALL);
    memset(e->sd.pipe, 0, sizeof e->sd.pipe);
    e->n_rst++;
}

/* predicted status at the pop (docs/preempt_engine.md rule 2), from the environment's slot view */
static uint32_t predict_status(const sm_env_t *e, const cmd_t *c, tmask_t done)
{
    const int t = c->tb;
    const int run = t < NT && e->sl[t].st == SS_RUN, alloc = t < NT && e->sl[t].st == SS_ALLOC;
    const int dn = t < NT && bit(done, t), bsy = t < NT && bit(e->drainw | e->dpendx, t);
    if (c->op == OP_DROP && !c->idem) return ST_NOTIDEM;
    if (bsy || (c->op == OP_RESTORE && run)) return ST_BUSY;
    if ((c->op != OP_RESTORE && !run) || (c->op == OP_RESTORE && !alloc)) return ST_EMPTY;
    if ((c->op == OP_SAVE || c->op == OP_DROP) && dn) return ST_FIN;
    return ST_OK;
}

/* ================================================================== monitors, one cycle
 * sm_env_observe runs the checks on this cycle's outputs (check_*), then moves the environment
 * across the clock edge (edge_*), in this order; sm_cyc_t carries what the checks found. */
typedef struct {
    const sm_in_t *in;
    const sm_top_t *m;
    const sm_out_t *o;
    uint64_t c;
    tmask_t x_alloc, x_run, x_done; /* the slot view: set up (not launched), running, all warps exited */
    wmask_t x_used, xs;             /* warps of the slots set up or running; the stop expected */
    int full, set_ok;               /* the driver's queue is full; the set-up is legal (S2) */
    int popped;                     /* the engine pops pc (status ps; its slot as in the pop cycle: psl) */
    cmd_t pc;
    uint32_t ps;
    slot_t psl;
    int stop_fin, stop_idle;        /* SAVE/DROP in STOP: the TB finished / is idle */
    int rsp_kind;                   /* expected response: 0 none, 1 QFULL, 2 FSM, 3 DRAIN */
    uint32_t xr_op, xr_tb, x_launch;
    int xfer, acc, x_we;            /* in XFER; a request accepted; a RESTORE response writes storage */
    uint32_t kind, wid, idx, xtag;  /* the line of the expected request */
    uint64_t xaddr;
    uint32_t wk, ww, wi;            /* the line a RESTORE response writes */
} sm_cyc_t;

/* slot-table outputs against the environment's slot view (registered state); draining, cmd_full */
static int check_slots(sm_env_t *e, sm_cyc_t *y)
{
    const sm_out_t *o = y->o;
    int bad = 0;
    for (int t = 0; t < NT; t++) {
        const slot_t *s = &e->sl[t];
        if (s->st != SS_FREE)
            y->x_used |= s->mask;
        if (s->st == SS_ALLOC || s->st == SS_GO)
            y->x_alloc |= 1ULL << t;
        if (s->st == SS_RUN) {
            y->x_run |= 1ULL << t;
            if ((s->mask & e->sd.live) == 0)
                y->x_done |= 1ULL << t;
        }
    }
    if (o->tb_alloc != y->x_alloc)
        bad += viol(e, "tb_alloc 0x%llx, expected 0x%llx (slots set up, not launched)",
                    (unsigned long long)o->tb_alloc, (unsigned long long)y->x_alloc);
    if (o->tb_run != y->x_run)
        bad += viol(e, "tb_run 0x%llx, expected 0x%llx", (unsigned long long)o->tb_run, (unsigned long long)y->x_run);
    if (o->tb_done != y->x_done)
        bad += viol(e, "tb_done 0x%llx, expected 0x%llx (running slots whose warps have all exited)",
                    (unsigned long long)o->tb_done, (unsigned long long)y->x_done);
    if (o->wused != y->x_used)
        bad += viol(e, "wused 0x%llx, expected the OR of allocated/running masks 0x%llx",
                    (unsigned long long)o->wused, (unsigned long long)y->x_used);
    if (o->wo.wvalid != e->sd.live)
        bad += viol(e, "wvalid 0x%llx, expected the launched, not exited warps 0x%llx",
                    (unsigned long long)o->wo.wvalid, (unsigned long long)e->sd.live);
    if (o->po.draining != e->drainw)
        bad += viol(e, "draining 0x%llx, expected 0x%llx", (unsigned long long)o->po.draining,
                    (unsigned long long)e->drainw);
    y->full = e->fcnt >= QD;
    if (o->po.cmd_full != (uint32_t)y->full)
        bad += viol(e, "cmd_full %u, expected %d (%d commands queued)", o->po.cmd_full, y->full, e->fcnt);
    return bad;
}

/* S2 set-up: set_rej exactly when the set-up is illegal; stop: the slot under SAVE/DROP */
static int check_setup_stop(sm_env_t *e, sm_cyc_t *y)
{
    const sm_in_t *in = y->in;
    const sm_out_t *o = y->o;
    int bad = 0;
    if (in->set_v) {
        y->set_ok = in->set_tb < NT && e->sl[in->set_tb].st == SS_FREE && (in->set_mask & WALL) != 0 &&
                    (in->set_mask & y->x_used) == 0;
        if (o->set_rej != (uint32_t)!y->set_ok)
            bad += viol(e, "set_rej %u for the set-up of slot %u mask 0x%llx, expected %d", o->set_rej, in->set_tb,
                        (unsigned long long)in->set_mask, !y->set_ok);
        e->n_setrej += !y->set_ok;
    } else if (o->set_rej) {
        bad += viol(e, "set_rej without set_v");
    }
    y->xs = stop_exp(e);
    if (o->po.stop != y->xs)
        bad += viol(e, "stop 0x%llx, expected 0x%llx (the slot under SAVE/DROP)", (unsigned long long)o->po.stop,
                    (unsigned long long)y->xs);
    if (y->xs && e->inf.tb >= 0)
        e->rec[e->inf.tb].frozen = 1;
    return bad;
}

/* issue monitor: every issued warp is live, ready, of its scheduler, of a running TB that is not
 * stopped, with its TB's kernel slot, which qallow allows */
static int check_issue(sm_env_t *e, const sm_cyc_t *y)
{
    const ws_out_t *wo = &y->o->wo;
    int bad = 0;
    for (int s = 0; s < NS; s++) {
        if (!bit(wo->iss_v, s))
            continue;
        e->n_issue++;
        const int w = wo->iss_wid[s];
        const int rid = w < NW ? e->sd.wtb[w] : -1;
        if (w >= NW || w % NS != s || !bit(e->sd.live, w) || !bit(y->in->ready, w) || rid < 0) {
            bad += viol(e, "scheduler %d issued warp %d: not a live, ready warp of a TB", s, w);
            continue;
        }
        const tbrec_t *tr = &e->rec[rid];
        if (tr->st != TS_RUN || tr->frozen || bit(y->xs, w))
            bad += viol(e, "warp %d of TB %u.%u issued while %s", w, tr->lid, tr->attempt,
                        tr->st != TS_RUN ? ts_name[tr->st] : "stopped (between stop-fetch and its restore)");
        if (wo->iss_ks[s] != tr->ks || !bit(y->o->wi.qallow, tr->ks))
            bad += viol(e, "warp %d issued with kernel slot %u (TB's %u, qallow 0x%x)", w, wo->iss_ks[s], tr->ks,
                        y->o->wi.qallow);
    }
    return bad;
}

/* the engine's pop (the driver's queue against the engine's state), the status predicted at the
 * pop; SAVE/DROP in STOP: FIN if the TB finishes or is gone, else on to XFER / DONE once idle (no warp
 * of the slot busy or exiting in this cycle) */
static int check_pop(sm_env_t *e, sm_cyc_t *y)
{
    const sm_top_t *m = y->m;
    int bad = 0;
    y->popped = !e->inf.v && e->fcnt > 0;
    const int m_pop = m->pe.fsm == PE_FSM_IDLE && m->pe.q_cnt != 0;
    if (y->popped != m_pop)
        bad += viol(e, "the engine %s a command; the driver's queue says it %s", m_pop ? "pops" : "does not pop",
                    y->popped ? "must (FSM idle, queue not empty)" : "cannot");
    y->psl.tb = -1;
    if (y->popped) {
        y->pc = e->fifo[e->fhead];
        y->ps = predict_status(e, &y->pc, y->x_done);
        if (y->pc.tb < NT)
            y->psl = e->sl[y->pc.tb];
        e->n_cmd[y->pc.op][y->ps]++;
    }
    if (e->inf.v && e->inf.ph == IF_STOP) {
        const int t = e->inf.slot;
        y->stop_fin = t >= NT || !bit(y->x_run, t) || bit(y->x_done, t) || e->sl[t].tb != e->inf.tb;
        y->stop_idle = ((y->in->wbusy | y->in->wexit) & e->inf.mask) == 0;
    }
    return bad;
}

/* the response port: QFULL > FSM (DONE) > DRAIN completion, lowest slot first; free / launch */
static int check_response(sm_env_t *e, sm_cyc_t *y)
{
    const sm_in_t *in = y->in;
    const pe_out_t *po = &y->o->po;
    int bad = 0;
    uint32_t xr_v = 0, xr_st = 0;
    uint64_t xr_ptr = 0;
    if (in->cmd_v && y->full) {
        xr_v = 1, y->xr_op = in->cmd_op & 3, y->xr_tb = in->cmd_tb & (uint32_t)SMK_MASK(SMK_TBS_W), xr_st = ST_QFULL;
        xr_ptr = in->cmd_ptr & PMASK, y->rsp_kind = 1;
    } else if (e->inf.v && e->inf.ph == IF_DONE) {
        xr_v = 1, y->xr_op = e->inf.c.op, y->xr_tb = e->inf.c.tb, xr_st = e->inf.fst, xr_ptr = e->inf.c.ptr;
        y->rsp_kind = 2;
    } else if (e->dpendx) {
        xr_v = 1, y->xr_op = OP_DRAIN, y->xr_tb = (uint32_t)smk_ctz(e->dpendx), xr_st = ST_OK, y->rsp_kind = 3;
    }
    if (po->rsp_v != xr_v || (xr_v && (po->rsp_op != y->xr_op || po->rsp_tb != y->xr_tb || po->rsp_status != xr_st ||
                                       po->rsp_ptr != xr_ptr)))
        bad += viol(e, "response v=%u (op %u, slot %u, status %u, ptr 0x%llx), expected v=%u (op %u, slot %u, status %u, "
                       "ptr 0x%llx)",
                    po->rsp_v, po->rsp_op, po->rsp_tb, po->rsp_status, (unsigned long long)po->rsp_ptr, xr_v, y->xr_op,
                    y->xr_tb, xr_st, (unsigned long long)xr_ptr);
    const int fsm_rsp = y->rsp_kind == 2;
    const uint32_t x_free = fsm_rsp && (y->xr_op == OP_SAVE || y->xr_op == OP_DROP) && xr_st == ST_OK;
    y->x_launch = fsm_rsp && y->xr_op == OP_RESTORE && xr_st == ST_OK;
    if (po->free_v != x_free || (x_free && po->free_tb != y->xr_tb) || po->launch_v != y->x_launch ||
        (y->x_launch && po->launch_tb != y->xr_tb))
        bad += viol(e, "free_v %u (slot %u) launch_v %u (slot %u), expected %u / %u for slot %u", po->free_v,
                    po->free_tb, po->launch_v, po->launch_tb, x_free, y->x_launch, y->xr_tb);
    return bad;
}

/* memory request: exactly when XFER has lines left and the memory holds fewer than klim; storage
 * read at a SAVE's accept, write at a RESTORE's response */
static int check_memory(sm_env_t *e, sm_cyc_t *y)
{
    const sm_in_t *in = y->in;
    const pe_out_t *po = &y->o->po;
    sm_side_t *d = &e->sd;
    int bad = 0;
    y->xfer = e->inf.v && e->inf.ph == IF_XFER;
    const uint32_t x_req = y->xfer && e->inf.acc < e->inf.L && (uint32_t)d->nmq < e->inf.klim;
    if (y->xfer && (uint32_t)d->nmq > e->inf.klim)
        bad += viol(e, "memory holds %d requests of the command, above its throttle %u", d->nmq, e->inf.klim);
    if (x_req) {
        y->xtag = tag_of(e, e->inf.acc, &y->kind, &y->wid, &y->idx);
        y->xaddr = (e->inf.c.ptr + e->inf.acc) & PMASK;
    }
    if (po->mem_req_v != x_req || (x_req && (po->mem_req_we != (e->inf.c.op == OP_SAVE) || po->mem_req_addr != y->xaddr ||
                                             po->mem_req_tag != y->xtag)))
        bad += viol(e, "memory request v=%u we=%u addr 0x%llx tag 0x%x, expected v=%u addr 0x%llx tag 0x%x (line %u of "
                       "%u, %d outstanding, throttle %u)",
                    po->mem_req_v, po->mem_req_we, (unsigned long long)po->mem_req_addr, po->mem_req_tag, x_req,
                    (unsigned long long)y->xaddr, y->xtag, y->xfer ? e->inf.acc : 0, y->xfer ? e->inf.L : 0, d->nmq,
                    y->xfer ? e->inf.klim : 0);
    y->acc = x_req && in->mem_req_rdy;
    const int x_re = y->acc && e->inf.c.op == OP_SAVE;
    y->x_we = d->rsp_i >= 0 && y->xfer && e->inf.c.op == OP_RESTORE;
    if (y->x_we) {
        const uint32_t tg = d->mq[d->rsp_i].tag;
        y->wk = tg >> (WIDW + IW), y->ww = (tg >> IW) & (uint32_t)SMK_MASK(WIDW), y->wi = tg & (uint32_t)SMK_MASK(IW);
    }
    if (d->rsp_i >= 0 && !y->xfer)
        bad += viol(e, "memory answers a request outside a transfer");
    if (po->st_re != (uint32_t)x_re || po->st_we != (uint32_t)y->x_we ||
        (x_re && (po->st_kind != y->kind || po->st_wid != y->wid || po->st_idx != y->idx || po->st_tb != e->inf.c.tb)) ||
        (y->x_we && (po->st_kind != y->wk || po->st_wid != y->ww || po->st_idx != y->wi || po->st_tb != e->inf.c.tb)))
        bad += viol(e, "storage re=%u we=%u (slot %u kind %u warp %u idx %u), expected re=%d we=%d", po->st_re, po->st_we,
                    po->st_tb, po->st_kind, po->st_wid, po->st_idx, x_re, y->x_we);
    return bad;
}

/* edge: storage read at the accept -> memory line, the request enters the memory model; the
 * memory's response -> storage write (RESTORE) */
static int edge_memory(sm_env_t *e, const sm_cyc_t *y)
{
    sm_side_t *d = &e->sd;
    int bad = 0;
    if (y->acc) {
        const uint64_t a = y->xaddr - e->base;
        if (y->xaddr < e->base || a >= (uint64_t)NCH * CH)
            bad += viol(e, "request address 0x%llx outside the contexts", (unsigned long long)y->xaddr);
        else if (e->inf.c.op == OP_SAVE)
            e->mem[a] = sd_get(d, y->kind, y->wid, y->idx, e->inf.c.tb);
        if (d->nmq < SD_MEMQ)
            sd_push(d, &e->r, y->c, y->xtag, e->inf.c.op == OP_SAVE, y->xaddr);
        e->inf.acc++;
        e->n_lines++;
        if ((uint64_t)d->nmq > e->max_out)
            e->max_out = (uint64_t)d->nmq;
    }
    if (d->rsp_i >= 0) {
        const sd_req_t q = sd_take(d);
        const uint64_t a = q.addr - e->base;
        if (y->x_we && a < (uint64_t)NCH * CH)
            sd_put(d, y->wk, y->ww, y->wi, e->inf.c.tb, e->mem[a]);
    }
    return bad;
}

/* SAVE / DROP OK: the TB leaves its slot (instructions left kept per rank); a SAVE's memory lines
 * equal the snapshot taken at its stop; a dropped TB waits for its rerun */
static int save_drop_ok(sm_env_t *e, uint64_t c, int t, tbrec_t *tr)
{
    slot_t *s = &e->sl[t];
    int bad = 0;
    if (!tr || s->st != SS_RUN || s->tb != e->inf.tb || tr->st != TS_RUN)
        return viol(e, "%s OK for slot %d, which does not hold the TB popped (slot state %d holds %d, popped %d in %s, "
                       "pop cycle %llu)",
                    e->inf.c.op == OP_SAVE ? "SAVE" : "DROP", t, s->st, s->tb, e->inf.tb, tr ? ts_name[tr->st] : "-",
                    (unsigned long long)e->inf.pop);
    sd_keep_left(&e->sd, s->mask, tr->left);
    for (wmask_t x = sd_busy(&e->sd, s->mask, c); x; x &= x - 1)
        bad += viol(e, "slot %d freed with warp %d still busy", t, smk_ctz(x));
    sd_remove(&e->sd, s->mask);
    s->st = SS_FREE, s->tb = -1;
    tr->slot = -1;
    if (e->inf.c.op == OP_SAVE) {
        tr->st = TS_SAVED, tr->chunk = e->inf.c.chunk, tr->tslot = -1;
        e->n_saved++;
        /* memory holds exactly the snapshot taken at the stop, at ptr .. ptr+L-1 */
        const uint64_t a = e->inf.c.ptr - e->base;
        for (uint32_t i = 0; i < e->inf.L; i++)
            if (e->mem[a + i] != e->snap[e->inf.c.chunk][i]) {
                bad += viol(e, "SAVE of TB %u.%u: memory line %u (addr 0x%llx) differs from the context at the stop",
                            tr->lid, tr->attempt, i, (unsigned long long)(e->inf.c.ptr + i));
                break;
            }
    } else {
        tr->st = TS_DROPPED;
        e->n_dropped++;
        release_cmd(e, &e->inf.c);
        if (e->nrerun < 256)
            e->rerun[e->nrerun++] = e->inf.tb;
        else
            tr->st = TS_KILLED; /* the driver's rerun queue is full: treat as abandoned */
    }
    return bad;
}

/* RESTORE OK: the destination's lines, through its own mask and rank order, equal the snapshot */
static int restore_ok(sm_env_t *e, int t)
{
    slot_t *s = &e->sl[t];
    int bad = 0;
    release_cmd(e, &e->inf.c);
    const int rid = s->tb;
    if (s->st != SS_ALLOC || rid < 0 || e->rec[rid].st != TS_SAVED ||
        e->base + (uint64_t)e->rec[rid].chunk * CH != e->inf.c.ptr)
        return viol(e, "RESTORE OK of slot %d pointer 0x%llx: no saved context reserved for it (restored twice?)", t,
                    (unsigned long long)e->inf.c.ptr);
    tbrec_t *rr = &e->rec[rid];
    const int diff = sd_diff(&e->sd, s->mask, t, rr->n, reff(rr->nraw), meff(rr->mraw), e->snap[rr->chunk]);
    if (diff >= 0)
        bad += viol(e, "RESTORE of TB %u.%u into slot %d: context line %d differs from the one saved", rr->lid,
                    rr->attempt, t, diff);
    e->chunk_used[rr->chunk] = 0;
    rr->chunk = -1, rr->tslot = -1;
    launch_warps(e, t);
    e->n_restored++;
    return bad;
}

/* edge: the response of this cycle takes effect */
static int edge_response(sm_env_t *e, const sm_cyc_t *y)
{
    int bad = 0;
    if (y->rsp_kind == 1) {
        e->n_qfull++; /* nothing was reserved: chunks and RESTORE counts are taken at the push */
    } else if (y->rsp_kind == 3) {
        e->dpendx &= ~(1ULL << y->xr_tb);
    } else if (y->rsp_kind == 2) {
        const int t = e->inf.c.tb;
        tbrec_t *tr = e->inf.tb >= 0 ? &e->rec[e->inf.tb] : NULL;
        if (e->inf.fst == ST_FIN) {
            e->n_fin++;
            if (!tr || tr->st != TS_FINISHED)
                bad += viol(e, "FIN for slot %d whose TB did not finish (identity %d %s, op %u, popped in %llu with %u)", t,
                            e->inf.tb, tr ? ts_name[tr->st] : "-", e->inf.c.op, (unsigned long long)e->inf.pop, e->inf.s);
            release_cmd(e, &e->inf.c);
        } else if (e->inf.fst != ST_OK) {
            release_cmd(e, &e->inf.c);
        } else if (e->inf.c.op == OP_SAVE || e->inf.c.op == OP_DROP) {
            bad += save_drop_ok(e, y->c, t, tr);
        } else if (e->inf.c.op == OP_RESTORE) {
            bad += restore_ok(e, t);
        }
        e->inf.v = 0;
    }
    return bad;
}

/* edge: natural completions (tb_done: the TB vanishes), then the launch arbiter (S4): the engine's
 * launch, else the lowest slot waiting with go */
static int edge_completions(sm_env_t *e, const sm_cyc_t *y)
{
    int bad = 0;
    for (tmask_t x = y->x_done; x; x &= x - 1) {
        const int t = smk_ctz(x);
        slot_t *s = &e->sl[t];
        tbrec_t *tr = &e->rec[s->tb];
        tr->st = TS_FINISHED, tr->slot = -1;
        if (++e->lid_done[tr->lid] > 1)
            bad += viol(e, "TB %u completed twice", tr->lid);
        e->n_done++;
        sd_remove(&e->sd, s->mask);
        s->st = SS_FREE, s->tb = -1;
        if (bit(e->drainw, t))
            e->drainw &= ~(1ULL << t), e->dpendx |= 1ULL << t;
    }
    int ngo = 0;
    for (int t = 0; t < NT; t++)
        ngo += e->sl[t].st == SS_GO;
    e->n_golow += ngo > 1 && !y->x_launch;
    if (!y->x_launch)
        for (int t = 0; t < NT; t++)
            if (e->sl[t].st == SS_GO) {
                launch_warps(e, t);
                break;
            }
    return bad;
}

/* edge: the in-flight command's progress of this cycle (effective from the next one), then the pop */
static void edge_engine(sm_env_t *e, const sm_cyc_t *y)
{
    if (e->inf.v && e->inf.pop < y->c) {
        if (e->inf.ph == IF_STOP) {
            if (y->stop_fin)
                e->inf.ph = IF_DONE, e->inf.fst = ST_FIN;
            else if (y->stop_idle && e->inf.c.op == OP_SAVE)
                e->inf.ph = IF_XFER;
            else if (y->stop_idle)
                e->inf.ph = IF_DONE, e->inf.fst = ST_OK;
        } else if (e->inf.ph == IF_XFER && e->inf.acc >= e->inf.L && e->sd.nmq == 0) {
            e->inf.ph = IF_DONE, e->inf.fst = ST_OK;
        }
    }
    if (!y->popped)
        return;
    e->fhead = (e->fhead + 1) % 16, e->fcnt--;
    const int t = y->pc.tb;
    if (y->pc.op == OP_DRAIN && y->ps == ST_OK) {
        if (bit(y->x_done, t))
            e->dpendx |= 1ULL << t;
        else
            e->drainw |= 1ULL << t;
        return;
    }
    memset(&e->inf, 0, sizeof e->inf);
    e->inf.v = 1, e->inf.c = y->pc, e->inf.s = y->ps, e->inf.fst = y->ps, e->inf.pop = y->c, e->inf.slot = t;
    e->inf.tb = y->psl.tb;
    if (y->ps != ST_OK) {
        e->inf.ph = IF_DONE;
        return;
    }
    const slot_t *s = &y->psl;
    const uint32_t cap = y->in->cap, capeff = cap == 0 ? OMAX : (cap < OMAX ? cap : OMAX);
    e->inf.mask = s->mask;
    e->inf.n = (uint32_t)smk_popc(s->mask);
    e->inf.R = reff(s->nraw), e->inf.M = meff(s->mraw);
    e->inf.L = e->inf.n * CL + e->inf.n * e->inf.R + e->inf.M;
    e->inf.klim = e->inf.n < capeff ? e->inf.n : capeff;
    if (e->inf.klim == 0)
        e->inf.klim = 1;
    e->inf.ph = y->pc.op == OP_RESTORE ? IF_XFER : IF_STOP;
}

/* edge: a legal set-up (a restore target with junk lines, or a fresh TB / the rerun of a dropped one
 * with its instructions drawn), then the command accepted into the queue */
static void edge_driver(sm_env_t *e, const sm_cyc_t *y)
{
    const sm_in_t *in = y->in;
    if (in->set_v && y->set_ok) {
        const int t = (int)in->set_tb;
        slot_t *s = &e->sl[t];
        s->mask = in->set_mask & WALL, s->ks = (uint8_t)(in->set_ks & SMK_MASK(SMK_KS_W));
        s->nraw = in->set_nreg & (uint32_t)SMK_MASK(SMK_REGN_W), s->mraw = in->set_smem & (uint32_t)SMK_MASK(SMK_SMLN_W);
        if (!in->set_go) {
            s->st = SS_ALLOC, s->tb = e->set_rec;
            e->rec[e->set_rec].tslot = t;
            sd_fill(&e->sd, e->set_rec, s->mask, t, reff(s->nraw), meff(s->mraw), 0xdeadULL + y->c); /* junk */
        } else {
            int lid = -1, att = 0;
            if (e->nrerun && e->rec[e->rerun[0]].n == smk_popc(s->mask) && e->rec[e->rerun[0]].nraw == s->nraw &&
                e->rec[e->rerun[0]].mraw == s->mraw && e->rec[e->rerun[0]].ks == s->ks) {
                tbrec_t *old = &e->rec[e->rerun[0]];
                lid = (int)old->lid, att = (int)old->attempt + 1;
                old->st = TS_RERUN;
                memmove(e->rerun, e->rerun + 1, (size_t)(--e->nrerun) * sizeof e->rerun[0]);
            }
            const int rid = new_rec(e, lid);
            tbrec_t *tr = &e->rec[rid];
            tr->attempt = (uint32_t)att, tr->ks = s->ks, tr->n = (uint8_t)smk_popc(s->mask);
            tr->nraw = s->nraw, tr->mraw = s->mraw, tr->st = TS_GO;
            for (int j = 0; j < tr->n; j++)
                tr->left[j] = rng_chance(&e->r, e->p_zero, 100) ? 0 : 1 + rng_below(&e->r, e->imax);
            s->st = SS_GO, s->tb = rid;
            sd_fill(&e->sd, rid, s->mask, t, reff(s->nraw), meff(s->mraw), 0);
        }
    }
    if (in->cmd_v && !y->full) {
        cmd_t q = {.op = (uint8_t)(in->cmd_op & 3), .tb = (uint8_t)(in->cmd_tb & SMK_MASK(SMK_TBS_W)),
                   .idem = (uint8_t)(in->cmd_idem & 1), .ptr = in->cmd_ptr & PMASK, .chunk = -1, .cyc = y->c};
        if (q.op == OP_SAVE) {
            q.chunk = e->cmd_chunk;
            if (q.chunk >= 0)
                e->chunk_used[q.chunk] = 1;
        }
        if (q.op == OP_RESTORE && q.tb < NT)
            e->sl[q.tb].nrest++;
        e->fifo[(e->fhead + e->fcnt) % 16] = q;
        e->fcnt++;
    }
}

static void tb_shape(const void *ctx, int rec, uint32_t *R, uint32_t *M, int *slot)
{
    const tbrec_t *tr = &((const sm_env_t *)ctx)->rec[rec];
    *R = reff(tr->nraw), *M = meff(tr->mraw), *slot = tr->slot;
}

/* edge: pipelines (issues, exits); the snapshot of a SAVE's context at its stop (no issue can
 * change it afterwards) */
static int edge_pipelines(sm_env_t *e, const sm_cyc_t *y)
{
    int bad = 0;
    sd_issues(&e->sd, &e->wk, &e->r, &e->gen, y->c, &y->o->wo, 1u << SMK_ACT_W, tb_shape, e);
    for (wmask_t x = sd_exits(&e->sd, y->in->wexit, y->c); x; x &= x - 1)
        bad += viol(e, "environment: warp %d exits while not live, with work left or busy", smk_ctz(x));
    if (y->popped && e->inf.v && e->inf.c.op == OP_SAVE && e->inf.s == ST_OK && e->inf.c.chunk >= 0)
        sd_read(&e->sd, e->inf.mask, e->inf.slot, e->inf.n, e->inf.R, e->inf.M, e->snap[e->inf.c.chunk]);
    return bad;
}

/* watchdogs: the engine answers, the queue head is popped */
static int watchdogs(sm_env_t *e, uint64_t c)
{
    int bad = 0;
    if (e->inf.v && c - e->inf.pop > 2000000)
        bad += viol(e, "watchdog: command (op %u, slot %u) popped in cycle %llu has no response", e->inf.c.op,
                    e->inf.c.tb, (unsigned long long)e->inf.pop);
    if (e->fcnt && c - e->fifo[e->fhead].cyc > 4000000)
        bad += viol(e, "watchdog: a queued command waits since cycle %llu", (unsigned long long)e->fifo[e->fhead].cyc);
    return bad;
}

/* Every field of the stimulus fits its input port of rtl/sm_top.v (cosim_sm.cpp assigns each to its port as it is,
 * cp_ks[p] / cp_act[p] to their slices): a wider value is a testbench bug (cosim_env.h, env_port). Reset cycles
 * included: the ports are driven then too. */
static int port_fits(const sm_env_t *e, const sm_stim_t *st)
{
    const sm_in_t *in = &st->in;
    int bad = 0;
#define PORT(f, w) (bad += env_port(e->cycle, NULL, -1, #f, -1, (uint64_t)(f), (w)))
    PORT(st->rst, 1), PORT(in->set_v, 1), PORT(in->set_tb, SMK_TBS_W), PORT(in->set_mask, NW);
    PORT(in->set_ks, SMK_KS_W), PORT(in->set_nreg, SMK_REGN_W), PORT(in->set_smem, SMK_SMLN_W), PORT(in->set_go, 1);
    PORT(in->cmd_v, 1), PORT(in->cmd_op, 2), PORT(in->cmd_tb, SMK_TBS_W), PORT(in->cmd_ptr, PW);
    PORT(in->cmd_idem, 1), PORT(in->cap, SMK_PE_OUT_W), PORT(in->ready, NW), PORT(in->pblk, NW);
    PORT(in->wbusy, NW), PORT(in->wexit, NW), PORT(in->cp_v, SMK_CP), PORT(in->csr_we, 1);
    PORT(in->csr_addr, SMK_ADDR_W), PORT(in->csr_wdata, SMK_DATA_W), PORT(in->rd_addr, SMK_ADDR_W);
    PORT(in->mem_req_rdy, 1), PORT(in->mem_rsp_v, 1), PORT(in->mem_rsp_tag, SMK_CTX_TAG_W);
#undef PORT
    for (int p = 0; p < SMK_CP; p++) {
        bad += env_port(e->cycle, NULL, -1, "in->cp_ks", p, in->cp_ks[p], SMK_KS_W);
        bad += env_port(e->cycle, NULL, -1, "in->cp_act", p, in->cp_act[p], SMK_ACT_W);
    }
    return bad;
}

int sm_env_observe(sm_env_t *e, const sm_stim_t *st, const sm_top_t *m, const sm_out_t *o)
{
    int bad = port_fits(e, st);
    if (st->rst) {
        env_reset(e);
        e->cycle++;
        return bad;
    }
    sm_cyc_t y = {.in = &st->in, .m = m, .o = o, .c = e->cycle};
    bad += check_slots(e, &y);
    bad += check_setup_stop(e, &y);
    bad += check_issue(e, &y);
    bad += check_pop(e, &y);
    bad += check_response(e, &y);
    bad += check_memory(e, &y);
    bad += edge_memory(e, &y);
    bad += edge_response(e, &y);
    bad += edge_completions(e, &y);
    edge_engine(e, &y);
    edge_driver(e, &y);
    bad += edge_pipelines(e, &y);
    bad += watchdogs(e, y.c);
    e->cycle++;
    return bad;
}

int sm_env_finish(sm_env_t *e, int verbose)
{
    int bad = 0;
    uint64_t cnt[TS_N] = {0};
    for (uint32_t i = 0; i < e->nrec; i++)
        cnt[e->rec[i].st]++;
    /* every logical TB: exactly one current identity, completed at most once, and completed iff that
     * identity finished */
    uint64_t lids_done = 0;
    for (uint32_t l = 0; l < e->nlid; l++) {
        const tbrec_t *tr = &e->rec[e->lid_cur[l]];
        if (tr->lid != l)
            bad += viol(e, "ledger: logical TB %u has a foreign current identity", l);
        if (e->lid_done[l] > 1 || (e->lid_done[l] == 1) != (tr->st == TS_FINISHED))
            bad += viol(e, "ledger: logical TB %u completed %u times, current identity %s", l, e->lid_done[l],
                        ts_name[tr->st]);
        lids_done += e->lid_done[l];
    }
    for (uint32_t i = 0; i < e->nrec; i++) {
        const tbrec_t *tr = &e->rec[i];
        if (e->lid_cur[tr->lid] != (int)i && tr->st != TS_RERUN)
            bad += viol(e, "ledger: identity %u of TB %u is %s but not current", i, tr->lid, ts_name[tr->st]);
        if (tr->st == TS_RUN && (tr->slot < 0 || e->sl[tr->slot].tb != (int)i))
            bad += viol(e, "ledger: running TB %u not in its slot", tr->lid);
        if (tr->st == TS_SAVED && (tr->chunk < 0 || !e->chunk_used[tr->chunk]))
            bad += viol(e, "ledger: saved TB %u without its context", tr->lid);
    }
    /* conservation: logical TBs = completed + one live state each */
    const uint64_t live = cnt[TS_GO] + cnt[TS_RUN] + cnt[TS_SAVED] + cnt[TS_DROPPED] + cnt[TS_KILLED];
    if (lids_done + live != e->nlid)
        bad += viol(e, "ledger: %u logical TBs, %llu completed + %llu in other states", e->nlid,
                    (unsigned long long)lids_done, (unsigned long long)live);
    if (verbose) {
        printf("ledger: %u logical TBs (%u identities): completed %llu, running %llu, set up %llu, saved %llu, "
               "dropped awaiting rerun %llu, killed by reset %llu\n",
               e->nlid, e->nrec, (unsigned long long)lids_done, (unsigned long long)cnt[TS_RUN],
               (unsigned long long)cnt[TS_GO], (unsigned long long)cnt[TS_SAVED], (unsigned long long)cnt[TS_DROPPED],
               (unsigned long long)cnt[TS_KILLED]);
        static const char *opn[4] = {"SAVE", "RESTORE", "DRAIN", "DROP"};
        static const char *stn[6] = {"OK", "FIN", "EMPTY", "BUSY", "NOTIDEM", "QFULL"};
        printf("commands popped:");
        for (int op = 0; op < 4; op++) {
            printf(" %s", opn[op]);
            for (int s = 0; s < 5; s++)
                if (e->n_cmd[op][s])
                    printf(" %s=%llu", stn[s], (unsigned long long)e->n_cmd[op][s]);
            printf(";");
        }
        printf(" QFULL %llu\n", (unsigned long long)e->n_qfull);
        printf("events: issues %llu, launches %llu, saved %llu, restored %llu (bit-exact), dropped %llu, FIN %llu, "
               "tb_done %llu, set_rej %llu, resets %llu, context lines moved %llu, max outstanding %llu\n",
               (unsigned long long)e->n_issue, (unsigned long long)e->n_launch, (unsigned long long)e->n_saved,
               (unsigned long long)e->n_restored, (unsigned long long)e->n_dropped, (unsigned long long)e->n_fin,
               (unsigned long long)e->n_done, (unsigned long long)e->n_setrej, (unsigned long long)e->n_rst,
               (unsigned long long)e->n_lines, (unsigned long long)e->max_out);
        printf("launch arbiter: %llu directed pairs of go set-ups around a RESTORE launch, %llu cycles with two or more "
               "go pending and no engine launch\n",
               (unsigned long long)e->n_golow_dir, (unsigned long long)e->n_golow);
    }
    return bad;
}
