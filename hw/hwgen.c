/* hwgen: the single source of truth for smk-qos parameters.
 *
 *   hwgen CONFIG.cfg REGMAP.def OUTDIR    write OUTDIR/smk_cfg.h and OUTDIR/smk_cfg.vh
 *   hwgen --check CONFIG.cfg REGMAP.def   validate only
 *   hwgen --regmap-md REGMAP.def SPACE    print the register map of SPACE (SM, QM) as a Markdown table
 *
 * Every structural parameter and width is read or derived here once; the C model includes
 * smk_cfg.h and the RTL includes smk_cfg.vh, so the two sides cannot disagree.  Any error is
 * one line "FILE:LINE: what was expected" and exit status 1.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef HWGEN_FUZZ
#include <setjmp.h>
#endif

static const char *g_file;

#ifdef HWGEN_FUZZ
/* testbench/fuzz/fuzz_hwgen.c: an error returns to the harness with the message in die_msg */
static jmp_buf die_jmp;
static char die_msg[2048];
#endif

/* the error "FILE:LINE: message" on one line, control characters of the input shown as \xHH */
static void die(int line, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void die(int line, const char *fmt, ...)
{
    char msg[2048], out[2048 * 4 + 16];
    int n = snprintf(msg, sizeof msg, "%s:%d: ", g_file, line);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < sizeof msg)
        vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    size_t o = 0;
    for (const unsigned char *c = (const unsigned char *)msg; *c; c++)
        o += (size_t)(*c < 0x20 || *c == 0x7f ? snprintf(out + o, sizeof out - o, "\\x%02x", *c)
                                               : snprintf(out + o, sizeof out - o, "%c", *c));
#ifdef HWGEN_FUZZ
    snprintf(die_msg, sizeof die_msg, "%s", out);
    longjmp(die_jmp, 1);
#else
    fprintf(stderr, "%s\n", out);
    exit(1);
#endif
}

/* One line of f into buf (its newline dropped): 1, or 0 at the end of the file. A read error (a
 * directory given as the file), a NUL byte or a line longer than n - 2 characters is an error of
 * the file, never a silent truncation. */
static int get_line(FILE *f, char *buf, size_t n, int *line, const char *what)
{
    size_t len = 0;
    int ch, nul = 0;
    errno = 0;
    while ((ch = getc(f)) != EOF && ch != '\n') {
        if (ch == 0)
            nul = 1;
        if (len < n - 1)
            buf[len] = (char)ch;
        len++;
    }
    if (ferror(f))
        die(*line, "cannot read %s: %s", what, strerror(errno ? errno : EIO));
    if (ch == EOF && len == 0)
        return 0;
    (*line)++;
    if (len > n - 2)
        die(*line, "line longer than %zu characters", n - 2);
    buf[len] = 0;
    if (nul)
        die(*line, "NUL byte in the line (not a text file?)");
    return 1;
}

/* ---------------------------------------------------------------- configuration keys */
enum {
    K_NUM_SM, K_WARPS, K_SCHED, K_KSLOTS, K_KERNELS, K_TBSLOTS, K_REGS, K_SMEM, K_THREADS,
    K_WARPSZ, K_CMPL, K_QW, K_EW, K_SW, K_PEQD, K_CTXLINE, K_CTLB, K_RMAX, K_OMAX, K_PW, K_PTBQ, K_GW, K_PROT, K_DPIPE, K_NKEYS
};
static const struct key {
    const char *name, *macro;
    long min, max;
} keys[K_NKEYS] = {
    [K_NUM_SM]  = {"num_sm", "NUM_SM", 1, 64},
    [K_WARPS]   = {"warps_per_sm", "WARPS", 1, 64},
    [K_SCHED]   = {"sched_per_sm", "SCHED", 1, 8},
    [K_KSLOTS]  = {"kslots_per_sm", "KSLOTS", 1, 16},
    [K_KERNELS] = {"kernels_gpu", "KERNELS", 1, 64},
    [K_TBSLOTS] = {"tb_slots_per_sm", "TB_SLOTS", 1, 64},
    [K_REGS]    = {"regs_per_sm", "REGS", 256, 1L << 22},
    [K_SMEM]    = {"smem_per_sm", "SMEM", 0, 1L << 22},
    [K_THREADS] = {"threads_per_sm", "THREADS", 1, 4096},
    [K_WARPSZ]  = {"warp_size", "WARP_SIZE", 4, 64},
    [K_CMPL]    = {"cmpl_per_sched", "CMPL_PER_SCHED", 1, 4},
    [K_QW]      = {"quota_width", "QUOTA_W", 8, 32},
    [K_EW]      = {"epoch_width", "EPOCH_W", 4, 31},
    [K_SW]      = {"stat_width", "STAT_W", 8, 32},
    /* preemption engine (docs/preempt_engine.md "Parameters") */
    [K_PEQD]    = {"pe_queue_depth", "PE_QDEPTH", 1, 16},
    [K_CTXLINE] = {"ctx_line_bytes", "CTX_LINE", 16, 256},
    [K_CTLB]    = {"ctl_bytes_per_warp", "CTL_BYTES", 1, 4096},
    [K_RMAX]    = {"max_regs_per_thread", "MAX_REGS", 1, 255},
    [K_OMAX]    = {"pe_max_outstanding", "PE_OMAX", 1, 64},
    [K_PW]      = {"ctx_ptr_width", "CTX_PTR_W", 8, 48},
    /* SM driver (docs/sm_driver.md "Parameters") */
    [K_PTBQ]    = {"ptbq_depth", "PTBQ", 1, 64},
    [K_GW]      = {"grid_width", "GRID_W", 8, 24},
    [K_PROT]    = {"part_rotate", "PART_ROT", 1, 1L << 20},
    [K_DPIPE]   = {"drv_pipe", "DRV_PIPE", 0, 1},
};

static long val[K_NKEYS];
static int vline[K_NKEYS];

static int clog2(long v) /* bits to index v items = ceil(log2(v)), at least 1 */
{
    int b = 0;
    while ((1L << b) < v)
        b++;
    return b < 1 ? 1 : b;
}

/* preemption engine (docs/preempt_engine.md): lines per warp of control state, shared-memory lines
 * of the largest TB, and the largest context of one TB */
static long ctl_lines(void) { return (val[K_CTLB] + val[K_CTXLINE] - 1) / val[K_CTXLINE]; }
static long smem_lines(void) { return (val[K_SMEM] + val[K_CTXLINE] - 1) / val[K_CTXLINE]; }
static long ctx_max_lines(void)
{
    return val[K_WARPS] * ctl_lines() + val[K_REGS] / val[K_WARPSZ] + smem_lines();
}

static long gcd(long a, long b)
{
    while (b) {
        long t = a % b;
        a = b, b = t;
    }
    return a;
}
static long lcm(long a, long b) { return a / gcd(a, b) * b; }
/* SM driver: per-SM limits in allocation units (docs/sm_driver.md "Units") and their lcm D;
 * a zero limit (no shared memory) takes no part */
static long lim_reg(void) { return val[K_REGS] / val[K_WARPSZ]; }
static long share_d(void)
{
    long d = lcm(lcm(lim_reg(), val[K_WARPS]), val[K_TBSLOTS]);
    return smem_lines() ? lcm(d, smem_lines()) : d;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = 0;
    return s;
}

/* an integer: decimal (a leading 0 is still decimal: 010 is ten, never octal) or 0x hexadecimal,
 * optionally negative; nothing else around it */
static int parse_long(const char *s, long *out)
{
    const int neg = *s == '-';
    const char *p = s + neg;
    const int hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
    p += hex ? 2 : 0;
    if (!(hex ? isxdigit((unsigned char)*p) : isdigit((unsigned char)*p)))
        return 0;
    char *end;
    errno = 0;
    const long v = strtol(p, &end, hex ? 16 : 10);
    if (errno || *end)
        return 0;
    *out = neg ? -v : v;
    return 1;
}

/* the configuration in f (g_file names it): every key, in range, and the consistency rules */
static void parse_config(FILE *f)
{
    char buf[512];
    int line = 0;
    while (get_line(f, buf, sizeof buf, &line, "configuration")) {
        char *h = strchr(buf, '#');
        if (h)
            *h = 0;
        char *s = trim(buf);
        if (!*s)
            continue;
        char *eq = strchr(s, '=');
        if (!eq)
            die(line, "expected \"key = value\", got \"%s\"", s);
        *eq = 0;
        char *k = trim(s), *v = trim(eq + 1);
        int i;
        for (i = 0; i < K_NKEYS; i++)
            if (!strcmp(k, keys[i].name))
                break;
        if (i == K_NKEYS) { /* the list is built from the key table, so it cannot go stale */
            char all[1024] = "";
            for (int j = 0; j < K_NKEYS; j++)
                snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s", j ? ", " : "", keys[j].name);
            die(line, "unknown key '%s' (expected one of %s)", k, all);
        }
        if (vline[i])
            die(line, "key '%s' given twice (first at line %d)", k, vline[i]);
        long x;
        if (!parse_long(v, &x))
            die(line, "key '%s': expected an integer, got \"%s\"", k, v);
        if (x < keys[i].min || x > keys[i].max)
            die(line, "key '%s' = %ld out of range (expected %ld..%ld)", k, x, keys[i].min, keys[i].max);
        val[i] = x;
        vline[i] = line;
    }
    for (int i = 0; i < K_NKEYS; i++)
        if (!vline[i])
            die(line, "missing key '%s' (every key is required)", keys[i].name);

    /* consistency */
    if (val[K_WARPS] % val[K_SCHED])
        die(vline[K_SCHED], "warps_per_sm (%ld) is not divisible by sched_per_sm (%ld)", val[K_WARPS], val[K_SCHED]);
    if (val[K_WARPSZ] != 32) /* docs/params.md "Warp size" */
        die(vline[K_WARPSZ], "warp_size (%ld) must be 32: workload files, the timing model and smk count "
                             "32 threads per warp", val[K_WARPSZ]);
    if (val[K_THREADS] != val[K_WARPS] * val[K_WARPSZ])
        die(vline[K_THREADS], "threads_per_sm (%ld) must equal warps_per_sm x warp_size (%ld)",
            val[K_THREADS], val[K_WARPS] * val[K_WARPSZ]);
    if (val[K_TBSLOTS] > val[K_WARPS])
        die(vline[K_TBSLOTS], "tb_slots_per_sm (%ld) exceeds warps_per_sm (%ld): every TB has a warp",
            val[K_TBSLOTS], val[K_WARPS]);
    if (val[K_KSLOTS] > val[K_KERNELS])
        die(vline[K_KSLOTS], "kslots_per_sm (%ld) exceeds kernels_gpu (%ld)", val[K_KSLOTS], val[K_KERNELS]);
    long decmax = val[K_SCHED] * val[K_CMPL] * val[K_WARPSZ]; /* thread instructions per cycle */
    int need = (int)val[K_EW] + clog2(decmax);
    if (val[K_QW] - 1 < need)
        die(vline[K_QW], "quota_width %ld too small: one epoch of up to 2^%ld cycles at %ld thread "
                         "instructions per cycle needs %d magnitude bits + sign = %d",
            val[K_QW], val[K_EW], decmax, need, need + 1);
    if (val[K_SW] < need)
        die(vline[K_SW], "stat_width %ld too small: one epoch of up to 2^%ld cycles at %ld thread "
                         "instructions per cycle needs %d bits",
            val[K_SW], val[K_EW], decmax, need);
    /* QoS manager (docs/qos_mgr.md 7.5): its computation time LC is an epoch length of its L register
     * (epoch_width + 1 bits); D = 33 cycles per division (32-bit quotient), MM = 4 per MUL */
    const long qd = 33, mm = 4, kn = val[K_KERNELS], nsm = val[K_NUM_SM];
    const long lcq = 2 * kn * nsm + kn * (6 + 6 * qd + 5 * (mm - 1)) + mm + 7;
    const long lcs = 5 + kn * qd + nsm * (2 * kn + 2 * mm + qd);
    const long lc = lcq > lcs ? lcq : lcs;
    if (lc >= 1L << (val[K_EW] + 1))
        die(vline[K_EW], "epoch_width %ld too small: the QoS manager's computation of %ld cycles (LC, "
                         "docs/qos_mgr.md 7.5, from kernels_gpu and num_sm) must fit the epoch length's %ld bits",
            val[K_EW], lc, val[K_EW] + 1);
    /* preemption engine */
    if (val[K_CTXLINE] != 4 * val[K_WARPSZ])
        die(vline[K_CTXLINE], "ctx_line_bytes (%ld) must equal 4 x warp_size (%ld): one line holds one "
                              "register of one warp", val[K_CTXLINE], 4 * val[K_WARPSZ]);
    if (val[K_RMAX] * val[K_WARPSZ] > val[K_REGS])
        die(vline[K_RMAX], "max_regs_per_thread (%ld) x warp_size (%ld) exceeds regs_per_sm (%ld): one "
                           "warp must fit", val[K_RMAX], val[K_WARPSZ], val[K_REGS]);
    long maxl = ctx_max_lines();
    if (val[K_PW] < clog2(maxl + 1))
        die(vline[K_PW], "ctx_ptr_width %ld too small: the largest context (%ld lines) needs %d bits",
            val[K_PW], maxl, clog2(maxl + 1));
    /* SM driver */
    if (val[K_PTBQ] * maxl > (1L << val[K_PW]))
        die(vline[K_PTBQ], "ptbq_depth %ld too large: %ld contexts of %ld lines do not fit in 2^%ld lines "
                           "(ctx_ptr_width)", val[K_PTBQ], val[K_PTBQ], maxl, val[K_PW]);
    if (share_d() > (1L << 20))
        die(vline[K_SMEM], "the dominant-share denominator lcm(regs_per_sm / warp_size, shared-memory lines, "
                           "warps_per_sm, tb_slots_per_sm) = %ld exceeds 2^20", share_d());
}

static void read_config(const char *path)
{
    FILE *f = fopen(path, "r");
    g_file = path;
    if (!f)
        die(0, "cannot open configuration: %s", strerror(errno));
    parse_config(f);
    fclose(f);
}

/* ---------------------------------------------------------------- register maps */
/* Address spaces: each has its consts, registers and fields; enums are shared by all. */
static const struct spacedef { const char *name, *prefix, *what; } spacedefs[] = {
    {"SM", "SMK_", "one SM's control/status registers (docs/quota_unit.md)"},
    {"QM", "SMK_QM_", "the QoS manager's host registers (docs/qos_mgr.md section 5)"},
};
#define NSPACE ((int)(sizeof spacedefs / sizeof spacedefs[0]))
enum { C_ADDR_W, C_DATA_W, C_WIN_W, C_N };
static const char *const cnames[C_N] = {"ADDR_W", "DATA_W", "WIN_W"};
static struct space { long c[C_N]; int cline[C_N], line; } spaces[NSPACE];
#define MAXREG 64
#define MAXFLD 64
#define MAXENUM 64
/* count: 0 = one word, > 0 = an array of that many words, < 0 = an array of val[-count - 1]
 * words (a configuration key) */
static struct reg { char name[32], acc[4], doc[160]; long addr, count; int sp, line; } regs[MAXREG];
static struct fld { char reg[32], name[32], doc[160]; long lsb, width; int sp, line; } flds[MAXFLD];
static struct en { char grp[32], name[32]; long v; } enums[MAXENUM];
static int nreg, nfld, nenum;

static int find_reg(int sp, const char *name)
{
    for (int i = 0; i < nreg; i++)
        if (regs[i].sp == sp && !strcmp(regs[i].name, name))
            return i;
    return -1;
}

/* the register map in f (g_file names it); with check_fit, against the configuration read before */
static void parse_regmap(FILE *f, int check_fit)
{
    char buf[512];
    int line = 0, sp = -1;
    while (get_line(f, buf, sizeof buf, &line, "register map")) {
        char *h = strchr(buf, '#'), doc[160] = "";
        if (h) {
            *h = 0;
            snprintf(doc, sizeof doc, "%s", trim(h + 1));
        }
        char *tok[8];
        int n = 0;
        for (char *t = strtok(buf, " \t\r\n"); t && n < 8; t = strtok(NULL, " \t\r\n"))
            tok[n++] = t;
        if (!n)
            continue;
        for (int i = 1; i < n; i++)
            if (strlen(tok[i]) >= 32)
                die(line, "name longer than 31 characters");
        if (!strcmp(tok[0], "space") && n == 2) {
            for (sp = 0; sp < NSPACE && strcmp(spacedefs[sp].name, tok[1]); sp++)
                ;
            if (sp == NSPACE)
                die(line, "unknown space '%s' (expected SM or QM)", tok[1]);
            if (spaces[sp].line)
                die(line, "space %s given twice (first at line %d)", tok[1], spaces[sp].line);
            spaces[sp].line = line;
        } else if (!strcmp(tok[0], "enum") && n == 4) {
            if (nenum == MAXENUM)
                die(line, "too many enum values");
            struct en *e = &enums[nenum++];
            strcpy(e->grp, tok[1]);
            strcpy(e->name, tok[2]);
            if (!parse_long(tok[3], &e->v))
                die(line, "enum %s.%s: expected an integer value", tok[1], tok[2]);
        } else if (sp < 0 && (!strcmp(tok[0], "const") || !strcmp(tok[0], "reg") || !strcmp(tok[0], "field"))) {
            die(line, "%s before the first 'space SM' or 'space QM' line", tok[0]);
        } else if (!strcmp(tok[0], "const") && n == 3) {
            int c;
            for (c = 0; c < C_N && strcmp(cnames[c], tok[1]); c++)
                ;
            if (c == C_N)
                die(line, "unknown const '%s' (expected ADDR_W, DATA_W or WIN_W)", tok[1]);
            if (spaces[sp].cline[c])
                die(line, "const %s given twice in space %s (first at line %d)", tok[1], spacedefs[sp].name,
                    spaces[sp].cline[c]);
            if (!parse_long(tok[2], &spaces[sp].c[c]))
                die(line, "const %s: expected an integer", tok[1]);
            spaces[sp].cline[c] = line;
        } else if (!strcmp(tok[0], "reg") && (n == 4 || n == 5)) {
            if (nreg == MAXREG)
                die(line, "too many registers");
            int first = find_reg(sp, tok[1]);
            if (first >= 0)
                die(line, "reg %s declared twice (first at line %d)", tok[1], regs[first].line);
            struct reg *r = &regs[nreg++];
            strcpy(r->name, tok[1]);
            if (!parse_long(tok[2], &r->addr))
                die(line, "reg %s: expected an address", tok[1]);
            if (strcmp(tok[3], "rw") && strcmp(tok[3], "ro") && strcmp(tok[3], "wo"))
                die(line, "reg %s: access must be rw, ro or wo", tok[1]);
            strcpy(r->acc, tok[3]);
            r->count = 0;
            if (n == 5) {
                int k;
                for (k = 0; k < K_NKEYS && strcmp(keys[k].macro, tok[4]); k++)
                    ;
                if (k < K_NKEYS)
                    r->count = -1 - k;
                else if (!parse_long(tok[4], &r->count) || r->count < 1)
                    die(line, "reg %s: count must be a positive integer or a configuration key's macro name "
                              "(KSLOTS, KERNELS, ...)", tok[1]);
            }
            r->sp = sp;
            r->line = line;
            memcpy(r->doc, doc, sizeof doc);
        } else if (!strcmp(tok[0], "field") && n == 5) {
            if (nfld == MAXFLD)
                die(line, "too many fields");
            struct fld *fl = &flds[nfld];
            strcpy(fl->reg, tok[1]);
            strcpy(fl->name, tok[2]);
            memcpy(fl->doc, doc, sizeof doc);
            fl->sp = sp;
            fl->line = line;
            if (!parse_long(tok[3], &fl->lsb) || !parse_long(tok[4], &fl->width) || fl->width < 1 ||
                fl->width > 32 || fl->lsb < 0 || fl->lsb > 32 - fl->width)
                die(line, "field %s.%s: expected LSB and WIDTH inside 32 bits", tok[1], tok[2]);
            if (find_reg(sp, tok[1]) < 0)
                die(line, "field %s.%s: register %s not declared before it in space %s", tok[1], tok[2], tok[1],
                    spacedefs[sp].name);
            for (int i = 0; i < nfld; i++) {
                const struct fld *o = &flds[i];
                if (o->sp != sp || strcmp(o->reg, fl->reg))
                    continue;
                if (!strcmp(o->name, fl->name))
                    die(line, "field %s.%s declared twice (first at line %d)", tok[1], tok[2], o->line);
                if (fl->lsb < o->lsb + o->width && o->lsb < fl->lsb + fl->width)
                    die(line, "field %s.%s [%ld:%ld] overlaps field %s.%s [%ld:%ld]", tok[1], tok[2],
                        fl->lsb + fl->width - 1, fl->lsb, tok[1], o->name, o->lsb + o->width - 1, o->lsb);
            }
            nfld++;
        } else {
            die(line, "expected 'space NAME', 'const NAME VALUE', 'reg NAME ADDR ACCESS [COUNT]', "
                      "'field REG NAME LSB WIDTH' or 'enum GROUP NAME VALUE'");
        }
    }
    for (int i = 0; i < NSPACE; i++) {
        const struct space *s = &spaces[i];
        if (!s->line)
            die(line, "space %s missing (every space is required: SM, QM)", spacedefs[i].name);
        if (!s->cline[C_ADDR_W] || s->c[C_ADDR_W] < 1 || s->c[C_ADDR_W] > 16 || !s->cline[C_DATA_W] ||
            s->c[C_DATA_W] != 32)
            die(s->line, "space %s: const ADDR_W (1..16) and const DATA_W 32 are required", spacedefs[i].name);
        if (s->cline[C_WIN_W] && (s->c[C_WIN_W] < 1 || s->c[C_WIN_W] >= s->c[C_ADDR_W]))
            die(s->cline[C_WIN_W], "space %s: const WIN_W = %ld out of range (expected 1..ADDR_W - 1 = %ld)",
                spacedefs[i].name, s->c[C_WIN_W], s->c[C_ADDR_W] - 1);
    }
    /* with WIN_W, window 0 holds the single registers (the reader decodes them by the index alone) */
    for (int i = 0; i < nreg; i++) {
        const struct space *s = &spaces[regs[i].sp];
        if (s->cline[C_WIN_W] && !regs[i].count && (regs[i].addr < 0 || regs[i].addr >= 1L << s->c[C_WIN_W]))
            die(regs[i].line, "reg %s: a single register must lie in window 0 (below 2^WIN_W = %ld)", regs[i].name,
                1L << s->c[C_WIN_W]);
    }
    if (!check_fit)
        return;
    /* every register (arrays sized for this configuration) must fit and not overlap; in a space with
     * WIN_W an array starts a window of 2^WIN_W words, holds at most that many and owns all of it */
    for (int i = 0; i < nreg; i++) {
        const struct reg *r = &regs[i];
        const struct space *s = &spaces[r->sp];
        const long aw = s->c[C_ADDR_W], win = s->cline[C_WIN_W] ? 1L << s->c[C_WIN_W] : 0;
        long ext = r->count < 0 ? val[-r->count - 1] : r->count ? r->count : 1;
        char with[80] = ""; /* what sizes the register, for the messages */
        if (r->count < 0)
            snprintf(with, sizeof with, " with %s = %ld", keys[-r->count - 1].name, val[-r->count - 1]);
        if (win && r->count) {
            if (r->addr % win)
                die(r->line, "reg %s: array base 0x%lx is not a multiple of the window 2^WIN_W = %ld", r->name,
                    r->addr, win);
            if (ext > win)
                die(r->line, "reg %s: %ld words%s exceed the window 2^WIN_W = %ld", r->name, ext, with, win);
            ext = win;
            snprintf(with, sizeof with, " (its window of 2^WIN_W = %ld words)", win);
        }
        if (r->addr < 0 || ext > (1L << aw) || r->addr > (1L << aw) - ext) /* no overflow near 2^63 */
            die(r->line, "reg %s does not fit in %ld address bits%s", r->name, aw, with);
        for (int j = 0; j < i; j++) {
            const struct reg *o = &regs[j];
            if (o->sp != r->sp)
                continue;
            long oext = o->count < 0 ? val[-o->count - 1] : o->count ? o->count : 1;
            if (win && o->count)
                oext = win;
            if (r->addr < o->addr + oext && o->addr < r->addr + ext) {
                if (win && (r->count || o->count))
                    snprintf(with, sizeof with, " (an array owns its whole window)");
                else if (!with[0] && o->count < 0)
                    snprintf(with, sizeof with, " with %s = %ld", keys[-o->count - 1].name, val[-o->count - 1]);
                die(r->line, "reg %s overlaps reg %s%s", r->name, o->name, with);
            }
        }
    }
}

static void read_regmap(const char *path, int check_fit)
{
    FILE *f = fopen(path, "r");
    g_file = path;
    if (!f)
        die(0, "cannot open register map: %s", strerror(errno));
    parse_regmap(f, check_fit);
    fclose(f);
}

#ifdef HWGEN_FUZZ
/* the harness parses many files in one process: everything the parsers fill, back to its start */
static void fuzz_reset(void)
{
    memset(val, 0, sizeof val), memset(vline, 0, sizeof vline), memset(spaces, 0, sizeof spaces);
    nreg = nfld = nenum = 0;
}
#endif

/* ---------------------------------------------------------------- output */
struct outv { const char *name; long v; const char *doc; };

static void derived(struct outv *o, int *n)
{
    long W = val[K_WARPS], S = val[K_SCHED], CP = val[K_SCHED] * val[K_CMPL];
    long decmax = CP * val[K_WARPSZ];
#define D(nm, x, d) o[(*n)++] = (struct outv){nm, (x), d}
    D("LWARPS", W / S, "warps per scheduler");
    D("CP", CP, "completion ports per SM");
    D("WID_W", clog2(W), "warp id width");
    D("LWID_W", clog2(W / S), "warp index width within one scheduler");
    D("SID_W", clog2(S), "scheduler id width");
    D("KS_W", clog2(val[K_KSLOTS]), "kernel-slot id width");
    D("KID_W", clog2(val[K_KERNELS]), "GPU-wide kernel id width");
    D("TBS_W", clog2(val[K_TBSLOTS]), "TB-slot id width");
    D("ACT_W", clog2(val[K_WARPSZ] + 1), "active-thread count width (0..warp_size)");
    D("WCNT_W", clog2(W + 1), "warp count width (0..warps_per_sm)");
    D("DEC_MAX", decmax, "largest thread-instruction decrement in one cycle");
    D("DEC_W", clog2(decmax + 1), "decrement sum width");
    /* preemption engine (docs/preempt_engine.md) */
    long C = ctl_lines(), MMAX = smem_lines(), RMAX = val[K_RMAX], big = C;
    if (RMAX > big)
        big = RMAX;
    if (MMAX > big)
        big = MMAX;
    D("CTL_LINES", C, "context control lines per warp");
    D("SMEM_LINES", MMAX, "shared-memory lines of the largest TB");
    D("CTX_IDX_W", clog2(big), "context line index width (c, r or i)");
    D("CTX_TAG_W", 2 + clog2(W) + clog2(big), "memory tag width {kind, wid, idx}");
    D("REGN_W", clog2(RMAX + 1), "registers-per-thread width (0..max_regs_per_thread)");
    D("SMLN_W", clog2(MMAX + 1), "shared-memory line count width (0..SMEM_LINES)");
    D("PE_OUT_W", clog2(val[K_OMAX] + 1), "outstanding-request count width (0..pe_max_outstanding)");
    D("PE_QCNT_W", clog2(val[K_PEQD] + 1), "command-queue count width (0..pe_queue_depth)");
    D("PE_QPTR_W", clog2(val[K_PEQD]), "command-queue index width");
    D("CTX_MAX_LINES", ctx_max_lines(), "largest context of one TB, in lines");
    /* SM driver (docs/sm_driver.md) */
    /* the usage counters count every resource GPU-wide: the largest of the four limits, NSM times */
    long NSM = val[K_NUM_SM], DSH = share_d(), limmax = lim_reg();
    const long lims[] = {MMAX, W, val[K_TBSLOTS]};
    for (int i = 0; i < 3; i++)
        if (lims[i] > limmax)
            limmax = lims[i];
    D("LIM_REG", lim_reg(), "register rows of one SM (one row = one register of one warp)");
    D("LIM_SL", MMAX, "shared-memory lines of one SM");
    D("LIM_W", W, "warps of one SM");
    D("LIM_TB", val[K_TBSLOTS], "TB slots of one SM");
    D("DSH", DSH, "dominant-share denominator D = lcm of the four limits");
    D("M_REG", DSH / lim_reg(), "share multiplier of a register row");
    D("M_SL", MMAX ? DSH / MMAX : 0, "share multiplier of a shared-memory line");
    D("M_W", DSH / W, "share multiplier of a warp");
    D("M_TB", DSH / val[K_TBSLOTS], "share multiplier of a TB slot");
    D("SMW", clog2(NSM), "SM id width");
    D("PQW", clog2(val[K_PTBQ]), "PTBQ entry index width");
    D("PROT_W", clog2(val[K_PROT] + 1), "partition rotation timer width (0..part_rotate)");
    D("UW", clog2(NSM * limmax + 1), "resource usage counter width");
    D("SHW", clog2(NSM * DSH + 1), "dominant-share width");
#undef D
}

static void upper(char *d, const char *s)
{
    while ((*d++ = (char)toupper((unsigned char)*s++)))
        ;
}

/* s as the inside of a C string literal (and safe in a // or block comment): \" \\ \? (no trigraph),
 * '*' as \052 (no end of a comment) and every byte outside printable ASCII as a 3-digit octal escape */
static void c_escape(char *d, size_t n, const char *s)
{
    size_t o = 0;
    d[0] = 0;
    for (const unsigned char *c = (const unsigned char *)s; *c && o + 5 < n; c++)
        o += (size_t)(*c == '"' || *c == '\\' || *c == '?' ? snprintf(d + o, n - o, "\\%c", *c)
                      : *c < 0x20 || *c >= 0x7f || *c == '*' ? snprintf(d + o, n - o, "\\%03o", *c)
                                                             : snprintf(d + o, n - o, "%c", *c));
}

/* cfgname: the configuration's name (its file's base name); cfgdir: the build directory's name */
static void emit(FILE *f, int verilog, const char *cfgname, const char *cfgdir)
{
    struct outv o[64];
    int n = 0;
    derived(o, &n);
    const char *def = verilog ? "`define SMK_" : "#define SMK_";
    char name[128 * 4 + 1], dir[128 * 4 + 1];
    c_escape(name, sizeof name, cfgname);
    c_escape(dir, sizeof dir, cfgdir);
    if (verilog)
        fprintf(f, "// Generated by hw/hwgen from configuration \"%s\". Do not edit.\n"
                   "`ifndef SMK_CFG_VH\n`define SMK_CFG_VH\n", name);
    else
        fprintf(f, "/* Generated by hw/hwgen from configuration \"%s\". Do not edit. */\n"
                   "#ifndef SMK_CFG_H\n#define SMK_CFG_H\n#define SMK_CFG_NAME \"%s\"\n#define SMK_CFG_DIR \"%s\"\n",
                name, name, dir);
    fprintf(f, verilog ? "// configuration\n" : "/* configuration */\n");
    for (int i = 0; i < K_NKEYS; i++)
        fprintf(f, "%s%-16s %ld\n", def, keys[i].macro, val[i]);
    fprintf(f, verilog ? "// derived\n" : "/* derived */\n");
    for (int i = 0; i < n; i++)
        fprintf(f, verilog ? "%s%-16s %ld // %s\n" : "%s%-16s %ld /* %s */\n", def, o[i].name, o[i].v, o[i].doc);
    const char *dv = verilog ? "`define " : "#define ", *c0 = verilog ? "// " : "/* ", *c1 = verilog ? "" : " */";
    for (int sp = 0; sp < NSPACE; sp++) {
        const char *pf = spacedefs[sp].prefix;
        fprintf(f, "%sregister map %s (word addresses): %s%s\n", c0, spacedefs[sp].name, spacedefs[sp].what, c1);
        char nm[96];
        for (int c = 0; c < C_N; c++)
            if (spaces[sp].cline[c]) {
                snprintf(nm, sizeof nm, "%.16s%s", pf, cnames[c]);
                fprintf(f, "%s%-20s %ld\n", dv, nm, spaces[sp].c[c]);
            }
        for (int i = 0; i < nreg; i++)
            if (regs[i].sp == sp) {
                snprintf(nm, sizeof nm, "%.16sREG_%.31s", pf, regs[i].name);
                fprintf(f, "%s%-20s %ld\n", dv, nm, regs[i].addr);
            }
        for (int i = 0; i < nfld; i++) {
            if (flds[i].sp != sp)
                continue;
            snprintf(nm, sizeof nm, "%.16s%.31s_%.31s", pf, flds[i].reg, flds[i].name);
            fprintf(f, "%s%s_LSB %ld\n%s%s_W %ld\n", dv, nm, flds[i].lsb, dv, nm, flds[i].width);
        }
        /* a register with fields holds bits [BITS-1:0] of a written word (the highest field's end) */
        for (int i = 0; i < nreg; i++) {
            long hi = 0;
            for (int j = 0; j < nfld; j++)
                if (flds[j].sp == sp && !strcmp(flds[j].reg, regs[i].name) && flds[j].lsb + flds[j].width > hi)
                    hi = flds[j].lsb + flds[j].width;
            if (regs[i].sp == sp && hi) {
                snprintf(nm, sizeof nm, "%.16sREG_%.31s_BITS", pf, regs[i].name);
                fprintf(f, "%s%-20s %ld\n", dv, nm, hi);
            }
        }
    }
    fprintf(f, "%senums%s\n", c0, c1);
    for (int i = 0; i < nenum; i++) {
        char g[40];
        upper(g, enums[i].grp);
        fprintf(f, "%s%s_%s %ld\n", def, g, enums[i].name, enums[i].v);
    }
    fprintf(f, verilog ? "`endif\n" : "#endif\n");
}

static void regmap_md(const char *space)
{
    int sp;
    for (sp = 0; sp < NSPACE && strcmp(spacedefs[sp].name, space); sp++)
        ;
    if (sp == NSPACE)
        die(0, "unknown space '%s' (expected SM or QM)", space);
    const int digits = (int)(spaces[sp].c[C_ADDR_W] + 3) / 4;
    printf("| address | name | access | description |\n|---|---|---|---|\n");
    for (int i = 0; i < nreg; i++) {
        if (regs[i].sp != sp)
            continue;
        char a[32];
        snprintf(a, sizeof a, regs[i].count ? "0x%0*lX + k" : "0x%0*lX", digits, regs[i].addr);
        printf("| %s | %s%s | %s | %s |\n", a, regs[i].name, regs[i].count ? "[k]" : "", regs[i].acc, regs[i].doc);
        for (int j = 0; j < nfld; j++)
            if (flds[j].sp == sp && !strcmp(flds[j].reg, regs[i].name))
                printf("| | .%s [%ld:%ld] | | %s |\n", flds[j].name, flds[j].lsb + flds[j].width - 1, flds[j].lsb, flds[j].doc);
    }
}

static const char *basename_noext(const char *p, char *buf, size_t n)
{
    const char *b = strrchr(p, '/');
    b = b ? b + 1 : p;
    snprintf(buf, n, "%s", b);
    char *dot = strrchr(buf, '.');
    if (dot)
        *dot = 0;
    return buf;
}

int main(int argc, char **argv)
{
    g_file = "hwgen";
    if (argc == 4 && !strcmp(argv[1], "--regmap-md")) {
        read_regmap(argv[2], 0);
        regmap_md(argv[3]);
        return 0;
    }
    if (argc == 4 && !strcmp(argv[1], "--check")) {
        read_config(argv[2]);
        read_regmap(argv[3], 1);
        return 0;
    }
    if (argc != 4) {
        fprintf(stderr, "usage: hwgen CONFIG.cfg REGMAP.def OUTDIR | --check CONFIG.cfg REGMAP.def | "
                        "--regmap-md REGMAP.def SPACE\n");
        return 2;
    }
    read_config(argv[1]);
    read_regmap(argv[2], 1);
    char name[128], dir[128], path[1024];
    basename_noext(argv[1], name, sizeof name);
    /* the output directory's last component (build/NAME or build/BASE-HASH: smk's --config check) */
    snprintf(path, sizeof path, "%s", argv[3]);
    for (size_t l = strlen(path); l > 1 && path[l - 1] == '/'; l--)
        path[l - 1] = 0;
    snprintf(dir, sizeof dir, "%s", strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
    for (int verilog = 0; verilog < 2; verilog++) {
        snprintf(path, sizeof path, "%s/smk_cfg.%s", argv[3], verilog ? "vh" : "h");
        char tmp[1100];
        snprintf(tmp, sizeof tmp, "%s.tmp", path);
        FILE *f = fopen(tmp, "w");
        if (!f) {
            fprintf(stderr, "hwgen: cannot write %s: %s\n", tmp, strerror(errno));
            return 1;
        }
        emit(f, verilog, name, dir);
        if (fclose(f) || rename(tmp, path)) {
            fprintf(stderr, "hwgen: cannot write %s: %s\n", path, strerror(errno));
            return 1;
        }
    }
    return 0;
}
