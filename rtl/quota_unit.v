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
    wire tmr       = (|epoch_len) & (ecnt_inc >= {1'b0, epoch_len});
    wire timed     = tmr | cmd_start;
    wire early     = ~timed & exhausted & m_qos & s_elast;
    wire boundary  = timed | early;
    // statistics snapshot, EP_* / EPOCH_CNT and timer restart (docs/qos_mgr.md section 11):
    // the SM's own timer or CMD.SNAP; early (Elastic) boundaries and CMD.EPOCH_START alone do not
    wire snap      = tmr | cmd_snap;
    wire tick      = (|sample_per) & (scnt_inc >= {1'b0, sample_per});

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
            // the sum in parallel with tick (the sampling timer's compare), tick picks it
            wire [SW-1:0] idle_add = sat_s({1'b0, idle[gk*SW +: SW]}
                                           + {{(SX-WCNT_W){1'b0}}, idle_cnt[gk*WCNT_W +: WCNT_W]});
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

endmodule
`default_nettype wire
