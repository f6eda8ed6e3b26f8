// cosim_issue.cpp: the issue-path cosim's harness (warp_sched + quota_unit, testbench/cosim/issue_path.v):
// what the lockstep driver (lockstep.h) needs of this block, and --bench. It moves values between the
// C environment (issue_env.c: stimulus, C model, observation, invariants) and the Verilated
// issue_path; all decisions live in C.
#include <chrono>
#include <vector>

#include "Vissue_path.h"
#ifndef MUTANT
#include "Vissue_path___024root.h"
#endif
#include "lockstep.h"

extern "C" {
#include "issue_env.h"
}

static void drive(Vissue_path *top, const issue_stim_t *st)
{
    top->rst = st->rst;
    top->launch_v = st->launch_v;
    top->launch_mask = st->launch_mask;
    top->launch_ks = st->launch_ks;
    top->finish_mask = st->finish_mask;
    top->ready = st->ready;
    top->stop = st->stop;
    top->pblk = st->pblk;
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

// outputs and state: sm_rtl_state.h
#define SM_RTL(sig) p->rootp->issue_path__DOT__##sig
#define SM_IX(nm) OBS_##nm
#include "sm_rtl_state.h"
static void outputs(Vissue_path *top, uint64_t *v) { wsqu_rtl_outputs(top, 0, v); }

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

static const char *const modes[] = {"random", "scenario", nullptr}; // index = ENV_RANDOM, ENV_SCENARIO

struct issue_block : lockstep_vec_block<Vissue_path, issue_obs_t> {
    int mode = ENV_RANDOM;
    uint64_t bench_n = 0;
    const cosim_extra opts[3] = {{"--mode", "random|scenario", nullptr, modes, &mode},
                                 {"--bench", "a number", &bench_n, nullptr, nullptr},
                                 {nullptr, nullptr, nullptr, nullptr, nullptr}};
    issue_model_t m;
    issue_env_t env;
    issue_stim_t st;
    /* summary statistics (scenario) */
    uint64_t refills = 0, rt_held = 0, gated[SMK_KSLOTS] = {0}, issued[SMK_KSLOTS] = {0}, thr[SMK_KSLOTS] = {0};

    issue_block() : lockstep_vec_block(&issue_obs_table, OBS_valid, outputs, LOCKSTEP_STATE(wsqu_rtl_state<Vissue_path>)) {}
    const cosim_extra *extras() override { return opts; }
    int alternate(Vissue_path *top, const cosim_opts &o) override { return bench_n ? bench(top, o.seed, bench_n) : -1; }
    void start(uint64_t seed) override
    {
        issue_model_reset(&m);
        env_init(&env, mode, seed);
    }
    void generate() override
    {
        env_gen(&env, &st);
        issue_model_eval(&m, &st);
    }
    void drive(Vissue_path *top) override { ::drive(top, &st); }
    void reference(issue_obs_t *o) override { issue_obs_from_model(&m, o); }
    int commit() override
    {
        const int v = issue_check_invariants(&m, &st, env.cycle);
        for (int s = 0; s < SMK_SCHED; s++)
            if ((m.wo.iss_v >> s) & 1) issued[m.wo.iss_ks[s]]++;
        for (int p = 0; p < SMK_CP; p++)
            if (((st.cp_v >> p) & 1) && st.cp_ks[p] < SMK_KSLOTS)
                thr[st.cp_ks[p]] += st.cp_act[p] > SMK_WARP_SIZE ? SMK_WARP_SIZE : st.cp_act[p];
        int32_t before[SMK_KSLOTS];
        std::memcpy(before, m.qu.cnt, sizeof before);
        const uint32_t qall = m.qo.qallow, act = m.wo.ks_active, eend = m.qo.epoch_end;
        /* an active slot with quota left held: only the Rollover-Time gate does that */
        rt_held += qu_gating_i(&m.qu) && (act & qu_pos_i(&m.qu) & ~qall) != 0;
        env_observe(&env, &st, &m);
        issue_model_commit(&m, &st);
        for (int k = 0; k < SMK_KSLOTS; k++) {
            gated[k] += ((act >> k) & 1) && !((qall >> k) & 1);
            if (!eend && !st.csr_we && m.qu.cnt[k] > before[k]) refills++;
        }
        return v;
    }
    int finish(bool, bool summary) override
    {
        if (!summary)
            return 0;
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
        std::printf("  quota events: %u epochs, %llu mid-epoch refills, %llu cycles with an active slot with quota "
                    "held by the Rollover-Time gate\n", m.qu.epochs, (unsigned long long)refills,
                    (unsigned long long)rt_held);
        return 0;
    }
};

static const char about[] = // --help
    "Runs the C model and the RTL of one SM's issue path (warp_sched + quota_unit) in lockstep,\n"
    "comparing every output and every state element every cycle.\n";

int main(int argc, char **argv) { return lockstep_run<issue_block>(argc, argv, {"cosim_issue", 20000, about}); }
