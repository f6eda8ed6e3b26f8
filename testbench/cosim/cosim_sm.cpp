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

static void observe_outputs(Vsm_top *top, uint64_t *v)
{
    v[SO_set_rej] = top->set_rej;
    v[SO_tb_alloc] = top->tb_alloc, v[SO_tb_run] = top->tb_run, v[SO_tb_done] = top->tb_done;
    v[SO_wused] = top->wused;
    v[SO_iss_v] = top->iss_v;
    for (int s = 0; s < SMK_SCHED; s++) {
        v[SO_iss_wid + s] = gbits(top->iss_wid, s * SMK_WID_W, SMK_WID_W);
        v[SO_iss_ks + s] = gbits(top->iss_ks, s * SMK_KS_W, SMK_KS_W);
    }
    for (int k = 0; k < SMK_KSLOTS; k++) {
        v[SO_idle_cnt + k] = gbits(top->idle_cnt, k * SMK_WCNT_W, SMK_WCNT_W);
        v[SO_held_cnt + k] = gbits(top->held_cnt, k * SMK_WCNT_W, SMK_WCNT_W);
    }
    v[SO_ks_active] = top->ks_active, v[SO_wvalid] = top->wvalid, v[SO_stop] = top->stop;
    v[SO_qallow] = top->qallow, v[SO_policy] = top->policy;
    v[SO_epoch_end] = top->epoch_end, v[SO_rd_data] = top->rd_data;
    v[SO_cmd_full] = top->cmd_full;
    v[SO_rsp_v] = top->rsp_v, v[SO_rsp_op] = top->rsp_op, v[SO_rsp_tb] = top->rsp_tb;
    v[SO_rsp_status] = top->rsp_status, v[SO_rsp_ptr] = top->rsp_ptr;
    v[SO_free_v] = top->free_v, v[SO_free_tb] = top->free_tb;
    v[SO_launch_v] = top->launch_v, v[SO_launch_tb] = top->launch_tb;
    v[SO_draining] = top->draining;
    v[SO_mem_req_v] = top->mem_req_v, v[SO_mem_req_we] = top->mem_req_we;
    v[SO_mem_req_addr] = top->mem_req_addr, v[SO_mem_req_tag] = top->mem_req_tag;
    v[SO_st_re] = top->st_re, v[SO_st_we] = top->st_we, v[SO_st_tb] = top->st_tb;
    v[SO_st_kind] = top->st_kind, v[SO_st_wid] = top->st_wid, v[SO_st_idx] = top->st_idx;
}

#ifndef MUTANT
#define SM_RTL(sig) p->rootp->sm_top__DOT__##sig
#define SM_IX(nm) SO_##nm
#include "sm_rtl_state.h"
static void observe_state(Vsm_top *top, uint64_t *v) { sm_rtl_state(top, v); }
#endif

struct sm_block : lockstep_block<Vsm_top> {
    sm_top_t m;
    sm_env_t *env = nullptr;
    sm_stim_t st;
    sm_out_t out;
    sm_obs_t ref, rtl;
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
    int compare(Vsm_top *top, uint64_t c) override
    {
        sm_obs_from_model(&m, &out, &ref);
        observe_outputs(top, rtl.v);
        LOCKSTEP_STATE(observe_state, top, rtl.v, ref.v, SO_FIRST_STATE, SO_N);
        return obs_diff(&sm_obs_table, ref.v, rtl.v, c, nullptr, -1, 0, 12);
    }
    int commit() override
    {
        const int v = sm_env_observe(env, &st, &m, &out);
        if (st.rst) sm_reset(&m);
        else sm_commit(&m, &st.in, &out);
        return v;
    }
    int finish(bool passed, bool summary) override { return passed ? sm_env_finish(env, summary) : 0; }
};

int main(int argc, char **argv)
{
    static sm_block b;
    return lockstep_main(argc, argv,
                         {"cosim_sm", 20000,
                          "Runs the C model and the RTL of one SM (sm_top: warp_sched + quota_unit + preempt_engine +\n"
                          "TB slot table) in lockstep under a random environment (pipelines, storage, memory, driver),\n"
                          "comparing every output and every state element every cycle and checking the TB ledger and\n"
                          "the engine's invariants (testbench/cosim/sm_env.h).\n"},
                         b);
}
