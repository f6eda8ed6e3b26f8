// cosim_issue.cpp: the thin C++ shim Verilator needs. It moves values between the C environment
// (issue_env.c: stimulus, C model, compare, invariants) and the Verilated issue_path; all decisions
// live in C. Usage: see usage() below.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "Vissue_path.h"
#ifndef MUTANT
#include "Vissue_path___024root.h"
#endif
#include "verilated.h"
#include "vl_bits.h"
#include "cosim_opts.h"
#include "verilated_fst_c.h"

extern "C" {
#include "issue_env.h"
}

// gbits / sbits: testbench/cosim/vl_bits.h

#define R(sig) top->rootp->issue_path__DOT__u_ws__DOT__##sig
#define Q(sig) top->rootp->issue_path__DOT__u_qu__DOT__##sig

static void drive(Vissue_path *top, const issue_stim_t *st)
{
    top->rst = st->rst;
    top->launch_v = st->launch_v;
    top->launch_mask = st->launch_mask;
    top->launch_ks = st->launch_ks;
    top->finish_mask = st->finish_mask;
    top->ready = st->ready;
    top->stop = st->stop;
    top->csr_we = st->csr_we;
    top->csr_addr = st->csr_addr;
    top->csr_wdata = st->csr_wdata;
    top->rd_addr = st->rd_addr;
    top->cp_v = st->cp_v;
    for (int p = 0; p < SMK_CP; p++) {
        sbits(top->cp_ks, p * SMK_KS_W, SMK_KS_W, st->cp_ks[p]);
        sbits(top->cp_act, p * SMK_ACT_W, SMK_ACT_W, st->cp_act[p]);
    }
}

static void observe_outputs(Vissue_path *top, issue_obs_t *o)
{
    uint64_t *v = o->v;
    v[OBS_iss_v] = top->iss_v;
    for (int s = 0; s < SMK_SCHED; s++) {
        v[OBS_iss_wid + s] = gbits(top->iss_wid, s * SMK_WID_W, SMK_WID_W);
        v[OBS_iss_ks + s] = gbits(top->iss_ks, s * SMK_KS_W, SMK_KS_W);
    }
    for (int k = 0; k < SMK_KSLOTS; k++) {
        v[OBS_idle_cnt + k] = gbits(top->idle_cnt, k * SMK_WCNT_W, SMK_WCNT_W);
        v[OBS_held_cnt + k] = gbits(top->held_cnt, k * SMK_WCNT_W, SMK_WCNT_W);
    }
    v[OBS_ks_active] = top->ks_active;
    v[OBS_wvalid] = top->wvalid;
    v[OBS_qallow] = top->qallow;
    v[OBS_policy] = top->policy;
    v[OBS_epoch_end] = top->epoch_end;
    v[OBS_rd_data] = top->rd_data;
}

#ifdef MUTANT
// Yosys-written mutant netlists keep no stable register names (mutations split them): compare
// every output every cycle (registers are read back through rd_data); state is taken from ref.
static void observe_state(Vissue_path *, issue_obs_t *o, const issue_obs_t *ref)
{
    for (int i = OBS_valid; i < OBS_N; i++) o->v[i] = ref->v[i];
}
#else
static void observe_state(Vissue_path *top, issue_obs_t *o, const issue_obs_t *)
{
    uint64_t *v = o->v;
    for (int s = 0; s < SMK_SCHED; s++)
        v[OBS_last + s] = gbits(R(last), s * SMK_LWID_W, SMK_LWID_W);
    const int QW = SMK_QUOTA_W, SW = SMK_STAT_W;
    for (int k = 0; k < SMK_KSLOTS; k++) {
        v[OBS_quota + k] = gbits(Q(quota), k * (QW - 1), QW - 1);
        v[OBS_cnt + k] = gbits(Q(cnt), k * QW, QW);
        v[OBS_thr + k] = gbits(Q(thr), k * SW, SW);
        v[OBS_wis + k] = gbits(Q(wis), k * SW, SW);
        v[OBS_idle + k] = gbits(Q(idle), k * SW, SW);
        v[OBS_cyc + k] = gbits(Q(cyc), k * SW, SW);
        v[OBS_s_thr + k] = gbits(Q(s_thr), k * SW, SW);
        v[OBS_s_wis + k] = gbits(Q(s_wis), k * SW, SW);
        v[OBS_s_idle + k] = gbits(Q(s_idle), k * SW, SW);
        v[OBS_s_cyc + k] = gbits(Q(s_cyc), k * SW, SW);
    }
    v[OBS_valid] = R(valid);
    // the RTL keeps a local age matrix per scheduler; map it to global warp-id masks
    const int S = SMK_SCHED, LW = SMK_LWARPS;
    for (int w = 0; w < SMK_WARPS; w++) {
        v[OBS_ks + w] = gbits(R(ks), w * SMK_KS_W, SMK_KS_W);
        const int s = w % S, i = w / S;
        uint64_t m = 0;
        for (int j = 0; j < LW; j++)
            m |= gbits(R(older), (s * LW + i) * LW + j, 1) << (s + j * S);
        v[OBS_older + w] = m;
    }
    v[OBS_last_v] = R(last_v);
    v[OBS_sm_ctrl] = Q(sm_ctrl);
    v[OBS_epoch_len] = Q(epoch_len);
    v[OBS_sample_per] = Q(sample_per);
    v[OBS_qos_mask] = Q(qos_mask);
    v[OBS_ecnt] = Q(ecnt);
    v[OBS_scnt] = Q(scnt);
    v[OBS_epochs] = Q(epochs);
    v[OBS_ep_cycles] = Q(ep_cycles);
    v[OBS_ep_samples] = Q(ep_samples);
    v[OBS_nsamp] = Q(nsamp);
}
#endif

static void usage(const char *p)
{
    std::printf("usage: %s [--seed N] [--cycles N] [--mode random|scenario] [--rand-reset]\n"
                "          [--fst FILE --window FIRST:LAST] [--summary] [--bench N] [--quiet] [--mutant ID]\n"
                "Runs the C model and the RTL of one SM's issue path (warp_sched + quota_unit) in lockstep,\n"
                "comparing every output and every state element every cycle.\n",
                p);
}

static double now_s()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static int bench(Vissue_path *top, uint64_t seed, uint64_t n)
{
    // Same SM-level stimulus for both: 64K cycles of constrained-random input, replayed.
    const size_t B = 65536;
    std::vector<issue_stim_t> buf(B);
    issue_env_t env;
    issue_model_t m;
    env_init(&env, ENV_RANDOM, seed);
    issue_model_reset(&m);
    for (size_t i = 0; i < B; i++) {
        env_gen(&env, &buf[i]);
        buf[i].rst = 0;
        issue_model_eval(&m, &buf[i]);
        env_observe(&env, &buf[i], &m);
        issue_model_commit(&m, &buf[i]);
    }
    issue_model_reset(&m);
    uint64_t chk = 0;
    double t0 = now_s();
    for (uint64_t c = 0; c < n; c++) {
        const issue_stim_t *st = &buf[c & (B - 1)];
        issue_model_eval(&m, st);
        chk += m.wo.iss_v + m.qo.rd_data;
        issue_model_commit(&m, st);
    }
    const double tc = now_s() - t0;
    const uint64_t nr = n / 50 > 200000 ? n / 50 : 200000;
    top->rst = 1, top->clk = 0, top->eval(), top->clk = 1, top->eval();
    t0 = now_s();
    for (uint64_t c = 0; c < nr; c++) {
        drive(top, &buf[c & (B - 1)]);
        top->clk = 0;
        top->eval();
        chk += top->iss_v;
        top->clk = 1;
        top->eval();
    }
    const double tr = now_s() - t0;
    // scenario (timing-model environment in the loop), C model only
    env_init(&env, ENV_SCENARIO, seed);
    issue_model_reset(&m);
    issue_stim_t st;
    t0 = now_s();
    for (uint64_t c = 0; c < n; c++) {
        env_gen(&env, &st);
        issue_model_eval(&m, &st);
        env_observe(&env, &st, &m);
        issue_model_commit(&m, &st);
    }
    const double ts = now_s() - t0;
    std::printf("bench config=%s seed=%llu (checksum %llu)\n", SMK_CFG_NAME, (unsigned long long)seed,
                (unsigned long long)chk);
    std::printf("bench C model, replayed random stimulus : %12.0f SM-cycles/s (%llu cycles, %.3f s)\n", n / tc,
                (unsigned long long)n, tc);
    std::printf("bench Verilator RTL, same stimulus      : %12.0f SM-cycles/s (%llu cycles, %.3f s)\n", nr / tr,
                (unsigned long long)nr, tr);
    std::printf("bench ratio C/RTL                       : %12.1f x\n", (n / tc) / (nr / tr));
    std::printf("bench C model + scenario environment    : %12.0f SM-cycles/s (%llu cycles, %.3f s)\n", n / ts,
                (unsigned long long)n, ts);
    return 0;
}

int main(int argc, char **argv)
{
    uint64_t seed = 1, cycles = 20000, bench_n = 0, win_a = 0, win_b = 0, mutant = 0;
    int mode = ENV_RANDOM, rand_reset = 0, summary = 0, quiet = 0;
    const char *fst = nullptr;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto need = [&](const char *what) -> const char * {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s: %s needs %s\n", argv[0], a.c_str(), what);
                std::exit(2);
            }
            return argv[++i];
        };
        auto num = [&](const char *s) -> uint64_t {
            char *e;
            unsigned long long v = std::strtoull(s, &e, 0);
            if (*s == '\0' || *e != '\0') {
                std::fprintf(stderr, "%s: %s expects a non-negative integer, got '%s'\n", argv[0], a.c_str(), s);
                std::exit(2);
            }
            return v;
        };
        if (a == "--seed") seed = num(need("a number"));
        else if (a == "--cycles") cycles = num(need("a number"));
        else if (a == "--bench") bench_n = num(need("a number"));
        else if (a == "--mutant") mutant = num(need("a mutant id"));
        else if (a == "--mode") {
            std::string mm = need("random|scenario");
            if (mm == "random") mode = ENV_RANDOM;
            else if (mm == "scenario") mode = ENV_SCENARIO;
            else { std::fprintf(stderr, "%s: --mode expects random or scenario, got '%s'\n", argv[0], mm.c_str()); return 2; }
        } else if (a == "--rand-reset") rand_reset = 1;
        else if (a == "--summary") summary = 1;
        else if (a == "--quiet") quiet = 1;
        else if (a == "--fst") fst = need("a file name");
        else if (a == "--window") {
            const char *w = need("FIRST:LAST");
            unsigned long long x, y;
            char tail;
            if (std::sscanf(w, "%llu:%llu%c", &x, &y, &tail) != 2 || y < x) {
                std::fprintf(stderr, "%s: --window expects FIRST:LAST cycles, got '%s'\n", argv[0], w);
                return 2;
            }
            win_a = x, win_b = y;
        } else if (a == "--help" || a == "-h") { usage(argv[0]); return 0; }
        else { std::fprintf(stderr, "%s: unknown option '%s' (try --help)\n", argv[0], a.c_str()); return 2; }
    }

    // Verilator's own options: random initial register values on request, seeded from our seed
    std::vector<std::string> vargs = {argv[0]};
    if (rand_reset) {
        vargs.push_back("+verilator+rand+reset+2");
        vargs.push_back("+verilator+seed+" + std::to_string((seed % 2147483646) + 1));
    }
    std::vector<const char *> vargv;
    for (auto &s : vargs) vargv.push_back(s.c_str());
    Verilated::commandArgs((int)vargv.size(), vargv.data());
    VerilatedContext *ctx = Verilated::defaultContextp();
    Vissue_path *top = new Vissue_path;

    if (const int rc = cosim_set_mutant(top, mutant, argv[0]))
        return rc;
    if (bench_n) return bench(top, seed, bench_n);

    VerilatedFstC *tfp = nullptr;
    if (fst) {
        Verilated::traceEverOn(true);
        tfp = new VerilatedFstC;
        top->trace(tfp, 99);
        tfp->open(fst);
    }
    if (!quiet)
        std::printf("cosim_issue config=%s seed=%llu mode=%s cycles=%llu%s\n", SMK_CFG_NAME,
                    (unsigned long long)seed, mode == ENV_SCENARIO ? "scenario" : "random",
                    (unsigned long long)cycles, rand_reset ? " rand-reset" : "");

    // reset both sides: two cycles of rst before cycle 0 (the RTL may start from random values)
    issue_model_t m;
    issue_model_reset(&m);
    for (int i = 0; i < 2; i++) {
        top->rst = 1, top->clk = 0, top->eval(), top->clk = 1, top->eval();
    }
    issue_env_t env;
    env_init(&env, mode, seed);
    issue_stim_t st;
    issue_obs_t ref, rtl;
    uint64_t mism = 0, inv = 0, refills = 0, gated[SMK_KSLOTS] = {0}, issued[SMK_KSLOTS] = {0};
    uint64_t thr[SMK_KSLOTS] = {0};
    char replay[1024];
    for (uint64_t c = 0; c < cycles; c++) {
        env_gen(&env, &st);
        issue_model_eval(&m, &st);
        drive(top, &st);
        top->clk = 0;
        top->eval();
        if (tfp && c >= win_a && c <= win_b) tfp->dump((uint64_t)(2 * c));
        issue_obs_from_model(&m, &ref);
        observe_outputs(top, &rtl);
        observe_state(top, &rtl, &ref);
        const uint64_t lo = c > 50 ? c - 50 : 0;
        char mut[32] = "";
        if (mutant) std::snprintf(mut, sizeof mut, " --mutant %llu", (unsigned long long)mutant);
        std::snprintf(replay, sizeof replay,
                      "%s --seed %llu --mode %s --cycles %llu%s%s --fst mismatch_%llu.fst --window %llu:%llu", argv[0],
                      (unsigned long long)seed, mode == ENV_SCENARIO ? "scenario" : "random",
                      (unsigned long long)(c + 1), rand_reset ? " --rand-reset" : "", mut, (unsigned long long)seed,
                      (unsigned long long)lo, (unsigned long long)c);
        if (issue_obs_compare(&ref, &rtl, c, replay)) {
            mism++;
            std::printf("seed=%llu config=%s\n", (unsigned long long)seed, SMK_CFG_NAME);
            break;
        }
        inv += (uint64_t)issue_check_invariants(&m, &st, c);
        // summary statistics (scenario)
        for (int s = 0; s < SMK_SCHED; s++)
            if ((m.wo.iss_v >> s) & 1) issued[m.wo.iss_ks[s]]++;
        for (int p = 0; p < SMK_CP; p++)
            if (((st.cp_v >> p) & 1) && st.cp_ks[p] < SMK_KSLOTS)
                thr[st.cp_ks[p]] += st.cp_act[p] > SMK_WARP_SIZE ? SMK_WARP_SIZE : st.cp_act[p];
        int32_t before[SMK_KSLOTS];
        std::memcpy(before, m.qu.cnt, sizeof before);
        const uint32_t qall = m.qo.qallow, act = m.wo.ks_active, eend = m.qo.epoch_end;
        env_observe(&env, &st, &m);
        issue_model_commit(&m, &st);
        for (int k = 0; k < SMK_KSLOTS; k++) {
            gated[k] += ((act >> k) & 1) && !((qall >> k) & 1);
            if (!eend && !st.csr_we && m.qu.cnt[k] > before[k]) refills++;
        }
        top->clk = 1;
        top->eval();
        if (tfp && c >= win_a && c <= win_b) tfp->dump((uint64_t)(2 * c + 1));
        if (inv) break;
    }
    if (tfp) tfp->close();
    if (summary) {
        std::printf("summary: config %s, one SM, %llu cycles, scheme %s\n", SMK_CFG_NAME,
                    (unsigned long long)env.cycle, mode == ENV_SCENARIO ? "Rollover (QoS mode), GTO" : "random");
        for (int k = 0; k < (mode == ENV_SCENARIO ? 2 : SMK_KSLOTS); k++)
            std::printf("  kernel slot %d (%s): warp instructions issued %llu, thread instructions completed %llu "
                        "(%.2f per cycle), TBs completed %llu, cycles held by quota %llu\n",
                        k, mode != ENV_SCENARIO ? "random" : k == 0 ? "QoS" : "non-QoS",
                        (unsigned long long)issued[k], (unsigned long long)thr[k],
                        env.cycle ? (double)thr[k] / (double)env.cycle : 0.0,
                        (unsigned long long)env.tbs_done[k], (unsigned long long)gated[k]);
        if (mode == ENV_SCENARIO)
            std::printf("  QoS quota %u thread instructions per %u-cycle epoch = %.2f per cycle\n",
                        scen_quota(0), (unsigned)SCEN_EPOCH_LEN, (double)scen_quota(0) / SCEN_EPOCH_LEN);
        std::printf("  quota events: %u epochs, %llu mid-epoch refills\n", m.qu.epochs,
                    (unsigned long long)refills);
    }
    std::printf("%s: config=%s seed=%llu cycles=%llu mismatches=%llu invariant_violations=%llu\n",
                (mism || inv) ? "FAIL" : "PASS", SMK_CFG_NAME, (unsigned long long)seed,
                (unsigned long long)env.cycle, (unsigned long long)mism, (unsigned long long)inv);
    top->final();
    delete top;
    (void)ctx;
    return (mism || inv) ? 1 : 0;
}
