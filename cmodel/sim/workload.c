/* workload.c: parser of workload description files (workload.h, docs/workload.md "Format"). */
#include "workload.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_CH 1024
#define SUM_TOL 1e-6

typedef enum { T_INT, T_REAL, T_YESNO, T_ACT } ktype_t;
typedef struct {
    const char *name;
    ktype_t type;
    double lo, hi;
} kdesc_t;

enum { M_CH, M_SERV, M_MLAT, M_L1, M_L2, M_ALU, M_SFU, M_SH, M_INF, M_MSHR, M_CTXP, M_AUN, M_AQ, M_SINT, M_SQ, M_LQ,
       M_FW, M_IB, M_IMUL, M_IMAD, M_FMUL, M_FDIV, M_N };
static const kdesc_t mkeys[M_N] = {
    {"mem_channels", T_INT, 1, 64},      {"mem_service", T_REAL, 0.01, 1000}, {"mem_latency", T_INT, 0, 100000},
    {"l1_latency", T_INT, 1, 10000},     {"l2_latency", T_INT, 1, 10000},    {"alu_latency", T_INT, 1, 1000},
    {"sfu_latency", T_INT, 1, 1000},     {"shared_latency", T_INT, 1, 1000}, {"max_inflight", T_INT, 1, 32},
    {"mshr", T_INT, 1, 4096},            {"ctx_priority", T_YESNO, 0, 1},    {"alu_units", T_INT, 1, 64},
    {"alu_queue", T_INT, 1, 64},         {"sfu_interval", T_INT, 1, 1000},   {"sfu_queue", T_INT, 1, 64},
    {"ldst_queue", T_INT, 1, 64},        {"fetch_warps", T_INT, 1, 8},       {"ibuffer", T_INT, 1, 8},
    {"imul_interval", T_INT, 1, 1000},   {"imad_interval", T_INT, 1, 1000},  {"fmul_interval", T_INT, 1, 1000},
    {"fdiv_interval", T_INT, 1, 1000},
};
enum { K_THR, K_REGS, K_SMEM, K_GRID, K_INSTS, K_MALU, K_MSFU, K_MSH, K_MGL, K_MIMUL, K_MIMAD, K_MFMUL, K_MFDIV,
       K_DEP, K_LINES, K_L1, K_L2, K_ACT, K_IDEM, K_N };
static const kdesc_t kkeys[K_N] = {
    {"threads", T_INT, 1, 1024},       {"regs", T_INT, 1, 255},           {"smem_bytes", T_INT, 0, 1048576},
    {"grid", T_INT, 1, 16777215},      {"insts", T_INT, 1, 1000000000},   {"mix_alu", T_REAL, 0, 1},
    {"mix_sfu", T_REAL, 0, 1},         {"mix_shared", T_REAL, 0, 1},      {"mix_global", T_REAL, 0, 1},
    {"mix_imul", T_REAL, 0, 1},        {"mix_imad", T_REAL, 0, 1},        {"mix_fmul", T_REAL, 0, 1},
    {"mix_fdiv", T_REAL, 0, 1},
    {"dep", T_REAL, 0, 1},             {"lines", T_REAL, 1, 32},          {"l1_hit", T_REAL, 0, 1},
    {"l2_hit", T_REAL, 0, 1},          {"active", T_ACT, 1, 32},          {"idempotent", T_YESNO, 0, 1},
};

typedef struct {
    const char *file;
    int line;
    char *err;
    size_t errlen;
} pctx_t;

static int fail(pctx_t *p, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(pctx_t *p, int line, const char *fmt, ...)
{
    int n = snprintf(p->err, p->errlen, "%s:%d: ", p->file, line);
    if (n < 0 || (size_t)n >= p->errlen)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static void key_list(const kdesc_t *d, int n, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = 0;
    for (int i = 0; i < n && o < len; i++)
        o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "", d[i].name);
}

/* strict unsigned integer: digits only, no sign, no overflow */
static int parse_int(const char *s, double *v)
{
    if (!*s)
        return -1;
    for (const char *c = s; *c; c++)
        if (*c < '0' || *c > '9')
            return -1;
    if (strlen(s) > 15)
        return -2; /* too large for any range: report as out of range */
    *v = (double)strtoull(s, NULL, 10);
    return 0;
}

/* strict decimal: [digits][.digits][e[+-]digits], finite, not negative zero tricks */
static int parse_real(const char *s, double *v)
{
    if (!*s || *s == '-' || *s == '+')
        return -1;
    for (const char *c = s; *c; c++)
        if (!((*c >= '0' && *c <= '9') || *c == '.' || *c == 'e' || *c == 'E' || *c == '-' || *c == '+'))
            return -1;
    char *end;
    errno = 0;
    const double x = strtod(s, &end);
    if (*end || end == s)
        return -1;
    if (errno == ERANGE && !(x < 1)) /* too large for a double (1e400): out of every range */
        return -2;
    /* ERANGE of a tiny value (1e-310): an underflow to a denormal or 0, which is a number (in range or not) */
    if (!isfinite(x))
        return -1;
    *v = x;
    return 0;
}

static uint64_t thr(double p) { return p <= 0 ? 0 : p >= 1 ? (uint64_t)1 << 32 : (uint64_t)(p * WL_PROB_ONE); }

/* one `key value` line of a block; tok[0] is the key, tok[1..ntok-1] the rest */
static int set_key(pctx_t *p, const kdesc_t *d, int ki, char **tok, int ntok, double *val, wl_kernel_t *kk)
{
    const kdesc_t *k = &d[ki];
    if (ntok < 2)
        return fail(p, p->line, "key '%s': missing value", k->name);
    if (k->type != T_ACT && ntok > 2)
        return fail(p, p->line, "key '%s': unexpected \"%s\" after the value", k->name, tok[2]);
    if (k->type == T_YESNO) {
        if (!strcmp(tok[1], "yes"))
            *val = 1;
        else if (!strcmp(tok[1], "no"))
            *val = 0;
        else
            return fail(p, p->line, "key '%s': expected yes or no, got \"%s\"", k->name, tok[1]);
        return 0;
    }
    if (k->type == T_ACT) {
        if (ntok - 1 > WL_MAX_ACT)
            return fail(p, p->line, "key 'active': more than %d entries", WL_MAX_ACT);
        double sum = 0;
        uint32_t seen = 0;
        kk->n_act = 0;
        for (int i = 1; i < ntok; i++) {
            char *colon = strchr(tok[i], ':');
            double t = 0, pr = 0;
            if (!colon)
                return fail(p, p->line, "key 'active': expected THREADS:PROBABILITY, got \"%s\"", tok[i]);
            *colon = 0;
            if (parse_int(tok[i], &t) == -1 || parse_real(colon + 1, &pr) == -1) {
                *colon = ':';
                return fail(p, p->line, "key 'active': expected THREADS:PROBABILITY, got \"%s\"", tok[i]);
            }
            *colon = ':';
            if (parse_real(colon + 1, &pr) == -2)
                pr = HUGE_VAL; /* out of range below */
            if (t < 1 || t > 32)
                return fail(p, p->line, "key 'active': thread count in \"%s\" out of range (expected 1..32)", tok[i]);
            if (!(pr > 0) || pr > 1)
                return fail(p, p->line, "key 'active': probability in \"%s\" out of range (expected > 0 and <= 1)",
                            tok[i]);
            if (seen >> ((uint32_t)t - 1) & 1)
                return fail(p, p->line, "key 'active': thread count %u given twice", (uint32_t)t);
            seen |= 1u << ((uint32_t)t - 1);
            kk->act_thr[kk->n_act] = (uint32_t)t, kk->act_p[kk->n_act] = pr, kk->n_act++;
            sum += pr;
        }
        if (fabs(sum - 1) > SUM_TOL)
            return fail(p, p->line, "key 'active': probabilities sum to %.6g (expected 1)", sum);
        *val = 0;
        return 0;
    }
    double x;
    const int r = k->type == T_INT ? parse_int(tok[1], &x) : parse_real(tok[1], &x);
    if (r == -1)
        return fail(p, p->line, "key '%s': expected %s, got \"%s\"", k->name,
                    k->type == T_INT ? "an integer" : "a number", tok[1]);
    if (r == -2 || x < k->lo || x > k->hi) {
        if (k->type == T_INT)
            return fail(p, p->line, "key '%s' = %s out of range (expected %.0f..%.0f)", k->name, tok[1], k->lo, k->hi);
        return fail(p, p->line, "key '%s' = %s out of range (expected %g..%g)", k->name, tok[1], k->lo, k->hi);
    }
    *val = x;
    return 0;
}

static int valid_name(const char *s)
{
    if (!*s || strlen(s) > WL_NAME_MAX)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_' ||
              *s == '-' || *s == '.'))
            return 0;
    return 1;
}

static int finish_kernel(pctx_t *p, wl_kernel_t *k, const double *v)
{
    k->threads = (uint32_t)v[K_THR], k->warps = (k->threads + 31) / 32, k->regs = (uint32_t)v[K_REGS];
    k->smem_bytes = (uint32_t)v[K_SMEM], k->grid = (uint32_t)v[K_GRID], k->insts = (uint32_t)v[K_INSTS];
    k->mix[WL_ALU] = v[K_MALU], k->mix[WL_SFU] = v[K_MSFU], k->mix[WL_SHARED] = v[K_MSH], k->mix[WL_GLOBAL] = v[K_MGL];
    k->mix[WL_IMUL] = v[K_MIMUL], k->mix[WL_IMAD] = v[K_MIMAD], k->mix[WL_FMUL] = v[K_MFMUL];
    k->mix[WL_FDIV] = v[K_MFDIV];
    double sum = 0;
    for (int i = 0; i < WL_NCLASS; i++)
        sum += k->mix[i];
    if (fabs(sum - 1) > SUM_TOL)
        return fail(p, p->line, "kernel '%s': the eight mix_ fractions sum to %.6g (expected 1)", k->name, sum);
    k->dep = v[K_DEP], k->lines = v[K_LINES], k->l1_hit = v[K_L1], k->l2_hit = v[K_L2], k->idempotent = (int)v[K_IDEM];
    double c = 0;
    for (int i = 0; i < WL_NCLASS; i++)
        c += k->mix[i], k->cmix[i] = thr(c);
    /* the last class with a non-zero share absorbs rounding */
    for (int i = WL_NCLASS - 1; i >= 0; i--)
        if (k->mix[i] > 0) {
            k->cmix[i] = (uint64_t)1 << 32;
            break;
        }
    c = 0;
    for (uint32_t i = 0; i < k->n_act; i++)
        c += k->act_p[i], k->cact[i] = thr(c);
    k->cact[k->n_act - 1] = (uint64_t)1 << 32;
    k->t_dep = thr(k->dep), k->t_l1 = thr(k->l1_hit), k->t_l2 = thr(k->l2_hit);
    k->lines_int = (uint32_t)floor(k->lines);
    k->t_lines_frac = thr(k->lines - k->lines_int);
    return 0;
}

int wl_load(const char *path, workload_t *wl, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        pctx_t p = {path, 0, err, errlen};
        memset(wl, 0, sizeof *wl);
        snprintf(wl->path, sizeof wl->path, "%s", path);
        return fail(&p, 0, "cannot open workload: %s", strerror(errno));
    }
    const int rc = wl_parse(f, path, wl, err, errlen);
    fclose(f);
    return rc;
}

int wl_parse(FILE *f, const char *path, workload_t *wl, char *err, size_t errlen)
{
    pctx_t p = {path, 0, err, errlen};
    memset(wl, 0, sizeof *wl);
    snprintf(wl->path, sizeof wl->path, "%s", path);
    enum { OUT, MACH, KERN } st = OUT;
    int seen[K_N + M_N], open_line = 0, rc = 0, have_m = 0;
    double val[K_N + M_N];
    char buf[LINE_MAX_CH + 2], list[512];
    wl_kernel_t *cur = NULL;
    for (;;) {
        /* one line, by hand: NUL bytes and over-long lines are errors, not silent truncations */
        size_t len = 0;
        int ch, nul = 0;
        while ((ch = getc(f)) != EOF && ch != '\n') {
            if (ch == 0)
                nul = 1;
            if (len < sizeof buf - 1)
                buf[len] = (char)ch;
            len++;
        }
        if (ch == EOF && len == 0)
            break;
        p.line++;
        if (len > LINE_MAX_CH) {
            rc = fail(&p, p.line, "line longer than %d characters", LINE_MAX_CH);
            break;
        }
        buf[len] = 0;
        if (nul) {
            rc = fail(&p, p.line, "NUL byte in the line (not a text file?)");
            break;
        }
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = 0;
        char *tok[WL_MAX_ACT + 4];
        int ntok = 0;
        int toomany = 0;
        for (char *t = strtok(buf, " \t\r\n\v\f"); t; t = strtok(NULL, " \t\r\n\v\f")) {
            if (ntok == WL_MAX_ACT + 3) {
                toomany = 1;
                break;
            }
            tok[ntok++] = t;
        }
        if (!ntok)
            continue;
        if (toomany) {
            rc = fail(&p, p.line, "too many words on one line (at most %d)", WL_MAX_ACT + 3);
            break;
        }
        for (const unsigned char *c = (const unsigned char *)tok[0]; *c; c++)
            if (*c < 0x20 || *c >= 0x7f) {
                rc = fail(&p, p.line, "non-ASCII or control character (byte 0x%02x) in the first word", *c);
                goto out;
            }
        if (!strcmp(tok[0], "machine") || !strcmp(tok[0], "kernel")) {
            const int is_k = tok[0][0] == 'k';
            if (st != OUT) {
                rc = fail(&p, p.line, "'%s' inside the %s block opened at line %d (missing 'end')", tok[0],
                          st == MACH ? "machine" : "kernel", open_line);
                break;
            }
            if (!is_k && ntok > 1) {
                rc = fail(&p, p.line, "'machine': unexpected \"%s\" (expected 'machine' alone on its line)", tok[1]);
                break;
            }
            if (is_k && ntok < 2) {
                rc = fail(&p, p.line, "'kernel': missing name (expected 'kernel NAME')");
                break;
            }
            if (is_k && ntok > 2) {
                rc = fail(&p, p.line, "'kernel %s': unexpected \"%s\" after the name", tok[1], tok[2]);
                break;
            }
            if (!is_k) {
                if (have_m) {
                    rc = fail(&p, p.line, "second 'machine' block (first at line %d)", wl->m.line);
                    break;
                }
                have_m = 1, wl->m.line = p.line, st = MACH;
            } else {
                if (!valid_name(tok[1])) {
                    rc = fail(&p, p.line, "kernel name \"%s\": expected 1..%d characters of [A-Za-z0-9_.-]", tok[1],
                              WL_NAME_MAX);
                    break;
                }
                const int dup = wl_find(wl, tok[1]);
                if (dup >= 0) {
                    rc = fail(&p, p.line, "kernel '%s' defined twice (first at line %d)", tok[1], wl->k[dup].line);
                    break;
                }
                if (wl->nk == WL_MAX_KERNELS) {
                    rc = fail(&p, p.line, "too many kernels (at most %d)", WL_MAX_KERNELS);
                    break;
                }
                cur = &wl->k[wl->nk];
                memset(cur, 0, sizeof *cur);
                snprintf(cur->name, sizeof cur->name, "%s", tok[1]);
                cur->line = p.line, st = KERN;
            }
            open_line = p.line;
            memset(seen, 0, sizeof seen);
            continue;
        }
        if (!strcmp(tok[0], "end")) {
            if (st == OUT) {
                rc = fail(&p, p.line, "'end' outside a block");
                break;
            }
            if (ntok > 1) {
                rc = fail(&p, p.line, "'end': unexpected \"%s\" after it", tok[1]);
                break;
            }
            const kdesc_t *d = st == MACH ? mkeys : kkeys;
            const int n = st == MACH ? M_N : K_N;
            for (int i = 0; i < n; i++)
                if (!seen[i]) {
                    if (st == MACH)
                        rc = fail(&p, p.line, "machine block (line %d) is missing key '%s' (every key is required)",
                                  open_line, d[i].name);
                    else
                        rc = fail(&p, p.line, "kernel '%s' (line %d) is missing key '%s' (every key is required)",
                                  cur->name, open_line, d[i].name);
                    goto out;
                }
            if (st == MACH) {
                wl_machine_t *m = &wl->m;
                m->mem_channels = (uint32_t)val[M_CH], m->mem_service = val[M_SERV];
                m->mem_latency = (uint32_t)val[M_MLAT], m->l1_latency = (uint32_t)val[M_L1];
                m->l2_latency = (uint32_t)val[M_L2], m->lat[WL_ALU] = (uint32_t)val[M_ALU];
                m->lat[WL_SFU] = (uint32_t)val[M_SFU], m->lat[WL_SHARED] = (uint32_t)val[M_SH];
                m->max_inflight = (uint32_t)val[M_INF], m->mshr = (uint32_t)val[M_MSHR];
                m->ctx_priority = (int)val[M_CTXP];
                m->alu_units = (uint32_t)val[M_AUN], m->queue[WL_U_ALU] = (uint32_t)val[M_AQ];
                m->queue[WL_U_SFU] = (uint32_t)val[M_SQ];
                m->sint[WL_SFU] = (uint32_t)val[M_SINT], m->sint[WL_IMUL] = (uint32_t)val[M_IMUL];
                m->sint[WL_IMAD] = (uint32_t)val[M_IMAD], m->sint[WL_FMUL] = (uint32_t)val[M_FMUL];
                m->sint[WL_FDIV] = (uint32_t)val[M_FDIV];
                m->queue[WL_U_LDST] = (uint32_t)val[M_LQ];
                m->fetch_warps = (uint32_t)val[M_FW], m->ibuffer = (uint32_t)val[M_IB];
            } else {
                if ((rc = finish_kernel(&p, cur, val)))
                    break;
                wl->nk++;
            }
            st = OUT;
            continue;
        }
        if (st == OUT) {
            rc = fail(&p, p.line, "\"%s\" outside a block (expected 'machine' or 'kernel NAME')", tok[0]);
            break;
        }
        const kdesc_t *d = st == MACH ? mkeys : kkeys;
        const int n = st == MACH ? M_N : K_N;
        int ki = -1;
        for (int i = 0; i < n; i++)
            if (!strcmp(tok[0], d[i].name))
                ki = i;
        if (ki < 0) {
            key_list(d, n, list, sizeof list);
            rc = fail(&p, p.line, "unknown key '%s' in %s block (expected one of %s)", tok[0],
                      st == MACH ? "machine" : "kernel", list);
            break;
        }
        if (seen[ki]) {
            rc = fail(&p, p.line, "key '%s' given twice (first at line %d)", d[ki].name, seen[ki]);
            break;
        }
        if ((rc = set_key(&p, d, ki, tok, ntok, &val[ki], cur)))
            break;
        seen[ki] = p.line;
    }
    if (!rc && ferror(f))
        rc = fail(&p, p.line, "cannot read workload: %s", strerror(errno ? errno : EIO));
    if (!rc && st != OUT)
        rc = fail(&p, p.line, "end of file inside the %s block opened at line %d (missing 'end')",
                  st == MACH ? "machine" : "kernel", open_line);
    if (!rc && p.line == 0)
        rc = fail(&p, 1, "empty workload (expected a 'machine' block and at least one 'kernel NAME' block)");
    if (!rc && !have_m)
        rc = fail(&p, p.line, "no 'machine' block (it is required)");
    if (!rc && wl->nk == 0)
        rc = fail(&p, p.line, "no 'kernel NAME' block (at least one is required)");
out:
    return rc ? -1 : 0;
}

int wl_find(const workload_t *wl, const char *name)
{
    for (int i = 0; i < wl->nk; i++)
        if (!strcmp(wl->k[i].name, name))
            return i;
    return -1;
}

int wl_check_fit(const workload_t *wl, int ki, uint32_t warps_per_sm, uint32_t reg_rows_per_sm,
                 uint32_t smem_bytes_per_sm, uint32_t max_regs, uint32_t grid_max, uint32_t tb_slots, char *err,
                 size_t errlen)
{
    pctx_t p = {wl->path, 0, err, errlen};
    const wl_kernel_t *k = &wl->k[ki];
    (void)tb_slots;
    if (k->warps > warps_per_sm)
        return fail(&p, k->line, "kernel '%s': %u threads per TB = %u warps exceed the SM's %u warps", k->name,
                    k->threads, k->warps, warps_per_sm);
    if (k->regs > max_regs)
        return fail(&p, k->line, "kernel '%s': %u registers per thread exceed the configuration's %u", k->name,
                    k->regs, max_regs);
    if (k->warps * k->regs > reg_rows_per_sm)
        return fail(&p, k->line, "kernel '%s': one TB needs %u x %u x 32 registers, more than the SM's %u", k->name,
                    k->warps, k->regs, reg_rows_per_sm * 32);
    if (k->smem_bytes > smem_bytes_per_sm)
        return fail(&p, k->line, "kernel '%s': %u bytes of shared memory per TB exceed the SM's %u", k->name,
                    k->smem_bytes, smem_bytes_per_sm);
    if (k->grid > grid_max)
        return fail(&p, k->line, "kernel '%s': grid of %u TBs exceeds the driver's %u (grid_width)", k->name,
                    k->grid, grid_max);
    return 0;
}
