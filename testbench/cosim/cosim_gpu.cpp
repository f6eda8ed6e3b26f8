// cosim_gpu.cpp: the thin C++ shim Verilator needs for the GPU cosim (gpu_top: the SM driver,
// NUM_SM SM tops and the QoS manager). It moves values between the C environment (gpu_env.c: stimulus, monitors,
// observation, compare) plus the C model (gpu_top.c) and the Verilated gpu_top; all decisions live
// in C. Usage: see usage() below.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "Vgpu_top.h"
#ifndef MUTANT
#include "Vgpu_top___024root.h"
#include "Vgpu_top_sm_top.h"
#endif
#include "verilated.h"
#include "vl_bits.h"
#include "cosim_opts.h"
#include "verilated_fst_c.h"

extern "C" {
#include "gpu_env.h"
}

// gbits / sbits: testbench/cosim/vl_bits.h

// Per-SM expansion for the generate block g_sm[s] of gpu_top (Verilator names are per index).
#if SMK_NUM_SM > 0
#define GPU_SM_0(X) X(0)
#else
#define GPU_SM_0(X)
#endif
#if SMK_NUM_SM > 1
#define GPU_SM_1(X) X(1)
#else
#define GPU_SM_1(X)
#endif
#if SMK_NUM_SM > 2
#define GPU_SM_2(X) X(2)
#else
#define GPU_SM_2(X)
#endif
#if SMK_NUM_SM > 3
#define GPU_SM_3(X) X(3)
#else
#define GPU_SM_3(X)
#endif
#if SMK_NUM_SM > 4
#define GPU_SM_4(X) X(4)
#else
#define GPU_SM_4(X)
#endif
#if SMK_NUM_SM > 5
#define GPU_SM_5(X) X(5)
#else
#define GPU_SM_5(X)
#endif
#if SMK_NUM_SM > 6
#define GPU_SM_6(X) X(6)
#else
#define GPU_SM_6(X)
#endif
#if SMK_NUM_SM > 7
#define GPU_SM_7(X) X(7)
#else
#define GPU_SM_7(X)
#endif
#if SMK_NUM_SM > 8
#define GPU_SM_8(X) X(8)
#else
#define GPU_SM_8(X)
#endif
#if SMK_NUM_SM > 9
#define GPU_SM_9(X) X(9)
#else
#define GPU_SM_9(X)
#endif
#if SMK_NUM_SM > 10
#define GPU_SM_10(X) X(10)
#else
#define GPU_SM_10(X)
#endif
#if SMK_NUM_SM > 11
#define GPU_SM_11(X) X(11)
#else
#define GPU_SM_11(X)
#endif
#if SMK_NUM_SM > 12
#define GPU_SM_12(X) X(12)
#else
#define GPU_SM_12(X)
#endif
#if SMK_NUM_SM > 13
#define GPU_SM_13(X) X(13)
#else
#define GPU_SM_13(X)
#endif
#if SMK_NUM_SM > 14
#define GPU_SM_14(X) X(14)
#else
#define GPU_SM_14(X)
#endif
#if SMK_NUM_SM > 15
#define GPU_SM_15(X) X(15)
#else
#define GPU_SM_15(X)
#endif
#if SMK_NUM_SM > 16
#define GPU_SM_16(X) X(16)
#else
#define GPU_SM_16(X)
#endif
#if SMK_NUM_SM > 17
#define GPU_SM_17(X) X(17)
#else
#define GPU_SM_17(X)
#endif
#if SMK_NUM_SM > 18
#define GPU_SM_18(X) X(18)
#else
#define GPU_SM_18(X)
#endif
#if SMK_NUM_SM > 19
#define GPU_SM_19(X) X(19)
#else
#define GPU_SM_19(X)
#endif
#if SMK_NUM_SM > 20
#define GPU_SM_20(X) X(20)
#else
#define GPU_SM_20(X)
#endif
#if SMK_NUM_SM > 21
#define GPU_SM_21(X) X(21)
#else
#define GPU_SM_21(X)
#endif
#if SMK_NUM_SM > 22
#define GPU_SM_22(X) X(22)
#else
#define GPU_SM_22(X)
#endif
#if SMK_NUM_SM > 23
#define GPU_SM_23(X) X(23)
#else
#define GPU_SM_23(X)
#endif
#if SMK_NUM_SM > 24
#define GPU_SM_24(X) X(24)
#else
#define GPU_SM_24(X)
#endif
#if SMK_NUM_SM > 25
#define GPU_SM_25(X) X(25)
#else
#define GPU_SM_25(X)
#endif
#if SMK_NUM_SM > 26
#define GPU_SM_26(X) X(26)
#else
#define GPU_SM_26(X)
#endif
#if SMK_NUM_SM > 27
#define GPU_SM_27(X) X(27)
#else
#define GPU_SM_27(X)
#endif
#if SMK_NUM_SM > 28
#define GPU_SM_28(X) X(28)
#else
#define GPU_SM_28(X)
#endif
#if SMK_NUM_SM > 29
#define GPU_SM_29(X) X(29)
#else
#define GPU_SM_29(X)
#endif
#if SMK_NUM_SM > 30
#define GPU_SM_30(X) X(30)
#else
#define GPU_SM_30(X)
#endif
#if SMK_NUM_SM > 31
#define GPU_SM_31(X) X(31)
#else
#define GPU_SM_31(X)
#endif
#if SMK_NUM_SM > 32
#define GPU_SM_32(X) X(32)
#else
#define GPU_SM_32(X)
#endif
#if SMK_NUM_SM > 33
#define GPU_SM_33(X) X(33)
#else
#define GPU_SM_33(X)
#endif
#if SMK_NUM_SM > 34
#define GPU_SM_34(X) X(34)
#else
#define GPU_SM_34(X)
#endif
#if SMK_NUM_SM > 35
#define GPU_SM_35(X) X(35)
#else
#define GPU_SM_35(X)
#endif
#if SMK_NUM_SM > 36
#define GPU_SM_36(X) X(36)
#else
#define GPU_SM_36(X)
#endif
#if SMK_NUM_SM > 37
#define GPU_SM_37(X) X(37)
#else
#define GPU_SM_37(X)
#endif
#if SMK_NUM_SM > 38
#define GPU_SM_38(X) X(38)
#else
#define GPU_SM_38(X)
#endif
#if SMK_NUM_SM > 39
#define GPU_SM_39(X) X(39)
#else
#define GPU_SM_39(X)
#endif
#if SMK_NUM_SM > 40
#define GPU_SM_40(X) X(40)
#else
#define GPU_SM_40(X)
#endif
#if SMK_NUM_SM > 41
#define GPU_SM_41(X) X(41)
#else
#define GPU_SM_41(X)
#endif
#if SMK_NUM_SM > 42
#define GPU_SM_42(X) X(42)
#else
#define GPU_SM_42(X)
#endif
#if SMK_NUM_SM > 43
#define GPU_SM_43(X) X(43)
#else
#define GPU_SM_43(X)
#endif
#if SMK_NUM_SM > 44
#define GPU_SM_44(X) X(44)
#else
#define GPU_SM_44(X)
#endif
#if SMK_NUM_SM > 45
#define GPU_SM_45(X) X(45)
#else
#define GPU_SM_45(X)
#endif
#if SMK_NUM_SM > 46
#define GPU_SM_46(X) X(46)
#else
#define GPU_SM_46(X)
#endif
#if SMK_NUM_SM > 47
#define GPU_SM_47(X) X(47)
#else
#define GPU_SM_47(X)
#endif
#if SMK_NUM_SM > 48
#define GPU_SM_48(X) X(48)
#else
#define GPU_SM_48(X)
#endif
#if SMK_NUM_SM > 49
#define GPU_SM_49(X) X(49)
#else
#define GPU_SM_49(X)
#endif
#if SMK_NUM_SM > 50
#define GPU_SM_50(X) X(50)
#else
#define GPU_SM_50(X)
#endif
#if SMK_NUM_SM > 51
#define GPU_SM_51(X) X(51)
#else
#define GPU_SM_51(X)
#endif
#if SMK_NUM_SM > 52
#define GPU_SM_52(X) X(52)
#else
#define GPU_SM_52(X)
#endif
#if SMK_NUM_SM > 53
#define GPU_SM_53(X) X(53)
#else
#define GPU_SM_53(X)
#endif
#if SMK_NUM_SM > 54
#define GPU_SM_54(X) X(54)
#else
#define GPU_SM_54(X)
#endif
#if SMK_NUM_SM > 55
#define GPU_SM_55(X) X(55)
#else
#define GPU_SM_55(X)
#endif
#if SMK_NUM_SM > 56
#define GPU_SM_56(X) X(56)
#else
#define GPU_SM_56(X)
#endif
#if SMK_NUM_SM > 57
#define GPU_SM_57(X) X(57)
#else
#define GPU_SM_57(X)
#endif
#if SMK_NUM_SM > 58
#define GPU_SM_58(X) X(58)
#else
#define GPU_SM_58(X)
#endif
#if SMK_NUM_SM > 59
#define GPU_SM_59(X) X(59)
#else
#define GPU_SM_59(X)
#endif
#if SMK_NUM_SM > 60
#define GPU_SM_60(X) X(60)
#else
#define GPU_SM_60(X)
#endif
#if SMK_NUM_SM > 61
#define GPU_SM_61(X) X(61)
#else
#define GPU_SM_61(X)
#endif
#if SMK_NUM_SM > 62
#define GPU_SM_62(X) X(62)
#else
#define GPU_SM_62(X)
#endif
#if SMK_NUM_SM > 63
#define GPU_SM_63(X) X(63)
#else
#define GPU_SM_63(X)
#endif
#define GPU_FOR_EACH_SM(X) \
    GPU_SM_0(X) GPU_SM_1(X) GPU_SM_2(X) GPU_SM_3(X) GPU_SM_4(X) GPU_SM_5(X) GPU_SM_6(X) GPU_SM_7(X) \
    GPU_SM_8(X) GPU_SM_9(X) GPU_SM_10(X) GPU_SM_11(X) GPU_SM_12(X) GPU_SM_13(X) GPU_SM_14(X) GPU_SM_15(X) \
    GPU_SM_16(X) GPU_SM_17(X) GPU_SM_18(X) GPU_SM_19(X) GPU_SM_20(X) GPU_SM_21(X) GPU_SM_22(X) GPU_SM_23(X) \
    GPU_SM_24(X) GPU_SM_25(X) GPU_SM_26(X) GPU_SM_27(X) GPU_SM_28(X) GPU_SM_29(X) GPU_SM_30(X) GPU_SM_31(X) \
    GPU_SM_32(X) GPU_SM_33(X) GPU_SM_34(X) GPU_SM_35(X) GPU_SM_36(X) GPU_SM_37(X) GPU_SM_38(X) GPU_SM_39(X) \
    GPU_SM_40(X) GPU_SM_41(X) GPU_SM_42(X) GPU_SM_43(X) GPU_SM_44(X) GPU_SM_45(X) GPU_SM_46(X) GPU_SM_47(X) \
    GPU_SM_48(X) GPU_SM_49(X) GPU_SM_50(X) GPU_SM_51(X) GPU_SM_52(X) GPU_SM_53(X) GPU_SM_54(X) GPU_SM_55(X) \
    GPU_SM_56(X) GPU_SM_57(X) GPU_SM_58(X) GPU_SM_59(X) GPU_SM_60(X) GPU_SM_61(X) GPU_SM_62(X) GPU_SM_63(X)

static const int NSM = SMK_NUM_SM, W = SMK_WARPS, T = SMK_TB_SLOTS, KS = SMK_KSLOTS, KN = SMK_KERNELS;

static void drive(Vgpu_top *top, const gpu_stim_t *st)
{
    const drv_in_t *h = &st->in.host;
    top->rst = st->rst;
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
        const sm_in_t *in = &st->in.sm[s];
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
    top->m_we = st->in.m_we, top->m_addr = st->in.m_addr, top->m_wdata = st->in.m_wdata;
    top->m_raddr = st->in.m_raddr;
    top->kl_goal = st->in.kl_goal, top->kl_x = st->in.kl_x, top->kl_t = st->in.kl_t, top->kl_keep = st->in.kl_keep;
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

#ifdef MUTANT
// Yosys-written mutant netlists keep no stable register names: compare every output every cycle;
// state is taken from ref.
static void observe_state(Vgpu_top *, gpu_obs_t *o, const gpu_obs_t *ref)
{
    for (int i = GD_FIRST_STATE; i < GD_N; i++) o->d[i] = ref->d[i];
    for (int s = 0; s < NSM; s++)
        for (int i = SO_FIRST_STATE; i < SO_N; i++) o->s[s].v[i] = ref->s[s].v[i];
    for (int i = QO_FIRST_STATE; i < QO_QM_N; i++) o->q[i] = ref->q[i];
}
#else
#define DRV(sig) top->rootp->gpu_top__DOT__u_drv__DOT__##sig
// Verilator keeps sm_top as its own class (NUM_SM instances): the root holds one pointer per SM
#define SMP(S, sig) top->rootp->__PVT__gpu_top__DOT__g_sm__BRA__##S##__KET____DOT__u_sm->sig
// every state element of SM S (as cosim_sm.cpp's observe_state)
#define SM_STATE(S)                                                                                 \
    {                                                                                               \
        uint64_t *v = o->s[S].v;                                                                    \
        const int Sn = SMK_SCHED, LW = SMK_LWARPS;                                                  \
        v[SO_valid] = SMP(S, u_ws__DOT__valid);                                                     \
        for (int q = 0; q < Sn; q++) v[SO_last + q] = gbits(SMP(S, u_ws__DOT__last), q * SMK_LWID_W, SMK_LWID_W); \
        for (int w = 0; w < W; w++) {                                                               \
            v[SO_ks + w] = gbits(SMP(S, u_ws__DOT__ks), w * SMK_KS_W, SMK_KS_W);                    \
            const int q = w % Sn, i = w / Sn;                                                       \
            uint64_t m = 0;                                                                         \
            for (int j = 0; j < LW; j++)                                                            \
                m |= gbits(SMP(S, u_ws__DOT__older), (q * LW + i) * LW + j, 1) << (q + j * Sn);     \
            v[SO_older + w] = m;                                                                    \
        }                                                                                           \
        v[SO_last_v] = SMP(S, u_ws__DOT__last_v);                                                   \
        const int QW = SMK_QUOTA_W, SW = SMK_STAT_W;                                                \
        for (int k = 0; k < KS; k++) {                                                              \
            v[SO_quota + k] = gbits(SMP(S, u_qu__DOT__quota), k * (QW - 1), QW - 1);                \
            v[SO_cnt + k] = gbits(SMP(S, u_qu__DOT__cnt), k * QW, QW);                              \
            v[SO_thr + k] = gbits(SMP(S, u_qu__DOT__thr), k * SW, SW);                              \
            v[SO_wis + k] = gbits(SMP(S, u_qu__DOT__wis), k * SW, SW);                              \
            v[SO_idle + k] = gbits(SMP(S, u_qu__DOT__idle), k * SW, SW);                            \
            v[SO_cyc + k] = gbits(SMP(S, u_qu__DOT__cyc), k * SW, SW);                              \
            v[SO_s_thr + k] = gbits(SMP(S, u_qu__DOT__s_thr), k * SW, SW);                          \
            v[SO_s_wis + k] = gbits(SMP(S, u_qu__DOT__s_wis), k * SW, SW);                          \
            v[SO_s_idle + k] = gbits(SMP(S, u_qu__DOT__s_idle), k * SW, SW);                        \
            v[SO_s_cyc + k] = gbits(SMP(S, u_qu__DOT__s_cyc), k * SW, SW);                          \
        }                                                                                           \
        v[SO_sm_ctrl] = SMP(S, u_qu__DOT__sm_ctrl), v[SO_epoch_len] = SMP(S, u_qu__DOT__epoch_len); \
        v[SO_sample_per] = SMP(S, u_qu__DOT__sample_per), v[SO_qos_mask] = SMP(S, u_qu__DOT__qos_mask); \
        v[SO_ecnt] = SMP(S, u_qu__DOT__ecnt), v[SO_scnt] = SMP(S, u_qu__DOT__scnt);                 \
        v[SO_epochs] = SMP(S, u_qu__DOT__epochs), v[SO_ep_cycles] = SMP(S, u_qu__DOT__ep_cycles);   \
        v[SO_ep_samples] = SMP(S, u_qu__DOT__ep_samples), v[SO_nsamp] = SMP(S, u_qu__DOT__nsamp);   \
        v[SO_fsm] = SMP(S, u_pe__DOT__fsm);                                                         \
        for (int i = 0; i < SMK_PE_QDEPTH; i++) {                                                   \
            v[SO_q_op + i] = gbits(SMP(S, u_pe__DOT__q_op), i * 2, 2);                              \
            v[SO_q_tb + i] = gbits(SMP(S, u_pe__DOT__q_tb), i * SMK_TBS_W, SMK_TBS_W);              \
            v[SO_q_ptr + i] = gbits(SMP(S, u_pe__DOT__q_ptr), i * SMK_CTX_PTR_W, SMK_CTX_PTR_W);    \
            v[SO_q_idem + i] = gbits(SMP(S, u_pe__DOT__q_idem), i, 1);                              \
        }                                                                                           \
        v[SO_q_head] = SMP(S, u_pe__DOT__q_head), v[SO_q_cnt] = SMP(S, u_pe__DOT__q_cnt);           \
        v[SO_cur_op] = SMP(S, u_pe__DOT__cur_op), v[SO_cur_tb] = SMP(S, u_pe__DOT__cur_tb);         \
        v[SO_cur_st] = SMP(S, u_pe__DOT__cur_st), v[SO_cur_ptr] = SMP(S, u_pe__DOT__cur_ptr);       \
        v[SO_pe_tmask] = SMP(S, u_pe__DOT__tmask), v[SO_nreg] = SMP(S, u_pe__DOT__nreg);            \
        v[SO_nsml] = SMP(S, u_pe__DOT__nsml), v[SO_klim] = SMP(S, u_pe__DOT__klim);                 \
        v[SO_ph] = SMP(S, u_pe__DOT__ph), v[SO_wrem] = SMP(S, u_pe__DOT__wrem);                     \
        v[SO_idx] = SMP(S, u_pe__DOT__idx), v[SO_addr] = SMP(S, u_pe__DOT__addr);                   \
        v[SO_out] = SMP(S, u_pe__DOT__out), v[SO_drain] = SMP(S, u_pe__DOT__drain);                 \
        v[SO_dpend] = SMP(S, u_pe__DOT__dpend);                                                     \
        v[SO_alloc] = SMP(S, alloc), v[SO_run] = SMP(S, run), v[SO_go] = SMP(S, go);                \
        for (int t = 0; t < T; t++) {                                                               \
            v[SO_tmask + t] = gbits(SMP(S, tmask), t * W, W);                                       \
            v[SO_tks + t] = gbits(SMP(S, tks), t * SMK_KS_W, SMK_KS_W);                             \
            v[SO_tnreg + t] = gbits(SMP(S, tnreg), t * SMK_REGN_W, SMK_REGN_W);                     \
            v[SO_tsml + t] = gbits(SMP(S, tsml), t * SMK_SMLN_W, SMK_SMLN_W);                       \
        }                                                                                           \
        v[SO_live] = SMP(S, live), v[SO_s_wused] = SMP(S, wused);                                   \
    }

// the QoS manager's state of docs/qos_mgr.md section 13 (as cosim_qm.cpp's observe_state, u_qm)
#define QM_RTL(sig) top->rootp->gpu_top__DOT__u_qm__DOT__##sig
#include "qm_rtl_state.h"
static void observe_qm_state(Vgpu_top *top, gpu_obs_t *o) { qm_rtl_state(top, o->q); }

static void observe_state(Vgpu_top *top, gpu_obs_t *o, const gpu_obs_t *)
{
    uint64_t *d = o->d;
    const int NW = SMK_WID_W + 1, KDW = SMK_REGN_W + SMK_WID_W + 1, TC = SMK_TBS_W + 1, GW = SMK_GRID_W;
    const int UW = SMK_UW, KW = SMK_KID_W;
    d[GD_kv] = gbits(DRV(kv), 0, KN), d[GD_kqos] = gbits(DRV(kqos), 0, KN), d[GD_kidem] = gbits(DRV(kidem), 0, KN);
    for (int k = 0; k < KN; k++) {
        d[GD_kold + k] = gbits(DRV(kold), k * KN, KN);
        d[GD_kn + k] = gbits(DRV(kn), k * NW, NW);
        d[GD_kr + k] = gbits(DRV(kr), k * SMK_REGN_W, SMK_REGN_W);
        d[GD_km + k] = gbits(DRV(km), k * SMK_SMLN_W, SMK_SMLN_W);
        d[GD_kdreg + k] = gbits(DRV(kdreg), k * KDW, KDW);
        d[GD_kgrid + k] = gbits(DRV(kgrid), k * GW, GW);
        d[GD_knext + k] = gbits(DRV(knext), k * GW, GW);
        d[GD_kndone + k] = gbits(DRV(kndone), k * GW, GW);
        d[GD_klim + k] = gbits(DRV(klim), k * GW, GW);
        d[GD_kmask + k] = gbits(DRV(kmask), k * NSM, NSM);
        d[GD_kadm + k] = gbits(DRV(kadm), k * 2, 2);
        d[GD_pc + k] = gbits(DRV(pc), k * TC, TC);
        for (int x = 0; x < 4; x++) d[GD_U + k * 4 + x] = gbits(DRV(U), (k * 4 + x) * UW, UW);
    }
    for (int s = 0; s < NSM; s++) {
        for (int x = 0; x < 4; x++) d[GD_u + s * 4 + x] = gbits(DRV(u), (s * 4 + x) * UW, UW);
        for (int k = 0; k < KN; k++) {
            d[GD_cnt + s * KN + k] = gbits(DRV(cnt), (s * KN + k) * TC, TC);
            d[GD_part + s * KN + k] = gbits(DRV(part), (s * KN + k) * TC, TC);
        }
        d[GD_ksv + s] = gbits(DRV(ksv), s * KS, KS);
        for (int j = 0; j < KS; j++) d[GD_ksk + s * KS + j] = gbits(DRV(ksk), (s * KS + j) * KW, KW);
        d[GD_sv + s] = gbits(DRV(sv), s * T, T);
        d[GD_spre + s] = gbits(DRV(spre), s * T, T);
        d[GD_sfill + s] = gbits(DRV(sfill), s * T, T);
        d[GD_dp + s] = gbits(DRV(dp), s * T, T);
        for (int t = 0; t < T; t++) {
            d[GD_sk + s * T + t] = gbits(DRV(sk), (s * T + t) * KW, KW);
            d[GD_sid + s * T + t] = gbits(DRV(sid), (s * T + t) * GW, GW);
        }
        d[GD_rl_op + s] = gbits(DRV(rl_op), s * 2, 2);
        d[GD_rl_tb + s] = gbits(DRV(rl_tb), s * SMK_TBS_W, SMK_TBS_W);
        d[GD_rl_st + s] = gbits(DRV(rl_st), s * 3, 3);
    }
    d[GD_busy] = gbits(DRV(busy), 0, NSM), d[GD_bpb] = gbits(DRV(bpb), 0, NSM), d[GD_rl_v] = gbits(DRV(rl_v), 0, NSM);
    for (int i = 0; i < SMK_PTBQ; i++) {
        d[GD_qst + i] = gbits(DRV(qst), i * 3, 3);
        d[GD_qk + i] = gbits(DRV(qk), i * KW, KW);
        d[GD_qid + i] = gbits(DRV(qid), i * GW, GW);
        d[GD_qs + i] = gbits(DRV(qs), i * SMK_SMW, SMK_SMW);
        d[GD_qt + i] = gbits(DRV(qt), i * SMK_TBS_W, SMK_TBS_W);
    }
    d[GD_pb] = DRV(pb), d[GD_plan_v] = DRV(plan_v), d[GD_plan_kc] = DRV(plan_kc), d[GD_plan_kv] = DRV(plan_kv);
    d[GD_plan_sm] = DRV(plan_sm), d[GD_plan_left] = DRV(plan_left);
    d[GD_pdirty] = DRV(pdirty), d[GD_pact] = DRV(pact), d[GD_pcur] = DRV(pcur), d[GD_pcnt_ks] = DRV(pcnt_ks), d[GD_pgot] = DRV(pgot);
    d[GD_prun] = DRV(prun), d[GD_psrv] = DRV(psrv), d[GD_ptop] = DRV(ptop), d[GD_prr] = DRV(prr), d[GD_prt] = DRV(prt);
    for (int x = 0; x < 4; x++) d[GD_pacc + x] = gbits(DRV(pacc), x * UW, UW);
    // request unit (the spec's rq_k is the register rq_kr: the port has the name)
    d[GD_rq_st] = DRV(rq_st), d[GD_rq_k] = DRV(rq_kr), d[GD_rq_s] = DRV(rq_s), d[GD_rq_j] = DRV(rq_j);
    d[GD_rq_c] = DRV(rq_c), d[GD_rq_q] = DRV(rq_q), d[GD_rq_npk] = DRV(rq_npk), d[GD_rq_pend] = DRV(rq_pend);
    d[GD_rq_pk] = DRV(rq_pk);
    for (int k = 0; k < KN; k++) d[GD_rq_g + k] = gbits(DRV(rq_g), k * TC, TC);
    for (int x = 0; x < 4; x++) d[GD_acc + x] = gbits(DRV(acc), x * UW, UW), d[GD_w + x] = gbits(DRV(w), x * UW, UW);
    GPU_FOR_EACH_SM(SM_STATE)
    observe_qm_state(top, o);
}
#endif

static void usage(const char *p)
{
    std::printf("usage: %s [--seed N] [--cycles N] [--rand-reset] [--fst FILE --window FIRST:LAST]\n"
                "          [--summary] [--quiet] [--mutant ID]\n"
                "Runs the C model and the RTL of the GPU (gpu_top: the SM driver + %d SM tops + the QoS\n"
                "manager) in lockstep under a workload-like random environment (host, manager phases,\n"
                "pipelines, storage, one context memory), comparing every output and every state element\n"
                "every cycle and checking the TB ledger, the driver's, the engines' and the manager's\n"
                "invariants (testbench/cosim/gpu_env.h).\n",
                p, SMK_NUM_SM);
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
    Vgpu_top *top = new Vgpu_top;
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
        std::printf("cosim_gpu config=%s seed=%llu cycles=%llu%s\n", SMK_CFG_NAME, (unsigned long long)seed,
                    (unsigned long long)cycles, rand_reset ? " rand-reset" : "");

    // reset both sides: two cycles of rst before cycle 0 (the RTL may start from random values)
    static gpu_top_t m;
    gpu_reset(&m);
    for (int i = 0; i < 2; i++) top->rst = 1, top->clk = 0, top->eval(), top->clk = 1, top->eval();
    gpu_env_t *env = gpu_env_new(seed);
    static gpu_stim_t st;
    static gpu_out_t out;
    static gpu_obs_t ref, rtl;
    uint64_t mism = 0, inv = 0, c = 0;
    char replay[1024];
    for (c = 0; c < cycles; c++) {
        gpu_env_gen(env, &st);
        gpu_eval(&m, &st.in, &out);
        drive(top, &st);
        top->clk = 0;
        top->eval();
        if (tfp && c >= win_a && c <= win_b) tfp->dump((uint64_t)(2 * c));
        gpu_obs_from_model(&m, &out, &ref);
        observe_outputs(top, &rtl);
        observe_state(top, &rtl, &ref);
        const uint64_t lo = c > 50 ? c - 50 : 0;
        char mut[32] = "";
        if (mutant) std::snprintf(mut, sizeof mut, " --mutant %llu", (unsigned long long)mutant);
        std::snprintf(replay, sizeof replay, "%s --seed %llu --cycles %llu%s%s --fst mismatch_%llu.fst --window %llu:%llu",
                      argv[0], (unsigned long long)seed, (unsigned long long)(c + 1), rand_reset ? " --rand-reset" : "",
                      mut, (unsigned long long)seed, (unsigned long long)lo, (unsigned long long)c);
        if (gpu_obs_compare(&ref, &rtl, c, replay)) {
            mism++;
            std::printf("seed=%llu config=%s\n", (unsigned long long)seed, SMK_CFG_NAME);
            break;
        }
        const int b = gpu_env_observe(env, &st, &m, &out);
        if (st.rst) gpu_reset(&m);
        else gpu_commit(&m, &st.in, &out);
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
    if (!mism && !inv) inv += (uint64_t)gpu_env_finish(env, &m, summary);
    std::printf("%s: config=%s seed=%llu cycles=%llu mismatches=%llu invariant_violations=%llu\n",
                (mism || inv) ? "FAIL" : "PASS", SMK_CFG_NAME, (unsigned long long)seed, (unsigned long long)c,
                (unsigned long long)mism, (unsigned long long)inv);
    gpu_env_free(env);
    top->final();
    delete top;
    return (mism || inv) ? 1 : 0;
}
