// gpu_vl.cpp: the Verilated gpu_top's inputs and outputs (gpu_vl.h), shared by the GPU cosim
// (cosim_gpu.cpp) and `smk run --rtl` (smk_rtl.cpp): gpu_top's port and hierarchy names live here,
// the blocks' own readers in drv_rtl_state.h, sm_rtl_state.h and qm_rtl_state.h.
#include "Vgpu_top.h"
#ifndef MUTANT
#include "Vgpu_top___024root.h"
#include "Vgpu_top_sm_top.h"
#endif
#include <cstring>

#include "gpu_vl.h"
#include "vl_bits.h"

static const int NSM = SMK_NUM_SM, W = SMK_WARPS;

// the driver's host ports, outputs and state (u_drv)
#define DRV_RTL(sig) top->rootp->gpu_top__DOT__u_drv__DOT__##sig
#define DRV_IX(nm) GD_##nm
#define DRV_IX_U(k, x) (GD_U + (k) * 4 + (x))
#define DRV_IX_u(s, x) (GD_u + (s) * 4 + (x))
#define DRV_IX_pacc(x) (GD_pacc + (x))
#include "drv_rtl_state.h"
// each SM's outputs (packed by SM) and state (its sm_top object p)
#define SM_RTL(sig) p->sig
#define SM_IX(nm) SO_##nm
#include "sm_rtl_state.h"
// the QoS manager's outputs (qm_*) and state of docs/qos_mgr.md section 13 (u_qm)
#define QM_RTL(sig) top->rootp->gpu_top__DOT__u_qm__DOT__##sig
#define QM_OUT(port) top->qm_##port
#include "qm_rtl_state.h"

void gpu_vl_drive(Vgpu_top *top, uint32_t rst, const gpu_in_t *gin)
{
    top->rst = rst;
    drv_rtl_drive_host(top, &gin->host);
    for (int s = 0; s < NSM; s++) {
        const sm_in_t *in = &gin->sm[s];
        sbits(top->cap, s * SMK_PE_OUT_W, SMK_PE_OUT_W, in->cap);
        sbits(top->ready, s * W, W, in->ready);
        sbits(top->pblk, s * W, W, in->pblk);
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
    drv_rtl_outputs(top, o->d);
    for (int s = 0; s < NSM; s++)
        sm_rtl_outputs(top, s, o->s[s].v);
    qm_rtl_outputs(top, o->q);
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

static void observe_state(Vgpu_top *top, gpu_obs_t *o, const gpu_obs_t *)
{
    Vgpu_top_sm_top *sm[SMK_NUM_SM];
    GPU_FOR_EACH_SM(SMK_NUM_SM, GPU_SM_PTR)
    drv_rtl_state(top, o->d);
    for (int s = 0; s < NSM; s++)
        sm_rtl_state(sm[s], o->s[s].v);
    qm_rtl_state(top, o->q);
}
#else
// a mutant netlist (-DMUTANT) keeps no register names: the state is the reference's
static void observe_state(Vgpu_top *, gpu_obs_t *o, const gpu_obs_t *ref)
{
    const size_t u = sizeof o->d[0];
    std::memcpy(o->d + GD_FIRST_STATE, ref->d + GD_FIRST_STATE, (GD_N - GD_FIRST_STATE) * u);
    for (int s = 0; s < NSM; s++)
        std::memcpy(o->s[s].v + SO_FIRST_STATE, ref->s[s].v + SO_FIRST_STATE, (SO_N - SO_FIRST_STATE) * u);
    std::memcpy(o->q + QO_FIRST_STATE, ref->q + QO_FIRST_STATE, (QO_QM_N - QO_FIRST_STATE) * u);
}
#endif

void gpu_vl_observe(Vgpu_top *top, gpu_obs_t *rtl, const gpu_obs_t *ref)
{
    observe_outputs(top, rtl);
    observe_state(top, rtl, ref);
}
