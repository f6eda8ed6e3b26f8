`default_nettype none
`include "smk_cfg.vh"
// quota_unit_props: the quota counters' clock-edge rules of docs/quota_unit.md ("Combinational
// rules" 1-8 and the "Clock-edge rules" table), written again from the spec and proven against
// rtl/quota_unit.v by testbench/formal/formal.sh (Yosys SAT, temporal induction).
//
// Every input of the unit is free. The unit's registers the rules read (cnt, SM_CTRL, QOS_MASK,
// QUOTA, ecnt, EPOCH_LEN and stage 1, tin_r / iin_r) reach this module through the p_* wires, which
// formal.sh connects to them after flattening (`connect -set p_cnt u.cnt` ...). From them and the
// inputs of cycle t the spec's cnt'[k] is computed here, registered, and compared with the unit's
// cnt at t+1, in four assertions per slot:
//   sat   no boundary, no refill: cnt' = base = sat_Q(cnt - dec) (saturation, never a wrap)
//   roll  timed boundary in QOS + ROLLOVER or ROLLOVER_TIME: QoS slot sat_Q(QUOTA + r), r = ROLLNEG ? base :
//         max(base, 0); non-QoS slot QUOTA (only the QoS leftover rolls over)
//   fill  no timed boundary, exhausted: the refill rules (SMK every slot; QOS ELASTIC every slot;
//         QOS NAIVE / ROLLOVER non-QoS slots only) add QUOTA to base, other slots keep base
//   other a CNT[k] write, OFF mode, the timed boundary of SMK / NAIVE / ELASTIC
// and the stage-1 rule, two assertions per slot:
//   tin   tin_r' = tin = sum of act(p) over the completions of slot k (every cycle, every mode)
//   iin   iin_r' = iin = the number of issues of slot k
// The decrement of cycle t is the stage-1 sum (tin_r in QOS, iin_r in SMK, rule 4), not the ports.
module quota_unit_props #(
    parameter K = `SMK_KSLOTS, parameter S = `SMK_SCHED, parameter CP = `SMK_CP,
    parameter KS_W = `SMK_KS_W, parameter ACT_W = `SMK_ACT_W, parameter WCNT_W = `SMK_WCNT_W,
    parameter QW = `SMK_QUOTA_W, parameter EW = `SMK_EPOCH_W, parameter WS = `SMK_WARP_SIZE,
    parameter ADDR_W = `SMK_ADDR_W, parameter DW = `SMK_DATA_W
) (
    input wire clk, input wire rst, input wire csr_we, input wire [ADDR_W-1:0] csr_addr,
    input wire [DW-1:0] csr_wdata, input wire [ADDR_W-1:0] rd_addr, input wire [S-1:0] iss_v,
    input wire [S*KS_W-1:0] iss_ks, input wire [CP-1:0] cp_v, input wire [CP*KS_W-1:0] cp_ks,
    input wire [CP*ACT_W-1:0] cp_act, input wire [K*WCNT_W-1:0] idle_cnt, input wire [K-1:0] ks_active
);
    function integer clog2(input integer v);
        integer n;
        begin
            n = 1;
            while ((1 << n) < v) n = n + 1;
            clog2 = n;
        end
    endfunction
    localparam DEC_W = `SMK_DEC_W;
    localparam IIN_W = clog2(S + 1);
    localparam CTRL_W = `SMK_SM_CTRL_POLICY_W + `SMK_SM_CTRL_QMODE_W + `SMK_SM_CTRL_QSCHEME_W + `SMK_SM_CTRL_ROLLNEG_W;
    wire [DW-1:0] rd_data;
    wire [K-1:0] qallow;
    wire policy, epoch_end;
    quota_unit u (.clk(clk), .rst(rst), .csr_we(csr_we), .csr_addr(csr_addr), .csr_wdata(csr_wdata),
        .rd_addr(rd_addr), .rd_data(rd_data), .iss_v(iss_v), .iss_ks(iss_ks), .cp_v(cp_v), .cp_ks(cp_ks),
        .cp_act(cp_act), .idle_cnt(idle_cnt), .ks_active(ks_active), .qallow(qallow), .policy(policy),
        .epoch_end(epoch_end));

    // the unit's registers (connected by formal.sh); SM_CTRL packed POLICY | QMODE | QSCHEME | ROLLNEG
    (* keep *) wire [K*QW-1:0]     p_cnt;
    (* keep *) wire [CTRL_W-1:0]   p_ctrl;
    (* keep *) wire [K-1:0]        p_qmask;
    (* keep *) wire [K*(QW-1)-1:0] p_quota;
    (* keep *) wire [EW-1:0]       p_ecnt;
    (* keep *) wire [EW-1:0]       p_elen;
    (* keep *) wire [K*`SMK_DEC_W-1:0] p_tin;
    (* keep *) wire [K*IIN_W-1:0]  p_iin;

    localparam I_QM = `SMK_SM_CTRL_POLICY_W;
    localparam I_QS = I_QM + `SMK_SM_CTRL_QMODE_W;
    localparam I_RN = I_QS + `SMK_SM_CTRL_QSCHEME_W;
    wire [`SMK_SM_CTRL_QMODE_W-1:0]   mode   = p_ctrl[I_QM +: `SMK_SM_CTRL_QMODE_W];
    wire [`SMK_SM_CTRL_QSCHEME_W-1:0] scheme = p_ctrl[I_QS +: `SMK_SM_CTRL_QSCHEME_W];
    wire rollneg = p_ctrl[I_RN];
    wire m_smk = mode == `SMK_QMODE_SMK, m_qos = mode == `SMK_QMODE_QOS;
    wire s_el = scheme == `SMK_QSCHEME_ELASTIC, s_ro = scheme == `SMK_QSCHEME_ROLLOVER || scheme == `SMK_QSCHEME_ROLLOVER_TIME;

    function integer sat_q(input integer x);
        sat_q = x > (1 << (QW - 1)) - 1 ? (1 << (QW - 1)) - 1 : x < -(1 << (QW - 1)) ? -(1 << (QW - 1)) : x;
    endfunction

    // rules 3-8 and the table, per slot
    reg [K*QW-1:0] exp_nx;
    reg [K-1:0] c_sat, c_roll, c_fill; // which assertion checks slot k next cycle
    reg [K*DEC_W-1:0] tin_nx;          // stage 1: this cycle's sums
    reg [K*IIN_W-1:0] iin_nx;
    always @* begin : spec
        integer k, p, d, c, base, q, r, nx, a, ti, ii;
        reg timed, exhausted, we_c, refl;
        timed = ((p_elen != 0) && ({1'b0, p_ecnt} + 1 >= {1'b0, p_elen}))
              || (csr_we && csr_addr == `SMK_REG_CMD && csr_wdata[`SMK_CMD_EPOCH_START_LSB]);
        exhausted = ks_active != 0;
        for (k = 0; k < K; k = k + 1)
            if (ks_active[k] && $signed(p_cnt[k*QW +: QW]) > 0) exhausted = 1'b0;
        for (k = 0; k < K; k = k + 1) begin
            ti = 0;
            ii = 0;
            for (p = 0; p < CP; p = p + 1) begin
                a = cp_act[p*ACT_W +: ACT_W];
                if (cp_v[p] && cp_ks[p*KS_W +: KS_W] == k) ti = ti + (a > WS ? WS : a);
            end
            for (p = 0; p < S; p = p + 1)
                if (iss_v[p] && iss_ks[p*KS_W +: KS_W] == k) ii = ii + 1;
            tin_nx[k*DEC_W +: DEC_W] = ti[DEC_W-1:0];
            iin_nx[k*IIN_W +: IIN_W] = ii[IIN_W-1:0];
            // rule 4: the decrement is last cycle's sum (stage 1) under this cycle's mode
            d = m_qos ? p_tin[k*DEC_W +: DEC_W] : m_smk ? p_iin[k*IIN_W +: IIN_W] : 0;
            c = $signed(p_cnt[k*QW +: QW]);
            base = sat_q(c - d);
            q = p_quota[k*(QW-1) +: QW-1];
            we_c = csr_we && csr_addr == `SMK_REG_CNT + k;
            refl = m_smk || (m_qos && (s_el || !p_qmask[k]));
            c_sat[k] = 1'b0; c_roll[k] = 1'b0; c_fill[k] = 1'b0;
            if (we_c) nx = csr_wdata[QW-1:0];
            else if (!m_smk && !m_qos) nx = c;
            else if (timed) begin
                if (m_qos && s_ro) begin
                    c_roll[k] = 1'b1;
                    r = (rollneg || base > 0) ? base : 0;
                    nx = p_qmask[k] ? sat_q(q + r) : q;
                end else nx = q;
            end else if (exhausted) begin
                c_fill[k] = 1'b1;
                nx = refl ? sat_q(base + q) : base;
            end else begin
                c_sat[k] = 1'b1;
                nx = base;
            end
            exp_nx[k*QW +: QW] = nx[QW-1:0];
        end
    end

    reg chk = 1'b0;
    reg [K*QW-1:0] exp_q;
    reg [K-1:0] sat_q_, roll_q, fill_q;
    reg [K*DEC_W-1:0] tin_q;
    reg [K*IIN_W-1:0] iin_q;
    always @(posedge clk) begin
        chk <= !rst;
        exp_q <= exp_nx;
        sat_q_ <= c_sat; roll_q <= c_roll; fill_q <= c_fill;
        tin_q <= tin_nx; iin_q <= iin_nx;
    end
    genvar gk;
    generate
        for (gk = 0; gk < K; gk = gk + 1) begin : g_chk
            wire ok = p_cnt[gk*QW +: QW] == exp_q[gk*QW +: QW];
            always @* begin
                if (chk && sat_q_[gk]) assert (ok);                 // sat
                if (chk && roll_q[gk]) assert (ok);                 // roll
                if (chk && fill_q[gk]) assert (ok);                 // fill
                if (chk && !sat_q_[gk] && !roll_q[gk] && !fill_q[gk]) assert (ok); // other
                if (chk) assert (p_tin[gk*DEC_W +: DEC_W] == tin_q[gk*DEC_W +: DEC_W]); // tin
                if (chk) assert (p_iin[gk*IIN_W +: IIN_W] == iin_q[gk*IIN_W +: IIN_W]); // iin
            end
        end
    endgenerate
endmodule
