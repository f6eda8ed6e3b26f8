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

static inline int tmr(const quota_unit_t *q) { return qu_tmr_i(q); }
static inline int cmd_bit(const qu_in_t *in, int lsb) { return qu_cmd_bit_i(in, lsb); }

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

uint32_t qu_qallow(const quota_unit_t *q, uint32_t ks_active) { return qu_qallow_i(q, ks_active); }

uint32_t qu_policy(const quota_unit_t *q) { return qu_policy_i(q); }

void qu_eval_p(const quota_unit_t *q, const qu_in_t *in, qu_out_t *out, uint32_t pos)
{
    qu_eval_i(q, in, out, pos);
}

void qu_eval(const quota_unit_t *q, const qu_in_t *in, qu_out_t *out) { qu_eval_p(q, in, out, qu_pos_i(q)); }

/* sat_S(a + b) for a statistic a (<= 2^SW - 1) and a small increment b (< 2^31) */
static inline uint32_t add_s(uint32_t a, uint32_t b)
{
#if SW == 32
    const uint32_t s = a + b;
    return s | (0u - (uint32_t)(s < a)); /* carry: saturate */
#else
    const uint32_t s = a + b, hi = (uint32_t)SMK_MASK(SW);
    return s > hi ? hi : s;
#endif
}


/* Stage 1 (docs/quota_unit.md): this cycle's per-slot sums are registered (tin_r, iin_r); the edge
 * applies the last cycle's to the statistics and the counters (qu_apply_stage1_i), then the
 * boundary / refill rules act on that base. */
void qu_commit(quota_unit_t *q, const qu_in_t *in, const qu_out_t *out)
{
    const uint32_t mode = FIELD(q->sm_ctrl, QMODE), scheme = FIELD(q->sm_ctrl, QSCHEME);
    const int t = (int)out->timed, ex = (int)out->exhausted;
    /* statistics windows and the timers follow `snap`, not the counter boundary: an Elastic
     * early start or a CMD.EPOCH_START alone does not snapshot (docs/quota_unit.md) */
    const int snap = snap_of(q, in);
    const int tick = qu_tick_i(q);
    const int gate = qu_gating(mode), smk = mode == SMK_QMODE_SMK;

    uint32_t tin[SMK_KSLOTS], iin[SMK_KSLOTS];
    qu_sums_i(in->iss_v, in->iss_ks, in->cp_v, in->cp_ks, in->cp_act, tin, iin);
    qu_apply_stage1_i(q, mode); /* thr, wis and the counters' base from the stage-1 sums */

    /* quota counters at a boundary or when exhausted (base: the counter after the stage-1 decrement) */
    if (gate && (t || ex)) {
        const uint32_t rollneg = FIELD(q->sm_ctrl, ROLLNEG);
        for (int k = 0; k < SMK_KSLOTS; k++) {
            const int64_t base = q->cnt[k];
            const int64_t quota = q->quota[k];
            const int qos = (q->qos_mask >> k) & 1;
            int64_t nx = base;
            if (t) {
                nx = quota;
                if (!smk && (scheme == SMK_QSCHEME_ROLLOVER || scheme == SMK_QSCHEME_ROLLOVER_TIME) && qos)
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
    for (uint32_t x = in->ks_active & (uint32_t)SMK_MASK(SMK_KSLOTS); x; x &= x - 1) {
        const int k = smk_ctz(x);
        q->cyc[k] = add_s(q->cyc[k], 1);
    }
    if (tick)
        for (int k = 0; k < SMK_KSLOTS; k++)
            q->idle[k] = add_s(q->idle[k], in->idle_cnt[k]);
    if (snap)
        for (int k = 0; k < SMK_KSLOTS; k++) {
            q->s_thr[k] = q->thr[k], q->s_wis[k] = q->wis[k];
            q->s_idle[k] = q->idle[k], q->s_cyc[k] = q->cyc[k];
            q->thr[k] = q->wis[k] = q->idle[k] = q->cyc[k] = 0;
        }

    /* stage 1 takes this cycle's sums (in every mode; no write, boundary or snapshot clears it) */
    memcpy(q->tin_r, tin, sizeof tin);
    memcpy(q->iin_r, iin, sizeof iin);

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
