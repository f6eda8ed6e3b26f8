/* test_warp_sched.c: Criterion unit tests of the warp_sched C model (cmodel/warp_sched.c).
 * The contract is docs/warp_sched.md; every expected value below is derived from it by hand,
 * written with the SMK_* macros so that the tests hold on every configuration
 * (assumed: SMK_SCHED >= 2, SMK_LWARPS >= 8, SMK_KSLOTS >= 2).
 *
 * Sequences are written in local indices and replicated over all schedulers (u_rep): every
 * scheduler sees the same pattern and must issue s + l*S. */
#include <criterion/criterion.h>

#include "unit_util.h"

/* a model that loops (e.g. a broken age order) fails the test instead of hanging the run */
/* the bench launches TBs of two kernel slots and uses local warp indices 0..5 */
U_BENCH_NEEDS(ws_bench, SMK_KSLOTS >= 2 && SMK_LWARPS >= 6 && SMK_LWARPS <= 32)
TestSuite(warp_sched, .timeout = 240, .init = ws_bench); /* 16 kernel slots under the sanitizers on a loaded machine: about 20 s */

#define NS SMK_SCHED
#define NLW SMK_LWARPS
#define NK SMK_KSLOTS
#define NW SMK_WARPS
#define KALL ((uint32_t)SMK_MASK(NK))
#define LALL ((uint32_t)SMK_MASK(NLW))
#define GTO SMK_POLICY_GTO
#define LRR SMK_POLICY_LRR
#define LB(l) ((uint32_t)(1ull << (l))) /* local-index bit (the bench's local masks: LWARPS <= 32) */

typedef struct {
    warp_sched_t ws;
    ws_in_t in; /* persistent inputs (policy, stop, qallow); ready is set per cycle */
    ws_out_t out;
} bench_t;

static void b_init(bench_t *b)
{
    memset(b, 0, sizeof *b);
    ws_reset(&b->ws);
    b->in.qallow = KALL;
}

/* One cycle launching the TB `mask` into slot ks (and finishing `fin`), nothing ready. */
static void b_launch_fin(bench_t *b, wmask_t mask, uint32_t ks, wmask_t fin)
{
    ws_in_t in = b->in;
    in.launch_v = 1, in.launch_mask = mask, in.launch_ks = ks, in.finish_mask = fin, in.ready = 0;
    ws_step(&b->ws, &in, &b->out);
    cr_assert_eq(b->out.iss_v, 0u);
}
static void b_launch(bench_t *b, wmask_t mask, uint32_t ks) { b_launch_fin(b, mask, ks, 0); }
static void b_finish(bench_t *b, wmask_t fin)
{
    ws_in_t in = b->in;
    in.finish_mask = fin, in.ready = 0;
    ws_step(&b->ws, &in, &b->out);
    cr_assert_eq(b->out.iss_v, 0u);
}

/* One step of a hand-built sequence: policy, ready (local mask, all schedulers), the slots whose
 * qallow is forced to 0 this cycle, and the expected issue (local index, -1 = none) and slot. */
typedef struct {
    uint32_t policy, ready;
    int l;
    uint32_t ks, qoff;
} step_t;

static void check_issue(const ws_out_t *o, int l, uint32_t ks, const char *what, int i)
{
    for (int s = 0; s < NS; s++) {
        if (l < 0) {
            cr_assert_eq((o->iss_v >> s) & 1, 0u, "%s step %d sched %d: iss_v", what, i, s);
            cr_assert_eq(o->iss_wid[s], 0, "%s step %d sched %d: iss_wid not 0", what, i, s);
            cr_assert_eq(o->iss_ks[s], 0, "%s step %d sched %d: iss_ks not 0", what, i, s);
        } else {
            cr_assert_eq((o->iss_v >> s) & 1, 1u, "%s step %d sched %d: no issue", what, i, s);
            cr_assert_eq(o->iss_wid[s], u_wid(s, l), "%s step %d sched %d: issued %d, expected %d",
                         what, i, s, o->iss_wid[s], u_wid(s, l));
            cr_assert_eq(o->iss_ks[s], ks, "%s step %d sched %d: iss_ks", what, i, s);
        }
    }
}

static void run_seq(bench_t *b, const step_t *q, int n, const char *what)
{
    for (int i = 0; i < n; i++) {
        ws_in_t in = b->in;
        in.policy = q[i].policy, in.ready = u_rep(q[i].ready), in.qallow = b->in.qallow & ~q[i].qoff;
        ws_eval(&b->ws, &in, &b->out);
        check_issue(&b->out, q[i].l, q[i].ks, what, i);
        ws_commit(&b->ws, &in, &b->out);
    }
}

/* ------------------------------------------------------------------------------------------ */

Test(warp_sched, reset_values, .description = "state reset values; no issue and all outputs 0 after reset")
{
    warp_sched_t ws;
    memset(&ws, 0x5a, sizeof ws);
    ws_reset(&ws);
    cr_assert_eq(ws.valid, 0);
    for (int w = 0; w < NW; w++) {
        cr_assert_eq(ws.ks[w], 0, "ks[%d]", w);
        cr_assert_eq(ws.older[w], 0, "older[%d]", w);
    }
    for (int s = 0; s < NS; s++)
        cr_assert_eq(ws.last[s], NLW - 1, "last[%d]", s);
    cr_assert_eq(ws.last_v, 0u);

    for (uint32_t p = GTO; p <= LRR; p++) {
        ws_in_t in = {0};
        ws_out_t out;
        memset(&out, 0xff, sizeof out);
        in.policy = p, in.ready = SMK_WMASK_ALL, in.qallow = KALL;
        ws_eval(&ws, &in, &out);
        check_issue(&out, -1, 0, "reset", (int)p);
        for (int k = 0; k < NK; k++) {
            cr_assert_eq(out.idle_cnt[k], 0);
            cr_assert_eq(out.held_cnt[k], 0);
        }
        cr_assert_eq(out.ks_active, 0u);
        cr_assert_eq(out.wvalid, 0);
    }
}

Test(warp_sched, sched_mapping, .description = "warp w belongs to scheduler w mod S; iss_wid/iss_ks 0 when idle")
{
    for (int s = 0; s < NS; s++) {
        wmask_t m = 0;
        for (int w = 0; w < NW; w++)
            if (w % NS == s)
                m |= u_bit(w);
        cr_assert_eq(ws_sched_mask(s), m, "ws_sched_mask(%d)", s);
    }

    bench_t b;
    b_init(&b);
    b_launch(&b, SMK_WMASK_ALL, 1);
    cr_assert_eq(b.out.ks_active, 0u, "ks_active is of the state before the launch edge");
    for (int w = 0; w < NW; w++) {
        b.in.policy = GTO, b.in.ready = u_bit(w);
        ws_step(&b.ws, &b.in, &b.out);
        cr_assert_eq(b.out.iss_v, 1u << (w % NS), "warp %d", w);
        for (int s = 0; s < NS; s++) {
            cr_assert_eq(b.out.iss_wid[s], s == w % NS ? w : 0, "warp %d sched %d", w, s);
            cr_assert_eq(b.out.iss_ks[s], s == w % NS ? 1 : 0, "warp %d sched %d", w, s);
        }
        for (int k = 0; k < NK; k++) {
            cr_assert_eq(b.out.idle_cnt[k], 0);
            cr_assert_eq(b.out.held_cnt[k], 0);
        }
        cr_assert_eq(b.out.ks_active, 2u);
        cr_assert_eq(b.out.wvalid, SMK_WMASK_ALL);
    }

    /* fresh: one TB of all warps, everything ready: scheduler s issues its oldest, warp s */
    b_init(&b);
    b_launch(&b, SMK_WMASK_ALL, 1);
    b.in.ready = SMK_WMASK_ALL;
    ws_step(&b.ws, &b.in, &b.out);
    check_issue(&b.out, 0, 1, "all ready", 0);
    cr_assert_eq(b.out.idle_cnt[1], NW - NS);
    cr_assert_eq(b.out.idle_cnt[0], 0);

    /* only scheduler 1's warps ready: only scheduler 1 issues */
    if (NS < 2)
        return; /* one scheduler: no other scheduler's warps */
    b.in.ready = ws_sched_mask(1);
    ws_step(&b.ws, &b.in, &b.out);
    cr_assert_eq(b.out.iss_v, 2u);
    cr_assert_eq(b.out.iss_wid[0], 0);
    cr_assert_eq(b.out.iss_wid[1], 1);
    cr_assert_eq(b.out.idle_cnt[1], NLW - 1);
}

Test(warp_sched, gto_greedy_sequence, .description = "GTO keeps the last warp while eligible, else the oldest")
{
    bench_t b;
    b_init(&b);
    b_launch(&b, SMK_WMASK_ALL, 0); /* one TB: age = warp order */
    const step_t q[] = {
        {GTO, LALL, 0, 0, 0},                /* last_v = 0 after reset: oldest */
        {GTO, LALL, 0, 0, 0},                /* greedy */
        {GTO, LALL, 0, 0, 0},
        {GTO, LB(3), 3, 0, 0},               /* only 3 ready */
        {GTO, LALL, 3, 0, 0},                /* greedy 3, not the oldest 0 */
        {GTO, LALL, 3, 0, 0},
        {GTO, LALL & ~LB(3), 0, 0, 0},       /* greedy not ready: oldest */
        {GTO, LALL, 0, 0, 0},                /* greedy is now 0 */
        {GTO, 0, -1, 0, 0},                  /* nothing ready */
        {GTO, LALL, 0, 0, 0},                /* greedy survives the idle cycle */
        {GTO, LB(5) | LB(6), 5, 0, 0},       /* oldest of {5,6} */
        {GTO, LB(6) | LB(2), 2, 0, 0},       /* 5 not ready: oldest of {2,6} */
        {GTO, LALL, 2, 0, 0},                /* greedy 2 */
        {GTO, LALL, -1, 0, KALL},            /* quota blocks everything */
        {GTO, LB(1) | LB(2) | LB(7), 2, 0, 0}, /* greedy 2 survives the blocked cycle */
        {GTO, LB(1) | LB(7), 1, 0, 0},
        {GTO, LB(7), 7, 0, 0},
        {GTO, LB(4) | LB(7), 7, 0, 0},       /* greedy 7 beats the older 4 */
        {GTO, LB(4), 4, 0, 0},
    };
    run_seq(&b, q, (int)(sizeof q / sizeof q[0]), "gto");
    for (int s = 0; s < NS; s++)
        cr_assert_eq(b.ws.last[s], 4);
    cr_assert_eq(b.ws.last_v, (uint32_t)SMK_MASK(NS));
}

Test(warp_sched, gto_age_by_launch, .description = "GTO age assigned at TB launch, warp order within a TB")
{
    bench_t b;
    b_init(&b);
    /* TB A = locals 4..7 (slot 0) first, TB B = locals 0..3 (slot 1) later: B is younger */
    b_launch(&b, u_rep(0xf0), 0);
    b_launch(&b, u_rep(0x0f), 1);
    const uint32_t v = 0xff;
    const step_t q1[] = {
        /* the issued warp is not ready afterwards, so each step falls back to the oldest */
        {GTO, v, 4, 0, 0},
        {GTO, v & ~0x10u, 5, 0, 0},
        {GTO, v & ~0x30u, 6, 0, 0},
        {GTO, v & ~0x70u, 7, 0, 0},
        {GTO, v & ~0xf0u, 0, 1, 0},
        {GTO, v & ~0xf1u, 1, 1, 0},
        {GTO, v & ~0xf3u, 2, 1, 0},
        {GTO, v & ~0xf7u, 3, 1, 0},
    };
    run_seq(&b, q1, (int)(sizeof q1 / sizeof q1[0]), "age1");

    /* locals 4,5 of A finish; a TB C = locals {5,4} (slot NK-1) is launched later: youngest.
     * Age order now: A 6,7; B 0,1,2,3; C 4,5. */
    b_finish(&b, u_rep(0x30));
    b_launch(&b, u_rep(0x30), NK - 1);
    const step_t q2[] = {
        {GTO, v & ~0x08u, 6, 0, 0}, /* greedy 3 not ready */
        {GTO, v & ~0x48u, 7, 0, 0},
        {GTO, v & ~0xc8u, 0, 1, 0},
        {GTO, v & ~0xc9u, 1, 1, 0},
        {GTO, v & ~0xcbu, 2, 1, 0},
        {GTO, v & ~0xcfu, 4, NK - 1, 0},
        {GTO, v & ~0xdfu, 5, NK - 1, 0},
        {GTO, LB(3) | LB(4), 3, 1, 0},    /* B's 3 is older than C's 4 */
        {GTO, LB(4) | LB(6), 6, 0, 0},    /* A's 6 is older than C's 4 */
    };
    run_seq(&b, q2, (int)(sizeof q2 / sizeof q2[0]), "age2");

    /* the age matrix as the spec defines it, scheduler 0: older[w] = valid warps launched before */
    const int order[8] = {6, 7, 0, 1, 2, 3, 4, 5};
    for (int s = 0; s < NS; s++)
        for (int i = 0; i < 8; i++) {
            wmask_t exp = 0;
            for (int j = 0; j < i; j++)
                exp |= u_bit(u_wid(s, order[j]));
            cr_assert_eq(b.ws.older[u_wid(s, order[i])], exp, "older of sched %d local %d", s, order[i]);
        }
}

Test(warp_sched, greedy_dropped_on_finish_or_relaunch, .description = "last_v cleared when the greedy warp finishes or is relaunched")
{
    bench_t b;
    b_init(&b);
    b_launch(&b, u_rep(LALL), 0);
    const step_t q1[] = {{GTO, LALL, 0, 0, 0}, {GTO, LB(2), 2, 0, 0}};
    run_seq(&b, q1, 2, "setup");
    cr_assert_eq(b.ws.last_v, (uint32_t)SMK_MASK(NS));

    /* the greedy warp 2 issues in the cycle in which it finishes */
    b.in.ready = u_rep(LALL), b.in.finish_mask = u_rep(LB(2)), b.in.policy = GTO;
    ws_step(&b.ws, &b.in, &b.out);
    b.in.finish_mask = 0;
    check_issue(&b.out, 2, 0, "finishing", 0);
    for (int s = 0; s < NS; s++)
        cr_assert_eq(b.ws.last[s], 2);
    cr_assert_eq(b.ws.last_v, 0u, "finished greedy warp dropped");
    cr_assert_eq(b.ws.valid, u_rep(LALL & ~LB(2)));

    /* slot 2 relaunched (TB B, slot 1): last[s] names it but last_v = 0, so GTO takes the oldest */
    b_launch(&b, u_rep(LB(2)), 1);
    const step_t q2[] = {{GTO, LALL, 0, 0, 0}, {GTO, LALL, 0, 0, 0}};
    run_seq(&b, q2, 2, "after relaunch");

    /* finish + launch of the greedy warp 0 in one cycle (new TB C, slot NK-1): dropped too */
    b_launch_fin(&b, u_rep(LB(0)), NK - 1, u_rep(LB(0)));
    cr_assert_eq(b.ws.last_v, 0u);
    cr_assert_eq(b.ws.valid, u_rep(LALL));
    /* age order: A 1,3,4,...,LW-1; B 2; C 0 */
    const step_t q3[] = {
        {GTO, LALL, 1, 0, 0},
        {GTO, LALL & ~LB(1), 3, 0, 0},
        {GTO, LB(0) | LB(2), 2, 1, 0},
        {GTO, LB(0), 0, NK - 1, 0},
    };
    run_seq(&b, q3, 4, "after finish+launch");

    /* relaunch without finish (environment error, still defined): greedy 0 dropped, 0 youngest */
    b_launch(&b, u_rep(LB(0)), 0);
    cr_assert_eq(b.ws.last_v, 0u);
    const step_t q4[] = {{GTO, LALL, 1, 0, 0}, {GTO, LB(0) | LB(2), 2, 1, 0}};
    run_seq(&b, q4, 2, "after relaunch of a valid warp");

    /* a finish of some other warp keeps the greedy warp */
    b_finish(&b, u_rep(LB(NLW - 1)));
    cr_assert_eq(b.ws.last_v, (uint32_t)SMK_MASK(NS));
    const step_t q5[] = {{GTO, LALL, 2, 1, 0}};
    run_seq(&b, q5, 1, "other finish");
}

Test(warp_sched, lrr_sequence, .description = "LRR from the warp after the last issued, wrap-around")
{
    bench_t b;
    b_init(&b);
    b_launch(&b, u_rep(LALL), 0);
    const uint32_t r = LB(0) | LB(3) | LB(5), e = LB(NLW - 1) | LB(1);
    const step_t q[] = {
        {LRR, LALL, 0, 0, 0}, /* starts at local 0 after reset */
        {LRR, LALL, 1, 0, 0},
        {LRR, LALL, 2, 0, 0},
        {LRR, r, 3, 0, 0},
        {LRR, r, 5, 0, 0},
        {LRR, r, 0, 0, 0}, /* wrap */
        {LRR, 0, -1, 0, 0},
        {LRR, LB(0), 0, 0, 0}, /* the last warp itself comes last in the order, LW steps on */
        {LRR, e, 1, 0, 0},
        {LRR, e, NLW - 1, 0, 0},
        {LRR, e, 1, 0, 0}, /* wrap */
        {LRR, LALL & ~LB(2), 3, 0, 0},
        {LRR, LALL, -1, 0, 1u}, /* slot 0 (every warp) has no quota: no issue, last stays 3 */
        {LRR, LALL, 4, 0, 0},
    };
    run_seq(&b, q, (int)(sizeof q / sizeof q[0]), "lrr");
    for (int i = 0; i < 2 * NLW; i++) {
        const step_t one = {LRR, LALL, (5 + i) % NLW, 0, 0};
        run_seq(&b, &one, 1, "lrr round");
    }

    /* fresh: after reset the order starts at local 0 (last = LW-1) */
    b_init(&b);
    b_launch(&b, u_rep(LALL), 0);
    const step_t f1[] = {{LRR, LB(NLW - 1) | LB(1), 1, 0, 0}};
    run_seq(&b, f1, 1, "fresh1");
    b_init(&b);
    b_launch(&b, u_rep(LALL), 0);
    const step_t f2[] = {{LRR, LB(NLW - 1) | LB(0), 0, 0, 0}, {LRR, LB(NLW - 1) | LB(0), NLW - 1, 0, 0}};
    run_seq(&b, f2, 2, "fresh2");
}

Test(warp_sched, lrr_keeps_position_on_finish, .description = "LRR position survives a finish/relaunch of the last warp")
{
    bench_t b;
    b_init(&b);
    b_launch(&b, u_rep(LALL), 0);
    const step_t q1[] = {{LRR, LALL, 0, 0, 0}, {LRR, LALL, 1, 0, 0}, {LRR, LALL, 2, 0, 0}};
    run_seq(&b, q1, 3, "lrr1");
    b_finish(&b, u_rep(LB(2)));
    cr_assert_eq(b.ws.last_v, 0u);
    for (int s = 0; s < NS; s++)
        cr_assert_eq(b.ws.last[s], 2);
    const step_t q2[] = {{LRR, LALL, 3, 0, 0}};
    run_seq(&b, q2, 1, "lrr2");
    /* relaunch of the last-issued warp 3 (finish + launch): LRR continues at 4 */
    b_launch_fin(&b, u_rep(LB(3)), 1, u_rep(LB(3)));
    const step_t q3[] = {{LRR, LALL, 4, 0, 0}, {LRR, LB(3), 3, 1, 0}};
    run_seq(&b, q3, 2, "lrr3");
}

Test(warp_sched, policy_switch, .description = "policy input switched between GTO and LRR at run time")
{
    bench_t b;
    b_init(&b);
    b_launch(&b, u_rep(LALL), 0);
    const step_t q[] = {
        {GTO, LALL, 0, 0, 0},
        {GTO, LALL, 0, 0, 0},
        {LRR, LALL, 1, 0, 0},
        {LRR, LALL, 2, 0, 0},
        {GTO, LALL, 2, 0, 0},           /* greedy continues LRR's last warp */
        {GTO, LALL & ~LB(2), 0, 0, 0},  /* oldest */
        {LRR, LALL, 1, 0, 0},
        {GTO, LB(3) | LB(5), 3, 0, 0},  /* greedy 1 not ready: oldest of {3,5} */
        {LRR, LB(3) | LB(5), 5, 0, 0},
        {LRR, LB(3) | LB(5), 3, 0, 0},
        {GTO, LB(3) | LB(5), 3, 0, 0},
    };
    run_seq(&b, q, (int)(sizeof q / sizeof q[0]), "switch");
}

Test(warp_sched, eligibility_gates, .description = "ready, stop and qallow each gate issue; idle/held per gate")
{
    if (NK < 2 || NLW < 6)
        cr_skip_test("needs two kernel slots and 6 warps per scheduler (KS %d, LWARPS %d)", NK, NLW);
    /* scheduler 1, or 0 with one scheduler */
    const int s1 = NS > 1;
    bench_t b;
    b_init(&b);
    const uint32_t A = 0, B = NK - 1;
    b_launch(&b, u_rep(LB(0) | LB(1)), A);
    b_launch(&b, u_rep(LB(2) | LB(3)), B);
    const int x = u_wid(s1, 2), y = u_wid(s1, 0); /* x: slot B, y: slot A and older */
    struct {
        wmask_t ready, stop;
        uint32_t qallow;
        int wid; /* expected issue of scheduler 1, -1 none */
        int idle_a, idle_b, held_a, held_b;
    } c[] = {
        {u_bit(x), 0, KALL, x, 0, 0, 0, 0},
        {0, 0, KALL, -1, 0, 0, 0, 0},
        {u_bit(x), u_bit(x), KALL, -1, 0, 0, 0, 0},        /* stopped: neither idle nor held */
        {u_bit(x), u_bit(x), KALL & ~(1u << B), -1, 0, 0, 0, 0},
        {u_bit(x), 0, KALL & ~(1u << B), -1, 0, 0, 0, 1},  /* held by quota only */
        {u_bit(x), u_bit(y), KALL, x, 0, 0, 0, 0},         /* stop on another warp */
        {u_bit(x) | u_bit(y), 0, KALL, x, 1, 0, 0, 0},     /* greedy x, y idle */
        {u_bit(x) | u_bit(y), 0, 1u << A, y, 0, 0, 0, 1},  /* x held, y issues */
        {u_bit(x) | u_bit(y), 0, 1u << B, x, 0, 0, 1, 0},  /* y held, x issues (was greedy: y) */
        {u_bit(x) | u_bit(y), 0, 0, -1, 0, 0, 1, 1},
        {u_bit(u_wid(s1, 5)), 0, KALL, -1, 0, 0, 0, 0},     /* ready on an invalid warp */
        {u_bit(x) | u_bit(y), u_bit(x) | u_bit(y), 0, -1, 0, 0, 0, 0},
    };
    for (int i = 0; i < (int)(sizeof c / sizeof c[0]); i++) {
        b.in.policy = GTO, b.in.ready = c[i].ready, b.in.stop = c[i].stop, b.in.qallow = c[i].qallow;
        ws_step(&b.ws, &b.in, &b.out);
        cr_assert_eq(b.out.iss_v, c[i].wid < 0 ? 0u : 1u << s1, "case %d: iss_v", i);
        cr_assert_eq(b.out.iss_wid[s1], c[i].wid < 0 ? 0 : c[i].wid, "case %d: iss_wid", i);
        cr_assert_eq(b.out.iss_ks[s1], c[i].wid < 0 ? 0u : c[i].wid == x ? B : A, "case %d: iss_ks", i);
        if (s1)
            cr_assert_eq(b.out.iss_wid[0], 0, "case %d", i);
        cr_assert_eq(b.out.idle_cnt[A], c[i].idle_a, "case %d: idle A", i);
        cr_assert_eq(b.out.idle_cnt[B], c[i].idle_b, "case %d: idle B", i);
        cr_assert_eq(b.out.held_cnt[A], c[i].held_a, "case %d: held A", i);
        cr_assert_eq(b.out.held_cnt[B], c[i].held_b, "case %d: held B", i);
        cr_assert_eq(b.out.ks_active, (1u << A) | (1u << B), "case %d: ks_active", i);
    }
}

Test(warp_sched, idle_held_counts, .description = "idle_cnt, held_cnt, ks_active exact with three kernels")
{
    /* slots: A = 0 (locals 0,1,2), B = 1 (locals 3,4,5,6), C = NK-1 (local 7), launched in that
     * order. Expected counts are accumulated per slot index, so C == B (NK = 2) also works. */
    const uint32_t A = 0, B = 1, C = NK - 1;
    const uint32_t LA = 0x07, LBm = 0x78, LC = 0x80;
    bench_t b;
    b_init(&b);
    b_launch(&b, u_rep(LA), A);
    b_launch(&b, u_rep(LBm), B);
    b_launch(&b, u_rep(LC), C);
    int idle[NK], held[NK];
#define EXPECT(tag)                                                                              \
    for (int k = 0; k < NK; k++) {                                                               \
        cr_assert_eq(b.out.idle_cnt[k], idle[k], "%s: idle_cnt[%d] = %d, expected %d", tag, k,     \
                     b.out.idle_cnt[k], idle[k]);                                                \
        cr_assert_eq(b.out.held_cnt[k], held[k], "%s: held_cnt[%d] = %d, expected %d", tag, k,     \
                     b.out.held_cnt[k], held[k]);                                                \
    }
#define CLR() memset(idle, 0, sizeof idle), memset(held, 0, sizeof held)
    const uint32_t act = (1u << A) | (1u << B) | (1u << C);

    /* cycle 1: ready all but local 6, warp (sched 0, local 2) stopped, quota for all.
     * Every scheduler issues its oldest, local 0 (A). */
    b.in.policy = GTO, b.in.ready = u_rep(LALL & ~LB(6)), b.in.stop = u_bit(u_wid(0, 2));
    b.in.qallow = KALL;
    ws_step(&b.ws, &b.in, &b.out);
    check_issue(&b.out, 0, A, "c1", 0);
    CLR();
    idle[A] += 3 * NS - 1 - NS, idle[B] += 3 * NS, idle[C] += NS;
    EXPECT("c1");
    cr_assert_eq(b.out.ks_active, act);

    /* cycle 2: A has no quota: greedy 0 not eligible, oldest eligible is local 3 (B) */
    b.in.qallow = KALL & ~(1u << A);
    ws_step(&b.ws, &b.in, &b.out);
    check_issue(&b.out, 3, B, "c2", 0);
    CLR();
    idle[B] += 3 * NS - NS, idle[C] += NS, held[A] += 3 * NS - 1;
    EXPECT("c2");

    /* cycle 3: no quota at all */
    b.in.qallow = 0;
    ws_step(&b.ws, &b.in, &b.out);
    check_issue(&b.out, -1, 0, "c3", 0);
    CLR();
    held[A] += 3 * NS - 1, held[B] += 3 * NS, held[C] += NS;
    EXPECT("c3");

    /* cycle 4: quota only for C, everything ready, all B warps stopped (neither idle nor held) */
    b.in.qallow = 1u << C, b.in.ready = SMK_WMASK_ALL, b.in.stop = u_rep(LBm);
    ws_step(&b.ws, &b.in, &b.out);
    check_issue(&b.out, 7, C, "c4", 0);
    CLR();
    held[A] += 3 * NS;
    EXPECT("c4");

    /* cycle 5: everything allowed, nothing stopped: greedy 7 (C) keeps issuing */
    b.in.qallow = KALL, b.in.stop = 0;
    ws_step(&b.ws, &b.in, &b.out);
    check_issue(&b.out, 7, C, "c5", 0);
    CLR();
    idle[A] += 3 * NS, idle[B] += 4 * NS, idle[C] += NS - NS;
    EXPECT("c5");

    /* A finishes: its stale slot ids are not counted any more; ks_active drops A */
    b_finish(&b, u_rep(LA));
    cr_assert_eq(b.out.ks_active, act, "outputs of the finishing cycle still see A");
    ws_step(&b.ws, &b.in, &b.out);
    cr_assert_eq(b.out.ks_active, (1u << B) | (1u << C));
    check_issue(&b.out, 7, C, "c6", 0);
    CLR();
    idle[B] += 4 * NS;
    EXPECT("c6");
    b_finish(&b, u_rep(LBm | LC));
    ws_step(&b.ws, &b.in, &b.out);
    cr_assert_eq(b.out.ks_active, 0u);
    cr_assert_eq(b.out.wvalid, 0);
    check_issue(&b.out, -1, 0, "empty", 0);
    CLR();
    EXPECT("empty");
#undef EXPECT
#undef CLR
}

Test(warp_sched, finish_launch_same_cycle, .description = "warp in finish and launch masks: relaunched, new slot, youngest")
{
    bench_t b;
    b_init(&b);
    b_launch(&b, u_rep(0x0f), 0);
    b_launch(&b, u_rep(0x30), 1);
    /* launch_v = 0: launch_mask is ignored */
    {
        ws_in_t in = b.in;
        in.launch_mask = u_rep(0xc0), in.launch_ks = 1;
        ws_step(&b.ws, &in, &b.out);
        cr_assert_eq(b.ws.valid, u_rep(0x3f));
    }
    b_launch_fin(&b, u_rep(LB(1)), NK - 1, u_rep(LB(1)));
    cr_assert_eq(b.ws.valid, u_rep(0x3f), "valid unchanged");
    for (int s = 0; s < NS; s++)
        cr_assert_eq(b.ws.ks[u_wid(s, 1)], NK - 1);
    b.in.ready = 0;
    ws_step(&b.ws, &b.in, &b.out);
    cr_assert_eq(b.out.ks_active, 3u | (1u << (NK - 1)));
    cr_assert_eq(b.out.wvalid, u_rep(0x3f));
    const uint32_t v = 0x3f;
    const step_t q[] = {
        {GTO, v, 0, 0, 0},
        {GTO, v & ~0x01u, 2, 0, 0},
        {GTO, v & ~0x05u, 3, 0, 0},
        {GTO, v & ~0x0du, 4, 1, 0},
        {GTO, v & ~0x1du, 5, 1, 0},
        {GTO, v & ~0x3du, 1, NK - 1, 0}, /* relaunched warp 1 is the youngest */
    };
    run_seq(&b, q, (int)(sizeof q / sizeof q[0]), "relaunch");

    /* finish only: the warp vanishes; slot 1's warps 4,5 gone -> ks_active drops slot 1 */
    b_finish(&b, u_rep(0x30));
    for (int s = 0; s < NS; s++)
        cr_assert_eq(b.ws.ks[u_wid(s, 4)], 1, "finished warps keep their stale slot");
    b.in.ready = SMK_WMASK_ALL;
    ws_step(&b.ws, &b.in, &b.out);
    cr_assert_eq(b.out.ks_active, 1u | (1u << (NK - 1)));
    cr_assert_eq(b.out.wvalid, u_rep(0x0f));
    cr_assert_eq(b.out.idle_cnt[1], 0);
}

#if (1 << SMK_KS_W) > SMK_KSLOTS
Test(warp_sched, bad_slot_never_eligible, .description = "a warp launched with slot id >= K is never eligible")
{
    bench_t b;
    b_init(&b);
    b_launch(&b, u_rep(LB(0)), SMK_KSLOTS);
    b_launch(&b, u_rep(LB(1)), 0);
    b.in.ready = SMK_WMASK_ALL, b.in.qallow = KALL;
    ws_step(&b.ws, &b.in, &b.out);
    check_issue(&b.out, 1, 0, "bad slot", 0);
    cr_assert_eq(b.out.ks_active, 1u);
    for (int k = 0; k < NK; k++)
        cr_assert_eq(b.out.held_cnt[k], 0);
}
#endif

/* ---- randomized run against an independent reference ---------------------------------------
 * Reference: a launch sequence number per warp (global counter, warps of one TB numbered in warp
 * order); GTO = greedy warp if eligible, else the eligible warp of the scheduler with the lowest
 * sequence number; LRR = first eligible after the last issued; counts by brute force. */
Test(warp_sched, random_vs_seqno_reference, .description = "200k random cycles: issue, counts, state and age order vs launch sequence numbers")
{
    rng_t r;
    rng_seed(&r, u_seed("warp_sched.random_vs_seqno_reference", 20240611));
    bench_t b;
    b_init(&b);
    uint64_t seq[NW] = {0}, next_seq = 1;
    uint32_t ks[NW] = {0};
    wmask_t valid = 0, older[NW] = {0}; /* older: the spec's clock-edge rule 3, literally */
    int last[NS], last_v[NS];
    for (int s = 0; s < NS; s++)
        last[s] = NLW - 1, last_v[s] = 0;
    long fallbacks_not_lowest_id = 0, fallbacks = 0, issues = 0;
    uint32_t policy = GTO;
    const int cycles = 200000;

    for (int c = 0; c < cycles; c++) {
        ws_in_t in = {0};
        if (rng_chance(&r, 1, 500))
            policy = rng_chance(&r, 1, 4) ? LRR : GTO;
        in.policy = policy;
        /* ready density varies per cycle so that the greedy warp is often not ready */
        const uint32_t dens = rng_below(&r, 4);
        in.ready = rng_next(&r);
        for (uint32_t i = 0; i < dens; i++)
            in.ready &= rng_next(&r);
        in.stop = rng_chance(&r, 1, 4) ? rng_next(&r) & rng_next(&r) & rng_next(&r) : 0;
        in.qallow = rng_chance(&r, 3, 4) ? KALL : (uint32_t)rng_below(&r, KALL + 1);
        in.finish_mask = rng_chance(&r, 1, 3) ? (valid & rng_next(&r) & rng_next(&r) & rng_next(&r)) : 0;
        if (rng_chance(&r, 1, 200))
            in.finish_mask |= rng_next(&r); /* finishes of invalid warps: no effect */
        in.finish_mask &= SMK_WMASK_ALL;
        if (rng_chance(&r, 1, 3)) {
            wmask_t free_ = (~valid | in.finish_mask) & SMK_WMASK_ALL;
            if (rng_chance(&r, 1, 50))
                free_ = SMK_WMASK_ALL; /* relaunch of valid warps: defined */
            in.launch_v = (uint32_t)rng_chance(&r, 15, 16);
            in.launch_mask = free_ & rng_next(&r) & (rng_chance(&r, 1, 2) ? rng_next(&r) : ~0ULL);
            in.launch_ks = rng_below(&r, NK);
        } else if (rng_chance(&r, 1, 20)) {
            in.launch_mask = rng_next(&r) & SMK_WMASK_ALL; /* launch_v = 0: ignored */
            in.launch_ks = rng_below(&r, NK);
        }

        ws_eval(&b.ws, &in, &b.out);

        /* reference outputs */
        wmask_t cand = valid & in.ready & ~in.stop, elig = 0;
        int eidle[NK] = {0}, eheld[NK] = {0}, iss_k[NK] = {0};
        uint32_t kact = 0;
        for (int w = 0; w < NW; w++) {
            if (!((valid >> w) & 1))
                continue;
            kact |= 1u << ks[w];
            if (!((cand >> w) & 1))
                continue;
            if ((in.qallow >> ks[w]) & 1)
                elig |= u_bit(w), eidle[ks[w]]++;
            else
                eheld[ks[w]]++;
        }
        int ref_l[NS];
        for (int s = 0; s < NS; s++) {
            int l = -1;
            if (policy == LRR) {
                for (int i = 1; i <= NLW && l < 0; i++) {
                    const int j = (last[s] + i) % NLW;
                    if ((elig >> u_wid(s, j)) & 1)
                        l = j;
                }
            } else if (last_v[s] && ((elig >> u_wid(s, last[s])) & 1)) {
                l = last[s];
            } else {
                int lowest_id = -1;
                for (int j = 0; j < NLW; j++)
                    if ((elig >> u_wid(s, j)) & 1) {
                        if (lowest_id < 0)
                            lowest_id = j;
                        if (l < 0 || seq[u_wid(s, j)] < seq[u_wid(s, l)])
                            l = j;
                    }
                if (l >= 0) {
                    fallbacks++;
                    fallbacks_not_lowest_id += l != lowest_id;
                }
            }
            ref_l[s] = l;
            if (l >= 0)
                iss_k[ks[u_wid(s, l)]]++, issues++;
            cr_assert_eq((b.out.iss_v >> s) & 1, (uint32_t)(l >= 0), "cycle %d sched %d: iss_v", c, s);
            cr_assert_eq(b.out.iss_wid[s], l < 0 ? 0 : u_wid(s, l), "cycle %d sched %d policy %u: issued %d, expected %d",
                         c, s, policy, b.out.iss_wid[s], l < 0 ? 0 : u_wid(s, l));
            cr_assert_eq(b.out.iss_ks[s], l < 0 ? 0 : ks[u_wid(s, l)], "cycle %d sched %d: iss_ks", c, s);
        }
        for (int k = 0; k < NK; k++) {
            cr_assert_eq(b.out.idle_cnt[k], eidle[k] - iss_k[k], "cycle %d: idle_cnt[%d]", c, k);
            cr_assert_eq(b.out.held_cnt[k], eheld[k], "cycle %d: held_cnt[%d]", c, k);
        }
        cr_assert_eq(b.out.ks_active, kact, "cycle %d: ks_active", c);
        cr_assert_eq(b.out.wvalid, valid, "cycle %d: wvalid", c);

        ws_commit(&b.ws, &in, &b.out);

        /* reference edge */
        const wmask_t L = in.launch_v ? in.launch_mask : 0, gone = L | in.finish_mask;
        for (int w = 0; w < NW; w++) {
            const wmask_t sm = ws_sched_mask(w % NS), Ls = L & sm, Vs = valid & ~in.finish_mask & ~L & sm;
            older[w] = ((L >> w) & 1) ? Vs | (Ls & (u_bit(w) - 1)) : older[w] & ~Ls;
        }
        valid = (valid & ~in.finish_mask) | L;
        for (int w = 0; w < NW; w++)
            if ((L >> w) & 1)
                seq[w] = next_seq++, ks[w] = in.launch_ks;
        /* the whole state compares exactly, including rows and bits of invalid warps */
        cr_assert_eq(b.ws.valid, valid, "cycle %d: valid", c);
        for (int w = 0; w < NW; w++) {
            cr_assert_eq(b.ws.older[w], older[w], "cycle %d: older[%d] = %llx, expected %llx", c, w,
                         (unsigned long long)b.ws.older[w], (unsigned long long)older[w]);
            cr_assert_eq(b.ws.ks[w], ks[w], "cycle %d: ks[%d]", c, w);
        }
        for (int s = 0; s < NS; s++) {
            if (ref_l[s] >= 0)
                last[s] = ref_l[s], last_v[s] = 1;
            if ((gone >> u_wid(s, last[s])) & 1)
                last_v[s] = 0;
            cr_assert_eq(b.ws.last[s], last[s], "cycle %d: last[%d]", c, s);
            cr_assert_eq((b.ws.last_v >> s) & 1, (uint32_t)last_v[s], "cycle %d: last_v[%d]", c, s);
        }
        if (c % 16 == 0) /* age matrix over valid pairs of one scheduler */
            for (int w = 0; w < NW; w++)
                for (int j = w % NS; j < NW; j += NS)
                    if (j != w && ((valid >> w) & 1) && ((valid >> j) & 1))
                        cr_assert_eq((b.ws.older[w] >> j) & 1, (wmask_t)(seq[j] < seq[w]),
                                     "cycle %d: older[%d] bit %d", c, w, j);
    }
    cr_log_info("%d cycles, %ld issues, %ld GTO fallbacks, %ld of them not to the lowest warp id", cycles, issues,
                fallbacks, fallbacks_not_lowest_id);
    /* the run must actually have exercised age order that differs from warp-id order */
    cr_assert_gt(fallbacks, cycles / 2, "fallbacks %ld", fallbacks);
    cr_assert_gt(fallbacks_not_lowest_id, cycles / 20, "fallbacks not to the lowest id: %ld", fallbacks_not_lowest_id);
    cr_assert_gt(issues, (long)cycles * NS / 2, "issues %ld (half a warp instruction per scheduler and cycle at least)", issues);
}
