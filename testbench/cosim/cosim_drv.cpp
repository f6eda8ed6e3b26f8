// cosim_drv.cpp: the SM-driver cosim's harness (sm_driver): what the lockstep driver (lockstep.h) needs
// of this block. It moves values between the C environment (drv_env.c: host, SM-side responder,
// monitors, observation) plus the C model (sm_driver.c) and the Verilated sm_driver; all decisions
// live in C.
#include "Vsm_driver.h"
#ifndef MUTANT
#include "Vsm_driver___024root.h"
#endif
#include "lockstep.h"

extern "C" {
#include "drv_env.h"
}

#define NSM SMK_NUM_SM
#define NT SMK_TB_SLOTS
#define DR(sig) top->rootp->sm_driver__DOT__##sig

// host ports, outputs and state: drv_rtl_state.h
#define DRV_RTL(sig) DR(sig)
#define DRV_IX(nm) DO_##nm
#define DRV_IX_U(k, x) (DO_U_reg + (x) * SMK_KERNELS + (k))
#define DRV_IX_u(s, x) (DO_u_reg + (x) * NSM + (s))
#define DRV_IX_pacc(x) (DO_pacc_reg + (x))
#include "drv_rtl_state.h"

// the host, and the SM tops' answers
static void drive(Vsm_driver *top, const drv_stim_t *st)
{
    const drv_in_t *in = &st->in;
    top->rst = st->rst;
    drv_rtl_drive_host(top, in);
    for (int s = 0; s < NSM; s++) {
        sbits(top->set_rej, s, 1, in->set_rej[s]);
        sbits(top->cmd_full, s, 1, in->cmd_full[s]);
        sbits(top->rsp_v, s, 1, in->rsp_v[s]);
        sbits(top->rsp_op, s * 2, 2, in->rsp_op[s]);
        sbits(top->rsp_tb, s * SMK_TBS_W, SMK_TBS_W, in->rsp_tb[s]);
        sbits(top->rsp_status, s * 3, 3, in->rsp_status[s]);
        sbits(top->rsp_ptr, s * SMK_CTX_PTR_W, SMK_CTX_PTR_W, in->rsp_ptr[s]);
        sbits(top->tb_done, s * NT, NT, in->tb_done[s]);
        sbits(top->wused, s * SMK_WARPS, SMK_WARPS, in->wused[s]);
    }
}

#ifndef MUTANT
static void observe_state(Vsm_driver *top, uint64_t *v)
{
    drv_rtl_state(top, v);
    // the registered outputs, kept in the observation as state
    v[DO_s_kl_rej] = DR(kl_rej), v[DO_s_kdone_v] = DR(kdone_v), v[DO_s_kdone_k] = DR(kdone_k);
    v[DO_s_rq_ack_v] = DR(rq_ack_v), v[DO_s_rq_ack_st] = DR(rq_ack_st);
    v[DO_s_rq_ack_kv] = DR(rq_ack_kv), v[DO_s_rq_ack_n] = DR(rq_ack_n);
}
#endif

struct drv_block : lockstep_vec_block<Vsm_driver, drv_obs_t> {
    sm_driver_t m;
    drv_env_t *env = nullptr;
    drv_stim_t st;
    drv_out_t out;
    drv_block()
        : lockstep_vec_block(&drv_obs_table, DO_FIRST_STATE, drv_rtl_outputs<Vsm_driver>, LOCKSTEP_STATE(observe_state))
    {
    }
    ~drv_block() { drv_env_free(env); }
    void start(uint64_t seed) override
    {
        drv_reset(&m);
        env = drv_env_new(seed);
    }
    void generate() override
    {
        drv_env_gen(env, &st);
        drv_eval(&m, &st.in, &out);
        drv_env_react(env, &st, &out);
    }
    void drive(Vsm_driver *top) override { ::drive(top, &st); }
    void reference(drv_obs_t *o) override { drv_obs_from_model(&m, &out, o); }
    int commit() override
    {
        const int v = drv_env_observe(env, &st, &m, &out);
        if (st.rst) drv_reset(&m);
        else drv_commit(&m, &st.in, &out);
        return v;
    }
    int finish(bool passed, bool summary) override { return passed ? drv_env_finish(env, &m, summary) : 0; }
};

static const char about[] = // --help
    "Runs the C model and the RTL of the SM driver (sm_driver) in lockstep under a random host and a\n"
    "random SM-side responder per SM, comparing every output and every state element every cycle and\n"
    "checking the driver's invariants (testbench/cosim/drv_env.h).\n";

int main(int argc, char **argv) { return lockstep_run<drv_block>(argc, argv, {"cosim_drv", 20000, about}); }
