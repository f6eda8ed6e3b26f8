/* smk_run.c: the runs of `smk run` (docs/smk.md "What a run does"): the host around gpu_top (the
 * kernel launches and relaunches, the QoS manager's programming, --hill's SM moves, the self-check
 * at every kdone, --trace) and the timing model, one simulation from reset (smk_simulate); and the
 * isolated runs with the exact integer conversion of their counts into the manager's launch
 * fields (smk_run_all). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "smk.h"
#include "timing.h"
#ifdef SMK_RTL
/* build/<cfg>/smk_rtl: the Verilated gpu_top in lockstep (testbench/cosim/smk_rtl.cpp; docs/smk.md
 * "RTL back-end"). The plain smk has no hook at all. */
#include "smk_rtl.h"
#endif

#define NSM SMK_NUM_SM
#define KN SMK_KERNELS

/* ---- the QoS manager's host port (docs/qos_mgr.md section 5): one register write per cycle */
#define MQ 8
typedef struct {
    uint32_t a[MQ], d[MQ];
    int n, head;
} mq_t;

static void mwrite(mq_t *q, uint32_t a, uint32_t d)
{
    if (q->n == MQ)
        smk_die("internal error: manager write queue overflow");
    q->a[(q->head + q->n) % MQ] = a, q->d[(q->head + q->n) % MQ] = d, q->n++;
}

/* MCTRL word: EN, MODE, SCHEME, ROLLNEG 0, POLICY GTO, TLP (Algorithm 3-1) with the QOS policy only
 * (its requests move the driver's QOS partitions) unless --qos-tlp off, NOHIST with --qos-hist off */
uint32_t smk_mctrl(const smk_run_t *r)
{
    uint32_t mode = SMK_QMODE_QOS, sch = SMK_QSCHEME_NAIVE;
    if (r->scheme == SC_SMK)
        mode = SMK_QMODE_SMK;
    else
        sch = r->scheme == SC_NAIVE     ? SMK_QSCHEME_NAIVE
              : r->scheme == SC_ELASTIC ? SMK_QSCHEME_ELASTIC
              : r->scheme == SC_ROLLOVER ? SMK_QSCHEME_ROLLOVER
                                         : SMK_QSCHEME_ROLLOVER_TIME;
    const uint32_t tlp = mode == SMK_QMODE_QOS && r->policy == POL_QOS && r->tlp;
    /* the rollover debt where the scheme carries the QoS kernels' leftover (--qos-debt) */
    const uint32_t debt = mode == SMK_QMODE_QOS && (sch == SMK_QSCHEME_ROLLOVER || sch == SMK_QSCHEME_ROLLOVER_TIME) && r->debt;
    return QM_FLD(MCTRL, EN, 1) | QM_FLD(MCTRL, MODE, mode) | QM_FLD(MCTRL, SCHEME, sch) |
           QM_FLD(MCTRL, POLICY, SMK_POLICY_GTO) | QM_FLD(MCTRL, TLP, tlp) | QM_FLD(MCTRL, DEBT, debt) |
           QM_FLD(MCTRL, TLPQ, tlp && r->tlpq) | QM_FLD(MCTRL, GIVE, tlp && r->give) |
           QM_FLD(MCTRL, NOHIST, !r->hist);
}

/* The host's programming of the QoS manager at cycle 0 (it then owns every SM's register port, the
 * epochs, the quotas and the TLP requests): EPOCH_LEN, SAMPLE_PER = EPOCH_LEN / 100 (the papers'
 * 100 idle-warp samples per epoch), then MCTRL with EN = 1. */
static void manager_setup(const smk_run_t *r, mq_t *q)
{
    if (!smk_uses_manager(r))
        return;
    mwrite(q, SMK_QM_REG_EPOCH_LEN, r->epoch);
    mwrite(q, SMK_QM_REG_SAMPLE_PER, r->epoch / 100);
    mwrite(q, SMK_QM_REG_MCTRL, smk_mctrl(r));
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
static int hill_step(const smk_run_t *r, const timing_t *t, const uint64_t mask[], uint64_t cycles, int *from, int *to,
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

/* One simulation (smk.h): the host, gpu_top and the timing model, cycle by cycle */
void smk_simulate(const smk_run_t *r, smk_result_t *res)
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
        smk_die("out of memory");
    tm_set_ctx_free(t, r->ctx_free);
    /* host: kernel entries to launch (first launch and relaunch after kdone) */
    int pend[2 * KN], npend = 0, kl_last = -1;
    uint64_t wis_mark[KN] = {0};
    for (int k = 0; k < r->nk; k++)
        pend[npend++] = k;
    uint64_t mask[KN];
    for (int k = 0; k < r->nk; k++) {
        mask[k] = SMK_MASK(NSM);
        if (r->policy == POL_SPART) {
            mask[k] = 0;
            for (int s = k * NSM / r->nk; s < (k + 1) * NSM / r->nk; s++)
                mask[k] |= 1ULL << s;
        }
    }
    drv_in_t *h = &in.host;
    h->cfg_policy = smk_policy_drv[r->policy], h->cfg_max2 = (uint32_t)r->max2;
    h->cfg_evict = r->evict, h->cfg_pmode = r->pmode, h->cfg_qctl = r->qctl;
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
        if (r->trace && smk_uses_manager(r) && g.qm.epochs != m_epochs) {
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
            fprintf(stderr, "trace end: kernel %d (%s): partition %u TBs, running %u TBs, PTBQ entries %u, kv %d; per SM",
                    k, r->wl->k[r->kw[k]].name, part, cnt, nq, (int)(g.drv.kv >> k & 1));
            for (int s = 0; s < NSM; s++)
                fprintf(stderr, " %u", g.drv.cnt[s][k]);
            fprintf(stderr, "\n");
        }
    if (tty && r->cycles >= prog_every)
        fprintf(stderr, "\r%*s\r", 90, "");
    for (int k = 0; k < r->nk; k++) {
        const tm_kstat_t *ks = tm_kstat(t, k);
        res->thr[k] = ks->thr, res->wis[k] = ks->wis, res->tbs[k] = ks->tbs;
        res->gmem[k] = ks->gmem_lines, res->dram[k] = ks->dram_lines;
    }
    if (smk_uses_manager(r)) {
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

/* The launch fields of kernel k of the shared run r from its isolated run's counts (thread
 * instructions thr, warp instructions wis in `iso` cycles; docs/qos_mgr.md section 9; the host
 * converts, exactly): IPC_iso_fx = floor(thr x 2^16 / cycles) (U16.16); the fraction F is taken as
 * f_num / 10000 (F has at most 4 decimals here: f_num = round(F x 10000)), kl_goal =
 * floor(f_num x IPC_iso_fx / 10000) (80% of 1536.0: 80530636 as in section 9). SMK profile: kl_x =
 * floor(wis x 2^16 / (cycles x NSM x SCHED)), the issue fraction per scheduler alone, at most ONE;
 * kl_t = TBs per SM alone. */
static void launch_fields(smk_run_t *r, int k, uint64_t thr, uint64_t wis, uint64_t iso)
{
    const uint64_t iso_fx64 = (uint64_t)(((unsigned __int128)thr << 16) / iso);
    const uint32_t iso_fx = iso_fx64 > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)iso_fx64;
    const uint64_t f_num = (uint64_t)llround(r->goal[k] * 10000.0);
    r->kl_goal[k] = (uint32_t)(f_num * iso_fx / 10000);
    const unsigned __int128 xd = (unsigned __int128)iso * NSM * SMK_SCHED;
    const unsigned __int128 xq = ((unsigned __int128)wis << 16) / xd;
    r->kl_x[k] = xq > QM_ONE ? QM_ONE : (uint32_t)xq;
    r->kl_t[k] = (uint32_t)tbs_alone(&r->wl->k[r->kw[k]]);
}

void smk_run_all(smk_cmd_t *c, smk_result_t *res)
{
    smk_run_t *r = &c->shared;
    const uint64_t iso = c->iso_cycles;
    /* isolated runs: each kernel alone on the whole GPU, policy smk, no quotas, same seed */
    for (int k = 0; k < r->nk; k++) {
        smk_run_t ri;
        memset(&ri, 0, sizeof ri);
        /* policy smk (SMK_OD): alone, it dispatches to the SM with the lowest share, spreading the TBs
         * over the SMs as GPGPU-Sim does; fcfs would fill the lowest SMs first and leave SMs idle
         * for small grids (cutcp, histo, mri-q). A single kernel is never preempted. */
        ri.wl = r->wl, ri.nk = 1, ri.kw[0] = r->kw[k], ri.policy = POL_SMK, ri.scheme = SC_OFF, ri.cycles = iso;
        ri.evict = SMK_PE_OP_SAVE, ri.pmode = SMK_PE_OP_SAVE;
        ri.seed = r->seed, ri.epoch = r->epoch, ri.rtl = r->rtl, ri.full = r->full;
        char lab[64];
        snprintf(lab, sizeof lab, "isolated %s", r->wl->k[r->kw[k]].name);
        ri.label = lab;
        smk_result_t *ir = &c->iso[k];
        if (c->iso_given[k]) { /* --iso: the counts of the run, not simulated (nothing else of it is read) */
            memset(ir, 0, sizeof *ir);
            ir->thr[0] = c->iso_thr[k], ir->wis[0] = c->iso_wis[k];
        } else
            smk_simulate(&ri, ir);
        c->iso_ipc[k] = (double)ir->thr[0] / (double)iso;
        launch_fields(r, k, ir->thr[0], ir->wis[0], iso);
        /* a QoS goal is a fraction of the isolated IPC: without isolated work, or rounded to an IPC goal
         * of 0, it is one every run meets (docs/smk.md "Goals that mean nothing") */
        const char *name = r->wl->k[r->kw[k]].name;
        if (r->goal[k] > 0 && !ir->thr[0] && c->iso_given[k])
            smk_die("--iso %s=0/%llu: an isolated run with no thread instruction completed, so the goal %g x isolated "
                    "IPC is 0 and every run would meet it", name, (unsigned long long)ir->wis[0], r->goal[k]);
        if (r->goal[k] > 0 && !ir->thr[0])
            smk_die("isolated run of %s: no thread instruction completed in %llu cycles, so the goal %g x isolated "
                    "IPC is 0 and every run would meet it; give more --iso-cycles", name, (unsigned long long)iso,
                    r->goal[k]);
        if (r->goal[k] > 0 && !r->kl_goal[k])
            smk_die("--goal %s=%g: %g x isolated IPC %.6f rounds to an IPC goal of 0 (kl_goal, U16.16), one every "
                    "run meets; give a larger fraction", name, r->goal[k], r->goal[k], c->iso_ipc[k]);
    }
    smk_simulate(r, res);
}
