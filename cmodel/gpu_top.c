/* gpu_top.c: the GPU as a composition (docs/gpu_top.md). The QoS manager's outputs are functions
 * of its state only (Moore) and the driver's outputs are functions of its state, of the SM tops'
 * registered `wused` and of the lookup port's address, so the order is: manager outputs, then
 * driver eval with the request and lookup ports muxed on `own`, then each SM's eval with the
 * driver's set-up and command for it and the register ports muxed on `own`, then the SMs'
 * responses, completions and refusals are handed to the driver and the SMs' rd_data, the
 * driver's launch, completion, lookup and request outputs to the manager for the clock edge.
 * No combinational loop exists: the driver and the manager latch everything they receive. */
#include "gpu_top.h"

#include <string.h>
#ifdef SMK_QUIET_CHECK
#include <stdio.h>
#include <stdlib.h>
static uint64_t check_cycle; /* clock edges since gpu_reset: the cycle a failed check reports */
#endif

void gpu_reset(gpu_top_t *g)
{
    drv_reset(&g->drv);
    for (int s = 0; s < SMK_NUM_SM; s++)
        sm_reset(&g->sm[s]);
    qm_reset(&g->qm);
#ifdef SMK_QUIET_CHECK
    check_cycle = 0;
#endif
}

void gpu_eval_begin(const gpu_top_t *g, const gpu_in_t *in, gpu_out_t *o)
{
    /* 1. the manager's outputs: its state only (m_rdata: its state and m_raddr) */
    qm_outputs(&g->qm, &o->m);
    o->m.m_rdata = qm_read(&g->qm, in->m_raddr);
    const int own = o->m.own != 0;

    /* 2. the driver: host ports, request and lookup ports from the manager while it owns the SMs,
     * from the host otherwise */
    o->di = in->host;
    o->di.kl_keep = in->kl_keep;
    if (own) {
        o->di.rq_v = o->m.rq_v, o->di.rq_k = o->m.rq_k, o->di.rq_sm = o->m.rq_sm, o->di.rq_ret = o->m.rq_ret;
        memcpy(o->di.rq_give, o->m.rq_give, sizeof o->di.rq_give);
        o->di.lk_s = o->m.lk_s, o->di.lk_k = o->m.lk_k;
    }
    for (int s = 0; s < SMK_NUM_SM; s++)
        o->di.wused[s] = g->sm[s].wused;
    drv_eval(&g->drv, &o->di, &o->d);
}

void gpu_sm_in(const gpu_in_t *in, const gpu_out_t *o, int s, sm_in_t *si)
{
    *si = in->sm[s];
    if (o->m.own) {
        si->csr_we = (uint32_t)(o->m.csr_we >> s & 1u);
        si->csr_addr = o->m.csr_addr[s], si->csr_wdata = o->m.csr_wdata[s];
        si->rd_addr = o->m.rd_addr[s];
    }
    si->set_v = o->d.set_v[s], si->set_tb = o->d.set_tb[s], si->set_mask = o->d.set_mask[s];
    si->set_ks = o->d.set_ks[s], si->set_nreg = o->d.set_nreg[s], si->set_smem = o->d.set_smem[s];
    si->set_go = o->d.set_go[s];
    si->cmd_v = o->d.cmd_v[s], si->cmd_op = o->d.cmd_op[s], si->cmd_tb = o->d.cmd_tb[s];
    si->cmd_ptr = o->d.cmd_ptr[s], si->cmd_idem = o->d.cmd_idem[s];
}

void gpu_eval_sm(const gpu_top_t *g, const gpu_in_t *in, gpu_out_t *o, int s)
{
    /* 3. SM s: set-up and commands from the driver, register ports muxed on `own` */
    sm_in_t *si = &o->si[s];
    gpu_sm_in(in, o, s, si);
    sm_eval(&g->sm[s], si, &o->s[s]);
    const sm_out_t *so = &o->s[s];
    o->di.set_rej[s] = so->set_rej, o->di.cmd_full[s] = so->po.cmd_full;
    o->di.rsp_v[s] = so->po.rsp_v, o->di.rsp_op[s] = so->po.rsp_op, o->di.rsp_tb[s] = so->po.rsp_tb;
    o->di.rsp_status[s] = so->po.rsp_status, o->di.rsp_ptr[s] = so->po.rsp_ptr;
    o->di.tb_done[s] = so->tb_done;
}

void gpu_eval_end(const gpu_in_t *in, gpu_out_t *o)
{
    /* 4. the manager's inputs (sampled at the edge): host port, snooped launch, the driver's
     * refusal, completion, lookup and request outputs, every SM's rd_data (whatever `own`) */
    qm_in_t *mi = &o->mi;
    static const qm_in_t mi_zero; /* a struct copy: no `rep stos` on this path */
    *mi = mi_zero;
    mi->m_we = in->m_we, mi->m_addr = in->m_addr, mi->m_wdata = in->m_wdata, mi->m_raddr = in->m_raddr;
    for (int s = 0; s < SMK_NUM_SM; s++)
        mi->rd_data[s] = o->s[s].qo.rd_data;
    mi->kl_v = in->host.kl_v, mi->kl_k = in->host.kl_k, mi->kl_n = in->host.kl_n, mi->kl_qos = in->host.kl_qos;
    mi->kl_goal = in->kl_goal, mi->kl_x = in->kl_x, mi->kl_t = in->kl_t, mi->kl_keep = in->kl_keep;
    mi->kl_rej = o->d.kl_rej, mi->kdone_v = o->d.kdone_v, mi->kdone_k = o->d.kdone_k;
    mi->lk_cnt = o->d.lk_cnt, mi->lk_part = o->d.lk_part, mi->lk_ksv = o->d.lk_ksv, mi->lk_ks = o->d.lk_ks;
    mi->rq_rdy = o->d.rq_rdy, mi->rq_ack_v = o->d.rq_ack_v, mi->rq_ack_st = o->d.rq_ack_st;
    mi->rq_ack_kv = o->d.rq_ack_kv, mi->rq_ack_n = o->d.rq_ack_n;
}

void gpu_eval(const gpu_top_t *g, const gpu_in_t *in, gpu_out_t *o)
{
    gpu_eval_begin(g, in, o);
    for (int s = 0; s < SMK_NUM_SM; s++)
        gpu_eval_sm(g, in, o, s);
    gpu_eval_end(in, o);
}

void gpu_commit(gpu_top_t *g, const gpu_in_t *in, const gpu_out_t *o)
{
    (void)in;
#ifdef SMK_QUIET_CHECK
    check_cycle++;
#endif
    drv_commit(&g->drv, &o->di, &o->d);
    for (int s = 0; s < SMK_NUM_SM; s++)
        if (!o->s[s].quiet) /* a quiet SM's cycle was committed by the caller's quiet step */
            sm_commit(&g->sm[s], &o->si[s], &o->s[s]);
    qm_commit(&g->qm, &o->mi, &o->m);
}

#if SM_QUIET && defined(SMK_QUIET_CHECK)
/* -DSMK_QUIET_CHECK (make smk-check): the quiet step of SM s evaluated and committed a second time
 * by the full sm_eval / sm_commit, on a copy of the SM's state from before it; the outputs the quiet
 * step writes, the driver's inputs from the SM and the whole next state (but the tb_idle memo, which
 * the quiet step leaves as it is) must be the same, and cp_sum must be the completion ports' sum */
static void quiet_fail(int s, const char *what)
{
    fprintf(stderr, "smk: SMK_QUIET_CHECK: SM %d cycle %llu: the quiet step differs from sm_eval / sm_commit in %s\n",
            s, (unsigned long long)check_cycle, what);
    exit(3);
}

void gpu_quiet_check(const sm_top_t *before, const gpu_top_t *g, const gpu_in_t *in, const gpu_out_t *o, int s,
                     uint64_t cp_sum)
{
    static sm_in_t si;
    static sm_out_t f;
    static sm_top_t ref;
    const sm_out_t *q = &o->s[s];
    gpu_sm_in(in, o, s, &si);
    if (cp_sum != qu_cp_sum_i(si.cp_v, si.cp_ks, si.cp_act))
        quiet_fail(s, "cp_sum (not the completion ports' sum)");
    sm_eval(before, &si, &f);
    if (f.set_rej != q->set_rej || f.tb_done != q->tb_done || f.wi.launch_v != q->wi.launch_v)
        quiet_fail(s, "set_rej, tb_done or wi.launch_v");
    if (f.wo.iss_v != q->wo.iss_v || memcmp(f.wo.iss_wid, q->wo.iss_wid, sizeof f.wo.iss_wid) ||
        memcmp(f.wo.iss_ks, q->wo.iss_ks, sizeof f.wo.iss_ks))
        quiet_fail(s, "the issues");
    if (f.qo.rd_data != q->qo.rd_data)
        quiet_fail(s, "qo.rd_data");
    if (memcmp(&f.po, &q->po, sizeof f.po))
        quiet_fail(s, "po");
    if (o->di.set_rej[s] != f.set_rej || o->di.cmd_full[s] != f.po.cmd_full || o->di.rsp_v[s] != f.po.rsp_v ||
        o->di.rsp_op[s] != f.po.rsp_op || o->di.rsp_tb[s] != f.po.rsp_tb || o->di.rsp_status[s] != f.po.rsp_status ||
        o->di.rsp_ptr[s] != f.po.rsp_ptr || o->di.tb_done[s] != f.tb_done)
        quiet_fail(s, "the driver's inputs");
    ref = *before;
    sm_commit(&ref, &si, &f);
    const sm_top_t *after = &g->sm[s];
    ref.idle_key = after->idle_key, ref.idle_hit = after->idle_hit;
    if (memcmp(&ref, after, sizeof ref))
        quiet_fail(s, "the next state");
}
#endif
