/* quota_unit.h: C reference model of the per-SM quota unit (spec: docs/quota_unit.md). */
#ifndef QUOTA_UNIT_H
#define QUOTA_UNIT_H
#include <string.h>

#include "smk_util.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    /* (field order: what every cycle reads or writes first, in the fewest cache lines) */
    /* registers */
    uint32_t sm_ctrl, epoch_len, sample_per, qos_mask;
    /* counters and timers */
    int32_t cnt[SMK_KSLOTS]; /* QUOTA_W bits, two's complement */
    /* stage 1: last cycle's per-slot sums of the completion ports' thread instructions (tin) and of
     * the issues (iin), applied to the counters and the statistics at this edge */
    uint32_t tin_r[SMK_KSLOTS], iin_r[SMK_KSLOTS];
    uint32_t ecnt, scnt, nsamp;
    uint32_t cyc[SMK_KSLOTS], thr[SMK_KSLOTS], wis[SMK_KSLOTS], idle[SMK_KSLOTS];
    uint32_t quota[SMK_KSLOTS]; /* QUOTA_W-1 bits, unsigned */
    uint32_t epochs, ep_cycles, ep_samples;
    uint32_t s_thr[SMK_KSLOTS], s_wis[SMK_KSLOTS], s_idle[SMK_KSLOTS], s_cyc[SMK_KSLOTS];
} quota_unit_t;

typedef struct {
    uint32_t csr_we, csr_addr, csr_wdata, rd_addr;
    uint32_t iss_v; /* bit s */
    uint8_t iss_ks[SMK_SCHED];
    uint32_t cp_v; /* bit p */
    uint8_t cp_ks[SMK_CP], cp_act[SMK_CP];
    uint8_t idle_cnt[SMK_KSLOTS];
    uint32_t ks_active; /* bit k */
} qu_in_t;

typedef struct {
    uint32_t rd_data, qallow, policy, epoch_end;
    /* not ports: this cycle's `timed` and `exhausted` (docs/quota_unit.md), kept for qu_commit */
    uint32_t timed, exhausted;
} qu_out_t;

/* qallow and policy as inline functions of the state (the same as qu_qallow / qu_policy), for the
 * SM top's hot path */
static inline uint32_t qu_policy_i(const quota_unit_t *q)
{
    return (q->sm_ctrl >> SMK_SM_CTRL_POLICY_LSB) & (uint32_t)SMK_MASK(SMK_SM_CTRL_POLICY_W);
}
/* SM_CTRL.QMODE */
static inline uint32_t qu_mode_i(const quota_unit_t *q)
{
    return (q->sm_ctrl >> SMK_SM_CTRL_QMODE_LSB) & (uint32_t)SMK_MASK(SMK_SM_CTRL_QMODE_W);
}
/* the quota mode gates issue (SMK or QOS) */
static inline int qu_gating_i(const quota_unit_t *q)
{
    const uint32_t mode = qu_mode_i(q);
    return mode == SMK_QMODE_SMK || mode == SMK_QMODE_QOS;
}
/* bit k: cnt[k] > 0 */
static inline uint32_t qu_pos_i(const quota_unit_t *q)
{
    uint32_t m = 0;
    for (int k = 0; k < SMK_KSLOTS; k++)
        m |= (uint32_t)(q->cnt[k] > 0) << k;
    return m;
}
/* SM_CTRL selects QMODE QOS with QSCHEME ROLLOVER_TIME (the time-multiplexed gate) */
static inline int qu_rtime_i(const quota_unit_t *q)
{
    const uint32_t f = (uint32_t)(SMK_MASK(SMK_SM_CTRL_QMODE_W) << SMK_SM_CTRL_QMODE_LSB |
                                  SMK_MASK(SMK_SM_CTRL_QSCHEME_W) << SMK_SM_CTRL_QSCHEME_LSB);
    return (q->sm_ctrl & f) ==
           (uint32_t)(SMK_QMODE_QOS << SMK_SM_CTRL_QMODE_LSB | SMK_QSCHEME_ROLLOVER_TIME << SMK_SM_CTRL_QSCHEME_LSB);
}
/* The gate (docs/quota_unit.md rule 2), its one definition: qallow from pos = qu_pos_i(q) and
 * ks_active (warp_sched's ks_active, a function of its registered state). Every slot unless the
 * counters gate; then cnt > 0, and under Rollover-Time a non-QoS slot also waits while a QoS slot
 * with warps on the SM has quota left. */
static inline uint32_t qu_gate_i(const quota_unit_t *q, uint32_t pos, uint32_t ks_active)
{
    if (!qu_gating_i(q))
        return (uint32_t)SMK_MASK(SMK_KSLOTS);
    if (qu_rtime_i(q) && (pos & ks_active & q->qos_mask) != 0)
        return pos & q->qos_mask;
    return pos;
}
static inline uint32_t qu_qallow_i(const quota_unit_t *q, uint32_t ks_active)
{
    return qu_gate_i(q, qu_pos_i(q), ks_active);
}

void qu_reset(quota_unit_t *q);
/* Register read (the rd_data function of docs/quota_unit.md). */
uint32_t qu_read(const quota_unit_t *q, uint32_t addr);
/* tmr: the SM's own epoch timer expires in this cycle */
static inline int qu_tmr_i(const quota_unit_t *q)
{
    return q->epoch_len != 0 && (uint64_t)q->ecnt + 1 >= q->epoch_len;
}
/* tick: the sampling timer expires in this cycle */
static inline int qu_tick_i(const quota_unit_t *q)
{
    return q->sample_per != 0 && (uint64_t)q->scnt + 1 >= q->sample_per;
}
/* The common cycle (docs/quota_unit.md "Common cycle"): no register write (a CMD write is one, so
 * timed = tmr), the epoch timer does not expire, the sampling timer does not tick, and the counters
 * are not exhausted while they gate (ks_active: the slots with a valid warp, warp_sched's
 * ks_active). Then qu_commit changes only the live statistics and the quota counters by the stage-1
 * sums (tin_r, iin_r), the stage-1 sums (this cycle's) and the timers (qu_count_i). The one definition of the rule: qu_commit_quiet_i and the SM's quiet
 * cycle (sm_quiet_i) test it. */
static inline int qu_common_i(const quota_unit_t *q, uint32_t csr_we, uint32_t ks_active)
{
    if (csr_we || qu_tmr_i(q) || qu_tick_i(q))
        return 0;
    /* exhausted (rule 6: some slot active, none of them with cnt > 0) while gating */
    return !(ks_active != 0 && qu_gating_i(q) && (ks_active & qu_pos_i(q)) == 0);
}
/* a CMD write in this cycle with bit `lsb` set */
static inline int qu_cmd_bit_i(const qu_in_t *in, int lsb)
{
    return in->csr_we && (in->csr_addr & SMK_MASK(SMK_ADDR_W)) == SMK_REG_CMD && ((in->csr_wdata >> lsb) & 1);
}
/* qu_eval with pos = qu_pos_i(q) computed by the caller, inline for the SM top's hot path */
static inline void qu_eval_i(const quota_unit_t *q, const qu_in_t *in, qu_out_t *out, uint32_t pos)
{
    const uint32_t mode = qu_mode_i(q);
    out->qallow = qu_gate_i(q, pos, in->ks_active);
    out->policy = qu_policy_i(q);
    out->rd_data = qu_read(q, in->rd_addr);
    /* timed = tmr | cmd_start (counter boundary); exhausted: some slot active, none with cnt > 0 */
    const int t = qu_tmr_i(q) || qu_cmd_bit_i(in, SMK_CMD_EPOCH_START_LSB);
    const int ex = in->ks_active != 0 && (in->ks_active & pos) == 0;
    const int early = !t && ex && mode == SMK_QMODE_QOS &&
                      ((q->sm_ctrl >> SMK_SM_CTRL_QSCHEME_LSB) & (uint32_t)SMK_MASK(SMK_SM_CTRL_QSCHEME_W)) ==
                          SMK_QSCHEME_ELASTIC;
    out->timed = (uint32_t)t;
    out->exhausted = (uint32_t)ex;
    out->epoch_end = (uint32_t)(t || early);
}
/* Per-slot sums of a cycle, packed: field k (QU_PK_W bits) of a uint64_t for slot k (the packed
 * form exists when SMK_KSLOTS fields fit and no sum can overflow its field) */
#define QU_PK_W 16
#define QU_PK (SMK_KSLOTS * QU_PK_W <= 64 && SMK_CP * SMK_WARP_SIZE < (1 << QU_PK_W) && SMK_SCHED < (1 << QU_PK_W))
/* the timers of a common cycle (no snap, no tick: nsamp keeps its value) */
static inline void qu_timers_i(quota_unit_t *q, uint32_t ks_active)
{
    const uint32_t emax = (uint32_t)SMK_MASK(SMK_EPOCH_W), shi = (uint32_t)SMK_MASK(SMK_STAT_W);
    q->ecnt = q->ecnt < emax ? q->ecnt + 1 : emax;
    q->scnt = q->scnt < emax ? q->scnt + 1 : emax;
    for (uint32_t x = ks_active & (uint32_t)SMK_MASK(SMK_KSLOTS); x; x &= x - 1) {
        const int k = smk_ctz(x);
        q->cyc[k] = q->cyc[k] < shi ? q->cyc[k] + 1 : shi;
    }
}
/* The edge's use of the stage-1 sums (docs/quota_unit.md rules 3-5 and the live statistics):
 * thr += tin_r, wis += iin_r (sat_S), and the counters take base = sat_Q(cnt - dec) with dec =
 * tin_r (QOS), iin_r (SMK) or 0 (the counters hold), under this cycle's mode `mode` */
static inline void qu_apply_stage1_i(quota_unit_t *q, uint32_t mode)
{
    const uint32_t shi = (uint32_t)SMK_MASK(SMK_STAT_W);
    const int64_t qlo = -((int64_t)1 << (SMK_QUOTA_W - 1));
    const int64_t cdec = mode == SMK_QMODE_QOS, idec = mode == SMK_QMODE_SMK; /* 1: the counters count it */
    for (int k = 0; k < SMK_KSLOTS; k++) {
        const uint32_t a = q->tin_r[k], n = q->iin_r[k];
        if (!(a | n))
            continue;
        const uint64_t st = (uint64_t)q->thr[k] + a, sw = (uint64_t)q->wis[k] + n;
        q->thr[k] = st > shi ? shi : (uint32_t)st;
        q->wis[k] = sw > shi ? shi : (uint32_t)sw;
        const int64_t c = (int64_t)q->cnt[k] - cdec * a - idec * n;
        q->cnt[k] = (int32_t)(c < qlo ? qlo : c);
    }
}
/* this cycle's per-slot sums from the ports (rule 3; act(p) capped at WARP_SIZE; a slot id >=
 * KSLOTS, possible only when KSLOTS is not a power of two, counts nowhere) */
static inline void qu_sums_i(uint32_t iss_v, const uint8_t *iss_ks, uint32_t cp_v, const uint8_t *cp_ks,
                             const uint8_t *cp_act, uint32_t *tin, uint32_t *iin)
{
    memset(tin, 0, SMK_KSLOTS * sizeof *tin);
    memset(iin, 0, SMK_KSLOTS * sizeof *iin);
    for (uint32_t x = cp_v & (uint32_t)SMK_MASK(SMK_CP); x; x &= x - 1) {
        const int p = smk_ctz(x);
        const uint32_t k = cp_ks[p] & (uint32_t)SMK_MASK(SMK_KS_W);
        if (k < SMK_KSLOTS)
            tin[k] += cp_act[p] > SMK_WARP_SIZE ? SMK_WARP_SIZE : cp_act[p];
    }
    for (uint32_t x = iss_v & (uint32_t)SMK_MASK(SMK_SCHED); x; x &= x - 1) {
        const uint32_t k = iss_ks[smk_ctz(x)] & (uint32_t)SMK_MASK(SMK_KS_W);
        if (k < SMK_KSLOTS)
            iin[k]++;
    }
}
#if QU_PK
/* The body of qu_commit_quiet_i with this cycle's completions' thread instructions (each capped at
 * WARP_SIZE) and issues summed per slot (packed: isum, csum): the stage-1 sums applied to the live
 * statistics and the quota counters (quota mode `mode`), this cycle's sums into stage 1, and the
 * timers of a common cycle. */
static inline void qu_count_pk_i(quota_unit_t *q, uint32_t mode, uint64_t isum, uint64_t csum, uint32_t ks_active)
{
    qu_apply_stage1_i(q, mode);
    for (int k = 0; k < SMK_KSLOTS; k++) {
        q->tin_r[k] = (uint32_t)(csum >> (QU_PK_W * k)) & (uint32_t)SMK_MASK(QU_PK_W);
        q->iin_r[k] = (uint32_t)(isum >> (QU_PK_W * k)) & (uint32_t)SMK_MASK(QU_PK_W);
    }
    qu_timers_i(q, ks_active);
}
/* packed per-slot sums: a completion of slot ks with act active threads (capped at WARP_SIZE), the
 * completion ports, an issue of slot ks */
static inline uint64_t qu_cp1_i(uint32_t ks, uint32_t act)
{
    const uint32_t k = ks & (uint32_t)SMK_MASK(SMK_KS_W);
    return k < SMK_KSLOTS ? (uint64_t)(act > SMK_WARP_SIZE ? SMK_WARP_SIZE : act) << (QU_PK_W * k) : 0;
}
static inline uint64_t qu_cp_sum_i(uint32_t cp_v, const uint8_t *cp_ks, const uint8_t *cp_act)
{
    uint64_t sum = 0;
    for (uint32_t x = cp_v & (uint32_t)SMK_MASK(SMK_CP); x; x &= x - 1) {
        const int p = smk_ctz(x);
        sum += qu_cp1_i(cp_ks[p], cp_act[p]);
    }
    return sum;
}
/* one issue of slot ks, packed */
static inline uint64_t qu_iss1_i(uint32_t ks)
{
    const uint32_t k = ks & (uint32_t)SMK_MASK(SMK_KS_W);
    return k < SMK_KSLOTS ? (uint64_t)1 << (QU_PK_W * k) : 0;
}
/* the issue ports, packed */
static inline uint64_t qu_iss_sum_i(uint32_t iss_v, const uint8_t *iss_ks)
{
    uint64_t sum = 0;
    for (uint32_t x = iss_v & (uint32_t)SMK_MASK(SMK_SCHED); x; x &= x - 1)
        sum += qu_iss1_i(iss_ks[smk_ctz(x)]);
    return sum;
}
#endif
/* the same from the issue and completion ports */
static inline void qu_count_i(quota_unit_t *q, uint32_t mode, uint32_t iss_v, const uint8_t *iss_ks, uint32_t cp_v,
                              const uint8_t *cp_ks, const uint8_t *cp_act, uint32_t ks_active)
{
#if QU_PK
    qu_count_pk_i(q, mode, qu_iss_sum_i(iss_v, iss_ks), qu_cp_sum_i(cp_v, cp_ks, cp_act), ks_active);
#else
    uint32_t tin[SMK_KSLOTS], iin[SMK_KSLOTS];
    qu_sums_i(iss_v, iss_ks, cp_v, cp_ks, cp_act, tin, iin);
    qu_apply_stage1_i(q, mode);
    memcpy(q->tin_r, tin, sizeof tin);
    memcpy(q->iin_r, iin, sizeof iin);
    qu_timers_i(q, ks_active);
#endif
}
/* qu_commit in the common cycle (qu_common_i): exactly what qu_commit changes then (qu_count_i);
 * returns 0 (nothing done) in any other cycle */
static inline int qu_commit_quiet_i(quota_unit_t *q, const qu_in_t *in)
{
    if (!qu_common_i(q, in->csr_we, in->ks_active))
        return 0;
    qu_count_i(q, qu_mode_i(q), in->iss_v, in->iss_ks, in->cp_v, in->cp_ks, in->cp_act, in->ks_active);
    return 1;
}
/* qallow depends on the state and ks_active only, policy on the state only: warp_sched reads them
 * before qu_eval (ks_active is warp_sched's output of its registered state, known before its eval). */
uint32_t qu_qallow(const quota_unit_t *q, uint32_t ks_active);
uint32_t qu_policy(const quota_unit_t *q);
void qu_eval(const quota_unit_t *q, const qu_in_t *in, qu_out_t *out);
/* The same, with pos = qu_pos_i(q) given by the caller; qu_eval is its only caller (the SM top's hot
 * path calls the inline qu_eval_i directly). */
void qu_eval_p(const quota_unit_t *q, const qu_in_t *in, qu_out_t *out, uint32_t pos);
void qu_commit(quota_unit_t *q, const qu_in_t *in, const qu_out_t *out);

#ifdef __cplusplus
}
#endif
#endif
