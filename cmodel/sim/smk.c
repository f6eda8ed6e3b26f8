/* smk.c: the `smk` command (docs/smk.md). Runs kernels of a workload file on the whole-GPU C model
 * (gpu_top) with the timing model of timing.c around it, and reports per-kernel IPC, IPC normalised
 * to the isolated run, QoS goals met or not, STP, ANTT and fairness (docs/papers.md section 6).
 *
 *   smk run --config NAME --workload FILE --kernels A,B[,...] --policy P [--scheme S] [--goal K=F]...
 *           [--cycles N] [--iso-cycles N] [--iso K=T/W]... [--epoch N] [--seed S] [--json|--csv]
 *           [--full-eval] [--rtl [--fst FILE --window FIRST:LAST]]
 *   smk run [--default [options]]  the default scenario (gtx980, tpacf QoS + spmv, qos, Rollover, 80%)
 *   smk check --workload FILE      parse a workload file and check its kernels fit this configuration
 *   smk --help
 *
 * The binary is built per hardware configuration (build/<cfg>/smk): --config must name it. This
 * file is main and the commands; `smk run` is smk_args.c (the options), smk_run.c (the runs) and
 * smk_report.c (the output): smk.h. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "smk.h"
#ifdef SMK_RTL
/* build/<cfg>/smk_rtl: the Verilated gpu_top in lockstep (testbench/cosim/smk_rtl.cpp; docs/smk.md
 * "RTL back-end"). The plain smk has no hook at all: given --rtl it execs its sibling smk_rtl. */
#include "smk_rtl.h"
#endif

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
            "  --scheme S           QoS manager mode: off (disabled) | smk | naive | elastic | rollover |\n"
            "                       rollover-time (default off)\n"
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
            "  --qos-keep on|off    qos: an application keeps its TB allocation across relaunches (cfg_qctl\n"
            "                       KEEP; default on)\n"
            "  --qos-preempt sm|gpu qos: one pending preemption per SM or per GPU (cfg_qctl PGPU; default gpu)\n"
            "  --qos-debt on|off    rollover: the product formula counts the QoS kernels' rollover debt\n"
            "                       (MCTRL.DEBT; default on)\n"
            "  --qos-tlpq on|off    qos: Algorithm 3-1 grants a QoS kernel a TB only if it also fell short of\n"
            "                       its quota in the last epoch (MCTRL.TLPQ; default off)\n"
            "  --qos-give on|off    qos: a non-QoS kernel asks for TBs back from QoS kernels' history margins\n"
            "                       (MCTRL.GIVE; default off)\n"
            "  --qos-tlp on|off     qos: Algorithm 3-1's TB reallocation; off keeps the symmetric allocation\n"
            "                       (MCTRL.TLP; default on; ISCA'17 4.8's static resource management)\n"
            "  --qos-hist on|off    the history-based adjustment alpha; off holds alpha at 1 (MCTRL.NOHIST;\n"
            "                       default on; ISCA'17 4.8)\n"
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
            SMK_CFG_NAME, SMK_NUM_SM, SMK_WARPS, SMK_CFG_NAME, SMK_KERNELS, SMK_CFG_NAME);
}

static int cmd_check(int argc, char **argv)
{
    const char *path = NULL;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--workload") && i + 1 < argc)
            path = argv[++i];
        else if (!strcmp(argv[i], "--workload"))
            smk_die("--workload: missing FILE");
        else
            smk_die("check: unknown argument \"%s\" (expected --workload FILE)", argv[i]);
    }
    if (!path)
        smk_die("check: --workload FILE is required");
    static workload_t wl;
    smk_load(path, &wl);
    for (int k = 0; k < wl.nk; k++)
        smk_check_fit(&wl, k);
    printf("%s: OK, %d kernel%s:", path, wl.nk, wl.nk == 1 ? "" : "s");
    for (int k = 0; k < wl.nk; k++)
        printf(" %s", wl.k[k].name);
    printf(" (fit configuration %s)\n", SMK_CFG_NAME);
    return 0;
}

/* the command line as given (main): --rtl execs the sibling smk_rtl with it, and builds the replay */
static int g_argc;
static char **g_argv;

#ifdef SMK_RTL
/* the replay command of a mismatch: this command line, shell-quoted, without --fst / --window (the
 * shim appends its own), from argument i0 to argument i1 - 1 (i0 = 0: the binary, argv[0]) */
static void replay_command(char *buf, size_t n, int i0, int i1)
{
    size_t o = 0;
    buf[0] = 0;
    for (int i = i0; i < i1 && o + 8 < n; i++) {
        const char *a = g_argv[i];
        if (i > 1 && (!strcmp(a, "--fst") || !strcmp(a, "--window"))) {
            i++;
            continue;
        }
        const int plain = *a && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=.,:/@%") ==
                                    strlen(a);
        o += (size_t)snprintf(buf + o, n - o, "%s", i > i0 ? " " : "");
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
 * arguments (with --fst its waveform twin wave/smk_rtl), or fail in one line naming the make target
 * that builds it */
static void exec_rtl(int fst)
{
    char self[4096];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 16);
    if (n <= 0)
        smk_die("--rtl: cannot find this binary (/proc/self/exe: %s)", strerror(errno));
    self[n] = 0;
    char *sl = strrchr(self, '/');
    strcpy(sl ? sl + 1 : self, fst ? "wave/smk_rtl" : "smk_rtl");
    if (access(self, X_OK))
        smk_die("--rtl: the RTL back-end %s%s is not built (make build/%s/%ssmk_rtl)", fst ? "with waveforms " : "",
                self, SMK_CFG_NAME, fst ? "wave/" : "");
    fflush(NULL);
    execv(self, g_argv);
    smk_die("--rtl: cannot run %s: %s", self, strerror(errno));
}
#endif

/* `smk run`: the options, the --rtl back-end, the checks against the workload, the runs, the report */
static int cmd_run(int argc, char **argv)
{
    static smk_opts_t o;
    smk_args_parse(argc, argv, &o);
    if (o.rtl) {
#ifdef SMK_RTL
        char bin[4096], args[8192];
        replay_command(bin, sizeof bin, 0, 1);
        replay_command(args, sizeof args, 1, g_argc);
        smk_rtl_open(bin, args, o.seed, o.fst, o.win_a, o.win_b);
#else
        exec_rtl(o.fst != NULL); /* does not return */
#endif
    }
    static workload_t wl;
    static smk_cmd_t c;
    smk_args_resolve(&o, &wl, &c);
    static smk_result_t res;
    smk_run_all(&c, &res);
#ifdef SMK_RTL
    if (o.rtl)
        smk_rtl_close();
#endif
    smk_report(&c, &res);
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
    smk_die("unknown command \"%s\" (expected run or check; see smk --help)", argv[1]);
}

