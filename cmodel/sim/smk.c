/* smk.c: the `smk` command (docs/smk.md). Runs kernels of a workload file on the whole-GPU C model
 * (gpu_top) with the timing model of timing.c around it, and reports per-kernel IPC, IPC normalised
 * to the isolated run, QoS goals met or not, STP, ANTT and fairness (design-notes 6).
 *
 *   smk run --config NAME --workload FILE --kernels A,B[,...] --policy P [--scheme S] [--goal K=F]...
 *           [--cycles N] [--iso-cycles N] [--iso K=T/W]... [--epoch N] [--seed S] [--json|--csv]
 *           [--full-eval] [--rtl [--fst FILE --window FIRST:LAST]]
 *   smk run [--default [options]]  the default scenario (gtx980, tpacf QoS + spmv, qos, Rollover, 80%)
 *   smk check --workload FILE      parse a workload file and check its kernels fit this configuration
 *   smk --help
 *
 * The binary is built per hardware configuration (build/<cfg>/smk): --config must name it. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gpu_top.h"
#include "timing.h"
#include "workload.h"
#ifdef SMK_RTL
/* build/<cfg>/smk_rtl: the Verilated gpu_top in lockstep (testbench/cosim/smk_rtl.cpp; docs/smk.md
 * "RTL back-end"). The plain smk has no hook at all: given --rtl it execs its sibling smk_rtl. */
#include "smk_rtl.h"
#endif

#define NSM SMK_NUM_SM
#define KN SMK_KERNELS

static const char *const pol_name[] = {"fcfs", "spart", "smk", "smkp", "qos"};
static const uint32_t pol_val[] = {DRV_FCFS, DRV_SPART, DRV_SMK_OD, DRV_SMK_P, DRV_QOS};
enum { SC_OFF = 0, SC_SMK, SC_NAIVE, SC_ELASTIC, SC_ROLLOVER, SC_N };
static const char *const sc_name[SC_N] = {"off", "smk", "naive", "elastic", "rollover"};

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "smk: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    exit(1);
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: smk run --config NAME --workload FILE --kernels A,B[,...] --policy POLICY [options]\n"
            "       smk run [--default [options]]\n"
            "       smk check --workload FILE\n"
            "       smk --help\n"
            "\n"
            "This binary simulates configuration '%s' (%d SMs x %d warps); --config must name it.\n"
            "\n"
            "run options:\n"
            "  --config NAME        hardware configuration (must be '%s', the one this binary was built for)\n"
            "  --workload FILE      workload description (docs/workload.md), e.g. cmodel/sim/workloads/parboil.wl\n"
            "  --kernels A,B,...    kernels of FILE to run together, 1..%d, each in its own driver entry\n"
            "  --policy P           TB dispatch: fcfs | spart | smk | smkp | qos\n"
            "  --scheme S           QoS manager mode: off (disabled) | smk | naive | elastic | rollover\n"
            "                       (default off)\n"
            "  --goal K=F           QoS goal of kernel K: F = fraction of its isolated IPC, 0 < F <= 1\n"
            "                       (repeatable; K=F,K2=F2 also accepted); such kernels are QoS kernels\n"
            "  --cycles N           cycles of the shared run (default 2000000, as the papers)\n"
            "  --iso-cycles N       cycles of each isolated run (default: --cycles)\n"
            "  --iso K=T/W          do not simulate K's isolated run: T thread and W warp instructions are\n"
            "                       its counts (iso_thread_insts / iso_warp_insts of a --json run with the\n"
            "                       same workload, seed, epoch and --iso-cycles: then the results are the\n"
            "                       same; repeatable; scripts/sweep.sh uses it)\n"
            "  --epoch N            the manager's epoch in cycles (default 10000, as the papers)\n"
            "  --seed S             seed of every random choice (default 1); printed in the output\n"
            "  --preempt save|drop  Algorithm 1 victims (smk): SAVE, or DROP when idempotent (cfg_pmode;\n"
            "                       default save)\n"
            "  --evict save|drain   TBs above a partition (spart, smkp, qos): SAVE or DRAIN (cfg_evict; default save)\n"
            "  --max2               at most two kernels per SM (cfg_max2)\n"
            "  --hill N             with --policy spart and a --goal: every N cycles (1000..10^9) the host\n"
            "                       moves one SM to a QoS kernel below its goal, or back from one above it\n"
            "                       by more than one SM's share (hill climbing, the papers' Spart; default:\n"
            "                       the static even split)\n"
            "  --json | --csv       machine-readable output instead of the table\n"
            "  --rtl                also run the RTL (the Verilated rtl/gpu_top.v) in lockstep with the C model,\n"
            "                       comparing every output and state element every cycle (runs the sibling\n"
            "                       binary smk_rtl: make build/%s/smk_rtl); a mismatch prints the signal, both\n"
            "                       values and a replay command, exit status 1\n"
            "  --full-eval          evaluate every block in full every cycle (gpu_eval, tm_observe, gpu_commit:\n"
            "                       the composition --rtl runs) instead of the quiet steps; the same results,\n"
            "                       slower (make smk-check compares the two)\n"
            "  --fst FILE --window FIRST:LAST\n"
            "                       with --rtl: FST waveform of lockstep cycles FIRST..LAST (counted over all\n"
            "                       runs of the command, isolated runs first)\n"
            "  --trace              print the shared run's preemption commands, responses, restores and the\n"
            "                       manager's epochs and TB requests on stderr\n"
            "  --default            the default scenario: gtx980, the built-in Parboil workload, tpacf (QoS,\n"
            "                       goal 0.8) + spmv, policy qos, scheme rollover, 2M cycles; options given\n"
            "                       with it override these. `smk run` alone is the same\n"
            "\n"
            "Reports per kernel: IPC (thread instructions per cycle), isolated IPC (the kernel alone on the\n"
            "whole GPU, policy smk, which spreads its TBs over the SMs; same seed), IPC normalised to\n"
            "isolated, goal and met / not met; and STP, ANTT and fairness. Kernels that finish are\n"
            "relaunched until the run ends. Errors: one line on stderr, exit status 1.\n",
            SMK_CFG_NAME, NSM, SMK_WARPS, SMK_CFG_NAME, KN, SMK_CFG_NAME);
}

/* ------------------------------------------------------------------ numbers */
static uint64_t parse_u64(const char *opt, const char *s, uint64_t lo, uint64_t hi)
{
    if (!*s || strlen(s) > 19)
        die("%s: expected an integer %llu..%llu, got \"%s\"", opt, (unsigned long long)lo, (unsigned long long)hi, s);
    for (const char *c = s; *c; c++)
        if (*c < '0' || *c > '9')
            die("%s: expected an integer %llu..%llu, got \"%s\"", opt, (unsigned long long)lo,
                (unsigned long long)hi, s);
    const unsigned long long v = strtoull(s, NULL, 10);
    if (v < lo || v > hi)
        die("%s: %s out of range (expected %llu..%llu)", opt, s, (unsigned long long)lo, (unsigned long long)hi);
    return v;
}

/* ------------------------------------------------------------------ run description */
typedef struct {
    const workload_t *wl;
    int nk;
    int kw[KN];           /* workload kernel of driver entry k */
    double goal[KN];      /* 0 = non-QoS */
    uint32_t policy;      /* index into pol_name */
    int scheme;
    uint64_t cycles, seed;
    uint32_t epoch;
    double iso_ipc[KN];   /* thread instructions per cycle alone */
    double iso_wipc[KN];  /* warp instructions issued per cycle alone */
    double iso_tbs[KN];   /* TBs per SM alone (resident, from the resource limits) */
    /* launch fields of the QoS manager (docs/qos_mgr.md sections 4 and 9), from the isolated runs */
    uint32_t kl_goal[KN]; /* IPC goal, U16.16 thread instructions per cycle GPU-wide (QoS kernels) */
    uint32_t kl_x[KN];    /* SMK: isolated issue fraction per scheduler, U1.16 */
    uint32_t kl_t[KN];    /* SMK: TBs per SM alone */
    const char *label;
    int trace;            /* --trace: preemption commands, responses and restores on stderr */
    int max2, evict_drain, pmode_drop; /* cfg_max2, cfg_evict = DRAIN, cfg_pmode = DROP */
    int rtl;              /* --rtl (smk_rtl only): the RTL in lockstep */
    uint64_t hill;        /* --hill N (spart): the host moves SMs between kernels every N cycles; 0 = static */
    int full;             /* --full-eval (or --rtl): the reference composition every cycle, no quiet steps */
} run_t;

typedef struct {
    uint64_t thr[KN], wis[KN], tbs[KN], runs[KN], kdone[KN], gmem[KN], dram[KN];
    uint64_t ctx_lines, saves, drops, restores, cp_deferred;
    uint64_t hill_moves;  /* --hill: SMs moved */
    int hill_sms[KN];     /* --hill: SMs of each kernel's mask at the end */
    double secs;
    /* the QoS manager's registers at the end of the run, read through its host port (m_raddr ->
     * m_rdata); valid if `mgr` */
    int mgr;
    uint32_t m_epochs, m_prod, m_len, m_status;
    uint32_t m_ipc_ep[KN], m_hist[KN], m_alpha[KN], m_agoal[KN], m_qpt[KN], m_tbs[KN], m_goal[KN];
} result_t;

/* ---- the QoS manager's host port (docs/qos_mgr.md section 5): one register write per cycle */
#define MQ 8
typedef struct {
    uint32_t a[MQ], d[MQ];
    int n, head;
} mq_t;

static void mwrite(mq_t *q, uint32_t a, uint32_t d)
{
    if (q->n == MQ)
        die("internal error: manager write queue overflow");
    q->a[(q->head + q->n) % MQ] = a, q->d[(q->head + q->n) % MQ] = d, q->n++;
}

/* The manager is used for every quota scheme (naive / elastic / rollover: MODE QOS; smk: MODE SMK);
 * with --scheme off it stays disabled (its reset state) and the SMs run with quota mode OFF. */
static int uses_manager(const run_t *r) { return r->scheme != SC_OFF; }

/* MCTRL word: EN, MODE, SCHEME, ROLLNEG 0, POLICY GTO, TLP (Algorithm 3-1) with the QOS policy only:
 * its requests move the driver's QOS partitions */
static uint32_t mctrl_word(const run_t *r)
{
    uint32_t mode = SMK_QMODE_QOS, sch = SMK_QSCHEME_NAIVE;
    if (r->scheme == SC_SMK)
        mode = SMK_QMODE_SMK;
    else
        sch = r->scheme == SC_NAIVE     ? SMK_QSCHEME_NAIVE
              : r->scheme == SC_ELASTIC ? SMK_QSCHEME_ELASTIC
                                        : SMK_QSCHEME_ROLLOVER;
    const uint32_t tlp = mode == SMK_QMODE_QOS && pol_val[r->policy] == DRV_QOS;
    return QM_FLD(MCTRL, EN, 1) | QM_FLD(MCTRL, MODE, mode) | QM_FLD(MCTRL, SCHEME, sch) |
           QM_FLD(MCTRL, POLICY, SMK_POLICY_GTO) | QM_FLD(MCTRL, TLP, tlp);
}

/* The host's programming of the QoS manager at cycle 0 (it then owns every SM's register port, the
 * epochs, the quotas and the TLP requests): EPOCH_LEN, SAMPLE_PER = EPOCH_LEN / 100 (the papers'
 * 100 idle-warp samples per epoch), then MCTRL with EN = 1. */
static void manager_setup(const run_t *r, mq_t *q)
{
    if (!uses_manager(r))
        return;
    mwrite(q, SMK_QM_REG_EPOCH_LEN, r->epoch);
    mwrite(q, SMK_QM_REG_SAMPLE_PER, r->epoch / 100);
    mwrite(q, SMK_QM_REG_MCTRL, mctrl_word(r));
}

/* CPU seconds of this process (the speed figures: one core, whatever the machine's load) */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint32_t smem_lines(uint32_t bytes) { return (bytes + SMK_CTX_LINE - 1) / SMK_CTX_LINE; }

/* TBs of a kernel one SM holds alone (the four static limits) */
static double tbs_alone(const wl_kernel_t *k)
{
    uint32_t n = SMK_TB_SLOTS;
    const uint32_t bw = SMK_WARPS / k->warps, br = SMK_LIM_REG / (k->warps * k->regs);
    n = bw < n ? bw : n, n = br < n ? br : n;
    if (k->smem_bytes) {
        const uint32_t bs = SMK_LIM_SL / smem_lines(k->smem_bytes);
        n = bs < n ? bs : n;
    }
    return n;
}

/* --hill (spart): one step of the host's hill climbing of the SM split (docs/smk.md "Spart with hill
 * climbing"), after `cycles` cycles. For the first QoS kernel q (index order) for which one of two
 * moves is possible: IPC so far (thread instructions / cycles) below the goal (kl_goal, U16.16): one SM from
 * the non-QoS kernel with the most SMs, if it has two or more (ties: the lowest index); IPC so far x
 * (n - 1) / n above the goal (n = q's SMs, n >= 2: it would still be above with one SM less): one SM
 * to the non-QoS kernel with the fewest SMs (ties: the lowest index). The SM moved is the donor's
 * lowest if all of the donor's SMs are above the receiver's, else the donor's highest (the blocks
 * stay contiguous). Returns 1 and the move, or 0. Integers only (the comparison needs 128 bits). */
static int hill_step(const run_t *r, const timing_t *t, const uint64_t mask[], uint64_t cycles, int *from, int *to,
                     int *sm)
{
    for (int q = 0; q < r->nk; q++) {
        if (!(r->goal[q] > 0))
            continue;
        const unsigned __int128 got = (unsigned __int128)tm_kstat(t, q)->thr << 16,
                                want = (unsigned __int128)r->kl_goal[q] * cycles;
        const int n = __builtin_popcountll(mask[q]);
        int d = -1, dir = 0; /* the non-QoS kernel that gives (dir 1) or takes (dir -1) an SM */
        if (got < want) {
            for (int k = 0; k < r->nk; k++)
                if (!(r->goal[k] > 0) && __builtin_popcountll(mask[k]) >= 2 &&
                    (d < 0 || __builtin_popcountll(mask[k]) > __builtin_popcountll(mask[d])))
                    d = k;
            dir = 1;
        } else if (n >= 2 && got * (unsigned)(n - 1) > want * (unsigned)n) {
            for (int k = 0; k < r->nk; k++)
                if (!(r->goal[k] > 0) && (d < 0 || __builtin_popcountll(mask[k]) < __builtin_popcountll(mask[d])))
                    d = k;
            dir = -1;
        }
        if (d < 0)
            continue;
        *from = dir > 0 ? d : q, *to = dir > 0 ? q : d;
        const uint64_t fm = mask[*from], tmk = mask[*to];
        const int lo = smk_ctz(fm), hi = 63 - __builtin_clzll(fm);
        *sm = lo > 63 - __builtin_clzll(tmk) ? lo : hi;
        return 1;
    }
    return 0;
}

static void simulate(const run_t *r, result_t *res)
{
    static gpu_top_t g;
    static gpu_in_t in;
    static gpu_out_t o;
    static mq_t mq;
    memset(&in, 0, sizeof in);
    memset(&mq, 0, sizeof mq);
    memset(res, 0, sizeof *res);
    gpu_reset(&g);
#ifdef SMK_RTL
    if (r->rtl)
        smk_rtl_reset();
#endif
    timing_t *t = tm_new(r->wl, r->kw, r->nk, r->seed);
    if (!t)
        die("out of memory");
    /* host: kernel entries to launch (first launch and relaunch after kdone) */
    int pend[2 * KN], npend = 0, kl_last = -1;
    uint64_t wis_mark[KN] = {0};
    for (int k = 0; k < r->nk; k++)
        pend[npend++] = k;
    uint64_t mask[KN];
    for (int k = 0; k < r->nk; k++) {
        mask[k] = SMK_MASK(NSM);
        if (pol_val[r->policy] == DRV_SPART) {
            mask[k] = 0;
            for (int s = k * NSM / r->nk; s < (k + 1) * NSM / r->nk; s++)
                mask[k] |= 1ULL << s;
        }
    }
    drv_in_t *h = &in.host;
    h->cfg_policy = pol_val[r->policy], h->cfg_max2 = (uint32_t)r->max2;
    h->cfg_evict = r->evict_drain ? SMK_PE_OP_DRAIN : SMK_PE_OP_SAVE;
    h->cfg_pmode = r->pmode_drop ? SMK_PE_OP_DROP : SMK_PE_OP_SAVE;
    manager_setup(r, &mq);
    /* --hill: the mask writes of a move, one per cycle (the donor's first) */
    int km_n = 0;
    uint32_t km_k[2];
    uint64_t km_m[2];
    uint32_t m_epochs = 0;
    const int tty = isatty(2);
    const double t0 = now_s();
    const uint64_t prog_every = 1u << 17;
    for (uint64_t c = 0; c < r->cycles; c++) {
        /* the host never writes the SMs' registers: the manager owns them (quota schemes), or
         * their reset values are wanted (SM_CTRL: GTO, quota mode OFF; no epochs) */
        in.m_we = 0;
        if (mq.n) {
            in.m_we = 1, in.m_addr = mq.a[mq.head], in.m_wdata = mq.d[mq.head];
            mq.head = (mq.head + 1) % MQ, mq.n--;
        }
        h->km_v = 0;
        if (km_n) {
            h->km_v = 1, h->km_k = km_k[0], h->km_mask = km_m[0];
            km_k[0] = km_k[1], km_m[0] = km_m[1], km_n--;
        }
        h->kl_v = 0;
        if (npend && kl_last < 0) {
            const int k = pend[0];
            memmove(pend, pend + 1, (size_t)(--npend) * sizeof pend[0]);
            const wl_kernel_t *wk = &r->wl->k[r->kw[k]];
            h->kl_v = 1, h->kl_k = (uint32_t)k, h->kl_n = wk->warps, h->kl_r = wk->regs;
            h->kl_m = smem_lines(wk->smem_bytes), h->kl_grid = wk->grid, h->kl_qos = r->goal[k] > 0;
            h->kl_idem = (uint32_t)wk->idempotent, h->kl_adm = DRV_ADM_NONE, h->kl_lim = 0, h->kl_mask = mask[k];
            in.kl_goal = r->goal[k] > 0 ? r->kl_goal[k] : 0, in.kl_x = r->kl_x[k], in.kl_t = r->kl_t[k];
            /* a relaunch (after this kernel's kdone) keeps the manager's history of the kernel: the
             * papers' reruns, IPC history over all past epochs (docs/qos_mgr.md section 4) */
            in.kl_keep = res->kdone[k] > 0;
            kl_last = k;
        }
        if (r->full) { /* the reference composition (and --rtl: the lockstep compares every SM output) */
            tm_inputs(t, &g, &in, c);
            gpu_eval(&g, &in, &o);
#ifdef SMK_RTL
            if (r->rtl) /* drive the RTL with `in`, compare everything, clock it; exits on a mismatch */
                smk_rtl_cycle(&g, &in, &o, r->label, c);
#endif
            tm_observe(t, &g, &o, c);
        } else /* the same, SM by SM, with the quiet SMs' clock edges (docs/workload.md "tm_step") */
            tm_step(t, &g, &in, &o, c);
        if (!h->kl_v && kl_last >= 0) { /* kl_rej of the launch presented last cycle */
            if (o.d.kl_rej)
                pend[npend++] = kl_last;
            else
                res->runs[kl_last]++;
            kl_last = -1;
        }
        if (o.d.kdone_v) {
            /* self-check: every warp instruction of the finished launch issued exactly once, across
             * any SAVE / RESTORE (a launch's instructions all issue before its kdone, the next
             * launch's after it) */
            const int k = (int)o.d.kdone_k;
            const wl_kernel_t *wk = &r->wl->k[r->kw[k]];
            /* instructions of dropped TBs are issued again by their rerun */
            const uint64_t wis = tm_kstat(t, k)->wis - tm_kstat(t, k)->wis_dropped,
                           want = (uint64_t)wk->grid * wk->warps * wk->insts;
            if (wis - wis_mark[k] != want) {
                fprintf(stderr,
                        "smk: internal check failed at cycle %llu: launch of kernel %s issued %llu warp instructions "
                        "(not counting dropped TBs), expected %llu (grid x warps x insts); seed %llu\n",
                        (unsigned long long)c, wk->name, (unsigned long long)(wis - wis_mark[k]),
                        (unsigned long long)want,
                        (unsigned long long)r->seed);
                exit(3);
            }
            wis_mark[k] = wis;
            res->kdone[k]++;
            pend[npend++] = k;
        }
        if (r->trace && o.m.own) {
            if (o.m.rq_v && o.d.rq_rdy)
                fprintf(stderr, "trace %llu manager request: one more TB of kernel %u on SM %u\n",
                        (unsigned long long)c, o.m.rq_k, o.m.rq_sm);
            if (o.d.rq_ack_v)
                fprintf(stderr, "trace %llu manager ack: %s victim kernel %u n %u\n", (unsigned long long)c,
                        o.d.rq_ack_st == DRV_ACK_FREE ? "FREE" : o.d.rq_ack_st == DRV_ACK_VICTIM ? "VICTIM" : "REFUSED",
                        o.d.rq_ack_kv, o.d.rq_ack_n);
        }
        if (r->trace)
            for (int s = 0; s < NSM; s++) {
                if (o.d.cmd_v[s])
                    fprintf(stderr, "trace %llu SM %d: command op %u slot %u ptr %llu (decision %u kernel %u)\n",
                            (unsigned long long)c, s, o.d.cmd_op[s], o.d.cmd_tb[s], (unsigned long long)o.d.cmd_ptr[s],
                            o.d.dec_kind, o.d.dec_k);
                if (o.s[s].po.rsp_v)
                    fprintf(stderr, "trace %llu SM %d: response op %u slot %u status %u\n", (unsigned long long)c, s,
                            o.s[s].po.rsp_op, o.s[s].po.rsp_tb, o.s[s].po.rsp_status);
                if (o.s[s].po.launch_v)
                    fprintf(stderr, "trace %llu SM %d: engine launch slot %u\n", (unsigned long long)c, s,
                            o.s[s].po.launch_tb);
            }
        gpu_commit(&g, &in, &o);
        int hf, ht, hs;
        if (r->hill && (c + 1) % r->hill == 0 && !km_n && hill_step(r, t, mask, c + 1, &hf, &ht, &hs)) {
            mask[hf] &= ~(1ULL << hs), mask[ht] |= 1ULL << hs;
            km_k[0] = (uint32_t)hf, km_m[0] = mask[hf], km_k[1] = (uint32_t)ht, km_m[1] = mask[ht], km_n = 2;
            res->hill_moves++;
            if (r->trace)
                fprintf(stderr, "trace %llu hill: SM %d from %s to %s\n", (unsigned long long)c, hs,
                        r->wl->k[r->kw[hf]].name, r->wl->k[r->kw[ht]].name);
        }
        if (r->trace && uses_manager(r) && g.qm.epochs != m_epochs) {
            /* a new epoch started: the quotas the manager computed for it (the C model's registers,
             * the values the host port's IPC_EP / HIST / ALPHA / AGOAL / QPT / TBS reads return) */
            m_epochs = g.qm.epochs;
            fprintf(stderr, "trace %llu manager epoch %u: P %.4f", (unsigned long long)c, m_epochs,
                    (double)g.qm.P / 65536.0);
            for (int k = 0; k < r->nk; k++) {
                uint32_t tbs = 0;
                for (int s = 0; s < NSM; s++)
                    tbs += g.drv.cnt[s][k];
                fprintf(stderr, " | %s ipc_ep %.1f hist %.1f alpha %.3f agoal %.1f qpt %u tsum %u running %u",
                        r->wl->k[r->kw[k]].name, g.qm.ipc_ep[k] / 65536.0, g.qm.hist[k] / 65536.0,
                        g.qm.alpha[k] / 65536.0, g.qm.agoal[k] / 65536.0, g.qm.qpt[k], g.qm.tsum[k], tbs);
            }
            fprintf(stderr, "\n");
        }
        if (tty && (c + 1) % prog_every == 0) {
            const double el = now_s() - t0;
            fprintf(stderr, "\r[%s] cycle %llu / %llu (%.0f%%), %.2f M cycles/s   ", r->label,
                    (unsigned long long)(c + 1), (unsigned long long)r->cycles,
                    100.0 * (double)(c + 1) / (double)r->cycles,
                    (double)(c + 1) / el / 1e6);
            fflush(stderr);
        }
    }
    res->secs = now_s() - t0;
    if (r->trace)
        for (int k = 0; k < r->nk; k++) {
            uint32_t part = 0, cnt = 0, nq = 0;
            for (int s = 0; s < NSM; s++)
                part += g.drv.part[s][k], cnt += g.drv.cnt[s][k];
            for (int i = 0; i < SMK_PTBQ; i++)
                nq += g.drv.qst[i] != DRV_Q_FREE && g.drv.qk[i] == k;
            fprintf(stderr, "trace end: kernel %d (%s): partition %u TBs, running %u TBs, PTBQ entries %u, kv %d\n", k,
                    r->wl->k[r->kw[k]].name, part, cnt, nq, (int)(g.drv.kv >> k & 1));
        }
    if (tty && r->cycles >= prog_every)
        fprintf(stderr, "\r%*s\r", 90, "");
    for (int k = 0; k < r->nk; k++) {
        const tm_kstat_t *ks = tm_kstat(t, k);
        res->thr[k] = ks->thr, res->wis[k] = ks->wis, res->tbs[k] = ks->tbs;
        res->gmem[k] = ks->gmem_lines, res->dram[k] = ks->dram_lines;
    }
    if (uses_manager(r)) {
        /* the manager's registers, through its host read port (combinational: gpu_eval, no edge) */
        res->mgr = 1;
        in.m_we = 0, in.host.kl_v = 0;
#define MREAD(a) (in.m_raddr = (uint32_t)(a), gpu_eval(&g, &in, &o), o.m.m_rdata)
        res->m_epochs = MREAD(SMK_QM_REG_EPOCHS), res->m_prod = MREAD(SMK_QM_REG_PROD), res->m_len = MREAD(SMK_QM_REG_CUR_LEN);
        res->m_status = MREAD(SMK_QM_REG_STATUS);
        for (int k = 0; k < r->nk; k++) {
            res->m_ipc_ep[k] = MREAD(SMK_QM_REG_IPC_EP + k), res->m_hist[k] = MREAD(SMK_QM_REG_HIST + k);
            res->m_alpha[k] = MREAD(SMK_QM_REG_ALPHA + k), res->m_agoal[k] = MREAD(SMK_QM_REG_AGOAL + k);
            res->m_qpt[k] = MREAD(SMK_QM_REG_QPT + k), res->m_tbs[k] = MREAD(SMK_QM_REG_TBS + k);
            res->m_goal[k] = MREAD(SMK_QM_REG_GOAL + k);
        }
#undef MREAD
    }
    const tm_stat_t *st = tm_stat(t);
    res->ctx_lines = st->ctx_lines, res->saves = st->saves, res->drops = st->drops;
    res->restores = st->restores_launched;
    res->cp_deferred = st->cp_deferred;
    for (int k = 0; k < r->nk; k++)
        res->hill_sms[k] = __builtin_popcountll(mask[k]);
    tm_free(t);
}

/* ------------------------------------------------------------------ commands */
static void load(const char *path, workload_t *wl)
{
    char err[512];
    if (wl_load(path, wl, err, sizeof err))
        die("%s", err);
}

/* The default scenario's workload, cmodel/sim/workloads/parboil.wl embedded at build time (a C string
 * generated by the Makefile: build/default_wl.c), so `smk run` needs no file. The parser reads
 * files: the text goes through a temporary file that is removed at once. */
extern const char smk_default_wl[];
#define DEFAULT_WL_NAME "cmodel/sim/workloads/parboil.wl (built in)"
static void load_builtin(workload_t *wl)
{
    const char *dir = getenv("TMPDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/smk-wl-XXXXXX", dir && *dir ? dir : "/tmp");
    const int fd = mkstemp(path);
    if (fd < 0)
        die("built-in workload: cannot create a temporary file %s: %s", path, strerror(errno));
    const size_t n = strlen(smk_default_wl);
    FILE *f = fdopen(fd, "w");
    if (!f || fwrite(smk_default_wl, 1, n, f) != n || fclose(f)) {
        unlink(path);
        die("built-in workload: cannot write %s", path);
    }
    char err[512];
    const int bad = wl_load(path, wl, err, sizeof err);
    unlink(path);
    if (bad)
        die("built-in workload: %s", err);
    snprintf(wl->path, sizeof wl->path, "%s", DEFAULT_WL_NAME);
}

/* The default scenario (`smk run`, `smk run --default`; docs/smk.md "Default scenario"): a
 * compute-bound QoS kernel with a memory-bound non-QoS kernel, policy qos, Rollover, 2M cycles,
 * goal 80% of the isolated IPC. Options given with --default override these. */
#define DEF_QOS "tpacf"
#define DEF_NONQOS "spmv"
#define DEF_KERNELS DEF_QOS "," DEF_NONQOS
#define DEF_GOAL DEF_QOS "=0.8"

static void check_fit(const workload_t *wl, int k)
{
    char err[512];
    if (wl_check_fit(wl, k, SMK_WARPS, SMK_LIM_REG, SMK_LIM_SL * SMK_CTX_LINE, SMK_MAX_REGS,
                     (uint32_t)SMK_MASK(SMK_GRID_W), SMK_TB_SLOTS, err, sizeof err))
        die("%s (configuration %s)", err, SMK_CFG_NAME);
}

static int cmd_check(int argc, char **argv)
{
    const char *path = NULL;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--workload") && i + 1 < argc)
            path = argv[++i];
        else if (!strcmp(argv[i], "--workload"))
            die("--workload: missing FILE");
        else
            die("check: unknown argument \"%s\" (expected --workload FILE)", argv[i]);
    }
    if (!path)
        die("check: --workload FILE is required");
    static workload_t wl;
    load(path, &wl);
    for (int k = 0; k < wl.nk; k++)
        check_fit(&wl, k);
    printf("%s: OK, %d kernel%s:", path, wl.nk, wl.nk == 1 ? "" : "s");
    for (int k = 0; k < wl.nk; k++)
        printf(" %s", wl.k[k].name);
    printf(" (fit configuration %s)\n", SMK_CFG_NAME);
    return 0;
}

static int pick(const char *opt, const char *v, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(v, names[i]))
            return i;
    char list[128] = "";
    size_t o = 0;
    for (int i = 0; i < n; i++)
        o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", i ? " | " : "", names[i]);
    die("%s: unknown value \"%s\" (expected %s)", opt, v, list);
}

/* the command line as given (main): --rtl execs the sibling smk_rtl with it, and builds the replay */
static int g_argc;
static char **g_argv;

#ifdef SMK_RTL
/* the replay command of a mismatch: this command line, shell-quoted, without --fst / --window (the
 * shim appends its own) */
static void replay_command(char *buf, size_t n)
{
    size_t o = 0;
    buf[0] = 0;
    for (int i = 0; i < g_argc && o + 8 < n; i++) {
        const char *a = g_argv[i];
        if (i > 1 && (!strcmp(a, "--fst") || !strcmp(a, "--window"))) {
            i++;
            continue;
        }
        const int plain = *a && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=.,:/@%") ==
                                    strlen(a);
        o += (size_t)snprintf(buf + o, n - o, "%s", i ? " " : "");
        if (plain)
            o += (size_t)snprintf(buf + o, n - o, "%s", a);
        else {
            o += (size_t)snprintf(buf + o, n - o, "'");
            for (const char *c = a; *c && o + 8 < n; c++)
                o += (size_t)(*c == '\'' ? snprintf(buf + o, n - o, "'\\''") : snprintf(buf + o, n - o, "%c", *c));
            o += (size_t)snprintf(buf + o, n - o, "'");
        }
    }
}
#else
/* --rtl in the plain (C-only) smk: run the sibling binary smk_rtl of this one with the same
 * arguments, or fail in one line naming the make target that builds it */
static void exec_rtl(void)
{
    char self[4096];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 16);
    if (n <= 0)
        die("--rtl: cannot find this binary (/proc/self/exe: %s)", strerror(errno));
    self[n] = 0;
    char *sl = strrchr(self, '/');
    strcpy(sl ? sl + 1 : self, "smk_rtl");
    if (access(self, X_OK))
        die("--rtl: the RTL back-end %s is not built (make build/%s/smk_rtl)", self, SMK_CFG_NAME);
    fflush(NULL);
    execv(self, g_argv);
    die("--rtl: cannot run %s: %s", self, strerror(errno));
}
#endif

/* The KERNEL=VALUE items of a repeatable option (--goal, --iso; each value may be a comma-separated
 * list), in order: item i names kernel k[i] of --kernels; name[i] and val[i] point into buf. Dies on
 * an item without '=' (KERNEL=form expected), a kernel not in --kernels or one given twice, so there
 * are at most KN items. */
typedef struct {
    int n, k[KN];
    const char *name[KN], *val[KN];
    char buf[64][256];
} kv_list_t;

static void kv_items(kv_list_t *l, const char *opt, const char *form, const char *const *vals, int nvals,
                     const run_t *r, const workload_t *wl)
{
    int given[KN] = {0};
    l->n = 0;
    for (int i = 0; i < nvals && i < 64; i++) {
        if (strlen(vals[i]) >= sizeof l->buf[i])
            die("%s: too long", opt);
        strcpy(l->buf[i], vals[i]);
        for (char *tok = strtok(l->buf[i], ","); tok; tok = strtok(NULL, ",")) {
            char *eq = strchr(tok, '=');
            if (!eq)
                die("%s \"%s\": expected KERNEL=%s", opt, vals[i], form);
            *eq = 0;
            int k = -1;
            for (int j = 0; j < r->nk; j++)
                if (!strcmp(wl->k[r->kw[j]].name, tok))
                    k = j;
            if (k < 0)
                die("%s: '%s' is not one of --kernels", opt, tok);
            if (given[k])
                die("%s: '%s' given twice", opt, tok);
            given[k] = 1;
            l->k[l->n] = k, l->name[l->n] = tok, l->val[l->n] = eq + 1, l->n++;
        }
    }
}

static int cmd_run(int argc, char **argv)
{
    const char *config = NULL, *wpath = NULL, *kernels = NULL, *policy = NULL, *scheme = "off";
    const char *goals[64], *isos[64];
    int ngoals = 0, nisos = 0, out = 0, rtl = 0, full = 0, trace = 0, max2 = 0, def = argc == 0;
    const char *preempt = "save", *evict = "save";
    uint64_t cycles = 2000000, iso = 0, seed = 1, epoch = 10000, hill = 0;
    int have_iso = 0;
    const char *fst = NULL; /* --fst FILE --window A:B (with --rtl) */
    uint64_t win_a = 0, win_b = 0;
    const char *seen[32] = {0};
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--json") || !strcmp(a, "--csv")) {
            if (out)
                die("--json and --csv: give at most one of them, once");
            out = a[2] == 'j' ? 1 : 2;
            continue;
        }
        if (!strcmp(a, "--rtl")) {
            rtl = 1;
            continue;
        }
        if (!strcmp(a, "--full-eval")) {
            full = 1;
            continue;
        }
        if (!strcmp(a, "--trace")) {
            trace = 1;
            continue;
        }
        if (!strcmp(a, "--max2")) {
            max2 = 1;
            continue;
        }
        if (!strcmp(a, "--default")) {
            def = 1;
            continue;
        }
        static const char *const opts[] = {"--config", "--workload", "--kernels",    "--policy", "--scheme", "--goal",
                                           "--cycles", "--iso-cycles", "--seed", "--epoch", "--preempt", "--evict",
                                           "--fst", "--window", "--iso", "--hill"};
        int oi = -1;
        for (int j = 0; j < (int)(sizeof opts / sizeof opts[0]); j++)
            if (!strcmp(a, opts[j]))
                oi = j;
        if (oi < 0)
            die("run: unknown argument \"%s\" (see smk --help)", a);
        if (i + 1 >= argc)
            die("%s: missing value", a);
        const char *v = argv[++i];
        if (oi != 5 && oi != 14) { /* --goal and --iso are repeatable */
            if (seen[oi])
                die("%s given twice", a);
            seen[oi] = v;
        }
        switch (oi) {
        case 0: config = v; break;
        case 1: wpath = v; break;
        case 2: kernels = v; break;
        case 3: policy = v; break;
        case 4: scheme = v; break;
        case 5:
            if (ngoals == 64)
                die("--goal: too many");
            goals[ngoals++] = v;
            break;
        case 14:
            if (nisos == 64)
                die("--iso: too many");
            isos[nisos++] = v;
            break;
        case 6: cycles = parse_u64(a, v, 1, 100000000000ULL); break;
        case 7: iso = parse_u64(a, v, 1, 100000000000ULL), have_iso = 1; break;
        case 8: seed = parse_u64(a, v, 0, UINT64_MAX); break;
        case 9: epoch = parse_u64(a, v, 100, SMK_MASK(SMK_EPOCH_W)); break;
        case 15: hill = parse_u64(a, v, 1000, 1000000000ULL); break;
        case 10: preempt = v; break;
        case 11: evict = v; break;
        case 12: fst = v; break;
        case 13: {
            unsigned long long x, y;
            char tail;
            if (sscanf(v, "%llu:%llu%c", &x, &y, &tail) != 2 || y < x)
                die("--window: expected FIRST:LAST lockstep cycles, FIRST <= LAST, got \"%s\"", v);
            win_a = x, win_b = y;
            break;
        }
        }
    }
    if (def) {
        if (!config)
            config = "gtx980";
        if (!kernels)
            kernels = wpath ? NULL : DEF_KERNELS;
        if (!policy)
            policy = "qos";
        if (!seen[4])
            scheme = "rollover";
        if (!ngoals && kernels && !strcmp(kernels, DEF_KERNELS))
            goals[ngoals++] = DEF_GOAL;
    }
    if (!config)
        die("run: --config NAME is required (this binary: %s)", SMK_CFG_NAME);
    if (strcmp(config, SMK_CFG_NAME))
        die("--config %s: this binary simulates configuration '%s'; use build/%s/smk (make build/%s/smk)", config,
            SMK_CFG_NAME, config, config);
    if ((fst || seen[13]) && !rtl)
        die("--fst and --window: waveforms of the RTL, only with --rtl");
    if (fst && !seen[13])
        die("--fst: needs --window FIRST:LAST (lockstep cycles to dump)");
    if (rtl) {
#ifdef SMK_RTL
        char replay[8192];
        replay_command(replay, sizeof replay);
        smk_rtl_open(replay, seed, fst, win_a, win_b);
#else
        (void)win_a, (void)win_b;
        exec_rtl(); /* does not return */
#endif
    }
    if (!wpath && !def)
        die("run: --workload FILE is required");
    if (!kernels)
        die("run: --kernels A,B,... is required");
    if (!policy)
        die("run: --policy fcfs|spart|smk|smkp|qos is required");
    static workload_t wl;
    if (wpath)
        load(wpath, &wl);
    else
        load_builtin(&wl);
    const char *wname = wpath ? wpath : DEFAULT_WL_NAME;
    static run_t r;
    memset(&r, 0, sizeof r);
    r.wl = &wl, r.cycles = cycles, r.seed = seed, r.epoch = (uint32_t)epoch, r.rtl = rtl, r.full = rtl | full;
    r.policy = (uint32_t)pick("--policy", policy, pol_name, 5);
    r.scheme = pick("--scheme", scheme, sc_name, SC_N);
    {
        static const char *const pre_names[] = {"save", "drop"}, *const ev_names[] = {"save", "drain"};
        r.pmode_drop = pick("--preempt", preempt, pre_names, 2);
        r.evict_drain = pick("--evict", evict, ev_names, 2);
        r.max2 = max2;
    }
    {
        char buf[1024];
        if (strlen(kernels) >= sizeof buf)
            die("--kernels: list too long");
        strcpy(buf, kernels);
        const char *p = buf;
        char *c;
        for (;;) {
            c = strchr(p, ',');
            if (c)
                *c = 0;
            if (!*p)
                die("--kernels \"%s\": empty name in the list", kernels);
            const int k = wl_find(&wl, p);
            if (k < 0)
                die("--kernels: no kernel '%s' in %s", p, wname);
            for (int j = 0; j < r.nk; j++)
                if (r.kw[j] == k)
                    die("--kernels: '%s' listed twice", p);
            if (r.nk == KN)
                die("--kernels: more than %d kernels (the driver's kernel table, configuration %s)", KN, SMK_CFG_NAME);
            check_fit(&wl, k);
            r.kw[r.nk++] = k;
            if (!c)
                break;
            p = c + 1;
        }
    }
    if (r.policy == 1 && r.nk > NSM)
        die("--policy spart: %d kernels but only %d SMs", r.nk, NSM);
    static kv_list_t kv;
    kv_items(&kv, "--goal", "FRACTION", goals, ngoals, &r, &wl);
    for (int i = 0; i < kv.n; i++) {
        char *end;
        errno = 0;
        const double f = strtod(kv.val[i], &end);
        if (end == kv.val[i] || *end || errno || !(f > 0) || f > 1)
            die("--goal %s=%s: expected a fraction of the isolated IPC, 0 < F <= 1", kv.name[i], kv.val[i]);
        r.goal[kv.k[i]] = f;
    }
    if (!have_iso)
        iso = cycles;
    /* --iso K=T/W: the isolated run of K is not simulated; T and W are its thread and warp
     * instructions in --iso-cycles cycles (iso_thread_insts / iso_warp_insts of a --json run with the
     * same workload, seed, epoch and --iso-cycles) */
    uint64_t iso_thr[KN] = {0}, iso_wis[KN] = {0};
    int iso_given[KN] = {0};
    kv_items(&kv, "--iso", "THREAD_INSTS/WARP_INSTS", isos, nisos, &r, &wl);
    for (int i = 0; i < kv.n; i++) {
        const char *v = kv.val[i];
        char *end;
        uint64_t n[2];
        for (int h = 0; h < 2; h++) {
            errno = 0;
            /* digits only: strtoull would also take a sign or leading blanks */
            n[h] = *v >= '0' && *v <= '9' ? strtoull(v, &end, 10) : (end = (char *)v, 0);
            if (end == v || errno || *end != (h ? '\0' : '/'))
                die("--iso %s=%s: expected THREAD_INSTS/WARP_INSTS, two unsigned integers", kv.name[i], kv.val[i]);
            v = end + 1;
        }
        /* what an isolated run can give: at most WARP_SIZE threads per completed warp instruction
         * (completions <= issues), at most SCHED issues per SM and cycle */
        if (n[1] > iso * NSM * SMK_SCHED || n[0] > n[1] * SMK_WARP_SIZE) /* in this order: no overflow */
            die("--iso %s=%s: not the counts of an isolated run of %llu cycles (thread instructions <= %d x "
                "warp instructions <= %d x cycles)",
                kv.name[i], kv.val[i], (unsigned long long)iso, SMK_WARP_SIZE, NSM * SMK_SCHED);
        iso_given[kv.k[i]] = 1, iso_thr[kv.k[i]] = n[0], iso_wis[kv.k[i]] = n[1];
    }
    int nq = 0;
    for (int k = 0; k < r.nk; k++)
        nq += r.goal[k] > 0;
    if (r.scheme >= SC_NAIVE && !nq)
        die("--scheme %s: QoS quotas need at least one --goal", sc_name[r.scheme]);
    if (hill) {
        if (pol_val[r.policy] != DRV_SPART)
            die("--hill: moves SMs between the kernels of --policy spart, not %s", pol_name[r.policy]);
        if (!nq || nq == r.nk)
            die("--hill: needs a QoS kernel (--goal) and a non-QoS kernel to take SMs from");
        r.hill = hill;
    }

    /* isolated runs: each kernel alone on the whole GPU, policy smk, no quotas, same seed */
    static result_t iso_res[KN], res;
    for (int k = 0; k < r.nk; k++) {
        run_t ri;
        memset(&ri, 0, sizeof ri);
        /* policy smk (SMK_OD): alone, it dispatches to the SM with the lowest share, spreading the TBs
         * over the SMs as GPGPU-Sim does; fcfs would fill the lowest SMs first and leave SMs idle
         * for small grids (cutcp, histo, mri-q). A single kernel is never preempted. */
        ri.wl = &wl, ri.nk = 1, ri.kw[0] = r.kw[k], ri.policy = 2, ri.scheme = SC_OFF, ri.cycles = iso;
        ri.seed = seed, ri.epoch = r.epoch, ri.rtl = rtl, ri.full = r.full;
        char lab[64];
        snprintf(lab, sizeof lab, "isolated %s", wl.k[r.kw[k]].name);
        ri.label = lab;
        if (iso_given[k]) { /* --iso: the counts of the run, not simulated (nothing else of it is read) */
            memset(&iso_res[k], 0, sizeof iso_res[k]);
            iso_res[k].thr[0] = iso_thr[k], iso_res[k].wis[0] = iso_wis[k];
        } else
            simulate(&ri, &iso_res[k]);
        r.iso_ipc[k] = (double)iso_res[k].thr[0] / (double)iso;
        r.iso_wipc[k] = (double)iso_res[k].wis[0] / (double)iso;
        r.iso_tbs[k] = tbs_alone(&wl.k[r.kw[k]]);
        /* the manager's launch fields (docs/qos_mgr.md section 9; the host converts, exactly):
         * IPC_iso_fx = floor(thread instructions x 2^16 / cycles) (U16.16); the fraction F is taken
         * as f_num / 10000 (F has at most 4 decimals here: f_num = round(F x 10000)), kl_goal =
         * floor(f_num x IPC_iso_fx / 10000) (80% of 1536.0: 80530636 as in section 9).
         * SMK profile: kl_x = floor(warp instructions x 2^16 / (cycles x NSM x SCHED)), the issue
         * fraction per scheduler alone, at most ONE; kl_t = TBs per SM alone. */
        const uint64_t iso_fx64 = (uint64_t)(((unsigned __int128)iso_res[k].thr[0] << 16) / iso);
        const uint32_t iso_fx = iso_fx64 > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)iso_fx64;
        const uint64_t f_num = (uint64_t)llround(r.goal[k] * 10000.0);
        r.kl_goal[k] = (uint32_t)(f_num * iso_fx / 10000);
        const unsigned __int128 xd = (unsigned __int128)iso * NSM * SMK_SCHED;
        const unsigned __int128 xq = ((unsigned __int128)iso_res[k].wis[0] << 16) / xd;
        r.kl_x[k] = xq > QM_ONE ? QM_ONE : (uint32_t)xq;
        r.kl_t[k] = (uint32_t)r.iso_tbs[k];
    }
    r.label = "shared";
    r.trace = trace;
    simulate(&r, &res);
#ifdef SMK_RTL
    if (rtl)
        smk_rtl_close();
#endif

    double norm[KN], stp = 0, antt = 0, nmin = 1e300, nmax = 0;
    int antt_inf = 0;
    for (int k = 0; k < r.nk; k++) {
        const double ipc = (double)res.thr[k] / (double)cycles;
        norm[k] = r.iso_ipc[k] > 0 ? ipc / r.iso_ipc[k] : 0;
        stp += norm[k];
        if (norm[k] > 0)
            antt += 1 / norm[k];
        else
            antt_inf = 1; /* a kernel that completed nothing: unbounded turnaround */
        nmin = norm[k] < nmin ? norm[k] : nmin, nmax = norm[k] > nmax ? norm[k] : nmax;
    }
    antt /= r.nk;
    const double fair = nmax > 0 ? nmin / nmax : 0;
    double iso_secs = 0;
    for (int k = 0; k < r.nk; k++)
        iso_secs += iso_res[k].secs;
    /* goal met: the shared run's IPC reaches the IPC goal the manager was given (kl_goal, U16.16) */
    double gipc[KN];
    int met[KN];
    for (int k = 0; k < r.nk; k++) {
        gipc[k] = (double)r.kl_goal[k] / 65536.0;
        met[k] = (double)res.thr[k] / (double)cycles >= gipc[k];
    }
    const uint32_t mc = mctrl_word(&r);
    char qnote[160];
    if (!res.mgr)
        snprintf(qnote, sizeof qnote, "none (quota mode OFF, QoS manager disabled)");
    else if (r.scheme == SC_SMK)
        snprintf(qnote, sizeof qnote, "QoS manager, SMK mode (fairness quotas from the isolated issue fraction and TBs per SM)");
    else
        snprintf(qnote, sizeof qnote, "QoS manager, QOS mode, %s, TLP %s", sc_name[r.scheme],
                 QM_GET(MCTRL, TLP, mc) ? "on" : "off (needs --policy qos)");
#define FX(v) ((double)(v) / 65536.0)
    if (out == 1) {
        printf("{\"config\":\"%s\",\"workload\":\"%s\",\"policy\":\"%s\",\"scheme\":\"%s\",\"cycles\":%llu,"
               "\"iso_cycles\":%llu,\"epoch\":%u,\"seed\":%llu,\"quotas\":\"%s\",",
               SMK_CFG_NAME, wname, pol_name[r.policy], sc_name[r.scheme], (unsigned long long)cycles,
               (unsigned long long)iso, r.epoch, (unsigned long long)seed, qnote);
        if (res.mgr)
            printf("\"manager\":{\"mctrl\":%u,\"epochs\":%u,\"epoch_len\":%u,\"prod\":%.6f},", mc, res.m_epochs,
                   res.m_len, FX(res.m_prod));
        else
            printf("\"manager\":null,");
        if (r.hill) {
            printf("\"hill\":{\"every\":%llu,\"moves\":%llu,\"sms\":[", (unsigned long long)r.hill,
                   (unsigned long long)res.hill_moves);
            for (int k = 0; k < r.nk; k++)
                printf("%s%d", k ? "," : "", res.hill_sms[k]);
            printf("]},");
        } else
            printf("\"hill\":null,");
        printf("\"kernels\":[");
        for (int k = 0; k < r.nk; k++) {
            const double ipc = (double)res.thr[k] / (double)cycles;
            printf("%s{\"name\":\"%s\",\"qos\":%s,\"goal\":%.4f,\"ipc_goal\":%.4f,\"ipc\":%.4f,\"iso_ipc\":%.4f,"
                   "\"norm\":%.4f,\"met\":%s,\"thread_insts\":%llu,\"warp_insts\":%llu,\"tbs\":%llu,\"launches\":%llu,"
                   "\"dram_lines\":%llu,\"iso_thread_insts\":%llu,\"iso_warp_insts\":%llu",
                   k ? "," : "", wl.k[r.kw[k]].name, r.goal[k] > 0 ? "true" : "false", r.goal[k], gipc[k], ipc,
                   r.iso_ipc[k], norm[k], r.goal[k] > 0 ? (met[k] ? "true" : "false") : "null",
                   (unsigned long long)res.thr[k], (unsigned long long)res.wis[k], (unsigned long long)res.tbs[k],
                   (unsigned long long)res.runs[k], (unsigned long long)res.dram[k],
                   (unsigned long long)iso_res[k].thr[0], (unsigned long long)iso_res[k].wis[0]);
            if (res.mgr)
                printf(",\"alpha\":%.6f,\"hist\":%.4f,\"ipc_epoch\":%.4f,\"agoal\":%.4f,\"quota_per_tb\":%u,"
                       "\"tbs_gathered\":%u,\"kl_goal\":%u,\"kl_x\":%u,\"kl_t\":%u",
                       FX(res.m_alpha[k]), FX(res.m_hist[k]), FX(res.m_ipc_ep[k]), FX(res.m_agoal[k]), res.m_qpt[k],
                       res.m_tbs[k], res.m_goal[k], r.kl_x[k], r.kl_t[k]);
            printf("}");
        }
        char antt_s[32];
        if (antt_inf)
            snprintf(antt_s, sizeof antt_s, "null");
        else
            snprintf(antt_s, sizeof antt_s, "%.4f", antt);
        printf("],\"stp\":%.4f,\"antt\":%s,\"fairness\":%.4f,\"ctx_lines\":%llu,\"saves\":%llu,\"restores\":%llu,"
               "\"drops\":%llu,\"seconds\":%.3f,\"cycles_per_second\":%.0f}\n",
               stp, antt_s, fair, (unsigned long long)res.ctx_lines, (unsigned long long)res.saves,
               (unsigned long long)res.restores, (unsigned long long)res.drops, res.secs, (double)cycles / res.secs);
    } else if (out == 2) {
        printf("config,workload,policy,scheme,cycles,seed,kernel,qos,goal,ipc,iso_ipc,norm,met,stp,antt,fairness,"
               "ipc_goal,alpha,hist,ipc_epoch,quota_per_tb\n");
        for (int k = 0; k < r.nk; k++) {
            printf("%s,%s,%s,%s,%llu,%llu,%s,%d,%.4f,%.4f,%.4f,%.4f,%s,%.4f,%.4g,%.4f,%.4f", SMK_CFG_NAME, wname,
                   pol_name[r.policy], sc_name[r.scheme], (unsigned long long)cycles, (unsigned long long)seed,
                   wl.k[r.kw[k]].name, r.goal[k] > 0, r.goal[k], (double)res.thr[k] / (double)cycles, r.iso_ipc[k],
                   norm[k], r.goal[k] > 0 ? (met[k] ? "met" : "not met") : "-", stp, antt_inf ? HUGE_VAL : antt, fair,
                   gipc[k]);
            if (res.mgr)
                printf(",%.6f,%.4f,%.4f,%u\n", FX(res.m_alpha[k]), FX(res.m_hist[k]), FX(res.m_ipc_ep[k]), res.m_qpt[k]);
            else
                printf(",,,,\n");
        }
    } else {
        char given[256] = ""; /* the kernels whose isolated counts --iso gave */
        size_t n = 0;
        for (int k = 0; k < r.nk; k++)
            if (iso_given[k] && n < sizeof given)
                n += (size_t)snprintf(given + n, sizeof given - n, "%s%s", n ? " " : ", given by --iso: ",
                                      wl.k[r.kw[k]].name);
        printf("smk run: config %s, workload %s, policy %s, scheme %s, %llu cycles (isolated runs %llu%s), epoch %u, "
               "seed %llu\n",
               SMK_CFG_NAME, wname, pol_name[r.policy], sc_name[r.scheme], (unsigned long long)cycles,
               (unsigned long long)iso, given, r.epoch, (unsigned long long)seed);
        printf("%-14s %-4s %6s %10s %10s %7s %-8s %12s %8s %6s\n", "kernel", "qos", "goal", "IPC", "iso IPC", "norm",
               "goal", "warp insts", "TBs", "runs");
        for (int k = 0; k < r.nk; k++) {
            const double ipc = (double)res.thr[k] / (double)cycles;
            char g[16];
            if (r.goal[k] > 0)
                snprintf(g, sizeof g, "%.2f", r.goal[k]);
            else
                snprintf(g, sizeof g, "-");
            printf("%-14s %-4s %6s %10.2f %10.2f %7.3f %-8s %12llu %8llu %6llu\n", wl.k[r.kw[k]].name,
                   r.goal[k] > 0 ? "yes" : "no", g, ipc, r.iso_ipc[k], norm[k],
                   r.goal[k] > 0 ? (met[k] ? "met" : "NOT met") : "-", (unsigned long long)res.wis[k],
                   (unsigned long long)res.tbs[k], (unsigned long long)res.runs[k]);
        }
        if (antt_inf)
            printf("STP %.3f   ANTT inf (a kernel completed nothing)   fairness %.3f\n", stp, fair);
        else
            printf("STP %.3f   ANTT %.3f   fairness %.3f\n", stp, antt, fair);
        printf("quotas: %s\n", qnote);
        if (r.hill) {
            printf("spart hill climbing: every %llu cycles, %llu SMs moved; SMs at the end:", (unsigned long long)r.hill,
                   (unsigned long long)res.hill_moves);
            for (int k = 0; k < r.nk; k++)
                printf(" %s %d", wl.k[r.kw[k]].name, res.hill_sms[k]);
            printf("\n");
        }
        for (int k = 0; k < r.nk; k++)
            if (r.goal[k] > 0)
                printf("goal %s: IPC %.2f against goal %.2f (%.2f x isolated %.2f, kl_goal 0x%X): %s\n",
                       wl.k[r.kw[k]].name, (double)res.thr[k] / (double)cycles, gipc[k], r.goal[k], r.iso_ipc[k],
                       r.kl_goal[k], met[k] ? "met" : "NOT met");
        if (res.mgr) {
            printf("manager at the end (%u epochs of %u cycles, product P %.4f):\n", res.m_epochs, res.m_len,
                   FX(res.m_prod));
            for (int k = 0; k < r.nk; k++) {
                if (r.scheme == SC_SMK)
                    printf("  %-14s kl_x %.4f (isolated issue fraction per scheduler), kl_t %u (TBs per SM alone); "
                           "SMK mode keeps no IPC history\n",
                           wl.k[r.kw[k]].name, FX(r.kl_x[k]), r.kl_t[k]);
                else
                    printf("  %-14s %-7s alpha %.4f, history %.2f, last-window IPC %.2f, effective goal %.2f, "
                           "quota %u per TB x %u TBs = %.2f per cycle\n",
                           wl.k[r.kw[k]].name, r.goal[k] > 0 ? "QoS" : "non-QoS", FX(res.m_alpha[k]),
                           FX(res.m_hist[k]), FX(res.m_ipc_ep[k]), FX(res.m_agoal[k]), res.m_qpt[k], res.m_tbs[k],
                           (double)res.m_qpt[k] * res.m_tbs[k] / (res.m_len ? res.m_len : 1));
            }
        }
        uint64_t dl = res.ctx_lines;
        for (int k = 0; k < r.nk; k++)
            dl += res.dram[k];
        printf("memory: %.3f DRAM lines requested per cycle (%.0f%% of the %u channels' %.3f)\n",
               (double)dl / (double)cycles,
               100.0 * (double)dl / (double)cycles / (wl.m.mem_channels / wl.m.mem_service), wl.m.mem_channels,
               wl.m.mem_channels / wl.m.mem_service);
        printf("preemption: %llu TBs saved, %llu restored, %llu dropped, %llu context lines\n",
               (unsigned long long)res.saves, (unsigned long long)res.restores, (unsigned long long)res.drops,
               (unsigned long long)res.ctx_lines);
        printf("speed: shared run %.2f s CPU (%.2f M cycles per CPU s), isolated runs %.2f s CPU\n", res.secs,
               (double)cycles / res.secs / 1e6, iso_secs);
    }
#undef FX
    return 0;
}

int main(int argc, char **argv)
{
    g_argc = argc, g_argv = argv;
    if (argc < 2) {
        usage(stderr);
        return 1;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        }
    if (!strcmp(argv[1], "run"))
        return cmd_run(argc - 2, argv + 2);
    if (!strcmp(argv[1], "check"))
        return cmd_check(argc - 2, argv + 2);
    die("unknown command \"%s\" (expected run or check; see smk --help)", argv[1]);
}
