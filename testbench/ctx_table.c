/* ctx_table.c: save and restore time of one TB, in cycles, for the ten Parboil-like shapes
 * (docs/papers.md section 6), by the formula of docs/preempt_engine.md ("Timelines and exact cycle
 * counts") and by running the C model (cmodel/preempt_engine.c) cycle by cycle with a fixed-latency
 * memory that accepts at most one line per B cycles. Prints a Markdown table (docs/ctx_table.md,
 * `make ctx-table`); exits 1 naming the shape if the formula and the model ever disagree.
 *
 * Built per configuration (includes smk_cfg.h, links libsmk.a). Shapes that do not fit the
 * configuration (n > SMK_WARPS, R > SMK_MAX_REGS or M > SMK_SMEM_LINES) are listed but not timed:
 * the engine would clamp them and the row would no longer be the kernel's. D = 0 (the TB is idle from
 * the first STOP cycle), cap = 0, C = SMK_CTL_LINES. Integer arithmetic only; deterministic. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preempt_engine.h"

/* ---- the shapes ----------------------------------------------------------------------------------
 * published: C-QoS Table 1 (docs/papers.md section 6), threads, regs/thread, smem B per TB.
 * derived:   registers and shared memory from the SMK thesis Table 2-2 (GTX980 occupancy %, listed in
 *            docs/papers.md section 6: 65536 regs, 2048 threads, 96 KB smem per SM), with the block
 *            size assumed; the resulting TBs/SM reproduces all three percentages.
 * assumed:   not given by the papers; a plausible shape, stated as such.
 *
 * kernel        threads regs smem B origin     reason
 * cutcp           128    25   4124  published  C-QoS Table 1 (thesis 2-2 lattice6overlap agrees: 16 TBs, 67.1% smem)
 * mri-q           256    27      0  published  C-QoS Table 1, second kernel (ComputeQ, 128 TBs); first is 512 thr, 12 regs
 * sgemm           128    44    512  derived    thesis 2-2 mysgemmNT: 11 TBs of 128 thr -> 68.8% thr, 94.5% regs, 5.7% smem
 * tpacf           256    28  13312  derived    thesis 2-2 genhists: 7 TBs of 256 thr -> 87.5% thr, 76.6% regs, 94.8% smem
 * histo           768    21  24576  published  C-QoS Table 1, third of four kernels (the 768-thread one, largest smem)
 * lbm             120    54      0  published  C-QoS Table 1 (thesis 2-2 StreamCollide: 9 TBs, 52.7% thr)
 * mri-gridding    256    32      0  assumed    not in the papers: a 256-thread TB, 32 regs, no smem
 * sad             128    32   4096  assumed    not in the papers: a 128-thread TB, 32 regs, 4 KB smem
 * spmv            192    16      0  published  C-QoS Table 1 (thesis 2-2 spmvjds: 10 TBs, 93.8% thr, 46.9% regs)
 * stencil         128    24      0  derived    thesis 2-2 block2Dregtiling: 16 TBs of 128 thr (block assumed) -> 100% thr, 75% regs, 0 smem
 */
typedef struct {
    const char *name;
    uint32_t threads, regs, smem; /* per TB: threads, registers per thread, shared-memory bytes */
    const char *origin;
} shape_t;

static const shape_t SHAPES[] = {
    {"cutcp", 128, 25, 4124, "published"},   {"mri-q", 256, 27, 0, "published"},
    {"sgemm", 128, 44, 512, "derived"},      {"tpacf", 256, 28, 13312, "derived"},
    {"histo", 768, 21, 24576, "published"},  {"lbm", 120, 54, 0, "published"},
    {"mri-gridding", 256, 32, 0, "assumed"}, {"sad", 128, 32, 4096, "assumed"},
    {"spmv", 192, 16, 0, "published"},       {"stencil", 128, 24, 0, "derived"},
};
#define NSHAPES (sizeof SHAPES / sizeof SHAPES[0])

static const uint32_t LAMS[2] = {100, 400}; /* memory latency, cycles */
static const uint32_t BWS[2] = {1, 12};     /* cycles per accepted line */

#define SLOT 1u
#define PTR 0x100u
#define MAXCYC 10000000L

/* ---- the formula -------------------------------------------------------------------------------- */
static uint64_t fmax64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static uint64_t fmin64(uint64_t a, uint64_t b) { return a < b ? a : b; }

static uint64_t formula_F(uint64_t n, uint64_t L, uint64_t lam, uint64_t B)
{
    const uint64_t k = fmin64(fmax64(n, 1), SMK_PE_OMAX); /* cap = 0 */
    const uint64_t P = fmax64(k * B, lam + 1);
    return (L - 1) / k * P + (L - 1) % k * B;
}

/* ---- the C model with a fixed-latency memory ------------------------------------------------------
 * Returns the response cycle counted from the command's arrival (cycle 0), or -1 with *why set. */
typedef struct {
    uint32_t due, tag;
} pend_t;

static long run_model(uint32_t op, wmask_t mask, uint32_t R, uint32_t M, uint32_t lam, uint32_t B,
                      long *nreq, const char **why)
{
    static preempt_engine_t pe;
    pe_in_t in;
    pe_out_t o;
    pend_t pend[2 * SMK_PE_OMAX + 2];
    int npend = 0;
    long last_acc = -1000000;
    memset(&in, 0, sizeof in);
    pe_reset(&pe);
    in.tb_idle = ~(tmask_t)0; /* idle from the first STOP cycle: D = 0 */
    if (op == SMK_PE_OP_SAVE)
        in.tb_run = 1ULL << SLOT;
    else
        in.tb_alloc = 1ULL << SLOT;
    *nreq = 0;
    for (long cyc = 0; cyc < MAXCYC; cyc++) {
        if (cyc == 0) {
            in.cmd_v = 1, in.cmd_op = op, in.cmd_tb = SLOT, in.cmd_ptr = PTR, in.cmd_idem = 0;
        } else {
            in.cmd_v = 0, in.cmd_op = 0, in.cmd_tb = 0, in.cmd_ptr = 0, in.cmd_idem = 0;
        }
        /* lookup port: only slot SLOT has a shape */
        const uint32_t lk = pe_lk_tb(&pe);
        in.lk_mask = lk == SLOT ? mask : 0, in.lk_nreg = lk == SLOT ? R : 0, in.lk_smem = lk == SLOT ? M : 0;
        in.cap = 0;
        /* memory: ready by bandwidth; one response per cycle, the earliest due */
        in.mem_req_rdy = cyc - last_acc >= (long)B;
        int r = -1;
        for (int i = 0; i < npend; i++)
            if ((long)pend[i].due <= cyc && (r < 0 || pend[i].due < pend[r].due))
                r = i;
        in.mem_rsp_v = r >= 0;
        in.mem_rsp_tag = r >= 0 ? pend[r].tag : 0;

        pe_eval(&pe, &in, &o);
        if (o.rsp_v) {
            if (o.rsp_op != op || o.rsp_tb != SLOT || o.rsp_status != SMK_PE_ST_OK) {
                *why = "unexpected response (op, slot or status)";
                return -1;
            }
            if (npend) {
                *why = "response with memory requests outstanding";
                return -1;
            }
            return cyc;
        }
        if (r >= 0)
            pend[r] = pend[--npend];
        if (o.mem_req_v && in.mem_req_rdy) {
            if (npend >= (int)(sizeof pend / sizeof pend[0])) {
                *why = "memory model overflow";
                return -1;
            }
            if ((o.mem_req_we != 0) != (op == SMK_PE_OP_SAVE)) {
                *why = "request direction";
                return -1;
            }
            pend[npend].due = (uint32_t)(cyc + lam), pend[npend].tag = o.mem_req_tag, npend++;
            last_acc = cyc;
            (*nreq)++;
        }
        pe_commit(&pe, &in, &o);
    }
    *why = "no response within the cycle limit";
    return -1;
}

int main(void)
{
    int fail = 0;
    printf("# Save and restore time of one TB, Parboil-like shapes (%s)\n\n", SMK_CFG_NAME);
    printf("Generated by `make ctx-table` (program `testbench/ctx_table.c`, built for gtx980 as\n"
           "`build/gtx980/ctx_table`); do not edit by hand. Spec: docs/preempt_engine.md, \"Timelines and\n"
           "exact cycle counts\" and \"Save and restore time for the Parboil-like shapes\".\n\n");
    printf("Each entry is `SAVE / RESTORE`, in cycles from the command's arrival to its response, with\n"
           "the FSM idle and the queue empty at arrival, D = 0 (the TB is idle from the first STOP cycle)\n"
           "and cap = 0. Memory: fixed latency λ, at most one accepted line per B cycles. Formula:\n\n");
    printf("    n = ceil(threads / %u),  M = ceil(smem bytes / %u),  C = %u\n", SMK_WARP_SIZE, SMK_CTX_LINE,
           SMK_CTL_LINES);
    printf("    L = n*C + n*R + M,  k = min(n, OMAX) = min(n, %u)\n", SMK_PE_OMAX);
    printf("    F = floor((L-1)/k) * max(k*B, λ+1) + ((L-1) mod k) * B\n");
    printf("    SAVE = 4 + D + λ + F,  RESTORE = 3 + λ + F\n\n");
    printf("Every entry was also measured by running the C model cycle by cycle against that memory;\n"
           "the program fails, naming the shape, if the two differ (they agree on every entry here).\n"
           "Origin: published = C-QoS Table 1; derived = SMK thesis Table 2-2 occupancy on GTX980 with\n"
           "the block size assumed; assumed = not in the papers (see the shape table in the source).\n\n");
    printf("| kernel | threads/TB | n | R | smem B | M | L |");
    for (int li = 0; li < 2; li++)
        for (int bi = 0; bi < 2; bi++)
            printf(" λ=%u, B=%u |", LAMS[li], BWS[bi]);
    printf(" origin |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");

    for (size_t s = 0; s < NSHAPES; s++) {
        const shape_t *sh = &SHAPES[s];
        const uint32_t n = (sh->threads + SMK_WARP_SIZE - 1) / SMK_WARP_SIZE;
        const uint32_t R = sh->regs;
        const uint32_t M = (sh->smem + SMK_CTX_LINE - 1) / SMK_CTX_LINE;
        const uint64_t L = (uint64_t)n * SMK_CTL_LINES + (uint64_t)n * R + M;
        printf("| %s | %u | %u | %u | %u | %u | %llu |", sh->name, sh->threads, n, R, sh->smem, M,
               (unsigned long long)L);
        if (n > SMK_WARPS || R > SMK_MAX_REGS || M > SMK_SMEM_LINES) {
            printf(" does not fit %s | | | | %s |\n", SMK_CFG_NAME, sh->origin);
            continue;
        }
        const wmask_t smask = n >= 64 ? ~(wmask_t)0 : ((wmask_t)1 << n) - 1; /* warps 0..n-1 */
        const wmask_t rmask = smask << (SMK_WARPS - n);                      /* warps W-n..W-1 */
        for (int li = 0; li < 2; li++)
            for (int bi = 0; bi < 2; bi++) {
                const uint32_t lam = LAMS[li], B = BWS[bi];
                const uint64_t F = formula_F(n, L, lam, B);
                const uint64_t fs = 4 + lam + F, fr = 3 + lam + F;
                /* SAVE then RESTORE: the model's cycle count and line count must equal the formula's */
                const struct { uint32_t op; wmask_t mask; uint64_t want; const char *name; } ops[2] = {
                    {SMK_PE_OP_SAVE, smask, fs, "SAVE"}, {SMK_PE_OP_RESTORE, rmask, fr, "RESTORE"}};
                for (int o = 0; o < 2; o++) {
                    long nl;
                    const char *why = "";
                    const long m = run_model(ops[o].op, ops[o].mask, R, M, lam, B, &nl, &why);
                    if (m < 0 || (uint64_t)m != ops[o].want || (uint64_t)nl != L) {
                        fprintf(stderr,
                                "ctx_table: MISMATCH %s (threads %u, n %u, R %u, M %u, L %llu), %s, lambda %u, B %u: "
                                "formula %llu, model %ld (%ld lines) %s\n",
                                sh->name, sh->threads, n, R, M, (unsigned long long)L, ops[o].name, lam, B,
                                (unsigned long long)ops[o].want, m, nl, why);
                        fail = 1;
                    }
                }
                printf(" %llu / %llu |", (unsigned long long)fs, (unsigned long long)fr);
            }
        printf(" %s |\n", sh->origin);
    }
    printf("\nFor large L, T ~ L * max(B, (λ+1)/k): with k = n and λ+1 >= n*B a swap is latency-bound and\n"
           "B only adds ((L-1) mod k) * B.\n");
    if (fail) {
        fprintf(stderr, "ctx_table: formula and C model disagree (see above)\n");
        return 1;
    }
    return 0;
}
