// The QoS manager's outputs and RTL state (docs/qos_mgr.md section 13) read into the observation
// vector, packed as QM_OBS (qm_env.h) says. Shared by cosim_qm.cpp (qos_mgr on top) and gpu_vl.cpp
// (u_qm inside gpu_top): the includer defines, with `top` in scope, QM_RTL(sig): the Verilator member
// of the manager's register sig, and QM_OUT(port): its output port (gpu_top: qm_PORT; m_rdata and own
// have their own names in both).
#ifndef SMK_QM_RTL_STATE_H
#define SMK_QM_RTL_STATE_H
#include <cstdint>
#include "vl_bits.h"

template <class Top> static void qm_rtl_outputs(Top *top, uint64_t *v)
{
    const int gvw = QM_GVW;
    v[QO_m_rdata] = top->m_rdata;
    v[QO_own] = top->own;
    v[QO_csr_we] = gbits(QM_OUT(csr_we), 0, QM_NSM);
    for (int s = 0; s < QM_NSM; s++) {
        v[QO_csr_addr + s] = gbits(QM_OUT(csr_addr), s * SMK_ADDR_W, SMK_ADDR_W);
        v[QO_csr_wdata + s] = gbits(QM_OUT(csr_wdata), s * SMK_DATA_W, SMK_DATA_W);
        v[QO_rd_addr + s] = gbits(QM_OUT(rd_addr), s * SMK_ADDR_W, SMK_ADDR_W);
    }
    v[QO_lk_s] = QM_OUT(lk_s), v[QO_lk_k] = QM_OUT(lk_k);
    v[QO_rq_v] = QM_OUT(rq_v), v[QO_rq_k] = QM_OUT(rq_k), v[QO_rq_sm] = QM_OUT(rq_sm);
    v[QO_rq_ret] = QM_OUT(rq_ret);
    for (int k = 0; k < QM_KN; k++) v[QO_rq_give + k] = gbits(QM_OUT(rq_give), k * gvw, gvw);
}

template <class Top> static void qm_rtl_state(Top *top, uint64_t *v)
{
    const int GVW = QM_GVW, NW = SMK_WID_W + 1, IW = SMK_STAT_W + SMK_SMW, TW = SMK_SMW + QM_GVW;
    const int KBW = SMK_KS_W + 1;
    v[QO_mctrl] = QM_RTL(mctrl);
    v[QO_epoch_len] = QM_RTL(epoch_len);
    v[QO_sample_per] = QM_RTL(sample_per);
    v[QO_st] = QM_RTL(st);
    v[QO_init_i] = QM_RTL(init_i);
    v[QO_et] = QM_RTL(et);
    v[QO_L] = QM_RTL(L);
    v[QO_cur_mode] = QM_RTL(cur_mode);
    v[QO_epochs] = QM_RTL(epochs);
    for (int k = 0; k < QM_KN; k++) {
        v[QO_mv + k] = gbits(QM_RTL(mv), k, 1);
        v[QO_mqos + k] = gbits(QM_RTL(mqos), k, 1);
        v[QO_mkn + k] = gbits(QM_RTL(mkn), k * NW, NW);
        v[QO_mgoal + k] = gbits(QM_RTL(mgoal), k * 32, 32);
        v[QO_mx + k] = gbits(QM_RTL(mx), k * 17, 17);
        v[QO_mt + k] = gbits(QM_RTL(mt), k * GVW, GVW);
        v[QO_fresh + k] = gbits(QM_RTL(fresh), k, 1);
        v[QO_wcnt + k] = gbits(QM_RTL(wcnt), k * 32, 32);
        v[QO_wc + k] = gbits(QM_RTL(wc), k * 32, 32);
        v[QO_isum + k] = gbits(QM_RTL(isum), k * IW, IW);
        v[QO_tsum + k] = gbits(QM_RTL(tsum), k * TW, TW);
        v[QO_cum_i + k] = gbits(QM_RTL(cum_i), k * 48, 48);
        v[QO_cum_c + k] = gbits(QM_RTL(cum_c), k * 32, 32);
        v[QO_ipc_ep + k] = gbits(QM_RTL(ipc_ep), k * 32, 32);
        v[QO_hist + k] = gbits(QM_RTL(hist), k * 32, 32);
        v[QO_alpha + k] = gbits(QM_RTL(alpha), k * 32, 32);
        v[QO_agoal + k] = gbits(QM_RTL(agoal), k * 32, 32);
        v[QO_dbt + k] = gbits(QM_RTL(dbt), k * 32, 32);
        v[QO_hgive + k] = gbits(QM_RTL(hgive), k * GVW, GVW);
        v[QO_qpt + k] = gbits(QM_RTL(qpt), k * 32, 32);
        v[QO_smk_r + k] = gbits(QM_RTL(smk_r), k * 32, 32);
        v[QO_cb + k] = gbits(QM_RTL(cb), k * 32, 32);
        v[QO_kb + k] = gbits(QM_RTL(kb), k * KBW, KBW);
        v[QO_itb + k] = gbits(QM_RTL(itb), k * GVW, GVW);
        v[QO_give + k] = gbits(QM_RTL(give), k * GVW, GVW);
    }
    v[QO_pl_v] = QM_RTL(pl_v);
    v[QO_pl_k] = QM_RTL(pl_k);
    v[QO_pl_n] = QM_RTL(pl_n);
    v[QO_pl_qos] = QM_RTL(pl_qos);
    v[QO_pl_goal] = QM_RTL(pl_goal);
    v[QO_pl_x] = QM_RTL(pl_x);
    v[QO_pl_t] = QM_RTL(pl_t);
    v[QO_pl_keep] = QM_RTL(pl_keep);
    v[QO_P] = QM_RTL(P);
    v[QO_ratio] = QM_RTL(ratio);
    v[QO_gN] = QM_RTL(gN);
    v[QO_Q] = QM_RTL(Q);
    for (int s = 0; s < QM_NSM; s++) v[QO_qm + s] = gbits(QM_RTL(qm), s * SMK_KSLOTS, SMK_KSLOTS);
    v[QO_ga_i] = QM_RTL(ga_i);
    v[QO_ga_t] = QM_RTL(ga_t);
    v[QO_g_s] = QM_RTL(g_s);
    v[QO_g_k] = QM_RTL(g_k);
    v[QO_g_ksv] = QM_RTL(g_ksv);
    v[QO_g_ks] = QM_RTL(g_ks);
    v[QO_g_cnt] = QM_RTL(g_cnt);
    v[QO_x_q] = QM_RTL(x_q);
    v[QO_x_v] = QM_RTL(x_v);
    v[QO_x_s] = QM_RTL(x_s);
    v[QO_x_ks] = QM_RTL(x_ks);
    v[QO_sumc] = QM_RTL(sumc);
    v[QO_F] = QM_RTL(F);
    v[QO_tl_st] = QM_RTL(tl_st);
    v[QO_tl_s] = QM_RTL(tl_s);
    v[QO_tl_n] = QM_RTL(tl_n);
    v[QO_tl_v] = QM_RTL(tl_v);
    v[QO_smp] = QM_RTL(smp);
    v[QO_idl] = QM_RTL(idl);
    v[QO_sk] = QM_RTL(sk);
    v[QO_rq_k_r] = QM_RTL(rq_k_r);
    v[QO_rq_sm_r] = QM_RTL(rq_sm_r);
    v[QO_rq_ret_r] = QM_RTL(rq_ret_r);
}
#endif
