`default_nettype none
`include "smk_cfg.vh"
// sm_top: one streaming multiprocessor (spec: docs/sm_top.md): warp_sched (u_ws), quota_unit (u_qu)
// and preempt_engine (u_pe) joined by the TB slot table and the launch arbiter.
//   S1 slot outputs to the engine     S2 set-up     S3 natural completion
//   S4 launch arbiter (engine first, then the lowest pending go)
//   S5 warp removal (exits, engine free)          S6 wiring
// Synchronous active-high reset; every register 0 at reset. Packed vectors: element i at [i*w +: w].
module sm_top #(
    parameter QGATE = 1,    // passed to warp_sched (1 = quota gating)
    parameter IDLE_ARB = 1  // passed to warp_sched (1 = a warp that lost arbitration is idle too)
) (
    input  wire                                 clk,
    input  wire                                 rst,
    // driver: slot set-up
    input  wire                                 set_v,
    input  wire [`SMK_TBS_W-1:0]                set_tb,
    input  wire [`SMK_WARPS-1:0]                set_mask,
    input  wire [`SMK_KS_W-1:0]                 set_ks,
    input  wire [`SMK_REGN_W-1:0]               set_nreg,
    input  wire [`SMK_SMLN_W-1:0]               set_smem,
    input  wire                                 set_go,
    output wire                                 set_rej,
    // driver: engine command port and throttle cap
    input  wire                                 cmd_v,
    input  wire [1:0]                           cmd_op,
    input  wire [`SMK_TBS_W-1:0]                cmd_tb,
    input  wire [`SMK_CTX_PTR_W-1:0]            cmd_ptr,
    input  wire                                 cmd_idem,
    input  wire [`SMK_PE_OUT_W-1:0]             cap,
    output wire                                 cmd_full,
    output wire                                 rsp_v,
    output wire [1:0]                           rsp_op,
    output wire [`SMK_TBS_W-1:0]                rsp_tb,
    output wire [2:0]                           rsp_status,
    output wire [`SMK_CTX_PTR_W-1:0]            rsp_ptr,
    output wire                                 free_v,
    output wire [`SMK_TBS_W-1:0]                free_tb,
    output wire                                 launch_v,
    output wire [`SMK_TBS_W-1:0]                launch_tb,
    output wire [`SMK_TB_SLOTS-1:0]             draining,
    // slot table
    output wire [`SMK_TB_SLOTS-1:0]             tb_alloc,
    output wire [`SMK_TB_SLOTS-1:0]             tb_run,
    output wire [`SMK_TB_SLOTS-1:0]             tb_done,
    output reg  [`SMK_WARPS-1:0]                wused /*verilator public_flat_rd*/,
    // pipelines
    input  wire [`SMK_WARPS-1:0]                ready,
    input  wire [`SMK_WARPS-1:0]                pblk,   // ready but for a full pipeline unit
    input  wire [`SMK_WARPS-1:0]                wbusy,
    input  wire [`SMK_WARPS-1:0]                wexit,
    input  wire [`SMK_CP-1:0]                   cp_v,
    input  wire [`SMK_CP*`SMK_KS_W-1:0]         cp_ks,
    input  wire [`SMK_CP*`SMK_ACT_W-1:0]        cp_act,
    // quota_unit registers
    input  wire                                 csr_we,
    input  wire [`SMK_ADDR_W-1:0]               csr_addr,
    input  wire [`SMK_DATA_W-1:0]               csr_wdata,
    input  wire [`SMK_ADDR_W-1:0]               rd_addr,
    // warp_sched outputs and the stop mask it obeys
    output wire [`SMK_SCHED-1:0]                iss_v,
    output wire [`SMK_SCHED*`SMK_WID_W-1:0]     iss_wid,
    output wire [`SMK_SCHED*`SMK_KS_W-1:0]      iss_ks,
    output wire [`SMK_KSLOTS*`SMK_WCNT_W-1:0]   idle_cnt,
    output wire [`SMK_KSLOTS*`SMK_WCNT_W-1:0]   held_cnt,
    output wire [`SMK_KSLOTS-1:0]               ks_active,
    output wire [`SMK_WARPS-1:0]                wvalid,
    output wire [`SMK_WARPS-1:0]                stop,
    // quota_unit outputs
    output wire [`SMK_KSLOTS-1:0]               qallow,
    output wire                                 policy,
    output wire                                 epoch_end,
    output wire [`SMK_DATA_W-1:0]               rd_data,
    // engine memory and storage ports
    output wire                                 mem_req_v,
    output wire                                 mem_req_we,
    output wire [`SMK_CTX_PTR_W-1:0]            mem_req_addr,
    output wire [`SMK_CTX_TAG_W-1:0]            mem_req_tag,
    input  wire                                 mem_req_rdy,
    input  wire                                 mem_rsp_v,
    input  wire [`SMK_CTX_TAG_W-1:0]            mem_rsp_tag,
    output wire                                 st_re,
    output wire                                 st_we,
    output wire [`SMK_TBS_W-1:0]                st_tb,
    output wire [1:0]                           st_kind,
    output wire [`SMK_WID_W-1:0]                st_wid,
    output wire [`SMK_CTX_IDX_W-1:0]            st_idx
);

    localparam W      = `SMK_WARPS;
    localparam T      = `SMK_TB_SLOTS;
    localparam TBS_W  = `SMK_TBS_W;
    localparam KS_W   = `SMK_KS_W;
    localparam REGN_W = `SMK_REGN_W;
    localparam SMLN_W = `SMK_SMLN_W;

    // ---------------------------------------------------------------- slot table (State)
    reg [T-1:0]        alloc /*verilator public_flat_rd*/;
    reg [T-1:0]        run   /*verilator public_flat_rd*/;
    reg [T-1:0]        go    /*verilator public_flat_rd*/;
    reg [T*W-1:0]      tmask /*verilator public_flat_rd*/;
    reg [T*KS_W-1:0]   tks   /*verilator public_flat_rd*/;
    reg [T*REGN_W-1:0] tnreg /*verilator public_flat_rd*/;
    reg [T*SMLN_W-1:0] tsml  /*verilator public_flat_rd*/;
    reg [W-1:0]        live  /*verilator public_flat_rd*/;

    // ---------------------------------------------------------------- per-slot decode
    wire [TBS_W-1:0] lk_tb;
    wire [T-1:0] set_hit;   // set_tb == t
    wire [T-1:0] lk_hit;    // lk_tb == t
    wire [T-1:0] fr_hit;    // free_v & free_tb == t
    wire [T-1:0] el_hit;    // launch_v & launch_tb == t (engine)
    wire [T-1:0] tb_idle;
    wire [T-1:0] go_low = go & (~go + {{(T-1){1'b0}}, 1'b1});  // S4: lowbit(go), one-hot
    wire         go_any = |go;
    wire [T-1:0] lsel   = launch_v ? el_hit : go_low;          // S4: slot launched (one-hot or 0)
    wire [T-1:0] rm     = tb_done | fr_hit;                   // E3

    genvar gt;
    generate
        for (gt = 0; gt < T; gt = gt + 1) begin : g_slot
            localparam [TBS_W-1:0] TI = gt;
            wire [W-1:0] m = tmask[gt*W +: W];
            assign set_hit[gt] = set_tb == TI;
            assign lk_hit[gt]  = lk_tb == TI;
            assign fr_hit[gt]  = free_v & (free_tb == TI);
            assign el_hit[gt]  = launch_tb == TI;
            // S1, S3 (an exiting warp counts as in flight: docs/sm_top.md S1)
            assign tb_idle[gt] = ~|(m & (wbusy | wexit));
            assign tb_done[gt] = run[gt] & ~|(m & live);
        end
    endgenerate

    // AND-OR selects over the slots (zeros when no slot is selected, e.g. an index >= T)
    reg [W-1:0]      lk_mask_s, ln_mask_s, fr_mask_s, rm_mask_s;
    reg [REGN_W-1:0] lk_nreg_s;
    reg [SMLN_W-1:0] lk_smem_s;
    reg [KS_W-1:0]   ln_ks_s;
    integer si;
    always @* begin
        lk_mask_s = {W{1'b0}};
        lk_nreg_s = {REGN_W{1'b0}};
        lk_smem_s = {SMLN_W{1'b0}};
        ln_mask_s = {W{1'b0}};
        ln_ks_s   = {KS_W{1'b0}};
        fr_mask_s = {W{1'b0}};
        rm_mask_s = {W{1'b0}};
        for (si = 0; si < T; si = si + 1) begin
            lk_mask_s = lk_mask_s | (tmask[si*W +: W] & {W{lk_hit[si]}});
            lk_nreg_s = lk_nreg_s | (tnreg[si*REGN_W +: REGN_W] & {REGN_W{lk_hit[si]}});
            lk_smem_s = lk_smem_s | (tsml[si*SMLN_W +: SMLN_W] & {SMLN_W{lk_hit[si]}});
            ln_mask_s = ln_mask_s | (tmask[si*W +: W] & {W{lsel[si]}});
            ln_ks_s   = ln_ks_s | (tks[si*KS_W +: KS_W] & {KS_W{lsel[si]}});
            fr_mask_s = fr_mask_s | (tmask[si*W +: W] & {W{fr_hit[si]}});
            rm_mask_s = rm_mask_s | (tmask[si*W +: W] & {W{rm[si]}});
        end
    end

    // ---------------------------------------------------------------- S2 set-up
    wire set_ok = set_v & (|set_hit) & ~|(set_hit & (alloc | run)) & (|set_mask) & ~|(set_mask & wused);
    assign set_rej = set_v & ~set_ok;

    // ---------------------------------------------------------------- S1 outputs
    assign tb_alloc = alloc;
    assign tb_run   = run;

    // ---------------------------------------------------------------- S4, S5
    wire         ws_launch_v    = launch_v | go_any;
    wire [W-1:0] ws_launch_mask = ln_mask_s;
    wire [W-1:0] ws_finish_mask = wexit | fr_mask_s;

    // ---------------------------------------------------------------- blocks (S6)
    warp_sched #(.QGATE(QGATE), .IDLE_ARB(IDLE_ARB)) u_ws (
        .clk         (clk),
        .rst         (rst),
        .policy      (policy),
        .launch_v    (ws_launch_v),
        .launch_mask (ws_launch_mask),
        .launch_ks   (ln_ks_s),
        .finish_mask (ws_finish_mask),
        .ready       (ready),
        .stop        (stop),
        .pblk        (pblk),
        .qallow      (qallow),
        .iss_v       (iss_v),
        .iss_wid     (iss_wid),
        .iss_ks      (iss_ks),
        .idle_cnt    (idle_cnt),
        .held_cnt    (held_cnt),
        .ks_active   (ks_active),
        .wvalid      (wvalid)
    );

    quota_unit u_qu (
        .clk       (clk),
        .rst       (rst),
        .csr_we    (csr_we),
        .csr_addr  (csr_addr),
        .csr_wdata (csr_wdata),
        .rd_addr   (rd_addr),
        .rd_data   (rd_data),
        .iss_v     (iss_v),
        .iss_ks    (iss_ks),
        .cp_v      (cp_v),
        .cp_ks     (cp_ks),
        .cp_act    (cp_act),
        .idle_cnt  (idle_cnt),
        .ks_active (ks_active),
        .qallow    (qallow),
        .policy    (policy),
        .epoch_end (epoch_end)
    );

    preempt_engine u_pe (
        .clk          (clk),
        .rst          (rst),
        .cmd_v        (cmd_v),
        .cmd_op       (cmd_op),
        .cmd_tb       (cmd_tb),
        .cmd_ptr      (cmd_ptr),
        .cmd_idem     (cmd_idem),
        .cmd_full     (cmd_full),
        .rsp_v        (rsp_v),
        .rsp_op       (rsp_op),
        .rsp_tb       (rsp_tb),
        .rsp_status   (rsp_status),
        .rsp_ptr      (rsp_ptr),
        .free_v       (free_v),
        .free_tb      (free_tb),
        .launch_v     (launch_v),
        .launch_tb    (launch_tb),
        .stop         (stop),
        .draining     (draining),
        .tb_run       (run),
        .tb_alloc     (alloc & ~go),
        .tb_idle      (tb_idle),
        .tb_done      (tb_done),
        .lk_tb        (lk_tb),
        .lk_mask      (lk_mask_s),
        .lk_nreg      (lk_nreg_s),
        .lk_smem      (lk_smem_s),
        .cap          (cap),
        .mem_req_v    (mem_req_v),
        .mem_req_we   (mem_req_we),
        .mem_req_addr (mem_req_addr),
        .mem_req_tag  (mem_req_tag),
        .mem_req_rdy  (mem_req_rdy),
        .mem_rsp_v    (mem_rsp_v),
        .mem_rsp_tag  (mem_rsp_tag),
        .st_re        (st_re),
        .st_we        (st_we),
        .st_tb        (st_tb),
        .st_kind      (st_kind),
        .st_wid       (st_wid),
        .st_idx       (st_idx)
    );

    // ---------------------------------------------------------------- clock edge (E1..E4)
    wire [T-1:0] set_sel = set_hit & {T{set_ok}};

    always @(posedge clk) begin
        if (rst) begin
            alloc <= {T{1'b0}};
            run   <= {T{1'b0}};
            go    <= {T{1'b0}};
            live  <= {W{1'b0}};
            wused <= {W{1'b0}};
        end else begin
            alloc <= (alloc | set_sel) & ~lsel;                                  // E1, E2
            go    <= ((go & ~set_sel) | (set_sel & {T{set_go}})) & ~lsel;        // E1, E2
            run   <= (run | lsel) & ~rm;                                         // E2, E3
            live  <= ((live | (ws_launch_v ? ws_launch_mask : {W{1'b0}})) & ~rm_mask_s) & ~wexit; // E2-E4
            wused <= (wused | (set_ok ? set_mask : {W{1'b0}})) & ~rm_mask_s;   // E1, E3
        end
    end

    generate
        for (gt = 0; gt < T; gt = gt + 1) begin : g_field
            always @(posedge clk) begin
                if (rst) begin
                    tmask[gt*W +: W]            <= {W{1'b0}};
                    tks[gt*KS_W +: KS_W]        <= {KS_W{1'b0}};
                    tnreg[gt*REGN_W +: REGN_W]  <= {REGN_W{1'b0}};
                    tsml[gt*SMLN_W +: SMLN_W]   <= {SMLN_W{1'b0}};
                end else if (set_sel[gt]) begin
                    tmask[gt*W +: W]            <= set_mask;
                    tks[gt*KS_W +: KS_W]        <= set_ks;
                    tnreg[gt*REGN_W +: REGN_W]  <= set_nreg;
                    tsml[gt*SMLN_W +: SMLN_W]   <= set_smem;
                end
            end
        end
    endgenerate

`ifdef SMK_COVER
    // ------------------------------------------------------------------ cover points
    // One labelled point per case of each numbered rule of docs/sm_top.md (make coverage with
    // --coverage-user +define+SMK_COVER; docs/verification.md "Coverage"): c_st_s<N>_* combinational
    // rule SN, c_st_e<N>_* clock-edge rule N, c_st_ix_* the rule of a slot index >= T. A point over
    // the slots counts once, hit if any slot hit it. Not seen by synthesis or the other builds.
    wire [T-1:0] cv_exit_only;   // running TB not idle only because a warp of it exits (S1)
    wire [T-1:0] cv_last_exit;   // running TB whose last live warps exit this cycle (E4)
    genvar cv_t;
    for (cv_t = 0; cv_t < T; cv_t = cv_t + 1) begin : g_cv_slot
        // the slot's mask, again from tmask (a reference into g_slot fails to elaborate under
        // gpu_top's several instances in this tool version)
        wire [W-1:0] cm = tmask[cv_t*W +: W];
        assign cv_exit_only[cv_t] = run[cv_t] & ~|(cm & wbusy) & (|(cm & wexit));
        assign cv_last_exit[cv_t] = run[cv_t] & (|(cm & live & wexit)) & ~|(cm & live & ~wexit);
    end
    // S1: a slot allocated for a RESTORE is the engine's; a slot waiting for its go launch is not;
    // a running TB idle; busy; not idle only through an exiting warp; the lookup port reading a
    // slot allocated for a RESTORE and a running slot
    c_st_s1_restore_target: cover property (@(posedge clk) !rst && (|(alloc & ~go)));
    c_st_s1_go_hidden:      cover property (@(posedge clk) !rst && (|(alloc & go)));
    c_st_s1_idle:           cover property (@(posedge clk) !rst && (|(run & tb_idle)));
    c_st_s1_busy:           cover property (@(posedge clk) !rst && (|(run & ~tb_idle)));
    c_st_s1_exit_busy:      cover property (@(posedge clk) !rst && (|cv_exit_only));
    c_st_s1_lookup_alloc:   cover property (@(posedge clk) !rst && (|(lk_hit & alloc & ~go)));
    c_st_s1_lookup_run:     cover property (@(posedge clk) !rst && (|(lk_hit & run)));
    // slot index >= T (T not a power of two): a launch or a free at such an index
    c_st_ix_launch_free:    cover property (@(posedge clk) !rst && ((launch_v && !(|el_hit)) || (free_v && !(|fr_hit))));
    // S2: a set-up accepted; refused for a slot >= T, an allocated slot, a running slot, an empty
    // mask, a mask overlapping wused; a slot freed in this cycle still refused
    c_st_s2_accept:         cover property (@(posedge clk) !rst && set_ok);
    c_st_s2_rej_range:      cover property (@(posedge clk) !rst && set_v && !(|set_hit));
    c_st_s2_rej_alloc:      cover property (@(posedge clk) !rst && set_v && (|(set_hit & alloc)));
    c_st_s2_rej_run:        cover property (@(posedge clk) !rst && set_v && (|(set_hit & run)));
    c_st_s2_rej_empty:      cover property (@(posedge clk) !rst && set_v && !(|set_mask));
    c_st_s2_rej_overlap:    cover property (@(posedge clk) !rst && set_v && (|(set_mask & wused)));
    c_st_s2_rej_freed:      cover property (@(posedge clk) !rst && set_v && (|(set_hit & rm)));
    // S3: a natural completion
    c_st_s3_done:           cover property (@(posedge clk) !rst && (|tb_done));
    // S4: the engine's launch; a pending go launched; the engine first with a go pending; the
    // lowest of several pending go
    c_st_s4_engine:         cover property (@(posedge clk) !rst && launch_v);
    c_st_s4_go:             cover property (@(posedge clk) !rst && !launch_v && go_any);
    c_st_s4_engine_first:   cover property (@(posedge clk) !rst && launch_v && go_any);
    c_st_s4_go_lowest:      cover property (@(posedge clk) !rst && !launch_v && ((go & (go - 1'b1)) != {T{1'b0}}));
    // S5: warps removed by their exit; by the engine's free; both in one cycle
    c_st_s5_exit:           cover property (@(posedge clk) !rst && (|wexit));
    c_st_s5_free:           cover property (@(posedge clk) !rst && free_v && (|fr_mask_s));
    c_st_s5_exit_free:      cover property (@(posedge clk) !rst && free_v && (|wexit));
    // S6: the engine's stop, the pipelines' pblk and the quota unit's gate reach warp_sched
    c_st_s6_stop:           cover property (@(posedge clk) !rst && (|stop));
    c_st_s6_pblk:           cover property (@(posedge clk) !rst && (|pblk));
    c_st_s6_quota:          cover property (@(posedge clk) !rst && (|(ks_active & ~qallow)));
    // clock-edge rule 1: a set-up of a fresh TB (go); a set-up allocating a slot for a RESTORE
    c_st_e1_setup_go:       cover property (@(posedge clk) !rst && set_ok && set_go);
    c_st_e1_setup_restore:  cover property (@(posedge clk) !rst && set_ok && !set_go);
    // clock-edge rule 2: a launch at the edge of a set-up of another slot
    c_st_e2_launch_setup:   cover property (@(posedge clk) !rst && ws_launch_v && set_ok);
    // clock-edge rule 3: a free; a done; a free and a done at one edge; a done at the edge of a
    // set-up (wused cleared and set)
    c_st_e3_free:           cover property (@(posedge clk) !rst && (|(fr_hit & run)));
    c_st_e3_done:           cover property (@(posedge clk) !rst && (|(tb_done & ~fr_hit)));
    c_st_e3_free_done:      cover property (@(posedge clk) !rst && free_v && (|tb_done));
    c_st_e3_done_setup:     cover property (@(posedge clk) !rst && (|tb_done) && set_ok);
    // clock-edge rule 4: the last live warps of a running TB exit (its done follows); an exit at
    // the edge of a launch
    c_st_e4_last_exit:      cover property (@(posedge clk) !rst && (|cv_last_exit));
    c_st_e4_exit_launch:    cover property (@(posedge clk) !rst && (|wexit) && ws_launch_v);
`endif

endmodule
`default_nettype wire
