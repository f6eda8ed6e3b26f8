/* gpu_top.c: the GPU as a composition (docs/gpu_top.md): the driver's outputs are functions of its
 * state and of the SM tops' registered `wused`, so the order is: driver eval, then each SM's eval
 * with the driver's set-up and command for it, then the SMs' responses, completions and refusals
 * are handed to the driver for its clock edge. No combinational loop exists: the driver latches
 * everything it receives. */
#include "gpu_top.h"

#include <string.h>

void gpu_reset(gpu_top_t *g)
{
    drv_reset(&g->drv);
    for (int s = 0; s < SMK_NUM_SM; s++)
        sm_reset(&g->sm[s]);
}

void gpu_eval(const gpu_top_t *g, const gpu_in_t *in, gpu_out_t *o)
{
    o->di = in->host;
    for (int s = 0; s < SMK_NUM_SM; s++)
        o->di.wused[s] = g->sm[s].wused;
    drv_eval(&g->drv, &o->di, &o->d);
    for (int s = 0; s < SMK_NUM_SM; s++) {
        sm_in_t *si = &o->si[s];
        *si = in->sm[s];
        si->set_v = o->d.set_v[s], si->set_tb = o->d.set_tb[s], si->set_mask = o->d.set_mask[s];
        si->set_ks = o->d.set_ks[s], si->set_nreg = o->d.set_nreg[s], si->set_smem = o->d.set_smem[s];
        si->set_go = o->d.set_go[s];
        si->cmd_v = o->d.cmd_v[s], si->cmd_op = o->d.cmd_op[s], si->cmd_tb = o->d.cmd_tb[s];
        si->cmd_ptr = o->d.cmd_ptr[s], si->cmd_idem = o->d.cmd_idem[s];
        sm_eval(&g->sm[s], si, &o->s[s]);
        const sm_out_t *so = &o->s[s];
        o->di.set_rej[s] = so->set_rej, o->di.cmd_full[s] = so->po.cmd_full;
        o->di.rsp_v[s] = so->po.rsp_v, o->di.rsp_op[s] = so->po.rsp_op, o->di.rsp_tb[s] = so->po.rsp_tb;
        o->di.rsp_status[s] = so->po.rsp_status, o->di.rsp_ptr[s] = so->po.rsp_ptr;
        o->di.tb_done[s] = so->tb_done;
    }
}

void gpu_commit(gpu_top_t *g, const gpu_in_t *in, const gpu_out_t *o)
{
    (void)in;
    drv_commit(&g->drv, &o->di, &o->d);
    for (int s = 0; s < SMK_NUM_SM; s++)
        sm_commit(&g->sm[s], &o->si[s], &o->s[s]);
}
