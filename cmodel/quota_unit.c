/* quota_unit.c: per-SM quota counters, epoch timer, statistics and SM control registers,
 * bit- and cycle-accurate (spec: docs/quota_unit.md). */
#include "quota_unit.h"

#include <string.h>

#define QW SMK_QUOTA_W
#define SW SMK_STAT_W
#define EW SMK_EPOCH_W
#define FMASK(name) (SMK_MASK(SMK_SM_CTRL_##name##_W) << SMK_SM_CTRL_##name##_LSB)
#define CTRL_MASK (uint32_t)(FMASK(POLICY) | FMASK(QMODE) | FMASK(QSCHEME) | FMASK(ROLLNEG))
#define FIELD(reg, name) (((reg) >> SMK_SM_CTRL_##name##_LSB) & SMK_MASK(SMK_SM_CTRL_##name##_W))

void qu_reset(quota_unit_t *q) { memset(q, 0, sizeof *q); }

static inline uint32_t sat_s(uint64_t x) { return (uint32_t)smk_sat_unsigned(x, SW); }
static inline int32_t sat_q(int64_t x) { return (int32_t)smk_sat_signed(x, QW); }

uint32_t qu_read(const quota_unit_t *q, uint32_t addr)
{
    addr &= SMK_MASK(SMK_ADDR_W);
    switch (addr) {
    case SMK_REG_SM_CTRL: return q->sm_ctrl;
    case SMK_REG_EPOCH_LEN: return q->epoch_len;
    case SMK_REG_SAMPLE_PER: return q->sample_per;
    case SMK_REG_QOS_MASK: return q->qos_mask;
    case SMK_REG_EPOCH_CNT: return q->epochs;
    case SMK_REG_EP_CYCLES: return q->ep_cycles;
    case SMK_REG_EP_SAMPLES: return q->ep_samples;
    default: break;
    }
#define ARR(reg, field)                                                                          \
    if (addr >= SMK_REG_##reg && addr < SMK_REG_##reg + SMK_KSLOTS)                              \
        return (uint32_t)q->field[addr - SMK_REG_##reg];
    ARR(QUOTA, quota)
    ARR(CNT, cnt) /* sign-extended to 32 bits */
    ARR(STAT_THR, s_thr)
    ARR(STAT_WIS, s_wis)
    ARR(STAT_IDLE, s_idle)
    ARR(STAT_CYC, s_cyc)
#undef ARR
    return 0;
}

static inline int qu_gating(uint32_t mode) { return mode == SMK_QMODE_SMK || mode == SMK_QMODE_QOS; }

static inline int exhausted(const quota_unit_t *q, uint32_t ks_active)
{
    if (!ks_active)
        return 0;
    for (int k = 0; k < SMK_KSLOTS; k++)
        if (((ks_active >> k) & 1) && q->cnt[k] > 0)
            return 0;
    return 1;
}

/* tmr: the SM's own epoch timer expires in this cycle */
static inline int tmr(const quota_unit_t *q) { return q->epoch_len != 0 && (uint64_t)q->ecnt + 1 >= q->epoch_len; }

/* a CMD write in this cycle with bit `lsb` set */
static inline int cmd_bit(const qu_in_t *in, int lsb)
{
    return in->csr_we && (in->csr_addr & SMK_MASK(SMK_ADDR_W)) == SMK_REG_CMD && ((in->csr_wdata >> lsb) & 1);
}

/* timed = tmr | cmd_start: counter boundary */
static inline int timed(const quota_unit_t *q, const qu_in_t *in)
{
    return tmr(q) || cmd_bit(in, SMK_CMD_EPOCH_START_LSB);
}

/* snap = tmr | cmd_snap: end of a statistics window (docs/qos_mgr.md section 11) */
static inline int snap_of(const quota_unit_t *q, const qu_in_t *in)
{
    return tmr(q) || cmd_bit(in, SMK_CMD_SNAP_LSB);
}

uint32_t qu_qallow(const quota_unit_t *q)
{
    if (!qu_gating(FIELD(q->sm_ctrl, QMODE)))
        return (uint32_t)SMK_MASK(SMK_KSLOTS);
    uint32_t qa = 0;
    for (int k = 0; k < SMK_KSLOTS; k++)
        qa |= (uint32_t)(q->cnt[k] > 0) << k;
    return qa;
}

uint32_t qu_policy(const quota_unit_t *q) { return FIELD(q->sm_ctrl, POLICY); }

void qu_eval(const quota_unit_t *q, const qu_in_t *in, qu_out_t *out)
{
    const uint32_t mode = FIELD(q->sm_ctrl, QMODE);
    out->qallow = qu_qallow(q);
    out->policy = qu_policy(q);
    out->rd_data = qu_read(q, in->rd_addr);
    const int t = timed(q, in), ex = exhausted(q, in->ks_active);
    const int early = !t && ex && mode == SMK_QMODE_QOS && FIELD(q->sm_ctrl, QSCHEME) == SMK_QSCHEME_ELASTIC;
    out->timed = (uint32_t)t;
    out->exhausted = (uint32_t)ex;
    out->epoch_end = (uint32_t)(t || early);
}

void qu_commit(quota_unit_t *q, const qu_in_t *in, const qu_out_t *out)
{
    const uint32_t mode = FIELD(q->sm_ctrl, QMODE), scheme = FIELD(q->sm_ctrl, QSCHEME);
    const int t = (int)out->timed, ex = (int)out->exhausted;
    /* statistics windows and the timers follow `snap`, not the counter boundary: an Elastic
     * early start or a CMD.EPOCH_START alone does not snapshot (docs/quota_unit.md) */
    const int snap = snap_of(q, in);
    const int tick = q->sample_per != 0 && (uint64_t)q->scnt + 1 >= q->sample_per;

    /* per-slot increments this cycle */
    uint32_t tin[1 << SMK_KS_W] = {0}, iin[1 << SMK_KS_W] = {0};
    /* branch-free: the port valid bits are data, not control flow (random in the cosim) */
    for (int p = 0; p < SMK_CP; p++) {
        const uint32_t a = in->cp_act[p] > SMK_WARP_SIZE ? SMK_WARP_SIZE : in->cp_act[p];
        tin[in->cp_ks[p] & SMK_MASK(SMK_KS_W)] += a & (0u - ((in->cp_v >> p) & 1u));
    }
    for (int s = 0; s < SMK_SCHED; s++)
        iin[in->iss_ks[s] & SMK_MASK(SMK_KS_W)] += (in->iss_v >> s) & 1u;

    /* quota counters */
    if (qu_gating(mode)) {
        const int smk = mode == SMK_QMODE_SMK;
        const uint32_t rollneg = FIELD(q->sm_ctrl, ROLLNEG);
        for (int k = 0; k < SMK_KSLOTS; k++) {
            const int64_t base = sat_q((int64_t)q->cnt[k] - (smk ? iin[k] : tin[k]));
            const int64_t quota = q->quota[k];
            const int qos = (q->qos_mask >> k) & 1;
            int64_t nx = base;
            if (t) {
                nx = quota;
                if (!smk && scheme == SMK_QSCHEME_ROLLOVER && qos)
                    nx = sat_q(quota + (rollneg ? base : (base > 0 ? base : 0)));
            } else if (ex) {
                if (smk || scheme == SMK_QSCHEME_ELASTIC || !qos)
                    nx = sat_q(base + quota);
            }
            q->cnt[k] = (int32_t)nx;
        }
    }

    /* timers and statistics */
    const uint32_t emax = (uint32_t)SMK_MASK(EW);
    if (snap) {
        q->ep_cycles = sat_s((uint64_t)q->ecnt + 1);
        q->ep_samples = sat_s((uint64_t)q->nsamp + (uint32_t)tick);
        q->epochs = sat_s((uint64_t)q->epochs + 1);
        q->nsamp = 0;
        q->ecnt = 0;
    } else {
        q->nsamp = sat_s((uint64_t)q->nsamp + (uint32_t)tick);
        q->ecnt = q->ecnt < emax ? q->ecnt + 1 : emax;
    }
    q->scnt = (snap || tick) ? 0 : (q->scnt < emax ? q->scnt + 1 : emax);
    for (int k = 0; k < SMK_KSLOTS; k++) {
        const uint32_t thr = sat_s((uint64_t)q->thr[k] + tin[k]);
        const uint32_t wis = sat_s((uint64_t)q->wis[k] + iin[k]);
        const uint32_t idl = sat_s((uint64_t)q->idle[k] + (tick ? in->idle_cnt[k] : 0));
        const uint32_t cyc = sat_s((uint64_t)q->cyc[k] + ((in->ks_active >> k) & 1));
        if (snap) {
            q->s_thr[k] = thr, q->s_wis[k] = wis, q->s_idle[k] = idl, q->s_cyc[k] = cyc;
            q->thr[k] = q->wis[k] = q->idle[k] = q->cyc[k] = 0;
        } else {
            q->thr[k] = thr, q->wis[k] = wis, q->idle[k] = idl, q->cyc[k] = cyc;
        }
    }

    /* register writes land at this edge */
    if (in->csr_we) {
        const uint32_t a = in->csr_addr & SMK_MASK(SMK_ADDR_W), d = in->csr_wdata;
        if (a == SMK_REG_SM_CTRL)
            q->sm_ctrl = d & CTRL_MASK;
        else if (a == SMK_REG_EPOCH_LEN)
            q->epoch_len = d & (uint32_t)SMK_MASK(EW);
        else if (a == SMK_REG_SAMPLE_PER)
            q->sample_per = d & (uint32_t)SMK_MASK(EW);
        else if (a == SMK_REG_QOS_MASK)
            q->qos_mask = d & (uint32_t)SMK_MASK(SMK_KSLOTS);
        else if (a >= SMK_REG_QUOTA && a < SMK_REG_QUOTA + SMK_KSLOTS)
            q->quota[a - SMK_REG_QUOTA] = d & (uint32_t)SMK_MASK(QW - 1);
        else if (a >= SMK_REG_CNT && a < SMK_REG_CNT + SMK_KSLOTS) /* sign-extend the low QW bits */
            q->cnt[a - SMK_REG_CNT] = (int32_t)((int64_t)((uint64_t)(d & SMK_MASK(QW)) << (64 - QW)) >> (64 - QW));
    }
}
