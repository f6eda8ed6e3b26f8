/* fuzz_smk_args.c: libFuzzer harness of smk's option parser, cmodel/sim/smk_args.c (docs/verification.md
 * "Fuzzing"). The input is the argument vector of `smk run` (argv after "run"), its arguments
 * separated by NUL bytes: smk_args_parse, then smk_args_resolve (the required options, the policy,
 * scheme, preemption and eviction names, --kernels against the workload, --goal, --iso, --hill). A
 * --workload of the input (or --default's built-in one) is replaced by cmodel/sim/workloads/parboil.wl,
 * so the fuzzer never opens files of its choosing; the workload parser has its own harness.
 * smk_args.c is compiled with -DSMK_FUZZ: smk_die returns here through longjmp (smk_fuzz_die). The
 * oracle: no sanitizer report, no hang. */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smk.h"

static jmp_buf g_jmp;

void smk_fuzz_die(const char *msg)
{
    (void)msg;
    longjmp(g_jmp, 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char buf[4097];
    static char *argv[512];
    static smk_opts_t o;
    static workload_t wl;
    static smk_cmd_t c;
    if (size > sizeof buf - 1)
        return 0;
    memcpy(buf, data, size);
    buf[size] = 0;
    int argc = 0;
    for (size_t i = 0; i <= size && argc < 511; i++) /* NUL-separated arguments, the last one ends at size */
        if (i == 0 || buf[i - 1] == 0)
            argv[argc++] = buf + i;
    if (size == 0)
        argc = 0;
    argv[argc] = NULL;
    if (setjmp(g_jmp))
        return 0;
    smk_args_parse(argc, argv, &o);
    if (o.workload || o.def)
        o.workload = SRCROOT "/cmodel/sim/workloads/parboil.wl";
    smk_args_resolve(&o, &wl, &c);
    return 0;
}
