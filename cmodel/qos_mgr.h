/* qos_mgr.h: C reference model of the GPU-wide QoS manager (spec: docs/qos_mgr.md).
 * Same interface style as the other blocks: qm_reset, qm_eval (this cycle's outputs from the
 * state and m_raddr, no state change), qm_commit (clock edge). The state fields carry the spec's
 * names (section 13); the microprogram position is derived from st, et, L and cur_mode (the spec
 * lets each model encode it freely), so it is not a field. */
#ifndef QOS_MGR_H
#define QOS_MGR_H
#include "smk_util.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QM_NSM SMK_NUM_SM
#define QM_KN SMK_KERNELS

/* constants of section 1 (spec names with a QM_ prefix: a bare D or ONE would collide in C) */
#define QM_FB 16
#define QM_ONE (UINT32_C(1) << QM_FB)
#define QM_VMAX UINT32_C(0xFFFFFFFF)
#define QM_QD 32
#define QM_D (QM_QD + 1)
#define QM_MM 4 /* cycles of one MUL (pipelined) */
#define QM_QT (SMK_WID_W + 1)
#define QM_DT (QM_QT + 1)
#define QM_GVW (SMK_TBS_W + 1)
#define QM_GVMAX ((uint32_t)SMK_MASK(QM_GVW))
#define QM_QMAX ((uint32_t)SMK_MASK(SMK_QUOTA_W - 1))
#define QM_NP (QM_KN * QM_NSM) /* (s, k) pairs of G and W */
/* section 7.5 */
#define QM_LC_QOS (2 * QM_KN * QM_NSM + QM_KN * (6 + 6 * QM_D + 5 * (QM_MM - 1)) + QM_MM + 7)
#define QM_LC_SMK (5 + QM_KN * QM_D + QM_NSM * (2 * QM_KN + 2 * QM_MM + QM_D))

/* host registers (section 5; hw/regmap.def, space QM): addresses SMK_QM_REG_<REG>, address width
 * SMK_QM_ADDR_W, array window SMK_QM_WIN_W, fields SMK_QM_<REG>_<F>_LSB / _W. QM_FLD(REG, F, v): v
 * placed in field F of REG's word; QM_GET(REG, F, w): field F of the word w; QM_FMASK(REG, F): its bits */
#define QM_FLD(r, f, v) (((uint32_t)(v) & (uint32_t)SMK_MASK(SMK_QM_##r##_##f##_W)) << SMK_QM_##r##_##f##_LSB)
#define QM_GET(r, f, w) (((uint32_t)(w) >> SMK_QM_##r##_##f##_LSB) & (uint32_t)SMK_MASK(SMK_QM_##r##_##f##_W))
#define QM_FMASK(r, f) QM_FLD(r, f, 0xFFFFFFFFu)
enum { QM_ST_IDLE = 0, QM_ST_INIT = 1, QM_ST_RUN = 2, QM_ST_STOP = 3 };                         /* st */
enum { QM_TL_IDLE = 0, QM_TL_SMP, QM_TL_LK, QM_TL_RD, QM_TL_MU, QM_TL_DV, QM_TL_REQ, QM_TL_WRDY,
       QM_TL_WACK };                                                                             /* tl_st */

/* one MUL in flight (section 2): its result, exact product and the W / A / B position's values of
 * its first cycle (v, qos, SM, slot, kernel) */
typedef struct {
    uint64_t p;
    uint32_t r, v, qos, s, ks, k;
} qm_mul_t;

typedef struct {
    /* host registers and timeline (section 6) */
    uint32_t mctrl, epoch_len, sample_per;
    uint32_t st, init_i, et, L, cur_mode, epochs, own;
    /* kernel table (section 4) */
    uint8_t mv[QM_KN], mqos[QM_KN], fresh[QM_KN];
    uint32_t mkn[QM_KN], mgoal[QM_KN], mx[QM_KN], mt[QM_KN];
    uint32_t wcnt[QM_KN], wc[QM_KN];
    uint64_t isum[QM_KN];  /* SW + SMW bits */
    uint32_t tsum[QM_KN];  /* SMW + GVW bits */
    uint64_t cum_i[QM_KN]; /* 48 bits */
    uint32_t cum_c[QM_KN], ipc_ep[QM_KN], hist[QM_KN], alpha[QM_KN], agoal[QM_KN];
    uint32_t dbt[QM_KN]; /* rollover debt (U16.16 IPC; MCTRL.DEBT, docs/qos_mgr.md 7.2) */
    uint32_t hgive[QM_KN], qpt[QM_KN], smk_r[QM_KN];
    uint32_t pl_v, pl_k, pl_n, pl_qos, pl_goal, pl_x, pl_t, pl_keep;
    /* compute (section 7) */
    uint32_t P, ratio;
    uint64_t gN; /* 32 + SMW + GVW bits */
    uint32_t Q;
    uint32_t qm[QM_NSM]; /* KS bits each */
    uint64_t ga_i;
    uint32_t ga_t;
    uint32_t g_s, g_k, g_ksv, g_ks, g_cnt;
    uint32_t x_q, x_v, x_s, x_ks;
    uint32_t cb[QM_KN], kb[QM_KN]; /* kb = {v, ks}: v at bit KS_W */
    uint32_t sumc, F;
    /* TLP unit (section 8) */
    uint32_t tl_st, tl_s, tl_n, tl_v, smp, idl, sk; /* tl_n: SMs done in this pass */
    uint32_t itb[QM_KN], give[QM_KN];
    uint32_t rq_k_r, rq_sm_r, rq_ret_r; /* rq_ret_r: the request is a give-back (GIVE) */
    /* not architectural (not compared): the divider's operand latch and the DV cycle counter */
    uint64_t div_a;
    uint32_t div_b, tl_c;
    /* not architectural: the multiplier pipeline, mp[i] = the MUL whose first cycle was i + 1
     * cycles ago; the MUL of a step's first cycle is read from mp[QM_MM - 2] in its last */
    qm_mul_t mp[QM_MM - 1];
} qos_mgr_t;

typedef struct {
    /* host */
    uint32_t m_we, m_addr, m_wdata, m_raddr;
    /* SMs */
    uint32_t rd_data[QM_NSM];
    /* snooped from the driver's launch port, and the driver's outputs */
    uint32_t kl_v, kl_k, kl_n, kl_qos, kl_goal, kl_x, kl_t, kl_rej;
    uint32_t kl_keep; /* relaunch of the same application: keep the entry's history (section 4) */
    uint32_t kdone_v, kdone_k;
    uint32_t lk_cnt, lk_part, lk_ksv, lk_ks;
    uint32_t rq_rdy, rq_ack_v, rq_ack_st, rq_ack_kv, rq_ack_n;
} qm_in_t;

typedef struct {
    uint32_t m_rdata, own;
    uint64_t csr_we; /* bit s (NSM <= 64) */
    uint32_t csr_addr[QM_NSM], csr_wdata[QM_NSM], rd_addr[QM_NSM];
    uint32_t lk_s, lk_k;
    uint32_t rq_v, rq_k, rq_sm, rq_ret;
    uint32_t rq_give[QM_KN];
} qm_out_t;

void qm_reset(qos_mgr_t *q);
/* Host register read (m_raddr -> m_rdata). */
uint32_t qm_read(const qos_mgr_t *q, uint32_t addr);
/* Every output except m_rdata: a function of the state only (Moore). gpu_top evaluates the
 * manager first, then the driver's lookup port and the SMs' rd_data from these outputs. */
void qm_outputs(const qos_mgr_t *q, qm_out_t *out);
/* qm_outputs plus m_rdata = qm_read(m_raddr). No state change. */
void qm_eval(const qos_mgr_t *q, const qm_in_t *in, qm_out_t *out);
/* Clock edge: every input (lk_*, rd_data, rq_*, kl_*, kdone_*, m_*) is sampled here. */
void qm_commit(qos_mgr_t *q, const qm_in_t *in, const qm_out_t *out);

/* ---- pure functions of the spec, exported for unit tests */
uint32_t qm_mul(uint64_t a, uint64_t b, int sh);    /* MUL(a, b, sh), operands saturated to 32 bits */
uint32_t qm_div(uint64_t a, uint64_t b, int qbits); /* DIV(A, B, q) */
uint32_t qm_lc(uint32_t cur_mode);                  /* LC_QOS or LC_SMK */
/* `need[k]` of section 8 with the current registers */
int qm_need(const qos_mgr_t *q, int k);

#ifdef __cplusplus
}
#endif
#endif
