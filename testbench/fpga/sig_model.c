/* sig_model.c: the C model's prediction of `make fpga-sig`'s signature (docs/fpga.md "Bitstream and
 * signature"). It runs the wrapper of scripts/fpga_sig.sh (sig_top.v) in C around a unit's C model
 * stepped cycle by cycle: the same 32-bit Galois LFSR (x^32 + x^22 + x^2 + x + 1, seed 1) shifting
 * its low bit into the NI-bit input register whose bits drive the unit's input ports in port order,
 * the same reset sequence (the testbench's rst for 3 cycles, then the unit's reset for 4 more), the
 * same fold of the unit's output bits into the 32-bit signature register and the same serial read-out
 * through the pin sig_out once the signature is frozen after CYCLES cycles. Prints
 *   signature XXXXXXXX after N cycles
 * as the testbench of the simulated netlists does (scripts/fpga_sig.sh compares the lines).
 *
 *   sig_model UNIT CYCLES     the signature
 *   sig_model UNIT --ports    the unit's ports as the C model drives them: "in|out NAME WIDTH" in port
 *                             order (the script compares them with the RTL's ports, Yosys's order)
 *
 * Built per configuration (smk_cfg.h) against libsmk.a. Deterministic; no allocation per cycle. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preempt_engine.h"
#include "quota_unit.h"
#include "sm_top.h"
#include "warp_sched.h"

/* ---- a unit's ports: a field of its C input or output struct (uint8_t, uint32_t or uint64_t), its
 * `ew` low bits; or an array of n such fields, element i at bits [i*ew +: ew] of the port (the RTL's
 * packed vectors) */
enum { IN = 0, OUT = 1 };
typedef struct {
    const char *name;
    int dir;
    uint32_t n, ew;
    size_t off, size;
} port_t;

typedef struct {
    const char *name;
    const port_t *ports;
    size_t nports, state_size, in_size, out_size;
    void (*reset)(void *st);
    void (*eval)(const void *st, const void *in, void *out);
    void (*commit)(void *st, const void *in, const void *out);
} unit_t;

/* a unit's reset, eval and commit behind the untyped signatures of unit_t */
#define UNIT_FNS(p)                                                                                          \
    static void p##_reset_v(void *st) { p##_reset(st); }                                                  \
    static void p##_eval_v(const void *st, const void *in, void *out) { p##_eval(st, in, out); }           \
    static void p##_commit_v(void *st, const void *in, const void *out) { p##_commit(st, in, out); }
/* the table entry of unit NAME: its port table P, state, input and output types, functions of prefix p */
#define UNIT(name, P, st_t, in_t, out_t, p)                                                                  \
    {name, P, sizeof P / sizeof P[0], sizeof(st_t), sizeof(in_t), sizeof(out_t), p##_reset_v, p##_eval_v, p##_commit_v}

/* ---- preempt_engine (rtl/preempt_engine.v's port order) */
#define PI(f, w) {#f, IN, 1, (w), offsetof(pe_in_t, f), sizeof(((pe_in_t *)0)->f)}
#define PO(f, w) {#f, OUT, 1, (w), offsetof(pe_out_t, f), sizeof(((pe_out_t *)0)->f)}
static const port_t PE_PORTS[] = {
    PI(cmd_v, 1),
    PI(cmd_op, 2),
    PI(cmd_tb, SMK_TBS_W),
    PI(cmd_ptr, SMK_CTX_PTR_W),
    PI(cmd_idem, 1),
    PO(cmd_full, 1),
    PO(rsp_v, 1),
    PO(rsp_op, 2),
    PO(rsp_tb, SMK_TBS_W),
    PO(rsp_status, 3),
    PO(rsp_ptr, SMK_CTX_PTR_W),
    PO(free_v, 1),
    PO(free_tb, SMK_TBS_W),
    PO(launch_v, 1),
    PO(launch_tb, SMK_TBS_W),
    PO(stop, SMK_WARPS),
    PO(draining, SMK_TB_SLOTS),
    PI(tb_run, SMK_TB_SLOTS),
    PI(tb_alloc, SMK_TB_SLOTS),
    PI(tb_idle, SMK_TB_SLOTS),
    PI(tb_done, SMK_TB_SLOTS),
    PO(lk_tb, SMK_TBS_W),
    PI(lk_mask, SMK_WARPS),
    PI(lk_nreg, SMK_REGN_W),
    PI(lk_smem, SMK_SMLN_W),
    PI(cap, SMK_PE_OUT_W),
    PO(mem_req_v, 1),
    PO(mem_req_we, 1),
    PO(mem_req_addr, SMK_CTX_PTR_W),
    PO(mem_req_tag, SMK_CTX_TAG_W),
    PI(mem_req_rdy, 1),
    PI(mem_rsp_v, 1),
    PI(mem_rsp_tag, SMK_CTX_TAG_W),
    PO(st_re, 1),
    PO(st_we, 1),
    PO(st_tb, SMK_TBS_W),
    PO(st_kind, 2),
    PO(st_wid, SMK_WID_W),
    PO(st_idx, SMK_CTX_IDX_W),
};
UNIT_FNS(pe)

/* ---- warp_sched (rtl/warp_sched.v's port order) */
#define WI(f, w) {#f, IN, 1, (w), offsetof(ws_in_t, f), sizeof(((ws_in_t *)0)->f)}
#define WO(f, w) {#f, OUT, 1, (w), offsetof(ws_out_t, f), sizeof(((ws_out_t *)0)->f)}
#define WA(f, n, w) {#f, OUT, (n), (w), offsetof(ws_out_t, f), sizeof(((ws_out_t *)0)->f[0])}
static const port_t WS_PORTS[] = {
    WI(policy, 1),
    WI(launch_v, 1),
    WI(launch_mask, SMK_WARPS),
    WI(launch_ks, SMK_KS_W),
    WI(finish_mask, SMK_WARPS),
    WI(ready, SMK_WARPS),
    WI(stop, SMK_WARPS),
    WI(pblk, SMK_WARPS),
    WI(qallow, SMK_KSLOTS),
    WO(iss_v, SMK_SCHED),
    WA(iss_wid, SMK_SCHED, SMK_WID_W),
    WA(iss_ks, SMK_SCHED, SMK_KS_W),
    WA(idle_cnt, SMK_KSLOTS, SMK_WCNT_W),
    WA(held_cnt, SMK_KSLOTS, SMK_WCNT_W),
    WO(ks_active, SMK_KSLOTS),
    WO(wvalid, SMK_WARPS),
};
UNIT_FNS(ws)

/* ---- quota_unit (rtl/quota_unit.v's port order) */
#define QI(f, w) {#f, IN, 1, (w), offsetof(qu_in_t, f), sizeof(((qu_in_t *)0)->f)}
#define QA(f, n, w) {#f, IN, (n), (w), offsetof(qu_in_t, f), sizeof(((qu_in_t *)0)->f[0])}
#define QO(f, w) {#f, OUT, 1, (w), offsetof(qu_out_t, f), sizeof(((qu_out_t *)0)->f)}
static const port_t QU_PORTS[] = {
    QI(csr_we, 1),
    QI(csr_addr, SMK_ADDR_W),
    QI(csr_wdata, SMK_DATA_W),
    QI(rd_addr, SMK_ADDR_W),
    QO(rd_data, SMK_DATA_W),
    QI(iss_v, SMK_SCHED),
    QA(iss_ks, SMK_SCHED, SMK_KS_W),
    QI(cp_v, SMK_CP),
    QA(cp_ks, SMK_CP, SMK_KS_W),
    QA(cp_act, SMK_CP, SMK_ACT_W),
    QA(idle_cnt, SMK_KSLOTS, SMK_WCNT_W),
    QI(ks_active, SMK_KSLOTS),
    QO(qallow, SMK_KSLOTS),
    QO(policy, 1),
    QO(epoch_end, 1),
};
UNIT_FNS(qu)

/* ---- sm_top (rtl/sm_top.v's port order; the outputs of its blocks are in sm_out_t's wo, qo, po) */
#define SI(f, w) {#f, IN, 1, (w), offsetof(sm_in_t, f), sizeof(((sm_in_t *)0)->f)}
#define SA(f, n, w) {#f, IN, (n), (w), offsetof(sm_in_t, f), sizeof(((sm_in_t *)0)->f[0])}
#define SO(nm, f, w) {nm, OUT, 1, (w), offsetof(sm_out_t, f), sizeof(((sm_out_t *)0)->f)}
#define SOA(nm, f, n, w) {nm, OUT, (n), (w), offsetof(sm_out_t, f), sizeof(((sm_out_t *)0)->f[0])}
static const port_t SM_PORTS[] = {
    SI(set_v, 1),
    SI(set_tb, SMK_TBS_W),
    SI(set_mask, SMK_WARPS),
    SI(set_ks, SMK_KS_W),
    SI(set_nreg, SMK_REGN_W),
    SI(set_smem, SMK_SMLN_W),
    SI(set_go, 1),
    SO("set_rej", set_rej, 1),
    SI(cmd_v, 1),
    SI(cmd_op, 2),
    SI(cmd_tb, SMK_TBS_W),
    SI(cmd_ptr, SMK_CTX_PTR_W),
    SI(cmd_idem, 1),
    SI(cap, SMK_PE_OUT_W),
    SO("cmd_full", po.cmd_full, 1),
    SO("rsp_v", po.rsp_v, 1),
    SO("rsp_op", po.rsp_op, 2),
    SO("rsp_tb", po.rsp_tb, SMK_TBS_W),
    SO("rsp_status", po.rsp_status, 3),
    SO("rsp_ptr", po.rsp_ptr, SMK_CTX_PTR_W),
    SO("free_v", po.free_v, 1),
    SO("free_tb", po.free_tb, SMK_TBS_W),
    SO("launch_v", po.launch_v, 1),
    SO("launch_tb", po.launch_tb, SMK_TBS_W),
    SO("draining", po.draining, SMK_TB_SLOTS),
    SO("tb_alloc", tb_alloc, SMK_TB_SLOTS),
    SO("tb_run", tb_run, SMK_TB_SLOTS),
    SO("tb_done", tb_done, SMK_TB_SLOTS),
    SO("wused", wused, SMK_WARPS),
    SI(ready, SMK_WARPS),
    SI(pblk, SMK_WARPS),
    SI(wbusy, SMK_WARPS),
    SI(wexit, SMK_WARPS),
    SI(cp_v, SMK_CP),
    SA(cp_ks, SMK_CP, SMK_KS_W),
    SA(cp_act, SMK_CP, SMK_ACT_W),
    SI(csr_we, 1),
    SI(csr_addr, SMK_ADDR_W),
    SI(csr_wdata, SMK_DATA_W),
    SI(rd_addr, SMK_ADDR_W),
    SO("iss_v", wo.iss_v, SMK_SCHED),
    SOA("iss_wid", wo.iss_wid, SMK_SCHED, SMK_WID_W),
    SOA("iss_ks", wo.iss_ks, SMK_SCHED, SMK_KS_W),
    SOA("idle_cnt", wo.idle_cnt, SMK_KSLOTS, SMK_WCNT_W),
    SOA("held_cnt", wo.held_cnt, SMK_KSLOTS, SMK_WCNT_W),
    SO("ks_active", wo.ks_active, SMK_KSLOTS),
    SO("wvalid", wo.wvalid, SMK_WARPS),
    SO("stop", po.stop, SMK_WARPS),
    SO("qallow", qo.qallow, SMK_KSLOTS),
    SO("policy", qo.policy, 1),
    SO("epoch_end", qo.epoch_end, 1),
    SO("rd_data", qo.rd_data, SMK_DATA_W),
    SO("mem_req_v", po.mem_req_v, 1),
    SO("mem_req_we", po.mem_req_we, 1),
    SO("mem_req_addr", po.mem_req_addr, SMK_CTX_PTR_W),
    SO("mem_req_tag", po.mem_req_tag, SMK_CTX_TAG_W),
    SI(mem_req_rdy, 1),
    SI(mem_rsp_v, 1),
    SI(mem_rsp_tag, SMK_CTX_TAG_W),
    SO("st_re", po.st_re, 1),
    SO("st_we", po.st_we, 1),
    SO("st_tb", po.st_tb, SMK_TBS_W),
    SO("st_kind", po.st_kind, 2),
    SO("st_wid", po.st_wid, SMK_WID_W),
    SO("st_idx", po.st_idx, SMK_CTX_IDX_W),
};
UNIT_FNS(sm)

static const unit_t UNITS[] = {
    UNIT("warp_sched", WS_PORTS, warp_sched_t, ws_in_t, ws_out_t, ws),
    UNIT("preempt_engine", PE_PORTS, preempt_engine_t, pe_in_t, pe_out_t, pe),
    UNIT("quota_unit", QU_PORTS, quota_unit_t, qu_in_t, qu_out_t, qu),
    UNIT("sm_top", SM_PORTS, sm_top_t, sm_in_t, sm_out_t, sm),
};

/* ---- bit vectors of the wrapper (NI input bits, NO output bits) */
#define MAXW 64 /* 64-bit words: 4096 bits */
typedef struct {
    uint64_t w[MAXW];
} bits_t;

/* element i of port p in the struct at base */
static uint64_t field_get(const void *base, const port_t *p, uint32_t i)
{
    const char *a = (const char *)base + p->off + i * p->size;
    uint8_t b;
    uint16_t h;
    uint32_t x;
    uint64_t v;
    switch (p->size) {
    case 1: memcpy(&b, a, 1); return b;
    case 2: memcpy(&h, a, 2); return h;
    case 4: memcpy(&x, a, 4); return x;
    default: memcpy(&v, a, 8); return v;
    }
}

static void field_set(void *base, const port_t *p, uint32_t i, uint64_t v)
{
    char *a = (char *)base + p->off + i * p->size;
    const uint8_t b = (uint8_t)v;
    const uint16_t h = (uint16_t)v;
    const uint32_t x = (uint32_t)v;
    switch (p->size) {
    case 1: memcpy(a, &b, 1); break;
    case 2: memcpy(a, &h, 2); break;
    case 4: memcpy(a, &x, 4); break;
    default: memcpy(a, &v, 8); break;
    }
}

static uint64_t bits_get(const bits_t *b, uint32_t pos, uint32_t w)
{
    uint64_t v = 0;
    for (uint32_t i = 0; i < w; i++)
        v |= ((b->w[(pos + i) / 64] >> ((pos + i) % 64)) & 1) << i;
    return v;
}

static void bits_put(bits_t *b, uint32_t pos, uint32_t w, uint64_t v)
{
    for (uint32_t i = 0; i < w; i++)
        if ((v >> i) & 1)
            b->w[(pos + i) / 64] |= 1ULL << ((pos + i) % 64);
}

/* si <= {si[NI-2:0], bit} */
static void bits_shift_in(bits_t *b, uint32_t n, uint32_t bit)
{
    const uint32_t nw = (n + 63) / 64;
    for (uint32_t i = nw; i-- > 0;)
        b->w[i] = (b->w[i] << 1) | (i ? b->w[i - 1] >> 63 : bit);
    if (n % 64)
        b->w[nw - 1] &= (1ULL << (n % 64)) - 1;
}

static uint32_t width_sum(const unit_t *u, int dir)
{
    uint32_t n = 0;
    for (size_t i = 0; i < u->nports; i++)
        if (u->ports[i].dir == dir)
            n += u->ports[i].n * u->ports[i].ew;
    return n;
}

/* the wrapper's registers (sig_top.v) and the unit's state */
typedef struct {
    uint32_t lfsr, sig, n, hold, done;
    bits_t si;
    void *st, *in, *out;
} wrap_t;

static void wrap_reset(wrap_t *w, const unit_t *u)
{
    w->lfsr = 1, w->sig = 0, w->n = 0, w->hold = 0, w->done = 0;
    memset(&w->si, 0, sizeof w->si);
    u->reset(w->st);
}

/* one clock edge with the pin rst = 0 */
static void wrap_edge(wrap_t *w, const unit_t *u, uint32_t ni, uint32_t cycles)
{
    /* the unit's inputs: the bits of si in port order */
    memset(w->in, 0, u->in_size);
    uint32_t pos = 0;
    for (size_t i = 0; i < u->nports; i++) {
        const port_t *p = &u->ports[i];
        for (uint32_t e = 0; p->dir == IN && e < p->n; e++)
            field_set(w->in, p, e, bits_get(&w->si, pos, p->ew)), pos += p->ew;
    }
    u->eval(w->st, w->in, w->out);
    /* the fold of its outputs: uo in port order, XORed 32 bits at a time */
    bits_t uo;
    memset(&uo, 0, sizeof uo);
    pos = 0;
    for (size_t i = 0; i < u->nports; i++) {
        const port_t *p = &u->ports[i];
        for (uint32_t e = 0; p->dir == OUT && e < p->n; e++)
            bits_put(&uo, pos, p->ew, field_get(w->out, p, e) & SMK_MASK(p->ew)), pos += p->ew;
    }
    uint32_t fold = 0;
    for (uint32_t i = 0; i < (pos + 31) / 32; i++)
        fold ^= (uint32_t)bits_get(&uo, 32 * i, 32);

    /* the clock edge: the unit (reset while hold != 4), then the wrapper */
    if (w->hold != 4)
        u->reset(w->st);
    else
        u->commit(w->st, w->in, w->out);
    const uint32_t l0 = w->lfsr & 1;
    bits_shift_in(&w->si, ni, l0);
    w->lfsr = l0 ? (w->lfsr >> 1) ^ 0x80200003u : w->lfsr >> 1;
    if (w->hold != 4)
        w->hold++;
    if (w->n == cycles) {
        if (w->done)
            w->sig = (w->sig >> 1) | (w->sig << 31);
        w->done = 1;
    } else {
        w->n++;
        w->sig = ((w->sig << 1) | (w->sig >> 31)) ^ fold;
    }
}

int main(int argc, char **argv)
{
    const unit_t *u = NULL;
    if (argc == 3)
        for (size_t i = 0; i < sizeof UNITS / sizeof UNITS[0]; i++)
            if (strcmp(argv[1], UNITS[i].name) == 0)
                u = &UNITS[i];
    if (!u) {
        fprintf(stderr, "usage: sig_model UNIT CYCLES | sig_model UNIT --ports   (UNIT: preempt_engine, quota_unit, sm_top, warp_sched)\n");
        return 2;
    }
    if (strcmp(argv[2], "--ports") == 0) {
        for (size_t i = 0; i < u->nports; i++)
            printf("%s %s %u\n", u->ports[i].dir == IN ? "in" : "out", u->ports[i].name, u->ports[i].n * u->ports[i].ew);
        return 0;
    }
    char *end;
    const unsigned long cycles = strtoul(argv[2], &end, 10);
    if (*end || cycles == 0 || cycles > 0x7fffffffUL) {
        fprintf(stderr, "sig_model: CYCLES must be 1..2^31-1\n");
        return 2;
    }
    for (size_t i = 0; i < u->nports; i++)
        if ((u->ports[i].size != 1 && u->ports[i].size != 2 && u->ports[i].size != 4 && u->ports[i].size != 8) ||
            u->ports[i].ew > 8 * u->ports[i].size) {
            fprintf(stderr, "sig_model: %s.%s: a %zu-byte field cannot hold %u bits\n", u->name, u->ports[i].name,
                    u->ports[i].size, u->ports[i].ew);
            return 2;
        }
    const uint32_t ni = width_sum(u, IN), no = width_sum(u, OUT);
    if (ni > 64 * MAXW || no > 64 * MAXW || ni < 2) {
        fprintf(stderr, "sig_model: %s has %u input and %u output bits (2..%d supported)\n", u->name, ni, no, 64 * MAXW);
        return 2;
    }
    wrap_t w = {.st = calloc(1, u->state_size), .in = calloc(1, u->in_size), .out = calloc(1, u->out_size)};
    if (!w.st || !w.in || !w.out) {
        fprintf(stderr, "sig_model: out of memory\n");
        return 2;
    }
    /* the testbench: rst for 3 cycles (every register of the wrapper and the unit reset), then count
     * the cycles to done and read the 32 bits out through sig_out (sig[0], one bit a cycle) */
    wrap_reset(&w, u);
    uint32_t i = 0;
    while (!w.done && i < (uint32_t)cycles + 8)
        wrap_edge(&w, u, ni, (uint32_t)cycles), i++;
    if (!w.done) {
        printf("not done\n");
        return 1;
    }
    uint32_t s = 0;
    for (uint32_t b = 0; b < 32; b++) {
        s |= (w.sig & 1) << b;
        wrap_edge(&w, u, ni, (uint32_t)cycles);
    }
    printf("signature %08x after %u cycles\n", s, i);
    return 0;
}
