// cosim_sm.cpp: the thin C++ shim Verilator needs for the SM cosim. It moves values between the C
// environment (sm_env.c: stimulus, monitors, observation, compare) plus the C model (sm_top.c) and
// the Verilated sm_top; all decisions live in C. Usage: see usage() below.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "Vsm_top.h"
#ifndef MUTANT
#include "Vsm_top___024root.h"
#endif
#include "verilated.h"
#include "vl_bits.h"
#include "cosim_opts.h"
#include "verilated_fst_c.h"

extern "C" {
#include "sm_env.h"
}

// gbits / sbits: testbench/cosim/vl_bits.h

#define WS(sig) top->rootp->sm_top__DOT__u_ws__DOT__##sig
#define QU(sig) top->rootp->sm_top__DOT__u_qu__DOT__##sig
#define PE(sig) top->rootp->sm_top__DOT__u_pe__DOT__##sig
#define SL(sig) top->rootp->sm_top__DOT__##sig

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

static void observe_outputs(Vsm_top *top, sm_obs_t *o)
{
    uint64_t *v = o->v;
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

#ifdef MUTANT
// Yosys-written mutant netlists keep no stable register names: compare every output every cycle
// (registers are read back through rd_data and the engine's outputs); state is taken from ref.
static void observe_state(Vsm_top *, sm_obs_t *o, const sm_obs_t *ref)
{
    for (int i = SO_FIRST_STATE; i < SO_N; i++) o->v[i] = ref->v[i];
}
#else
static void observe_state(Vsm_top *top, sm_obs_t *o, const sm_obs_t *)
{
    uint64_t *v = o->v;
    // warp_sched: the RTL keeps a local age matrix per scheduler; map it to global warp-id masks
    const int S = SMK_SCHED, LW = SMK_LWARPS;
    v[SO_valid] = WS(valid);
    for (int s = 0; s < S; s++) v[SO_last + s] = gbits(WS(last), s * SMK_LWID_W, SMK_LWID_W);
    for (int w = 0; w < SMK_WARPS; w++) {
        v[SO_ks + w] = gbits(WS(ks), w * SMK_KS_W, SMK_KS_W);
        const int s = w % S, i = w / S;
        uint64_t m = 0;
        for (int j = 0; j < LW; j++) m |= gbits(WS(older), (s * LW + i) * LW + j, 1) << (s + j * S);
        v[SO_older + w] = m;
    }
    v[SO_last_v] = WS(last_v);
    // quota_unit
    const int QW = SMK_QUOTA_W, SW = SMK_STAT_W;
    for (int k = 0; k < SMK_KSLOTS; k++) {
        v[SO_quota + k] = gbits(QU(quota), k * (QW - 1), QW - 1);
        v[SO_cnt + k] = gbits(QU(cnt), k * QW, QW);
        v[SO_thr + k] = gbits(QU(thr), k * SW, SW);
        v[SO_wis + k] = gbits(QU(wis), k * SW, SW);
        v[SO_idle + k] = gbits(QU(idle), k * SW, SW);
        v[SO_cyc + k] = gbits(QU(cyc), k * SW, SW);
        v[SO_s_thr + k] = gbits(QU(s_thr), k * SW, SW);
        v[SO_s_wis + k] = gbits(QU(s_wis), k * SW, SW);
        v[SO_s_idle + k] = gbits(QU(s_idle), k * SW, SW);
        v[SO_s_cyc + k] = gbits(QU(s_cyc), k * SW, SW);
    }
    v[SO_sm_ctrl] = QU(sm_ctrl), v[SO_epoch_len] = QU(epoch_len);
    v[SO_sample_per] = QU(sample_per), v[SO_qos_mask] = QU(qos_mask);
    v[SO_ecnt] = QU(ecnt), v[SO_scnt] = QU(scnt), v[SO_epochs] = QU(epochs);
    v[SO_ep_cycles] = QU(ep_cycles), v[SO_ep_samples] = QU(ep_samples), v[SO_nsamp] = QU(nsamp);
    // preempt_engine (packed vectors as in the C struct)
    v[SO_fsm] = PE(fsm);
    for (int i = 0; i < SMK_PE_QDEPTH; i++) {
        v[SO_q_op + i] = gbits(PE(q_op), i * 2, 2);
        v[SO_q_tb + i] = gbits(PE(q_tb), i * SMK_TBS_W, SMK_TBS_W);
        v[SO_q_ptr + i] = gbits(PE(q_ptr), i * SMK_CTX_PTR_W, SMK_CTX_PTR_W);
        v[SO_q_idem + i] = gbits(PE(q_idem), i, 1);
    }
    v[SO_q_head] = PE(q_head), v[SO_q_cnt] = PE(q_cnt);
    v[SO_cur_op] = PE(cur_op), v[SO_cur_tb] = PE(cur_tb), v[SO_cur_st] = PE(cur_st), v[SO_cur_ptr] = PE(cur_ptr);
    v[SO_pe_tmask] = PE(tmask), v[SO_nreg] = PE(nreg), v[SO_nsml] = PE(nsml), v[SO_klim] = PE(klim);
    v[SO_ph] = PE(ph), v[SO_wrem] = PE(wrem), v[SO_idx] = PE(idx), v[SO_addr] = PE(addr), v[SO_out] = PE(out);
    v[SO_drain] = PE(drain), v[SO_dpend] = PE(dpend);
    // slot table
    v[SO_alloc] = SL(alloc), v[SO_run] = SL(run), v[SO_go] = SL(go);
    for (int t = 0; t < SMK_TB_SLOTS; t++) {
        v[SO_tmask + t] = gbits(SL(tmask), t * SMK_WARPS, SMK_WARPS);
        v[SO_tks + t] = gbits(SL(tks), t * SMK_KS_W, SMK_KS_W);
        v[SO_tnreg + t] = gbits(SL(tnreg), t * SMK_REGN_W, SMK_REGN_W);
        v[SO_tsml + t] = gbits(SL(tsml), t * SMK_SMLN_W, SMK_SMLN_W);
    }
    v[SO_live] = SL(live), v[SO_s_wused] = SL(wused);
}
#endif

static void usage(const char *p)
{
    std::printf("usage: %s [--seed N] [--cycles N] [--rand-reset] [--fst FILE --window FIRST:LAST]\n"
                "          [--summary] [--quiet] [--mutant ID]\n"
                "Runs the C model and the RTL of one SM (sm_top: warp_sched + quota_unit + preempt_engine +\n"
                "TB slot table) in lockstep under a random environment (pipelines, storage, memory, driver),\n"
                "comparing every output and every state element every cycle and checking the TB ledger and\n"
                "the engine's invariants (testbench/cosim/sm_env.h).\n",
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
    Vsm_top *top = new Vsm_top;
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
        std::printf("cosim_sm config=%s seed=%llu cycles=%llu%s\n", SMK_CFG_NAME, (unsigned long long)seed,
                    (unsigned long long)cycles, rand_reset ? " rand-reset" : "");

    // reset both sides: two cycles of rst before cycle 0 (the RTL may start from random values)
    static sm_top_t m;
    sm_reset(&m);
    for (int i = 0; i < 2; i++) top->rst = 1, top->clk = 0, top->eval(), top->clk = 1, top->eval();
    sm_env_t *env = sm_env_new(seed);
    sm_stim_t st;
    static sm_out_t out;
    static sm_obs_t ref, rtl;
    uint64_t mism = 0, inv = 0, c = 0;
    char replay[1024];
    for (c = 0; c < cycles; c++) {
        sm_env_gen(env, &st);
        sm_eval(&m, &st.in, &out);
        drive(top, &st);
        top->clk = 0;
        top->eval();
        if (tfp && c >= win_a && c <= win_b) tfp->dump((uint64_t)(2 * c));
        sm_obs_from_model(&m, &out, &ref);
        observe_outputs(top, &rtl);
        observe_state(top, &rtl, &ref);
        const uint64_t lo = c > 50 ? c - 50 : 0;
        char mut[32] = "";
        if (mutant) std::snprintf(mut, sizeof mut, " --mutant %llu", (unsigned long long)mutant);
        std::snprintf(replay, sizeof replay, "%s --seed %llu --cycles %llu%s%s --fst mismatch_%llu.fst --window %llu:%llu",
                      argv[0], (unsigned long long)seed, (unsigned long long)(c + 1), rand_reset ? " --rand-reset" : "",
                      mut, (unsigned long long)seed, (unsigned long long)lo, (unsigned long long)c);
        if (sm_obs_compare(&ref, &rtl, c, replay)) {
            mism++;
            std::printf("seed=%llu config=%s\n", (unsigned long long)seed, SMK_CFG_NAME);
            break;
        }
        const int b = sm_env_observe(env, &st, &m, &out);
        if (st.rst) sm_reset(&m);
        else sm_commit(&m, &st.in, &out);
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
    if (!mism && !inv) inv += (uint64_t)sm_env_finish(env, summary);
    std::printf("%s: config=%s seed=%llu cycles=%llu mismatches=%llu invariant_violations=%llu\n",
                (mism || inv) ? "FAIL" : "PASS", SMK_CFG_NAME, (unsigned long long)seed, (unsigned long long)c,
                (unsigned long long)mism, (unsigned long long)inv);
    sm_env_free(env);
    top->final();
    delete top;
    return (mism || inv) ? 1 : 0;
}
