`default_nettype none
`include "smk_cfg.vh"
// sm_driver_props: invariants of docs/sm_driver.md "State" and "Invariants" (no SM over any limit,
// the counters equal the sums over the slot mirror, PTBQ entries never lost or duplicated), proven
// against rtl/sm_driver.v by `testbench/formal/formal.sh --driver` (make formal-driver; Yosys SAT,
// 1-induction from the all-zero reset state) on testbench/formal/drv_formal.cfg with drv_pipe = 1
// and 0 (docs/verification.md "Formal proofs": configuration, cut registers, run time, planted bugs).
//
// Environment. Every input of the driver is free in every cycle (host launches, mask changes,
// configuration inputs, wused, set_rej, cmd_full, the QoS manager's request and lookup ports)
// except the SM tops' two outputs the driver's state follows, which obey the contract of
// docs/preempt_engine.md "Environment contract" items 2-3 and docs/sm_driver.md "Event":
//   E1 an engine response of SM s comes only for the command the driver issued to s and has not
//      had answered (one command per SM, cmd_ok), with that command's op and slot;
//   E2 a RESTORE is answered OK (docs/sm_driver.md "Event": "RESTORE error never happens under the
//      contract");
//   E3 a SAVE or DROP is answered OK only if its TB has not finished (it is then saved / dropped,
//      never also finished: docs/preempt_engine.md item 1, docs/sm_top.md S1 / "wexit counted as in
//      flight"); `cfin` below records "the commanded TB finished" (a tb_done of the commanded
//      slot since the command);
//   E4 tb_done[s][t] (a one-cycle pulse of a running TB, item 2) only for a slot the driver holds
//      (sv), whose completion is not already latched (dp: the same TB finishes once, and the slot is
//      not set up again before its retire), which is not being restored (sfill) unless the
//      RESTORE's response has arrived (the engine launches the TB when it answers), and whose TB is
//      not reported SAVEd / DROPped OK (latched in rl_* or arriving this cycle).
// A response with any status other than E2 / E3's is allowed (FIN, ERR_EMPTY, an error), and
// responses and completions may take any number of cycles.
//
// The monitor keeps, per SM, the last command issued (cp: not yet answered, cop, ctb) and cfin.
// The unit's registers reach this module through the p_* wires (formal.sh connects them after
// flattening). With H the held slots (sv), d(k) = (kdreg, km, kn, 1) the demand of a TB of k:
//   L1 u(s) <= LIM for the four resources (no SM over any limit)
//   L2 u(s) = sum over k of cnt[s][k] * d(k)          (usage = sum over the slot mirror, with C1)
//   L3 U(k) = (sum over s of cnt[s][k]) * d(k)
//   C1 cnt[s][k] = number of held slots of s with sk = k
//   C2 kernel slots: ksv[s][j] with ksk = k exists iff cnt[s][k] != 0, and at most one j per (s, k)
//   C3 a held slot's kernel is in use (kv); a kernel not in use holds no slot and no SAVED / RERUN
//      entry; in use: kgrid != 0 and kndone + (held slots of k) + (SAVED / RERUN entries of k)
//      = knext <= kgrid (every fresh TB id is completed, held or queued: none lost)
//   C4 dp (a latched completion) only on held slots
//   B1 busy[s] = cp[s] | rl_v[s], never both; a latched response is the command's (op, slot), OK if
//      a RESTORE, and a SAVE / DROP OK only of an unfinished TB
//   B2 the command in flight of SM s: SAVE / DROP / DRAIN of an unfinished TB: its slot held, spre,
//      not sfill, no latched completion; RESTORE: its slot held, sfill, not spre, and while not
//      answered no latched completion; spre / sfill only on the slot of SM s's command in flight
//   P1 qst <= RERUN; a PEND entry is the PTBQ entry of the SAVE / DROP in flight of SM qs, slot qt,
//      and holds that slot's kernel and TB id unless the TB has finished; a REST entry likewise of
//      the RESTORE in flight; at most one PEND / REST entry per SM; a SAVE / DROP / RESTORE in
//      flight has one
//   P2 no two of {held slots, SAVED and RERUN entries} hold the same (kernel, TB id), and every id
//      is < knext of its kernel; so no two valid PTBQ entries hold the same (kernel, TB id)
//      (PEND of an unfinished TB, REST: their slot's id; SAVED, RERUN)
//   P3 pb (a preemption operation in flight) = OR of bpb, at most one SM's bpb, and only on an SM
//      whose unanswered command is a SAVE / DROP / DRAIN
module sm_driver_props (
    input wire clk, input wire rst,
    input wire kl_v, input wire [`SMK_KID_W-1:0] kl_k, input wire [`SMK_WID_W:0] kl_n,
    input wire [`SMK_REGN_W-1:0] kl_r, input wire [`SMK_SMLN_W-1:0] kl_m, input wire [`SMK_GRID_W-1:0] kl_grid,
    input wire kl_qos, input wire kl_idem, input wire [`SMK_NUM_SM-1:0] kl_mask, input wire [1:0] kl_adm,
    input wire [`SMK_GRID_W-1:0] kl_lim,
    input wire km_v, input wire [`SMK_KID_W-1:0] km_k, input wire [`SMK_NUM_SM-1:0] km_mask,
    input wire [2:0] cfg_policy, input wire cfg_max2, input wire [1:0] cfg_evict, input wire [1:0] cfg_pmode,
    input wire [1:0] cfg_qctl, input wire kl_keep,
    input wire [`SMK_NUM_SM-1:0] set_rej, input wire [`SMK_NUM_SM-1:0] cmd_full,
    input wire [`SMK_NUM_SM-1:0] rsp_v, input wire [`SMK_NUM_SM*2-1:0] rsp_op,
    input wire [`SMK_NUM_SM*`SMK_TBS_W-1:0] rsp_tb, input wire [`SMK_NUM_SM*3-1:0] rsp_status,
    input wire [`SMK_NUM_SM*`SMK_CTX_PTR_W-1:0] rsp_ptr,
    input wire [`SMK_NUM_SM*`SMK_TB_SLOTS-1:0] tb_done, input wire [`SMK_NUM_SM*`SMK_WARPS-1:0] wused,
    input wire rq_v, input wire [`SMK_KID_W-1:0] rq_k, input wire [`SMK_SMW-1:0] rq_sm, input wire rq_ret,
    input wire [`SMK_KERNELS*(`SMK_TBS_W+1)-1:0] rq_give,
    input wire [`SMK_SMW-1:0] lk_s, input wire [`SMK_KID_W-1:0] lk_k
);
    localparam NSM = `SMK_NUM_SM, KN = `SMK_KERNELS, KS = `SMK_KSLOTS, T = `SMK_TB_SLOTS, W = `SMK_WARPS;
    localparam KW = `SMK_KID_W, TBS_W = `SMK_TBS_W, TC = TBS_W + 1, KS_W = `SMK_KS_W, GW = `SMK_GRID_W;
    localparam PQ = `SMK_PTBQ, SMW = `SMK_SMW, UW = `SMK_UW, NW = `SMK_WID_W + 1;
    localparam KDW = `SMK_REGN_W + `SMK_WID_W + 1, SMLN_W = `SMK_SMLN_W;
    localparam XW = 16;                           // width of the sums below (no overflow)
    localparam [1:0] OP_SAVE = `SMK_PE_OP_SAVE, OP_RESTORE = `SMK_PE_OP_RESTORE,
                     OP_DRAIN = `SMK_PE_OP_DRAIN, OP_DROP = `SMK_PE_OP_DROP;
    localparam [2:0] ST_OK = `SMK_PE_ST_OK;
    localparam [2:0] Q_FREE = 3'd0, Q_PEND = 3'd1, Q_SAVED = 3'd2, Q_REST = 3'd3, Q_RERUN = 3'd4;
    localparam [XW-1:0] LIM0 = `SMK_LIM_REG, LIM1 = `SMK_LIM_SL, LIM2 = `SMK_LIM_W, LIM3 = `SMK_LIM_TB;

    wire kl_rej, kdone_v, rq_rdy, rq_ack_v, lk_ksv;
    wire [KW-1:0] kdone_k, rq_ack_kv;
    wire [1:0] rq_ack_st;
    wire [TBS_W:0] rq_ack_n, lk_cnt, lk_part;
    wire [KS_W-1:0] lk_ks;
    wire [NSM-1:0] set_v, set_go, cmd_v, cmd_idem;
    wire [NSM*TBS_W-1:0] set_tb, cmd_tb;
    wire [NSM*W-1:0] set_mask;
    wire [NSM*KS_W-1:0] set_ks;
    wire [NSM*`SMK_REGN_W-1:0] set_nreg;
    wire [NSM*SMLN_W-1:0] set_smem;
    wire [NSM*2-1:0] cmd_op;
    wire [NSM*`SMK_CTX_PTR_W-1:0] cmd_ptr;
    wire [NSM*GW-1:0] set_id;
    sm_driver u (.clk(clk), .rst(rst), .kl_v(kl_v), .kl_k(kl_k), .kl_n(kl_n), .kl_r(kl_r), .kl_m(kl_m),
        .kl_grid(kl_grid), .kl_qos(kl_qos), .kl_idem(kl_idem), .kl_mask(kl_mask), .kl_adm(kl_adm),
        .kl_lim(kl_lim), .kl_rej(kl_rej), .km_v(km_v), .km_k(km_k), .km_mask(km_mask), .kdone_v(kdone_v),
        .kdone_k(kdone_k), .cfg_policy(cfg_policy), .cfg_max2(cfg_max2), .cfg_evict(cfg_evict),
        .cfg_pmode(cfg_pmode), .cfg_qctl(cfg_qctl), .kl_keep(kl_keep), .set_v(set_v), .set_tb(set_tb),
        .set_mask(set_mask), .set_ks(set_ks), .set_nreg(set_nreg), .set_smem(set_smem), .set_go(set_go),
        .cmd_v(cmd_v), .cmd_op(cmd_op), .cmd_tb(cmd_tb), .cmd_ptr(cmd_ptr), .cmd_idem(cmd_idem),
        .set_rej(set_rej), .cmd_full(cmd_full), .rsp_v(rsp_v), .rsp_op(rsp_op), .rsp_tb(rsp_tb),
        .rsp_status(rsp_status), .rsp_ptr(rsp_ptr), .tb_done(tb_done), .wused(wused), .set_id(set_id),
        .rq_v(rq_v), .rq_k(rq_k), .rq_sm(rq_sm), .rq_ret(rq_ret), .rq_give(rq_give), .rq_rdy(rq_rdy),
        .rq_ack_v(rq_ack_v), .rq_ack_st(rq_ack_st), .rq_ack_kv(rq_ack_kv), .rq_ack_n(rq_ack_n),
        .lk_s(lk_s), .lk_k(lk_k), .lk_cnt(lk_cnt), .lk_part(lk_part), .lk_ksv(lk_ksv), .lk_ks(lk_ks));

    // the unit's registers (connected by formal.sh)
    (* keep *) wire [KN-1:0]        p_kv;
    (* keep *) wire [KN*NW-1:0]     p_kn;
    (* keep *) wire [KN*KDW-1:0]    p_kdreg;
    (* keep *) wire [KN*SMLN_W-1:0] p_km;
    (* keep *) wire [KN*GW-1:0]     p_kgrid, p_knext, p_kndone;
    (* keep *) wire [KN*4*UW-1:0]   p_U;
    (* keep *) wire [NSM*4*UW-1:0]  p_u;
    (* keep *) wire [NSM*KN*TC-1:0] p_cnt;
    (* keep *) wire [NSM*KS-1:0]    p_ksv;
    (* keep *) wire [NSM*KS*KW-1:0] p_ksk;
    (* keep *) wire [NSM*T-1:0]     p_sv, p_spre, p_sfill, p_dp;
    (* keep *) wire [NSM*T*KW-1:0]  p_sk;
    (* keep *) wire [NSM*T*GW-1:0]  p_sid;
    (* keep *) wire [NSM-1:0]       p_busy, p_rlv;
    (* keep *) wire [NSM*2-1:0]     p_rlop;
    (* keep *) wire [NSM*TBS_W-1:0] p_rltb;
    (* keep *) wire [NSM*3-1:0]     p_rlst;
    (* keep *) wire [PQ*3-1:0]      p_qst;
    (* keep *) wire [PQ*KW-1:0]     p_qk;
    (* keep *) wire [PQ*GW-1:0]     p_qid;
    (* keep *) wire [PQ*SMW-1:0]    p_qs;
    (* keep *) wire [PQ*TBS_W-1:0]  p_qt;
    (* keep *) wire                 p_pb;
    (* keep *) wire [NSM-1:0]       p_bpb;

    // the monitor: per SM the last command issued (cp = not yet answered), and cfin = its TB finished
    reg [NSM-1:0] cp = {NSM{1'b0}}, cfin = {NSM{1'b0}};
    reg [NSM*2-1:0] cop = {NSM*2{1'b0}};
    reg [NSM*TBS_W-1:0] ctb = {NSM*TBS_W{1'b0}};
    integer ms;
    always @(posedge clk)
        if (rst) begin
            cp <= {NSM{1'b0}}; cfin <= {NSM{1'b0}}; cop <= {NSM*2{1'b0}}; ctb <= {NSM*TBS_W{1'b0}};
        end else
            for (ms = 0; ms < NSM; ms = ms + 1)
                if (cmd_v[ms]) begin
                    cp[ms] <= 1'b1;
                    cop[ms*2 +: 2] <= cmd_op[ms*2 +: 2];
                    ctb[ms*TBS_W +: TBS_W] <= cmd_tb[ms*TBS_W +: TBS_W];
                    cfin[ms] <= tb_done[ms*T + cmd_tb[ms*TBS_W +: TBS_W]];
                end else begin
                    if (rsp_v[ms]) cp[ms] <= 1'b0;
                    if (tb_done[ms*T + ctb[ms*TBS_W +: TBS_W]]) cfin[ms] <= 1'b1;
                end

    // c * d for a count c < 32 and a demand d < 2^11, as shift-and-add (a small SAT problem); the
    // widths below are checked at elaboration
    function [XW-1:0] cmul(input [4:0] c, input [10:0] d);
        integer b;
        begin
            cmul = {XW{1'b0}};
            for (b = 0; b < 5; b = b + 1)
                if (c[b]) cmul = cmul + ({{(XW-11){1'b0}}, d} << b);
        end
    endfunction
    // d_x(k): kdreg, km, kn (the driver's dk, all < 2^11 on drv_formal.cfg and small), d_tb = 1
    function [10:0] dx(input integer x, input [KDW-1:0] r, input [SMLN_W-1:0] m, input [NW-1:0] n);
        begin
            dx = (x == 0) ? r : (x == 1) ? m : (x == 2) ? n : 11'd1;
        end
    endfunction

    generate
        if (TC > 5 || KDW > 11 || SMLN_W > 11 || NW > 11) begin : g_too_wide
            // Yosys 0.23 stops here ("Can't resolve task name `$error'"), as any tool should
            initial $error("sm_driver_props: cmul / dx are written for counts < 32 and demands < 2^11");
        end
    endgenerate
    localparam NOKV = 25;
    (* keep *) reg [NOKV-1:0] okv;  // 0 where an assertion fails (a counterexample: sat -show okv)
    always @* begin : props
        integer s, t, k, j, i, v, x;
        reg [XW-1:0] sum, hk, qkn;
        reg [TBS_W-1:0] tb, rt;
        reg [1:0] op;
        reg [2:0] st;
        reg fl, pr, ok;
        okv = {NOKV{1'b1}};
        // ---------------- environment (assumptions)
        if (!rst) begin
            for (s = 0; s < NSM; s = s + 1) begin
                tb = ctb[s*TBS_W +: TBS_W];
                op = cop[s*2 +: 2];
                rt = rsp_tb[s*TBS_W +: TBS_W];
                if (rsp_v[s]) begin
                    assume(cp[s] && rsp_op[s*2 +: 2] == op && rt == tb);                          // E1
                    if (op == OP_RESTORE) assume(rsp_status[s*3 +: 3] == ST_OK);                    // E2
                    if ((op == OP_SAVE || op == OP_DROP) && rsp_status[s*3 +: 3] == ST_OK)
                        assume(!cfin[s] && !tb_done[s*T + tb]);                                      // E3
                end
                for (t = 0; t < T; t = t + 1)
                    if (tb_done[s*T + t]) begin                                                      // E4
                        assume(p_sv[s*T + t] && !p_dp[s*T + t]);
                        assume(!p_sfill[s*T + t] || p_rlv[s]);
                        assume(!(p_rlv[s] && p_rltb[s*TBS_W +: TBS_W] == t && p_rlst[s*3 +: 3] == ST_OK
                                 && (p_rlop[s*2 +: 2] == OP_SAVE || p_rlop[s*2 +: 2] == OP_DROP)));
                    end
            end
        end
        // ---------------- per SM: usage, counts, kernel slots, commands in flight
        for (s = 0; s < NSM; s = s + 1) begin
            for (x = 0; x < 4; x = x + 1) begin
                sum = {XW{1'b0}};
                for (k = 0; k < KN; k = k + 1) begin
                    sum = sum + cmul({1'b0, p_cnt[(s*KN+k)*TC +: TC]},
                                     dx(x, p_kdreg[k*KDW +: KDW], p_km[k*SMLN_W +: SMLN_W], p_kn[k*NW +: NW]));
                end
                if (sum != p_u[(s*4+x)*UW +: UW]) okv[1] = 1'b0;                                   // L2
                if (p_u[(s*4+x)*UW +: UW] > ((x == 0) ? LIM0 : (x == 1) ? LIM1 : (x == 2) ? LIM2 : LIM3))
                    okv[0] = 1'b0;                                                                   // L1
            end
            for (k = 0; k < KN; k = k + 1) begin
                hk = {XW{1'b0}};
                for (t = 0; t < T; t = t + 1)
                    if (p_sv[s*T + t] && p_sk[(s*T+t)*KW +: KW] == k) hk = hk + 1;
                if (hk != p_cnt[(s*KN+k)*TC +: TC]) okv[3] = 1'b0;                                  // C1
                fl = 1'b0;
                for (j = 0; j < KS; j = j + 1)
                    if (p_ksv[s*KS + j] && p_ksk[(s*KS+j)*KW +: KW] == k) fl = 1'b1;
                if (fl != (p_cnt[(s*KN+k)*TC +: TC] != 0)) okv[4] = 1'b0;                         // C2
            end
            for (j = 0; j < KS; j = j + 1)
                for (v = j + 1; v < KS; v = v + 1)
                    if (p_ksv[s*KS + j] && p_ksv[s*KS + v] && p_ksk[(s*KS+j)*KW +: KW] == p_ksk[(s*KS+v)*KW +: KW])
                        okv[4] = 1'b0;                                                               // C2
            for (t = 0; t < T; t = t + 1) begin
                if (p_sv[s*T + t] && !p_kv[p_sk[(s*T+t)*KW +: KW]]) okv[5] = 1'b0;                  // C3
                if (p_dp[s*T + t] && !p_sv[s*T + t]) okv[6] = 1'b0;                                  // C4
            end
            // B1
            tb = ctb[s*TBS_W +: TBS_W];
            op = cop[s*2 +: 2];
            if (p_busy[s] != (cp[s] | p_rlv[s]) || (cp[s] && p_rlv[s])) okv[7] = 1'b0;
            if (p_rlv[s]) begin
                if (p_rlop[s*2 +: 2] != op || p_rltb[s*TBS_W +: TBS_W] != tb) okv[8] = 1'b0;
                if (op == OP_RESTORE && p_rlst[s*3 +: 3] != ST_OK) okv[8] = 1'b0;
                if ((op == OP_SAVE || op == OP_DROP) && p_rlst[s*3 +: 3] == ST_OK && cfin[s]) okv[8] = 1'b0;
            end
            // B2
            if (p_busy[s] && op != OP_RESTORE && !cfin[s])
                if (!p_sv[s*T + tb] || !p_spre[s*T + tb] || p_sfill[s*T + tb] || p_dp[s*T + tb]) okv[9] = 1'b0;
            if (p_busy[s] && op == OP_RESTORE) begin
                if (!p_sv[s*T + tb] || !p_sfill[s*T + tb] || p_spre[s*T + tb]) okv[10] = 1'b0;
                if (!p_rlv[s] && p_dp[s*T + tb]) okv[10] = 1'b0;
            end
            for (t = 0; t < T; t = t + 1) begin
                if (p_spre[s*T + t] && !(p_busy[s] && tb == t && op != OP_RESTORE)) okv[11] = 1'b0;
                if (p_sfill[s*T + t] && !(p_busy[s] && tb == t && op == OP_RESTORE)) okv[11] = 1'b0;
            end
            // P1: the PTBQ entry of the command in flight
            fl = 1'b0;
            for (i = 0; i < PQ; i = i + 1) begin
                st = p_qst[i*3 +: 3];
                if ((st == Q_PEND || st == Q_REST) && p_qs[i*SMW +: SMW] == s) fl = 1'b1;
            end
            if (p_busy[s] && op != OP_DRAIN && !fl) okv[12] = 1'b0;
        end
        // ---------------- per kernel: GPU-wide usage, the TB id ledger
        for (k = 0; k < KN; k = k + 1) begin
            hk = {XW{1'b0}};
            for (s = 0; s < NSM; s = s + 1) hk = hk + p_cnt[(s*KN+k)*TC +: TC];
            for (x = 0; x < 4; x = x + 1) begin
                if (cmul(hk[4:0], dx(x, p_kdreg[k*KDW +: KDW], p_km[k*SMLN_W +: SMLN_W], p_kn[k*NW +: NW]))
                    != p_U[(k*4+x)*UW +: UW]) okv[2] = 1'b0;                                         // L3
            end
            qkn = {XW{1'b0}};
            for (i = 0; i < PQ; i = i + 1) begin
                st = p_qst[i*3 +: 3];
                if ((st == Q_SAVED || st == Q_RERUN) && p_qk[i*KW +: KW] == k) qkn = qkn + 1;
            end
            if (p_kv[k]) begin                                                                       // C3
                if (p_kgrid[k*GW +: GW] == 0 || p_knext[k*GW +: GW] > p_kgrid[k*GW +: GW]) okv[13] = 1'b0;
                if (p_kndone[k*GW +: GW] + hk + qkn != p_knext[k*GW +: GW]) okv[14] = 1'b0;
            end else if (hk != 0 || qkn != 0) okv[15] = 1'b0;
        end
        // ---------------- PTBQ entries (every read at a register-held index is a loop of compares)
        for (i = 0; i < PQ; i = i + 1) begin
            st = p_qst[i*3 +: 3];
            if (st > Q_RERUN) okv[16] = 1'b0;
            for (s = 0; s < NSM; s = s + 1)
                if (p_qs[i*SMW +: SMW] == s) begin
                    tb = ctb[s*TBS_W +: TBS_W];
                    op = cop[s*2 +: 2];
                    if (st == Q_PEND && (!p_busy[s] || !(op == OP_SAVE || op == OP_DROP) || tb != p_qt[i*TBS_W +: TBS_W]))
                        okv[17] = 1'b0;
                    if (st == Q_REST && (!p_busy[s] || op != OP_RESTORE || tb != p_qt[i*TBS_W +: TBS_W]))
                        okv[18] = 1'b0;
                    for (t = 0; t < T; t = t + 1)
                        if (p_qt[i*TBS_W +: TBS_W] == t && (p_sk[(s*T+t)*KW +: KW] != p_qk[i*KW +: KW]
                            || p_sid[(s*T+t)*GW +: GW] != p_qid[i*GW +: GW])) begin
                            if (st == Q_PEND && !cfin[s]) okv[17] = 1'b0;
                            if (st == Q_REST) okv[18] = 1'b0;
                        end
                end
            for (j = i + 1; j < PQ; j = j + 1)
                if ((st == Q_PEND || st == Q_REST) && (p_qst[j*3 +: 3] == Q_PEND || p_qst[j*3 +: 3] == Q_REST)
                    && p_qs[j*SMW +: SMW] == p_qs[i*SMW +: SMW]) okv[19] = 1'b0;
            // P2: SAVED / RERUN entries: id below knext, distinct from each other and from held slots
            if (st == Q_SAVED || st == Q_RERUN) begin
                for (k = 0; k < KN; k = k + 1)
                    if (p_qk[i*KW +: KW] == k && p_qid[i*GW +: GW] >= p_knext[k*GW +: GW]) okv[20] = 1'b0;
                for (j = i + 1; j < PQ; j = j + 1)
                    if ((p_qst[j*3 +: 3] == Q_SAVED || p_qst[j*3 +: 3] == Q_RERUN)
                        && p_qk[j*KW +: KW] == p_qk[i*KW +: KW] && p_qid[j*GW +: GW] == p_qid[i*GW +: GW])
                        okv[21] = 1'b0;
                for (v = 0; v < NSM*T; v = v + 1)
                    if (p_sv[v] && p_sk[v*KW +: KW] == p_qk[i*KW +: KW] && p_sid[v*GW +: GW] == p_qid[i*GW +: GW])
                        okv[21] = 1'b0;
            end
        end
        // P2: held slots
        for (v = 0; v < NSM*T; v = v + 1)
            if (p_sv[v]) begin
                for (k = 0; k < KN; k = k + 1)
                    if (p_sk[v*KW +: KW] == k && p_sid[v*GW +: GW] >= p_knext[k*GW +: GW]) okv[22] = 1'b0;
                for (j = v + 1; j < NSM*T; j = j + 1)
                    if (p_sv[j] && p_sk[j*KW +: KW] == p_sk[v*KW +: KW] && p_sid[j*GW +: GW] == p_sid[v*GW +: GW])
                        okv[23] = 1'b0;
            end
        // P3: at most one preemption operation in flight GPU-wide: pb = OR of bpb, at most one bpb,
        // and bpb only on an SM whose command (not a RESTORE) is unanswered
        if (p_pb != (|p_bpb)) okv[24] = 1'b0;
        for (s = 0; s < NSM; s = s + 1) begin
            if (p_bpb[s] && (!p_busy[s] || cop[s*2 +: 2] == OP_RESTORE)) okv[24] = 1'b0;
            for (j = s + 1; j < NSM; j = j + 1)
                if (p_bpb[s] && p_bpb[j]) okv[24] = 1'b0;
        end
        assert(okv == {NOKV{1'b1}});
    end
endmodule
`default_nettype wire
