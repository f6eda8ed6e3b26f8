/* preempt_engine.c: per-SM preemption engine, bit- and cycle-accurate (spec: docs/preempt_engine.md).
 * Rule numbers below refer to the spec's "Combinational rules" (C1..C10) and "Clock-edge rules"
 * (E1..E5). Integer arithmetic only, explicit widths; no allocation. */
#include "preempt_engine.h"

#include <string.h>

#define QD SMK_PE_QDEPTH
#define NT SMK_TB_SLOTS
#define PW SMK_CTX_PTR_W
#define IW SMK_CTX_IDX_W
#define WIDW SMK_WID_W
#define CL SMK_CTL_LINES
#define RMAX SMK_MAX_REGS
#define MMAX SMK_SMEM_LINES
#define OMAX SMK_PE_OMAX
#define TALL SMK_MASK(NT)

#define OP_SAVE SMK_PE_OP_SAVE
#define OP_RESTORE SMK_PE_OP_RESTORE
#define OP_DRAIN SMK_PE_OP_DRAIN
#define OP_DROP SMK_PE_OP_DROP

typedef struct {
    uint32_t ph;
    wmask_t wrem;
    uint32_t idx;
} pos_t;

typedef pe_comb_t comb_t; /* this cycle's combinational signals shared by eval and commit */

static inline uint32_t lowbit(uint64_t m) { return m ? (uint32_t)smk_ctz(m) : 0; }
static inline uint32_t bit_of(uint64_t v, uint32_t i) { return i < 64 ? (uint32_t)((v >> i) & 1) : 0; }

/* C4 norm: skips empty phases. The comparison idx >= M is made on the full value of idx (which may
 * be idx + 1 = 2^IW when MMAX = 2^IW), not modulo 2^IW. */
static pos_t norm(pos_t p, wmask_t mask, uint32_t R, uint32_t M)
{
    if (p.ph == PE_PH_CTL && p.wrem == 0)
        p = (pos_t){PE_PH_REG, mask, 0};
    if (p.ph == PE_PH_REG && (p.wrem == 0 || R == 0))
        p = (pos_t){PE_PH_SMEM, 0, 0};
    if (p.ph == PE_PH_SMEM && p.idx >= M)
        p = (pos_t){PE_PH_END, 0, 0};
    return p;
}

/* C4 adv, with mask = tmask, R = nreg, M = nsml */
static pos_t adv(const preempt_engine_t *pe)
{
    pos_t p = {pe->ph, pe->wrem, pe->idx};
    switch (p.ph) {
    case PE_PH_CTL:
    case PE_PH_REG:
        if (p.idx + 1 < (p.ph == PE_PH_CTL ? (uint32_t)CL : pe->nreg)) {
            p.idx++;
            return p;
        }
        p.wrem &= ~(1ULL << lowbit(p.wrem));
        p.idx = 0;
        return norm(p, pe->tmask, pe->nreg, pe->nsml);
    case PE_PH_SMEM:
        p.idx++;
        return norm(p, pe->tmask, pe->nreg, pe->nsml);
    default:
        return (pos_t){PE_PH_END, 0, 0};
    }
}

/* C1 head index: q_head mod QD as a conditional subtraction (QPTR_W = max(1, clog2(QD))) */
static inline uint32_t head(const preempt_engine_t *pe) { return pe->q_head >= QD ? pe->q_head - QD : pe->q_head; }

/* Quiet: FSM in IDLE, queue empty, no command offered. Then the only possible activity is that of
 * the DRAIN flags (C8's DRAIN completion, E5), and with no flag set at all every output is 0 and the
 * clock edge changes nothing (C1..C10: nothing to pop, no stop, req_v and rcv need XFER; E1..E5: no
 * push, no pop, out keeps its value). When quiet, only quiet, g_d and dsel of *c are written (the
 * only fields read then); otherwise every field is. */
static void comb(const preempt_engine_t *pe, const pe_in_t *in, comb_t *c)
{
    c->quiet = ((in->cmd_v & 1) | pe->fsm | pe->q_cnt) == 0;
    if (c->quiet) {
        c->g_d = pe->dpend != 0;
        c->dsel = lowbit(pe->dpend);
        return;
    }
    /* C1 queue */
    const uint32_t cmd_v = in->cmd_v & 1;
    c->full = pe->q_cnt == QD;
    c->push = cmd_v & !c->full;
    c->rej = cmd_v & c->full;
    c->pop = pe->fsm == PE_FSM_IDLE && pe->q_cnt != 0;
    if (c->pop) { /* the head and its legality are used only when it pops */
        const uint32_t h = head(pe);
        c->hop = pe->q_op[h];
        c->ht = pe->q_tb[h];
        c->hptr = pe->q_ptr[h];
        c->hidem = pe->q_idem[h];

        /* C2 legality */
        const uint32_t ht = c->ht, hop = c->hop, in_t = ht < NT;
        const uint32_t run = in_t & bit_of(in->tb_run & TALL, ht);
        const uint32_t alloc = in_t & bit_of(in->tb_alloc & TALL, ht);
        const uint32_t done = in_t & bit_of(in->tb_done & TALL, ht);
        const uint32_t bsy = in_t & bit_of(pe->drain | pe->dpend, ht);
        if (hop == OP_DROP && !c->hidem)
            c->s = SMK_PE_ST_ERR_NOTIDEM;
        else if (bsy || (hop == OP_RESTORE && run))
            c->s = SMK_PE_ST_ERR_BUSY;
        else if ((hop != OP_RESTORE && !run) || (hop == OP_RESTORE && !alloc))
            c->s = SMK_PE_ST_ERR_EMPTY;
        else if ((hop == OP_SAVE || hop == OP_DROP) && done)
            c->s = SMK_PE_ST_FIN;
        else
            c->s = SMK_PE_ST_OK;
    } else {
        c->hop = c->ht = c->hidem = c->s = 0, c->hptr = 0;
    }

    /* C5 request, C6 response (both need XFER; cwid is used only with a request or an accept) */
    if (pe->fsm == PE_FSM_XFER) {
        c->cwid = (pe->ph == PE_PH_CTL || pe->ph == PE_PH_REG) ? lowbit(pe->wrem) : 0;
        c->req_v = pe->ph != PE_PH_END && pe->out < pe->klim;
        c->acc = c->req_v & (in->mem_req_rdy & 1);
        c->rcv = (in->mem_rsp_v & 1) & (pe->out != 0);
    } else {
        c->cwid = c->req_v = c->acc = c->rcv = 0;
    }

    /* C8 response arbitration */
    c->g_q = c->rej;
    c->g_f = !c->g_q && pe->fsm == PE_FSM_DONE;
    c->g_d = !c->g_q && !c->g_f && pe->dpend != 0;
    c->dsel = c->g_d ? lowbit(pe->dpend) : 0;
}

uint32_t pe_lk_tb(const preempt_engine_t *pe) { return pe->q_cnt != 0 ? pe->q_tb[head(pe)] : 0; }

void pe_reset(preempt_engine_t *pe) { memset(pe, 0, sizeof *pe); }

void pe_eval(const preempt_engine_t *pe, const pe_in_t *in, pe_out_t *o)
{
    comb_t c;
    pe_eval_c(pe, in, o, &c);
}

void pe_commit(preempt_engine_t *pe, const pe_in_t *in, const pe_out_t *out)
{
    (void)out;
    comb_t c;
    comb(pe, in, &c);
    pe_commit_c(pe, in, &c);
}

void pe_eval_c(const preempt_engine_t *pe, const pe_in_t *in, pe_out_t *o, comb_t *cp)
{
    comb(pe, in, cp);
    memset(o, 0, sizeof *o);
    if (cp->quiet) { /* C8 (DRAIN completions only) and C9's draining */
        if (cp->g_d)
            o->rsp_v = 1, o->rsp_op = OP_DRAIN, o->rsp_tb = cp->dsel, o->rsp_status = SMK_PE_ST_OK;
        o->draining = pe->drain;
        return;
    }
    const comb_t *const c = cp;

    o->cmd_full = c->full;
    o->lk_tb = pe_lk_tb(pe);

    /* C8 */
    if (c->g_q) {
        o->rsp_op = in->cmd_op & 3;
        o->rsp_tb = in->cmd_tb & (uint32_t)SMK_MASK(SMK_TBS_W);
        o->rsp_status = SMK_PE_ST_ERR_QFULL;
        o->rsp_ptr = in->cmd_ptr & SMK_MASK(PW);
    } else if (c->g_f) {
        o->rsp_op = pe->cur_op, o->rsp_tb = pe->cur_tb, o->rsp_status = pe->cur_st, o->rsp_ptr = pe->cur_ptr;
    } else if (c->g_d) {
        o->rsp_op = OP_DRAIN, o->rsp_tb = c->dsel, o->rsp_status = SMK_PE_ST_OK, o->rsp_ptr = 0;
    }
    o->rsp_v = c->g_q | c->g_f | c->g_d;

    /* C9 */
    o->free_v = c->g_f && (pe->cur_op == OP_SAVE || pe->cur_op == OP_DROP) && pe->cur_st == SMK_PE_ST_OK;
    o->launch_v = c->g_f && pe->cur_op == OP_RESTORE && pe->cur_st == SMK_PE_ST_OK;
    o->free_tb = o->free_v ? pe->cur_tb : 0;
    o->launch_tb = o->launch_v ? pe->cur_tb : 0;
    o->draining = pe->drain;

    /* C10 */
    o->stop = pe_stop_i(pe);

    /* C5 */
    o->mem_req_v = c->req_v;
    if (c->req_v) {
        o->mem_req_we = pe->cur_op == OP_SAVE;
        o->mem_req_addr = pe->addr;
        o->mem_req_tag = (pe->ph & 3u) << (WIDW + IW) | c->cwid << IW | pe->idx;
    }

    /* C7 */
    o->st_re = c->acc && pe->cur_op == OP_SAVE;
    o->st_we = c->rcv && pe->cur_op == OP_RESTORE;
    if (o->st_re) {
        o->st_kind = pe->ph, o->st_wid = c->cwid, o->st_idx = pe->idx;
    } else if (o->st_we) {
        const uint32_t tag = in->mem_rsp_tag & (uint32_t)SMK_MASK(SMK_CTX_TAG_W);
        o->st_kind = tag >> (WIDW + IW) & 3u;
        o->st_wid = tag >> IW & (uint32_t)SMK_MASK(WIDW);
        o->st_idx = tag & (uint32_t)SMK_MASK(IW);
    }
    if (o->st_re || o->st_we)
        o->st_tb = pe->cur_tb;
}

void pe_commit_c(preempt_engine_t *pe, const pe_in_t *in, const comb_t *cp)
{
    if (cp->quiet) { /* E5 and E4 with no accept and no response; nothing else changes */
        pe_commit_idle_i(pe);
        if (pe->drain | pe->dpend) {
            const tmask_t tb_done = in->tb_done & TALL, clr = cp->g_d ? 1ULL << cp->dsel : 0;
            pe->dpend = (pe->dpend & ~clr) | (pe->drain & tb_done);
            pe->drain &= ~tb_done;
        }
        return;
    }
    const comb_t *const c = cp;
    const tmask_t tb_done = in->tb_done & TALL;

    /* E1 queue */
    const uint32_t h = head(pe);
    uint32_t i = h + pe->q_cnt;
    if (i >= QD)
        i -= QD;
    if (c->push && i < QD) {
        pe->q_op[i] = (uint8_t)(in->cmd_op & 3);
        pe->q_tb[i] = (uint8_t)(in->cmd_tb & SMK_MASK(SMK_TBS_W));
        pe->q_ptr[i] = in->cmd_ptr & SMK_MASK(PW);
        pe->q_idem[i] = (uint8_t)(in->cmd_idem & 1);
    }
    if (c->pop)
        pe->q_head = h == QD - 1 ? 0 : (uint8_t)((h + 1) & SMK_MASK(SMK_PE_QPTR_W));
    pe->q_cnt = (uint8_t)((pe->q_cnt + c->push - c->pop) & SMK_MASK(SMK_PE_QCNT_W));

    /* E5 drain flags (from this cycle's state) */
    const tmask_t set_d = (c->pop && c->s == SMK_PE_ST_OK && c->hop == OP_DRAIN && c->ht < NT) ? 1ULL << c->ht : 0;
    const tmask_t dm = pe->drain | set_d;
    const tmask_t clr = c->g_d ? 1ULL << c->dsel : 0;
    pe->drain = dm & ~tb_done;
    pe->dpend = (pe->dpend & ~clr) | (dm & tb_done);

    /* E4 transfer counter (position/address below, with the FSM) */
    const uint32_t out_n = (pe->out + c->acc - c->rcv) & (uint32_t)SMK_MASK(SMK_PE_OUT_W);

    /* E2, E3 */
    switch (pe->fsm) {
    case PE_FSM_IDLE:
        if (c->pop) {
            const wmask_t mask = in->lk_mask & SMK_WMASK_ALL;
            const uint32_t n = (uint32_t)smk_popc(mask);
            const uint32_t cap = in->cap & (uint32_t)SMK_MASK(SMK_PE_OUT_W);
            const uint32_t capeff = (cap == 0 || cap > OMAX) ? OMAX : cap;
            const uint32_t n1 = n ? n : 1;
            const uint32_t lkr = in->lk_nreg & (uint32_t)SMK_MASK(SMK_REGN_W);
            const uint32_t lks = in->lk_smem & (uint32_t)SMK_MASK(SMK_SMLN_W);
            pe->cur_op = (uint8_t)c->hop, pe->cur_tb = (uint8_t)c->ht, pe->cur_ptr = c->hptr;
            pe->cur_st = (uint8_t)c->s;
            pe->tmask = mask;
            pe->nreg = lkr > RMAX ? RMAX : lkr;
            pe->nsml = lks > MMAX ? MMAX : lks;
            pe->klim = n1 < capeff ? n1 : capeff;
            const pos_t st = norm((pos_t){PE_PH_CTL, mask, 0}, mask, pe->nreg, pe->nsml);
            pe->ph = (uint8_t)st.ph, pe->wrem = st.wrem, pe->idx = st.idx;
            pe->addr = c->hptr;
            if (c->s != SMK_PE_ST_OK)
                pe->fsm = PE_FSM_DONE;
            else if (c->hop == OP_DRAIN)
                pe->fsm = PE_FSM_IDLE;
            else if (c->hop == OP_SAVE || c->hop == OP_DROP)
                pe->fsm = PE_FSM_STOP;
            else
                pe->fsm = PE_FSM_XFER;
        }
        break;
    case PE_FSM_STOP: {
        const uint32_t t = pe->cur_tb, in_t = t < NT;
        const uint32_t done = in_t & bit_of(tb_done, t);
        const uint32_t run = in_t & bit_of(in->tb_run & TALL, t);
        const uint32_t idle = in_t & bit_of(in->tb_idle & TALL, t);
        if (done || !run) {
            pe->fsm = PE_FSM_DONE;
            pe->cur_st = SMK_PE_ST_FIN;
        } else if (idle && pe->cur_op == OP_SAVE) {
            pe->fsm = PE_FSM_XFER;
        } else if (idle) { /* DROP (RESTORE/DRAIN never reach STOP) */
            pe->fsm = PE_FSM_DONE;
        }
        break;
    }
    case PE_FSM_XFER:
        if (c->acc) {
            const pos_t p = adv(pe);
            pe->ph = (uint8_t)p.ph, pe->wrem = p.wrem, pe->idx = p.idx;
            pe->addr = (pe->addr + 1) & SMK_MASK(PW);
        }
        if (pe->ph == PE_PH_END && out_n == 0)
            pe->fsm = PE_FSM_DONE;
        break;
    default: /* DONE */
        if (c->g_f)
            pe->fsm = PE_FSM_IDLE;
        break;
    }
    pe->out = out_n;
}
