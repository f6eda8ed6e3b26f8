/* pe_env.h: the preemption engine as the engine cosim sees it: the C model (one preempt_engine),
 * its environment (a random SM-side model of the TB slots with storage, a random driver, a memory
 * model), the observation vector compared against the RTL every cycle, and the monitors of
 * docs/preempt_engine.md "Testbench invariants", which look only at the engine's ports.
 *
 * Storage and memory hold 64-bit line signatures instead of full LB-byte lines: every line of every
 * TB identity gets hash(tb_id, kind, j, index, generation), unique per write, so a signature
 * mismatch is exactly as visible as a mismatch of the line's bytes. */
#ifndef PE_ENV_H
#define PE_ENV_H
#include "cosim_env.h"
#include "preempt_engine.h"
#include "rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- composed model (just the engine) */
typedef struct {
    uint32_t rst;
    pe_in_t in;
} pe_stim_t;

typedef struct {
    preempt_engine_t pe;
    pe_out_t o;
} pe_model_t;

void pe_model_reset(pe_model_t *m);
void pe_model_eval(pe_model_t *m, const pe_stim_t *st); /* fills m->o */
void pe_model_commit(pe_model_t *m, const pe_stim_t *st);

/* ---- observation vector: every output and every state element (docs "State") */
#define PE_OBS(X)                                                                                   \
    X(cmd_full, 1) X(rsp_v, 1) X(rsp_op, 1) X(rsp_tb, 1) X(rsp_status, 1) X(rsp_ptr, 1)             \
    X(free_v, 1) X(free_tb, 1) X(launch_v, 1) X(launch_tb, 1) X(stop, 1) X(draining, 1)            \
    X(lk_tb, 1) X(mem_req_v, 1) X(mem_req_we, 1) X(mem_req_addr, 1) X(mem_req_tag, 1) X(st_re, 1)  \
    X(st_we, 1) X(st_tb, 1) X(st_kind, 1) X(st_wid, 1) X(st_idx, 1)                                 \
    X(fsm, 1) X(q_op, SMK_PE_QDEPTH) X(q_tb, SMK_PE_QDEPTH) X(q_ptr, SMK_PE_QDEPTH)                 \
    X(q_idem, SMK_PE_QDEPTH) X(q_head, 1) X(q_cnt, 1) X(cur_op, 1) X(cur_tb, 1) X(cur_st, 1)        \
    X(cur_ptr, 1) X(tmask, 1) X(nreg, 1) X(nsml, 1) X(klim, 1) X(ph, 1) X(wrem, 1) X(idx, 1)        \
    X(addr, 1) X(out, 1) X(drain, 1) X(dpend, 1)
#define PE_OBS_ENUM(nm, n) PO_##nm, PO_##nm##_end = PO_##nm + (n)-1,
enum { PE_OBS(PE_OBS_ENUM) PO_N };
#undef PE_OBS_ENUM
#define PO_FIRST_STATE PO_fsm
typedef struct { uint64_t v[PO_N]; } pe_obs_t;

void pe_obs_from_model(const pe_model_t *m, pe_obs_t *o);
extern const obs_table_t pe_obs_table; /* names and widths of PE_OBS, for obs_diff */

/* ---- environment */
#define PE_NBLK 96     /* context blocks of SMK_CTX_MAX_LINES lines the driver hands out */
#define PE_MEMQ 128    /* memory model: outstanding requests (>= OMAX) */
#define PE_INFL 8      /* SM model: in-flight instructions per TB */
#define PE_IDS 4096    /* TB identities per ledger epoch (between resets) */

enum { SL_EMPTY = 0, SL_ALLOC = 1, SL_RUN = 2 };
enum { LG_NONE = 0, LG_RUNNING, LG_SAVED, LG_FINISHED, LG_DROPPED };

typedef struct {
    uint8_t st;              /* SL_* */
    wmask_t mask;
    uint32_t nraw, mraw;     /* lk_nreg / lk_smem as driven (may exceed RMAX / MMAX) */
    uint32_t id;             /* ledger identity (RUN; ALLOC: identity of the context reserved) */
    int blk;                 /* ALLOC: the context block reserved for its RESTORE */
    uint8_t ninfl;           /* in-flight instructions: due cycle and the line they write */
    uint64_t infl_due[PE_INFL];
    uint32_t infl_line[PE_INFL];
} pe_slot_t;

typedef struct {
    uint32_t tag, we;
    uint64_t addr, due;
} pe_mreq_t;

typedef struct {
    uint8_t op, tb, idem;
    uint64_t ptr, cyc;
} pe_cmd_t;

typedef struct {
    uint8_t state;           /* LG_* */
    uint32_t gen;            /* generation of the identity's last line write */
    int blk;                 /* LG_SAVED: its context */
    uint32_t n, nraw, mraw;  /* shape (for restore) */
} pe_tbid_t;

typedef struct {
    uint8_t used, saved;     /* allocated to a SAVE; holds a saved context */
    uint32_t id, L, n, nraw, mraw;
    int reserved;            /* ALLOC slot that will restore it, or -1 */
} pe_blk_t;

typedef struct {
    rng_t r;
    uint64_t cycle, seed;
    int allow_reset;
    /* phase knobs */
    uint64_t phase_end;
    uint32_t p_cmd, p_launch, p_alloc, p_done, p_issue, infl_max, p_illegal, ignore_full, p_rst;
    uint32_t lat_kind, lat_fix, lat_max, rdy_kind, rdy_b, rdy_p, small_shapes, cap_kind, hold;
    uint32_t p_stray;        /* stray memory responses with nothing outstanding (defined: ignored) */
    uint32_t full_run;       /* consecutive cycles offering to a full queue (liveness, contract 6) */
    uint32_t rdy_gap;        /* consecutive not-ready cycles */
    uint64_t last_acc;
    /* SM model: slots, storage (line signatures) */
    pe_slot_t sl[SMK_TB_SLOTS];
    wmask_t wbusy;
    uint64_t ctl[SMK_WARPS][SMK_CTL_LINES];
    uint64_t reg[SMK_WARPS][SMK_MAX_REGS];
    uint64_t smem[SMK_TB_SLOTS][SMK_SMEM_LINES];
    /* memory model */
    uint64_t blk_off;        /* address of block 0 (blocks may wrap at 2^PW) */
    pe_blk_t blk[PE_NBLK];
    uint64_t mem[PE_NBLK][SMK_CTX_MAX_LINES];
    uint8_t mem_ok[PE_NBLK][SMK_CTX_MAX_LINES];
    uint64_t snap[PE_NBLK][SMK_CTX_MAX_LINES];
    int nmq;
    pe_mreq_t mq[PE_MEMQ];
    /* ledger */
    uint32_t nid;
    pe_tbid_t id[PE_IDS];
    /* monitor: shadow queue and current command, drain flags */
    int qn;
    pe_cmd_t q[SMK_PE_QDEPTH];
    int cur_v;               /* an FSM command (popped, not a DRAIN-OK) awaits its response */
    pe_cmd_t cur;
    uint32_t cur_s;          /* status predicted at the pop */
    uint32_t cur_id, cur_n, cur_R, cur_M, cur_L, cur_k;
    wmask_t cur_mask;
    uint64_t cur_pop, cur_due, cur_deadline, cur_fin_at;
    int cur_idle_at_set;
    uint64_t cur_idle_at;    /* SAVE/DROP: first STOP cycle with tb_idle */
    uint32_t cur_nacc, cur_nrsp, cur_out; /* lines accepted, answered; outstanding (memory's count) */
    uint8_t cur_wr[SMK_CTX_MAX_LINES]; /* RESTORE: storage writes per line */
    uint64_t last_fsm_rsp;
    int pend_req; pe_out_t prev_o; /* last cycle's request not accepted: must stay stable */
    tmask_t sh_drain, sh_dpend;
    /* this cycle, from pe_env_check to pe_env_commit */
    int rsp_pick, chk_rej, chk_fsm, chk_drn;
    tmask_t set_d;
    /* ledger counts (between resets) */
    uint64_t lg_cnt[5], lg_created, lg_finished;
    /* statistics */
    uint64_t n_stray, n_cmd, n_rsp[8][8], n_qfull, n_lines, n_rt, n_resets, n_fin_stop, n_tbdone;
    /* directed contract break (docs/preempt_engine.md "Environment contract": a slot that vanishes during
     * STOP ends the command with FIN): one SAVE / DROP in 16 loses its TB in its first STOP cycle, tb_run
     * falling without tb_done; van_c is that cycle (0: none pending) */
    uint64_t van_cmds, van_c, n_van;
} pe_env_t;

void pe_env_init(pe_env_t *e, uint64_t seed, int allow_reset);
/* This cycle's inputs. `pe` is the C model's state (lk_tb is a function of state only). */
void pe_env_gen(pe_env_t *e, const preempt_engine_t *pe, pe_stim_t *st);
/* Monitors on this cycle's outputs (after eval). Returns the number of violations, printing each. */
int pe_env_check(pe_env_t *e, const pe_stim_t *st, const pe_out_t *o);
/* Clock edge of the environment (SM model, memory, storage, ledger), from this cycle's outputs.
 * Returns violations found at the edge (round trip, ledger). */
int pe_env_commit(pe_env_t *e, const pe_stim_t *st, const pe_out_t *o);
/* End of run: ledger conservation. */
int pe_env_final(pe_env_t *e);
void pe_env_summary(const pe_env_t *e);

#ifdef __cplusplus
}
#endif
#endif
