// cosim_pe.cpp: the thin C++ shim Verilator needs for the preemption-engine cosim. It moves values
// between the C environment (pe_env.c: stimulus, C model, compare, monitors) and the Verilated
// preempt_engine; all decisions live in C. Usage: see usage() below.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "Vpreempt_engine.h"
#ifndef MUTANT
#include "Vpreempt_engine___024root.h"
#endif
#include "verilated.h"
#include "vl_bits.h"
#include "cosim_opts.h"
#include "verilated_fst_c.h"

extern "C" {
#include "pe_env.h"
}

// gbits / sbits: testbench/cosim/vl_bits.h

#define R(sig) top->rootp->preempt_engine__DOT__##sig

static void drive(Vpreempt_engine *top, const pe_stim_t *st)
{
    const pe_in_t *in = &st->in;
    top->rst = st->rst;
    top->cmd_v = in->cmd_v;
    top->cmd_op = in->cmd_op;
    top->cmd_tb = in->cmd_tb;
    top->cmd_ptr = in->cmd_ptr;
    top->cmd_idem = in->cmd_idem;
    top->tb_run = in->tb_run;
    top->tb_alloc = in->tb_alloc;
    top->tb_idle = in->tb_idle;
    top->tb_done = in->tb_done;
    top->lk_mask = in->lk_mask;
    top->lk_nreg = in->lk_nreg;
    top->lk_smem = in->lk_smem;
    top->cap = in->cap;
    top->mem_req_rdy = in->mem_req_rdy;
    top->mem_rsp_v = in->mem_rsp_v;
    top->mem_rsp_tag = in->mem_rsp_tag;
}

static void observe_outputs(Vpreempt_engine *top, pe_obs_t *o)
{
    uint64_t *v = o->v;
    v[PO_cmd_full] = top->cmd_full;
    v[PO_rsp_v] = top->rsp_v;
    v[PO_rsp_op] = top->rsp_op;
    v[PO_rsp_tb] = top->rsp_tb;
    v[PO_rsp_status] = top->rsp_status;
    v[PO_rsp_ptr] = top->rsp_ptr;
    v[PO_free_v] = top->free_v;
    v[PO_free_tb] = top->free_tb;
    v[PO_launch_v] = top->launch_v;
    v[PO_launch_tb] = top->launch_tb;
    v[PO_stop] = top->stop;
    v[PO_draining] = top->draining;
    v[PO_lk_tb] = top->lk_tb;
    v[PO_mem_req_v] = top->mem_req_v;
    v[PO_mem_req_we] = top->mem_req_we;
    v[PO_mem_req_addr] = top->mem_req_addr;
    v[PO_mem_req_tag] = top->mem_req_tag;
    v[PO_st_re] = top->st_re;
    v[PO_st_we] = top->st_we;
    v[PO_st_tb] = top->st_tb;
    v[PO_st_kind] = top->st_kind;
    v[PO_st_wid] = top->st_wid;
    v[PO_st_idx] = top->st_idx;
}

#ifdef MUTANT
// Yosys-written mutant netlists keep no stable register names: compare every output every cycle;
// state is taken from ref.
static void observe_state(Vpreempt_engine *, pe_obs_t *o, const pe_obs_t *ref)
{
    for (int i = PO_FIRST_STATE; i < PO_N; i++) o->v[i] = ref->v[i];
}
#else
static void observe_state(Vpreempt_engine *top, pe_obs_t *o, const pe_obs_t *)
{
    uint64_t *v = o->v;
    v[PO_fsm] = R(fsm);
    for (int i = 0; i < SMK_PE_QDEPTH; i++) {
        v[PO_q_op + i] = gbits(R(q_op), i * 2, 2);
        v[PO_q_tb + i] = gbits(R(q_tb), i * SMK_TBS_W, SMK_TBS_W);
        v[PO_q_ptr + i] = gbits(R(q_ptr), i * SMK_CTX_PTR_W, SMK_CTX_PTR_W);
        v[PO_q_idem + i] = gbits(R(q_idem), i, 1);
    }
    v[PO_q_head] = R(q_head);
    v[PO_q_cnt] = R(q_cnt);
    v[PO_cur_op] = R(cur_op);
    v[PO_cur_tb] = R(cur_tb);
    v[PO_cur_st] = R(cur_st);
    v[PO_cur_ptr] = R(cur_ptr);
    v[PO_tmask] = R(tmask);
    v[PO_nreg] = R(nreg);
    v[PO_nsml] = R(nsml);
    v[PO_klim] = R(klim);
    v[PO_ph] = R(ph);
    v[PO_wrem] = R(wrem);
    v[PO_idx] = R(idx);
    v[PO_addr] = R(addr);
    v[PO_out] = R(out);
    v[PO_drain] = R(drain);
    v[PO_dpend] = R(dpend);
}
#endif

static void usage(const char *p)
{
    std::printf("usage: %s [--seed N] [--cycles N] [--rand-reset]\n"
                "          [--fst FILE --window FIRST:LAST] [--summary] [--quiet] [--mutant ID]\n"
                "Runs the C model and the RTL of the preemption engine in lockstep with a random SM, driver\n"
                "and memory, comparing every output and every state element every cycle and checking the\n"
                "spec's testbench invariants. Random synchronous resets\n"
                "mid-run (engine, SM and memory together) come in some phases.\n",
                p);
}

int main(int argc, char **argv)
{
    cosim_opts o{1, 100000, 0, 0, 0, 0, 0, 0, nullptr};
    {
        const int rc = cosim_parse(argc, argv, o, usage);
        if (rc >= 0)
            return rc;
    }
    cosim_verilated_args(argv[0], o);
    const uint64_t seed = o.seed, cycles = o.cycles, win_a = o.win_a, win_b = o.win_b, mutant = o.mutant;
    const int rand_reset = o.rand_reset, summary = o.summary, quiet = o.quiet;
    const char *fst = o.fst;
    Vpreempt_engine *top = new Vpreempt_engine;

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
        std::printf("cosim_pe config=%s seed=%llu cycles=%llu%s\n", SMK_CFG_NAME, (unsigned long long)seed,
                    (unsigned long long)cycles, rand_reset ? " rand-reset" : "");

    // reset both sides: two cycles of rst before cycle 0 (the RTL may start from random values)
    static pe_model_t m; // large: static storage
    static pe_env_t env;
    pe_model_reset(&m);
    for (int i = 0; i < 2; i++) {
        top->rst = 1, top->clk = 0, top->eval(), top->clk = 1, top->eval();
    }
    pe_env_init(&env, seed, 1);
    pe_stim_t st;
    pe_obs_t ref, rtl;
    uint64_t mism = 0, inv = 0, c = 0;
    char replay[1024];
    for (c = 0; c < cycles; c++) {
        pe_env_gen(&env, &m.pe, &st);
        pe_model_eval(&m, &st);
        drive(top, &st);
        top->clk = 0;
        top->eval();
        if (tfp && c >= win_a && c <= win_b) tfp->dump((uint64_t)(2 * c));
        pe_obs_from_model(&m, &ref);
        observe_outputs(top, &rtl);
        observe_state(top, &rtl, &ref);
        const uint64_t lo = c > 50 ? c - 50 : 0;
        char mut[32] = "";
        if (mutant) std::snprintf(mut, sizeof mut, " --mutant %llu", (unsigned long long)mutant);
        std::snprintf(replay, sizeof replay, "%s --seed %llu --cycles %llu%s%s --fst mismatch_%llu.fst --window %llu:%llu",
                      argv[0], (unsigned long long)seed, (unsigned long long)(c + 1), rand_reset ? " --rand-reset" : "", mut, (unsigned long long)seed, (unsigned long long)lo,
                      (unsigned long long)c);
        if (pe_obs_compare(&ref, &rtl, c, replay)) {
            mism++;
            std::printf("seed=%llu config=%s\n", (unsigned long long)seed, SMK_CFG_NAME);
            break;
        }
        inv += (uint64_t)pe_env_check(&env, &st, &m.o);
        inv += (uint64_t)pe_env_commit(&env, &st, &m.o);
        pe_model_commit(&m, &st);
        top->clk = 1;
        top->eval();
        if (tfp && c >= win_a && c <= win_b) tfp->dump((uint64_t)(2 * c + 1));
        if (inv) {
            std::printf("INVARIANT violation at cycle %llu, seed=%llu config=%s; replay with waveform window:\n  %s\n",
                        (unsigned long long)c, (unsigned long long)seed, SMK_CFG_NAME, replay);
            c++;
            break;
        }
    }
    if (!mism && !inv && c == cycles) inv += (uint64_t)pe_env_final(&env);
    if (tfp) tfp->close();
    if (summary) {
        std::printf("config %s, ", SMK_CFG_NAME);
        pe_env_summary(&env);
    }
    std::printf("%s: config=%s seed=%llu cycles=%llu mismatches=%llu invariant_violations=%llu\n",
                (mism || inv) ? "FAIL" : "PASS", SMK_CFG_NAME, (unsigned long long)seed, (unsigned long long)c,
                (unsigned long long)mism, (unsigned long long)inv);
    top->final();
    delete top;
    return (mism || inv) ? 1 : 0;
}
