/* test_sm_driver.c: Criterion unit tests of the SM driver C model (cmodel/sm_driver.c, spec
 * docs/sm_driver.md). Every expected value is derived by hand from the spec (and the papers' worked
 * examples, docs/papers.md section 2), or by a small independent calculation in this file (ref_share,
 * ref_fill, ref_range): the tests do not reuse the model's code.
 *
 * The bench: the driver plus a tiny SM-side stub per SM: a TB slot table (allocated bit, warp mask,
 * kernel) updated one edge after the driver's set-up (as sm_top does: wused is registered), warps
 * freed at the edge of an injected tb_done or of an injected SAVE/DROP OK response (the engine's
 * free_v comes with the response). set_rej and cmd_full are always 0. Engine responses and tb_done
 * pulses are injected by each test at chosen cycles. Cycle c is the c-th call of step() (0-based);
 * a stimulus "in c" is presented during cycle c and seen by the driver's state from c+1.
 *
 * Timing used throughout (spec "One cycle"): an input latched at edge c is an event in c+1 (one
 * event per cycle, responses first, lowest SM, lowest slot), whose counter updates are seen by the
 * decisions of c+2; a decision in c (outputs set_* / cmd_* in c) updates the counters at edge c.
 *
 * Encodings (docs/sm_driver.md, "Ports", decision note): cfg_evict and cfg_pmode take the engine's
 * op codes (SMK_PE_OP_SAVE / DRAIN / DROP); a SAVE, DROP or RESTORE carries the context pointer of
 * its PTBQ entry, i * CTX_MAX_LINES. Decision 3 "applies" only when the plan can act (plan_v & ~pb &
 * (plan_left == 0 | cmd_ok(plan_sm) & a FREE entry)); a waiting plan lets decision 4 run, and
 * `fits` keeps SMv for plan_kc (od_save_err_empty, od_plan_*). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "sm_driver.h"
#include "unit_util.h"

/* No suite-wide guard: each test states with U_NEEDS only what it needs of the configuration (a
 * second SM, kernel ids below KN, TB slots, kernel slots, PTBQ entries, warps and their divisibility
 * where a test's masks are W/2, W/4 or W/8 wide) and derives the rest; the QoS tests further need
 * qos_need (QOS_BENCH). */
TestSuite(sm_driver, .timeout = 60);

#define NSM DRV_NSM
#define W SMK_WARPS
#define T DRV_T
#define KS DRV_KS
#define PQ DRV_PQ
#define CML ((uint64_t)SMK_CTX_MAX_LINES)
/* Registers per thread of the benches' warp-bound shapes (TBs sized in warps, up to W warps on an
 * SM): 1, or 0 where the register file cannot give each of the SM's W warps one register row
 * (LIM_REG < W: random configuration seed 2 file 7 has 8 rows for 20 warps, so a TB of W/2+1 warps
 * of one register is refused). R = 0 is a legal shape (docs/sm_driver.md "Host ports": kl_r <=
 * RMAX, kl_n * kl_r <= LIM_REG; the engine's context then has no REG lines); warps stay the
 * resource that binds, as the benches intend. 1 on every named configuration. */
#define RW (SMK_LIM_REG >= SMK_WARPS ? 1u : 0u)
static uint32_t umin(uint32_t a, uint32_t b) { return a < b ? a : b; }
/* A test whose timeline is the one-cycle decision's (docs/sm_driver.md "One cycle": a decision in
 * the cycle of the state it is made from). With drv_pipe = 1 ("Decision pipeline") every choice is
 * executed two cycles later and an acting execution drops the two choices behind it, so these
 * timelines do not apply; the pipeline's own timeline is tested by the pipe_* tests, and every
 * policy rule under the pipeline by test_drv_env.c and the cosim. */
#define U_ONE_CYCLE()                                                                                          \
    do {                                                                                                       \
        if (SMK_DRV_PIPE)                                                                                      \
            cr_skip_test("a one-cycle-decision timeline (drv_pipe = 0); drv_pipe = 1: the pipe_* tests");      \
    } while (0)

#define SAVE SMK_PE_OP_SAVE
#define RESTORE SMK_PE_OP_RESTORE
#define DRAIN SMK_PE_OP_DRAIN
#define DROP SMK_PE_OP_DROP
#define OK SMK_PE_ST_OK
#define FIN SMK_PE_ST_FIN
#define E_EMPTY SMK_PE_ST_ERR_EMPTY


/* ---- independent references ----------------------------------------------------------------- */

static uint64_t ref_share(const uint64_t u[4], const uint32_t mult[4])
{
    uint64_t m = 0;
    for (int x = 0; x < 4; x++)
        if (u[x] * mult[x] > m)
            m = u[x] * mult[x];
    return m;
}

/* progressive filling of one SM, written from the spec's words: candidates = allowed kernels whose
 * next TB fits (resources, kernel slot); pick the lowest share(pc*d), ties to the highest index
 * (tie_high) or the lowest; stop_first: stop when the lowest-share allowed kernel does not fit
 * instead of skipping it (the variant docs/papers.md section 2 says gives 6/11). */
static void ref_fill(int n, const uint32_t d[][4], uint64_t allowed, const uint32_t lim[4],
                     const uint32_t mult[4], int ks, int max2, int tie_high, int stop_first, uint32_t *part)
{
    uint64_t acc[4] = {0};
    int nks = 0;
    for (int k = 0; k < n; k++)
        part[k] = 0;
    for (;;) {
        int best = -1, bestfit = 0;
        uint64_t bs = 0;
        for (int k = 0; k < n; k++) {
            if (!(allowed >> k & 1))
                continue;
            int fit = part[k] > 0 || (nks < ks && (!max2 || nks < 2));
            for (int x = 0; x < 4; x++)
                fit &= acc[x] + d[k][x] <= lim[x];
            if (!fit && !stop_first)
                continue;
            uint64_t u[4];
            for (int x = 0; x < 4; x++)
                u[x] = (uint64_t)part[k] * d[k][x];
            const uint64_t s = ref_share(u, mult);
            if (best < 0 || s < bs || (s == bs && tie_high))
                best = k, bs = s, bestfit = fit;
        }
        if (best < 0 || !bestfit)
            break;
        if (part[best] == 0)
            nks++;
        part[best]++;
        for (int x = 0; x < 4; x++)
            acc[x] += d[best][x];
    }
}

static const uint32_t cfg_lim[4] = {SMK_LIM_REG, SMK_LIM_SL, SMK_LIM_W, SMK_LIM_TB};
static const uint32_t cfg_mult[4] = {SMK_M_REG, SMK_M_SL, SMK_M_W, SMK_M_TB};

static uint64_t gcd64(uint64_t a, uint64_t b) { return b ? gcd64(b, a % b) : a; }

/* ---- bench ---------------------------------------------------------------------------------- */

typedef struct {
    sm_driver_t d;
    drv_in_t in;
    drv_out_t o;
    int cyc;
    /* SM-side stub */
    wmask_t wused[NSM];
    wmask_t tm[NSM][T];
    tmask_t alloc[NSM];
    int tk[NSM][T]; /* kernel of the TB in the slot (from the decision's dec_k, bookkeeping only) */
    /* auto-answer of DRAIN commands (SMK_P loop): tb_done at +3, response at +4 */
    int autodrain;
    struct { int s, t, c; } ad[64];
    int nad;
    int a1_off; /* cycles the Algorithm 1 unit's runs added to the plan timelines (plan_start) */
} bench_t;

static bench_t *bench_new(uint32_t policy)
{
    static bench_t store; /* one test per process (Criterion); no leak report when an assertion aborts */
    bench_t *b = &store;
    memset(b, 0, sizeof *b);
    if (policy == DRV_QOS && !(SMK_WARPS % 16 == 0 && 3 * SMK_WARPS / 16 <= DRV_T && SMK_WARPS / 4 <= DRV_T && DRV_KN == 8))
        cr_skip_test("this configuration cannot hold the QoS bench (needs W %% 16 == 0, 3W/16 <= T, W/4 <= T, KN == 8)");
    drv_reset(&b->d);
    b->in.cfg_policy = policy;
    b->in.cfg_evict = DRAIN;
    b->in.cfg_pmode = SAVE;
    return b;
}

static void bench_free(bench_t *b) { (void)b; }

static wmask_t span(int lo, int n) { return SMK_MASK(n) << lo; }

/* the launch port can carry this shape on this configuration (docs/sm_driver.md "Ports": kl_n
 * WID_W+1, kl_r REGN_W, kl_m SMLN_W, kl_grid GW bits) */
static int port_carries(uint32_t n, uint32_t r, uint32_t m, uint32_t grid)
{
    return n <= SMK_MASK(SMK_WID_W + 1) && r <= SMK_MASK(SMK_REGN_W) && m <= SMK_MASK(SMK_SMLN_W) &&
           grid <= SMK_MASK(SMK_GRID_W);
}

static void launch(bench_t *b, uint32_t k, uint32_t n, uint32_t r, uint32_t m, uint32_t grid, uint64_t mask)
{
    /* a shape the launch port cannot carry would reach the driver truncated: the bench does not apply
     * here (values the port can carry, legal or not, are launched as written) */
    if (!port_carries(n, r, m, grid))
        cr_skip_test("the bench launches n %u r %u m %u grid %u; the launch port carries at most %llu, %llu, %llu, %llu here", n,
                     r, m, grid, (unsigned long long)SMK_MASK(SMK_WID_W + 1), (unsigned long long)SMK_MASK(SMK_REGN_W),
                     (unsigned long long)SMK_MASK(SMK_SMLN_W), (unsigned long long)SMK_MASK(SMK_GRID_W));
    drv_in_t *in = &b->in;
    in->kl_v = 1, in->kl_k = k, in->kl_n = n, in->kl_r = r, in->kl_m = m, in->kl_grid = grid;
    in->kl_mask = mask, in->kl_qos = 0, in->kl_idem = 0, in->kl_adm = DRV_ADM_NONE, in->kl_lim = 0;
}
static void done(bench_t *b, int s, int t) { b->in.tb_done[s] |= (tmask_t)1 << t; }
static void rsp(bench_t *b, int s, uint32_t op, uint32_t tb, uint32_t st, uint64_t ptr)
{
    b->in.rsp_v[s] = 1, b->in.rsp_op[s] = op, b->in.rsp_tb[s] = tb, b->in.rsp_status[s] = st;
    b->in.rsp_ptr[s] = ptr;
}

static void stub_free(bench_t *b, int s, int t)
{
    cr_assert(b->alloc[s] >> t & 1, "bench: cycle %d: SM %d slot %d freed but not allocated", b->cyc, s, t);
    b->alloc[s] &= ~((tmask_t)1 << t);
    b->wused[s] &= ~b->tm[s][t];
}

/* one cycle: outputs (checked against the per-cycle rules), then the edge */
static const drv_out_t *step(bench_t *b)
{
    drv_in_t *in = &b->in;
    const int c = b->cyc;
    cr_assert(c < 100000 + 3 * SMK_PART_ROT, "bench runaway"); /* smk_p_rotation steps 2 part_rotate cycles */
    if (b->autodrain)
        for (int i = 0; i < b->nad; i++) {
            if (b->ad[i].c + 3 == c)
                done(b, b->ad[i].s, b->ad[i].t);
            if (b->ad[i].c + 4 == c) {
                rsp(b, b->ad[i].s, DRAIN, b->ad[i].t, OK, 0);
                b->ad[i--] = b->ad[--b->nad];
            }
        }
    for (int s = 0; s < NSM; s++)
        in->wused[s] = b->wused[s], in->set_rej[s] = 0, in->cmd_full[s] = 0;
    memset(&b->o, 0, sizeof b->o);
    drv_eval(&b->d, in, &b->o);
    {
        drv_out_t o2;
        memset(&o2, 0, sizeof o2);
        drv_eval(&b->d, in, &o2);
        cr_assert(!memcmp(&o2, &b->o, sizeof o2), "cycle %d: drv_eval not repeatable", c);
    }
    const drv_out_t *o = &b->o;
    /* one decision per cycle: one set-up at most, one command at most; both only for a RESTORE */
    int ns = 0, nc = 0, ss = -1, cs = -1;
    for (int s = 0; s < NSM; s++) {
        if (o->set_v[s])
            ns++, ss = s;
        if (o->cmd_v[s])
            nc++, cs = s;
    }
    cr_assert(ns <= 1, "cycle %d: set-ups on %d SMs (one decision per cycle)", c, ns);
    cr_assert(nc <= 1, "cycle %d: commands on %d SMs (one decision per cycle)", c, nc);
    if (ns && nc)
        cr_assert(ss == cs && !o->set_go[ss] && o->cmd_op[cs] == RESTORE && o->cmd_tb[cs] == o->set_tb[ss],
                  "cycle %d: set-up and command in one cycle must be a RESTORE into the set-up slot", c);
    if (ns) {
        const uint32_t t = o->set_tb[ss];
        cr_assert(t < T && !(b->alloc[ss] >> t & 1), "cycle %d: set-up of SM %d slot %u, not free in the SM", c, ss, t);
        cr_assert(o->set_mask[ss] != 0 && (o->set_mask[ss] & b->wused[ss]) == 0,
                  "cycle %d: set-up mask %#llx overlaps wused %#llx (set_rej would rise)", c,
                  (unsigned long long)o->set_mask[ss], (unsigned long long)b->wused[ss]);
        cr_assert(o->set_ks[ss] < KS, "cycle %d: kernel slot %u", c, o->set_ks[ss]);
    }
    /* QoS section: set_id is 0 when set_v is 0; the ack fields are 0 when rq_ack_v is 0; rq_rdy is
     * IDLE & ~pact & ~pdirty & ~(PGPU & rq_pend != 0) of the state; the ack outputs are the registered state */
    for (int s = 0; s < NSM; s++)
        cr_assert(o->set_v[s] || o->set_id[s] == 0, "cycle %d: set_id %u on SM %d without set_v", c, o->set_id[s], s);
    cr_assert(o->rq_ack_v || (o->rq_ack_st == 0 && o->rq_ack_kv == 0 && o->rq_ack_n == 0),
              "cycle %d: ack fields %u %u %u without rq_ack_v", c, o->rq_ack_st, o->rq_ack_kv, o->rq_ack_n);
    cr_assert_eq(o->rq_rdy, (uint32_t)(b->d.rq_st == DRV_RQ_IDLE && !b->d.pact && !b->d.pdirty &&
                                       !((in->cfg_qctl & DRV_QC_PGPU) && b->d.rq_pend)),
                 "cycle %d: rq_rdy %u (rq_st %u pact %u pdirty %u rq_pend %#llx cfg_qctl %u)", c, o->rq_rdy, b->d.rq_st,
                 b->d.pact, b->d.pdirty, (unsigned long long)b->d.rq_pend, in->cfg_qctl);
    cr_assert(o->rq_ack_v == b->d.rq_ack_v && o->rq_ack_st == b->d.rq_ack_st && o->rq_ack_kv == b->d.rq_ack_kv &&
                  o->rq_ack_n == b->d.rq_ack_n,
              "cycle %d: ack outputs are the registered state", c);
    drv_commit(&b->d, in, o);
    /* SM side at the edge */
    if (ns) {
        const uint32_t t = o->set_tb[ss];
        b->alloc[ss] |= (tmask_t)1 << t, b->tm[ss][t] = o->set_mask[ss], b->wused[ss] |= o->set_mask[ss];
        b->tk[ss][t] = (int)o->dec_k;
    }
    if (nc && b->autodrain && o->cmd_op[cs] == DRAIN) {
        cr_assert(b->nad < 64);
        b->ad[b->nad].s = cs, b->ad[b->nad].t = (int)o->cmd_tb[cs], b->ad[b->nad].c = c, b->nad++;
    }
    for (int s = 0; s < NSM; s++) {
        for (int t = 0; t < T; t++)
            if (in->tb_done[s] >> t & 1)
                stub_free(b, s, t);
        if (in->rsp_v[s] && (in->rsp_op[s] == SAVE || in->rsp_op[s] == DROP) && in->rsp_status[s] == OK)
            stub_free(b, s, (int)in->rsp_tb[s]);
        in->rsp_v[s] = 0, in->tb_done[s] = 0;
    }
    in->kl_v = 0, in->km_v = 0;
    b->cyc++;
    return &b->o;
}

/* n cycles with no set-up and no command */
static void quiet(bench_t *b, int n, const char *why)
{
    for (int i = 0; i < n; i++) {
        const drv_out_t *o = step(b);
        for (int s = 0; s < NSM; s++) {
            cr_assert(!o->set_v[s], "cycle %d: unexpected set-up on SM %d slot %u (%s)", b->cyc - 1, s, o->set_tb[s], why);
            cr_assert(!o->cmd_v[s], "cycle %d: unexpected command %u on SM %d slot %u (%s)", b->cyc - 1, o->cmd_op[s], s,
                      o->cmd_tb[s], why);
        }
    }
}

/* The Algorithm 1 unit (docs/sm_driver.md "Algorithm 1"): from the first cycle where Kc misses with
 * the unit IDLE to its plan start there are 3 + NSM + p cycles (the start, NSM of step 1, one of
 * step 2, p of step 3, and the RNG cycle, at whose edge plan_v is set), none issuing anything;
 * `busy` more cycles before them while an earlier run of the unit ends. Checks plan_v stays 0 until
 * the last of them and is 1 after it; the one-cycle timelines of the tests shift by the difference
 * (at()). */
static void plan_start(bench_t *b, int busy, uint32_t p, const char *why)
{
    const int n = busy + 3 + NSM + (int)p;
    for (int i = 0; i < n; i++) {
        cr_assert(!b->d.plan_v, "cycle %d: plan started after %d cycles, expected %d (%s)", b->cyc, i, n, why);
        quiet(b, 1, why);
    }
    cr_assert(b->d.plan_v, "cycle %d: no plan after %d cycles (%s); unit state %u", b->cyc, n, why, b->d.a1_st);
    b->a1_off += n - 1;
}

/* the output of this cycle is exactly one set-up on SM s with these fields (no command) */
static void expect_setup(const bench_t *b, int s, uint32_t t, wmask_t mask, uint32_t ks, uint32_t nreg, uint32_t smem,
                         uint32_t go, const char *rule)
{
    const drv_out_t *o = &b->o;
    const int c = b->cyc - 1;
    cr_assert(o->set_v[s], "cycle %d: no set-up on SM %d (%s)", c, s, rule);
    cr_assert(o->set_tb[s] == t && o->set_mask[s] == mask && o->set_ks[s] == ks && o->set_nreg[s] == nreg &&
                  o->set_smem[s] == smem && o->set_go[s] == go,
              "cycle %d SM %d (%s): set-up slot %u mask %#llx ks %u nreg %u smem %u go %u, expected slot %u mask %#llx "
              "ks %u nreg %u smem %u go %u",
              c, s, rule, o->set_tb[s], (unsigned long long)o->set_mask[s], o->set_ks[s], o->set_nreg[s],
              o->set_smem[s], o->set_go[s], t, (unsigned long long)mask, ks, nreg, smem, go);
    if (go)
        for (int x = 0; x < NSM; x++)
            cr_assert(!o->cmd_v[x], "cycle %d: command with a fresh set-up (%s)", c, rule);
}
static void expect_cmd(const bench_t *b, int s, uint32_t op, uint32_t tb, const char *rule)
{
    const drv_out_t *o = &b->o;
    const int c = b->cyc - 1;
    cr_assert(o->cmd_v[s] && o->cmd_op[s] == op && o->cmd_tb[s] == tb,
              "cycle %d SM %d (%s): command v %u op %u tb %u, expected op %u tb %u", c, s, rule, o->cmd_v[s], o->cmd_op[s],
              o->cmd_tb[s], op, tb);
}
static void expect_ptr(const bench_t *b, int s, uint64_t ptr, const char *rule)
{
    cr_assert_eq(b->o.cmd_ptr[s], ptr, "cycle %d SM %d (%s): cmd_ptr %#llx, expected %#llx", b->cyc - 1, s, rule,
                 (unsigned long long)b->o.cmd_ptr[s], (unsigned long long)ptr);
}
static void expect_no_setup(const bench_t *b, const char *why)
{
    for (int s = 0; s < NSM; s++)
        cr_assert(!b->o.set_v[s], "cycle %d: unexpected set-up on SM %d (%s)", b->cyc - 1, s, why);
}

/* ================================================================================================ */
/* pure functions                                                                                   */
/* ================================================================================================ */

/* Thesis Fig. 2-7 in abstract units: regs limit 300 (K1 30 = 10%, K2 9 = 3%), smem 100 (0, 6 = 6%),
 * threads 60 (4 = 1/15, 3 = 5%), TB slots 100 (1 each, never binding). D = lcm(300, 100, 60, 100) =
 * 300, multipliers 1, 3, 5, 3: per TB K1 30/300 = 10%, K2 max(9, 18, 15, 3) = 18/300 = 6%. */
/* part[0..n-1] == want[0..n-1], else one message naming the case, the values and the expected ones */
static void expect_parts(const uint32_t *part, int n, const uint32_t *want, const char *what)
{
    char got[96] = "", exp[96] = "";
    int ok = 1;
    for (int k = 0; k < n; k++) {
        ok &= part[k] == want[k];
        snprintf(got + strlen(got), sizeof got - strlen(got), "%s%u", k ? "/" : "", part[k]);
        snprintf(exp + strlen(exp), sizeof exp - strlen(exp), "%s%u", k ? "/" : "", want[k]);
    }
    cr_assert(ok, "%s: %s, expected %s", what, got, exp);
}

Test(sm_driver, fill_fig27, .description = "drv_fill reproduces Fig. 2-7 (K1 6, K2 12); the other tie and stop rules give 7/10 and 6/11")
{
    const uint32_t d[2][DRV_NRES] = {{30, 0, 4, 1}, {9, 6, 3, 1}};
    const uint32_t lim[DRV_NRES] = {300, 100, 60, 100};
    const uint32_t mult[DRV_NRES] = {1, 3, 5, 3};
    uint32_t part[2] = {99, 99}, r[2];
    drv_fill(2, d, 3, lim, mult, 4, 0, 0, 0, 0, part, NULL);
    cr_assert(part[0] == 6 && part[1] == 12, "Fig. 2-7: drv_fill gives K1 %u K2 %u, expected 6 / 12", part[0], part[1]);
    /* the example discriminates: the same filling with the other rules (own reference loop) */
    ref_fill(2, d, 3, lim, mult, 4, 0, 1, 0, r);
    cr_assert(r[0] == 6 && r[1] == 12, "reference (ties high, skip misfits) %u/%u, expected 6/12", r[0], r[1]);
    ref_fill(2, d, 3, lim, mult, 4, 0, 0, 0, r);
    cr_assert(r[0] == 7 && r[1] == 10, "reference ties to the lowest index %u/%u, expected 7/10", r[0], r[1]);
    ref_fill(2, d, 3, lim, mult, 4, 0, 1, 1, r);
    cr_assert(r[0] == 6 && r[1] == 11, "reference stopping at the first misfit %u/%u, expected 6/11", r[0], r[1]);
    /* same example with the kernels swapped: ties to the highest index now favour K1 */
    const uint32_t d2[2][DRV_NRES] = {{9, 6, 3, 1}, {30, 0, 4, 1}};
    drv_fill(2, d2, 3, lim, mult, 4, 0, 0, 0, 0, part, NULL);
    ref_fill(2, d2, 3, lim, mult, 4, 0, 1, 0, r);
    cr_assert(part[0] == r[0] && part[1] == r[1], "swapped: drv_fill %u/%u, reference %u/%u", part[0], part[1], r[0],
              r[1]);
    cr_assert(r[0] == 10 && r[1] == 7, "swapped: reference %u/%u, expected 10/7 (tie to K1 now)", r[0], r[1]);
    /* only allowed kernels: K1 alone gets 10 (regs 300/30), K2 alone 16 (smem 100/6) */
    drv_fill(2, d, 1, lim, mult, 4, 0, 0, 0, 0, part, NULL);
    expect_parts(part, 2, (const uint32_t[]){10, 0}, "K1 alone");
    drv_fill(2, d, 2, lim, mult, 4, 0, 0, 0, 0, part, NULL);
    expect_parts(part, 2, (const uint32_t[]){0, 16}, "K2 alone");
}

Test(sm_driver, fill_kslots_max2, .description = "drv_fill: kernel-slot limit and MAX2 (at most 2 kernels get a partition)")
{
    /* three identical kernels, 1 TB = 1 warp of a 12-warp SM: 4/4/4 without limits */
    const uint32_t d[3][DRV_NRES] = {{0, 0, 1, 1}, {0, 0, 1, 1}, {0, 0, 1, 1}};
    const uint32_t lim[DRV_NRES] = {100, 100, 12, 100};
    const uint32_t mult[DRV_NRES] = {1, 1, 25, 3};
    uint32_t part[3], r[3];
    drv_fill(3, d, 7, lim, mult, 4, 0, 0, 0, 0, part, NULL);
    expect_parts(part, 3, (const uint32_t[]){4, 4, 4}, "3 kernels");
    /* MAX2: the two highest indices (ties to the highest index) take the first slots: 0/6/6 */
    drv_fill(3, d, 7, lim, mult, 4, 1, 0, 0, 0, part, NULL);
    ref_fill(3, d, 7, lim, mult, 4, 1, 1, 0, r);
    cr_assert(r[0] == 0 && r[1] == 6 && r[2] == 6, "reference MAX2 %u/%u/%u", r[0], r[1], r[2]);
    expect_parts(part, 3, (const uint32_t[]){0, 6, 6}, "MAX2");
    /* ks = 1: only kernel 2 */
    drv_fill(3, d, 7, lim, mult, 1, 0, 0, 0, 0, part, NULL);
    expect_parts(part, 3, (const uint32_t[]){0, 0, 12}, "ks 1");
    /* not allowed kernel 2: 6/6/0 */
    drv_fill(3, d, 3, lim, mult, 4, 0, 0, 0, 0, part, NULL);
    expect_parts(part, 3, (const uint32_t[]){6, 6, 0}, "allowed {0,1}");
}

Test(sm_driver, range_shrinks, .description = "drv_range_shrinks: 60/50 -> 55/52 and 52/58 preempt, 48/62 and equal ranges do not, invalid kernels ignored")
{
    const uint32_t rk[2] = {60, 50}; /* kernel 0 = Kv (60%), kernel 1 = Kc (50%) */
    cr_assert(drv_range_shrinks(rk, 3, 2, 1, 52, 0, 55), "60/50 -> 55/52 (range 10 -> 3) must preempt");
    cr_assert(drv_range_shrinks(rk, 3, 2, 1, 58, 0, 52), "60/50 -> 52/58 (range 10 -> 6) must preempt");
    cr_assert(!drv_range_shrinks(rk, 3, 2, 1, 62, 0, 48), "60/50 -> 48/62 (range 10 -> 14) must not preempt");
    cr_assert(!drv_range_shrinks(rk, 3, 2, 1, 60, 0, 50), "60/50 -> 50/60 (range 10 -> 10): strict, no preemption");
    cr_assert(!drv_range_shrinks(rk, 3, 2, 1, 50, 0, 60), "unchanged (10 -> 10): no preemption");
    /* two more kernels at 0% and 100%: valid, they fix the range at 100 -> no shrink; not valid
     * (bit clear), they are ignored and the answer is the two-kernel one */
    const uint32_t rk4[4] = {60, 50, 0, 100};
    cr_assert(!drv_range_shrinks(rk4, 0xF, 4, 1, 52, 0, 55), "with 0%% and 100%% kernels valid the range stays 100");
    cr_assert(drv_range_shrinks(rk4, 0x3, 4, 1, 52, 0, 55), "kernels 2 and 3 without the valid bit must be ignored");
    /* a third valid kernel that becomes the new extreme: 60/50/54 -> 55/52: range 10 -> 3 still */
    const uint32_t rk3[3] = {60, 50, 54};
    cr_assert(drv_range_shrinks(rk3, 7, 3, 1, 52, 0, 55), "60/50/54 -> 55/52/54: range 10 -> 3");
    /* third kernel at 45: 60/50/45 -> 55/52/45: range 15 -> 10: shrinks; -> 48/62/45: 15 -> 17: no */
    const uint32_t rk5[3] = {60, 50, 45};
    cr_assert(drv_range_shrinks(rk5, 7, 3, 1, 52, 0, 55), "60/50/45 -> 55/52/45: 15 -> 10");
    cr_assert(!drv_range_shrinks(rk5, 7, 3, 1, 62, 0, 48), "60/50/45 -> 48/62/45: 15 -> 17");
    /* Kc and Kv not at index 0/1 and in the other order; kernel 0 (at 7) valid or not */
    const uint32_t rk6[3] = {7, 50, 60};
    cr_assert(drv_range_shrinks(rk6, 6, 3, 1, 52, 2, 55), "Kv 2, Kc 1, kernel 0 invalid: 10 -> 3");
    cr_assert(!drv_range_shrinks(rk6, 6, 3, 1, 62, 2, 48), "Kv 2, Kc 1, kernel 0 invalid: 10 -> 14");
    cr_assert(drv_range_shrinks(rk6, 7, 3, 1, 52, 2, 55), "kernel 0 valid at 7: 53 -> 48");
    cr_assert(!drv_range_shrinks(rk6, 7, 3, 1, 62, 2, 48), "kernel 0 valid at 7: 53 -> 55");
}

/* The filling and Algorithm 1's range take KN-bit masks, KN up to 64 (kernels_gpu = 64): kernels 31
 * and 63 (and 8 and 40) are told apart. Independent of the configuration (n is a parameter). */
Test(sm_driver, masks_64_kernels, .description = "drv_fill and drv_range_shrinks with 64 kernels: allowed, pgot, turn, lat, cand and valid bits above 31")
{
    static uint32_t d[64][DRV_NRES];
    for (int k = 0; k < 64; k++)
        d[k][0] = 0, d[k][1] = 0, d[k][2] = 1, d[k][3] = 1;
    const uint32_t lim[DRV_NRES] = {100, 100, 12, 100};
    const uint32_t mult[DRV_NRES] = {1, 1, 25, 3};
    const uint64_t b31 = UINT64_C(1) << 31, b63 = UINT64_C(1) << 63;
    uint32_t part[64];
    uint64_t cand = 0;
    const struct {
        uint64_t pgot, top, lat;
        int win;
        const char *tag;
    } t[] = {{0, 0, 0, 63, "ties to the highest index"},
             {b63, 0, 0, 31, "pgot of 63"},
             {0, b31, 0, 31, "turn 31"},
             {0, 0, b63, 31, "lat of 63"}};
    for (int i = 0; i < 4; i++) {
        drv_fill(64, (const uint32_t(*)[DRV_NRES])d, b31 | b63, lim, mult, 1, 0, t[i].pgot, t[i].top, t[i].lat, part,
                 &cand);
        for (int k = 0; k < 64; k++)
            cr_assert_eq(part[k], k == t[i].win ? 12u : 0u, "%s: part[%d] = %u", t[i].tag, k, part[k]);
        cr_assert_eq(cand, b31 | b63, "%s: candidates %#llx", t[i].tag, (unsigned long long)cand);
    }
    uint32_t rk[64] = {0};
    rk[40] = 60, rk[41] = 50, rk[8] = 0, rk[9] = 100; /* Kv 40, Kc 41; 8 and 9 the extremes */
    const uint64_t v = UINT64_C(1) << 40 | UINT64_C(1) << 41;
    cr_assert(drv_range_shrinks(rk, v, 64, 41, 52, 40, 55), "kernels 40/41: 60/50 -> 55/52 must preempt");
    cr_assert(!drv_range_shrinks(rk, v | 0x300, 64, 41, 52, 40, 55), "with kernels 8 and 9 valid the range stays 100");
}

Test(sm_driver, share_config, .description = "drv_share with the configuration's multipliers: D = lcm of the limits, a full SM is D in every resource")
{
    /* D is the lcm of the four limits (computed here), the multipliers D / limit: defined by the spec
     * for non-zero limits only (smem_per_sm 0 gives LIM_SL 0) */
    for (int x = 0; x < 4; x++)
        if (cfg_lim[x] == 0)
            cr_skip_test("limit %d is 0 (smem_per_sm 0): docs/sm_driver.md defines D = lcm of the limits and M = D / limit "
                         "for non-zero limits only", x);
    uint64_t l = 1;
    for (int x = 0; x < 4; x++)
        l = l / gcd64(l, cfg_lim[x]) * cfg_lim[x];
    cr_assert_eq(l, (uint64_t)SMK_DSH, "D = %llu, lcm of the limits = %llu", (unsigned long long)SMK_DSH,
                 (unsigned long long)l);
    for (int x = 0; x < 4; x++)
        cr_assert_eq((uint64_t)cfg_mult[x] * cfg_lim[x], (uint64_t)SMK_DSH, "multiplier %d x limit != D", x);
    uint32_t mult[DRV_NRES], u[DRV_NRES];
    memcpy(mult, cfg_mult, sizeof mult);
    for (int x = 0; x < 4; x++) {
        memset(u, 0, sizeof u);
        u[x] = cfg_lim[x];
        cr_assert_eq(drv_share(u, mult), (uint32_t)SMK_DSH, "a full SM in resource %d alone: share != D", x);
        /* half an SM: D/2 where the limit is even; an odd limit has no half, and floor(limit/2) units
         * are floor(limit/2) x M_x = D/2 - M_x/2 (LIM_SL 15 on random configuration seed 2 file 7) */
        u[x] = cfg_lim[x] / 2;
        const uint32_t half = cfg_lim[x] % 2 ? (uint32_t)(SMK_DSH / 2 - cfg_mult[x] / 2) : (uint32_t)(SMK_DSH / 2);
        cr_assert_eq(drv_share(u, mult), half, "half an SM in resource %d (limit %u)", x, cfg_lim[x]);
    }
    /* a full SM in all four, and the GPU-wide maximum NSM x D */
    for (int x = 0; x < 4; x++)
        u[x] = cfg_lim[x];
    cr_assert_eq(drv_share(u, mult), (uint32_t)SMK_DSH);
    for (int x = 0; x < 4; x++)
        u[x] = cfg_lim[x] * NSM;
    cr_assert_eq(drv_share(u, mult), (uint32_t)(SMK_DSH * NSM), "NSM full SMs: NSM x D");
    /* mixed usage: the max of the products, whichever resource dominates */
    const uint32_t us[4][4] = {{10, 3, 2, 1}, {1, 1, 1, 1}, {100, 0, 0, 0}, {0, 9, 0, 2}};
    for (int i = 0; i < 4; i++) {
        uint64_t u64[4];
        for (int x = 0; x < 4; x++)
            u64[x] = us[i][x], u[x] = us[i][x];
        cr_assert_eq(drv_share(u, mult), (uint32_t)ref_share(u64, cfg_mult), "share of case %d", i);
    }
    /* arbitrary multipliers (Fig. 2-7 units) */
    const uint32_t m2[4] = {1, 3, 5, 3};
    const uint32_t k2[4] = {9, 6, 3, 1};
    cr_assert_eq(drv_share(k2, m2), 18u, "Fig. 2-7 K2: max(9, 18, 15, 3) = 18");
}

/* ================================================================================================ */
/* model through drv_eval / drv_commit                                                             */
/* ================================================================================================ */

Test(sm_driver, reset_state, .description = "reset: nothing set up, no command, no kl_rej / kdone")
{
    bench_t *b = bench_new(DRV_FCFS);
    quiet(b, 3, "reset");
    cr_assert(!b->o.kl_rej && !b->o.kdone_v);
    cr_assert_eq(b->d.kv, 0);
    bench_free(b);
}

Test(sm_driver, launch_rej, .description = "launch accepted / refused (kl_rej the next cycle, entry untouched)")
{
    U_NEEDS(DRV_NSM >= 2 && DRV_KN >= 2);
    bench_t *b = bench_new(DRV_FCFS);
    /* the largest legal shape: n = W, r = floor(LIM_REG / W) (RMAX where W x RMAX <= LIM_REG), m = LIM_SL;
     * mask SM1 only (SM0 kept empty) */
    const uint32_t rfull = umin(SMK_LIM_REG / W, SMK_MAX_REGS);
    const uint32_t m1 = umin(1, SMK_LIM_SL); /* one shared-memory line, 0 where the SM has none */
    launch(b, 0, W, rfull, SMK_LIM_SL, 1, 2);
    step(b);
    cr_assert(!b->o.kl_rej, "cycle 0: kl_rej before any launch");
    cr_assert(b->d.kv & 1, "cycle 0: largest legal shape refused (kv[0] not set)");
    struct { uint32_t k, n, r, m, grid; uint64_t mask; const char *why; } bad[] = {
        {0, 1, 1, m1, 1, 1, "entry in use (kv)"},
        {1, 1, 1, m1, 0, 1, "grid 0"},
        {1, 1, 1, m1, 1, 0, "mask 0"},
        {1, 0, 1, m1, 1, 1, "n = 0"},
        {1, W + 1, 1, m1, 1, 1, "n = W + 1"},
        {1, W, rfull + 1, m1, 1, 1, "n*r > LIM_REG"},
        {1, 1, 1, SMK_LIM_SL + 1, 1, 1, "m > LIM_SL"},
    };
    int ncase = 0;
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        /* m = LIM_SL + 1 does not exist on the port where LIM_SL + 1 is a power of two (SMLN_W =
         * clog2(MMAX + 1) bits, MMAX = LIM_SL), and n*r > LIM_REG needs r > RMAX where W x RMAX <=
         * LIM_REG (refused for r > RMAX then, not for n*r): those cases cannot be presented here, the
         * others still are */
        if (!port_carries(bad[i].n, bad[i].r, bad[i].m, bad[i].grid) || bad[i].r > SMK_MAX_REGS) {
            fprintf(stderr, "[%s] launch_rej: no launch with %s here (n %u r %u m %u grid %u: the port cannot carry it, or r > RMAX)\n",
                    SMK_CFG_NAME, bad[i].why, bad[i].n, bad[i].r, bad[i].m, bad[i].grid);
            continue;
        }
        ncase++;
        launch(b, bad[i].k, bad[i].n, bad[i].r, bad[i].m, bad[i].grid, bad[i].mask);
        const uint64_t kv = b->d.kv;
        const uint32_t kn0 = b->d.kn[0];
        step(b);
        cr_assert_eq(b->d.kv, kv, "launch with %s: kv changed", bad[i].why);
        cr_assert_eq(b->d.kn[0], kn0, "launch with %s: entry 0 overwritten", bad[i].why);
        step(b);
        cr_assert(b->o.kl_rej, "cycle %d: kl_rej not set after a launch with %s", b->cyc - 1, bad[i].why);
    }
    cr_assert(ncase >= 5, "only %d refused launches presented", ncase);
    /* kl_rej is a one-cycle pulse */
    step(b);
    cr_assert(!b->o.kl_rej, "cycle %d: kl_rej held", b->cyc - 1);
    /* r = RMAX + 1 is refused too, where the port width can express it */
    if ((1u << SMK_REGN_W) - 1 > SMK_MAX_REGS) {
        launch(b, 1, 1, SMK_MAX_REGS + 1, m1, 1, 1);
        step(b);
        step(b);
        cr_assert(b->o.kl_rej, "r > RMAX accepted");
    }
    /* a good launch: accepted, kl_rej 0 the next cycle */
    launch(b, 1, 1, 1, m1, 1, 1);
    step(b);
    cr_assert(b->d.kv & 2, "good launch refused");
    step(b);
    cr_assert(!b->o.kl_rej, "kl_rej after a good launch");
    bench_free(b);
}

/* FCFS set-up fields, event timing, kernel slots, kdone, entry reuse */
Test(sm_driver, fcfs_setup_fields, .description = "set-up fields (slot, warp mask, ks, nreg, smem, go, TB ids), done events, kdone, entry and ks reuse")
{
    U_ONE_CYCLE();
    U_NEEDS(DRV_KN >= 6 && DRV_KS >= 2 && DRV_T >= 4 && SMK_WARPS >= 9); /* u_w in 5: 6 (3 TBs of k3, before the retire) + 3 of k5 */
    bench_t *b = bench_new(DRV_FCFS);
    /* k3: n 2, R r3 = 4, M m3 = 8; k5: n 3, R r5 = 2: smaller where RMAX, LIM_REG or LIM_SL cannot
     * hold them. 3 TBs of k3 take 6 r3 rows and 3 m3 lines; k5 is dispatched in 5 from the state
     * before the retire of one of them (6 r3 + 3 r5 rows) and later sits next to the relaunched k3
     * (n 1, R 1: 3 r5 + 1 rows) */
    const uint32_t r3 = umin(4, umin(SMK_MAX_REGS, SMK_LIM_REG / 6)), m3 = umin(8, SMK_LIM_SL / 3);
    const uint32_t r5 = umin(2, umin(SMK_MAX_REGS, (SMK_LIM_REG - (r3 ? 6 * r3 : 1)) / 3));
    launch(b, 3, 2, r3, m3, 3, 1); /* k3: n 2, R r3, M m3, 3 TBs, SM0 */
    step(b);                       /* 0 */
    cr_assert(!b->o.set_v[0], "cycle 0: dispatch before the launch edge");
    for (int i = 0; i < 3; i++) { /* 1, 2, 3: slots 0, 1, 2, warps {2i, 2i+1}, ks 0, ids 0, 1, 2 */
        step(b);
        expect_setup(b, 0, i, span(2 * i, 2), 0, r3, m3, 1, "new TB, lowest free slot, lowest free warps");
        cr_assert_eq(b->o.set_id[0], (uint32_t)i, "NEW: set_id = knext (%d)", i);
        cr_assert_eq(b->d.sid[0][i], (uint32_t)i, "TB id of slot %d", i);
        cr_assert_eq(b->d.knext[3], (uint32_t)(i + 1));
    }
    cr_assert_eq(b->d.u[0][DRV_R_REG], 3 * 2 * r3, "u_reg = 3 TBs x n*R");
    cr_assert_eq(b->d.u[0][DRV_R_SL], 3 * m3);
    cr_assert_eq(b->d.u[0][DRV_R_W], 6u);
    cr_assert_eq(b->d.u[0][DRV_R_TB], 3u);
    cr_assert_eq(b->d.U[3][DRV_R_W], 6u);
    cr_assert_eq(b->d.cnt[0][3], 3);
    /* 4: grid exhausted; slot 1 completes in 4, k5 (n 3, R r5, M 0) launched in 4 */
    done(b, 0, 1);
    launch(b, 5, 3, r5, 0, 1, 1);
    quiet(b, 1, "grid of k3 exhausted");
    /* 5: event done (0, 1); the dispatch of k5 sees the state before the retire: slot 3, and the
     * warps of wused (2, 3 freed by the SM in 4): {2, 3, 6}; kernel slot 1 (k3 holds 0) */
    step(b);
    cr_assert(b->o.ev_kind == DRV_EV_DONE && b->o.ev_sm == 0 && b->o.ev_slot == 1, "cycle 5: event done (0, 1)");
    expect_setup(b, 0, 3, (1ULL << 2) | (1ULL << 3) | (1ULL << 6), 1, r5, 0, 1,
                 "slot freed by this cycle's event is not free yet; wsel from wused");
    cr_assert_eq(b->d.kndone[3], 1u);
    cr_assert_eq(b->d.u[0][DRV_R_TB], 3u, "u_tb after retire + dispatch");
    cr_assert_eq(b->d.u[0][DRV_R_W], 4u + 3u, "u_w: 2 TBs of k3 + k5");
    cr_assert_eq(b->d.u[0][DRV_R_REG], 2 * 2 * r3 + 3 * r5);
    /* 6: slots 0 and 2 complete; events in 7 (slot 0) and 8 (slot 2): one per cycle, lowest slot */
    done(b, 0, 0);
    done(b, 0, 2);
    quiet(b, 1, "nothing to dispatch");
    step(b); /* 7 */
    cr_assert(b->o.ev_kind == DRV_EV_DONE && b->o.ev_sm == 0 && b->o.ev_slot == 0, "cycle 7: event done (0, 0)");
    cr_assert(!b->o.kdone_v);
    cr_assert_eq(b->d.kndone[3], 2u);
    cr_assert(b->d.ksv[0] & 1, "k3 still holds ks 0 after one of its two TBs retired");
    step(b); /* 8 */
    cr_assert(b->o.ev_kind == DRV_EV_DONE && b->o.ev_sm == 0 && b->o.ev_slot == 2, "cycle 8: event done (0, 2)");
    cr_assert(!b->o.kdone_v, "cycle 8: kdone is registered, one cycle after the last done event");
    cr_assert(!(b->d.kv >> 3 & 1), "k3 finished: kv cleared at the event edge");
    cr_assert(!(b->d.ksv[0] & 1), "ks 0 released when cnt[0][3] reaches 0");
    cr_assert(b->d.ksv[0] & 2, "ks 1 (k5) kept");
    /* 9: kdone pulse; relaunch entry 3 (n 1, R 1, M 1 or 0 where the SM has no shared memory) in 9 */
    const uint32_t m1 = umin(1, SMK_LIM_SL);
    launch(b, 3, 1, 1, m1, 1, 1);
    step(b);
    cr_assert(b->o.kdone_v && b->o.kdone_k == 3, "cycle 9: kdone_v %u kdone_k %u, expected 1, 3", b->o.kdone_v,
              b->o.kdone_k);
    expect_no_setup(b, "nothing eligible in 9");
    /* 10: kdone back to 0; new k3: slot 0 (lowest free of 0, 1, 2), warp 0, ks 0 (released), id 0 */
    step(b);
    cr_assert(!b->o.kdone_v, "cycle 10: kdone is a pulse");
    cr_assert(!b->o.kl_rej, "cycle 10: relaunch of a finished entry refused");
    expect_setup(b, 0, 0, 1, 0, 1, m1, 1, "reused entry: lowest free slot, ks_free, new ids from 0");
    cr_assert_eq(b->d.sid[0][0], 0u);
    quiet(b, 2, "all dispatched");
    bench_free(b);
}

/* FCFS: oldest eligible kernel that fits somewhere, lowest SM where it fits; a big old kernel does
 * not block a younger one. A = k5 (older, higher index), B = k1 (too big later), C = k3. */
Test(sm_driver, fcfs_order, .description = "FCFS: oldest kernel (not lowest index), lowest SM where it fits, a misfit does not block")
{
    U_ONE_CYCLE();
    U_NEEDS(DRV_NSM >= 2 && DRV_KN >= 6 && DRV_KS >= 2 && DRV_T >= 2 && SMK_WARPS >= 4);
    bench_t *b = bench_new(DRV_FCFS);
    const uint32_t na = W / 2 + 1;
    launch(b, 5, na, RW, 0, 2, 3); /* A: 2 TBs of W/2+1 warps, SMs 0-1 */
    step(b);                       /* 0 */
    launch(b, 1, W, RW, 0, 1, 3);  /* B: one TB of W warps */
    step(b);                       /* 1: A on SM0 */
    expect_setup(b, 0, 0, span(0, na), 0, RW, 0, 1, "A on the lowest SM");
    cr_assert_eq(b->o.dec_k, 5u);
    launch(b, 3, 1, 1, 0, 1, 3); /* C: one TB of 1 warp */
    step(b);                     /* 2: A (older than B, though B has the lower index) -> SM1 */
    for (int s = 2; s < NSM; s++)
        cr_assert(!b->o.set_v[s]);
    expect_setup(b, 1, 0, span(0, na), 0, RW, 0, 1, "oldest kernel first; lowest SM where it fits (SM0 is full)");
    cr_assert_eq(b->o.dec_k, 5u, "cycle 2: FCFS must take A (oldest), not B (lower index)");
    step(b); /* 3: B fits nowhere; C (youngest) is dispatched on SM0 */
    expect_setup(b, 0, 1, 1ULL << na, 1, 1, 0, 1, "a kernel that fits nowhere does not block younger ones");
    cr_assert_eq(b->o.dec_k, 3u);
    done(b, 1, 0); /* A's TB on SM1 completes in 4; event in 5; B fits on SM1 from 6 */
    quiet(b, 2, "B does not fit until the retire edge");
    step(b); /* 6 */
    expect_setup(b, 1, 0, SMK_WMASK_ALL, 0, RW, 0, 1, "B on SM1 after the retire (ks 0 released by A)");
    cr_assert_eq(b->o.dec_k, 1u);
    quiet(b, 2, "all dispatched");
    bench_free(b);
}

/* events: one per cycle, responses before dones, lowest SM first, lowest slot first */
Test(sm_driver, event_order, .description = "done events one per cycle: lowest SM first, lowest slot first; counters per event")
{
    U_ONE_CYCLE();
    U_NEEDS(DRV_NSM >= 2 && DRV_KN >= 2 && DRV_KS >= 2 && DRV_T >= 3 && SMK_WARPS >= 6 && (SMK_WARPS / 2 + 1) * RW + 2 * umin(2, umin(SMK_MAX_REGS, SMK_LIM_REG / 2)) <= SMK_LIM_REG);
    bench_t *b = bench_new(DRV_FCFS);
    const uint32_t na = W / 2 + 1;
    /* k1: R 2, or what two of its TBs can hold where RMAX or LIM_REG is smaller */
    const uint32_t r1 = umin(2, umin(SMK_MAX_REGS, SMK_LIM_REG / 2));
    launch(b, 0, na, RW, 0, 2, 3);
    step(b);
    launch(b, 1, 1, r1, 0, 2, 1);
    step(b); /* 1: k0 SM0 slot 0 */
    expect_setup(b, 0, 0, span(0, na), 0, RW, 0, 1, "k0 SM0");
    step(b); /* 2: k0 SM1 slot 0 (FCFS: k0 older) */
    expect_setup(b, 1, 0, span(0, na), 0, RW, 0, 1, "k0 SM1");
    step(b); /* 3, 4: k1 SM0 slots 1, 2 */
    expect_setup(b, 0, 1, 1ULL << na, 1, r1, 0, 1, "k1 SM0 slot 1");
    step(b);
    expect_setup(b, 0, 2, 1ULL << (na + 1), 1, r1, 0, 1, "k1 SM0 slot 2");
    done(b, 1, 0);
    done(b, 0, 2);
    done(b, 0, 0);
    quiet(b, 1, "5");
    const int exp[3][2] = {{0, 0}, {0, 2}, {1, 0}};
    const uint32_t utb0[3] = {2, 1, 1}, utb1[3] = {1, 1, 0};
    for (int i = 0; i < 3; i++) {
        step(b);
        cr_assert(b->o.ev_kind == DRV_EV_DONE && (int)b->o.ev_sm == exp[i][0] && (int)b->o.ev_slot == exp[i][1],
                  "cycle %d: event kind %u (%u, %u), expected done (%d, %d)", b->cyc - 1, b->o.ev_kind, b->o.ev_sm,
                  b->o.ev_slot, exp[i][0], exp[i][1]);
        cr_assert(b->d.u[0][DRV_R_TB] == utb0[i] && b->d.u[1][DRV_R_TB] == utb1[i],
                  "after event %d: u_tb %u/%u, expected %u/%u", i, b->d.u[0][DRV_R_TB], b->d.u[1][DRV_R_TB], utb0[i],
                  utb1[i]);
        cr_assert(!b->o.kdone_v);
    }
    step(b); /* 9: k0's both TBs done in 6 and 8 -> kdone(0) */
    cr_assert(b->o.kdone_v && b->o.kdone_k == 0, "cycle 9: kdone for k0");
    cr_assert_eq(b->o.ev_kind, DRV_EV_NONE);
    cr_assert_eq(b->d.kndone[1], 1u);
    cr_assert(b->d.kv >> 1 & 1, "k1 still running (one TB left)");
    bench_free(b);
}

/* SMK_OD: lowest rK kernel (ties to the lowest index), lowest rSM SM in its mask (ties lowest) */
Test(sm_driver, smk_od_pick, .description = "SMK_OD: Kc = lowest rK, SMc = lowest rSM, ties to the lowest index")
{
    U_ONE_CYCLE();
    U_NEEDS(DRV_NSM >= 2 && DRV_KN >= 5 && DRV_KS >= 2 && DRV_T >= 4 && SMK_WARPS >= 8);
    bench_t *b = bench_new(DRV_SMK_OD);
    /* R 8, or what 4 TBs (8 warps) on an SM can hold where RMAX or LIM_REG is smaller */
    const uint32_t r = umin(8, umin(SMK_MAX_REGS, SMK_LIM_REG / 8));
    launch(b, 4, 2, r, 0, 4, 3); /* same shape for both kernels: rK and rSM are proportional to TB counts */
    step(b);
    launch(b, 1, 2, r, 0, 4, 3);
    /* expected (SM, slot, kernel, ks) per cycle from 1 */
    const struct { int s, t, k, ks; wmask_t m; const char *why; } e[] = {
        {0, 0, 4, 0, 0x3, "only k4; all rSM 0 -> SM0"},
        {1, 0, 1, 0, 0x3, "rK(k1) 0 < rK(k4); rSM(SM1) 0 < rSM(SM0)"},
        {0, 1, 1, 1, 0xC, "rK tie -> k1 (lowest index); rSM tie -> SM0"},
        {1, 1, 4, 1, 0xC, "rK(k4) 1 TB < 2; rSM(SM1) 1 TB < 2"},
        {0, 2, 1, 1, 0x30, "tie 2/2 -> k1; tie -> SM0"},
        {1, 2, 4, 1, 0x30, "k4 2 < 3; SM1 2 < 3"},
        {0, 3, 1, 1, 0xC0, "tie 3/3 -> k1; SM0"},
        {1, 3, 4, 1, 0xC0, "k4 3 < 4; SM1"},
    };
    for (unsigned i = 0; i < sizeof e / sizeof e[0]; i++) {
        step(b);
        expect_setup(b, e[i].s, e[i].t, e[i].m, e[i].ks, r, 0, 1, e[i].why);
        cr_assert_eq(b->o.dec_k, (uint32_t)e[i].k, "cycle %d: kernel %u, expected %d (%s)", b->cyc - 1, b->o.dec_k,
                     e[i].k, e[i].why);
    }
    quiet(b, 2, "both grids exhausted");
    bench_free(b);
}

/* SMK_OD, different shapes: k2's TB dominates in shared memory, k6's in warps, and k2's share is
 * twice k6's; rK decides, not TB counts. The shapes (docs/sm_driver.md "Units and exact dominant
 * shares", computed here with ref_share): k2 n 1, R r2, M m2; k6 n6 warps of R r6, M 0, with
 * m2 = 2 x share(k6) / M_SL whole, both dominances, and 3 TBs of k2 and 5 of k6 fitting on SM0.
 * First choice n6 = W/8, R 1 (m2 = LIM_SL/4, shares D/4 and D/8 on every named configuration); else
 * the first n6 from 1, then r6 = 1, 0, then r2 = 1, 0 that satisfies them. */
static int od_shapes(uint32_t n6, uint32_t r6, uint32_t r2, uint32_t *m2)
{
    const uint64_t d6[4] = {(uint64_t)n6 * r6, 0, n6, 1};
    const uint64_t s6 = ref_share(d6, cfg_mult), msl = cfg_mult[1];
    if (msl == 0 || n6 * SMK_M_W < s6 || (2 * s6) % msl)
        return 0; /* no shared memory (smem_per_sm 0), k6 not warp-dominated, or no whole m2 */
    const uint64_t m = 2 * s6 / msl;
    const uint64_t d2[4] = {r2, m, 1, 1};
    if (m > SMK_LIM_SL || m * msl < ref_share(d2, cfg_mult) || ref_share(d2, cfg_mult) != 2 * s6)
        return 0; /* k2 not shared-memory-dominated */
    if (3 * r2 + 5 * (uint64_t)n6 * r6 > SMK_LIM_REG || 3 * m > SMK_LIM_SL || 3 + 5 * n6 > (uint32_t)W ||
        r2 > SMK_MAX_REGS || r6 > SMK_MAX_REGS)
        return 0; /* the 8 TBs of the sequence do not fit on SM0 */
    *m2 = (uint32_t)m;
    return 1;
}
Test(sm_driver, smk_od_pick_shares, .description = "SMK_OD: rK is the dominant share, rSM likewise (exact integer compare)")
{
    U_ONE_CYCLE();
    U_NEEDS(DRV_KN >= 7 && DRV_KS >= 2 && DRV_T >= 8);
    uint32_t n6 = W / 8, r6 = 1, r2 = 1, m2 = 0;
    int ok = od_shapes(n6, r6, r2, &m2);
    for (uint32_t i = 1; !ok && i <= W; i++)
        for (uint32_t j = 2; !ok && j-- > 0;)
            for (uint32_t l = 2; !ok && l-- > 0;)
                if (od_shapes(i, j, l, &m2))
                    ok = 1, n6 = i, r6 = j, r2 = l;
    if (!ok)
        cr_skip_test("no k2 / k6 shapes with share(k2) = 2 share(k6), shared memory and warps dominant, 3 + 5 TBs on an SM");
    const uint64_t d2[4] = {r2, m2, 1, 1}, d6[4] = {(uint64_t)n6 * r6, 0, n6, 1};
    const uint64_t s2 = ref_share(d2, cfg_mult), s6 = ref_share(d6, cfg_mult);
    cr_assert(s2 == 2 * s6 && s2 == m2 * (uint64_t)cfg_mult[1] && s6 == n6 * (uint64_t)SMK_M_W,
              "bench shapes: shares %llu %llu", (unsigned long long)s2, (unsigned long long)s6);
    fprintf(stderr, "[%s] smk_od_pick_shares: k2 n 1 R %u M %u (share %llu), k6 n %u R %u (share %llu), D %u\n",
            SMK_CFG_NAME, r2, m2, (unsigned long long)s2, n6, r6, (unsigned long long)s6, (unsigned)SMK_DSH);
    bench_t *b = bench_new(DRV_SMK_OD);
    launch(b, 2, 1, r2, m2, 8, 1); /* SM0 only */
    step(b);
    launch(b, 6, n6, r6, 0, 8, 1);
    /* rK over time (units s6): k2 +2 per TB, k6 +1 per TB (k6 is in the state from cycle 2):
     * 1: k2 (alone) -> 2; 2: k6 (0 < 2) -> 1; 3: k6 (1 < 2) -> 2; 4: tie 2/2 -> k2 (index 2 < 6) -> 4;
     * 5: k6 -> 3; 6: k6 -> 4; 7: tie 4/4 -> k2 -> 6; 8: k6 (4 < 6) -> 5. 8 TBs: SM0 full on small. */
    const int ek[] = {2, 6, 6, 2, 6, 6, 2, 6};
    int nslot = 0;
    wmask_t used = 0;
    for (unsigned i = 0; i < sizeof ek / sizeof ek[0]; i++) {
        step(b);
        const uint32_t n = ek[i] == 2 ? 1 : n6;
        expect_setup(b, 0, nslot, span(smk_popc(used), n), ek[i] == 2 ? 0 : 1, ek[i] == 2 ? r2 : r6,
                     ek[i] == 2 ? m2 : 0, 1, "lowest rK, ties to the lowest index");
        cr_assert_eq(b->o.dec_k, (uint32_t)ek[i], "cycle %d: kernel %u, expected %d", b->cyc - 1, b->o.dec_k, ek[i]);
        used |= span(smk_popc(used), n);
        nslot++;
    }
    bench_free(b);
}

/* ---- SMK_OD preemption: V = k2 fills SM0 with 4 TBs of W/4 warps (rK = D: warps dominate),
 * then C = k5 (nc warps per TB) is launched on SM0 only. p = nc / (W/4). */
/* od_build's needs: kernels 2 and 5, 4 TB slots and 2 kernel slots on SM0, W/4 warps per TB of V */
#define OD_BENCH (DRV_KN >= 6 && DRV_KS >= 2 && DRV_T >= 4 && SMK_WARPS >= 4 && SMK_WARPS % 4 == 0)
static bench_t *od_build(uint32_t nc, int idem, uint32_t pmode)
{
    bench_t *b = bench_new(DRV_SMK_OD);
    b->in.cfg_pmode = pmode;
    launch(b, 2, W / 4, RW, 0, 64, 1);
    b->in.kl_idem = idem;
    step(b); /* 0 */
    for (int i = 0; i < 4; i++) {
        step(b); /* 1..4 */
        expect_setup(b, 0, i, span(i * W / 4, W / 4), 0, RW, 0, 1, "V fills SM0");
    }
    /* 5: V does not fit; no other kernel on any SM -> no preemption start */
    launch(b, 5, nc, RW, 0, 1, 1);
    quiet(b, 1, "V alone does not fit: nothing to preempt");
    cr_assert(!b->d.plan_v, "cycle 5: plan started without another kernel on the SM");
    /* 6: Kc = C (rK 0), SMc = SM0, does not fit -> Algorithm 1: SMv = SM0, Kv = V, p, range shrinks.
     * The unit's run for V started in 5 (it finds no SMv) ends after NSM cycles; C's run starts then.
     * The cycle numbers below are those of a plan starting in 6 (at(): bench a1_off). */
    const uint32_t p = nc / (W >= 4 ? W / 4 : 1); /* (W >= 4, W % 4 = 0 in the bench: OD_BENCH) */
    plan_start(b, NSM, p, "V's run, then C's: no preemption start issues anything itself");
    cr_assert(b->d.plan_v && b->d.plan_kc == 5 && b->d.plan_kv == 2 && b->d.plan_sm == 0 && b->d.plan_left == p,
              "cycle 6: plan v %u kc %u kv %u sm %u left %u, expected 1 5 2 0 %u", b->d.plan_v, b->d.plan_kc,
              b->d.plan_kv, b->d.plan_sm, b->d.plan_left, p);
    return b;
}


/* at cycle c of the test's timeline (shifted by the Algorithm 1 unit's runs: plan_start) */
static void at(const bench_t *b, int c)
{
    cr_assert_eq(b->cyc - b->a1_off, c, "bench timeline: at cycle %d (%d + %d), expected %d + %d", b->cyc,
                 b->cyc - b->a1_off, b->a1_off, c, b->a1_off);
}

Test(sm_driver, od_preempt_save_restore, .description = "SMK_OD: plan p=2, SAVEs one at a time of the highest slots, Kc on SMv, then RESTOREs (go=0 + RESTORE) before any new TB id")
{
    U_ONE_CYCLE();
    U_NEEDS(OD_BENCH && DRV_PQ >= 2);
    bench_t *b = od_build(W / 2, 0, SAVE);
    at(b, 7);
    step(b); /* 7: first victim: highest slot of V (3), lowest FREE PTBQ entry 0 */
    expect_cmd(b, 0, SAVE, 3, "plan step: highest slot of Kv");
    expect_ptr(b, 0, 0, "SAVE into entry 0");
    cr_assert_eq(b->o.cmd_idem[0], 0u);
    expect_no_setup(b, "a SAVE has no set-up");
    cr_assert(b->d.qst[0] == DRV_Q_PEND && b->d.qk[0] == 2 && b->d.qid[0] == 3 && b->d.qs[0] == 0 && b->d.qt[0] == 3,
              "entry 0: st %u k %u id %u s %u t %u, expected PEND 2 3 0 3", b->d.qst[0], b->d.qk[0], b->d.qid[0],
              b->d.qs[0], b->d.qt[0]);
    cr_assert(b->d.pb && (b->d.bpb & 1) && b->d.plan_left == 1 && (b->d.spre[0] >> 3 & 1) && (b->d.busy & 1),
              "after the first plan step: pb, bpb, spre, busy set, plan_left 1");
    quiet(b, 1, "8: pb");
    rsp(b, 0, SAVE, 3, OK, 0); /* in 9 (the SM frees the warps at this edge) */
    quiet(b, 1, "9: pb");
    step(b); /* 10: response event; pb still set in this cycle's state */
    cr_assert(b->o.ev_kind == DRV_EV_RSP && b->o.ev_sm == 0, "cycle 10: response event");
    expect_no_setup(b, "10");
    cr_assert(!b->o.cmd_v[0], "cycle 10: second SAVE while pb");
    cr_assert(b->d.qst[0] == DRV_Q_SAVED && !b->d.pb && !(b->d.busy & 1) && !(b->d.bpb & 1),
              "after SAVE OK: entry SAVED, pb / busy / bpb cleared");
    cr_assert(b->d.U[2][DRV_R_TB] == 3 && !(b->d.sv[0] >> 3 & 1), "SAVE OK retires the slot");
    step(b); /* 11: second victim: slot 2, entry 1 */
    expect_cmd(b, 0, SAVE, 2, "plan step: next highest slot of Kv, one at a time");
    expect_ptr(b, 0, CML, "SAVE into entry 1 = 1 x CTX_MAX_LINES");
    cr_assert(b->d.qst[1] == DRV_Q_PEND && b->d.qid[1] == 2 && b->d.qt[1] == 2 && b->d.plan_left == 0);
    rsp(b, 0, SAVE, 2, OK, CML);
    quiet(b, 1, "12: pb");
    quiet(b, 1, "13: response event, pb still set");
    cr_assert(b->d.qst[1] == DRV_Q_SAVED && !b->d.pb);
    step(b); /* 14: Kc's TB on SMv: slot 2, warps W/2..W-1, ks 1, new id 0 */
    expect_setup(b, 0, 2, span(W / 2, W / 2), 1, RW, 0, 1, "plan: Kc's new TB on SMv after p victims");
    cr_assert_eq(b->o.set_id[0], 0u, "NEW: set_id = knext (0)");
    cr_assert_eq(b->o.dec_k, 5u);
    cr_assert(!b->d.plan_v && b->d.sid[0][2] == 0 && b->d.knext[5] == 1, "plan ends; C's TB id 0");
    /* 15, 16: V and C at D/2 each: Kc = V (tie, lowest index), no fit; Kv = C, p = 1, range 0 -> 3D/4: no */
    quiet(b, 1, "15: no fit, no preemption (range would grow)");
    done(b, 0, 2); /* C's TB completes in 16 */
    quiet(b, 1, "16");
    cr_assert(!b->d.plan_v, "no plan may start: range 0 -> 3D/4");
    step(b); /* 17: done event of C's TB */
    cr_assert(b->o.ev_kind == DRV_EV_DONE && b->o.ev_slot == 2);
    expect_no_setup(b, "17: the slot is freed at this edge");
    cr_assert(!(b->d.kv >> 5 & 1));
    step(b); /* 18: kdone(C); V's next TB is its PTBQ entry 0 (TB id 3): set-up go=0 + RESTORE, ptr 0 */
    cr_assert(b->o.kdone_v && b->o.kdone_k == 5, "cycle 18: kdone(5)");
    expect_setup(b, 0, 2, span(W / 2, W / 4), 0, RW, 0, 0, "preempted TBs first: RESTORE set-up, go 0");
    cr_assert_eq(b->o.set_id[0], 3u, "RESTORE: set_id = qid of entry 0 (3)");
    expect_cmd(b, 0, RESTORE, 2, "RESTORE with the set-up, same cycle, same slot");
    expect_ptr(b, 0, 0, "entry 0's context");
    cr_assert(b->d.qst[0] == DRV_Q_REST && b->d.qs[0] == 0 && b->d.qt[0] == 2 && b->d.sid[0][2] == 3 &&
                  (b->d.sfill[0] >> 2 & 1) && (b->d.busy & 1),
              "entry 0 REST at (0, 2), TB id 3, sfill, busy");
    cr_assert_eq(b->d.knext[2], 4u, "no new TB id while V has PTBQ entries");
    quiet(b, 1, "19: entry 1 SAVED needs cmd_ok (busy)");
    rsp(b, 0, RESTORE, 2, OK, 0);
    quiet(b, 1, "20");
    quiet(b, 1, "21: response event");
    cr_assert_eq(b->d.qst[0], DRV_Q_FREE, "RESTORE OK frees the entry");
    step(b); /* 22: entry 1 (TB id 2): slot 3, ptr CML */
    expect_setup(b, 0, 3, span(3 * W / 4, W / 4), 0, RW, 0, 0, "second RESTORE");
    cr_assert_eq(b->o.set_id[0], 2u, "RESTORE: set_id = qid of entry 1 (2)");
    expect_cmd(b, 0, RESTORE, 3, "RESTORE of entry 1");
    expect_ptr(b, 0, CML, "entry 1's context");
    cr_assert(b->d.sid[0][3] == 2 && b->d.qst[1] == DRV_Q_REST);
    rsp(b, 0, RESTORE, 3, OK, CML);
    quiet(b, 4, "23..26: SM0 full, V alone");
    cr_assert(b->d.qst[1] == DRV_Q_FREE && b->d.knext[2] == 4 && b->d.U[2][DRV_R_TB] == 4);
    bench_free(b);
}

/* SAVE answered FIN / ERR_EMPTY: the TB finished first; entry FREE, completion counted once */
static void od_fin(int same_cycle)
{
    bench_t *b = od_build(W / 4, 0, SAVE);
    step(b); /* 7 */
    expect_cmd(b, 0, SAVE, 3, "p = 1: one victim, slot 3");
    expect_ptr(b, 0, 0, "entry 0");
    if (same_cycle) {
        quiet(b, 1, "8");
        done(b, 0, 3);
        rsp(b, 0, SAVE, 3, FIN, 0); /* both in 9 */
        quiet(b, 1, "9");
        step(b); /* 10: response first (responses before dones) */
        cr_assert(b->o.ev_kind == DRV_EV_RSP, "cycle 10: the response goes before the done latched with it");
        expect_no_setup(b, "10: pb in state");
        cr_assert(b->d.qst[0] == DRV_Q_FREE && !b->d.pb && b->d.kndone[2] == 0 && b->d.U[2][DRV_R_TB] == 4,
                  "FIN: entry FREE, pb cleared, no completion counted, nothing retired");
        step(b); /* 11: done event; plan step: fits(0, C) false in this state -> plan ends */
        cr_assert(b->o.ev_kind == DRV_EV_DONE && b->o.ev_slot == 3);
        expect_no_setup(b, "11: the slot is retired at this edge; plan ends without dispatch");
        cr_assert(!b->d.plan_v && b->d.kndone[2] == 1 && b->d.U[2][DRV_R_TB] == 3);
    } else {
        done(b, 0, 3); /* in 8, ERR_EMPTY in 9 */
        quiet(b, 1, "8");
        rsp(b, 0, SAVE, 3, E_EMPTY, 0);
        step(b); /* 9: done event */
        cr_assert(b->o.ev_kind == DRV_EV_DONE && b->o.ev_slot == 3);
        expect_no_setup(b, "9: pb");
        cr_assert(b->d.kndone[2] == 1 && b->d.pb);
        step(b); /* 10: response event; the plan step waits for pb (does not apply), so decision 4
                  * runs: Kc = C, fits on SM0 (the victim retired at edge 9; fits allows plan_kc on
                  * plan_sm) -> C's TB now */
        cr_assert(b->o.ev_kind == DRV_EV_RSP);
        expect_setup(b, 0, 3, span(3 * W / 4, W / 4), 1, RW, 0, 1, "C by dispatch while the plan waits for pb");
        cr_assert_eq(b->o.dec_k, 5u);
        cr_assert(b->d.qst[0] == DRV_Q_FREE && !b->d.pb && b->d.kndone[2] == 1);
        quiet(b, 1, "11: plan step: plan_left 0, ~pb, C not eligible (grid done) -> plan ends");
        cr_assert(!b->d.plan_v);
    }
    if (same_cycle) {
        step(b); /* 12: C's TB in slot 3, new id 0, by dispatch (the plan ended in 11) */
        expect_setup(b, 0, 3, span(3 * W / 4, W / 4), 1, RW, 0, 1, "C after the victim finished");
        cr_assert_eq(b->o.dec_k, 5u);
    }
    quiet(b, 3, "V alone eligible, no fit, range would grow");
    for (int i = 0; i < PQ; i++)
        cr_assert_eq(b->d.qst[i], DRV_Q_FREE, "entry %d not FREE", i);
    cr_assert(b->d.kndone[2] == 1 && b->d.knext[2] == 4, "the completion counted once; no rerun pending");
    bench_free(b);
}
Test(sm_driver, od_save_fin, .description = "SAVE answered FIN with the done in the same cycle: response first, entry FREE, done counted once")
{
    U_ONE_CYCLE();
    U_NEEDS(OD_BENCH);
    od_fin(1);
}
Test(sm_driver, od_save_err_empty, .description = "done then SAVE ERR_EMPTY: entry FREE, done counted once, plan dispatches Kc")
{
    U_ONE_CYCLE();
    U_NEEDS(OD_BENCH);
    od_fin(0);
}

Test(sm_driver, od_drop_rerun, .description = "cfg_pmode DROP, idempotent victim: DROP, RERUN entry, re-dispatched with the same TB id and go=1")
{
    U_ONE_CYCLE();
    U_NEEDS(OD_BENCH);
    bench_t *b = od_build(W / 4, 1, DROP);
    step(b); /* 7 */
    expect_cmd(b, 0, DROP, 3, "DROP of an idempotent victim");
    cr_assert_eq(b->o.cmd_idem[0], 1u, "cmd_idem = kidem");
    cr_assert(b->d.qst[0] == DRV_Q_PEND && b->d.qid[0] == 3);
    quiet(b, 1, "8");
    rsp(b, 0, DROP, 3, OK, 0);
    quiet(b, 1, "9");
    quiet(b, 1, "10: response event");
    cr_assert(b->d.qst[0] == DRV_Q_RERUN && b->d.U[2][DRV_R_TB] == 3 && !b->d.pb, "DROP OK: RERUN, retired");
    step(b); /* 11 */
    expect_setup(b, 0, 3, span(3 * W / 4, W / 4), 1, RW, 0, 1, "plan: C on SMv");
    done(b, 0, 3);
    quiet(b, 1, "12: V has a RERUN entry but no fit; range would grow");
    quiet(b, 1, "13: done event of C");
    step(b); /* 14: rerun of TB id 3, go = 1, no command */
    expect_setup(b, 0, 3, span(3 * W / 4, W / 4), 0, RW, 0, 1, "RERUN: a set-up with go 1 and no command");
    cr_assert_eq(b->o.set_id[0], 3u, "RERUN: set_id = qid of the entry (3)");
    cr_assert(b->d.sid[0][3] == 3 && b->d.qst[0] == DRV_Q_FREE && b->d.knext[2] == 4,
              "same TB id 3, entry FREE, no new id (sid %u qst %u knext %u)", b->d.sid[0][3], b->d.qst[0], b->d.knext[2]);
    bench_free(b);
}

Test(sm_driver, od_drop_not_idem, .description = "cfg_pmode DROP with a non-idempotent victim: SAVE")
{
    U_ONE_CYCLE();
    U_NEEDS(OD_BENCH);
    bench_t *b = od_build(W / 4, 0, DROP);
    step(b);
    expect_cmd(b, 0, SAVE, 3, "DROP mode, victim not idempotent -> SAVE");
    expect_ptr(b, 0, 0, "entry 0");
    cr_assert_eq(b->o.cmd_idem[0], 0u);
    bench_free(b);
}

/* SMK_OD: the lowest-rK kernel does not fit on SMc and no preemption helps: nothing is dispatched,
 * even though another kernel would fit (literal Algorithm 1) */
Test(sm_driver, od_no_fallback, .description = "SMK_OD: Kc does not fit -> no dispatch of a higher-rK kernel that fits")
{
    U_ONE_CYCLE();
    U_NEEDS(DRV_KN >= 4 && DRV_KS >= 2 && DRV_T >= 2 && SMK_WARPS >= 2);
    bench_t *b = bench_new(DRV_SMK_OD);
    launch(b, 1, 1, 1, 0, 64, 1); /* k1: 1 warp TBs, SM0 */
    step(b);
    launch(b, 3, W, RW, 0, 1, 1); /* k3: a whole SM */
    step(b);                      /* 1: k1 TB 0 */
    expect_setup(b, 0, 0, 1, 0, 1, 0, 1, "k1");
    /* 2: k3 rK 0 < k1: Kc = k3 does not fit. Preemption: Kv = k1, p = 1 (W-1+W > W? q=1: 1-1+W <= W) ->
     * range (D/W .. 0) -> (0 .. D): grows, no plan. k1 would fit but is not dispatched. */
    quiet(b, 3, "Kc = k3 does not fit; k1 is not dispatched instead");
    cr_assert(!b->d.plan_v);
    bench_free(b);
}

/* SPART: a mask change evicts the kernel's TBs from the SM it lost, highest slot first, one at a
 * time per SM (cmd_ok) */
Test(sm_driver, spart_evict_drain, .description = "SPART: km_v removes SM1 -> DRAIN of the highest slot, next after the response; response event before a lower SM's done")
{
    U_ONE_CYCLE();
    U_NEEDS(DRV_NSM >= 2 && DRV_T >= 2 && SMK_WARPS >= 2 && SMK_WARPS % 2 == 0);
    bench_t *b = bench_new(DRV_SPART);
    launch(b, 0, W / 2, RW, 0, 4, 3);
    step(b);
    for (int i = 0; i < 4; i++) {
        step(b); /* 1..4 */
        /* SPART: the SM with the lowest rSM (ties: the lowest index), so the TBs alternate */
        expect_setup(b, i % 2, i / 2, span((i / 2) * W / 2, W / 2), 0, RW, 0, 1, "SPART, lowest rSM where it fits");
    }
    b->in.km_v = 1, b->in.km_k = 0, b->in.km_mask = 1;
    quiet(b, 1, "5: mask change");
    step(b); /* 6 */
    expect_cmd(b, 1, DRAIN, 1, "eviction: lowest SM, highest slot of a kernel that may not stay");
    expect_no_setup(b, "6");
    cr_assert(!b->d.pb && (b->d.spre[1] >> 1 & 1) && (b->d.busy >> 1 & 1), "DRAIN: spre, busy; not pb");
    for (int i = 0; i < PQ; i++)
        cr_assert_eq(b->d.qst[i], DRV_Q_FREE, "a DRAIN takes no PTBQ entry");
    quiet(b, 1, "7: SM1 busy");
    done(b, 1, 1);
    quiet(b, 1, "8");
    rsp(b, 1, DRAIN, 1, OK, 0);
    done(b, 0, 0);
    step(b); /* 9: done event (1, 1) */
    cr_assert(b->o.ev_kind == DRV_EV_DONE && b->o.ev_sm == 1 && b->o.ev_slot == 1);
    cr_assert(!b->o.cmd_v[1], "9: SM1 still busy");
    step(b); /* 10: response of SM1 goes before the done of SM0 */
    cr_assert(b->o.ev_kind == DRV_EV_RSP && b->o.ev_sm == 1, "cycle 10: event %u sm %u, expected the response of SM1",
              b->o.ev_kind, b->o.ev_sm);
    cr_assert(!b->o.cmd_v[1], "10: busy in this cycle's state");
    step(b); /* 11: done (0, 0); eviction of SM1 slot 0 */
    cr_assert(b->o.ev_kind == DRV_EV_DONE && b->o.ev_sm == 0 && b->o.ev_slot == 0);
    expect_cmd(b, 1, DRAIN, 0, "second eviction after the first is answered");
    bench_free(b);
}

Test(sm_driver, spart_evict_save, .description = "SPART with cfg_evict SAVE: PEND entry, pb, SAVED on OK; the TB is restored on an SM it may use")
{
    U_ONE_CYCLE();
    U_NEEDS(DRV_NSM >= 2 && DRV_T >= 2 && SMK_WARPS >= 2 && SMK_WARPS % 2 == 0 && DRV_PQ >= 2);
    bench_t *b = bench_new(DRV_SPART);
    b->in.cfg_evict = SAVE;
    launch(b, 0, W / 2, RW, 0, 4, 3);
    step(b);
    for (int i = 0; i < 4; i++) {
        step(b); /* TB i on SM i % 2, slot i / 2 (lowest rSM) */
        expect_setup(b, i % 2, i / 2, span((i / 2) * W / 2, W / 2), 0, RW, 0, 1, "SPART, lowest rSM where it fits");
    }
    b->in.km_v = 1, b->in.km_k = 0, b->in.km_mask = 1;
    quiet(b, 1, "5");
    step(b); /* 6 */
    expect_cmd(b, 1, SAVE, 1, "eviction SAVE of SM1 slot 1 (TB id 3)");
    expect_ptr(b, 1, 0, "entry 0");
    cr_assert(b->d.qst[0] == DRV_Q_PEND && b->d.qk[0] == 0 && b->d.qid[0] == 3 && b->d.qs[0] == 1 && b->d.qt[0] == 1,
              "entry 0: st %u k %u id %u s %u t %u", b->d.qst[0], b->d.qk[0], b->d.qid[0], b->d.qs[0], b->d.qt[0]);
    cr_assert(b->d.pb && (b->d.bpb >> 1 & 1), "an eviction SAVE holds pb");
    quiet(b, 1, "7");
    rsp(b, 1, SAVE, 1, OK, 0);
    quiet(b, 1, "8");
    quiet(b, 1, "9: response event, pb in state");
    cr_assert(b->d.qst[0] == DRV_Q_SAVED && !b->d.pb);
    step(b); /* 10 */
    expect_cmd(b, 1, SAVE, 0, "second eviction SAVE (TB id 1)");
    expect_ptr(b, 1, CML, "entry 1");
    cr_assert(b->d.qst[1] == DRV_Q_PEND && b->d.qid[1] == 1);
    done(b, 0, 1);
    quiet(b, 1, "11");
    quiet(b, 1, "12: done event");
    step(b); /* 13: entry 0 restored on SM0 (dispatch is not blocked by pb) */
    expect_setup(b, 0, 1, span(W / 2, W / 2), 0, RW, 0, 0, "RESTORE of the evicted TB on SM0");
    expect_cmd(b, 0, RESTORE, 1, "RESTORE");
    expect_ptr(b, 0, 0, "entry 0");
    cr_assert(b->d.sid[0][1] == 3 && b->d.qst[0] == DRV_Q_REST);
    bench_free(b);
}

/* SMK_P: partition unit timing for one kernel, then a second kernel shrinks the partition: the
 * excess is evicted (DRAIN, answered by the stub), every partition equals the progressive filling
 * computed here and by drv_fill, and dispatch fills the partitions exactly. */
Test(sm_driver, smk_p_partition, .description = "SMK_P: part = progressive filling (ref and drv_fill), dispatch within part, excess evicted after a shrink")
{
    U_ONE_CYCLE();
    U_NEEDS(DRV_KN >= 7 && DRV_KS >= 2 && DRV_T >= 4 && SMK_WARPS >= 4 && SMK_WARPS % 4 == 0);
    bench_t *b = bench_new(DRV_SMK_P);
    b->autodrain = 1;
    const uint32_t kA = 1, kB = 6;
    const uint32_t nA = W / 4, mB = SMK_LIM_SL / 8;
    uint32_t dd[DRV_KN][DRV_NRES];
    memset(dd, 0, sizeof dd);
    dd[kA][0] = nA * RW, dd[kA][1] = 0, dd[kA][2] = nA, dd[kA][3] = 1;
    dd[kB][0] = 1, dd[kB][1] = mB, dd[kB][2] = 1, dd[kB][3] = 1;
    uint32_t refA[DRV_KN], refAB[DRV_KN], drvAB[DRV_KN];
    ref_fill(DRV_KN, (const uint32_t(*)[4])dd, 1u << kA, cfg_lim, cfg_mult, KS, 0, 1, 0, refA);
    ref_fill(DRV_KN, (const uint32_t(*)[4])dd, 1u << kA | 1u << kB, cfg_lim, cfg_mult, KS, 0, 1, 0, refAB);
    uint32_t lim[DRV_NRES], mult[DRV_NRES];
    memcpy(lim, cfg_lim, sizeof lim);
    memcpy(mult, cfg_mult, sizeof mult);
    drv_fill(DRV_KN, (const uint32_t(*)[DRV_NRES])dd, 1u << kA | 1u << kB, lim, mult, KS, 0, 0, 0, 0, drvAB, NULL);
    cr_assert(refA[kA] == 4, "bench: A alone gets %u, expected 4 (warps)", refA[kA]);
    cr_assert(refAB[kA] < refA[kA] && refAB[kB] > 0, "bench: the second kernel must shrink A's partition");
    cr_assert(drvAB[kA] == refAB[kA] && drvAB[kB] == refAB[kB], "drv_fill %u/%u, reference %u/%u", drvAB[kA],
              drvAB[kB], refAB[kA], refAB[kB]);
    fprintf(stderr, "[%s] smk_p_partition: A alone %u; A %u, B %u\n", SMK_CFG_NAME, refA[kA], refAB[kA], refAB[kB]);

    /* launch A in 0: pdirty at edge 0; start in 1; SM0 filled in 2..5 (4 TBs); no candidate in 6:
     * part[0] written; A's first dispatch in 7 */
    launch(b, kA, nA, RW, 0, 200, 1);
    quiet(b, 7, "0..6: no partition yet (part 0)");
    step(b);
    expect_setup(b, 0, 0, span(0, nA), 0, RW, 0, 1, "first TB of A inside its new partition");
    for (int i = 1; i < 4; i++) {
        step(b);
        expect_setup(b, 0, i, span(i * nA, nA), 0, RW, 0, 1, "A fills its partition");
    }
    for (int i = 0; i < 100 + 2 * NSM; i++) {
        step(b);
        expect_no_setup(b, "A's partition is full");
    }
    cr_assert(!b->d.pact && !b->d.pdirty, "partition unit idle");
    for (int s = 0; s < NSM; s++)
        for (int k = 0; k < DRV_KN; k++)
            cr_assert_eq(b->d.part[s][k], s == 0 && k == (int)kA ? refA[kA] : 0, "part[%d][%d] = %u", s, k,
                         b->d.part[s][k]);

    /* B: the partition shrinks; A's excess is drained (highest slot of a kernel above its part) */
    launch(b, kB, 1, 1, mB, 200, 1);
    int ndrain = 0;
    for (int i = 0; i < 400 + 4 * NSM; i++) {
        const sm_driver_t pre = b->d;
        tmask_t pending = 0;
        for (int j = 0; j < b->nad; j++)
            pending |= (tmask_t)1 << b->ad[j].t;
        step(b);
        if (b->o.cmd_v[0]) {
            cr_assert_eq(b->o.cmd_op[0], DRAIN, "cycle %d: eviction with cfg_evict DRAIN", b->cyc - 1);
            /* highest slot held, not already leaving, whose kernel is above its partition */
            int want = -1;
            for (int t = T - 1; t >= 0 && want < 0; t--)
                if ((b->alloc[0] >> t & 1) && !(pending >> t & 1) &&
                    pre.cnt[0][b->tk[0][t]] > pre.part[0][b->tk[0][t]])
                    want = t;
            cr_assert_eq((int)b->o.cmd_tb[0], want, "cycle %d: eviction of slot %u, expected %d", b->cyc - 1,
                         b->o.cmd_tb[0], want);
            ndrain++;
        }
        for (int s = 1; s < NSM; s++)
            cr_assert(!b->o.cmd_v[s] && !b->o.set_v[s], "cycle %d: activity on SM %d", b->cyc - 1, s);
    }
    cr_assert(!b->d.pact && !b->d.pdirty && b->nad == 0, "not settled");
    cr_assert_eq(ndrain, (int)(refA[kA] - refAB[kA]), "evictions %d, expected %u", ndrain, refA[kA] - refAB[kA]);
    int nk[DRV_KN] = {0};
    for (int t = 0; t < T; t++)
        if (b->alloc[0] >> t & 1)
            nk[b->tk[0][t]]++;
    for (int k = 0; k < DRV_KN; k++) {
        const uint32_t want = k == (int)kA ? refAB[kA] : k == (int)kB ? refAB[kB] : 0;
        cr_assert_eq(b->d.part[0][k], want, "part[0][%d] = %u, expected %u (progressive filling)", k, b->d.part[0][k],
                     want);
        cr_assert_eq((uint32_t)nk[k], want, "SM0 holds %d TBs of kernel %d, expected its partition %u", nk[k], k, want);
        cr_assert_eq((uint32_t)b->d.cnt[0][k], want, "cnt[0][%d]", k);
    }
    bench_free(b);
}

Test(sm_driver, max2, .description = "cfg_max2: a third kernel goes to another SM; without MAX2 it shares SM0")
{
    U_ONE_CYCLE();
    U_NEEDS(DRV_NSM >= 2 && DRV_KN >= 3 && DRV_KS >= 3 && DRV_T >= 3 && SMK_WARPS >= 3 && SMK_LIM_REG >= 3);
    for (int m2 = 1; m2 >= 0; m2--) {
        bench_t *b = bench_new(DRV_FCFS);
        b->in.cfg_max2 = m2;
        launch(b, 0, 1, 1, 0, 1, 3);
        step(b);
        launch(b, 1, 1, 1, 0, 1, 3);
        step(b);
        expect_setup(b, 0, 0, 1, 0, 1, 0, 1, "k0");
        launch(b, 2, 1, 1, 0, 1, 3);
        step(b);
        expect_setup(b, 0, 1, 2, 1, 1, 0, 1, "k1: second kernel on SM0");
        step(b);
        if (m2)
            expect_setup(b, 1, 0, 1, 0, 1, 0, 1, "MAX2: third kernel on SM1");
        else
            expect_setup(b, 0, 2, 4, 2, 1, 0, 1, "no MAX2: third kernel on SM0, ks 2");
        bench_free(b);
    }
}

Test(sm_driver, cap, .description = "CAP: at most klim TBs held; the next one after a completion")
{
    U_ONE_CYCLE();
    U_NEEDS(DRV_T >= 2 && SMK_WARPS >= 2 && SMK_LIM_REG >= 2);
    bench_t *b = bench_new(DRV_FCFS);
    launch(b, DRV_KN > 3 ? 3 : DRV_KN - 1, 1, 1, 0, 5, 1); /* kernel 3, or the last one: only the TB count matters */
    b->in.kl_adm = DRV_ADM_CAP, b->in.kl_lim = 2;
    step(b);
    step(b);
    expect_setup(b, 0, 0, 1, 0, 1, 0, 1, "TB 0");
    step(b);
    expect_setup(b, 0, 1, 2, 0, 1, 0, 1, "TB 1");
    done(b, 0, 0);
    quiet(b, 1, "3: U_tb = klim");
    quiet(b, 1, "4: done event, U_tb still 2 in state");
    step(b); /* 5 */
    expect_setup(b, 0, 0, 1, 0, 1, 0, 1, "TB 2 after the completion");
    cr_assert_eq(b->d.sid[0][0], 2u);
    quiet(b, 3, "U_tb = klim again");
    bench_free(b);
}

Test(sm_driver, reserve, .description = "RESERVE: short kernel -> DRAIN of the highest non-reserved TB, one at a time; non-reserved dispatch blocked on its SMs")
{
    U_ONE_CYCLE();
    U_NEEDS(DRV_KN >= 3 && DRV_KS >= 2 && DRV_T >= 4 && SMK_WARPS >= 4 && SMK_WARPS % 4 == 0);
    bench_t *b = bench_new(DRV_FCFS);
    launch(b, 0, W / 4, RW, 0, 4, 1); /* B: batch, fills SM0 */
    step(b);
    for (int i = 0; i < 4; i++) {
        step(b);
        expect_setup(b, 0, i, span(i * W / 4, W / 4), 0, RW, 0, 1, "B");
    }
    launch(b, 1, W / 2, RW, 0, 1, 1); /* R: RESERVE, klim 1, in 5 */
    b->in.kl_adm = DRV_ADM_RESERVE, b->in.kl_lim = 1;
    at(b, 5);
    step(b); /* 5: nothing (B exhausted) */
    expect_no_setup(b, "5");
    launch(b, 2, W / 4, RW, 0, 4, 1); /* B2: batch, younger than R, in 6 */
    step(b);                          /* 6: R short -> DRAIN slot 3 */
    expect_cmd(b, 0, DRAIN, 3, "reservation drain: highest non-reserved slot");
    expect_no_setup(b, "5");
    cr_assert(b->d.pb && (b->d.bpb & 1), "a reservation DRAIN holds pb");
    quiet(b, 1, "7: one drain at a time");
    done(b, 0, 3);
    quiet(b, 1, "8");
    rsp(b, 0, DRAIN, 3, OK, 0);
    quiet(b, 1, "9: done event");
    quiet(b, 1, "10: B2 would fit (W/4 free) but R is short: blocked; pb in state");
    step(b); /* 11 */
    expect_cmd(b, 0, DRAIN, 2, "second drain after the first is answered");
    expect_no_setup(b, "11: B2 still blocked");
    done(b, 0, 2);
    quiet(b, 1, "12: B2 blocked (slot 3 free), pb");
    rsp(b, 0, DRAIN, 2, OK, 0);
    quiet(b, 1, "13: done event; R does not fit in this state");
    step(b); /* 14: R fits: not short any more; FCFS: R older than B2 */
    expect_setup(b, 0, 2, span(W / 2, W / 2), 1, RW, 0, 1, "the reserved kernel takes the drained space");
    cr_assert_eq(b->o.dec_k, 1u);
    quiet(b, 3, "SM0 full");
    bench_free(b);
}

/* While the plan waits (pb), decision 4 still runs; `fits` keeps every kernel but plan_kc off
 * plan_sm. X = k0 (rK 0, ties with C and wins: lowest index), 1 warp per TB. */
static void od_plan_other(uint64_t xmask)
{
    bench_t *b = od_build(W / 2, 0, SAVE);
    launch(b, 0, 1, 1, 0, 1, xmask); /* X in 7 */
    step(b);                         /* 7: first SAVE (slot 3) */
    expect_cmd(b, 0, SAVE, 3, "plan step");
    if (xmask & 2) {
        step(b); /* 8: Kc = X (tie 0/0 with C, lowest index); SMc = SM1 (rSM 0): dispatch there */
        expect_setup(b, 1, 0, 1, 0, 1, 0, 1, "decision 4 while the plan waits for pb: X on SM1");
        cr_assert_eq(b->o.dec_k, 0u);
        bench_free(b);
        return;
    }
    quiet(b, 1, "8: X does not fit on SM0 (full)");
    rsp(b, 0, SAVE, 3, OK, 0);
    quiet(b, 1, "9");
    quiet(b, 1, "10: response event");
    step(b); /* 11: second SAVE */
    expect_cmd(b, 0, SAVE, 2, "plan step 2");
    rsp(b, 0, SAVE, 2, OK, CML);
    quiet(b, 1, "12: X fits SM0 (slot 3 free) but the plan reserves SMv for C");
    quiet(b, 1, "13: same");
    step(b); /* 14: the plan dispatches C, not X */
    expect_setup(b, 0, 2, span(W / 2, W / 2), 1, RW, 0, 1, "plan: C on SMv");
    cr_assert_eq(b->o.dec_k, 5u);
    bench_free(b);
}
Test(sm_driver, od_plan_blocks_smv, .description = "SMK_OD: while the plan is active no other kernel is dispatched on SMv")
{
    U_ONE_CYCLE();
    U_NEEDS(OD_BENCH && DRV_PQ >= 2);
    od_plan_other(1);
}
Test(sm_driver, od_plan_other_sm, .description = "SMK_OD: while the plan waits for pb, Kc of the moment is dispatched on another SM")
{
    U_ONE_CYCLE();
    U_NEEDS(OD_BENCH && DRV_NSM >= 2);
    od_plan_other(3);
}

/* Algorithm 1 step 1: SMv is the SM with the highest rSM (without Kc's TBs), not SMc.
 * SM0: V1 = k1, 4 TBs of W/4 warps (rSM D); SM1: V2 = k3, 3 TBs (3D/4); C = k5, n = W/2, SMs 0-1:
 * SMc = SM1 (lower rSM), no fit; SMv = SM0, Kv = V1, p = 2; range V1 D, V2 3D/4, C 0 (D) ->
 * V1 D/2, C D/2, V2 3D/4 (D/4): preempt. (SMv = SMc would give Kv = V2, p = 1.) */
Test(sm_driver, od_alg1_smv, .description = "Algorithm 1: SMv = highest rSM in kmask[Kc] (not SMc), Kv, p")
{
    U_ONE_CYCLE();
    U_NEEDS(DRV_NSM >= 2 && DRV_KN >= 6 && DRV_KS >= 2 && DRV_T >= 4 && SMK_WARPS >= 4 && SMK_WARPS % 4 == 0);
    bench_t *b = bench_new(DRV_SMK_OD);
    launch(b, 1, W / 4, RW, 0, 4, 1);
    step(b);
    launch(b, 3, W / 4, RW, 0, 3, 2);
    for (int i = 0; i < 10; i++)
        step(b);
    cr_assert(b->d.cnt[0][1] == 4 && b->d.cnt[1][3] == 3, "bench: V1 %u TBs on SM0, V2 %u on SM1", b->d.cnt[0][1],
              b->d.cnt[1][3]);
    launch(b, 5, W / 2, RW, 0, 1, 3);
    quiet(b, 1, "launch of C");
    plan_start(b, 0, 2, "plan start");
    cr_assert(b->d.plan_v && b->d.plan_kc == 5 && b->d.plan_kv == 1 && b->d.plan_sm == 0 && b->d.plan_left == 2,
              "plan v %u kc %u kv %u sm %u left %u, expected 1 5 1 0 2", b->d.plan_v, b->d.plan_kc, b->d.plan_kv,
              b->d.plan_sm, b->d.plan_left);
    step(b);
    expect_cmd(b, 0, SAVE, 3, "first victim: V1's highest slot on SM0");
    bench_free(b);
}

/* Algorithm 1 step 2: Kv = the kernel on SMv with the highest GPU-wide rK. V2 = k3 has 2 TBs on
 * SM1 and 2 on SM0 (slots 0, 3), V1 = k1 2 on SM0 (slots 1, 2): equal on SM0, V2 higher GPU-wide.
 * C = k5 (n = W/2, SM0): Kv = V2, p = 2; victims V2's highest slots 3 then 0 (not V1's slot 2). */
Test(sm_driver, od_alg1_kv, .description = "Algorithm 1: Kv = highest GPU-wide rK on SMv; victims are Kv's highest slots")
{
    U_ONE_CYCLE();
    U_NEEDS(DRV_NSM >= 2 && DRV_KN >= 6 && DRV_KS >= 2 && DRV_T >= 4 && SMK_WARPS >= 4 && SMK_WARPS % 4 == 0 && DRV_PQ >= 2);
    bench_t *b = bench_new(DRV_SMK_OD);
    launch(b, 3, W / 4, RW, 0, 4, 2); /* V2 on SM1 first */
    step(b);                          /* 0 */
    step(b);                          /* 1: V2 SM1 slot 0 */
    expect_setup(b, 1, 0, span(0, W / 4), 0, RW, 0, 1, "V2 on SM1");
    b->in.km_v = 1, b->in.km_k = 3, b->in.km_mask = 1; /* in 2: V2 now SM0 only */
    step(b);                                            /* 2: V2 SM1 slot 1 (mask changes at this edge) */
    expect_setup(b, 1, 1, span(W / 4, W / 4), 0, RW, 0, 1, "V2 on SM1");
    launch(b, 1, W / 4, RW, 0, 2, 1);
    step(b); /* 3: V2 SM0 slot 0 */
    expect_setup(b, 0, 0, span(0, W / 4), 0, RW, 0, 1, "V2 on SM0 after the mask change");
    step(b); /* 4: V1 (rK 0) */
    expect_setup(b, 0, 1, span(W / 4, W / 4), 1, RW, 0, 1, "V1: lowest rK");
    step(b); /* 5: V1 (D/4 < 3D/4) */
    expect_setup(b, 0, 2, span(W / 2, W / 4), 1, RW, 0, 1, "V1 again");
    step(b); /* 6: V1 exhausted -> V2 */
    expect_setup(b, 0, 3, span(3 * W / 4, W / 4), 0, RW, 0, 1, "V2's fourth TB");
    launch(b, 5, W / 2, RW, 0, 1, 1);
    quiet(b, 1, "7: launch of C");
    plan_start(b, 0, 2, "8: plan start");
    cr_assert(b->d.plan_v && b->d.plan_kc == 5 && b->d.plan_kv == 3 && b->d.plan_sm == 0 && b->d.plan_left == 2,
              "plan v %u kc %u kv %u sm %u left %u, expected 1 5 3 0 2", b->d.plan_v, b->d.plan_kc, b->d.plan_kv,
              b->d.plan_sm, b->d.plan_left);
    step(b); /* 9 */
    expect_cmd(b, 0, SAVE, 3, "V2's highest slot");
    rsp(b, 0, SAVE, 3, OK, 0);
    quiet(b, 1, "10");
    quiet(b, 1, "11: response event");
    step(b); /* 12 */
    expect_cmd(b, 0, SAVE, 0, "V2's next highest slot (slot 2 is V1's)");
    expect_ptr(b, 0, CML, "entry 1");
    bench_free(b);
}

/* SMK_P on several SMs, checked rule by rule each cycle from the registered state: K = the
 * eligible kernel with the lowest rK among those that fit somewhere (ties lowest index), S = the
 * lowest-rSM SM where K fits (ties lowest). fits is recomputed here from the spec. */
static int my_fits(const wmask_t *wused, const sm_driver_t *d, int s, int k, uint32_t max2)
{
    if (!(d->kmask[k] >> s & 1))
        return 0;
    const uint32_t dk[4] = {(uint32_t)d->kn[k] * d->kr[k], d->km[k], d->kn[k], 1};
    for (int x = 0; x < 4; x++)
        if (d->u[s][x] + dk[x] > cfg_lim[x])
            return 0;
    int nks = 0, has = 0;
    for (int j = 0; j < KS; j++)
        if (d->ksv[s] >> j & 1)
            nks++, has |= d->ksk[s][j] == k;
    if (!has && !(nks < KS && (!max2 || nks < 2)))
        return 0;
    if (smk_popc(~wused[s] & SMK_WMASK_ALL) < d->kn[k])
        return 0;
    return d->cnt[s][k] < d->part[s][k];
}
static uint64_t my_share4(const uint32_t u[4])
{
    uint64_t v[4];
    for (int x = 0; x < 4; x++)
        v[x] = u[x];
    return ref_share(v, cfg_mult);
}
Test(sm_driver, smk_p_multi_sm, .description = "SMK_P on two SMs: every dispatch is the lowest-rK kernel that fits somewhere on its lowest-rSM SM; final partitions = filling")
{
    U_ONE_CYCLE();
    U_NEEDS(DRV_NSM >= 2 && DRV_KN >= 5 && DRV_KS >= 2 && DRV_T >= 2 && SMK_WARPS >= 4);
    bench_t *b = bench_new(DRV_SMK_P);
    b->autodrain = 1;
    const int kA = 2, kB = 4;
    /* A: W/4 warps of R 2 (warps dominate), B: 1 warp of R 4 with LIM_SL/8 lines (shared memory
     * dominates); R smaller where RMAX is, or where it would make registers dominate (A: R M_REG >
     * M_W, i.e. R > LIM_REG / W; B: R M_REG > LIM_SL/8 x M_SL) */
    const uint32_t mB = SMK_LIM_SL / 8;
    const uint32_t rA = umin(2, umin(SMK_MAX_REGS, SMK_LIM_REG / W));
    const uint32_t rB = umin(4, umin(SMK_MAX_REGS, mB * SMK_M_SL / SMK_M_REG));
    launch(b, kA, W / 4, rA, 0, 2000, 3);
    step(b);
    launch(b, kB, 1, rB, mB, 2000, 3);
    rng_t rng;
    rng_seed(&rng, u_seed("smk_p_multi_sm", 7));
    int nd = 0, nties = 0, nfit2 = 0, age[NSM][T];
    memset(age, 0, sizeof age);
    const int ncyc = 1500 + 4 * NSM;
    for (int i = 0; i < ncyc; i++) {
        /* random natural completions (not of a slot being drained, not of a TB set up in the last
         * cycle) until 200 cycles before the end, so that SMs with equal rSM occur: in half of the
         * cycles, of one of the SM's allocated slots (drawn among them: with a few TBs in many slots,
         * a slot drawn among all T is rarely held, and the deficits on two SMs at once that test the
         * rSM choice never occurred on random configurations seed 2 file 7 and seed 4 file 16) */
        for (int s = 0; s < 2 && i < ncyc - 200; s++) {
            const int na = smk_popc(b->alloc[s]);
            if (!rng_chance(&rng, 1, 2) || na == 0)
                continue;
            int t = 0;
            for (int j = (int)rng_below(&rng, (uint32_t)na); !(b->alloc[s] >> t & 1) || j-- > 0;)
                t++;
            int pend = 0;
            for (int j = 0; j < b->nad; j++)
                pend |= b->ad[j].s == s && b->ad[j].t == t;
            if ((b->alloc[s] >> t & 1) && !pend && age[s][t] + 2 <= b->cyc)
                done(b, s, t);
        }
        const sm_driver_t pre = b->d;
        wmask_t wu[NSM];
        memcpy(wu, b->wused, sizeof wu); /* the SM's wused of this cycle (before the edge) */
        step(b);
        int S = -1;
        for (int s = 0; s < NSM; s++)
            if (b->o.set_v[s])
                S = s;
        if (S < 0)
            continue;
        age[S][b->o.set_tb[S]] = b->cyc - 1;
        nd++;
        /* expected K: lowest rK among eligible kernels (work: knext < grid here) that fit somewhere */
        int K = -1;
        uint64_t bk = 0;
        for (int k = 0; k < DRV_KN; k++) {
            if (!(pre.kv >> k & 1) || pre.knext[k] >= pre.kgrid[k])
                continue;
            int any = 0;
            for (int s = 0; s < NSM; s++)
                any |= my_fits(wu, &pre, s, k, 0);
            if (!any)
                continue;
            const uint64_t r = my_share4(pre.U[k]);
            if (K < 0 || r < bk)
                K = k, bk = r;
        }
        if ((int)b->o.dec_k != K || getenv("DBG"))
            for (int k = 0; k < DRV_KN; k++)
                if (pre.kv >> k & 1)
                    fprintf(stderr, "c%d k%d rK %llu knext %u fits %d/%d cnt %u/%u part %u/%u u0 %u,%u,%u,%u u1 %u,%u,%u,%u wfree %d/%d\n", b->cyc - 1, k,
                            (unsigned long long)my_share4(pre.U[k]), pre.knext[k], my_fits(wu, &pre, 0, k, 0),
                            my_fits(wu, &pre, 1, k, 0), pre.cnt[0][k], pre.cnt[1][k], pre.part[0][k], pre.part[1][k],
                            pre.u[0][0], pre.u[0][1], pre.u[0][2], pre.u[0][3], pre.u[1][0], pre.u[1][1], pre.u[1][2], pre.u[1][3],
                            smk_popc(~wu[0] & SMK_WMASK_ALL), smk_popc(~wu[1] & SMK_WMASK_ALL));
        cr_assert_eq((int)b->o.dec_k, K, "cycle %d: SMK_P dispatched kernel %u, expected %d (lowest rK that fits)",
                     b->cyc - 1, b->o.dec_k, K);
        int ES = -1;
        uint64_t bs = 0;
        for (int s = 0; s < NSM; s++) {
            if (!my_fits(wu, &pre, s, K, 0))
                continue;
            if (ES >= 0)
                nfit2++;
            const uint64_t r = my_share4(pre.u[s]);
            if (ES >= 0 && r == bs)
                nties++;
            if (ES < 0 || r < bs)
                ES = s, bs = r;
        }
        cr_assert_eq(S, ES, "cycle %d: kernel %d dispatched on SM %d, expected SM %d (lowest rSM where it fits)",
                     b->cyc - 1, K, S, ES);
    }
    /* settled: partitions of SM0 and SM1 are the filling of both kernels */
    uint32_t dd[DRV_KN][4], ref[DRV_KN];
    memset(dd, 0, sizeof dd);
    dd[kA][0] = W / 4 * rA, dd[kA][2] = W / 4, dd[kA][3] = 1;
    dd[kB][0] = rB, dd[kB][1] = mB, dd[kB][2] = 1, dd[kB][3] = 1;
    ref_fill(DRV_KN, (const uint32_t(*)[4])dd, 1u << kA | 1u << kB, cfg_lim, cfg_mult, KS, 0, 1, 0, ref);
    cr_assert(!b->d.pact && !b->d.pdirty);
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < DRV_KN; k++) {
            cr_assert_eq(b->d.part[s][k], ref[k], "part[%d][%d] = %u, expected %u", s, k, b->d.part[s][k], ref[k]);
            cr_assert_eq(b->d.cnt[s][k], ref[k], "cnt[%d][%d] = %u, expected the partition %u", s, k, b->d.cnt[s][k],
                         ref[k]);
        }
    cr_assert(nd >= 2 * (int)(ref[kA] + ref[kB]), "only %d dispatches", nd);
    cr_assert(nfit2 > 0, "the random completions never left two SMs where the kernel fits (rSM choice untested)");
    fprintf(stderr, "[%s] smk_p_multi_sm: %d dispatches, %d with two SMs fitting, %d rSM ties\n", SMK_CFG_NAME, nd, nfit2, nties);
    bench_free(b);
}

/* The Algorithm 1 unit's RNG cycle starts the plan only if this cycle's Kc is still the kernel of the
 * run: V fills SM0, C = k5 (W/2 warps, SM0 only) starts a run; D = k3 (the same shape) is launched in
 * the run's first SMV cycle, so in its RNG cycle Kc = D (rK 0 = C's, lower index): no plan, IDLE,
 * and the next cycle starts D's run. */
Test(sm_driver, od_alg1_rng_kc_changed, .description = "Algorithm 1 unit: no plan when the dispatch's Kc is another kernel in the RNG cycle; the next run is that kernel's")
{
    U_ONE_CYCLE();
    U_NEEDS(OD_BENCH);
    bench_t *b = bench_new(DRV_SMK_OD);
    launch(b, 2, W / 4, RW, 0, 64, 1);
    step(b); /* 0 */
    for (int i = 0; i < 4; i++)
        step(b); /* 1..4: V fills SM0 */
    launch(b, 5, W / 2, RW, 0, 1, 1);
    /* 5: V's miss starts a run for V (no SMv: NSM cycles), then C's run starts */
    int n = 0;
    while (!(b->d.a1_st == DRV_A1_SMV && b->d.a1_kc == 5 && b->d.a1_s == 0) && n < 4 * NSM + 8)
        quiet(b, 1, "until C's run"), n++;
    cr_assert(b->d.a1_st == DRV_A1_SMV && b->d.a1_kc == 5, "C's run did not start (unit %u kc %u)", b->d.a1_st,
              b->d.a1_kc);
    cr_assert_eq(n, 2 + NSM, "C's run starts after %d cycles from cycle 5, expected 2 + NSM = %d (cycle 6 + NSM)", n, 2 + NSM);
    launch(b, 3, W / 2, RW, 0, 1, 1); /* D, visible from the next cycle */
    quiet(b, NSM + 1 + 2, "SMV, KV, P (p = 2)");
    cr_assert(b->d.a1_st == DRV_A1_RNG && b->d.a1_q == 2 && b->d.a1_smv == 0 && b->d.a1_kv == 2,
              "unit %u q %u smv %u kv %u, expected RNG 2 0 2", b->d.a1_st, b->d.a1_q, b->d.a1_smv, b->d.a1_kv);
    quiet(b, 1, "RNG with Kc = D");
    cr_assert(!b->d.plan_v && b->d.a1_st == DRV_A1_IDLE, "plan_v %u unit %u: no plan for C once D is Kc", b->d.plan_v,
              b->d.a1_st);
    quiet(b, 1, "D's miss");
    cr_assert(b->d.a1_st == DRV_A1_SMV && b->d.a1_kc == 3 && !b->d.plan_v, "unit %u kc %u: D's run", b->d.a1_st,
              b->d.a1_kc);
    bench_free(b);
}

/* Algorithm 1 step 1, "without Kc's TBs": V2 = k3 (3W/8 warps per TB): SM0 slots 0, 1 (rSM 6/8),
 * SM1 slot 0; C = k5 (W/2) on SM1 (rSM 7/8, 3/8 without C). C's mask then becomes SMs 0-1:
 * SMc = SM0 (6/8 < 7/8), no fit; SMv by share without Kc: SM0 (6/8 > 3/8) -- by the raw rSM it
 * would be SM1. Kv = V2, p = 1, range C 4/8, V2 9/8 -> 8/8, 6/8: preempt. */
Test(sm_driver, od_alg1_smv_without_kc, .description = "Algorithm 1: SMv compares rSM without Kc's own TBs")
{
    U_ONE_CYCLE();
    U_NEEDS(DRV_NSM >= 2 && DRV_KN >= 6 && DRV_KS >= 2 && DRV_T >= 2 && SMK_WARPS >= 8 && SMK_WARPS % 4 == 0);
    bench_t *b = bench_new(DRV_SMK_OD);
    const uint32_t nv = 3 * W / 8;
    launch(b, 3, nv, RW, 0, 3, 3);
    step(b); /* 0 */
    step(b); /* 1 */
    expect_setup(b, 0, 0, span(0, nv), 0, RW, 0, 1, "V2: all rSM 0 -> SM0");
    step(b); /* 2 */
    expect_setup(b, 1, 0, span(0, nv), 0, RW, 0, 1, "V2: SM1 has the lower rSM");
    launch(b, 5, W / 2, RW, 0, 2, 2); /* C, SM1 only, in 3 */
    step(b);                          /* 3 */
    expect_setup(b, 0, 1, span(nv, nv), 0, RW, 0, 1, "V2: rSM tie -> SM0");
    b->in.km_v = 1, b->in.km_k = 5, b->in.km_mask = 3; /* in 4 */
    step(b);                                            /* 4: C on SM1 */
    expect_setup(b, 1, 1, span(nv, W / 2), 1, RW, 0, 1, "C on SM1");
    plan_start(b, 0, 1, "5: plan start");
    cr_assert(b->d.plan_v && b->d.plan_kc == 5 && b->d.plan_kv == 3 && b->d.plan_sm == 0 && b->d.plan_left == 1,
              "plan v %u kc %u kv %u sm %u left %u, expected 1 5 3 0 1", b->d.plan_v, b->d.plan_kc, b->d.plan_kv,
              b->d.plan_sm, b->d.plan_left);
    step(b); /* 6 */
    expect_cmd(b, 0, SAVE, 1, "V2's highest slot on SM0");
    bench_free(b);
}

/* pre(s) excludes slots with a latched, unprocessed done (dp): SPART, A's two TBs on SM1; the
 * first is drained; its response, a done of SM0 and the natural done of SM1 slot 0 arrive
 * together: events 10 response, 11 done (0, 0), 12 done (1, 0). Slot 0 of SM1 is never evicted. */
Test(sm_driver, spart_evict_skips_done, .description = "eviction victims exclude TBs whose done is latched (pre = sv & ~spre & ~sfill & ~dp)")
{
    U_ONE_CYCLE();
    U_NEEDS(DRV_NSM >= 2 && DRV_T >= 2 && SMK_WARPS >= 2 && SMK_WARPS % 2 == 0);
    bench_t *b = bench_new(DRV_SPART);
    launch(b, 0, W / 2, RW, 0, 4, 3);
    step(b);
    for (int i = 0; i < 4; i++) {
        step(b); /* TB i on SM i % 2, slot i / 2 (lowest rSM) */
        expect_setup(b, i % 2, i / 2, span((i / 2) * W / 2, W / 2), 0, RW, 0, 1, "SPART, lowest rSM where it fits");
    }
    b->in.km_v = 1, b->in.km_k = 0, b->in.km_mask = 1;
    quiet(b, 1, "5");
    step(b); /* 6 */
    expect_cmd(b, 1, DRAIN, 1, "first eviction");
    quiet(b, 1, "7");
    done(b, 1, 1);
    quiet(b, 1, "8");
    rsp(b, 1, DRAIN, 1, OK, 0);
    done(b, 0, 0);
    done(b, 1, 0);
    quiet(b, 1, "9: done event (1, 1)");
    quiet(b, 1, "10: response event");
    quiet(b, 1, "11: done (0, 0); SM1 slot 0 has its done latched: not preemptible");
    quiet(b, 1, "12: done (1, 0)");
    quiet(b, 2, "13, 14: nothing left on SM1");
    cr_assert(b->d.u[1][DRV_R_TB] == 0 && b->d.kndone[0] == 3, "u_tb(SM1) %u kndone %u", b->d.u[1][DRV_R_TB],
              b->d.kndone[0]);
    bench_free(b);
}

/* The event retires the last TB of K on S in the cycle a TB of K is dispatched on S: K keeps its
 * kernel slot (cnt 1 -> 0 + 1). Y = k4 (ks 0), X = k0 (2 TBs of (W-2)/2 warps, ks 1), K = k2
 * (1 warp, ks 2) fill SM0; X's slot-1 TB ends in 5, K's TB ends in 6; in 7 K's event and K's next TB
 * (dispatched from the state before the retire, with ks_of = 2); then Z = k6 gets ks 3, not 2. */
Test(sm_driver, ks_kept_on_same_cycle_retire, .description = "a dispatch of K on S in the cycle K's last TB there retires keeps K's kernel slot")
{
    U_ONE_CYCLE();
    U_NEEDS(DRV_KN >= 7 && DRV_KS >= 4 && DRV_T >= 4 && SMK_WARPS >= 4 && SMK_WARPS % 2 == 0);
    bench_t *b = bench_new(DRV_FCFS);
    const uint32_t nx = (W - 2) / 2;
    launch(b, 4, 1, RW, 0, 1, 1);
    step(b); /* 0 */
    launch(b, 0, nx, RW, 0, 2, 1);
    step(b); /* 1 */
    expect_setup(b, 0, 0, 1, 0, RW, 0, 1, "Y");
    step(b); /* 2 */
    expect_setup(b, 0, 1, span(1, nx), 1, RW, 0, 1, "X");
    launch(b, 2, 1, RW, 0, 2, 1);
    step(b); /* 3 */
    expect_setup(b, 0, 2, span(1 + nx, nx), 1, RW, 0, 1, "X");
    step(b); /* 4 */
    expect_setup(b, 0, 3, 1ULL << (W - 1), 2, RW, 0, 1, "K");
    done(b, 0, 1);
    quiet(b, 1, "5: SM0 full");
    done(b, 0, 3);
    quiet(b, 1, "6: X's retire at this edge");
    launch(b, 6, 1, RW, 0, 1, 1);
    step(b); /* 7 */
    cr_assert(b->o.ev_kind == DRV_EV_DONE && b->o.ev_slot == 3, "cycle 7: K's done event");
    expect_setup(b, 0, 1, 1ULL << 1, 2, RW, 0, 1, "K's next TB with its kernel slot 2");
    cr_assert(b->d.cnt[0][2] == 1 && (b->d.ksv[0] >> 2 & 1) && b->d.ksk[0][2] == 2,
              "K keeps ks 2 (cnt %u, ksv %#x)", b->d.cnt[0][2], b->d.ksv[0]);
    step(b); /* 8 */
    expect_setup(b, 0, 3, 1ULL << 2, 3, RW, 0, 1, "Z gets the free kernel slot 3, not K's 2");
    bench_free(b);
}

/* ---- QoS (docs/sm_driver.md "QoS (issue 4 step 2)") ------------------------------------------
 * Expected values by hand from the QOS filling rule (warp key pc*kn, ties to the highest index,
 * allowed(k, s) = kqos | rank(k) == floor(s * nq / NSM)) and the request unit's IDLE / SUM / SCAN
 * steps. Shapes use r = 1, m = 0, so only warps and TB slots bind (W and T of every configuration:
 * W % 16 == 0 and 3W/16, W/4 <= T). Timing: a request accepted in cycle c (rq_v & rq_rdy) is SUM
 * in c+1..c+KN, SCAN from c+KN+1; a SCAN step ending in a grant or refusal in cycle g makes
 * rq_ack_v 1 in g+1 only. So the ack of a request needing n SCAN cycles is in c + 1 + KN + n; an
 * invalid request is refused in IDLE: ack in c+1. */
#define KN DRV_KN
#define QOS_BENCH (SMK_WARPS % 16 == 0 && 3 * SMK_WARPS / 16 <= DRV_T && SMK_WARPS / 4 <= DRV_T && DRV_KN == 8)
static void qos_need(void)
{
    if (!QOS_BENCH)
        cr_skip_test("this configuration cannot hold the QoS bench (needs W %% 16 == 0, 3W/16 <= T, W/4 <= T, KN == 8)");
}

static void launch_qr(bench_t *b, uint32_t k, uint32_t n, uint32_t r, uint64_t mask, int qos)
{
    qos_need();
    launch(b, k, n, r, 0, 4000, mask);
    b->in.kl_qos = (uint32_t)qos;
    step(b);
}
static void launch_q(bench_t *b, uint32_t k, uint32_t n, uint64_t mask, int qos)
{
    qos_need();
    launch(b, k, n, 1, 0, 4000, mask);
    b->in.kl_qos = (uint32_t)qos;
    step(b);
}
#define SALLM SMK_MASK(NSM)

/* until the partition unit is idle */
static void settle_part(bench_t *b)
{
    for (int g = 0; b->d.pdirty || b->d.pact; g++) {
        cr_assert(g < 20000, "partition unit never idle");
        step(b);
    }
}
/* until every SM holds exactly its partitions (dispatch inside partitions is done), then quiet */
static void settle_dispatch(bench_t *b)
{
    for (int g = 0;; g++) {
        int eq = 1;
        for (int s = 0; s < NSM && eq; s++)
            for (int k = 0; k < KN && eq; k++)
                eq = b->d.cnt[s][k] == b->d.part[s][k];
        if (eq && !b->d.pdirty && !b->d.pact)
            break;
        cr_assert(g < 20000, "dispatch never reached the partitions");
        step(b);
    }
    for (int i = 0; i < 20; i++) {
        step(b);
        expect_no_setup(b, "every kernel at its partition (fits needs cnt < part under QOS)");
    }
}
/* present a request in this cycle; it must be accepted (rq_rdy); returns the acceptance cycle */
static int request(bench_t *b, uint32_t k, uint32_t s, uint32_t give)
{
    b->in.rq_v = 1, b->in.rq_k = k, b->in.rq_sm = s;
    for (int j = 0; j < KN; j++)
        b->in.rq_give[j] = give;
    step(b);
    cr_assert(b->o.rq_rdy, "cycle %d: request not accepted (rq_rdy 0)", b->cyc - 1);
    cr_assert(!b->o.rq_ack_v, "cycle %d: ack in the acceptance cycle", b->cyc - 1);
    b->in.rq_v = 0;
    return b->cyc - 1;
}
/* step until cycle `at` (inclusive): no ack and rq_rdy 0 before it, the ack with these fields in it */
static void expect_ack(bench_t *b, int at, uint32_t st, uint32_t kv, uint32_t n, const char *rule)
{
    while (b->cyc < at) {
        step(b);
        cr_assert(!b->o.rq_ack_v, "cycle %d: ack (st %u) before cycle %d (%s)", b->cyc - 1, b->o.rq_ack_st, at, rule);
        cr_assert(!b->o.rq_rdy, "cycle %d: rq_rdy while the request unit is busy (%s)", b->cyc - 1, rule);
    }
    step(b);
    cr_assert(b->o.rq_ack_v, "cycle %d: no ack (%s)", at, rule);
    cr_assert(b->o.rq_ack_st == st && b->o.rq_ack_kv == kv && b->o.rq_ack_n == n,
              "cycle %d: ack st %u kv %u n %u, expected %u %u %u (%s)", at, b->o.rq_ack_st, b->o.rq_ack_kv,
              b->o.rq_ack_n, st, kv, n, rule);
}
static void expect_pulse_end(bench_t *b)
{
    step(b);
    cr_assert(!b->o.rq_ack_v && !b->o.rq_ack_st, "cycle %d: the ack is a one-cycle pulse", b->cyc - 1);
}
static void expect_lk(bench_t *b, uint32_t s, uint32_t k, uint32_t cnt, uint32_t part, uint32_t ksv, uint32_t ks)
{
    b->in.lk_s = s, b->in.lk_k = k;
    step(b);
    cr_assert(b->o.lk_cnt == cnt && b->o.lk_part == part && b->o.lk_ksv == ksv && b->o.lk_ks == ks,
              "cycle %d: lookup (%u, %u) = cnt %u part %u ksv %u ks %u, expected %u %u %u %u", b->cyc - 1, s, k,
              b->o.lk_cnt, b->o.lk_part, b->o.lk_ksv, b->o.lk_ks, cnt, part, ksv, ks);
}

Test(sm_driver, qos_alloc_two, .description = "QOS filling: 1 QoS + 2 non-QoS -> QoS on every SM of its mask, non-QoS on contiguous halves, equal warps; dispatch stays inside; lookup port")
{
    U_NEEDS(QOS_BENCH && DRV_NSM >= 2 && DRV_KS >= 3 && DRV_PQ >= 2);
    bench_t *b = bench_new(DRV_QOS);
    /* k0 non-QoS n 4 (rank 0), k1 QoS n 8 (mask without the last SM), k2 non-QoS n 4 (rank 1).
     * k1 has R = 60: its dominant share is registers (SMK_P's key gives it 3 TBs, not 4, on gtx980), the
     * QOS key counts warps only; the registers still fit (W/16 x 480 + W/8 x 4 rows) */
    /* R = 60, or less where the register file cannot hold W/2 x R + W/2 rows (R <= 2 LIM_REG / W - 1) */
    const uint32_t rmax = 2 * SMK_LIM_REG / W - 1, R = rmax < 60 ? rmax : 60;
    launch_q(b, 0, 4, SALLM, 0);
    launch_qr(b, 1, 8, R < SMK_MAX_REGS ? R : SMK_MAX_REGS, SALLM & ~(1ULL << (NSM - 1)), 1);
    launch_q(b, 2, 4, SALLM, 0);
    settle_part(b);
    for (int s = 0; s < NSM; s++) {
        /* owner(s) = floor(2s / NSM); with k1: equal warps W/2 each: k1 W/16 TBs, the owner W/8;
         * the last SM: its owner alone, W/4 TBs (warps full) */
        const int own = 2 * s / NSM, last = s == NSM - 1;
        uint32_t want[KN] = {0};
        want[1] = last ? 0 : W / 16;
        want[own ? 2 : 0] = last ? W / 4 : W / 8;
        for (int k = 0; k < KN; k++)
            cr_assert_eq(b->d.part[s][k], want[k], "part[%d][%d] = %u, expected %u", s, k, b->d.part[s][k], want[k]);
        if (!last)
            cr_assert_eq(b->d.part[s][1] * 8u, b->d.part[s][own ? 2 : 0] * 4u, "equal warps on SM %d", s);
    }
    settle_dispatch(b);
    /* lookup: k0 was the first dispatch (lowest rK tie -> lowest index, SM0): kernel slot 0; k1 on SM0: 1 */
    expect_lk(b, 0, 0, W / 8, W / 8, 1, 0);
    expect_lk(b, 0, 1, W / 16, W / 16, 1, 1);
    expect_lk(b, 0, 2, 0, 0, 0, 0);
    expect_lk(b, NSM - 1, 1, 0, 0, 0, 0);
    if ((1u << SMK_SMW) > NSM)
        expect_lk(b, NSM, 0, 0, 0, 0, 0);
    bench_free(b);
}

Test(sm_driver, qos_alloc_three, .description = "QOS filling: 3 non-QoS kernels -> owner(s) = floor(3s/NSM); rank counts only non-QoS kernels")
{
    U_NEEDS(QOS_BENCH && DRV_NSM >= 2 && DRV_KS >= 3 && DRV_PQ >= 2);
    bench_t *b = bench_new(DRV_QOS);
    /* non-QoS k0, k1, k3 (ranks 0, 1, 2), QoS k2 n 8 */
    launch_q(b, 0, 4, SALLM, 0);
    launch_q(b, 1, 4, SALLM, 0);
    launch_q(b, 2, 8, SALLM, 1);
    launch_q(b, 3, 4, SALLM, 0);
    settle_part(b);
    static const int byrank[3] = {0, 1, 3};
    for (int s = 0; s < NSM; s++) {
        uint32_t want[KN] = {0};
        want[2] = W / 16, want[byrank[3 * s / NSM]] = W / 8;
        for (int k = 0; k < KN; k++)
            cr_assert_eq(b->d.part[s][k], want[k], "part[%d][%d] = %u, expected %u (owner %d)", s, k, b->d.part[s][k],
                         want[k], 3 * s / NSM);
    }
    bench_free(b);
}

Test(sm_driver, qos_rq_free, .description = "request: FREE grant (room left), ack after KN SUM + 1 SCAN cycle, part += 1, then dispatched with set_id = knext")
{
    U_ONE_CYCLE();
    U_NEEDS(QOS_BENCH && DRV_NSM >= 2 && DRV_KS >= 3 && DRV_PQ >= 2);
    /* k0 of n0 warps per TB, n0 the smallest >= 3 not dividing W with W / n0 < T (3 on the named
     * configurations): SM 0 (owner rank 0) holds W / n0 of its TBs, with a warp and a TB slot left */
    uint32_t n0 = 3;
    while (n0 <= W && (W % n0 == 0 || W / n0 >= T))
        n0++;
    if (n0 > W || W / n0 > SMK_LIM_REG)
        cr_skip_test("needs a TB size n0 with W %% n0 != 0, W / n0 < T and W / n0 <= LIM_REG");
    bench_t *b = bench_new(DRV_QOS);
    launch_q(b, 0, n0, SALLM, 0);
    launch_q(b, 1, 1, SALLM, 0);
    settle_part(b);
    cr_assert(b->d.part[0][0] == W / n0 && b->d.part[0][1] == 0, "bench: part[0] %u %u", b->d.part[0][0], b->d.part[0][1]);
    settle_dispatch(b);
    const int c = request(b, 1, 0, 0);
    expect_ack(b, c + 1 + KN + 1, DRV_ACK_FREE, 0, 0, "FREE: w + d(k1) fits, no victim");
    cr_assert(b->d.part[0][1] == 1 && b->d.part[0][0] == W / n0 && !b->d.rq_pend, "FREE: part[0][1] 1, no pend");
    /* dispatched in the ack cycle (part changed at the grant edge), TB id = knext before it */
    const uint32_t id = b->d.knext[1] - 1;
    cr_assert(b->o.set_v[0] && b->o.dec_k == 1 && b->o.set_id[0] == id, "cycle %d: k1 on SM0 with set_id %u", b->cyc - 1,
              id);
    expect_pulse_end(b);
    expect_lk(b, 0, 1, 1, 1, 1, 1);
    bench_free(b);
}

Test(sm_driver, qos_rq_victim, .description = "request, PGPU = 1: VICTIM grant against the non-QoS kernel, exact n, partition moved, rq_pend (rq_rdy 0) until evicted down to part")
{
    U_ONE_CYCLE();
    U_NEEDS(QOS_BENCH && DRV_NSM >= 2 && DRV_KS >= 3 && DRV_PQ >= 2);
    bench_t *b = bench_new(DRV_QOS);
    b->in.cfg_qctl = DRV_QC_PGPU; /* one pending preemption per GPU: rq_rdy waits for rq_pend */
    b->autodrain = 1;
    launch_q(b, 0, 8, SALLM, 1); /* QoS: W/16 per SM */
    launch_q(b, 1, 4, SALLM, 0); /* non-QoS: W/8 per SM */
    settle_part(b);
    settle_dispatch(b);
    /* SCAN: v0 = k (next), v1 step, step (8 warps), grant: 4 SCAN cycles */
    const int c = request(b, 0, 0, 0);
    expect_ack(b, c + 1 + KN + 4, DRV_ACK_VICTIM, 1, 2, "k1 gives 2 TBs of 4 warps for one of 8");
    const int a = c + 1 + KN + 4;
    cr_assert(b->d.part[0][0] == W / 16 + 1 && b->d.part[0][1] == W / 8 - 2, "part moved: %u %u", b->d.part[0][0],
              b->d.part[0][1]);
    cr_assert(b->d.part[0][0] * 8u + b->d.part[0][1] * 4u <= W, "partition totals within the SM's warps");
    for (int s = 1; s < NSM; s++)
        cr_assert(b->d.part[s][0] == W / 16 && b->d.part[s][1] == W / 8, "other SMs untouched");
    /* timeline from the ack cycle a (= the cycle after the grant):
     * eviction DRAIN in a (highest k1 slot), done a+3 -> retire a+4, response event a+5, second
     * eviction a+6, retire a+10: cnt = part and ~pb -> rq_pend cleared at edge a+11; the QoS TB is
     * dispatched in a+11; rq_rdy 1 from a+12. */
    cr_assert(b->d.rq_pend == 1 && b->d.rq_pk[0] == 1, "VICTIM sets rq_pend[0], rq_pk[0] = 1");
    cr_assert(b->o.cmd_v[0] && b->o.cmd_op[0] == DRAIN && b->tk[0][b->o.cmd_tb[0]] == 1 && !b->o.rq_rdy,
              "cycle %d (ack): eviction of a k1 TB on SM0", a);
    int nev = 0, qset = -1;
    while (b->cyc <= a + 12) {
        step(b);
        const int cy = b->cyc - 1;
        if (b->o.cmd_v[0]) {
            cr_assert(b->o.cmd_op[0] == DRAIN && b->tk[0][b->o.cmd_tb[0]] == 1, "cycle %d: eviction of k1", cy);
            cr_assert(cy == a + 6, "cycle %d: second eviction, expected a+6 = %d", cy, a + 6);
            nev++;
        }
        if (b->o.set_v[0]) {
            cr_assert(b->o.dec_k == 0 && qset < 0, "cycle %d: set-up of %u", cy, b->o.dec_k);
            qset = cy;
        }
        if (cy == a + 2) /* a valid request while rq_pend: ignored */
            b->in.rq_v = 1, b->in.rq_k = 0, b->in.rq_sm = NSM - 1;
        else
            b->in.rq_v = 0;
        cr_assert(b->d.rq_st == DRV_RQ_IDLE && !b->o.rq_ack_v, "cycle %d: request accepted while rq_pend", cy);
        cr_assert_eq(b->o.rq_rdy, (uint32_t)(cy >= a + 12), "cycle %d: rq_rdy %u (rq_pend until a+11)", cy, b->o.rq_rdy);
    }
    cr_assert_eq(nev, 1, "second eviction in a+6 (the first was in a)");
    cr_assert_eq(qset, a + 11, "QoS TB dispatched in %d, expected a+11 = %d", qset, a + 11);
    cr_assert(b->d.cnt[0][1] == W / 8 - 2 && b->d.cnt[0][0] == W / 16 + 1, "SM0 at the new partitions");
    bench_free(b);
}

Test(sm_driver, qos_rq_nonqos_first, .description = "request: pass 0 (non-QoS victims) before pass 1 (QoS), even for a lower-index QoS kernel that could give")
{
    U_NEEDS(QOS_BENCH && DRV_NSM >= 2 && DRV_KS >= 3 && DRV_PQ >= 2);
    bench_t *b = bench_new(DRV_QOS);
    launch_q(b, 0, 4, SALLM, 1);
    launch_q(b, 1, 4, SALLM, 0);
    launch_q(b, 2, 4, SALLM, 1);
    settle_part(b);
    settle_dispatch(b);
    /* SCAN: v0 QoS in pass 0: next; v1 step; grant: 3 cycles */
    const int c = request(b, 2, 0, T);
    expect_ack(b, c + 1 + KN + 3, DRV_ACK_VICTIM, 1, 1, "non-QoS k1 gives 1 TB");
    expect_pulse_end(b);
    bench_free(b);
}

Test(sm_driver, qos_rq_give_back, .description = "rq_ret (give-back): SCAN starts at pass 1, so only QoS kernels within rq_give are victims; a non-QoS kernel that would give in pass 0 is passed over")
{
    U_NEEDS(QOS_BENCH && DRV_NSM >= 2 && DRV_KS >= 3 && DRV_PQ >= 2);
    bench_t *b = bench_new(DRV_QOS);
    launch_q(b, 0, 4, SALLM, 1);
    launch_q(b, 1, 4, SALLM, 0);
    launch_q(b, 2, 4, SALLM, 1);
    settle_part(b);
    settle_dispatch(b);
    const uint32_t p0 = b->d.part[0][0], p1 = b->d.part[0][1], p2 = b->d.part[0][2];
    /* give 0: pass 1 only: v0 QoS (give 0) next, v1 non-QoS next, v2 = k next, v3..6 next, v7 refuse: 8 */
    b->in.rq_ret = 1;
    int c = request(b, 2, 0, 0);
    cr_assert(b->d.rq_ret == 1, "rq_ret latched at the acceptance");
    expect_ack(b, c + 1 + KN + 8, DRV_ACK_REFUSED, 0, 0, "give-back, give 0: no QoS victim, the non-QoS k1 untouched");
    expect_pulse_end(b);
    cr_assert(b->d.part[0][0] == p0 && b->d.part[0][1] == p1 && b->d.part[0][2] == p2, "REFUSED changes nothing");
    /* give 1 for the non-QoS k1: pass 1 v0 step, grant: 2 */
    c = request(b, 1, 0, 1);
    expect_ack(b, c + 1 + KN + 2, DRV_ACK_VICTIM, 0, 1, "give-back: QoS k0 gives 1 TB to the non-QoS k1");
    expect_pulse_end(b);
    b->in.rq_ret = 0;
    cr_assert(b->d.part[0][0] == p0 - 1 && b->d.part[0][1] == p1 + 1 && b->d.part[0][2] == p2 && b->d.rq_pend == 1 &&
                  b->d.rq_pk[0] == 0,
              "VICTIM: part %u %u %u", b->d.part[0][0], b->d.part[0][1], b->d.part[0][2]);
    bench_free(b);
}

Test(sm_driver, qos_rq_qos_give, .description = "request: a QoS victim only when n <= rq_give (pass 1), else REFUSED; exact SCAN lengths")
{
    U_NEEDS(QOS_BENCH && DRV_NSM >= 2 && DRV_KS >= 3 && DRV_PQ >= 2);
    bench_t *b = bench_new(DRV_QOS);
    launch_q(b, 0, 4, SALLM, 1); /* W/8 per SM */
    launch_q(b, 1, 8, SALLM, 1); /* W/16 per SM */
    settle_part(b);
    settle_dispatch(b);
    cr_assert(b->d.part[0][0] == W / 8 && b->d.part[0][1] == W / 16, "bench partitions");
    /* pass 0: 8 candidates, each "next" (v0 QoS, v1 = k, v2..7 no partition) */
    int c = request(b, 1, 0, 0); /* give 0: pass 1 v0 next, v1..6 next, v7 refuse: 8 + 8 */
    expect_ack(b, c + 1 + KN + 16, DRV_ACK_REFUSED, 0, 0, "give 0: no QoS victim");
    expect_pulse_end(b);
    c = request(b, 1, 0, 1); /* give 1: pass 1 v0 step, next; v1..6; v7 refuse: 8 + 2 + 6 + 1 */
    expect_ack(b, c + 1 + KN + 17, DRV_ACK_REFUSED, 0, 0, "give 1 < 2 TBs needed");
    expect_pulse_end(b);
    cr_assert(b->d.part[0][0] == W / 8 && b->d.part[0][1] == W / 16 && !b->d.rq_pend, "REFUSED changes nothing");
    c = request(b, 1, 0, 2); /* give 2: pass 1 v0 step, step, grant: 8 + 3 */
    expect_ack(b, c + 1 + KN + 11, DRV_ACK_VICTIM, 0, 2, "give 2: k0 gives 2 TBs");
    expect_pulse_end(b);
    cr_assert(b->d.part[0][0] == W / 8 - 2 && b->d.part[0][1] == W / 16 + 1 && b->d.rq_pend == 1 && b->d.rq_pk[0] == 0,
              "VICTIM: part %u %u", b->d.part[0][0], b->d.part[0][1]);
    bench_free(b);
}

Test(sm_driver, qos_rq_refused_invalid, .description = "request: REFUSED in IDLE (ack next cycle) for a kernel not in use, an SM outside its mask or out of range; rq_v ignored while rq_rdy is 0")
{
    U_NEEDS(QOS_BENCH && DRV_NSM >= 2 && DRV_KS >= 3 && DRV_PQ >= 2);
    bench_t *b = bench_new(DRV_QOS);
    launch_q(b, 0, 4, 1, 0); /* SM0 only */
    settle_part(b);
    settle_dispatch(b);
    int c = request(b, 3, 0, 0);
    expect_ack(b, c + 1, DRV_ACK_REFUSED, 0, 0, "kernel 3 not in use");
    expect_pulse_end(b);
    c = request(b, 0, 1, 0);
    expect_ack(b, c + 1, DRV_ACK_REFUSED, 0, 0, "SM1 not in kmask[0]");
    expect_pulse_end(b);
    if ((1u << SMK_SMW) > NSM) {
        c = request(b, 0, NSM, 0);
        expect_ack(b, c + 1, DRV_ACK_REFUSED, 0, 0, "rq_sm >= NSM");
        expect_pulse_end(b);
    }
    /* launch (pdirty) in x; a request in x+1 sees rq_rdy 0 and is ignored */
    launch(b, 5, 4, 1, 0, 10, 2);
    step(b);
    b->in.rq_v = 1, b->in.rq_k = 0, b->in.rq_sm = 0;
    step(b);
    cr_assert(!b->o.rq_rdy && b->d.pact, "cycle %d: rq_rdy 0 while pdirty (the unit starts at this edge)", b->cyc - 1);
    b->in.rq_v = 0;
    for (int i = 0; i < 3 * KN + T + 4; i++) {
        step(b);
        cr_assert(!b->o.rq_ack_v, "cycle %d: ack of a request presented while rq_rdy was 0", b->cyc - 1);
    }
    cr_assert_eq(b->d.rq_st, DRV_RQ_IDLE);
    bench_free(b);
}

Test(sm_driver, qos_rq_blocks_partition, .description = "the partition unit starts only with rq_st IDLE; rq_rdy low during SUM / SCAN, pdirty and pact")
{
    U_NEEDS(QOS_BENCH && DRV_NSM >= 2 && DRV_KS >= 3 && DRV_PQ >= 2);
    bench_t *b = bench_new(DRV_QOS);
    launch_q(b, 0, 4, 1, 0); /* alone on SM0: W/4, warps full */
    settle_part(b);
    settle_dispatch(b);
    /* the request is refused after pass 0 and pass 1 without a victim: 16 SCAN cycles */
    const int c = request(b, 0, 0, 0);
    launch(b, 4, 4, 1, 0, 10, 2); /* in c+1: pdirty from c+2 */
    const int a = c + 1 + KN + 16;
    while (b->cyc < a) {
        step(b);
        cr_assert(!b->d.pact && !b->o.rq_rdy, "cycle %d: partition started (pact %u) or rq_rdy while busy",
                  b->cyc - 1, b->d.pact);
    }
    step(b); /* a: ack, rq_st IDLE: the partition unit starts at this edge */
    cr_assert(b->o.rq_ack_v && b->o.rq_ack_st == DRV_ACK_REFUSED && !b->o.rq_rdy, "cycle %d: ack, rq_rdy 0 (pdirty)",
              a);
    cr_assert(b->d.pact && !b->d.pdirty, "the partition unit starts in the ack cycle");
    step(b);
    cr_assert(!b->o.rq_rdy, "rq_rdy 0 while pact");
    bench_free(b);
}

/* ---- QoS controls (docs/sm_driver.md "QoS controls"): KEEP, PGPU, no TB no grant ---------------
 * The bench of qos_rq_victim: QoS k0 (n 8) and non-QoS k1 (n 4) on every SM get W/16 and W/8 TBs
 * per SM (equal warps W/2 each); a request of k0 on SM s is granted VICTIM k1, n 2 after KN SUM and
 * 4 SCAN cycles (v0 = k: next; v1: step, step, grant), part[s] becoming W/16 + 1 and W/8 - 2. */

/* inject tb_done for every TB of kernel k the SMs hold; step until kdone_v names k */
static void finish_kernel(bench_t *b, uint32_t k, int keep)
{
    for (int s = 0; s < NSM; s++)
        for (int t = 0; t < T; t++)
            if ((b->alloc[s] >> t & 1) && b->tk[s][t] == (int)k)
                done(b, s, t);
    for (int g = 0;; g++) {
        cr_assert(g < 4 * NSM * T, "kernel %u never finished", k);
        step(b);
        if (keep)
            cr_assert(!b->d.pdirty && !b->d.pact, "cycle %d: KEEP: pdirty %u pact %u while kernel %u finishes",
                      b->cyc - 1, b->d.pdirty, b->d.pact, k);
        if (b->o.kdone_v) {
            cr_assert_eq(b->o.kdone_k, k);
            break;
        }
    }
}
static void expect_part2(bench_t *b, const uint32_t p0[2], const uint32_t ps[2], const char *what)
{
    for (int s = 0; s < NSM; s++)
        for (int k = 0; k < KN; k++) {
            const uint32_t want = k > 1 ? 0 : s == 0 ? p0[k] : ps[k];
            cr_assert_eq(b->d.part[s][k], want, "%s: part[%d][%d] = %u, expected %u", what, s, k, b->d.part[s][k], want);
        }
}
/* k0's grid = its partitions + 1: one TB left for the grant on SM0; after the evictions and that
 * dispatch, SM0 holds W/16 + 1 TBs of k0 and W/8 - 2 of k1, and k0 has nothing left to dispatch */
static void keep_setup(bench_t *b, uint32_t qctl)
{
    b->in.cfg_qctl = qctl;
    b->autodrain = 1;
    launch(b, 0, 8, 1, 0, NSM * W / 16 + 1, SALLM);
    b->in.kl_qos = 1;
    step(b);
    launch_q(b, 1, 4, SALLM, 0);
    settle_part(b);
    settle_dispatch(b);
    cr_assert_eq(b->d.knext[0], (uint32_t)(NSM * W / 16), "bench: k0 has one TB left");
    const int c = request(b, 0, 0, 0);
    expect_ack(b, c + 1 + KN + 4, DRV_ACK_VICTIM, 1, 2, "k1 gives 2 TBs");
    settle_dispatch(b);
    const uint32_t g0[2] = {W / 16 + 1, W / 8 - 2}, gs[2] = {W / 16, W / 8};
    expect_part2(b, g0, gs, "after the grant");
    cr_assert(b->d.knext[0] == b->d.kgrid[0] && b->d.cnt[0][0] == W / 16 + 1, "bench: k0 fully dispatched");
}
static void relaunch_k0(bench_t *b, uint32_t keep)
{
    launch(b, 0, 8, 1, 0, 4000, SALLM);
    b->in.kl_qos = 1, b->in.kl_keep = keep;
    step(b);
    b->in.kl_keep = 0;
}

Test(sm_driver, qos_keep_relaunch, .description = "KEEP: a kernel finishing and its kl_keep relaunch keep the granted partitions exactly; no partition run starts; dispatch refills them")
{
    U_NEEDS(QOS_BENCH && DRV_NSM >= 2 && DRV_KS >= 3 && DRV_PQ >= 2);
    bench_t *b = bench_new(DRV_QOS);
    keep_setup(b, DRV_QC_KEEP);
    finish_kernel(b, 0, 1);
    const uint32_t g0[2] = {W / 16 + 1, W / 8 - 2}, gs[2] = {W / 16, W / 8};
    expect_part2(b, g0, gs, "KEEP: k0 finished, its entry keeps its partitions");
    relaunch_k0(b, 1);
    cr_assert(b->d.kv & 1, "the relaunch is accepted");
    for (int i = 0; i < 3 * NSM * T; i++) {
        step(b);
        cr_assert(!b->d.pdirty && !b->d.pact, "cycle %d: a partition run after a KEEP relaunch (pdirty %u pact %u)",
                  b->cyc - 1, b->d.pdirty, b->d.pact);
    }
    settle_dispatch(b);
    expect_part2(b, g0, gs, "KEEP relaunch");
    cr_assert(b->d.cnt[0][0] == W / 16 + 1 && b->d.cnt[NSM - 1][0] == W / 16, "dispatch refilled the kept partitions");
    bench_free(b);
}

Test(sm_driver, qos_keep_off, .description = "KEEP off: the finish and the relaunch each run the partition unit: k1 alone W/4, then the symmetric W/16 / W/8")
{
    U_NEEDS(QOS_BENCH && DRV_NSM >= 2 && DRV_KS >= 3 && DRV_PQ >= 2);
    bench_t *b = bench_new(DRV_QOS);
    keep_setup(b, 0);
    finish_kernel(b, 0, 0);
    cr_assert(b->d.pdirty || b->d.pact, "KEEP off: a kernel finishing sets pdirty");
    settle_part(b);
    const uint32_t a0[2] = {0, W / 4};
    expect_part2(b, a0, a0, "k1 alone");
    relaunch_k0(b, 1); /* kl_keep without KEEP: recomputed */
    cr_assert(b->d.pdirty, "the relaunch sets pdirty");
    settle_part(b);
    const uint32_t s0[2] = {W / 16, W / 8};
    expect_part2(b, s0, s0, "KEEP off: symmetric allocation");
    settle_dispatch(b);
    bench_free(b);
}

Test(sm_driver, qos_keep_no_kl_keep, .description = "KEEP on, a launch with kl_keep 0 into an entry holding partitions: the partition unit recomputes the symmetric allocation")
{
    U_NEEDS(QOS_BENCH && DRV_NSM >= 2 && DRV_KS >= 3 && DRV_PQ >= 2);
    bench_t *b = bench_new(DRV_QOS);
    keep_setup(b, DRV_QC_KEEP | DRV_QC_PGPU);
    finish_kernel(b, 0, 1);
    relaunch_k0(b, 0);
    cr_assert(b->d.pdirty, "a launch without kl_keep sets pdirty");
    settle_part(b);
    const uint32_t s0[2] = {W / 16, W / 8};
    expect_part2(b, s0, s0, "kl_keep 0: symmetric allocation");
    settle_dispatch(b);
    bench_free(b);
}

Test(sm_driver, qos_pgpu0_two_pending, .description = "PGPU = 0: VICTIM grants on SM0 and SM1 pending at once, both eviction SAVEs in flight, pb 0; a request for a pending SM is REFUSED at c+1")
{
    U_ONE_CYCLE();
    U_NEEDS(QOS_BENCH && DRV_NSM >= 2 && DRV_KS >= 3 && DRV_PQ >= 2);
    bench_t *b = bench_new(DRV_QOS);
    b->in.cfg_evict = SAVE; /* cfg_qctl 0: one pending preemption per SM */
    launch_q(b, 0, 8, SALLM, 1);
    launch_q(b, 1, 4, SALLM, 0);
    settle_part(b);
    settle_dispatch(b);
    int c = request(b, 0, 0, 0);
    const int a = c + 1 + KN + 4;
    expect_ack(b, a, DRV_ACK_VICTIM, 1, 2, "SM0: k1 gives 2 TBs");
    cr_assert(b->o.cmd_v[0] && b->o.cmd_op[0] == SAVE && b->tk[0][b->o.cmd_tb[0]] == 1 && b->o.rq_rdy,
              "cycle %d: eviction SAVE of k1 on SM0, rq_rdy 1 (per SM the pending grant does not hold the port)", a);
    cr_assert(b->d.rq_pend == 1 && b->d.rq_pk[0] == 1 && !b->d.pb && !b->d.bpb && (b->d.busy & 1),
              "after a: rq_pend %#llx rq_pk[0] %u pb %u bpb %#llx busy %#llx", (unsigned long long)b->d.rq_pend,
              b->d.rq_pk[0], b->d.pb, (unsigned long long)b->d.bpb, (unsigned long long)b->d.busy);
    c = request(b, 0, 1, 0); /* in a + 1, SM0's SAVE unanswered */
    cr_assert_eq(c, a + 1);
    const int a2 = c + 1 + KN + 4;
    expect_ack(b, a2, DRV_ACK_VICTIM, 1, 2, "SM1: k1 gives 2 TBs");
    cr_assert(b->o.cmd_v[1] && b->o.cmd_op[1] == SAVE && b->tk[1][b->o.cmd_tb[1]] == 1 && !b->o.cmd_v[0],
              "cycle %d: eviction SAVE of k1 on SM1 while SM0's is in flight", a2);
    cr_assert(b->d.rq_pend == 3 && b->d.rq_pk[0] == 1 && b->d.rq_pk[1] == 1 && (b->d.busy & 3) == 3 && !b->d.pb &&
                  !b->d.bpb,
              "two pending grants and two evictions in flight: rq_pend %#llx busy %#llx pb %u bpb %#llx",
              (unsigned long long)b->d.rq_pend, (unsigned long long)b->d.busy, b->d.pb, (unsigned long long)b->d.bpb);
    cr_assert(b->d.qst[0] == DRV_Q_PEND && b->d.qs[0] == 0 && b->d.qst[1] == DRV_Q_PEND && b->d.qs[1] == 1,
              "PTBQ entries 0 and 1 PEND for SM0 and SM1");
    c = request(b, 0, 0, 0); /* rq_pend[0]: refused in IDLE */
    expect_ack(b, c + 1, DRV_ACK_REFUSED, 0, 0, "SM0's preemption is pending");
    expect_pulse_end(b);
    cr_assert(b->d.part[0][0] == W / 16 + 1 && b->d.part[0][1] == W / 8 - 2, "the refusal changes nothing");
    bench_free(b);
}

Test(sm_driver, qos_pgpu1_save_holds_pb, .description = "PGPU = 1: the eviction SAVE of a VICTIM grant sets pb and bpb; rq_rdy 0 while rq_pend (a request is ignored)")
{
    U_ONE_CYCLE();
    U_NEEDS(QOS_BENCH && DRV_NSM >= 2 && DRV_KS >= 3 && DRV_PQ >= 2);
    bench_t *b = bench_new(DRV_QOS);
    b->in.cfg_evict = SAVE;
    b->in.cfg_qctl = DRV_QC_PGPU;
    launch_q(b, 0, 8, SALLM, 1);
    launch_q(b, 1, 4, SALLM, 0);
    settle_part(b);
    settle_dispatch(b);
    const int c = request(b, 0, 0, 0);
    const int a = c + 1 + KN + 4;
    expect_ack(b, a, DRV_ACK_VICTIM, 1, 2, "SM0: k1 gives 2 TBs");
    cr_assert(b->o.cmd_v[0] && b->o.cmd_op[0] == SAVE && !b->o.rq_rdy, "cycle %d: eviction SAVE, rq_rdy 0", a);
    cr_assert(b->d.pb && b->d.bpb == 1 && b->d.rq_pend == 1, "per GPU an eviction SAVE holds pb (bpb[0])");
    b->in.rq_v = 1, b->in.rq_k = 0, b->in.rq_sm = 1;
    for (int i = 0; i < 3 * KN + T + 4; i++) {
        step(b);
        cr_assert(!b->o.rq_rdy && !b->o.rq_ack_v && b->d.rq_st == DRV_RQ_IDLE && !b->o.cmd_v[1],
                  "cycle %d: rq_rdy 0 while rq_pend, no second grant or eviction", b->cyc - 1);
    }
    b->in.rq_v = 0;
    bench_free(b);
}

Test(sm_driver, qos_rq_no_work, .description = "no TB, no grant: knext == kgrid and no SAVED/RERUN entry -> REFUSED at c+1; with a SAVED entry the request is accepted (VICTIM after KN + 4)")
{
    U_ONE_CYCLE();
    U_NEEDS(QOS_BENCH && DRV_NSM >= 2 && DRV_KS >= 3 && DRV_PQ >= 2);
    bench_t *b = bench_new(DRV_QOS);
    b->in.cfg_evict = SAVE;
    launch(b, 0, 8, 1, 0, NSM * W / 16, SALLM); /* QoS k0: exactly its partitions */
    b->in.kl_qos = 1;
    step(b);
    launch_q(b, 1, 4, SALLM, 0);
    settle_part(b);
    settle_dispatch(b);
    cr_assert(b->d.knext[0] == b->d.kgrid[0], "bench: k0 fully dispatched");
    int c = request(b, 0, 0, T);
    expect_ack(b, c + 1, DRV_ACK_REFUSED, 0, 0, "k0 has no TB left to dispatch");
    expect_pulse_end(b);
    cr_assert(b->d.rq_st == DRV_RQ_IDLE && b->d.part[0][0] == W / 16, "refused in IDLE, nothing changed");
    /* k1 takes one TB of QoS k0 on SM0 (pass 0: v0 QoS next, v1 = k next, v2..7 next; pass 1: v0
     * step (8 warps free 4 for k1), grant): 8 + 2 SCAN cycles */
    c = request(b, 1, 0, T);
    const int a = c + 1 + KN + 10;
    expect_ack(b, a, DRV_ACK_VICTIM, 0, 1, "QoS k0 gives 1 TB (rq_give T)");
    cr_assert(b->o.cmd_v[0] && b->o.cmd_op[0] == SAVE && b->tk[0][b->o.cmd_tb[0]] == 0, "cycle %d: eviction SAVE of k0", a);
    const uint32_t t0 = b->o.cmd_tb[0];
    step(b);
    rsp(b, 0, SAVE, t0, OK, 0);
    step(b); /* a+2: the response, latched */
    step(b); /* a+3: its event: entry 0 SAVED */
    cr_assert(b->d.qst[0] == DRV_Q_SAVED && b->d.qk[0] == 0, "entry 0 SAVED (k0)");
    c = request(b, 0, 1, 0); /* has_pq(k0): accepted */
    expect_ack(b, c + 1 + KN + 4, DRV_ACK_VICTIM, 1, 2, "k0 with a SAVED TB: SM1, k1 gives 2 TBs");
    bench_free(b);
}

/* ---- partition filling with more kernels than kernel slots (docs/sm_driver.md "Partitions":
 * pgot, issue 4 step 3). Six identical kernels of 1 warp, 1 register, no shared memory: only the
 * T TB slots bind (W >= T in every configuration), KS = 4 kernel slots per SM. By the spec:
 * SM 0: pgot = 0, every key 0 ties: kernels 5, 4, 3, 2 take the slots, T/4 TBs each (equal keys:
 * pgot 0 first, then the highest index). End of SM 0: pgot = {2..5}. SM 1: kernels 1, 0 (pgot 0)
 * first, then 5, 4: T/4 each. End of SM 1: every kernel in use has a partition: wrap, pgot = 0.
 * So even SMs {2, 3, 4, 5}, odd SMs {0, 1, 4, 5}. (Before pgot: {2..5} on every SM, kernels 0
 * and 1 partition 0 everywhere.) */
#define PG_OK (DRV_KS == 4 && DRV_T % 4 == 0 && SMK_WARPS >= DRV_T && NSM >= 2 && DRV_KN >= 6)

static void pg_check_six(bench_t *b, const uint32_t *odd_set, const char *what)
{
    uint32_t any[KN] = {0};
    for (int s = 0; s < NSM; s++) {
        for (int k = 0; k < KN; k++) {
            const int in_set = k < 6 && ((s & 1) ? odd_set[k] : (k >= 2));
            const uint32_t want = in_set ? DRV_T / 4 : 0;
            cr_assert_eq(b->d.part[s][k], want, "%s: part[%d][%d] = %u, expected %u", what, s, k, b->d.part[s][k], want);
            any[k] |= b->d.part[s][k] != 0;
        }
    }
    for (int k = 0; k < 6; k++)
        cr_assert(any[k], "%s: kernel %d has partition 0 on every SM (starves)", what, k);
    /* the last SM, NSM - 1, is odd (a wrap: pgot 0) when NSM is even; when NSM is odd it is filled
     * like SM 0 and leaves pgot = {2..5} (read by no later SM: the next run starts with pgot 0) */
    const uint64_t pg_want = NSM % 2 ? 0x3c : 0;
    cr_assert_eq(b->d.pgot, pg_want, "%s: pgot after the run %#llx, expected %#llx (the last SM %s)", what,
                 (unsigned long long)b->d.pgot, (unsigned long long)pg_want, NSM % 2 ? "even: no wrap" : "odd: a wrap");
}

Test(sm_driver, fill_pgot_six, .description = "SMK_P, 6 identical kernels, KS 4: every kernel gets a partition (pgot), exact per-SM values; drv_fill with pgot; MAX2")
{
    U_NEEDS(PG_OK);
    /* drv_fill, abstract units: 6 kernels of 1 TB-slot each on a 12-slot SM, KS 4 */
    const uint32_t d[6][DRV_NRES] = {{0, 0, 1, 1}, {0, 0, 1, 1}, {0, 0, 1, 1}, {0, 0, 1, 1}, {0, 0, 1, 1}, {0, 0, 1, 1}};
    const uint32_t lim[DRV_NRES] = {100, 100, 100, 12};
    const uint32_t mult[DRV_NRES] = {1, 1, 1, 25};
    uint32_t part[6];
    drv_fill(6, d, 0x3f, lim, mult, 4, 0, 0, 0, 0, part, NULL);
    expect_parts(part, 6, (const uint32_t[]){0, 0, 3, 3, 3, 3}, "pgot 0");
    drv_fill(6, d, 0x3f, lim, mult, 4, 0, 0x3c, 0, 0, part, NULL);
    expect_parts(part, 6, (const uint32_t[]){3, 3, 0, 0, 3, 3}, "pgot {2..5}");
    /* MAX2: pgot {2..5}: kernels 1, 0 (pgot 0) take the two slots; pgot {1..5}: 0, then 5 */
    drv_fill(6, d, 0x3f, lim, mult, 4, 1, 0x3c, 0, 0, part, NULL);
    expect_parts(part, 6, (const uint32_t[]){6, 6, 0, 0, 0, 0}, "MAX2 pgot {2..5}");
    drv_fill(6, d, 0x3f, lim, mult, 4, 1, 0x3e, 0, 0, part, NULL);
    expect_parts(part, 6, (const uint32_t[]){6, 0, 0, 0, 0, 6}, "MAX2 pgot {1..5}");
    /* pgot only breaks ties: kernel 0 with one TB already (key > 0) is not preferred over key 0 */
    drv_fill(2, d, 3, lim, mult, 4, 0, 2, 0, 0, part, NULL);
    expect_parts(part, 2, (const uint32_t[]){6, 6}, "2 kernels, pgot {1}");

    /* the partition unit, every SM (TBs dispatched under the partitions of the earlier runs, while
     * the kernels arrive, are above the final ones: their DRAINs are answered by the stub) */
    bench_t *b = bench_new(DRV_SMK_P);
    b->autodrain = 1;
    for (uint32_t k = 0; k < 6; k++) {
        launch(b, k, 1, 1, 0, 4000, SMK_MASK(NSM));
        step(b);
    }
    settle_part(b);
    static const uint32_t odd[6] = {1, 1, 0, 0, 1, 1};
    pg_check_six(b, odd, "SMK_P");
    fprintf(stderr, "[%s] fill_pgot_six: even SMs {2,3,4,5}, odd SMs {0,1,4,5}, %d TBs each\n", SMK_CFG_NAME, DRV_T / 4);
    /* the kernels then get TBs inside their partitions (no starvation at dispatch) */
    for (int g = 0; g < 8 * NSM * DRV_T + 200; g++)
        step(b);
    for (int s = 0; s < NSM; s++)
        for (int k = 0; k < KN; k++)
            cr_assert_eq(b->d.cnt[s][k], b->d.part[s][k], "cnt[%d][%d] = %u, part %u", s, k, b->d.cnt[s][k],
                         b->d.part[s][k]);
    bench_free(b);
}

Test(sm_driver, fill_pgot_masks_max2, .description = "pgot with MAX2 on the partition unit, and a kernel allowed only on SM 1")
{
    U_NEEDS(PG_OK);
    /* MAX2, kernels 0..2 identical on every SM: SM 0: 2, 1 (T/2 each); pgot {1, 2}; SM 1: 0 (pgot 0)
     * then 2: T/2 each; wrap; SM 2 like SM 0 ... */
    bench_t *b = bench_new(DRV_SMK_P);
    b->in.cfg_max2 = 1;
    for (uint32_t k = 0; k < 3; k++) {
        launch(b, k, 1, 1, 0, 4000, SMK_MASK(NSM));
        step(b);
    }
    settle_part(b);
    for (int s = 0; s < NSM; s++)
        for (int k = 0; k < KN; k++) {
            const uint32_t want = (s & 1) ? (k == 0 || k == 2 ? DRV_T / 2 : 0) : (k == 1 || k == 2 ? DRV_T / 2 : 0);
            cr_assert_eq(b->d.part[s][k], want, "MAX2: part[%d][%d] = %u, expected %u", s, k, b->d.part[s][k], want);
        }
    /* no MAX2; kernel 0 allowed only on SM 1, kernels 1..5 everywhere: SM 0: 5, 4, 3, 2; SM 1: 1, 0
     * (pgot 0) then 5, 4; kernel 0 gets SM 1 (the earlier rule gave it nothing) */
    b = bench_new(DRV_SMK_P);
    for (uint32_t k = 0; k < 6; k++) {
        launch(b, k, 1, 1, 0, 4000, k == 0 ? 2 : SMK_MASK(NSM));
        step(b);
    }
    settle_part(b);
    cr_assert(b->d.part[0][0] == 0 && b->d.part[1][0] == DRV_T / 4 && b->d.part[1][1] == DRV_T / 4 &&
                  b->d.part[0][2] == DRV_T / 4 && b->d.part[1][2] == 0,
              "mask {1} kernel 0: part[0][0] %u part[1][0] %u part[1][1] %u part[0][2] %u part[1][2] %u",
              b->d.part[0][0], b->d.part[1][0], b->d.part[1][1], b->d.part[0][2], b->d.part[1][2]);
    bench_free(b);
}

/* ---- last-chance tie-break (docs/sm_driver.md "Partitions": lat). KS + 1 = 5 identical kernels of
 * 1 warp, 1 register, no shared memory (only the T TB slots bind), kernel 0 allowed only on SM 0,
 * kernels 1..4 everywhere. By the spec: SM 0: every key 0, pgot 0; lat = 0 for kernel 0 (no SM
 * after 0 in its mask), 1 for 1..4 (NSM >= 2): kernel 0 first, then 4, 3, 2 (lat 1, the highest
 * index) take the four kernel slots; then the keys tie again after each round and kernel 0 (lat 0)
 * leads every round: T/4 TBs each. End of SM 0: pgot = {0, 2, 3, 4} (no wrap: kernel 1 has
 * nothing). SM 1: candidates 1..4 (kernel 0 not allowed), exactly KS of them: T/4 each; every
 * later SM the same whatever pgot and lat are. So SM 0 {0, 2, 3, 4}, SM >= 1 {1, 2, 3, 4}.
 * (Without lat: SM 0 {1, 2, 3, 4} and kernel 0 has partition 0 on every SM.) */
Test(sm_driver, fill_lat_mask_sm0, .description = "SMK_P, KS+1 identical kernels, kernel 0 allowed only on SM 0: the last-chance tie-break gives it SM 0; exact per-SM values; drv_fill with lat")
{
    U_NEEDS(PG_OK);
    /* drv_fill, abstract units: 5 kernels of 1 TB-slot each on a 12-slot SM, KS 4 */
    const uint32_t d[5][DRV_NRES] = {{0, 0, 1, 1}, {0, 0, 1, 1}, {0, 0, 1, 1}, {0, 0, 1, 1}, {0, 0, 1, 1}};
    const uint32_t lim[DRV_NRES] = {100, 100, 100, 12};
    const uint32_t mult[DRV_NRES] = {1, 1, 1, 25};
    uint32_t part[5];
    drv_fill(5, d, 0x1f, lim, mult, 4, 0, 0, 0, 0x1e, part, NULL);
    expect_parts(part, 5, (const uint32_t[]){3, 0, 3, 3, 3}, "lat {1..4}");
    /* equal lat (all 0 or all 1) changes nothing: the highest indices */
    drv_fill(5, d, 0x1f, lim, mult, 4, 0, 0, 0, 0, part, NULL);
    expect_parts(part, 5, (const uint32_t[]){0, 3, 3, 3, 3}, "lat 0");
    drv_fill(5, d, 0x1f, lim, mult, 4, 0, 0, 0, 0x1f, part, NULL);
    expect_parts(part, 5, (const uint32_t[]){0, 3, 3, 3, 3}, "lat all");
    /* pgot ranks above lat: kernel 0 with pgot 1 loses to 1..4 (pgot 0) even with lat 0 */
    drv_fill(5, d, 0x1f, lim, mult, 4, 0, 1, 0, 0x1e, part, NULL);
    expect_parts(part, 5, (const uint32_t[]){0, 3, 3, 3, 3}, "pgot {0}, lat {1..4}");
    /* the key ranks above lat: 2 kernels, kernel 0 lat 0, 12 slots: 6/6 (not 12/0) */
    drv_fill(2, d, 3, lim, mult, 4, 0, 0, 0, 2, part, NULL);
    expect_parts(part, 2, (const uint32_t[]){6, 6}, "2 kernels, lat {1}");

    /* the partition unit, every SM */
    bench_t *b = bench_new(DRV_SMK_P);
    for (uint32_t k = 0; k < 5; k++) {
        launch(b, k, 1, 1, 0, 4000, k == 0 ? 1 : SMK_MASK(NSM));
        step(b);
    }
    settle_part(b);
    for (int s = 0; s < NSM; s++)
        for (int k = 0; k < KN; k++) {
            const int in_set = s == 0 ? (k == 0 || (k >= 2 && k <= 4)) : (k >= 1 && k <= 4);
            const uint32_t want = in_set ? DRV_T / 4 : 0;
            cr_assert_eq(b->d.part[s][k], want, "lat: part[%d][%d] = %u, expected %u", s, k, b->d.part[s][k], want);
        }
    fprintf(stderr, "[%s] fill_lat_mask_sm0: SM 0 {0,2,3,4}, SMs >= 1 {1,2,3,4}, %d TBs each\n", SMK_CFG_NAME,
            DRV_T / 4);
    bench_free(b);
}

/* ---- rotation (docs/sm_driver.md "Rotation"): the turn ptop ranks below pgot and above lat; the
 * candidates of a run (cand / psrv) */
Test(sm_driver, fill_top_order, .description = "drv_fill with a rotation turn: pgot > turn > lat > index; the candidate mask")
{
    /* abstract units: 5 kernels of 1 TB slot each on a 12-slot SM, KS 4 (as fill_lat_mask_sm0) */
    const uint32_t d[5][DRV_NRES] = {{0, 0, 1, 1}, {0, 0, 1, 1}, {0, 0, 1, 1}, {0, 0, 1, 1}, {0, 0, 1, 1}};
    const uint32_t lim[DRV_NRES] = {100, 100, 100, 12};
    const uint32_t mult[DRV_NRES] = {1, 1, 1, 25};
    uint32_t part[5];
    uint64_t cand = 0;
    /* no turn: 4, 3, 2, 1 */
    drv_fill(5, d, 0x1f, lim, mult, 4, 0, 0, 0, 0, part, &cand);
    expect_parts(part, 5, (const uint32_t[]){0, 3, 3, 3, 3}, "no turn");
    cr_assert_eq(cand, 0x1f, "candidates %#llx, expected 0x1f (kernel 0 fits until the slots are taken)", (unsigned long long)cand);
    /* turn {0}: 0 first, then 4, 3, 2 */
    drv_fill(5, d, 0x1f, lim, mult, 4, 0, 0, 1, 0, part, NULL);
    expect_parts(part, 5, (const uint32_t[]){3, 0, 3, 3, 3}, "turn {0}");
    /* pgot ranks above the turn: turn {0} with pgot {0} loses to 4, 3, 2, 1 */
    drv_fill(5, d, 0x1f, lim, mult, 4, 0, 1, 1, 0, part, NULL);
    expect_parts(part, 5, (const uint32_t[]){0, 3, 3, 3, 3}, "turn {0}, pgot {0}");
    /* the turn ranks above lat: turn {1}, lat {1..4} (kernel 0 last chance): 1, 0, 4, 3 */
    drv_fill(5, d, 0x1f, lim, mult, 4, 0, 0, 2, 0x1e, part, NULL);
    expect_parts(part, 5, (const uint32_t[]){3, 3, 0, 3, 3}, "turn {1}, lat {1..4}");
    /* the key ranks above the turn: 2 kernels, turn {0}: 6/6 */
    drv_fill(2, d, 3, lim, mult, 4, 0, 0, 1, 0, part, NULL);
    expect_parts(part, 2, (const uint32_t[]){6, 6}, "2 kernels, turn {0}");
    /* candidates: a kernel that never fits (demand above the limit) or is not allowed is not one */
    const uint32_t d2[3][DRV_NRES] = {{0, 0, 1, 1}, {0, 0, 101, 1}, {0, 0, 1, 1}};
    drv_fill(3, d2, 0x3, lim, mult, 4, 0, 0, 0, 0, part, &cand);
    cr_assert(cand == 0x1 && part[0] == 12 && part[1] == 0 && part[2] == 0,
              "candidates %#llx (expected 0x1), part %u/%u/%u (expected 12/0/0)", (unsigned long long)cand, part[0], part[1],
              part[2]);
}

/* SMK_P with MAX2 (KSe 2): three identical kernels (1 warp, RW registers, grid 4000 or less) allowed only on
 * SM 0, launched one cycle apart. The run started by the first launch sees kernels 1 and 2 join
 * while it fills SM 0: candidates 0, 1, 2, all key 0, pgot 0, lat 0: 2, 1 take the two slots;
 * kernel 0 starved: ptop = {0}, prr = 1. The launches set pdirty again, so a second run follows at
 * once (turn 0): 0, then 2: {T/2, 0, T/2}; kernel 1 starved: ptop = {1} (the first starved at or
 * after prr 1), prr = 2, and the timer starts (part_rotate). The next run starts part_rotate + 1
 * cycles after the run's last step (the timer sets pdirty in its last cycle, the unit starts in
 * the next). Run 3 (turn 1): 1, 2: {0, T/2, T/2}; kernel 0 starved: ptop = {0} (none at or after
 * 2: wrap), prr = 1. Run 4 (turn 0) is run 2 again. Without the rotation the kernel left out by the
 * last launch-triggered run would keep partition 0 for as long as the kernel table stays the same. */
Test(sm_driver, smk_p_rotation, .description = "SMK_P, MAX2, 3 kernels on SM 0 only: the rotation timer reruns the filling every part_rotate cycles and the starved kernel gets the next turn; exact part, ptop, prr, cycles")
{
    U_NEEDS(DRV_T % 2 == 0 && DRV_T >= 2 && DRV_KN >= 3 && DRV_KS >= 2 && SMK_WARPS >= DRV_T);
    /* grid 4000, or the largest the port carries (2^GW - 1 >= 255 >= T): no TB completes here, so a
     * kernel never dispatches more than T TBs */
    const uint32_t grid = umin(4000, (uint32_t)SMK_MASK(SMK_GRID_W));
    bench_t *b = bench_new(DRV_SMK_P);
    b->in.cfg_max2 = 1;
    for (uint32_t k = 0; k < 3; k++) {
        launch(b, k, 1, RW, 0, grid, 1);
        step(b);
    }
    settle_part(b);
    static const uint32_t want[3][3] = {{DRV_T / 2, 0, DRV_T / 2}, {0, DRV_T / 2, DRV_T / 2}, {DRV_T / 2, 0, DRV_T / 2}};
    static const uint32_t wtop[3] = {2, 1, 2}, wprr[3] = {2, 1, 2};
    for (int r = 0; r < 3; r++) {
        for (int k = 0; k < 3; k++)
            cr_assert_eq(b->d.part[0][k], want[r][k], "run %d: part[0][%d] = %u, expected %u", r + 2, k, b->d.part[0][k],
                         want[r][k]);
        for (int s = 1; s < NSM; s++)
            for (int k = 0; k < KN; k++)
                cr_assert_eq(b->d.part[s][k], 0, "run %d: part[%d][%d] = %u, expected 0", r + 2, s, k, b->d.part[s][k]);
        cr_assert(b->d.ptop == wtop[r] && b->d.prr == wprr[r], "run %d: ptop %#llx prr %u, expected %#x %u", r + 2,
                  (unsigned long long)b->d.ptop, b->d.prr, wtop[r], wprr[r]);
        cr_assert_eq(b->d.prt, SMK_PART_ROT, "run %d: timer %u after the run, expected %d", r + 2, b->d.prt, SMK_PART_ROT);
        if (r == 2)
            break;
        /* the next run: pdirty after part_rotate cycles, the start one cycle later */
        int n = 0;
        while (!b->d.pact) {
            cr_assert_eq(b->d.pdirty, n == SMK_PART_ROT, "run %d: pdirty %u after %d cycles", r + 2, b->d.pdirty, n);
            step(b);
            n++;
        }
        cr_assert_eq(n, SMK_PART_ROT + 1, "run %d: the next run started after %d cycles, expected %d", r + 2, n,
                     SMK_PART_ROT + 1);
        settle_part(b);
    }
    /* the timer only runs under SMK_P: the same layout under FCFS starves kernel 0 (as before) but
     * never reruns */
    bench_t *f = bench_new(DRV_FCFS);
    f->in.cfg_max2 = 1;
    for (uint32_t k = 0; k < 3; k++) {
        launch(f, k, 1, RW, 0, grid, 1);
        step(f);
    }
    settle_part(f);
    cr_assert(f->d.ptop == 2 && f->d.prt == 0, "FCFS: ptop %#llx (expected 0x2), timer %u (expected 0)",
              (unsigned long long)f->d.ptop, f->d.prt);
    bench_free(b);
}

/* ---- last-chance tie-break under QOS: the owner part of lat. Non-QoS k0 (rank 0) and k1 (rank 1):
 * nq = 2, owner(s) = floor(2s / NSM), block 0 = SMs 0 .. B-1, block 1 = SMs B .. NSM-1 with B = ceil(NSM / 2)
 * (the first s with 2s >= NSM: with an odd NSM block 0 has one SM more).
 * k0's kmask = {B-1, B}: allowed (mask and owner) only on SM B-1; k1's kmask = every SM. QoS k4..k7
 * with kmask = the SMs >= B-1; all 1 warp, so the warp key = the TB count. By the spec:
 * SMs 0 .. B-2: no candidate (k1 is not the owner, the others are masked): partitions 0, pgot 0.
 * SM B-1: candidates k0, k4..k7, every key 0, pgot 0; lat: k0 0 (owner(B) = 1 != rank 0, although
 *   SM B is in its mask), k4..k7 1 (SM B in their masks): k0 first, then 7, 6, 5; k0 leads each
 *   later round: {0, 5, 6, 7}, T/4 each. pgot = {0, 5, 6, 7}.
 * SM B: candidates k1, k4..k7; pgot 0: k1, k4; lat equal (all 1, or all 0 at the last SM): 4, 1,
 *   then 7, 6: {1, 4, 6, 7}. Every kernel in use has a partition: wrap, pgot = 0.
 * SM B+1: all pgot 0, lat equal: {4, 5, 6, 7}; pgot = {4..7}. SM B+2: k1 (pgot 0), then 7, 6, 5:
 *   {1, 5, 6, 7}; pgot = {1, 4..7} (k0 nothing: no wrap). SMs >= B+3: all pgot 1: {4, 5, 6, 7}.
 * (Without lat, or with only the mask part of lat, SM B-1 is {4, 5, 6, 7} and k0 has partition 0
 * on every SM.) */
Test(sm_driver, qos_fill_lat_owner, .description = "QOS: a non-QoS kernel allowed (owner and mask) only on the last SM of its block gets it through lat's owner part; exact per-SM values")
{
    U_NEEDS(QOS_BENCH && DRV_NSM >= 2 && DRV_KS >= 3 && DRV_PQ >= 2);
    if (!PG_OK) cr_skip_test("needs KS 4, T % 4 == 0, W >= T, NSM >= 2");
    const int B = (NSM + 1) / 2;
    bench_t *b = bench_new(DRV_QOS);
    launch_q(b, 0, 1, 3ull << (B - 1), 0);
    launch_q(b, 1, 1, SALLM, 0);
    for (uint32_t k = 4; k < 8; k++)
        launch_q(b, k, 1, SALLM & ~SMK_MASK(B - 1), 1);
    settle_part(b);
    for (int s = 0; s < NSM; s++) {
        uint32_t set = 0;
        if (s == B - 1)
            set = 1u << 0 | 1u << 5 | 1u << 6 | 1u << 7;
        else if (s == B)
            set = 1u << 1 | 1u << 4 | 1u << 6 | 1u << 7;
        else if (s == B + 2)
            set = 1u << 1 | 1u << 5 | 1u << 6 | 1u << 7;
        else if (s > B)
            set = 0xf0;
        for (int k = 0; k < KN; k++) {
            const uint32_t want = (set >> k & 1) ? DRV_T / 4 : 0;
            cr_assert_eq(b->d.part[s][k], want, "QOS lat: part[%d][%d] = %u, expected %u", s, k, b->d.part[s][k],
                         want);
        }
    }
    bench_free(b);
}

Test(sm_driver, qos_fill_pgot, .description = "QOS filling with 4 QoS kernels + 1 non-QoS (KS 4): the owner gets the odd SMs through pgot; the owner rule stays")
{
    U_NEEDS(QOS_BENCH && DRV_NSM >= 2 && DRV_KS >= 3 && DRV_PQ >= 2);
    if (!PG_OK) cr_skip_test("needs KS 4, T % 4 == 0, W >= T, NSM >= 2");
    /* k0 non-QoS (nq = 1: owner of every SM), k1..k4 QoS, all 1 warp: the warp key = TB count.
     * SM 0: 4, 3, 2, 1 (k0 loses the tie to the higher indices), T/4 each; pgot {1..4}. SM 1: k0
     * (pgot 0) first, then 4, 3, 2; wrap. Even SMs {1,2,3,4}, odd SMs {0,2,3,4}. */
    bench_t *b = bench_new(DRV_QOS);
    launch_q(b, 0, 1, SALLM, 0);
    for (uint32_t k = 1; k < 5; k++)
        launch_q(b, k, 1, SALLM, 1);
    settle_part(b);
    for (int s = 0; s < NSM; s++)
        for (int k = 0; k < KN; k++) {
            const int in_set = (s & 1) ? (k == 0 || (k >= 2 && k <= 4)) : (k >= 1 && k <= 4);
            const uint32_t want = in_set ? DRV_T / 4 : 0;
            cr_assert_eq(b->d.part[s][k], want, "QOS: part[%d][%d] = %u, expected %u", s, k, b->d.part[s][k], want);
        }
    /* two non-QoS kernels k0 (SMs 0 .. NSM/2-1) and k5 (the rest) + QoS k1..k4: on each half the
     * owner is pgot 0 at its second SM at the latest (gtx980, pascal56); k5 never on the first half */
    b = bench_new(DRV_QOS);
    launch_q(b, 0, 1, SALLM, 0);
    for (uint32_t k = 1; k < 5; k++)
        launch_q(b, k, 1, SALLM, 1);
    launch_q(b, 5, 1, SALLM, 0);
    settle_part(b);
    uint32_t any0 = 0, any5 = 0;
    for (int s = 0; s < NSM; s++) {
        const int own5 = 2 * s / NSM;
        cr_assert(own5 || b->d.part[s][5] == 0, "QOS: k5 on SM %d of k0's block", s);
        cr_assert(!own5 || b->d.part[s][0] == 0, "QOS: k0 on SM %d of k5's block", s);
        any0 |= b->d.part[s][0], any5 |= b->d.part[s][5];
    }
    if (NSM >= 4)
        cr_assert(any0 && any5, "QOS: an owner with partition 0 on its whole block (k0 %u, k5 %u)", any0, any5);
    bench_free(b);
}

/* ---- decision pipeline (docs/sm_driver.md "Decision pipeline", drv_pipe = 1) ------------------ */

#define U_PIPE()                                                                                               \
    do {                                                                                                       \
        if (!SMK_DRV_PIPE)                                                                                     \
            cr_skip_test("the decision pipeline's timeline (drv_pipe = 1)");                                   \
    } while (0)

Test(sm_driver, pipe_burst_timeline, .description = "drv_pipe = 1: a launch's TBs are set up in cycles c+3, c+6, c+9 (the execution two cycles after its choice's state, a flush after each)")
{
    U_PIPE();
    U_NEEDS(DRV_T >= 3 && SMK_WARPS >= 3);
    bench_t *b = bench_new(DRV_FCFS);
    launch(b, 0, 1, RW, 0, 3, 1); /* 3 TBs of one warp, SM 0 */
    quiet(b, 1, "cycle 0: the launch");
    quiet(b, 1, "cycle 1: the first choice is made from this cycle's state");
    cr_assert(b->d.dp1_v && !b->d.dp2_v, "edge 1: dp1_v %u dp2_v %u, expected 1 0", b->d.dp1_v, b->d.dp2_v);
    quiet(b, 1, "cycle 2: the choice of cycle 1 is in stage S2");
    cr_assert(b->d.dp2_v && b->d.dp2_kind == DRV_CH_DISP && b->d.dp2_s == 0 && b->d.dp2_k == 0,
              "edge 2: dp2 v %u kind %u S %u K %u, expected 1 DISP 0 0", b->d.dp2_v, b->d.dp2_kind, b->d.dp2_s, b->d.dp2_k);
    for (uint32_t i = 0; i < 3; i++) {
        step(b); /* 3, 6, 9 */
        expect_setup(b, 0, i, (wmask_t)1 << i, 0, RW, 0, 1, "one set-up every 3 cycles");
        cr_assert(!b->d.dp1_v && !b->d.dp2_v, "cycle %d: the acting execution flushes both stages (dp1_v %u dp2_v %u)",
                  b->cyc - 1, b->d.dp1_v, b->d.dp2_v);
        quiet(b, 2, "the choices made before the set-up's edge are dropped");
    }
    quiet(b, 4, "the grid is dispatched");
    cr_assert(!b->d.dp2_v && b->d.dp2_kind == DRV_CH_NONE, "no choice left (dp2 v %u kind %u)", b->d.dp2_v, b->d.dp2_kind);
    bench_free(b);
}

Test(sm_driver, pipe_stale_choice, .description = "drv_pipe = 1: a choice that no longer holds at its execution does nothing, and the next one (a newer state) follows in the next cycle")
{
    U_PIPE();
    U_NEEDS(DRV_NSM >= 2 && SMK_WARPS >= 1);
    bench_t *b = bench_new(DRV_FCFS);
    launch(b, 0, 1, RW, 0, 1, 3); /* one TB, SMs 0 and 1 */
    quiet(b, 1, "cycle 0: the launch");
    b->in.km_v = 1, b->in.km_k = 0, b->in.km_mask = 2; /* cycle 1: SM 1 only, from the state of cycle 2 */
    quiet(b, 1, "cycle 1: the choice (FCFS: the lowest SM, SM 0)");
    cr_assert(b->d.dp1_v && b->d.kmask[0] == 2, "edge 1: dp1_v %u kmask %#llx", b->d.dp1_v, (unsigned long long)b->d.kmask[0]);
    quiet(b, 1, "cycle 2: the choice of cycle 1 in S2; a new one from the new mask (SM 1)");
    cr_assert(b->d.dp2_v && b->d.dp2_kind == DRV_CH_DISP && b->d.dp2_s == 0, "edge 2: dp2 v %u kind %u S %u, expected DISP on SM 0",
              b->d.dp2_v, b->d.dp2_kind, b->d.dp2_s);
    quiet(b, 1, "cycle 3: DISP on SM 0, where the kernel may no longer run: nothing");
    cr_assert(b->o.dec_kind == DRV_DEC_NONE && !b->o.act, "cycle 3: decision %u act %u", b->o.dec_kind, b->o.act);
    cr_assert(b->d.dp2_v && b->d.dp2_s == 1, "edge 3: no flush; dp2 v %u S %u, expected the choice on SM 1", b->d.dp2_v,
              b->d.dp2_s);
    step(b); /* 4 */
    expect_setup(b, 1, 0, 1, 0, RW, 0, 1, "the choice made from the new mask, one cycle after the stale one");
    quiet(b, 4, "the grid is dispatched");
    bench_free(b);
}

Test(sm_driver, pipe_fill_step, .description = "drv_pipe = 1: a partition filling step is an evaluate cycle (candidates, keys, lat registered) and a commit cycle (the pick): a run of NSM SMs and p TBs takes 2 (p + NSM) cycles")
{
    U_PIPE();
    U_NEEDS(DRV_KN >= 2 && DRV_T >= 4 && SMK_WARPS >= 4 && SMK_WARPS % 4 == 0);
    bench_t *b = bench_new(DRV_SMK_P);
    const uint32_t kA = 1, nA = W / 4;
    launch(b, kA, nA, RW, 0, 200, 1); /* SM 0 only: 4 TBs of W/4 warps fill it */
    quiet(b, 1, "cycle 0: the launch sets pdirty");
    cr_assert(b->d.pdirty && !b->d.pact, "edge 0: pdirty %u pact %u", b->d.pdirty, b->d.pact);
    quiet(b, 1, "cycle 1: the unit starts");
    cr_assert(b->d.pact && !b->d.pph && b->d.pcur == 0, "edge 1: pact %u pph %u pcur %u", b->d.pact, b->d.pph, b->d.pcur);
    for (uint32_t j = 0; j <= 4; j++) { /* four picks of A, then the step without a candidate */
        quiet(b, 1, "an evaluate cycle");
        const uint32_t key = (uint32_t)ref_share((uint64_t[4]){(uint64_t)j * nA * RW, 0, (uint64_t)j * nA, j}, cfg_mult);
        cr_assert(b->d.pph && b->d.pc[kA] == j && b->d.pcand_r == (j < 4 ? 1u << kA : 0) &&
                      b->d.pkv_r[kA] == (j < 4 ? key : 0) && b->d.plat_r == 0,
                  "step %u, evaluate: pph %u pc %u cand %#llx key %u (expected %#x, %u) lat %#llx", j, b->d.pph,
                  b->d.pc[kA], (unsigned long long)b->d.pcand_r, b->d.pkv_r[kA], j < 4 ? 1u << kA : 0, j < 4 ? key : 0,
                  (unsigned long long)b->d.plat_r);
        quiet(b, 1, "a commit cycle");
        cr_assert(!b->d.pph, "step %u, commit: pph %u", j, b->d.pph);
        if (j < 4)
            cr_assert(b->d.pc[kA] == j + 1 && b->d.pcur == 0, "step %u, commit: pc %u pcur %u, expected %u 0", j,
                      b->d.pc[kA], b->d.pcur, j + 1);
    }
    cr_assert(b->d.part[0][kA] == 4 && b->d.pc[kA] == 0, "end of SM 0: part %u pc %u, expected 4 0", b->d.part[0][kA], b->d.pc[kA]);
    /* SMs 1 .. NSM-1: one step each (no candidate), two cycles */
    for (int i = 0; i < 2 * (NSM - 1); i++) {
        cr_assert(b->d.pact, "cycle %d: the run ended %d cycles early", b->cyc, 2 * (NSM - 1) - i);
        step(b);
    }
    cr_assert(!b->d.pact && !b->d.pdirty && b->cyc == 2 + 2 * (5 + NSM - 1),
              "the run: pact %u pdirty %u at cycle %d, expected idle at 2 + 2 x (4 + NSM) = %d", b->d.pact, b->d.pdirty,
              b->cyc, 2 + 2 * (5 + NSM - 1));
    bench_free(b);
}

Test(sm_driver, pipe_fill_retry, .description = "drv_pipe = 1: an evaluate cycle at whose edge the kernel table is written (km_v, a launch) is not followed by its commit: the step is evaluated again")
{
    U_PIPE();
    U_NEEDS(DRV_KN >= 3 && DRV_T >= 4 && SMK_WARPS >= 4 && SMK_WARPS % 4 == 0);
    bench_t *b = bench_new(DRV_SMK_P);
    const uint32_t kA = 1, nA = W / 4;
    launch(b, kA, nA, RW, 0, 200, 1);
    quiet(b, 2, "0: the launch; 1: the unit starts");
    cr_assert(b->d.pact && !b->d.pph, "edge 1: pact %u pph %u", b->d.pact, b->d.pph);
    b->in.km_v = 1, b->in.km_k = 2, b->in.km_mask = 1; /* a mask write at the first evaluate cycle's edge */
    quiet(b, 1, "cycle 2: evaluate, with a mask write");
    cr_assert(!b->d.pph && b->d.pcand_r == 1u << kA && b->d.pc[kA] == 0 && b->d.pdirty,
              "edge 2: pph %u cand %#llx pc %u pdirty %u, expected 0 %#x 0 1 (the step again)", b->d.pph,
              (unsigned long long)b->d.pcand_r, b->d.pc[kA], b->d.pdirty, 1u << kA);
    launch(b, 2, 1, RW, 0, 1, 1); /* a launch at the next evaluate cycle's edge */
    quiet(b, 1, "cycle 3: evaluate again, with a launch");
    cr_assert(!b->d.pph && b->d.pc[kA] == 0 && b->d.kv == (1u << kA | 1u << 2), "edge 3: pph %u pc %u kv %#llx", b->d.pph,
              b->d.pc[kA], (unsigned long long)b->d.kv);
    quiet(b, 1, "cycle 4: evaluate on the new table");
    cr_assert(b->d.pph && b->d.pcand_r == (1u << kA | 1u << 2), "edge 4: pph %u cand %#llx, expected 1 %#x", b->d.pph,
              (unsigned long long)b->d.pcand_r, 1u << kA | 1u << 2);
    quiet(b, 1, "cycle 5: its commit");
    cr_assert(!b->d.pph && b->d.pc[kA] + b->d.pc[2] == 1, "edge 5: pph %u pc %u / %u, expected one TB", b->d.pph, b->d.pc[kA],
              b->d.pc[2]);
    bench_free(b);
}

Test(sm_driver, pipe_od_plan, .description = "drv_pipe = 1: SMK_OD's Algorithm 1 run takes 6 + NSM + p cycles (RNG in four steps), the first victim's SAVE 3 cycles later")
{
    U_PIPE();
    U_NEEDS(OD_BENCH && DRV_PQ >= 2);
    bench_t *b = bench_new(DRV_SMK_OD);
    b->in.cfg_pmode = SAVE;
    launch(b, 2, W / 4, RW, 0, 64, 1); /* V: TBs of W/4 warps, SM 0 */
    quiet(b, 3, "0-2: the launch, the choice, S2");
    for (int i = 0; i < 4; i++) {
        step(b); /* 3, 6, 9, 12 */
        expect_setup(b, 0, (uint32_t)i, span(i * W / 4, W / 4), 0, RW, 0, 1, "V fills SM0, one set-up every 3 cycles");
        if (i < 3)
            quiet(b, 2, "the flush");
    }
    launch(b, 5, W / 2, RW, 0, 1, 1); /* 13: C, one TB of W/2 warps */
    quiet(b, 2, "13, 14: the MISS of V (choice of 13) reaches S2; C's MISS is chosen in 14");
    cr_assert(b->d.a1_st == DRV_A1_IDLE && b->d.dp2_v && b->d.dp2_kind == DRV_CH_MISS && b->d.dp2_k == 2,
              "edge 14: unit %u, dp2 v %u kind %u K %u: expected IDLE and V's MISS in S2", b->d.a1_st, b->d.dp2_v,
              b->d.dp2_kind, b->d.dp2_k);
    /* 15: V's MISS executed: a1_go starts V's run, 1 + NSM cycles (no SMv: no other kernel on SM0);
     * then C's: 6 + NSM + p (the start, NSM of step 1, KV, p of step 3, R1, R2, R3, RNG); p = 2 TBs
     * of V make room for C's W/2 warps */
    const uint32_t p = 2;
    const int n = 1 + NSM + 6 + NSM + (int)p;
    for (int i = 0; i < n; i++) {
        cr_assert(!b->d.plan_v, "cycle %d: plan started after %d cycles, expected %d", b->cyc, i, n);
        quiet(b, 1, "the Algorithm 1 unit issues nothing");
    }
    cr_assert(b->d.plan_v && b->d.plan_kc == 5 && b->d.plan_kv == 2 && b->d.plan_sm == 0 && b->d.plan_left == p,
              "plan v %u kc %u kv %u sm %u left %u, expected 1 5 2 0 %u (unit %u)", b->d.plan_v, b->d.plan_kc,
              b->d.plan_kv, b->d.plan_sm, b->d.plan_left, p, b->d.a1_st);
    cr_assert(b->d.a1_rk[2] == (uint32_t)ref_share((uint64_t[4]){4 * W / 4 * RW, 0, W, 4}, cfg_mult) && b->d.a1_ok,
              "R1's rK(V) %u, a1_ok %u", b->d.a1_rk[2], b->d.a1_ok);
    quiet(b, 2, "the choices made before the plan's edge are dropped; the plan step's choice reaches S2");
    step(b);
    expect_cmd(b, 0, SAVE, 3, "plan step: highest slot of Kv, 3 cycles after the plan's edge");
    bench_free(b);
}
