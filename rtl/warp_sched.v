`default_nettype none
`include "smk_cfg.vh"
`include "smk_prims.vh"
// warp_sched: Enhanced Warp Scheduler (EWS) of one SM.  Spec (normative): docs/warp_sched.md.
//
// Warp w belongs to scheduler s = w mod S with local index l = w div S.  Per scheduler:
//   GTO: greedy warp last[s] if still eligible, else the oldest eligible warp by the age
//        matrix: sel[i] = E[i] & ~|(E & older_row_i) (one-hot, since `older` is a strict
//        total order on the valid warps of the scheduler).
//   LRR: first eligible warp after last[s]: two-region find-first-set over {E, E & above(last)}
//        (equivalent to rotate by last+1 + priority encoder, without the barrel shifter).
// idle_cnt is registered: the mask idle_r of the previous cycle's idle warps (valid, not stopped,
// allowed, not issued, and pipeline-blocked (pblk) or, with IDLE_ARB, ready; warps launched at that
// edge removed) is counted per slot, so the issue choice ends at a flip-flop instead of running on
// through a W-bit popcount (docs/warp_sched.md clock-edge rule 5).
// held_cnt stays combinational: the warps of a blocked slot never issue, so it is a popcount of
// cand & (ks = k) gated by ~qallow[k], off the issue path.
//
// Packed vectors put element i at [i*w +: w].  Synchronous active-high reset.
module warp_sched #(
    parameter W      = `SMK_WARPS,   // warp slots per SM
    parameter S      = `SMK_SCHED,   // schedulers
    parameter K      = `SMK_KSLOTS,  // kernel slots
    parameter LW     = `SMK_LWARPS,  // W / S
    parameter WID_W  = `SMK_WID_W,   // clog2(W)
    parameter LWID_W = `SMK_LWID_W,  // clog2(LW)
    parameter KS_W   = `SMK_KS_W,    // clog2(K)
    parameter WCNT_W = `SMK_WCNT_W,  // clog2(W+1)
    parameter QGATE  = 1,            // 1 = quota gating, 0 = gating removed (area figure)
    parameter IDLE_ARB = 1           // 1 = an eligible warp that lost arbitration is idle too
) (
    input  wire                clk,
    input  wire                rst,
    input  wire                policy,
    input  wire                launch_v,
    input  wire [W-1:0]        launch_mask,
    input  wire [KS_W-1:0]     launch_ks,
    input  wire [W-1:0]        finish_mask,
    input  wire [W-1:0]        ready,
    input  wire [W-1:0]        stop,
    input  wire [W-1:0]        pblk,       // ready but for a full pipeline unit
    input  wire [K-1:0]        qallow,
    output wire [S-1:0]        iss_v,
    output wire [S*WID_W-1:0]  iss_wid,
    output wire [S*KS_W-1:0]   iss_ks,
    output wire [K*WCNT_W-1:0] idle_cnt,
    output wire [K*WCNT_W-1:0] held_cnt,
    output wire [K-1:0]        ks_active,
    output wire [W-1:0]        wvalid
);

    // ------------------------------------------------------------------ helpers
    localparam [0:0] POL_LRR = `SMK_POLICY_LRR;

    localparam integer      LW_M1I = LW - 1;
    localparam [LWID_W-1:0] LW_M1  = LW_M1I[LWID_W-1:0];  // reset value of last[s]

    // population count of W bits
    `SMK_DEF_POPCNT(popcnt, W, WCNT_W)

    // isolate the lowest set bit (priority encoder, one-hot out), 2*LW bits
    function [2*LW-1:0] first1(input [2*LW-1:0] x);
        reg seen;
        integer i;
        begin
            seen = 1'b0;
            for (i = 0; i < 2 * LW; i = i + 1) begin
                first1[i] = x[i] & ~seen;
                seen = seen | x[i];
            end
        end
    endfunction

    // bits strictly above the one-hot position: above[i] = |oh[i-1:0]
    function [LW-1:0] above(input [LW-1:0] oh);
        reg seen;
        integer i;
        begin
            seen = 1'b0;
            for (i = 0; i < LW; i = i + 1) begin
                above[i] = seen;
                seen = seen | oh[i];
            end
        end
    endfunction

    // q[x], zero-padded to 2^KS_W slots, by a binary mux tree on the bits of x
    localparam KP = 1 << KS_W;
    function qsel(input [K-1:0] q, input [KS_W-1:0] x);
        reg [KP-1:0] t;
        integer b, n;
        begin
            t = {KP{1'b0}};
            t[K-1:0] = q;
            for (b = 0; b < KS_W; b = b + 1)
                for (n = 0; n < (KP >> (b + 1)); n = n + 1)
                    t[n] = x[b] ? t[2*n+1] : t[2*n];
            qsel = t[0];
        end
    endfunction

    // ------------------------------------------------------------------ state
    reg [W-1:0]         valid  /*verilator public_flat_rd*/;
    reg [W*KS_W-1:0]    ks     /*verilator public_flat_rd*/;
    reg [S*LWID_W-1:0]  last   /*verilator public_flat_rd*/;
    reg [S-1:0]         last_v /*verilator public_flat_rd*/;
    // older[(s*LW+i)*LW+j]: local warp j of scheduler s is older than local warp i
    reg [S*LW*LW-1:0]   older  /*verilator public_flat_rd*/;
    reg [W-1:0]         idle_r /*verilator public_flat_rd*/;  // last cycle's idle warps

    // ------------------------------------------------------------------ combinational
    wire [W-1:0] lmask = {W{launch_v}} & launch_mask;  // L
    wire [W-1:0] gone  = finish_mask | lmask;          // F | L
    wire [W-1:0] stay  = valid & ~gone;                // valid & ~F & ~L
    wire [W-1:0] cand  = valid & ready & ~stop;

    // kernel-slot decode: ksdec[w*K+k] = (ks[w] == k); slot ids >= K decode to nothing
    wire [W*K-1:0] ksdec;
    wire [W-1:0]   allow;
    genvar w, k, s, i, j;
    generate
        for (w = 0; w < W; w = w + 1) begin : g_warp
            for (k = 0; k < K; k = k + 1) begin : g_dec
                localparam [KS_W-1:0] KV = k;
                assign ksdec[w*K+k] = (ks[w*KS_W +: KS_W] == KV);
            end
            if (QGATE != 0) begin : g_gate
                // qallow[ks[w]] (0 for a slot id >= K) as a KS_W-level mux tree
                assign allow[w] = qsel(qallow, ks[w*KS_W +: KS_W]);
            end else if (K == KP) begin : g_nogate
                assign allow[w] = 1'b1;
            end else begin : g_nogate_k
                // ks[w] < K: a slot id >= K is never eligible
                assign allow[w] = |ksdec[w*K +: K];
            end
        end
    endgenerate

    wire [W-1:0] elig = cand & allow;
    // the warps that may count idle (clock-edge rule 5) before the issued ones are taken out
    localparam [0:0] IARB = (IDLE_ARB != 0);
    wire [W-1:0] isrc  = valid & ~stop & allow & ((ready & {W{IARB}}) | pblk);
    wire [W-1:0] idle_nx;  // idle_r' (clock-edge rule 5)

    wire [W-1:0]        issued;     // one-hot per scheduler, global warp positions
    wire [S*LWID_W-1:0] last_nx;
    wire [S-1:0]        last_v_nx;
    wire [S*LW*LW-1:0]  older_nx;

    generate
        for (s = 0; s < S; s = s + 1) begin : g_sched
            wire [LW-1:0]     e;      // eligible, local order
            wire [LW-1:0]     ls;     // launched
            wire [LW-1:0]     vs;     // valid & ~F & ~L
            wire [LW-1:0]     gs;     // F | L
            wire [LW-1:0]     oh;     // one-hot of last[s]
            wire [LW-1:0]     oldest; // oldest eligible (one-hot)
            wire [LW-1:0]     sel;    // issued warp (one-hot or 0)
            wire [LWID_W-1:0] lidx;   // local index of sel
            wire [WID_W-1:0]  gidx;   // global warp id of sel
            wire [KS_W-1:0]   sks;    // slot of sel
            wire [LWID_W-1:0] lastq = last[s*LWID_W +: LWID_W];

            for (i = 0; i < LW; i = i + 1) begin : g_loc
                localparam [LWID_W-1:0] LV = i;
                assign e[i]  = elig[s+i*S];
                assign ls[i] = lmask[s+i*S];
                assign vs[i] = stay[s+i*S];
                assign gs[i] = gone[s+i*S];
                assign oh[i] = (lastq == LV);
                // row i of the age matrix without its (always 0) diagonal bit
                wire [LW-1:0] orow;
                for (j = 0; j < LW; j = j + 1) begin : g_orow
                    if (j == i) begin : g_d
                        assign orow[j] = 1'b0;
                    end else begin : g_o
                        assign orow[j] = older[(s*LW+i)*LW+j];
                    end
                end
                assign oldest[i] = e[i] & ~|(e & orow);
                assign issued[s+i*S] = sel[i];
            end

            // GTO: greedy continuation, else oldest
            wire [LW-1:0] greedy  = {LW{last_v[s]}} & e & oh;
            wire [LW-1:0] gto_sel = (|greedy) ? greedy : oldest;
            // LRR: first eligible above last, else first eligible from index 0
            wire [2*LW-1:0] rr = first1({e, e & above(oh)});
            wire [LW-1:0] lrr_sel = rr[LW-1:0] | rr[2*LW-1:LW];

            assign sel = (policy == POL_LRR) ? lrr_sel : gto_sel;
`ifdef FORMAL
            // Properties proven by `make formal` (Yosys SAT, temporal induction from any state
            // reachable from all-zero registers); not part of the synthesized design.
            always @* begin : p_formal
                integer a, b, c;
                reg [LWID_W-1:0] da, db;
                // the issued warp is eligible, unique, and present whenever any warp is eligible
                assert((sel & ~e) == {LW{1'b0}});
                assert((sel & (sel - 1'b1)) == {LW{1'b0}});
                assert((|sel) == (|e));
                for (a = 0; a < LW; a = a + 1) begin
                    assert(older[(s*LW+a)*LW+a] == 1'b0);
                    for (b = 0; b < LW; b = b + 1) begin
                        // ages: a strict total order on the valid warps of this scheduler
                        if (a != b && valid[s+a*S] && valid[s+b*S])
                            assert(older[(s*LW+a)*LW+b] != older[(s*LW+b)*LW+a]);
                        for (c = 0; c < LW; c = c + 1)
                            if (valid[s+a*S] && valid[s+b*S] && valid[s+c*S] &&
                                older[(s*LW+a)*LW+b] && older[(s*LW+b)*LW+c])
                                assert(older[(s*LW+a)*LW+c]);
                    end
                    if (sel[a] && policy != POL_LRR) begin
                        // GTO: the greedy warp if eligible, else the oldest eligible warp
                        if (last_v[s] && (|(e & oh)))
                            assert(sel == oh);
                        else
                            assert((e & older[(s*LW+a)*LW +: LW]) == {LW{1'b0}});
                    end
                    if (sel[a] && policy == POL_LRR && LW == (1 << LWID_W)) begin
                        // LRR: no eligible warp strictly between last and the issued one
                        da = a[LWID_W-1:0] - lastq - 1'b1;
                        for (b = 0; b < LW; b = b + 1) begin
                            db = b[LWID_W-1:0] - lastq - 1'b1;
                            if (e[b]) assert(db >= da);
                        end
                    end
                end
            end
`endif

            // one-hot -> index / warp id / slot (AND-OR)
            wire [LW*LWID_W-1:0] lterm;
            wire [LW*WID_W-1:0]  gterm;
            wire [LW*KS_W-1:0]   kterm;
            for (i = 0; i < LW; i = i + 1) begin : g_term
                localparam integer      GI = s + i * S;
                localparam [LWID_W-1:0] LV = i;
                localparam [WID_W-1:0]  GV = GI[WID_W-1:0];
                assign lterm[i*LWID_W +: LWID_W] = {LWID_W{sel[i]}} & LV;
                assign gterm[i*WID_W +: WID_W]   = {WID_W{sel[i]}} & GV;
                assign kterm[i*KS_W +: KS_W]     = {KS_W{sel[i]}} & ks[(s+i*S)*KS_W +: KS_W];
            end
            reg [LWID_W-1:0] lidx_r;
            reg [WID_W-1:0]  gidx_r;
            reg [KS_W-1:0]   sks_r;
            always @* begin : p_enc
                integer n;
                lidx_r = {LWID_W{1'b0}};
                gidx_r = {WID_W{1'b0}};
                sks_r  = {KS_W{1'b0}};
                for (n = 0; n < LW; n = n + 1) begin
                    lidx_r = lidx_r | lterm[n*LWID_W +: LWID_W];
                    gidx_r = gidx_r | gterm[n*WID_W +: WID_W];
                    sks_r  = sks_r  | kterm[n*KS_W +: KS_W];
                end
            end
            assign lidx = lidx_r;
            assign gidx = gidx_r;
            assign sks  = sks_r;

            assign iss_v[s] = |e;
            assign iss_wid[s*WID_W +: WID_W] = gidx;
            assign iss_ks[s*KS_W +: KS_W]    = sks;

            // last / last_v: advance on issue; drop greedy if that warp finishes or relaunches
            wire [LW-1:0] oh_nx = iss_v[s] ? sel : oh;
            assign last_nx[s*LWID_W +: LWID_W] = iss_v[s] ? lidx : lastq;
            assign last_v_nx[s] = (iss_v[s] | last_v[s]) & ~|(oh_nx & gs);

            if (LW == 1) begin : g_lw1
                // one warp per scheduler: the age matrix is its (constant 0) diagonal only
                wire unused_age = &{1'b0, ls, vs};
            end

            // age matrix: launched warps are younger than every staying warp; within the
            // launch, lower warp id = older; nobody is younger than a launched warp.
            for (i = 0; i < LW; i = i + 1) begin : g_row
                for (j = 0; j < LW; j = j + 1) begin : g_col
                    if (i == j) begin : g_diag
                        // ls[i] -> vs[i] = 0; else older[i][i] & ~ls[i] stays at its reset 0
                        assign older_nx[(s*LW+i)*LW+j] = 1'b0;
                    end else if (j < i) begin : g_lo
                        assign older_nx[(s*LW+i)*LW+j] = ls[i] ? (vs[j] | ls[j])
                                                              : (older[(s*LW+i)*LW+j] & ~ls[j]);
                    end else begin : g_hi
                        assign older_nx[(s*LW+i)*LW+j] = ls[i] ? vs[j]
                                                              : (older[(s*LW+i)*LW+j] & ~ls[j]);
                    end
                end
            end
        end
    endgenerate

    assign idle_nx = isrc & ~issued & ~lmask;
`ifdef FORMAL
    // clock-edge rule 5 in the spec's terms: an idle warp is valid, not stopped, allowed, not issued
    // and not launched at the edge; every such warp that is pipeline-blocked is idle, and with
    // IDLE_ARB every eligible warp that did not issue; without IDLE_ARB only blocked warps are
    always @* begin : p_formal_idle
        assert((idle_nx & ~(valid & ~stop & allow & ~issued & ~lmask)) == {W{1'b0}});
        assert((valid & ~stop & allow & pblk & ~issued & ~lmask & ~idle_nx) == {W{1'b0}});
        if (IDLE_ARB != 0)
            assert((elig & ~issued & ~lmask & ~idle_nx) == {W{1'b0}});
        else
            assert((idle_nx & ~pblk) == {W{1'b0}});
    end
`endif

    // per-slot counts and activity
    generate
        for (k = 0; k < K; k = k + 1) begin : g_slot
            wire [W-1:0] km;  // warps with ks == k
            for (w = 0; w < W; w = w + 1) begin : g_km
                assign km[w] = ksdec[w*K+k];
            end
            // idle_r holds no warp launched at the edge that set it, so km is its slot then
            assign idle_cnt[k*WCNT_W +: WCNT_W] = popcnt(idle_r & km);
            if (QGATE != 0) begin : g_gate
                assign held_cnt[k*WCNT_W +: WCNT_W] = {WCNT_W{~qallow[k]}} & popcnt(cand & km);
            end else begin : g_nogate
                assign held_cnt[k*WCNT_W +: WCNT_W] = {WCNT_W{1'b0}};
            end
            assign ks_active[k] = |(valid & km);
        end
    endgenerate

    assign wvalid = valid;

    // ------------------------------------------------------------------ next state
    reg [W*KS_W-1:0] ks_nx;
    always @* begin : p_ks_nx
        integer n;
        for (n = 0; n < W; n = n + 1)
            ks_nx[n*KS_W +: KS_W] = lmask[n] ? launch_ks : ks[n*KS_W +: KS_W];
    end

    always @(posedge clk) begin
        if (rst) begin
            valid  <= {W{1'b0}};
            ks     <= {W*KS_W{1'b0}};
            last   <= {S{LW_M1}};
            last_v <= {S{1'b0}};
            older  <= {S*LW*LW{1'b0}};
            idle_r <= {W{1'b0}};
        end else begin
            valid  <= stay | lmask;
            ks     <= ks_nx;
            last   <= last_nx;
            last_v <= last_v_nx;
            older  <= older_nx;
            idle_r <= idle_nx;
        end
    end

    // the QGATE = 0 build does not look at qallow
    generate
        if (QGATE == 0) begin : g_unused
            wire unused_qallow = &{1'b0, qallow};
        end
    endgenerate

`ifdef SMK_COVER
    // ------------------------------------------------------------------ cover points
    // One labelled point per case of each numbered rule of docs/warp_sched.md (make coverage with
    // --coverage-user +define+SMK_COVER; docs/verification.md "Coverage"): c_ws_c<N>_* combinational
    // rule N, c_ws_e<N>_* clock-edge rule N. A point inside a generate loop counts once, hit if any
    // scheduler or slot hit it. Not seen by synthesis or the other builds.
    wire [W-1:0] cv_kseq;  // the warp's slot equals launch_ks
    genvar cv_w, cv_s, cv_k;
    for (cv_w = 0; cv_w < W; cv_w = cv_w + 1) begin : g_cv_ks
        assign cv_kseq[cv_w] = (ks[cv_w*KS_W +: KS_W] == launch_ks);
    end
    // rule 1: a valid ready warp is a candidate; stop-fetch takes a valid ready warp out
    c_ws_c1_cand:         cover property (@(posedge clk) !rst && (|cand));
    c_ws_c1_stopped:      cover property (@(posedge clk) !rst && (|(valid & ready & stop)));
    // rule 2: a valid warp allowed by its slot's quota; a valid warp whose slot is blocked
    c_ws_c2_allow:        cover property (@(posedge clk) !rst && (|(valid & allow)));
    c_ws_c2_block:        cover property (@(posedge clk) !rst && (|(valid & ~allow)));
    // rule 3: an eligible warp; a candidate that the quota makes not eligible
    c_ws_c3_elig:         cover property (@(posedge clk) !rst && (|elig));
    c_ws_c3_cand_blocked: cover property (@(posedge clk) !rst && (|(cand & ~allow)));
    // clock-edge rule 1: a launch; a valid warp finishes; a warp finished and relaunched at one edge
    c_ws_e1_launch:       cover property (@(posedge clk) !rst && (|lmask));
    c_ws_e1_finish:       cover property (@(posedge clk) !rst && (|(valid & finish_mask)));
    c_ws_e1_relaunch:     cover property (@(posedge clk) !rst && (|(valid & finish_mask & lmask)));
    // clock-edge rule 2: a launch moves a warp slot to another kernel slot
    c_ws_e2_new_slot:     cover property (@(posedge clk) !rst && (|(lmask & ~cv_kseq)));
    // clock-edge rule 5: (a) a pipeline-blocked warp idle; (b) an eligible warp that lost
    // arbitration idle; a finishing warp counted; a would-be idle warp launched at the edge left
    // out; a ready or blocked warp held by its quota not idle
    c_ws_e5_pblk:         cover property (@(posedge clk) !rst && (|(valid & ~stop & allow & pblk & ~issued & ~lmask)));
    c_ws_e5_lost_arb:     cover property (@(posedge clk) !rst && (|(elig & ~issued & ~lmask)));
    c_ws_e5_finish:       cover property (@(posedge clk) !rst && (|(idle_nx & finish_mask)));
    c_ws_e5_launch_out:   cover property (@(posedge clk) !rst && (|(isrc & ~issued & lmask)));
    c_ws_e5_quota_out:    cover property (@(posedge clk) !rst && (|(valid & ~stop & ~allow & (ready | pblk))));

    // per scheduler: combinational rule 4, clock-edge rules 3 and 4
    for (cv_s = 0; cv_s < S; cv_s = cv_s + 1) begin : g_cv_sched
        // the scheduler's signals of g_sched, in local order, again from the module's (a reference
        // into g_sched fails to elaborate under gpu_top's several instances in this tool version)
        wire [LW-1:0] e, oh, sel, ls, vs, gs, vl;
        wire [LWID_W-1:0] lq = last[cv_s*LWID_W +: LWID_W];
        genvar cv_i;
        for (cv_i = 0; cv_i < LW; cv_i = cv_i + 1) begin : g_cv_v
            localparam [LWID_W-1:0] LV = cv_i;
            assign e[cv_i]   = elig[cv_s+cv_i*S];
            assign oh[cv_i]  = (lq == LV);
            assign sel[cv_i] = issued[cv_s+cv_i*S];
            assign ls[cv_i]  = lmask[cv_s+cv_i*S];
            assign vs[cv_i]  = stay[cv_s+cv_i*S];
            assign gs[cv_i]  = gone[cv_s+cv_i*S];
            assign vl[cv_i]  = valid[cv_s+cv_i*S];
        end
        wire lv  = last_v[cv_s], iv = iss_v[cv_s];
        wire [LW-1:0] greedy = {LW{lv}} & e & oh;
        wire [LW-1:0] oh_nx  = iv ? sel : oh;
        wire [LW-1:0] abv    = e & above(oh);
        wire gto = (policy != POL_LRR), lrr = (policy == POL_LRR);
        wire e2  = (e & (e - 1'b1)) != {LW{1'b0}};   // at least two eligible warps
        // rule 4 GTO: the greedy warp continues (others eligible); the oldest of several eligible
        // warps, no greedy warp; the greedy warp kept but not eligible, the oldest eligible issues
        c_ws_c4_gto_greedy:      cover property (@(posedge clk) !rst && gto && (|greedy) && e2);
        c_ws_c4_gto_oldest:      cover property (@(posedge clk) !rst && gto && !lv && e2);
        c_ws_c4_gto_greedy_lost: cover property (@(posedge clk) !rst && gto && lv && !(|greedy) && e2);
        // rule 4 LRR: the first eligible warp above last[s] (of several); the wrap-around (an
        // eligible warp below last[s] wins, none above it); last[s] itself the only eligible warp
        c_ws_c4_lrr_above:       cover property (@(posedge clk) !rst && lrr && (|abv) && e2);
        c_ws_c4_lrr_wrap:        cover property (@(posedge clk) !rst && lrr && !(|abv) && (|(e & ~oh)));
        c_ws_c4_lrr_self:        cover property (@(posedge clk) !rst && lrr && e == oh);
        // rule 4, E empty while the scheduler has valid warps: no issue
        c_ws_c4_empty:           cover property (@(posedge clk) !rst && !(|e) && (|vl));
        // clock-edge rule 3: warps launched behind staying warps of the scheduler; two or more
        // warps launched into one scheduler at once (warp order within the TB)
        c_ws_e3_younger:         cover property (@(posedge clk) !rst && (|ls) && (|vs));
        c_ws_e3_tb_order:        cover property (@(posedge clk) !rst && ((ls & (ls - 1'b1)) != {LW{1'b0}}));
        // clock-edge rule 4: last[s] moves on issue; the greedy warp survives a cycle without
        // issue; last_v drops because the last warp finishes or is relaunched
        c_ws_e4_advance:         cover property (@(posedge clk) !rst && iv && !(|(sel & oh)));
        c_ws_e4_keep:            cover property (@(posedge clk) !rst && !iv && lv && !(|(oh & gs)));
        c_ws_e4_drop:            cover property (@(posedge clk) !rst && (iv | lv) && (|(oh_nx & gs)));
    end

    // per slot: combinational rules 5-7
    for (cv_k = 0; cv_k < K; cv_k = cv_k + 1) begin : g_cv_slot
        wire [W-1:0] km;  // warps with ks == k: g_slot's km again (see g_cv_sched)
        for (cv_w = 0; cv_w < W; cv_w = cv_w + 1) begin : g_cv_km
            assign km[cv_w] = ksdec[cv_w*K+cv_k];
        end
        wire [W-1:0] ik = idle_r & km;
        // rule 5: the slot's registered idle count non-zero; two or more idle warps
        c_ws_c5_idle:          cover property (@(posedge clk) !rst && (|ik));
        c_ws_c5_idle_multi:    cover property (@(posedge clk) !rst && ((ik & (ik - 1'b1)) != {W{1'b0}}));
        // rule 6: warps held by the quota counted; a pipeline-blocked warp of a blocked slot is
        // not a candidate and not counted
        c_ws_c6_held:          cover property (@(posedge clk) !rst && !qallow[cv_k] && (|(cand & km)));
        c_ws_c6_pblk_not_held: cover property (@(posedge clk) !rst && !qallow[cv_k] && (|(valid & ~stop & pblk & km)));
        // rule 7: the slot active; a slot other than 0 that had warps and has none (the stale ks of
        // finished warps)
        c_ws_c7_active:        cover property (@(posedge clk) !rst && ks_active[cv_k]);
        c_ws_c7_stale:         cover property (@(posedge clk) !rst && (cv_k != 0) && !ks_active[cv_k] && (|(~valid & km)));
    end
`endif

endmodule
`default_nettype wire
