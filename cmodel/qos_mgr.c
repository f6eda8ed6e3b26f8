/* qos_mgr.c: the GPU-wide QoS manager, bit- and cycle-accurate (spec: docs/qos_mgr.md).
 *
 * qm_commit reads only `o`, a copy of the registers before the edge, and writes the new values
 * into *q, so every rule sees the old state as in the RTL's non-blocking assignments. Blocks are
 * applied in the order host registers, timeline, microprogram, TLP unit, kernel table; the kernel
 * table's launch commit is applied last and so wins over any other write to its entry. The
 * divider's quotient is computed arithmetically in the last cycle of a division from the operands
 * latched in its first cycle (div_a, div_b; section 2 allows this); a MUL's result is computed in its
 * first cycle and carried MM - 1 edges (mp) to its last, as the RTL's pipeline. */
#include "qos_mgr.h"

#include <string.h>

#define NSM QM_NSM
#define KN QM_KN
#define KS SMK_KSLOTS
#define KS_W SMK_KS_W
#define SW SMK_STAT_W
#define EW SMK_EPOCH_W
#define GVW QM_GVW
#define ONE QM_ONE
#define VMAX QM_VMAX
#define D QM_D
#define NP QM_NP
#define IW (SW + SMK_SMW)   /* isum, ga_i */
#define TW (SMK_SMW + GVW)  /* tsum, ga_t */
#define GNW (32 + SMK_SMW + GVW)
#define MM QM_MM
#define C1_LEN (4 + 5 * D + 3 * (MM - 1)) /* 178 */
#define C2_LEN (2 + D + 2 * (MM - 1))     /* 41 */
#define SMK_PER (2 * KN + 2 * MM + D)

#define MC(reg, lsb, w) (((reg) >> (lsb)) & (uint32_t)SMK_MASK(w))
#define MCF(mctrl, f) QM_GET(MCTRL, f, mctrl)
#define STF(f, v) QM_FLD(STATUS, f, v)
/* MCTRL holds bits [SMK_QM_REG_MCTRL_BITS-1:0] of the written word (section 5): every field it has
 * must lie inside them */
#define MC_END(f) (SMK_QM_MCTRL_##f##_LSB + SMK_QM_MCTRL_##f##_W)
#define MC_IN(f) (MC_END(f) <= SMK_QM_REG_MCTRL_BITS)
_Static_assert(MC_IN(EN) && MC_IN(MODE) && MC_IN(SCHEME) && MC_IN(ROLLNEG) && MC_IN(POLICY) && MC_IN(TLP) &&
                   MC_IN(DEBT) && MC_IN(TLPQ) && MC_IN(GIVE) && MC_IN(NOHIST),
               "hw/regmap.def: an MCTRL field beyond SMK_QM_REG_MCTRL_BITS");

/* ---- arithmetic primitives (section 2) ------------------------------------------------------ */

static inline uint64_t sat32_64(uint64_t x) { return x > VMAX ? VMAX : x; }

uint32_t qm_mul(uint64_t a, uint64_t b, int sh)
{
    const uint64_t p = sat32_64(a) * sat32_64(b); /* < 2^64: exact */
    return (uint32_t)sat32_64(p >> sh);
}

uint32_t qm_div(uint64_t a, uint64_t b, int qbits)
{
    const uint64_t qmax = SMK_MASK(qbits);
    if (b == 0 || (a >> qbits) >= b) /* A >= B * 2^q */
        return (uint32_t)qmax;
    return (uint32_t)(a / b);
}

uint32_t qm_lc(uint32_t cur_mode) { return cur_mode == SMK_QMODE_SMK ? QM_LC_SMK : QM_LC_QOS; }

/* QMODE of an MCTRL.MODE value (3 -> OFF) */
static inline uint32_t qmode_of(uint32_t mctrl)
{
    const uint32_t m = MCF(mctrl, MODE);
    return m == 3 ? SMK_QMODE_OFF : m;
}

/* L (or Lq of c2.1) = max(EPOCH_LEN register, LC(mode)) */
static inline uint32_t len_of(uint32_t epoch_len, uint32_t mode)
{
    const uint32_t lc = qm_lc(mode);
    return epoch_len > lc ? epoch_len : lc;
}

/* SM_CTRL word {ROLLNEG, SCHEME, QMODE, POLICY} from MCTRL's fields and a QMODE */
static uint32_t ctrl_word(uint32_t mctrl, uint32_t qmode)
{
    return (MCF(mctrl, POLICY) << SMK_SM_CTRL_POLICY_LSB) | ((qmode & 3u) << SMK_SM_CTRL_QMODE_LSB) |
           (MCF(mctrl, SCHEME) << SMK_SM_CTRL_QSCHEME_LSB) | (MCF(mctrl, ROLLNEG) << SMK_SM_CTRL_ROLLNEG_LSB);
}

int qm_need(const qos_mgr_t *q, int k)
{
    return q->mv[k] && q->mqos[k] && q->cum_c[k] != 0 && q->hist[k] < q->mgoal[k] &&
           (!MCF(q->mctrl, TLPQ) || q->ipc_ep[k] < q->agoal[k]);
}

/* GIVE: some QoS kernel has a history margin to give (hgive, c1.8) */
static int qm_hg_any(const qos_mgr_t *q)
{
    int any = 0;
    for (int j = 0; j < KN; j++)
        any |= q->mv[j] && q->mqos[j] && q->hgive[j] != 0;
    return any;
}

/* ---- microprogram position (derived from st, et, L, cur_mode) ------------------------------- */

enum { P_NONE = 0, P_S, P_G, P_C1, P_C2, P_W, P_F, P_R, P_A, P_FD, P_B };

typedef struct {
    int step;
    int k;   /* C1, C2, R: kernel */
    int s;   /* SMK per-SM steps: SM */
    int i;   /* G: pair cycle p (0 .. NP); W: 0 .. NP + MM; A, B: cycle 0 .. KN + MM - 1; F: 0..3; C1, C2: sub-step */
    int cyc; /* cycle inside a division (0 .. D-1) or MUL (0 .. MM-1) sub-step, else 0 */
} pos_t;

static void decode(const qos_mgr_t *q, pos_t *p)
{
    memset(p, 0, sizeof *p);
    if (q->st != QM_ST_RUN)
        return;
    const uint32_t lc = qm_lc(q->cur_mode);
    if (q->et + lc < q->L) /* et < L - LC: no computation */
        return;
    uint32_t r = q->et - (q->L - lc);
    if (r == 0) {
        p->step = P_S;
        return;
    }
    r -= 1;
    if (q->cur_mode != SMK_QMODE_SMK) {
        if (r < NP + 1) {
            p->step = P_G, p->i = (int)r;
            return;
        }
        r -= NP + 1;
        if (r < (uint32_t)KN * C1_LEN) {
            /* sub-step starts inside one kernel's C1_LEN cycles: c1.0 .. c1.8 (lengths 1, D, D, D,
             * MM, D, MM, MM, D) */
            static const int start[9] = {0, 1, 1 + D, 1 + 2 * D, 1 + 3 * D, 1 + 3 * D + MM, 1 + 4 * D + MM,
                                         1 + 4 * D + 2 * MM, 1 + 4 * D + 3 * MM};
            const int o = (int)(r % C1_LEN);
            p->step = P_C1, p->k = (int)(r / C1_LEN);
            int sub = 8;
            while (o < start[sub])
                sub--;
            p->i = sub, p->cyc = o - start[sub];
            return;
        }
        r -= (uint32_t)KN * C1_LEN;
        if (r < (uint32_t)KN * C2_LEN) {
            const int o = (int)(r % C2_LEN);
            p->step = P_C2, p->k = (int)(r / C2_LEN);
            p->i = o < 2 * MM ? o / MM : 2, p->cyc = o < 2 * MM ? o % MM : o - 2 * MM;
            return;
        }
        r -= (uint32_t)KN * C2_LEN;
        if (r < NP + MM + 1) {
            p->step = P_W, p->i = (int)r;
            return;
        }
        r -= NP + MM + 1;
    } else {
        if (r < (uint32_t)KN * D) {
            p->step = P_R, p->k = (int)(r / D), p->cyc = (int)(r % D);
            return;
        }
        r -= (uint32_t)KN * D;
        if (r < (uint32_t)NSM * SMK_PER) {
            const int o = (int)(r % SMK_PER);
            p->s = (int)(r / SMK_PER);
            if (o < KN + MM)
                p->step = P_A, p->i = o;
            else if (o < KN + MM + D)
                p->step = P_FD, p->cyc = o - (KN + MM);
            else
                p->step = P_B, p->i = o - (KN + MM + D);
            return;
        }
        r -= (uint32_t)NSM * SMK_PER;
    }
    p->step = P_F, p->i = (int)r; /* 0 .. 3 (r <= 3 because et <= L - 1) */
}

/* ---- reset, read, outputs ------------------------------------------------------------------- */

void qm_reset(qos_mgr_t *q)
{
    memset(q, 0, sizeof *q);
    q->P = ONE;
    for (int k = 0; k < KN; k++)
        q->ipc_ep[k] = ONE, q->alpha[k] = ONE;
}

uint32_t qm_read(const qos_mgr_t *q, uint32_t addr)
{
    addr &= (uint32_t)SMK_MASK(SMK_QM_ADDR_W);
    switch (addr) {
    case SMK_QM_REG_MCTRL: return q->mctrl;
    case SMK_QM_REG_EPOCH_LEN: return q->epoch_len;
    case SMK_QM_REG_SAMPLE_PER: return q->sample_per;
    case SMK_QM_REG_STATUS: return STF(ST, q->st) | STF(CUR_MODE, q->cur_mode) | STF(OWN, q->own) | STF(TL_ST, q->tl_st);
    case SMK_QM_REG_EPOCHS: return q->epochs;
    case SMK_QM_REG_ET: return q->et;
    case SMK_QM_REG_CUR_LEN: return q->L;
    case SMK_QM_REG_PROD: return q->P;
    default: break;
    }
    /* an array owns a window of 2^WIN_W words: window base + kernel index; indices >= KN read 0 */
    const uint32_t ix = addr & (uint32_t)SMK_MASK(SMK_QM_WIN_W);
    if (ix >= KN)
        return 0;
    switch (addr - ix) {
    case SMK_QM_REG_IPC_EP: return q->ipc_ep[ix];
    case SMK_QM_REG_HIST: return q->hist[ix];
    case SMK_QM_REG_ALPHA: return q->alpha[ix];
    case SMK_QM_REG_AGOAL: return q->agoal[ix];
    case SMK_QM_REG_QPT: return q->qpt[ix];
    case SMK_QM_REG_TBS: return q->tsum[ix];
    case SMK_QM_REG_GOAL: return q->mgoal[ix];
    default: return 0;
    }
}

static inline void wr_all(qm_out_t *out, uint32_t a, uint32_t d)
{
    out->csr_we = SMK_MASK(NSM);
    for (int s = 0; s < NSM; s++)
        out->csr_addr[s] = a, out->csr_wdata[s] = d;
}
static inline void wr_one(qm_out_t *out, uint32_t s, uint32_t a, uint32_t d)
{
    out->csr_we = 1ULL << s;
    out->csr_addr[s] = a, out->csr_wdata[s] = d;
}

void qm_outputs(const qos_mgr_t *q, qm_out_t *out)
{
    memset(out, 0, sizeof *out);
    out->own = q->own;
    for (int k = 0; k < KN; k++)
        out->rq_give[k] = q->give[k];
    if (q->tl_st == QM_TL_WRDY)
        out->rq_v = 1, out->rq_k = q->rq_k_r, out->rq_sm = q->rq_sm_r, out->rq_ret = q->rq_ret_r;
    if (q->st == QM_ST_INIT) {
        switch (q->init_i) {
        case 0: wr_all(out, SMK_REG_SM_CTRL, ctrl_word(q->mctrl, SMK_QMODE_OFF)); break;
        case 1: wr_all(out, SMK_REG_EPOCH_LEN, 0); break;
        case 2: wr_all(out, SMK_REG_SAMPLE_PER, q->sample_per); break;
        case 3: wr_all(out, SMK_REG_QOS_MASK, 0); break;
        default:
            wr_all(out, SMK_REG_CMD, (1u << SMK_CMD_EPOCH_START_LSB) | (1u << SMK_CMD_SNAP_LSB));
            break;
        }
        return;
    }
    if (q->st == QM_ST_STOP) {
        wr_all(out, SMK_REG_SM_CTRL, ctrl_word(q->mctrl, SMK_QMODE_OFF));
        return;
    }
    if (q->st != QM_ST_RUN)
        return;
    pos_t p;
    decode(q, &p);
    switch (p.step) {
    case P_S: wr_all(out, SMK_REG_CMD, 1u << SMK_CMD_SNAP_LSB); break;
    case P_G:
    case P_W:
        if (p.i < NP)
            out->lk_s = (uint32_t)(p.i % NSM), out->lk_k = (uint32_t)(p.i / NSM);
        if (p.step == P_G && p.i >= 1 && q->g_ksv)
            out->rd_addr[q->g_s] = SMK_REG_STAT_THR + q->g_ks;
        if (p.step == P_W && p.i >= MM + 1 && q->x_v)
            wr_one(out, q->x_s, SMK_REG_QUOTA + q->x_ks, q->x_q);
        break;
    case P_A:
        if (p.i < KN)
            out->lk_s = (uint32_t)p.s, out->lk_k = (uint32_t)p.i;
        break;
    case P_B:
        if (p.i >= MM && q->x_v)
            wr_one(out, (uint32_t)p.s, SMK_REG_QUOTA + q->x_ks, q->x_q);
        break;
    case P_F:
        if (p.i == 0)
            wr_all(out, SMK_REG_SAMPLE_PER, q->sample_per);
        else if (p.i == 1) {
            wr_all(out, SMK_REG_QOS_MASK, 0);
            for (int s = 0; s < NSM; s++)
                out->csr_wdata[s] = q->qm[s];
        } else if (p.i == 2)
            wr_all(out, SMK_REG_SM_CTRL, ctrl_word(q->mctrl, q->cur_mode));
        else
            wr_all(out, SMK_REG_CMD, 1u << SMK_CMD_EPOCH_START_LSB);
        break;
    default: break;
    }
    switch (q->tl_st) {
    case QM_TL_SMP: out->rd_addr[q->tl_s] = SMK_REG_EP_SAMPLES; break;
    case QM_TL_LK: out->lk_s = q->tl_s, out->lk_k = q->tl_v; break;
    case QM_TL_RD: out->rd_addr[q->tl_s] = SMK_REG_STAT_IDLE + q->g_ks; break;
    default: break;
    }
}

void qm_eval(const qos_mgr_t *q, const qm_in_t *in, qm_out_t *out)
{
    qm_outputs(q, out);
    out->m_rdata = qm_read(q, in->m_raddr);
}

/* ---- clock edge ----------------------------------------------------------------------------- */

/* lookup results latched into g_* */
static inline void g_latch(qos_mgr_t *q, const qm_in_t *in, uint32_t s, uint32_t k)
{
    q->g_s = s, q->g_k = k;
    q->g_ksv = in->lk_ksv & 1u, q->g_ks = in->lk_ks & (uint32_t)SMK_MASK(KS_W);
    q->g_cnt = in->lk_cnt & QM_GVMAX;
}

/* TLP "NEXT" (not a cycle) */
static inline void tl_next(qos_mgr_t *q, const qos_mgr_t *o)
{
    if (o->tl_v == KN - 1) {
        q->tl_s = o->tl_s == NSM - 1 ? 0 : o->tl_s + 1; /* next SM, modulo NSM */
        if (o->tl_n == NSM - 1)
            q->tl_st = QM_TL_IDLE; /* NSM SMs visited */
        else
            q->tl_n = o->tl_n + 1, q->tl_st = QM_TL_SMP;
    } else
        q->tl_v = o->tl_v + 1, q->tl_st = QM_TL_REQ;
}

static inline uint32_t min32(uint64_t a, uint64_t b) { return (uint32_t)(a < b ? a : b); }

/* one step of the C1 (sub-steps 0..8) or C2 (0..2) programs of kernel k */
static void step_c(qos_mgr_t *q, const qos_mgr_t *o, const pos_t *p)
{
    const int k = p->k, sub = p->i;
    const int first = p->cyc == 0, last = p->cyc == D - 1, mlast = p->cyc == MM - 1;
    const uint64_t res = qm_div(o->div_a, o->div_b, QM_QD); /* meaningful in a last cycle */
    const qm_mul_t *m = &o->mp[MM - 2];                     /* the MUL of this sub-step's first cycle */
    const int v = o->mv[k];
    if (p->step == P_C1) {
        if (first) { /* divider load (every k: the operands do not depend on mv) */
            switch (sub) {
            case 1: q->div_a = o->isum[k] << 16, q->div_b = o->wc[k]; break;
            case 2: q->div_a = o->cum_i[k] << 16, q->div_b = o->cum_c[k]; break;
            case 3: q->div_a = (uint64_t)o->mgoal[k] << 16, q->div_b = o->hist[k]; break;
            case 5: q->div_a = (uint64_t)o->ipc_ep[k] << 16, q->div_b = (uint32_t)sat32_64((uint64_t)o->agoal[k] + o->dbt[k]); break;
            case 8: q->div_a = o->gN, q->div_b = o->hist[k]; break;
            default: break;
            }
        }
        if (!v)
            return;
        switch (sub) {
        case 0:
            if (o->wc[k] != 0) {
                const uint64_t si = o->cum_i[k] + o->isum[k], sc = (uint64_t)o->cum_c[k] + o->wc[k];
                if (si >= (UINT64_C(1) << 48) || sc >= (UINT64_C(1) << 32))
                    q->cum_i[k] = si >> 1, q->cum_c[k] = (uint32_t)(sc >> 1);
                else
                    q->cum_i[k] = si, q->cum_c[k] = (uint32_t)sc;
            }
            break;
        case 1:
            if (last && o->wc[k] != 0)
                q->ipc_ep[k] = (uint32_t)res;
            break;
        case 2:
            if (last)
                q->hist[k] = o->cum_c[k] == 0 ? 0 : (uint32_t)res;
            break;
        case 3:
            if (last)
                q->alpha[k] = o->cum_c[k] == 0 || MCF(o->mctrl, NOHIST) ? ONE : (res > ONE ? (uint32_t)res : ONE);
            break;
        case 4: {
            if (!mlast)
                break;
            q->agoal[k] = m->r;
            /* rollover debt: the quota rate the epoch was given (agoal and dbt of this cycle) less
             * the IPC it reached, at least 0, at most one epoch's agoal */
            const int64_t dn = (int64_t)o->dbt[k] + o->agoal[k] - o->ipc_ep[k];
            q->dbt[k] = (MCF(o->mctrl, DEBT) && o->mqos[k] && dn > 0) ? (uint32_t)(dn < o->agoal[k] ? dn : o->agoal[k]) : 0;
            break;
        }
        case 5:
            if (last)
                q->ratio = (uint32_t)res;
            break;
        case 6:
            if (mlast && o->mqos[k])
                q->P = m->r;
            break;
        case 7:
            if (mlast)
                q->gN = m->p;
            break;
        default: /* 8 */
            if (last)
                q->hgive[k] = (o->hist[k] == 0 || res >= o->tsum[k]) ? 0 : min32(o->tsum[k] - 1 - res, QM_GVMAX);
            break;
        }
        return;
    }
    /* C2 */
    if (sub == 2 && first)
        q->div_a = o->Q, q->div_b = o->tsum[k] ? o->tsum[k] : 1;
    if (!v)
        return;
    if (sub == 0) {
        if (!mlast)
            return;
        if (!o->mqos[k]) {
            q->agoal[k] = m->r > ONE ? m->r : ONE;
            q->alpha[k] = ONE;
        }
        q->fresh[k] = 0;
    } else if (sub == 1) {
        if (mlast)
            q->Q = m->r;
    } else if (last)
        q->qpt[k] = (uint32_t)res;
}

/* the MUL started in this cycle (the RTL's operand mux: the step's operands, whatever the cycle of the
 * step; only a MUL sub-step's first cycle and the W / A / B positions are read later) */
static qm_mul_t mul_start(const qos_mgr_t *o, const pos_t *p)
{
    qm_mul_t m = {0, 0, 0, 0, 0, 0, 0};
    uint64_t a = 0, b = 0;
    int sh = 16;
    const int k = p->k;
    if (p->step == P_C1 && p->i == 4)
        a = o->alpha[k], b = o->mgoal[k];
    else if (p->step == P_C1 && p->i == 6)
        a = o->P, b = o->ratio;
    else if (p->step == P_C1 && p->i == 7)
        a = o->mgoal[k], b = o->tsum[k], sh = 0;
    else if (p->step == P_C2 && p->i == 0)
        a = o->fresh[k] ? ONE : o->ipc_ep[k], b = o->P;
    else if (p->step == P_C2 && p->i == 1)
        a = o->agoal[k], b = len_of(o->epoch_len, qmode_of(o->mctrl));
    else if (p->step == P_W || p->step == P_A) {
        a = o->g_k < KN ? (p->step == P_W ? o->qpt[o->g_k] : o->smk_r[o->g_k]) : 0, b = o->g_cnt;
        sh = p->step == P_W ? 0 : 16;
        m.v = o->g_ksv & (o->g_k < KN ? o->mv[o->g_k] : 0u), m.qos = o->g_k < KN ? o->mqos[o->g_k] : 0u;
        m.s = o->g_s, m.ks = o->g_ks, m.k = o->g_k;
    } else if (p->step == P_B) {
        const uint32_t kb = p->i < KN ? o->kb[p->i] : 0;
        a = p->i < KN ? o->cb[p->i] : 0, b = o->F;
        m.v = kb >> KS_W, m.ks = kb & (uint32_t)SMK_MASK(KS_W);
    } else if (o->tl_st == QM_TL_MU)
        a = o->smp, b = o->mkn[o->tl_v], sh = 0;
    m.p = a * b;
    m.r = qm_mul(a, b, sh);
    return m;
}

static void step_micro(qos_mgr_t *q, const qos_mgr_t *o, const qm_in_t *in, const pos_t *p)
{
    const uint32_t swm = (uint32_t)SMK_MASK(SW);
    switch (p->step) {
    case P_S:
        for (int k = 0; k < KN; k++)
            q->wc[k] = (uint32_t)sat32_64((uint64_t)o->wcnt[k] + o->mv[k]);
        q->P = ONE;
        memset(q->qm, 0, sizeof q->qm);
        q->ga_i = 0, q->ga_t = 0;
        break;
    case P_G:
    case P_W:
        if (p->i < NP)
            g_latch(q, in, (uint32_t)(p->i % NSM), (uint32_t)(p->i / NSM));
        if (p->step == P_G && p->i >= 1) { /* gather pair p-1 (latched in g_*) */
            const uint64_t si = o->ga_i + (o->g_ksv ? (in->rd_data[o->g_s] & swm) : 0);
            const uint32_t ti = o->ga_t + o->g_cnt;
            if (o->g_s == NSM - 1) {
                q->isum[o->g_k] = si & SMK_MASK(IW), q->tsum[o->g_k] = ti & (uint32_t)SMK_MASK(TW);
                q->ga_i = 0, q->ga_t = 0;
            } else
                q->ga_i = si & SMK_MASK(IW), q->ga_t = ti & (uint32_t)SMK_MASK(TW);
        }
        if (p->step == P_W && p->i >= MM && p->i <= NP + MM - 1) { /* pair i - MM's MUL ends */
            const qm_mul_t *m = &o->mp[MM - 2];
            q->x_q = min32(m->r, QM_QMAX);
            q->x_v = m->v;
            q->x_s = m->s, q->x_ks = m->ks;
            if (m->v && m->qos)
                q->qm[m->s] |= 1u << m->ks;
        }
        break;
    case P_C1:
    case P_C2: step_c(q, o, p); break;
    case P_R:
        if (p->cyc == 0)
            q->div_a = (uint64_t)o->mx[p->k] << 16, q->div_b = o->mt[p->k] ? o->mt[p->k] : 1;
        if (p->cyc == D - 1)
            q->smk_r[p->k] = qm_div(o->div_a, o->div_b, QM_QD);
        break;
    case P_A:
        if (p->i < KN)
            g_latch(q, in, (uint32_t)p->s, (uint32_t)p->i);
        if (p->i >= MM) { /* kernel i - MM's MUL ends */
            const qm_mul_t *m = &o->mp[MM - 2];
            const uint32_t cb = m->v ? m->r : 0;
            q->cb[m->k] = cb;
            q->kb[m->k] = (m->v << KS_W) | m->ks;
            q->sumc = (uint32_t)sat32_64((uint64_t)o->sumc + cb);
        } else if (p->i == 0)
            q->sumc = 0;
        break;
    case P_FD:
        if (p->cyc == 0)
            q->div_a = ((uint64_t)o->L * SMK_SCHED) << 16, q->div_b = o->sumc;
        if (p->cyc == D - 1)
            q->F = qm_div(o->div_a, o->div_b, QM_QD);
        break;
    case P_B:
        if (p->i >= MM - 1 && p->i <= KN + MM - 2) { /* kernel i - MM + 1's MUL ends */
            const qm_mul_t *m = &o->mp[MM - 2];
            q->x_q = min32(m->r, QM_QMAX);
            q->x_v = m->v;
            q->x_ks = m->ks;
        }
        break;
    default: break;
    }
}

static void step_tlp(qos_mgr_t *q, const qos_mgr_t *o, const qm_in_t *in)
{
    const uint32_t v = o->tl_v;
    switch (o->tl_st) {
    case QM_TL_SMP:
        q->smp = in->rd_data[o->tl_s], q->tl_v = 0, q->tl_st = QM_TL_LK;
        break;
    case QM_TL_LK:
        g_latch(q, in, o->tl_s, v);
        q->tl_st = QM_TL_RD;
        break;
    case QM_TL_RD:
        q->idl = in->rd_data[o->tl_s] & (uint32_t)SMK_MASK(SW), q->tl_st = QM_TL_MU, q->tl_c = 0;
        break;
    case QM_TL_MU: /* MM cycles */
        if (o->tl_c != MM - 1)
            q->tl_c = o->tl_c + 1;
        else
            q->sk = o->mp[MM - 2].r, q->tl_st = QM_TL_DV, q->tl_c = 0;
        break;
    case QM_TL_DV:
        /* idl and sk hold during DV: the operands of the division's first cycle */
        if (o->tl_c != QM_DT - 1) {
            q->tl_c = o->tl_c + 1;
            break;
        }
        q->tl_c = 0;
        q->itb[v] = (o->g_ksv && o->mv[v] && o->sk != 0) ? min32(qm_div(o->idl, o->sk, QM_QT), QM_GVMAX) : 0;
        if (v == KN - 1)
            q->tl_v = 0, q->tl_st = QM_TL_REQ;
        else
            q->tl_v = v + 1, q->tl_st = QM_TL_LK;
        break;
    case QM_TL_REQ:
        if (qm_need(o, (int)v) && o->itb[v] <= 1) {
            for (int j = 0; j < KN; j++) {
                const uint32_t a = o->itb[j] ? o->itb[j] - 1 : 0;
                q->give[j] = min32(a > o->hgive[j] ? a : o->hgive[j], QM_GVMAX);
            }
            q->rq_k_r = v, q->rq_sm_r = o->tl_s, q->rq_ret_r = 0, q->tl_st = QM_TL_WRDY;
        } else if (MCF(o->mctrl, GIVE) && o->mv[v] && !o->mqos[v] && o->itb[v] <= 1 && qm_hg_any(o)) {
            /* give-back: a TB of non-QoS v from QoS kernels' history margins only (section 8) */
            for (int j = 0; j < KN; j++)
                q->give[j] = min32(o->hgive[j], QM_GVMAX);
            q->rq_k_r = v, q->rq_sm_r = o->tl_s, q->rq_ret_r = 1, q->tl_st = QM_TL_WRDY;
        } else
            tl_next(q, o);
        break;
    case QM_TL_WRDY:
        if (in->rq_rdy & 1)
            q->tl_st = QM_TL_WACK;
        break;
    case QM_TL_WACK:
        if (in->rq_ack_v & 1) {
            const uint32_t kv = in->rq_ack_kv & (uint32_t)SMK_MASK(SMK_KID_W), n = in->rq_ack_n & QM_GVMAX;
            if ((in->rq_ack_st & 3u) == 2u /* VICTIM */ && kv < KN) {
                q->itb[kv] = o->itb[kv] > n ? o->itb[kv] - n : 0;
                q->hgive[kv] = o->hgive[kv] > n ? o->hgive[kv] - n : 0;
            }
            tl_next(q, o);
        }
        break;
    default: break;
    }
}

void qm_commit(qos_mgr_t *q, const qm_in_t *in, const qm_out_t *out)
{
    (void)out;
    const qos_mgr_t o = *q; /* the registers before this edge */
    const uint32_t ma = in->m_addr & (uint32_t)SMK_MASK(SMK_QM_ADDR_W);
    const int w_mctrl = (in->m_we & 1) && ma == SMK_QM_REG_MCTRL;
    const int en = w_mctrl && MCF(in->m_wdata, EN) && o.st == QM_ST_IDLE;
    const int dis = w_mctrl && !MCF(in->m_wdata, EN) && (o.st == QM_ST_INIT || o.st == QM_ST_RUN);
    const int act = o.st == QM_ST_RUN && !dis; /* a RUN cycle whose edge actions apply */
    pos_t p;
    decode(&o, &p);
    const int init_end = o.st == QM_ST_INIT && o.init_i == 4 && !dis;
    const int latch = init_end || (act && o.et == o.L - 1); /* epoch-start latches */
    const int snap_e = act && p.step == P_S;

    /* host registers */
    if (w_mctrl)
        q->mctrl = in->m_wdata & (uint32_t)SMK_MASK(SMK_QM_REG_MCTRL_BITS);
    else if ((in->m_we & 1) && ma == SMK_QM_REG_EPOCH_LEN)
        q->epoch_len = in->m_wdata & (uint32_t)SMK_MASK(EW);
    else if ((in->m_we & 1) && ma == SMK_QM_REG_SAMPLE_PER)
        q->sample_per = in->m_wdata & (uint32_t)SMK_MASK(EW);

    /* timeline (section 6) */
    switch (o.st) {
    case QM_ST_IDLE:
        if (en)
            q->st = QM_ST_INIT, q->init_i = 0, q->own = 1;
        break;
    case QM_ST_INIT:
        if (dis)
            q->st = QM_ST_STOP, q->init_i = 0;
        else if (init_end)
            q->st = QM_ST_RUN, q->init_i = 0;
        else
            q->init_i = o.init_i + 1;
        break;
    case QM_ST_RUN:
        if (dis)
            q->st = QM_ST_STOP;
        break;
    default: /* STOP */
        q->st = QM_ST_IDLE, q->own = 0;
        break;
    }
    if (act)
        q->et = (o.et + 1) & (uint32_t)SMK_MASK(EW + 1);
    if (latch) {
        q->cur_mode = qmode_of(o.mctrl);
        q->L = len_of(o.epoch_len, q->cur_mode);
        q->epochs = o.epochs == VMAX ? VMAX : o.epochs + 1;
        q->et = 0;
    }

    /* compute microprogram (section 7) */
    if (act)
        step_micro(q, &o, in, &p);
    /* the multiplier pipeline advances at every edge */
    for (int i = MM - 2; i > 0; i--)
        q->mp[i] = o.mp[i - 1];
    q->mp[0] = mul_start(&o, &p);

    /* TLP unit (section 8) */
    if (dis)
        q->tl_st = QM_TL_IDLE;
    else if (latch) {
        int any = 0;
        for (int k = 0; k < KN; k++)
            any |= qm_need(&o, k);
        any |= MCF(o.mctrl, GIVE) && qm_hg_any(&o);
        if (MCF(o.mctrl, TLP) && q->cur_mode == SMK_QMODE_QOS && any)
            q->tl_st = QM_TL_SMP, q->tl_n = 0; /* tl_s holds: the pass resumes where the last one stopped */
        else
            q->tl_st = QM_TL_IDLE;
    } else if (act) {
        step_tlp(q, &o, in);
        if (snap_e)
            q->tl_st = QM_TL_IDLE; /* abort; the other TLP registers took this cycle's values */
    }

    /* kernel table (section 4), last: a launch commit wins over every other write to its entry */
    const int commit = o.pl_v && !(in->kl_rej & 1) && o.pl_k < KN;
    q->pl_v = in->kl_v & 1u;
    if (in->kl_v & 1) {
        const uint32_t x = in->kl_x & (uint32_t)SMK_MASK(17);
        q->pl_k = in->kl_k & (uint32_t)SMK_MASK(SMK_KID_W);
        q->pl_n = in->kl_n & (uint32_t)SMK_MASK(SMK_WID_W + 1);
        q->pl_qos = in->kl_qos & 1u;
        q->pl_goal = in->kl_goal;
        q->pl_x = x > ONE ? ONE : x;
        q->pl_t = in->kl_t & QM_GVMAX;
        q->pl_keep = in->kl_keep & 1u;
    }
    for (int k = 0; k < KN; k++) {
        q->wcnt[k] = (snap_e || init_end) ? 0 : (uint32_t)sat32_64((uint64_t)o.wcnt[k] + o.mv[k]);
        if ((in->kdone_v & 1) && (in->kdone_k & (uint32_t)SMK_MASK(SMK_KID_W)) == (uint32_t)k)
            q->mv[k] = 0;
        if (commit && o.pl_k == (uint32_t)k) {
            q->mv[k] = 1, q->mqos[k] = (uint8_t)o.pl_qos, q->mkn[k] = o.pl_n, q->mgoal[k] = o.pl_goal;
            q->mx[k] = o.pl_x, q->mt[k] = o.pl_t;
            q->isum[k] = 0, q->tsum[k] = 0, q->wc[k] = 0;
            if (o.pl_keep) {
                /* relaunch with keep: the history continues; wcnt, cum_*, ipc_ep, hist, alpha,
                 * agoal, hgive, qpt take the value of their normal rule at this edge */
                q->fresh[k] = (uint8_t)(o.fresh[k] | (o.cum_c[k] == 0));
            } else {
                q->fresh[k] = 1;
                q->wcnt[k] = 0, q->cum_i[k] = 0, q->cum_c[k] = 0, q->ipc_ep[k] = ONE, q->hist[k] = 0;
                q->alpha[k] = ONE, q->agoal[k] = 0, q->hgive[k] = 0, q->qpt[k] = 0, q->dbt[k] = 0;
            }
        }
    }
}
