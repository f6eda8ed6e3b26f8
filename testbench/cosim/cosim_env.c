/* cosim_env.c: the observation compare and the invariant report of every cosim environment
 * (cosim_env.h). */
#include "cosim_env.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int obs_diff(const obs_table_t *t, const uint64_t *ref, const uint64_t *rtl, uint64_t cycle, const char *part,
             int index, int bad, int limit)
{
    if (memcmp(ref, rtl, (size_t)t->nv * sizeof ref[0]) == 0)
        return bad;
    char pre[24] = "";
    if (part && index < 0)
        snprintf(pre, sizeof pre, "%s.", part);
    else if (part)
        snprintf(pre, sizeof pre, "%s[%d].", part, index);
    for (int d = 0; d < t->nsig; d++)
        for (int i = 0; i < t->sig[d].n; i++) {
            const int j = t->sig[d].off + i;
            if (ref[j] == rtl[j])
                continue;
            if (bad++ < limit) {
                char nm[64];
                if (t->sig[d].n > 1)
                    snprintf(nm, sizeof nm, "%s%s[%d]", pre, t->sig[d].name, i);
                else
                    snprintf(nm, sizeof nm, "%s%s", pre, t->sig[d].name);
                printf("MISMATCH cycle %llu signal %s ref=0x%llx rtl=0x%llx\n", (unsigned long long)cycle, nm,
                       (unsigned long long)ref[j], (unsigned long long)rtl[j]);
            }
        }
    return bad;
}

void obs_report(int bad, uint64_t cycle, const char *replay)
{
    printf("MISMATCH %d signal(s) at cycle %llu; replay with waveform window:\n  %s\n", bad, (unsigned long long)cycle,
           replay);
}

int env_viol(uint64_t cycle, const char *fmt, ...)
{
    va_list ap;
    printf("INVARIANT cycle %llu: ", (unsigned long long)cycle);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    return 1;
}

int env_port(uint64_t cycle, const char *part, int pi, const char *name, int i, uint64_t v, int w)
{
    if (w >= 64 || v >> w == 0)
        return 0;
    char pre[24] = "", idx[16] = "";
    if (part && pi < 0)
        snprintf(pre, sizeof pre, "%s.", part);
    else if (part)
        snprintf(pre, sizeof pre, "%s[%d].", part, pi);
    if (i >= 0)
        snprintf(idx, sizeof idx, "[%d]", i);
    return env_viol(cycle, "stimulus: %s%s%s = %llu does not fit its %d-bit port (a testbench bug)", pre, name, idx,
                    (unsigned long long)v, w);
}
