`default_nettype none
`include "smk_cfg.vh"
`include "smk_prims.vh"
// preempt_engine: per-SM preemption engine (SAVE / RESTORE / DRAIN / DROP of one TB slot).
// Spec (normative): docs/preempt_engine.md. Rule numbers C1..C10 (combinational) and E1..E5
// (clock edge) refer to its sections "Combinational rules" and "Clock-edge rules".
//
// The engine holds no line data: it drives line addresses, self-describing tags {kind, wid, idx}
// and storage enables; the SM top wires the data between storage and memory. One FSM command
// (SAVE, RESTORE, DROP) at a time; DRAINs are tracked per slot and run concurrently.
//
// Packed vectors put element i at [i*w +: w]. Synchronous active-high reset, all state 0.
module preempt_engine #(
    parameter W      = `SMK_WARPS,         // warp slots
    parameter WID_W  = `SMK_WID_W,
    parameter T      = `SMK_TB_SLOTS,      // TB slots
    parameter TBS_W  = `SMK_TBS_W,
    parameter QD     = `SMK_PE_QDEPTH,     // command queue depth
    parameter QPTR_W = `SMK_PE_QPTR_W,
    parameter QCNT_W = `SMK_PE_QCNT_W,
    parameter PW     = `SMK_CTX_PTR_W,     // context pointer / line address width
    parameter IW     = `SMK_CTX_IDX_W,     // line index width (c, r, i)
    parameter TGW    = `SMK_CTX_TAG_W,     // tag width = 2 + WID_W + IW
    parameter REGN_W = `SMK_REGN_W,
    parameter SMLN_W = `SMK_SMLN_W,
    parameter OW     = `SMK_PE_OUT_W,      // outstanding-count width
    parameter CL     = `SMK_CTL_LINES,     // control lines per warp
    parameter RMAX   = `SMK_MAX_REGS,
    parameter MMAX   = `SMK_SMEM_LINES,
    parameter OMAX   = `SMK_PE_OMAX
) (
    input  wire              clk,
    input  wire              rst,
    // command port (driver)
    input  wire              cmd_v,
    input  wire [1:0]        cmd_op,
    input  wire [TBS_W-1:0]  cmd_tb,
    input  wire [PW-1:0]     cmd_ptr,
    input  wire              cmd_idem,
    output wire              cmd_full,
    // response port (driver)
    output wire              rsp_v,
    output wire [1:0]        rsp_op,
    output wire [TBS_W-1:0]  rsp_tb,
    output wire [2:0]        rsp_status,
    output wire [PW-1:0]     rsp_ptr,
    // SM top
    output wire              free_v,
    output wire [TBS_W-1:0]  free_tb,
    output wire              launch_v,
    output wire [TBS_W-1:0]  launch_tb,
    output wire [W-1:0]      stop,
    output wire [T-1:0]      draining,
    input  wire [T-1:0]      tb_run,
    input  wire [T-1:0]      tb_alloc,
    input  wire [T-1:0]      tb_idle,
    input  wire [T-1:0]      tb_done,
    output wire [TBS_W-1:0]  lk_tb,
    input  wire [W-1:0]      lk_mask,
    input  wire [REGN_W-1:0] lk_nreg,
    input  wire [SMLN_W-1:0] lk_smem,
    input  wire [OW-1:0]     cap,
    // memory
    output wire              mem_req_v,
    output wire              mem_req_we,
    output wire [PW-1:0]     mem_req_addr,
    output wire [TGW-1:0]    mem_req_tag,
    input  wire              mem_req_rdy,
    input  wire              mem_rsp_v,
    input  wire [TGW-1:0]    mem_rsp_tag,
    // storage (register file, shared memory, control state)
    output wire              st_re,
    output wire              st_we,
    output wire [TBS_W-1:0]  st_tb,
    output wire [1:0]        st_kind,
    output wire [WID_W-1:0]  st_wid,
    output wire [IW-1:0]     st_idx
);

    // ------------------------------------------------------------------ constants
    localparam [1:0] OP_SAVE = `SMK_PE_OP_SAVE, OP_RESTORE = `SMK_PE_OP_RESTORE,
                     OP_DRAIN = `SMK_PE_OP_DRAIN, OP_DROP = `SMK_PE_OP_DROP;
    localparam [2:0] ST_OK = `SMK_PE_ST_OK, ST_FIN = `SMK_PE_ST_FIN, ST_EMPTY = `SMK_PE_ST_ERR_EMPTY,
                     ST_BUSY = `SMK_PE_ST_ERR_BUSY, ST_NOTIDEM = `SMK_PE_ST_ERR_NOTIDEM,
                     ST_QFULL = `SMK_PE_ST_ERR_QFULL;
    localparam [1:0] F_IDLE = 2'd0, F_STOP = 2'd1, F_XFER = 2'd2, F_DONE = 2'd3;
    localparam [1:0] PH_CTL = `SMK_CTX_KIND_CTL, PH_REG = `SMK_CTX_KIND_REG,
                     PH_SMEM = `SMK_CTX_KIND_SMEM, PH_END = 2'd3;
    localparam TP = 1 << TBS_W;   // slot ids representable (>= T)
    localparam XW = 16;           // width of the position compares (> IW + 1, REGN_W, SMLN_W)
    localparam NW = 8;            // popcount width (W <= 64 by hw/)
    localparam [XW-1:0] CLX = CL, RMX = RMAX, MMX = MMAX;
    localparam [NW-1:0] OMX = OMAX;
    localparam [QPTR_W:0]   QDH = QD;        // QD, one bit wider than a queue index
    localparam integer      QDM1I = QD - 1;
    localparam [QPTR_W-1:0] QDM1 = QDM1I[QPTR_W-1:0];   // last queue index
    localparam [QCNT_W-1:0] QDC = QD;

    // ------------------------------------------------------------------ state (spec "State")
    reg [1:0]          fsm     /*verilator public_flat_rd*/;
    reg [QD*2-1:0]     q_op    /*verilator public_flat_rd*/;
    reg [QD*TBS_W-1:0] q_tb    /*verilator public_flat_rd*/;
    reg [QD*PW-1:0]    q_ptr   /*verilator public_flat_rd*/;
    reg [QD-1:0]       q_idem  /*verilator public_flat_rd*/;
    reg [QPTR_W-1:0]   q_head  /*verilator public_flat_rd*/;
    reg [QCNT_W-1:0]   q_cnt   /*verilator public_flat_rd*/;
    reg [1:0]          cur_op  /*verilator public_flat_rd*/;
    reg [TBS_W-1:0]    cur_tb  /*verilator public_flat_rd*/;
    reg [2:0]          cur_st  /*verilator public_flat_rd*/;
    reg [PW-1:0]       cur_ptr /*verilator public_flat_rd*/;
    reg [W-1:0]        tmask   /*verilator public_flat_rd*/;
    reg [REGN_W-1:0]   nreg    /*verilator public_flat_rd*/;
    reg [SMLN_W-1:0]   nsml    /*verilator public_flat_rd*/;
    reg [OW-1:0]       klim    /*verilator public_flat_rd*/;
    reg [1:0]          ph      /*verilator public_flat_rd*/;
    reg [W-1:0]        wrem    /*verilator public_flat_rd*/;
    reg [IW-1:0]       idx     /*verilator public_flat_rd*/;
    reg [PW-1:0]       addr    /*verilator public_flat_rd*/;
    reg [OW-1:0]       out     /*verilator public_flat_rd*/;
    reg [T-1:0]        drain   /*verilator public_flat_rd*/;
    reg [T-1:0]        dpend   /*verilator public_flat_rd*/;

    // ------------------------------------------------------------------ helpers
    // index of the lowest set bit (0 if none), population count
    `SMK_DEF_LOWBIT(lowbit_w, W, WID_W)
    `SMK_DEF_LOWBIT(lowbit_t, T, TBS_W)
    `SMK_DEF_POPCNT(popc, W, NW)

    // C4 norm: skip empty phases. ix is the (possibly incremented) index, XW bits wide, so that
    // idx + 1 = 2^IW compares correctly. Returns {ph, wrem, idx}.
    function [2+W+IW-1:0] norm(input [1:0] p_in, input [W-1:0] w_in, input [XW-1:0] ix_in,
                               input [W-1:0] mask, input [XW-1:0] r, input [XW-1:0] m);
        reg [1:0] p;
        reg [W-1:0] w;
        reg [XW-1:0] ix;
        begin
            p = p_in;
            w = w_in;
            ix = ix_in;
            if (p == PH_CTL && w == {W{1'b0}}) begin
                p = PH_REG; w = mask; ix = {XW{1'b0}};
            end
            if (p == PH_REG && (w == {W{1'b0}} || r == {XW{1'b0}})) begin
                p = PH_SMEM; w = {W{1'b0}}; ix = {XW{1'b0}};
            end
            if (p == PH_SMEM && ix >= m) begin
                p = PH_END; w = {W{1'b0}}; ix = {XW{1'b0}};
            end
            norm = {p, w, ix[IW-1:0]};
        end
    endfunction

    // pad a T-wide slot vector to every representable slot id (ids >= T read as 0)
    `SMK_DEF_ZX(padt, T, TP)

    // ------------------------------------------------------------------ C1 queue
    wire full = (q_cnt == QDC);
    wire push = cmd_v & ~full;
    wire rej  = cmd_v & full;
    wire pop  = (fsm == F_IDLE) & (q_cnt != {QCNT_W{1'b0}});
    wire [QPTR_W-1:0] h = ({1'b0, q_head} >= QDH) ? q_head - QDH[QPTR_W-1:0] : q_head;
    wire [1:0]        hop   = q_op[h*2 +: 2];
    wire [TBS_W-1:0]  ht    = q_tb[h*TBS_W +: TBS_W];
    wire [PW-1:0]     hptr  = q_ptr[h*PW +: PW];
    wire              hidem = q_idem[h];
    assign cmd_full = full;
    assign lk_tb = (q_cnt != {QCNT_W{1'b0}}) ? ht : {TBS_W{1'b0}};

    // ------------------------------------------------------------------ C2 legality
    wire [TP-1:0] run_p   = padt(tb_run);
    wire [TP-1:0] alloc_p = padt(tb_alloc);
    wire [TP-1:0] done_p  = padt(tb_done);
    wire [TP-1:0] idle_p  = padt(tb_idle);
    wire [TP-1:0] busy_p  = padt(drain | dpend);
    wire h_run = run_p[ht], h_alloc = alloc_p[ht], h_done = done_p[ht], h_bsy = busy_p[ht];
    reg [2:0] s;
    always @(*) begin
        if (hop == OP_DROP && !hidem)                                              s = ST_NOTIDEM;
        else if (h_bsy || (hop == OP_RESTORE && h_run))                            s = ST_BUSY;
        else if ((hop != OP_RESTORE && !h_run) || (hop == OP_RESTORE && !h_alloc)) s = ST_EMPTY;
        else if ((hop == OP_SAVE || hop == OP_DROP) && h_done)                     s = ST_FIN;
        else                                                                       s = ST_OK;
    end

    // ------------------------------------------------------------------ C3 values latched at the pop
    wire [NW-1:0] n      = popc(lk_mask);
    wire [NW-1:0] capw   = {{(NW-OW){1'b0}}, cap};
    wire [NW-1:0] capeff = (capw == {NW{1'b0}} || capw > OMX) ? OMX : capw;
    wire [NW-1:0] n1     = (n == {NW{1'b0}}) ? {{(NW-1){1'b0}}, 1'b1} : n;
    wire [NW-1:0] klimw  = (n1 < capeff) ? n1 : capeff;   // <= OMAX < 2^OW
    wire          unused_klim_hi = &{1'b0, klimw[NW-1:OW]};
    wire [XW-1:0] lkr    = {{(XW-REGN_W){1'b0}}, lk_nreg};
    wire [XW-1:0] lks    = {{(XW-SMLN_W){1'b0}}, lk_smem};
    wire [XW-1:0] nreg_x = (lkr > RMX) ? RMX : lkr;
    wire [XW-1:0] nsml_x = (lks > MMX) ? MMX : lks;
    wire [2+W+IW-1:0] start = norm(PH_CTL, lk_mask, {XW{1'b0}}, lk_mask, nreg_x, nsml_x);

    // ------------------------------------------------------------------ C4 advance (mask/R/M held)
    wire [XW-1:0] nreg_h = {{(XW-REGN_W){1'b0}}, nreg};
    wire [XW-1:0] nsml_h = {{(XW-SMLN_W){1'b0}}, nsml};
    wire [XW-1:0] idx1   = {{(XW-IW){1'b0}}, idx} + {{(XW-1){1'b0}}, 1'b1};
    wire [XW-1:0] plim   = (ph == PH_CTL) ? CLX : nreg_h;
    reg  [2+W+IW-1:0] nxt;
    always @(*) begin
        case (ph)
            PH_CTL, PH_REG:
                if (idx1 < plim) nxt = {ph, wrem, idx1[IW-1:0]};
                else nxt = norm(ph, wrem & (wrem - {{(W-1){1'b0}}, 1'b1}), {XW{1'b0}}, tmask, nreg_h, nsml_h);
            PH_SMEM: nxt = norm(PH_SMEM, {W{1'b0}}, idx1, tmask, nreg_h, nsml_h);
            default: nxt = {PH_END, {W{1'b0}}, {IW{1'b0}}};
        endcase
    end
    wire [WID_W-1:0] cwid = (ph == PH_CTL || ph == PH_REG) ? lowbit_w(wrem) : {WID_W{1'b0}};

    // ------------------------------------------------------------------ C5 request, C6 response
    assign mem_req_v = (fsm == F_XFER) & (ph != PH_END) & (out < klim);
    wire acc = mem_req_v & mem_req_rdy;
    wire rcv = mem_rsp_v & (fsm == F_XFER) & (out != {OW{1'b0}});
    assign mem_req_we   = mem_req_v & (cur_op == OP_SAVE);
    assign mem_req_addr = mem_req_v ? addr : {PW{1'b0}};
    assign mem_req_tag  = mem_req_v ? {ph, cwid, idx} : {TGW{1'b0}};

    // ------------------------------------------------------------------ C7 storage
    assign st_re = acc & (cur_op == OP_SAVE);
    assign st_we = rcv & (cur_op == OP_RESTORE);
    assign st_kind = st_re ? ph   : st_we ? mem_rsp_tag[TGW-1 -: 2]      : 2'd0;
    assign st_wid  = st_re ? cwid : st_we ? mem_rsp_tag[IW +: WID_W]     : {WID_W{1'b0}};
    assign st_idx  = st_re ? idx  : st_we ? mem_rsp_tag[IW-1:0]          : {IW{1'b0}};
    assign st_tb   = (st_re | st_we) ? cur_tb : {TBS_W{1'b0}};

    // ------------------------------------------------------------------ C8 response arbitration
    wire g_q = rej;
    wire g_f = ~g_q & (fsm == F_DONE);
    wire g_d = ~g_q & ~g_f & (dpend != {T{1'b0}});
    wire [TBS_W-1:0] dsel = g_d ? lowbit_t(dpend) : {TBS_W{1'b0}};
    assign rsp_v      = g_q | g_f | g_d;
    assign rsp_op     = g_q ? cmd_op : g_f ? cur_op : g_d ? OP_DRAIN : 2'd0;
    assign rsp_tb     = g_q ? cmd_tb : g_f ? cur_tb : dsel;
    assign rsp_status = g_q ? ST_QFULL : g_f ? cur_st : ST_OK;
    assign rsp_ptr    = g_q ? cmd_ptr : g_f ? cur_ptr : {PW{1'b0}};

    // ------------------------------------------------------------------ C9 slot outputs
    assign free_v    = g_f & (cur_op == OP_SAVE || cur_op == OP_DROP) & (cur_st == ST_OK);
    assign launch_v  = g_f & (cur_op == OP_RESTORE) & (cur_st == ST_OK);
    assign free_tb   = free_v ? cur_tb : {TBS_W{1'b0}};
    assign launch_tb = launch_v ? cur_tb : {TBS_W{1'b0}};
    assign draining  = drain;

    // ------------------------------------------------------------------ C10 stop-fetch
    wire stopping = (fsm == F_STOP) | (fsm == F_XFER && cur_op == OP_SAVE)
                  | (fsm == F_DONE && (cur_op == OP_SAVE || cur_op == OP_DROP) && cur_st == ST_OK);
    assign stop = stopping ? tmask : {W{1'b0}};

    // ------------------------------------------------------------------ clock edge
    // E1 tail index: h + q_cnt, less QD once; no write when still >= QD (unreachable)
    localparam LW = QCNT_W + 1;
    wire [LW-1:0] tl   = {{(LW-QPTR_W){1'b0}}, h} + {1'b0, q_cnt};
    localparam [LW-1:0] QDL = QD;
    wire [LW-1:0] tail = (tl >= QDL) ? tl - QDL : tl;
    // E5 drain flags
    wire [TP-1:0] set_dp = (pop && s == ST_OK && hop == OP_DRAIN) ? ({{(TP-1){1'b0}}, 1'b1} << ht) : {TP{1'b0}};
    wire [TP-1:0] clr_p  = g_d ? ({{(TP-1){1'b0}}, 1'b1} << dsel) : {TP{1'b0}};
    wire [T-1:0]  dm     = drain | set_dp[T-1:0];
    generate if (TP > T) begin : g_pad_hi  // slot ids T..TP-1 do not exist (T not a power of two)
        wire unused_pad_hi = &{1'b0, set_dp[TP-1:T], clr_p[TP-1:T]};
    end endgenerate
    // E4
    wire [OW-1:0] out_n = out + {{(OW-1){1'b0}}, acc} - {{(OW-1){1'b0}}, rcv};
    wire [1:0]    ph_n  = acc ? nxt[2+W+IW-1 -: 2] : ph;
    wire          c_done = done_p[cur_tb], c_run = run_p[cur_tb], c_idle = idle_p[cur_tb];

    integer i;
    always @(posedge clk) begin
        if (rst) begin
            fsm <= F_IDLE;
            q_op <= {(QD*2){1'b0}};
            q_tb <= {(QD*TBS_W){1'b0}};
            q_ptr <= {(QD*PW){1'b0}};
            q_idem <= {QD{1'b0}};
            q_head <= {QPTR_W{1'b0}};
            q_cnt <= {QCNT_W{1'b0}};
            cur_op <= 2'd0;
            cur_tb <= {TBS_W{1'b0}};
            cur_st <= 3'd0;
            cur_ptr <= {PW{1'b0}};
            tmask <= {W{1'b0}};
            nreg <= {REGN_W{1'b0}};
            nsml <= {SMLN_W{1'b0}};
            klim <= {OW{1'b0}};
            ph <= 2'd0;
            wrem <= {W{1'b0}};
            idx <= {IW{1'b0}};
            addr <= {PW{1'b0}};
            out <= {OW{1'b0}};
            drain <= {T{1'b0}};
            dpend <= {T{1'b0}};
        end else begin
            // E1 queue
            for (i = 0; i < QD; i = i + 1)
                if (push && tail == i[LW-1:0]) begin
                    q_op[i*2 +: 2] <= cmd_op;
                    q_tb[i*TBS_W +: TBS_W] <= cmd_tb;
                    q_ptr[i*PW +: PW] <= cmd_ptr;
                    q_idem[i] <= cmd_idem;
                end
            if (pop) q_head <= (h == QDM1) ? {QPTR_W{1'b0}} : h + 1'b1;
            q_cnt <= q_cnt + {{(QCNT_W-1){1'b0}}, push} - {{(QCNT_W-1){1'b0}}, pop};
            // E5 drain flags
            drain <= dm & ~tb_done;
            dpend <= (dpend & ~clr_p[T-1:0]) | (dm & tb_done);
            // E4 outstanding count
            out <= out_n;
            // E2, E3
            case (fsm)
                F_IDLE:
                    if (pop) begin
                        cur_op <= hop;
                        cur_tb <= ht;
                        cur_ptr <= hptr;
                        cur_st <= s;
                        tmask <= lk_mask;
                        nreg <= nreg_x[REGN_W-1:0];
                        nsml <= nsml_x[SMLN_W-1:0];
                        klim <= klimw[OW-1:0];
                        {ph, wrem, idx} <= start;
                        addr <= hptr;
                        if (s != ST_OK)              fsm <= F_DONE;
                        else if (hop == OP_DRAIN)    fsm <= F_IDLE;
                        else if (hop == OP_RESTORE)  fsm <= F_XFER;
                        else                         fsm <= F_STOP;
                    end
                F_STOP:
                    if (c_done || !c_run) begin
                        fsm <= F_DONE;
                        cur_st <= ST_FIN;
                    end else if (c_idle) begin
                        fsm <= (cur_op == OP_SAVE) ? F_XFER : F_DONE;
                    end
                F_XFER: begin
                    if (acc) begin
                        {ph, wrem, idx} <= nxt;
                        addr <= addr + {{(PW-1){1'b0}}, 1'b1};
                    end
                    if (ph_n == PH_END && out_n == {OW{1'b0}}) fsm <= F_DONE;
                end
                default:
                    if (g_f) fsm <= F_IDLE;
            endcase
        end
    end

`ifdef FORMAL
    // Safety invariants proven by `make formal` (Yosys SAT, temporal induction from the reset
    // state, testbench/formal/formal.sh); not part of the synthesized design.
    localparam [XW-1:0] IDXE = 0;
    always @* begin : p_formal
        // queue bookkeeping stays in range
        assert(q_cnt <= QDC);
        assert({1'b0, q_head} < QDH);
        // a slot is never both draining and pending (rule E5); drains only on real slots
        assert((drain & dpend) == {T{1'b0}});
        // throttle: outstanding requests never exceed the limit latched at the pop, which is
        // 1..OMAX once a command has been popped; nothing is outstanding outside XFER
        assert(out <= klim);
        assert({{(NW-OW){1'b0}}, klim} <= OMX);
        if (fsm != F_XFER) assert(out == {OW{1'b0}});
        if (fsm != F_IDLE) assert(klim != {OW{1'b0}});
        // the FSM holds only the commands that can be in each state
        assert(cur_st <= ST_NOTIDEM);
        if (fsm == F_STOP) assert((cur_op == OP_SAVE || cur_op == OP_DROP) && cur_st == ST_OK);
        if (fsm == F_XFER) assert((cur_op == OP_SAVE || cur_op == OP_RESTORE) && cur_st == ST_OK);
        // after a pop the position is a valid point of the layout walk (rule C4); the reset
        // state (CTL with no warps) is not one, and IDLE never reads it
        assert((wrem & ~tmask) == {W{1'b0}});
        assert({{(XW-REGN_W){1'b0}}, nreg} <= RMX);
        assert({{(XW-SMLN_W){1'b0}}, nsml} <= MMX);
        if (fsm != F_IDLE) begin
            if (ph == PH_CTL) assert(wrem != {W{1'b0}} && {{(XW-IW){1'b0}}, idx} < CLX);
            if (ph == PH_REG) assert(wrem != {W{1'b0}} && {{(XW-IW){1'b0}}, idx} < nreg_h);
            if (ph == PH_SMEM) assert(wrem == {W{1'b0}} && {{(XW-IW){1'b0}}, idx} < nsml_h);
            if (ph == PH_END) assert(wrem == {W{1'b0}} && {{(XW-IW){1'b0}}, idx} == IDXE);
        end
        // outputs: stop only for a SAVE/DROP in progress; one slot event at a time
        if (stop != {W{1'b0}}) assert(fsm != F_IDLE && (cur_op == OP_SAVE || cur_op == OP_DROP));
        assert(!(free_v && launch_v));
        if (mem_req_v) assert(fsm == F_XFER && out < klim);
        if (st_we) assert(cur_op == OP_RESTORE && fsm == F_XFER);
        if (st_re) assert(cur_op == OP_SAVE && fsm == F_XFER);
    end
`endif

`ifdef SMK_COVER
    // ------------------------------------------------------------------ cover points
    // One labelled point per case of each numbered rule of docs/preempt_engine.md (make coverage
    // with --coverage-user +define+SMK_COVER; docs/verification.md "Coverage"): c_pe_c<N>_*
    // combinational rule N, c_pe_e<N>_* clock-edge rule N, c_pe_o1_* open point 1 of "Open points
    // settled by the C model". Not seen by synthesis or the other builds.
    wire [1:0] cv_nph = nxt[2+W+IW-1 -: 2];   // the phase adv() moves to
    wire       cv_ok  = (s == ST_OK);
    // rule 1: a push; a command rejected on a full queue; a pop; a push and a pop in one cycle
    c_pe_c1_push:        cover property (@(posedge clk) !rst && push);
    c_pe_c1_reject:      cover property (@(posedge clk) !rst && rej);
    c_pe_c1_pop:         cover property (@(posedge clk) !rst && pop);
    c_pe_c1_push_pop:    cover property (@(posedge clk) !rst && push && pop);
    // rule 2: rows a-e of the legality table; b for a busy (DRAIN) slot and for a RESTORE into a
    // running slot; c for a non-RESTORE on a slot not running and a RESTORE on a slot not
    // allocated; e for each operation
    c_pe_c2_a_notidem:   cover property (@(posedge clk) !rst && pop && s == ST_NOTIDEM);
    c_pe_c2_b_busy:      cover property (@(posedge clk) !rst && pop && s == ST_BUSY && h_bsy);
    c_pe_c2_b_restore_run: cover property (@(posedge clk) !rst && pop && s == ST_BUSY && !h_bsy);
    c_pe_c2_c_not_run:   cover property (@(posedge clk) !rst && pop && s == ST_EMPTY && hop != OP_RESTORE);
    c_pe_c2_c_not_alloc: cover property (@(posedge clk) !rst && pop && s == ST_EMPTY && hop == OP_RESTORE);
    c_pe_c2_d_fin:       cover property (@(posedge clk) !rst && pop && s == ST_FIN);
    c_pe_c2_e_save:      cover property (@(posedge clk) !rst && pop && cv_ok && hop == OP_SAVE);
    c_pe_c2_e_restore:   cover property (@(posedge clk) !rst && pop && cv_ok && hop == OP_RESTORE);
    c_pe_c2_e_drain:     cover property (@(posedge clk) !rst && pop && cv_ok && hop == OP_DRAIN);
    c_pe_c2_e_drop:      cover property (@(posedge clk) !rst && pop && cv_ok && hop == OP_DROP);
    // rule 3 (at an OK pop): cap 0 means OMAX; cap above OMAX clamped; the cap limits the
    // throttle; the warp count limits it; an empty mask gives 1; R and M clamped
    c_pe_c3_cap_zero:    cover property (@(posedge clk) !rst && pop && cv_ok && capw == {NW{1'b0}});
    c_pe_c3_cap_clamp:   cover property (@(posedge clk) !rst && pop && cv_ok && capw > OMX);
    c_pe_c3_klim_cap:    cover property (@(posedge clk) !rst && pop && cv_ok && capeff < n1);
    c_pe_c3_klim_n:      cover property (@(posedge clk) !rst && pop && cv_ok && n1 < capeff && n != {NW{1'b0}});
    c_pe_c3_empty_mask:  cover property (@(posedge clk) !rst && pop && n == {NW{1'b0}});
    c_pe_c3_nreg_clamp:  cover property (@(posedge clk) !rst && pop && lkr > RMX);
    c_pe_c3_nsml_clamp:  cover property (@(posedge clk) !rst && pop && lks > MMX);
    // rule 4 (adv at an accepted request): the next control line of a warp (C > 1); the next
    // warp's control lines; CTL -> REG; the next register line; the next warp's registers; REG ->
    // SMEM; CTL -> SMEM (R = 0); the next SMEM line; SMEM -> END; CTL/REG -> END (M = 0)
    c_pe_c4_ctl_next:    cover property (@(posedge clk) !rst && acc && ph == PH_CTL && idx1 < plim);
    c_pe_c4_ctl_warp:    cover property (@(posedge clk) !rst && acc && ph == PH_CTL && idx1 >= plim && cv_nph == PH_CTL);
    c_pe_c4_ctl_reg:     cover property (@(posedge clk) !rst && acc && ph == PH_CTL && cv_nph == PH_REG);
    c_pe_c4_reg_next:    cover property (@(posedge clk) !rst && acc && ph == PH_REG && idx1 < plim);
    c_pe_c4_reg_warp:    cover property (@(posedge clk) !rst && acc && ph == PH_REG && idx1 >= plim && cv_nph == PH_REG);
    c_pe_c4_reg_smem:    cover property (@(posedge clk) !rst && acc && ph == PH_REG && cv_nph == PH_SMEM);
    c_pe_c4_skip_reg:    cover property (@(posedge clk) !rst && acc && ph == PH_CTL && cv_nph == PH_SMEM);
    c_pe_c4_smem_next:   cover property (@(posedge clk) !rst && acc && ph == PH_SMEM && cv_nph == PH_SMEM);
    c_pe_c4_smem_end:    cover property (@(posedge clk) !rst && acc && ph == PH_SMEM && cv_nph == PH_END);
    c_pe_c4_skip_smem:   cover property (@(posedge clk) !rst && acc && ph != PH_SMEM && cv_nph == PH_END);
    // open point 1: idx + 1 in the SMEM phase reaches 2^IW (M = MMAX, a power of two)
    c_pe_o1_idx_wide:    cover property (@(posedge clk) !rst && acc && ph == PH_SMEM && idx1[IW]);
    // rule 5: the throttle holds a request back (out = klim); a request waits for mem_req_rdy
    c_pe_c5_throttle:    cover property (@(posedge clk) !rst && fsm == F_XFER && ph != PH_END && out >= klim);
    c_pe_c5_not_ready:   cover property (@(posedge clk) !rst && mem_req_v && !mem_req_rdy);
    // rule 6: a counted response; a response and an accept in one cycle; a stray response (out = 0
    // or outside XFER: the environment breaks the memory contract on purpose) ignored
    c_pe_c6_rcv:         cover property (@(posedge clk) !rst && rcv);
    c_pe_c6_rcv_acc:     cover property (@(posedge clk) !rst && rcv && acc);
    c_pe_c6_stray:       cover property (@(posedge clk) !rst && mem_rsp_v && !rcv);
    // rule 7: a storage read (SAVE); a storage write (RESTORE)
    c_pe_c7_st_re:       cover property (@(posedge clk) !rst && st_re);
    c_pe_c7_st_we:       cover property (@(posedge clk) !rst && st_we);
    // rule 8: ERR_QFULL; ERR_QFULL pre-empts the FSM's response; the FSM's response; a DRAIN
    // completion; a DRAIN completion deferred by another response; two pending, lowest first
    c_pe_c8_qfull:       cover property (@(posedge clk) !rst && g_q);
    c_pe_c8_qfull_first: cover property (@(posedge clk) !rst && g_q && fsm == F_DONE);
    c_pe_c8_fsm:         cover property (@(posedge clk) !rst && g_f);
    c_pe_c8_drain:       cover property (@(posedge clk) !rst && g_d);
    c_pe_c8_drain_wait:  cover property (@(posedge clk) !rst && dpend != {T{1'b0}} && !g_d);
    c_pe_c8_drain_two:   cover property (@(posedge clk) !rst && g_d && (dpend & (dpend - 1'b1)) != {T{1'b0}});
    // rule 9: free_v after SAVE, after DROP; launch_v after RESTORE; a DRAIN waiting
    c_pe_c9_free_save:   cover property (@(posedge clk) !rst && free_v && cur_op == OP_SAVE);
    c_pe_c9_free_drop:   cover property (@(posedge clk) !rst && free_v && cur_op == OP_DROP);
    c_pe_c9_launch:      cover property (@(posedge clk) !rst && launch_v);
    c_pe_c9_draining:    cover property (@(posedge clk) !rst && draining != {T{1'b0}});
    // rule 10: stop in STOP, in XFER of a SAVE, in DONE of an OK SAVE or DROP
    c_pe_c10_stop:       cover property (@(posedge clk) !rst && fsm == F_STOP && stop != {W{1'b0}});
    c_pe_c10_xfer:       cover property (@(posedge clk) !rst && fsm == F_XFER && stop != {W{1'b0}});
    c_pe_c10_done:       cover property (@(posedge clk) !rst && fsm == F_DONE && stop != {W{1'b0}});
    // clock-edge rule 1: the tail wraps; the head wraps
    c_pe_e1_tail_wrap:   cover property (@(posedge clk) !rst && push && tl >= QDL);
    c_pe_e1_head_wrap:   cover property (@(posedge clk) !rst && pop && h == QDM1);
    // clock-edge rule 2: a pop of an error latches the head's values too
    c_pe_e2_pop_error:   cover property (@(posedge clk) !rst && pop && !cv_ok);
    // clock-edge rule 3: STOP with the TB finishing (FIN); the TB vanished (FIN); SAVE to XFER;
    // DROP to DONE; waiting for the TB to drain; XFER ends; DONE waits behind ERR_QFULL
    c_pe_e3_stop_done:   cover property (@(posedge clk) !rst && fsm == F_STOP && c_done);
    c_pe_e3_stop_gone:   cover property (@(posedge clk) !rst && fsm == F_STOP && !c_done && !c_run);
    c_pe_e3_stop_save:   cover property (@(posedge clk) !rst && fsm == F_STOP && !c_done && c_run && c_idle && cur_op == OP_SAVE);
    c_pe_e3_stop_drop:   cover property (@(posedge clk) !rst && fsm == F_STOP && !c_done && c_run && c_idle && cur_op != OP_SAVE);
    c_pe_e3_stop_wait:   cover property (@(posedge clk) !rst && fsm == F_STOP && !c_done && c_run && !c_idle);
    c_pe_e3_xfer_end:    cover property (@(posedge clk) !rst && fsm == F_XFER && ph_n == PH_END && out_n == {OW{1'b0}});
    c_pe_e3_done_wait:   cover property (@(posedge clk) !rst && fsm == F_DONE && !g_f);
    // clock-edge rule 4: the line address wraps at 2^PW
    c_pe_e4_addr_wrap:   cover property (@(posedge clk) !rst && acc && (&addr));
    // clock-edge rule 5: a DRAIN set; a draining TB finishes; a DRAIN popped in the cycle its TB
    // finishes completes at once
    c_pe_e5_set:         cover property (@(posedge clk) !rst && set_dp != {TP{1'b0}});
    c_pe_e5_done:        cover property (@(posedge clk) !rst && (drain & tb_done) != {T{1'b0}});
    c_pe_e5_same_cycle:  cover property (@(posedge clk) !rst && (set_dp[T-1:0] & tb_done) != {T{1'b0}});
`endif

endmodule
`default_nettype wire
