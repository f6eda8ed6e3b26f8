/* sm_top.c: one SM, bit- and cycle-accurate (spec: docs/sm_top.md): warp_sched + quota_unit +
 * preempt_engine joined by the TB slot table and the launch arbiter. Rule numbers S1..S6 are the
 * spec's combinational rules, E1..E4 its clock-edge rules. Integer arithmetic only, explicit widths;
 * no allocation. sm_eval computes every block input and output once, the engine's combinational
 * signals included (pe_eval_c); sm_commit passes them to the blocks' commits. Hot-path notes: tb_idle
 * is an OR of nibble-table rows (wslots), reused from the last cycle while wbusy | wexit repeats
 * (idle_key / idle_hit); tb_done is kept in done_c and recomputed only when run, live or a slot mask
 * changes; all are derived from the architectural state, never compared. The blocks' common-cycle
 * paths (ws_eval_i, qu_eval_i, ws_commit_quiet_i, qu_commit_quiet_i, pe_commit_idle_i) are inline
 * and do exactly what the blocks' functions do. C-only runs take the quiet step of sm_top.h
 * (sm_quiet_i, sm_quiet_step_i) in an SM's quiet cycle (docs/sm_top.md "Quiet cycles"; checked by
 * make smk-check). */
#include "sm_top.h"

#include <string.h>

#define NT SMK_TB_SLOTS
#define TALL SMK_MASK(NT)
#define WALL SMK_WMASK_ALL

#define NNIB ((SMK_WARPS + 3) / 4)

/* wslots: for slot t, replace the old mask om by nm in the nibble table (only nibbles either touches) */
static void wslots_set(sm_top_t *sm, uint32_t t, wmask_t om, wmask_t nm)
{
    const sm_wsl_t b = (sm_wsl_t)1 << t;
    for (int i = 0; i < NNIB; i++) {
        const uint32_t on = (uint32_t)(om >> (4 * i)) & 15u, nn = (uint32_t)(nm >> (4 * i)) & 15u;
        if (!(on | nn))
            continue;
        for (uint32_t v = 1; v < 16; v++)
            sm->wslots[i][v] = (v & nn) ? (sm->wslots[i][v] | b) : (sm->wslots[i][v] & ~b);
    }
}

/* the slots t with tmask[t] & inflight != 0: the OR of the nibble table's rows for inflight's nibbles */
static inline sm_wsl_t slots_hit(const sm_top_t *sm, wmask_t inflight)
{
    sm_wsl_t hit = 0;
    for (int i = 0; i < NNIB; i++)
        hit |= sm->wslots[i][(inflight >> (4 * i)) & 15u];
    return hit;
}

/* S3 of the current state: running slots none of whose warps is live */
static tmask_t done_of(const sm_top_t *sm, tmask_t run, wmask_t live)
{
    tmask_t done = 0;
    for (tmask_t x = run; x; x &= x - 1) {
        const uint32_t t = (uint32_t)smk_ctz(x);
        done |= (tmask_t)((sm->tmask[t] & live) == 0) << t;
    }
    return done;
}

/* slot-table field of slot t, zeros for t >= T (possible only when T is not a power of two) */
static inline wmask_t tmask_of(const sm_top_t *sm, uint32_t t) { return t < NT ? sm->tmask[t] : 0; }

void sm_reset(sm_top_t *sm)
{
    memset(sm, 0, sizeof *sm);
    ws_reset(&sm->ws);
    qu_reset(&sm->qu);
    pe_reset(&sm->pe);
}

const pe_out_t sm_zero_po; /* the engine's outputs when idle (a struct copy: no `rep stos`) */

void sm_eval(const sm_top_t *sm, const sm_in_t *in, sm_out_t *o)
{
    const wmask_t wbusy = in->wbusy & WALL, wexit = in->wexit & WALL;
    /* every field of *o is written below (no memset: this runs every cycle) */

    /* S1, S3: slot outputs (functions of state and the pipelines' registered wbusy / wexit).
     * tb_idle[t] = (tmask[t] & inflight) == 0: the slots hit by inflight are the OR of the nibble
     * table's rows for inflight's nibbles. tb_done is a function of state, kept in done_c. */
    const wmask_t inflight = wbusy | wexit;
    /* wbusy | wexit mostly repeats from one cycle to the next (memory-bound kernels): then the last
     * cycle's value, kept by sm_commit, saves the 16 table loads */
    const sm_wsl_t hit = inflight == sm->idle_key ? sm->idle_hit : slots_hit(sm, inflight);
    const tmask_t idle = ~(tmask_t)hit & TALL, done = sm->done_c;
    o->tb_alloc = sm->alloc;
    o->tb_run = sm->run;
    o->tb_done = done;
    o->wused = sm->wused;

    /* S2: set-up */
    const uint32_t set_v = in->set_v & 1, set_tb = in->set_tb & (uint32_t)SMK_MASK(SMK_TBS_W);
    const wmask_t set_mask = in->set_mask & WALL;
    const uint32_t set_ok = set_v && set_tb < NT && !((sm->alloc | sm->run) >> set_tb & 1) && set_mask != 0 &&
                            (set_mask & sm->wused) == 0;
    o->set_ok = set_ok;
    o->set_rej = set_v & !set_ok;

    /* the engine (its outputs do not depend on tb_* / lk_* in the same cycle; lk_tb is state) */
    pe_in_t *pi = &o->pi;
    pi->cmd_v = in->cmd_v, pi->cmd_op = in->cmd_op, pi->cmd_tb = in->cmd_tb, pi->cmd_idem = in->cmd_idem;
    pi->cmd_ptr = in->cmd_ptr;
    pi->tb_run = sm->run;
    pi->tb_alloc = sm->alloc & ~sm->go;
    pi->tb_idle = idle;
    pi->tb_done = done;
    const uint32_t lk = sm->pe.q_cnt != 0 ? pe_lk_tb(&sm->pe) : 0; /* pe_lk_tb is 0 with an empty queue */
    if (lk < NT) {
        pi->lk_mask = sm->tmask[lk], pi->lk_nreg = sm->tnreg[lk], pi->lk_smem = sm->tsml[lk];
    } else {
        pi->lk_mask = 0, pi->lk_nreg = 0, pi->lk_smem = 0;
    }
    pi->cap = in->cap;
    pi->mem_req_rdy = in->mem_req_rdy, pi->mem_rsp_v = in->mem_rsp_v, pi->mem_rsp_tag = in->mem_rsp_tag;
    if (pe_idle(&sm->pe, in->cmd_v)) { /* the engine's idle fast path: no output, no state change */
        o->po = sm_zero_po;
        o->pc.quiet = 1, o->pc.g_d = 0, o->pc.dsel = 0;
    } else {
        pe_eval_c(&sm->pe, pi, &o->po, &o->pc);
    }
    const pe_out_t *po = &o->po;

    /* S4 launch arbiter, S5 removal, S6 wiring */
    ws_in_t *wi = &o->wi;
    const uint32_t lv = po->launch_v & 1;
    const uint32_t lt = lv ? po->launch_tb : (sm->go ? (uint32_t)smk_ctz(sm->go) : 0);
    wi->policy = qu_policy_i(&sm->qu);
    const uint32_t qpos = qu_pos_i(&sm->qu);
    wi->qallow = qu_gate_i(&sm->qu, qpos, sm->ws.act_c); /* = qu_qallow (act_c: warp_sched's ks_active) */
    wi->launch_v = lv | (sm->go != 0);
    wi->launch_mask = tmask_of(sm, lt);
    wi->launch_ks = lt < NT ? sm->tks[lt] : 0;
    wi->finish_mask = wexit | ((po->free_v & 1) ? tmask_of(sm, po->free_tb) : 0);
    wi->ready = in->ready & WALL;
    wi->pblk = in->pblk & WALL;
    wi->stop = po->stop;
    ws_eval_i(&sm->ws, wi, &o->wo);

    qu_in_t *qi = &o->qi;
    qi->csr_we = in->csr_we, qi->csr_addr = in->csr_addr, qi->csr_wdata = in->csr_wdata;
    qi->rd_addr = in->rd_addr;
    qi->iss_v = o->wo.iss_v;
    memcpy(qi->iss_ks, o->wo.iss_ks, sizeof qi->iss_ks);
    qi->cp_v = in->cp_v;
    memcpy(qi->cp_ks, in->cp_ks, sizeof qi->cp_ks);
    memcpy(qi->cp_act, in->cp_act, sizeof qi->cp_act);
    memcpy(qi->idle_cnt, o->wo.idle_cnt, sizeof qi->idle_cnt);
    qi->ks_active = o->wo.ks_active;
    qu_eval_i(&sm->qu, qi, &o->qo, qpos);
    o->quiet = 0;
}

void sm_commit(sm_top_t *sm, const sm_in_t *in, const sm_out_t *o)
{
    /* Every right-hand side is this cycle's value (registered state, inputs, o); rules E1..E4 are
     * applied in order to the flag and mask registers only (docs/sm_top.md "Clock-edge rules"). */
    const wmask_t wexit = in->wexit & WALL;
    const pe_out_t *po = &o->po;
    tmask_t alloc = sm->alloc, run = sm->run, go = sm->go;
    wmask_t live = sm->live, wused = sm->wused;
    const uint32_t st = in->set_tb & (uint32_t)SMK_MASK(SMK_TBS_W); /* < T when set_ok */
    const wmask_t sm_mask = in->set_mask & WALL;

    /* E1 set-up (flags; the table fields are written last) */
    if (o->set_ok) {
        alloc |= 1ULL << st;
        go = (go & ~(1ULL << st)) | (tmask_t)(in->set_go & 1) << st;
        wused |= sm_mask;
    }
    /* E2 launch of slot lt (S4); wi.launch_mask = tmask[lt] */
    if (o->wi.launch_v) {
        const uint32_t lt = (po->launch_v & 1) ? po->launch_tb : (uint32_t)smk_ctz(sm->go);
        if (lt < NT)
            alloc &= ~(1ULL << lt), go &= ~(1ULL << lt), run |= 1ULL << lt;
        live |= o->wi.launch_mask;
    }
    /* E3 free / done */
    tmask_t rm = o->tb_done;
    if ((po->free_v & 1) && po->free_tb < NT)
        rm |= 1ULL << po->free_tb;
    run &= ~rm;
    for (tmask_t x = rm; x; x &= x - 1) {
        const wmask_t m = sm->tmask[smk_ctz(x)];
        live &= ~m, wused &= ~m;
    }
    /* E4 exit */
    live &= ~wexit;

    /* the tb_idle memo (derived): this cycle's inflight and slots hit, recomputed if the table changes */
    sm->idle_key = wexit | (in->wbusy & WALL);
    sm->idle_hit = (sm_wsl_t)(~o->pi.tb_idle & TALL);
    if (o->set_ok) {
        wslots_set(sm, st, sm->tmask[st], sm_mask);
        sm->idle_hit = slots_hit(sm, sm->idle_key);
        sm->tmask[st] = sm_mask;
        sm->tks[st] = (uint8_t)(in->set_ks & SMK_MASK(SMK_KS_W));
        sm->tnreg[st] = (uint16_t)(in->set_nreg & SMK_MASK(SMK_REGN_W));
        sm->tsml[st] = (uint16_t)(in->set_smem & SMK_MASK(SMK_SMLN_W));
    }
    run &= TALL, live &= WALL;
    if (run != sm->run || live != sm->live || o->set_ok) /* S3 of the next state (else unchanged) */
        sm->done_c = done_of(sm, run, live);
    sm->alloc = alloc & TALL, sm->run = run, sm->go = go & TALL;
    sm->live = live, sm->wused = wused & WALL;

    if (!ws_commit_quiet_i(&sm->ws, &o->wi, &o->wo))
        ws_commit(&sm->ws, &o->wi, &o->wo);
    if (!qu_commit_quiet_i(&sm->qu, &o->qi))
        qu_commit(&sm->qu, &o->qi, &o->qo);
    if (o->pc.quiet && !(sm->pe.drain | sm->pe.dpend)) /* pe_commit_c's quiet path with no DRAIN flag */
        pe_commit_idle_i(&sm->pe);
    else
        pe_commit_c(&sm->pe, &o->pi, &o->pc);
}
