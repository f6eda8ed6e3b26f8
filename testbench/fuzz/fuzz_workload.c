/* fuzz_workload.c: libFuzzer harness of the workload parser, cmodel/sim/workload.c (docs/verification.md
 * "Fuzzing"). The input is a workload file: wl_parse, then, when it is accepted, every kernel checked
 * against this configuration (wl_check_fit, as smk does) and looked up by name. The oracle: no
 * sanitizer report, no hang; a rejected file gives a one-line message "FILE:LINE: ..." and an accepted
 * one holds 1..64 kernels whose derived thresholds are ordered. */
#define _POSIX_C_SOURCE 200809L /* fmemopen */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smk_cfg.h"
#include "workload.h"

static void fail(const char *what, const char *err)
{
    fprintf(stderr, "fuzz_workload: %s: %s\n", what, err);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static workload_t wl;
    char err[512];
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f) /* fmemopen of 0 bytes */
        return 0;
    err[0] = 0;
    const int rc = wl_parse(f, "fuzz.wl", &wl, err, sizeof err);
    fclose(f);
    if (rc) {
        if (strncmp(err, "fuzz.wl:", 8) || strchr(err, '\n'))
            fail("not a one-line FILE:LINE: message", err);
        return 0;
    }
    if (wl.nk < 1 || wl.nk > WL_MAX_KERNELS)
        fail("accepted with a kernel count out of range", "");
    for (int k = 0; k < wl.nk; k++) {
        const wl_kernel_t *kk = &wl.k[k];
        if (wl_find(&wl, kk->name) != k)
            fail("a kernel not found by its name", kk->name);
        for (int i = 1; i < WL_NCLASS; i++)
            if (kk->cmix[i] < kk->cmix[i - 1] && kk->mix[i] > 0)
                fail("instruction-mix thresholds out of order", kk->name);
        if (kk->n_act < 1 || kk->cact[kk->n_act - 1] != (uint64_t)1 << 32)
            fail("active-thread thresholds do not end at 2^32", kk->name);
        if (wl_check_fit(&wl, k, SMK_WARPS, SMK_LIM_REG, SMK_LIM_SL * SMK_CTX_LINE, SMK_MAX_REGS,
                         (uint32_t)((1u << SMK_GRID_W) - 1), SMK_TB_SLOTS, err, sizeof err) &&
            (strncmp(err, "fuzz.wl:", 8) || strchr(err, '\n')))
            fail("fit: not a one-line FILE:LINE: message", err);
    }
    return 0;
}
