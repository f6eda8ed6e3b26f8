// An SM's outputs and RTL state read into an observation vector, shared by the harnesses that see
// them: wsqu_rtl_* (warp_sched + quota_unit: cosim_issue.cpp's issue_path) and sm_rtl_* (a whole
// sm_top: cosim_sm.cpp, and gpu_vl.cpp for every SM of gpu_top). Outputs: of SM s, ports packed by
// SM as in gpu_top (s = 0 for a single SM). State: the includer defines, with the Verilated object
// `p` in scope, SM_RTL(sig): the member holding sm_top's signal sig (for issue_path: u_ws__DOT__...
// and u_qu__DOT__... only). Both: SM_IX(nm), the index of element nm in the vector (SO_nm or
// OBS_nm: the same names in SM_OBS and ISSUE_OBS).
#ifndef SMK_SM_RTL_STATE_H
#define SMK_SM_RTL_STATE_H
#include <cstdint>
#include "vl_bits.h"

#define SM_WS(sig) SM_RTL(u_ws__DOT__##sig)
#define SM_QU(sig) SM_RTL(u_qu__DOT__##sig)
#define SM_PE(sig) SM_RTL(u_pe__DOT__##sig)

template <class Top> static void wsqu_rtl_outputs(Top *top, int s, uint64_t *v)
{
    const int ns = SMK_SCHED, nk = SMK_KSLOTS, nw = SMK_WARPS;
    v[SM_IX(iss_v)] = gbits(top->iss_v, s * ns, ns);
    for (int q = 0; q < ns; q++) {
        v[SM_IX(iss_wid) + q] = gbits(top->iss_wid, (s * ns + q) * SMK_WID_W, SMK_WID_W);
        v[SM_IX(iss_ks) + q] = gbits(top->iss_ks, (s * ns + q) * SMK_KS_W, SMK_KS_W);
    }
    for (int k = 0; k < nk; k++) {
        v[SM_IX(idle_cnt) + k] = gbits(top->idle_cnt, (s * nk + k) * SMK_WCNT_W, SMK_WCNT_W);
        v[SM_IX(held_cnt) + k] = gbits(top->held_cnt, (s * nk + k) * SMK_WCNT_W, SMK_WCNT_W);
    }
    v[SM_IX(ks_active)] = gbits(top->ks_active, s * nk, nk), v[SM_IX(wvalid)] = gbits(top->wvalid, s * nw, nw);
    v[SM_IX(qallow)] = gbits(top->qallow, s * nk, nk), v[SM_IX(policy)] = gbits(top->policy, s, 1);
    v[SM_IX(epoch_end)] = gbits(top->epoch_end, s, 1);
    v[SM_IX(rd_data)] = gbits(top->rd_data, s * SMK_DATA_W, SMK_DATA_W);
}

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
    v[SM_IX(last_v)] = SM_WS(last_v), v[SM_IX(idle_r)] = SM_WS(idle_r);
    // quota_unit
    const int QW = SMK_QUOTA_W, SW = SMK_STAT_W;
    int iw = 1; // stage-1 issue sum width: clog2(SCHED + 1), as quota_unit.v's IIN_W
    while ((1 << iw) < SMK_SCHED + 1) iw++;
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
        v[SM_IX(tin_r) + k] = gbits(SM_QU(tin_r), k * SMK_DEC_W, SMK_DEC_W);
        v[SM_IX(iin_r) + k] = gbits(SM_QU(iin_r), k * iw, iw);
    }
    v[SM_IX(sm_ctrl)] = SM_QU(sm_ctrl), v[SM_IX(epoch_len)] = SM_QU(epoch_len);
    v[SM_IX(sample_per)] = SM_QU(sample_per), v[SM_IX(qos_mask)] = SM_QU(qos_mask);
    v[SM_IX(ecnt)] = SM_QU(ecnt), v[SM_IX(scnt)] = SM_QU(scnt), v[SM_IX(epochs)] = SM_QU(epochs);
    v[SM_IX(ep_cycles)] = SM_QU(ep_cycles), v[SM_IX(ep_samples)] = SM_QU(ep_samples), v[SM_IX(nsamp)] = SM_QU(nsamp);
}

#ifdef SM_OBS
template <class Top> static void sm_rtl_outputs(Top *top, int s, uint64_t *v)
{
    const int nt = SMK_TB_SLOTS, nw = SMK_WARPS, tw = SMK_TBS_W, pw = SMK_CTX_PTR_W;
    wsqu_rtl_outputs(top, s, v);
    v[SO_set_rej] = gbits(top->set_rej, s, 1), v[SO_tb_alloc] = gbits(top->tb_alloc, s * nt, nt);
    v[SO_tb_run] = gbits(top->tb_run, s * nt, nt), v[SO_tb_done] = gbits(top->tb_done, s * nt, nt);
    v[SO_wused] = gbits(top->wused, s * nw, nw), v[SO_stop] = gbits(top->stop, s * nw, nw);
    // the engine's
    v[SO_cmd_full] = gbits(top->cmd_full, s, 1), v[SO_rsp_v] = gbits(top->rsp_v, s, 1);
    v[SO_rsp_op] = gbits(top->rsp_op, s * 2, 2), v[SO_rsp_tb] = gbits(top->rsp_tb, s * tw, tw);
    v[SO_rsp_status] = gbits(top->rsp_status, s * 3, 3), v[SO_rsp_ptr] = gbits(top->rsp_ptr, s * pw, pw);
    v[SO_free_v] = gbits(top->free_v, s, 1), v[SO_free_tb] = gbits(top->free_tb, s * tw, tw);
    v[SO_launch_v] = gbits(top->launch_v, s, 1), v[SO_launch_tb] = gbits(top->launch_tb, s * tw, tw);
    v[SO_draining] = gbits(top->draining, s * nt, nt);
    v[SO_mem_req_v] = gbits(top->mem_req_v, s, 1), v[SO_mem_req_we] = gbits(top->mem_req_we, s, 1);
    v[SO_mem_req_addr] = gbits(top->mem_req_addr, s * pw, pw);
    v[SO_mem_req_tag] = gbits(top->mem_req_tag, s * SMK_CTX_TAG_W, SMK_CTX_TAG_W);
    v[SO_st_re] = gbits(top->st_re, s, 1), v[SO_st_we] = gbits(top->st_we, s, 1);
    v[SO_st_tb] = gbits(top->st_tb, s * tw, tw), v[SO_st_kind] = gbits(top->st_kind, s * 2, 2);
    v[SO_st_wid] = gbits(top->st_wid, s * SMK_WID_W, SMK_WID_W);
    v[SO_st_idx] = gbits(top->st_idx, s * SMK_CTX_IDX_W, SMK_CTX_IDX_W);
}

#define PE_RTL(sig) SM_PE(sig)
#define PE_IX(nm) SO_##nm
#define PE_IX_TMASK SO_pe_tmask
#include "pe_rtl_state.h"
template <class P> static void sm_rtl_state(P *p, uint64_t *v)
{
    wsqu_rtl_state(p, v);
    pe_rtl_state(p, v);
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
