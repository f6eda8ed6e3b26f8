/* test_preempt_engine.c: Criterion unit tests of the preemption-engine C model
 * (cmodel/preempt_engine.c). The contract is docs/preempt_engine.md. Expected cycles come from its
 * general formula ("Timelines and exact cycle counts") for the bench TB below with a fixed-latency
 * memory (lambda = 4, B = 1, cap = 0) unless a test says otherwise; on the named configurations the
 * bench TB is the spec's reference TB (n = 2 warps, R = 2, M = 1, C = 1, so L = 7) and the cycles
 * are the spec's "Criterion tests" table. Cycles are counted from the command's arrival (cycle 0).
 *
 * Derived from the configuration (build/<cfg>/smk_cfg.h): C = SMK_CTL_LINES control lines per
 * warp, R = min(2, RMAX), M = min(1, MMAX) (0 where the SM has no shared memory), k = min(n, OMAX),
 * QD = SMK_PE_QDEPTH; the bench's slots are the spec's (source 1, destination 2, DRAIN 3, empty
 * mask 4, rejected 5, fillers 6, wide round trip 5 -> 7) where T allows, otherwise other slots of
 * 0 .. T-1 with the same roles (TS, TD, ... below; with one TB slot the round trip saves and
 * restores through it). A test that needs more of the SM than a configuration has (priority: a
 * second running TB slot) skips naming that condition (U_NEEDS).
 *
 * The bench: a storage model (control lines, registers per physical warp, shared memory per slot,
 * LB bytes per line), a memory model (lines by address; fixed or random latency, at most one
 * response per cycle; bandwidth one line per B cycles), and the SM top's slot state (tb_run,
 * tb_alloc, tb_idle; free_v / launch_v / tb_done applied at the edge, contract items 2-3). Every
 * cycle is logged; the tests assert on the log. */
#include <criterion/criterion.h>

#include "preempt_engine.h"
#include "unit_util.h"

TestSuite(preempt_engine, .timeout = 60);

#define NT SMK_TB_SLOTS
#define NW SMK_WARPS
#define QD SMK_PE_QDEPTH
#define LB SMK_CTX_LINE
#define IW SMK_CTX_IDX_W
#define WIDW SMK_WID_W
#define PWM SMK_MASK(SMK_CTX_PTR_W)
#define CL SMK_CTL_LINES

/* the bench's slots: the spec's numbers where T allows, else distinct slots of 0 .. T-1 with the
 * same role; TS != TD, TS != TF, T3 != TS, T3 != TF wherever T >= 2 (T >= 3 for T3) */
#define TS (NT >= 2 ? 1 : 0)                       /* the reference TB (running) */
#define TD (NT >= 3 ? 2 : 0)                       /* the RESTORE destination (allocated) */
#define T3 (NT >= 4 ? 3 : NT == 3 ? 2 : 0)        /* priority's DRAIN slot (running) */
#define T4 (NT >= 5 ? 4 : 0)                       /* empty_mask's slot */
#define TR (NT >= 6 ? 5 : TS)                      /* err_qfull's rejected DROP */
#define TF (NT >= 7 ? 6 : 0)                       /* the fillers' empty slot */
#define TPF (NT >= 3 ? TF : TS) /* priority's fillers: TS, gone (FIN) when they are popped, where T = 2 */
#define TW1 (NT >= 8 ? 5 : TS)                     /* the wide round trip: source */
#define TW2 (NT >= 8 ? 7 : TD)                     /* and destination */
/* the reference TB's warps: {0, 1} on slot TS; the destination's {3, 4} where W allows (one warp,
 * warp 0, on an SM of one warp: NREF below) */
#define WS0 0
#define WS1 (NW >= 2 ? 1 : 0)
#define WD0 (NW >= 5 ? 3 : NW >= 2 ? NW - 2 : 0)
#define WD1 (NW >= 5 ? 4 : NW - 1)
static uint32_t umin(uint32_t a, uint32_t b) { return a < b ? a : b; }
#define RR umin(2, SMK_MAX_REGS)   /* the reference TB's R = 2 and M = 1 where they fit */
#define RM umin(1, SMK_SMEM_LINES)
#define LAM 4                      /* the bench memory's latency lambda */
#define NREF (NW >= 2 ? 2 : 1)     /* the reference TB's warps */
#define LREF ((int)(NREF * CL + NREF * RR + RM))

#define SAVE SMK_PE_OP_SAVE
#define RESTORE SMK_PE_OP_RESTORE
#define DRAIN SMK_PE_OP_DRAIN
#define DROP SMK_PE_OP_DROP
#define OK SMK_PE_ST_OK
#define FIN SMK_PE_ST_FIN
#define E_EMPTY SMK_PE_ST_ERR_EMPTY
#define E_BUSY SMK_PE_ST_ERR_BUSY
#define E_NOTIDEM SMK_PE_ST_ERR_NOTIDEM
#define E_QFULL SMK_PE_ST_ERR_QFULL
#define KCTL SMK_CTX_KIND_CTL
#define KREG SMK_CTX_KIND_REG
#define KSMEM SMK_CTX_KIND_SMEM

#define RT 4      /* registers per thread stored by the bench (shapes use R <= 3) */
#define MT 4      /* shared-memory lines per slot stored by the bench (shapes use M <= 2) */
#define PTR 0x35u /* the reference context pointer */
#define ML (PTR + 3 * CL + 3 * RT + MT + 16) /* memory lines: the widest context (3 warps) from PTR */
#define MAXC (1024 + 64 * (3 * CL + 16))    /* logged cycles */

typedef struct {
    uint32_t acc, addr, tag, we;                      /* accepted request */
    uint32_t rsp_v, op, tb, st, cmd_full;             /* engine response */
    uint64_t ptr;
    uint32_t free_v, free_tb, launch_v, launch_tb;
    uint32_t st_re, st_we, st_tb, st_kind, st_wid, st_idx;
    uint32_t out;                                     /* registered out */
    uint32_t mout;                                    /* memory's own outstanding count (before) */
    wmask_t stop;
    uint64_t draining;
    uint32_t fsm;
} lg_t;

typedef struct {
    uint32_t tag, addr, we, due;
    uint8_t data[LB];
} mreq_t;

typedef struct {
    preempt_engine_t pe;
    pe_in_t in; /* tb_run/alloc/idle and cap persist; cmd_* and tb_done are cleared after a cycle */
    pe_out_t o;
    int cyc;
    /* slot table (lookup port) */
    wmask_t mask[NT];
    uint32_t nreg[NT], nsml[NT];
    /* storage */
    uint8_t ctl[NW][CL][LB], reg[NW][RT][LB], smem[NT][MT][LB];
    int nrd_ctl[NW][CL], nrd_reg[NW][RT], nrd_smem[NT][MT];
    int nwr_ctl[NW][CL], nwr_reg[NW][RT], nwr_smem[NT][MT];
    /* memory */
    uint8_t mem[ML][LB];
    int mem_wr[ML];
    mreq_t pend[64];
    int npend;
    uint32_t lat, lat_rand, bw; /* fixed latency, or random 1..lat_rand; one accept per bw cycles */
    int last_acc;
    rng_t rng;
    lg_t lg[MAXC];
} bench_t;

static bench_t *bench_new(void)
{
    bench_t *b = calloc(1, sizeof *b);
    cr_assert_not_null(b);
    pe_reset(&b->pe);
    b->lat = 4, b->bw = 1, b->last_acc = -1000;
    rng_seed(&b->rng, 1);
    for (int t = 0; t < NT; t++)
        b->in.tb_idle |= 1ULL << t; /* idle unless a test says otherwise */
    return b;
}

static void fill_line(bench_t *b, uint8_t *p)
{
    for (int i = 0; i < LB; i++)
        p[i] = (uint8_t)rng_next(&b->rng);
}
static void fill_storage(bench_t *b)
{
    for (int w = 0; w < NW; w++) {
        for (int c = 0; c < CL; c++)
            fill_line(b, b->ctl[w][c]);
        for (int r = 0; r < RT; r++)
            fill_line(b, b->reg[w][r]);
    }
    for (int t = 0; t < NT; t++)
        for (int i = 0; i < MT; i++)
            fill_line(b, b->smem[t][i]);
}

/* slot t: shape and state */
static void slot(bench_t *b, int t, wmask_t mask, uint32_t R, uint32_t M, int run, int alloc)
{
    b->mask[t] = mask, b->nreg[t] = R, b->nsml[t] = M;
    b->in.tb_run = (b->in.tb_run & ~(1ULL << t)) | ((uint64_t)(run != 0) << t);
    b->in.tb_alloc = (b->in.tb_alloc & ~(1ULL << t)) | ((uint64_t)(alloc != 0) << t);
}
static void set_idle(bench_t *b, int t, int v)
{
    b->in.tb_idle = (b->in.tb_idle & ~(1ULL << t)) | ((uint64_t)(v != 0) << t);
}
static void cmd(bench_t *b, uint32_t op, uint32_t tb, uint64_t ptr, uint32_t idem)
{
    b->in.cmd_v = 1, b->in.cmd_op = op, b->in.cmd_tb = tb, b->in.cmd_ptr = ptr, b->in.cmd_idem = idem;
}
static void done(bench_t *b, int t) { b->in.tb_done |= 1ULL << t; }

/* the storage line named by (slot, kind, physical warp, index) */
static uint8_t *line(bench_t *b, uint32_t tb, uint32_t kind, uint32_t wid, uint32_t idx, int **nrd, int **nwr)
{
    cr_assert(tb < NT && wid < NW, "storage access out of range: tb %u wid %u", tb, wid);
    switch (kind) {
    case KCTL:
        cr_assert(idx < CL, "CTL index %u with C = %d", idx, CL);
        *nrd = &b->nrd_ctl[wid][idx], *nwr = &b->nwr_ctl[wid][idx];
        return b->ctl[wid][idx];
    case KREG:
        cr_assert(idx < RT, "REG index %u", idx);
        *nrd = &b->nrd_reg[wid][idx], *nwr = &b->nwr_reg[wid][idx];
        return b->reg[wid][idx];
    case KSMEM:
        cr_assert(idx < MT && wid == 0, "SMEM index %u wid %u", idx, wid);
        *nrd = &b->nrd_smem[tb][idx], *nwr = &b->nwr_smem[tb][idx];
        return b->smem[tb][idx];
    default:
        cr_assert_fail("storage kind %u", kind);
        return NULL;
    }
}

static uint32_t tag_of(uint32_t kind, uint32_t wid, uint32_t idx) { return kind << (WIDW + IW) | wid << IW | idx; }

/* one clock cycle of engine + environment */
static void step(bench_t *b)
{
    cr_assert(b->cyc < MAXC, "bench log full");
    lg_t *l = &b->lg[b->cyc];
    pe_in_t *in = &b->in;
    /* lookup port: lk_tb depends on state only */
    const uint32_t lk = pe_lk_tb(&b->pe);
    cr_assert(lk < NT);
    in->lk_mask = b->mask[lk], in->lk_nreg = b->nreg[lk], in->lk_smem = b->nsml[lk];
    /* memory: ready by bandwidth; at most one response per cycle: the earliest due of those due */
    in->mem_req_rdy = b->cyc - b->last_acc >= (int)b->bw;
    int r = -1;
    for (int i = 0; i < b->npend; i++)
        if ((int)b->pend[i].due <= b->cyc && (r < 0 || b->pend[i].due < b->pend[r].due))
            r = i;
    in->mem_rsp_v = r >= 0;
    in->mem_rsp_tag = r >= 0 ? b->pend[r].tag : 0;

    pe_eval(&b->pe, in, &b->o);
    const pe_out_t *o = &b->o;
    /* eval must not change state and must be repeatable */
    {
        pe_out_t o2;
        pe_eval(&b->pe, in, &o2);
        cr_assert(!memcmp(&o2, o, sizeof o2), "pe_eval not repeatable");
    }
    cr_assert_eq(o->lk_tb, lk);
    /* log */
    l->fsm = b->pe.fsm, l->out = b->pe.out, l->mout = (uint32_t)b->npend;
    l->acc = o->mem_req_v && in->mem_req_rdy;
    l->addr = (uint32_t)o->mem_req_addr, l->tag = o->mem_req_tag, l->we = o->mem_req_we;
    l->rsp_v = o->rsp_v, l->op = o->rsp_op, l->tb = o->rsp_tb, l->st = o->rsp_status, l->ptr = o->rsp_ptr;
    l->cmd_full = o->cmd_full;
    l->free_v = o->free_v, l->free_tb = o->free_tb, l->launch_v = o->launch_v, l->launch_tb = o->launch_tb;
    l->st_re = o->st_re, l->st_we = o->st_we, l->st_tb = o->st_tb;
    l->st_kind = o->st_kind, l->st_wid = o->st_wid, l->st_idx = o->st_idx;
    l->stop = o->stop, l->draining = o->draining;
    /* port hygiene: fields 0 when not valid */
    if (!o->mem_req_v)
        cr_assert(!o->mem_req_we && !o->mem_req_addr && !o->mem_req_tag, "cycle %d: request fields", b->cyc);
    if (!o->rsp_v)
        cr_assert(!o->rsp_op && !o->rsp_tb && !o->rsp_status && !o->rsp_ptr, "cycle %d: response fields", b->cyc);
    if (!o->free_v)
        cr_assert(!o->free_tb);
    if (!o->launch_v)
        cr_assert(!o->launch_tb);
    if (!o->st_re && !o->st_we)
        cr_assert(!o->st_tb && !o->st_kind && !o->st_wid && !o->st_idx, "cycle %d: storage fields", b->cyc);
    cr_assert(!(o->st_re && o->st_we));
    cr_assert_eq(o->st_re, l->acc && o->mem_req_we, "cycle %d: st_re only with an accepted write", b->cyc);

    /* memory response (before the accept: latency >= 1) */
    if (r >= 0) {
        mreq_t *m = &b->pend[r];
        if (!m->we) {
            cr_assert(o->st_we, "cycle %d: read response without st_we", b->cyc);
            cr_assert_eq(tag_of(o->st_kind, o->st_wid, o->st_idx), m->tag, "cycle %d: st_* not the tag", b->cyc);
            int *nrd, *nwr;
            uint8_t *p = line(b, o->st_tb, o->st_kind, o->st_wid, o->st_idx, &nrd, &nwr);
            memcpy(p, m->data, LB); /* lands at the edge; nothing else reads it this cycle */
            (*nwr)++;
        } else {
            cr_assert(!o->st_we);
        }
        b->pend[r] = b->pend[--b->npend];
    }
    if (l->acc) {
        cr_assert(b->npend < 64);
        mreq_t *m = &b->pend[b->npend++];
        m->tag = o->mem_req_tag, m->addr = (uint32_t)o->mem_req_addr, m->we = o->mem_req_we;
        m->due = (uint32_t)b->cyc + (b->lat_rand ? 1 + rng_below(&b->rng, b->lat_rand) : b->lat);
        cr_assert(m->addr < ML, "address %u outside the bench memory", m->addr);
        if (m->we) {
            int *nrd, *nwr;
            const uint8_t *p = line(b, o->st_tb, o->st_kind, o->st_wid, o->st_idx, &nrd, &nwr);
            cr_assert_eq(tag_of(o->st_kind, o->st_wid, o->st_idx), m->tag);
            memcpy(b->mem[m->addr], p, LB);
            b->mem_wr[m->addr]++;
            (*nrd)++;
        } else {
            memcpy(m->data, b->mem[m->addr], LB);
        }
        b->last_acc = b->cyc;
    }

    pe_commit(&b->pe, in, o);
    cr_assert(b->pe.out <= b->pe.klim || b->pe.fsm != PE_FSM_XFER, "out above klim");

    /* SM top at the edge (contract items 2, 3) */
    if (o->free_v)
        b->in.tb_run &= ~(1ULL << o->free_tb);
    if (o->launch_v) {
        b->in.tb_alloc &= ~(1ULL << o->launch_tb);
        b->in.tb_run |= 1ULL << o->launch_tb;
    }
    b->in.tb_run &= ~b->in.tb_done;
    b->in.cmd_v = 0, b->in.cmd_op = 0, b->in.cmd_tb = 0, b->in.cmd_ptr = 0, b->in.cmd_idem = 0;
    b->in.tb_done = 0;
    b->cyc++;
}
static void run(bench_t *b, int n)
{
    for (int i = 0; i < n; i++)
        step(b);
}

/* ---- log checks (absolute cycles of the bench) ------------------------------------------------ */

static wmask_t wm(int a, int b_) { return (1ULL << a) | (1ULL << b_); }

/* the only engine responses in cycles [from, to) are at the given cycles with the given values */
typedef struct { int c; uint32_t op, tb, st; uint64_t ptr; } rsp_t;
static void expect_rsps(const bench_t *b, int from, int to, const rsp_t *e, int n)
{
    int k = 0;
    for (int c = from; c < to; c++) {
        const lg_t *l = &b->lg[c];
        if (!l->rsp_v)
            continue;
        cr_assert(k < n, "cycle %d: unexpected response (op %u, tb %u, st %u)", c - from, l->op, l->tb, l->st);
        cr_assert_eq(c, e[k].c, "response %d in cycle %d, expected %d", k, c - from, e[k].c - from);
        cr_assert(l->op == e[k].op && l->tb == e[k].tb && l->st == e[k].st && l->ptr == e[k].ptr,
                  "cycle %d: response (op %u, tb %u, st %u, ptr %#llx), expected (%u, %u, %u, %#llx)", c - from,
                  l->op, l->tb, l->st, (unsigned long long)l->ptr, e[k].op, e[k].tb, e[k].st,
                  (unsigned long long)e[k].ptr);
        k++;
    }
    cr_assert_eq(k, n, "%d responses, expected %d", k, n);
}
/* stop equals m in [lo, hi] and 0 elsewhere in [from, to) */
static void expect_stop(const bench_t *b, int from, int to, wmask_t m, int lo, int hi)
{
    for (int c = from; c < to; c++) {
        const wmask_t want = (c >= lo && c <= hi) ? m : 0;
        cr_assert_eq(b->lg[c].stop, want, "cycle %d: stop %#llx, expected %#llx", c - from,
                     (unsigned long long)b->lg[c].stop, (unsigned long long)want);
    }
}
/* accepted requests exactly in the cycles given (and nowhere else in [from, to)) */
static void expect_req_cycles(const bench_t *b, int from, int to, const int *cs, int n)
{
    int k = 0;
    for (int c = from; c < to; c++) {
        if (!b->lg[c].acc)
            continue;
        cr_assert(k < n, "cycle %d: unexpected request", c - from);
        cr_assert_eq(c, cs[k], "request %d in cycle %d, expected %d", k, c - from, cs[k] - from);
        k++;
    }
    cr_assert_eq(k, n, "%d requests, expected %d", k, n);
}
static int count(const bench_t *b, int from, int to, size_t off)
{
    int n = 0;
    for (int c = from; c < to; c++)
        n += *(const uint32_t *)((const char *)&b->lg[c] + off) != 0;
    return n;
}
#define COUNT(b, f, t, field) count(b, f, t, offsetof(lg_t, field))
static void expect_quiet(const bench_t *b, int from, int to)
{
    cr_assert_eq(COUNT(b, from, to, acc), 0, "memory request");
    cr_assert_eq(COUNT(b, from, to, st_re) + COUNT(b, from, to, st_we), 0, "storage access");
    cr_assert_eq(COUNT(b, from, to, free_v), 0, "free_v");
    cr_assert_eq(COUNT(b, from, to, launch_v), 0, "launch_v");
    for (int c = from; c < to; c++)
        cr_assert_eq(b->lg[c].stop, 0, "stop in cycle %d", c - from);
}

/* the reference TB: slot TS = warps {0, 1}, R, M, running; slot TD = warps {WD0, WD1}, allocated
 * (where T >= 2) */
static wmask_t ref_src(void) { return wm(WS0, WS1); }
static wmask_t ref_dst(void) { return wm(WD0, WD1); }
static bench_t *ref_bench(void)
{
    bench_t *b = bench_new();
    fill_storage(b);
    if (NT >= 2)
        slot(b, TD, ref_dst(), RR, RM, 0, 1);
    slot(b, TS, ref_src(), RR, RM, 1, 0);
    return b;
}

/* ---- the spec's layout and timing (docs/preempt_engine.md) ------------------------------------ */

/* the physical warp of rank j in mask m */
static uint32_t rank_wid(wmask_t m, int j)
{
    for (int w = 0; w < NW; w++)
        if ((m >> w) & 1 && j-- == 0)
            return (uint32_t)w;
    cr_assert_fail("rank %d beyond the mask", j);
    return 0;
}
/* line i of the layout (CTL j*C + c, REG n*C + j*R + r, SMEM n*C + n*R + i): kind, physical warp, index */
typedef struct { uint32_t kind, wid, idx; } ln_t;
static ln_t lay(wmask_t m, uint32_t R, int i)
{
    const int n = smk_popc(m);
    if (i < n * CL)
        return (ln_t){KCTL, rank_wid(m, i / CL), (uint32_t)(i % CL)};
    i -= n * CL;
    if (i < n * (int)R)
        return (ln_t){KREG, rank_wid(m, i / (int)R), (uint32_t)(i % (int)R)};
    return (ln_t){KSMEM, 0, (uint32_t)(i - n * (int)R)};
}
/* k = min(max(n, 1), capeff); t_i = floor(i / k) P + (i mod k) B with P = max(k B, lambda + 1) */
static int kout(int n, uint32_t cap)
{
    const uint32_t ce = cap == 0 ? SMK_PE_OMAX : umin(cap, SMK_PE_OMAX);
    return (int)umin(n > 1 ? (uint32_t)n : 1u, ce);
}
static int t_req(int i, int k, int B)
{
    const int P = k * B > LAM + 1 ? k * B : LAM + 1;
    return i / k * P + i % k * B;
}

/* SAVE of the reference TB with cap, bandwidth B and the TB not idle in STOP cycles 2 .. 1 + D:
 * requests in 3 + D + t_i at ptr + i with the layout's tags and a storage read of the line in the
 * same cycle, each line saved bit-exact; stop in exactly 2 .. T_save; response (SAVE, TS, OK, ptr)
 * + free_v in T_save = 4 + D + lambda + F, F = t_(L-1); out <= k throughout */
static bench_t *save_ref(uint32_t cap, int B, int D)
{
    bench_t *b = ref_bench();
    b->in.cap = cap, b->bw = (uint32_t)B;
    const int L = LREF, k = kout(NREF, cap), x0 = 3 + D, T = 4 + D + LAM + t_req(L - 1, k, B), n = T + 16;
    cr_assert(n < MAXC);
    cmd(b, SAVE, TS, PTR, 0);
    for (int c = 0; c < n; c++) {
        set_idle(b, TS, !(c >= 2 && c < 2 + D));
        step(b);
    }
    int *rc = calloc((size_t)L, sizeof *rc);
    for (int i = 0; i < L; i++)
        rc[i] = x0 + t_req(i, k, B);
    expect_req_cycles(b, 0, n, rc, L);
    for (int i = 0; i < L; i++) {
        const ln_t x = lay(ref_src(), RR, i);
        const lg_t *l = &b->lg[rc[i]];
        cr_assert_eq(l->addr, PTR + (uint32_t)i, "request %d address", i);
        cr_assert_eq(l->we, 1u);
        cr_assert_eq(l->tag, tag_of(x.kind, x.wid, x.idx), "request %d tag", i);
        cr_assert(l->st_re && l->st_tb == TS && l->st_kind == x.kind && l->st_wid == x.wid && l->st_idx == x.idx,
                  "request %d: storage read of its line in the same cycle", i);
        cr_assert(!memcmp(b->mem[PTR + i], line(b, TS, x.kind, x.wid, x.idx, &(int *){0}, &(int *){0}), LB),
                  "line %d saved bit-exact", i);
    }
    free(rc);
    cr_assert_eq(COUNT(b, 0, n, st_re), L);
    cr_assert_eq(COUNT(b, 0, n, st_we), 0);
    expect_stop(b, 0, n, ref_src(), 2, T);
    const rsp_t e[] = {{T, SAVE, TS, OK, PTR}};
    expect_rsps(b, 0, n, e, 1);
    cr_assert(b->lg[T].free_v && b->lg[T].free_tb == TS);
    cr_assert_eq(COUNT(b, 0, n, free_v), 1);
    cr_assert_eq(COUNT(b, 0, n, launch_v), 0);
    cr_assert_eq(b->lg[1].fsm, PE_FSM_IDLE);
    for (int c = 2; c < x0; c++)
        cr_assert_eq(b->lg[c].fsm, PE_FSM_STOP, "cycle %d: STOP", c);
    cr_assert_eq(b->lg[x0].fsm, PE_FSM_XFER);
    cr_assert_eq(b->lg[T].fsm, PE_FSM_DONE);
    cr_assert_eq(b->lg[T + 1].fsm, PE_FSM_IDLE);
    for (int c = 0; c < n; c++)
        cr_assert(b->lg[c].out <= (uint32_t)k && b->lg[c].mout <= (uint32_t)k, "cycle %d: out %u, k = %d", c,
                  b->lg[c].out, k);
    cr_assert_eq(b->in.tb_run & (1ULL << TS), 0u, "slot TS freed");
    return b;
}

/* ---- tests -------------------------------------------------------------------------------------- */

Test(preempt_engine, reset_state, .description = "reset: all state 0, fsm IDLE; quiet outputs")
{
    preempt_engine_t pe, z;
    memset(&pe, 0x5a, sizeof pe);
    memset(&z, 0, sizeof z);
    pe_reset(&pe);
    cr_assert(!memcmp(&pe, &z, sizeof pe));
    pe_in_t in = {0};
    pe_out_t o;
    pe_eval(&pe, &in, &o);
    cr_assert(!o.cmd_full && !o.rsp_v && !o.mem_req_v && !o.stop && !o.st_re && !o.st_we && !o.lk_tb);
}

Test(preempt_engine, save_small, .description = "SAVE at lambda 4 (reference TB: requests 3,4,8,9,13,14,18; response + free in 23)")
{
    free(save_ref(0, 1, 0));
}

Test(preempt_engine, save_cap1, .description = "SAVE with cap 1: requests 3 + max(B, lambda+1) i, out <= 1 (reference TB: response in 38)")
{
    free(save_ref(1, 1, 0));
}

Test(preempt_engine, save_drain_wait, .description = "SAVE, slot not idle in 2..4: D = 3 (reference TB: first request in 6, response in 26)")
{
    free(save_ref(0, 1, 3));
}

Test(preempt_engine, save_bw, .description = "SAVE with B = 3 (reference TB: requests 3 + 3i, response in 26)")
{
    free(save_ref(0, 3, 0));
}

Test(preempt_engine, restore_small, .description = "RESTORE at lambda 4: requests from 2 at t_i, storage writes lambda later (reference TB: 6,7,11,12,16,17,21; launch in 22)")
{
    bench_t *b = ref_bench();
    slot(b, TD, ref_dst(), RR, RM, 0, 1); /* TD = TS where T = 1: the destination alone */
    const int L = LREF, k = kout(NREF, 0), T = 3 + LAM + t_req(L - 1, k, 1), n = T + 16;
    uint8_t(*want)[LB] = calloc((size_t)L, LB);
    for (int i = 0; i < L; i++) {
        fill_line(b, b->mem[PTR + i]);
        memcpy(want[i], b->mem[PTR + i], LB);
    }
    cmd(b, RESTORE, TD, PTR, 0);
    run(b, n);
    int *rc = calloc((size_t)L, sizeof *rc), *wc = calloc((size_t)L, sizeof *wc);
    for (int i = 0; i < L; i++)
        rc[i] = 2 + t_req(i, k, 1), wc[i] = rc[i] + LAM;
    expect_req_cycles(b, 0, n, rc, L);
    for (int i = 0, j = 0; i < n; i++) {
        if (!b->lg[i].st_we)
            continue;
        cr_assert(j < L && i == wc[j], "storage write in cycle %d", i);
        j++;
    }
    cr_assert_eq(COUNT(b, 0, n, st_we), L);
    cr_assert_eq(COUNT(b, 0, n, st_re), 0);
    for (int i = 0; i < L; i++) {
        const ln_t x = lay(ref_dst(), RR, i);
        const lg_t *l = &b->lg[rc[i]];
        cr_assert(l->addr == PTR + (uint32_t)i && !l->we && l->tag == tag_of(x.kind, x.wid, x.idx),
                  "request %d: address, read, tag (destination warp)", i);
        const lg_t *w = &b->lg[wc[i]];
        cr_assert(w->st_tb == TD && w->st_kind == x.kind && w->st_wid == x.wid && w->st_idx == x.idx,
                  "write %d: line", i);
        cr_assert(!memcmp(line(b, TD, x.kind, x.wid, x.idx, &(int *){0}, &(int *){0}), want[i], LB),
                  "line %d restored bit-exact", i);
    }
    free(rc), free(wc), free(want);
    const rsp_t e[] = {{T, RESTORE, TD, OK, PTR}};
    expect_rsps(b, 0, n, e, 1);
    cr_assert(b->lg[T].launch_v && b->lg[T].launch_tb == TD && COUNT(b, 0, n, launch_v) == 1);
    cr_assert_eq(COUNT(b, 0, n, free_v), 0);
    expect_stop(b, 0, n, 0, 1, 0);
    cr_assert((b->in.tb_run >> TD) & 1 && !((b->in.tb_alloc >> TD) & 1), "slot TD launched");
    free(b);
}

/* SAVE slot s (mask ms) then RESTORE into slot d (mask md), same shape (R, M); s may equal d (the
 * SAVE frees it, then it is allocated again); asserts bit-exactness and that every line is read and
 * written exactly once */
static void roundtrip(uint32_t lat_rand, uint64_t seed, int s, wmask_t ms, int d, wmask_t md, uint32_t R,
                      uint32_t M)
{
    bench_t *b = bench_new();
    rng_seed(&b->rng, seed);
    fill_storage(b);
    b->lat_rand = lat_rand;
    if (d != s)
        slot(b, d, md, R, M, 0, 1);
    slot(b, s, ms, R, M, 1, 0);
    const int n = smk_popc(ms), L = n * CL + n * (int)R + (int)M;
    cr_assert(n == smk_popc(md) && n <= 8 && R <= RT && M <= MT && PTR + (uint32_t)L <= ML);
    /* snapshot of the source by rank j */
    uint8_t ctl[8][CL][LB], reg[8][RT][LB], sm[MT][LB];
    int ws[8], wd[8];
    for (int j = 0; j < n; j++)
        ws[j] = (int)rank_wid(ms, j), wd[j] = (int)rank_wid(md, j);
    for (int j = 0; j < n; j++) {
        memcpy(ctl[j], b->ctl[ws[j]], sizeof ctl[j]);
        for (uint32_t r = 0; r < R; r++)
            memcpy(reg[j][r], b->reg[ws[j]][r], LB);
    }
    for (uint32_t i = 0; i < M; i++)
        memcpy(sm[i], b->smem[s][i], LB);

    cmd(b, SAVE, (uint32_t)s, PTR, 0);
    int c0 = b->cyc, rs = -1;
    while (rs < 0 && b->cyc < MAXC / 2) {
        step(b);
        if (b->lg[b->cyc - 1].rsp_v)
            rs = b->cyc - 1;
    }
    cr_assert(rs >= 0 && b->lg[rs].op == SAVE && b->lg[rs].st == OK && b->lg[rs].free_v, "SAVE done");
    cr_assert_eq(b->npend, 0, "no request outstanding at the SAVE response");
    cr_assert_eq(COUNT(b, c0, rs + 1, acc), L);
    for (int a = 0; a < (int)ML; a++)
        cr_assert_eq(b->mem_wr[a], (a >= (int)PTR && a < (int)PTR + L) ? 1 : 0, "memory line %d written once", a);
    /* clobber the destination so that a missing write shows */
    for (int j = 0; j < n; j++) {
        memset(b->ctl[wd[j]], 0xee, sizeof b->ctl[wd[j]]);
        for (uint32_t r = 0; r < R; r++)
            memset(b->reg[wd[j]][r], 0xee, LB);
    }
    for (uint32_t i = 0; i < M; i++)
        memset(b->smem[d][i], 0xee, LB);
    run(b, 3);
    if (d == s)
        slot(b, d, md, R, M, 0, 1);
    cmd(b, RESTORE, (uint32_t)d, PTR, 0);
    c0 = b->cyc, rs = -1;
    while (rs < 0 && b->cyc < MAXC) {
        step(b);
        if (b->lg[b->cyc - 1].rsp_v)
            rs = b->cyc - 1;
    }
    cr_assert(rs >= 0 && b->lg[rs].op == RESTORE && b->lg[rs].st == OK && b->lg[rs].launch_v, "RESTORE done");
    cr_assert_eq(b->npend, 0, "no request outstanding at the RESTORE response");
    for (int j = 0; j < n; j++) {
        for (int c = 0; c < CL; c++) {
            cr_assert(!memcmp(b->ctl[wd[j]][c], ctl[j][c], LB), "CTL %d of warp j = %d", c, j);
            cr_assert(b->nrd_ctl[ws[j]][c] == 1 && b->nwr_ctl[wd[j]][c] == 1, "CTL %d j = %d read once, written once",
                      c, j);
        }
        for (uint32_t r = 0; r < R; r++) {
            cr_assert(!memcmp(b->reg[wd[j]][r], reg[j][r], LB), "REG %u of warp j = %d", r, j);
            cr_assert(b->nrd_reg[ws[j]][r] == 1 && b->nwr_reg[wd[j]][r] == 1, "REG once");
        }
    }
    for (uint32_t i = 0; i < M; i++) {
        cr_assert(!memcmp(b->smem[d][i], sm[i], LB), "SMEM %u", i);
        cr_assert(b->nrd_smem[s][i] == 1 && b->nwr_smem[d][i] == 1, "SMEM once");
    }
    int tot_rd = 0, tot_wr = 0;
    for (int w = 0; w < NW; w++) {
        for (int c = 0; c < CL; c++)
            tot_rd += b->nrd_ctl[w][c], tot_wr += b->nwr_ctl[w][c];
        for (int r = 0; r < RT; r++)
            tot_rd += b->nrd_reg[w][r], tot_wr += b->nwr_reg[w][r];
    }
    for (int t = 0; t < NT; t++)
        for (int i = 0; i < MT; i++)
            tot_rd += b->nrd_smem[t][i], tot_wr += b->nwr_smem[t][i];
    cr_assert(tot_rd == L && tot_wr == L, "%d reads, %d writes, expected %d each", tot_rd, tot_wr, L);
    free(b);
}

Test(preempt_engine, roundtrip, .description = "SAVE slot 1 {0,1} then RESTORE slot 2 {3,4}: bit-exact, fixed and random latency; a wider shape (3 warps, R 3, M 2 where they fit)")
{
    const int td = NT >= 2 ? TD : TS;
    roundtrip(0, 1, TS, ref_src(), td, ref_dst(), RR, RM);
    const uint64_t seed = u_seed("roundtrip", 7);
    for (uint64_t k = 0; k < 8; k++)
        roundtrip(20, seed + k, TS, ref_src(), td, ref_dst(), RR, RM);
    /* a wider shape: 3 scattered warps, R = 3, M = 2, into other scattered warps (where W >= 13;
     * else the lowest and the highest min(3, W) warps) */
    const int n3 = NW >= 3 ? 3 : NW;
    wmask_t m3 = 0, d3 = 0;
    if (NW >= 13) {
        m3 = (1ULL << 1) | (1ULL << 6) | (1ULL << (NW - 1)), d3 = (1ULL << 2) | (1ULL << 7) | (1ULL << 12);
    } else {
        for (int j = 0; j < n3; j++)
            m3 |= 1ULL << j, d3 |= 1ULL << (NW - 1 - j);
    }
    for (uint64_t k = 0; k < 8; k++)
        roundtrip(20, seed + 100 + k, TW1, m3, TW2, d3, umin(3, SMK_MAX_REGS), umin(2, SMK_SMEM_LINES));
}

Test(preempt_engine, drop_ok, .description = "DROP idem: stop in 2..3, (DROP, 1, OK) + free in 3, no request")
{
    bench_t *b = ref_bench();
    cmd(b, DROP, TS, PTR, 1);
    run(b, 20);
    const rsp_t e[] = {{3, DROP, TS, OK, PTR}};
    expect_rsps(b, 0, 20, e, 1);
    cr_assert(b->lg[3].free_v && b->lg[3].free_tb == TS && COUNT(b, 0, 20, free_v) == 1);
    expect_stop(b, 0, 20, ref_src(), 2, 3);
    cr_assert_eq(COUNT(b, 0, 20, acc) + COUNT(b, 0, 20, st_re) + COUNT(b, 0, 20, st_we), 0);
    free(b);
}

Test(preempt_engine, drop_notidem, .description = "DROP without idem: ERR_NOTIDEM in 2, running or empty slot; nothing else")
{
    for (int running = 1; running >= 0; running--) {
        bench_t *b = ref_bench();
        slot(b, TS, ref_src(), RR, RM, running, 0);
        cmd(b, DROP, TS, PTR, 0);
        run(b, 20);
        const rsp_t e[] = {{2, DROP, TS, E_NOTIDEM, PTR}};
        expect_rsps(b, 0, 20, e, 1);
        expect_quiet(b, 0, 20);
        free(b);
    }
}

Test(preempt_engine, drain_ok, .description = "DRAIN, tb_done in 7: draining 2..7, (DRAIN, 1, OK, 0) in 8")
{
    bench_t *b = ref_bench();
    cmd(b, DRAIN, TS, PTR, 0);
    for (int c = 0; c < 20; c++) {
        if (c == 7)
            done(b, TS);
        step(b);
    }
    for (int c = 0; c < 20; c++)
        cr_assert_eq(b->lg[c].draining, (c >= 2 && c <= 7) ? 1ULL << TS : 0, "cycle %d: draining", c);
    const rsp_t e[] = {{8, DRAIN, TS, OK, 0}};
    expect_rsps(b, 0, 20, e, 1);
    expect_quiet(b, 0, 20);
    free(b);
}

Test(preempt_engine, drain_now, .description = "DRAIN, tb_done in the pop cycle: response in 2")
{
    bench_t *b = ref_bench();
    cmd(b, DRAIN, TS, PTR, 0);
    for (int c = 0; c < 10; c++) {
        if (c == 1)
            done(b, TS);
        step(b);
    }
    const rsp_t e[] = {{2, DRAIN, TS, OK, 0}};
    expect_rsps(b, 0, 10, e, 1);
    cr_assert_eq(COUNT(b, 0, 10, draining), 0);
    expect_quiet(b, 0, 10);
    free(b);
}

Test(preempt_engine, err_empty, .description = "SAVE, DROP, DRAIN of a non-running slot, RESTORE of a non-allocated slot: ERR_EMPTY in 2")
{
    static const uint32_t ops[4] = {SAVE, DROP, DRAIN, RESTORE};
    for (int k = 0; k < 4; k++) {
        bench_t *b = ref_bench();
        slot(b, TS, ref_src(), RR, RM, 0, 0);
        cmd(b, ops[k], TS, PTR + 1, 1);
        run(b, 10);
        const rsp_t e[] = {{2, ops[k], TS, E_EMPTY, PTR + 1}};
        expect_rsps(b, 0, 10, e, 1);
        expect_quiet(b, 0, 10);
        free(b);
    }
    /* RESTORE into a running (not allocated) slot is BUSY; into a slot neither running nor
     * allocated but with a shape: EMPTY (above) */
}

/* Commands meant to wait in the queue behind one being popped: rule 1 judges fullness on the
 * registered count (a pop in the same cycle makes no room), so with QD = 1 a command offered in the
 * pop cycle of the one before it is rejected (ERR_QFULL). The benches below offer such commands GAP
 * cycles apart: back to back (the spec's timelines) where QD >= 2, one cycle later where QD = 1. */
#define GAP (QD >= 2 ? 1 : 2)
/* the pop cycle of a command offered in cycle a when the command before it was answered in cycle r
 * (FSM DONE in r, IDLE from r + 1; no bypass: a + 1 at the earliest); its response comes one cycle
 * after the pop for an error status (IDLE -> DONE) */
static int pop_after(int a, int r) { return a + 1 > r + 1 ? a + 1 : r + 1; }

Test(preempt_engine, err_busy, .description = "DRAIN 1 in 0, SAVE 1 in 1, RESTORE 1 in 2: ERR_BUSY in 3 and 5 (QD = 1: in 2 and 4, ERR_BUSY in 4 and 6)")
{
    bench_t *b = ref_bench();
    for (int c = 0; c < 20; c++) {
        if (c == 0)
            cmd(b, DRAIN, TS, PTR, 0);
        if (c == GAP)
            cmd(b, SAVE, TS, PTR + 1, 0);
        if (c == 2 * GAP)
            cmd(b, RESTORE, TS, PTR + 2, 0);
        step(b);
    }
    /* the DRAIN is popped in 1 (FSM stays IDLE), the SAVE in GAP + 1 */
    const int r1 = GAP + 2, r2 = pop_after(2 * GAP, r1) + 1;
    const rsp_t e[] = {{r1, SAVE, TS, E_BUSY, PTR + 1}, {r2, RESTORE, TS, E_BUSY, PTR + 2}};
    expect_rsps(b, 0, 20, e, 2);
    expect_quiet(b, 0, 20);
    for (int c = 2; c < 20; c++)
        cr_assert_eq(b->lg[c].draining, 1ULL << TS, "DRAIN still waiting");
    free(b);
}

/* the filler commands' pointers, distinct and inside CTX_PTR_W bits */
#define QPTR(c) ((0x100 + (uint64_t)(c)) & SMK_MASK(SMK_CTX_PTR_W))
Test(preempt_engine, err_qfull, .description = "queue full from QD+1: ERR_QFULL in the arrival cycle, QD entries kept")
{
    bench_t *b = ref_bench();
    set_idle(b, TS, 0);
    /* SAVE in 0 (popped in 1, then STOP: no more pops), QD fillers from F0 = GAP (after the SAVE's
     * pop, which makes no room in its own cycle), the rejected DROP in F0 + QD */
    const int F0 = GAP;
    uint32_t qn = 0; /* the queue count of rule 1, registered */
    for (int c = 0; c <= F0 + QD + 3; c++) {
        int offer = 1;
        if (c == 0)
            cmd(b, SAVE, TS, PTR, 0);
        else if (c >= F0 && c < F0 + QD)
            cmd(b, DRAIN, TF, QPTR(c), 0);
        else if (c == F0 + QD)
            cmd(b, DROP, TR, 0x77, 1);
        else
            offer = 0;
        step(b);
        const uint32_t full = qn == QD;
        cr_assert_eq(b->lg[c].cmd_full, full, "cycle %d: cmd_full %u, expected %u (queue count %u)", c,
                     b->lg[c].cmd_full, full, qn);
        qn = qn + (offer && !full) - (c == 1);
    }
    const rsp_t e[] = {{F0 + QD, DROP, TR, E_QFULL, 0x77}};
    expect_rsps(b, 0, F0 + QD + 4, e, 1);
    cr_assert_eq(b->pe.q_cnt, QD);
    cr_assert_eq(b->pe.fsm, PE_FSM_STOP);
    for (int i = 0; i < QD; i++) {
        const int q = (b->pe.q_head + i) % QD;
        cr_assert(b->pe.q_op[q] == DRAIN && b->pe.q_tb[q] == TF && b->pe.q_ptr[q] == QPTR(F0 + i),
                  "queue entry %d is the command of cycle %d", i, F0 + i);
    }
    /* nothing of the rejected command remains: release and drain everything */
    set_idle(b, TS, 1);
    int c0 = b->cyc;
    run(b, 40 + 2 * QD + LAM + t_req(LREF - 1, kout(NREF, 0), 1)); /* the SAVE's T_save - 2 + fillers */
    cr_assert_eq(COUNT(b, c0, b->cyc, rsp_v), 1 + QD, "SAVE + QD fillers answered, nothing else");
    free(b);
}

Test(preempt_engine, fin, .description = "SAVE, TB finishes in the first STOP cycle: FIN in 3; in the pop cycle: FIN in 2")
{
    for (int v = 0; v < 2; v++) {
        bench_t *b = ref_bench();
        set_idle(b, TS, 0);
        cmd(b, SAVE, TS, PTR, 0);
        for (int c = 0; c < 20; c++) {
            if (c == 2 - v)
                done(b, TS);
            step(b);
        }
        const rsp_t e[] = {{3 - v, SAVE, TS, FIN, PTR}};
        expect_rsps(b, 0, 20, e, 1);
        if (v == 0)
            expect_stop(b, 0, 20, ref_src(), 2, 2);
        else
            expect_stop(b, 0, 20, 0, 1, 0);
        cr_assert_eq(COUNT(b, 0, 20, free_v) + COUNT(b, 0, 20, launch_v) + COUNT(b, 0, 20, acc), 0);
        free(b);
    }
}

Test(preempt_engine, priority, .description = "response port: ERR_QFULL, then FSM (FIN), then DRAIN completion, then fillers")
{
    bench_t *b = ref_bench();
    U_NEEDS(SMK_TB_SLOTS >= 2); /* the SAVE slot and the DRAIN slot, both running */
    slot(b, T3, NW >= 7 ? wm(5, 6) : 1ULL << (NW - 1), 1, 0, 1, 0);
    set_idle(b, TS, 0);
    /* DRAIN 3 in 0 (popped in 1), SAVE 1 in GAP (popped in GAP + 1: STOP), QD fillers from F0 = 2 GAP,
     * both TBs finish in F0 + QD, the rejected RESTORE in F0 + QD + 1 */
    const int F0 = 2 * GAP, n = F0 + QD + 4 + 2 * QD + 4;
    for (int c = 0; c < n; c++) {
        if (c == 0)
            cmd(b, DRAIN, T3, 0x10, 0);
        if (c == GAP)
            cmd(b, SAVE, TS, PTR, 0);
        if (c >= F0 && c < F0 + QD)
            cmd(b, DRAIN, TPF, 0x20 + (uint64_t)c, 0);
        if (c == F0 + QD)
            done(b, TS), done(b, T3);
        if (c == F0 + QD + 1)
            cmd(b, RESTORE, TD, 0x30, 0);
        step(b);
    }
    rsp_t e[3 + 16];
    e[0] = (rsp_t){F0 + QD + 1, RESTORE, TD, E_QFULL, 0x30};
    e[1] = (rsp_t){F0 + QD + 2, SAVE, TS, FIN, PTR};
    e[2] = (rsp_t){F0 + QD + 3, DRAIN, T3, OK, 0};
    for (int i = 0; i < QD; i++)
        e[3 + i] = (rsp_t){F0 + QD + 4 + 2 * i, DRAIN, TPF, E_EMPTY, 0x20 + (uint64_t)(F0 + i)};
    expect_rsps(b, 0, n, e, 3 + QD);
    cr_assert_eq(COUNT(b, 0, n, free_v) + COUNT(b, 0, n, launch_v) + COUNT(b, 0, n, acc), 0);
    free(b);
}

Test(preempt_engine, empty_mask, .description = "contract broken: empty mask gives klim 1 and L = M (SMEM lines only; where MMAX = 0, L = 0: response in 3)")
{
    bench_t *b = bench_new();
    fill_storage(b);
    const uint32_t M = umin(2, SMK_SMEM_LINES);
    slot(b, T4, 0, umin(2, SMK_MAX_REGS), M, 0, 1);
    cmd(b, RESTORE, T4, PTR, 0);
    run(b, 30);
    /* RESTORE: requests from p+1 = 2, k = 1: 2 + i (lambda + 1); response at 3 + lambda + F,
     * F = (M - 1)(lambda + 1) (reference: 2, 7; 12); L = 0: response in 3 */
    int rc[2];
    for (uint32_t i = 0; i < M; i++)
        rc[i] = 2 + t_req((int)i, 1, 1);
    expect_req_cycles(b, 0, 30, rc, (int)M);
    for (uint32_t i = 0; i < M; i++)
        cr_assert(b->lg[rc[i]].tag == tag_of(KSMEM, 0, i), "request %u: SMEM line %u", i, i);
    const rsp_t e[] = {{M ? 3 + LAM + t_req((int)M - 1, 1, 1) : 3, RESTORE, T4, OK, PTR}};
    expect_rsps(b, 0, 30, e, 1);
    free(b);
}

Test(preempt_engine, legality_order, .description = "first matching row: NOTIDEM before BUSY; RESTORE into a running slot is BUSY, not EMPTY")
{
    bench_t *b = ref_bench();
    cmd(b, RESTORE, TS, PTR, 0); /* slot 1 running, not allocated */
    run(b, 10);
    const rsp_t e[] = {{2, RESTORE, TS, E_BUSY, PTR}};
    expect_rsps(b, 0, 10, e, 1);
    expect_quiet(b, 0, 10);
    free(b);

    b = ref_bench();
    for (int c = 0; c < 10; c++) {
        if (c == 0)
            cmd(b, DRAIN, TS, PTR, 0);
        if (c == GAP)
            cmd(b, DROP, TS, PTR + 1, 0); /* slot busy and not idempotent */
        if (c == 2 * GAP)
            cmd(b, DROP, TS, PTR + 2, 1); /* slot busy */
        step(b);
    }
    const int r1 = GAP + 2, r2 = pop_after(2 * GAP, r1) + 1; /* as in err_busy */
    const rsp_t e2[] = {{r1, DROP, TS, E_NOTIDEM, PTR + 1}, {r2, DROP, TS, E_BUSY, PTR + 2}};
    expect_rsps(b, 0, 10, e2, 2);
    expect_quiet(b, 0, 10);
    free(b);
}
