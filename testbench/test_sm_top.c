/* test_sm_top.c: Criterion unit tests of the SM top C model (cmodel/sm_top.c, spec docs/sm_top.md):
 * the TB slot table, the launch arbiter and the wiring of warp_sched, quota_unit and
 * preempt_engine. Expected values are exact cycles from the spec, for every configuration hwgen
 * accepts: engine timings come from docs/preempt_engine.md's general formula ("Timelines and exact
 * cycle counts") for the bench TB below (B = 1, cap = 0, lambda = LAT), which is the reference TB
 * (n = 2, R = 2, M = 1, C = 1: SAVE response 23 (+ D non-idle STOP cycles), RESTORE 22, DROP 3) on
 * the named configurations.
 *
 * The bench TB: NW warps (2 where the SM has 6 warps for three such TBs, else 1), R = 2 and M = 1
 * clipped to what the configuration holds (max_regs_per_thread, LIM_REG register rows, LIM_SL
 * shared-memory lines), C = SMK_CTL_LINES control lines per warp. The warps of bench TB g are the
 * warps g*NW .. g*NW+NW-1 in allocation order: scheduler 0's warps first (local index 0, 1, ...),
 * then scheduler 1's, so that TBs share scheduler 0 wherever it has the warps (a stopped TB and a
 * running TB then compete for it); issue expectations are stated per scheduler from the masks.
 * TB slots are spread over 0 .. T-1 (slot i of n: i (T-1) / (n-1)), kernel slots are taken mod KS.
 * A test that needs more of the SM than a configuration has (two TB slots, two kernel slots)
 * skips naming that condition (U_NEEDS).
 *
 * The bench: a fixed-latency memory (tags only, at most one response per cycle, oldest first) and
 * a pipeline model reduced to three per-warp wishes (ready, busy) that are ANDed with the valid
 * warps every cycle (contract: they concern valid warps only), and one-shot exits. Every cycle's
 * sm_out_t is logged; the tests assert on the log. Cycles are absolute bench cycles; each test
 * names its reference cycle. quota_unit stays at reset (QMODE OFF: qallow all ones, GTO). */
#include <criterion/criterion.h>

#include "sm_top.h"
#include "unit_util.h"

TestSuite(sm_top, .timeout = 60);

#define NT SMK_TB_SLOTS
#define S SMK_SCHED
#define LW SMK_LWARPS
#define KS SMK_KSLOTS
#define MAXC 4096
#define LAT 4
#define PTR 0x35u

#define SAVE SMK_PE_OP_SAVE
#define RESTORE SMK_PE_OP_RESTORE
#define DRAIN SMK_PE_OP_DRAIN
#define DROP SMK_PE_OP_DROP
#define OK SMK_PE_ST_OK
#define FIN SMK_PE_ST_FIN
#define E_EMPTY SMK_PE_ST_ERR_EMPTY
#define E_NOTIDEM SMK_PE_ST_ERR_NOTIDEM

/* ---- the bench TB's shape and the engine timings derived from it ------------------------------ */

#define NW (SMK_WARPS >= 6 ? 2 : 1) /* warps of a bench TB */
static uint32_t imin(uint32_t a, uint32_t b) { return a < b ? a : b; }
/* registers per thread r and shared-memory lines m clipped to what one TB of NW warps may hold */
static uint32_t fit_r(uint32_t r) { return imin(imin(r, SMK_MAX_REGS), SMK_LIM_REG / NW); }
static uint32_t fit_m(uint32_t m) { return imin(imin(m, SMK_SMEM_LINES), SMK_LIM_SL); }
#define RR fit_r(2) /* the bench TB's R and M (the reference TB's 2 and 1 where they fit) */
#define RM fit_m(1)
/* docs/preempt_engine.md: L = n C + n R + M lines, k = min(n, OMAX) outstanding (cap 0), B = 1:
 * P = max(k, lambda + 1), request i at t_i = floor(i / k) P + i mod k after the first XFER cycle */
static int ctx_lines(void) { return (int)(NW * SMK_CTL_LINES + NW * RR + RM); }
static int kout(void) { return (int)imin(NW, SMK_PE_OMAX); }
static int treq(int i)
{
    const int k = kout(), p = k > LAT + 1 ? k : LAT + 1;
    return i / k * p + i % k;
}
static int t_save(int d) { return 4 + d + LAT + treq(ctx_lines() - 1); } /* response - arrival */
static int t_restore(void) { return 3 + LAT + treq(ctx_lines() - 1); }

/* ---- warps, TB masks, slots -------------------------------------------------------------------- */

/* j-th warp in allocation order: scheduler 0's local warps first, then scheduler 1's, ... */
static int aw(int j) { return u_wid(j / LW, j % LW); }
/* the warps of bench TB g */
static wmask_t grp(int g)
{
    wmask_t m = 0;
    for (int i = 0; i < NW; i++)
        m |= 1ULL << aw(g * NW + i);
    return m;
}
static int lowwarp(wmask_t m) { return __builtin_ctzll(m); }
/* the schedulers that hold a warp of m (warp w is in scheduler w mod S) */
static uint32_t schm(wmask_t m)
{
    uint32_t r = 0;
    for (int w = 0; w < SMK_WARPS; w++)
        if (m >> w & 1)
            r |= 1u << (w % S);
    return r;
}
/* slot i of n distinct slots spread over 0 .. T-1 (needs T >= n) */
static uint32_t tsl(int i, int n) { return n <= 1 ? 0 : (uint32_t)(i * (NT - 1) / (n - 1)); }
static uint32_t ksl(int k) { return (uint32_t)k % KS; }

typedef struct {
    sm_top_t sm;
    sm_in_t in;
    sm_out_t o;
    int cyc;
    wmask_t want_ready, want_busy; /* ANDed with the valid warps each cycle */
    wmask_t want_pblk;             /* the same, and never with ready (the pblk contract) */
    struct { uint32_t tag; int due; } pend[64];
    int npend;
    sm_out_t lg[MAXC];
    sm_in_t lin[MAXC];
    wmask_t lvalid[MAXC]; /* warp_sched valid in that cycle */
} bench_t;

static bench_t *bench_new(void)
{
    bench_t *b = calloc(1, sizeof *b);
    cr_assert_not_null(b);
    sm_reset(&b->sm);
    b->in.mem_req_rdy = 1;
    return b;
}

static wmask_t bit(int w) { return 1ULL << w; }

static void setup(bench_t *b, uint32_t t, wmask_t mask, uint32_t ks, uint32_t R, uint32_t M, uint32_t go)
{
    b->in.set_v = 1, b->in.set_tb = t, b->in.set_mask = mask, b->in.set_ks = ks;
    b->in.set_nreg = R, b->in.set_smem = M, b->in.set_go = go;
}
static void cmd(bench_t *b, uint32_t op, uint32_t tb, uint64_t ptr, uint32_t idem)
{
    b->in.cmd_v = 1, b->in.cmd_op = op, b->in.cmd_tb = tb, b->in.cmd_ptr = ptr, b->in.cmd_idem = idem;
}

static void step(bench_t *b)
{
    cr_assert(b->cyc < MAXC, "bench log full");
    sm_in_t *in = &b->in;
    const wmask_t valid = b->sm.ws.valid;
    in->ready = b->want_ready & valid;
    in->wbusy = b->want_busy & valid;
    in->pblk = b->want_pblk & valid & ~in->ready;
    cr_assert_eq(in->wexit & ~valid, 0, "bench: exit of an invalid warp");
    int r = -1;
    for (int i = 0; i < b->npend; i++)
        if (b->pend[i].due <= b->cyc && (r < 0 || b->pend[i].due < b->pend[r].due))
            r = i;
    in->mem_rsp_v = r >= 0;
    in->mem_rsp_tag = r >= 0 ? b->pend[r].tag : 0;

    memset(&b->o, 0, sizeof b->o); /* padding: sm_eval writes every field, not the padding */
    sm_eval(&b->sm, in, &b->o);
    {
        sm_out_t o2;
        memset(&o2, 0, sizeof o2);
        sm_eval(&b->sm, in, &o2);
        cr_assert(!memcmp(&o2, &b->o, sizeof o2), "sm_eval not repeatable");
    }
    const sm_out_t *o = &b->o;
    b->lg[b->cyc] = *o;
    b->lin[b->cyc] = *in;
    b->lvalid[b->cyc] = valid;
    /* invariants: a stopped warp never issues; outputs are the registered table */
    for (int s = 0; s < S; s++)
        if (o->wo.iss_v >> s & 1)
            cr_assert(!(o->po.stop >> o->wo.iss_wid[s] & 1), "cycle %d: stopped warp %u issues", b->cyc,
                      o->wo.iss_wid[s]);
    cr_assert_eq(o->tb_alloc, b->sm.alloc);
    cr_assert_eq(o->tb_run, b->sm.run);
    cr_assert_eq(o->wused, b->sm.wused);

    if (r >= 0)
        b->pend[r] = b->pend[--b->npend];
    if (o->po.mem_req_v && in->mem_req_rdy) {
        cr_assert(b->npend < 64);
        b->pend[b->npend].tag = o->po.mem_req_tag, b->pend[b->npend].due = b->cyc + LAT;
        b->npend++;
    }
    sm_commit(&b->sm, in, o);
    in->set_v = 0, in->cmd_v = 0, in->wexit = 0, in->cp_v = 0, in->csr_we = 0;
    b->cyc++;
}
static void run(bench_t *b, int n)
{
    for (int i = 0; i < n; i++)
        step(b);
}

/* set up slot t with go = 1 in this cycle; returns after the launch edge (warps valid) */
static void fresh(bench_t *b, uint32_t t, wmask_t mask, uint32_t ks, uint32_t R, uint32_t M)
{
    setup(b, t, mask, ks, R, M, 1);
    run(b, 2);
    cr_assert(b->sm.run >> t & 1, "slot %u not running after a fresh launch", t);
    cr_assert_eq(b->sm.ws.valid & mask, mask);
}

/* the only engine responses in [from, to) */
typedef struct { int c; uint32_t op, tb, st; uint64_t ptr; } rsp_t;
static void expect_rsps(const bench_t *b, int from, int to, const rsp_t *e, int n)
{
    int k = 0;
    for (int c = from; c < to; c++) {
        const pe_out_t *p = &b->lg[c].po;
        if (!p->rsp_v)
            continue;
        cr_assert(k < n, "cycle %d: unexpected response (op %u, tb %u, st %u)", c, p->rsp_op, p->rsp_tb,
                  p->rsp_status);
        cr_assert_eq(c, e[k].c, "response %d in cycle %d, expected %d", k, c, e[k].c);
        cr_assert(p->rsp_op == e[k].op && p->rsp_tb == e[k].tb && p->rsp_status == e[k].st && p->rsp_ptr == e[k].ptr,
                  "cycle %d: response (%u, %u, %u, %#llx), expected (%u, %u, %u, %#llx)", c, p->rsp_op, p->rsp_tb,
                  p->rsp_status, (unsigned long long)p->rsp_ptr, e[k].op, e[k].tb, e[k].st,
                  (unsigned long long)e[k].ptr);
        k++;
    }
    cr_assert_eq(k, n, "%d responses, expected %d", k, n);
}
/* ws launch in [from, to) exactly at the given cycles with the given masks / kernel slots */
static void expect_launches(const bench_t *b, int from, int to, const int *cs, const wmask_t *ms, const uint32_t *ks,
                            int n)
{
    int k = 0;
    for (int c = from; c < to; c++) {
        const ws_in_t *w = &b->lg[c].wi;
        if (!w->launch_v)
            continue;
        cr_assert(k < n, "cycle %d: unexpected launch %#llx", c, (unsigned long long)w->launch_mask);
        cr_assert_eq(c, cs[k], "launch %d in cycle %d, expected %d", k, c, cs[k]);
        cr_assert_eq(w->launch_mask, ms[k], "cycle %d: launch mask %#llx, expected %#llx", c,
                     (unsigned long long)w->launch_mask, (unsigned long long)ms[k]);
        cr_assert_eq(w->launch_ks, ks[k], "cycle %d: launch ks %u, expected %u", c, w->launch_ks, ks[k]);
        k++;
    }
    cr_assert_eq(k, n, "%d launches, expected %d", k, n);
}
/* tb_done is exactly `want` in cycle c (0 elsewhere in [from, to)) */
static void expect_done_only(const bench_t *b, int from, int to, int c, tmask_t want)
{
    for (int x = from; x < to; x++)
        cr_assert_eq(b->lg[x].tb_done, x == c ? want : 0, "cycle %d: tb_done %#llx", x,
                     (unsigned long long)b->lg[x].tb_done);
}

/* scheduler s issues a warp of m in log cycle c (with kernel slot ks unless ks < 0) */
static void expect_iss(const bench_t *b, int c, int s, wmask_t m, int ks, const char *what)
{
    const ws_out_t *w = &b->lg[c].wo;
    cr_assert(w->iss_v >> s & 1, "cycle %d: scheduler %d idle (%s)", c, s, what);
    cr_assert(m >> w->iss_wid[s] & 1, "cycle %d: scheduler %d issues warp %u, not of %#llx (%s)", c, s, w->iss_wid[s],
              (unsigned long long)m, what);
    if (ks >= 0)
        cr_assert_eq(w->iss_ks[s], (uint32_t)ks, "cycle %d: scheduler %d issues ks %u (%s)", c, s, w->iss_ks[s], what);
}
/* every scheduler holding a warp of m issues one of m's warps in cycle c */
static void expect_iss_all(const bench_t *b, int c, wmask_t m, int ks, const char *what)
{
    for (int s = 0; s < S; s++)
        if (schm(m) >> s & 1)
            expect_iss(b, c, s, m, ks, what);
}

/* ------------------------------------------------------------------------------------------------ */

Test(sm_top, reset_state, .description = "reset: empty table, quiet outputs")
{
    bench_t *b = bench_new();
    run(b, 3);
    for (int c = 0; c < 3; c++) {
        const sm_out_t *o = &b->lg[c];
        cr_assert(!o->tb_alloc && !o->tb_run && !o->tb_done && !o->wused && !o->set_rej);
        cr_assert(!o->wi.launch_v && !o->wi.finish_mask && !o->wo.wvalid && !o->po.stop && !o->wo.iss_v);
        cr_assert_eq(o->pi.tb_idle, SMK_MASK(NT), "every slot idle");
    }
    free(b);
}

Test(sm_top, fresh_launch, .description = "set-up with go in 0: tb_alloc in 1 + ws launch in 1, warps valid and tb_run in 2")
{
    U_NEEDS(SMK_WARPS >= 2 * NW); /* bench TBs 0 and 1 */
    bench_t *b = bench_new();
    const uint32_t t = NT - 1, t2 = 0, ks = ksl(1), R = fit_r(4), M = fit_m(3);
    const wmask_t m = grp(1), m2 = grp(0);
    b->want_ready = m;
    setup(b, t, m, ks, R, M, 1); /* cycle 0 */
    run(b, 4);
    /* cycle 0: nothing registered yet */
    cr_assert(!b->lg[0].set_rej && b->lg[0].set_ok);
    cr_assert(!b->lg[0].tb_alloc && !b->lg[0].wused && !b->lg[0].wi.launch_v);
    /* cycle 1: allocated with go (not a RESTORE target), launched by the arbiter */
    cr_assert_eq(b->lg[1].tb_alloc, bit((int)t));
    cr_assert_eq(b->lg[1].pi.tb_alloc, 0, "a go slot is not offered to the engine as allocated");
    cr_assert_eq(b->lg[1].tb_run, 0);
    cr_assert_eq(b->lg[1].wused, m);
    cr_assert_eq(b->lg[1].wo.wvalid, 0);
    const int lc[] = {1};
    const wmask_t lm[] = {m};
    const uint32_t lk[] = {ks};
    expect_launches(b, 0, 4, lc, lm, lk, 1);
    /* cycle 2: running, warps valid with their kernel slot, issuing in every scheduler they are in */
    for (int c = 2; c < 4; c++) {
        cr_assert_eq(b->lg[c].tb_alloc, 0);
        cr_assert_eq(b->lg[c].tb_run, bit((int)t));
        cr_assert_eq(b->lg[c].pi.tb_run, bit((int)t));
        cr_assert_eq(b->lg[c].wo.wvalid, m);
        cr_assert_eq(b->lg[c].wused, m);
        expect_iss_all(b, c, m, (int)ks, "the new TB issues");
        cr_assert_eq(b->lg[c].wo.iss_v & ~schm(m), 0, "cycle %d: a scheduler without warps issues", c);
    }
    cr_assert_eq(b->sm.tnreg[t], R);
    cr_assert_eq(b->sm.tsml[t], M);
    cr_assert_eq(b->sm.tks[t], ks);
    /* a set-up without go is allocated for a RESTORE and never launched by the arbiter (beside the
     * running TB in another slot; with one TB slot on a fresh bench) */
    bench_t *b2 = NT >= 2 ? b : bench_new();
    const int c0 = b2->cyc;
    setup(b2, t2, m2, ksl(0), fit_r(1), fit_m(1), 0); /* cycle c0 */
    run(b2, 6);
    for (int c = c0; c < c0 + 6; c++)
        cr_assert(!b2->lg[c].wi.launch_v, "cycle %d: launch of a slot without go", c);
    cr_assert_eq(b2->lg[c0 + 5].tb_alloc, bit((int)t2));
    cr_assert_eq(b2->lg[c0 + 5].pi.tb_alloc, bit((int)t2));
    cr_assert_eq(b2->lg[c0 + 5].wused, (NT >= 2 ? m : 0) | m2);
    if (b2 != b)
        free(b2);
    free(b);
}

Test(sm_top, arbiter_priority, .description = "RESTORE launch_v in a+T_restore with go pending: engine first, go slots next, lowest first")
{
    U_NEEDS(SMK_TB_SLOTS >= 3); /* the engine's slot and two go slots */
    const uint32_t te = tsl(1, 3), tlo = tsl(0, 3), thi = tsl(2, 3);
    const wmask_t me = grp(0), mhi = grp(1), mlo = grp(2);
    const int tr = t_restore(); /* 22 for the reference TB */
    /* go for slot thi set up in a+tr-1 (pending in a+tr, blocked by the engine) and slot tlo in a+tr */
    bench_t *b = bench_new();
    setup(b, te, me, ksl(2), RR, RM, 0);
    step(b);
    const int a = b->cyc; /* 1: the RESTORE arrives */
    cmd(b, RESTORE, te, PTR, 0);
    run(b, tr - 1);                                    /* a .. a+tr-2 */
    setup(b, thi, mhi, ksl(3), fit_r(1), fit_m(1), 1); /* a+tr-1: go[thi] from a+tr */
    step(b);
    setup(b, tlo, mlo, ksl(1), fit_r(1), fit_m(1), 1); /* a+tr: go[tlo] from a+tr+1 */
    step(b);
    run(b, 4);
    const int lc[] = {a + tr, a + tr + 1, a + tr + 2};
    const wmask_t lm[] = {me, mlo, mhi};
    const uint32_t lk[] = {ksl(2), ksl(1), ksl(3)};
    expect_launches(b, a, b->cyc, lc, lm, lk, 3);
    cr_assert(b->lg[a + tr].po.launch_v, "the engine launches in a+%d", tr);
    cr_assert_eq(b->lg[a + tr].tb_alloc, bit((int)te) | bit((int)thi));
    cr_assert_eq(b->lg[a + tr + 1].tb_run, bit((int)te));
    cr_assert_eq(b->lg[a + tr + 1].tb_alloc, bit((int)tlo) | bit((int)thi), "slot thi still waits in a+tr+1");
    cr_assert_eq(b->lg[a + tr + 1].wo.wvalid, me);
    cr_assert_eq(b->lg[a + tr + 2].tb_run, bit((int)te) | bit((int)tlo));
    cr_assert_eq(b->lg[a + tr + 3].tb_run, bit((int)te) | bit((int)tlo) | bit((int)thi));
    cr_assert_eq(b->lg[a + tr + 3].tb_alloc, 0);
    cr_assert_eq(b->lg[a + tr + 3].wo.wvalid, me | mlo | mhi);
    free(b);
}

Test(sm_top, set_rej, .description = "set-up refused: slot allocated, slot running, empty mask, mask overlapping wused (and T out of range)")
{
    U_NEEDS(SMK_TB_SLOTS >= 3); /* an allocated, a running and a free slot */
    bench_t *b = bench_new();
    const uint32_t ta = tsl(0, 3), tr = tsl(1, 3), tf = tsl(2, 3);
    const wmask_t ma = grp(0), mr = grp(1), fw = bit(lowwarp(grp(2))); /* fw: a free warp */
    const int wa = 63 - __builtin_clzll(ma), wr = 63 - __builtin_clzll(mr);
    setup(b, ta, ma, ksl(0), fit_r(1), fit_m(1), 0); /* 0: slot ta allocated (no go) */
    step(b);
    fresh(b, tr, mr, ksl(1), fit_r(1), fit_m(1)); /* 1, 2: slot tr running */
    const sm_top_t before = b->sm;
    struct { uint32_t t; wmask_t m; } bad[] = {
        {ta, fw},               /* slot allocated */
        {tr, fw},               /* slot running */
        {tf, 0},                /* empty mask */
        {tf, fw | bit(wa)},     /* overlaps allocated slot ta */
        {tf, bit(wr)},          /* overlaps running slot tr */
#if (SMK_TB_SLOTS & (SMK_TB_SLOTS - 1)) != 0
        {SMK_TB_SLOTS, fw},     /* slot out of range */
#endif
    };
    const int nb = (int)(sizeof bad / sizeof bad[0]);
    for (int i = 0; i < nb; i++) {
        setup(b, bad[i].t, bad[i].m, ksl(3), fit_r(7), fit_m(7), i & 1);
        step(b);
        const sm_out_t *o = &b->lg[b->cyc - 1];
        cr_assert(o->set_rej && !o->set_ok, "case %d (slot %u, mask %#llx) not refused", i, bad[i].t,
                  (unsigned long long)bad[i].m);
        cr_assert(!memcmp(b->sm.tmask, before.tmask, sizeof before.tmask) && b->sm.alloc == before.alloc &&
                      b->sm.go == before.go && b->sm.wused == before.wused && b->sm.run == before.run &&
                      !memcmp(b->sm.tks, before.tks, sizeof before.tks) &&
                      !memcmp(b->sm.tnreg, before.tnreg, sizeof before.tnreg) &&
                      !memcmp(b->sm.tsml, before.tsml, sizeof before.tsml),
                  "case %d: a refused set-up changed the slot table", i);
    }
    /* and a good one in the same state; set_rej = 0 without set_v */
    setup(b, tf, fw, ksl(3), fit_r(7), fit_m(7), 0);
    step(b);
    cr_assert(!b->lg[b->cyc - 1].set_rej && b->lg[b->cyc - 1].set_ok);
    step(b);
    cr_assert(!b->lg[b->cyc - 1].set_rej);
    cr_assert_eq(b->sm.wused, ma | mr | fw);
    free(b);
}

Test(sm_top, natural_done, .description = "tb_done one cycle after the last wexit; slot and warps reusable the cycle after")
{
    U_NEEDS(SMK_WARPS >= NW + 2); /* a TB of two warps beside bench TB 0 */
    bench_t *b = bench_new();
    const uint32_t t = NT - 1;
    const int w1 = aw(NW), w2 = aw(NW + 1); /* a TB of two warps */
    const wmask_t m = bit(w1) | bit(w2);
    b->want_ready = m;
    fresh(b, t, m, ksl(1), fit_r(1), fit_m(1)); /* 0, 1 */
    run(b, 2);
    const int x = b->cyc; /* warp w1 exits in x, warp w2 in x+3 */
    b->in.wexit = bit(w1);
    run(b, 3);
    b->in.wexit = bit(w2);
    step(b); /* x+3 */
    const int y = x + 3;
    /* y+1: done; a set-up of the same slot is refused (still running) */
    setup(b, t, m, ksl(1), fit_r(1), fit_m(1), 1);
    step(b);
    /* y+2: freed; a set-up of the same slot and warps is accepted */
    setup(b, t, m, ksl(1), fit_r(1), fit_m(1), 1);
    step(b);
    run(b, 3);
    expect_done_only(b, 0, b->cyc, y + 1, bit((int)t));
    cr_assert_eq(b->lg[y + 1].pi.tb_done, bit((int)t), "the engine sees the same tb_done");
    cr_assert_eq(b->lg[x].wi.finish_mask, bit(w1), "an exit removes its warp");
    cr_assert_eq(b->lg[x + 1].wo.wvalid, bit(w2));
    cr_assert_eq(b->lg[y + 1].wo.wvalid, 0);
    cr_assert_eq(b->lg[y + 1].tb_run, bit((int)t));
    cr_assert(b->lg[y + 1].set_rej, "set-up of a slot finishing in this cycle is refused");
    cr_assert_eq(b->lg[y + 2].tb_run, 0);
    cr_assert_eq(b->lg[y + 2].wused, 0);
    cr_assert(!b->lg[y + 2].set_rej);
    cr_assert(b->lg[y + 3].wi.launch_v && b->lg[y + 3].wi.launch_mask == m);
    cr_assert_eq(b->lg[y + 4].tb_run, bit((int)t));
    cr_assert_eq(b->lg[y + 4].wo.wvalid, m);
    cr_assert_eq(b->lg[y + 5].tb_done, 0, "the relaunched TB is live");
    free(b);
}

/* two running TBs: slot T1 = bench TB 0 (ks 0), slot T2 = bench TB 1 (kernel slot 1 mod KS), every warp
 * of bench TBs 0..2 always ready; slot T1 is launched first, so under GTO its warps are the oldest
 * (they win every scheduler the two TBs share). With one TB slot there is no second TB: M2 and B2
 * (its warps and its slot bit) are 0 and the tests expect what slot T1 alone gives. T4 is the slot
 * of a RESTORE: a third slot, or slot T1 once a SAVE has freed it. */
#define T1 (NT >= 3 ? tsl(1, 3) : 0u)
#define T2 ((uint32_t)NT - 1)
#define HAS2 (NT >= 2)
#define M2 (HAS2 ? grp(1) : 0)
#define B2 (HAS2 ? bit((int)T2) : 0)
#define T4 (NT >= 3 ? 0u : T1)
static bench_t *two_tbs(void)
{
    bench_t *b = bench_new();
    b->want_ready = grp(0) | grp(1) | grp(2);
    fresh(b, T1, grp(0), 0, RR, RM);
    if (HAS2)
        fresh(b, T2, grp(1), ksl(1), RR, RM);
    step(b);
    return b;
}
/* cycle c, the stopped TB m1 and the running TB m2 (m1 older): in every scheduler of m2, m2 issues;
 * a scheduler of m1 only is idle */
static void expect_stopped(const bench_t *b, int c, wmask_t m1, wmask_t m2, const char *what)
{
    expect_iss_all(b, c, m2, -1, what);
    cr_assert_eq(b->lg[c].wo.iss_v & schm(m1) & ~schm(m2), 0, "cycle %d: a stopped TB's scheduler issues (%s)", c,
                 what);
}

Test(sm_top, save_restore, .description = "SAVE through the top (stop, tb_idle from wbusy, free) then RESTORE into another slot")
{
    U_NEEDS(SMK_WARPS >= 3 * NW); /* bench TBs 0, 1 and 2 (the RESTORE's warps) */
    bench_t *b = two_tbs();
    const wmask_t m1 = grp(0), m2 = M2, m4 = grp(2);
    const int L = ctx_lines(), ts = t_save(3), tr = t_restore(); /* 26 and 22 for the reference TB */
    const int a = b->cyc;
    expect_iss_all(b, a - 1, m1, 0, "before the SAVE the oldest TB issues");
    cmd(b, SAVE, T1, PTR, 0);
    b->want_busy = bit(lowwarp(m1)); /* busy up to a+4: D = 3 non-idle STOP cycles a+2 .. a+4 */
    run(b, 5);
    b->want_busy = HAS2 ? bit(lowwarp(m2)) : 0; /* the other TB's busy warp does not hold the SAVE */
    run(b, ts + 9 - 5);              /* a+5 .. a+ts+8 */
    const rsp_t e[] = {{a + ts, SAVE, T1, OK, PTR}};
    expect_rsps(b, a, b->cyc, e, 1);
    for (int c = a; c < a + ts + 9; c++) {
        const sm_out_t *o = &b->lg[c];
        const wmask_t want_stop = (c >= a + 2 && c <= a + ts) ? m1 : 0;
        cr_assert_eq(o->po.stop, want_stop, "cycle a+%d: stop", c - a);
        cr_assert_eq(o->wi.stop, o->po.stop, "stop reaches warp_sched");
        const uint32_t idle1 = !(c < a + 5 && c <= a + ts), idle2 = c < a + 5;
        if (c <= a + ts) {
            cr_assert_eq(o->pi.tb_idle >> T1 & 1, idle1, "cycle a+%d: tb_idle[T1]", c - a);
        }
        if (HAS2)
            cr_assert_eq(o->pi.tb_idle >> T2 & 1, idle2, "cycle a+%d: tb_idle[T2]", c - a);
        if (c >= a + 2)
            expect_stopped(b, c, m1, m2, "slot T1 stopped or gone, slot T2 issues");
        cr_assert_eq(o->po.free_v, c == a + ts);
    }
    expect_iss_all(b, a + 1, m1, 0, "slot T1 still issues in the pop cycle");
    cr_assert_eq(b->lg[a + ts].wi.finish_mask, m1, "free_v removes the warps at that edge");
    cr_assert_eq(b->lg[a + ts].wo.wvalid, m1 | m2);
    cr_assert_eq(b->lg[a + ts + 1].wo.wvalid, m2);
    cr_assert_eq(b->lg[a + ts].tb_run, bit((int)T1) | B2);
    cr_assert_eq(b->lg[a + ts + 1].tb_run, B2);
    cr_assert_eq(b->lg[a + ts + 1].wused, m2);
    /* the SAVE read the slot's shape through the lookup port: L lines, warps of m1 */
    int nre = 0;
    for (int c = a; c < a + ts + 9; c++)
        if (b->lg[c].po.st_re) {
            nre++;
            cr_assert_eq(b->lg[c].po.st_tb, T1);
            if (b->lg[c].po.st_kind != SMK_CTX_KIND_SMEM)
                cr_assert(m1 >> b->lg[c].po.st_wid & 1);
        }
    cr_assert_eq(nre, L, "SAVE reads L = n C + n R + M = %d lines", L);
    cr_assert_eq(b->lg[a + 6].po.mem_req_v, 1, "first request in a+6 (D = 3)");
    cr_assert_eq(b->lg[a + 5].po.mem_req_v, 0);

    /* RESTORE into slot T4 = bench TB 2's warps, kernel slot 0, same shape */
    b->want_busy = 0;
    setup(b, T4, m4, 0, RR, RM, 0);
    step(b);
    const int r = b->cyc;
    cmd(b, RESTORE, T4, PTR, 0);
    run(b, tr + 4);
    const rsp_t e2[] = {{r + tr, RESTORE, T4, OK, PTR}};
    expect_rsps(b, r, b->cyc, e2, 1);
    /* storage writes in the response cycles: request i in r+2+t_i, answered LAT later */
    int k = 0;
    for (int c = r; c < r + tr + 4; c++) {
        const sm_out_t *o = &b->lg[c];
        cr_assert_eq(o->po.stop, 0, "a RESTORE never stops");
        if (o->po.st_we) {
            cr_assert(k < L && c == r + 2 + LAT + treq(k), "storage write %d in r+%d, expected r+%d", k, c - r,
                      2 + LAT + treq(k < L ? k : L - 1));
            cr_assert_eq(o->po.st_tb, T4);
            if (o->po.st_kind != SMK_CTX_KIND_SMEM)
                cr_assert(m4 >> o->po.st_wid & 1, "storage write to warp %u, not of slot T4", o->po.st_wid);
            k++;
        }
    }
    cr_assert_eq(k, L);
    const int lc[] = {r + tr};
    const wmask_t lm[] = {m4};
    const uint32_t lk[] = {0};
    expect_launches(b, r, b->cyc, lc, lm, lk, 1);
    cr_assert_eq(b->lg[r + tr].tb_alloc, bit((int)T4));
    cr_assert_eq(b->lg[r + tr + 1].tb_alloc, 0);
    cr_assert_eq(b->lg[r + tr + 1].tb_run, B2 | bit((int)T4));
    cr_assert_eq(b->lg[r + tr + 1].wo.wvalid, m2 | m4);
    /* the restored warps are the youngest: under GTO slot T2 keeps the schedulers they share; once
     * slot T2 is not ready the restored warps issue */
    b->want_ready = m4;
    run(b, 2);
    expect_iss_all(b, b->cyc - 1, m4, 0, "restored warps issue");
    free(b);
}

Test(sm_top, save_exit_race, .description = "SAVE: the last warp exits in the cycle the TB goes idle -> not idle, tb_done next cycle, FIN, no free")
{
    bench_t *b = two_tbs();
    const wmask_t m1 = grp(0);
    const int w0 = lowwarp(m1);
    const int a = b->cyc;
    cmd(b, SAVE, T1, PTR, 0);
    b->in.wexit = m1 & ~bit(w0); /* the TB's other warps exit in the arrival cycle */
    b->want_busy = bit(w0);      /* warp w0 busy in a+1, a+2 */
    run(b, 3);
    b->want_busy = 0;
    b->in.wexit = bit(w0); /* a+3: the last warp exits, nothing busy */
    run(b, 8);
    cr_assert_eq(b->lg[a + 3].pi.tb_idle >> T1 & 1, 0, "an exiting warp keeps its TB not idle");
    cr_assert_eq(b->lg[a + 5].pi.tb_idle >> T1 & 1, 1);
    expect_done_only(b, a, b->cyc, a + 4, bit((int)T1));
    const rsp_t e[] = {{a + 5, SAVE, T1, FIN, PTR}};
    expect_rsps(b, a, b->cyc, e, 1);
    for (int c = a; c < b->cyc; c++) {
        cr_assert(!b->lg[c].po.free_v && !b->lg[c].po.mem_req_v, "cycle a+%d: free or request", c - a);
        cr_assert_eq(b->lg[c].po.stop, (c >= a + 2 && c <= a + 4) ? m1 : 0, "cycle a+%d: stop", c - a);
    }
    cr_assert_eq(b->lg[a + 5].tb_run, B2);
    cr_assert_eq(b->lg[a + 5].wused, M2);
    free(b);
}

Test(sm_top, drop, .description = "DROP idem: stop 2..3, (DROP, T1, OK) + free in 3, warps gone in 4; without idem: NOTIDEM, TB untouched")
{
    bench_t *b = two_tbs();
    const wmask_t m1 = grp(0), m2 = M2;
    int a = b->cyc;
    cmd(b, DROP, T1, PTR, 0);
    run(b, 4);
    const rsp_t e0[] = {{a + 2, DROP, T1, E_NOTIDEM, PTR}};
    expect_rsps(b, a, b->cyc, e0, 1);
    for (int c = a; c < b->cyc; c++)
        cr_assert(!b->lg[c].po.stop && !b->lg[c].po.free_v && !b->lg[c].wi.finish_mask);
    cr_assert_eq(b->lg[a + 3].tb_run, bit((int)T1) | B2);
    expect_iss_all(b, a + 3, m1, 0, "slot T1 keeps issuing");

    a = b->cyc;
    cmd(b, DROP, T1, PTR + 1, 1);
    run(b, 6);
    const rsp_t e1[] = {{a + 3, DROP, T1, OK, PTR + 1}};
    expect_rsps(b, a, b->cyc, e1, 1);
    for (int c = a; c < b->cyc; c++) {
        cr_assert_eq(b->lg[c].po.stop, (c == a + 2 || c == a + 3) ? m1 : 0, "cycle a+%d: stop", c - a);
        cr_assert_eq(b->lg[c].wi.finish_mask, c == a + 3 ? m1 : 0, "cycle a+%d: finish_mask", c - a);
        cr_assert(!b->lg[c].po.mem_req_v);
    }
    expect_stopped(b, a + 2, m1, m2, "slot T1 stopped");
    cr_assert_eq(b->lg[a + 3].wo.wvalid, m1 | m2);
    cr_assert_eq(b->lg[a + 4].wo.wvalid, m2);
    cr_assert_eq(b->lg[a + 4].tb_run, B2);
    cr_assert_eq(b->lg[a + 4].wused, m2);
    expect_done_only(b, a, b->cyc, -1, 0);
    free(b);
}

Test(sm_top, drain, .description = "DRAIN through the top: draining until the TB's natural tb_done, response the cycle after")
{
    bench_t *b = two_tbs();
    /* the drained TB: slot T2's (slot T1's with one TB slot); the other stays */
    const uint32_t td = HAS2 ? T2 : T1;
    const wmask_t md = HAS2 ? grp(1) : grp(0);
    const tmask_t rest = HAS2 ? bit((int)T1) : 0;
    const int a = b->cyc;
    cmd(b, DRAIN, td, PTR, 0);
    run(b, 4);
    b->in.wexit = md; /* a+4: every warp of the TB exits */
    run(b, 4);
    expect_done_only(b, a, b->cyc, a + 5, bit((int)td));
    const rsp_t e[] = {{a + 6, DRAIN, td, OK, 0}};
    expect_rsps(b, a, b->cyc, e, 1);
    for (int c = a; c < b->cyc; c++) {
        cr_assert_eq(b->lg[c].po.draining, (c >= a + 2 && c <= a + 5) ? bit((int)td) : 0, "cycle a+%d", c - a);
        cr_assert_eq(b->lg[c].po.stop, 0);
    }
    cr_assert_eq(b->lg[a + 6].tb_run, rest);
    free(b);
}

Test(sm_top, lookup, .description = "lookup port: tmask / tnreg / tsml of the queue head's slot, slot 0 when the queue is empty")
{
    U_NEEDS(SMK_TB_SLOTS >= 3); /* slot 0 and two other allocated slots */
    bench_t *b = bench_new();
    const uint32_t t0 = 0, t3 = tsl(1, 3), t6 = tsl(2, 3);
    /* disjoint masks; a third warp for t6's where the SM has it */
    const wmask_t m0 = grp(2), m3 = grp(1), m6 = grp(0) | (SMK_WARPS > 3 * NW ? bit(aw(3 * NW)) : 0);
    const uint32_t R0 = fit_r(1), M0 = fit_m(3), R3 = fit_r(5), M3 = fit_m(7), R6 = fit_r(3), M6 = fit_m(2);
    setup(b, t0, m0, ksl(0), R0, M0, 0);
    step(b);
    setup(b, t3, m3, ksl(1), R3, M3, 0);
    step(b);
    setup(b, t6, m6, ksl(2), R6, M6, 0);
    step(b);
    /* the second DRAIN waits in the queue behind the first where the queue holds two commands; with
     * one entry it is offered in the cycle of the first one's response (its queue entry left at a+1) */
    const int gap = SMK_PE_QDEPTH >= 2 ? 1 : 2;
    const int a = b->cyc;
    cmd(b, DRAIN, t3, 0, 0); /* ERR_EMPTY: slot t3 is not running */
    run(b, gap);
    cmd(b, DRAIN, t6, 0, 0);
    run(b, 5 - gap);
    typedef struct { uint32_t tb; wmask_t m; uint32_t R, M; } lk_t;
    const lk_t s0 = {t0, m0, R0, M0}, s3 = {t3, m3, R3, M3}, s6 = {t6, m6, R6, M6};
    /* the queue head: t3 in a+1 (popped at its edge, response a+2; the FSM in DONE in a+2), t6 from
     * the cycle after its arrival until its pop in a+3 */
    const lk_t e[] = {s0, s3, gap == 1 ? s6 : s0, s6, s0};
    for (int i = 0; i < 5; i++) {
        const sm_out_t *o = &b->lg[a + i];
        cr_assert_eq(o->po.lk_tb, e[i].tb, "a+%d: lk_tb %u", i, o->po.lk_tb);
        cr_assert(o->pi.lk_mask == e[i].m && o->pi.lk_nreg == e[i].R && o->pi.lk_smem == e[i].M,
                  "a+%d: lookup (%#llx, %u, %u), expected slot %u's", i, (unsigned long long)o->pi.lk_mask,
                  o->pi.lk_nreg, o->pi.lk_smem, e[i].tb);
    }
    const rsp_t r[] = {{a + 2, DRAIN, t3, E_EMPTY, 0}, {a + 4, DRAIN, t6, E_EMPTY, 0}};
    expect_rsps(b, a, b->cyc, r, 2);
    cr_assert_eq(b->lg[a + 2].po.stop, 0);
    free(b);
}

Test(sm_top, pblk_wiring, .description = "pblk reaches warp_sched (S6): pipeline-blocked warps are next cycle's idle_cnt of their slot")
{
    U_NEEDS(SMK_TB_SLOTS >= 2 && KS >= 2); /* two TBs in two kernel slots */
    bench_t *b = two_tbs(); /* slot T1: ks 0 (older), slot T2: ks 1 */
    const wmask_t m1 = grp(0), m2 = grp(1);
    const int n1 = __builtin_popcountll(m1), n2 = __builtin_popcountll(m2), s2 = __builtin_popcount(schm(m2));
    const int a = b->cyc;
    b->want_ready = m2, b->want_pblk = m1 | m2; /* a: m1 blocked, m2 ready (its pblk masked off) */
    step(b);
    b->want_ready = 0, b->want_pblk = m2; /* a+1: m2 blocked, m1 neither */
    step(b);
    b->want_pblk = 0; /* a+2 */
    run(b, 2);
    cr_assert_eq(b->lin[a].pblk, m1, "the bench keeps the contract");
    expect_iss_all(b, a, m2, (int)ksl(1), "a: the ready TB issues");
    cr_assert_eq(b->lg[a + 1].wo.iss_v, 0, "a+1: nothing ready");
    /* a+1 shows cycle a: every m1 warp blocked; m2's warps but the issued ones lost arbitration */
    cr_assert_eq(b->lg[a + 1].wo.idle_cnt[0], n1, "a+1: idle_cnt[0] = m1's blocked warps");
    cr_assert_eq(b->lg[a + 1].wo.idle_cnt[ksl(1)], WS_IDLE_ARB ? n2 - s2 : 0, "a+1: idle_cnt[1]");
    cr_assert_eq(b->lg[a + 2].wo.idle_cnt[0], 0, "a+2: m1 not blocked in a+1");
    cr_assert_eq(b->lg[a + 2].wo.idle_cnt[ksl(1)], n2, "a+2: every m2 warp blocked in a+1");
    for (int k = 0; k < KS; k++) {
        cr_assert_eq(b->lg[a + 3].wo.idle_cnt[k], 0, "a+3: nothing blocked or ready in a+2");
        cr_assert_eq(b->lg[a + 1].wo.held_cnt[k], 0, "a blocked warp is never held");
    }
    free(b);
}

Test(sm_top, quota_wiring, .description = "quota_unit in the SM: registers, qallow gates warp_sched, completions decrement, rd_data")
{
    U_NEEDS(SMK_TB_SLOTS >= 2); /* two TBs */
    bench_t *b = two_tbs(); /* slot T1: ks 0 (older), slot T2: ks 1 mod KS */
    /* the kernel slot given quota: 1, holding slot T2's TB; with one kernel slot 0, holding both */
    const uint32_t kq = ksl(1);
    const wmask_t m1 = grp(0), m2 = grp(1), mq = kq ? m2 : m1 | m2;
    const int a = b->cyc;
    b->in.csr_we = 1, b->in.csr_addr = SMK_REG_SM_CTRL;
    b->in.csr_wdata = u_ctrl(SMK_POLICY_GTO, SMK_QMODE_QOS, SMK_QSCHEME_NAIVE, 0); /* a: counters 0 */
    step(b);
    b->in.csr_we = 1, b->in.csr_addr = SMK_REG_CNT + kq, b->in.csr_wdata = 5; /* a+1: CNT[kq] = 5 */
    step(b);
    /* a+2: a completion of WS threads; stage 1 charges it at the edge of a+3: CNT[kq] -> 5 - WS */
    b->in.cp_v = 1, b->in.cp_ks[0] = kq, b->in.cp_act[0] = SMK_WARP_SIZE;
    step(b);
    b->in.rd_addr = SMK_REG_CNT + kq; /* a+3 */
    run(b, 3);
    expect_iss_all(b, a, m1, 0, "issues before the mode write");
    cr_assert_eq(b->lg[a + 1].qo.qallow, 0);
    cr_assert_eq(b->lg[a + 1].wi.qallow, 0);
    cr_assert_eq(b->lg[a + 1].wo.iss_v, 0, "a+1: every kernel slot held by quota");
    uint32_t held = 0;
    for (int k = 0; k < KS; k++)
        held += b->lg[a + 1].wo.held_cnt[k];
    cr_assert_eq(held, 2 * NW, "both TBs' warps held");
    cr_assert_eq(b->lg[a + 2].wi.qallow, 1u << kq);
    expect_iss_all(b, a + 2, mq, (int)kq, "a+2: the TBs of kernel slot kq issue");
    cr_assert_eq(b->lg[a + 2].wo.iss_v & ~schm(mq), 0, "a+2: the other kernel slot held");
    cr_assert_eq(b->lg[a + 3].wi.qallow, 1u << kq, "a+3: the completion is not charged yet");
    expect_iss_all(b, a + 3, mq, (int)kq, "a+3: kernel slot kq still issues");
    cr_assert_eq(b->lg[a + 3].qo.rd_data, 5u, "CNT[kq] reads %d in a+3", (int)b->lg[a + 3].qo.rd_data);
    cr_assert_eq(b->lg[a + 4].wi.qallow, 0);
    cr_assert_eq(b->lg[a + 4].wo.iss_v, 0, "a+4: ks kq spent by the completion");
    cr_assert_eq(b->lg[a + 4].qo.rd_data, (uint32_t)(5 - SMK_WARP_SIZE), "CNT[kq] reads %d", (int)b->lg[a + 4].qo.rd_data);
    cr_assert_eq(b->lg[a + 4].qo.policy, SMK_POLICY_GTO);
    free(b);
}

Test(sm_top, rollover_time_wiring, .description = "QOS / ROLLOVER_TIME in the SM: the older non-QoS slot waits while the QoS slot with warps has quota")
{
    U_NEEDS(SMK_TB_SLOTS >= 2 && SMK_KSLOTS >= 2); /* two TBs of two kernel slots */
    bench_t *b = two_tbs(); /* slot T1: ks 0 (older), slot T2: ks 1 */
    const wmask_t m1 = grp(0), m2 = grp(1);
    const int a = b->cyc;
    const uint32_t w_a[] = {SMK_REG_QOS_MASK, SMK_REG_CNT, SMK_REG_CNT + 1, SMK_REG_SM_CTRL};
    const uint32_t w_d[] = {2, 5, 5, u_ctrl(SMK_POLICY_GTO, SMK_QMODE_QOS, SMK_QSCHEME_ROLLOVER_TIME, 0)};
    for (int i = 0; i < 4; i++) { /* a .. a+3: ks 1 QoS, both counters 5, the scheme */
        b->in.csr_we = 1, b->in.csr_addr = w_a[i], b->in.csr_wdata = w_d[i];
        step(b);
    }
    step(b); /* a+4 */
    /* a+5: a completion of ks 1, charged at the edge of a+6 (stage 1): CNT[1] -> 5 - WS */
    b->in.cp_v = 1, b->in.cp_ks[0] = 1, b->in.cp_act[0] = SMK_WARP_SIZE;
    step(b);
    run(b, 3); /* a+6 .. a+8 */
    for (int c = a; c < a + 4; c++) /* mode OFF until the SM_CTRL write lands */
        expect_iss_all(b, c, m1, 0, "ks 0 (older) issues under OFF");
    for (int c = a + 4; c < a + 7; c++) {
        cr_assert_eq(b->lg[c].qo.qallow, 2u, "a+%d: qallow 0x%x (ks 0 held by ks 1's quota)", c - a,
                     b->lg[c].qo.qallow);
        cr_assert_eq(b->lg[c].wi.qallow, 2u);
        expect_iss_all(b, c, m2, 1, "the QoS slot issues");
        cr_assert_eq(b->lg[c].wo.iss_v & ~schm(m2), 0, "a+%d: ks 0 held", c - a);
        cr_assert_eq(b->lg[c].wo.held_cnt[0], (uint32_t)NW, "a+%d: ks 0's warps held", c - a);
    }
    for (int c = a + 7; c < a + 9; c++) {
        cr_assert_eq(b->lg[c].qo.qallow, 1u, "a+%d: ks 1 used up: ks 0 runs", c - a);
        expect_iss_all(b, c, m1, 0, "ks 0 runs");
        cr_assert_eq(b->lg[c].wo.iss_v & ~schm(m1), 0, "a+%d: ks 1 held", c - a);
    }
    free(b);
}
