/* bench_sm.c: speed of one sm_top C model (warp_sched + quota_unit + preempt_engine + TB slot table)
 * on a workload-like random stimulus, in SM-cycles per second and instructions per SM-cycle.
 *
 *   build/<cfg>/bench_sm [--seed N] [--cycles N] [--trace N] [--qmode off|smk|qos] [--save-every N]
 *
 * A closed-loop environment (below) runs once against the model and records every cycle's inputs
 * (--trace cycles, default 200000); the recording is then replayed on a freshly reset model until
 * --cycles SM-cycles have run (default 20000000), and only the replay is timed, so the figure does
 * not include the generator. The replay is exact (same reset state, same inputs), and the recording
 * pass prints a digest of every output and state element (sm_obs_from_model) over all its cycles:
 * two builds of the model that print different digests for the same seed behave differently.
 * Instructions are counted around the replay loop with perf_event_open (user space only) when the
 * kernel allows it: robust against a loaded machine, unlike the time. The CPU time of the process
 * is printed next to the wall time (less sensitive to other jobs, but not immune: caches, SMT).
 *
 * Environment: the driver sets up fresh TBs of 2..8 warps (4 kernel slots) whenever a slot and warps
 * are free (go launch); warps run 50..800 instructions, each issue makes the warp busy for 1..4 cycles
 * (4%: a 100..400-cycle memory access), ready with 80% probability when not busy; issues complete a
 * fixed 8 cycles later on the completion ports (32 or fewer active threads); warps exit when done.
 * The engine gets a SAVE of a random running TB about every --save-every cycles (default 10000: the
 * engine is then busy about half of the time, a heavy preemption load), a DRAIN half as often;
 * saved contexts are restored into a slot allocated for them (set-up without go, then RESTORE); the
 * memory answers after 50..250 cycles, one response per cycle, out of order. The quota unit is set
 * up at cycle 0 (QoS, Elastic, 2000-cycle epochs, GTO by default). */
#define _GNU_SOURCE
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cosim/sm_env.h"
#include "rng.h"
#include "sm_top.h"

#define NW SMK_WARPS
#define NT SMK_TB_SLOTS
#define NK SMK_KSLOTS
#define MEMQ 256

typedef struct {
    uint32_t tb, nreg, smem, n;
    uint64_t ptr;
} ctx_t;

typedef struct {
    rng_t r;
    uint64_t cycle;
    uint32_t qmode, save_every;
    uint16_t left[NW], busy[NW];
    /* completions in flight: ring of 8 cycles x CP */
    uint32_t cpv[8];
    uint8_t cpks[8][SMK_CP], cpact[8][SMK_CP];
    /* memory */
    uint64_t mdue[MEMQ];
    uint32_t mtag[MEMQ];
    int nmem;
    /* saved contexts waiting for a restore, restores waiting for their command */
    ctx_t saved[64];
    int nsaved;
    int rest_pending; /* slot set up for a RESTORE in the previous cycle, -1 none */
    ctx_t rest;
    uint64_t next_ptr;
    uint32_t last_cmd_op, last_cmd_tb;
    uint64_t last_cmd_ptr;
    uint64_t n_issue, n_setup, n_save, n_restore, n_drain, n_rsp;
} env_t;

static wmask_t rand_mask(rng_t *r, int pct80) { return pct80 ? (rng_next(r) | rng_next(r) | rng_next(r)) & (rng_next(r) | rng_next(r)) : rng_next(r); }

static wmask_t pick_warps(rng_t *r, wmask_t freew, int n)
{
    wmask_t m = 0;
    for (int i = 0; i < n && freew; i++) {
        int k = (int)rng_below(r, (uint32_t)__builtin_popcountll(freew));
        wmask_t x = freew;
        while (k--)
            x &= x - 1;
        const wmask_t b = x & (0 - x);
        m |= b, freew &= ~b;
    }
    return m;
}

static void csr(sm_in_t *in, uint32_t a, uint32_t d) { in->csr_we = 1, in->csr_addr = a, in->csr_wdata = d; }

/* this cycle's inputs, from the model's registered state (m) and the environment */
static void gen(env_t *e, const sm_top_t *m, sm_in_t *in)
{
    rng_t *r = &e->r;
    memset(in, 0, sizeof *in);
    /* quota unit set-up in the first cycles */
    if (e->cycle < 4 + NK) {
        const uint32_t c = (uint32_t)e->cycle;
        if (c == 0)
            csr(in, SMK_REG_SM_CTRL, SMK_POLICY_GTO << SMK_SM_CTRL_POLICY_LSB | e->qmode << SMK_SM_CTRL_QMODE_LSB |
                                         SMK_QSCHEME_ELASTIC << SMK_SM_CTRL_QSCHEME_LSB);
        else if (c == 1)
            csr(in, SMK_REG_EPOCH_LEN, 2000);
        else if (c == 2)
            csr(in, SMK_REG_SAMPLE_PER, 100);
        else if (c == 3)
            csr(in, SMK_REG_QOS_MASK, 1);
        else
            csr(in, SMK_REG_QUOTA + (c - 4), c == 4 ? 200000 : 40000);
    }
    /* pipelines */
    const wmask_t valid = m->ws.valid;
    wmask_t busy = 0, done = 0;
    for (int w = 0; w < NW; w++) {
        busy |= (wmask_t)(e->busy[w] != 0) << w;
        done |= (wmask_t)(e->left[w] == 0) << w;
    }
    in->ready = valid & ~busy & ~done & rand_mask(r, 1);
    in->wbusy = valid & busy;
    in->wexit = valid & ~busy & done & m->live;
    const uint32_t slot = (uint32_t)(e->cycle & 7);
    in->cp_v = e->cpv[slot];
    memcpy(in->cp_ks, e->cpks[slot], sizeof in->cp_ks);
    memcpy(in->cp_act, e->cpact[slot], sizeof in->cp_act);
    in->rd_addr = SMK_REG_EPOCH_CNT;
    /* memory: always ready, one response per cycle among the due ones */
    in->mem_req_rdy = 1;
    for (int i = 0; i < e->nmem; i++)
        if (e->mdue[i] <= e->cycle) {
            in->mem_rsp_v = 1, in->mem_rsp_tag = e->mtag[i];
            e->mdue[i] = e->mdue[--e->nmem], e->mtag[i] = e->mtag[e->nmem];
            break;
        }
    /* driver: a RESTORE command for the slot set up in the previous cycle */
    const tmask_t freeslots = ~(m->alloc | m->run) & SMK_MASK(NT);
    const int cmd_ok = m->pe.q_cnt < SMK_PE_QDEPTH;
    if (e->rest_pending >= 0) {
        if (cmd_ok) {
            in->cmd_v = 1, in->cmd_op = SMK_PE_OP_RESTORE, in->cmd_tb = (uint32_t)e->rest_pending;
            in->cmd_ptr = e->rest.ptr, in->cmd_idem = 0;
            e->rest_pending = -1, e->n_restore++;
        }
    } else if (cmd_ok && m->run && rng_chance(r, 1, e->save_every)) { /* SAVE */
        const int k = (int)rng_below(r, (uint32_t)__builtin_popcountll(m->run));
        tmask_t x = m->run;
        for (int i = 0; i < k; i++)
            x &= x - 1;
        in->cmd_v = 1, in->cmd_op = SMK_PE_OP_SAVE, in->cmd_tb = (uint32_t)__builtin_ctzll(x);
        in->cmd_ptr = e->next_ptr & SMK_MASK(SMK_CTX_PTR_W), in->cmd_idem = 1;
        e->next_ptr += 4096, e->n_save++;
    } else if (cmd_ok && m->run && rng_chance(r, 1, 2 * e->save_every)) { /* DRAIN */
        in->cmd_v = 1, in->cmd_op = SMK_PE_OP_DRAIN, in->cmd_tb = (uint32_t)__builtin_ctzll(m->run);
        e->n_drain++;
    }
    if (in->cmd_v && in->cmd_op == SMK_PE_OP_SAVE) { /* remember the shape for the restore */
        const uint32_t t = in->cmd_tb;
        if (e->nsaved < 64)
            e->saved[e->nsaved++] = (ctx_t){t, m->tnreg[t], m->tsml[t], (uint32_t)__builtin_popcountll(m->tmask[t]),
                                            in->cmd_ptr};
    }
    /* driver: set-ups (fresh TBs, or a slot for a restore) */
    const wmask_t freew = ~m->wused & SMK_WMASK_ALL;
    if (freeslots && freew && e->rest_pending < 0 && rng_chance(r, 1, 6)) {
        const uint32_t t = (uint32_t)__builtin_ctzll(freeslots);
        if (e->nsaved && rng_chance(r, 1, 2) && __builtin_popcountll(freew) >= (int)e->saved[0].n) {
            const ctx_t c = e->saved[0];
            memmove(e->saved, e->saved + 1, (size_t)--e->nsaved * sizeof e->saved[0]);
            in->set_v = 1, in->set_tb = t, in->set_mask = pick_warps(r, freew, (int)c.n);
            in->set_ks = rng_below(r, NK), in->set_nreg = c.nreg, in->set_smem = c.smem, in->set_go = 0;
            e->rest = c, e->rest_pending = (int)t;
        } else {
            in->set_v = 1, in->set_tb = t, in->set_mask = pick_warps(r, freew, 2 + (int)rng_below(r, 7));
            in->set_ks = rng_below(r, NK), in->set_nreg = 8 + rng_below(r, 24), in->set_smem = rng_below(r, 8);
            in->set_go = 1;
        }
        e->n_setup++;
    }
}

/* after sm_eval: the pipelines and memory react to this cycle's outputs */
static void react(env_t *e, const sm_top_t *m, const sm_in_t *in, const sm_out_t *o)
{
    rng_t *r = &e->r;
    for (int w = 0; w < NW; w++)
        if (e->busy[w])
            e->busy[w]--;
    /* fresh warps (launched at this edge) get their instruction count */
    if (o->wi.launch_v)
        for (wmask_t x = o->wi.launch_mask; x; x &= x - 1)
            e->left[__builtin_ctzll(x)] = (uint16_t)(50 + rng_below(r, 750));
    const uint32_t slot = (uint32_t)(e->cycle & 7);
    e->cpv[slot] = 0;
    for (int s = 0; s < SMK_SCHED; s++) {
        e->cpks[slot][s] = 0, e->cpact[slot][s] = 0;
        if (!((o->wo.iss_v >> s) & 1))
            continue;
        const int w = o->wo.iss_wid[s];
        e->n_issue++;
        if (e->left[w])
            e->left[w]--;
        e->busy[w] = (uint16_t)(rng_chance(r, 1, 25) ? 100 + rng_below(r, 300) : 1 + rng_below(r, 4));
        if (s < SMK_CP) {
            e->cpv[slot] |= 1u << s;
            e->cpks[slot][s] = o->wo.iss_ks[s];
            e->cpact[slot][s] = (uint8_t)(rng_chance(r, 1, 4) ? 1 + rng_below(r, SMK_WARP_SIZE) : SMK_WARP_SIZE);
        }
    }
    (void)m;
    if (o->po.mem_req_v && in->mem_req_rdy && e->nmem < MEMQ) {
        e->mdue[e->nmem] = e->cycle + 50 + rng_below(r, 200);
        e->mtag[e->nmem++] = o->po.mem_req_tag;
    }
    if (o->po.rsp_v)
        e->n_rsp++;
    if (o->po.rsp_v && o->po.rsp_op == SMK_PE_OP_SAVE && o->po.rsp_status != SMK_PE_ST_OK) {
        /* not saved (FIN or an error): forget its shape */
        for (int i = e->nsaved - 1; i >= 0; i--)
            if (e->saved[i].ptr == o->po.rsp_ptr && e->saved[i].tb == o->po.rsp_tb) {
                memmove(e->saved + i, e->saved + i + 1, (size_t)(e->nsaved - i - 1) * sizeof e->saved[0]);
                e->nsaved--;
                break;
            }
    }
    e->cycle++;
}

static uint64_t fnv(uint64_t h, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        h = (h ^ ((v >> (8 * i)) & 0xff)) * 0x100000001b3ULL;
    return h;
}

static int perf_open(void)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.type = PERF_TYPE_HARDWARE, a.size = sizeof a, a.config = PERF_COUNT_HW_INSTRUCTIONS;
    a.disabled = 1, a.exclude_kernel = 1, a.exclude_hv = 1;
    return (int)syscall(__NR_perf_event_open, &a, 0, -1, -1, 0);
}

static double now(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    uint64_t seed = 1, cycles = 20000000, trace = 200000;
    uint32_t qmode = SMK_QMODE_QOS, save_every = 10000;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--seed") && v)
            seed = strtoull(v, NULL, 0), i++;
        else if (!strcmp(a, "--cycles") && v)
            cycles = strtoull(v, NULL, 0), i++;
        else if (!strcmp(a, "--save-every") && v)
            save_every = (uint32_t)strtoul(v, NULL, 0), i++;
        else if (!strcmp(a, "--trace") && v)
            trace = strtoull(v, NULL, 0), i++;
        else if (!strcmp(a, "--qmode") && v) {
            qmode = !strcmp(v, "off") ? SMK_QMODE_OFF : !strcmp(v, "smk") ? SMK_QMODE_SMK : SMK_QMODE_QOS;
            i++;
        } else {
            fprintf(stderr, "usage: %s [--seed N] [--cycles N] [--trace N] [--qmode off|smk|qos] [--save-every N]\n", argv[0]);
            return 2;
        }
    }
    if (trace == 0 || cycles == 0 || save_every == 0)
        return 2;
    sm_in_t *rec = malloc(trace * sizeof *rec);
    env_t *e = calloc(1, sizeof *e);
    sm_top_t *m = malloc(sizeof *m);
    sm_out_t *o = malloc(sizeof *o);
    sm_obs_t *ob = malloc(sizeof *ob);
    if (!rec || !e || !m || !o || !ob)
        return 1;
    rng_seed(&e->r, seed);
    e->qmode = qmode, e->save_every = save_every, e->rest_pending = -1, e->next_ptr = 4096;

    /* recording pass (closed loop), with the behaviour digest */
    uint64_t digest = 0xcbf29ce484222325ULL;
    sm_reset(m);
    for (uint64_t c = 0; c < trace; c++) {
        gen(e, m, &rec[c]);
        sm_eval(m, &rec[c], o);
        sm_obs_from_model(m, o, ob);
        for (int i = 0; i < SO_N; i++)
            digest = fnv(digest, ob->v[i]);
        react(e, m, &rec[c], o);
        sm_commit(m, &rec[c], o);
    }
    const double ipc = (double)e->n_issue / (double)trace;

    /* timed replay */
    const int pfd = perf_open();
    uint64_t sum = 0, done = 0;
    if (pfd >= 0)
        ioctl(pfd, PERF_EVENT_IOC_RESET, 0), ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0);
    const double t0 = now(CLOCK_MONOTONIC), u0 = now(CLOCK_PROCESS_CPUTIME_ID);
    while (done < cycles) {
        sm_reset(m);
        const uint64_t n = cycles - done < trace ? cycles - done : trace;
        for (uint64_t c = 0; c < n; c++) {
            sm_eval(m, &rec[c], o);
            sum += o->wo.iss_v + o->po.rsp_v;
            sm_commit(m, &rec[c], o);
        }
        done += n;
    }
    const double t1 = now(CLOCK_MONOTONIC), u1 = now(CLOCK_PROCESS_CPUTIME_ID);
    uint64_t ins = 0;
    if (pfd >= 0) {
        ioctl(pfd, PERF_EVENT_IOC_DISABLE, 0);
        if (read(pfd, &ins, sizeof ins) != (ssize_t)sizeof ins)
            ins = 0;
        close(pfd);
    }
    printf("bench_sm %s: seed %" PRIu64 ", qmode %s, save-every %u, trace %" PRIu64 " cycles: digest %016" PRIx64 "\n",
           SMK_CFG_NAME, seed, qmode == SMK_QMODE_OFF ? "off" : qmode == SMK_QMODE_SMK ? "smk" : "qos", save_every, trace,
           digest);
    printf("  stimulus: %.2f issues/cycle, %" PRIu64 " set-ups, %" PRIu64 " SAVE, %" PRIu64 " RESTORE, %" PRIu64
           " DRAIN, %" PRIu64 " responses (check %" PRIu64 ")\n",
           ipc, e->n_setup, e->n_save, e->n_restore, e->n_drain, e->n_rsp, sum);
    printf("  replay: %" PRIu64 " SM-cycles in %.3f s: %.2f M SM-cycles/s, %.1f ns/cycle (CPU time: %.2f M/s, %.1f ns)",
           done, t1 - t0, (double)done / (t1 - t0) / 1e6, (t1 - t0) * 1e9 / (double)done, (double)done / (u1 - u0) / 1e6,
           (u1 - u0) * 1e9 / (double)done);
    if (ins)
        printf(", %.1f instructions/cycle\n", (double)ins / (double)done);
    else
        printf(", instructions: n/a (perf_event_open refused)\n");
    free(rec), free(e), free(m), free(o), free(ob);
    return 0;
}
