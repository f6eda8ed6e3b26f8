/* cosim_env.h: what every cosim environment (testbench/cosim/..._env.c) shares: the compare of an
 * observation vector against the RTL's, signal by signal from a table of its names and widths, and
 * the one-line invariant report. */
#ifndef COSIM_ENV_H
#define COSIM_ENV_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One entry of an observation vector's X-macro list: n elements v[off .. off + n - 1] named NAME
 * (NAME[i] when n > 1). */
typedef struct {
    const char *name;
    int off, n;
} obs_sig_t;
/* The whole list: nsig entries covering the nv elements of the vector. */
typedef struct {
    const obs_sig_t *sig;
    int nsig, nv;
} obs_table_t;
/* Defines `const obs_table_t NAME` from the X-macro list LIST of a vector of nv elements; SIG(nm, n)
 * expands one entry to {#nm, OFFSET_OF_nm, (n)}, (the list's own enum). */
#define OBS_DEFINE_TABLE(NAME, LIST, SIG, nv)                                                        \
    static const obs_sig_t NAME##_sigs[] = {LIST(SIG)};                                             \
    const obs_table_t NAME = {NAME##_sigs, (int)(sizeof NAME##_sigs / sizeof NAME##_sigs[0]), (nv)}

/* Compares ref and rtl element by element and prints each differing signal,
 *     MISMATCH cycle C signal [PART.]NAME[[i]] ref=0x... rtl=0x...
 * as long as fewer than `limit` have been printed (the count starts at `bad`). PART is omitted
 * when part is NULL, printed as "part" when index < 0 and as "part[index]" otherwise. Returns
 * bad plus the number of differing signals. */
int obs_diff(const obs_table_t *t, const uint64_t *ref, const uint64_t *rtl, uint64_t cycle, const char *part,
             int index, int bad, int limit);
/* The line that ends a mismatch report: the count, the cycle and the replay command. */
void obs_report(int bad, uint64_t cycle, const char *replay);

/* An invariant violation: prints "INVARIANT cycle C: " and the message on one line; returns 1. */
int env_viol(uint64_t cycle, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A stimulus value v driven onto a w-bit input port of the Verilated model (w <= 64) must fit it: the harness
 * assigns it to the port as it is and Verilator, which requires clean inputs, lets the bits above the port leak
 * into neighbouring state, while the C model masks them (a false C/RTL mismatch on a testbench bug). Returns 0 when
 * v fits; else prints the invariant violation "stimulus: [PART[pi].]NAME[[i]] = V does not fit its W-bit port (a
 * testbench bug)" (PART[pi]. when part is not NULL, "PART." when pi < 0; [i] when i >= 0) and returns 1. */
int env_port(uint64_t cycle, const char *part, int pi, const char *name, int i, uint64_t v, int w);

#ifdef __cplusplus
}
#endif
#endif
