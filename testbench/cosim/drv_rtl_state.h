// The SM driver's host ports, outputs and RTL state (docs/sm_driver.md "State", read through the
// packing documented at the top of rtl/sm_driver.v), shared by cosim_drv.cpp (sm_driver on top) and
// gpu_vl.cpp (gpu_top: the same host and output ports, u_drv inside). The includer defines, with
// the Verilated model `top` in scope, DRV_RTL(sig): the member of the driver's register sig;
// DRV_IX(nm): the index of element nm in its vector; DRV_IX_U(k, x), DRV_IX_u(s, x), DRV_IX_pacc(x):
// the indices of U[k][x], u[s][x] and pacc[x] (x: REG, SL, W, TB).
#ifndef SMK_DRV_RTL_STATE_H
#define SMK_DRV_RTL_STATE_H
#include <cstdint>
#include "vl_bits.h"

// the host's ports (launch, mask change, configuration) and the QoS manager's (request, lookup)
template <class Top> static void drv_rtl_drive_host(Top *top, const drv_in_t *in)
{
    const int tc = SMK_TBS_W + 1;
    top->kl_v = in->kl_v, top->kl_k = in->kl_k, top->kl_n = in->kl_n, top->kl_r = in->kl_r, top->kl_m = in->kl_m;
    top->kl_grid = in->kl_grid, top->kl_qos = in->kl_qos, top->kl_idem = in->kl_idem;
    sbits(top->kl_mask, 0, SMK_NUM_SM, in->kl_mask);
    top->kl_adm = in->kl_adm, top->kl_lim = in->kl_lim;
    top->km_v = in->km_v, top->km_k = in->km_k;
    sbits(top->km_mask, 0, SMK_NUM_SM, in->km_mask);
    top->cfg_policy = in->cfg_policy, top->cfg_max2 = in->cfg_max2;
    top->cfg_evict = in->cfg_evict, top->cfg_pmode = in->cfg_pmode, top->cfg_qctl = in->cfg_qctl;
    top->kl_keep = in->kl_keep;   // gpu_top: the manager's port, driven again by gpu_vl_drive
    top->rq_v = in->rq_v, top->rq_k = in->rq_k, top->rq_sm = in->rq_sm, top->rq_ret = in->rq_ret;
    for (int k = 0; k < SMK_KERNELS; k++) sbits(top->rq_give, k * tc, tc, in->rq_give[k]);
    top->lk_s = in->lk_s, top->lk_k = in->lk_k;
}

template <class Top> static void drv_rtl_outputs(Top *top, uint64_t *v)
{
    v[DRV_IX(kl_rej)] = top->kl_rej, v[DRV_IX(kdone_v)] = top->kdone_v, v[DRV_IX(kdone_k)] = top->kdone_k;
    v[DRV_IX(rq_rdy)] = top->rq_rdy, v[DRV_IX(rq_ack_v)] = top->rq_ack_v, v[DRV_IX(rq_ack_st)] = top->rq_ack_st;
    v[DRV_IX(rq_ack_kv)] = top->rq_ack_kv, v[DRV_IX(rq_ack_n)] = top->rq_ack_n;
    v[DRV_IX(lk_cnt)] = top->lk_cnt, v[DRV_IX(lk_part)] = top->lk_part, v[DRV_IX(lk_ksv)] = top->lk_ksv;
    v[DRV_IX(lk_ks)] = top->lk_ks;
    const int tw = SMK_TBS_W, gw = SMK_GRID_W;
    for (int s = 0; s < SMK_NUM_SM; s++) {
        v[DRV_IX(set_id) + s] = gbits(top->set_id, s * gw, gw);
        v[DRV_IX(set_v) + s] = gbits(top->set_v, s, 1);
        v[DRV_IX(set_tb) + s] = gbits(top->set_tb, s * tw, tw);
        v[DRV_IX(set_mask) + s] = gbits(top->set_mask, s * SMK_WARPS, SMK_WARPS);
        v[DRV_IX(set_ks) + s] = gbits(top->set_ks, s * SMK_KS_W, SMK_KS_W);
        v[DRV_IX(set_nreg) + s] = gbits(top->set_nreg, s * SMK_REGN_W, SMK_REGN_W);
        v[DRV_IX(set_smem) + s] = gbits(top->set_smem, s * SMK_SMLN_W, SMK_SMLN_W);
        v[DRV_IX(set_go) + s] = gbits(top->set_go, s, 1);
        v[DRV_IX(cmd_v) + s] = gbits(top->cmd_v, s, 1);
        v[DRV_IX(cmd_op) + s] = gbits(top->cmd_op, s * 2, 2);
        v[DRV_IX(cmd_tb) + s] = gbits(top->cmd_tb, s * tw, tw);
        v[DRV_IX(cmd_ptr) + s] = gbits(top->cmd_ptr, s * SMK_CTX_PTR_W, SMK_CTX_PTR_W);
        v[DRV_IX(cmd_idem) + s] = gbits(top->cmd_idem, s, 1);
    }
}

template <class Top> static void drv_rtl_state(Top *top, uint64_t *v)
{
    // widths (lower case: the includers' macros use the upper-case names)
    const int nsm = SMK_NUM_SM, kn = SMK_KERNELS, ks = SMK_KSLOTS, nt = SMK_TB_SLOTS, kw = SMK_KID_W;
    const int nw = SMK_WID_W + 1, kdw = SMK_REGN_W + SMK_WID_W + 1, tc = SMK_TBS_W + 1, gw = SMK_GRID_W;
    const int uw = SMK_UW;
    const int kyw = SMK_SHW > tc + nw ? SMK_SHW : tc + nw; // the RTL's KYW: a filling key (share or warp count)
    v[DRV_IX(kv)] = gbits(DRV_RTL(kv), 0, kn), v[DRV_IX(kqos)] = gbits(DRV_RTL(kqos), 0, kn);
    v[DRV_IX(kidem)] = gbits(DRV_RTL(kidem), 0, kn);
    for (int k = 0; k < kn; k++) {
        v[DRV_IX(kold) + k] = gbits(DRV_RTL(kold), k * kn, kn);
        v[DRV_IX(kn) + k] = gbits(DRV_RTL(kn), k * nw, nw);
        v[DRV_IX(kr) + k] = gbits(DRV_RTL(kr), k * SMK_REGN_W, SMK_REGN_W);
        v[DRV_IX(km) + k] = gbits(DRV_RTL(km), k * SMK_SMLN_W, SMK_SMLN_W);
        v[DRV_IX(kdreg) + k] = gbits(DRV_RTL(kdreg), k * kdw, kdw);
        v[DRV_IX(kgrid) + k] = gbits(DRV_RTL(kgrid), k * gw, gw);
        v[DRV_IX(knext) + k] = gbits(DRV_RTL(knext), k * gw, gw);
        v[DRV_IX(kndone) + k] = gbits(DRV_RTL(kndone), k * gw, gw);
        v[DRV_IX(klim) + k] = gbits(DRV_RTL(klim), k * gw, gw);
        v[DRV_IX(kmask) + k] = gbits(DRV_RTL(kmask), k * nsm, nsm);
        v[DRV_IX(kadm) + k] = gbits(DRV_RTL(kadm), k * 2, 2);
        v[DRV_IX(pc) + k] = gbits(DRV_RTL(pc), k * tc, tc);
        v[DRV_IX(pkv_r) + k] = gbits(DRV_RTL(pkv_r), k * kyw, kyw);
        v[DRV_IX(rq_g) + k] = gbits(DRV_RTL(rq_g), k * tc, tc);
        for (int x = 0; x < 4; x++) v[DRV_IX_U(k, x)] = gbits(DRV_RTL(U), (k * 4 + x) * uw, uw);
    }
    for (int s = 0; s < nsm; s++) {
        for (int x = 0; x < 4; x++) v[DRV_IX_u(s, x)] = gbits(DRV_RTL(u), (s * 4 + x) * uw, uw);
        for (int k = 0; k < kn; k++) {
            v[DRV_IX(cnt) + s * kn + k] = gbits(DRV_RTL(cnt), (s * kn + k) * tc, tc);
            v[DRV_IX(part) + s * kn + k] = gbits(DRV_RTL(part), (s * kn + k) * tc, tc);
        }
        v[DRV_IX(ksv) + s] = gbits(DRV_RTL(ksv), s * ks, ks);
        for (int j = 0; j < ks; j++) v[DRV_IX(ksk) + s * ks + j] = gbits(DRV_RTL(ksk), (s * ks + j) * kw, kw);
        v[DRV_IX(sv) + s] = gbits(DRV_RTL(sv), s * nt, nt);
        v[DRV_IX(spre) + s] = gbits(DRV_RTL(spre), s * nt, nt);
        v[DRV_IX(sfill) + s] = gbits(DRV_RTL(sfill), s * nt, nt);
        v[DRV_IX(dp) + s] = gbits(DRV_RTL(dp), s * nt, nt);
        for (int t = 0; t < nt; t++) {
            v[DRV_IX(sk) + s * nt + t] = gbits(DRV_RTL(sk), (s * nt + t) * kw, kw);
            v[DRV_IX(sid) + s * nt + t] = gbits(DRV_RTL(sid), (s * nt + t) * gw, gw);
        }
        v[DRV_IX(rl_op) + s] = gbits(DRV_RTL(rl_op), s * 2, 2);
        v[DRV_IX(rl_tb) + s] = gbits(DRV_RTL(rl_tb), s * SMK_TBS_W, SMK_TBS_W);
        v[DRV_IX(rl_st) + s] = gbits(DRV_RTL(rl_st), s * 3, 3);
    }
    v[DRV_IX(busy)] = gbits(DRV_RTL(busy), 0, nsm), v[DRV_IX(bpb)] = gbits(DRV_RTL(bpb), 0, nsm);
    v[DRV_IX(rl_v)] = gbits(DRV_RTL(rl_v), 0, nsm);
    for (int i = 0; i < SMK_PTBQ; i++) {
        v[DRV_IX(qst) + i] = gbits(DRV_RTL(qst), i * 3, 3);
        v[DRV_IX(qk) + i] = gbits(DRV_RTL(qk), i * kw, kw);
        v[DRV_IX(qid) + i] = gbits(DRV_RTL(qid), i * gw, gw);
        v[DRV_IX(qs) + i] = gbits(DRV_RTL(qs), i * SMK_SMW, SMK_SMW);
        v[DRV_IX(qt) + i] = gbits(DRV_RTL(qt), i * SMK_TBS_W, SMK_TBS_W);
    }
    v[DRV_IX(pb)] = DRV_RTL(pb), v[DRV_IX(plan_v)] = DRV_RTL(plan_v), v[DRV_IX(plan_kc)] = DRV_RTL(plan_kc);
    v[DRV_IX(plan_kv)] = DRV_RTL(plan_kv), v[DRV_IX(plan_sm)] = DRV_RTL(plan_sm);
    v[DRV_IX(plan_left)] = DRV_RTL(plan_left);
    // Algorithm 1 unit
    v[DRV_IX(a1_st)] = DRV_RTL(a1_st), v[DRV_IX(a1_kc)] = DRV_RTL(a1_kc), v[DRV_IX(a1_s)] = DRV_RTL(a1_s);
    v[DRV_IX(a1_f)] = DRV_RTL(a1_f), v[DRV_IX(a1_smv)] = DRV_RTL(a1_smv), v[DRV_IX(a1_best)] = DRV_RTL(a1_best);
    v[DRV_IX(a1_kv)] = DRV_RTL(a1_kv), v[DRV_IX(a1_q)] = DRV_RTL(a1_q);
    {
        const int aw = uw + SMK_TBS_W + 1;
        for (int x = 0; x < 4; x++) v[DRV_IX(a1_acc) + x] = gbits(DRV_RTL(a1_acc), x * aw, aw);
    }
    {   // Algorithm 1's RNG steps R1-R3 (drv_pipe = 1; 0 otherwise)
        const int shw = SMK_SHW;
        for (int k = 0; k < SMK_KERNELS; k++) v[DRV_IX(a1_rk) + k] = gbits(DRV_RTL(a1_rk), k * shw, shw);
    }
    v[DRV_IX(a1_kvm)] = gbits(DRV_RTL(a1_kvm), 0, SMK_KERNELS);
    v[DRV_IX(a1_rv)] = DRV_RTL(a1_rv), v[DRV_IX(a1_rc)] = DRV_RTL(a1_rc), v[DRV_IX(a1_nouf)] = DRV_RTL(a1_nouf);
    v[DRV_IX(a1_omax)] = DRV_RTL(a1_omax), v[DRV_IX(a1_omin)] = DRV_RTL(a1_omin);
    v[DRV_IX(a1_nmax)] = DRV_RTL(a1_nmax), v[DRV_IX(a1_nmin)] = DRV_RTL(a1_nmin), v[DRV_IX(a1_ok)] = DRV_RTL(a1_ok);
    for (int x = 0; x < 4; x++) v[DRV_IX(a1_pw) + x] = gbits(DRV_RTL(a1_pw), x * uw, uw);
    v[DRV_IX(a1_pcd)] = DRV_RTL(a1_pcd);
    // decision pipeline (drv_pipe = 1; 0 otherwise)
    v[DRV_IX(dp1_v)] = DRV_RTL(dp1_v), v[DRV_IX(dp2_v)] = DRV_RTL(dp2_v), v[DRV_IX(dp2_kind)] = DRV_RTL(dp2_kind);
    v[DRV_IX(dp2_s)] = DRV_RTL(dp2_s), v[DRV_IX(dp2_k)] = DRV_RTL(dp2_k);
    v[DRV_IX(dp2_r)] = gbits(DRV_RTL(dp2_r), 0, SMK_NUM_SM);
    // partition unit
    v[DRV_IX(pdirty)] = DRV_RTL(pdirty), v[DRV_IX(pact)] = DRV_RTL(pact), v[DRV_IX(pcur)] = DRV_RTL(pcur);
    v[DRV_IX(pcnt_ks)] = DRV_RTL(pcnt_ks), v[DRV_IX(pgot)] = DRV_RTL(pgot), v[DRV_IX(prun)] = DRV_RTL(prun);
    v[DRV_IX(psrv)] = DRV_RTL(psrv), v[DRV_IX(ptop)] = DRV_RTL(ptop), v[DRV_IX(prr)] = DRV_RTL(prr);
    v[DRV_IX(prt)] = DRV_RTL(prt);
    v[DRV_IX(pph)] = DRV_RTL(pph), v[DRV_IX(pcand_r)] = gbits(DRV_RTL(pcand_r), 0, kn), v[DRV_IX(plat_r)] = gbits(DRV_RTL(plat_r), 0, kn);
    for (int x = 0; x < 4; x++) v[DRV_IX_pacc(x)] = gbits(DRV_RTL(pacc), x * uw, uw);
    // request unit (the spec's rq_k is the register rq_kr: the port has the name)
    v[DRV_IX(rq_st)] = DRV_RTL(rq_st), v[DRV_IX(rq_k)] = DRV_RTL(rq_kr), v[DRV_IX(rq_s)] = DRV_RTL(rq_s);
    v[DRV_IX(rq_ret)] = DRV_RTL(rq_ret_q);
    v[DRV_IX(rq_j)] = DRV_RTL(rq_j), v[DRV_IX(rq_c)] = DRV_RTL(rq_c), v[DRV_IX(rq_q)] = DRV_RTL(rq_q);
    v[DRV_IX(rq_npk)] = DRV_RTL(rq_npk), v[DRV_IX(rq_pend)] = gbits(DRV_RTL(rq_pend), 0, nsm);
    for (int s = 0; s < nsm; s++) v[DRV_IX(rq_pk) + s] = gbits(DRV_RTL(rq_pk), s * kw, kw);
    for (int x = 0; x < 4; x++)
        v[DRV_IX(acc) + x] = gbits(DRV_RTL(acc), x * uw, uw), v[DRV_IX(w) + x] = gbits(DRV_RTL(w), x * uw, uw);
}
#endif
