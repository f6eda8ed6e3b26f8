/* fuzz_hwgen.c: libFuzzer harness of hw/hwgen.c's two parsers (docs/verification.md "Fuzzing").
 *
 *   -DFUZZ_TARGET=1  the input is a configuration file: parse_config, then the real hw/regmap.def
 *                    checked against it and both headers emitted (derived widths included)
 *   -DFUZZ_TARGET=2  the input is a register map: hw/configs/gtx980.cfg, then parse_regmap with the
 *                    fit checks, both headers emitted and the Markdown tables of both spaces
 *
 * hwgen.c is compiled in with -DHWGEN_FUZZ: die() returns here through longjmp with its message
 * instead of exiting. The oracle: no sanitizer report (ASan, UBSan with -fno-sanitize-recover), no
 * hang, and every error one line of printable text "FILE:LINE: ...". SRCROOT is the repository. */
#define _POSIX_C_SOURCE 200809L /* fmemopen */
#define main hwgen_main
#include "../../hw/hwgen.c"
#undef main

#include <stdint.h>

static FILE *g_null;
static char *g_fixed; /* the other input: hw/regmap.def (target 1) or hw/configs/gtx980.cfg (target 2) */
static size_t g_fixed_n;

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fuzz_hwgen: cannot open %s\n", path);
        abort();
    }
    static char buf[1 << 16];
    *n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    char *p = malloc(*n + 1);
    memcpy(p, buf, *n);
    return p;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    g_null = fopen("/dev/null", "w");
    g_fixed = slurp(FUZZ_TARGET == 1 ? SRCROOT "/hw/regmap.def" : SRCROOT "/hw/configs/gtx980.cfg", &g_fixed_n);
    return 0;
}

static void check_message(void)
{
    for (const char *c = die_msg; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) {
            fprintf(stderr, "fuzz_hwgen: the error message holds byte 0x%02x: %s\n", (unsigned char)*c, die_msg);
            abort();
        }
    if (strncmp(die_msg, g_file, strlen(g_file)) || die_msg[strlen(g_file)] != ':') {
        fprintf(stderr, "fuzz_hwgen: the error message does not start with FILE:LINE: %s\n", die_msg);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *f;
    fuzz_reset();
    if (setjmp(die_jmp)) {
        if (f)
            fclose(f);
        f = NULL;
        check_message();
        return 0;
    }
    /* the fixed input first (it is valid), then the fuzzed one */
    f = fmemopen(FUZZ_TARGET == 1 ? (void *)data : g_fixed, FUZZ_TARGET == 1 ? size : g_fixed_n, "r");
    if (!f) /* fmemopen of 0 bytes */
        return 0;
    g_file = FUZZ_TARGET == 1 ? "fuzz.cfg" : SRCROOT "/hw/configs/gtx980.cfg";
    parse_config(f);
    fclose(f);
    f = fmemopen(FUZZ_TARGET == 1 ? g_fixed : (void *)data, FUZZ_TARGET == 1 ? g_fixed_n : size, "r");
    if (!f)
        return 0;
    g_file = FUZZ_TARGET == 1 ? SRCROOT "/hw/regmap.def" : "fuzz.def";
    parse_regmap(f, 1);
    fclose(f);
    f = NULL;
    emit(g_null, 0, "fuzz", "fuzz");
    emit(g_null, 1, "fuzz", "fuzz");
    if (FUZZ_TARGET == 2) {
        FILE *so = stdout;
        stdout = g_null;
        regmap_md("SM");
        regmap_md("QM");
        stdout = so;
    }
    return 0;
}
