// cosim_qm.cpp: the thin C++ shim Verilator needs for the stand-alone QoS manager cosim. It moves
// values between the C environment (qm_env.c: stimulus, C model, compare) and the Verilated
// qos_mgr; all decisions live in C. Usage: see usage() below.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "Vqos_mgr.h"
#ifndef MUTANT
#include "Vqos_mgr___024root.h"
#endif
#include "verilated.h"
#include "vl_bits.h"
#include "cosim_opts.h"
#include "verilated_fst_c.h"

extern "C" {
#include "qm_env.h"
}

// gbits / sbits: testbench/cosim/vl_bits.h

#define R(sig) top->rootp->qos_mgr__DOT__##sig
#define QM_RTL(sig) R(sig)
#include "qm_rtl_state.h"

static const int GVW = QM_GVW;

static void drive(Vqos_mgr *top, const qm_stim_t *st)
{
    const qm_in_t *in = &st->in;
    top->rst = st->rst;
    top->m_we = in->m_we;
    top->m_addr = in->m_addr;
    top->m_wdata = in->m_wdata;
    top->m_raddr = in->m_raddr;
    for (int s = 0; s < QM_NSM; s++) sbits(top->rd_data, s * 32, 32, in->rd_data[s]);
    top->kl_v = in->kl_v;
    top->kl_k = in->kl_k;
    top->kl_n = in->kl_n;
    top->kl_qos = in->kl_qos;
    top->kl_goal = in->kl_goal;
    top->kl_x = in->kl_x;
    top->kl_t = in->kl_t;
    top->kl_keep = in->kl_keep;
    top->kl_rej = in->kl_rej;
    top->kdone_v = in->kdone_v;
    top->kdone_k = in->kdone_k;
    top->lk_cnt = in->lk_cnt;
    top->lk_part = in->lk_part;
    top->lk_ksv = in->lk_ksv;
    top->lk_ks = in->lk_ks;
    top->rq_rdy = in->rq_rdy;
    top->rq_ack_v = in->rq_ack_v;
    top->rq_ack_st = in->rq_ack_st;
    top->rq_ack_kv = in->rq_ack_kv;
    top->rq_ack_n = in->rq_ack_n;
}

static void observe_outputs(Vqos_mgr *top, qm_obs_t *o)
{
    uint64_t *v = o->v;
    v[QO_m_rdata] = top->m_rdata;
    v[QO_own] = top->own;
    v[QO_csr_we] = gbits(top->csr_we, 0, QM_NSM);
    for (int s = 0; s < QM_NSM; s++) {
        v[QO_csr_addr + s] = gbits(top->csr_addr, s * 8, 8);
        v[QO_csr_wdata + s] = gbits(top->csr_wdata, s * 32, 32);
        v[QO_rd_addr + s] = gbits(top->rd_addr, s * 8, 8);
    }
    v[QO_lk_s] = top->lk_s;
    v[QO_lk_k] = top->lk_k;
    v[QO_rq_v] = top->rq_v;
    v[QO_rq_k] = top->rq_k;
    v[QO_rq_sm] = top->rq_sm;
    for (int k = 0; k < QM_KN; k++) v[QO_rq_give + k] = gbits(top->rq_give, k * GVW, GVW);
}

#ifdef MUTANT
// Yosys-written mutant netlists (scripts/mutate.sh) keep no stable register names: every output is
// compared every cycle; the state is taken from ref.
static void observe_state(Vqos_mgr *, qm_obs_t *o, const qm_obs_t *ref)
{
    for (int i = QO_FIRST_STATE; i < QO_QM_N; i++) o->v[i] = ref->v[i];
}
#else
static void observe_state(Vqos_mgr *top, qm_obs_t *o, const qm_obs_t *) { qm_rtl_state(top, o->v); }
#endif

static void usage(const char *p)
{
    std::printf("usage: %s [--seed N] [--cycles N] [--rand-reset]\n"
                "          [--fst FILE --window FIRST:LAST] [--summary] [--quiet]\n"
                "Runs the C model and the RTL of the QoS manager in lockstep with a random host (register\n"
                "writes, launches with goals, refusals, completions), scripted SM register responses and a\n"
                "random driver stub (lookup port, request port with random latencies and statuses),\n"
                "comparing every output and every state element of docs/qos_mgr.md section 13 every cycle.\n",
                p);
}

int main(int argc, char **argv)
{
    cosim_opts o{1, 300000, 0, 0, 0, 0, 0, 0, nullptr};
    {
        const int rc = cosim_parse(argc, argv, o, usage);
        if (rc >= 0)
            return rc;
    }
    cosim_verilated_args(argv[0], o);
    const uint64_t seed = o.seed, cycles = o.cycles, win_a = o.win_a, win_b = o.win_b, mutant = o.mutant;
    const int rand_reset = o.rand_reset, summary = o.summary, quiet = o.quiet;
    const char *fst = o.fst;
    Vqos_mgr *top = new Vqos_mgr;
    if (const int rc = cosim_set_mutant(top, mutant, argv[0]))
        return rc;

    VerilatedFstC *tfp = nullptr;
    if (fst) {
        Verilated::traceEverOn(true);
        tfp = new VerilatedFstC;
        top->trace(tfp, 99);
        tfp->open(fst);
    }
    if (!quiet)
        std::printf("cosim_qm config=%s seed=%llu cycles=%llu%s\n", SMK_CFG_NAME, (unsigned long long)seed,
                    (unsigned long long)cycles, rand_reset ? " rand-reset" : "");

    // reset both sides: two cycles of rst before cycle 0 (the RTL may start from random values)
    static qm_model_t m; // large: static storage
    static qm_env_t env;
    qm_model_reset(&m);
    for (int i = 0; i < 2; i++) {
        top->rst = 1, top->clk = 0, top->eval(), top->clk = 1, top->eval();
    }
    qm_env_init(&env, seed);
    qm_stim_t st;
    qm_obs_t ref, rtl;
    uint64_t mism = 0, c = 0;
    char replay[1024];
    for (c = 0; c < cycles; c++) {
        qm_env_gen(&env, &st);
        qm_model_eval(&m, &st);          // outputs: a function of the state (and m_raddr)
        qm_env_respond(&env, &m.o, &st); // lookup results and SM read data for those outputs
        qm_model_eval(&m, &st);
        drive(top, &st);
        top->clk = 0;
        top->eval();
        if (tfp && c >= win_a && c <= win_b) tfp->dump((uint64_t)(2 * c));
        qm_obs_from_model(&m, &ref);
        observe_outputs(top, &rtl);
        observe_state(top, &rtl, &ref);
        const uint64_t lo = c > 50 ? c - 50 : 0;
        std::snprintf(replay, sizeof replay, "%s --seed %llu --cycles %llu%s --fst mismatch_%llu.fst --window %llu:%llu",
                      argv[0], (unsigned long long)seed, (unsigned long long)(c + 1), rand_reset ? " --rand-reset" : "",
                      (unsigned long long)seed, (unsigned long long)lo, (unsigned long long)c);
        if (qm_obs_compare(&ref, &rtl, c, replay)) {
            mism++;
            std::printf("seed=%llu config=%s\n", (unsigned long long)seed, SMK_CFG_NAME);
            break;
        }
        qm_env_commit(&env, &st, &m.o);
        qm_model_commit(&m, &st);
        top->clk = 1;
        top->eval();
        if (tfp && c >= win_a && c <= win_b) tfp->dump((uint64_t)(2 * c + 1));
    }
    if (tfp) tfp->close();
    if (summary) {
        std::printf("config %s, ", SMK_CFG_NAME);
        qm_env_summary(&env);
    }
    std::printf("%s: config=%s seed=%llu cycles=%llu mismatches=%llu invariant_violations=0\n",
                mism ? "FAIL" : "PASS", SMK_CFG_NAME, (unsigned long long)seed, (unsigned long long)c,
                (unsigned long long)mism);
    top->final();
    delete top;
    return mism ? 1 : 0;
}
