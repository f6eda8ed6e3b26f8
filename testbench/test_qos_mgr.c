/* test_qos_mgr.c: Criterion unit tests of the QoS manager C model (cmodel/qos_mgr.c, spec
 * docs/qos_mgr.md). Expected values come from the spec: its worked examples (section 12) literally,
 * its cycle formulas (sections 6, 7.5, 8) and hand calculations written out below; the tests do
 * not reuse the model's code.
 *
 * The bench drives the manager through its ports only, with small stubs:
 * - per SM a register file `smreg[s][a]`: rd_data[s] = smreg[s][rd_addr[s]] (combinational, as
 *   the SM), and every csr write lands in it at the edge and is logged (count, `et` of the last
 *   write), so the statistics the manager reads are whatever the test puts there;
 * - the driver's lookup port: a table `lk[s][k]` = {ksv, ks, cnt} that the test edits;
 * - the driver's request port: rq_rdy after `rdy_wait` cycles of rq_v, the ack `ack_lat` cycles
 *   after the acceptance, with a per-request status chosen by the test (`ack_fn`).
 * Cycle = qm_eval, stubs answer from the outputs, qm_commit, SM writes land. Where a value cannot
 * be reached through the ports in a unit test (2^48 instructions) the state is set directly and
 * the test says so. */
#include <criterion/criterion.h>

#include <stdlib.h>
#include <string.h>

#include "qos_mgr.h"
#include "quota_unit.h"

#include "unit_util.h"
/* Every test states what it needs of the configuration (U_NEEDS, EX_L10K, TL_NEEDS): the worked
 * examples (docs/qos_mgr.md section 12) their SMs, kernels, kernel slots, 10,000-cycle epochs and
 * the widths that carry their numbers; the other tests take kernel ids below KN, kernel slots below
 * KS and epochs of TL cycles, and derive their expectations from them. */
TestSuite(qos_mgr, .timeout = 120);

#define NSM QM_NSM
#define KN QM_KN
#define ONE QM_ONE
#define VMAX QM_VMAX
#define R(name) ((uint32_t)SMK_REG_##name)
#define NP (KN * NSM)
#define LCQ ((uint32_t)QM_LC_QOS)
#define LCS ((uint32_t)QM_LC_SMK)
/* step lengths of tables 7.1-7.4 (D = 33 cycles per division, MM = 4 per MUL) */
#define MM 4u
#define C1L (4u + 5u * 33u + 3u * (MM - 1u)) /* C1 per kernel: 178 */
#define C2L (2u + 33u + 2u * (MM - 1u))      /* C2 per kernel: 41 */
#define WL (NP + MM + 1u)                    /* W */

/* The epochs of the tests. The worked examples (section 12) take the papers' L = 10,000 cycles; a
 * configuration whose computation (LC_QOS, section 7.5) takes more than half of them cannot hold
 * the examples' windows and skips them, saying so (EX_L10K). The other tests run with TL: 10,000
 * cycles where the examples fit and the computation and a TLP pass over every SM fit in them, else
 * LC_QOS + max(10,000, the pass + 1,000), so every phase of the timeline has its room; their
 * expectations are written in L. TL_NEEDS skips them where even TL + 2,000 (timeline_qos's
 * longest epoch) exceeds the EW-bit epoch registers. */
#define EMAX ((uint32_t)SMK_MASK(SMK_EPOCH_W)) /* largest EPOCH_LEN */
#define EX_FITS (LCQ <= 5000u && 10000u <= EMAX)
/* one TLP pass over every SM (tlp_resume, e4: per SM a request KN (3 + MM + DT) + 7 cycles apart) */
#define TLP_PASS ((uint32_t)(NSM * (KN * (3 + MM + QM_DT) + 8)))
#define TL_BIG (EX_FITS && LCQ + TLP_PASS + 1000u <= 10000u ? 10000u                                 \
                : LCQ + (TLP_PASS + 1000u > 10000u ? TLP_PASS + 1000u : 10000u))
/* where the EW-bit EPOCH_LEN cannot hold TL_BIG + 2,000, the longest epoch it holds less 100 cycles,
 * so that timeline_qos can still lengthen it (by TLG cycles) */
#define TL (TL_BIG + 2000u <= EMAX ? TL_BIG : EMAX - 100u)
#define TLG (TL + 2000u <= EMAX ? 2000u : EMAX - TL)
/* the least TL the tests' timeline needs: the computation, a TLP pass over every SM, 200 cycles */
#define TL_MIN (LCQ + TLP_PASS + 200u)
#define EX_L10K()                                                                                  \
    do {                                                                                           \
        if (!EX_FITS)                                                                              \
            cr_skip_test("the worked example's 10,000-cycle epoch cannot hold this configuration's " \
                         "computation (needs LC_QOS <= 5000 and EPOCH_W >= 14; LC_QOS is %u, EPOCH_W %d)", \
                         LCQ, SMK_EPOCH_W);                                                         \
    } while (0)
#define TL_NEEDS()                                                                                 \
    do {                                                                                           \
        if (TL < TL_MIN)                                                                           \
            cr_skip_test("epochs of LC_QOS %u + a TLP pass %u + 200 cycles exceed EPOCH_LEN's %d bits", \
                         LCQ, TLP_PASS, SMK_EPOCH_W);                                              \
    } while (0)

/* a statistic the stub SMs return must fit their SW-bit counters */
#define SW_FITS(v) ((uint64_t)(v) <= (uint64_t)SMK_MASK(SMK_STAT_W))

/* MCTRL words, STATUS words (hw/regmap.def, space QM) */
#define MC_EN QM_FLD(MCTRL, EN, 1)
#define MC_MODE(m) QM_FLD(MCTRL, MODE, m)
#define MC_SCHEME(s) QM_FLD(MCTRL, SCHEME, s)
#define MC_ROLLNEG QM_FLD(MCTRL, ROLLNEG, 1)
#define MC_POLICY QM_FLD(MCTRL, POLICY, 1)
#define MC_TLP QM_FLD(MCTRL, TLP, 1)
#define STATUS(st, mode, own, tl)                                                                  \
    (QM_FLD(STATUS, ST, st) | QM_FLD(STATUS, CUR_MODE, mode) | QM_FLD(STATUS, OWN, own) | QM_FLD(STATUS, TL_ST, tl))
#define QM_AN (1u << SMK_QM_ADDR_W) /* host addresses */
#define QM_WN (1u << SMK_QM_WIN_W)  /* words of an array's window */
/* SM_CTRL word from its fields (docs/quota_unit.md) */
#define SMCTRL(pol, mode, sch, rn)                                                                 \
    (((uint32_t)(pol) << SMK_SM_CTRL_POLICY_LSB) | ((uint32_t)(mode) << SMK_SM_CTRL_QMODE_LSB) |  \
     ((uint32_t)(sch) << SMK_SM_CTRL_QSCHEME_LSB) | ((uint32_t)(rn) << SMK_SM_CTRL_ROLLNEG_LSB))

typedef struct {
    uint32_t v, ks, cnt;
} lk_t;
typedef struct {
    uint32_t st, kv, n;
} ack_t;
typedef struct {
    uint32_t k, sm, ret, give[KN];
    long cyc; /* first cycle with rq_v */
    uint32_t et;
} req_t;

typedef struct tb tb_t;
struct tb {
    qos_mgr_t q;
    qm_in_t in;
    qm_out_t out;
    long cyc;
    uint32_t et, st; /* of the cycle just run (before its edge) */
    uint32_t smreg[NSM][256];
    uint32_t wn[NSM][256], wet[NSM][256]; /* write count, et of the last write */
    lk_t lk[NSM][KN];
    /* request stub */
    int rdy_wait, ack_lat, rs, rc, proto_err;
    ack_t (*ack_fn)(tb_t *b, const req_t *r);
    req_t req[128];
    int nreq;
};

static tb_t g_tb; /* one bench per test (Criterion runs each test in its own process) */

static tb_t *tb_new(void)
{
    tb_t *b = &g_tb;
    memset(b, 0, sizeof *b);
    qm_reset(&b->q);
    b->rdy_wait = 2, b->ack_lat = 3;
    return b;
}

static ack_t ack_refused(tb_t *b, const req_t *r)
{
    (void)b, (void)r;
    return (ack_t){3, 0, 0};
}

static void step(tb_t *b)
{
    qm_in_t *in = &b->in;
    qm_out_t *o = &b->out;
    b->et = b->q.et, b->st = b->q.st;
    qm_eval(&b->q, in, o);
    /* lookup stub (combinational in the driver's state) */
    in->lk_ksv = in->lk_ks = in->lk_cnt = in->lk_part = 0;
    if (o->lk_s < NSM && o->lk_k < KN) {
        const lk_t e = b->lk[o->lk_s][o->lk_k];
        in->lk_ksv = e.v, in->lk_ks = e.ks, in->lk_cnt = e.cnt;
    }
    for (int s = 0; s < NSM; s++)
        in->rd_data[s] = b->smreg[s][o->rd_addr[s] & 0xff];
    /* request stub */
    in->rq_rdy = 0, in->rq_ack_v = in->rq_ack_st = in->rq_ack_kv = in->rq_ack_n = 0;
    if (b->rs == 0 && o->rq_v) {
        req_t *r = &b->req[b->nreq < 128 ? b->nreq : 127];
        r->k = o->rq_k, r->sm = o->rq_sm, r->ret = o->rq_ret, r->cyc = b->cyc, r->et = b->et;
        memcpy(r->give, o->rq_give, sizeof r->give);
        b->nreq++;
        b->rs = 1, b->rc = 0;
    } else if (b->rs == 0 && (o->rq_k || o->rq_sm || o->rq_ret))
        b->proto_err = 1; /* rq_k, rq_sm, rq_ret are 0 without rq_v */
    if (b->rs == 1) {
        if (!o->rq_v)
            b->proto_err = 2; /* rq_v dropped before the acceptance */
        if (b->rc >= b->rdy_wait)
            in->rq_rdy = 1, b->rs = 2, b->rc = 0;
        else
            b->rc++;
    } else if (b->rs == 2) {
        if (o->rq_v)
            b->proto_err = 3; /* a second request before the ack */
        if (++b->rc == b->ack_lat) {
            const ack_t a = (b->ack_fn ? b->ack_fn : ack_refused)(b, &b->req[b->nreq - 1]);
            in->rq_ack_v = 1, in->rq_ack_st = a.st, in->rq_ack_kv = a.kv, in->rq_ack_n = a.n;
            b->rs = 0;
        }
    }
    qm_commit(&b->q, in, o);
    for (int s = 0; s < NSM; s++)
        if ((o->csr_we >> s) & 1) {
            const uint32_t a = o->csr_addr[s] & 0xff;
            b->smreg[s][a] = o->csr_wdata[s];
            b->wn[s][a]++, b->wet[s][a] = b->et;
        }
    in->m_we = 0, in->kl_v = 0, in->kl_rej = 0, in->kdone_v = 0;
    b->cyc++;
}

static void mwrite(tb_t *b, uint32_t a, uint32_t d)
{
    b->in.m_we = 1, b->in.m_addr = a, b->in.m_wdata = d;
    step(b);
}
static uint32_t mread(tb_t *b, uint32_t a)
{
    b->in.m_raddr = a;
    qm_eval(&b->q, &b->in, &b->out);
    return b->out.m_rdata;
}
/* the launch is presented in this cycle (kl_rej of the next cycle: 0 unless the test sets it) */
static void launch(tb_t *b, uint32_t k, uint32_t n, uint32_t qos, uint32_t goal, uint32_t x, uint32_t t)
{
    b->in.kl_v = 1, b->in.kl_k = k, b->in.kl_n = n, b->in.kl_qos = qos, b->in.kl_goal = goal;
    b->in.kl_x = x, b->in.kl_t = t, b->in.kl_keep = 0;
    step(b);
}
/* the same with kl_keep = 1: a relaunch of the same application (section 4) */
static void relaunch(tb_t *b, uint32_t k, uint32_t n, uint32_t qos, uint32_t goal, uint32_t x, uint32_t t)
{
    b->in.kl_v = 1, b->in.kl_k = k, b->in.kl_n = n, b->in.kl_qos = qos, b->in.kl_goal = goal;
    b->in.kl_x = x, b->in.kl_t = t, b->in.kl_keep = 1;
    step(b);
    b->in.kl_keep = 0;
}
/* steps until the state is RUN with et == e (before that cycle's eval) */
static void run_to_et(tb_t *b, uint32_t e)
{
    for (long i = 0; i < 400000; i++) {
        if (b->q.st == QM_ST_RUN && b->q.et == e)
            return;
        step(b);
    }
    cr_assert_fail("et %u never reached", e);
}
static void clear_wlog(tb_t *b)
{
    memset(b->wn, 0, sizeof b->wn);
    memset(b->wet, 0, sizeof b->wet);
}
/* enable with EPOCH_LEN, SAMPLE_PER and MCTRL: 3 host writes, then INIT (5 cycles) */
static void enable(tb_t *b, uint32_t len, uint32_t sper, uint32_t mctrl)
{
    mwrite(b, SMK_QM_REG_EPOCH_LEN, len);
    mwrite(b, SMK_QM_REG_SAMPLE_PER, sper);
    mwrite(b, SMK_QM_REG_MCTRL, mctrl | MC_EN);
    cr_assert_eq(b->q.st, (uint32_t)QM_ST_INIT);
    for (int i = 0; i < 5; i++)
        step(b);
    cr_assert_eq(b->q.st, (uint32_t)QM_ST_RUN);
    cr_assert_eq(b->q.et, 0u);
}

/* ---- reset, constants, arithmetic ----------------------------------------------------------- */

Test(qos_mgr, reset_values, .description = "reset: every state 0 except P, ipc_ep, alpha = ONE; outputs 0; register reads")
{
    qos_mgr_t q;
    memset(&q, 0x5a, sizeof q);
    qm_reset(&q);
    cr_assert_eq(q.st, 0u);
    cr_assert_eq(q.own, 0u);
    cr_assert_eq(q.et, 0u);
    cr_assert_eq(q.L, 0u);
    cr_assert_eq(q.epochs, 0u);
    cr_assert_eq(q.tl_st, 0u);
    cr_assert_eq(q.P, 0x10000u);
    for (int k = 0; k < KN; k++) {
        cr_assert_eq(q.ipc_ep[k], 0x10000u);
        cr_assert_eq(q.alpha[k], 0x10000u);
        cr_assert_eq(q.mv[k] | q.hist[k] | q.agoal[k] | q.qpt[k] | q.wcnt[k] | q.itb[k] | q.give[k], 0u);
        cr_assert_eq(q.cum_i[k], 0u);
    }
    qm_in_t in;
    memset(&in, 0, sizeof in);
    qm_out_t o;
    memset(&o, 0xff, sizeof o);
    qm_eval(&q, &in, &o);
    cr_assert_eq(o.csr_we, 0u);
    cr_assert_eq(o.own | o.rq_v | o.rq_k | o.rq_sm | o.lk_s | o.lk_k, 0u);
    for (int s = 0; s < NSM; s++)
        cr_assert_eq(o.csr_addr[s] | o.csr_wdata[s] | o.rd_addr[s], 0u);
    for (uint32_t a = 0; a < QM_AN; a++) {
        uint32_t e = 0;
        if (a == SMK_QM_REG_PROD || (a >= SMK_QM_REG_IPC_EP && a < SMK_QM_REG_IPC_EP + KN) || (a >= SMK_QM_REG_ALPHA && a < SMK_QM_REG_ALPHA + KN))
            e = 0x10000u;
        cr_assert_eq(qm_read(&q, a), e, "read 0x%03x", a);
    }
}

Test(qos_mgr, constants_and_primitives, .description = "LC table of section 7.5; MUL and DIV (section 2) on the worked examples' numbers and at saturation")
{
    cr_assert_eq(QM_D, 33);
    cr_assert_eq(QM_MM, MM);
    cr_assert_eq(LCQ, 1u + (NP + 1u) + KN * C1L + KN * C2L + WL + 4u);
    cr_assert_eq(LCQ, 2u * KN * NSM + 219u * KN + 11u);
    cr_assert_eq(LCS, 5u + 33u * KN + NSM * (2u * KN + 41u));
    if (NSM == 16 && KN == 8)
        cr_assert(LCQ == 2019 && LCS == 1181, "gtx980");
    if (NSM == 2 && KN == 8)
        cr_assert(LCQ == 1795 && LCS == 383, "small");
    if (NSM == 56 && KN == 8)
        cr_assert(LCQ == 2659 && LCS == 3461, "pascal56");
    cr_assert_eq(qm_lc(SMK_QMODE_QOS), LCQ);
    cr_assert_eq(qm_lc(SMK_QMODE_OFF), LCQ);
    cr_assert_eq(qm_lc(SMK_QMODE_SMK), LCS);
    /* E1 */
    cr_assert_eq(qm_div(UINT64_C(1000000) << 16, 10000, 32), 6553600u);
    cr_assert_eq(qm_div(UINT64_C(8192000) << 16, 6553600, 32), 0x14000u);
    cr_assert_eq(qm_mul(81920, 8192000, 16), 10240000u);
    cr_assert_eq(qm_div(UINT64_C(6553600) << 16, 10240000, 32), 41943u);
    cr_assert_eq(qm_div(98304000, 6553600, 32), 15u);
    cr_assert_eq(qm_mul(10240000, 10000, 16), 1562500u);
    cr_assert_eq(qm_div(1562500, 12, 32), 130208u);
    /* E2 */
    cr_assert_eq(qm_mul(47185, 78643, 16), 56621u);
    cr_assert_eq(qm_mul(13107200, 56621, 16), 11324200u);
    /* E3 */
    cr_assert_eq(qm_div(UINT64_C(26214) << 16, 8, 32), 214745088u);
    cr_assert_eq(qm_mul(214745088, 2, 16), 6553u);
    cr_assert_eq(qm_div(UINT64_C(40000) << 16, 22937, 32), 114288u);
    cr_assert_eq(qm_mul(6553, 114288, 16), 11427u);
    cr_assert_eq(qm_mul(16384, 114288, 16), 28572u);
    /* saturation: B = 0, A >= B * 2^q (exactly at the limit and one below), q = QT */
    cr_assert_eq(qm_div(123, 0, 32), VMAX);
    cr_assert_eq(qm_div(0, 0, 32), VMAX);
    cr_assert_eq(qm_div(UINT64_C(7) << 32, 7, 32), VMAX);
    cr_assert_eq(qm_div((UINT64_C(7) << 32) - 1, 7, 32), 0xFFFFFFFFu, "one below the limit: exact quotient 2^32 - 1");
    cr_assert_eq(qm_div(UINT64_C(1) << 40, 1000, 32), 1099511627u);
    cr_assert_eq(qm_div(0, VMAX, 32), 0u);
    cr_assert_eq(qm_div(100, 3, 5), 31u, "33 >= 2^5: saturates to 2^5 - 1");
    cr_assert_eq(qm_div(93, 3, 5), 31u, "93 < 96: exact 31");
    cr_assert_eq(qm_div(650, 400, 7), 1u);
    cr_assert_eq(qm_mul(VMAX, VMAX, 16), VMAX);
    cr_assert_eq(qm_mul(VMAX, 10000, 16), 655359999u);
    cr_assert_eq(qm_mul(0x10000, 0x10000, 0), VMAX);
    cr_assert_eq(qm_mul(UINT64_C(1) << 40, 1, 0), VMAX, "operands saturated to 32 bits first");
}

/* ---- host registers ------------------------------------------------------------------------- */

Test(qos_mgr, host_registers, .description = "MCTRL / EPOCH_LEN / SAMPLE_PER widths, read-only and unmapped addresses, STATUS, arrays >= KN read 0")
{
    tb_t *b = tb_new();
    mwrite(b, SMK_QM_REG_MCTRL, 0xFFFFFF7Eu); /* EN = 0: stays IDLE */
    cr_assert_eq(mread(b, SMK_QM_REG_MCTRL), 0xF7Eu); /* bits [11:0] */
    cr_assert_eq(b->q.st, 0u);
    mwrite(b, SMK_QM_REG_EPOCH_LEN, 0xFFFFFFFFu);
    cr_assert_eq(mread(b, SMK_QM_REG_EPOCH_LEN), (uint32_t)SMK_MASK(SMK_EPOCH_W));
    mwrite(b, SMK_QM_REG_SAMPLE_PER, 0x12345678u);
    cr_assert_eq(mread(b, SMK_QM_REG_SAMPLE_PER), 0x12345678u & (uint32_t)SMK_MASK(SMK_EPOCH_W));
    const qos_mgr_t before = b->q;
    for (uint32_t a = 0; a < QM_AN; a++) { /* read-only or unmapped: ignored */
        if (a == SMK_QM_REG_MCTRL || a == SMK_QM_REG_EPOCH_LEN || a == SMK_QM_REG_SAMPLE_PER)
            continue;
        mwrite(b, a, 0xFFFFFFFFu);
        cr_assert_eq(b->q.P, before.P, "addr 0x%03x", a);
        cr_assert_eq(b->q.epochs | b->q.et | b->q.L | b->q.st, 0u, "addr 0x%03x", a);
        cr_assert_eq(b->q.mgoal[0] | b->q.qpt[KN - 1], 0u);
    }
    mwrite(b, QM_AN + SMK_QM_REG_SAMPLE_PER, 5); /* m_addr is MA_W = SMK_QM_ADDR_W bits */
    cr_assert_eq(mread(b, SMK_QM_REG_SAMPLE_PER), 5u);
    /* unmapped window-0 words, and kernel indices >= KN */
    for (uint32_t a = SMK_QM_REG_PROD + 1; a < QM_WN; a++)
        cr_assert_eq(mread(b, a), 0u);
    for (uint32_t w = QM_WN; w < QM_AN; w += QM_WN)
        for (uint32_t k = KN; k < QM_WN; k++)
            cr_assert_eq(mread(b, w + k), 0u, "0x%03x", w + k);
    /* GOAL / TBS through a launch */
    launch(b, KN - 1, 3, 1, 0x12345678u, 0, 0);
    step(b);
    cr_assert_eq(mread(b, SMK_QM_REG_GOAL + KN - 1), 0x12345678u);
    cr_assert_eq(mread(b, SMK_QM_REG_TBS + KN - 1), 0u);
    /* STATUS = {tl_st, own, cur_mode, st}; ET, CUR_LEN, EPOCHS while running (20,000 cycles where
     * EPOCH_LEN holds them, raised to LC_SMK where that is longer) */
    const uint32_t hl = 20000u <= EMAX ? 20000u : EMAX, hL = hl > LCS ? hl : LCS;
    mwrite(b, SMK_QM_REG_EPOCH_LEN, hl);
    mwrite(b, SMK_QM_REG_MCTRL, MC_EN | MC_MODE(SMK_QMODE_SMK));
    cr_assert_eq(mread(b, SMK_QM_REG_STATUS), STATUS(QM_ST_INIT, 0, 1, 0));
    for (int i = 0; i < 5; i++)
        step(b);
    cr_assert_eq(mread(b, SMK_QM_REG_STATUS), STATUS(QM_ST_RUN, SMK_QMODE_SMK, 1, 0));
    cr_assert_eq(mread(b, SMK_QM_REG_EPOCHS), 1u);
    cr_assert_eq(mread(b, SMK_QM_REG_CUR_LEN), hL);
    for (int i = 0; i < 7; i++)
        step(b);
    cr_assert_eq(mread(b, SMK_QM_REG_ET), 7u);
}

/* ---- kernel table --------------------------------------------------------------------------- */

Test(qos_mgr, launch_snoop, .description = "pending register, commit one edge later unless kl_rej, refused launch dropped, commit beats kdone, x clamp, wcnt")
{
    /* kernel 2, a refused kernel 1, another kernel 0 done at a commit edge; warp counts 5 and 7 */
    U_NEEDS(QM_KN >= 3 && SMK_WARPS >= 7);
    tb_t *b = tb_new();
    const uint32_t t9 = 9 < QM_GVMAX ? 9 : QM_GVMAX; /* a kl_t that fits GVW bits */
    launch(b, 2, 5, 1, 0x7D0000, 0x1FFFF, t9); /* cycle 0 */
    cr_assert_eq(b->q.pl_v, 1u);
    cr_assert_eq(b->q.pl_k, 2u);
    cr_assert_eq(b->q.pl_x, 0x10000u, "x clamped to ONE");
    cr_assert_eq(b->q.mv[2], 0u, "not yet committed");
    step(b); /* cycle 1: kl_rej = 0: commit at this edge */
    cr_assert_eq(b->q.pl_v, 0u);
    cr_assert_eq(b->q.mv[2], 1u);
    cr_assert_eq(b->q.mqos[2], 1u);
    cr_assert_eq(b->q.mkn[2], 5u);
    cr_assert_eq(b->q.mgoal[2], 0x7D0000u);
    cr_assert_eq(b->q.mx[2], 0x10000u);
    cr_assert_eq(b->q.mt[2], t9);
    cr_assert_eq(b->q.fresh[2], 1u);
    cr_assert_eq(b->q.wcnt[2], 0u);
    for (int i = 0; i < 10; i++)
        step(b);
    cr_assert_eq(b->q.wcnt[2], 10u, "counts cycles with mv while disabled");
    cr_assert_eq(b->q.wcnt[1], 0u);
    /* refused: kl_rej in the next cycle drops it */
    launch(b, 1, 4, 0, 0, 0x8000, 3);
    cr_assert_eq(b->q.pl_x, 0x8000u);
    b->in.kl_rej = 1;
    step(b);
    cr_assert_eq(b->q.mv[1], 0u, "refused launch dropped");
    cr_assert_eq(b->q.mkn[1], 0u);
    /* kdone clears mv only; the other fields hold */
    b->q.hist[2] = 777; /* white box: a value the kdone must keep */
    b->in.kdone_v = 1, b->in.kdone_k = 2;
    step(b);
    cr_assert_eq(b->q.mv[2], 0u);
    cr_assert_eq(b->q.mgoal[2], 0x7D0000u);
    cr_assert_eq(b->q.hist[2], 777u);
    const uint32_t w = b->q.wcnt[2];
    step(b);
    cr_assert_eq(b->q.wcnt[2], w, "no counting without mv");
    /* relaunch of 2: commit and kdone of 2 at the same edge: the commit wins, fields re-initialised */
    launch(b, 2, 7, 0, 0x1234, 0x100, 2);
    b->in.kdone_v = 1, b->in.kdone_k = 2;
    step(b);
    cr_assert_eq(b->q.mv[2], 1u, "commit wins");
    cr_assert_eq(b->q.mqos[2], 0u);
    cr_assert_eq(b->q.mkn[2], 7u);
    cr_assert_eq(b->q.hist[2], 0u);
    cr_assert_eq(b->q.ipc_ep[2], 0x10000u);
    cr_assert_eq(b->q.alpha[2], 0x10000u);
    cr_assert_eq(b->q.wcnt[2], 0u);
    /* kdone of another kernel at a commit edge: both apply */
    launch(b, 0, 1, 0, 0, 0, 0);
    b->in.kdone_v = 1, b->in.kdone_k = 2;
    step(b);
    cr_assert_eq(b->q.mv[0], 1u);
    cr_assert_eq(b->q.mv[2], 0u);
    /* back-to-back launches of the two free entries (1 and 2): each commits one edge after its cycle */
    launch(b, 1, 1, 0, 0, 0, 0);
    launch(b, 2, 2, 1, 99, 0, 0);
    cr_assert_eq(b->q.mv[1], 1u);
    cr_assert_eq(b->q.mv[2], 0u);
    step(b);
    cr_assert_eq(b->q.mv[2], 1u);
    cr_assert_eq(b->q.mgoal[2], 99u);
}

/* ---- timeline ------------------------------------------------------------------------------- */

/* every SM got exactly address a written with d, in the cycle with et == e (RUN) */
static void expect_all(const tb_t *b, uint32_t a, uint32_t d, uint32_t e, const char *tag)
{
    for (int s = 0; s < NSM; s++) {
        cr_assert_eq(b->wn[s][a], 1u, "%s: SM %d address 0x%02x written %u times", tag, s, a, b->wn[s][a]);
        cr_assert_eq(b->smreg[s][a], d, "%s: SM %d data 0x%x, expected 0x%x", tag, s, b->smreg[s][a], d);
        cr_assert_eq(b->wet[s][a], e, "%s: SM %d at et %u, expected %u", tag, s, b->wet[s][a], e);
    }
}

Test(qos_mgr, timeline_qos, .description = "INIT writes, S / G / C1 / C2 / W / F0-F3 at the cycles of section 7 (E5e on small), windows of L cycles, EPOCHS")
{
    TL_NEEDS();
    tb_t *b = tb_new();
    const uint32_t L = TL, S = L - LCQ;
    const uint32_t mc = MC_MODE(SMK_QMODE_QOS) | MC_SCHEME(SMK_QSCHEME_ROLLOVER) | MC_ROLLNEG | MC_POLICY;
    mwrite(b, SMK_QM_REG_EPOCH_LEN, L);
    mwrite(b, SMK_QM_REG_SAMPLE_PER, 100);
    mwrite(b, SMK_QM_REG_MCTRL, mc | MC_EN);
    cr_assert_eq(b->q.own, 1u, "own from the enable edge");
    const uint32_t init_a[5] = {R(SM_CTRL), R(EPOCH_LEN), R(SAMPLE_PER), R(QOS_MASK), R(CMD)};
    const uint32_t init_d[5] = {SMCTRL(1, SMK_QMODE_OFF, SMK_QSCHEME_ROLLOVER, 1), 0, 100, 0, 3};
    for (int i = 0; i < 5; i++) {
        step(b);
        cr_assert_eq(b->out.csr_we, SMK_MASK(NSM), "INIT %d: every SM", i);
        for (int s = 0; s < NSM; s++) {
            cr_assert_eq(b->out.csr_addr[s], init_a[i], "INIT %d", i);
            cr_assert_eq(b->out.csr_wdata[s], init_d[i], "INIT %d", i);
        }
        cr_assert_eq(b->out.own, 1u);
    }
    cr_assert_eq(b->q.st, (uint32_t)QM_ST_RUN);
    cr_assert_eq(b->q.cur_mode, (uint32_t)SMK_QMODE_QOS);
    cr_assert_eq(b->q.L, L);
    cr_assert_eq(b->q.epochs, 1u);
    clear_wlog(b);
    /* epoch 0: nothing is written before the SNAP cycle */
    for (uint32_t e = 0; e < S; e++) {
        step(b);
        cr_assert_eq(b->out.csr_we, 0u, "et %u", e);
    }
    step(b); /* S */
    expect_all(b, R(CMD), 2, S, "SNAP");
    /* G: lookups (s, k), k outer, from S+1 to S+NP */
    for (uint32_t p = 0; p < NP; p++) {
        step(b);
        cr_assert_eq(b->et, S + 1 + p);
        cr_assert_eq(b->out.lk_s, p % NSM, "G pair %u", p);
        cr_assert_eq(b->out.lk_k, p / NSM, "G pair %u", p);
    }
    step(b); /* the last gather cycle: no lookup */
    cr_assert_eq(b->out.lk_s | b->out.lk_k, 0u);
    const uint32_t c1 = S + NP + 2, c2 = c1 + KN * C1L, w0 = c2 + KN * C2L;
    if (NSM == 2 && KN == 8 && L == 10000) /* E5(e) literally */
        cr_assert(S == 8205 && c1 == 8223 && c2 == 9647 && w0 == 9975 && w0 + WL == 9996, "E5(e)");
    /* C1, C2: no port activity */
    while (b->q.et < w0) {
        step(b);
        cr_assert_eq(b->out.csr_we, 0u);
        cr_assert_eq(b->out.lk_s | b->out.lk_k, 0u);
    }
    /* W: lookups p = 0 .. NP-1 at w0 + p */
    for (uint32_t p = 0; p < WL; p++) {
        step(b);
        if (p < NP)
            cr_assert(b->out.lk_s == p % NSM && b->out.lk_k == p / NSM, "W pair %u", p);
        cr_assert_eq(b->out.csr_we, 0u, "no kernel: no QUOTA write");
    }
    cr_assert_eq(b->q.et, L - 4);
    step(b);
    expect_all(b, R(SAMPLE_PER), 100, L - 4, "F0");
    step(b);
    expect_all(b, R(QOS_MASK), 0, L - 3, "F1");
    step(b);
    expect_all(b, R(SM_CTRL), SMCTRL(1, SMK_QMODE_QOS, SMK_QSCHEME_ROLLOVER, 1), L - 2, "F2");
    step(b);
    cr_assert_eq(b->smreg[0][R(CMD)], 1u, "F3: EPOCH_START");
    cr_assert_eq(b->wn[0][R(CMD)], 2u);
    cr_assert_eq(b->wet[0][R(CMD)], L - 1);
    cr_assert_eq(b->q.et, 0u);
    cr_assert_eq(b->q.epochs, 2u);
    /* the next SNAP comes exactly L cycles after the previous one */
    clear_wlog(b);
    run_to_et(b, S);
    cr_assert_eq(b->wn[0][R(CMD)], 0u);
    step(b);
    expect_all(b, R(CMD), 2, S, "SNAP 2");
    /* a new EPOCH_LEN takes effect at the next epoch start only; Lq of c2.1 uses it at once */
    mwrite(b, SMK_QM_REG_EPOCH_LEN, L + TLG);
    run_to_et(b, L - 1);
    step(b);
    cr_assert_eq(b->q.L, L + TLG);
    cr_assert_eq(mread(b, SMK_QM_REG_CUR_LEN), L + TLG);
    cr_assert_eq(mread(b, SMK_QM_REG_EPOCHS), 3u);
    clear_wlog(b);
    run_to_et(b, L + TLG - LCQ);
    cr_assert_eq(b->wn[0][R(CMD)], 0u);
    step(b);
    cr_assert_eq(b->wn[NSM - 1][R(CMD)], 1u, "SNAP at the new L - LC");
    /* EPOCH_LEN below LC: L = LC, the SNAP is the first cycle of the epoch */
    mwrite(b, SMK_QM_REG_EPOCH_LEN, 5);
    run_to_et(b, L + TLG - 1);
    step(b);
    cr_assert_eq(b->q.L, LCQ);
    clear_wlog(b);
    step(b);
    expect_all(b, R(CMD), 2, 0, "SNAP at et 0");
}

Test(qos_mgr, timeline_smk_off, .description = "SMK: SNAP at L - LC_SMK, F writes with QMODE SMK and QOS_MASK 0; MODE 3 is OFF with LC_QOS")
{
    TL_NEEDS();
    tb_t *b = tb_new();
    const uint32_t L = TL;
    enable(b, L, 7, MC_MODE(SMK_QMODE_SMK) | MC_SCHEME(1));
    cr_assert_eq(b->q.cur_mode, (uint32_t)SMK_QMODE_SMK);
    clear_wlog(b);
    run_to_et(b, L - LCS);
    cr_assert_eq(b->wn[0][R(CMD)], 0u);
    step(b);
    expect_all(b, R(CMD), 2, L - LCS, "SMK SNAP");
    run_to_et(b, L - 1);
    step(b);
    expect_all(b, R(SAMPLE_PER), 7, L - 4, "F0");
    expect_all(b, R(QOS_MASK), 0, L - 3, "F1");
    expect_all(b, R(SM_CTRL), SMCTRL(0, SMK_QMODE_SMK, 1, 0), L - 2, "F2");
    cr_assert_eq(b->wet[0][R(CMD)], L - 1);
    /* MODE 3 written during the epoch: the next epoch is OFF (LC_QOS, QMODE OFF written) */
    mwrite(b, SMK_QM_REG_MCTRL, MC_EN | MC_MODE(3));
    run_to_et(b, L - 1);
    step(b);
    cr_assert_eq(b->q.cur_mode, (uint32_t)SMK_QMODE_OFF);
    clear_wlog(b);
    run_to_et(b, L - LCQ);
    step(b);
    expect_all(b, R(CMD), 2, L - LCQ, "OFF SNAP");
    run_to_et(b, L - 1);
    step(b);
    expect_all(b, R(SM_CTRL), SMCTRL(0, SMK_QMODE_OFF, 0, 0), L - 2, "F2 OFF");
}

Test(qos_mgr, disable, .description = "EN = 0: STOP writes SM_CTRL OFF to every SM, then IDLE and own = 0; EN = 1 during STOP ignored")
{
    tb_t *b = tb_new();
    enable(b, TL, 0, MC_MODE(SMK_QMODE_QOS) | MC_SCHEME(2) | MC_TLP);
    run_to_et(b, 20);
    mwrite(b, SMK_QM_REG_MCTRL, MC_MODE(SMK_QMODE_QOS) | MC_SCHEME(2)); /* et 20: disable */
    cr_assert_eq(b->q.st, (uint32_t)QM_ST_STOP);
    cr_assert_eq(b->q.et, 20u, "et does not advance at the disable edge");
    cr_assert_eq(b->q.own, 1u);
    mwrite(b, SMK_QM_REG_MCTRL, MC_EN); /* the STOP cycle: EN = 1 ignored */
    cr_assert_eq(b->out.csr_we, SMK_MASK(NSM));
    for (int s = 0; s < NSM; s++) {
        cr_assert_eq(b->out.csr_addr[s], R(SM_CTRL));
        cr_assert_eq(b->out.csr_wdata[s], SMCTRL(0, SMK_QMODE_OFF, 2, 0), "fields of MCTRL in the STOP cycle");
    }
    cr_assert_eq(b->q.st, (uint32_t)QM_ST_IDLE);
    cr_assert_eq(b->q.own, 0u);
    step(b);
    cr_assert_eq(b->q.st, (uint32_t)QM_ST_IDLE, "the EN = 1 written during STOP did not enable");
    cr_assert_eq(b->out.csr_we, 0u);
    cr_assert_eq(mread(b, SMK_QM_REG_MCTRL), 1u);
    /* EN = 1 again while IDLE: INIT; disable during INIT */
    mwrite(b, SMK_QM_REG_MCTRL, MC_EN);
    step(b);
    cr_assert_eq(b->q.init_i, 1u);
    mwrite(b, SMK_QM_REG_MCTRL, 0);
    cr_assert_eq(b->q.st, (uint32_t)QM_ST_STOP);
    cr_assert_eq(b->q.init_i, 0u);
    step(b);
    cr_assert_eq(b->q.st, (uint32_t)QM_ST_IDLE);
}

/* ---- worked examples ------------------------------------------------------------------------ */

/* E1: kernel 0 on SM0 slot 1 (5 TBs, 600000 thread instructions) and SM1 slot 0 (7 TBs, 400000).
 * The kernel is committed at the SNAP edge of epoch 0 (E5(c): wc = 0 at that computation), so the
 * first computation with a window is epoch 1's, over exactly L = 10000 cycles with cum = 0. */
/* E1's set-up (after its EX_L10K and U_NEEDS): the two SMs' slots and statistics, the manager
 * enabled in QOS mode under Rollover with the MCTRL fields `extra` */
static tb_t *e1_begin(uint32_t extra)
{
    tb_t *b = tb_new();
    b->lk[0][0] = (lk_t){1, 1, 5};
    b->lk[1][0] = (lk_t){1, 0, 7};
    b->smreg[0][R(STAT_THR) + 1] = 600000;
    b->smreg[1][R(STAT_THR) + 0] = 400000;
    enable(b, 10000, 100, MC_MODE(SMK_QMODE_QOS) | MC_SCHEME(SMK_QSCHEME_ROLLOVER) | extra);
    return b;
}
#define E1_NEEDS() U_NEEDS(QM_NSM >= 2 && SMK_KSLOTS >= 2 && QM_GVMAX >= 7 && SW_FITS(600000) && QM_QMAX >= 911456u)

Test(qos_mgr, e1_alpha_and_split, .description = "E1 exactly (alpha 1.25 = 0x14000, quotas 651040 / 911456, QOS_MASK) and E5(c)")
{
    EX_L10K();
    /* SM0 slot 1 and SM1, 7 TBs, 600000 instructions, QUOTA 911456 */
    E1_NEEDS();
    tb_t *b = e1_begin(0);
    const uint32_t L = 10000, S = L - LCQ;
    run_to_et(b, S - 1);
    launch(b, 0, 4, 1, 0x7D0000, 0, 0);
    step(b); /* S: commit at this edge */
    cr_assert_eq(b->q.mv[0], 1u);
    cr_assert_eq(b->q.wc[0], 0u, "E5(c): commit at the SNAP edge wins: wc = 0");
    run_to_et(b, L - 1);
    step(b);
    /* E5(c): first computation with wc = 0 */
    cr_assert_eq(b->q.ipc_ep[0], 0x10000u);
    cr_assert_eq(b->q.cum_i[0], 0u);
    cr_assert_eq(b->q.cum_c[0], 0u);
    cr_assert_eq(b->q.hist[0], 0u);
    cr_assert_eq(b->q.alpha[0], 0x10000u);
    cr_assert_eq(b->q.isum[0], 1000000u);
    cr_assert_eq(b->q.tsum[0], 12u);
    /* epoch 1 */
    clear_wlog(b);
    run_to_et(b, S);
    step(b);
    cr_assert_eq(b->q.wc[0], 10000u);
    /* G: SM0 reads STAT_THR + 1 at S + 2 (pair 0), SM1 STAT_THR + 0 at S + 3 (pair 1) */
    step(b);
    step(b);
    cr_assert_eq(b->out.rd_addr[0], R(STAT_THR) + 1);
    for (int s = 1; s < NSM; s++)
        cr_assert_eq(b->out.rd_addr[s], 0u);
    step(b);
    cr_assert_eq(b->out.rd_addr[1], R(STAT_THR) + 0);
    cr_assert_eq(b->out.rd_addr[0], 0u);
    const uint32_t c1 = S + NP + 2;
    run_to_et(b, c1 + 1);
    cr_assert_eq(b->q.isum[0], 1000000u);
    cr_assert_eq(b->q.tsum[0], 12u);
    cr_assert_eq(b->q.cum_i[0], 1000000u, "c1.0");
    cr_assert_eq(b->q.cum_c[0], 10000u);
    run_to_et(b, c1 + 1 + 32);
    cr_assert_eq(b->q.ipc_ep[0], 0x10000u, "c1.1 result not before the edge of its 33rd cycle");
    step(b);
    cr_assert_eq(b->q.ipc_ep[0], 6553600u, "c1.1: 0x640000 = 100.0");
    run_to_et(b, c1 + C1L);
    cr_assert_eq(b->q.hist[0], 6553600u, "c1.2");
    cr_assert_eq(b->q.alpha[0], 81920u, "c1.3: 0x14000 = 1.25 exactly");
    cr_assert_eq(b->q.agoal[0], 10240000u, "c1.4: 0x9C4000 = 156.25");
    cr_assert_eq(b->q.ratio, 41943u, "c1.5: 0xA3D7");
    cr_assert_eq(b->q.P, 41943u, "c1.6");
    cr_assert_eq(b->q.gN, 98304000u, "c1.7");
    cr_assert_eq(b->q.hgive[0], 0u, "c1.8: hq = 15 >= 12");
    run_to_et(b, c1 + KN * C1L + C2L);
    cr_assert_eq(b->q.Q, 1562500u, "c2.1");
    cr_assert_eq(b->q.qpt[0], 130208u, "c2.2");
    cr_assert_eq(b->q.alpha[0], 81920u, "QoS kernel: alpha kept in c2.0");
    cr_assert_eq(b->q.fresh[0], 0u);
    run_to_et(b, L - 1);
    step(b);
    const uint32_t w0 = c1 + KN * (C1L + C2L);
    cr_assert_eq(b->smreg[0][R(QUOTA) + 1], 651040u);
    cr_assert_eq(b->wet[0][R(QUOTA) + 1], w0 + MM + 1, "pair 0 written in W cycle MM + 1");
    cr_assert_eq(b->smreg[1][R(QUOTA) + 0], 911456u);
    cr_assert_eq(b->wet[1][R(QUOTA) + 0], w0 + MM + 2);
    for (int s = 0; s < NSM; s++) {
        uint32_t nq = 0;
        for (int k = 0; k < SMK_KSLOTS; k++)
            nq += b->wn[s][R(QUOTA) + k];
        cr_assert_eq(nq, s < 2 ? 1u : 0u, "SM %d QUOTA writes", s);
        cr_assert_eq(b->smreg[s][R(QOS_MASK)], s == 0 ? 2u : s == 1 ? 1u : 0u, "F1 SM %d", s);
    }
    cr_assert_eq(b->q.qm[0], 2u);
    cr_assert_eq(b->q.qm[1], 1u);
    /* host reads */
    cr_assert_eq(mread(b, SMK_QM_REG_IPC_EP), 0x640000u);
    cr_assert_eq(mread(b, SMK_QM_REG_HIST), 0x640000u);
    cr_assert_eq(mread(b, SMK_QM_REG_ALPHA), 0x14000u);
    cr_assert_eq(mread(b, SMK_QM_REG_AGOAL), 0x9C4000u);
    cr_assert_eq(mread(b, SMK_QM_REG_QPT), 130208u);
    cr_assert_eq(mread(b, SMK_QM_REG_TBS), 12u);
    cr_assert_eq(mread(b, SMK_QM_REG_GOAL), 0x7D0000u);
    cr_assert_eq(mread(b, SMK_QM_REG_PROD), 41943u);
}

/* E1 with MCTRL.NOHIST (ISCA'17 4.8's ablation, docs/qos_mgr.md 7.2 c1.3): the same history (hist =
 * 100.0 below the goal 125.0) leaves alpha at 1.0, so agoal = goal = 125.0, Q = 125.0 x 10000 =
 * 1250000 and qpt = floor(1250000 / 12) = 104166: quotas 5 x 104166 = 520830 and 7 x 104166 = 729162. */
Test(qos_mgr, e1_nohist, .description = "E1 with MCTRL.NOHIST: alpha 1.0, agoal 125.0, Q 1250000, quotas 520830 / 729162")
{
    EX_L10K();
    E1_NEEDS();
    tb_t *b = e1_begin(QM_FLD(MCTRL, NOHIST, 1));
    const uint32_t L = 10000, S = L - LCQ;
    cr_assert_eq(mread(b, SMK_QM_REG_MCTRL) >> SMK_QM_MCTRL_NOHIST_LSB & 1u, 1u, "MCTRL holds NOHIST");
    run_to_et(b, S - 1);
    launch(b, 0, 4, 1, 0x7D0000, 0, 0);
    step(b);
    run_to_et(b, L - 1);
    step(b);
    clear_wlog(b);
    const uint32_t c1 = S + NP + 2;
    run_to_et(b, c1 + C1L);
    cr_assert_eq(b->q.hist[0], 6553600u, "c1.2: the history is kept");
    cr_assert_eq(b->q.alpha[0], 0x10000u, "c1.3: alpha held at 1.0");
    cr_assert_eq(b->q.agoal[0], 8192000u, "c1.4: agoal = goal = 125.0");
    run_to_et(b, c1 + KN * C1L + C2L);
    cr_assert_eq(b->q.Q, 1250000u, "c2.1");
    cr_assert_eq(b->q.qpt[0], 104166u, "c2.2");
    run_to_et(b, L - 1);
    step(b);
    cr_assert_eq(b->smreg[0][R(QUOTA) + 1], 520830u);
    cr_assert_eq(b->smreg[1][R(QUOTA) + 0], 729162u);
    cr_assert_eq(mread(b, SMK_QM_REG_ALPHA), 0x10000u);
}

/* E2: windows W1 = L - LC + 1 (INIT end to the first SNAP, inclusive) and W2 = L. Kernel A's
 * instructions are chosen so that hist = 80.0 after window 2 with IPC 90.0 in it:
 * I1 = 80 (W1 + W2) - 90 W2. */
Test(qos_mgr, e2_nonqos_goals, .description = "E2 exactly: alpha, ratios, P = 56621, non-QoS goals by the product, fresh kernel floored to 1.0")
{
    EX_L10K();
    /* kernels 0..3 and KN-1, SM1 slots 0..3, 8 TBs, 2,000,000 instructions, QUOTA 863960 */
    U_NEEDS(QM_NSM >= 2 && QM_KN >= 5 && SMK_KSLOTS >= 4 && QM_GVMAX >= 8 && SW_FITS(2000000) && QM_QMAX >= 863960u);
    tb_t *b = tb_new();
    const uint32_t L = 10000, W1 = L - LCQ + 1, W2 = L, S = L - LCQ;
    launch(b, 0, 4, 1, 100u << 16, 0, 0); /* A */
    launch(b, 1, 4, 1, 50u << 16, 0, 0);  /* B */
    launch(b, 2, 4, 0, 0, 0, 0);          /* C */
    launch(b, KN - 1, 4, 0, 0, 0, 0);     /* idle non-QoS kernel on the last pair: x_v = 1 when W ends */
    step(b);
    cr_assert(b->q.mv[0] && b->q.mv[1] && b->q.mv[2]);
    b->lk[0][0] = (lk_t){1, 0, 4};
    b->lk[0][1] = (lk_t){1, 1, 4};
    b->lk[0][2] = (lk_t){1, 2, 8};
    b->lk[1][2] = (lk_t){1, 0, 8};
    b->lk[1][3] = (lk_t){1, 1, 8};
    b->lk[NSM - 1][KN - 1] = (lk_t){1, 3, 1};
    b->smreg[0][R(STAT_THR) + 0] = 80 * (W1 + W2) - 90 * W2;
    b->smreg[0][R(STAT_THR) + 1] = 60 * W1;
    b->smreg[0][R(STAT_THR) + 2] = 100 * W1;
    enable(b, L, 100, MC_MODE(SMK_QMODE_QOS));
    run_to_et(b, L - 1);
    step(b);
    cr_assert_eq(b->q.x_v, 1u, "last pair of W valid");
    clear_wlog(b);
    cr_assert_eq(b->q.wc[0], W1);
    cr_assert_eq(b->q.fresh[2], 0u);
    /* window 2 */
    b->smreg[0][R(STAT_THR) + 0] = 90 * W2;
    b->smreg[0][R(STAT_THR) + 1] = 60 * W2;
    b->smreg[0][R(STAT_THR) + 2] = 200 * W2;
    run_to_et(b, 100);
    launch(b, 3, 4, 0, 0, 0, 0); /* D: fresh at the next computation */
    run_to_et(b, S + NP + 2 + KN * C1L);
    cr_assert_eq(b->q.wc[0], W2);
    cr_assert_eq(b->q.hist[0], 80u << 16, "A: hist 80.0");
    cr_assert_eq(b->q.alpha[0], 81920u, "A: alpha 1.25");
    cr_assert_eq(b->q.agoal[0], 8192000u, "A: 125.0");
    cr_assert_eq(b->q.ipc_ep[0], 5898240u, "A: 90.0");
    cr_assert_eq(b->q.hist[1], 60u << 16, "B: hist 60.0 >= 50");
    cr_assert_eq(b->q.alpha[1], 0x10000u);
    cr_assert_eq(b->q.agoal[1], 3276800u);
    cr_assert_eq(b->q.ipc_ep[1], 3932160u);
    cr_assert_eq(b->q.ipc_ep[2], 13107200u, "C: 200.0");
    cr_assert_eq(b->q.P, 56621u, "P = 0xDD2D");
    cr_assert_eq(b->q.fresh[3], 1u);
    run_to_et(b, L - 1);
    step(b);
    cr_assert_eq(b->q.agoal[2], 11324200u, "C: 0xACCB28");
    cr_assert_eq(b->q.alpha[2], 0x10000u);
    cr_assert_eq(b->q.tsum[2], 16u);
    cr_assert_eq(b->q.qpt[2], 107995u, "C: Q = 1727935 / 16");
    cr_assert_eq(b->q.agoal[3], 0x10000u, "D: floored to 1.0");
    cr_assert_eq(b->q.qpt[3], 1250u, "D: Q = 10000 / 8");
    cr_assert_eq(b->q.fresh[3], 0u);
    cr_assert_eq(b->q.qpt[0], 1250000u / 4, "A: Q = 1250000");
    cr_assert_eq(b->q.Q, 10000u, "Q of the last valid kernel (KN-1: ipc 0, floored to 1.0)");
    cr_assert_eq(b->wn[NSM - 1][R(QUOTA) + 3], 1u, "one write per valid pair and epoch");
    cr_assert_eq(b->wn[1][R(QUOTA) + 1], 1u);
    cr_assert_eq(b->smreg[1][R(QUOTA) + 1], 10000u, "D: 8 TBs x 1250");
    cr_assert_eq(b->smreg[0][R(QUOTA) + 2], 107995u * 8, "C on SM0");
    cr_assert_eq(b->smreg[1][R(QUOTA) + 0], 107995u * 8, "C on SM1");
    cr_assert_eq(b->smreg[0][R(QOS_MASK)], 3u, "A and B are QoS");
    cr_assert_eq(b->smreg[1][R(QOS_MASK)], 0u);
    cr_assert_eq(mread(b, SMK_QM_REG_PROD), 56621u);
}

/* E7 (docs/qos_mgr.md 7.2, the rollover debt): one QoS kernel, goal 100.0, windows at IPC 120, 90, 5
 * then 200; alpha stays 1.0 for the first two (hist >= 100), so agoal = 100.0 = 6553600 exactly.
 * With MCTRL.DEBT: window 1 dbt 0 (agoal before is the launch value 0), ratio = 120/100 = 78643;
 * window 2 dbt = 100 - 90 = 10.0 = 655360, ratio = 90/110 = floor(5898240 * 65536 / 7208960) = 53620
 * (58982 = 90/100 without the debt); window 3 dbt = 10 + 100 - 5 = 105 > agoal before (100.0):
 * capped to 6553600; window 4 (IPC 200): dbt = 100.0 + agoal3 - 200.0 with agoal3 = alpha3 x 100.0 the
 * effective goal of window 3 (alpha3 > 1: the debt falls by the surplus over that goal only). */
/* kernel k finishes (kdone) at this edge */
static void kdone_step(tb_t *b, uint32_t k)
{
    b->in.kdone_v = 1, b->in.kdone_k = k;
    step(b);
    b->in.kdone_v = 0;
}

static void e7_run(int debt, uint32_t dbt_exp[4], uint32_t ratio_exp[2])
{
    EX_L10K();
    U_NEEDS(QM_KN >= 2 && SMK_KSLOTS >= 2 && QM_GVMAX >= 10 && SW_FITS(2000000)); /* 2 kernels, 10 TBs, IPC 200 */
    tb_t *b = tb_new();
    const uint32_t L = 10000, W1 = L - LCQ + 1, W2 = L, S = L - LCQ, C1 = S + NP + 2 + KN * C1L;
    launch(b, 0, 4, 1, 100u << 16, 0, 0);
    launch(b, 1, 4, 0, 0, 0, 0); /* a non-QoS kernel: its dbt stays 0 */
    step(b);
    b->lk[0][0] = (lk_t){1, 0, 10};
    b->lk[0][1] = (lk_t){1, 1, 10};
    b->smreg[0][R(STAT_THR) + 0] = 120 * W1;
    b->smreg[0][R(STAT_THR) + 1] = 50 * W1;
    enable(b, L, 100, MC_MODE(SMK_QMODE_QOS) | MC_SCHEME(SMK_QSCHEME_ROLLOVER) | (debt ? QM_FLD(MCTRL, DEBT, 1) : 0));
    cr_assert_eq(mread(b, SMK_QM_REG_MCTRL) >> SMK_QM_MCTRL_DEBT_LSB & 1, (uint32_t)debt, "MCTRL holds DEBT (bit 8)");
    run_to_et(b, C1);
    cr_assert_eq(b->q.ipc_ep[0], 120u << 16);
    cr_assert_eq(b->q.agoal[0], 6553600u, "alpha 1: agoal = goal");
    cr_assert_eq(b->q.dbt[0], dbt_exp[0], "window 1: dbt %u", b->q.dbt[0]);
    cr_assert_eq(b->q.P, 78643u, "window 1: ratio 120/100");
    const uint32_t ipc[3] = {90, 5, 200};
    uint32_t ag3 = 0;
    for (int w = 0; w < 3; w++) {
        run_to_et(b, L - 1);
        step(b);
        b->smreg[0][R(STAT_THR) + 0] = ipc[w] * W2;
        b->smreg[0][R(STAT_THR) + 1] = 0; /* the non-QoS kernel below its goal (1.2): still no debt */
        run_to_et(b, C1);
        cr_assert_eq(b->q.ipc_ep[0], ipc[w] << 16);
        cr_assert_eq(b->q.dbt[1], 0u, "non-QoS: dbt 0");
        if (w == 0) {
            cr_assert_eq(b->q.agoal[0], 6553600u, "window 2: hist >= 100, alpha 1");
            cr_assert_eq(b->q.dbt[0], dbt_exp[1], "window 2: dbt %u", b->q.dbt[0]);
            cr_assert_eq(b->q.P, ratio_exp[0], "window 2: P = ratio %u", b->q.P);
        } else if (w == 1) {
            cr_assert_eq(b->q.dbt[0], dbt_exp[2], "window 3: dbt %u (capped)", b->q.dbt[0]);
            /* the divisor: agoal as c1.4 wrote it (alpha > 1 now) plus dbt */
            const uint64_t den = (uint64_t)b->q.agoal[0] + b->q.dbt[0];
            cr_assert(b->q.agoal[0] > 6553600u, "window 3: hist < 100, alpha > 1");
            cr_assert_eq(b->q.P, (uint32_t)(((uint64_t)(5u << 16) << 16) / den), "window 3: P = 5 / (agoal + dbt)");
            ag3 = b->q.agoal[0];
        } else {
            const uint32_t want = dbt_exp[3] ? dbt_exp[3] + ag3 - (200u << 16) : 0;
            cr_assert(ag3 > 6553600u && ag3 < 13107200u, "window 3's agoal between 100 and 200: %u", ag3);
            cr_assert_eq(b->q.dbt[0], want, "window 4: dbt %u, expected %u", b->q.dbt[0], want);
        }
    }
    (void)ratio_exp;
    /* a relaunch with kl_keep keeps the debt (the application's), one without clears it */
    const uint32_t d4 = b->q.dbt[0];
    cr_assert((d4 != 0) == (debt != 0));
    run_to_et(b, 100);
    kdone_step(b, 0);
    relaunch(b, 0, 4, 1, 100u << 16, 0, 0);
    step(b);
    cr_assert_eq(b->q.mv[0], 1u);
    cr_assert_eq(b->q.dbt[0], d4, "relaunch with keep: dbt %u kept", b->q.dbt[0]);
    kdone_step(b, 0);
    launch(b, 0, 4, 1, 100u << 16, 0, 0);
    step(b);
    cr_assert_eq(b->q.mv[0], 1u);
    cr_assert_eq(b->q.dbt[0], 0u, "launch without keep: dbt 0");
}

Test(qos_mgr, e7_rollover_debt, .description = "E7: MCTRL.DEBT: dbt 0 / 10.0 / capped at agoal 100.0 / 0; ratio 90/110 = 53620; non-QoS dbt 0")
{
    uint32_t d[4] = {0, 655360, 6553600, 6553600}, r[2] = {53620, 0};
    e7_run(1, d, r);
}

Test(qos_mgr, e7_no_debt, .description = "E7 with MCTRL.DEBT = 0: dbt stays 0, ratio 90/100 = 58982 (the papers' formula)")
{
    uint32_t d[4] = {0, 0, 0, 0}, r[2] = {58982, 0};
    e7_run(0, d, r);
}

/* E3 on SM0; the other SMs hold no kernel (sumc = 0: F saturates, nothing written there) */
Test(qos_mgr, e3_smk_quotas, .description = "E3: smk_r, cb, sumc, F and the QUOTA writes of SM0 (literal values when SCHED = 4)")
{
    EX_L10K();
    U_NEEDS(QM_KN >= 2 && SMK_KSLOTS >= 2 && QM_GVMAX >= 8); /* 2 kernels in slots 0, 1; T = 8 TBs */
    tb_t *b = tb_new();
    const uint32_t L = 10000, S = L - LCS;
    launch(b, 0, 4, 0, 0, 26214, 8);
    launch(b, 1, 4, 0, 0, 32768, 8);
    step(b);
    b->lk[0][0] = (lk_t){1, 0, 2};
    b->lk[0][1] = (lk_t){1, 1, 4};
    enable(b, L, 100, MC_MODE(SMK_QMODE_SMK));
    clear_wlog(b);
    const uint32_t a0 = S + 1 + KN * 33; /* SM0's A */
    run_to_et(b, a0);
    cr_assert_eq(b->q.smk_r[0], 214745088u);
    cr_assert_eq(b->q.smk_r[1], 268435456u);
    run_to_et(b, a0 + KN + MM);
    cr_assert_eq(b->q.cb[0], 6553u);
    cr_assert_eq(b->q.cb[1], 16384u);
    cr_assert_eq(b->q.kb[0], 1u << SMK_KS_W | 0u);
    cr_assert_eq(b->q.kb[1], 1u << SMK_KS_W | 1u);
    if (QM_KN > 2)
        cr_assert_eq(b->q.cb[2], 0u, "no kernel 2");
    cr_assert_eq(b->q.sumc, 22937u);
    run_to_et(b, a0 + KN + MM + 33);
    const uint32_t F = (uint32_t)(((uint64_t)L * SMK_SCHED << 16) / 22937);
    cr_assert_eq(b->q.F, F);
    const uint32_t q0 = (uint32_t)((uint64_t)6553 * F >> 16), q1 = (uint32_t)((uint64_t)16384 * F >> 16);
    if (SMK_SCHED == 4)
        cr_assert(F == 114288 && q0 == 11427 && q1 == 28572, "E3 literal");
    cr_assert_leq(q0 + q1, L * SMK_SCHED);
    run_to_et(b, L - 1);
    step(b);
    const uint32_t bw = a0 + KN + MM + 33 + MM; /* B cycle MM: first write */
    cr_assert_eq(b->smreg[0][R(QUOTA) + 0], q0);
    cr_assert_eq(b->wet[0][R(QUOTA) + 0], bw);
    cr_assert_eq(b->smreg[0][R(QUOTA) + 1], q1);
    cr_assert_eq(b->wet[0][R(QUOTA) + 1], bw + 1);
    for (int s = 0; s < NSM; s++)
        for (int k = 0; k < SMK_KSLOTS; k++)
            cr_assert_eq(b->wn[s][R(QUOTA) + k], (s == 0 && k < 2) ? 1u : 0u, "SM %d slot %d", s, k);
    cr_assert_eq(b->smreg[0][R(QOS_MASK)], 0u);
    cr_assert_eq(b->smreg[0][R(SM_CTRL)], SMCTRL(0, SMK_QMODE_SMK, 0, 0));
}

/* E4 on SM t = NSM - 1 (the spec's SM 3). QoS k0 (goal 200, hist 100: needs), non-QoS k1, QoS k2
 * (goal 100, hist 110, 20 TBs: hgive 1). On the other SMs k0 has no slot: itb = 0, so it asks
 * there too (REFUSED by the stub); on SM t the ack is VICTIM k2, n = 1. */
static ack_t e4_ack(tb_t *b, const req_t *r)
{
    (void)b;
    if (r->sm == NSM - 1)
        return (ack_t){2, 2, 1};
    return (ack_t){3, 0, 0};
}

/* E4's SM 0 and SM t, kernels 0..3, kernel slots 0..2 of SM t (k2 in slot KS-1 of SM0: the spec's
 * slot 3 where KS = 4), 10 TBs of a kernel on one SM, 8 warps per TB, 110 thread instructions per
 * cycle */
#define E4_NEEDS()                                                                                 \
    U_NEEDS(QM_NSM >= 2 && QM_KN >= 4 && SMK_KSLOTS >= 3 && QM_GVMAX >= 10 && SMK_WARPS >= 8 &&    \
            SW_FITS(110u * (TL - LCQ + 1)))
/* E4's kernels, lookups and statistics (also the bench of the TLPQ and GIVE tests) */
static void e4_setup(tb_t *b)
{
    const uint32_t L = TL, W1 = L - LCQ + 1, t = NSM - 1;
    launch(b, 0, 4, 1, 200u << 16, 0, 0);
    launch(b, 1, 8, 0, 0, 0, 0);
    launch(b, 2, 2, 1, 100u << 16, 0, 0);
    launch(b, 3, 4, 1, 50u << 16, 0, 0); /* hist == goal: no need */
    step(b);
    b->lk[0][3] = (lk_t){1, 0, 1};
    b->smreg[0][R(STAT_THR) + 0] = 50 * W1;
    b->smreg[0][R(STAT_IDLE) + 0] = 2000; /* k3: 2000 / 400 = 5 idle TBs on SM0 */
    b->lk[t][0] = (lk_t){1, 0, 3};
    b->lk[t][1] = (lk_t){1, 1, 3};
    b->lk[t][2] = (lk_t){1, 2, 10};
    b->lk[0][2] = (lk_t){1, SMK_KSLOTS - 1, 10};
    b->smreg[t][R(STAT_THR) + 0] = 100 * W1;
    b->smreg[0][R(STAT_THR) + SMK_KSLOTS - 1] = 110 * W1;
    for (int s = 0; s < NSM; s++)
        b->smreg[s][R(EP_SAMPLES)] = 100;
    b->smreg[t][R(STAT_IDLE) + 0] = 650;
    b->smreg[t][R(STAT_IDLE) + 1] = 2000;
    b->smreg[t][R(STAT_IDLE) + 2] = 700;
    b->smreg[0][R(STAT_IDLE) + SMK_KSLOTS - 1] = 30; /* k2 on SM0: 30 / 200 = 0 idle TBs */
    b->ack_fn = e4_ack;
}

Test(qos_mgr, e4_tlp_requests, .description = "E4: idle TBs, give vector, one request at a time SM by SM, VICTIM ack reduces itb and hgive; first rq_v at the formula's cycle")
{
    TL_NEEDS();
    E4_NEEDS();
    tb_t *b = tb_new();
    const uint32_t L = TL, t = NSM - 1;
    e4_setup(b);
    enable(b, L, 100, MC_MODE(SMK_QMODE_QOS) | MC_TLP);
    cr_assert_eq(b->q.tl_st, (uint32_t)QM_TL_IDLE, "epoch 0: no history yet, no need");
    run_to_et(b, L - 1);
    step(b); /* epoch-start edge: the TLP unit starts */
    cr_assert_eq(b->q.hist[0], 100u << 16);
    cr_assert_eq(b->q.hist[2], 110u << 16);
    cr_assert_eq(b->q.tsum[2], 20u);
    cr_assert_eq(b->q.hgive[2], 1u, "E4: 20 - 1 - floor(100 x 20 / 110) = 1");
    cr_assert_eq(b->q.hgive[0], 0u);
    cr_assert_eq(b->q.hgive[1], 0u);
    cr_assert_eq(b->q.hist[3], 50u << 16);
    cr_assert(qm_need(&b->q, 0) && !qm_need(&b->q, 1) && !qm_need(&b->q, 2) && !qm_need(&b->q, 3));
    cr_assert_eq(b->q.tl_st, (uint32_t)QM_TL_SMP);
    cr_assert_eq(mread(b, SMK_QM_REG_STATUS), STATUS(QM_ST_RUN, SMK_QMODE_QOS, 1, QM_TL_SMP));
    cr_assert_eq(b->q.tl_s, 0u);
    /* SMP reads EP_SAMPLES of SM 0 at et 0; first rq_v at et KN (2 + MM + DT) + 2 */
    step(b);
    cr_assert_eq(b->out.rd_addr[0], R(EP_SAMPLES));
    const uint32_t first = KN * (2 + MM + QM_DT) + 2;
    while (b->nreq == 0 && b->q.et < 5000)
        step(b);
    cr_assert_eq(b->req[0].et, first);
    cr_assert_eq(b->req[0].sm, 0u);
    cr_assert_eq(b->req[0].k, 0u);
    /* SM0: k0 has no slot there (itb 0, although slot 0's STAT_IDLE is k3's 2000), k2 0 idle TBs
     * (give = hgive 1), k3 5 idle TBs (give 4) */
    for (int v = 0; v < KN; v++)
        cr_assert_eq(b->req[0].give[v], v == 2 ? 1u : v == 3 ? 4u : 0u, "SM0 give[%d] = %u", v, b->req[0].give[v]);
    run_to_et(b, L - LCQ - 1);
    cr_assert_eq(b->proto_err, 0, "request protocol");
    cr_assert_eq(b->nreq, NSM, "one request per SM");
    for (int i = 0; i < NSM; i++) {
        cr_assert_eq(b->req[i].sm, (uint32_t)i);
        cr_assert_eq(b->req[i].k, 0u);
    }
    for (int i = 1; i < NSM - 1; i++)
        for (int v = 0; v < KN; v++)
            cr_assert_eq(b->req[i].give[v], v == 2 ? 1u : 0u, "SM %d give[%d] = %u: hgive only (req sm %u k %u)", i, v, b->req[i].give[v], b->req[i].sm, b->req[i].k);
    /* SM t: itb = {1, 2, 3}; give = {0, 1, max(2, 1) = 2} */
    const req_t *r = &b->req[t];
    for (int v = 0; v < KN; v++)
        cr_assert_eq(r->give[v], v == 1 ? 1u : v == 2 ? 2u : 0u, "SM t give[%d] = %u", v, r->give[v]);
    cr_assert_eq(b->q.itb[0], 1u);
    cr_assert_eq(b->q.itb[1], 2u);
    cr_assert_eq(b->q.itb[2], 2u, "VICTIM k2 n 1: 3 - 1");
    cr_assert_eq(b->q.hgive[2], 0u, "VICTIM: 1 - 1");
    cr_assert_eq(b->q.tl_st, (uint32_t)QM_TL_IDLE, "done before the SNAP");
    /* spacing: request i+1 starts after request i's ack, the rest of SM i's REQ scan (KN - 1
     * cycles) and SM i+1's SMP / LK..DV (1 + KN (2 + MM + DT)) cycles, then REQ of k0 */
    for (int i = 0; i + 1 < NSM; i++) {
        const long d = b->req[i + 1].cyc - b->req[i].cyc;
        const long exp = (b->rdy_wait + 1) + b->ack_lat + (KN - 1) + 1 + KN * (2 + MM + QM_DT) + 1;
        cr_assert_eq(d, exp, "request %d -> %d: %ld cycles, expected %ld", i, i + 1, d, exp);
    }
}

Test(qos_mgr, tlp_abort_at_snap, .description = "a request still waiting at the SNAP edge is abandoned; a later ack is ignored")
{
    TL_NEEDS();
    U_NEEDS(SW_FITS(100u * (TL - LCQ + 1))); /* IPC 100 */
    tb_t *b = tb_new();
    const uint32_t L = TL, W1 = L - LCQ + 1, S = L - LCQ;
    launch(b, 0, 4, 1, 200u << 16, 0, 0);
    step(b);
    b->lk[0][0] = (lk_t){1, 0, 3};
    b->smreg[0][R(STAT_THR)] = 100 * W1;
    b->rdy_wait = 100000; /* the driver never gets ready */
    enable(b, L, 100, MC_MODE(SMK_QMODE_QOS) | MC_TLP);
    run_to_et(b, L - 1);
    step(b);
    run_to_et(b, S);
    cr_assert_eq(b->q.tl_st, (uint32_t)QM_TL_WRDY);
    step(b);
    cr_assert_eq(b->out.rq_v, 1u, "still requesting in the SNAP cycle");
    cr_assert_eq(b->q.tl_st, (uint32_t)QM_TL_IDLE);
    b->rs = 0;
    step(b);
    cr_assert_eq(b->out.rq_v, 0u);
    cr_assert_eq(b->out.rq_k | b->out.rq_sm, 0u);
    /* an ack arriving now changes nothing */
    const uint32_t itb0 = b->q.itb[0], hg = b->q.hgive[0];
    b->in.rq_ack_v = 1, b->in.rq_ack_st = 2, b->in.rq_ack_kv = 0, b->in.rq_ack_n = 1;
    qm_eval(&b->q, &b->in, &b->out);
    qm_commit(&b->q, &b->in, &b->out);
    cr_assert_eq(b->q.itb[0], itb0);
    cr_assert_eq(b->q.hgive[0], hg);
    cr_assert_eq(b->q.tl_st, (uint32_t)QM_TL_IDLE);
}

Test(qos_mgr, tlp_resume, .description = "a pass cut off by the SNAP abort resumes at the SM where it stopped; the pass visits NSM SMs modulo NSM and ends with tl_s back at its start")
{
    TL_NEEDS();
    U_NEEDS(QM_NSM >= 2 && SW_FITS(100u * (TL - LCQ + 1))); /* a pass stopped on SM 1; IPC 100 */
    tb_t *b = tb_new();
    const uint32_t L = TL, W1 = L - LCQ + 1, S = L - LCQ;
    launch(b, 0, 4, 1, 200u << 16, 0, 0); /* QoS k0 below its goal, no slot anywhere: itb 0 */
    step(b);
    b->smreg[0][R(STAT_THR)] = 100 * W1;
    enable(b, L, 100, MC_MODE(SMK_QMODE_QOS) | MC_TLP);
    run_to_et(b, L - 1);
    step(b);
    cr_assert_eq(b->q.tl_st, (uint32_t)QM_TL_SMP);
    cr_assert_eq(b->q.tl_s, 0u);
    cr_assert_eq(b->q.tl_n, 0u);
    /* SM 0's request is answered (REFUSED); SM 1's never gets rq_rdy */
    while (!(b->nreq == 1 && b->rs == 0) && b->q.et < S)
        step(b);
    cr_assert_eq(b->req[0].sm, 0u);
    b->rdy_wait = 100000;
    run_to_et(b, S);
    cr_assert_eq(b->nreq, 2);
    cr_assert_eq(b->req[1].sm, 1u);
    cr_assert_eq(b->q.tl_st, (uint32_t)QM_TL_WRDY);
    step(b); /* SNAP edge: abort */
    cr_assert_eq(b->q.tl_st, (uint32_t)QM_TL_IDLE);
    cr_assert_eq(b->q.tl_s, 1u, "stopped on SM 1");
    cr_assert_eq(b->q.tl_n, 1u);
    b->rs = 0, b->rdy_wait = 2;
    run_to_et(b, L - 1);
    step(b); /* next epoch start: resume at SM 1 */
    cr_assert_eq(b->q.tl_st, (uint32_t)QM_TL_SMP);
    cr_assert_eq(b->q.tl_s, 1u);
    cr_assert_eq(b->q.tl_n, 0u);
    run_to_et(b, S - 1);
    cr_assert_eq(b->proto_err, 0, "request protocol");
    cr_assert_eq(b->nreq, 2 + NSM, "one request per SM in the second pass");
    for (int i = 0; i < NSM; i++)
        cr_assert_eq(b->req[2 + i].sm, (uint32_t)((1 + i) % NSM), "request %d of the pass", i);
    cr_assert_eq(b->q.tl_st, (uint32_t)QM_TL_IDLE, "pass done before the SNAP");
    cr_assert_eq(b->q.tl_s, 1u, "back at its start");
    cr_assert_eq(b->q.tl_n, (uint32_t)NSM - 1);
}

/* ---- saturation and edge cases (E5) --------------------------------------------------------- */

Test(qos_mgr, e5a_starved_qos_kernel, .description = "E5(a): hist 0 with cycles: alpha = agoal = VMAX, ratio 0, P 0, non-QoS floored to 1.0, QUOTA clamped to QMAX")
{
    TL_NEEDS();
    /* a QoS kernel on SM0 and a non-QoS kernel in another slot of SM0 (on SM NSM-1 with one slot) */
    U_NEEDS(QM_KN >= 2 && (SMK_KSLOTS >= 2 || QM_NSM >= 2));
    const uint32_t s1 = SMK_KSLOTS >= 2 ? 0 : NSM - 1, ks1 = SMK_KSLOTS >= 2 ? 1 : 0;
    tb_t *b = tb_new();
    const uint32_t L = TL, W1 = L - LCQ + 1;
    launch(b, 0, 4, 1, 0x7D0000, 0, 0);
    launch(b, 1, 4, 0, 0, 0, 0);
    step(b);
    b->lk[0][0] = (lk_t){1, 0, 3};
    b->lk[s1][1] = (lk_t){1, ks1, 2};
    b->smreg[s1][R(STAT_THR) + ks1] = 5 * W1; /* the non-QoS kernel runs, the QoS one does not */
    enable(b, L, 100, MC_MODE(SMK_QMODE_QOS));
    run_to_et(b, L - 1);
    step(b);
    cr_assert_eq(b->q.cum_c[0], W1);
    cr_assert_eq(b->q.ipc_ep[0], 0u);
    cr_assert_eq(b->q.hist[0], 0u);
    cr_assert_eq(b->q.alpha[0], VMAX, "a0 = DIV(x, 0) = VMAX");
    cr_assert_eq(b->q.agoal[0], VMAX);
    cr_assert_eq(b->q.P, 0u, "ratio DIV(0, VMAX) = 0");
    cr_assert_eq(b->q.agoal[1], 0x10000u, "non-QoS floored to ONE");
    cr_assert_eq(b->q.qpt[1], L / 2, "Q = L, 2 TBs");
    /* [Decision (C model)] Q = MUL(VMAX, L, 16) = floor((2^32 - 1) L / 2^16) (655359999 for L =
     * 10000), not VMAX (docs note) */
    const uint32_t Q0 = (uint32_t)(((uint64_t)VMAX * L) >> 16), qpt0 = Q0 / 3;
    if (L == 10000)
        cr_assert_eq(Q0, 655359999u);
    cr_assert_eq(b->q.qpt[0], qpt0);
    const uint64_t quota = (uint64_t)qpt0 * 3;
    cr_assert_eq(b->smreg[0][R(QUOTA) + 0], quota > QM_QMAX ? QM_QMAX : (uint32_t)quota);
    if (SMK_QUOTA_W == 24)
        cr_assert_eq(b->smreg[0][R(QUOTA) + 0], QM_QMAX, "small: clamped");
}

Test(qos_mgr, e5b_no_tbs_at_gather, .description = "E5(b): tsum = 0 at gather, 3 TBs at write time: qpt = Q = L, QUOTA = 3 L (slot KS - 1)")
{
    TL_NEEDS();
    tb_t *b = tb_new();
    const uint32_t L = TL, S = L - LCQ;
    launch(b, 0, 4, 0, 0, 0, 0);
    step(b);
    b->lk[0][0] = (lk_t){1, SMK_KSLOTS - 1, 0};
    enable(b, L, 100, MC_MODE(SMK_QMODE_QOS));
    run_to_et(b, S + NP + 2); /* after G */
    cr_assert_eq(b->q.tsum[0], 0u);
    b->lk[0][0] = (lk_t){1, SMK_KSLOTS - 1, 3};
    run_to_et(b, L - 1);
    step(b);
    cr_assert_eq(b->q.Q, L);
    cr_assert_eq(b->q.qpt[0], L);
    cr_assert_eq(b->smreg[0][R(QUOTA) + SMK_KSLOTS - 1], 3 * L > QM_QMAX ? QM_QMAX : 3 * L);
}

Test(qos_mgr, e5d_halving, .description = "E5(d): cum_i 2^48 - 10 + 30 halves to 2^47 + 10, cum_c (1000 + 10) / 2 = 505 (state set directly after the SNAP)")
{
    TL_NEEDS();
    U_NEEDS(QM_KN >= 3); /* three kernels (sharing kernel slots where KS < 3: 30 instructions each) */
    tb_t *b = tb_new();
    const uint32_t L = TL, S = L - LCQ;
    for (int k = 0; k < 3; k++) {
        b->lk[0][k] = (lk_t){1, (uint32_t)k % SMK_KSLOTS, 1};
        b->smreg[0][R(STAT_THR) + (uint32_t)k % SMK_KSLOTS] = 30;
    }
    enable(b, L, 100, MC_MODE(SMK_QMODE_QOS));
    run_to_et(b, S - 11);
    launch(b, 0, 4, 1, 0x10000, 0, 0); /* committed at the edge of S - 10: wc = 10 */
    launch(b, 1, 4, 1, 0x10000, 0, 0); /* wc = 9 */
    launch(b, 2, 4, 1, 0x10000, 0, 0); /* wc = 8 */
    run_to_et(b, S + 1);
    cr_assert_eq(b->q.wc[0], 10u);
    cr_assert_eq(b->q.wc[2], 8u);
    /* white box */
    b->q.cum_i[0] = (UINT64_C(1) << 48) - 10, b->q.cum_c[0] = 1000;
    b->q.cum_i[1] = (UINT64_C(1) << 48) - 30, b->q.cum_c[1] = 1000;  /* si = 2^48 exactly */
    b->q.cum_i[2] = 100, b->q.cum_c[2] = (uint32_t)(VMAX - 7);      /* sc = 2^32 exactly */
    run_to_et(b, S + NP + 2);
    cr_assert_eq(b->q.isum[0], 30u);
    step(b); /* c1.0 of k0 */
    cr_assert_eq(b->q.cum_i[0], (UINT64_C(1) << 47) + 10);
    cr_assert_eq(b->q.cum_c[0], 505u);
    run_to_et(b, S + NP + 2 + 1 + 2 * 33);
    cr_assert_eq(b->q.ipc_ep[0], 3u << 16, "30 / 10");
    cr_assert_eq(b->q.hist[0], VMAX, "(2^47 + 10) / 505 saturates U16.16");
    run_to_et(b, S + NP + 2 + C1L + 1);
    cr_assert_eq(b->q.cum_i[1], UINT64_C(1) << 47, "si = 2^48: halved");
    cr_assert_eq(b->q.cum_c[1], (1000u + 9u) >> 1);
    run_to_et(b, S + NP + 2 + 2 * C1L + 1);
    cr_assert_eq(b->q.cum_i[2], (100u + 30u) >> 1, "sc = 2^32: halved");
    cr_assert_eq(b->q.cum_c[2], 1u << 31);
}

/* ---- with real quota units as the SMs (docs/qos_mgr.md sections 6 and 11) -------------------- */

/* Every SM completes 3 thread instructions of slot 0 per cycle. The quota units' statistics windows
 * (CMD = 3 at the end of INIT, CMD = 2 at every S) coincide with the manager's wcnt windows, so the
 * GPU-wide IPC is exactly 3 x NSM in every window, and the quota units load what W wrote at F3. */
Test(qos_mgr, with_quota_units, .description = "manager + NSM quota_unit models: SNAP windows, EP_CYCLES, exact IPC, QUOTA and QOS_MASK loaded at EPOCH_START")
{
    TL_NEEDS();
    static quota_unit_t qu[NSM];
    tb_t *b = tb_new();
    const uint32_t L = TL, W1 = L - LCQ + 1, S = L - LCQ;
    const uint32_t goal = (6u * NSM) << 16; /* twice the IPC: alpha 2.0 */
    const uint32_t qmax12 = 12 * L > QM_QMAX ? QM_QMAX : 12 * L;
    for (int s = 0; s < NSM; s++) {
        qu_reset(&qu[s]);
        b->lk[s][0] = (lk_t){1, 0, 2};
    }
    launch(b, 0, 4, 1, goal, 0, 0);
    step(b);
    mwrite(b, SMK_QM_REG_EPOCH_LEN, L);
    mwrite(b, SMK_QM_REG_SAMPLE_PER, 0);
    b->in.m_we = 1, b->in.m_addr = SMK_QM_REG_MCTRL, b->in.m_wdata = MC_EN | MC_MODE(SMK_QMODE_QOS);
    uint32_t snaps = 0;
    for (long c = 0; c < 5 + 2L * L; c++) {
        qm_in_t *in = &b->in;
        qm_eval(&b->q, in, &b->out);
        const qm_out_t *o = &b->out;
        in->lk_ksv = in->lk_ks = in->lk_cnt = 0;
        if (o->lk_s < NSM && o->lk_k < KN) {
            const lk_t e = b->lk[o->lk_s][o->lk_k];
            in->lk_ksv = e.v, in->lk_ks = e.ks, in->lk_cnt = e.cnt;
        }
        qu_in_t qi[NSM];
        qu_out_t qo[NSM];
        for (int s = 0; s < NSM; s++) {
            memset(&qi[s], 0, sizeof qi[s]);
            qi[s].csr_we = (uint32_t)((o->csr_we >> s) & 1), qi[s].csr_addr = o->csr_addr[s];
            qi[s].csr_wdata = o->csr_wdata[s], qi[s].rd_addr = o->rd_addr[s];
            qi[s].cp_v = 1, qi[s].cp_ks[0] = 0, qi[s].cp_act[0] = 3;
            qi[s].ks_active = 1;
            qu_eval(&qu[s], &qi[s], &qo[s]);
            in->rd_data[s] = qo[s].rd_data;
        }
        const uint32_t st = b->q.st, et = b->q.et;
        if (st == QM_ST_RUN && et == S)
            snaps++;
        qm_commit(&b->q, in, o);
        for (int s = 0; s < NSM; s++)
            qu_commit(&qu[s], &qi[s], &qo[s]);
        in->m_we = 0;
        if (st == QM_ST_RUN && et == S) { /* the SMs' snapshot of this window */
            const uint32_t w = snaps == 1 ? W1 : L;
            for (int s = 0; s < NSM; s++) {
                cr_assert_eq(qu_read(&qu[s], R(EP_CYCLES)), w, "SNAP %u SM %d", snaps, s);
                cr_assert_eq(qu_read(&qu[s], R(STAT_THR)), 3 * w);
                cr_assert_eq(qu_read(&qu[s], R(EPOCH_CNT)), 1 + snaps, "INIT's CMD = 3 and the SNAPs");
            }
            cr_assert_eq(b->q.wc[0], w, "manager window = SM window");
        }
        if (st == QM_ST_RUN && et == L - 1) { /* F3 edge: quotas loaded */
            cr_assert_eq(b->q.ipc_ep[0], (3u * NSM) << 16, "exact GPU-wide IPC");
            cr_assert_eq(b->q.hist[0], (3u * NSM) << 16);
            cr_assert_eq(b->q.alpha[0], 0x20000u);
            cr_assert_eq(b->q.agoal[0], (12u * NSM) << 16, "alpha 2.0 x goal 6 NSM");
            cr_assert_eq(b->q.qpt[0], 6 * L, "Q = 12 NSM x L over 2 NSM TBs");
            for (int s = 0; s < NSM; s++) {
                cr_assert_eq(qu[s].quota[0], qmax12, "QUOTA 12 L, at most QMAX");
                cr_assert_eq(qu[s].qos_mask, 1u);
                cr_assert_eq(qu[s].epoch_len, 0u, "the SMs' timers are off");
                cr_assert_eq((qu[s].sm_ctrl >> SMK_SM_CTRL_QMODE_LSB) & 3u, (uint32_t)SMK_QMODE_QOS);
                cr_assert_eq(qu[s].cnt[0], (int64_t)qmax12, "loaded at EPOCH_START");
                cr_assert_eq(qu_read(&qu[s], R(EPOCH_CNT)), 1 + snaps, "EPOCH_START alone does not snapshot");
            }
        }
    }
    cr_assert_eq(snaps, 2u);
}

/* [Decision (C model)] notes of docs/qos_mgr.md sections 2 and 6 */
Test(qos_mgr, decisions_division_and_disable, .description = "commit inside a division: operands of cycle 1, condition and enable of the last cycle; disable at the S and F3 edges applies nothing")
{
    TL_NEEDS();
    tb_t *b = tb_new();
    const uint32_t L = TL, S = L - LCQ, c1 = S + NP + 2;
    launch(b, 0, 4, 1, 100u << 16, 0, 0);
    step(b);
    b->lk[0][0] = (lk_t){1, 0, 2};
    b->smreg[0][R(STAT_THR)] = 12345;
    enable(b, L, 100, MC_MODE(SMK_QMODE_QOS));
    run_to_et(b, c1 + 10); /* inside c1.1 (cycles c1 + 1 .. c1 + 33) */
    cr_assert_eq(b->q.cum_c[0], L - LCQ + 1, "c1.0 done");
    launch(b, 0, 4, 1, 100u << 16, 0, 0);
    step(b); /* commit: wc = 0, cum = 0 */
    cr_assert_eq(b->q.wc[0], 0u);
    run_to_et(b, c1 + 34);
    cr_assert_eq(b->q.ipc_ep[0], 0x10000u, "wc != 0 read in the last cycle: false, ipc_ep keeps ONE");
    run_to_et(b, c1 + 100);
    cr_assert_eq(b->q.hist[0], 0u, "c1.2 loaded after the commit: cum_c == 0");
    cr_assert_eq(b->q.alpha[0], 0x10000u);
    /* disable in the S cycle of the next epoch: no SNAP-edge action, et holds */
    run_to_et(b, S);
    const uint32_t wcnt = b->q.wcnt[0], wc = b->q.wc[0];
    mwrite(b, SMK_QM_REG_MCTRL, 0);
    cr_assert_eq(b->out.csr_addr[0], R(CMD), "the S cycle's write still goes out");
    cr_assert_eq(b->q.wc[0], wc, "no window end");
    cr_assert_eq(b->q.wcnt[0], wcnt + 1, "wcnt not cleared");
    cr_assert_eq(b->q.et, S);
    cr_assert_eq(b->q.st, (uint32_t)QM_ST_STOP);
    step(b);
    /* re-enable; disable in the F3 cycle: no epoch-start latches */
    mwrite(b, SMK_QM_REG_MCTRL, MC_EN | MC_MODE(SMK_QMODE_QOS));
    for (int i = 0; i < 5; i++)
        step(b);
    cr_assert_eq(b->q.epochs, 3u, "INIT end counts");
    mwrite(b, SMK_QM_REG_MCTRL, MC_EN | MC_MODE(SMK_QMODE_SMK)); /* the next epoch would be SMK */
    run_to_et(b, L - 1);
    mwrite(b, SMK_QM_REG_MCTRL, MC_MODE(SMK_QMODE_SMK));
    cr_assert_eq(b->out.csr_wdata[0], 1u, "F3's EPOCH_START goes out");
    cr_assert_eq(b->q.epochs, 3u, "no epoch-start latch at the disable edge");
    cr_assert_eq(b->q.cur_mode, (uint32_t)SMK_QMODE_QOS);
    cr_assert_eq(b->q.et, L - 1);
    cr_assert_eq(b->q.init_i, 0u);
}

/* ---- kl_keep: a relaunch keeps the history (section 4, example E6) ------------------------- */

/* E1's kernel (epoch 1: 1000000 thread instructions in 10000 cycles, hist 100.0), kdone presented
 * at et = 100 of epoch 2, the relaunch presented at et = 200 (committed at the edge of et = 201),
 * 494950 thread instructions in epoch 2's window. keep = 1: wc = L - 101 = 9899 (the 101 edges
 * et = 101 .. 201 with mv = 0 do not count), cum continues. keep = 0: wcnt restarts at the commit,
 * wc = S - 201, cum restarts. */
static void e6_run(tb_t *b, int keep)
{
    EX_L10K();
    U_NEEDS(QM_NSM >= 2 && SMK_KSLOTS >= 2 && QM_GVMAX >= 7 && SW_FITS(600000)); /* E1's kernel */
    const uint32_t L = 10000, S = L - LCQ, c1 = S + NP + 2;
    b->lk[0][0] = (lk_t){1, 1, 5};
    b->lk[1][0] = (lk_t){1, 0, 7};
    b->smreg[0][R(STAT_THR) + 1] = 600000;
    b->smreg[1][R(STAT_THR) + 0] = 400000;
    enable(b, L, 100, MC_MODE(SMK_QMODE_QOS) | MC_SCHEME(SMK_QSCHEME_ROLLOVER));
    run_to_et(b, S - 1);
    launch(b, 0, 4, 1, 0x7D0000, 0, 0);
    run_to_et(b, L - 1);
    step(b); /* epoch 0 computed with wc = 0 (E5(c)) */
    run_to_et(b, L - 1);
    step(b); /* epoch 1: E1's values */
    cr_assert_eq(b->q.cum_i[0], 1000000u);
    cr_assert_eq(b->q.cum_c[0], 10000u);
    cr_assert_eq(b->q.hist[0], 6553600u);
    cr_assert_eq(b->q.alpha[0], 81920u);
    cr_assert_eq(b->q.qpt[0], 130208u);
    cr_assert_eq(b->q.wcnt[0], LCQ - 1, "edges et = S+1 .. L-1 of epoch 1");
    /* epoch 2 */
    b->smreg[0][R(STAT_THR) + 1] = 300000;
    b->smreg[1][R(STAT_THR) + 0] = 194950;
    run_to_et(b, 100);
    b->in.kdone_v = 1, b->in.kdone_k = 0;
    step(b);
    cr_assert_eq(b->q.mv[0], 0u);
    cr_assert_eq(b->q.wcnt[0], LCQ + 100, "the kdone cycle counts (mv = 1 in it)");
    run_to_et(b, 200);
    cr_assert_eq(b->q.wcnt[0], LCQ + 100, "wcnt holds while mv = 0");
    if (keep)
        relaunch(b, 0, 4, 1, 0x7D0000, 0, 0);
    else
        launch(b, 0, 4, 1, 0x7D0000, 0, 0);
    cr_assert_eq(b->q.pl_keep, (uint32_t)keep);
    step(b); /* et = 201: commit */
    cr_assert_eq(b->q.mv[0], 1u);
    cr_assert_eq(b->q.wc[0], 0u);
    cr_assert_eq(b->q.isum[0], 0u);
    cr_assert_eq(b->q.tsum[0], 0u);
    if (keep) {
        cr_assert_eq(b->q.wcnt[0], LCQ + 100, "keep: wcnt continues (the commit edge had mv = 0)");
        cr_assert_eq(b->q.cum_i[0], 1000000u);
        cr_assert_eq(b->q.cum_c[0], 10000u);
        cr_assert_eq(b->q.hist[0], 6553600u);
        cr_assert_eq(b->q.ipc_ep[0], 6553600u);
        cr_assert_eq(b->q.alpha[0], 81920u);
        cr_assert_eq(b->q.agoal[0], 10240000u);
        cr_assert_eq(b->q.qpt[0], 130208u);
        cr_assert_eq(b->q.fresh[0], 0u, "fresh | (cum_c == 0) = 0");
        cr_assert_eq(qm_need(&b->q, 0), 1, "need from the kept history: 100.0 < 125.0");
    } else {
        cr_assert_eq(b->q.wcnt[0], 0u);
        cr_assert_eq(b->q.cum_i[0], 0u);
        cr_assert_eq(b->q.cum_c[0], 0u);
        cr_assert_eq(b->q.hist[0], 0u);
        cr_assert_eq(b->q.ipc_ep[0], ONE);
        cr_assert_eq(b->q.alpha[0], ONE);
        cr_assert_eq(b->q.agoal[0], 0u);
        cr_assert_eq(b->q.qpt[0], 0u);
        cr_assert_eq(b->q.fresh[0], 1u);
    }
    run_to_et(b, S);
    step(b);
    const uint32_t w = keep ? L - 101 : S - 201;
    cr_assert_eq(b->q.wc[0], w);
    run_to_et(b, c1 + C1L);
    cr_assert_eq(b->q.isum[0], 494950u);
    cr_assert_eq(b->q.tsum[0], 12u);
    if (keep) {
        cr_assert_eq(b->q.wc[0], 9899u);
        cr_assert_eq(b->q.cum_i[0], 1494950u, "1000000 + 494950");
        cr_assert_eq(b->q.cum_c[0], 19899u, "10000 + 9899");
        cr_assert_eq(b->q.ipc_ep[0], 3276800u, "494950 / 9899 = 50.0");
        cr_assert_eq(b->q.hist[0], 4923515u, "floor(1494950 x 65536 / 19899) = 0x4B207B (75.13)");
        cr_assert_eq(b->q.alpha[0], 109042u, "floor(8192000 x 65536 / 4923515)");
        cr_assert_eq(b->q.agoal[0], 13630250u, "109042 x 8192000 >> 16");
    } else {
        cr_assert_eq(b->q.cum_i[0], 494950u);
        cr_assert_eq(b->q.cum_c[0], S - 201);
        const uint32_t h = (uint32_t)(((uint64_t)494950 << 16) / (S - 201)); /* gtx980: 4169285 */
        cr_assert_eq(b->q.ipc_ep[0], h);
        cr_assert_eq(b->q.hist[0], h);
    }
}

Test(qos_mgr, e6_relaunch_keep, .description = "kl_keep = 1: the relaunch continues cum_i / cum_c, hist, alpha; the gap does not count")
{
    e6_run(tb_new(), 1);
}

Test(qos_mgr, e6_relaunch_no_keep, .description = "kl_keep = 0: the relaunch resets the history as before")
{
    e6_run(tb_new(), 0);
}

/* keep on an entry that never held a kernel since reset: the same state as a fresh launch */
/* keep on an entry that never held a kernel since reset (kernel KN-1, slot KS-1): the same state as a
 * fresh launch */
Test(qos_mgr, keep_on_unused_entry, .description = "kl_keep = 1 into an entry never used since reset = a fresh launch")
{
    TL_NEEDS();
    static qos_mgr_t a;
    tb_t *b = tb_new();
    b->lk[0][KN - 1] = (lk_t){1, SMK_KSLOTS - 1, 3};
    b->smreg[0][R(STAT_THR) + SMK_KSLOTS - 1] = 7777;
    enable(b, TL, 100, MC_MODE(SMK_QMODE_QOS));
    run_to_et(b, 50);
    relaunch(b, KN - 1, 4, 0, 0, 0x8000, 3);
    step(b);
    a = b->q;
    b = tb_new();
    b->lk[0][KN - 1] = (lk_t){1, SMK_KSLOTS - 1, 3};
    b->smreg[0][R(STAT_THR) + SMK_KSLOTS - 1] = 7777;
    enable(b, TL, 100, MC_MODE(SMK_QMODE_QOS));
    run_to_et(b, 50);
    launch(b, KN - 1, 4, 0, 0, 0x8000, 3);
    step(b);
    cr_assert_eq(a.pl_keep, 1u);
    cr_assert_eq(b->q.pl_keep, 0u);
    a.pl_keep = 0;
    cr_assert(memcmp(&a, &b->q, sizeof a) == 0, "same state");
    cr_assert_eq(a.fresh[KN - 1], 1u);
    cr_assert_eq(a.mv[KN - 1], 1u);
    /* and through the next computation */
    for (uint32_t i = 0; i < 2 * TL; i++)
        step(b);
    cr_assert(b->q.cum_c[KN - 1] != 0);
}

/* the window whose SNAP fell in the gap (mv = 0) does not count: the commit clears wc, isum, tsum
 * (E6(c) with epochs of TL cycles and IPC 20) */
Test(qos_mgr, keep_gap_window_dropped, .description = "kl_keep = 1 after a SNAP in the gap: that window is dropped, cum unchanged")
{
    TL_NEEDS();
    U_NEEDS(SW_FITS(20u * TL)); /* IPC 20 over an epoch */
    tb_t *b = tb_new();
    const uint32_t L = TL, S = L - LCQ, c1 = S + NP + 2;
    b->lk[0][0] = (lk_t){1, 0, 3};
    b->smreg[0][R(STAT_THR)] = 20 * L;
    enable(b, L, 100, MC_MODE(SMK_QMODE_QOS));
    run_to_et(b, S - 1);
    launch(b, 0, 4, 1, 100u << 16, 0, 0);
    run_to_et(b, L - 1);
    step(b);
    run_to_et(b, L - 1);
    step(b); /* epoch 1: cum = 20 L / L, hist 20.0 */
    cr_assert_eq(b->q.cum_i[0], 20 * L);
    cr_assert_eq(b->q.cum_c[0], L);
    run_to_et(b, S - 11);
    b->in.kdone_v = 1, b->in.kdone_k = 0;
    step(b);
    run_to_et(b, S + 1); /* SNAP in the gap: wc = the launch's cycles of the window */
    cr_assert_eq(b->q.wc[0], L - 11, "edges et = S+1 .. L-1 and 0 .. S-11");
    cr_assert_eq(b->q.wcnt[0], 0u);
    run_to_et(b, S + NP);
    cr_assert_eq(b->q.isum[0], 20 * L, "gathered while mv = 0");
    relaunch(b, 0, 4, 1, 100u << 16, 0, 0);
    step(b); /* commit at the edge of the last G cycle, before C1 */
    cr_assert_eq(b->q.wc[0], 0u);
    cr_assert_eq(b->q.isum[0], 0u);
    cr_assert_eq(b->q.tsum[0], 0u);
    run_to_et(b, c1 + C1L);
    cr_assert_eq(b->q.cum_i[0], 20 * L, "dropped window: cum unchanged");
    cr_assert_eq(b->q.cum_c[0], L);
    cr_assert_eq(b->q.hist[0], 20u << 16);
    cr_assert_eq(b->q.ipc_ep[0], 20u << 16);
    cr_assert_eq(b->q.wcnt[0], C1L, "counting again after the commit edge (edges c1 .. c1 + C1L - 1)");
}


Test(qos_mgr, tlpq_need, .description = "MCTRL.TLPQ: need also requires ipc_ep < agoal (strict); with ipc_ep = agoal no TLP pass starts; TLPQ = 0 ignores ipc_ep")
{
    TL_NEEDS();
    E4_NEEDS();
    tb_t *b = tb_new();
    const uint32_t L = TL;
    e4_setup(b);
    enable(b, L, 100, MC_MODE(SMK_QMODE_QOS) | MC_TLP | QM_FLD(MCTRL, TLPQ, 1));
    run_to_et(b, L - 1);
    /* k0: hist 100 < goal 200, alpha 2, agoal 400, ipc_ep 100 */
    cr_assert_eq(b->q.ipc_ep[0], 100u << 16);
    cr_assert_eq(b->q.agoal[0], 400u << 16);
    cr_assert(qm_need(&b->q, 0), "ipc_ep 100 < agoal 400: need");
    b->q.ipc_ep[0] = (400u << 16) - 1;
    cr_assert(qm_need(&b->q, 0), "ipc_ep one ulp below agoal: need");
    b->q.ipc_ep[0] = 400u << 16;
    cr_assert(!qm_need(&b->q, 0), "ipc_ep == agoal: the quota limited it, no need");
    b->q.mctrl &= ~(uint32_t)QM_FLD(MCTRL, TLPQ, 1);
    cr_assert(qm_need(&b->q, 0), "TLPQ = 0: the papers' rule, ipc_ep not looked at");
    b->q.mctrl |= QM_FLD(MCTRL, TLPQ, 1);
    step(b); /* epoch-start edge */
    cr_assert_eq(b->q.tl_st, (uint32_t)QM_TL_IDLE, "no kernel needs and GIVE = 0: no pass");
    run_to_et(b, L - LCQ - 1);
    cr_assert_eq(b->nreq, 0);
}

Test(qos_mgr, give_back_requests, .description = "MCTRL.GIVE: after a QoS request, the non-QoS kernel without excess TLP asks with rq_ret = 1 and give = hgive; none once the VICTIM ack used up hgive or where it has 2 idle TBs")
{
    TL_NEEDS();
    E4_NEEDS();
    tb_t *b = tb_new();
    const uint32_t L = TL, t = NSM - 1;
    e4_setup(b);
    enable(b, L, 100, MC_MODE(SMK_QMODE_QOS) | MC_TLP | QM_FLD(MCTRL, GIVE, 1));
    run_to_et(b, L - 1);
    step(b);
    cr_assert_eq(b->q.hgive[2], 1u);
    cr_assert_eq(b->q.tl_st, (uint32_t)QM_TL_SMP);
    run_to_et(b, L - LCQ - 1);
    cr_assert_eq(b->proto_err, 0, "request protocol (rq_ret 0 without rq_v)");
    /* SMs 0 .. t-1: k0 (need, itb 0) then the give-back of k1 (no slot there: itb 0), both REFUSED by
     * the stub; SM t: k0's VICTIM ack takes k2's one TB of margin, so k1 (itb 2 there anyway) does not ask */
    cr_assert_eq(b->nreq, 2 * (NSM - 1) + 1, "requests: %d", b->nreq);
    for (int s = 0; s < NSM - 1; s++) {
        const req_t *q0 = &b->req[2 * s], *q1 = &b->req[2 * s + 1];
        cr_assert(q0->sm == (uint32_t)s && q0->k == 0 && q0->ret == 0, "SM %d: k0's request first (sm %u k %u ret %u)", s, q0->sm, q0->k, q0->ret);
        cr_assert(q1->sm == (uint32_t)s && q1->k == 1 && q1->ret == 1, "SM %d: then k1's give-back (sm %u k %u ret %u)", s, q1->sm, q1->k, q1->ret);
        for (int v = 0; v < KN; v++)
            cr_assert_eq(q1->give[v], v == 2 ? 1u : 0u, "SM %d give-back give[%d] = %u: hgive only (k3's 5 idle TBs on SM0 do not count)", s, v, q1->give[v]);
    }
    const req_t *r = &b->req[2 * (NSM - 1)];
    cr_assert(r->sm == t && r->k == 0 && r->ret == 0);
    cr_assert_eq(b->q.hgive[2], 0u, "VICTIM k2 n 1: 1 - 1");
    cr_assert_eq(b->q.tl_st, (uint32_t)QM_TL_IDLE, "done before the SNAP");
}
