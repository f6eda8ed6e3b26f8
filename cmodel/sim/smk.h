/* smk.h: the parts of the `smk` command (docs/smk.md "Structure"):
 *
 *   smk.c         main, `smk check`, `smk run` in four steps, the --rtl back-end's start
 *   smk_args.c    the options of `smk run`: the option table, parsing, defaults, the workload, and
 *                 every check of the options against it (smk_args_parse, smk_args_resolve)
 *   smk_run.c     the runs: the host around gpu_top and the timing model (smk_simulate), the
 *                 isolated runs and the manager's launch fields from their counts (smk_run_all)
 *   smk_report.c  the results as a table, JSON or CSV (smk_report)
 *
 * Every error is one line "smk: ..." on stderr and exit status 1 (smk_die). */
#ifndef SMK_SMK_H
#define SMK_SMK_H
#include <stdint.h>

#include "gpu_top.h"
#include "workload.h"

/* --policy: the driver's cfg_policy */
typedef enum { POL_FCFS, POL_SPART, POL_SMK, POL_SMKP, POL_QOS, POL_N } smk_policy_t;
extern const char *const smk_policy_name[POL_N];
extern const uint32_t smk_policy_drv[POL_N]; /* DRV_FCFS ... */
/* --scheme: the QoS manager's mode (off: the manager stays disabled) */
typedef enum { SC_OFF, SC_SMK, SC_NAIVE, SC_ELASTIC, SC_ROLLOVER, SC_ROLLOVER_TIME, SC_N } smk_scheme_t;
extern const char *const smk_scheme_name[SC_N];
/* the output: the table, --json, --csv */
typedef enum { FMT_TABLE, FMT_JSON, FMT_CSV } smk_format_t;

/* the built-in workload's name (cmodel/sim/workloads/parboil.wl embedded at build time) */
#define SMK_DEFAULT_WL_NAME "cmodel/sim/workloads/parboil.wl (built in)"

/* One simulation: the shared run, or an isolated run */
typedef struct {
    const workload_t *wl;
    int nk;
    int kw[SMK_KERNELS];           /* workload kernel of driver entry k */
    double goal[SMK_KERNELS];      /* 0 = non-QoS */
    smk_policy_t policy;
    smk_scheme_t scheme;
    uint64_t cycles, seed;
    uint32_t epoch;
    /* launch fields of the QoS manager (docs/qos_mgr.md sections 4 and 9), from the isolated runs */
    uint32_t kl_goal[SMK_KERNELS]; /* IPC goal, U16.16 thread instructions per cycle GPU-wide (QoS kernels) */
    uint32_t kl_x[SMK_KERNELS];    /* SMK: isolated issue fraction per scheduler, U1.16 */
    uint32_t kl_t[SMK_KERNELS];    /* SMK: TBs per SM alone */
    const char *label;             /* "shared", "isolated K" (progress line, --rtl mismatches) */
    int trace;                     /* --trace: preemption commands, responses and restores on stderr */
    int max2;                      /* cfg_max2 */
    uint32_t evict, pmode;         /* cfg_evict (SAVE or DRAIN), cfg_pmode (SAVE or DROP) */
    uint32_t qctl;                 /* cfg_qctl (DRV_QC_KEEP, DRV_QC_PGPU) */
    int debt;                      /* MCTRL.DEBT under Rollover (--qos-debt) */
    int tlpq, give;                /* MCTRL.TLPQ, MCTRL.GIVE with the TLP adjustment (--qos-tlpq, --qos-give) */
    int tlp, hist;                 /* MCTRL.TLP with policy qos, MCTRL.NOHIST = !hist (--qos-tlp, --qos-hist) */
    int rtl;                       /* --rtl (smk_rtl only): the RTL in lockstep */
    uint64_t hill;                 /* --hill N (spart): the host moves SMs between kernels every N cycles; 0 = static */
    int full;                      /* --full-eval (or --rtl): the reference composition every cycle, no quiet steps */
    int ctx_free;                  /* --ctx-free: context lines answered in 1 cycle, no channel, no traffic (tm_set_ctx_free) */
} smk_run_t;

/* What a simulation gives */
typedef struct {
    uint64_t thr[SMK_KERNELS], wis[SMK_KERNELS], tbs[SMK_KERNELS], runs[SMK_KERNELS], kdone[SMK_KERNELS];
    uint64_t gmem[SMK_KERNELS], dram[SMK_KERNELS];
    uint64_t ctx_lines, saves, drops, restores, cp_deferred;
    uint64_t hill_moves;           /* --hill: SMs moved */
    int hill_sms[SMK_KERNELS];     /* --hill: SMs of each kernel's mask at the end */
    double secs;
    /* the QoS manager's registers at the end of the run, read through its host port (m_raddr ->
     * m_rdata); valid if `mgr` */
    int mgr;
    uint32_t m_epochs, m_prod, m_len, m_status;
    uint32_t m_ipc_ep[SMK_KERNELS], m_hist[SMK_KERNELS], m_alpha[SMK_KERNELS], m_agoal[SMK_KERNELS];
    uint32_t m_qpt[SMK_KERNELS], m_tbs[SMK_KERNELS], m_goal[SMK_KERNELS];
} smk_result_t;

/* `smk run`: the shared run and what the isolated runs and the report need */
typedef struct {
    smk_run_t shared;
    const char *wname;             /* the workload as printed */
    smk_format_t format;
    uint64_t iso_cycles;
    /* --iso K=T/W: the isolated run of kernel k is not simulated, its counts are given */
    int iso_given[SMK_KERNELS];
    uint64_t iso_thr[SMK_KERNELS], iso_wis[SMK_KERNELS];
    /* the isolated runs (smk_run_all): their results, thread instructions per cycle */
    smk_result_t iso[SMK_KERNELS];
    double iso_ipc[SMK_KERNELS];
} smk_cmd_t;

/* The options of `smk run` as given (smk_args_parse), before the workload is read */
typedef struct {
    const char *config, *workload, *kernels, *policy, *scheme, *preempt, *evict, *qkeep, *qpre, *qdebt, *qtlpq, *qgive, *qtlp, *qhist;
    const char *goals[64], *isos[64];
    int ngoals, nisos;
    smk_format_t format;
    int def;                       /* --default, or no option at all: the default scenario */
    int rtl, full, trace, max2, ctx_free;
    uint64_t cycles, iso_cycles, seed, epoch, hill;
    int have_iso_cycles;
    const char *fst;               /* --fst FILE --window A:B (with --rtl) */
    int have_window;
    uint64_t win_a, win_b;
} smk_opts_t;

void smk_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
#ifdef SMK_FUZZ
/* testbench/fuzz/fuzz_smk_args.c: smk_die's message goes back to the harness (longjmp), no exit */
void smk_fuzz_die(const char *msg) __attribute__((noreturn));
#endif

/* `smk run`'s arguments (argv after "run"): every option, in order, with the defaults and the
 * default scenario applied; then --config against this binary's configuration and the --fst /
 * --window rules. Dies on the first error. */
void smk_args_parse(int argc, char **argv, smk_opts_t *o);
/* The rest of the checks, in order: the required options, the workload (read into *wl), the
 * policy, scheme, preemption and eviction names, the kernels (each fit to this configuration),
 * the goals, the --iso counts, the scheme's and --hill's needs. Fills *c (not its isolated runs). */
void smk_args_resolve(const smk_opts_t *o, workload_t *wl, smk_cmd_t *c);
/* `smk check --workload FILE`'s reading of the workload (dies with the file's message) */
void smk_load(const char *path, workload_t *wl);
/* Dies unless kernel k of wl fits this configuration */
void smk_check_fit(const workload_t *wl, int k);

/* The manager is used for every quota scheme (naive / elastic / rollover: MODE QOS; smk: MODE SMK);
 * with --scheme off it stays disabled (its reset state) and the SMs run with quota mode OFF. */
static inline int smk_uses_manager(const smk_run_t *r) { return r->scheme != SC_OFF; }
/* the manager's MCTRL word of run r */
uint32_t smk_mctrl(const smk_run_t *r);
/* One simulation of r->cycles cycles from reset */
void smk_simulate(const smk_run_t *r, smk_result_t *res);
/* The isolated runs (or the --iso counts), the shared run's launch fields from them, the shared run */
void smk_run_all(smk_cmd_t *c, smk_result_t *res);
/* The results of the shared run res in c->format on stdout */
void smk_report(const smk_cmd_t *c, const smk_result_t *res);

#endif
