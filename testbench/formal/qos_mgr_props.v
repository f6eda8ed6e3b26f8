`default_nettype none
`include "smk_cfg.vh"
`include "smk_prims.vh"
// qos_mgr_props: the compute microprogram's timing of docs/qos_mgr.md sections 6 and 7, proven
// against rtl/qos_mgr.v by testbench/formal/formal.sh (Yosys SAT, temporal induction from reset).
//
// Every input of the manager is free (host writes of MCTRL / EPOCH_LEN at any cycle, launches,
// completions, lookup results, SM read data, request acks); nothing is assumed. The manager's
// registers reach this module through the p_* wires, connected by formal.sh after flattening.
//
// The spec: the microprogram "starts in the cycle with et == L - LC (the SNAP cycle) and its last
// cycle is et == L - 1, which writes CMD.EPOCH_START" (section 6 "Timeline state", RUN), with the
// step lengths of tables 7.1-7.4 (S 1, G KN*NSM+1, C1 KN x (4+5D+3(MM-1)), C2 KN x (2+D+2(MM-1)),
// W KN*NSM+MM+1, F0-F3 4; SMK: S 1, R KN x D, per SM A KN+MM, Fd D, B KN+MM, then F0-F3; MM = 4
// cycles per MUL) and LC of section 7.5.
// From the microprogram position (ph, pn, pk, ps, sub, cy: the RTL's free encoding, section 13)
// r(pos) below is the relative cycle the tables give to that position; the properties are
//   M1 in RUN with a step in progress: et == L - LC(cur_mode) + r(pos), 1 <= r(pos) <= LC - 1
//      (the result is ready, and the datapath idle again, within the LC cycles of the spec);
//   M2 F3 (the last F step) is the cycle et == L - 1; the edge after it returns the position to idle;
//   M3 outside RUN no step is in progress; in RUN with no step, et <= L - LC(cur_mode), and
//      LC(cur_mode) <= L < 2^EW (section 6: L = max(EPOCH_LEN, LC), EPOCH_LEN has EW bits);
//   M4 the step cycle counter cy stays below D and, while a step is in progress, below MM in a MUL
//      sub-step (c1.4, c1.6, c1.7, c2.0, c2.1) and in A and B (their pipeline tails), and is 0
//      outside these and the divide sub-steps (c1.1-c1.3, c1.5, c1.8, c2.2, R, Fd): each divide
//      takes exactly D cycles, each MUL MM (section 2). (An abandoned program may leave cy stale;
//      the S cycle clears it.)
//   M5 the register Ls always equals L - LC(cur_mode) modulo 2^(EW+1) (the RTL's SNAP-cycle test
//      et == Ls, docs/qos_mgr.md section 6).
module qos_mgr_props #(
    parameter NSM = `SMK_NUM_SM, parameter KN = `SMK_KERNELS, parameter KW = `SMK_KID_W,
    parameter SMW = `SMK_SMW, parameter EW = `SMK_EPOCH_W, parameter MA_W = `SMK_QM_ADDR_W,
    parameter WID_W = `SMK_WID_W, parameter GVW = `SMK_TBS_W + 1
) (
    input wire clk, input wire rst, input wire m_we, input wire [MA_W-1:0] m_addr,
    input wire [31:0] m_wdata, input wire [MA_W-1:0] m_raddr, input wire [NSM*32-1:0] rd_data,
    input wire kl_v, input wire [KW-1:0] kl_k, input wire [WID_W:0] kl_n, input wire kl_qos,
    input wire [31:0] kl_goal, input wire [16:0] kl_x, input wire [GVW-1:0] kl_t, input wire kl_keep,
    input wire kl_rej, input wire kdone_v, input wire [KW-1:0] kdone_k,
    input wire [GVW-1:0] lk_cnt, input wire [GVW-1:0] lk_part, input wire lk_ksv,
    input wire [`SMK_KS_W-1:0] lk_ks, input wire rq_rdy, input wire rq_ack_v, input wire [1:0] rq_ack_st,
    input wire [KW-1:0] rq_ack_kv, input wire [GVW-1:0] rq_ack_n
);
    wire [31:0] m_rdata;
    wire own, rq_v;
    wire [NSM-1:0] csr_we;
    wire [NSM*`SMK_ADDR_W-1:0] csr_addr, rd_addr;
    wire [NSM*32-1:0] csr_wdata;
    wire [SMW-1:0] lk_s, rq_sm;
    wire [KW-1:0] lk_k, rq_k;
    wire [KN*GVW-1:0] rq_give;
    qos_mgr u (.clk(clk), .rst(rst), .m_we(m_we), .m_addr(m_addr), .m_wdata(m_wdata), .m_raddr(m_raddr),
        .m_rdata(m_rdata), .own(own), .csr_we(csr_we), .csr_addr(csr_addr), .csr_wdata(csr_wdata),
        .rd_addr(rd_addr), .rd_data(rd_data), .kl_v(kl_v), .kl_k(kl_k), .kl_n(kl_n), .kl_qos(kl_qos),
        .kl_goal(kl_goal), .kl_x(kl_x), .kl_t(kl_t), .kl_keep(kl_keep), .kl_rej(kl_rej),
        .kdone_v(kdone_v), .kdone_k(kdone_k), .lk_s(lk_s), .lk_k(lk_k), .lk_cnt(lk_cnt),
        .lk_part(lk_part), .lk_ksv(lk_ksv), .lk_ks(lk_ks), .rq_v(rq_v), .rq_k(rq_k), .rq_sm(rq_sm),
        .rq_give(rq_give), .rq_rdy(rq_rdy), .rq_ack_v(rq_ack_v), .rq_ack_st(rq_ack_st),
        .rq_ack_kv(rq_ack_kv), .rq_ack_n(rq_ack_n));

    `SMK_DEF_CLOG2(clog2)
    localparam D = 33, MM = 4, NP = KN * NSM;
    localparam PNW = clog2(NP + MM + 1), CYW = clog2(D);
    localparam integer C1L = 4 + 5 * D + 3 * (MM - 1), C2L = 2 + D + 2 * (MM - 1);   // tables 7.2, 7.3
    localparam integer LCQ = 2 * KN * NSM + KN * (6 + 6 * D + 5 * (MM - 1)) + MM + 7; // section 7.5
    localparam integer LCS = 5 + KN * D + NSM * (2 * KN + 2 * MM + D);
    localparam [3:0] PH_NONE = 4'd0, PH_G = 4'd1, PH_C1 = 4'd2, PH_C2 = 4'd3, PH_W = 4'd4,
                     PH_F = 4'd5, PH_R = 4'd6, PH_A = 4'd7, PH_FD = 4'd8, PH_B = 4'd9;
    localparam [1:0] ST_RUN = 2'd2, QM_SMK = `SMK_QMODE_SMK;

    (* keep *) wire [1:0]  p_st, p_mode;
    (* keep *) wire [EW:0] p_et, p_L, p_Ls;
    (* keep *) wire [3:0]  p_ph, p_sub;
    (* keep *) wire [PNW-1:0] p_pn;
    (* keep *) wire [KW:0] p_pk;
    (* keep *) wire [KN:0] p_pkoh;
    (* keep *) wire [SMW:0] p_ps;
    (* keep *) wire [CYW-1:0] p_cy;

    reg f3_q = 1'b0;
    // the first cycle (all registers 0) is a reset cycle: M5 holds from the second on
    reg init_done = 1'b0;
    always @* if (!init_done) assume(rst);
    always @(posedge clk) begin
        init_done <= 1'b1;
        f3_q <= !rst && p_st == ST_RUN && p_ph == PH_F && p_sub == 4'd3;
    end

    // r(pos) and the position's range (tables 7.1-7.4)
    integer r;
    reg ok, divsub, mulsub;
    always @* begin : pos
        integer sof, pk, ps, sub, cy, pn, base;
        pk = p_pk; ps = p_ps; sub = p_sub; cy = p_cy; pn = p_pn;
        r = 0; ok = 1'b0; divsub = 1'b0; mulsub = 1'b0;
        if (p_mode != QM_SMK) begin
            case (p_ph)
                PH_G: begin
                    r = 1 + pn;
                    ok = pn <= NP && (pn == NP ? pk == KN && ps == 0 : pk * NSM + ps == pn && ps <= NSM - 1);
                end
                PH_C1: begin
                    case (sub)
                        0: sof = 0; 1: sof = 1; 2: sof = 1 + D; 3: sof = 1 + 2 * D; 4: sof = 1 + 3 * D;
                        5: sof = 1 + 3 * D + MM; 6: sof = 1 + 4 * D + MM; 7: sof = 1 + 4 * D + 2 * MM;
                        default: sof = 1 + 4 * D + 3 * MM;
                    endcase
                    divsub = sub == 1 || sub == 2 || sub == 3 || sub == 5 || sub == 8;
                    mulsub = sub == 4 || sub == 6 || sub == 7;
                    r = 1 + (NP + 1) + pk * C1L + sof + cy;
                    ok = pk <= KN - 1 && sub <= 8;
                end
                PH_C2: begin
                    divsub = sub == 2;
                    mulsub = sub <= 1;
                    r = 1 + (NP + 1) + KN * C1L + pk * C2L + sub * MM + cy;
                    ok = pk <= KN - 1 && sub <= 2;
                end
                PH_W: begin
                    r = 1 + (NP + 1) + KN * (C1L + C2L) + pn;
                    ok = pn <= NP + MM && (pn >= NP ? pk == KN && ps == 0 : pk * NSM + ps == pn && ps <= NSM - 1);
                end
                PH_F: begin r = LCQ - 4 + sub; ok = sub <= 3; end
                default: ;
            endcase
        end else begin
            base = 1 + KN * D + ps * (2 * KN + 2 * MM + D);
            case (p_ph)
                PH_R: begin divsub = 1'b1; r = 1 + pk * D + cy; ok = pk <= KN - 1 && ps == 0; end
                PH_A: begin
                    mulsub = 1'b1; r = base + pk + cy;
                    ok = pk <= KN && ps <= NSM - 1 && (pk == KN || cy == 0);
                end
                PH_FD: begin divsub = 1'b1; r = base + KN + MM + cy; ok = ps <= NSM - 1 && pk == KN; end
                PH_B: begin
                    mulsub = 1'b1; r = base + KN + MM + D + pk + cy;
                    ok = pk <= KN && ps <= NSM - 1 && (pk == KN || cy == 0);
                end
                PH_F: begin r = LCS - 4 + sub; ok = sub <= 3; end
                default: ;
            endcase
        end
    end

    wire run = p_st == ST_RUN;
    wire [EW:0] lcs_v = LCS, lcq_v = LCQ;
    wire [EW:0] lcv = (p_mode == QM_SMK) ? lcs_v : lcq_v;   // LC(cur_mode), EW+1 bits
    always @* begin : props
        integer lc, et, L;
        lc = (p_mode == QM_SMK) ? LCS : LCQ;
        et = p_et; L = p_L;
        begin
            assert(p_cy <= D - 1);                                                            // M4
            if (run && p_ph != PH_NONE) assert(divsub || (mulsub ? p_cy <= MM - 1 : p_cy == 0)); // M4
            if (!run) assert(p_ph == PH_NONE);                                                // M3
            if (run) assert(L >= lc && L < (1 << EW));                               // M3
            if (init_done) assert(p_Ls == p_L - lcv);                                      // M5
            if (run && p_ph == PH_NONE) assert(et <= L - lc);             // M3
            if (run && p_ph != PH_NONE) begin
                assert(ok && r >= 1 && r <= lc - 1);                                          // M1
                assert(et == L - lc + r);                                 // M1
            end
            if (run && p_ph == PH_F && p_sub == 4'd3) assert(et == L - 1);                // M2
            if (f3_q) assert(p_ph == PH_NONE);                                                // M2
            assert(p_pkoh == ((p_pk <= KN) ? ({{KN{1'b0}}, 1'b1} << p_pk) : {(KN+1){1'b0}}));   // M6
        end
    end
endmodule
`default_nettype wire
