// cosim_drv.cpp: the thin C++ shim Verilator needs for the SM-driver cosim. It moves values between
// the C environment (drv_env.c: host, SM-side responder, monitors, observation, compare) plus the C
// model (sm_driver.c) and the Verilated sm_driver; all decisions live in C. Usage: see usage() below.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "Vsm_driver.h"
#ifndef MUTANT
#include "Vsm_driver___024root.h"
#endif
#include "verilated.h"
#include "vl_bits.h"
#include "cosim_opts.h"
#include "verilated_fst_c.h"

extern "C" {
#include "drv_env.h"
}

// gbits / sbits: testbench/cosim/vl_bits.h

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

static void observe_outputs(Vsm_driver *top, drv_obs_t *o)
{
    uint64_t *v = o->v;
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

#ifdef MUTANT
// Yosys-written mutant netlists keep no stable register names: compare every output every cycle;
// state is taken from ref.
static void observe_state(Vsm_driver *, drv_obs_t *o, const drv_obs_t *ref)
{
    for (int i = DO_FIRST_STATE; i < DO_N; i++) o->v[i] = ref->v[i];
}
#else
// packing: the comment at the top of rtl/sm_driver.v
static void observe_state(Vsm_driver *top, drv_obs_t *o, const drv_obs_t *)
{
    uint64_t *v = o->v;
    v[DO_kv] = gbits(DR(kv), 0, KN), v[DO_kqos] = gbits(DR(kqos), 0, KN), v[DO_kidem] = gbits(DR(kidem), 0, KN);
    for (int k = 0; k < KN; k++) {
        v[DO_kold + k] = gbits(DR(kold), k * KN, KN);
        v[DO_kn + k] = gbits(DR(kn), k * NWW, NWW);
        v[DO_kr + k] = gbits(DR(kr), k * SMK_REGN_W, SMK_REGN_W);
        v[DO_km + k] = gbits(DR(km), k * SMK_SMLN_W, SMK_SMLN_W);
        v[DO_kdreg + k] = gbits(DR(kdreg), k * KDW, KDW);
        v[DO_kgrid + k] = gbits(DR(kgrid), k * GW, GW);
        v[DO_knext + k] = gbits(DR(knext), k * GW, GW);
        v[DO_kndone + k] = gbits(DR(kndone), k * GW, GW);
        v[DO_klim + k] = gbits(DR(klim), k * GW, GW);
        v[DO_kmask + k] = gbits(DR(kmask), k * NSM, NSM);
        v[DO_kadm + k] = gbits(DR(kadm), k * 2, 2);
        v[DO_U_reg + k] = gbits(DR(U), (k * 4 + 0) * UW, UW);
        v[DO_U_sl + k] = gbits(DR(U), (k * 4 + 1) * UW, UW);
        v[DO_U_w + k] = gbits(DR(U), (k * 4 + 2) * UW, UW);
        v[DO_U_tb + k] = gbits(DR(U), (k * 4 + 3) * UW, UW);
        v[DO_pc + k] = gbits(DR(pc), k * TC, TC);
    }
    uint64_t busy = 0, bpb = 0, rlv = 0;
    for (int s = 0; s < NSM; s++) {
        v[DO_u_reg + s] = gbits(DR(u), (s * 4 + 0) * UW, UW);
        v[DO_u_sl + s] = gbits(DR(u), (s * 4 + 1) * UW, UW);
        v[DO_u_w + s] = gbits(DR(u), (s * 4 + 2) * UW, UW);
        v[DO_u_tb + s] = gbits(DR(u), (s * 4 + 3) * UW, UW);
        for (int k = 0; k < KN; k++) {
            v[DO_cnt + s * KN + k] = gbits(DR(cnt), (s * KN + k) * TC, TC);
            v[DO_part + s * KN + k] = gbits(DR(part), (s * KN + k) * TC, TC);
        }
        v[DO_ksv + s] = gbits(DR(ksv), s * KS, KS);
        for (int j = 0; j < KS; j++)
            v[DO_ksk + s * KS + j] = gbits(DR(ksk), (s * KS + j) * KW, KW);
        v[DO_sv + s] = gbits(DR(sv), s * NT, NT);
        v[DO_spre + s] = gbits(DR(spre), s * NT, NT);
        v[DO_sfill + s] = gbits(DR(sfill), s * NT, NT);
        v[DO_dp + s] = gbits(DR(dp), s * NT, NT);
        for (int t = 0; t < NT; t++) {
            v[DO_sk + s * NT + t] = gbits(DR(sk), (s * NT + t) * KW, KW);
            v[DO_sid + s * NT + t] = gbits(DR(sid), (s * NT + t) * GW, GW);
        }
        busy |= gbits(DR(busy), s, 1) << s, bpb |= gbits(DR(bpb), s, 1) << s, rlv |= gbits(DR(rl_v), s, 1) << s;
        v[DO_rl_op + s] = gbits(DR(rl_op), s * 2, 2);
        v[DO_rl_tb + s] = gbits(DR(rl_tb), s * SMK_TBS_W, SMK_TBS_W);
        v[DO_rl_st + s] = gbits(DR(rl_st), s * 3, 3);
    }
    v[DO_busy] = busy, v[DO_bpb] = bpb, v[DO_rl_v] = rlv;
    for (int i = 0; i < PQ; i++) {
        v[DO_qst + i] = gbits(DR(qst), i * 3, 3);
        v[DO_qk + i] = gbits(DR(qk), i * KW, KW);
        v[DO_qid + i] = gbits(DR(qid), i * GW, GW);
        v[DO_qs + i] = gbits(DR(qs), i * SMK_SMW, SMK_SMW);
        v[DO_qt + i] = gbits(DR(qt), i * SMK_TBS_W, SMK_TBS_W);
    }
    v[DO_pb] = DR(pb), v[DO_plan_v] = DR(plan_v), v[DO_plan_kc] = DR(plan_kc), v[DO_plan_kv] = DR(plan_kv);
    v[DO_plan_sm] = DR(plan_sm), v[DO_plan_left] = DR(plan_left);
    v[DO_s_kl_rej] = DR(kl_rej), v[DO_s_kdone_v] = DR(kdone_v), v[DO_s_kdone_k] = DR(kdone_k);
    v[DO_pdirty] = DR(pdirty), v[DO_pact] = DR(pact), v[DO_pcur] = DR(pcur), v[DO_pcnt_ks] = DR(pcnt_ks), v[DO_pgot] = DR(pgot);
    v[DO_prun] = DR(prun), v[DO_psrv] = DR(psrv), v[DO_ptop] = DR(ptop), v[DO_prr] = DR(prr), v[DO_prt] = DR(prt);
    v[DO_pacc_reg] = gbits(DR(pacc), 0 * UW, UW), v[DO_pacc_sl] = gbits(DR(pacc), 1 * UW, UW);
    v[DO_pacc_w] = gbits(DR(pacc), 2 * UW, UW), v[DO_pacc_tb] = gbits(DR(pacc), 3 * UW, UW);
    // request unit (the spec's rq_k is the register rq_kr: the port has the name)
    v[DO_rq_st] = DR(rq_st), v[DO_rq_k] = DR(rq_kr), v[DO_rq_s] = DR(rq_s), v[DO_rq_j] = DR(rq_j);
    v[DO_rq_c] = DR(rq_c), v[DO_rq_q] = DR(rq_q), v[DO_rq_npk] = DR(rq_npk), v[DO_rq_pend] = DR(rq_pend);
    v[DO_rq_pk] = DR(rq_pk);
    for (int k = 0; k < KN; k++) v[DO_rq_g + k] = gbits(DR(rq_g), k * TC, TC);
    for (int x = 0; x < 4; x++) v[DO_acc + x] = gbits(DR(acc), x * UW, UW), v[DO_w + x] = gbits(DR(w), x * UW, UW);
    v[DO_s_rq_ack_v] = DR(rq_ack_v), v[DO_s_rq_ack_st] = DR(rq_ack_st);
    v[DO_s_rq_ack_kv] = DR(rq_ack_kv), v[DO_s_rq_ack_n] = DR(rq_ack_n);
}
#endif

static void usage(const char *p)
{
    std::printf("usage: %s [--seed N] [--cycles N] [--rand-reset] [--fst FILE --window FIRST:LAST]\n"
                "          [--summary] [--quiet] [--mutant ID]\n"
                "Runs the C model and the RTL of the SM driver (sm_driver) in lockstep under a random host and a\n"
                "random SM-side responder per SM, comparing every output and every state element every cycle and\n"
                "checking the driver's invariants (testbench/cosim/drv_env.h).\n",
                p);
}

int main(int argc, char **argv)
{
    cosim_opts o{1, 20000, 0, 0, 0, 0, 0, 0, nullptr};
    {
        const int rc = cosim_parse(argc, argv, o, usage);
        if (rc >= 0)
            return rc;
    }
    cosim_verilated_args(argv[0], o);
    const uint64_t seed = o.seed, cycles = o.cycles, win_a = o.win_a, win_b = o.win_b, mutant = o.mutant;
    const int rand_reset = o.rand_reset, summary = o.summary, quiet = o.quiet;
    const char *fst = o.fst;
    Vsm_driver *top = new Vsm_driver;
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
        std::printf("cosim_drv config=%s seed=%llu cycles=%llu%s\n", SMK_CFG_NAME, (unsigned long long)seed,
                    (unsigned long long)cycles, rand_reset ? " rand-reset" : "");

    // reset both sides: two cycles of rst before cycle 0 (the RTL may start from random values)
    static sm_driver_t m;
    drv_reset(&m);
    for (int i = 0; i < 2; i++) top->rst = 1, top->clk = 0, top->eval(), top->clk = 1, top->eval();
    drv_env_t *env = drv_env_new(seed);
    static drv_stim_t st;
    static drv_out_t out;
    static drv_obs_t ref, rtl;
    uint64_t mism = 0, inv = 0, c = 0;
    char replay[1024];
    for (c = 0; c < cycles; c++) {
        drv_env_gen(env, &st);
        drv_eval(&m, &st.in, &out);
        drv_env_react(env, &st, &out);
        drive(top, &st);
        top->clk = 0;
        top->eval();
        if (tfp && c >= win_a && c <= win_b) tfp->dump((uint64_t)(2 * c));
        drv_obs_from_model(&m, &out, &ref);
        observe_outputs(top, &rtl);
        observe_state(top, &rtl, &ref);
        const uint64_t lo = c > 50 ? c - 50 : 0;
        char mut[32] = "";
        if (mutant) std::snprintf(mut, sizeof mut, " --mutant %llu", (unsigned long long)mutant);
        std::snprintf(replay, sizeof replay, "%s --seed %llu --cycles %llu%s%s --fst mismatch_%llu.fst --window %llu:%llu",
                      argv[0], (unsigned long long)seed, (unsigned long long)(c + 1), rand_reset ? " --rand-reset" : "",
                      mut, (unsigned long long)seed, (unsigned long long)lo, (unsigned long long)c);
        if (drv_obs_compare(&ref, &rtl, c, replay)) {
            mism++;
            std::printf("seed=%llu config=%s\n", (unsigned long long)seed, SMK_CFG_NAME);
            break;
        }
        const int b = drv_env_observe(env, &st, &m, &out);
        if (st.rst) drv_reset(&m);
        else drv_commit(&m, &st.in, &out);
        top->clk = 1;
        top->eval();
        if (tfp && c >= win_a && c <= win_b) tfp->dump((uint64_t)(2 * c + 1));
        if (b) {
            inv += (uint64_t)b;
            std::printf("INVARIANT violation(s) at cycle %llu, seed=%llu config=%s; replay with waveform window:\n  %s\n",
                        (unsigned long long)c, (unsigned long long)seed, SMK_CFG_NAME, replay);
            c++;
            break;
        }
    }
    if (tfp) tfp->close();
    if (!mism && !inv) inv += (uint64_t)drv_env_finish(env, &m, summary);
    std::printf("%s: config=%s seed=%llu cycles=%llu mismatches=%llu invariant_violations=%llu\n",
                (mism || inv) ? "FAIL" : "PASS", SMK_CFG_NAME, (unsigned long long)seed, (unsigned long long)c,
                (unsigned long long)mism, (unsigned long long)inv);
    drv_env_free(env);
    top->final();
    delete top;
    return (mism || inv) ? 1 : 0;
}
