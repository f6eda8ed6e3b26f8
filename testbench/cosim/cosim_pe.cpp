// cosim_pe.cpp: the preemption-engine cosim's harness: what the lockstep driver (lockstep.h) needs
// of this block. It moves values between the C environment (pe_env.c: stimulus, C model,
// observation, monitors) and the Verilated preempt_engine; all decisions live in C.
#include "Vpreempt_engine.h"
#ifndef MUTANT
#include "Vpreempt_engine___024root.h"
#endif
#include "lockstep.h"

extern "C" {
#include "pe_env.h"
}

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

static void outputs(Vpreempt_engine *top, uint64_t *v)
{
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

// the engine's state: pe_rtl_state.h
#define PE_RTL(sig) p->rootp->preempt_engine__DOT__##sig
#define PE_IX(nm) PO_##nm
#define PE_IX_TMASK PO_tmask
#include "pe_rtl_state.h"

struct pe_block : lockstep_vec_block<Vpreempt_engine, pe_obs_t> {
    pe_model_t m;
    pe_env_t env;
    pe_stim_t st;
    pe_block() : lockstep_vec_block(&pe_obs_table, PO_FIRST_STATE, outputs, LOCKSTEP_STATE(pe_rtl_state<Vpreempt_engine>))
    {
    }
    void start(uint64_t seed) override
    {
        pe_model_reset(&m);
        pe_env_init(&env, seed, 1);
    }
    void generate() override
    {
        pe_env_gen(&env, &m.pe, &st);
        pe_model_eval(&m, &st);
    }
    void drive(Vpreempt_engine *top) override { ::drive(top, &st); }
    void reference(pe_obs_t *o) override { pe_obs_from_model(&m, o); }
    int commit() override
    {
        int v = pe_env_check(&env, &st, &m.o);
        v += pe_env_commit(&env, &st, &m.o);
        pe_model_commit(&m, &st);
        return v;
    }
    int finish(bool passed, bool summary) override
    {
        const int v = passed ? pe_env_final(&env) : 0;
        if (summary) {
            std::printf("config %s, ", SMK_CFG_NAME);
            pe_env_summary(&env);
        }
        return v;
    }
};

static const char about[] = // --help
    "Runs the C model and the RTL of the preemption engine in lockstep with a random SM, driver\n"
    "and memory, comparing every output and every state element every cycle and checking the\n"
    "spec's testbench invariants. Random synchronous resets\n"
    "mid-run (engine, SM and memory together) come in some phases.\n";

int main(int argc, char **argv) { return lockstep_run<pe_block>(argc, argv, {"cosim_pe", 100000, about}); }
