/* qm_env.c: random environment, model wrapper and observation vector of the stand-alone QoS manager
 * cosim (qm_env.h). All randomness comes from rng.h and the seed; the same seed replays. */
#include "qm_env.h"

#include <stdio.h>
#include <string.h>

#define KW SMK_KID_W
#define GVW QM_GVW
#define EW SMK_EPOCH_W
#define SW SMK_STAT_W
#define MSK(w) ((uint32_t)SMK_MASK(w))

/* ------------------------------------------------------------------ model */
/* the model of this cosim (set by qm_model_reset): the directed phases time host writes by its
 * state, as a host that knows the epoch timeline would; the stimulus stays a function of the seed */
static const qm_model_t *qm_peek;

void qm_model_reset(qm_model_t *m)
{
    qm_peek = m;
    memset(m, 0, sizeof *m);
    qm_reset(&m->q);
}
void qm_model_eval(qm_model_t *m, const qm_stim_t *st) { qm_eval(&m->q, &st->in, &m->o); }
void qm_model_commit(qm_model_t *m, const qm_stim_t *st)
{
    if (st->rst)
        qm_reset(&m->q);
    else
        qm_commit(&m->q, &st->in, &m->o);
}

/* ------------------------------------------------------------------ observation */
#define QM_SIGS(X) QM_OBS(X) X(pl_keep, 1)
#define QM_SIG(nm, n) {#nm, QO_##nm, (n)},
OBS_DEFINE_TABLE(qm_obs_table, QM_SIGS, QM_SIG, QO_QM_N);

void qm_obs_from_model(const qm_model_t *m, qm_obs_t *ob) { qm_obs_fill(&m->q, &m->o, ob->v); }

/* ------------------------------------------------------------------ environment */
/* a value of a random bit width 0..w (small values as likely as large ones) */
static uint32_t rnd_w(rng_t *r, int w)
{
    const int b = (int)rng_below(r, (uint32_t)w + 1);
    return b == 0 ? 0 : (uint32_t)(rng_next(r) & SMK_MASK(b));
}

static uint32_t rnd_goal(rng_t *r)
{
    switch (rng_below(r, 6)) {
    case 0: return 0;
    case 1: return (uint32_t)rng_next(r);
    case 2: case 3: return QM_ONE * (1 + rng_below(r, 100 * QM_NSM)) + rng_below(r, QM_ONE); /* IPC 1 .. 100 x NSM */
    default: return rnd_w(r, 32);
    }
}

/* scripted value of SM register a */
static uint32_t sm_value(rng_t *r, uint32_t a)
{
    if (a == SMK_REG_EP_SAMPLES)
        switch (rng_below(r, 6)) {
        case 0: return 0;
        case 1: return (uint32_t)rng_next(r) & MSK(SW);
        default: return rng_below(r, 300);
        }
    if (a >= SMK_REG_STAT_THR && a < SMK_REG_STAT_THR + SMK_KSLOTS)
        switch (rng_below(r, 64)) { /* mostly a window's worth of instructions (IPC up to ~170 per SM) */
        case 0: return (uint32_t)rng_next(r); /* bits above SW must be ignored */
        case 1: return rnd_w(r, SW);
        default: return rng_below(r, 1u << 19);
        }
    if (a >= SMK_REG_STAT_IDLE && a < SMK_REG_STAT_IDLE + SMK_KSLOTS)
        switch (rng_below(r, 8)) {
        case 0: return (uint32_t)rng_next(r);
        case 1: return rng_below(r, 300 * SMK_WARPS);
        case 2: case 3: return rnd_w(r, 16);
        default: return rng_below(r, 400); /* about 0..2 idle TBs: TLP requests */
        }
    return (uint32_t)rng_next(r);
}

static void churn_lookup(qm_env_t *e, int s, int k)
{
    rng_t *r = &e->r;
    e->cnt[s][k] = rng_chance(r, 1, 4) ? 0 : rnd_w(r, GVW);
    e->part[s][k] = rnd_w(r, GVW);
    e->ksv[s][k] = rng_chance(r, 3, 4);
    e->ks[s][k] = rng_below(r, SMK_KSLOTS); /* the driver's ks_of: a slot that exists */
    if (e->focus == QM_F_SMK) /* SMK phases: every entry counts (small sums of x / t * cnt) */
        e->cnt[s][k] = 1 + rng_below(r, (uint32_t)MSK(GVW)), e->ksv[s][k] = rng_chance(r, 7, 8);
}

static uint32_t rnd_epoch_len(qm_env_t *e)
{
    rng_t *r = &e->r;
    const uint32_t lc = qm_lc(e->mode == SMK_QMODE_SMK ? SMK_QMODE_SMK : SMK_QMODE_QOS);
    uint32_t v;
    switch (e->len_kind) {
    case 0: v = rng_chance(r, 1, 2) ? 0 : rng_below(r, lc); break;            /* L = LC */
    case 1: v = lc + rng_below(r, 64); break;                                  /* TLP barely fits */
    case 2: v = lc + rng_below(r, 2 * lc + 2000); break;
    case 3: v = rng_chance(r, 1, 50) ? (uint32_t)rng_next(r) : lc + rng_below(r, 4 * lc); break;
    case 4: v = rng_chance(r, 1, e->smk_fsat ? 2 : 8) ? 30000 + rng_below(r, 35000) : lc + rng_below(r, 2500); /* SMK phases */
        if (e->smk_lone) /* every epoch long enough for F to saturate at sumc = 1: L x SCHED >= 2^16 */
            v = (65536 + SMK_SCHED - 1) / SMK_SCHED + rng_below(r, 20000);
        break;
    default: /* TLP phases: the SNAP falls in the first SM's REQ steps (a pass without requests
              * reaches REQ of kernel 0 at et = 1 + KN (2 + MM + DT)) or in a request they make */
        v = lc + 1 + QM_KN * (2 + QM_MM + QM_DT) + rng_below(r, QM_KN + 4);
        break;
    }
    if (v > MSK(EW) && !rng_chance(r, 1, 20))
        v = lc + rng_below(r, 2 * lc);
    return v; /* bits above EW are dropped by the manager */
}

static uint32_t rnd_mctrl(qm_env_t *e, int en)
{
    rng_t *r = &e->r;
    uint32_t v = (uint32_t)rng_next(r) & ~(uint32_t)SMK_MASK(SMK_QM_REG_MCTRL_BITS); /* bits above MCTRL's are ignored */
    v |= QM_FLD(MCTRL, EN, en);
    v |= QM_FLD(MCTRL, MODE, e->mode);
    v |= QM_FLD(MCTRL, SCHEME, rng_below(r, 4));
    v |= QM_FLD(MCTRL, ROLLNEG, rng_chance(r, 1, 2));
    v |= QM_FLD(MCTRL, POLICY, rng_chance(r, 1, 2));
    v |= QM_FLD(MCTRL, TLP, e->tlp);
    v |= QM_FLD(MCTRL, DEBT, rng_chance(r, 1, 2));
    v |= QM_FLD(MCTRL, TLPQ, rng_chance(r, 1, 2));
    v |= QM_FLD(MCTRL, GIVE, rng_chance(r, 1, 2));
    v |= QM_FLD(MCTRL, NOHIST, rng_chance(r, 1, 4));
    return v;
}

static void new_phase(qm_env_t *e)
{
    rng_t *r = &e->r;
    e->phase_end = e->cycle + 20000 + rng_below(r, 120000);
    e->p_host = rng_below(r, 30);                       /* per 10000 */
    e->p_dis = rng_chance(r, 1, 8) ? rng_below(r, 1000) : rng_chance(r, 1, 3) ? rng_below(r, 3) : 0; /* per 100000 */
    e->p_launch = rng_chance(r, 1, 2) ? rng_below(r, 60) : rng_below(r, 1000); /* per 100000 */
    e->p_rej = rng_below(r, 60);                        /* % */
    e->p_done = rng_chance(r, 1, 8) ? rng_below(r, 100) : rng_below(r, 10); /* per 10000 */
    e->p_rdy = 10 + rng_below(r, 91);                   /* % */
    e->p_stray = rng_chance(r, 1, 4) ? rng_below(r, 5) : 0; /* per 10000 */
    e->p_rst = rng_chance(r, 1, 5) ? 1 + rng_below(r, 5) : 0; /* per 1000000 */
    e->p_churn = rng_below(r, 50);                      /* per 1000 */
    e->lat_max = rng_chance(r, 1, 8) ? 3000 : 1 + rng_below(r, 60);
    e->len_kind = rng_below(r, 4);
    e->mode = rng_chance(r, 1, 2) ? SMK_QMODE_QOS : rng_below(r, 4);
    e->tlp = rng_chance(r, 4, 5);
    /* TLP phases (1 in 3): Algorithm 3-1 runs only in QOS mode with TLP on, time left after the
     * microprogram (L > LC), and a QoS kernel whose history is below its goal; random phases give
     * about one request per 200K cycles, these give many (mutation survivors in the TLP unit) */
    e->dis_reen = 0, e->dis_epoch = 0, e->dis_off = 0, e->dis_init = 0;
    e->rl_state = 0, e->rl_k = 0, e->rl_off = 1;
    e->smk_fsat = 0, e->smk_lone = 0;
    e->focus = rng_chance(r, 1, 3) ? QM_F_TLP : QM_F_NONE;
    if (e->focus) {
        e->mode = SMK_QMODE_QOS, e->tlp = 1, e->len_kind = rng_chance(r, 1, 4) ? 5 : 2;
        e->p_dis = 0, e->p_rst = 0, e->p_launch = 100 + rng_below(r, 400);
        e->n_focus++;
    } else if (rng_chance(r, 1, 3)) {
        /* directed phases (2 in 9; docs/mutation_notes.md, qos_mgr): */
        e->focus = QM_F_SMK + (int)rng_below(r, 3);
        e->p_dis = 0, e->p_rst = 0, e->p_stray = 0;
        e->n_directed[e->focus - QM_F_SMK]++;
        if (e->focus == QM_F_SMK) {
            /* SMK with tiny x/t (kl_x 1..3 in 2^-16, kl_t 1..15, cnt 1..15) and epochs of
             * LC + 0..2500 cycles (1 in 8: 30000..65000): sumc (the SM's sum of cb = x/t * cnt in
             * 16.16) is a few units, so F = L * SCHED / sumc reaches bit 28 and every unit of a cb
             * moves a QUOTA write (mutants 8, 71) */
            e->mode = SMK_QMODE_SMK, e->len_kind = 4;
            /* in half of them every T is the largest (x / T * cnt mostly 0 or 1: sumc of 1 to a few
             * units) and half the epochs are long: F = L * SCHED / sumc saturates (Fd) */
            e->smk_fsat = rng_chance(r, 1, 2);
            /* every other SMK phase, the first included (counted, not drawn), aims at Fd's saturation with a
             * non-zero sum (cover point c_qm_7_fd_sat): sumc = 1 needs one kernel alone on the SM with
             * cb = x / t x cnt = 2^-16 exactly, and F = L x SCHED / sumc saturates once L x SCHED >= 2^16 */
            e->smk_lone = (e->n_smkph++ & 1) == 0;
            e->n_lone += e->smk_lone;
            e->p_launch = 100 + rng_below(r, 300), e->p_done = 1 + rng_below(r, 10);
            e->p_churn = 1 + rng_below(r, 20);
            for (int s = 0; s < QM_NSM; s++)
                for (int k = 0; k < QM_KN; k++)
                    churn_lookup(e, s, k);
        } else if (e->focus == QM_F_LOWIPC) {
            /* QOS + TLP with a low IPC (STAT_THR below 16 per epoch: hist of a few hundred, in
             * 16.16) and small goals next to the large ones: hgive = tsum - 1 - mgoal*tsum/hist is
             * nonzero and moves with every bit of gN, and rq_give shows it (mutant 119) */
            e->mode = SMK_QMODE_QOS, e->tlp = 1, e->len_kind = 2;
            e->p_launch = 100 + rng_below(r, 400), e->p_done = rng_below(r, 5);
            for (int s = 0; s < QM_NSM; s++)
                for (int k = 0; k < SMK_KSLOTS; k++)
                    e->smreg[s][SMK_REG_STAT_THR + k] = rng_below(r, 16);
        } else {
            /* QOS epochs disabled inside the microprogram (at a random cycle of it, or at the
             * last divide cycle of C1 sub-step 3 of the last kernel), re-enabled as soon as the
             * manager is IDLE; the host reads the kernel windows: the stale microprogram
             * position must not act in the next epoch's idle part (mutant 35) */
            e->mode = SMK_QMODE_QOS, e->len_kind = 2;
            e->p_launch = 50 + rng_below(r, 300), e->p_done = rng_below(r, 3);
            /* no QoS launches (P = 1.0) and a relaunch pattern (relaunch_point, mutant 17) */
        }
    }
}

void qm_env_init(qm_env_t *e, uint64_t seed)
{
    memset(e, 0, sizeof *e);
    e->seed = seed;
    rng_seed(&e->r, seed ^ 0x51a5e7c0de5ULL);
    for (int s = 0; s < QM_NSM; s++) {
        for (int k = 0; k < QM_KN; k++)
            churn_lookup(e, s, k);
        for (int a = 0; a < QM_SMREGS; a++)
            e->smreg[s][a] = sm_value(&e->r, (uint32_t)a);
    }
    e->phase_end = 0;
    e->script = 3;
}

/* host writes of a phase start: EPOCH_LEN, SAMPLE_PER, MCTRL (EN = 1) */
static int host_script(qm_env_t *e, qm_in_t *in, int step)
{
    rng_t *r = &e->r;
    in->m_we = 1;
    switch (step) {
    case 0: in->m_addr = SMK_QM_REG_EPOCH_LEN, in->m_wdata = rnd_epoch_len(e); return 1;
    case 1: in->m_addr = SMK_QM_REG_SAMPLE_PER, in->m_wdata = rng_chance(r, 1, 8) ? 0 : 1 + rng_below(r, 200); return 1;
    case 2: in->m_addr = SMK_QM_REG_MCTRL, in->m_wdata = rnd_mctrl(e, 1); return 1;
    default: in->m_we = 0; return 0;
    }
}

/* QM_F_DIS phases: write MCTRL.EN = 0 at microprogram offset dis_off of an armed QOS epoch
 * (offset 0 = the S cycle et = L - LC), then EN = 1 as soon as the manager is IDLE. The special
 * offset is the last divide cycle of C1 sub-step 3 of the last kernel: S (1 cycle), G (NP + 1),
 * then C1 with 4 + 5 D + 3 (MM - 1) cycles per kernel (sub-step 0 takes 1 cycle, 4, 6, 7 take MM,
 * 1, 2, 3, 5, 8 take D). */
#define QM_DIS_C1S3 (1 + (QM_NP + 1) + (QM_KN - 1) * (4 + 5 * QM_D + 3 * (QM_MM - 1)) + 3 * QM_D)
static int dis_point(qm_env_t *e, qm_in_t *in)
{
    rng_t *r = &e->r;
    const qos_mgr_t *q = &qm_peek->q;
    /* every other re-enable: EN = 0 again while the INIT it starts runs (docs/qos_mgr.md section 6: a
     * disable in INIT; cover point c_qm_6_dis_init), then the re-enable below when IDLE */
    if (e->dis_init && q->st == QM_ST_INIT) {
        in->m_we = 1, in->m_addr = SMK_QM_REG_MCTRL, in->m_wdata = rnd_mctrl(e, 0);
        e->dis_init = 0, e->dis_reen = 1, e->n_dis_init++;
        return 1;
    }
    if (e->dis_reen) {
        if (q->st != QM_ST_IDLE)
            return 0;
        in->m_we = 1, in->m_addr = SMK_QM_REG_MCTRL, in->m_wdata = rnd_mctrl(e, 1);
        e->dis_reen = 0;
        e->dis_init = (e->n_reen++ & 1) == 0; /* counted, not drawn: the streams stay as they are */
        e->dis_epoch = q->epochs + 1 + rng_below(r, 3); /* let cum_c grow between disables */
        {
            const uint32_t u = rng_below(r, 6); /* the epoch's last cycle (F3) in one of six */
            e->dis_off = u < 3 ? QM_DIS_C1S3 : u == 3 ? QM_LC_QOS - 1 : rng_below(r, QM_LC_QOS);
        }
        return 1;
    }
    /* one epoch end in four: MCTRL written (EN = 1, the phase's mode) in the epoch's last cycle, the edge of
     * the epoch-start latches, which take the old MODE and TLP bits (section 6; cover point
     * c_qm_6_latch_mctrl); the offset-(LC - 1) disable below is that cycle too, but a disable latches nothing */
    if (q->st == QM_ST_RUN && q->et == q->L - 1 && (e->n_ep_end++ & 3) == 1 &&
        !(q->cur_mode == SMK_QMODE_QOS && q->epochs >= e->dis_epoch && q->L >= QM_LC_QOS &&
          q->et == q->L - QM_LC_QOS + e->dis_off)) {
        in->m_we = 1, in->m_addr = SMK_QM_REG_MCTRL, in->m_wdata = rnd_mctrl(e, 1);
        e->n_latch_w++;
        return 1;
    }
    if (q->st != QM_ST_RUN || q->cur_mode != SMK_QMODE_QOS || q->epochs < e->dis_epoch ||
        q->L < QM_LC_QOS || q->et != q->L - QM_LC_QOS + e->dis_off)
        return 0;
    in->m_we = 1, in->m_addr = SMK_QM_REG_MCTRL, in->m_wdata = rnd_mctrl(e, 0);
    e->dis_reen = 1;
    e->n_mdis++;
    return 1;
}

/* QM_F_DIS phases (no QoS kernels: P = 1.0), a relaunch pattern: a fresh launch of kernel rl_k
 * between S and its C1 sub-step 0 (so its window wc is 0 and cum_c stays 0 while C2 clears fresh),
 * then a relaunch with keep early in the next epoch: fresh must be set again (cum_c is still 0), and
 * the next C2 sub-step 0 computes its agoal from 1.0 instead of ipc_ep (mutant 17) */
static void relaunch_point(qm_env_t *e, qm_in_t *in)
{
    rng_t *r = &e->r;
    const qos_mgr_t *q = &qm_peek->q;
    if (e->rl_norej) /* the launch of the previous cycle commits */
        in->kl_rej = 0, e->rl_norej = 0;
    if (q->st != QM_ST_RUN || q->cur_mode != SMK_QMODE_QOS || q->L < QM_LC_QOS)
        return;
    if (!e->rl_state && q->et == q->L - QM_LC_QOS + e->rl_off) {
        in->kl_v = 1, in->kl_k = e->rl_k, in->kl_keep = 0, in->kl_qos = 0;
        e->rl_state = 1, e->rl_norej = 1, e->rl_epoch = q->epochs, e->rl_off = rng_below(r, 64);
    } else if (e->rl_state && q->epochs != e->rl_epoch && q->et >= e->rl_off) {
        in->kl_v = 1, in->kl_k = e->rl_k, in->kl_keep = 1, in->kl_qos = 0;
        e->rl_state = 0, e->rl_norej = 1, e->n_relaunch++;
        e->rl_k = rng_below(r, QM_KN);
        e->rl_off = 1 + rng_below(r, QM_NP + 1 + e->rl_k * (4 + 5 * QM_D)); /* before its C1 sub-step 0 */
    }
}

void qm_env_gen(qm_env_t *e, qm_stim_t *st)
{
    rng_t *r = &e->r;
    qm_in_t *in = &st->in;
    memset(st, 0, sizeof *st);

    /* synchronous resets */
    if (e->rst_left) {
        st->rst = 1;
        e->rst_left--;
    } else if (e->p_rst && rng_below(r, 1000000) < e->p_rst) {
        st->rst = 1;
        e->rst_left = rng_below(r, 2);
        e->n_rst++;
    }

    if (e->cycle >= e->phase_end) {
        new_phase(e);
        e->script = 0;
    }

    /* host port: garbage when not writing */
    in->m_addr = rng_below(r, 1u << SMK_QM_ADDR_W);
    in->m_wdata = (uint32_t)rng_next(r);
    in->m_we = 0;
    if (e->script < 3) {
        host_script(e, in, e->script);
        e->script++;
    } else if (e->focus == QM_F_DIS && qm_peek && dis_point(e, in)) {
        /* directed disable or re-enable (dis_point) */
    } else if (e->p_dis && rng_below(r, 100000) < e->p_dis) {
        in->m_we = 1, in->m_addr = SMK_QM_REG_MCTRL, in->m_wdata = rnd_mctrl(e, 0);
        e->n_dis++;
        e->script = rng_chance(r, 1, 2) ? 2 : 3; /* re-enable at once (ignored in STOP) or later */
    } else if (rng_below(r, 10000) < e->p_host) {
        in->m_we = 1;
        switch (rng_below(r, 10)) {
        case 0: case 1: case 2: in->m_addr = SMK_QM_REG_EPOCH_LEN, in->m_wdata = rnd_epoch_len(e); break;
        case 3: in->m_addr = SMK_QM_REG_SAMPLE_PER, in->m_wdata = rng_chance(r, 1, 4) ? (uint32_t)rng_next(r) : rng_below(r, 300); break;
        case 4: case 5: case 6:
            if (rng_chance(r, 1, 3) && e->focus < QM_F_SMK) /* directed phases keep their mode */
                e->mode = rng_chance(r, 1, 2) ? SMK_QMODE_QOS : rng_below(r, 4), e->tlp = rng_chance(r, 4, 5);
            in->m_addr = SMK_QM_REG_MCTRL, in->m_wdata = rnd_mctrl(e, 1);
            break;
        default: break; /* random address (read-only, unmapped or a register), random data */
        }
    }
    switch (rng_below(r, 4)) { /* host read address */
    case 0: in->m_raddr = rng_below(r, 8); break;
    case 1: in->m_raddr = rng_below(r, 1u << SMK_QM_ADDR_W); break;
    default: in->m_raddr = (1 + rng_below(r, 7)) * 0x40 + rng_below(r, QM_KN + 2); break;
    }
    /* within the m_raddr field: with 63 or 64 kernels the GOAL window's indices KN, KN + 1 run past its 9 bits (a
     * value wider than the port reaches the Verilated RTL unmasked; the C model masks it) */
    in->m_raddr &= MSK(SMK_QM_ADDR_W);
    if (e->focus == QM_F_DIS && rng_chance(r, 1, 3)) /* the kernel windows of the last kernels */
        in->m_raddr = (1 + rng_below(r, 7)) * 0x40 + QM_KN - 1 - rng_below(r, 2);

    /* launches (fields are garbage without kl_v), refusals, completions */
    in->kl_v = rng_below(r, 100000) < e->p_launch;
    in->kl_k = rng_below(r, 1u << KW);
    in->kl_n = (uint32_t)rng_next(r) & MSK(SMK_WID_W + 1);
    in->kl_qos = e->focus ? rng_chance(r, 3, 4) : rng_chance(r, 1, 2);
    in->kl_goal = e->focus && rng_chance(r, 3, 4) ? QM_ONE * (400 * QM_NSM + rng_below(r, 400 * QM_NSM)) : rnd_goal(r);
    in->kl_x = rng_chance(r, 1, 6) ? (uint32_t)rng_next(r) & MSK(17) : rng_below(r, QM_ONE + 1);
    in->kl_t = rnd_w(r, GVW);
    if (e->focus == QM_F_SMK)
        in->kl_x = 1 + rng_below(r, 3), in->kl_t = e->smk_fsat ? MSK(GVW) : 1 + rng_below(r, (uint32_t)MSK(GVW));
    if (e->focus == QM_F_SMK && e->smk_lone)
        in->kl_x = 1, in->kl_t = 1;
    else if (e->focus == QM_F_LOWIPC && rng_chance(r, 1, 2))
        in->kl_goal = rng_below(r, 600); /* below the phase's hist: hgive != 0 */
    in->kl_keep = rng_chance(r, 1, 2); /* relaunch keeping the history, or a fresh launch */
    in->kl_rej = e->prev_kl_v ? rng_below(r, 100) < e->p_rej : rng_chance(r, 1, 10);
    in->kdone_v = rng_below(r, 10000) < e->p_done;
    in->kdone_k = rng_below(r, 1u << KW);
    if (e->prev_kl_v && e->focus != QM_F_DIS && rng_chance(r, 1, 16)) /* kdone at the launch's commit edge */
        in->kdone_v = 1, in->kdone_k = e->prev_kl_k, e->n_kd_commit++;
    if (e->focus == QM_F_DIS && qm_peek)
        in->kl_qos = 0, relaunch_point(e, in); /* P stays 1.0 */

    /* request port */
    in->rq_rdy = rng_below(r, 100) < e->p_rdy;
    if (e->rq_pend && e->cycle < e->rq_due && qm_peek && qm_peek->q.st == QM_ST_RUN &&
        qm_peek->q.L >= qm_lc(qm_peek->q.cur_mode) && qm_peek->q.et == qm_peek->q.L - qm_lc(qm_peek->q.cur_mode) &&
        rng_chance(r, 1, 2)) /* the ack in the SNAP cycle (the abort's edge), as a driver may give it */
        e->rq_due = (uint32_t)e->cycle, e->n_snap_ack++;
    if (e->rq_pend && e->cycle >= e->rq_due) {
        in->rq_ack_v = 1, in->rq_ack_st = e->ack_st, in->rq_ack_kv = e->ack_kv, in->rq_ack_n = e->ack_n;
    } else if (e->p_stray && rng_below(r, 10000) < e->p_stray) {
        in->rq_ack_v = 1, in->rq_ack_st = 1 + rng_below(r, 3);
        in->rq_ack_kv = rng_below(r, 1u << KW), in->rq_ack_n = rnd_w(r, GVW);
    }

    /* the world changes: lookup entries and SM statistics */
    if (rng_below(r, 1000) < e->p_churn)
        churn_lookup(e, (int)rng_below(r, QM_NSM), (int)rng_below(r, QM_KN));
    if (rng_below(r, 1000) < e->p_churn) {
        const int s = (int)rng_below(r, QM_NSM);
        static const uint32_t bases[] = {SMK_REG_EP_SAMPLES, SMK_REG_STAT_THR, SMK_REG_STAT_IDLE};
        const uint32_t b = bases[rng_below(r, 3)];
        const uint32_t a = b == SMK_REG_EP_SAMPLES ? b : b + rng_below(r, SMK_KSLOTS);
        e->smreg[s][a] = sm_value(r, a);
        if (e->focus == QM_F_LOWIPC && b == SMK_REG_STAT_THR)
            e->smreg[s][a] &= 15;
    }
}

void qm_env_respond(const qm_env_t *e, const qm_out_t *o, qm_stim_t *st)
{
    qm_in_t *in = &st->in;
    const uint32_t s = o->lk_s, k = o->lk_k;
    if (s < QM_NSM && k < QM_KN)
        in->lk_cnt = e->cnt[s][k], in->lk_part = e->part[s][k], in->lk_ksv = e->ksv[s][k], in->lk_ks = e->ks[s][k];
    else
        in->lk_cnt = in->lk_part = in->lk_ksv = in->lk_ks = 0;
    /* lone-kernel SMK phases: SM 0 shows the lowest kernel in use launched with x = 2^-16 and t = 1 (the model's
     * mv, mx, mt) alone with one TB, so its cb = x / t x 1 = 2^-16 is the whole sum */
    if (e->focus == QM_F_SMK && e->smk_lone && qm_peek && s == 0 && k < QM_KN) {
        uint32_t lone = QM_KN;
        for (uint32_t j = QM_KN; j-- > 0;)
            if (qm_peek->q.mv[j] && qm_peek->q.mx[j] == 1 && qm_peek->q.mt[j] <= 1)
                lone = j;
        in->lk_ksv = k == lone, in->lk_cnt = k == lone;
    }
    for (int i = 0; i < QM_NSM; i++)
        in->rd_data[i] = e->smreg[i][o->rd_addr[i] & (QM_SMREGS - 1)];
}

/* Every field of the stimulus (qm_env_gen's and qm_env_respond's) fits its input port of rtl/qos_mgr.v (cosim_qm.cpp
 * assigns each to its port as it is, rd_data[s] to its 32-bit slice): a wider value is a testbench bug (cosim_env.h,
 * env_port). Reset cycles included: the ports are driven then too. */
static int port_fits(const qm_env_t *e, const qm_stim_t *st)
{
    const qm_in_t *in = &st->in;
    int nv = 0;
#define PORT(f, w) (nv += env_port(e->cycle, NULL, -1, #f, -1, (uint64_t)(f), (w)))
    PORT(st->rst, 1), PORT(in->m_we, 1), PORT(in->m_addr, SMK_QM_ADDR_W), PORT(in->m_wdata, 32);
    PORT(in->m_raddr, SMK_QM_ADDR_W), PORT(in->kl_v, 1), PORT(in->kl_k, KW), PORT(in->kl_n, SMK_WID_W + 1);
    PORT(in->kl_qos, 1), PORT(in->kl_goal, 32), PORT(in->kl_x, 17), PORT(in->kl_t, GVW), PORT(in->kl_keep, 1);
    PORT(in->kl_rej, 1), PORT(in->kdone_v, 1), PORT(in->kdone_k, KW), PORT(in->lk_cnt, GVW), PORT(in->lk_part, GVW);
    PORT(in->lk_ksv, 1), PORT(in->lk_ks, SMK_KS_W), PORT(in->rq_rdy, 1), PORT(in->rq_ack_v, 1);
    PORT(in->rq_ack_st, 2), PORT(in->rq_ack_kv, KW), PORT(in->rq_ack_n, GVW);
#undef PORT
    for (int s = 0; s < QM_NSM; s++)
        nv += env_port(e->cycle, NULL, -1, "in->rd_data", s, in->rd_data[s], 32);
    return nv;
}

int qm_env_commit(qm_env_t *e, const qm_stim_t *st, const qm_out_t *o)
{
    rng_t *r = &e->r;
    const qm_in_t *in = &st->in;
    const int nv = port_fits(e, st);
    e->prev_kl_v = in->kl_v && !st->rst;
    e->prev_kl_k = in->kl_k;
    if (st->rst) {
        e->rq_pend = 0;
    } else {
        if (e->rq_pend && in->rq_ack_v && e->cycle >= e->rq_due)
            e->rq_pend = 0;
        if (o->rq_v && in->rq_rdy && !e->rq_pend) { /* accepted: ack after a random latency */
            e->rq_pend = 1;
            e->rq_due = e->cycle + 1 + rng_below(r, e->lat_max);
            e->ack_st = 1 + rng_below(r, 3);
            e->ack_kv = e->ack_st == 2 ? rng_below(r, 1u << KW) : 0;
            e->ack_n = e->ack_st == 2 ? 1 + rng_below(r, 3) : 0;
            e->n_req++;
            e->n_victim += e->ack_st == 2;
        }
        e->n_launch += in->kl_v;
        e->n_keep += in->kl_v & in->kl_keep;
        for (int s = 0; s < QM_NSM; s++) {
            e->n_tlp_sm += o->rd_addr[s] == SMK_REG_EP_SAMPLES;
            e->n_tlp_rd += o->rd_addr[s] >= SMK_REG_STAT_IDLE && o->rd_addr[s] < SMK_REG_STAT_IDLE + SMK_KSLOTS;
        }
        for (int s = 0; s < QM_NSM; s++)
            if ((o->csr_we >> s) & 1) {
                if (s == 0 && o->csr_addr[s] == SMK_REG_CMD && (o->csr_wdata[s] & 2))
                    e->n_snaps++;
                if (s == 0 && o->csr_addr[s] == SMK_REG_CMD && (o->csr_wdata[s] & 1))
                    e->n_epochs_seen++;
                if (o->csr_addr[s] >= SMK_REG_QUOTA && o->csr_addr[s] < SMK_REG_QUOTA + SMK_KSLOTS && o->csr_we != MSK(QM_NSM))
                    e->n_quota++;
            }
    }
    e->cycle++;
    return nv;
}

void qm_env_summary(const qm_env_t *e)
{
    printf("directed phases: %llu SMK tiny-x (%llu with one kernel alone on SM 0), %llu low-IPC, %llu microprogram-disable (%llu disables inside the microprogram, "
           "%llu in INIT, %llu MCTRL writes at an epoch end), "
           "%llu keep relaunches after a launch in the microprogram, %llu kdone at a launch's commit edge, %llu acks in "
           "the SNAP cycle\n",
           (unsigned long long)e->n_directed[0], (unsigned long long)e->n_lone, (unsigned long long)e->n_directed[1],
           (unsigned long long)e->n_directed[2], (unsigned long long)e->n_mdis, (unsigned long long)e->n_dis_init, (unsigned long long)e->n_latch_w,
           (unsigned long long)e->n_relaunch, (unsigned long long)e->n_kd_commit,
           (unsigned long long)e->n_snap_ack);
    printf("%llu cycles: %llu launches offered (%llu with keep), %llu snapshots, %llu epoch starts, %llu QUOTA writes, "
           "%llu TLP SM visits, %llu idle reads, %llu TLP requests (%llu VICTIM acks), %llu disables, %llu resets, %llu TLP phases\n",
           (unsigned long long)e->cycle, (unsigned long long)e->n_launch, (unsigned long long)e->n_keep,
           (unsigned long long)e->n_snaps,
           (unsigned long long)e->n_epochs_seen, (unsigned long long)e->n_quota, (unsigned long long)e->n_tlp_sm, (unsigned long long)e->n_tlp_rd,
           (unsigned long long)e->n_req,
           (unsigned long long)e->n_victim, (unsigned long long)e->n_dis, (unsigned long long)e->n_rst,
           (unsigned long long)e->n_focus);
}
