/* quota_unit.h: C reference model of the per-SM quota unit (spec: docs/quota_unit.md). */
#ifndef QUOTA_UNIT_H
#define QUOTA_UNIT_H
#include "smk_util.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    /* registers */
    uint32_t sm_ctrl, epoch_len, sample_per, qos_mask;
    uint32_t quota[SMK_KSLOTS]; /* QUOTA_W-1 bits, unsigned */
    /* counters and timers */
    int32_t cnt[SMK_KSLOTS]; /* QUOTA_W bits, two's complement */
    uint32_t ecnt, scnt, epochs, ep_cycles, ep_samples, nsamp;
    uint32_t thr[SMK_KSLOTS], wis[SMK_KSLOTS], idle[SMK_KSLOTS], cyc[SMK_KSLOTS];
    uint32_t s_thr[SMK_KSLOTS], s_wis[SMK_KSLOTS], s_idle[SMK_KSLOTS], s_cyc[SMK_KSLOTS];
} quota_unit_t;

typedef struct {
    uint32_t csr_we, csr_addr, csr_wdata, rd_addr;
    uint32_t iss_v; /* bit s */
    uint8_t iss_ks[SMK_SCHED];
    uint32_t cp_v; /* bit p */
    uint8_t cp_ks[SMK_CP], cp_act[SMK_CP];
    uint8_t idle_cnt[SMK_KSLOTS];
    uint32_t ks_active; /* bit k */
} qu_in_t;

typedef struct {
    uint32_t rd_data, qallow, policy, epoch_end;
    /* not ports: this cycle's `timed` and `exhausted` (docs/quota_unit.md), kept for qu_commit */
    uint32_t timed, exhausted;
} qu_out_t;

void qu_reset(quota_unit_t *q);
/* Register read (the rd_data function of docs/quota_unit.md). */
uint32_t qu_read(const quota_unit_t *q, uint32_t addr);
/* qallow and policy depend on state only (no input): warp_sched reads them before qu_eval. */
uint32_t qu_qallow(const quota_unit_t *q);
uint32_t qu_policy(const quota_unit_t *q);
void qu_eval(const quota_unit_t *q, const qu_in_t *in, qu_out_t *out);
void qu_commit(quota_unit_t *q, const qu_in_t *in, const qu_out_t *out);

#ifdef __cplusplus
}
#endif
#endif
