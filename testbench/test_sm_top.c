/* test_sm_top.c: Criterion unit tests of the SM top C model (cmodel/sm_top.c, spec docs/sm_top.md):
 * the TB slot table, the launch arbiter and the wiring of warp_sched, quota_unit and
 * preempt_engine. Expected values are exact cycles from the spec (and, for engine timings, from
 * docs/preempt_engine.md's reference TB: n = 2 warps, R = 2, M = 1, C = 1, L = 7, lambda = 4,
 * B = 1, cap = 0: SAVE response 23 (+ D non-idle STOP cycles), RESTORE response 22, DROP 3).
 *
 * The bench: a fixed-latency memory (tags only, at most one response per cycle, oldest first) and
 * a pipeline model reduced to three per-warp wishes (ready, busy) that are ANDed with the valid
 * warps every cycle (contract: they concern valid warps only), and one-shot exits. Every cycle's
 * sm_out_t is logged; the tests assert on the log. Cycles are absolute bench cycles; each test
 * names its reference cycle. quota_unit stays at reset (QMODE OFF: qallow all ones, GTO). */
#include <criterion/criterion.h>

#include "sm_top.h"
#include "unit_util.h"

/* the reference TB assumes C = 1 control line per warp; the bench masks use warps 0..5*S */
U_BENCH_NEEDS(top_bench, SMK_CTL_LINES == 1 && SMK_TB_SLOTS >= 8 && SMK_PE_QDEPTH >= 2 && SMK_WARPS >= 6 * SMK_SCHED &&
                             SMK_KSLOTS >= 4 && SMK_MAX_REGS >= 8 && SMK_SMEM_LINES >= 8)
TestSuite(sm_top, .timeout = 60, .init = top_bench);

#define NT SMK_TB_SLOTS
#define S SMK_SCHED
#define MAXC 512
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

typedef struct {
    sm_top_t sm;
    sm_in_t in;
    sm_out_t o;
    int cyc;
    wmask_t want_ready, want_busy; /* ANDed with the valid warps each cycle */
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
/* two warps of scheduler 0: w0 and w0 + S */
static wmask_t pair(int w0) { return bit(w0) | bit(w0 + S); }

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
    bench_t *b = bench_new();
    const wmask_t m = pair(2 * S);
    b->want_ready = m;
    setup(b, 2, m, 1, 4, 3, 1); /* cycle 0 */
    run(b, 4);
    /* cycle 0: nothing registered yet */
    cr_assert(!b->lg[0].set_rej && b->lg[0].set_ok);
    cr_assert(!b->lg[0].tb_alloc && !b->lg[0].wused && !b->lg[0].wi.launch_v);
    /* cycle 1: allocated with go (not a RESTORE target), launched by the arbiter */
    cr_assert_eq(b->lg[1].tb_alloc, bit(2));
    cr_assert_eq(b->lg[1].pi.tb_alloc, 0, "a go slot is not offered to the engine as allocated");
    cr_assert_eq(b->lg[1].tb_run, 0);
    cr_assert_eq(b->lg[1].wused, m);
    cr_assert_eq(b->lg[1].wo.wvalid, 0);
    const int lc[] = {1};
    const wmask_t lm[] = {m};
    const uint32_t lk[] = {1};
    expect_launches(b, 0, 4, lc, lm, lk, 1);
    /* cycle 2: running, warps valid with their kernel slot, issuing */
    for (int c = 2; c < 4; c++) {
        cr_assert_eq(b->lg[c].tb_alloc, 0);
        cr_assert_eq(b->lg[c].tb_run, bit(2));
        cr_assert_eq(b->lg[c].pi.tb_run, bit(2));
        cr_assert_eq(b->lg[c].wo.wvalid, m);
        cr_assert_eq(b->lg[c].wused, m);
        cr_assert(b->lg[c].wo.iss_v & 1, "cycle %d: a warp of the new TB issues", c);
        cr_assert(m >> b->lg[c].wo.iss_wid[0] & 1);
        cr_assert_eq(b->lg[c].wo.iss_ks[0], 1);
    }
    cr_assert_eq(b->sm.tnreg[2], 4);
    cr_assert_eq(b->sm.tsml[2], 3);
    cr_assert_eq(b->sm.tks[2], 1);
    /* a set-up without go is allocated for a RESTORE and never launched by the arbiter */
    setup(b, 5, pair(0), 0, 1, 1, 0); /* cycle 4 */
    run(b, 6);
    for (int c = 4; c < 10; c++)
        cr_assert(!b->lg[c].wi.launch_v, "cycle %d: launch of a slot without go", c);
    cr_assert_eq(b->lg[9].tb_alloc, bit(5));
    cr_assert_eq(b->lg[9].pi.tb_alloc, bit(5));
    cr_assert_eq(b->lg[9].wused, m | pair(0));
    free(b);
}

Test(sm_top, arbiter_priority, .description = "RESTORE launch_v in 22 with go pending: engine in 22, go slots next, lowest first")
{
    const wmask_t m1 = pair(0), m5 = pair(2 * S), m3 = pair(4 * S);
    /* go for slot 5 set up in a+21 (pending in a+22, blocked by the engine) and slot 3 in a+22 */
    bench_t *b = bench_new();
    setup(b, 1, m1, 2, 2, 1, 0);
    step(b);
    const int a = b->cyc; /* 1: the RESTORE arrives */
    cmd(b, RESTORE, 1, PTR, 0);
    run(b, 21);                 /* a .. a+20 */
    setup(b, 5, m5, 3, 1, 1, 1); /* a+21: go[5] from a+22 */
    step(b);
    setup(b, 3, m3, 1, 1, 1, 1); /* a+22: go[3] from a+23 */
    step(b);
    run(b, 4);
    const int lc[] = {a + 22, a + 23, a + 24};
    const wmask_t lm[] = {m1, m3, m5};
    const uint32_t lk[] = {2, 1, 3};
    expect_launches(b, a, b->cyc, lc, lm, lk, 3);
    cr_assert(b->lg[a + 22].po.launch_v, "the engine launches in a+22");
    cr_assert_eq(b->lg[a + 22].tb_alloc, bit(1) | bit(5));
    cr_assert_eq(b->lg[a + 23].tb_run, bit(1));
    cr_assert_eq(b->lg[a + 23].tb_alloc, bit(3) | bit(5), "slot 5 still waits in a+23");
    cr_assert_eq(b->lg[a + 23].wo.wvalid, m1);
    cr_assert_eq(b->lg[a + 24].tb_run, bit(1) | bit(3));
    cr_assert_eq(b->lg[a + 25].tb_run, bit(1) | bit(3) | bit(5));
    cr_assert_eq(b->lg[a + 25].tb_alloc, 0);
    cr_assert_eq(b->lg[a + 25].wo.wvalid, m1 | m3 | m5);
    free(b);
}

Test(sm_top, set_rej, .description = "set-up refused: slot allocated, slot running, empty mask, mask overlapping wused (and T out of range)")
{
    bench_t *b = bench_new();
    const wmask_t m2 = pair(0), m4 = pair(2 * S);
    setup(b, 2, m2, 0, 1, 1, 0); /* 0: slot 2 allocated (no go) */
    step(b);
    fresh(b, 4, m4, 1, 1, 1); /* 1, 2: slot 4 running */
    const sm_top_t before = b->sm;
    struct { uint32_t t; wmask_t m; } bad[] = {
        {2, bit(5 * S)},                 /* slot allocated */
        {4, bit(5 * S)},                 /* slot running */
        {6, 0},                          /* empty mask */
        {6, bit(5 * S) | bit(S)},        /* overlaps allocated slot 2 (warp S) */
        {6, bit(3 * S)},                 /* overlaps running slot 4 (warp 3S) */
#if (SMK_TB_SLOTS & (SMK_TB_SLOTS - 1)) != 0
        {SMK_TB_SLOTS, bit(5 * S)},      /* slot out of range */
#endif
    };
    const int nb = (int)(sizeof bad / sizeof bad[0]);
    for (int i = 0; i < nb; i++) {
        setup(b, bad[i].t, bad[i].m, 3, 7, 7, i & 1);
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
    setup(b, 6, bit(5 * S), 3, 7, 7, 0);
    step(b);
    cr_assert(!b->lg[b->cyc - 1].set_rej && b->lg[b->cyc - 1].set_ok);
    step(b);
    cr_assert(!b->lg[b->cyc - 1].set_rej);
    cr_assert_eq(b->sm.wused, m2 | m4 | bit(5 * S));
    free(b);
}

Test(sm_top, natural_done, .description = "tb_done one cycle after the last wexit; slot and warps reusable the cycle after")
{
    bench_t *b = bench_new();
    const wmask_t m = pair(2 * S);
    b->want_ready = m;
    fresh(b, 2, m, 1, 1, 1); /* 0, 1 */
    run(b, 2);
    const int x = b->cyc; /* warp 2S exits in x, warp 3S in x+3 */
    b->in.wexit = bit(2 * S);
    run(b, 3);
    b->in.wexit = bit(3 * S);
    step(b); /* x+3 */
    const int y = x + 3;
    /* y+1: done; a set-up of the same slot is refused (still running) */
    setup(b, 2, m, 1, 1, 1, 1);
    step(b);
    /* y+2: freed; a set-up of the same slot and warps is accepted */
    setup(b, 2, m, 1, 1, 1, 1);
    step(b);
    run(b, 3);
    expect_done_only(b, 0, b->cyc, y + 1, bit(2));
    cr_assert_eq(b->lg[y + 1].pi.tb_done, bit(2), "the engine sees the same tb_done");
    cr_assert_eq(b->lg[x].wi.finish_mask, bit(2 * S), "an exit removes its warp");
    cr_assert_eq(b->lg[x + 1].wo.wvalid, bit(3 * S));
    cr_assert_eq(b->lg[y + 1].wo.wvalid, 0);
    cr_assert_eq(b->lg[y + 1].tb_run, bit(2));
    cr_assert(b->lg[y + 1].set_rej, "set-up of a slot finishing in this cycle is refused");
    cr_assert_eq(b->lg[y + 2].tb_run, 0);
    cr_assert_eq(b->lg[y + 2].wused, 0);
    cr_assert(!b->lg[y + 2].set_rej);
    cr_assert(b->lg[y + 3].wi.launch_v && b->lg[y + 3].wi.launch_mask == m);
    cr_assert_eq(b->lg[y + 4].tb_run, bit(2));
    cr_assert_eq(b->lg[y + 4].wo.wvalid, m);
    cr_assert_eq(b->lg[y + 5].tb_done, 0, "the relaunched TB is live");
    free(b);
}

/* slot 1 = {0, S} (ks 0), slot 2 = {2S, 3S} (ks 1): all four warps in scheduler 0, always ready.
 * Slot 1 is launched first, so under GTO its warps are the oldest. */
static bench_t *two_tbs(void)
{
    bench_t *b = bench_new();
    b->want_ready = pair(0) | pair(2 * S) | pair(4 * S);
    fresh(b, 1, pair(0), 0, 2, 1);
    fresh(b, 2, pair(2 * S), 1, 2, 1);
    step(b);
    return b;
}

Test(sm_top, save_restore, .description = "SAVE through the top (stop, tb_idle from wbusy, free) then RESTORE into another slot")
{
    bench_t *b = two_tbs();
    const wmask_t m1 = pair(0), m2 = pair(2 * S), m4 = pair(4 * S);
    const int a = b->cyc;
    cr_assert(b->lg[a - 1].wo.iss_v & 1);
    cr_assert(m1 >> b->lg[a - 1].wo.iss_wid[0] & 1, "before the SAVE the oldest TB (slot 1) issues");
    cmd(b, SAVE, 1, PTR, 0);
    b->want_busy = bit(0); /* warp 0 busy up to a+4 */
    run(b, 5);
    b->want_busy = bit(2 * S); /* the other TB's busy warp does not hold the SAVE */
    run(b, 30);                /* a+5 .. a+34 */
    const rsp_t e[] = {{a + 26, SAVE, 1, OK, PTR}};
    expect_rsps(b, a, b->cyc, e, 1);
    for (int c = a; c < a + 35; c++) {
        const sm_out_t *o = &b->lg[c];
        const wmask_t want_stop = (c >= a + 2 && c <= a + 26) ? m1 : 0;
        cr_assert_eq(o->po.stop, want_stop, "cycle a+%d: stop", c - a);
        cr_assert_eq(o->wi.stop, o->po.stop, "stop reaches warp_sched");
        const uint32_t idle1 = !(c < a + 5 && c <= a + 26), idle2 = c < a + 5;
        if (c <= a + 26) {
            cr_assert_eq(o->pi.tb_idle >> 1 & 1, idle1, "cycle a+%d: tb_idle[1]", c - a);
        }
        cr_assert_eq(o->pi.tb_idle >> 2 & 1, idle2, "cycle a+%d: tb_idle[2]", c - a);
        cr_assert(o->wo.iss_v & 1, "cycle a+%d: scheduler 0 idle", c - a);
        if (c >= a + 2)
            cr_assert(m2 >> o->wo.iss_wid[0] & 1, "cycle a+%d: warp %u issues, not of slot 2", c - a,
                      o->wo.iss_wid[0]);
        cr_assert_eq(o->po.free_v, c == a + 26);
    }
    cr_assert(m1 >> b->lg[a + 1].wo.iss_wid[0] & 1, "slot 1 still issues in the pop cycle");
    cr_assert_eq(b->lg[a + 26].wi.finish_mask, m1, "free_v removes the warps at that edge");
    cr_assert_eq(b->lg[a + 26].wo.wvalid, m1 | m2);
    cr_assert_eq(b->lg[a + 27].wo.wvalid, m2);
    cr_assert_eq(b->lg[a + 26].tb_run, bit(1) | bit(2));
    cr_assert_eq(b->lg[a + 27].tb_run, bit(2));
    cr_assert_eq(b->lg[a + 27].wused, m2);
    /* the SAVE read the slot's shape through the lookup port: 7 lines, warps 0 and S */
    int nre = 0;
    for (int c = a; c < a + 35; c++)
        if (b->lg[c].po.st_re) {
            nre++;
            cr_assert_eq(b->lg[c].po.st_tb, 1);
            if (b->lg[c].po.st_kind != SMK_CTX_KIND_SMEM)
                cr_assert(m1 >> b->lg[c].po.st_wid & 1);
        }
    cr_assert_eq(nre, 7, "SAVE reads L = 7 lines");
    cr_assert_eq(b->lg[a + 6].po.mem_req_v, 1, "first request in a+6 (D = 3)");
    cr_assert_eq(b->lg[a + 5].po.mem_req_v, 0);

    /* RESTORE into slot 4 = {4S, 5S}, kernel slot 0, same shape */
    b->want_busy = 0;
    setup(b, 4, m4, 0, 2, 1, 0);
    step(b);
    const int r = b->cyc;
    cmd(b, RESTORE, 4, PTR, 0);
    run(b, 26);
    const rsp_t e2[] = {{r + 22, RESTORE, 4, OK, PTR}};
    expect_rsps(b, r, b->cyc, e2, 1);
    const int we[] = {6, 7, 11, 12, 16, 17, 21};
    int k = 0;
    for (int c = r; c < r + 26; c++) {
        const sm_out_t *o = &b->lg[c];
        cr_assert_eq(o->po.stop, 0, "a RESTORE never stops");
        if (o->po.st_we) {
            cr_assert(k < 7 && c == r + we[k], "storage write %d in r+%d", k, c - r);
            cr_assert_eq(o->po.st_tb, 4);
            if (o->po.st_kind != SMK_CTX_KIND_SMEM)
                cr_assert(m4 >> o->po.st_wid & 1, "storage write to warp %u, not of slot 4", o->po.st_wid);
            k++;
        }
    }
    cr_assert_eq(k, 7);
    const int lc[] = {r + 22};
    const wmask_t lm[] = {m4};
    const uint32_t lk[] = {0};
    expect_launches(b, r, b->cyc, lc, lm, lk, 1);
    cr_assert_eq(b->lg[r + 22].tb_alloc, bit(4));
    cr_assert_eq(b->lg[r + 23].tb_alloc, 0);
    cr_assert_eq(b->lg[r + 23].tb_run, bit(2) | bit(4));
    cr_assert_eq(b->lg[r + 23].wo.wvalid, m2 | m4);
    /* the restored warps are the youngest: under GTO slot 2 keeps scheduler 0; once slot 2 is not
     * ready the restored warps issue */
    b->want_ready = m4;
    run(b, 2);
    cr_assert(b->lg[b->cyc - 1].wo.iss_v & 1);
    cr_assert(m4 >> b->lg[b->cyc - 1].wo.iss_wid[0] & 1, "restored warp issues");
    cr_assert_eq(b->lg[b->cyc - 1].wo.iss_ks[0], 0);
    free(b);
}

Test(sm_top, save_exit_race, .description = "SAVE: the last warp exits in the cycle the TB goes idle -> not idle, tb_done next cycle, FIN, no free")
{
    bench_t *b = two_tbs();
    const int a = b->cyc;
    cmd(b, SAVE, 1, PTR, 0);
    b->in.wexit = bit(S); /* warp S exits in the arrival cycle */
    b->want_busy = bit(0); /* warp 0 busy in a+1, a+2 */
    run(b, 3);
    b->want_busy = 0;
    b->in.wexit = bit(0); /* a+3: the last warp exits, nothing busy */
    run(b, 8);
    cr_assert_eq(b->lg[a + 3].pi.tb_idle >> 1 & 1, 0, "an exiting warp keeps its TB not idle");
    cr_assert_eq(b->lg[a + 5].pi.tb_idle >> 1 & 1, 1);
    expect_done_only(b, a, b->cyc, a + 4, bit(1));
    const rsp_t e[] = {{a + 5, SAVE, 1, FIN, PTR}};
    expect_rsps(b, a, b->cyc, e, 1);
    for (int c = a; c < b->cyc; c++) {
        cr_assert(!b->lg[c].po.free_v && !b->lg[c].po.mem_req_v, "cycle a+%d: free or request", c - a);
        cr_assert_eq(b->lg[c].po.stop, (c >= a + 2 && c <= a + 4) ? pair(0) : 0, "cycle a+%d: stop", c - a);
    }
    cr_assert_eq(b->lg[a + 5].tb_run, bit(2));
    cr_assert_eq(b->lg[a + 5].wused, pair(2 * S));
    free(b);
}

Test(sm_top, drop, .description = "DROP idem: stop 2..3, (DROP, 1, OK) + free in 3, warps gone in 4; without idem: NOTIDEM, TB untouched")
{
    bench_t *b = two_tbs();
    const wmask_t m1 = pair(0), m2 = pair(2 * S);
    int a = b->cyc;
    cmd(b, DROP, 1, PTR, 0);
    run(b, 4);
    const rsp_t e0[] = {{a + 2, DROP, 1, E_NOTIDEM, PTR}};
    expect_rsps(b, a, b->cyc, e0, 1);
    for (int c = a; c < b->cyc; c++)
        cr_assert(!b->lg[c].po.stop && !b->lg[c].po.free_v && !b->lg[c].wi.finish_mask);
    cr_assert_eq(b->lg[a + 3].tb_run, bit(1) | bit(2));
    cr_assert(m1 >> b->lg[a + 3].wo.iss_wid[0] & 1, "slot 1 keeps issuing");

    a = b->cyc;
    cmd(b, DROP, 1, PTR + 1, 1);
    run(b, 6);
    const rsp_t e1[] = {{a + 3, DROP, 1, OK, PTR + 1}};
    expect_rsps(b, a, b->cyc, e1, 1);
    for (int c = a; c < b->cyc; c++) {
        cr_assert_eq(b->lg[c].po.stop, (c == a + 2 || c == a + 3) ? m1 : 0, "cycle a+%d: stop", c - a);
        cr_assert_eq(b->lg[c].wi.finish_mask, c == a + 3 ? m1 : 0, "cycle a+%d: finish_mask", c - a);
        cr_assert(!b->lg[c].po.mem_req_v);
    }
    cr_assert(m2 >> b->lg[a + 2].wo.iss_wid[0] & 1);
    cr_assert_eq(b->lg[a + 3].wo.wvalid, m1 | m2);
    cr_assert_eq(b->lg[a + 4].wo.wvalid, m2);
    cr_assert_eq(b->lg[a + 4].tb_run, bit(2));
    cr_assert_eq(b->lg[a + 4].wused, m2);
    expect_done_only(b, a, b->cyc, -1, 0);
    free(b);
}

Test(sm_top, drain, .description = "DRAIN through the top: draining until the TB's natural tb_done, response the cycle after")
{
    bench_t *b = two_tbs();
    const int a = b->cyc;
    cmd(b, DRAIN, 2, PTR, 0);
    run(b, 4);
    b->in.wexit = pair(2 * S); /* a+4: both warps exit */
    run(b, 4);
    expect_done_only(b, a, b->cyc, a + 5, bit(2));
    const rsp_t e[] = {{a + 6, DRAIN, 2, OK, 0}};
    expect_rsps(b, a, b->cyc, e, 1);
    for (int c = a; c < b->cyc; c++) {
        cr_assert_eq(b->lg[c].po.draining, (c >= a + 2 && c <= a + 5) ? bit(2) : 0, "cycle a+%d", c - a);
        cr_assert_eq(b->lg[c].po.stop, 0);
    }
    cr_assert_eq(b->lg[a + 6].tb_run, bit(1));
    free(b);
}

Test(sm_top, lookup, .description = "lookup port: tmask / tnreg / tsml of the queue head's slot, slot 0 when the queue is empty")
{
    bench_t *b = bench_new();
    const wmask_t m0 = bit(1), m3 = pair(2 * S), m6 = bit(0) | bit(4 * S) | bit(5 * S); /* disjoint for every S */
    setup(b, 0, m0, 0, 1, 3, 0);
    step(b);
    setup(b, 3, m3, 1, 5, 7, 0);
    step(b);
    setup(b, 6, m6, 2, 3, 2, 0);
    step(b);
    const int a = b->cyc;
    cmd(b, DRAIN, 3, 0, 0); /* ERR_EMPTY: slot 3 is not running */
    step(b);
    cmd(b, DRAIN, 6, 0, 0);
    run(b, 5);
    const struct { uint32_t tb; wmask_t m; uint32_t R, M; } e[] = {
        {0, m0, 1, 3}, {3, m3, 5, 7}, {6, m6, 3, 2}, {6, m6, 3, 2}, {0, m0, 1, 3},
    };
    for (int i = 0; i < 5; i++) {
        const sm_out_t *o = &b->lg[a + i];
        cr_assert_eq(o->po.lk_tb, e[i].tb, "a+%d: lk_tb %u", i, o->po.lk_tb);
        cr_assert(o->pi.lk_mask == e[i].m && o->pi.lk_nreg == e[i].R && o->pi.lk_smem == e[i].M,
                  "a+%d: lookup (%#llx, %u, %u), expected slot %u's", i, (unsigned long long)o->pi.lk_mask,
                  o->pi.lk_nreg, o->pi.lk_smem, e[i].tb);
    }
    const rsp_t r[] = {{a + 2, DRAIN, 3, E_EMPTY, 0}, {a + 4, DRAIN, 6, E_EMPTY, 0}};
    expect_rsps(b, a, b->cyc, r, 2);
    /* the engine latched slot 3's shape at the pop (a+1) */
    cr_assert_eq(b->lg[a + 2].po.stop, 0);
    free(b);
}

Test(sm_top, quota_wiring, .description = "quota_unit in the SM: registers, qallow gates warp_sched, completions decrement, rd_data")
{
    bench_t *b = two_tbs(); /* slot 1: ks 0 (older), slot 2: ks 1; scheduler 0 */
    const int a = b->cyc;
    b->in.csr_we = 1, b->in.csr_addr = SMK_REG_SM_CTRL;
    b->in.csr_wdata = u_ctrl(SMK_POLICY_GTO, SMK_QMODE_QOS, SMK_QSCHEME_NAIVE, 0); /* a: counters 0 */
    step(b);
    b->in.csr_we = 1, b->in.csr_addr = SMK_REG_CNT + 1, b->in.csr_wdata = 5; /* a+1: CNT[1] = 5 */
    step(b);
    b->in.cp_v = 1, b->in.cp_ks[0] = 1, b->in.cp_act[0] = SMK_WARP_SIZE; /* a+2: CNT[1] -> 5 - WS */
    step(b);
    b->in.rd_addr = SMK_REG_CNT + 1; /* a+3 */
    run(b, 2);
    cr_assert_eq(b->lg[a].wo.iss_v & 1, 1, "issues before the mode write");
    cr_assert_eq(b->lg[a + 1].qo.qallow, 0);
    cr_assert_eq(b->lg[a + 1].wi.qallow, 0);
    cr_assert_eq(b->lg[a + 1].wo.iss_v & 1, 0, "a+1: every kernel slot held by quota");
    cr_assert_eq(b->lg[a + 1].wo.held_cnt[0] + b->lg[a + 1].wo.held_cnt[1], 4);
    cr_assert_eq(b->lg[a + 2].wi.qallow, 2u);
    cr_assert_eq(b->lg[a + 2].wo.iss_v & 1, 1, "a+2: slot 2 (ks 1) issues");
    cr_assert(pair(2 * S) >> b->lg[a + 2].wo.iss_wid[0] & 1);
    cr_assert_eq(b->lg[a + 2].wo.iss_ks[0], 1);
    cr_assert_eq(b->lg[a + 3].wi.qallow, 0);
    cr_assert_eq(b->lg[a + 3].wo.iss_v & 1, 0, "a+3: ks 1 spent by the completion");
    cr_assert_eq(b->lg[a + 3].qo.rd_data, (uint32_t)(5 - SMK_WARP_SIZE), "CNT[1] reads %d", (int)b->lg[a + 3].qo.rd_data);
    cr_assert_eq(b->lg[a + 3].qo.policy, SMK_POLICY_GTO);
    free(b);
}

Test(sm_top, rollover_time_wiring, .description = "QOS / ROLLOVER_TIME in the SM: the older non-QoS slot waits while the QoS slot with warps has quota")
{
    bench_t *b = two_tbs(); /* slot 1: ks 0 (older), slot 2: ks 1; scheduler 0 */
    const int a = b->cyc;
    const uint32_t w_a[] = {SMK_REG_QOS_MASK, SMK_REG_CNT, SMK_REG_CNT + 1, SMK_REG_SM_CTRL};
    const uint32_t w_d[] = {2, 5, 5, u_ctrl(SMK_POLICY_GTO, SMK_QMODE_QOS, SMK_QSCHEME_ROLLOVER_TIME, 0)};
    for (int i = 0; i < 4; i++) { /* a .. a+3: ks 1 QoS, both counters 5, the scheme */
        b->in.csr_we = 1, b->in.csr_addr = w_a[i], b->in.csr_wdata = w_d[i];
        step(b);
    }
    step(b); /* a+4 */
    b->in.cp_v = 1, b->in.cp_ks[0] = 1, b->in.cp_act[0] = SMK_WARP_SIZE; /* a+5: CNT[1] -> 5 - WS */
    step(b);
    run(b, 2); /* a+6, a+7 */
    for (int c = a; c < a + 4; c++) /* mode OFF until the SM_CTRL write lands */
        cr_assert_eq(b->lg[c].wo.iss_ks[0], 0, "a+%d: ks 0 (older) issues under OFF", c - a);
    for (int c = a + 4; c < a + 6; c++) {
        cr_assert_eq(b->lg[c].qo.qallow, 2u, "a+%d: qallow 0x%x (ks 0 held by ks 1's quota)", c - a,
                     b->lg[c].qo.qallow);
        cr_assert_eq(b->lg[c].wi.qallow, 2u);
        cr_assert_eq(b->lg[c].wo.iss_v & 1, 1, "a+%d", c - a);
        cr_assert_eq(b->lg[c].wo.iss_ks[0], 1, "a+%d: the QoS slot issues", c - a);
        cr_assert_eq(b->lg[c].wo.held_cnt[0], 2, "a+%d: ks 0's 2 warps held", c - a);
    }
    for (int c = a + 6; c < a + 8; c++) {
        cr_assert_eq(b->lg[c].qo.qallow, 1u, "a+%d: ks 1 used up: ks 0 runs", c - a);
        cr_assert_eq(b->lg[c].wo.iss_v & 1, 1);
        cr_assert_eq(b->lg[c].wo.iss_ks[0], 0, "a+%d", c - a);
    }
    free(b);
}
