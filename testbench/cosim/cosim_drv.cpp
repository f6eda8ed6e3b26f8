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
#define KN SMK_KERNELS
#define KS SMK_KSLOTS
#define NT SMK_TB_SLOTS
#define PQ SMK_PTBQ
#define KW SMK_KID_W
#define GW SMK_GRID_W
#define UW SMK_UW
#define TC (SMK_TBS_W + 1)
#define NWW (SMK_WID_W + 1)
#define KDW (SMK_REGN_W + SMK_WID_W + 1)
#define DR(sig) top->rootp->sm_driver__DOT__##sig

static void drive(Vsm_driver *top, const drv_stim_t *st)
{
    const drv_in_t *in = &st->in;
    top->rst = st->rst;
    top->kl_v = in->kl_v, top->kl_k = in->kl_k, top->kl_n = in->kl_n, top->kl_r = in->kl_r, top->kl_m = in->kl_m;
    top->kl_grid = in->kl_grid, top->kl_qos = in->kl_qos, top->kl_idem = in->kl_idem;
    sbits(top->kl_mask, 0, NSM, in->kl_mask);
    top->kl_adm = in->kl_adm, top->kl_lim = in->kl_lim;
    top->km_v = in->km_v, top->km_k = in->km_k;
    sbits(top->km_mask, 0, NSM, in->km_mask);
    top->cfg_policy = in->cfg_policy, top->cfg_max2 = in->cfg_max2;
    top->cfg_evict = in->cfg_evict, top->cfg_pmode = in->cfg_pmode;
    top->rq_v = in->rq_v, top->rq_k = in->rq_k, top->rq_sm = in->rq_sm;
    for (int k = 0; k < KN; k++) sbits(top->rq_give, k * TC, TC, in->rq_give[k]);
    top->lk_s = in->lk_s, top->lk_k = in->lk_k;
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

static void observe_outputs(Vsm_driver *top, uint64_t *v)
{
    v[DO_kl_rej] = top->kl_rej, v[DO_kdone_v] = top->kdone_v, v[DO_kdone_k] = top->kdone_k;
    v[DO_rq_rdy] = top->rq_rdy, v[DO_rq_ack_v] = top->rq_ack_v, v[DO_rq_ack_st] = top->rq_ack_st;
    v[DO_rq_ack_kv] = top->rq_ack_kv, v[DO_rq_ack_n] = top->rq_ack_n;
    v[DO_lk_cnt] = top->lk_cnt, v[DO_lk_part] = top->lk_part, v[DO_lk_ksv] = top->lk_ksv, v[DO_lk_ks] = top->lk_ks;
    for (int s = 0; s < NSM; s++) {
        v[DO_set_id + s] = gbits(top->set_id, s * GW, GW);
        v[DO_set_v + s] = gbits(top->set_v, s, 1);
        v[DO_set_tb + s] = gbits(top->set_tb, s * SMK_TBS_W, SMK_TBS_W);
        v[DO_set_mask + s] = gbits(top->set_mask, s * SMK_WARPS, SMK_WARPS);
        v[DO_set_ks + s] = gbits(top->set_ks, s * SMK_KS_W, SMK_KS_W);
        v[DO_set_nreg + s] = gbits(top->set_nreg, s * SMK_REGN_W, SMK_REGN_W);
        v[DO_set_smem + s] = gbits(top->set_smem, s * SMK_SMLN_W, SMK_SMLN_W);
        v[DO_set_go + s] = gbits(top->set_go, s, 1);
        v[DO_cmd_v + s] = gbits(top->cmd_v, s, 1);
        v[DO_cmd_op + s] = gbits(top->cmd_op, s * 2, 2);
        v[DO_cmd_tb + s] = gbits(top->cmd_tb, s * SMK_TBS_W, SMK_TBS_W);
        v[DO_cmd_ptr + s] = gbits(top->cmd_ptr, s * SMK_CTX_PTR_W, SMK_CTX_PTR_W);
        v[DO_cmd_idem + s] = gbits(top->cmd_idem, s, 1);
    }
}

#ifndef MUTANT
#define DRV_RTL(sig) DR(sig)
#define DRV_IX(nm) DO_##nm
#define DRV_IX_U(k, x) (DO_U_reg + (x) * KN + (k))
#define DRV_IX_u(s, x) (DO_u_reg + (x) * NSM + (s))
#define DRV_IX_pacc(x) (DO_pacc_reg + (x))
#include "drv_rtl_state.h"
static void observe_state(Vsm_driver *top, uint64_t *v)
{
    drv_rtl_state(top, v);
    // the registered outputs, kept in the observation as state
    v[DO_s_kl_rej] = DR(kl_rej), v[DO_s_kdone_v] = DR(kdone_v), v[DO_s_kdone_k] = DR(kdone_k);
    v[DO_s_rq_ack_v] = DR(rq_ack_v), v[DO_s_rq_ack_st] = DR(rq_ack_st);
    v[DO_s_rq_ack_kv] = DR(rq_ack_kv), v[DO_s_rq_ack_n] = DR(rq_ack_n);
}
#endif

struct drv_block : lockstep_block<Vsm_driver> {
    sm_driver_t m;
    drv_env_t *env = nullptr;
    drv_stim_t st;
    drv_out_t out;
    drv_obs_t ref, rtl;
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
    int compare(Vsm_driver *top, uint64_t c) override
    {
        drv_obs_from_model(&m, &out, &ref);
        observe_outputs(top, rtl.v);
        LOCKSTEP_STATE(observe_state, top, rtl.v, ref.v, DO_FIRST_STATE, DO_N);
        return obs_diff(&drv_obs_table, ref.v, rtl.v, c, nullptr, -1, 0, 12);
    }
    int commit() override
    {
        const int v = drv_env_observe(env, &st, &m, &out);
        if (st.rst) drv_reset(&m);
        else drv_commit(&m, &st.in, &out);
        return v;
    }
    int finish(bool passed, bool summary) override { return passed ? drv_env_finish(env, &m, summary) : 0; }
};

int main(int argc, char **argv)
{
    static drv_block b;
    return lockstep_main(argc, argv,
                         {"cosim_drv", 20000,
                          "Runs the C model and the RTL of the SM driver (sm_driver) in lockstep under a random host and a\n"
                          "random SM-side responder per SM, comparing every output and every state element every cycle and\n"
                          "checking the driver's invariants (testbench/cosim/drv_env.h).\n"},
                         b);
}
