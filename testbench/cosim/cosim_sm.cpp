// cosim_sm.cpp: the whole-SM cosim's harness (sm_top): what the lockstep driver (lockstep.h) needs of
// this block. It moves values between the C environment (sm_env.c: stimulus, monitors, observation)
// plus the C model (sm_top.c) and the Verilated sm_top; all decisions live in C.
#include "Vsm_top.h"
#ifndef MUTANT
#include "Vsm_top___024root.h"
#endif
#include "lockstep.h"

extern "C" {
#include "sm_env.h"
}

static void drive(Vsm_top *top, const sm_stim_t *st)
{
    const sm_in_t *in = &st->in;
    top->rst = st->rst;
    top->set_v = in->set_v;
    top->set_tb = in->set_tb;
    top->set_mask = in->set_mask;
    top->set_ks = in->set_ks;
    top->set_nreg = in->set_nreg;
    top->set_smem = in->set_smem;
    top->set_go = in->set_go;
    top->cmd_v = in->cmd_v;
    top->cmd_op = in->cmd_op;
    top->cmd_tb = in->cmd_tb;
    top->cmd_ptr = in->cmd_ptr;
    top->cmd_idem = in->cmd_idem;
    top->cap = in->cap;
    top->ready = in->ready;
    top->pblk = in->pblk;
    top->wbusy = in->wbusy;
    top->wexit = in->wexit;
    top->cp_v = in->cp_v;
    for (int p = 0; p < SMK_CP; p++) {
        sbits(top->cp_ks, p * SMK_KS_W, SMK_KS_W, in->cp_ks[p]);
        sbits(top->cp_act, p * SMK_ACT_W, SMK_ACT_W, in->cp_act[p]);
    }
    top->csr_we = in->csr_we;
    top->csr_addr = in->csr_addr;
    top->csr_wdata = in->csr_wdata;
    top->rd_addr = in->rd_addr;
    top->mem_req_rdy = in->mem_req_rdy;
    top->mem_rsp_v = in->mem_rsp_v;
    top->mem_rsp_tag = in->mem_rsp_tag;
}

// outputs and state: sm_rtl_state.h
#define SM_RTL(sig) p->rootp->sm_top__DOT__##sig
#define SM_IX(nm) SO_##nm
#include "sm_rtl_state.h"
static void outputs(Vsm_top *top, uint64_t *v) { sm_rtl_outputs(top, 0, v); }

struct sm_block : lockstep_vec_block<Vsm_top, sm_obs_t> {
    sm_top_t m;
    sm_env_t *env = nullptr;
    sm_stim_t st;
    sm_out_t out;
    sm_block() : lockstep_vec_block(&sm_obs_table, SO_FIRST_STATE, outputs, LOCKSTEP_STATE(sm_rtl_state<Vsm_top>)) {}
    ~sm_block() { sm_env_free(env); }
    void start(uint64_t seed) override
    {
        sm_reset(&m);
        env = sm_env_new(seed);
    }
    void generate() override
    {
        sm_env_gen(env, &st);
        sm_eval(&m, &st.in, &out);
    }
    void drive(Vsm_top *top) override { ::drive(top, &st); }
    void reference(sm_obs_t *o) override { sm_obs_from_model(&m, &out, o); }
    int commit() override
    {
        const int v = sm_env_observe(env, &st, &m, &out);
        if (st.rst) sm_reset(&m);
        else sm_commit(&m, &st.in, &out);
        return v;
    }
    int finish(bool passed, bool summary) override { return passed ? sm_env_finish(env, summary) : 0; }
};

static const char about[] = // --help
    "Runs the C model and the RTL of one SM (sm_top: warp_sched + quota_unit + preempt_engine +\n"
    "TB slot table) in lockstep under a random environment (pipelines, storage, memory, driver),\n"
    "comparing every output and every state element every cycle and checking the TB ledger and\n"
    "the engine's invariants (testbench/cosim/sm_env.h).\n";

int main(int argc, char **argv) { return lockstep_run<sm_block>(argc, argv, {"cosim_sm", 20000, about}); }
