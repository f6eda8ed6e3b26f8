`default_nettype none
`include "smk_cfg.vh"
// sm_top_props: invariants of the TB slot table of docs/sm_top.md, proven against rtl/sm_top.v by
// testbench/formal/formal.sh (Yosys SAT, temporal induction from the reset state).
//
// Every input of sm_top is free except for the pipelines' contract (docs/sm_top.md "Contract with
// the pipelines"), assumed here because it is what the SM's pipelines promise:
//   A1 `wexit` concerns valid warps only (wexit & ~wvalid == 0);
//   A2 a warp that is stopped, not busy and not exiting does not exit before it is launched again
//      (`sidle[w]` below remembers "stopped, not busy, not exiting since its last launch").
// Without A2 a SAVE's TB could finish by itself during the transfer and the engine would free a
// slot that the driver may already have set up again; A1 keeps `live` and `warp_sched`'s `valid`
// equal when an exit and a launch of one warp meet (they cannot: an allocated TB's warps are not
// valid). Nothing else is assumed: set-ups, commands, CSR writes, ready, wbusy, completions and
// memory responses are free in every cycle.
//
// The unit's registers reach this module through the p_* wires, which formal.sh connects to them
// after flattening. Properties (H = alloc | run, the slots a TB holds):
//   T1 alloc & run == 0                      (State: a slot is allocated or running, not both)
//   T2 go is a subset of alloc               (State: go = an allocated slot waiting for the arbiter)
//   T3 a held slot has a non-empty mask      (S2 refuses an empty mask)
//   T4 the masks of two held slots are disjoint (S2: set_mask & wused == 0)
//   T5 wused == OR of the held slots' masks  (State: wused = warps owned by an allocated or running slot)
//   T6 live == warp_sched's valid            (State: live = warps launched and not exited or removed;
//                                             S4/S5 give warp_sched the same launches and removals)
//   T7 live is a subset of the running slots' masks; an allocated slot has no live warp
//   T8 a live warp of running slot t has warp_sched kernel slot tks[t] (rule 2 launches tmask with tks)
//   T9 the engine's current SAVE/DROP (STOP, XFER, or DONE with OK) is of a running slot whose mask is
//      the engine's latched mask and whose live warps are stopped and idle; its RESTORE (XFER, or
//      DONE with OK) is of an allocated slot without go with that mask (engine contract items 2-3)
//   I1 a stopped TB never issues: an issued warp is live in a running slot t, not the slot the engine
//      stops, and iss_ks == tks[t] (S6 ws.stop = stop; preempt_engine.md: stop = the stopped slot's mask)
module sm_top_props (
    input wire clk, input wire rst,
    input wire set_v, input wire [`SMK_TBS_W-1:0] set_tb, input wire [`SMK_WARPS-1:0] set_mask,
    input wire [`SMK_KS_W-1:0] set_ks, input wire [`SMK_REGN_W-1:0] set_nreg,
    input wire [`SMK_SMLN_W-1:0] set_smem, input wire set_go,
    input wire cmd_v, input wire [1:0] cmd_op, input wire [`SMK_TBS_W-1:0] cmd_tb,
    input wire [`SMK_CTX_PTR_W-1:0] cmd_ptr, input wire cmd_idem, input wire [`SMK_PE_OUT_W-1:0] cap,
    input wire [`SMK_WARPS-1:0] ready, input wire [`SMK_WARPS-1:0] pblk, input wire [`SMK_WARPS-1:0] wbusy, input wire [`SMK_WARPS-1:0] wexit,
    input wire [`SMK_CP-1:0] cp_v, input wire [`SMK_CP*`SMK_KS_W-1:0] cp_ks,
    input wire [`SMK_CP*`SMK_ACT_W-1:0] cp_act,
    input wire csr_we, input wire [`SMK_ADDR_W-1:0] csr_addr, input wire [`SMK_DATA_W-1:0] csr_wdata,
    input wire [`SMK_ADDR_W-1:0] rd_addr,
    input wire mem_req_rdy, input wire mem_rsp_v, input wire [`SMK_CTX_TAG_W-1:0] mem_rsp_tag
);
    localparam W = `SMK_WARPS, T = `SMK_TB_SLOTS, S = `SMK_SCHED, KS_W = `SMK_KS_W, WID_W = `SMK_WID_W;
    localparam TBS_W = `SMK_TBS_W;
    localparam [1:0] OP_SAVE = `SMK_PE_OP_SAVE, OP_RESTORE = `SMK_PE_OP_RESTORE, OP_DROP = `SMK_PE_OP_DROP;
    localparam [2:0] ST_OK = `SMK_PE_ST_OK;
    localparam [1:0] F_IDLE = 2'd0, F_STOP = 2'd1, F_XFER = 2'd2, F_DONE = 2'd3;

    wire set_rej, cmd_full, rsp_v, free_v, launch_v, policy, epoch_end, mem_req_v, mem_req_we;
    wire [1:0] rsp_op, st_kind;
    wire [TBS_W-1:0] rsp_tb, free_tb, launch_tb, st_tb;
    wire [2:0] rsp_status;
    wire [`SMK_CTX_PTR_W-1:0] rsp_ptr, mem_req_addr;
    wire [T-1:0] draining, tb_alloc, tb_run, tb_done;
    wire [W-1:0] wused, wvalid, stop;
    wire [S-1:0] iss_v;
    wire [S*WID_W-1:0] iss_wid;
    wire [S*KS_W-1:0] iss_ks;
    wire [`SMK_KSLOTS*`SMK_WCNT_W-1:0] idle_cnt, held_cnt;
    wire [`SMK_KSLOTS-1:0] ks_active, qallow;
    wire [`SMK_DATA_W-1:0] rd_data;
    wire [`SMK_CTX_TAG_W-1:0] mem_req_tag;
    wire st_re, st_we;
    wire [WID_W-1:0] st_wid;
    wire [`SMK_CTX_IDX_W-1:0] st_idx;
    sm_top u (.clk(clk), .rst(rst), .set_v(set_v), .set_tb(set_tb), .set_mask(set_mask), .set_ks(set_ks),
        .set_nreg(set_nreg), .set_smem(set_smem), .set_go(set_go), .set_rej(set_rej), .cmd_v(cmd_v),
        .cmd_op(cmd_op), .cmd_tb(cmd_tb), .cmd_ptr(cmd_ptr), .cmd_idem(cmd_idem), .cap(cap),
        .cmd_full(cmd_full), .rsp_v(rsp_v), .rsp_op(rsp_op), .rsp_tb(rsp_tb), .rsp_status(rsp_status),
        .rsp_ptr(rsp_ptr), .free_v(free_v), .free_tb(free_tb), .launch_v(launch_v), .launch_tb(launch_tb),
        .draining(draining), .tb_alloc(tb_alloc), .tb_run(tb_run), .tb_done(tb_done), .wused(wused),
        .ready(ready), .pblk(pblk), .wbusy(wbusy), .wexit(wexit), .cp_v(cp_v), .cp_ks(cp_ks), .cp_act(cp_act),
        .csr_we(csr_we), .csr_addr(csr_addr), .csr_wdata(csr_wdata), .rd_addr(rd_addr), .iss_v(iss_v),
        .iss_wid(iss_wid), .iss_ks(iss_ks), .idle_cnt(idle_cnt), .held_cnt(held_cnt),
        .ks_active(ks_active), .wvalid(wvalid), .stop(stop), .qallow(qallow), .policy(policy),
        .epoch_end(epoch_end), .rd_data(rd_data), .mem_req_v(mem_req_v), .mem_req_we(mem_req_we),
        .mem_req_addr(mem_req_addr), .mem_req_tag(mem_req_tag), .mem_req_rdy(mem_req_rdy),
        .mem_rsp_v(mem_rsp_v), .mem_rsp_tag(mem_rsp_tag), .st_re(st_re), .st_we(st_we), .st_tb(st_tb),
        .st_kind(st_kind), .st_wid(st_wid), .st_idx(st_idx));

    // the unit's registers (connected by formal.sh)
    (* keep *) wire [T-1:0]      p_alloc, p_run, p_go;
    (* keep *) wire [T*W-1:0]    p_tmask;
    (* keep *) wire [T*KS_W-1:0] p_tks;
    (* keep *) wire [W-1:0]      p_live;
    (* keep *) wire [W*KS_W-1:0] p_wks;      // warp_sched ks
    (* keep *) wire [1:0]        p_fsm, p_op; // engine fsm, cur_op
    (* keep *) wire [2:0]        p_st;        // engine cur_st
    (* keep *) wire [TBS_W-1:0]  p_ctb;       // engine cur_tb
    (* keep *) wire [W-1:0]      p_pmask;     // engine tmask

    // A2's monitor: stopped, not busy, not exiting since the warp's last launch
    wire ws_launch_v = launch_v | (|p_go);
    reg [W-1:0] lmask;
    reg [W-1:0] sidle = {W{1'b0}};
    always @(posedge clk)
        if (rst) sidle <= {W{1'b0}};
        else sidle <= (sidle | (stop & ~wbusy & ~wexit)) & ~({W{ws_launch_v}} & lmask);

    localparam NOKV = 15;
    (* keep *) reg [NOKV-1:0] okv;  // 0 where an assertion fails (a counterexample: sat -show okv)
    always @* begin : props
        integer t, v, w, s;
        reg [W-1:0] held_or, run_or, m, cm;
        reg found;
        okv = {NOKV{1'b1}};
        // the mask warp_sched launches (S4), for the monitor
        lmask = {W{1'b0}};
        found = 1'b0;
        for (t = 0; t < T; t = t + 1)
            if (!found && (launch_v ? (t == launch_tb) : p_go[t])) begin
                lmask = p_tmask[t*W +: W]; found = 1'b1;
            end
        if (!rst) begin
            assume((wexit & ~wvalid) == {W{1'b0}});          // A1
            assume((wexit & sidle) == {W{1'b0}});            // A2
        end
        begin
            begin assert((p_alloc & p_run) == {T{1'b0}}); if (!((p_alloc & p_run) == {T{1'b0}})) okv[0] = 1'b0; end                                   // T1
            begin assert((p_go & ~p_alloc) == {T{1'b0}}); if (!((p_go & ~p_alloc) == {T{1'b0}})) okv[1] = 1'b0; end                                   // T2
            held_or = {W{1'b0}}; run_or = {W{1'b0}};
            for (t = 0; t < T; t = t + 1) begin
                m = p_tmask[t*W +: W];
                if (p_alloc[t] || p_run[t]) begin
                    begin assert(m != {W{1'b0}}); if (!(m != {W{1'b0}})) okv[2] = 1'b0; end                                           // T3
                    held_or = held_or | m;
                    for (v = t + 1; v < T; v = v + 1)
                        if (p_alloc[v] || p_run[v]) begin assert((m & p_tmask[v*W +: W]) == {W{1'b0}}); if (!((m & p_tmask[v*W +: W]) == {W{1'b0}})) okv[3] = 1'b0; end // T4
                end
                if (p_run[t]) run_or = run_or | m;
                if (p_alloc[t]) begin assert((m & p_live) == {W{1'b0}}); if (!((m & p_live) == {W{1'b0}})) okv[4] = 1'b0; end                    // T7
                for (w = 0; w < W; w = w + 1)
                    if (p_run[t] && m[w] && p_live[w])
                        begin assert(p_wks[w*KS_W +: KS_W] == p_tks[t*KS_W +: KS_W]); if (!(p_wks[w*KS_W +: KS_W] == p_tks[t*KS_W +: KS_W])) okv[5] = 1'b0; end      // T8
            end
            begin assert(wused == held_or); if (!(wused == held_or)) okv[6] = 1'b0; end                                                 // T5
            begin assert(p_live == wvalid); if (!(p_live == wvalid)) okv[7] = 1'b0; end                                                 // T6
            begin assert((p_live & ~run_or) == {W{1'b0}}); if (!((p_live & ~run_or) == {W{1'b0}})) okv[8] = 1'b0; end                                  // T7
            // T9
            cm = p_tmask[p_ctb*W +: W];
            if (p_fsm == F_STOP || (p_fsm == F_XFER && p_op == OP_SAVE) ||
                (p_fsm == F_DONE && (p_op == OP_SAVE || p_op == OP_DROP) && p_st == ST_OK)) begin
                begin assert(p_run[p_ctb] && cm == p_pmask && p_st == ST_OK); if (!(p_run[p_ctb] && cm == p_pmask && p_st == ST_OK)) okv[9] = 1'b0; end
                if (p_fsm != F_STOP) begin assert((cm & p_live) != {W{1'b0}} && (cm & p_live & ~sidle) == {W{1'b0}}); if (!((cm & p_live) != {W{1'b0}} && (cm & p_live & ~sidle) == {W{1'b0}})) okv[10] = 1'b0; end
            end
            if ((p_fsm == F_XFER || (p_fsm == F_DONE && p_st == ST_OK)) && p_op == OP_RESTORE)
                begin assert(p_alloc[p_ctb] && !p_go[p_ctb] && cm == p_pmask); if (!(p_alloc[p_ctb] && !p_go[p_ctb] && cm == p_pmask)) okv[11] = 1'b0; end
            // I1
            for (s = 0; s < S; s = s + 1)
                if (iss_v[s]) begin
                    w = iss_wid[s*WID_W +: WID_W];
                    begin assert(!stop[w] && p_live[w]); if (!(!stop[w] && p_live[w])) okv[12] = 1'b0; end
                    for (t = 0; t < T; t = t + 1)
                        if (p_tmask[t*W + w] && p_run[t]) begin
                            begin assert(iss_ks[s*KS_W +: KS_W] == p_tks[t*KS_W +: KS_W]); if (!(iss_ks[s*KS_W +: KS_W] == p_tks[t*KS_W +: KS_W])) okv[13] = 1'b0; end
                            if (stop != {W{1'b0}}) begin assert(t != p_ctb); if (!(t != p_ctb)) okv[14] = 1'b0; end
                        end
                end
        end
    end
endmodule
`default_nettype wire
