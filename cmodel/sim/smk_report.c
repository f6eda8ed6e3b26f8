/* smk_report.c: the results of `smk run` (docs/smk.md "Output"): per kernel IPC, isolated IPC,
 * normalised IPC, goal met or not; STP, ANTT, fairness (design-notes 6); the quotas, the QoS
 * manager's registers, memory and preemption traffic, speed. As a table, one JSON object or CSV. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "smk.h"

#define KN SMK_KERNELS

/* What every format derives from the counts */
typedef struct {
    double norm[KN];       /* IPC / isolated IPC */
    double stp, antt, fair;
    int undef;             /* a kernel whose isolated run completed nothing (its norm, STP, ANTT and
                            * fairness are undefined), or -1 */
    int antt_inf;          /* a kernel that completed nothing in the shared run (unbounded turnaround), or -1 */
    double gipc[KN];       /* the IPC goal the manager was given, kl_goal / 2^16 */
    int met[KN];           /* the shared run's IPC reaches it */
    double iso_secs;       /* CPU seconds of the isolated runs */
    uint32_t mctrl;        /* the manager's MCTRL word */
    char qnote[160];       /* who programs the quotas */
} summary_t;

/* U16.16 as a number */
static double fx(uint32_t v) { return (double)v / 65536.0; }

/* thread instructions per cycle of kernel k in the shared run */
static double ipc_of(const smk_cmd_t *c, const smk_result_t *res, int k)
{
    return (double)res->thr[k] / (double)c->shared.cycles;
}

static void summarize(const smk_cmd_t *c, const smk_result_t *res, summary_t *m)
{
    const smk_run_t *r = &c->shared;
    double nmin = 1e300, nmax = 0;
    m->stp = 0, m->antt = 0, m->undef = -1, m->antt_inf = -1;
    for (int k = 0; k < r->nk; k++) {
        if (!(c->iso_ipc[k] > 0)) { /* a non-QoS kernel (smk_run_all refuses a QoS one) */
            m->norm[k] = 0;
            if (m->undef < 0)
                m->undef = k;
            continue;
        }
        const double ipc = ipc_of(c, res, k);
        m->norm[k] = ipc / c->iso_ipc[k];
        m->stp += m->norm[k];
        if (m->norm[k] > 0)
            m->antt += 1 / m->norm[k];
        else if (m->antt_inf < 0)
            m->antt_inf = k;
        nmin = m->norm[k] < nmin ? m->norm[k] : nmin, nmax = m->norm[k] > nmax ? m->norm[k] : nmax;
    }
    m->antt /= r->nk;
    m->fair = nmax > 0 ? nmin / nmax : 0;
    m->iso_secs = 0;
    for (int k = 0; k < r->nk; k++)
        m->iso_secs += c->iso[k].secs;
    for (int k = 0; k < r->nk; k++) {
        m->gipc[k] = fx(r->kl_goal[k]);
        m->met[k] = ipc_of(c, res, k) >= m->gipc[k];
    }
    m->mctrl = smk_mctrl(r);
    if (!res->mgr)
        snprintf(m->qnote, sizeof m->qnote, "none (quota mode OFF, QoS manager disabled)");
    else if (r->scheme == SC_SMK)
        snprintf(m->qnote, sizeof m->qnote,
                 "QoS manager, SMK mode (fairness quotas from the isolated issue fraction and TBs per SM)");
    else
        snprintf(m->qnote, sizeof m->qnote, "QoS manager, QOS mode, %s, TLP %s%s", smk_scheme_name[r->scheme],
                 QM_GET(MCTRL, TLP, m->mctrl) ? "on" : r->policy != POL_QOS ? "off (needs --policy qos)" : "off (--qos-tlp off)",
                 QM_GET(MCTRL, NOHIST, m->mctrl) ? ", alpha held at 1 (--qos-hist off)" : "");
}

/* s as a JSON string (RFC 8259): '"', '\\' and control characters escaped; valid UTF-8 as it is, any
 * other byte as the code point of the same value (\u00XX), so the output is always valid JSON */
static void json_str(const char *s)
{
    putchar('"');
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        int n = 0; /* continuation bytes of a valid UTF-8 sequence starting at c */
        if (*c >= 0xC2 && *c <= 0xDF)
            n = 1;
        else if (*c >= 0xE0 && *c <= 0xEF)
            n = 2;
        else if (*c >= 0xF0 && *c <= 0xF4)
            n = 3;
        for (int i = 1; i <= n; i++)
            if ((c[i] & 0xC0) != 0x80)
                n = 0;
        /* no overlong 3- and 4-byte forms, no surrogates, nothing above U+10FFFF */
        if ((n == 2 && ((*c == 0xE0 && c[1] < 0xA0) || (*c == 0xED && c[1] >= 0xA0))) ||
            (n == 3 && ((*c == 0xF0 && c[1] < 0x90) || (*c == 0xF4 && c[1] >= 0x90))))
            n = 0;
        if (*c == '"' || *c == '\\')
            printf("\\%c", *c);
        else if (*c < 0x20 || *c == 0x7f || (*c >= 0x80 && !n))
            printf("\\u%04x", *c);
        else {
            fwrite(c, 1, (size_t)n + 1, stdout);
            c += n;
        }
    }
    putchar('"');
}

/* a figure, or null when undefined */
static void json_num(const char *key, int defined, double v)
{
    if (defined)
        printf("\"%s\":%.4f", key, v);
    else
        printf("\"%s\":null", key);
}

/* --json: one object on one line */
static void report_json(const smk_cmd_t *c, const smk_result_t *res, const summary_t *m)
{
    const smk_run_t *r = &c->shared;
    const workload_t *wl = r->wl;
    printf("{\"config\":");
    json_str(SMK_CFG_NAME);
    printf(",\"workload\":");
    json_str(c->wname);
    printf(",\"policy\":\"%s\",\"scheme\":\"%s\",\"cycles\":%llu,\"iso_cycles\":%llu,\"epoch\":%u,\"seed\":%llu,"
           "\"quotas\":",
           smk_policy_name[r->policy], smk_scheme_name[r->scheme], (unsigned long long)r->cycles,
           (unsigned long long)c->iso_cycles, r->epoch, (unsigned long long)r->seed);
    json_str(m->qnote);
    printf(",");
    if (res->mgr)
        printf("\"manager\":{\"mctrl\":%u,\"epochs\":%u,\"epoch_len\":%u,\"prod\":%.6f},", m->mctrl, res->m_epochs,
               res->m_len, fx(res->m_prod));
    else
        printf("\"manager\":null,");
    if (r->hill) {
        printf("\"hill\":{\"every\":%llu,\"moves\":%llu,\"sms\":[", (unsigned long long)r->hill,
               (unsigned long long)res->hill_moves);
        for (int k = 0; k < r->nk; k++)
            printf("%s%d", k ? "," : "", res->hill_sms[k]);
        printf("]},");
    } else
        printf("\"hill\":null,");
    printf("\"kernels\":[");
    for (int k = 0; k < r->nk; k++) {
        printf("%s{\"name\":", k ? "," : "");
        json_str(wl->k[r->kw[k]].name);
        printf(",\"qos\":%s,\"goal\":%.4f,\"ipc_goal\":%.4f,\"ipc\":%.4f,\"iso_ipc\":%.4f,", r->goal[k] > 0 ? "true" : "false",
               r->goal[k], m->gipc[k], ipc_of(c, res, k), c->iso_ipc[k]);
        json_num("norm", c->iso_ipc[k] > 0, m->norm[k]);
        printf(",\"met\":%s,\"thread_insts\":%llu,\"warp_insts\":%llu,\"tbs\":%llu,\"launches\":%llu,"
               "\"dram_lines\":%llu,\"iso_thread_insts\":%llu,\"iso_warp_insts\":%llu",
               r->goal[k] > 0 ? (m->met[k] ? "true" : "false") : "null",
               (unsigned long long)res->thr[k], (unsigned long long)res->wis[k], (unsigned long long)res->tbs[k],
               (unsigned long long)res->runs[k], (unsigned long long)res->dram[k],
               (unsigned long long)c->iso[k].thr[0], (unsigned long long)c->iso[k].wis[0]);
        if (res->mgr)
            printf(",\"alpha\":%.6f,\"hist\":%.4f,\"ipc_epoch\":%.4f,\"agoal\":%.4f,\"quota_per_tb\":%u,"
                   "\"tbs_gathered\":%u,\"kl_goal\":%u,\"kl_x\":%u,\"kl_t\":%u",
                   fx(res->m_alpha[k]), fx(res->m_hist[k]), fx(res->m_ipc_ep[k]), fx(res->m_agoal[k]), res->m_qpt[k],
                   res->m_tbs[k], res->m_goal[k], r->kl_x[k], r->kl_t[k]);
        printf("}");
    }
    printf("],");
    json_num("stp", m->undef < 0, m->stp);
    printf(",");
    json_num("antt", m->undef < 0 && m->antt_inf < 0, m->antt);
    printf(",");
    json_num("fairness", m->undef < 0, m->fair);
    printf(",\"ctx_lines\":%llu,\"saves\":%llu,\"restores\":%llu,\"drops\":%llu,\"seconds\":%.3f,"
           "\"cycles_per_second\":%.0f}\n",
           (unsigned long long)res->ctx_lines, (unsigned long long)res->saves, (unsigned long long)res->restores,
           (unsigned long long)res->drops, res->secs, (double)r->cycles / res->secs);
}

/* s as a CSV field (RFC 4180): in double quotes, its quotes doubled, when it holds a comma, a quote, a
 * CR or an LF; as it is otherwise */
static void csv_str(const char *s)
{
    if (!s[strcspn(s, ",\"\r\n")]) {
        fputs(s, stdout);
        return;
    }
    putchar('"');
    for (; *s; s++) {
        if (*s == '"')
            putchar('"');
        putchar(*s);
    }
    putchar('"');
}

/* --csv: a header and one line per kernel */
static void report_csv(const smk_cmd_t *c, const smk_result_t *res, const summary_t *m)
{
    const smk_run_t *r = &c->shared;
    printf("config,workload,policy,scheme,cycles,seed,kernel,qos,goal,ipc,iso_ipc,norm,met,stp,antt,fairness,"
           "ipc_goal,alpha,hist,ipc_epoch,quota_per_tb\n");
    for (int k = 0; k < r->nk; k++) {
        char norm[32] = "", stp[32] = "", antt[32] = "", fair[32] = ""; /* empty: undefined */
        if (c->iso_ipc[k] > 0)
            snprintf(norm, sizeof norm, "%.4f", m->norm[k]);
        if (m->undef < 0) {
            snprintf(stp, sizeof stp, "%.4f", m->stp);
            snprintf(antt, sizeof antt, "%.4g", m->antt_inf >= 0 ? HUGE_VAL : m->antt);
            snprintf(fair, sizeof fair, "%.4f", m->fair);
        }
        csv_str(SMK_CFG_NAME);
        putchar(',');
        csv_str(c->wname);
        putchar(',');
        printf("%s,%s,%llu,%llu,", smk_policy_name[r->policy], smk_scheme_name[r->scheme],
               (unsigned long long)r->cycles, (unsigned long long)r->seed);
        csv_str(r->wl->k[r->kw[k]].name);
        printf(",%d,%.4f,%.4f,%.4f,%s,%s,%s,%s,%s,%.4f", r->goal[k] > 0, r->goal[k], ipc_of(c, res, k), c->iso_ipc[k],
               norm, r->goal[k] > 0 ? (m->met[k] ? "met" : "not met") : "-", stp, antt, fair, m->gipc[k]);
        if (res->mgr)
            printf(",%.6f,%.4f,%.4f,%u\n", fx(res->m_alpha[k]), fx(res->m_hist[k]), fx(res->m_ipc_ep[k]), res->m_qpt[k]);
        else
            printf(",,,,\n");
    }
}

/* the table (the default) */
static void report_table(const smk_cmd_t *c, const smk_result_t *res, const summary_t *m)
{
    const smk_run_t *r = &c->shared;
    const workload_t *wl = r->wl;
    const uint64_t cycles = r->cycles;
    char given[256] = ""; /* the kernels whose isolated counts --iso gave */
    size_t n = 0;
    for (int k = 0; k < r->nk; k++)
        if (c->iso_given[k] && n < sizeof given)
            n += (size_t)snprintf(given + n, sizeof given - n, "%s%s", n ? " " : ", given by --iso: ",
                                  wl->k[r->kw[k]].name);
    printf("smk run: config %s, workload %s, policy %s, scheme %s, %llu cycles (isolated runs %llu%s), epoch %u, "
           "seed %llu\n",
           SMK_CFG_NAME, c->wname, smk_policy_name[r->policy], smk_scheme_name[r->scheme], (unsigned long long)cycles,
           (unsigned long long)c->iso_cycles, given, r->epoch, (unsigned long long)r->seed);
    printf("%-14s %-4s %6s %10s %10s %7s %-8s %12s %8s %6s\n", "kernel", "qos", "goal", "IPC", "iso IPC", "norm",
           "goal", "warp insts", "TBs", "runs");
    for (int k = 0; k < r->nk; k++) {
        char g[16], nm[16];
        if (r->goal[k] > 0)
            snprintf(g, sizeof g, "%.2f", r->goal[k]);
        else
            snprintf(g, sizeof g, "-");
        if (c->iso_ipc[k] > 0)
            snprintf(nm, sizeof nm, "%.3f", m->norm[k]);
        else
            snprintf(nm, sizeof nm, "-");
        printf("%-14s %-4s %6s %10.2f %10.2f %7s %-8s %12llu %8llu %6llu\n", wl->k[r->kw[k]].name,
               r->goal[k] > 0 ? "yes" : "no", g, ipc_of(c, res, k), c->iso_ipc[k], nm,
               r->goal[k] > 0 ? (m->met[k] ? "met" : "NOT met") : "-", (unsigned long long)res->wis[k],
               (unsigned long long)res->tbs[k], (unsigned long long)res->runs[k]);
    }
    if (m->undef >= 0)
        printf("STP -   ANTT -   fairness -   (undefined: the isolated run of %s completed no thread instruction in "
               "%llu cycles)\n", wl->k[r->kw[m->undef]].name, (unsigned long long)c->iso_cycles);
    else if (m->antt_inf >= 0)
        printf("STP %.3f   ANTT inf (%s completed no thread instruction in the shared run)   fairness %.3f\n", m->stp,
               wl->k[r->kw[m->antt_inf]].name, m->fair);
    else
        printf("STP %.3f   ANTT %.3f   fairness %.3f\n", m->stp, m->antt, m->fair);
    printf("quotas: %s\n", m->qnote);
    if (r->hill) {
        printf("spart hill climbing: every %llu cycles, %llu SMs moved; SMs at the end:", (unsigned long long)r->hill,
               (unsigned long long)res->hill_moves);
        for (int k = 0; k < r->nk; k++)
            printf(" %s %d", wl->k[r->kw[k]].name, res->hill_sms[k]);
        printf("\n");
    }
    for (int k = 0; k < r->nk; k++)
        if (r->goal[k] > 0)
            printf("goal %s: IPC %.2f against goal %.2f (%.2f x isolated %.2f, kl_goal 0x%X): %s\n",
                   wl->k[r->kw[k]].name, ipc_of(c, res, k), m->gipc[k], r->goal[k], c->iso_ipc[k], r->kl_goal[k],
                   m->met[k] ? "met" : "NOT met");
    if (res->mgr) {
        printf("manager at the end (%u epochs of %u cycles, product P %.4f):\n", res->m_epochs, res->m_len,
               fx(res->m_prod));
        for (int k = 0; k < r->nk; k++) {
            if (r->scheme == SC_SMK)
                printf("  %-14s kl_x %.4f (isolated issue fraction per scheduler), kl_t %u (TBs per SM alone); "
                       "SMK mode keeps no IPC history\n",
                       wl->k[r->kw[k]].name, fx(r->kl_x[k]), r->kl_t[k]);
            else
                printf("  %-14s %-7s alpha %.4f, history %.2f, last-window IPC %.2f, effective goal %.2f, "
                       "quota %u per TB x %u TBs = %.2f per cycle\n",
                       wl->k[r->kw[k]].name, r->goal[k] > 0 ? "QoS" : "non-QoS", fx(res->m_alpha[k]),
                       fx(res->m_hist[k]), fx(res->m_ipc_ep[k]), fx(res->m_agoal[k]), res->m_qpt[k], res->m_tbs[k],
                       (double)res->m_qpt[k] * res->m_tbs[k] / (res->m_len ? res->m_len : 1));
        }
    }
    uint64_t dl = res->ctx_lines;
    for (int k = 0; k < r->nk; k++)
        dl += res->dram[k];
    printf("memory: %.3f DRAM lines requested per cycle (%.0f%% of the %u channels' %.3f)\n",
           (double)dl / (double)cycles,
           100.0 * (double)dl / (double)cycles / (wl->m.mem_channels / wl->m.mem_service), wl->m.mem_channels,
           wl->m.mem_channels / wl->m.mem_service);
    printf("preemption: %llu TBs saved, %llu restored, %llu dropped, %llu context lines%s\n",
           (unsigned long long)res->saves, (unsigned long long)res->restores, (unsigned long long)res->drops,
           (unsigned long long)res->ctx_lines, r->ctx_free ? " (--ctx-free: contexts move at no memory cost)" : "");
    printf("speed: shared run %.2f s CPU (%.2f M cycles per CPU s), isolated runs %.2f s CPU\n", res->secs,
           (double)cycles / res->secs / 1e6, m->iso_secs);
}

void smk_report(const smk_cmd_t *c, const smk_result_t *res)
{
    static summary_t m;
    summarize(c, res, &m);
    switch (c->format) {
    case FMT_JSON: report_json(c, res, &m); break;
    case FMT_CSV: report_csv(c, res, &m); break;
    case FMT_TABLE: report_table(c, res, &m); break;
    }
}
