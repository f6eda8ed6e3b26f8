`default_nettype none
`include "smk_cfg.vh"
// issue_path: cosim top joining warp_sched and quota_unit of one SM.
//   quota_unit.qallow / policy  -> warp_sched
//   warp_sched.iss_v / iss_ks / idle_cnt / ks_active -> quota_unit
// Every output of both blocks is brought out under its spec name.
module issue_path #(
    parameter QGATE = 1,
    parameter IDLE_ARB = 1
) (
    input  wire                                clk,
    input  wire                                rst,
    // warp_sched inputs
    input  wire                                launch_v,
    input  wire [`SMK_WARPS-1:0]               launch_mask,
    input  wire [`SMK_KS_W-1:0]                launch_ks,
    input  wire [`SMK_WARPS-1:0]               finish_mask,
    input  wire [`SMK_WARPS-1:0]               ready,
    input  wire [`SMK_WARPS-1:0]               stop,
    input  wire [`SMK_WARPS-1:0]               pblk,
    // quota_unit inputs
    input  wire                                csr_we,
    input  wire [`SMK_ADDR_W-1:0]              csr_addr,
    input  wire [`SMK_DATA_W-1:0]              csr_wdata,
    input  wire [`SMK_ADDR_W-1:0]              rd_addr,
    input  wire [`SMK_CP-1:0]                  cp_v,
    input  wire [`SMK_CP*`SMK_KS_W-1:0]        cp_ks,
    input  wire [`SMK_CP*`SMK_ACT_W-1:0]       cp_act,
    // warp_sched outputs
    output wire [`SMK_SCHED-1:0]               iss_v,
    output wire [`SMK_SCHED*`SMK_WID_W-1:0]    iss_wid,
    output wire [`SMK_SCHED*`SMK_KS_W-1:0]     iss_ks,
    output wire [`SMK_KSLOTS*`SMK_WCNT_W-1:0]  idle_cnt,
    output wire [`SMK_KSLOTS*`SMK_WCNT_W-1:0]  held_cnt,
    output wire [`SMK_KSLOTS-1:0]              ks_active,
    output wire [`SMK_WARPS-1:0]               wvalid,
    // quota_unit outputs
    output wire [`SMK_KSLOTS-1:0]              qallow,
    output wire                                policy,
    output wire                                epoch_end,
    output wire [`SMK_DATA_W-1:0]              rd_data
);

    warp_sched #(.QGATE(QGATE), .IDLE_ARB(IDLE_ARB)) u_ws (
        .clk         (clk),
        .rst         (rst),
        .policy      (policy),
        .launch_v    (launch_v),
        .launch_mask (launch_mask),
        .launch_ks   (launch_ks),
        .finish_mask (finish_mask),
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

endmodule
`default_nettype wire
