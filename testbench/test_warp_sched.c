/* test_warp_sched.c: Criterion unit tests of the warp_sched C model (cmodel/warp_sched.c).
 * The contract is docs/warp_sched.md; every expected value below is derived from it, written with
 * the SMK_* macros so that the tests hold on every configuration hwgen accepts (any SMK_SCHED,
 * SMK_LWARPS 1..64, SMK_KSLOTS 1..16). A test that needs more than a configuration has (two warps
 * per scheduler to order, two kernel slots to tell apart) says so with U_NEEDS and is skipped there.
 *
 * Sequences are written in local indices and replicated over all schedulers (u_rep64): every
 * scheduler sees the same pattern and must issue s + l*S. Slots: 0, KB (slot 1, or 0 with one
 * slot) and KC (the last slot); expectations are accumulated per slot index, so slots that coincide
 * on a small configuration add up. */
#include <criterion/criterion.h>

#include "unit_util.h"

/* a model that loops (e.g. a broken age order) fails the test instead of hanging the run */
TestSuite(warp_sched, .timeout = 240); /* 15 kernel slots: the random test reaches it (docs/verification.md) */

#define NS SMK_SCHED
#define NLW SMK_LWARPS
#define NK SMK_KSLOTS
#define NW SMK_WARPS
#define KALL ((uint32_t)SMK_MASK(NK))
#define LALL U_LALL
#define GTO SMK_POLICY_GTO
#define LRR SMK_POLICY_LRR
#define LB(l) u_lb(l) /* local-index bit (64-bit local masks: any LWARPS) */
#define KB ((uint32_t)(NK > 1 ? 1 : 0)) /* a second slot where there is one */
#define KC ((uint32_t)(NK - 1))         /* the last slot */

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

/* the eligibility tests' bench: launch 0 (local warp 0 of every scheduler) in kernel slot A, then
 * launch 1 (local warp 1) in slot B, so that on each scheduler warp 0 is of A and older */
static void two_slots(bench_t *b, uint32_t A, uint32_t B)
{
    b_init(b);
    b_launch(b, u_rep64(LB(0)), A);
    b_launch(b, u_rep64(LB(1)), B);
}
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
    uint32_t policy;
    uint64_t ready; /* local mask */
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

/* idle_cnt[k] of the next cycle: the count of the cycle just committed (docs/warp_sched.md rule 5:
 * registered, a function of the state only, so any inputs give it) */
static int nidle(const bench_t *b, int k)
{
    ws_out_t o;
    ws_eval(&b->ws, &b->in, &o);
    return o.idle_cnt[k];
}

/* An idle count made of eligible warps that lost arbitration only (no pblk): with WS_IDLE_ARB = 0
 * (docs/warp_sched.md clock-edge rule 5) they do not count */
#define ARB(n) (WS_IDLE_ARB ? (n) : 0)

static void run_seq(bench_t *b, const step_t *q, int n, const char *what)
{
    for (int i = 0; i < n; i++) {
        ws_in_t in = b->in;
        in.policy = q[i].policy, in.ready = u_rep64(q[i].ready), in.qallow = b->in.qallow & ~q[i].qoff;
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
    cr_assert_eq(ws.idle_r, 0);

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
    b_launch(&b, SMK_WMASK_ALL, KC);
    cr_assert_eq(b.out.ks_active, 0u, "ks_active is of the state before the launch edge");
    for (int w = 0; w < NW; w++) {
        b.in.policy = GTO, b.in.ready = u_bit(w);
        ws_step(&b.ws, &b.in, &b.out);
        cr_assert_eq(b.out.iss_v, 1u << (w % NS), "warp %d", w);
        for (int s = 0; s < NS; s++) {
            cr_assert_eq(b.out.iss_wid[s], s == w % NS ? w : 0, "warp %d sched %d", w, s);
            cr_assert_eq(b.out.iss_ks[s], s == w % NS ? KC : 0, "warp %d sched %d", w, s);
        }
        for (int k = 0; k < NK; k++) {
            cr_assert_eq(nidle(&b, k), 0);
            cr_assert_eq(b.out.held_cnt[k], 0);
        }
        cr_assert_eq(b.out.ks_active, 1u << KC);
        cr_assert_eq(b.out.wvalid, SMK_WMASK_ALL);
    }

    /* fresh: one TB of all warps, everything ready: scheduler s issues its oldest, warp s */
    b_init(&b);
    b_launch(&b, SMK_WMASK_ALL, KC);
    b.in.ready = SMK_WMASK_ALL;
    ws_step(&b.ws, &b.in, &b.out);
    check_issue(&b.out, 0, KC, "all ready", 0);
    for (int k = 0; k < NK; k++)
        cr_assert_eq(nidle(&b, k), k == (int)KC ? ARB(NW - NS) : 0, "idle_cnt[%d]", k);

    /* only scheduler 1's warps ready: only scheduler 1 issues */
    if (NS < 2)
        return; /* one scheduler: no other scheduler's warps */
    b.in.ready = ws_sched_mask(1);
    ws_step(&b.ws, &b.in, &b.out);
    cr_assert_eq(b.out.iss_v, 2u);
    cr_assert_eq(b.out.iss_wid[0], 0);
    cr_assert_eq(b.out.iss_wid[1], 1);
    cr_assert_eq(nidle(&b, KC), ARB(NLW - 1));
}

/* local i of n spread over the scheduler's local indices in increasing order (0 and LW-1 at the
 * ends; distinct when n <= LW): the sequences reach the high local indices of a large LW */
static int spread(int i, int n) { return n > 1 ? i * (NLW - 1) / (n - 1) : 0; }

Test(warp_sched, gto_greedy_sequence, .description = "GTO keeps the last warp while eligible, else the oldest")
{
    U_NEEDS(NLW >= 4); /* four warps per scheduler in age order */
    const int a = spread(0, 4), bb = spread(1, 4), c = spread(2, 4), d = spread(3, 4); /* a oldest */
    bench_t b;
    b_init(&b);
    b_launch(&b, SMK_WMASK_ALL, 0); /* one TB: age = warp order */
    const step_t q[] = {
        {GTO, LALL, a, 0, 0},             /* last_v = 0 after reset: oldest */
        {GTO, LALL, a, 0, 0},             /* greedy */
        {GTO, LB(c), c, 0, 0},            /* only c ready */
        {GTO, LALL, c, 0, 0},             /* greedy c, not the oldest a */
        {GTO, LALL & ~LB(c), a, 0, 0},    /* greedy not ready: oldest */
        {GTO, LALL, a, 0, 0},             /* greedy is now a */
        {GTO, 0, -1, 0, 0},               /* nothing ready */
        {GTO, LALL, a, 0, 0},             /* greedy survives the idle cycle */
        {GTO, LB(c) | LB(d), c, 0, 0},    /* oldest of {c,d} */
        {GTO, LB(d) | LB(bb), bb, 0, 0},  /* c not ready: oldest of {bb,d} */
        {GTO, LALL, bb, 0, 0},            /* greedy bb */
        {GTO, LALL, -1, 0, KALL},         /* quota blocks everything */
        {GTO, LB(a) | LB(bb) | LB(d), bb, 0, 0}, /* greedy bb survives the blocked cycle */
        {GTO, LB(a) | LB(d), a, 0, 0},
        {GTO, LB(d), d, 0, 0},
        {GTO, LB(c) | LB(d), d, 0, 0},    /* greedy d beats the older c */
        {GTO, LB(c), c, 0, 0},
    };
    run_seq(&b, q, (int)(sizeof q / sizeof q[0]), "gto");
    for (int s = 0; s < NS; s++)
        cr_assert_eq(b.ws.last[s], c);
    cr_assert_eq(b.ws.last_v, (uint32_t)SMK_MASK(NS));
}

/* Each step issues the oldest of the warps not issued yet in this list (the issued warp is not ready
 * afterwards, and the greedy warp `skip` never is): expected locals ord[0..n), slots ks[local]. */
static void run_oldest(bench_t *b, const int *ord, int n, uint64_t skip, const uint32_t *ks, const char *what)
{
    uint64_t left = 0;
    for (int i = 0; i < n; i++)
        left |= LB(ord[i]);
    for (int i = 0; i < n; i++) {
        const step_t one = {GTO, left & ~skip, ord[i], ks[ord[i]], 0};
        run_seq(b, &one, 1, what);
        left &= ~LB(ord[i]);
    }
}

Test(warp_sched, gto_age_by_launch, .description = "GTO age assigned at TB launch, warp order within a TB")
{
    U_NEEDS(NLW >= 2); /* two TBs in one scheduler */
    /* TB A = locals [h, LW) (slot 0) first, TB B = locals [0, h) (slot KB) later: B is younger */
    const int h = NLW / 2, na = NLW - h, nc = na >= 3 ? 2 : (na + 1) / 2;
    uint32_t ks[64];
    int ord[64], n = 0;
    bench_t b;
    b_init(&b);
    b_launch(&b, u_rep64(u_lrange(h, NLW)), 0);
    b_launch(&b, u_rep64(u_lrange(0, h)), KB);
    for (int l = 0; l < NLW; l++)
        ks[l] = l < h ? KB : 0;
    for (int l = h; l < NLW; l++)
        ord[n++] = l;
    for (int l = 0; l < h; l++)
        ord[n++] = l;
    run_oldest(&b, ord, n, 0, ks, "age1");

    /* TB C = the first nc locals of A finish and are launched again later (slot KC): youngest.
     * Age order now: A's rest; B; C. The greedy warp (B's last, g) is left out of the issues. */
    const int g = h - 1;
    b_finish(&b, u_rep64(u_lrange(h, h + nc)));
    b_launch(&b, u_rep64(u_lrange(h, h + nc)), KC);
    for (int l = h; l < h + nc; l++)
        ks[l] = KC;
    int ord2[64], n2 = 0;
    for (int l = h + nc; l < NLW; l++)
        ord2[n2++] = l;
    for (int l = 0; l < h; l++)
        ord2[n2++] = l;
    for (int l = h; l < h + nc; l++)
        ord2[n2++] = l;
    int iss[64], ni = 0;
    for (int i = 0; i < n2; i++)
        if (ord2[i] != g)
            iss[ni++] = ord2[i];
    run_oldest(&b, iss, ni, LB(g), ks, "age2");
    if (nc >= 2 && na > nc) { /* pairs without the greedy warp (C's last): needs two C warps and A's rest */
        const step_t q2[] = {
            {GTO, LB(g) | LB(h), g, KB, 0},          /* B's last is older than C's first */
            {GTO, LB(h) | LB(h + nc), h + nc, 0, 0}, /* A's rest is older than C's first */
        };
        run_seq(&b, q2, 2, "age2 pairs");
    }

    /* the age matrix as the spec defines it: older[w] = valid warps of its scheduler launched before */
    for (int s = 0; s < NS; s++)
        for (int i = 0; i < n2; i++) {
            wmask_t exp = 0;
            for (int j = 0; j < i; j++)
                exp |= u_bit(u_wid(s, ord2[j]));
            cr_assert_eq(b.ws.older[u_wid(s, ord2[i])], exp, "older of sched %d local %d", s, ord2[i]);
        }
}

Test(warp_sched, greedy_dropped_on_finish_or_relaunch, .description = "last_v cleared when the greedy warp finishes or is relaunched")
{
    U_NEEDS(NLW >= 4); /* locals 0..3: TB A's oldest two, TB B, TB C */
    bench_t b;
    b_init(&b);
    b_launch(&b, u_rep64(LALL), 0);
    const step_t q1[] = {{GTO, LALL, 0, 0, 0}, {GTO, LB(2), 2, 0, 0}};
    run_seq(&b, q1, 2, "setup");
    cr_assert_eq(b.ws.last_v, (uint32_t)SMK_MASK(NS));

    /* the greedy warp 2 issues in the cycle in which it finishes */
    b.in.ready = u_rep64(LALL), b.in.finish_mask = u_rep64(LB(2)), b.in.policy = GTO;
    ws_step(&b.ws, &b.in, &b.out);
    b.in.finish_mask = 0;
    check_issue(&b.out, 2, 0, "finishing", 0);
    for (int s = 0; s < NS; s++)
        cr_assert_eq(b.ws.last[s], 2);
    cr_assert_eq(b.ws.last_v, 0u, "finished greedy warp dropped");
    cr_assert_eq(b.ws.valid, u_rep64(LALL & ~LB(2)));

    /* slot 2 relaunched (TB B, slot KB): last[s] names it but last_v = 0, so GTO takes the oldest */
    b_launch(&b, u_rep64(LB(2)), KB);
    const step_t q2[] = {{GTO, LALL, 0, 0, 0}, {GTO, LALL, 0, 0, 0}};
    run_seq(&b, q2, 2, "after relaunch");

    /* finish + launch of the greedy warp 0 in one cycle (new TB C, slot KC): dropped too */
    b_launch_fin(&b, u_rep64(LB(0)), KC, u_rep64(LB(0)));
    cr_assert_eq(b.ws.last_v, 0u);
    cr_assert_eq(b.ws.valid, u_rep64(LALL));
    /* age order: A 1,3,4,...,LW-1; B 2; C 0 */
    const step_t q3[] = {
        {GTO, LALL, 1, 0, 0},
        {GTO, LALL & ~LB(1), 3, 0, 0},
        {GTO, LB(0) | LB(2), 2, KB, 0},
        {GTO, LB(0), 0, KC, 0},
    };
    run_seq(&b, q3, 4, "after finish+launch");

    /* relaunch without finish (environment error, still defined): greedy 0 dropped, 0 youngest */
    b_launch(&b, u_rep64(LB(0)), 0);
    cr_assert_eq(b.ws.last_v, 0u);
    const step_t q4[] = {{GTO, LALL, 1, 0, 0}, {GTO, LB(0) | LB(2), 2, KB, 0}};
    run_seq(&b, q4, 2, "after relaunch of a valid warp");

    /* a finish of some other warp keeps the greedy warp */
    b_finish(&b, u_rep64(LB(NLW - 1)));
    cr_assert_eq(b.ws.last_v, (uint32_t)SMK_MASK(NS));
    const step_t q5[] = {{GTO, LALL, 2, KB, 0}};
    run_seq(&b, q5, 1, "other finish");
}

Test(warp_sched, lrr_sequence, .description = "LRR from the warp after the last issued, wrap-around")
{
    U_NEEDS(NLW >= 4); /* locals 0..3 and LW-1 */
    bench_t b;
    b_init(&b);
    b_launch(&b, u_rep64(LALL), 0);
    const uint64_t r = LB(0) | LB(2) | LB(3), e = LB(NLW - 1) | LB(1);
    const int after = 4 % NLW; /* the local after 3 */
    const step_t q[] = {
        {LRR, LALL, 0, 0, 0}, /* starts at local 0 after reset */
        {LRR, LALL, 1, 0, 0},
        {LRR, r, 2, 0, 0},
        {LRR, r, 3, 0, 0},
        {LRR, r, 0, 0, 0}, /* wrap */
        {LRR, 0, -1, 0, 0},
        {LRR, LB(0), 0, 0, 0}, /* the last warp itself comes last in the order, LW steps on */
        {LRR, e, 1, 0, 0},
        {LRR, e, NLW - 1, 0, 0},
        {LRR, e, 1, 0, 0}, /* wrap */
        {LRR, LALL & ~LB(2), 3, 0, 0},
        {LRR, LALL, -1, 0, 1u}, /* slot 0 (every warp) has no quota: no issue, last stays 3 */
        {LRR, LALL, after, 0, 0},
    };
    run_seq(&b, q, (int)(sizeof q / sizeof q[0]), "lrr");
    for (int i = 0; i < 2 * NLW; i++) {
        const step_t one = {LRR, LALL, (after + 1 + i) % NLW, 0, 0};
        run_seq(&b, &one, 1, "lrr round");
    }

    /* fresh: after reset the order starts at local 0 (last = LW-1) */
    b_init(&b);
    b_launch(&b, u_rep64(LALL), 0);
    const step_t f1[] = {{LRR, LB(NLW - 1) | LB(1), 1, 0, 0}};
    run_seq(&b, f1, 1, "fresh1");
    b_init(&b);
    b_launch(&b, u_rep64(LALL), 0);
    const step_t f2[] = {{LRR, LB(NLW - 1) | LB(0), 0, 0, 0}, {LRR, LB(NLW - 1) | LB(0), NLW - 1, 0, 0}};
    run_seq(&b, f2, 2, "fresh2");
}

Test(warp_sched, lrr_keeps_position_on_finish, .description = "LRR position survives a finish/relaunch of the last warp")
{
    U_NEEDS(NLW >= 3); /* a finished warp between two others */
    bench_t b;
    b_init(&b);
    b_launch(&b, u_rep64(LALL), 0);
    const step_t q1[] = {{LRR, LALL, 0, 0, 0}, {LRR, LALL, 1, 0, 0}};
    run_seq(&b, q1, 2, "lrr1");
    b_finish(&b, u_rep64(LB(1)));
    cr_assert_eq(b.ws.last_v, 0u);
    for (int s = 0; s < NS; s++)
        cr_assert_eq(b.ws.last[s], 1);
    const step_t q2[] = {{LRR, LALL, 2, 0, 0}};
    run_seq(&b, q2, 1, "lrr2");
    /* relaunch of the last-issued warp 2 (finish + launch): LRR continues after it (local 1 is gone) */
    b_launch_fin(&b, u_rep64(LB(2)), KB, u_rep64(LB(2)));
    const step_t q3[] = {{LRR, LALL, 3 % NLW, 0, 0}, {LRR, LB(2), 2, KB, 0}};
    run_seq(&b, q3, 2, "lrr3");
}

Test(warp_sched, policy_switch, .description = "policy input switched between GTO and LRR at run time")
{
    U_NEEDS(NLW >= 4); /* locals 0..3 */
    bench_t b;
    b_init(&b);
    b_launch(&b, u_rep64(LALL), 0);
    const uint64_t t = LB(2) | LB(3);
    const step_t q[] = {
        {GTO, LALL, 0, 0, 0},
        {GTO, LALL, 0, 0, 0},
        {LRR, LALL, 1, 0, 0},
        {LRR, LALL, 2, 0, 0},
        {GTO, LALL, 2, 0, 0},          /* greedy continues LRR's last warp */
        {GTO, LALL & ~LB(2), 0, 0, 0}, /* oldest */
        {LRR, LALL, 1, 0, 0},
        {GTO, t, 2, 0, 0},             /* greedy 1 not ready: oldest of {2,3} */
        {LRR, t, 3, 0, 0},
        {LRR, t, 2, 0, 0},             /* wrap */
        {GTO, t, 2, 0, 0},             /* greedy */
    };
    run_seq(&b, q, (int)(sizeof q / sizeof q[0]), "switch");
}

Test(warp_sched, eligibility_one_warp, .description = "ready, stop and qallow each gate one warp's issue; idle/held/ks_active")
{
    /* one warp x (the last scheduler's last local, slot KC) on the SM: every configuration */
    const int sx = NS - 1, x = u_wid(sx, NLW - 1);
    bench_t b;
    b_init(&b);
    b_launch(&b, u_bit(x), KC);
    const wmask_t others = SMK_WMASK_ALL & ~u_bit(x); /* never launched */
    struct {
        wmask_t ready, stop;
        uint32_t qallow;
        int iss, held;
    } c[] = {
        {u_bit(x), 0, KALL, 1, 0},
        {0, 0, KALL, 0, 0},
        {u_bit(x), u_bit(x), KALL, 0, 0},            /* stopped: neither idle nor held */
        {u_bit(x), u_bit(x), KALL & ~(1u << KC), 0, 0},
        {u_bit(x), 0, KALL & ~(1u << KC), 0, 1},     /* held by quota only */
        {u_bit(x), 0, 1u << KC, 1, 0},               /* its own slot's quota is enough */
        {u_bit(x), others, KALL, 1, 0},              /* stop on the other warps */
        {others, 0, KALL, 0, 0},                     /* ready on invalid warps */
        {SMK_WMASK_ALL, 0, 0, 0, 1},
    };
    for (int i = 0; i < (int)(sizeof c / sizeof c[0]); i++) {
        b.in.policy = i % 2 ? LRR : GTO, b.in.ready = c[i].ready, b.in.stop = c[i].stop, b.in.qallow = c[i].qallow;
        ws_step(&b.ws, &b.in, &b.out);
        cr_assert_eq(b.out.iss_v, c[i].iss ? 1u << sx : 0u, "case %d: iss_v", i);
        for (int s = 0; s < NS; s++) {
            cr_assert_eq(b.out.iss_wid[s], c[i].iss && s == sx ? x : 0, "case %d sched %d: iss_wid", i, s);
            cr_assert_eq(b.out.iss_ks[s], c[i].iss && s == sx ? KC : 0u, "case %d sched %d: iss_ks", i, s);
        }
        for (int k = 0; k < NK; k++) {
            cr_assert_eq(nidle(&b, k), 0, "case %d: idle_cnt[%d]", i, k);
            cr_assert_eq(b.out.held_cnt[k], k == (int)KC ? c[i].held : 0, "case %d: held_cnt[%d]", i, k);
        }
        cr_assert_eq(b.out.ks_active, 1u << KC, "case %d: ks_active", i);
        cr_assert_eq(b.out.wvalid, u_bit(x), "case %d: wvalid", i);
    }
}

Test(warp_sched, eligibility_gates, .description = "ready, stop and qallow each gate issue; idle/held per gate")
{
    U_NEEDS(NK >= 2 && NLW >= 2); /* one warp in each of two slots, one scheduler */
    const int s1 = NS > 1;
    const uint32_t A = 0, B = KC;
    bench_t b;
    two_slots(&b, A, B);
    const int x = u_wid(s1, 1), y = u_wid(s1, 0); /* x: slot B, y: slot A and older */
    /* a warp of scheduler s1 that was never launched (none with two warps per scheduler: then
     * this case repeats "nothing ready") */
    const wmask_t inval = NLW >= 3 ? u_bit(u_wid(s1, 2)) : 0;
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
        {inval, 0, KALL, -1, 0, 0, 0, 0},                  /* ready on an invalid warp */
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
        cr_assert_eq(nidle(&b, A), ARB(c[i].idle_a), "case %d: idle A (next cycle)", i);
        cr_assert_eq(nidle(&b, B), ARB(c[i].idle_b), "case %d: idle B (next cycle)", i);
        cr_assert_eq(b.out.held_cnt[A], c[i].held_a, "case %d: held A", i);
        cr_assert_eq(b.out.held_cnt[B], c[i].held_b, "case %d: held B", i);
        cr_assert_eq(b.out.ks_active, (1u << A) | (1u << B), "case %d: ks_active", i);
    }
}

Test(warp_sched, idle_pipeline_blocked, .description = "pblk: a pipeline-blocked warp is idle when valid, not stopped, allowed; never held")
{
    U_NEEDS(NK >= 2 && NLW >= 2); /* one warp in each of two slots, one scheduler */
    const int s1 = NS > 1;
    const uint32_t A = 0, B = KC;
    bench_t b;
    two_slots(&b, A, B);
    const int x = u_wid(s1, 1), y = u_wid(s1, 0); /* x: slot B, y: slot A and older */
    const wmask_t X = u_bit(x), Y = u_bit(y);
    const wmask_t inval = NLW >= 3 ? u_bit(u_wid(s1, 2)) : 0; /* never launched */
    const int arb = WS_IDLE_ARB; /* an eligible warp beaten by another counts idle too */
    struct {
        wmask_t ready, pblk, stop;
        uint32_t qallow;
        int wid; /* expected issue of scheduler s1, -1 none */
        int idle_a, idle_b, held_a, held_b;
    } c[] = {
        {0, X, 0, KALL, -1, 0, 1, 0, 0},                 /* (a) blocked by its pipeline: idle */
        {0, X | Y, 0, KALL, -1, 1, 1, 0, 0},
        {0, X, X, KALL, -1, 0, 0, 0, 0},                 /* stopped: neither idle nor held */
        {0, X, 0, KALL & ~(1u << B), -1, 0, 0, 0, 0},    /* quota-blocked: neither idle nor held */
        {Y, X, 0, KALL, y, 0, 1, 0, 0},                  /* y issues beside a blocked x */
        {Y, X, 0, 1u << A, y, 0, 0, 0, 0},               /* x blocked by both: not idle, not held */
        {X | Y, 0, 0, KALL, y, 0, arb, 0, 0},            /* (b) greedy y issues, x lost arbitration */
        {0, inval, 0, KALL, -1, 0, 0, 0, 0},             /* pblk on an invalid warp */
        {X, X, 0, KALL, x, 0, 0, 0, 0},                  /* broken contract: ready decides, x issues */
        {X | Y, X | Y, 0, KALL, x, 1, 0, 0, 0},          /* broken contract: greedy x issues, y idle */
        {X | Y, X | Y, 0, 0, -1, 0, 0, 1, 1},            /* nothing allowed: held, not idle */
    };
    for (int i = 0; i < (int)(sizeof c / sizeof c[0]); i++) {
        b.in.policy = GTO, b.in.ready = c[i].ready, b.in.pblk = c[i].pblk, b.in.stop = c[i].stop;
        b.in.qallow = c[i].qallow;
        ws_step(&b.ws, &b.in, &b.out);
        cr_assert_eq(b.out.iss_v, c[i].wid < 0 ? 0u : 1u << s1, "case %d: iss_v", i);
        cr_assert_eq(b.out.iss_wid[s1], c[i].wid < 0 ? 0 : c[i].wid, "case %d: iss_wid", i);
        cr_assert_eq(nidle(&b, A), c[i].idle_a, "case %d: idle A (next cycle)", i);
        cr_assert_eq(nidle(&b, B), c[i].idle_b, "case %d: idle B (next cycle)", i);
        cr_assert_eq(b.out.held_cnt[A], c[i].held_a, "case %d: held A", i);
        cr_assert_eq(b.out.held_cnt[B], c[i].held_b, "case %d: held B", i);
    }
    /* a blocked warp that finishes at the edge is counted; one relaunched at the edge is not */
    b.in.ready = 0, b.in.pblk = X | Y, b.in.stop = 0, b.in.qallow = KALL;
    {
        ws_in_t in = b.in;
        in.finish_mask = X;
        ws_step(&b.ws, &in, &b.out);
        cr_assert_eq(nidle(&b, A), 1, "finish: idle A");
        cr_assert_eq(nidle(&b, B), 1, "finish: idle B (x finished at the edge)");
        in.finish_mask = Y, in.launch_v = 1, in.launch_mask = Y, in.launch_ks = B;
        ws_step(&b.ws, &in, &b.out);
        cr_assert_eq(nidle(&b, A), 0, "relaunch: y relaunched at the edge is not counted");
        cr_assert_eq(nidle(&b, B), 0, "relaunch: x is no longer valid");
    }
    /* every warp of the SM blocked: all of them idle, in their slots */
    b.in.pblk = SMK_WMASK_ALL;
    ws_step(&b.ws, &b.in, &b.out);
    /* valid: local 0 of the other schedulers in A; local 1 of the other schedulers and y in B */
    cr_assert_eq(nidle(&b, A), NS - 1, "all blocked: idle A");
    cr_assert_eq(nidle(&b, B), NS, "all blocked: idle B");
}

Test(warp_sched, idle_held_counts, .description = "idle_cnt, held_cnt, ks_active exact with three kernels")
{
    U_NEEDS(NK >= 2 && NLW >= 5); /* TBs of slots A and B (two warps each, one stopped or not ready) and C */
    /* slots: A = 0 (locals [0, nA)), B = 1 ([nA, nA+nB)), C = NK-1 (the rest), launched in that
     * order. Expected counts are accumulated per slot index, so C == B (NK = 2) also works. */
    const uint32_t A = 0, B = 1, C = KC;
    const int nA = NLW / 3 > 2 ? NLW / 3 : 2, nB = nA, nC = NLW - nA - nB;
    const uint64_t LA = u_lrange(0, nA), LBm = u_lrange(nA, nA + nB), LC = u_lrange(nA + nB, NLW);
    bench_t b;
    b_init(&b);
    b_launch(&b, u_rep64(LA), A);
    b_launch(&b, u_rep64(LBm), B);
    b_launch(&b, u_rep64(LC), C);
    int idle[NK], held[NK];
#define EXPECT(tag)                                                                              \
    for (int k = 0; k < NK; k++) {                                                               \
        cr_assert_eq(nidle(&b, k), ARB(idle[k]), "%s: next cycle's idle_cnt[%d] = %d, expected %d", tag, \
                     k, nidle(&b, k), ARB(idle[k]));                                             \
        cr_assert_eq(b.out.held_cnt[k], held[k], "%s: held_cnt[%d] = %d, expected %d", tag, k,     \
                     b.out.held_cnt[k], held[k]);                                                \
    }
#define CLR() memset(idle, 0, sizeof idle), memset(held, 0, sizeof held)
    const uint32_t act = (1u << A) | (1u << B) | (1u << C);

    /* cycle 1: ready all but B's last local, warp (sched 0, A's last local) stopped, quota for all.
     * Every scheduler issues its oldest, local 0 (A). */
    b.in.policy = GTO, b.in.ready = u_rep64(LALL & ~LB(nA + nB - 1)), b.in.stop = u_bit(u_wid(0, nA - 1));
    b.in.qallow = KALL;
    ws_step(&b.ws, &b.in, &b.out);
    check_issue(&b.out, 0, A, "c1", 0);
    CLR();
    idle[A] += nA * NS - 1 - NS, idle[B] += (nB - 1) * NS, idle[C] += nC * NS;
    EXPECT("c1");
    cr_assert_eq(b.out.ks_active, act);

    /* cycle 2: A has no quota: greedy 0 not eligible, oldest eligible is B's first local */
    b.in.qallow = KALL & ~(1u << A);
    ws_step(&b.ws, &b.in, &b.out);
    check_issue(&b.out, nA, B, "c2", 0);
    CLR();
    idle[B] += (nB - 1) * NS - NS, idle[C] += nC * NS, held[A] += nA * NS - 1;
    EXPECT("c2");

    /* cycle 3: no quota at all */
    b.in.qallow = 0;
    ws_step(&b.ws, &b.in, &b.out);
    check_issue(&b.out, -1, 0, "c3", 0);
    CLR();
    held[A] += nA * NS - 1, held[B] += (nB - 1) * NS, held[C] += nC * NS;
    EXPECT("c3");

    /* cycle 4: quota only for C, everything ready, all B warps stopped (neither idle nor held):
     * C's first (oldest) local issues */
    b.in.qallow = 1u << C, b.in.ready = SMK_WMASK_ALL, b.in.stop = u_rep64(LBm);
    ws_step(&b.ws, &b.in, &b.out);
    check_issue(&b.out, nA + nB, C, "c4", 0);
    CLR();
    held[A] += nA * NS, idle[C] += (nC - 1) * NS;
    EXPECT("c4");

    /* cycle 5: everything allowed, nothing stopped: greedy (C's first) keeps issuing */
    b.in.qallow = KALL, b.in.stop = 0;
    ws_step(&b.ws, &b.in, &b.out);
    check_issue(&b.out, nA + nB, C, "c5", 0);
    CLR();
    idle[A] += nA * NS, idle[B] += nB * NS, idle[C] += (nC - 1) * NS;
    EXPECT("c5");

    /* A finishes: its stale slot ids are not counted any more; ks_active drops A */
    b_finish(&b, u_rep64(LA));
    cr_assert_eq(b.out.ks_active, act, "outputs of the finishing cycle still see A");
    ws_step(&b.ws, &b.in, &b.out);
    cr_assert_eq(b.out.ks_active, (1u << B) | (1u << C));
    check_issue(&b.out, nA + nB, C, "c6", 0);
    CLR();
    idle[B] += nB * NS, idle[C] += (nC - 1) * NS;
    EXPECT("c6");
    b_finish(&b, u_rep64(LBm | LC));
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
    U_NEEDS(NLW >= 4); /* TB 0 of two warps, TB 1, a free warp slot */
    /* TB 0 = locals [0, n0) slot 0, TB 1 = [n0, LW-1) slot KB, local LW-1 free */
    const int n0 = (NLW - 1) / 2 > 2 ? (NLW - 1) / 2 : 2, fr = NLW - 1;
    const uint64_t T0 = u_lrange(0, n0), T1 = u_lrange(n0, fr), V = T0 | T1;
    bench_t b;
    b_init(&b);
    b_launch(&b, u_rep64(T0), 0);
    b_launch(&b, u_rep64(T1), KB);
    /* launch_v = 0: launch_mask is ignored */
    {
        ws_in_t in = b.in;
        in.launch_mask = u_rep64(LB(fr) | LB(0)), in.launch_ks = KC;
        ws_step(&b.ws, &in, &b.out);
        cr_assert_eq(b.ws.valid, u_rep64(V));
        for (int s = 0; s < NS; s++)
            cr_assert_eq(b.ws.ks[u_wid(s, 0)], 0);
    }
    b_launch_fin(&b, u_rep64(LB(1)), KC, u_rep64(LB(1)));
    cr_assert_eq(b.ws.valid, u_rep64(V), "valid unchanged");
    for (int s = 0; s < NS; s++)
        cr_assert_eq(b.ws.ks[u_wid(s, 1)], KC);
    b.in.ready = 0;
    ws_step(&b.ws, &b.in, &b.out);
    cr_assert_eq(b.out.ks_active, 1u | (1u << KB) | (1u << KC));
    cr_assert_eq(b.out.wvalid, u_rep64(V));
    /* age order: TB 0 without 1, TB 1, then the relaunched warp 1 (the youngest) */
    uint32_t ks[64];
    int ord[64], n = 0;
    for (int l = 0; l < NLW; l++)
        ks[l] = l == 1 ? KC : l < n0 ? 0 : KB;
    for (int l = 0; l < fr; l++)
        if (l != 1)
            ord[n++] = l;
    ord[n++] = 1;
    run_oldest(&b, ord, n, 0, ks, "relaunch");

    /* finish only: the warps vanish; TB 1 gone -> ks_active drops slot KB (unless warp 1 holds it) */
    b_finish(&b, u_rep64(T1));
    for (int s = 0; s < NS; s++)
        cr_assert_eq(b.ws.ks[u_wid(s, n0)], KB, "finished warps keep their stale slot");
    b.in.ready = SMK_WMASK_ALL;
    ws_step(&b.ws, &b.in, &b.out);
    cr_assert_eq(b.out.ks_active, 1u | (1u << KC));
    cr_assert_eq(b.out.wvalid, u_rep64(T0));
    check_issue(&b.out, 1, KC, "greedy 1 after the finish", 0);
    int idle[NK] = {0};
    idle[0] += (n0 - 1) * NS; /* TB 0 but the issued warp 1 (slot KC: no idle warp left there) */
    for (int k = 0; k < NK; k++)
        cr_assert_eq(nidle(&b, k), ARB(idle[k]), "idle_cnt[%d] (next cycle)", k);
}

Test(warp_sched, idle_cnt_registered, .description = "idle_cnt is the last cycle's idle warps (rule 5), relaunched warps left out")
{
    U_NEEDS(NLW >= 2); /* an idle warp beside the issued one in each scheduler */
    bench_t b;
    b_init(&b);
    b_launch(&b, SMK_WMASK_ALL, KC);
    /* cycle 1: every warp ready, each scheduler issues one: NW - NS idle, seen from cycle 2 on */
    b.in.policy = GTO, b.in.ready = SMK_WMASK_ALL;
    ws_step(&b.ws, &b.in, &b.out);
    check_issue(&b.out, 0, KC, "c1", 0);
    for (int k = 0; k < NK; k++)
        cr_assert_eq(b.out.idle_cnt[k], 0, "c1: idle_cnt[%d] is the launch cycle's (none eligible)", k);
    /* cycle 2: nothing ready: the output is cycle 1's count */
    b.in.ready = 0;
    ws_step(&b.ws, &b.in, &b.out);
    for (int k = 0; k < NK; k++)
        cr_assert_eq(b.out.idle_cnt[k], k == (int)KC ? ARB(NW - NS) : 0, "c2: idle_cnt[%d] = cycle 1's", k);
    /* cycle 3: cycle 2 had no idle warp */
    b.in.ready = SMK_WMASK_ALL;
    ws_step(&b.ws, &b.in, &b.out);
    for (int k = 0; k < NK; k++)
        cr_assert_eq(b.out.idle_cnt[k], 0, "c3: idle_cnt[%d] = cycle 2's", k);
    /* cycle 4: everything ready again, and the youngest local warps finish and are relaunched into
     * slot 0 at this edge: idle in cycle 4 but not counted in cycle 5 */
    {
        ws_in_t in = b.in;
        in.finish_mask = u_rep64(LB(NLW - 1)), in.launch_v = 1, in.launch_mask = in.finish_mask, in.launch_ks = 0;
        ws_step(&b.ws, &in, &b.out);
        check_issue(&b.out, 0, KC, "c4", 0); /* greedy: local 0 */
        cr_assert_eq(b.out.idle_cnt[KC], ARB(NW - NS), "c4: cycle 3's count");
    }
    b.in.ready = 0;
    ws_step(&b.ws, &b.in, &b.out);
    for (int k = 0; k < NK; k++)
        cr_assert_eq(b.out.idle_cnt[k], k == (int)KC ? ARB(NW - 2 * NS) : 0, "c5: idle_cnt[%d] without the relaunched warps", k);
}

#if (1 << SMK_KS_W) > SMK_KSLOTS
Test(warp_sched, bad_slot_never_eligible, .description = "a warp launched with slot id >= K is never eligible")
{
    bench_t b;
    b_init(&b);
    b_launch(&b, SMK_WMASK_ALL, SMK_KSLOTS);
    b.in.ready = SMK_WMASK_ALL, b.in.qallow = KALL;
    ws_step(&b.ws, &b.in, &b.out);
    check_issue(&b.out, -1, 0, "bad slot", 0);
    cr_assert_eq(b.out.ks_active, 0u);
    for (int k = 0; k < NK; k++)
        cr_assert_eq(nidle(&b, k) | b.out.held_cnt[k], 0, "neither idle nor held");
    /* the youngest local relaunched in slot 0 issues; the older bad-slot warps never do */
    b_launch_fin(&b, u_rep64(LB(NLW - 1)), 0, u_rep64(LB(NLW - 1)));
    ws_step(&b.ws, &b.in, &b.out);
    check_issue(&b.out, NLW - 1, 0, "bad slot", 1);
    cr_assert_eq(b.out.ks_active, 1u);
    for (int k = 0; k < NK; k++)
        cr_assert_eq(nidle(&b, k) | b.out.held_cnt[k], 0, "neither idle nor held");
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
    int pidle[NK] = {0}; /* the reference idle count of the last cycle (0 after reset) */

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
        /* pipeline-blocked warps: not ready ones (the contract), ready ones too in 1 cycle of 50 */
        if (rng_chance(&r, 1, 2))
            in.pblk = rng_next(&r) & (rng_chance(&r, 1, 2) ? rng_next(&r) : ~0ULL) &
                      (rng_chance(&r, 1, 50) ? ~0ULL : ~in.ready);

        ws_eval(&b.ws, &in, &b.out);

        /* reference outputs; icand: the warps that count idle unless they issue (clock-edge rule 5:
         * valid, not stopped, allowed, and pipeline-blocked or, with WS_IDLE_ARB, ready) */
        wmask_t cand = valid & in.ready & ~in.stop, elig = 0, icand = 0;
        int eidle[NK] = {0}, eheld[NK] = {0}, iss_k[NK] = {0};
        uint32_t kact = 0;
        for (int w = 0; w < NW; w++) {
            if (!((valid >> w) & 1))
                continue;
            kact |= 1u << ks[w];
            const int alw = (in.qallow >> ks[w]) & 1, stp = (in.stop >> w) & 1;
            if (alw && !stp && (((in.pblk >> w) & 1) || (WS_IDLE_ARB && ((in.ready >> w) & 1))))
                icand |= u_bit(w), eidle[ks[w]]++;
            if (!((cand >> w) & 1))
                continue;
            if (alw)
                elig |= u_bit(w);
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
                iss_k[ks[u_wid(s, l)]] += (int)((icand >> u_wid(s, l)) & 1), issues++;
            cr_assert_eq((b.out.iss_v >> s) & 1, (uint32_t)(l >= 0), "cycle %d sched %d: iss_v", c, s);
            cr_assert_eq(b.out.iss_wid[s], l < 0 ? 0 : u_wid(s, l), "cycle %d sched %d policy %u: issued %d, expected %d",
                         c, s, policy, b.out.iss_wid[s], l < 0 ? 0 : u_wid(s, l));
            cr_assert_eq(b.out.iss_ks[s], l < 0 ? 0 : ks[u_wid(s, l)], "cycle %d sched %d: iss_ks", c, s);
        }
        for (int k = 0; k < NK; k++) {
            cr_assert_eq(b.out.idle_cnt[k], pidle[k], "cycle %d: idle_cnt[%d] (the last cycle's)", c, k);
            cr_assert_eq(b.out.held_cnt[k], eheld[k], "cycle %d: held_cnt[%d]", c, k);
        }
        cr_assert_eq(b.out.ks_active, kact, "cycle %d: ks_active", c);
        cr_assert_eq(b.out.wvalid, valid, "cycle %d: wvalid", c);

        ws_commit(&b.ws, &in, &b.out);

        /* reference edge */
        const wmask_t L = in.launch_v ? in.launch_mask : 0, gone = L | in.finish_mask;
        /* idle: icand, not issued, not launched at this edge, by the slot before the edge */
        wmask_t idle_m = icand & ~L;
        for (int s = 0; s < NS; s++)
            if (ref_l[s] >= 0)
                idle_m &= ~u_bit(u_wid(s, ref_l[s]));
        for (int k = 0; k < NK; k++)
            pidle[k] = 0;
        for (int w = 0; w < NW; w++)
            if ((idle_m >> w) & 1)
                pidle[ks[w]]++;
        for (int k = 0; k < NK; k++) /* without a launch: icand of slot k minus its issues in icand */
            if (!L)
                cr_assert_eq(pidle[k], eidle[k] - iss_k[k], "cycle %d: reference idle[%d]", c, k);
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
    /* the run must actually have exercised age order that differs from warp-id order: GTO fallbacks
     * in an eighth of the scheduler-cycles at least, and fallbacks to a warp other than the lowest
     * eligible id in 1/80 of the scheduler-cycles with 8 warps per scheduler or more, (NLW - 1) / 7
     * of that with fewer (fewer eligible pairs whose age order can differ: about 0.8% of the
     * scheduler-cycles with 3 warps per scheduler); one warp per scheduler has no age order */
    if (NLW >= 2) {
        const long nl = NLW < 8 ? NLW - 1 : 7;
        cr_assert_gt(fallbacks, (long)cycles * NS / 8, "fallbacks %ld", fallbacks);
        cr_assert_gt(fallbacks_not_lowest_id, (long)cycles * NS * nl / (80 * 7), "fallbacks not to the lowest id: %ld",
                     fallbacks_not_lowest_id);
    }
    /* half a warp instruction per scheduler and cycle at least with 8 warps per scheduler or more;
     * fewer warps have an eligible one less often (one warp: about 15% of the cycles) */
    const int lw8 = NLW < 8 ? NLW : 8;
    cr_assert_gt(issues, (long)cycles * NS * lw8 / 16, "issues %ld (%d/16 warp instruction per scheduler and cycle at least)",
                 issues, lw8);
}
