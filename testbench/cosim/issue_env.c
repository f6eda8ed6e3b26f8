/* issue_env.c: composed C model, stimulus, observation and invariants for the issue-path cosim. */
#include "issue_env.h"

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------ composed model */
void issue_model_reset(issue_model_t *m)
{
    memset(m, 0, sizeof *m);
    ws_reset(&m->ws);
    qu_reset(&m->qu);
}

void issue_model_eval(issue_model_t *m, const issue_stim_t *st)
{
    ws_in_t *wi = &m->wi;
    qu_in_t *qi = &m->qi;
    wi->policy = qu_policy(&m->qu);
    wi->qallow = qu_qallow(&m->qu, m->ws.act_c); /* act_c: warp_sched's ks_active (registered state) */
    wi->launch_v = st->launch_v;
    wi->launch_mask = st->launch_mask;
    wi->launch_ks = st->launch_ks;
    wi->finish_mask = st->finish_mask;
    wi->ready = st->ready;
    wi->stop = st->stop;
    wi->pblk = st->pblk;
    ws_eval(&m->ws, wi, &m->wo);

    qi->csr_we = st->csr_we;
    qi->csr_addr = st->csr_addr;
    qi->csr_wdata = st->csr_wdata;
    qi->rd_addr = st->rd_addr;
    qi->iss_v = m->wo.iss_v;
    memcpy(qi->iss_ks, m->wo.iss_ks, sizeof qi->iss_ks);
    qi->cp_v = st->cp_v;
    memcpy(qi->cp_ks, st->cp_ks, sizeof qi->cp_ks);
    memcpy(qi->cp_act, st->cp_act, sizeof qi->cp_act);
    memcpy(qi->idle_cnt, m->wo.idle_cnt, sizeof qi->idle_cnt);
    qi->ks_active = m->wo.ks_active;
    qu_eval(&m->qu, qi, &m->qo);
}

void issue_model_commit(issue_model_t *m, const issue_stim_t *st)
{
    if (st->rst) {
        ws_reset(&m->ws);
        qu_reset(&m->qu);
        return;
    }
    ws_commit(&m->ws, &m->wi, &m->wo);
    qu_commit(&m->qu, &m->qi, &m->qo);
}

/* ------------------------------------------------------------------ observation */
#define ISSUE_SIG(nm, n) {#nm, OBS_##nm, (n)},
OBS_DEFINE_TABLE(issue_obs_table, ISSUE_OBS, ISSUE_SIG, OBS_N);

void issue_obs_from_model(const issue_model_t *m, issue_obs_t *o)
{
    uint64_t *v = o->v;
    const ws_out_t *wo = &m->wo;
    const warp_sched_t *ws = &m->ws;
    const quota_unit_t *q = &m->qu;
    v[OBS_iss_v] = wo->iss_v;
    for (int s = 0; s < SMK_SCHED; s++) {
        v[OBS_iss_wid + s] = wo->iss_wid[s];
        v[OBS_iss_ks + s] = wo->iss_ks[s];
        v[OBS_last + s] = ws->last[s];
    }
    for (int k = 0; k < SMK_KSLOTS; k++) {
        v[OBS_idle_cnt + k] = wo->idle_cnt[k];
        v[OBS_held_cnt + k] = wo->held_cnt[k];
        v[OBS_quota + k] = q->quota[k];
        v[OBS_cnt + k] = (uint64_t)(uint32_t)q->cnt[k] & SMK_MASK(SMK_QUOTA_W);
        v[OBS_thr + k] = q->thr[k], v[OBS_wis + k] = q->wis[k];
        v[OBS_idle + k] = q->idle[k], v[OBS_cyc + k] = q->cyc[k];
        v[OBS_s_thr + k] = q->s_thr[k], v[OBS_s_wis + k] = q->s_wis[k];
        v[OBS_s_idle + k] = q->s_idle[k], v[OBS_s_cyc + k] = q->s_cyc[k];
        v[OBS_tin_r + k] = q->tin_r[k], v[OBS_iin_r + k] = q->iin_r[k];
    }
    v[OBS_ks_active] = wo->ks_active;
    v[OBS_wvalid] = wo->wvalid;
    v[OBS_qallow] = m->qo.qallow;
    v[OBS_policy] = m->qo.policy;
    v[OBS_epoch_end] = m->qo.epoch_end;
    v[OBS_rd_data] = m->qo.rd_data;
    v[OBS_valid] = ws->valid;
    for (int w = 0; w < SMK_WARPS; w++) {
        v[OBS_ks + w] = ws->ks[w];
        v[OBS_older + w] = ws->older[w];
    }
    v[OBS_last_v] = ws->last_v, v[OBS_idle_r] = ws->idle_r;
    v[OBS_sm_ctrl] = q->sm_ctrl, v[OBS_epoch_len] = q->epoch_len;
    v[OBS_sample_per] = q->sample_per, v[OBS_qos_mask] = q->qos_mask;
    v[OBS_ecnt] = q->ecnt, v[OBS_scnt] = q->scnt, v[OBS_epochs] = q->epochs;
    v[OBS_ep_cycles] = q->ep_cycles, v[OBS_ep_samples] = q->ep_samples, v[OBS_nsamp] = q->nsamp;
}

/* ------------------------------------------------------------------ stimulus */
void env_init(issue_env_t *e, int mode, uint64_t seed)
{
    memset(e, 0, sizeof *e);
    rng_seed(&e->r, seed);
    e->mode = mode;
}

static int tb_free_slot(const issue_env_t *e)
{
    for (int t = 0; t < SMK_TB_SLOTS; t++)
        if (!e->tb[t].used)
            return t;
    return -1;
}

/* choose n free warps at random (warp order within the TB = ascending id, by construction) */
static wmask_t pick_warps(issue_env_t *e, int n)
{
    wmask_t freew = ~e->busy & SMK_WMASK_ALL, m = 0;
    int nfree = smk_popc(freew);
    for (int i = 0; i < n && nfree > 0; i++, nfree--) {
        int k = (int)rng_below(&e->r, (uint32_t)nfree);
        wmask_t x = freew;
        while (k--)
            x &= x - 1;
        const wmask_t bit = x & (~x + 1);
        m |= bit;
        freew &= ~bit;
    }
    return m;
}

static void tb_launch(issue_env_t *e, issue_stim_t *st, int t, wmask_t warps, uint32_t ks)
{
    e->tb[t] = (env_tb_t){.warps = warps, .ks = (uint8_t)ks, .used = 1};
    e->busy |= warps;
    st->launch_v = 1;
    st->launch_mask = warps;
    st->launch_ks = ks;
}

static void tb_finish(issue_env_t *e, issue_stim_t *st, int t)
{
    st->finish_mask |= e->tb[t].warps;
    e->busy &= ~e->tb[t].warps;
    e->tb[t].used = 0;
}

static void force_write(issue_env_t *e, uint32_t a, uint32_t d)
{
    if (e->force_n < 4)
        e->force_a[e->force_n] = a, e->force_d[e->force_n++] = d;
}

static void new_phase(issue_env_t *e)
{
    rng_t *r = &e->r;
    /* a long phase ends with an epoch boundary and a snapshot (CMD = 3), so its big live
     * statistics reach the snapshot */
    if (e->long_phase)
        force_write(e, SMK_REG_CMD, (1u << SMK_CMD_EPOCH_START_LSB) | (1u << SMK_CMD_SNAP_LSB));
    e->long_phase = rng_chance(r, 1, 6);
    e->phase_end = e->cycle + 200 + rng_below(r, 3000);
    if (e->long_phase) { /* tens of thousands of cycles without a boundary, then one */
        e->phase_end = e->cycle + 20000 + rng_below(r, 80000);
        force_write(e, SMK_REG_EPOCH_LEN, rng_chance(r, 1, 2) ? 0 : (uint32_t)SMK_MASK(SMK_EPOCH_W));
        /* no sampling in one long phase of four: the sampling timer saturates (cover point
         * c_qu_tm_scnt_sat) when EPOCH_LEN is 0 too */
        force_write(e, SMK_REG_SAMPLE_PER, rng_chance(r, 1, 4) ? 0 : 1 + rng_below(r, 4));
    }
    e->p_launch = 1 + rng_below(r, 40);  /* per mille */
    e->p_finish = 1 + rng_below(r, 30);
    e->p_stop = rng_below(r, 20);
    e->ready_kind = rng_below(r, 5);
    e->pblk_kind = rng_below(r, 5);
    e->p_cp = rng_below(r, 101); /* percent per port */
    e->act_kind = rng_below(r, 4);
    e->p_csr = 5 + rng_below(r, 80); /* per mille */
    e->p_rst = rng_chance(r, 1, 8) ? 1 : 0;
    e->ks_span = 1 + rng_below(r, SMK_KSLOTS);
    if (e->long_phase) { /* busy, few register writes, never a reset */
        e->p_cp = 60 + rng_below(r, 41);
        e->p_csr = 0;
        e->p_rst = 0;
    }
}

static wmask_t rand_mask(rng_t *r, uint32_t kind)
{
    const wmask_t a = rng_next(r), b = rng_next(r);
    switch (kind) {
    case 0: return a & b & rng_next(r); /* 12.5% */
    case 1: return a & b;               /* 25% */
    case 2: return a;                   /* 50% */
    case 3: return a | b;               /* 75% */
    default: return ~0ULL;              /* all */
    }
}

static const uint32_t csr_addrs[] = {SMK_REG_SM_CTRL, SMK_REG_EPOCH_LEN, SMK_REG_SAMPLE_PER, SMK_REG_QOS_MASK,
                                     SMK_REG_CMD, SMK_REG_QUOTA, SMK_REG_QUOTA, SMK_REG_QUOTA, SMK_REG_CNT};

static void random_csr(issue_env_t *e, issue_stim_t *st)
{
    rng_t *r = &e->r;
    uint32_t a = csr_addrs[rng_below(r, sizeof csr_addrs / sizeof csr_addrs[0])], d = (uint32_t)rng_next(r);
    if (a == SMK_REG_QUOTA || a == SMK_REG_CNT)
        a += rng_below(r, SMK_KSLOTS);
    switch (rng_below(r, 10)) {
    case 0: a = rng_below(r, 1u << SMK_ADDR_W); break; /* anywhere, incl. read-only/unmapped */
    case 1: break;                                     /* full random data */
    default:
        if (a == SMK_REG_SM_CTRL) /* mostly gating modes */
            d = (d & ~(3u << SMK_SM_CTRL_QMODE_LSB)) | ((rng_chance(r, 7, 8) ? 1 + rng_below(r, 2) : rng_below(r, 4))
                                                       << SMK_SM_CTRL_QMODE_LSB);
        else if (a == SMK_REG_EPOCH_LEN)
            d = rng_chance(r, 1, 10) ? 0 : 1 + rng_below(r, 400);
        else if (a == SMK_REG_SAMPLE_PER)
            d = rng_chance(r, 1, 10) ? 0 : 1 + rng_below(r, 40);
        else if (a >= SMK_REG_QUOTA && a < SMK_REG_QUOTA + SMK_KSLOTS)
            d = rng_chance(r, 1, 16) ? (uint32_t)SMK_MASK(SMK_QUOTA_W - 1) - rng_below(r, 64) : rng_below(r, 3000);
        else if (a >= SMK_REG_CNT && a < SMK_REG_CNT + SMK_KSLOTS) /* near the saturation limits */
            d = rng_chance(r, 1, 2) ? (uint32_t)(1u << (SMK_QUOTA_W - 1)) + rng_below(r, 300)
                                    : (uint32_t)SMK_MASK(SMK_QUOTA_W - 1) - rng_below(r, 300);
        else if (a == SMK_REG_CMD) /* EPOCH_START and SNAP in every combination */
            d = rng_below(r, 4);
    }
    st->csr_we = 1;
    st->csr_addr = a;
    st->csr_wdata = d;
}

static void gen_random(issue_env_t *e, issue_stim_t *st)
{
    rng_t *r = &e->r;
    if (e->cycle >= e->phase_end)
        new_phase(e);
    if (e->p_rst && rng_chance(r, 1, 5000)) {
        st->rst = 1;
        memset(e->tb, 0, sizeof e->tb);
        e->busy = 0;
    }
    /* TB finish (sometimes two in one cycle) and launch (at most one per cycle) */
    for (int i = 0; i < 2; i++)
        if (rng_chance(r, e->p_finish, 1000)) {
            const int t = (int)rng_below(r, SMK_TB_SLOTS);
            if (e->tb[t].used)
                tb_finish(e, st, t);
        }
    if (rng_chance(r, 1, 50)) /* finishing warps that are not valid: defined, harmless */
        st->finish_mask |= rng_next(r) & ~e->busy & SMK_WMASK_ALL;
    if (rng_chance(r, e->p_launch, 1000)) {
        const int t = tb_free_slot(e);
        const int n = 1 + (int)rng_below(r, SMK_WARPS >= 16 ? 8 : 4);
        if (t >= 0 && smk_popc(~e->busy & SMK_WMASK_ALL) >= n)
            tb_launch(e, st, t, pick_warps(e, n), rng_below(r, e->ks_span));
    }
    /* stop-fetch per TB, plus noise on free warps */
    st->stop = 0;
    for (int t = 0; t < SMK_TB_SLOTS; t++) {
        if (!e->tb[t].used)
            continue;
        if (rng_chance(r, e->p_stop, 1000))
            e->tb[t].stopped ^= 1;
        if (e->tb[t].stopped)
            st->stop |= e->tb[t].warps;
    }
    st->stop |= rng_next(r) & ~e->busy & SMK_WMASK_ALL;
    st->ready = rand_mask(r, e->ready_kind) & SMK_WMASK_ALL;
    /* pipeline-blocked warps: never ready ones (the pblk contract), except in 1 cycle of 50 (a
     * broken contract: defined by docs/warp_sched.md, harmless) */
    st->pblk = rand_mask(r, e->pblk_kind) & SMK_WMASK_ALL;
    if (!rng_chance(r, 1, 50))
        st->pblk &= ~st->ready;
    /* completions */
    for (int p = 0; p < SMK_CP; p++) {
        if (!rng_chance(r, e->p_cp, 100))
            continue;
        st->cp_v |= 1u << p;
        st->cp_ks[p] = (uint8_t)rng_below(r, 1u << SMK_KS_W);
        switch (e->act_kind) {
        case 0: st->cp_act[p] = SMK_WARP_SIZE; break;
        case 1: st->cp_act[p] = (uint8_t)rng_below(r, SMK_WARP_SIZE + 1); break;
        case 2: st->cp_act[p] = (uint8_t)rng_below(r, 1u << SMK_ACT_W); break; /* incl. > warp_size */
        default: st->cp_act[p] = (uint8_t)(rng_chance(r, 3, 4) ? SMK_WARP_SIZE : 1 + rng_below(r, SMK_WARP_SIZE));
        }
    }
    if (e->force_n) {
        st->csr_we = 1;
        st->csr_addr = e->force_a[0];
        st->csr_wdata = e->force_d[0];
        e->force_n--;
        for (uint32_t i = 0; i < e->force_n; i++)
            e->force_a[i] = e->force_a[i + 1], e->force_d[i] = e->force_d[i + 1];
    } else if (rng_chance(r, e->p_csr, 1000)) {
        random_csr(e, st);
    }
    st->rd_addr = rng_chance(r, 1, 8) ? rng_below(r, 1u << SMK_ADDR_W) : (uint32_t)(rng_next(r) & 0x7f);
}

/* ---- scenario: one SM, two kernels (slot 0 QoS, compute-bound; slot 1 non-QoS, memory-bound),
 * Rollover quotas; TBs relaunched as they finish. A small timing model: an issued instruction
 * completes on its scheduler's port after a fixed pipeline depth; the warp is ready again after a
 * latency drawn per kernel. */
#define SCEN_PIPE 6
enum { SCEN_EPOCH = SCEN_EPOCH_LEN, SCEN_SAMPLE = 100 };
static const struct {
    int warps_per_tb, max_tbs, insts, mem_pct, mem_lat, alu_lat, div_pct;
    uint32_t quota;
} scen_k[2] = {
    /* slot 0: QoS, compute-bound; quota ~ goal IPC x epoch (thread instructions) */
    {8, 4, 400, 5, 300, 6, 0, 180000},
    /* slot 1: non-QoS, memory-bound, divergent */
    {4, 8, 200, 30, 400, 8, 30, 60000},
};

static void gen_scenario(issue_env_t *e, issue_stim_t *st)
{
    rng_t *r = &e->r;
    /* program the SM once: Rollover QoS mode, GTO, epoch 10K, 100 samples per epoch */
    static const uint32_t prog_a[] = {SMK_REG_EPOCH_LEN, SMK_REG_SAMPLE_PER, SMK_REG_QOS_MASK, SMK_REG_QUOTA,
                                      SMK_REG_QUOTA + 1, SMK_REG_CNT, SMK_REG_CNT + 1, SMK_REG_SM_CTRL};
    const uint32_t prog_d[] = {SCEN_EPOCH, SCEN_SAMPLE, 1, scen_k[0].quota, scen_k[1].quota, scen_k[0].quota,
                               scen_k[1].quota,
                               (SMK_QMODE_QOS << SMK_SM_CTRL_QMODE_LSB) | (SMK_QSCHEME_ROLLOVER << SMK_SM_CTRL_QSCHEME_LSB)};
    if (e->scen_step < sizeof prog_a / sizeof prog_a[0]) {
        st->csr_we = 1;
        st->csr_addr = prog_a[e->scen_step];
        st->csr_wdata = prog_d[e->scen_step];
        e->scen_step++;
    }
    st->rd_addr = (uint32_t)(e->cycle & 0x7f);
    /* completions leaving the delay line */
    env_cp_t *slot = e->pipe[e->cycle % SCEN_PIPE];
    for (int p = 0; p < SMK_CP; p++) {
        if (slot[p].v) {
            st->cp_v |= 1u << p;
            st->cp_ks[p] = slot[p].ks;
            st->cp_act[p] = slot[p].act;
        }
        slot[p].v = 0;
    }
    /* finished TBs leave; one new TB per cycle at most, alternating kernels */
    st->finish_mask = e->pending_finish;
    e->pending_finish = 0;
    int live[2] = {0, 0};
    for (int t = 0; t < SMK_TB_SLOTS; t++)
        if (e->tb[t].used && e->tb[t].ks < 2)
            live[e->tb[t].ks]++;
    for (int i = 0; i < 2; i++) {
        const int k = (int)((e->cycle + (uint64_t)i) & 1);
        const int n = scen_k[k].warps_per_tb > SMK_LWARPS ? SMK_LWARPS : scen_k[k].warps_per_tb;
        const int t = tb_free_slot(e);
        if (live[k] >= scen_k[k].max_tbs || t < 0 || smk_popc(~e->busy & SMK_WMASK_ALL) < n)
            continue;
        const wmask_t m = pick_warps(e, n);
        tb_launch(e, st, t, m, (uint32_t)k);
        for (wmask_t x = m; x; x &= x - 1) {
            const int w = smk_ctz(x);
            e->left[w] = (uint32_t)scen_k[k].insts;
            e->ready_at[w] = e->cycle + 1;
        }
        break;
    }
    wmask_t rdy = 0;
    for (wmask_t x = e->busy & ~st->launch_mask; x; x &= x - 1) {
        const int w = smk_ctz(x);
        if (e->left[w] && e->ready_at[w] <= e->cycle)
            rdy |= 1ULL << w;
    }
    st->ready = rdy;
    (void)r;
}

uint32_t scen_quota(int k) { return scen_k[k & 1].quota; }

void env_gen(issue_env_t *e, issue_stim_t *st)
{
    memset(st, 0, sizeof *st);
    if (e->mode == ENV_SCENARIO)
        gen_scenario(e, st);
    else
        gen_random(e, st);
}

void env_observe(issue_env_t *e, const issue_stim_t *st, const issue_model_t *m)
{
    (void)st;
    if (e->mode == ENV_SCENARIO) {
        rng_t *r = &e->r;
        for (int s = 0; s < SMK_SCHED; s++) {
            if (!((m->wo.iss_v >> s) & 1))
                continue;
            const int w = m->wo.iss_wid[s], k = m->wo.iss_ks[s] & 1;
            const int mem = (int)rng_below(r, 100) < scen_k[k].mem_pct;
            e->left[w]--;
            e->ready_at[w] = e->cycle + (uint64_t)(mem ? scen_k[k].mem_lat + (int)rng_below(r, 100) : scen_k[k].alu_lat);
            const int p = s * SMK_CMPL_PER_SCHED;
            const int d = (int)((e->cycle + SCEN_PIPE) % SCEN_PIPE);
            e->pipe[d][p].v = 1;
            e->pipe[d][p].ks = (uint8_t)k;
            e->pipe[d][p].act = (uint8_t)((int)rng_below(r, 100) < scen_k[k].div_pct ? 1 + rng_below(r, SMK_WARP_SIZE)
                                                                                     : SMK_WARP_SIZE);
        }
        /* a TB whose warps have all issued their last instruction and waited out its latency
         * finishes next cycle */
        for (int t = 0; t < SMK_TB_SLOTS; t++) {
            if (!e->tb[t].used)
                continue;
            int done = 1;
            for (wmask_t x = e->tb[t].warps; x && done; x &= x - 1) {
                const int w = smk_ctz(x);
                done = e->left[w] == 0 && e->ready_at[w] <= e->cycle;
            }
            if (done) {
                e->pending_finish |= e->tb[t].warps;
                e->busy &= ~e->tb[t].warps;
                e->tbs_done[e->tb[t].ks]++;
                e->tb[t].used = 0;
            }
        }
    }
    e->cycle++;
}

/* ------------------------------------------------------------------ invariants */
/* Every field of the stimulus fits its input port of testbench/cosim/issue_path.v (cosim_issue.cpp assigns each to
 * its port as it is, cp_ks[p] / cp_act[p] to their slices): a wider value is a testbench bug (cosim_env.h,
 * env_port). Reset cycles included: the ports are driven then too. */
static int port_fits(const issue_stim_t *st, uint64_t cycle)
{
    int bad = 0;
#define PORT(f, w) (bad += env_port(cycle, NULL, -1, #f, -1, (uint64_t)(f), (w)))
    PORT(st->rst, 1), PORT(st->launch_v, 1), PORT(st->launch_mask, SMK_WARPS), PORT(st->launch_ks, SMK_KS_W);
    PORT(st->finish_mask, SMK_WARPS), PORT(st->ready, SMK_WARPS), PORT(st->stop, SMK_WARPS);
    PORT(st->pblk, SMK_WARPS), PORT(st->csr_we, 1), PORT(st->csr_addr, SMK_ADDR_W), PORT(st->csr_wdata, SMK_DATA_W);
    PORT(st->rd_addr, SMK_ADDR_W), PORT(st->cp_v, SMK_CP);
#undef PORT
    for (int p = 0; p < SMK_CP; p++) {
        bad += env_port(cycle, NULL, -1, "st->cp_ks", p, st->cp_ks[p], SMK_KS_W);
        bad += env_port(cycle, NULL, -1, "st->cp_act", p, st->cp_act[p], SMK_ACT_W);
    }
    return bad;
}

int issue_check_invariants(const issue_model_t *m, const issue_stim_t *st, uint64_t cycle)
{
    int bad = port_fits(st, cycle);
    const ws_out_t *o = &m->wo;
    for (int s = 0; s < SMK_SCHED; s++) {
        if (!((o->iss_v >> s) & 1))
            continue;
        const int w = o->iss_wid[s], k = o->iss_ks[s];
        const int ok = w % SMK_SCHED == s && ((m->ws.valid >> w) & 1) && ((st->ready >> w) & 1) &&
                       !((st->stop >> w) & 1) && ((m->wi.qallow >> k) & 1) && k == m->ws.ks[w];
        if (!ok)
            bad += env_viol(cycle, "scheduler %d issued warp %d (slot %d) that is not eligible", s, w, k);
    }
    for (int k = 0; k < SMK_KSLOTS; k++)
        if (o->idle_cnt[k] > SMK_WARPS || o->held_cnt[k] > SMK_WARPS)
            bad += env_viol(cycle, "slot %d idle %d held %d exceed the warp count", k, o->idle_cnt[k], o->held_cnt[k]);
    return bad;
}
