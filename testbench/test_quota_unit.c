/* test_quota_unit.c: Criterion unit tests of the quota_unit C model (cmodel/quota_unit.c).
 * The contract is docs/quota_unit.md (and hw/regmap.def); every expected value below is derived
 * from it, written with the SMK_* macros so that the tests hold on every configuration hwgen
 * accepts (any SMK_KSLOTS, SMK_SCHED, SMK_CP; quotas, epochs and statistics within QUOTA_W,
 * EPOCH_W and STAT_W bits). A test that needs more than a configuration has (two kernel slots,
 * two completion ports, the papers' numbers) says so with U_NEEDS and is skipped there.
 *
 * Conventions: "cycle" = qu_eval (outputs checked) then qu_commit. Set-up register writes (wr)
 * are cycles of their own with no other activity (ks_active = 0, no issues or completions).
 * Stage 1 (docs/quota_unit.md): the issues and completions of cycle n reach the counters and the
 * live statistics at the edge of cycle n + 1. The papers' worked examples (fcyc) put the
 * completions of the papers' cycle n on the ports in cycle n - 1, so that the counters after each
 * cycle are the papers' values. */
#include <criterion/criterion.h>

#include "unit_util.h"

/* a model that loops fails the test instead of hanging the run */
TestSuite(quota_unit, .timeout = 60);

#define NK SMK_KSLOTS
#define NS SMK_SCHED
#define NCP SMK_CP
#define QW SMK_QUOTA_W
#define QMAX ((int32_t)((INT64_C(1) << (QW - 1)) - 1))
#define QMIN ((int32_t)(-(INT64_C(1) << (QW - 1))))
#define SMAX ((uint32_t)SMK_MASK(SMK_STAT_W))
#define EMAX ((uint32_t)SMK_MASK(SMK_EPOCH_W))
#define KALL ((uint32_t)SMK_MASK(NK))
#define WS SMK_WARP_SIZE
#define KB ((uint32_t)(NK > 1 ? 1 : 0)) /* a second slot where there is one */
#define KL ((uint32_t)(NK - 1))         /* the last slot */
/* the papers' worked examples (Fig. 4a/4b/4c): two kernels, two completions in one cycle, warps of
 * 32 threads */
#define FIG4_NEEDS() U_NEEDS(NK >= 2 && NCP >= 2 && WS >= 32)
#define R(name) ((uint32_t)SMK_REG_##name)

#define OFF SMK_QMODE_OFF
#define SMK SMK_QMODE_SMK
#define QOS SMK_QMODE_QOS
#define NAIVE SMK_QSCHEME_NAIVE
#define ELASTIC SMK_QSCHEME_ELASTIC
#define ROLLOVER SMK_QSCHEME_ROLLOVER
#define RTIME SMK_QSCHEME_ROLLOVER_TIME

typedef struct {
    quota_unit_t q;
    qu_in_t in; /* inputs of the next cycle; ks_active, idle_cnt persist, activity is cleared */
    qu_out_t out;
} qb_t;

static void qb_init(qb_t *b)
{
    memset(b, 0, sizeof *b);
    qu_reset(&b->q);
}
static void clear_act(qb_t *b)
{
    b->in.iss_v = 0, b->in.cp_v = 0;
    memset(b->in.iss_ks, 0, sizeof b->in.iss_ks);
    memset(b->in.cp_ks, 0, sizeof b->in.cp_ks);
    memset(b->in.cp_act, 0, sizeof b->in.cp_act);
}
/* the worked examples (Fig. 4a/4b/4c, the SMK quota example) name schedulers, ports and slots: where
 * this configuration has fewer, the test is skipped, saying so */
static void need(int have, int idx, const char *what)
{
    if (idx >= have)
        cr_skip_test("the example uses %s %d; this configuration has %d", what, idx, have);
}
static void iss(qb_t *b, int s, uint32_t ks)
{
    need(SMK_SCHED, s, "scheduler"), need(SMK_KSLOTS, (int)ks, "kernel slot");
    b->in.iss_v |= 1u << s, b->in.iss_ks[s] = (uint8_t)ks;
}
static void cpl(qb_t *b, int p, uint32_t ks, uint32_t act)
{
    need(SMK_CP, p, "completion port"), need(SMK_KSLOTS, (int)ks, "kernel slot");
    b->in.cp_v |= 1u << p, b->in.cp_ks[p] = (uint8_t)ks, b->in.cp_act[p] = (uint8_t)act;
}
/* one cycle with b->in; activity (issues, completions) is cleared afterwards */
static void cyc(qb_t *b)
{
    qu_step(&b->q, &b->in, &b->out);
    clear_act(b);
}
/* set-up register write: one cycle with no activity and no active slot */
static void wr(qb_t *b, uint32_t addr, uint32_t data)
{
    const qu_in_t idle = {0};
    b->out = qu_write(&b->q, &idle, addr, data);
}
/* CMD.EPOCH_START with b->in's ks_active / idle_cnt / activity (activity cleared afterwards) */
static void cmd_start(qb_t *b)
{
    b->out = qu_write(&b->q, &b->in, R(CMD), 1u << SMK_CMD_EPOCH_START_LSB);
    cr_assert_eq(b->out.epoch_end, 1u, "CMD.EPOCH_START cycle is a boundary");
    clear_act(b);
}
/* CMD = 3 (EPOCH_START and SNAP): a counter boundary that also ends the statistics window and
 * restarts the timers, i.e. what CMD.EPOCH_START alone did before issue 5 (docs/qos_mgr.md 11) */
static void cmd_both(qb_t *b)
{
    b->out = qu_write(&b->q, &b->in, R(CMD), (1u << SMK_CMD_EPOCH_START_LSB) | (1u << SMK_CMD_SNAP_LSB));
    cr_assert_eq(b->out.epoch_end, 1u, "CMD = 3 cycle is a boundary");
    clear_act(b);
}
static uint32_t rd(const qb_t *b, uint32_t a) { return qu_read(&b->q, a); }
static int32_t cnt(const qb_t *b, int k) { return (int32_t)rd(b, R(CNT) + (uint32_t)k); }
static void wr_cnt(qb_t *b, int k, int32_t v) { wr(b, R(CNT) + (uint32_t)k, (uint32_t)v); }
static void wr_quota(qb_t *b, int k, uint32_t v) { wr(b, R(QUOTA) + (uint32_t)k, v); }
static void expect_cnts(const qb_t *b, const int64_t *exp, const char *tag)
{
    for (int k = 0; k < NK; k++)
        cr_assert_eq(cnt(b, k), (int32_t)exp[k], "%s: CNT[%d] = %d, expected %lld", tag, k, cnt(b, k),
                     (long long)exp[k]);
}
/* One cycle of a decrement test (stage 1): e holds the counters with every decrement put on the
 * ports so far, ep those without this cycle's (the expectation after this edge); then ep = e. */
static void lag_cyc(qb_t *b, int64_t *ep, const int64_t *e, const char *tag)
{
    cyc(b);
    expect_cnts(b, ep, tag);
    memcpy(ep, e, NK * sizeof *ep);
}
/* qallow that docs/quota_unit.md rule 2 gives for the current counters in a gating mode, read back
 * through the registers: cnt > 0; under QOS / ROLLOVER_TIME the non-QoS slots also wait while a QoS
 * slot with warps on the SM (b->in.ks_active) has cnt > 0 */
static uint32_t qallow_of_cnts(const qb_t *b)
{
    uint32_t m = 0;
    for (int k = 0; k < NK; k++)
        m |= (uint32_t)(cnt(b, k) > 0) << k;
    const uint32_t ctrl = rd(b, R(SM_CTRL)), qm = rd(b, R(QOS_MASK));
    if ((ctrl >> SMK_SM_CTRL_QMODE_LSB & 3) == QOS && (ctrl >> SMK_SM_CTRL_QSCHEME_LSB & 3) == RTIME &&
        (m & qm & b->in.ks_active) != 0)
        m &= qm;
    return m;
}

/* One scripted cycle of the papers' examples (QoS mode): completions on port 0 and port 1
 * (ks < 0: none) -- the papers' completions of the NEXT cycle, which stage 1 charges at the next
 * edge --, the expected epoch_end of this cycle and the counters of slots 0, 1 after it (the
 * papers' values of this cycle). qallow of the cycle must follow the counters before it. The first
 * cycle's completions are on the ports in the boundary cycle before it (fpre). */
static void fcyc(qb_t *b, int ks0, int act0, int ks1, int act1, int end, int32_t e0, int32_t e1, const char *tag)
{
    const uint32_t qa = qallow_of_cnts(b);
    if (ks0 >= 0)
        cpl(b, 0, (uint32_t)ks0, (uint32_t)act0);
    if (ks1 >= 0)
        cpl(b, 1, (uint32_t)ks1, (uint32_t)act1);
    qu_eval(&b->q, &b->in, &b->out);
    cr_assert_eq(b->out.qallow, qa, "%s: qallow %x, expected %x", tag, b->out.qallow, qa);
    cr_assert_eq(b->out.epoch_end, (uint32_t)end, "%s: epoch_end", tag);
    qu_commit(&b->q, &b->in, &b->out);
    clear_act(b);
    cr_assert_eq(cnt(b, 0), e0, "%s: C0 = %d, expected %d", tag, cnt(b, 0), e0);
    cr_assert_eq(cnt(b, 1), e1, "%s: C1 = %d, expected %d", tag, cnt(b, 1), e1);
}

/* the papers' completions of the first cycle, on the ports of the boundary cycle before it */
static void fpre(qb_t *b, int ks0, int act0, int ks1, int act1)
{
    if (ks0 >= 0)
        cpl(b, 0, (uint32_t)ks0, (uint32_t)act0);
    if (ks1 >= 0)
        cpl(b, 1, (uint32_t)ks1, (uint32_t)act1);
}

/* ---- registers ------------------------------------------------------------------------------ */

Test(quota_unit, reset_values, .description = "all state 0 at reset; every address reads 0; qallow all, policy 0, no epoch_end")
{
    quota_unit_t q, z;
    memset(&q, 0xa5, sizeof q);
    memset(&z, 0, sizeof z);
    qu_reset(&q);
    cr_assert(memcmp(&q, &z, sizeof q) == 0, "internal state not all 0 after reset");
    for (uint32_t a = 0; a < (1u << SMK_ADDR_W); a++) {
        qu_in_t in = {0};
        qu_out_t o;
        memset(&o, 0xff, sizeof o);
        in.rd_addr = a;
        qu_eval(&q, &in, &o);
        cr_assert_eq(qu_read(&q, a), 0u, "addr 0x%x", a);
        cr_assert_eq(o.rd_data, 0u, "addr 0x%x", a);
        cr_assert_eq(o.qallow, KALL);
        cr_assert_eq(o.policy, 0u);
        cr_assert_eq(o.epoch_end, 0u);
    }
}

Test(quota_unit, register_read_write, .description = "every rw register: write/read back, field masks, QUOTA QW-1 bits, CNT sign extension, SM_CTRL 6 bits")
{
    qb_t b;
    qb_init(&b);
    const uint32_t hi = QW < 32 ? ~(uint32_t)SMK_MASK(QW) : 0; /* bits above QW */
    const struct {
        uint32_t a, d, exp;
    } t[] = {
        {R(EPOCH_LEN), 0xffffffffu, EMAX},
        {R(EPOCH_LEN), 0xabcd1234u, 0xabcd1234u & EMAX},
        {R(SAMPLE_PER), 0xffffffffu, EMAX},
        {R(SAMPLE_PER), 0x5a5a0007u, 0x5a5a0007u & EMAX},
        {R(QOS_MASK), 0xffffffffu, KALL},
        {R(QOS_MASK), 0xfffffff5u, 0xfffffff5u & KALL},
        {R(SM_CTRL), 0xffffffffu, 0x3fu},
        {R(SM_CTRL), 0xffffffd5u, 0x15u},
        {R(SM_CTRL), u_ctrl(1, 0, 0, 0), 1u},
        {R(SM_CTRL), u_ctrl(0, 3, 0, 0), 6u},
        {R(SM_CTRL), u_ctrl(0, 0, 3, 0), 0x18u},
        {R(SM_CTRL), u_ctrl(0, 0, 0, 1), 0x20u},
        {R(SM_CTRL), 0xffffffc0u, 0u},
        {R(EPOCH_LEN), 0, 0},
        {R(SAMPLE_PER), 0, 0},
    };
    for (int i = 0; i < (int)(sizeof t / sizeof t[0]); i++) {
        wr(&b, t[i].a, t[i].d);
        cr_assert_eq(rd(&b, t[i].a), t[i].exp, "write %d: addr 0x%x data 0x%x read 0x%x expected 0x%x", i,
                     t[i].a, t[i].d, rd(&b, t[i].a), t[i].exp);
    }
    wr(&b, R(SM_CTRL), 0x15);
    qu_eval(&b.q, &b.in, &b.out);
    cr_assert_eq(b.out.policy, 1u, "POLICY field drives policy");
    wr(&b, R(SM_CTRL), 0x14);
    qu_eval(&b.q, &b.in, &b.out);
    cr_assert_eq(b.out.policy, 0u);
    wr(&b, R(SM_CTRL), 0);

    for (int k = 0; k < NK; k++) {
        const uint32_t qa = R(QUOTA) + (uint32_t)k, ca = R(CNT) + (uint32_t)k;
        wr(&b, qa, 0xffffffffu);
        cr_assert_eq(rd(&b, qa), (uint32_t)QMAX, "QUOTA[%d] takes QW-1 bits", k);
        wr(&b, qa, 1u << (QW - 1));
        cr_assert_eq(rd(&b, qa), 0u, "QUOTA[%d]: bit QW-1 dropped", k);
        wr(&b, qa, (1u << (QW - 1)) | 1234u);
        cr_assert_eq(rd(&b, qa), 1234u);
        wr(&b, ca, 0xffffffffu);
        cr_assert_eq(rd(&b, ca), 0xffffffffu, "CNT[%d] = -1", k);
        wr(&b, ca, 1u << (QW - 1));
        cr_assert_eq(rd(&b, ca), (uint32_t)QMIN, "CNT[%d]: bit QW-1 is the sign, read sign-extended", k);
        wr(&b, ca, hi | (uint32_t)QMAX);
        cr_assert_eq(rd(&b, ca), (uint32_t)QMAX, "CNT[%d]: bits above QW ignored", k);
        wr(&b, ca, (uint32_t)SMK_MASK(QW));
        cr_assert_eq(rd(&b, ca), 0xffffffffu, "CNT[%d]: QW ones = -1", k);
        wr(&b, ca, hi | 5u);
        cr_assert_eq(rd(&b, ca), 5u);
    }
    /* distinct values everywhere, then read all back: no cross-talk */
    for (int k = 0; k < NK; k++) {
        wr_quota(&b, k, 1000u * (uint32_t)(k + 1));
        wr_cnt(&b, k, -7 * (k + 1));
    }
    wr(&b, R(EPOCH_LEN), 321u & EMAX);
    wr(&b, R(SAMPLE_PER), 45);
    wr(&b, R(QOS_MASK), 2u & KALL);
    wr(&b, R(SM_CTRL), u_ctrl(1, OFF, ROLLOVER, 1));
    for (int k = 0; k < NK; k++) {
        cr_assert_eq(rd(&b, R(QUOTA) + (uint32_t)k), 1000u * (uint32_t)(k + 1));
        cr_assert_eq(cnt(&b, k), -7 * (k + 1));
    }
    cr_assert_eq(rd(&b, R(EPOCH_LEN)), 321u & EMAX);
    cr_assert_eq(rd(&b, R(SAMPLE_PER)), 45u);
    cr_assert_eq(rd(&b, R(QOS_MASK)), 2u & KALL);
    cr_assert_eq(rd(&b, R(SM_CTRL)), 0x31u);
}

/* Non-zero, distinct values in every piece of state (white box), mode OFF, no boundary or
 * sampling tick within a few cycles. */
static void fill_state(quota_unit_t *q)
{
    qu_reset(q);
    q->sm_ctrl = u_ctrl(1, OFF, ROLLOVER, 1);
    q->epoch_len = 1234u & EMAX, q->sample_per = 56, q->qos_mask = 0x5u & KALL;
    q->epochs = 11, q->ep_cycles = 12, q->ep_samples = 13, q->nsamp = 14, q->ecnt = 15, q->scnt = 16;
    for (int k = 0; k < NK; k++) {
        q->quota[k] = 1000u + (uint32_t)k, q->cnt[k] = -(k + 1);
        q->thr[k] = 500u + (uint32_t)k, q->wis[k] = 600u + (uint32_t)k;
        q->idle[k] = 700u + (uint32_t)k, q->cyc[k] = 800u + (uint32_t)k;
        q->s_thr[k] = 100u + (uint32_t)k, q->s_wis[k] = 200u + (uint32_t)k;
        q->s_idle[k] = 300u + (uint32_t)k, q->s_cyc[k] = 400u + (uint32_t)k;
    }
}

Test(quota_unit, read_map, .description = "read of every address: mapped registers, snapshots (not live), 0 for CMD, unmapped and slot >= K")
{
    qb_t b;
    qb_init(&b);
    fill_state(&b.q);
    uint32_t exp[1u << SMK_ADDR_W] = {0};
    exp[R(SM_CTRL)] = 0x31, exp[R(EPOCH_LEN)] = 1234u & EMAX, exp[R(SAMPLE_PER)] = 56, exp[R(QOS_MASK)] = 0x5u & KALL;
    exp[R(EPOCH_CNT)] = 11, exp[R(EP_CYCLES)] = 12, exp[R(EP_SAMPLES)] = 13;
    for (uint32_t k = 0; k < NK; k++) {
        exp[R(QUOTA) + k] = 1000u + k;
        exp[R(CNT) + k] = (uint32_t)-(int32_t)(k + 1);
        exp[R(STAT_THR) + k] = 100u + k, exp[R(STAT_WIS) + k] = 200u + k;
        exp[R(STAT_IDLE) + k] = 300u + k, exp[R(STAT_CYC) + k] = 400u + k;
    }
    for (uint32_t a = 0; a < (1u << SMK_ADDR_W); a++) {
        cr_assert_eq(qu_read(&b.q, a), exp[a], "addr 0x%02x: read 0x%x expected 0x%x", a, qu_read(&b.q, a), exp[a]);
        b.in.rd_addr = a;
        qu_eval(&b.q, &b.in, &b.out);
        cr_assert_eq(b.out.rd_data, exp[a], "addr 0x%02x: rd_data", a);
    }
}

Test(quota_unit, writes_ignored, .description = "writes to read-only, unmapped, slot >= K addresses, CMD with bits 0 and 1 clear, or with csr_we = 0 change nothing")
{
    qb_t b;
    qb_init(&b);
    fill_state(&b.q);
    for (uint32_t a = 0; a < (1u << SMK_ADDR_W); a++) {
        const int rw = a == R(SM_CTRL) || a == R(EPOCH_LEN) || a == R(SAMPLE_PER) || a == R(QOS_MASK) ||
                       (a >= R(QUOTA) && a < R(QUOTA) + NK) || (a >= R(CNT) && a < R(CNT) + NK);
        if (rw)
            continue;
        const quota_unit_t before = b.q;
        quota_unit_t exp = before;
        exp.ecnt++, exp.scnt++; /* the only change of an idle cycle here */
        wr(&b, a, a == R(CMD) ? 0xfffffffcu : 0xffffffffu);
        cr_assert_eq(b.out.epoch_end, 0u, "addr 0x%02x", a);
        cr_assert(memcmp(&b.q, &exp, sizeof exp) == 0, "write to addr 0x%02x changed state", a);
        b.q = before;
    }
    /* csr_we = 0 */
    const quota_unit_t before = b.q;
    quota_unit_t exp = before;
    exp.ecnt++, exp.scnt++;
    b.in.csr_we = 0, b.in.csr_addr = R(QUOTA), b.in.csr_wdata = 77;
    cyc(&b);
    cr_assert(memcmp(&b.q, &exp, sizeof exp) == 0, "csr_we = 0 wrote");
    b.in.csr_addr = R(CMD), b.in.csr_wdata = 1;
    qu_eval(&b.q, &b.in, &b.out);
    cr_assert_eq(b.out.epoch_end, 0u, "CMD without csr_we");
}

Test(quota_unit, rd_data_combinational, .description = "rd_data is the current state: a write shows from the next cycle")
{
    qb_t b;
    qb_init(&b);
    b.in.rd_addr = R(QUOTA) + KL;
    b.out = qu_write(&b.q, &b.in, R(QUOTA) + KL, 77);
    cr_assert_eq(b.out.rd_data, 0u);
    qu_eval(&b.q, &b.in, &b.out);
    cr_assert_eq(b.out.rd_data, 77u);
    b.in.rd_addr = R(CNT);
    b.out = qu_write(&b.q, &b.in, R(CNT), (uint32_t)-5);
    cr_assert_eq(b.out.rd_data, 0u);
    qu_eval(&b.q, &b.in, &b.out);
    cr_assert_eq(b.out.rd_data, (uint32_t)-5);
}

/* ---- gating --------------------------------------------------------------------------------- */

Test(quota_unit, qallow_per_mode, .description = "OFF and QMODE 3: all allowed; SMK and QOS (any scheme, no QoS slot): cnt > 0")
{
    qb_t b;
    qb_init(&b);
    const int32_t pat[6] = {5, 0, -3, 1, QMAX, QMIN};
    uint32_t pos = 0;
    for (int k = 0; k < NK; k++) {
        wr_cnt(&b, k, pat[k % 6]);
        pos |= (uint32_t)(pat[k % 6] > 0) << k;
    }
    const struct {
        uint32_t ctrl, qallow, policy;
    } t[] = {
        {u_ctrl(0, OFF, NAIVE, 0), KALL, 0},
        {u_ctrl(1, SMK, NAIVE, 0), pos, 1},
        {u_ctrl(0, QOS, NAIVE, 0), pos, 0},
        {u_ctrl(1, 3, NAIVE, 0), KALL, 1},
        {u_ctrl(0, QOS, ELASTIC, 0), pos, 0},
        {u_ctrl(1, QOS, ROLLOVER, 1), pos, 1},
        {u_ctrl(0, QOS, RTIME, 0), pos, 0}, /* QOS_MASK 0: no QoS slot holds the others */
        {u_ctrl(0, SMK, ROLLOVER, 1), pos, 0},
        {u_ctrl(1, OFF, ELASTIC, 1), KALL, 1},
    };
    uint32_t prev = KALL;
    for (int i = 0; i < (int)(sizeof t / sizeof t[0]); i++) {
        wr(&b, R(SM_CTRL), t[i].ctrl);
        cr_assert_eq(b.out.qallow, prev, "case %d: the write cycle still sees the old mode", i);
        qu_eval(&b.q, &b.in, &b.out);
        cr_assert_eq(b.out.qallow, t[i].qallow, "case %d: qallow 0x%x expected 0x%x", i, b.out.qallow, t[i].qallow);
        cr_assert_eq(b.out.policy, t[i].policy, "case %d: policy", i);
        cr_assert_eq(qu_qallow(&b.q, b.in.ks_active), t[i].qallow, "case %d: qu_qallow (state only)", i);
        cr_assert_eq(qu_policy(&b.q), t[i].policy, "case %d: qu_policy (state only)", i);
        prev = t[i].qallow;
    }
    for (int k = 0; k < NK; k++)
        cr_assert_eq(cnt(&b, k), pat[k % 6], "counters unchanged without activity");
}

static void off_mode_holds(uint32_t mode)
{
    qb_t b;
    qb_init(&b);
    int64_t e[NK];
    for (int k = 0; k < NK; k++) {
        wr_quota(&b, k, 50);
        wr_cnt(&b, k, -k); /* all <= 0: "exhausted" */
        e[k] = -k;
    }
    wr(&b, R(EPOCH_LEN), 3);
    wr(&b, R(QOS_MASK), 1);
    wr(&b, R(SM_CTRL), u_ctrl(0, mode, ELASTIC, 0));
    b.in.ks_active = KALL;
    int ends = 0;
    for (int i = 0; i < 10; i++) {
        for (int s = 0; s < NS; s++)
            iss(&b, s, 0);
        for (int p = 0; p < NCP; p++)
            cpl(&b, p, (uint32_t)p % NK, WS);
        qu_eval(&b.q, &b.in, &b.out);
        cr_assert_eq(b.out.qallow, KALL);
        ends += (int)b.out.epoch_end;
        cyc(&b);
        expect_cnts(&b, e, "mode OFF");
    }
    cr_assert_gt(ends, 0, "timed boundaries happened (and did not load QUOTA)");
    cmd_start(&b);
    expect_cnts(&b, e, "CMD in mode OFF");
    wr_cnt(&b, NK - 1, 99);
    e[NK - 1] = 99;
    expect_cnts(&b, e, "CNT write lands in mode OFF");
}
Test(quota_unit, off_mode_counters_hold, .description = "QMODE OFF: counters hold through issues, completions, exhaustion and boundaries; CNT writes land")
{
    off_mode_holds(OFF);
}
Test(quota_unit, qmode3_behaves_as_off, .description = "QMODE 3 behaves exactly as OFF")
{
    off_mode_holds(3);
}

/* ---- SMK mode ------------------------------------------------------------------------------- */

Test(quota_unit, smk_decrement, .description = "SMK: -1 per issue, issues of several schedulers to one slot add up, completions do not decrement")
{
    qb_t b;
    qb_init(&b);
    wr(&b, R(SM_CTRL), u_ctrl(0, SMK, NAIVE, 0));
    int64_t e[NK], ep[NK]; /* stage 1: a cycle's issues decrement at the next edge (lag_cyc) */
    uint32_t wis[NK] = {0};
    for (int k = 0; k < NK; k++)
        wr_cnt(&b, k, 100), e[k] = 100, ep[k] = 100;
    b.in.ks_active = KALL;

    for (int s = 0; s < NS; s++) /* c1: every scheduler issues slot 0 */
        iss(&b, s, 0), e[0]--, wis[0]++;
    lag_cyc(&b, ep, e, "c1");
    cr_assert_eq(cnt(&b, 0), 100, "c1's issues are charged at the next edge");
    for (int s = 0; s < NS; s++) { /* c2: schedulers alternate slots 0 and KB */
        const uint32_t k = s % 2 ? KB : 0;
        iss(&b, s, k), e[k]--, wis[k]++;
    }
    lag_cyc(&b, ep, e, "c2");
    cr_assert_eq(cnt(&b, 0), 100 - NS);
    for (int s = 0; s < NS; s++) /* c3: iss_ks without iss_v */
        b.in.iss_ks[s] = (uint8_t)KL;
    lag_cyc(&b, ep, e, "c3");
    cr_assert_eq(cnt(&b, 0), 100 - NS - (KB ? (NS + 1) / 2 : NS));
    cr_assert_eq(cnt(&b, (int)KB), KB ? 100 - NS / 2 : 100 - 2 * NS);
    iss(&b, NS - 1, NK - 1), e[NK - 1]--, wis[NK - 1]++; /* c4: last scheduler, last slot */
    lag_cyc(&b, ep, e, "c4");
    for (int p = 0; p < NCP; p++) /* c5: completions do not decrement in SMK mode */
        cpl(&b, p, 0, WS);
    lag_cyc(&b, ep, e, "c5");
    cr_assert_eq(b.out.qallow, KALL);

    cmd_both(&b);
    for (int k = 0; k < NK; k++) {
        cr_assert_eq(rd(&b, R(STAT_WIS) + (uint32_t)k), wis[k], "STAT_WIS[%d]", k);
        cr_assert_eq(rd(&b, R(STAT_THR) + (uint32_t)k), k == 0 ? (uint32_t)(WS * NCP) : 0u, "STAT_THR[%d]", k);
        cr_assert_eq(rd(&b, R(STAT_CYC) + (uint32_t)k), 6u, "STAT_CYC[%d]", k);
        cr_assert_eq(cnt(&b, k), 0, "timed boundary in SMK mode loads QUOTA = 0");
    }
}

Test(quota_unit, smk_refill, .description = "SMK: when all active slots are <= 0, every slot gets base + QUOTA (overshoot charged); no epoch")
{
    U_NEEDS(NS >= 2 && NK >= 2); /* two issues of one slot in a cycle (the overshoot); slots 0 and 1 */
    qb_t b;
    qb_init(&b);
    wr(&b, R(SM_CTRL), u_ctrl(0, SMK, NAIVE, 0));
    int64_t e[NK];
    for (int k = 0; k < NK; k++) {
        const uint32_t qk = k == 0 ? 3 : k == 1 ? 5 : 7;
        wr_quota(&b, k, qk);
        e[k] = k == 0 ? 1 : k == 1 ? 0 : 4; /* inactive slots 2.. are > 0: they do not count */
        wr_cnt(&b, k, (int32_t)e[k]);
    }
    b.in.ks_active = 3;
#define STEP(tag, qa_exp)                                                                        \
    do {                                                                                         \
        qu_eval(&b.q, &b.in, &b.out);                                                            \
        cr_assert_eq(b.out.qallow, (uint32_t)(qa_exp), "%s: qallow 0x%x", tag, b.out.qallow);     \
        cr_assert_eq(b.out.epoch_end, 0u, "%s: SMK refill is not an epoch", tag);                \
        cyc(&b);                                                                                 \
        expect_cnts(&b, e, tag);                                                                 \
    } while (0)
    const uint32_t hi = KALL & ~3u;
    /* stage 1: the issues that the counters show after step X are on the ports in the step before
     * it (P carries A's) */
    iss(&b, 0, 0), iss(&b, 1, 0); /* A's: two schedulers issue the last instruction of slot 0 */
    STEP("P", hi | 1u);
    e[0] = -1;
    STEP("A", hi | 1u);
    iss(&b, 0, 1), iss(&b, 1, 1);  /* C's */
    e[0] = -1 + 3, e[1] = 0 + 5; /* B: exhausted: every slot += QUOTA, overshoot -1 charged */
    for (int k = 2; k < NK; k++)
        e[k] = 4 + 7;
    STEP("B", hi);
    iss(&b, 0, 0), e[1] = 3; /* D's */
    STEP("C", hi | 3u);
    iss(&b, 0, 0), iss(&b, 1, 0), e[0] = 1; /* E's */
    STEP("D", hi | 3u);
    iss(&b, 0, 1), iss(&b, 1, 1), e[0] = -1; /* F's */
    STEP("E", hi | 3u);
    iss(&b, 0, 1), iss(&b, 1, 1), e[1] = 1; /* G's */
    STEP("F", hi | 2u);
    iss(&b, 0, 0), e[1] = -1; /* H's */
    STEP("G", hi | 2u);
    /* H: exhausted, and G's issue of slot 0 charged at this edge: base = -2, + 3 */
    e[0] = -2 + 3, e[1] = -1 + 5;
    for (int k = 2; k < NK; k++)
        e[k] = 11 + 7;
    STEP("H", hi);
    STEP("I", hi | 3u);
#undef STEP
    cr_assert_eq(rd(&b, R(EPOCH_CNT)), 0u);
}

Test(quota_unit, smk_worked_example, .description = "docs/papers.md section 4 SMK example (C1 = 0.1, C2 = 0.25): issue shares 2:5 per epoch")
{
    U_NEEDS(NK >= 2); /* two kernels */
    /* C_k = x% * S_k / T_k with x% (WIPC alone) 0.4 / 0.5, T = 8 / 8 TBs alone, S = 2 / 4 TBs here.
     * In units of 1/80: C = x10 * S * 8 / T. */
    const int x10[2] = {4, 5}, t_alone[2] = {8, 8}, s_here[2] = {2, 4};
    int c80[2];
    for (int k = 0; k < 2; k++)
        c80[k] = x10[k] * s_here[k] * 8 / t_alone[k];
    cr_assert_eq(c80[0], 8, "C1 = 0.1");
    cr_assert_eq(c80[1], 20, "C2 = 0.25");
    /* Quota_k = C_k / sum C = 2/7, 5/7; an epoch of 7 m cycles makes Quota_k x epoch integral: m =
     * 1000, or as many as EPOCH_LEN's EW bits hold */
    const int m = EMAX / 7 < 1000 ? (int)(EMAX / 7) : 1000, epoch = 7 * m;
    int per_sched[2];
    for (int k = 0; k < 2; k++) {
        cr_assert_eq(c80[k] * epoch % (c80[0] + c80[1]), 0);
        per_sched[k] = c80[k] * epoch / (c80[0] + c80[1]);
    }
    cr_assert_eq(per_sched[0], 2 * m);
    cr_assert_eq(per_sched[1], 5 * m);

    /* one counter per SM (docs decision): QUOTA = S x the per-scheduler share */
    qb_t b;
    qb_init(&b);
    wr_quota(&b, 0, (uint32_t)(NS * per_sched[0]));
    wr_quota(&b, 1, (uint32_t)(NS * per_sched[1]));
    wr(&b, R(EPOCH_LEN), (uint32_t)epoch);
    wr(&b, R(SM_CTRL), u_ctrl(0, SMK, NAIVE, 0));
    b.in.ks_active = 3;
    cmd_both(&b);
    cr_assert_eq(cnt(&b, 0), NS * 2 * m);
    cr_assert_eq(cnt(&b, 1), NS * 5 * m);
    for (int ep = 0; ep < 2; ep++) {
        for (int i = 1; i <= epoch; i++) {
            /* an always-ready EWS: kernel 1 (slot 0) has the older warps, so every scheduler
             * issues slot 0 while it is allowed, else slot 1 */
            qu_eval(&b.q, &b.in, &b.out);
            const uint32_t ks = (b.out.qallow & 1) ? 0 : 1;
            /* stage 1: the counter lags the issues by one cycle, so slot 0 issues one cycle more
             * than its share (2m + 1), the overshoot of S charged */
            cr_assert_eq(ks, i <= 2 * m + 1 ? 0u : 1u, "epoch %d cycle %d", ep, i);
            cr_assert(b.out.qallow & 3, "epoch %d cycle %d: some kernel may issue", ep, i);
            cr_assert_eq(b.out.epoch_end, (uint32_t)(i == epoch), "epoch %d cycle %d", ep, i);
            for (int s = 0; s < NS; s++)
                iss(&b, s, ks);
            qu_commit(&b.q, &b.in, &b.out);
            clear_act(&b);
            if (i < epoch) { /* the issues of cycles 1 .. i - 1 (and the last one of the epoch before) */
                const int n0 = i - 1 < 2 * m + 1 ? i - 1 : 2 * m + 1, n1 = i - 1 - n0 + (ep > 0);
                cr_assert_eq(cnt(&b, 0), NS * (2 * m - n0), "epoch %d cycle %d", ep, i);
                cr_assert_eq(cnt(&b, 1), NS * (5 * m - n1), "epoch %d cycle %d", ep, i);
            }
        }
        /* the window holds cycles 1 .. epoch - 1 of its epoch and the last cycle of the one before */
        cr_assert_eq(rd(&b, R(STAT_WIS)), (uint32_t)(NS * (2 * m + 1)), "epoch %d", ep);
        cr_assert_eq(rd(&b, R(STAT_WIS) + 1), (uint32_t)(NS * (5 * m - 2 + (ep > 0))), "epoch %d", ep);
        cr_assert_eq(rd(&b, R(EP_CYCLES)), (uint32_t)epoch);
        cr_assert_eq(rd(&b, R(EPOCH_CNT)), (uint32_t)ep + 2);
        cr_assert_eq(cnt(&b, 0), NS * 2 * m, "loaded at the boundary");
        cr_assert_eq(cnt(&b, 1), NS * 5 * m);
    }
}

/* ---- QoS mode ------------------------------------------------------------------------------- */

Test(quota_unit, qos_decrement, .description = "QOS: - active threads per completion, ports add up, act > warp_size clamped, issues do not decrement")
{
    qb_t b;
    qb_init(&b);
    wr(&b, R(SM_CTRL), u_ctrl(0, QOS, NAIVE, 0));
    int64_t e[NK], ep[NK]; /* stage 1: a cycle's completions decrement at the next edge (lag_cyc) */
    uint32_t thr[NK] = {0};
    for (int k = 0; k < NK; k++)
        wr_cnt(&b, k, 1000), e[k] = 1000, ep[k] = 1000;
    b.in.ks_active = KALL;

    for (int p = 0; p < NCP; p++) /* c1: all ports, slot 0, act p+1 */
        cpl(&b, p, 0, (uint32_t)p + 1), e[0] -= p + 1, thr[0] += (uint32_t)p + 1;
    lag_cyc(&b, ep, e, "c1");
    cr_assert_eq(cnt(&b, 0), 1000, "c1's completions are charged at the next edge");
    /* c2: clamped to warp_size, on the first and the last port (one cycle, or two with one port) */
    cpl(&b, 0, KL, SMK_WARP_SIZE + 1);
    if (NCP == 1) {
        cyc(&b);
        expect_cnts(&b, ep, "c2a");
        ep[KL] -= SMK_WARP_SIZE; /* its completion, charged at c2's edge */
    }
    cpl(&b, NCP - 1, KL, (uint32_t)SMK_MASK(SMK_ACT_W));
    e[KL] -= 2 * SMK_WARP_SIZE, thr[KL] += 2 * SMK_WARP_SIZE;
    lag_cyc(&b, ep, e, "c2");
    cr_assert_eq(cnt(&b, 0), 1000 - NCP * (NCP + 1) / 2 - (KL == 0 && NCP == 1 ? SMK_WARP_SIZE : 0));
    cpl(&b, 0, KL, 0); /* c3: act 0; then a port without cp_v */
    lag_cyc(&b, ep, e, "c3");
    cr_assert_eq(cnt(&b, (int)KL), 1000 - 2 * SMK_WARP_SIZE - (KL == 0 ? NCP * (NCP + 1) / 2 : 0));
    b.in.cp_ks[NCP - 1] = (uint8_t)KL, b.in.cp_act[NCP - 1] = 20;
    lag_cyc(&b, ep, e, "c3b");
    for (int s = 0; s < NS; s++) /* c4: issues do not decrement in QOS mode */
        iss(&b, s, 0);
    lag_cyc(&b, ep, e, "c4");
    for (int p = 0; p < NCP; p++) /* c5: every port to a different slot */
        cpl(&b, p, (uint32_t)p % NK, WS), e[p % NK] -= WS, thr[p % NK] += WS;
    lag_cyc(&b, ep, e, "c5");
    cr_assert_eq(b.out.epoch_end, 0u);

    cmd_both(&b);
    for (int k = 0; k < NK; k++) {
        cr_assert_eq(rd(&b, R(STAT_THR) + (uint32_t)k), thr[k], "STAT_THR[%d]", k);
        cr_assert_eq(rd(&b, R(STAT_WIS) + (uint32_t)k), k == 0 ? (uint32_t)NS : 0u, "STAT_WIS[%d]", k);
    }
}

/* ---- stage 1: the per-slot sums of a cycle reach the counters and statistics one edge later ---- */

/* the stage-1 tests' bench: QOS / NAIVE, CNT[0] = 100, slot 0 active */
static void st1_init(qb_t *b)
{
    qb_init(b);
    wr(b, R(SM_CTRL), u_ctrl(0, QOS, NAIVE, 0));
    wr_cnt(b, 0, 100);
    b->in.ks_active = 1;
}

Test(quota_unit, stage1_latency, .description = "stage 1: a cycle's completions (QOS) and issues (SMK) change the counters and thr / wis at the next edge, not at their own")
{
    qb_t b;
    st1_init(&b);
    cpl(&b, 0, 0, 10); /* A */
    cyc(&b);
    cr_assert_eq(cnt(&b, 0), 100, "A's completion not charged at A's edge");
    cr_assert_eq(b.q.thr[0], 0u);
    cr_assert_eq(b.q.tin_r[0], 10u, "A's sum in stage 1");
    cyc(&b); /* B */
    cr_assert_eq(cnt(&b, 0), 90, "charged at B's edge");
    cr_assert_eq(b.q.thr[0], 10u);
    cr_assert_eq(b.q.tin_r[0], 0u);
    wr(&b, R(SM_CTRL), u_ctrl(0, SMK, NAIVE, 0));
    wr_cnt(&b, 0, 100);
    iss(&b, 0, 0); /* C */
    cyc(&b);
    cr_assert_eq(cnt(&b, 0), 100, "C's issue not charged at C's edge");
    cr_assert_eq(b.q.wis[0], 0u);
    cr_assert_eq(b.q.iin_r[0], 1u);
    cyc(&b); /* D */
    cr_assert_eq(cnt(&b, 0), 99);
    cr_assert_eq(b.q.wis[0], 1u);
}

Test(quota_unit, stage1_mode_change, .description = "stage 1 across an SM_CTRL write: the sums are applied under the mode of the cycle that applies them")
{
    qb_t b;
    st1_init(&b);
    /* A: a completion in the last QOS cycle (the SM_CTRL write to SMK lands at A's edge) */
    cpl(&b, 0, 0, 10);
    b.out = qu_write(&b.q, &b.in, R(SM_CTRL), u_ctrl(0, SMK, NAIVE, 0));
    clear_act(&b);
    cr_assert_eq(cnt(&b, 0), 100);
    cyc(&b); /* B, SMK: stage 1 holds A's 10 threads and no issue: dec = iin_r = 0 */
    cr_assert_eq(cnt(&b, 0), 100, "A's completion is not charged under SMK");
    cr_assert_eq(b.q.thr[0], 10u, "but counted in thr");
    /* C: an issue in the last SMK cycle (the write back to QOS lands at C's edge) */
    iss(&b, 0, 0);
    b.out = qu_write(&b.q, &b.in, R(SM_CTRL), u_ctrl(0, QOS, NAIVE, 0));
    clear_act(&b);
    cyc(&b); /* D, QOS: dec = tin_r = 0 */
    cr_assert_eq(cnt(&b, 0), 100, "C's issue is not charged under QOS");
    cr_assert_eq(b.q.wis[0], 1u, "but counted in wis");
    /* and under OFF the counters hold whatever stage 1 holds */
    cpl(&b, 0, 0, 10);
    b.out = qu_write(&b.q, &b.in, R(SM_CTRL), u_ctrl(0, OFF, NAIVE, 0));
    clear_act(&b);
    cyc(&b);
    cr_assert_eq(cnt(&b, 0), 100, "OFF: counters hold");
    cr_assert_eq(b.q.thr[0], 20u);
}

Test(quota_unit, stage1_cnt_write_and_boundary, .description = "stage 1 is not cleared: a CNT write or a boundary takes the last cycle's sums, its own cycle's go to the next edge")
{
    qb_t b;
    qb_init(&b);
    wr_quota(&b, 0, 40);
    wr(&b, R(SM_CTRL), u_ctrl(0, QOS, NAIVE, 0));
    wr_cnt(&b, 0, 100);
    b.in.ks_active = 1;
    cpl(&b, 0, 0, 10); /* A */
    cyc(&b);
    cpl(&b, 0, 0, 7); /* B: CNT = 50 written, A's 10 consumed by the computed value it replaces */
    b.out = qu_write(&b.q, &b.in, R(CNT), 50);
    clear_act(&b);
    cr_assert_eq(cnt(&b, 0), 50);
    cr_assert_eq(b.q.tin_r[0], 7u);
    cyc(&b); /* C: B's 7 charged against the written value */
    cr_assert_eq(cnt(&b, 0), 43);
    cpl(&b, 0, 0, 3); /* D */
    cyc(&b);
    cpl(&b, 0, 0, 5); /* E: a Naive boundary loads QUOTA (D's 3 discarded with base) */
    cmd_start(&b);
    cr_assert_eq(cnt(&b, 0), 40);
    cyc(&b); /* F: E's 5 charge the new epoch */
    cr_assert_eq(cnt(&b, 0), 35);
    cr_assert_eq(b.q.thr[0], 25u, "every completion counted once");
}

/* ISCA'17 Fig. 4a: Naive. K0 QoS quota 100, K1 non-QoS quota 50, epoch 20 cycles. */
static void naive_fig4a(uint32_t scheme)
{
    FIG4_NEEDS();
    qb_t b;
    qb_init(&b);
    wr_quota(&b, 0, 100);
    wr_quota(&b, 1, 50);
    wr(&b, R(QOS_MASK), 1);
    wr(&b, R(EPOCH_LEN), 20);
    wr(&b, R(SM_CTRL), u_ctrl(0, QOS, scheme, 0));
    b.in.ks_active = 3;
    fpre(&b, 0, 32, 0, 32);
    cmd_both(&b);
    cr_assert_eq(cnt(&b, 0), 100);
    cr_assert_eq(cnt(&b, 1), 50);
    cr_assert_eq(rd(&b, R(EPOCH_CNT)), 1u);
    fcyc(&b, 0, 32, 1, 32, 0, 36, 50, "c1");
    fcyc(&b, 0, 4, 1, 32, 0, 4, 18, "c2");
    fcyc(&b, -1, 0, 1, 20, 0, 0, -14, "c3"); /* both exhausted: K0 at exactly 0, K1 below */
    fcyc(&b, 1, 32, -1, 0, 0, 0, 16, "c4");  /* K1 += 50 (after an in-flight -20), K0 unchanged */
    fcyc(&b, -1, 0, -1, 0, 0, 0, -16, "c5");
    fcyc(&b, -1, 0, -1, 0, 0, 0, 34, "c6"); /* exhausted again: K1 += 50 */
    for (int c = 7; c < 20; c++)
        fcyc(&b, -1, 0, -1, 0, 0, 0, 34, "c7-19");
    fcyc(&b, -1, 0, -1, 0, 1, 100, 50, "c20"); /* next epoch: both reset to their quotas */
    for (int k = 2; k < NK; k++)
        cr_assert_eq(cnt(&b, k), 0, "slot %d (QUOTA 0) stays 0", k);
    cr_assert_eq(rd(&b, R(EPOCH_CNT)), 2u, "no early epoch in Naive");
    cr_assert_eq(rd(&b, R(EP_CYCLES)), 20u);
    cr_assert_eq(rd(&b, R(STAT_THR)), 100u);
    cr_assert_eq(rd(&b, R(STAT_THR) + 1), 116u);
    cr_assert_eq(rd(&b, R(STAT_CYC)), 20u);
    cr_assert_eq(rd(&b, R(STAT_CYC) + 1), 20u);
}
Test(quota_unit, naive_fig4a, .description = "Fig. 4a Naive: non-QoS K1 refilled +50 carrying overshoot, QoS K0 not; both reset at the epoch")
{
    naive_fig4a(NAIVE);
}

Test(quota_unit, elastic_fig4b, .description = "Fig. 4b Elastic: all <= 0 starts a new epoch at once, C_k += quota, epoch_end; since issue 5 no snapshot, EPOCH_CNT and timers unchanged")
{
    FIG4_NEEDS();
    /* the statistics window: 1000 cycles, or as many as EPOCH_LEN's EW bits hold */
    const uint32_t L = EMAX < 1000 ? EMAX : 1000;
    qb_t b;
    qb_init(&b);
    wr_quota(&b, 0, 100);
    wr_quota(&b, 1, 50);
    wr(&b, R(QOS_MASK), 1);
    wr(&b, R(EPOCH_LEN), L);
    wr(&b, R(SM_CTRL), u_ctrl(0, QOS, ELASTIC, 0));
    b.in.ks_active = 3;
    fpre(&b, 0, 32, 0, 32);
    cmd_both(&b); /* cycle 5 (ecnt 5): window 1 = 6 cycles, slots active only in its last */
    cr_assert_eq(rd(&b, R(EPOCH_CNT)), 1u);
    cr_assert_eq(rd(&b, R(EP_CYCLES)), 6u);
    cr_assert_eq(rd(&b, R(STAT_CYC)), 1u);
    cr_assert_eq(rd(&b, R(STAT_THR)), 0u, "the boundary cycle's completions are in window 2");
    fcyc(&b, 0, 32, 1, 32, 0, 36, 50, "c1");
    fcyc(&b, 0, 10, 1, 32, 0, 4, 18, "c2");
    fcyc(&b, -1, 0, 1, 5, 0, -6, -14, "c3");
    /* c4: all <= 0: early boundary; overshoot carried, an in-flight completion of K1 charged */
    fcyc(&b, -1, 0, -1, 0, 1, -6 + 100, -19 + 50, "c4");
    /* issue 5 (docs/qos_mgr.md 11): an early start is a counter refill only; the statistics of
     * window 1 stay, the live ones go on (K0 64 + 32 + 10, K1 32 + 32 + 5), timers not restarted */
    cr_assert_eq(rd(&b, R(EPOCH_CNT)), 1u, "early start is not counted");
    cr_assert_eq(rd(&b, R(EP_CYCLES)), 6u);
    cr_assert_eq(rd(&b, R(STAT_THR)), 0u, "no snapshot at the early start");
    cr_assert_eq(rd(&b, R(STAT_THR) + 1), 0u);
    cr_assert_eq(rd(&b, R(STAT_CYC)), 1u);
    cr_assert_eq(b.q.thr[0], 106u, "live counters go on");
    cr_assert_eq(b.q.thr[1], 69u);
    cr_assert_eq(b.q.cyc[0], 4u);
    cr_assert_eq(b.q.cyc[1], 4u);
    cr_assert_eq(b.q.ecnt, 4u, "epoch timer not restarted");
    cr_assert_eq(b.q.scnt, 4u, "sampling timer not restarted");
    for (int k = 2; k < NK; k++)
        cr_assert_eq(cnt(&b, k), 0);
    /* the timer was not restarted: the next (timed) boundary is L cycles after the CMD, i.e.
     * L - 4 after c4, and a timed boundary under Elastic discards leftovers like Naive */
    for (int c = 1; c < (int)L - 4; c++)
        fcyc(&b, -1, 0, -1, 0, 0, 94, 31, "idle");
    fcyc(&b, -1, 0, -1, 0, 1, 100, 50, "timed");
    cr_assert_eq(rd(&b, R(EP_CYCLES)), L);
    cr_assert_eq(rd(&b, R(EPOCH_CNT)), 2u);
    cr_assert_eq(rd(&b, R(STAT_THR)), 106u, "window 2 spans the early start");
    cr_assert_eq(rd(&b, R(STAT_THR) + 1), 69u);
    cr_assert_eq(rd(&b, R(STAT_CYC)), L);
    cr_assert_eq(rd(&b, R(STAT_CYC) + 1), L);
    /* exhausted and CMD.EPOCH_START in the same cycle: timed (QUOTA load); no snapshot */
    wr_cnt(&b, 0, -5);
    wr_cnt(&b, 1, -5);
    cmd_start(&b);
    cr_assert_eq(cnt(&b, 0), 100);
    cr_assert_eq(cnt(&b, 1), 50);
    cr_assert_eq(rd(&b, R(EPOCH_CNT)), 2u);
    cr_assert_eq(b.q.ecnt, 3u, "two writes and the CMD cycle after the timed boundary");
}

Test(quota_unit, elastic_early_with_own_timer, .description = "Elastic with the SM's own timer: early starts refill but the windows stay EPOCH_LEN long")
{
    qb_t b;
    qb_init(&b);
    wr_quota(&b, 0, 5);
    wr(&b, R(EPOCH_LEN), 10);
    wr(&b, R(SAMPLE_PER), 4);
    wr(&b, R(SM_CTRL), u_ctrl(0, QOS, ELASTIC, 0));
    cmd_both(&b); /* window starts after this cycle; cnt[0] = 5 */
    b.in.ks_active = 1;
    b.in.idle_cnt[0] = 2;
    /* slot 0 completes 5 threads every other cycle (charged at the next edge, stage 1): exhausted
     * after cycle 1, refilled in 2, ... */
    int early = 0;
    for (int e = 0; e < 10; e++) {
        if (e % 2 == 0)
            cpl(&b, 0, 0, 5);
        qu_eval(&b.q, &b.in, &b.out);
        cr_assert_eq(b.out.epoch_end, (uint32_t)((e % 2 == 0 && e > 0) || e == 9), "cycle %d", e);
        early += b.out.epoch_end && !b.out.timed;
        cyc(&b);
    }
    cr_assert_eq(early, 4, "early starts in cycles 2, 4, 6, 8 (9 is timed)");
    cr_assert_eq(rd(&b, R(EPOCH_CNT)), 2u, "CMD = 3 and the timed boundary only");
    cr_assert_eq(rd(&b, R(EP_CYCLES)), 10u);
    cr_assert_eq(rd(&b, R(STAT_THR)), 25u, "the whole window");
    cr_assert_eq(rd(&b, R(STAT_CYC)), 10u);
    cr_assert_eq(rd(&b, R(EP_SAMPLES)), 2u, "ticks at window cycles 3 and 7");
    cr_assert_eq(rd(&b, R(STAT_IDLE)), 4u);
}

static void rollover_fig4c(uint32_t scheme, uint32_t rollneg)
{
    FIG4_NEEDS();
    qb_t b;
    qb_init(&b);
    wr_quota(&b, 0, 100);
    wr_quota(&b, 1, 50);
    wr(&b, R(QOS_MASK), 1);
    wr(&b, R(EPOCH_LEN), 10);
    wr(&b, R(SM_CTRL), u_ctrl(0, QOS, scheme, rollneg));
    b.in.ks_active = 3;
    fpre(&b, 0, 32, 0, 32);
    cmd_both(&b);
    /* epoch 1: both leave quota unused (fcyc checks qallow: under Rollover-Time K1 waits while K0 > 0) */
    fcyc(&b, 1, 20, -1, 0, 0, 36, 50, "e1c1");
    fcyc(&b, -1, 0, -1, 0, 0, 36, 30, "e1c2");
    for (int c = 3; c < 9; c++)
        fcyc(&b, -1, 0, -1, 0, 0, 36, 30, "e1");
    fcyc(&b, 0, 6, -1, 0, 0, 36, 30, "e1c9");
    /* boundary (with a completion of K0 charged at it): QoS K0 keeps 30 -> 130, non-QoS K1 drops 30 */
    fcyc(&b, 0, 32, 0, 32, 1, 130, 50, "e1c10");
    /* epoch 2: both exhausted mid-epoch: as Naive, K1 += 50, K0 not */
    fcyc(&b, 0, 32, 0, 32, 0, 66, 50, "e2c1");
    fcyc(&b, 0, 32, 1, 32, 0, 2, 50, "e2c2");
    fcyc(&b, 1, 32, 1, 32, 0, -30, 18, "e2c3");
    fcyc(&b, -1, 0, -1, 0, 0, -30, -46, "e2c4");
    fcyc(&b, -1, 0, -1, 0, 0, -30, 4, "e2c5");
    for (int c = 6; c < 10; c++)
        fcyc(&b, -1, 0, -1, 0, 0, -30, 4, "e2");
    /* boundary: K0's debt forgiven (ROLLNEG = 0) or carried (ROLLNEG = 1); K1's 4 discarded */
    const int32_t k0 = rollneg ? 70 : 100;
    fcyc(&b, -1, 0, -1, 0, 1, k0, 50, "e2c10");
    /* epoch 3: nothing used: K0 rolls everything over */
    for (int c = 1; c < 10; c++)
        fcyc(&b, -1, 0, -1, 0, 0, k0, 50, "e3");
    fcyc(&b, -1, 0, -1, 0, 1, k0 + 100, 50, "e3c10");
    cr_assert_eq(rd(&b, R(EPOCH_CNT)), 4u, "no early epoch in Rollover");
}
Test(quota_unit, rollover_fig4c, .description = "Fig. 4c Rollover (ROLLNEG = 0): QoS unused quota kept, non-QoS discarded, QoS debt forgiven")
{
    rollover_fig4c(ROLLOVER, 0);
}
Test(quota_unit, rollover_fig4c_rollneg, .description = "Fig. 4c Rollover with ROLLNEG = 1: QoS debt carried")
{
    rollover_fig4c(ROLLOVER, 1);
}
Test(quota_unit, rollover_time_counters_fig4c, .description = "Rollover-Time: Fig. 4c's counters as Rollover (both ROLLNEG values)")
{
    rollover_fig4c(RTIME, 0);
    rollover_fig4c(RTIME, 1);
}

/* The Rollover-Time gate (docs/quota_unit.md rule 2), every expected mask written out. K0 QoS (quota
 * 64), K1 non-QoS (quota 50), epoch 10 cycles. */
Test(quota_unit, rollover_time_gate, .description = "Rollover-Time: a non-QoS slot waits while a QoS slot with warps on the SM has quota left")
{
    U_NEEDS(NK >= 2 && NCP >= 2 && WS >= 32); /* a QoS and a non-QoS slot, a completion of each in one cycle */
    qb_t b;
    qb_init(&b);
    wr_quota(&b, 0, 64);
    wr_quota(&b, 1, 50);
    wr(&b, R(QOS_MASK), 1);
    wr(&b, R(EPOCH_LEN), 10);
    wr(&b, R(SM_CTRL), u_ctrl(0, QOS, RTIME, 0));
    b.in.ks_active = 3;
    fpre(&b, 0, 32, 1, 10); /* row c1's completions (stage 1, as fcyc) */
    cmd_both(&b);
    /* (K0's completions, K1's completions (in flight: K1 cannot issue), qallow, C0, C1 after); the
     * completions of row i are on the ports in row i - 1 (the boundary cycle for c1) */
    const struct {
        int a0, a1;
        uint32_t qallow;
        int32_t c0, c1;
    } t[] = {
        {32, 10, 0x1, 32, 40}, /* K0 has quota: K1 held although C1 > 0 */
        {32, 0, 0x1, 0, 40},   /* K0 spends its last 32 */
        {0, 32, 0x2, 0, 8},    /* K0 used up: K1 runs */
        {0, 8, 0x2, 0, 0},     /* both <= 0 after this: exhausted in the next cycle */
        {0, 0, 0x0, 0, 50},    /* exhausted: non-QoS K1 refilled (as Rollover), K0 not */
        {0, 20, 0x2, 0, 30},
    };
    const int nt = (int)(sizeof t / sizeof t[0]);
    for (int i = 0; i < nt; i++) {
        if (i + 1 < nt && t[i + 1].a0)
            cpl(&b, 0, 0, (uint32_t)t[i + 1].a0);
        if (i + 1 < nt && t[i + 1].a1)
            cpl(&b, 1, 1, (uint32_t)t[i + 1].a1);
        qu_eval(&b.q, &b.in, &b.out);
        cr_assert_eq(b.out.qallow, t[i].qallow, "c%d: qallow 0x%x, expected 0x%x", i + 1, b.out.qallow, t[i].qallow);
        cr_assert_eq(qu_qallow(&b.q, b.in.ks_active), t[i].qallow, "c%d: qu_qallow", i + 1);
        cr_assert_eq(b.out.epoch_end, 0u, "c%d", i + 1);
        qu_commit(&b.q, &b.in, &b.out);
        clear_act(&b);
        cr_assert_eq(cnt(&b, 0), t[i].c0, "c%d: C0 = %d", i + 1, cnt(&b, 0));
        cr_assert_eq(cnt(&b, 1), t[i].c1, "c%d: C1 = %d", i + 1, cnt(&b, 1));
    }
    /* c7 - c10; c10 ends the epoch: K0 0 -> 64 (nothing unused to roll over), K1 30 -> 50 */
    for (int c = 7; c <= 10; c++) {
        qu_eval(&b.q, &b.in, &b.out);
        cr_assert_eq(b.out.qallow, 0x2u, "c%d", c);
        cr_assert_eq(b.out.epoch_end, (uint32_t)(c == 10), "c%d", c);
        cyc(&b);
    }
    cr_assert_eq(cnt(&b, 0), 64);
    cr_assert_eq(cnt(&b, 1), 50);
    qu_eval(&b.q, &b.in, &b.out);
    cr_assert_eq(b.out.qallow, 0x1u, "new epoch: K1 held again");
    /* a QoS slot with quota but no warps on the SM holds nothing */
    b.in.ks_active = 2;
    qu_eval(&b.q, &b.in, &b.out);
    cr_assert_eq(b.out.qallow, 0x3u, "K0 without warps: K1 runs (and K0 stays allowed)");
    cr_assert_eq(qu_qallow(&b.q, 2), 0x3u);
    /* the same counters under the other schemes and modes: no time gate */
    b.in.ks_active = 3;
    const uint32_t ctl[] = {u_ctrl(0, QOS, ROLLOVER, 0), u_ctrl(0, QOS, NAIVE, 0), u_ctrl(0, QOS, ELASTIC, 0),
                            u_ctrl(0, SMK, RTIME, 0)};
    for (int i = 0; i < 4; i++) {
        wr(&b, R(SM_CTRL), ctl[i]);
        qu_eval(&b.q, &b.in, &b.out);
        cr_assert_eq(b.out.qallow, 0x3u, "SM_CTRL 0x%x: cnt > 0 only", ctl[i]);
    }
    wr(&b, R(SM_CTRL), u_ctrl(0, OFF, RTIME, 0));
    qu_eval(&b.q, &b.in, &b.out);
    cr_assert_eq(b.out.qallow, KALL, "OFF: every slot");
    /* every active slot QoS: cnt > 0 (the gate keeps the QoS slots' own bits) */
    wr(&b, R(SM_CTRL), u_ctrl(0, QOS, RTIME, 0));
    wr(&b, R(QOS_MASK), 3);
    qu_eval(&b.q, &b.in, &b.out);
    cr_assert_eq(b.out.qallow, 0x3u, "K0 and K1 QoS");
    /* two QoS slots, only the one without warps has quota: nothing held */
    if (NK > 2) {
        wr(&b, R(QOS_MASK), 5);
        wr_cnt(&b, 2, 7);
        wr_cnt(&b, 0, 0);
        qu_eval(&b.q, &b.in, &b.out);
        cr_assert_eq(b.out.qallow, 0x6u, "K2 QoS with quota, no warps: K1 runs");
        b.in.ks_active = 7;
        qu_eval(&b.q, &b.in, &b.out);
        cr_assert_eq(b.out.qallow, 0x4u, "K2 with warps and quota: K1 held");
    }
}

/* the exhaustion tests' bench: QUOTA 10 in every slot, counters 0, QOS / ELASTIC */
static void ex_setup(qb_t *b)
{
    qb_init(b);
    for (int k = 0; k < NK; k++)
        wr_quota(b, k, 10);
    wr(b, R(SM_CTRL), u_ctrl(0, QOS, ELASTIC, 0));
}

Test(quota_unit, exhausted_needs_warps, .description = "no warps = never exhausted (Elastic, SMK); one active slot <= 0 is exhausted")
{
    qb_t b;
    ex_setup(&b);
    int64_t e[NK] = {0};
    /* all counters 0, no warps: nothing happens */
    b.in.ks_active = 0;
    for (int i = 0; i < 3; i++) {
        qu_eval(&b.q, &b.in, &b.out);
        cr_assert_eq(b.out.epoch_end, 0u);
        cyc(&b);
        expect_cnts(&b, e, "no warps");
    }
    /* the last slot has warps and no quota: exhausted, an early start adds QUOTA to every slot */
    b.in.ks_active = 1u << KL;
    qu_eval(&b.q, &b.in, &b.out);
    cr_assert_eq(b.out.epoch_end, 1u);
    cyc(&b);
    for (int k = 0; k < NK; k++)
        e[k] = 10;
    expect_cnts(&b, e, "early start adds QUOTA to every slot");
    qu_eval(&b.q, &b.in, &b.out);
    cr_assert_eq(b.out.epoch_end, 0u, "the active slot has quota");
    /* SMK: no warps, all counters <= 0: no refill */
    wr(&b, R(SM_CTRL), u_ctrl(0, SMK, NAIVE, 0));
    for (int k = 0; k < NK; k++)
        wr_cnt(&b, k, -1), e[k] = -1;
    b.in.ks_active = 0;
    for (int i = 0; i < 3; i++)
        cyc(&b);
    expect_cnts(&b, e, "SMK without warps");
    b.in.ks_active = 1u << KL;
    cyc(&b);
    for (int k = 0; k < NK; k++)
        e[k] = 9;
    expect_cnts(&b, e, "SMK refill with one active slot");
}

Test(quota_unit, exhausted_counts_active_slots, .description = "'all <= 0' counts only slots with ks_active")
{
    U_NEEDS(NK >= 2); /* a slot with quota and no warps beside one with warps */
    qb_t b;
    ex_setup(&b);
    int64_t e[NK] = {0};
    /* slot 1 has quota but no warps; slot 0 has warps and none: exhausted */
    wr_cnt(&b, 1, 5);
    b.in.ks_active = 1;
    qu_eval(&b.q, &b.in, &b.out);
    cr_assert_eq(b.out.epoch_end, 1u);
    cyc(&b);
    for (int k = 0; k < NK; k++)
        e[k] = k == 1 ? 15 : 10;
    expect_cnts(&b, e, "early start adds QUOTA to every slot");
    /* slot 1 active with quota left: not exhausted */
    wr_cnt(&b, 0, 0);
    e[0] = 0;
    b.in.ks_active = 3;
    qu_eval(&b.q, &b.in, &b.out);
    cr_assert_eq(b.out.epoch_end, 0u);
    cyc(&b);
    expect_cnts(&b, e, "slot 1 > 0");
    wr_cnt(&b, 1, 0);
    qu_eval(&b.q, &b.in, &b.out);
    cr_assert_eq(b.out.epoch_end, 1u);
    /* only the last slot active, with quota: not exhausted even though 0 and 1 are <= 0 */
    if (NK > 2) {
        b.in.ks_active = 1u << (NK - 1);
        qu_eval(&b.q, &b.in, &b.out);
        cr_assert_eq(b.out.epoch_end, 0u);
    }
    /* SMK: slot 1 without warps and > 0 does not keep slot 0 (warps, <= 0) from its refill */
    wr(&b, R(SM_CTRL), u_ctrl(0, SMK, NAIVE, 0));
    for (int k = 0; k < NK; k++)
        wr_cnt(&b, k, k == 1 ? 4 : -1), e[k] = k == 1 ? 14 : 9;
    b.in.ks_active = 1;
    cyc(&b);
    expect_cnts(&b, e, "SMK refill, the slot without warps does not count");
}

/* ---- epoch timer ----------------------------------------------------------------------------- */

Test(quota_unit, epoch_timer_period, .description = "timed boundary exactly every EPOCH_LEN cycles; EP_CYCLES, EPOCH_CNT; EPOCH_LEN = 1")
{
    qb_t b;
    qb_init(&b);
    wr(&b, R(EPOCH_LEN), 5); /* cycle 0; ecnt counted from reset */
    cr_assert_eq(b.out.epoch_end, 0u);
    uint32_t n = 0;
    for (int c = 1; c <= 40; c++) {
        qu_eval(&b.q, &b.in, &b.out);
        cr_assert_eq(b.out.epoch_end, (uint32_t)(c % 5 == 4), "cycle %d", c);
        cyc(&b);
        n += c % 5 == 4;
        cr_assert_eq(rd(&b, R(EPOCH_CNT)), n, "cycle %d", c);
        if (n)
            cr_assert_eq(rd(&b, R(EP_CYCLES)), 5u);
    }
    cr_assert_eq(n, 8u);
    wr(&b, R(EPOCH_LEN), 1);
    /* cycle 41 wrote EPOCH_LEN = 1 (that cycle still used 5: ecnt 1, no boundary) */
    for (int c = 0; c < 5; c++) {
        qu_eval(&b.q, &b.in, &b.out);
        cr_assert_eq(b.out.epoch_end, 1u, "EPOCH_LEN = 1: every cycle");
        cyc(&b);
        cr_assert_eq(rd(&b, R(EP_CYCLES)), c == 0 ? 3u : 1u, "cycle %d", c);
    }
    cr_assert_eq(rd(&b, R(EPOCH_CNT)), n + 5);
}

Test(quota_unit, epoch_len_zero_and_timer_saturation, .description = "EPOCH_LEN = 0: no timed epochs; ecnt/scnt saturate at 2^EW-1; boundary at once when EPOCH_LEN <= ecnt+1")
{
    qb_t b;
    qb_init(&b);
    const uint32_t n = EMAX > 1000 ? 1000 : EMAX / 2; /* below the saturation */
    for (uint32_t c = 0; c < n; c++) {
        qu_eval(&b.q, &b.in, &b.out);
        cr_assert_eq(b.out.epoch_end, 0u);
        cyc(&b);
    }
    cr_assert_eq(b.q.ecnt, n);
    cr_assert_eq(rd(&b, R(EPOCH_CNT)), 0u);
    b.q.ecnt = EMAX - 2, b.q.scnt = EMAX - 2;
    const uint32_t seq[3] = {EMAX - 1, EMAX, EMAX};
    for (int c = 0; c < 3; c++) {
        qu_eval(&b.q, &b.in, &b.out);
        cr_assert_eq(b.out.epoch_end, 0u);
        cyc(&b);
        cr_assert_eq(b.q.ecnt, seq[c], "ecnt saturates");
        cr_assert_eq(b.q.scnt, seq[c], "scnt saturates");
    }
    wr(&b, R(EPOCH_LEN), EMAX);
    cr_assert_eq(b.out.epoch_end, 0u, "the write cycle sees EPOCH_LEN = 0");
    qu_eval(&b.q, &b.in, &b.out);
    cr_assert_eq(b.out.epoch_end, 1u);
    cyc(&b);
    cr_assert_eq(rd(&b, R(EP_CYCLES)), EMAX + 1, "ecnt + 1");
    cr_assert_eq(b.q.ecnt, 0u);
    wr(&b, R(EPOCH_LEN), 0);
    b.q.ecnt = EMAX - 1;
    for (int c = 0; c < 5; c++) {
        qu_eval(&b.q, &b.in, &b.out);
        cr_assert_eq(b.out.epoch_end, 0u);
        cyc(&b);
    }
    cr_assert_eq(rd(&b, R(EPOCH_CNT)), 1u);
}

Test(quota_unit, epoch_len_shrink, .description = "shrinking EPOCH_LEN below the current count ends the epoch at once")
{
    qb_t b;
    qb_init(&b);
    wr(&b, R(EPOCH_LEN), 100); /* cycle 0 */
    for (int c = 1; c <= 30; c++) {
        qu_eval(&b.q, &b.in, &b.out);
        cr_assert_eq(b.out.epoch_end, 0u);
        cyc(&b);
    }
    wr(&b, R(EPOCH_LEN), 10); /* cycle 31: still 100 */
    cr_assert_eq(b.out.epoch_end, 0u);
    int c = 32;
    qu_eval(&b.q, &b.in, &b.out);
    cr_assert_eq(b.out.epoch_end, 1u, "cycle 32: ecnt + 1 = 33 >= 10");
    cyc(&b);
    cr_assert_eq(rd(&b, R(EP_CYCLES)), 33u);
    for (c = 33; c <= 52; c++) {
        qu_eval(&b.q, &b.in, &b.out);
        cr_assert_eq(b.out.epoch_end, (uint32_t)(c == 42 || c == 52), "cycle %d", c);
        cyc(&b);
    }
    cr_assert_eq(rd(&b, R(EP_CYCLES)), 10u);
    cr_assert_eq(rd(&b, R(EPOCH_CNT)), 3u);
}

Test(quota_unit, cmd_epoch_start, .description = "CMD.EPOCH_START alone: counter boundary in the write cycle; no snapshot, timers not restarted (issue 5)")
{
    qb_t b;
    qb_init(&b);
    wr_quota(&b, 0, 10);                         /* cycle 0 */
    wr(&b, R(SM_CTRL), u_ctrl(0, QOS, NAIVE, 0)); /* cycle 1 */
    for (int c = 2; c < 7; c++)
        cyc(&b);
    b.in.ks_active = 1;
    cmd_start(&b); /* cycle 7 */
    cr_assert_eq(cnt(&b, 0), 10, "QUOTA loaded");
    cr_assert_eq(rd(&b, R(EPOCH_CNT)), 0u, "no snapshot");
    cr_assert_eq(rd(&b, R(EP_CYCLES)), 0u);
    cr_assert_eq(rd(&b, R(STAT_CYC)), 0u);
    cr_assert_eq(b.q.cyc[0], 1u, "live statistics go on");
    cr_assert_eq(b.q.ecnt, 8u, "epoch timer not restarted");
    cr_assert_eq(b.q.scnt, 8u, "sampling timer not restarted");
    wr(&b, R(CMD), 0); /* cycle 8 */
    cr_assert_eq(b.out.epoch_end, 0u);
    cr_assert_eq(b.q.ecnt, 9u);
    cr_assert_eq(cnt(&b, 0), 10);
    cr_assert_eq(rd(&b, R(EPOCH_CNT)), 0u);
    /* EPOCH_START and SNAP together restart the timer */
    cmd_both(&b); /* cycle 9 */
    cr_assert_eq(rd(&b, R(EP_CYCLES)), 10u, "cycles 0..9");
    cr_assert_eq(rd(&b, R(EPOCH_CNT)), 1u);
    cr_assert_eq(rd(&b, R(STAT_CYC)), 2u, "cycles 7 and 9 (ks_active 0 in the write cycle 8)");
    cr_assert_eq(b.q.ecnt, 0u);
    wr(&b, R(EPOCH_LEN), 5); /* cycle 10: ecnt 0 -> 1 */
    for (int c = 1; c <= 10; c++) {
        qu_eval(&b.q, &b.in, &b.out);
        cr_assert_eq(b.out.epoch_end, (uint32_t)(c == 4 || c == 9), "%d cycles after the EPOCH_LEN write", c);
        cyc(&b);
    }
    cr_assert_eq(rd(&b, R(EPOCH_CNT)), 3u);
    /* EPOCH_START alone in the middle of a timed window: the timed boundary keeps its place */
    cyc(&b);       /* ecnt 1 -> 2 */
    cmd_start(&b); /* ecnt 2 -> 3 */
    cr_assert_eq(rd(&b, R(EPOCH_CNT)), 3u);
    qu_eval(&b.q, &b.in, &b.out);
    cr_assert_eq(b.out.epoch_end, 0u, "ecnt 3");
    cyc(&b);
    qu_eval(&b.q, &b.in, &b.out);
    cr_assert_eq(b.out.epoch_end, 1u, "ecnt 4: the timer's boundary, 5 cycles after the last one");
    cyc(&b);
    cr_assert_eq(rd(&b, R(EPOCH_CNT)), 4u);
    cr_assert_eq(rd(&b, R(EP_CYCLES)), 5u);
    cr_assert_eq(rd(&b, R(STAT_CYC)), 5u);
}

Test(quota_unit, cmd_snap_only, .description = "CMD = 2 (SNAP): snapshot up to the stage-1 sums (the write cycle's count in the next window), EPOCH_CNT, EP_CYCLES, EP_SAMPLES, timers restart; no counter boundary")
{
    qb_t b;
    qb_init(&b);
    wr_quota(&b, 0, 100);                         /* cycle 0 */
    wr(&b, R(SAMPLE_PER), 3);                     /* cycle 1 */
    wr(&b, R(SM_CTRL), u_ctrl(0, QOS, NAIVE, 0)); /* cycle 2 */
    wr_cnt(&b, 0, 50);                            /* cycle 3 */
    b.in.ks_active = 1;
    b.in.idle_cnt[0] = 7;
    for (int c = 4; c < 9; c++) { /* ticks in cycles 2 (write), 5, 8 */
        cpl(&b, 0, 0, 4);
        cyc(&b);
    }
    cr_assert_eq(cnt(&b, 0), 34, "cycle 8's 4 threads in stage 1");
    cr_assert_eq(b.q.nsamp, 3u);
    cr_assert_eq(b.q.ecnt, 9u);
    cr_assert_eq(b.q.scnt, 0u);
    /* cycle 9: CMD = 2 with a completion of 3 and no tick (scnt 0 + 1 < 3) */
    cpl(&b, 0, 0, 3);
    iss(&b, 0, 0);
    b.out = qu_write(&b.q, &b.in, R(CMD), 1u << SMK_CMD_SNAP_LSB);
    clear_act(&b);
    cr_assert_eq(b.out.epoch_end, 0u, "SNAP alone is no counter boundary");
    cr_assert_eq(b.out.timed, 0u);
    cr_assert_eq(cnt(&b, 0), 30, "counter decremented by cycle 8's 4, not reloaded");
    cr_assert_eq(rd(&b, R(EPOCH_CNT)), 1u);
    cr_assert_eq(rd(&b, R(EP_CYCLES)), 10u, "ecnt 9 + 1");
    cr_assert_eq(rd(&b, R(EP_SAMPLES)), 3u);
    cr_assert_eq(rd(&b, R(STAT_THR)), 20u, "5 x 4; the write cycle's 3 are in stage 1");
    cr_assert_eq(rd(&b, R(STAT_WIS)), 0u, "the write cycle's issue is in stage 1");
    cr_assert_eq(b.q.tin_r[0], 3u);
    cr_assert_eq(b.q.iin_r[0], 1u);
    cr_assert_eq(rd(&b, R(STAT_IDLE)), 14u, "ticks 5 and 8 with ks_active (cycle 2 had idle_cnt 0)");
    cr_assert_eq(rd(&b, R(STAT_CYC)), 6u);
    cr_assert_eq(b.q.thr[0] | b.q.wis[0] | b.q.idle[0] | b.q.cyc[0] | b.q.nsamp, 0u, "live restart");
    cr_assert_eq(b.q.ecnt, 0u);
    cr_assert_eq(b.q.scnt, 0u);
    /* the sampling timer restarted: next tick 3 cycles later; the write cycle's counts land in the
     * new window */
    cyc(&b);
    cr_assert_eq(cnt(&b, 0), 27);
    cr_assert_eq(b.q.thr[0], 3u);
    cr_assert_eq(b.q.wis[0], 1u);
    cyc(&b);
    cr_assert_eq(b.q.nsamp, 0u);
    cyc(&b);
    cr_assert_eq(b.q.nsamp, 1u);
    cr_assert_eq(b.q.idle[0], 7u);
}

Test(quota_unit, cmd_both, .description = "CMD = 3: counter boundary (QUOTA loaded) and snapshot in the same cycle")
{
    qb_t b;
    qb_init(&b);
    wr_quota(&b, KL, 40);                         /* cycle 0 */
    wr(&b, R(QOS_MASK), 1u << KL);                /* cycle 1 */
    wr(&b, R(SM_CTRL), u_ctrl(0, QOS, ROLLOVER, 0)); /* cycle 2 */
    wr_cnt(&b, KL, 15);                           /* cycle 3 */
    b.in.ks_active = 1u << KL;
    cpl(&b, 0, KL, 5);
    cyc(&b); /* cycle 4: C 15, the 5 in stage 1 */
    cr_assert_eq(cnt(&b, (int)KL), 15);
    cpl(&b, NCP - 1, KL, 6);
    b.out = qu_write(&b.q, &b.in, R(CMD), 3); /* cycle 5 */
    clear_act(&b);
    cr_assert_eq(b.out.epoch_end, 1u);
    cr_assert_eq(b.out.timed, 1u);
    cr_assert_eq(cnt(&b, (int)KL), 50, "Rollover QoS: 40 + max(15 - 5, 0); the boundary cycle's 6 in stage 1");
    cr_assert_eq(rd(&b, R(EPOCH_CNT)), 1u);
    cr_assert_eq(rd(&b, R(EP_CYCLES)), 6u);
    cr_assert_eq(rd(&b, R(STAT_THR) + KL), 5u, "cycle 4's; cycle 5's in the next window");
    cr_assert_eq(rd(&b, R(STAT_CYC) + KL), 2u);
    cr_assert_eq(b.q.ecnt, 0u);
    cr_assert_eq(b.q.thr[KL], 0u);
    cyc(&b); /* the boundary cycle's completion charges the new epoch */
    cr_assert_eq(cnt(&b, (int)KL), 44);
    cr_assert_eq(b.q.thr[KL], 6u);
}

/* ---- sampling and statistics ---------------------------------------------------------------- */

/* Runs one epoch of `len` cycles after cmd_both with idle_cnt[k] = e + 2k + 1 in cycle e.
 * Returns nothing; checks the live idle sum after each cycle against ticks at `tick[e]`. */
static void sample_epoch(qb_t *b, int len, const int *tick, uint32_t *idle_sum, uint32_t *nticks)
{
    memset(idle_sum, 0, NK * sizeof *idle_sum);
    *nticks = 0;
    for (int e = 0; e < len; e++) {
        for (int k = 0; k < NK; k++)
            b->in.idle_cnt[k] = (uint8_t)(e + 2 * k + 1);
        qu_eval(&b->q, &b->in, &b->out);
        cr_assert_eq(b->out.epoch_end, (uint32_t)(e == len - 1), "cycle %d", e);
        cyc(b);
        if (tick[e]) {
            (*nticks)++;
            for (int k = 0; k < NK; k++)
                idle_sum[k] += (uint32_t)(e + 2 * k + 1);
        }
        if (e < len - 1) { /* live values (white box) */
            cr_assert_eq(b->q.nsamp, *nticks, "cycle %d: nsamp", e);
            for (int k = 0; k < NK; k++)
                cr_assert_eq(b->q.idle[k], idle_sum[k], "cycle %d: idle[%d] = %u expected %u", e, k, b->q.idle[k],
                             idle_sum[k]);
        }
    }
    cr_assert_eq(rd(b, R(EP_SAMPLES)), *nticks);
    for (int k = 0; k < NK; k++) {
        cr_assert_eq(rd(b, R(STAT_IDLE) + (uint32_t)k), idle_sum[k], "STAT_IDLE[%d]", k);
        cr_assert_eq(b->q.idle[k], 0u);
    }
    cr_assert_eq(b->q.nsamp, 0u);
    cr_assert_eq(b->q.scnt, 0u);
}

Test(quota_unit, sampling, .description = "SAMPLE_PER ticks, idle_cnt summed only at ticks, EP_SAMPLES, sample timer restarts at a snapshot")
{
    qb_t b;
    qb_init(&b);
    uint32_t sum[NK], n;
    wr(&b, R(SAMPLE_PER), 4);
    wr(&b, R(EPOCH_LEN), 10);
    cmd_both(&b);
    /* ticks at epoch cycles 3 and 7, in every epoch (without the restart at the boundary the
     * second epoch would tick at 1, 5, 9) */
    const int t4[10] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0};
    for (int ep = 0; ep < 3; ep++) {
        sample_epoch(&b, 10, t4, sum, &n);
        cr_assert_eq(n, 2u);
        for (int k = 0; k < NK; k++)
            cr_assert_eq(sum[k], (uint32_t)(4 + 2 * k + 8 + 2 * k));
    }
    /* SAMPLE_PER 5: the boundary cycle's tick counts in the ending epoch */
    wr(&b, R(SAMPLE_PER), 5);
    cmd_both(&b);
    const int t5[10] = {0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    for (int ep = 0; ep < 2; ep++) {
        sample_epoch(&b, 10, t5, sum, &n);
        cr_assert_eq(n, 2u);
        for (int k = 0; k < NK; k++)
            cr_assert_eq(sum[k], (uint32_t)(5 + 2 * k + 10 + 2 * k));
    }
    /* SAMPLE_PER 0: no sampling */
    wr(&b, R(SAMPLE_PER), 0);
    cmd_both(&b);
    const int t0[10] = {0};
    sample_epoch(&b, 10, t0, sum, &n);
    cr_assert_eq(n, 0u);
    /* SAMPLE_PER 1: every cycle */
    wr(&b, R(SAMPLE_PER), 1);
    cmd_both(&b);
    const int t1[10] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    sample_epoch(&b, 10, t1, sum, &n);
    cr_assert_eq(n, 10u);
    for (int k = 0; k < NK; k++)
        cr_assert_eq(sum[k], (uint32_t)(55 + 20 * k));
}

Test(quota_unit, sample_per_shrink, .description = "shrinking SAMPLE_PER below the sampling count ticks at once")
{
    qb_t b;
    qb_init(&b);
    wr(&b, R(SAMPLE_PER), 100); /* cycle 0, scnt 0 -> 1 */
    for (int c = 1; c <= 49; c++)
        cyc(&b);
    cr_assert_eq(b.q.scnt, 50u);
    cr_assert_eq(b.q.nsamp, 0u);
    for (int k = 0; k < NK; k++)
        b.in.idle_cnt[k] = (uint8_t)(k + 3);
    wr(&b, R(SAMPLE_PER), 10); /* the write cycle sees 100: no tick */
    cr_assert_eq(b.q.nsamp, 0u);
    cyc(&b); /* 52 >= 10: tick */
    cr_assert_eq(b.q.nsamp, 1u);
    cr_assert_eq(b.q.scnt, 0u);
    for (int k = 0; k < NK; k++)
        cr_assert_eq(b.q.idle[k], (uint32_t)(k + 3), "only the tick cycle's idle_cnt (the write cycle had 0)");
}

Test(quota_unit, stats_snapshot, .description = "timed snapshot includes the stage-1 sums (the cycle before the snapshot cycle), the snapshot cycle's count in the next window; live counters restart at 0; EP_CYCLES")
{
    qb_t b;
    qb_init(&b);
    wr(&b, R(EPOCH_LEN), 4);
    cmd_both(&b);
    /* stage 1: a cycle's completions and issues count at the next edge; pthr / pwis: on the ports
     * in the last cycle, counted at this cycle's edge */
    uint32_t thr[NK] = {0}, wis[NK] = {0}, cy[NK] = {0}, pthr[NK] = {0}, pwis[NK] = {0};
#define LAND()                                                                                   \
    for (int k = 0; k < NK; k++)                                                                 \
        thr[k] += pthr[k], wis[k] += pwis[k], pthr[k] = pwis[k] = 0
    b.in.ks_active = 1;
    for (int e = 0; e < 4; e++) {
        LAND();
        cpl(&b, 0, 0, 10), pthr[0] += 10;
        iss(&b, 0, KB), pwis[KB]++;
        cy[0]++;
        cyc(&b);
        if (e == 1) {
            cr_assert_eq(b.q.thr[0], 10u);
            cr_assert_eq(b.q.wis[KB], 1u);
            cr_assert_eq(b.q.cyc[0], 2u);
            cr_assert_eq(rd(&b, R(STAT_THR)), 0u, "snapshot unchanged mid-epoch");
            cr_assert_eq(rd(&b, R(STAT_CYC)), 0u);
        }
    }
    cr_assert_eq(b.out.epoch_end, 1u);
    for (int k = 0; k < NK; k++) {
        cr_assert_eq(rd(&b, R(STAT_THR) + (uint32_t)k), thr[k], "epoch 1 STAT_THR[%d]", k);
        cr_assert_eq(rd(&b, R(STAT_WIS) + (uint32_t)k), wis[k], "epoch 1 STAT_WIS[%d]", k);
        cr_assert_eq(rd(&b, R(STAT_CYC) + (uint32_t)k), cy[k], "epoch 1 STAT_CYC[%d]", k);
        cr_assert_eq(rd(&b, R(STAT_IDLE) + (uint32_t)k), 0u);
        cr_assert_eq(b.q.thr[k] | b.q.wis[k] | b.q.idle[k] | b.q.cyc[k], 0u, "live counters restart");
    }
    cr_assert_eq(rd(&b, R(STAT_THR)), 30u);
    cr_assert_eq(rd(&b, R(STAT_WIS) + KB), 3u);
    cr_assert_eq(rd(&b, R(STAT_CYC)), 4u);
    cr_assert_eq(rd(&b, R(EP_CYCLES)), 4u);
    cr_assert_eq(rd(&b, R(EPOCH_CNT)), 2u);
    cr_assert_eq(b.q.tin_r[0], 10u, "the snapshot cycle's completion, for the next window");

    memset(thr, 0, sizeof thr), memset(wis, 0, sizeof wis), memset(cy, 0, sizeof cy);
    b.in.ks_active = (1u << KB) | (1u << KL);
    for (int e = 0; e < 4; e++) {
        LAND();
        cpl(&b, NCP - 1, KB, 7), pthr[KB] += 7;
        for (int s = 0; s < NS; s++)
            iss(&b, s, NK - 1), pwis[NK - 1]++;
        for (int k = 0; k < NK; k++)
            cy[k] += (b.in.ks_active >> k) & 1;
        cyc(&b);
    }
    cr_assert_eq(b.out.epoch_end, 1u);
    for (int k = 0; k < NK; k++) {
        cr_assert_eq(rd(&b, R(STAT_THR) + (uint32_t)k), thr[k], "epoch 2 STAT_THR[%d]", k);
        cr_assert_eq(rd(&b, R(STAT_WIS) + (uint32_t)k), wis[k], "epoch 2 STAT_WIS[%d]", k);
        cr_assert_eq(rd(&b, R(STAT_CYC) + (uint32_t)k), cy[k], "epoch 2 STAT_CYC[%d]", k);
    }
    cr_assert_eq(rd(&b, R(STAT_THR)), KB ? 10u : 31u, "epoch 1's last completion and, with one slot, 3 x 7");
    cr_assert_eq(rd(&b, R(STAT_THR) + KB), KB ? 21u : 31u);
#undef LAND
}

/* ---- saturation ----------------------------------------------------------------------------- */

Test(quota_unit, cnt_saturation, .description = "counters saturate at -2^(QW-1) and 2^(QW-1)-1 and never wrap")
{
    qb_t b;
    qb_init(&b);
    /* QOS: completions below the minimum (10 < WS x CP threads a cycle) */
    wr(&b, R(SM_CTRL), u_ctrl(0, QOS, NAIVE, 0));
    wr_cnt(&b, 0, QMIN + 10);
    for (int i = 0; i < 3; i++) { /* stage 1: step i's completions are charged at step i + 1 */
        for (int p = 0; p < NCP; p++)
            cpl(&b, p, 0, WS);
        cyc(&b);
        cr_assert_eq(cnt(&b, 0), i ? QMIN : QMIN + 10, "QOS step %d", i);
        cr_assert_eq(rd(&b, R(CNT)), (uint32_t)(i ? QMIN : QMIN + 10));
    }
    /* SMK: issues below the minimum */
    wr(&b, R(SM_CTRL), u_ctrl(0, SMK, NAIVE, 0));
    wr_quota(&b, 0, 0xffffffffu);
    wr_cnt(&b, 0, QMIN + 1);
    for (int i = 0; i < 3; i++) {
        for (int s = 0; s < NS; s++)
            iss(&b, s, 0);
        cyc(&b);
        cr_assert_eq(cnt(&b, 0), i ? QMIN : QMIN + 1, "SMK step %d", i);
    }
    /* SMK refill from the minimum with step 2's issues charged: base saturates before QUOTA is added */
    b.in.ks_active = 1; /* slot 0 at QMIN: exhausted */
    cyc(&b);
    cr_assert_eq(cnt(&b, 0), -1, "sat(QMIN - S) + QMAX");
    wr_cnt(&b, 0, 0);
    cyc(&b);
    cr_assert_eq(cnt(&b, 0), QMAX);
    cyc(&b);
    cr_assert_eq(cnt(&b, 0), QMAX, "not exhausted any more");
    /* Rollover: QUOTA + rollover above the maximum; then a ROLLNEG debt below the minimum */
    b.in.ks_active = 0;
    wr(&b, R(QOS_MASK), 1);
    wr(&b, R(SM_CTRL), u_ctrl(0, QOS, ROLLOVER, 1));
    cmd_start(&b);
    cr_assert_eq(cnt(&b, 0), QMAX, "QMAX + QMAX saturates");
    wr_quota(&b, 0, 0);
    wr_cnt(&b, 0, QMIN);
    cpl(&b, 0, 0, WS); /* in the cycle before the boundary: charged at it */
    cyc(&b);
    cmd_start(&b);
    cr_assert_eq(cnt(&b, 0), QMIN, "0 + sat(QMIN - WS)");
}

Test(quota_unit, cnt_saturation_refill_idle_slot, .description = "a refill of a slot without warps (SMK, Elastic early start) saturates at 2^(QW-1)-1")
{
    U_NEEDS(NK >= 2); /* a slot with quota left (no warps) beside the exhausted one */
    qb_t b;
    qb_init(&b);
    /* SMK refill above the maximum */
    wr(&b, R(SM_CTRL), u_ctrl(0, SMK, NAIVE, 0));
    wr_quota(&b, 0, 0xffffffffu);
    wr_quota(&b, 1, (uint32_t)QMAX);
    wr_cnt(&b, 0, QMIN + 1);
    wr_cnt(&b, 1, QMAX - 5);
    for (int s = 0; s < NS; s++) /* no warps yet: no refill; charged at the next edge (stage 1) */
        iss(&b, s, 0);
    cyc(&b);
    b.in.ks_active = 1; /* slot 0 <= 0: exhausted */
    cyc(&b);
    cr_assert_eq(cnt(&b, 0), -1, "sat(QMIN + 1 - S) + QMAX = QMIN + QMAX");
    cr_assert_eq(cnt(&b, 1), QMAX, "QMAX - 5 + QMAX saturates");
    wr_cnt(&b, 0, 0);
    cyc(&b);
    cr_assert_eq(cnt(&b, 0), QMAX);
    cr_assert_eq(cnt(&b, 1), QMAX);
    /* Elastic early start above the maximum */
    b.in.ks_active = 0;
    wr(&b, R(SM_CTRL), u_ctrl(0, QOS, ELASTIC, 0));
    wr_cnt(&b, 0, 0);
    wr_quota(&b, 1, 1);
    wr_cnt(&b, 1, QMAX);
    b.in.ks_active = 1;
    qu_eval(&b.q, &b.in, &b.out);
    cr_assert_eq(b.out.epoch_end, 1u);
    cyc(&b);
    cr_assert_eq(cnt(&b, 0), QMAX);
    cr_assert_eq(cnt(&b, 1), QMAX);
}

Test(quota_unit, stat_saturation, .description = "statistics, sample and epoch counts saturate at 2^SW-1 and never wrap; snapshots too")
{
    qb_t b;
    qb_init(&b);
    wr(&b, R(SAMPLE_PER), 1);
    b.q.thr[0] = SMAX - 40, b.q.wis[0] = SMAX - 1, b.q.idle[0] = SMAX - 7, b.q.cyc[0] = SMAX - 1;
    b.q.nsamp = SMAX - 1, b.q.epochs = SMAX - 1;
    /* thr: SMAX - 40 + WS (SMAX - 8 with 32-thread warps), then SMAX */
    /* stage 1: thr and wis count a cycle's completions and issues at the next edge */
    const uint32_t thr[3] = {SMAX - 40, SMAX - 40 + WS < SMAX ? SMAX - 40 + WS : SMAX, SMAX}, idl[3] = {SMAX - 2, SMAX, SMAX};
    const uint32_t wisv[3] = {SMAX - 1, SMAX, SMAX};
    b.in.ks_active = 1, b.in.idle_cnt[0] = 5;
    for (int i = 0; i < 3; i++) {
        cpl(&b, 0, 0, WS);
        for (int s = 0; s < NS; s++)
            iss(&b, s, 0);
        cyc(&b);
        cr_assert_eq(b.q.thr[0], thr[i], "thr step %d", i);
        cr_assert_eq(b.q.wis[0], wisv[i], "wis step %d", i);
        cr_assert_eq(b.q.idle[0], idl[i], "idle step %d", i);
        cr_assert_eq(b.q.cyc[0], SMAX, "cyc step %d", i);
        cr_assert_eq(b.q.nsamp, SMAX, "nsamp step %d", i);
    }
    cpl(&b, 0, 0, WS);
    iss(&b, 0, 0);
    cmd_both(&b);
    cr_assert_eq(rd(&b, R(STAT_THR)), SMAX);
    cr_assert_eq(rd(&b, R(STAT_WIS)), SMAX);
    cr_assert_eq(rd(&b, R(STAT_IDLE)), SMAX);
    cr_assert_eq(rd(&b, R(STAT_CYC)), SMAX);
    cr_assert_eq(rd(&b, R(EP_SAMPLES)), SMAX);
    cr_assert_eq(rd(&b, R(EPOCH_CNT)), SMAX);
    cmd_both(&b);
    cr_assert_eq(rd(&b, R(EPOCH_CNT)), SMAX, "EPOCH_CNT does not wrap");
    cr_assert_eq(rd(&b, R(STAT_CYC)), 1u, "live counters restarted at 0");
    cr_assert_eq(rd(&b, R(EP_SAMPLES)), 1u);
}

/* ---- register writes at a boundary ---------------------------------------------------------- */

Test(quota_unit, csr_write_in_boundary_cycle, .description = "a rule sees the old registers: QUOTA written at a boundary applies from the next load; CNT writes override")
{
    qb_t b;
    qb_init(&b);
    wr_quota(&b, 0, 10);
    wr(&b, R(EPOCH_LEN), 5);
    wr(&b, R(SM_CTRL), u_ctrl(0, QOS, NAIVE, 0));
    cmd_both(&b);
    cr_assert_eq(cnt(&b, 0), 10);
    for (int e = 0; e < 4; e++)
        cyc(&b);
    b.out = qu_write(&b.q, &b.in, R(QUOTA), 77); /* 5th cycle: timed boundary */
    cr_assert_eq(b.out.epoch_end, 1u);
    cr_assert_eq(cnt(&b, 0), 10, "old QUOTA loaded");
    for (int e = 0; e < 5; e++)
        cyc(&b);
    cr_assert_eq(b.out.epoch_end, 1u);
    cr_assert_eq(cnt(&b, 0), 77, "new QUOTA at the next load");
    for (int e = 0; e < 4; e++)
        cyc(&b);
    b.out = qu_write(&b.q, &b.in, R(CNT), (uint32_t)-3);
    cr_assert_eq(b.out.epoch_end, 1u);
    cr_assert_eq(cnt(&b, 0), -3, "CNT write replaces the loaded value");

    /* SMK refill cycle with a CNT write to the last slot: slot 0 refilled, the last slot written
     * (with one slot: the write replaces the refill) */
    wr(&b, R(EPOCH_LEN), 0);
    wr(&b, R(SM_CTRL), u_ctrl(0, SMK, NAIVE, 0));
    wr_quota(&b, KL, 20);
    wr_cnt(&b, KL, 0);
    b.in.ks_active = 1u | (1u << KL);
    b.out = qu_write(&b.q, &b.in, R(CNT) + KL, 5);
    cr_assert_eq(cnt(&b, 0), KL ? -3 + 77 : 5);
    cr_assert_eq(cnt(&b, (int)KL), 5);

    /* SM_CTRL written in a cycle with issues: that cycle still uses the old mode (OFF) */
    b.in.ks_active = 0;
    wr(&b, R(SM_CTRL), 0);
    for (int s = 0; s < NS; s++)
        iss(&b, s, KL);
    b.out = qu_write(&b.q, &b.in, R(SM_CTRL), u_ctrl(0, SMK, NAIVE, 0));
    clear_act(&b);
    cr_assert_eq(b.out.qallow, KALL);
    cr_assert_eq(cnt(&b, (int)KL), 5, "OFF in the write cycle: no decrement");
    for (int s = 0; s < NS; s++)
        iss(&b, s, KL);
    cyc(&b);
    cr_assert_eq(cnt(&b, (int)KL), 5 - NS);
}

/* The common-cycle commit (qu_commit_quiet_i: qu_common_i's rule, qu_count_i, the per-slot packed
 * sums that sm_commit and the SM's quiet step use) against qu_commit, on random states that sit at the saturation
 * edges and random issue and completion ports, in every quota mode and scheme. Wherever
 * qu_commit_quiet_i takes the cycle, the next state must be qu_commit's. Seeded: the failure
 * message names the seed and the iteration. */
Test(quota_unit, common_cycle_matches_qu_commit,
     .description = "qu_commit_quiet_i (per-slot sums, saturation, clamping) equals qu_commit wherever it applies")
{
    const uint64_t seed = 20261121;
    rng_t r;
    rng_seed(&r, seed);
    /* values near the edges: 0, small, and the last few before saturation */
    const uint32_t sv[] = {0, 1, 5, SMAX - 200, SMAX - 33, SMAX - 1, SMAX};
    const int32_t cv[] = {QMIN, QMIN + 1, QMIN + 31, QMIN + 128, -1, 0, 1, 3, 100, QMAX};
    int taken = 0, sat_thr = 0, sat_wis = 0, clamp = 0;
    for (int it = 0; it < 20000; it++) {
        quota_unit_t a;
        memset(&a, 0, sizeof a);
        qu_reset(&a);
        a.sm_ctrl = u_ctrl(rng_below(&r, 2), rng_below(&r, 4), rng_below(&r, 4), rng_below(&r, 2));
        a.epoch_len = rng_below(&r, 3) ? 0 : 1 + rng_below(&r, 50);
        a.sample_per = rng_below(&r, 3) ? 0 : 1 + rng_below(&r, 50);
        a.qos_mask = rng_below(&r, KALL + 1);
        a.ecnt = rng_below(&r, 2) ? EMAX : rng_below(&r, 40);
        a.scnt = rng_below(&r, 2) ? EMAX : rng_below(&r, 40);
        for (int k = 0; k < NK; k++) {
            a.thr[k] = sv[rng_below(&r, 7)], a.wis[k] = sv[rng_below(&r, 7)], a.cyc[k] = sv[rng_below(&r, 7)];
            a.cnt[k] = cv[rng_below(&r, 10)], a.quota[k] = rng_below(&r, 1000);
            /* stage 1: any sums the ports can give */
            a.tin_r[k] = rng_below(&r, 2) ? 0 : rng_below(&r, NCP * WS + 1);
            a.iin_r[k] = rng_below(&r, 2) ? 0 : rng_below(&r, NS + 1);
        }
        qu_in_t in;
        memset(&in, 0, sizeof in);
        for (int s = 0; s < NS; s++)
            if (rng_below(&r, 4))
                in.iss_v |= 1u << s, in.iss_ks[s] = (uint8_t)rng_below(&r, 1u << SMK_KS_W);
        for (int p = 0; p < NCP; p++)
            if (rng_below(&r, 4))
                in.cp_v |= 1u << p, in.cp_ks[p] = (uint8_t)rng_below(&r, 1u << SMK_KS_W),
                in.cp_act[p] = (uint8_t)rng_below(&r, 2 * SMK_WARP_SIZE + 1); /* > warp_size: clamped */
        in.ks_active = rng_below(&r, KALL + 1);
        in.rd_addr = rng_below(&r, 64);
        qu_out_t out;
        qu_eval(&a, &in, &out);
        quota_unit_t quiet = a, full = a;
        if (!qu_commit_quiet_i(&quiet, &in))
            continue;
        taken++;
        qu_commit(&full, &in, &out);
        for (int k = 0; k < NK; k++) {
            sat_thr += full.thr[k] == SMAX && a.thr[k] != SMAX;
            sat_wis += full.wis[k] == SMAX && a.wis[k] != SMAX;
            clamp += full.cnt[k] == QMIN && a.cnt[k] != QMIN;
        }
        cr_assert(!memcmp(&quiet, &full, sizeof quiet),
                  "seed %llu iteration %d: qu_commit_quiet_i differs from qu_commit (mode %u)",
                  (unsigned long long)seed, it, qu_mode_i(&a));
    }
    /* the edges were reached (the comparison is not vacuous) */
    cr_assert_gt(taken, 5000, "common cycles taken: %d", taken);
    cr_assert_gt(sat_thr, 100, "thr saturated by the cycle: %d", sat_thr);
    cr_assert_gt(sat_wis, 100, "wis saturated by the cycle: %d", sat_wis);
    cr_assert_gt(clamp, 50, "cnt clamped at the bottom by the cycle: %d", clamp);
}
