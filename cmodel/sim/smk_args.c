/* smk_args.c: the options of `smk run` (docs/smk.md): the option table, parsing, the default
 * scenario, the workload, and every check of the options against it. The checks run in a fixed
 * order and the first failure is the one reported (smk.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "smk.h"

#define NSM SMK_NUM_SM
#define KN SMK_KERNELS

const char *const smk_policy_name[POL_N] = {"fcfs", "spart", "smk", "smkp", "qos"};
const uint32_t smk_policy_drv[POL_N] = {DRV_FCFS, DRV_SPART, DRV_SMK_OD, DRV_SMK_P, DRV_QOS};
const char *const smk_scheme_name[SC_N] = {"off", "smk", "naive", "elastic", "rollover", "rollover-time"};

/* One line "smk: ..." on stderr: a control character of the input echoed in the message (a kernel
 * name, a path) is shown as \xHH, never sent raw to the terminal */
void smk_die(const char *fmt, ...)
{
    char msg[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
#ifdef SMK_FUZZ
    smk_fuzz_die(msg);
#endif
    fprintf(stderr, "smk: ");
    for (const unsigned char *c = (const unsigned char *)msg; *c; c++)
        if (*c < 0x20 || *c == 0x7f)
            fprintf(stderr, "\\x%02x", *c);
        else
            fputc(*c, stderr);
    fprintf(stderr, "\n");
    exit(1);
}

/* ------------------------------------------------------------------ the option table */
typedef enum {
    OPT_CONFIG, OPT_WORKLOAD, OPT_KERNELS, OPT_POLICY, OPT_SCHEME, OPT_GOAL, OPT_CYCLES, OPT_ISO_CYCLES, OPT_SEED,
    OPT_EPOCH, OPT_PREEMPT, OPT_EVICT, OPT_QKEEP, OPT_QPRE, OPT_QDEBT, OPT_QTLPQ, OPT_QGIVE, OPT_QTLP, OPT_QHIST, OPT_FST, OPT_WINDOW, OPT_ISO, OPT_HILL,
    OPT_JSON, OPT_CSV, OPT_RTL, OPT_FULL_EVAL, OPT_TRACE, OPT_MAX2, OPT_CTX_FREE, OPT_DEFAULT, OPT_N
} opt_id_t;

typedef enum {
    ARG_FLAG,   /* no value */
    ARG_STRING, /* a value, at most once */
    ARG_LIST,   /* a value, repeatable (at most 64 times) */
    ARG_U64,    /* an integer lo..hi, at most once */
} opt_arg_t;

static const struct {
    const char *name;
    opt_arg_t arg;
    uint64_t lo, hi; /* ARG_U64 */
} opt_tab[OPT_N] = {
    [OPT_CONFIG] = {"--config", ARG_STRING, 0, 0},
    [OPT_WORKLOAD] = {"--workload", ARG_STRING, 0, 0},
    [OPT_KERNELS] = {"--kernels", ARG_STRING, 0, 0},
    [OPT_POLICY] = {"--policy", ARG_STRING, 0, 0},
    [OPT_SCHEME] = {"--scheme", ARG_STRING, 0, 0},
    [OPT_GOAL] = {"--goal", ARG_LIST, 0, 0},
    [OPT_CYCLES] = {"--cycles", ARG_U64, 1, 100000000000ULL},
    [OPT_ISO_CYCLES] = {"--iso-cycles", ARG_U64, 1, 100000000000ULL},
    [OPT_SEED] = {"--seed", ARG_U64, 0, UINT64_MAX},
    [OPT_EPOCH] = {"--epoch", ARG_U64, 100, SMK_MASK(SMK_EPOCH_W)},
    [OPT_PREEMPT] = {"--preempt", ARG_STRING, 0, 0},
    [OPT_EVICT] = {"--evict", ARG_STRING, 0, 0},
    [OPT_QKEEP] = {"--qos-keep", ARG_STRING, 0, 0},
    [OPT_QPRE] = {"--qos-preempt", ARG_STRING, 0, 0},
    [OPT_QDEBT] = {"--qos-debt", ARG_STRING, 0, 0},
    [OPT_QTLPQ] = {"--qos-tlpq", ARG_STRING, 0, 0},
    [OPT_QGIVE] = {"--qos-give", ARG_STRING, 0, 0},
    [OPT_QTLP] = {"--qos-tlp", ARG_STRING, 0, 0},
    [OPT_QHIST] = {"--qos-hist", ARG_STRING, 0, 0},
    [OPT_FST] = {"--fst", ARG_STRING, 0, 0},
    [OPT_WINDOW] = {"--window", ARG_STRING, 0, 0},
    [OPT_ISO] = {"--iso", ARG_LIST, 0, 0},
    [OPT_HILL] = {"--hill", ARG_U64, 1000, 1000000000ULL},
    [OPT_JSON] = {"--json", ARG_FLAG, 0, 0},
    [OPT_CSV] = {"--csv", ARG_FLAG, 0, 0},
    [OPT_RTL] = {"--rtl", ARG_FLAG, 0, 0},
    [OPT_FULL_EVAL] = {"--full-eval", ARG_FLAG, 0, 0},
    [OPT_TRACE] = {"--trace", ARG_FLAG, 0, 0},
    [OPT_MAX2] = {"--max2", ARG_FLAG, 0, 0},
    [OPT_CTX_FREE] = {"--ctx-free", ARG_FLAG, 0, 0},
    [OPT_DEFAULT] = {"--default", ARG_FLAG, 0, 0},
};

/* The default scenario (`smk run`, `smk run --default`; docs/smk.md "Default scenario"): a
 * compute-bound QoS kernel with a memory-bound non-QoS kernel, policy qos, Rollover, 2M cycles,
 * goal 80% of the isolated IPC. Options given with --default override these. */
#define DEF_CONFIG "gtx980"
#define DEF_QOS "tpacf"
#define DEF_NONQOS "spmv"
#define DEF_KERNELS DEF_QOS "," DEF_NONQOS
#define DEF_GOAL DEF_QOS "=0.8"
#define DEF_POLICY "qos"
#define DEF_SCHEME "rollover"

/* ------------------------------------------------------------------ values */
static uint64_t parse_u64(const char *opt, const char *s, uint64_t lo, uint64_t hi)
{
    if (!*s)
        smk_die("%s: expected an integer %llu..%llu, got \"%s\"", opt, (unsigned long long)lo, (unsigned long long)hi,
                s);
    for (const char *c = s; *c; c++)
        if (*c < '0' || *c > '9')
            smk_die("%s: expected an integer %llu..%llu, got \"%s\"", opt, (unsigned long long)lo,
                    (unsigned long long)hi, s);
    errno = 0;
    const unsigned long long v = strtoull(s, NULL, 10); /* digits only: ERANGE is the only error */
    if (errno || v < lo || v > hi)
        smk_die("%s: %s out of range (expected %llu..%llu)", opt, s, (unsigned long long)lo, (unsigned long long)hi);
    return v;
}

/* the index of v in names[0..n-1], or dies listing them */
static int pick(const char *opt, const char *v, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(v, names[i]))
            return i;
    char list[128] = "";
    size_t o = 0;
    for (int i = 0; i < n; i++)
        o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", i ? " | " : "", names[i]);
    smk_die("%s: unknown value \"%s\" (expected %s)", opt, v, list);
}

/* ------------------------------------------------------------------ --config */
/* SHA-1 (FIPS 180-4) of s, its first 8 hex digits: the HASH of the Makefile's build/BASE-HASH */
static void sha1_8(const char *s, char out[9])
{
    uint32_t h[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
    const uint64_t n = strlen(s);
    const uint64_t nb = (n + 9 + 63) / 64; /* blocks: the bytes, 0x80, the 64-bit bit length */
    for (uint64_t b = 0; b < nb; b++) {
        uint32_t w[80];
        for (int i = 0; i < 16; i++) {
            w[i] = 0;
            for (int j = 0; j < 4; j++) {
                const uint64_t at = b * 64 + (uint64_t)(i * 4 + j);
                uint32_t byte = at < n ? (unsigned char)s[at] : at == n ? 0x80 : 0;
                if (b == nb - 1 && i >= 14)
                    byte = (uint32_t)((n * 8) >> (8 * (7 - ((i - 14) * 4 + j)))) & 0xFF;
                w[i] = w[i] << 8 | byte;
            }
        }
        for (int i = 16; i < 80; i++) {
            const uint32_t x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16];
            w[i] = x << 1 | x >> 31;
        }
        uint32_t a = h[0], bb = h[1], c = h[2], d = h[3], e = h[4];
        for (int i = 0; i < 80; i++) {
            const uint32_t f = i < 20 ? (bb & c) | (~bb & d) : i < 40 ? bb ^ c ^ d : i < 60 ? (bb & c) | (bb & d) | (c & d) : bb ^ c ^ d;
            const uint32_t k = i < 20 ? 0x5A827999 : i < 40 ? 0x6ED9EBA1 : i < 60 ? 0x8F1BBCDC : 0xCA62C1D6;
            const uint32_t t = (a << 5 | a >> 27) + f + e + k + w[i];
            e = d, d = c, c = bb << 30 | bb >> 2, bb = a, a = t;
        }
        h[0] += a, h[1] += bb, h[2] += c, h[3] += d, h[4] += e;
    }
    snprintf(out, 9, "%08x", h[0]);
}

/* The build directory's name of --config X as the Makefile names it (docs/params.md "Build
 * directories"): a name (no .cfg) is hw/configs/X.cfg's, build/X; a file ending in .cfg builds in
 * build/BASE-HASH, HASH from its absolute path as GNU make's $(abspath) writes it (the current
 * directory before a relative path; no ".", "..", repeated or trailing "/"; symbolic links kept). */
static void cfg_dir(const char *x, char *dir, size_t n)
{
    const size_t l = strlen(x);
    if (l < 4 || strcmp(x + l - 4, ".cfg")) {
        snprintf(dir, n, "%s", x);
        return;
    }
    char abs[8192] = "", cwd[4096];
    if (x[0] != '/' && getcwd(cwd, sizeof cwd))
        snprintf(abs, sizeof abs, "%s", cwd);
    size_t o = strlen(abs);
    for (const char *p = x; *p;) { /* one component of x at a time */
        while (*p == '/')
            p++;
        const size_t cl = strcspn(p, "/");
        if (!cl)
            break;
        if (cl == 1 && p[0] == '.')
            ;
        else if (cl == 2 && p[0] == '.' && p[1] == '.') {
            while (o > 0 && abs[o - 1] != '/')
                o--;
            if (o > 0)
                o--;
            abs[o] = 0;
        } else if (o + cl + 2 < sizeof abs) {
            abs[o++] = '/';
            memcpy(abs + o, p, cl);
            o += cl;
            abs[o] = 0;
        }
        p += cl;
    }
    if (!abs[0])
        snprintf(abs, sizeof abs, "/");
    char base[256], hash[9];
    const char *sl = strrchr(x, '/');
    snprintf(base, sizeof base, "%.*s", (int)(strlen(sl ? sl + 1 : x) - 4), sl ? sl + 1 : x);
    sha1_8(abs, hash);
    snprintf(dir, n, "%s-%s", base, hash);
}

/* --config X must name this binary's configuration: its name, or (a file given by its path) the file
 * the binary was built from (SMK_CFG_DIR, the build directory's name hwgen was given). Otherwise the
 * message names the binary of X and the make command that builds it. */
static void check_config(const char *x)
{
    char dir[512];
    cfg_dir(x, dir, sizeof dir);
    if (!strcmp(x, SMK_CFG_NAME) || !strcmp(dir, SMK_CFG_DIR))
        return;
    const size_t l = strlen(x);
    if (l >= 4 && !strcmp(x + l - 4, ".cfg"))
        smk_die("--config %s: this binary simulates configuration '%s'; use build/%s/smk (make CONFIG=%s build/%s/smk)",
                x, SMK_CFG_NAME, dir, x, dir);
    smk_die("--config %s: this binary simulates configuration '%s'; use build/%s/smk (make build/%s/smk)", x,
            SMK_CFG_NAME, dir, dir);
}

/* ------------------------------------------------------------------ parsing */
void smk_args_parse(int argc, char **argv, smk_opts_t *o)
{
    memset(o, 0, sizeof *o);
    const char *val[OPT_N] = {0}; /* the value of each ARG_STRING / ARG_U64 option given */
    uint64_t num[OPT_N] = {0};
    o->def = argc == 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int id = -1;
        for (int j = 0; j < OPT_N; j++)
            if (!strcmp(a, opt_tab[j].name))
                id = j;
        if (id < 0)
            smk_die("run: unknown argument \"%s\" (see smk --help)", a);
        if (opt_tab[id].arg == ARG_FLAG) {
            switch ((opt_id_t)id) {
            case OPT_JSON:
            case OPT_CSV:
                if (o->format != FMT_TABLE)
                    smk_die("--json and --csv: give at most one of them, once");
                o->format = id == OPT_JSON ? FMT_JSON : FMT_CSV;
                break;
            case OPT_RTL: o->rtl = 1; break;
            case OPT_FULL_EVAL: o->full = 1; break;
            case OPT_TRACE: o->trace = 1; break;
            case OPT_MAX2: o->max2 = 1; break;
            case OPT_CTX_FREE: o->ctx_free = 1; break;
            case OPT_DEFAULT: o->def = 1; break;
            default: break;
            }
            continue;
        }
        if (i + 1 >= argc)
            smk_die("%s: missing value", a);
        const char *v = argv[++i];
        if (opt_tab[id].arg == ARG_LIST) {
            const char **list = id == OPT_GOAL ? o->goals : o->isos;
            int *n = id == OPT_GOAL ? &o->ngoals : &o->nisos;
            if (*n == 64)
                smk_die("%s: too many", a);
            list[(*n)++] = v;
            continue;
        }
        if (val[id])
            smk_die("%s given twice", a);
        val[id] = v;
        if (opt_tab[id].arg == ARG_U64)
            num[id] = parse_u64(a, v, opt_tab[id].lo, opt_tab[id].hi);
        else if (id == OPT_WINDOW) {
            unsigned long long x, y;
            char tail;
            if (sscanf(v, "%llu:%llu%c", &x, &y, &tail) != 2 || y < x)
                smk_die("--window: expected FIRST:LAST lockstep cycles, FIRST <= LAST, got \"%s\"", v);
            o->win_a = x, o->win_b = y;
        }
    }
    o->config = val[OPT_CONFIG], o->workload = val[OPT_WORKLOAD], o->kernels = val[OPT_KERNELS];
    o->policy = val[OPT_POLICY];
    o->scheme = val[OPT_SCHEME] ? val[OPT_SCHEME] : "off";
    o->preempt = val[OPT_PREEMPT] ? val[OPT_PREEMPT] : "save";
    o->evict = val[OPT_EVICT] ? val[OPT_EVICT] : "save";
    o->qkeep = val[OPT_QKEEP] ? val[OPT_QKEEP] : "on";
    o->qpre = val[OPT_QPRE] ? val[OPT_QPRE] : "gpu";
    o->qdebt = val[OPT_QDEBT] ? val[OPT_QDEBT] : "on";
    o->qtlpq = val[OPT_QTLPQ] ? val[OPT_QTLPQ] : "off";
    o->qgive = val[OPT_QGIVE] ? val[OPT_QGIVE] : "off";
    o->qtlp = val[OPT_QTLP] ? val[OPT_QTLP] : "on";
    o->qhist = val[OPT_QHIST] ? val[OPT_QHIST] : "on";
    o->fst = val[OPT_FST];
    o->have_window = val[OPT_WINDOW] != NULL;
    o->cycles = val[OPT_CYCLES] ? num[OPT_CYCLES] : 2000000;
    o->iso_cycles = val[OPT_ISO_CYCLES] ? num[OPT_ISO_CYCLES] : o->cycles;
    o->seed = val[OPT_SEED] ? num[OPT_SEED] : 1;
    o->epoch = val[OPT_EPOCH] ? num[OPT_EPOCH] : 10000;
    o->hill = num[OPT_HILL];
    if (o->def) {
        if (!o->config)
            o->config = DEF_CONFIG;
        if (!o->kernels)
            o->kernels = o->workload ? NULL : DEF_KERNELS;
        if (!o->policy)
            o->policy = DEF_POLICY;
        if (!val[OPT_SCHEME])
            o->scheme = DEF_SCHEME;
        if (!o->ngoals && o->kernels && !strcmp(o->kernels, DEF_KERNELS))
            o->goals[o->ngoals++] = DEF_GOAL;
    }
    if (!o->config)
        smk_die("run: --config NAME is required (this binary: %s)", SMK_CFG_NAME);
    check_config(o->config);
    if ((o->fst || o->have_window) && !o->rtl)
        smk_die("--fst and --window: waveforms of the RTL, only with --rtl");
    if (o->fst && !o->have_window)
        smk_die("--fst: needs --window FIRST:LAST (lockstep cycles to dump)");
}

/* ------------------------------------------------------------------ the workload */
void smk_load(const char *path, workload_t *wl)
{
    char err[512];
    if (wl_load(path, wl, err, sizeof err))
        smk_die("%s", err);
}

/* The default scenario's workload, cmodel/sim/workloads/parboil.wl embedded at build time (a C string
 * generated by the Makefile: build/default_wl.c), so `smk run` needs no file. The parser reads
 * files: the text goes through a temporary file that is removed at once. */
extern const char smk_default_wl[];
static void load_builtin(workload_t *wl)
{
    const char *dir = getenv("TMPDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/smk-wl-XXXXXX", dir && *dir ? dir : "/tmp");
    const int fd = mkstemp(path);
    if (fd < 0)
        smk_die("built-in workload: cannot create a temporary file %s: %s", path, strerror(errno));
    const size_t n = strlen(smk_default_wl);
    FILE *f = fdopen(fd, "w");
    if (!f || fwrite(smk_default_wl, 1, n, f) != n || fclose(f)) {
        unlink(path);
        smk_die("built-in workload: cannot write %s", path);
    }
    char err[512];
    const int bad = wl_load(path, wl, err, sizeof err);
    unlink(path);
    if (bad)
        smk_die("built-in workload: %s", err);
    snprintf(wl->path, sizeof wl->path, "%s", SMK_DEFAULT_WL_NAME);
}

void smk_check_fit(const workload_t *wl, int k)
{
    char err[512];
    if (wl_check_fit(wl, k, SMK_WARPS, SMK_LIM_REG, SMK_LIM_SL * SMK_CTX_LINE, SMK_MAX_REGS,
                     (uint32_t)SMK_MASK(SMK_GRID_W), SMK_TB_SLOTS, err, sizeof err))
        smk_die("%s (configuration %s)", err, SMK_CFG_NAME);
}

/* ------------------------------------------------------------------ checks against the workload */
/* --kernels A,B,...: driver entry k runs workload kernel r->kw[k] */
static void resolve_kernels(const char *kernels, const workload_t *wl, const char *wname, smk_run_t *r)
{
    char buf[1024];
    if (strlen(kernels) >= sizeof buf)
        smk_die("--kernels: list too long");
    strcpy(buf, kernels);
    const char *p = buf;
    char *c;
    for (;;) {
        c = strchr(p, ',');
        if (c)
            *c = 0;
        if (!*p)
            smk_die("--kernels \"%s\": empty name in the list", kernels);
        const int k = wl_find(wl, p);
        if (k < 0)
            smk_die("--kernels: no kernel '%s' in %s", p, wname);
        for (int j = 0; j < r->nk; j++)
            if (r->kw[j] == k)
                smk_die("--kernels: '%s' listed twice", p);
        if (r->nk == KN)
            smk_die("--kernels: more than %d kernels (the driver's kernel table, configuration %s)", KN, SMK_CFG_NAME);
        smk_check_fit(wl, k);
        r->kw[r->nk++] = k;
        if (!c)
            break;
        p = c + 1;
    }
}

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
                     const smk_run_t *r, const workload_t *wl)
{
    int given[KN] = {0};
    l->n = 0;
    for (int i = 0; i < nvals && i < 64; i++) {
        if (strlen(vals[i]) >= sizeof l->buf[i])
            smk_die("%s: too long", opt);
        strcpy(l->buf[i], vals[i]);
        for (char *tok = strtok(l->buf[i], ","); tok; tok = strtok(NULL, ",")) {
            char *eq = strchr(tok, '=');
            if (!eq)
                smk_die("%s \"%s\": expected KERNEL=%s", opt, vals[i], form);
            *eq = 0;
            int k = -1;
            for (int j = 0; j < r->nk; j++)
                if (!strcmp(wl->k[r->kw[j]].name, tok))
                    k = j;
            if (k < 0)
                smk_die("%s: '%s' is not one of --kernels", opt, tok);
            if (given[k])
                smk_die("%s: '%s' given twice", opt, tok);
            given[k] = 1;
            l->k[l->n] = k, l->name[l->n] = tok, l->val[l->n] = eq + 1, l->n++;
        }
    }
}

/* --goal K=F: the QoS kernels' goals */
static void resolve_goals(const smk_opts_t *o, const workload_t *wl, smk_run_t *r)
{
    static kv_list_t kv;
    kv_items(&kv, "--goal", "FRACTION", o->goals, o->ngoals, r, wl);
    for (int i = 0; i < kv.n; i++) {
        char *end;
        errno = 0;
        const double f = strtod(kv.val[i], &end);
        /* ERANGE of a tiny value (1e-310) is an underflow to a denormal or 0: a number, out of range below */
        if (end == kv.val[i] || *end || (errno && fabs(f) > 1) || !(f > 0) || f > 1)
            smk_die("--goal %s=%s: expected a fraction of the isolated IPC, 0 < F <= 1", kv.name[i], kv.val[i]);
        if (llround(f * 10000.0) < 1) /* launch_fields (smk_run.c): F to 4 decimals */
            smk_die("--goal %s=%s: F is taken to 4 decimals and this one rounds to 0 (a goal every run meets); "
                    "expected 0.00005 <= F <= 1", kv.name[i], kv.val[i]);
        r->goal[kv.k[i]] = f;
    }
}

/* --iso K=T/W: the isolated run of K is not simulated; T and W are its thread and warp
 * instructions in --iso-cycles cycles (iso_thread_insts / iso_warp_insts of a --json run with the
 * same workload, seed, epoch and --iso-cycles) */
static void resolve_iso(const smk_opts_t *o, const workload_t *wl, smk_cmd_t *c)
{
    static kv_list_t kv;
    const uint64_t iso = c->iso_cycles;
    kv_items(&kv, "--iso", "THREAD_INSTS/WARP_INSTS", o->isos, o->nisos, &c->shared, wl);
    for (int i = 0; i < kv.n; i++) {
        const char *v = kv.val[i];
        char *end;
        uint64_t n[2];
        for (int h = 0; h < 2; h++) {
            errno = 0;
            /* digits only: strtoull would also take a sign or leading blanks */
            n[h] = *v >= '0' && *v <= '9' ? strtoull(v, &end, 10) : (end = (char *)v, 0);
            if (end == v || errno || *end != (h ? '\0' : '/'))
                smk_die("--iso %s=%s: expected THREAD_INSTS/WARP_INSTS, two unsigned integers", kv.name[i],
                        kv.val[i]);
            v = end + 1;
        }
        /* what an isolated run can give: at most WARP_SIZE threads per completed warp instruction
         * (completions <= issues), at most SCHED issues per SM and cycle */
        if (n[1] > iso * NSM * SMK_SCHED || n[0] > n[1] * SMK_WARP_SIZE) /* in this order: no overflow */
            smk_die("--iso %s=%s: not the counts of an isolated run of %llu cycles (thread instructions <= %d x "
                    "warp instructions <= %d x cycles)",
                    kv.name[i], kv.val[i], (unsigned long long)iso, SMK_WARP_SIZE, NSM * SMK_SCHED);
        c->iso_given[kv.k[i]] = 1, c->iso_thr[kv.k[i]] = n[0], c->iso_wis[kv.k[i]] = n[1];
    }
}

void smk_args_resolve(const smk_opts_t *o, workload_t *wl, smk_cmd_t *c)
{
    if (!o->workload && !o->def)
        smk_die("run: --workload FILE is required");
    if (!o->kernels)
        smk_die("run: --kernels A,B,... is required");
    if (!o->policy)
        smk_die("run: --policy fcfs|spart|smk|smkp|qos is required");
    if (o->workload)
        smk_load(o->workload, wl);
    else
        load_builtin(wl);
    memset(c, 0, sizeof *c);
    c->wname = o->workload ? o->workload : SMK_DEFAULT_WL_NAME;
    c->format = o->format;
    c->iso_cycles = o->iso_cycles;
    smk_run_t *r = &c->shared;
    r->wl = wl, r->cycles = o->cycles, r->seed = o->seed, r->epoch = (uint32_t)o->epoch;
    r->rtl = o->rtl, r->full = o->rtl | o->full;
    r->label = "shared", r->trace = o->trace;
    r->policy = (smk_policy_t)pick("--policy", o->policy, smk_policy_name, POL_N);
    r->scheme = (smk_scheme_t)pick("--scheme", o->scheme, smk_scheme_name, SC_N);
    static const char *const pre_names[] = {"save", "drop"}, *const ev_names[] = {"save", "drain"};
    static const uint32_t pre_op[] = {SMK_PE_OP_SAVE, SMK_PE_OP_DROP}, ev_op[] = {SMK_PE_OP_SAVE, SMK_PE_OP_DRAIN};
    r->pmode = pre_op[pick("--preempt", o->preempt, pre_names, 2)];
    r->evict = ev_op[pick("--evict", o->evict, ev_names, 2)];
    static const char *const keep_names[] = {"off", "on"}, *const qpre_names[] = {"sm", "gpu"};
    r->qctl = (uint32_t)pick("--qos-keep", o->qkeep, keep_names, 2) * DRV_QC_KEEP |
              (uint32_t)pick("--qos-preempt", o->qpre, qpre_names, 2) * DRV_QC_PGPU;
    r->debt = pick("--qos-debt", o->qdebt, keep_names, 2);
    r->tlpq = pick("--qos-tlpq", o->qtlpq, keep_names, 2);
    r->give = pick("--qos-give", o->qgive, keep_names, 2);
    r->tlp = pick("--qos-tlp", o->qtlp, keep_names, 2);
    r->hist = pick("--qos-hist", o->qhist, keep_names, 2);
    r->max2 = o->max2;
    r->ctx_free = o->ctx_free;
    resolve_kernels(o->kernels, wl, c->wname, r);
    if (r->policy == POL_SPART && r->nk > NSM)
        smk_die("--policy spart: %d kernels but only %d SMs", r->nk, NSM);
    resolve_goals(o, wl, r);
    resolve_iso(o, wl, c);
    int nq = 0;
    for (int k = 0; k < r->nk; k++)
        nq += r->goal[k] > 0;
    if (r->scheme >= SC_NAIVE && !nq)
        smk_die("--scheme %s: QoS quotas need at least one --goal", smk_scheme_name[r->scheme]);
    if (o->hill) {
        if (r->policy != POL_SPART)
            smk_die("--hill: moves SMs between the kernels of --policy spart, not %s", smk_policy_name[r->policy]);
        if (!nq || nq == r->nk)
            smk_die("--hill: needs a QoS kernel (--goal) and a non-QoS kernel to take SMs from");
        r->hill = o->hill;
    }
}
