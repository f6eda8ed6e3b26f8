// The RTL state of an SM's blocks read into an observation vector, shared by the harnesses that see
// them: wsqu_rtl_state (warp_sched + quota_unit: cosim_issue.cpp's issue_path) and sm_rtl_state (a
// whole sm_top: cosim_sm.cpp, and gpu_vl.cpp for every SM of gpu_top). The includer defines, with
// the Verilated object `p` in scope, SM_RTL(sig): the member holding sm_top's signal sig (for
// issue_path: u_ws__DOT__... and u_qu__DOT__... only), and SM_IX(nm): the index of element nm in
// its vector (SO_nm or OBS_nm: the same names in SM_OBS and ISSUE_OBS).
#ifndef SMK_SM_RTL_STATE_H
#define SMK_SM_RTL_STATE_H
#include <cstdint>
#include "vl_bits.h"

#define SM_WS(sig) SM_RTL(u_ws__DOT__##sig)
#define SM_QU(sig) SM_RTL(u_qu__DOT__##sig)
#define SM_PE(sig) SM_RTL(u_pe__DOT__##sig)

template <class P> static void wsqu_rtl_state(P *p, uint64_t *v)
{
    // warp_sched: the RTL keeps a local age matrix per scheduler; map it to global warp-id masks
    const int S = SMK_SCHED, LW = SMK_LWARPS;
    v[SM_IX(valid)] = SM_WS(valid);
    for (int s = 0; s < S; s++) v[SM_IX(last) + s] = gbits(SM_WS(last), s * SMK_LWID_W, SMK_LWID_W);
    for (int w = 0; w < SMK_WARPS; w++) {
        v[SM_IX(ks) + w] = gbits(SM_WS(ks), w * SMK_KS_W, SMK_KS_W);
        const int s = w % S, i = w / S;
        uint64_t m = 0;
        for (int j = 0; j < LW; j++) m |= gbits(SM_WS(older), (s * LW + i) * LW + j, 1) << (s + j * S);
        v[SM_IX(older) + w] = m;
    }
    v[SM_IX(last_v)] = SM_WS(last_v);
    // quota_unit
    const int QW = SMK_QUOTA_W, SW = SMK_STAT_W;
    for (int k = 0; k < SMK_KSLOTS; k++) {
        v[SM_IX(quota) + k] = gbits(SM_QU(quota), k * (QW - 1), QW - 1);
        v[SM_IX(cnt) + k] = gbits(SM_QU(cnt), k * QW, QW);
        v[SM_IX(thr) + k] = gbits(SM_QU(thr), k * SW, SW);
        v[SM_IX(wis) + k] = gbits(SM_QU(wis), k * SW, SW);
        v[SM_IX(idle) + k] = gbits(SM_QU(idle), k * SW, SW);
        v[SM_IX(cyc) + k] = gbits(SM_QU(cyc), k * SW, SW);
        v[SM_IX(s_thr) + k] = gbits(SM_QU(s_thr), k * SW, SW);
        v[SM_IX(s_wis) + k] = gbits(SM_QU(s_wis), k * SW, SW);
        v[SM_IX(s_idle) + k] = gbits(SM_QU(s_idle), k * SW, SW);
        v[SM_IX(s_cyc) + k] = gbits(SM_QU(s_cyc), k * SW, SW);
    }
    v[SM_IX(sm_ctrl)] = SM_QU(sm_ctrl), v[SM_IX(epoch_len)] = SM_QU(epoch_len);
    v[SM_IX(sample_per)] = SM_QU(sample_per), v[SM_IX(qos_mask)] = SM_QU(qos_mask);
    v[SM_IX(ecnt)] = SM_QU(ecnt), v[SM_IX(scnt)] = SM_QU(scnt), v[SM_IX(epochs)] = SM_QU(epochs);
    v[SM_IX(ep_cycles)] = SM_QU(ep_cycles), v[SM_IX(ep_samples)] = SM_QU(ep_samples), v[SM_IX(nsamp)] = SM_QU(nsamp);
}

#ifdef SM_OBS
template <class P> static void sm_rtl_state(P *p, uint64_t *v)
{
    wsqu_rtl_state(p, v);
    // preempt_engine (packed vectors as in the C struct)
    v[SO_fsm] = SM_PE(fsm);
    for (int i = 0; i < SMK_PE_QDEPTH; i++) {
        v[SO_q_op + i] = gbits(SM_PE(q_op), i * 2, 2);
        v[SO_q_tb + i] = gbits(SM_PE(q_tb), i * SMK_TBS_W, SMK_TBS_W);
        v[SO_q_ptr + i] = gbits(SM_PE(q_ptr), i * SMK_CTX_PTR_W, SMK_CTX_PTR_W);
        v[SO_q_idem + i] = gbits(SM_PE(q_idem), i, 1);
    }
    v[SO_q_head] = SM_PE(q_head), v[SO_q_cnt] = SM_PE(q_cnt);
    v[SO_cur_op] = SM_PE(cur_op), v[SO_cur_tb] = SM_PE(cur_tb), v[SO_cur_st] = SM_PE(cur_st);
    v[SO_cur_ptr] = SM_PE(cur_ptr), v[SO_pe_tmask] = SM_PE(tmask), v[SO_nreg] = SM_PE(nreg);
    v[SO_nsml] = SM_PE(nsml), v[SO_klim] = SM_PE(klim), v[SO_ph] = SM_PE(ph), v[SO_wrem] = SM_PE(wrem);
    v[SO_idx] = SM_PE(idx), v[SO_addr] = SM_PE(addr), v[SO_out] = SM_PE(out);
    v[SO_drain] = SM_PE(drain), v[SO_dpend] = SM_PE(dpend);
    // slot table
    v[SO_alloc] = SM_RTL(alloc), v[SO_run] = SM_RTL(run), v[SO_go] = SM_RTL(go);
    for (int t = 0; t < SMK_TB_SLOTS; t++) {
        v[SO_tmask + t] = gbits(SM_RTL(tmask), t * SMK_WARPS, SMK_WARPS);
        v[SO_tks + t] = gbits(SM_RTL(tks), t * SMK_KS_W, SMK_KS_W);
        v[SO_tnreg + t] = gbits(SM_RTL(tnreg), t * SMK_REGN_W, SMK_REGN_W);
        v[SO_tsml + t] = gbits(SM_RTL(tsml), t * SMK_SMLN_W, SMK_SMLN_W);
    }
    v[SO_live] = SM_RTL(live), v[SO_s_wused] = SM_RTL(wused);
}
#endif
#endif
