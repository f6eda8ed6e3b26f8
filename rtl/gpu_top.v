`default_nettype none
`include "smk_cfg.vh"
// gpu_top: the GPU (spec: docs/gpu_top.md): the SM driver (u_drv), NUM_SM SM tops (g_sm[gs].u_sm)
// and the QoS manager (u_qm, docs/qos_mgr.md section 10). While the manager owns them (`own`), the
// SMs' register ports and the driver's request and lookup ports come from the manager, otherwise
// from the host's inputs of issue 4. Per-SM ports are packed, SM s at [s*w +: w]. The driver <-> SM
// wiring and the manager's outputs are also brought out so that the cosim compares them every cycle.
module gpu_top #(
    parameter QGATE = 1,
    parameter IDLE_ARB = 1,
    parameter MA_W  = `SMK_QM_ADDR_W,     // the manager's register address width (hw/regmap.def, space QM)
    parameter GVW   = `SMK_TBS_W + 1      // rq_give field, lk_cnt
) (
    input  wire clk,
    input  wire rst,
    // host and configuration (driver)
    input  wire  kl_v,
    input  wire [`SMK_KID_W-1:0] kl_k,
    input  wire [`SMK_WID_W+1-1:0] kl_n,
    input  wire [`SMK_REGN_W-1:0] kl_r,
    input  wire [`SMK_SMLN_W-1:0] kl_m,
    input  wire [`SMK_GRID_W-1:0] kl_grid,
    input  wire  kl_qos,
    input  wire  kl_idem,
    input  wire [`SMK_NUM_SM-1:0] kl_mask,
    input  wire [2-1:0] kl_adm,
    input  wire [`SMK_GRID_W-1:0] kl_lim,
    input  wire  km_v,
    input  wire [`SMK_KID_W-1:0] km_k,
    input  wire [`SMK_NUM_SM-1:0] km_mask,
    input  wire [3-1:0] cfg_policy,
    input  wire  cfg_max2,
    input  wire [2-1:0] cfg_evict,
    input  wire [2-1:0] cfg_pmode,
    input  wire [2-1:0] cfg_qctl,
    output wire  kl_rej,
    output wire  kdone_v,
    output wire [`SMK_KID_W-1:0] kdone_k,
    // QoS manager's request and lookup ports of the driver (docs/sm_driver.md "QoS")
    input  wire  rq_v,
    input  wire [`SMK_KID_W-1:0] rq_k,
    input  wire [`SMK_SMW-1:0] rq_sm,
    input  wire  rq_ret,
    input  wire [`SMK_KERNELS*(`SMK_TBS_W+1)-1:0] rq_give,
    output wire  rq_rdy,
    output wire  rq_ack_v,
    output wire [2-1:0] rq_ack_st,
    output wire [`SMK_KID_W-1:0] rq_ack_kv,
    output wire [`SMK_TBS_W+1-1:0] rq_ack_n,
    input  wire [`SMK_SMW-1:0] lk_s,
    input  wire [`SMK_KID_W-1:0] lk_k,
    output wire [`SMK_TBS_W+1-1:0] lk_cnt,
    output wire [`SMK_TBS_W+1-1:0] lk_part,
    output wire  lk_ksv,
    output wire [`SMK_KS_W-1:0] lk_ks,
    // per SM: pipelines, registers, memory, throttle cap
    input  wire [`SMK_NUM_SM*(`SMK_PE_OUT_W)-1:0] cap,
    input  wire [`SMK_NUM_SM*(`SMK_WARPS)-1:0] ready,
    input  wire [`SMK_NUM_SM*(`SMK_WARPS)-1:0] pblk,
    input  wire [`SMK_NUM_SM*(`SMK_WARPS)-1:0] wbusy,
    input  wire [`SMK_NUM_SM*(`SMK_WARPS)-1:0] wexit,
    input  wire [`SMK_NUM_SM*(`SMK_CP)-1:0] cp_v,
    input  wire [`SMK_NUM_SM*(`SMK_CP*`SMK_KS_W)-1:0] cp_ks,
    input  wire [`SMK_NUM_SM*(`SMK_CP*`SMK_ACT_W)-1:0] cp_act,
    input  wire [`SMK_NUM_SM-1:0] csr_we,
    input  wire [`SMK_NUM_SM*(`SMK_ADDR_W)-1:0] csr_addr,
    input  wire [`SMK_NUM_SM*(`SMK_DATA_W)-1:0] csr_wdata,
    input  wire [`SMK_NUM_SM*(`SMK_ADDR_W)-1:0] rd_addr,
    input  wire [`SMK_NUM_SM-1:0] mem_req_rdy,
    input  wire [`SMK_NUM_SM-1:0] mem_rsp_v,
    input  wire [`SMK_NUM_SM*(`SMK_CTX_TAG_W)-1:0] mem_rsp_tag,
    // QoS manager (issue 5): host register port, the launch fields only it reads, and its outputs
    input  wire  m_we,
    input  wire [MA_W-1:0] m_addr,
    input  wire [31:0] m_wdata,
    input  wire [MA_W-1:0] m_raddr,
    output wire [31:0] m_rdata,
    input  wire [31:0] kl_goal,
    input  wire [16:0] kl_x,
    input  wire [GVW-1:0] kl_t,
    input  wire  kl_keep,
    output wire  own,
    output wire [`SMK_NUM_SM-1:0] qm_csr_we,
    output wire [`SMK_NUM_SM*(`SMK_ADDR_W)-1:0] qm_csr_addr,
    output wire [`SMK_NUM_SM*(`SMK_DATA_W)-1:0] qm_csr_wdata,
    output wire [`SMK_NUM_SM*(`SMK_ADDR_W)-1:0] qm_rd_addr,
    output wire  qm_rq_v,
    output wire [`SMK_KID_W-1:0] qm_rq_k,
    output wire [`SMK_SMW-1:0] qm_rq_sm,
    output wire  qm_rq_ret,
    output wire [`SMK_KERNELS*GVW-1:0] qm_rq_give,
    output wire [`SMK_SMW-1:0] qm_lk_s,
    output wire [`SMK_KID_W-1:0] qm_lk_k,
    // per SM: outputs of the SM tops
    output wire [`SMK_NUM_SM*(`SMK_SCHED)-1:0] iss_v,
    output wire [`SMK_NUM_SM*(`SMK_SCHED*`SMK_WID_W)-1:0] iss_wid,
    output wire [`SMK_NUM_SM*(`SMK_SCHED*`SMK_KS_W)-1:0] iss_ks,
    output wire [`SMK_NUM_SM*(`SMK_KSLOTS*`SMK_WCNT_W)-1:0] idle_cnt,
    output wire [`SMK_NUM_SM*(`SMK_KSLOTS*`SMK_WCNT_W)-1:0] held_cnt,
    output wire [`SMK_NUM_SM*(`SMK_KSLOTS)-1:0] ks_active,
    output wire [`SMK_NUM_SM*(`SMK_WARPS)-1:0] wvalid,
    output wire [`SMK_NUM_SM*(`SMK_WARPS)-1:0] stop,
    output wire [`SMK_NUM_SM*(`SMK_KSLOTS)-1:0] qallow,
    output wire [`SMK_NUM_SM-1:0] policy,
    output wire [`SMK_NUM_SM-1:0] epoch_end,
    output wire [`SMK_NUM_SM*(`SMK_DATA_W)-1:0] rd_data,
    output wire [`SMK_NUM_SM-1:0] mem_req_v,
    output wire [`SMK_NUM_SM-1:0] mem_req_we,
    output wire [`SMK_NUM_SM*(`SMK_CTX_PTR_W)-1:0] mem_req_addr,
    output wire [`SMK_NUM_SM*(`SMK_CTX_TAG_W)-1:0] mem_req_tag,
    output wire [`SMK_NUM_SM-1:0] st_re,
    output wire [`SMK_NUM_SM-1:0] st_we,
    output wire [`SMK_NUM_SM*(`SMK_TBS_W)-1:0] st_tb,
    output wire [`SMK_NUM_SM*(2)-1:0] st_kind,
    output wire [`SMK_NUM_SM*(`SMK_WID_W)-1:0] st_wid,
    output wire [`SMK_NUM_SM*(`SMK_CTX_IDX_W)-1:0] st_idx,
    output wire [`SMK_NUM_SM-1:0] free_v,
    output wire [`SMK_NUM_SM*(`SMK_TBS_W)-1:0] free_tb,
    output wire [`SMK_NUM_SM-1:0] launch_v,
    output wire [`SMK_NUM_SM*(`SMK_TBS_W)-1:0] launch_tb,
    output wire [`SMK_NUM_SM*(`SMK_TB_SLOTS)-1:0] draining,
    output wire [`SMK_NUM_SM*(`SMK_TB_SLOTS)-1:0] tb_alloc,
    output wire [`SMK_NUM_SM*(`SMK_TB_SLOTS)-1:0] tb_run,
    // per SM: driver <-> SM wiring, observed
    output wire [`SMK_NUM_SM-1:0] set_v,
    output wire [`SMK_NUM_SM*(`SMK_TBS_W)-1:0] set_tb,
    output wire [`SMK_NUM_SM*(`SMK_WARPS)-1:0] set_mask,
    output wire [`SMK_NUM_SM*(`SMK_KS_W)-1:0] set_ks,
    output wire [`SMK_NUM_SM*(`SMK_REGN_W)-1:0] set_nreg,
    output wire [`SMK_NUM_SM*(`SMK_SMLN_W)-1:0] set_smem,
    output wire [`SMK_NUM_SM-1:0] set_go,
    output wire [`SMK_NUM_SM*(`SMK_GRID_W)-1:0] set_id,     // not consumed by sm_top
    output wire [`SMK_NUM_SM-1:0] cmd_v,
    output wire [`SMK_NUM_SM*(2)-1:0] cmd_op,
    output wire [`SMK_NUM_SM*(`SMK_TBS_W)-1:0] cmd_tb,
    output wire [`SMK_NUM_SM*(`SMK_CTX_PTR_W)-1:0] cmd_ptr,
    output wire [`SMK_NUM_SM-1:0] cmd_idem,
    output wire [`SMK_NUM_SM-1:0] set_rej,
    output wire [`SMK_NUM_SM-1:0] cmd_full,
    output wire [`SMK_NUM_SM-1:0] rsp_v,
    output wire [`SMK_NUM_SM*(2)-1:0] rsp_op,
    output wire [`SMK_NUM_SM*(`SMK_TBS_W)-1:0] rsp_tb,
    output wire [`SMK_NUM_SM*(3)-1:0] rsp_status,
    output wire [`SMK_NUM_SM*(`SMK_CTX_PTR_W)-1:0] rsp_ptr,
    output wire [`SMK_NUM_SM*(`SMK_TB_SLOTS)-1:0] tb_done,
    output wire [`SMK_NUM_SM*(`SMK_WARPS)-1:0] wused
);

    // ---- the QoS manager and the mux on `own` (docs/gpu_top.md "Wiring")
    wire [`SMK_NUM_SM*(`SMK_DATA_W)-1:0] sm_rd_data;   // every SM's rd_data (host and manager)
    wire  d_rq_v;
    wire [`SMK_KID_W-1:0] d_rq_k;
    wire [`SMK_SMW-1:0] d_rq_sm;
    wire d_rq_ret;
    wire [`SMK_KERNELS*GVW-1:0] d_rq_give;
    wire [`SMK_SMW-1:0] d_lk_s;
    wire [`SMK_KID_W-1:0] d_lk_k;
    wire [`SMK_NUM_SM-1:0] s_csr_we;
    wire [`SMK_NUM_SM*(`SMK_ADDR_W)-1:0] s_csr_addr;
    wire [`SMK_NUM_SM*(`SMK_DATA_W)-1:0] s_csr_wdata;
    wire [`SMK_NUM_SM*(`SMK_ADDR_W)-1:0] s_rd_addr;

    assign d_rq_v    = own ? qm_rq_v    : rq_v;
    assign d_rq_k    = own ? qm_rq_k    : rq_k;
    assign d_rq_sm   = own ? qm_rq_sm   : rq_sm;
    assign d_rq_ret  = own ? qm_rq_ret  : rq_ret;
    assign d_rq_give = own ? qm_rq_give : rq_give;
    assign d_lk_s    = own ? qm_lk_s    : lk_s;
    assign d_lk_k    = own ? qm_lk_k    : lk_k;
    // the whole slice of every SM from one source
    assign s_csr_we    = own ? qm_csr_we    : csr_we;
    assign s_csr_addr  = own ? qm_csr_addr  : csr_addr;
    assign s_csr_wdata = own ? qm_csr_wdata : csr_wdata;
    assign s_rd_addr   = own ? qm_rd_addr   : rd_addr;
    assign rd_data     = sm_rd_data;

    qos_mgr u_qm (
        .clk(clk), .rst(rst),
        .m_we(m_we), .m_addr(m_addr), .m_wdata(m_wdata), .m_raddr(m_raddr), .m_rdata(m_rdata),
        .own(own),
        .csr_we(qm_csr_we), .csr_addr(qm_csr_addr), .csr_wdata(qm_csr_wdata), .rd_addr(qm_rd_addr),
        .rd_data(sm_rd_data),
        .kl_v(kl_v), .kl_k(kl_k), .kl_n(kl_n), .kl_qos(kl_qos),
        .kl_goal(kl_goal), .kl_x(kl_x), .kl_t(kl_t), .kl_keep(kl_keep),
        .kl_rej(kl_rej), .kdone_v(kdone_v), .kdone_k(kdone_k),
        .lk_s(qm_lk_s), .lk_k(qm_lk_k), .lk_cnt(lk_cnt), .lk_part(lk_part), .lk_ksv(lk_ksv), .lk_ks(lk_ks),
        .rq_v(qm_rq_v), .rq_k(qm_rq_k), .rq_sm(qm_rq_sm), .rq_ret(qm_rq_ret), .rq_give(qm_rq_give),
        .rq_rdy(rq_rdy), .rq_ack_v(rq_ack_v), .rq_ack_st(rq_ack_st), .rq_ack_kv(rq_ack_kv), .rq_ack_n(rq_ack_n)
    );

    sm_driver u_drv (
        .clk(clk), .rst(rst),
        .kl_v(kl_v), .kl_k(kl_k), .kl_n(kl_n), .kl_r(kl_r),
        .kl_m(kl_m), .kl_grid(kl_grid), .kl_qos(kl_qos), .kl_idem(kl_idem),
        .kl_mask(kl_mask), .kl_adm(kl_adm), .kl_lim(kl_lim), .km_v(km_v),
        .km_k(km_k), .km_mask(km_mask), .cfg_policy(cfg_policy), .cfg_max2(cfg_max2),
        .cfg_evict(cfg_evict), .cfg_pmode(cfg_pmode), .cfg_qctl(cfg_qctl), .kl_keep(kl_keep), .kl_rej(kl_rej), .kdone_v(kdone_v),
        .kdone_k(kdone_k), .set_v(set_v), .set_tb(set_tb), .set_mask(set_mask),
        .set_ks(set_ks), .set_nreg(set_nreg), .set_smem(set_smem), .set_go(set_go),
        .cmd_v(cmd_v), .cmd_op(cmd_op), .cmd_tb(cmd_tb), .cmd_ptr(cmd_ptr),
        .cmd_idem(cmd_idem), .set_rej(set_rej), .cmd_full(cmd_full), .rsp_v(rsp_v),
        .rsp_op(rsp_op), .rsp_tb(rsp_tb), .rsp_status(rsp_status), .rsp_ptr(rsp_ptr),
        .tb_done(tb_done), .wused(wused), .set_id(set_id),
        .rq_v(d_rq_v), .rq_k(d_rq_k), .rq_sm(d_rq_sm), .rq_ret(d_rq_ret), .rq_give(d_rq_give), .rq_rdy(rq_rdy),
        .rq_ack_v(rq_ack_v), .rq_ack_st(rq_ack_st), .rq_ack_kv(rq_ack_kv), .rq_ack_n(rq_ack_n),
        .lk_s(d_lk_s), .lk_k(d_lk_k), .lk_cnt(lk_cnt), .lk_part(lk_part), .lk_ksv(lk_ksv), .lk_ks(lk_ks)
    );

    genvar gs;
    generate
        for (gs = 0; gs < `SMK_NUM_SM; gs = gs + 1) begin : g_sm
            sm_top #(.QGATE(QGATE), .IDLE_ARB(IDLE_ARB)) u_sm (
                .clk(clk), .rst(rst),
                .set_v(set_v[gs]), .set_tb(set_tb[gs*(`SMK_TBS_W) +: (`SMK_TBS_W)]), .set_mask(set_mask[gs*(`SMK_WARPS) +: (`SMK_WARPS)]),
                .set_ks(set_ks[gs*(`SMK_KS_W) +: (`SMK_KS_W)]), .set_nreg(set_nreg[gs*(`SMK_REGN_W) +: (`SMK_REGN_W)]), .set_smem(set_smem[gs*(`SMK_SMLN_W) +: (`SMK_SMLN_W)]),
                .set_go(set_go[gs]), .cmd_v(cmd_v[gs]), .cmd_op(cmd_op[gs*(2) +: (2)]),
                .cmd_tb(cmd_tb[gs*(`SMK_TBS_W) +: (`SMK_TBS_W)]), .cmd_ptr(cmd_ptr[gs*(`SMK_CTX_PTR_W) +: (`SMK_CTX_PTR_W)]), .cmd_idem(cmd_idem[gs]),
                .cap(cap[gs*(`SMK_PE_OUT_W) +: (`SMK_PE_OUT_W)]), .ready(ready[gs*(`SMK_WARPS) +: (`SMK_WARPS)]), .pblk(pblk[gs*(`SMK_WARPS) +: (`SMK_WARPS)]), .wbusy(wbusy[gs*(`SMK_WARPS) +: (`SMK_WARPS)]),
                .wexit(wexit[gs*(`SMK_WARPS) +: (`SMK_WARPS)]), .cp_v(cp_v[gs*(`SMK_CP) +: (`SMK_CP)]), .cp_ks(cp_ks[gs*(`SMK_CP*`SMK_KS_W) +: (`SMK_CP*`SMK_KS_W)]),
                .cp_act(cp_act[gs*(`SMK_CP*`SMK_ACT_W) +: (`SMK_CP*`SMK_ACT_W)]), .csr_we(s_csr_we[gs]), .csr_addr(s_csr_addr[gs*(`SMK_ADDR_W) +: (`SMK_ADDR_W)]),
                .csr_wdata(s_csr_wdata[gs*(`SMK_DATA_W) +: (`SMK_DATA_W)]), .rd_addr(s_rd_addr[gs*(`SMK_ADDR_W) +: (`SMK_ADDR_W)]), .mem_req_rdy(mem_req_rdy[gs]),
                .mem_rsp_v(mem_rsp_v[gs]), .mem_rsp_tag(mem_rsp_tag[gs*(`SMK_CTX_TAG_W) +: (`SMK_CTX_TAG_W)]), .iss_v(iss_v[gs*(`SMK_SCHED) +: (`SMK_SCHED)]),
                .iss_wid(iss_wid[gs*(`SMK_SCHED*`SMK_WID_W) +: (`SMK_SCHED*`SMK_WID_W)]), .iss_ks(iss_ks[gs*(`SMK_SCHED*`SMK_KS_W) +: (`SMK_SCHED*`SMK_KS_W)]), .idle_cnt(idle_cnt[gs*(`SMK_KSLOTS*`SMK_WCNT_W) +: (`SMK_KSLOTS*`SMK_WCNT_W)]),
                .held_cnt(held_cnt[gs*(`SMK_KSLOTS*`SMK_WCNT_W) +: (`SMK_KSLOTS*`SMK_WCNT_W)]), .ks_active(ks_active[gs*(`SMK_KSLOTS) +: (`SMK_KSLOTS)]), .wvalid(wvalid[gs*(`SMK_WARPS) +: (`SMK_WARPS)]),
                .stop(stop[gs*(`SMK_WARPS) +: (`SMK_WARPS)]), .qallow(qallow[gs*(`SMK_KSLOTS) +: (`SMK_KSLOTS)]), .policy(policy[gs]),
                .epoch_end(epoch_end[gs]), .rd_data(sm_rd_data[gs*(`SMK_DATA_W) +: (`SMK_DATA_W)]), .mem_req_v(mem_req_v[gs]),
                .mem_req_we(mem_req_we[gs]), .mem_req_addr(mem_req_addr[gs*(`SMK_CTX_PTR_W) +: (`SMK_CTX_PTR_W)]), .mem_req_tag(mem_req_tag[gs*(`SMK_CTX_TAG_W) +: (`SMK_CTX_TAG_W)]),
                .st_re(st_re[gs]), .st_we(st_we[gs]), .st_tb(st_tb[gs*(`SMK_TBS_W) +: (`SMK_TBS_W)]),
                .st_kind(st_kind[gs*(2) +: (2)]), .st_wid(st_wid[gs*(`SMK_WID_W) +: (`SMK_WID_W)]), .st_idx(st_idx[gs*(`SMK_CTX_IDX_W) +: (`SMK_CTX_IDX_W)]),
                .free_v(free_v[gs]), .free_tb(free_tb[gs*(`SMK_TBS_W) +: (`SMK_TBS_W)]), .launch_v(launch_v[gs]),
                .launch_tb(launch_tb[gs*(`SMK_TBS_W) +: (`SMK_TBS_W)]), .draining(draining[gs*(`SMK_TB_SLOTS) +: (`SMK_TB_SLOTS)]), .tb_alloc(tb_alloc[gs*(`SMK_TB_SLOTS) +: (`SMK_TB_SLOTS)]),
                .tb_run(tb_run[gs*(`SMK_TB_SLOTS) +: (`SMK_TB_SLOTS)]), .set_rej(set_rej[gs]), .cmd_full(cmd_full[gs]),
                .rsp_v(rsp_v[gs]), .rsp_op(rsp_op[gs*(2) +: (2)]), .rsp_tb(rsp_tb[gs*(`SMK_TBS_W) +: (`SMK_TBS_W)]),
                .rsp_status(rsp_status[gs*(3) +: (3)]), .rsp_ptr(rsp_ptr[gs*(`SMK_CTX_PTR_W) +: (`SMK_CTX_PTR_W)]), .tb_done(tb_done[gs*(`SMK_TB_SLOTS) +: (`SMK_TB_SLOTS)]),
                .wused(wused[gs*(`SMK_WARPS) +: (`SMK_WARPS)])
            );
        end
    endgenerate

endmodule
`default_nettype wire
