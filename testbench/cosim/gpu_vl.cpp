// gpu_vl.cpp: the Verilated gpu_top's inputs and outputs (gpu_vl.h), shared by the GPU cosim
// (cosim_gpu.cpp) and `smk run --rtl` (smk_rtl.cpp): port and hierarchy names live here only.
#include "Vgpu_top.h"
#ifndef MUTANT
#include "Vgpu_top___024root.h"
#include "Vgpu_top_sm_top.h"
#endif
#include <cstring>

#include "gpu_vl.h"
#include "vl_bits.h"

static const int NSM = SMK_NUM_SM, W = SMK_WARPS, T = SMK_TB_SLOTS, KS = SMK_KSLOTS, KN = SMK_KERNELS;

void gpu_vl_drive(Vgpu_top *top, uint32_t rst, const gpu_in_t *gin)
{
    const drv_in_t *h = &gin->host;
    top->rst = rst;
    top->kl_v = h->kl_v, top->kl_k = h->kl_k, top->kl_n = h->kl_n, top->kl_r = h->kl_r, top->kl_m = h->kl_m;
    top->kl_grid = h->kl_grid, top->kl_qos = h->kl_qos, top->kl_idem = h->kl_idem;
    sbits(top->kl_mask, 0, NSM, h->kl_mask);
    top->kl_adm = h->kl_adm, top->kl_lim = h->kl_lim;
    top->km_v = h->km_v, top->km_k = h->km_k;
    sbits(top->km_mask, 0, NSM, h->km_mask);
    top->cfg_policy = h->cfg_policy, top->cfg_max2 = h->cfg_max2, top->cfg_evict = h->cfg_evict;
    top->cfg_pmode = h->cfg_pmode;
    top->rq_v = h->rq_v, top->rq_k = h->rq_k, top->rq_sm = h->rq_sm;
    for (int k = 0; k < KN; k++) sbits(top->rq_give, k * (SMK_TBS_W + 1), SMK_TBS_W + 1, h->rq_give[k]);
    top->lk_s = h->lk_s, top->lk_k = h->lk_k;
    for (int s = 0; s < NSM; s++) {
        const sm_in_t *in = &gin->sm[s];
        sbits(top->cap, s * SMK_PE_OUT_W, SMK_PE_OUT_W, in->cap);
        sbits(top->ready, s * W, W, in->ready);
        sbits(top->wbusy, s * W, W, in->wbusy);
        sbits(top->wexit, s * W, W, in->wexit);
        sbits(top->cp_v, s * SMK_CP, SMK_CP, in->cp_v);
        for (int p = 0; p < SMK_CP; p++) {
            sbits(top->cp_ks, (s * SMK_CP + p) * SMK_KS_W, SMK_KS_W, in->cp_ks[p]);
            sbits(top->cp_act, (s * SMK_CP + p) * SMK_ACT_W, SMK_ACT_W, in->cp_act[p]);
        }
        sbits(top->csr_we, s, 1, in->csr_we);
        sbits(top->csr_addr, s * SMK_ADDR_W, SMK_ADDR_W, in->csr_addr);
        sbits(top->csr_wdata, s * SMK_DATA_W, SMK_DATA_W, in->csr_wdata);
        sbits(top->rd_addr, s * SMK_ADDR_W, SMK_ADDR_W, in->rd_addr);
        sbits(top->mem_req_rdy, s, 1, in->mem_req_rdy);
        sbits(top->mem_rsp_v, s, 1, in->mem_rsp_v);
        sbits(top->mem_rsp_tag, s * SMK_CTX_TAG_W, SMK_CTX_TAG_W, in->mem_rsp_tag);
    }
    // QoS manager: host register port and the launch fields only it reads
    top->m_we = gin->m_we, top->m_addr = gin->m_addr, top->m_wdata = gin->m_wdata;
    top->m_raddr = gin->m_raddr;
    top->kl_goal = gin->kl_goal, top->kl_x = gin->kl_x, top->kl_t = gin->kl_t, top->kl_keep = gin->kl_keep;
}

static void observe_outputs(Vgpu_top *top, gpu_obs_t *o)
{
    uint64_t *d = o->d;
    d[GD_kl_rej] = top->kl_rej, d[GD_kdone_v] = top->kdone_v, d[GD_kdone_k] = top->kdone_k;
    d[GD_rq_rdy] = top->rq_rdy, d[GD_rq_ack_v] = top->rq_ack_v, d[GD_rq_ack_st] = top->rq_ack_st;
    d[GD_rq_ack_kv] = top->rq_ack_kv, d[GD_rq_ack_n] = top->rq_ack_n;
    d[GD_lk_cnt] = top->lk_cnt, d[GD_lk_part] = top->lk_part, d[GD_lk_ksv] = top->lk_ksv, d[GD_lk_ks] = top->lk_ks;
    for (int s = 0; s < NSM; s++) {
        d[GD_set_id + s] = gbits(top->set_id, s * SMK_GRID_W, SMK_GRID_W);
        d[GD_set_v + s] = gbits(top->set_v, s, 1);
        d[GD_set_tb + s] = gbits(top->set_tb, s * SMK_TBS_W, SMK_TBS_W);
        d[GD_set_mask + s] = gbits(top->set_mask, s * W, W);
        d[GD_set_ks + s] = gbits(top->set_ks, s * SMK_KS_W, SMK_KS_W);
        d[GD_set_nreg + s] = gbits(top->set_nreg, s * SMK_REGN_W, SMK_REGN_W);
        d[GD_set_smem + s] = gbits(top->set_smem, s * SMK_SMLN_W, SMK_SMLN_W);
        d[GD_set_go + s] = gbits(top->set_go, s, 1);
        d[GD_cmd_v + s] = gbits(top->cmd_v, s, 1);
        d[GD_cmd_op + s] = gbits(top->cmd_op, s * 2, 2);
        d[GD_cmd_tb + s] = gbits(top->cmd_tb, s * SMK_TBS_W, SMK_TBS_W);
        d[GD_cmd_ptr + s] = gbits(top->cmd_ptr, s * SMK_CTX_PTR_W, SMK_CTX_PTR_W);
        d[GD_cmd_idem + s] = gbits(top->cmd_idem, s, 1);
        uint64_t *v = o->s[s].v;
        v[SO_set_rej] = gbits(top->set_rej, s, 1);
        v[SO_tb_alloc] = gbits(top->tb_alloc, s * T, T);
        v[SO_tb_run] = gbits(top->tb_run, s * T, T);
        v[SO_tb_done] = gbits(top->tb_done, s * T, T);
        v[SO_wused] = gbits(top->wused, s * W, W);
        v[SO_iss_v] = gbits(top->iss_v, s * SMK_SCHED, SMK_SCHED);
        for (int q = 0; q < SMK_SCHED; q++) {
            v[SO_iss_wid + q] = gbits(top->iss_wid, (s * SMK_SCHED + q) * SMK_WID_W, SMK_WID_W);
            v[SO_iss_ks + q] = gbits(top->iss_ks, (s * SMK_SCHED + q) * SMK_KS_W, SMK_KS_W);
        }
        for (int k = 0; k < KS; k++) {
            v[SO_idle_cnt + k] = gbits(top->idle_cnt, (s * KS + k) * SMK_WCNT_W, SMK_WCNT_W);
            v[SO_held_cnt + k] = gbits(top->held_cnt, (s * KS + k) * SMK_WCNT_W, SMK_WCNT_W);
        }
        v[SO_ks_active] = gbits(top->ks_active, s * KS, KS);
        v[SO_wvalid] = gbits(top->wvalid, s * W, W);
        v[SO_stop] = gbits(top->stop, s * W, W);
        v[SO_qallow] = gbits(top->qallow, s * KS, KS);
        v[SO_policy] = gbits(top->policy, s, 1);
        v[SO_epoch_end] = gbits(top->epoch_end, s, 1);
        v[SO_rd_data] = gbits(top->rd_data, s * SMK_DATA_W, SMK_DATA_W);
        v[SO_cmd_full] = gbits(top->cmd_full, s, 1);
        v[SO_rsp_v] = gbits(top->rsp_v, s, 1);
        v[SO_rsp_op] = gbits(top->rsp_op, s * 2, 2);
        v[SO_rsp_tb] = gbits(top->rsp_tb, s * SMK_TBS_W, SMK_TBS_W);
        v[SO_rsp_status] = gbits(top->rsp_status, s * 3, 3);
        v[SO_rsp_ptr] = gbits(top->rsp_ptr, s * SMK_CTX_PTR_W, SMK_CTX_PTR_W);
        v[SO_free_v] = gbits(top->free_v, s, 1);
        v[SO_free_tb] = gbits(top->free_tb, s * SMK_TBS_W, SMK_TBS_W);
        v[SO_launch_v] = gbits(top->launch_v, s, 1);
        v[SO_launch_tb] = gbits(top->launch_tb, s * SMK_TBS_W, SMK_TBS_W);
        v[SO_draining] = gbits(top->draining, s * T, T);
        v[SO_mem_req_v] = gbits(top->mem_req_v, s, 1);
        v[SO_mem_req_we] = gbits(top->mem_req_we, s, 1);
        v[SO_mem_req_addr] = gbits(top->mem_req_addr, s * SMK_CTX_PTR_W, SMK_CTX_PTR_W);
        v[SO_mem_req_tag] = gbits(top->mem_req_tag, s * SMK_CTX_TAG_W, SMK_CTX_TAG_W);
        v[SO_st_re] = gbits(top->st_re, s, 1);
        v[SO_st_we] = gbits(top->st_we, s, 1);
        v[SO_st_tb] = gbits(top->st_tb, s * SMK_TBS_W, SMK_TBS_W);
        v[SO_st_kind] = gbits(top->st_kind, s * 2, 2);
        v[SO_st_wid] = gbits(top->st_wid, s * SMK_WID_W, SMK_WID_W);
        v[SO_st_idx] = gbits(top->st_idx, s * SMK_CTX_IDX_W, SMK_CTX_IDX_W);
    }
    // the QoS manager's outputs (gpu_top's m_rdata, own, qm_*), packed as in cosim_qm
    uint64_t *q = o->q;
    const int GVW = QM_GVW;
    q[QO_m_rdata] = top->m_rdata;
    q[QO_own] = top->own;
    q[QO_csr_we] = gbits(top->qm_csr_we, 0, NSM);
    for (int s = 0; s < NSM; s++) {
        q[QO_csr_addr + s] = gbits(top->qm_csr_addr, s * SMK_ADDR_W, SMK_ADDR_W);
        q[QO_csr_wdata + s] = gbits(top->qm_csr_wdata, s * SMK_DATA_W, SMK_DATA_W);
        q[QO_rd_addr + s] = gbits(top->qm_rd_addr, s * SMK_ADDR_W, SMK_ADDR_W);
    }
    q[QO_lk_s] = top->qm_lk_s;
    q[QO_lk_k] = top->qm_lk_k;
    q[QO_rq_v] = top->qm_rq_v;
    q[QO_rq_k] = top->qm_rq_k;
    q[QO_rq_sm] = top->qm_rq_sm;
    for (int k = 0; k < KN; k++) q[QO_rq_give + k] = gbits(top->qm_rq_give, k * GVW, GVW);
}

#ifndef MUTANT
// Verilator keeps sm_top as its own class (one instance per SM, generate block g_sm[s]): the root
// holds one pointer per SM, whose name holds the index; GPU_SM_<NUM_SM>(X) expands X(0) .. X(NUM_SM-1).
#define GPU_SM_0(X)
#define GPU_SM_1(X) GPU_SM_0(X) X(0)
#define GPU_SM_2(X) GPU_SM_1(X) X(1)
#define GPU_SM_3(X) GPU_SM_2(X) X(2)
#define GPU_SM_4(X) GPU_SM_3(X) X(3)
#define GPU_SM_5(X) GPU_SM_4(X) X(4)
#define GPU_SM_6(X) GPU_SM_5(X) X(5)
#define GPU_SM_7(X) GPU_SM_6(X) X(6)
#define GPU_SM_8(X) GPU_SM_7(X) X(7)
#define GPU_SM_9(X) GPU_SM_8(X) X(8)
#define GPU_SM_10(X) GPU_SM_9(X) X(9)
#define GPU_SM_11(X) GPU_SM_10(X) X(10)
#define GPU_SM_12(X) GPU_SM_11(X) X(11)
#define GPU_SM_13(X) GPU_SM_12(X) X(12)
#define GPU_SM_14(X) GPU_SM_13(X) X(13)
#define GPU_SM_15(X) GPU_SM_14(X) X(14)
#define GPU_SM_16(X) GPU_SM_15(X) X(15)
#define GPU_SM_17(X) GPU_SM_16(X) X(16)
#define GPU_SM_18(X) GPU_SM_17(X) X(17)
#define GPU_SM_19(X) GPU_SM_18(X) X(18)
#define GPU_SM_20(X) GPU_SM_19(X) X(19)
#define GPU_SM_21(X) GPU_SM_20(X) X(20)
#define GPU_SM_22(X) GPU_SM_21(X) X(21)
#define GPU_SM_23(X) GPU_SM_22(X) X(22)
#define GPU_SM_24(X) GPU_SM_23(X) X(23)
#define GPU_SM_25(X) GPU_SM_24(X) X(24)
#define GPU_SM_26(X) GPU_SM_25(X) X(25)
#define GPU_SM_27(X) GPU_SM_26(X) X(26)
#define GPU_SM_28(X) GPU_SM_27(X) X(27)
#define GPU_SM_29(X) GPU_SM_28(X) X(28)
#define GPU_SM_30(X) GPU_SM_29(X) X(29)
#define GPU_SM_31(X) GPU_SM_30(X) X(30)
#define GPU_SM_32(X) GPU_SM_31(X) X(31)
#define GPU_SM_33(X) GPU_SM_32(X) X(32)
#define GPU_SM_34(X) GPU_SM_33(X) X(33)
#define GPU_SM_35(X) GPU_SM_34(X) X(34)
#define GPU_SM_36(X) GPU_SM_35(X) X(35)
#define GPU_SM_37(X) GPU_SM_36(X) X(36)
#define GPU_SM_38(X) GPU_SM_37(X) X(37)
#define GPU_SM_39(X) GPU_SM_38(X) X(38)
#define GPU_SM_40(X) GPU_SM_39(X) X(39)
#define GPU_SM_41(X) GPU_SM_40(X) X(40)
#define GPU_SM_42(X) GPU_SM_41(X) X(41)
#define GPU_SM_43(X) GPU_SM_42(X) X(42)
#define GPU_SM_44(X) GPU_SM_43(X) X(43)
#define GPU_SM_45(X) GPU_SM_44(X) X(44)
#define GPU_SM_46(X) GPU_SM_45(X) X(45)
#define GPU_SM_47(X) GPU_SM_46(X) X(46)
#define GPU_SM_48(X) GPU_SM_47(X) X(47)
#define GPU_SM_49(X) GPU_SM_48(X) X(48)
#define GPU_SM_50(X) GPU_SM_49(X) X(49)
#define GPU_SM_51(X) GPU_SM_50(X) X(50)
#define GPU_SM_52(X) GPU_SM_51(X) X(51)
#define GPU_SM_53(X) GPU_SM_52(X) X(52)
#define GPU_SM_54(X) GPU_SM_53(X) X(53)
#define GPU_SM_55(X) GPU_SM_54(X) X(54)
#define GPU_SM_56(X) GPU_SM_55(X) X(55)
#define GPU_SM_57(X) GPU_SM_56(X) X(56)
#define GPU_SM_58(X) GPU_SM_57(X) X(57)
#define GPU_SM_59(X) GPU_SM_58(X) X(58)
#define GPU_SM_60(X) GPU_SM_59(X) X(59)
#define GPU_SM_61(X) GPU_SM_60(X) X(60)
#define GPU_SM_62(X) GPU_SM_61(X) X(61)
#define GPU_SM_63(X) GPU_SM_62(X) X(62)
#define GPU_SM_64(X) GPU_SM_63(X) X(63)
#define GPU_SM_EXPAND(n, X) GPU_SM_##n(X)
#define GPU_FOR_EACH_SM(n, X) GPU_SM_EXPAND(n, X)
#define GPU_SM_PTR(S) sm[S] = top->rootp->__PVT__gpu_top__DOT__g_sm__BRA__##S##__KET____DOT__u_sm;

// every state element of each SM, as cosim_sm.cpp reads it from sm_top
#define SM_RTL(sig) p->sig
#define SM_IX(nm) SO_##nm
#include "sm_rtl_state.h"
// the driver's state, as cosim_drv.cpp reads it (u_drv)
#define DRV_RTL(sig) top->rootp->gpu_top__DOT__u_drv__DOT__##sig
#define DRV_IX(nm) GD_##nm
#define DRV_IX_U(k, x) (GD_U + (k) * 4 + (x))
#define DRV_IX_u(s, x) (GD_u + (s) * 4 + (x))
#define DRV_IX_pacc(x) (GD_pacc + (x))
#include "drv_rtl_state.h"
// the QoS manager's state of docs/qos_mgr.md section 13, as cosim_qm.cpp reads it (u_qm)
#define QM_RTL(sig) top->rootp->gpu_top__DOT__u_qm__DOT__##sig
#include "qm_rtl_state.h"

static void observe_state(Vgpu_top *top, gpu_obs_t *o)
{
    Vgpu_top_sm_top *sm[SMK_NUM_SM];
    GPU_FOR_EACH_SM(SMK_NUM_SM, GPU_SM_PTR)
    drv_rtl_state(top, o->d);
    for (int s = 0; s < NSM; s++)
        sm_rtl_state(sm[s], o->s[s].v);
    qm_rtl_state(top, o->q);
}
#else
// a mutant netlist (-DMUTANT) keeps no register names: the state is taken from the reference
static void observe_state(Vgpu_top *, gpu_obs_t *o, const gpu_obs_t *ref)
{
    std::memcpy(o->d + GD_FIRST_STATE, ref->d + GD_FIRST_STATE, (GD_N - GD_FIRST_STATE) * sizeof o->d[0]);
    for (int s = 0; s < NSM; s++)
        std::memcpy(o->s[s].v + SO_FIRST_STATE, ref->s[s].v + SO_FIRST_STATE, (SO_N - SO_FIRST_STATE) * sizeof o->d[0]);
    std::memcpy(o->q + QO_FIRST_STATE, ref->q + QO_FIRST_STATE, (QO_QM_N - QO_FIRST_STATE) * sizeof o->d[0]);
}
#endif

void gpu_vl_observe(Vgpu_top *top, gpu_obs_t *rtl, const gpu_obs_t *ref)
{
    observe_outputs(top, rtl);
#ifdef MUTANT
    observe_state(top, rtl, ref);
#else
    (void)ref;
    observe_state(top, rtl);
#endif
}
