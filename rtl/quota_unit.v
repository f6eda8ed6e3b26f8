`default_nettype none
`include "smk_cfg.vh"
`include "smk_prims.vh"
// quota_unit: per-SM quota counters, epoch timer, statistics and SM control registers.
// Spec (normative): docs/quota_unit.md; register map: hw/regmap.def.
//
// One signed saturating counter C_k per kernel slot, decremented by completed thread
// instructions (QOS mode) or issued warp instructions (SMK mode) and (re)loaded at epoch
// boundaries / exhaustion.  Two stages:
//   stage 1: the per-slot sums of the completion and issue ports (tin, iin) are registered
//            (tin_r, iin_r): the decrement and the statistics of cycle n are applied at edge n+1.
//   stage 2: per slot, in parallel from cnt, dec (from tin_r / iin_r) and QUOTA:
//              d1 = C - dec                 -> base = sat_Q(d1) (only the low end can saturate)
//              d2 = C - dec + QUOTA         (carry-save 3:2, then one adder)
//            sat_Q(base + QUOTA) is MIN + QUOTA if d1 saturated, else sat_Q(d2) (high end only),
//            and the load cases pick QUOTA (X = 0) or that sum; one adder deep instead of two.
//
// Packed vectors put element i at [i*w +: w].  Synchronous active-high reset, all state 0.
module quota_unit #(
    parameter K      = `SMK_KSLOTS,    // kernel slots
    parameter S      = `SMK_SCHED,     // issue ports
    parameter CP     = `SMK_CP,        // completion ports
    parameter KS_W   = `SMK_KS_W,      // slot id width
    parameter ACT_W  = `SMK_ACT_W,     // active-thread count width
    parameter WCNT_W = `SMK_WCNT_W,    // idle-count width
    parameter QW     = `SMK_QUOTA_W,   // quota counter width (two's complement)
    parameter EW     = `SMK_EPOCH_W,   // EPOCH_LEN / SAMPLE_PER / timer width
    parameter SW     = `SMK_STAT_W,    // statistics width
    parameter WS     = `SMK_WARP_SIZE, // threads per warp
    parameter ADDR_W = `SMK_ADDR_W,    // register address width
    parameter DW     = `SMK_DATA_W     // register data width (32)
) (
    input  wire                clk,
    input  wire                rst,
    input  wire                csr_we,
    input  wire [ADDR_W-1:0]   csr_addr,
    input  wire [DW-1:0]       csr_wdata,
    input  wire [ADDR_W-1:0]   rd_addr,
    output reg  [DW-1:0]       rd_data,
    input  wire [S-1:0]        iss_v,
    input  wire [S*KS_W-1:0]   iss_ks,
    input  wire [CP-1:0]       cp_v,
    input  wire [CP*KS_W-1:0]  cp_ks,
    input  wire [CP*ACT_W-1:0] cp_act,
    input  wire [K*WCNT_W-1:0] idle_cnt,
    input  wire [K-1:0]        ks_active,
    output wire [K-1:0]        qallow,
    output wire                policy,
    output wire                epoch_end
);

    // ------------------------------------------------------------------ helpers
    `SMK_DEF_CLOG2(clog2)

    localparam DEC_W = clog2(CP * WS + 1);  // tin: 0 .. CP x warp_size
    localparam IIN_W = clog2(S + 1);        // iin: 0 .. S
    localparam SX    = SW + 1;              // wide intermediate for sat_S

    // SM_CTRL internal layout: POLICY | QMODE | QSCHEME | ROLLNEG from bit 0 up
    localparam F_POL_W  = `SMK_SM_CTRL_POLICY_W;
    localparam F_QM_W   = `SMK_SM_CTRL_QMODE_W;
    localparam F_QS_W   = `SMK_SM_CTRL_QSCHEME_W;
    localparam F_RN_W   = `SMK_SM_CTRL_ROLLNEG_W;
    localparam I_POL    = 0;
    localparam I_QM     = I_POL + F_POL_W;
    localparam I_QS     = I_QM + F_QM_W;
    localparam I_RN     = I_QS + F_QS_W;
    localparam CTRL_W   = I_RN + F_RN_W;

    localparam [F_QM_W-1:0] QM_SMK     = `SMK_QMODE_SMK;
    localparam [F_QM_W-1:0] QM_QOS     = `SMK_QMODE_QOS;
    localparam [F_QS_W-1:0] QS_ELASTIC = `SMK_QSCHEME_ELASTIC;
    localparam [F_QS_W-1:0] QS_ROLL    = `SMK_QSCHEME_ROLLOVER;
    localparam [F_QS_W-1:0] QS_RTIME   = `SMK_QSCHEME_ROLLOVER_TIME;
    localparam [ACT_W-1:0]  ACT_MAX    = WS;

    // address x is word address a (compared at integer width: no aliasing)
    function is_at(input [ADDR_W-1:0] x, input integer a);
        integer xi;
        begin
            xi = 0;
            xi[ADDR_W-1:0] = x;
            is_at = (xi == a);
        end
    endfunction

    // sat_S: clamp an SW+1-bit unsigned value to SW bits
    function [SW-1:0] sat_s(input [SX-1:0] x);
        sat_s = x[SX-1] ? {SW{1'b1}} : x[SW-1:0];
    endfunction

    // extensions to the data width (all widths <= DW)
    `SMK_DEF_ZX(zx_s, SW, DW)
    `SMK_DEF_ZX(zx_e, EW, DW)
    `SMK_DEF_ZX(zx_k, K, DW)
    `SMK_DEF_ZX(zx_q1, QW - 1, DW)
    function [DW-1:0] sx_q(input [QW-1:0] v);
        integer b;
        begin
            for (b = 0; b < DW; b = b + 1) sx_q[b] = (b < QW) ? v[b] : v[QW-1];
        end
    endfunction

    // ------------------------------------------------------------------ state
    reg [CTRL_W-1:0]     sm_ctrl    /*verilator public_flat_rd*/;
    reg [EW-1:0]         epoch_len  /*verilator public_flat_rd*/;
    reg [EW-1:0]         sample_per /*verilator public_flat_rd*/;
    reg [K-1:0]          qos_mask   /*verilator public_flat_rd*/;
    reg [K*(QW-1)-1:0]   quota      /*verilator public_flat_rd*/;
    reg [K*QW-1:0]       cnt        /*verilator public_flat_rd*/;
    reg [EW-1:0]         ecnt       /*verilator public_flat_rd*/;
    reg [EW-1:0]         scnt       /*verilator public_flat_rd*/;
    reg [SW-1:0]         epochs     /*verilator public_flat_rd*/;
    reg [SW-1:0]         ep_cycles  /*verilator public_flat_rd*/;
    reg [SW-1:0]         ep_samples /*verilator public_flat_rd*/;
    reg [SW-1:0]         nsamp      /*verilator public_flat_rd*/;
    reg [K*SW-1:0]       thr        /*verilator public_flat_rd*/;
    reg [K*SW-1:0]       wis        /*verilator public_flat_rd*/;
    reg [K*SW-1:0]       idle       /*verilator public_flat_rd*/;
    reg [K*SW-1:0]       cyc        /*verilator public_flat_rd*/;
    reg [K*SW-1:0]       s_thr      /*verilator public_flat_rd*/;
    reg [K*SW-1:0]       s_wis      /*verilator public_flat_rd*/;
    reg [K*SW-1:0]       s_idle     /*verilator public_flat_rd*/;
    reg [K*SW-1:0]       s_cyc      /*verilator public_flat_rd*/;
    // stage 1: last cycle's per-slot sums of the completion / issue ports
    reg [K*DEC_W-1:0]    tin_r      /*verilator public_flat_rd*/;
    reg [K*IIN_W-1:0]    iin_r      /*verilator public_flat_rd*/;

    // ------------------------------------------------------------------ control decode
    wire [F_QM_W-1:0] qmode    = sm_ctrl[I_QM +: F_QM_W];
    wire [F_QS_W-1:0] qscheme  = sm_ctrl[I_QS +: F_QS_W];
    wire              rollneg  = sm_ctrl[I_RN];
    wire              m_smk    = (qmode == QM_SMK);
    wire              m_qos    = (qmode == QM_QOS);
    wire              gating   = m_smk | m_qos;       // OFF and 3: no gating, counters hold
    wire              s_elast  = (qscheme == QS_ELASTIC);
    wire              s_rtime  = (qscheme == QS_RTIME);
    wire              s_roll   = (qscheme == QS_ROLL) | s_rtime; // counters: Rollover-Time as Rollover

    assign policy = sm_ctrl[I_POL];

    // ------------------------------------------------------------------ per-slot increments
    reg [K*DEC_W-1:0] tin;
    reg [K*IIN_W-1:0] iin;
    always @* begin : p_inc
        integer k, p;
        reg [ACT_W-1:0] a;
        reg [DEC_W-1:0] ax;  // act(p) zero-extended (DEC_W >= ACT_W)
        for (k = 0; k < K; k = k + 1) begin
            tin[k*DEC_W +: DEC_W] = {DEC_W{1'b0}};
            iin[k*IIN_W +: IIN_W] = {IIN_W{1'b0}};
            for (p = 0; p < CP; p = p + 1) begin
                a = (cp_act[p*ACT_W +: ACT_W] > ACT_MAX) ? ACT_MAX : cp_act[p*ACT_W +: ACT_W];
                ax = {DEC_W{1'b0}};
                ax[ACT_W-1:0] = a;
                if (cp_v[p] && cp_ks[p*KS_W +: KS_W] == k[KS_W-1:0])
                    tin[k*DEC_W +: DEC_W] = tin[k*DEC_W +: DEC_W] + ax;
            end
            for (p = 0; p < S; p = p + 1)
                if (iss_v[p] && iss_ks[p*KS_W +: KS_W] == k[KS_W-1:0])
                    iin[k*IIN_W +: IIN_W] = iin[k*IIN_W +: IIN_W] + {{(IIN_W-1){1'b0}}, 1'b1};
        end
    end

    // ------------------------------------------------------------------ epoch / sampling timers
    wire [EW:0] ecnt_inc = {1'b0, ecnt} + {{EW{1'b0}}, 1'b1};
    wire [EW:0] scnt_inc = {1'b0, scnt} + {{EW{1'b0}}, 1'b1};

    wire [K-1:0] pos;  // cnt[k] > 0
    genvar gk;
    generate
        for (gk = 0; gk < K; gk = gk + 1) begin : g_pos
            assign pos[gk] = ~cnt[gk*QW+QW-1] & (|cnt[gk*QW +: QW]);
        end
    endgenerate

    wire exhausted = (|ks_active) & ~|(ks_active & pos);
    wire cmd_start = csr_we & is_at(csr_addr, `SMK_REG_CMD) & csr_wdata[`SMK_CMD_EPOCH_START_LSB];
    wire cmd_snap  = csr_we & is_at(csr_addr, `SMK_REG_CMD) & csr_wdata[`SMK_CMD_SNAP_LSB];
    // the timers' compares x + 1 >= L as x - L >= -1: S = x + ~L + 1 = x - L + 2^EW on EW + 1 bits
    // (a kept prefix adder), then S >= 2^EW - 1, i.e. S[EW] or S's low EW bits all ones; the same
    // value as x_inc >= L, without the increment in series (spec "Implementation notes")
    wire [EW:0] ecmp_s, scmp_s;
    `SMK_SKL_ADD(g_ecmp, EW + 1, {1'b0, ecnt}, {1'b0, ~epoch_len}, 1'b1, ecmp_s)
    `SMK_SKL_ADD(g_scmp, EW + 1, {1'b0, scnt}, {1'b0, ~sample_per}, 1'b1, scmp_s)
    wire tmr       = (|epoch_len) & (ecmp_s[EW] | (&ecmp_s[EW-1:0]));
    wire timed     = tmr | cmd_start;
    wire early     = ~timed & exhausted & m_qos & s_elast;
    wire boundary  = timed | early;
    // statistics snapshot, EP_* / EPOCH_CNT and timer restart (docs/qos_mgr.md section 11):
    // the SM's own timer or CMD.SNAP; early (Elastic) boundaries and CMD.EPOCH_START alone do not
    wire snap      = tmr | cmd_snap;
    wire tick      = (|sample_per) & (scmp_s[EW] | (&scmp_s[EW-1:0]));

    assign epoch_end = boundary;
    // rule 2: under QOS / ROLLOVER_TIME a non-QoS slot also waits while a QoS slot with warps on
    // the SM has quota left (ks_active is warp_sched's, a function of its registered state)
    wire         rt_hold = m_qos & s_rtime & (|(pos & ks_active & qos_mask));
    assign qallow    = {K{~gating}} | (pos & ~({K{rt_hold}} & ~qos_mask));

    // ------------------------------------------------------------------ quota counters
    // Both counter sums are QD = QW + 2 bits wide, through a Sklansky parallel-prefix adder whose
    // levels are kept nets: without them the area-oriented AIG rewriting of the synthesis flow
    // turns any prefix adder back into a ripple chain (docs/timing.md notes).
    localparam QD = QW + 2;
    localparam NL = clog2(QD);  // prefix levels

    wire [K*QW-1:0] cnt_nx;
    generate
        for (gk = 0; gk < K; gk = gk + 1) begin : g_cnt
            wire [QW-1:0]    c    = cnt[gk*QW +: QW];
            wire [QW-2:0]    qv   = quota[gk*(QW-1) +: QW-1];
            // rule 4 on the registered sums (stage 1), under this cycle's mode
            wire [DEC_W-1:0] dec  = m_qos ? tin_r[gk*DEC_W +: DEC_W]
                                  : m_smk ? {{(DEC_W-IIN_W){1'b0}}, iin_r[gk*IIN_W +: IIN_W]}
                                  : {DEC_W{1'b0}};
            // d1 = c - dec = c + ~dec + 1; dec >= 0, so only the low end saturates
            // d2 = c - dec + QUOTA = sm + cy, carry-save: sm = c ^ ~dec ^ q, cy = maj << 1 | 1
            wire [QD-1:0]    a1   = {{2{c[QW-1]}}, c};
            wire [QD-1:0]    b1   = ~{{(QD-DEC_W){1'b0}}, dec};
            wire [QD-1:0]    q2   = {3'b000, qv};
            wire [QD-1:0]    sm   = a1 ^ b1 ^ q2;
            wire [QD-1:0]    cy   = {(a1[QD-2:0] & b1[QD-2:0]) | (a1[QD-2:0] & q2[QD-2:0])
                                     | (b1[QD-2:0] & q2[QD-2:0]), 1'b1};
            wire [QD-1:0]    p1   = a1 ^ b1;
            wire [QD-1:0]    p2   = sm ^ cy;
            (* keep *) wire [(NL+1)*2*QD-1:0] lv1 /*verilator split_var*/;
            (* keep *) wire [(NL+1)*2*QD-1:0] lv2 /*verilator split_var*/;
            assign lv1[0 +: 2*QD] = {p1, (a1 & b1) | {{(QD-1){1'b0}}, p1[0]}};  // carry in 1
            assign lv2[0 +: 2*QD] = {p2, sm & cy};
            // Sklansky level gl, span d = 2^gl: in each 2d-bit block the upper d bits (those with
            // (i / d) odd) take the group {p, g} of the block's lower half, ending at its top bit
            genvar gl, gb;
            for (gl = 0; gl < NL; gl = gl + 1) begin : g_lv
                localparam integer SD = 1 << gl;
                localparam integer SI = gl * 2 * QD;       // this level's {p, g} (g low)
                localparam integer SO = (gl + 1) * 2 * QD; // the next level's
                for (gb = 0; gb < QD; gb = gb + 2 * SD) begin : g_bk
                    localparam integer LLO = (gb + SD < QD) ? SD : QD - gb;        // lower half
                    localparam integer LHI = (gb + SD < QD) ? ((gb + 2 * SD <= QD) ? SD : QD - gb - SD) : 0;
                    assign lv1[SO + gb +: LLO]      = lv1[SI + gb +: LLO];
                    assign lv1[SO + QD + gb +: LLO] = lv1[SI + QD + gb +: LLO];
                    assign lv2[SO + gb +: LLO]      = lv2[SI + gb +: LLO];
                    assign lv2[SO + QD + gb +: LLO] = lv2[SI + QD + gb +: LLO];
                    if (LHI > 0) begin : g_hi
                        localparam integer ST = gb + SD - 1;  // the lower half's top bit
                        assign lv1[SO + gb + SD +: LHI]      = lv1[SI + gb + SD +: LHI]
                                                          | (lv1[SI + QD + gb + SD +: LHI] & {LHI{lv1[SI + ST]}});
                        assign lv1[SO + QD + gb + SD +: LHI] = lv1[SI + QD + gb + SD +: LHI] & {LHI{lv1[SI + QD + ST]}};
                        assign lv2[SO + gb + SD +: LHI]      = lv2[SI + gb + SD +: LHI]
                                                          | (lv2[SI + QD + gb + SD +: LHI] & {LHI{lv2[SI + ST]}});
                        assign lv2[SO + QD + gb + SD +: LHI] = lv2[SI + QD + gb + SD +: LHI] & {LHI{lv2[SI + QD + ST]}};
                    end
                end
            end
            wire [QD-1:0]    c1   = lv1[NL*2*QD +: QD];  // carry out of each bit
            wire [QD-1:0]    c2   = lv2[NL*2*QD +: QD];
            wire [QD-1:0]    d1   = p1 ^ {c1[QD-2:0], 1'b1};
            wire [QD-1:0]    d2   = p2 ^ {c2[QD-2:0], 1'b0};
            // the top level's group propagate and the top carries are not used
            wire             unused_lv = &{1'b0, lv1[NL*2*QD+QD +: QD], lv2[NL*2*QD+QD +: QD],
                                           c1[QD-1], c2[QD-1]};
            // d1 < MIN: negative and bits QW .. QW-1 not both 1
            wire             neg  = d1[QD-1];  // base < 0
            wire             uf   = neg & ~(d1[QW] & d1[QW-1]);
            wire [QW-1:0]    base = uf ? {1'b1, {(QW-1){1'b0}}} : d1[QW-1:0];
            // d2 >= MIN when d1 did not saturate: only the high end saturates
            wire             ovf  = ~d2[QD-1] & (d2[QD-2] | d2[QD-3]);
            // sat_Q(base + QUOTA): MIN + QUOTA = {1, QUOTA} when base saturated at MIN
            wire [QW-1:0]    sum  = uf ? {1'b1, qv} : ovf ? {1'b0, {(QW-1){1'b1}}} : d2[QW-1:0];
            wire             qos  = qos_mask[gk];
            // timed: Rollover QoS slots add r = ROLLNEG ? base : max(base, 0), others load QUOTA
            wire             keep = m_qos & s_roll & qos & (rollneg | ~neg);
            wire [QW-1:0]    ld   = (timed & ~keep) ? {1'b0, qv} : sum;
            // exhausted refill: SMK every slot; QOS: Elastic every slot, else non-QoS slots
            wire             refl = m_smk | (m_qos & (s_elast | ~qos));
            wire             load = timed | (exhausted & refl);
            // a CNT[k] write replaces the computed value (every mode)
            wire             we_c = csr_we & is_at(csr_addr, `SMK_REG_CNT + gk);
            assign cnt_nx[gk*QW +: QW] = we_c ? csr_wdata[QW-1:0] : ~gating ? c : load ? ld : base;
        end
    endgenerate

    // ------------------------------------------------------------------ statistics
    wire [K*SW-1:0] thr_inc, wis_inc, idle_inc, cyc_inc;
    generate
        for (gk = 0; gk < K; gk = gk + 1) begin : g_stat
            assign thr_inc[gk*SW +: SW]  = sat_s({1'b0, thr[gk*SW +: SW]}
                                                 + {{(SX-DEC_W){1'b0}}, tin_r[gk*DEC_W +: DEC_W]});
            assign wis_inc[gk*SW +: SW]  = sat_s({1'b0, wis[gk*SW +: SW]}
                                                 + {{(SX-IIN_W){1'b0}}, iin_r[gk*IIN_W +: IIN_W]});
            // the sum in parallel with tick (the sampling timer's compare), tick picks it. Its
            // operand idle_cnt is warp_sched's popcount, in series in sm_top, so the sum is a carry
            // select: the low WCNT_W bits add, their carry picks the high part or the high part + 1
            // (from the register alone), and saturation is that carry with the high part all ones
            // (spec "Implementation notes"); the same value as sat_s(idle + idle_cnt)
            wire [SW-1:0] idle_add;
            if (SW > WCNT_W) begin : g_icsel
                localparam integer HW = SW - WCNT_W;
                wire [WCNT_W:0] il_lo = {1'b0, idle[gk*SW +: WCNT_W]} + {1'b0, idle_cnt[gk*WCNT_W +: WCNT_W]};
                wire [HW-1:0]   il_hi = idle[gk*SW + WCNT_W +: HW];
                wire [HW-1:0]   il_h1 = il_hi + {{(HW-1){1'b0}}, 1'b1};
                assign idle_add = (il_lo[WCNT_W] & (&il_hi)) ? {SW{1'b1}}
                                : {il_lo[WCNT_W] ? il_h1 : il_hi, il_lo[WCNT_W-1:0]};
            end else begin : g_iplain
                assign idle_add = sat_s({1'b0, idle[gk*SW +: SW]}
                                        + {{(SX-WCNT_W){1'b0}}, idle_cnt[gk*WCNT_W +: WCNT_W]});
            end
            assign idle_inc[gk*SW +: SW] = tick ? idle_add : idle[gk*SW +: SW];
            assign cyc_inc[gk*SW +: SW]  = sat_s({1'b0, cyc[gk*SW +: SW]}
                                                 + {{SW{1'b0}}, ks_active[gk]});
        end
    endgenerate

    wire [SW-1:0] nsamp_add  = sat_s({1'b0, nsamp} + {{SW{1'b0}}, 1'b1});
    wire [SW-1:0] nsamp_inc  = tick ? nsamp_add : nsamp;
    wire [SW-1:0] epochs_inc = sat_s({1'b0, epochs} + {{SW{1'b0}}, 1'b1});
    // ecnt + 1 <= 2^EW fits SW (hw/ guarantees SW >= EW + clog2(CP x warp_size) > EW)
    wire [SW-1:0] ep_len     = {{(SW-EW-1){1'b0}}, ecnt_inc};

    // ------------------------------------------------------------------ register writes
    wire we_ctrl = csr_we & is_at(csr_addr, `SMK_REG_SM_CTRL);
    wire we_elen = csr_we & is_at(csr_addr, `SMK_REG_EPOCH_LEN);
    wire we_sper = csr_we & is_at(csr_addr, `SMK_REG_SAMPLE_PER);
    wire we_qmsk = csr_we & is_at(csr_addr, `SMK_REG_QOS_MASK);
    wire [CTRL_W-1:0] ctrl_wd = {csr_wdata[`SMK_SM_CTRL_ROLLNEG_LSB +: F_RN_W],
                                 csr_wdata[`SMK_SM_CTRL_QSCHEME_LSB +: F_QS_W],
                                 csr_wdata[`SMK_SM_CTRL_QMODE_LSB +: F_QM_W],
                                 csr_wdata[`SMK_SM_CTRL_POLICY_LSB +: F_POL_W]};
    wire [K*(QW-1)-1:0] quota_nx;
    generate
        for (gk = 0; gk < K; gk = gk + 1) begin : g_quota
            wire we_q = csr_we & is_at(csr_addr, `SMK_REG_QUOTA + gk);
            assign quota_nx[gk*(QW-1) +: QW-1] = we_q ? csr_wdata[QW-2:0] : quota[gk*(QW-1) +: QW-1];
        end
    endgenerate

    // ------------------------------------------------------------------ clock edge
    always @(posedge clk) begin
        if (rst) begin
            sm_ctrl    <= {CTRL_W{1'b0}};
            epoch_len  <= {EW{1'b0}};
            sample_per <= {EW{1'b0}};
            qos_mask   <= {K{1'b0}};
            quota      <= {K*(QW-1){1'b0}};
            cnt        <= {K*QW{1'b0}};
            ecnt       <= {EW{1'b0}};
            scnt       <= {EW{1'b0}};
            epochs     <= {SW{1'b0}};
            ep_cycles  <= {SW{1'b0}};
            ep_samples <= {SW{1'b0}};
            nsamp      <= {SW{1'b0}};
            thr        <= {K*SW{1'b0}};
            wis        <= {K*SW{1'b0}};
            idle       <= {K*SW{1'b0}};
            cyc        <= {K*SW{1'b0}};
            s_thr      <= {K*SW{1'b0}};
            s_wis      <= {K*SW{1'b0}};
            s_idle     <= {K*SW{1'b0}};
            s_cyc      <= {K*SW{1'b0}};
            tin_r      <= {K*DEC_W{1'b0}};
            iin_r      <= {K*IIN_W{1'b0}};
        end else begin
            tin_r <= tin;  // stage 1: every cycle, in every mode
            iin_r <= iin;
            if (we_ctrl) sm_ctrl    <= ctrl_wd;
            if (we_elen) epoch_len  <= csr_wdata[EW-1:0];
            if (we_sper) sample_per <= csr_wdata[EW-1:0];
            if (we_qmsk) qos_mask   <= csr_wdata[K-1:0];
            quota <= quota_nx;
            cnt   <= cnt_nx;
            ecnt  <= snap ? {EW{1'b0}} : (ecnt_inc[EW] ? ecnt : ecnt_inc[EW-1:0]);
            scnt  <= (snap | tick) ? {EW{1'b0}} : (scnt_inc[EW] ? scnt : scnt_inc[EW-1:0]);
            if (snap) begin
                epochs     <= epochs_inc;
                ep_cycles  <= ep_len;
                ep_samples <= nsamp_inc;
                nsamp      <= {SW{1'b0}};
                thr        <= {K*SW{1'b0}};
                wis        <= {K*SW{1'b0}};
                idle       <= {K*SW{1'b0}};
                cyc        <= {K*SW{1'b0}};
                s_thr      <= thr_inc;
                s_wis      <= wis_inc;
                s_idle     <= idle_inc;
                s_cyc      <= cyc_inc;
            end else begin
                nsamp      <= nsamp_inc;
                thr        <= thr_inc;
                wis        <= wis_inc;
                idle       <= idle_inc;
                cyc        <= cyc_inc;
            end
        end
    end

    // ------------------------------------------------------------------ register read
    reg [DW-1:0] ctrl_rd;
    always @* begin : p_ctrl_rd
        ctrl_rd = {DW{1'b0}};
        ctrl_rd[`SMK_SM_CTRL_POLICY_LSB +: F_POL_W]  = sm_ctrl[I_POL +: F_POL_W];
        ctrl_rd[`SMK_SM_CTRL_QMODE_LSB +: F_QM_W]    = sm_ctrl[I_QM +: F_QM_W];
        ctrl_rd[`SMK_SM_CTRL_QSCHEME_LSB +: F_QS_W]  = sm_ctrl[I_QS +: F_QS_W];
        ctrl_rd[`SMK_SM_CTRL_ROLLNEG_LSB +: F_RN_W]  = sm_ctrl[I_RN +: F_RN_W];
    end

    // Register arrays (one word per slot).  A base aligned to 2^KS_W is decoded as group
    // (upper address bits) + index mux tree (low KS_W bits); otherwise one compare per word.
    localparam NARR = 6;
    localparam KP   = 1 << KS_W;
    function integer abase(input integer n);
        case (n)
            0:       abase = `SMK_REG_QUOTA;
            1:       abase = `SMK_REG_CNT;
            2:       abase = `SMK_REG_STAT_THR;
            3:       abase = `SMK_REG_STAT_WIS;
            4:       abase = `SMK_REG_STAT_IDLE;
            default: abase = `SMK_REG_STAT_CYC;
        endcase
    endfunction

    // rd_addr >> KS_W is g
    function in_grp(input [ADDR_W-1:0] x, input integer g);
        integer xi;
        begin
            xi = 0;
            xi[ADDR_W-1:0] = x;
            in_grp = ((xi >> KS_W) == g);
        end
    endfunction

    wire [NARR*K*DW-1:0] awords;
    generate
        for (gk = 0; gk < K; gk = gk + 1) begin : g_words
            assign awords[(0*K+gk)*DW +: DW] = zx_q1(quota[gk*(QW-1) +: QW-1]);
            assign awords[(1*K+gk)*DW +: DW] = sx_q(cnt[gk*QW +: QW]);
            assign awords[(2*K+gk)*DW +: DW] = zx_s(s_thr[gk*SW +: SW]);
            assign awords[(3*K+gk)*DW +: DW] = zx_s(s_wis[gk*SW +: SW]);
            assign awords[(4*K+gk)*DW +: DW] = zx_s(s_idle[gk*SW +: SW]);
            assign awords[(5*K+gk)*DW +: DW] = zx_s(s_cyc[gk*SW +: SW]);
        end
    endgenerate

    wire [NARR*DW-1:0] ardata;  // per array: selected word, 0 if the address is not in it
    genvar ga;
    generate
        for (ga = 0; ga < NARR; ga = ga + 1) begin : g_arr
            localparam integer B = abase(ga);
            wire [K*DW-1:0] wds = awords[ga*K*DW +: K*DW];
            if (B % KP == 0) begin : g_aligned
                wire [KS_W-1:0] ix = rd_addr[KS_W-1:0];
                wire            hit;
                if (K == KP) begin : g_full
                    assign hit = in_grp(rd_addr, B / KP);
                end else begin : g_part
                    localparam [KS_W-1:0] KV = K;
                    assign hit = in_grp(rd_addr, B / KP) & (ix < KV);
                end
                reg [DW-1:0] sel;
                always @* begin : p_tree
                    integer b, n;
                    reg [KP*DW-1:0] t;
                    t = {KP*DW{1'b0}};
                    t[K*DW-1:0] = wds;
                    for (b = 0; b < KS_W; b = b + 1)
                        for (n = 0; n < (KP >> (b + 1)); n = n + 1)
                            t[n*DW +: DW] = ix[b] ? t[(2*n+1)*DW +: DW] : t[(2*n)*DW +: DW];
                    sel = t[0 +: DW];
                end
                assign ardata[ga*DW +: DW] = {DW{hit}} & sel;
            end else begin : g_unaligned
                reg [DW-1:0] sel;
                always @* begin : p_andor
                    integer n;
                    sel = {DW{1'b0}};
                    for (n = 0; n < K; n = n + 1)
                        sel = sel | ({DW{is_at(rd_addr, B + n)}} & wds[n*DW +: DW]);
                end
                assign ardata[ga*DW +: DW] = sel;
            end
        end
    endgenerate

    always @* begin : p_rd
        integer n;
        rd_data = {DW{1'b0}};
        rd_data = rd_data | ({DW{is_at(rd_addr, `SMK_REG_SM_CTRL)}}    & ctrl_rd);
        rd_data = rd_data | ({DW{is_at(rd_addr, `SMK_REG_EPOCH_LEN)}}  & zx_e(epoch_len));
        rd_data = rd_data | ({DW{is_at(rd_addr, `SMK_REG_SAMPLE_PER)}} & zx_e(sample_per));
        rd_data = rd_data | ({DW{is_at(rd_addr, `SMK_REG_QOS_MASK)}}   & zx_k(qos_mask));
        rd_data = rd_data | ({DW{is_at(rd_addr, `SMK_REG_EPOCH_CNT)}}  & zx_s(epochs));
        rd_data = rd_data | ({DW{is_at(rd_addr, `SMK_REG_EP_CYCLES)}}  & zx_s(ep_cycles));
        rd_data = rd_data | ({DW{is_at(rd_addr, `SMK_REG_EP_SAMPLES)}} & zx_s(ep_samples));
        for (n = 0; n < NARR; n = n + 1)
            rd_data = rd_data | ardata[n*DW +: DW];
    end

    // bits of the write data that no register holds
    wire unused_wdata = &{1'b0, csr_wdata};

`ifdef SMK_COVER
    // ------------------------------------------------------------------ cover points
    // One labelled point per case of each numbered combinational rule of docs/quota_unit.md and of
    // its clock-edge rules (make coverage with --coverage-user +define+SMK_COVER; docs/verification.md
    // "Coverage"): c_qu_c<N>_* combinational rule N; the clock-edge rules, which the spec does not
    // number: c_qu_t_* the counter table, c_qu_s1_* stage 1, c_qu_tm_* the timers, c_qu_st_* the
    // live statistics, c_qu_snap_* the snapshot, c_qu_csr_* the CSR writes. A point inside a
    // generate loop counts once, hit if any slot or port hit it. Not seen by synthesis or the other
    // builds. Plain expressions only in the conditions: with a function call (is_at) in one this
    // tool version never counted the point.
    wire cv_naive = ~s_elast & ~s_roll;
    wire [K-1:0] cv_tin2, cv_iin2;  // two or more completions / issues of one slot in the cycle
    wire [CP-1:0] cv_clamp;         // a completion port's active count above warp_size
    genvar cv_g;
    for (cv_g = 0; cv_g < K; cv_g = cv_g + 1) begin : g_cv_sum
        assign cv_tin2[cv_g] = (tin[cv_g*DEC_W +: DEC_W] > WS[DEC_W-1:0]);
        assign cv_iin2[cv_g] = |(iin[cv_g*IIN_W +: IIN_W] >> 1);   // >= 2 (never with one scheduler)
    end
    for (cv_g = 0; cv_g < CP; cv_g = cv_g + 1) begin : g_cv_act
        assign cv_clamp[cv_g] = cp_v[cv_g] & (cp_act[cv_g*ACT_W +: ACT_W] > ACT_MAX);
    end
    // rule 1: each mode and scheme in use; QMODE 3; a mask with active QoS and non-QoS slots
    c_qu_c1_smk:          cover property (@(posedge clk) !rst && m_smk);
    c_qu_c1_qos_naive:    cover property (@(posedge clk) !rst && m_qos && cv_naive);
    c_qu_c1_qos_elastic:  cover property (@(posedge clk) !rst && m_qos && s_elast);
    c_qu_c1_qos_rollover: cover property (@(posedge clk) !rst && m_qos && s_roll && !s_rtime);
    c_qu_c1_qos_rtime:    cover property (@(posedge clk) !rst && m_qos && s_rtime);
    c_qu_c1_mode3:        cover property (@(posedge clk) !rst && qmode == 2'd3 && (|ks_active));
    c_qu_c1_mixed_mask:   cover property (@(posedge clk) !rst && m_qos && (|(ks_active & qos_mask)) && (|(ks_active & ~qos_mask)));
    // rule 2: OFF or 3 lets an active slot without quota issue; gating blocks an active slot; the
    // Rollover-Time gate holds a non-QoS slot that has quota; a QoS slot with quota but no warps
    // does not hold the gate
    c_qu_c2_off_pass:     cover property (@(posedge clk) !rst && !gating && (|(ks_active & ~pos)));
    c_qu_c2_block:        cover property (@(posedge clk) !rst && gating && (|(ks_active & ~qallow)));
    c_qu_c2_rt_hold:      cover property (@(posedge clk) !rst && rt_hold && (|(pos & ~qos_mask & ks_active)));
    c_qu_c2_rt_no_warps:  cover property (@(posedge clk) !rst && m_qos && s_rtime && !rt_hold
                                          && (|(pos & qos_mask & ~ks_active)) && (|(pos & ~qos_mask & ks_active)));
    // rule 3: completions of one slot on two ports add up; an active count clamped to warp_size;
    // issues of one slot by two schedulers add up
    c_qu_c3_tin_sum:      cover property (@(posedge clk) !rst && (|cv_tin2));
    c_qu_c3_act_clamp:    cover property (@(posedge clk) !rst && (|cv_clamp));
    c_qu_c3_iin_sum:      cover property (@(posedge clk) !rst && (|cv_iin2));
    // rule 6: exhausted while gating; a slot without warps but with quota does not prevent it
    c_qu_c6_exhausted:    cover property (@(posedge clk) !rst && gating && exhausted);
    c_qu_c6_inactive_pos: cover property (@(posedge clk) !rst && gating && exhausted && (|(pos & ~ks_active)));
    // rule 7: the timer ends an epoch; EPOCH_LEN shrunk below ecnt ends it at once (>=); CMD with
    // EPOCH_START alone, SNAP alone, both
    c_qu_c7_tmr:          cover property (@(posedge clk) !rst && tmr);
    c_qu_c7_tmr_shrunk:   cover property (@(posedge clk) !rst && tmr && ecnt_inc > {1'b0, epoch_len});
    c_qu_c7_cmd_start:    cover property (@(posedge clk) !rst && cmd_start && !cmd_snap);
    c_qu_c7_cmd_snap:     cover property (@(posedge clk) !rst && cmd_snap && !cmd_start);
    c_qu_c7_cmd_both:     cover property (@(posedge clk) !rst && cmd_start && cmd_snap);
    // rule 8: an Elastic early start; a timed boundary takes precedence over it
    c_qu_c8_early:        cover property (@(posedge clk) !rst && early);
    c_qu_c8_timed_first:  cover property (@(posedge clk) !rst && timed && exhausted && m_qos && s_elast);
    // rule 9: a sampling tick; SAMPLE_PER shrunk below scnt ticks at once (>=)
    c_qu_c9_tick:         cover property (@(posedge clk) !rst && tick);
    c_qu_c9_tick_shrunk:  cover property (@(posedge clk) !rst && tick && scnt_inc > {1'b0, sample_per});
    // stage 1 (a pure delay line): a mode change with this cycle's sums pending (they are applied
    // under the new mode)
    c_qu_s1_mode_change:  cover property (@(posedge clk) !rst && we_ctrl && ctrl_wd[I_QM +: F_QM_W] != qmode
                                          && ((|tin) || (|iin)));
    // timers: ecnt and scnt saturate at 2^EW-1 (no snapshot, no tick); a snapshot restarts the
    // sampling timer between ticks
    c_qu_tm_ecnt_sat:     cover property (@(posedge clk) !rst && !snap && ecnt_inc[EW]);
    c_qu_tm_scnt_sat:     cover property (@(posedge clk) !rst && !snap && !tick && scnt_inc[EW]);
    c_qu_tm_snap_scnt:    cover property (@(posedge clk) !rst && snap && !tick && scnt != {EW{1'b0}});
    // statistics: nsamp or EPOCH_CNT saturates at 2^SW-1 (sat_S)
    c_qu_st_cnt_sat:      cover property (@(posedge clk) !rst && ((&nsamp && tick) || (&epochs && snap)));
    // snapshot: it takes this cycle's tick into EP_SAMPLES; it takes this cycle's increment
    c_qu_snap_tick:       cover property (@(posedge clk) !rst && snap && tick);
    c_qu_snap_incr:       cover property (@(posedge clk) !rst && snap && (|tin_r));
    // CSR writes: a write to a read-only or unmapped address is ignored; a QUOTA write in a
    // boundary cycle (used from the next load on)
    c_qu_csr_ro_write:    cover property (@(posedge clk) !rst && csr_we && !we_ctrl && !we_elen && !we_sper && !we_qmsk
                                          && !cmd_start && !cmd_snap && (csr_addr >= `SMK_REG_EPOCH_CNT)
                                          && !(csr_addr >= `SMK_REG_QUOTA && csr_addr < `SMK_REG_QUOTA + K)
                                          && !(csr_addr >= `SMK_REG_CNT && csr_addr < `SMK_REG_CNT + K));
    c_qu_csr_quota_boundary: cover property (@(posedge clk) !rst && boundary && csr_we
                                          && csr_addr >= `SMK_REG_QUOTA && csr_addr < `SMK_REG_QUOTA + K);

    // per slot: rules 4 and 5, the counter table, stage 1 at a CNT write and a boundary, the live
    // statistics
    for (cv_g = 0; cv_g < K; cv_g = cv_g + 1) begin : g_cv_slot
        // g_cnt's values of the slot, again from the module's signals by plain arithmetic (a
        // reference into g_cnt fails to elaborate under gpu_top's several instances in this tool
        // version): cd = cnt - dec, d2 = cnt - dec + QUOTA, QW+2 bits two's complement
        wire [DEC_W-1:0] ti = tin_r[cv_g*DEC_W +: DEC_W], tn = tin[cv_g*DEC_W +: DEC_W];
        wire [QW-1:0]    c  = cnt[cv_g*QW +: QW];
        wire [DEC_W-1:0] dec = m_qos ? ti : m_smk ? {{(DEC_W-IIN_W){1'b0}}, iin_r[cv_g*IIN_W +: IIN_W]} : {DEC_W{1'b0}};
        wire [QW+1:0]    cd  = {{2{c[QW-1]}}, c} - {{(QW+2-DEC_W){1'b0}}, dec};
        wire [QW+1:0]    d2  = cd + {3'b000, quota[cv_g*(QW-1) +: QW-1]};
        wire qos  = qos_mask[cv_g];
        wire neg  = cd[QW+1];                         // cnt - dec < 0
        wire uf   = neg & ~(cd[QW] & cd[QW-1]);       // cnt - dec < -2^(QW-1): base saturates
        wire ovf  = ~d2[QW+1] & (d2[QW] | d2[QW-1]);  // cnt - dec + QUOTA > 2^(QW-1)-1
        wire base_nz = |cd;
        wire we_c = csr_we && csr_addr == `SMK_REG_CNT + cv_g;
        wire load = timed | (exhausted & (m_smk | (m_qos & (s_elast | ~qos))));
        wire keep = m_qos & s_roll & qos & (rollneg | ~neg);
        wire [IIN_W-1:0] ii = iin_r[cv_g*IIN_W +: IIN_W], in_ = iin[cv_g*IIN_W +: IIN_W];
        wire [WCNT_W-1:0] ic = idle_cnt[cv_g*WCNT_W +: WCNT_W];
        wire ld = ~we_c & gating & load;   // a load row of the table decides cnt'
        wire rl = m_qos & s_roll;          // Rollover or Rollover-Time
        // rule 4: the decrement from completions (QOS), from issues (SMK); OFF ignores both
        c_qu_c4_dec_qos:       cover property (@(posedge clk) !rst && m_qos && ti != {DEC_W{1'b0}});
        c_qu_c4_dec_smk:       cover property (@(posedge clk) !rst && m_smk && ii != {IIN_W{1'b0}});
        c_qu_c4_dec_off:       cover property (@(posedge clk) !rst && !gating && (ti != {DEC_W{1'b0}} || ii != {IIN_W{1'b0}}));
        // rule 5: base saturates at -2^(QW-1) and is the next counter value
        c_qu_c5_sat:           cover property (@(posedge clk) !rst && !we_c && gating && !load && uf);
        // table, OFF / 3: a boundary or exhaustion while the counters hold
        c_qu_t_off_hold:       cover property (@(posedge clk) !rst && !we_c && !gating && (timed || exhausted));
        // SMK: timed load of QUOTA; refill of every slot on exhaustion
        c_qu_t_smk_timed:      cover property (@(posedge clk) !rst && ld && m_smk && timed);
        c_qu_t_smk_refill:     cover property (@(posedge clk) !rst && ld && m_smk && !timed);
        // QOS Naive: timed load; mid-epoch refill of a non-QoS slot; a QoS slot keeps base
        c_qu_t_naive_timed:    cover property (@(posedge clk) !rst && ld && m_qos && cv_naive && timed);
        c_qu_t_naive_refill:   cover property (@(posedge clk) !rst && ld && m_qos && cv_naive && !timed && !qos);
        c_qu_t_naive_qos_base: cover property (@(posedge clk) !rst && !we_c && m_qos && cv_naive && !timed && exhausted && qos);
        // QOS Elastic: timed load; the early start refills a QoS slot too
        c_qu_t_elastic_timed:  cover property (@(posedge clk) !rst && ld && m_qos && s_elast && timed);
        c_qu_t_elastic_early:  cover property (@(posedge clk) !rst && ld && m_qos && s_elast && !timed && qos);
        // QOS Rollover (and -Time): a QoS slot's positive leftover rolls over; a debt forgiven
        // (ROLLNEG 0); a debt carried (ROLLNEG 1); a non-QoS slot loads QUOTA; the mid-epoch refill
        // of a non-QoS slot; Rollover-Time's QoS rollover
        c_qu_t_roll_keep:      cover property (@(posedge clk) !rst && ld && rl && timed && qos && !neg && base_nz);
        c_qu_t_roll_forgive:   cover property (@(posedge clk) !rst && ld && rl && timed && qos && !rollneg && neg);
        c_qu_t_roll_debt:      cover property (@(posedge clk) !rst && ld && rl && timed && qos && rollneg && neg);
        c_qu_t_roll_nonqos:    cover property (@(posedge clk) !rst && ld && rl && timed && !qos);
        c_qu_t_roll_refill:    cover property (@(posedge clk) !rst && ld && rl && !timed && !qos);
        c_qu_t_rtime_keep:     cover property (@(posedge clk) !rst && ld && m_qos && s_rtime && timed && keep);
        // sat_Q of a sum: base + QUOTA above 2^(QW-1)-1; the sum after base saturated low
        c_qu_t_sum_sat:        cover property (@(posedge clk) !rst && ld && !(timed && !keep) && ovf && !uf);
        c_qu_t_sum_after_uf:   cover property (@(posedge clk) !rst && ld && !(timed && !keep) && uf);
        // a CNT write replaces the computed value, also at a load
        c_qu_t_cnt_write:      cover property (@(posedge clk) !rst && we_c && gating);
        c_qu_t_cnt_write_load: cover property (@(posedge clk) !rst && we_c && gating && load);
        // stage 1 at a CNT write: this cycle's sums are charged against the written value
        c_qu_s1_cnt_write:     cover property (@(posedge clk) !rst && we_c && gating
                                               && (m_qos ? tn != {DEC_W{1'b0}} : in_ != {IIN_W{1'b0}}));
        // stage 1 at a boundary: the last cycle's decrement is in base at a load
        c_qu_s1_boundary:      cover property (@(posedge clk) !rst && ld && timed && dec != {DEC_W{1'b0}});
        // live statistics: a tick samples a non-zero idle count; a statistic saturates at 2^SW-1
        c_qu_st_idle_sample:   cover property (@(posedge clk) !rst && tick && ic != {WCNT_W{1'b0}});
        c_qu_st_sat:           cover property (@(posedge clk) !rst
            && ((&thr[cv_g*SW +: SW] && ti != {DEC_W{1'b0}}) || (&wis[cv_g*SW +: SW] && ii != {IIN_W{1'b0}})
             || (&idle[cv_g*SW +: SW] && tick && ic != {WCNT_W{1'b0}}) || (&cyc[cv_g*SW +: SW] && ks_active[cv_g])));
    end
`endif

endmodule
`default_nettype wire
