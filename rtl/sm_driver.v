`default_nettype none
`include "smk_cfg.vh"
`include "smk_prims.vh"
// sm_driver: the central TB dispatcher, one per GPU (spec, normative: docs/sm_driver.md).
// Each cycle, from the registered state (and `wused`): at most one event (a latched engine response,
// else a latched natural completion), at most one decision (1 eviction, 2 reservation drain,
// 3 plan step, 4 dispatch, 5 preemption start; the first that applies), the host ports, the
// partition unit (one filling step per cycle) and the QoS request unit (one IDLE/SUM/SCAN step per
// cycle); the lookup port reads the state combinationally. All updates happen at the same edge;
// counters add their deltas. Synchronous active-high reset, every register 0.
// Places where the spec leaves a choice are marked `// SPEC:`.
//
// ------------------------------------------------------------------------------------------------
// State packing (every state register is public_flat_rd; names as in cmodel/sm_driver.h).
// Resource index x: REG 0, SL 1, W 2, TB 3. NW = WID_W+1, KDW = REGN_W+WID_W+1, TC = TBS_W+1,
// PKW = clog2(KS+1), KW = SMK_KID_W.
//   kv      [KN-1:0]            bit k
//   kold    [KN*KN-1:0]         kold[k] = [k*KN +: KN], bit j: kernel j older than k
//   kn      [KN*NW-1:0]         [k*NW +: NW]          kr [KN*REGN_W]   km [KN*SMLN_W]
//   kdreg   [KN*KDW-1:0]        [k*KDW +: KDW]
//   kgrid, knext, kndone, klim  [KN*GW-1:0]    [k*GW +: GW]
//   kqos, kidem [KN-1:0]        kadm [KN*2-1:0]
//   kmask   [KN*NSM-1:0]        kmask[k] = [k*NSM +: NSM], bit s
//   U       [KN*4*UW-1:0]       U[k][x]  = [(k*4+x)*UW +: UW]
//   u       [NSM*4*UW-1:0]      u[s][x]  = [(s*4+x)*UW +: UW]
//   cnt, part [NSM*KN*TC-1:0]   [s][k]   = [(s*KN+k)*TC +: TC]
//   ksv     [NSM*KS-1:0]        [s][j]   = bit s*KS+j;  ksk [NSM*KS*KW] [s][j] = [(s*KS+j)*KW +: KW]
//   sv, spre, sfill, dp [NSM*T-1:0]  [s][t] = bit s*T+t
//   sk      [NSM*T*KW-1:0]      [(s*T+t)*KW +: KW];   sid [NSM*T*GW] [(s*T+t)*GW +: GW]
//   busy, bpb, rl_v [NSM-1:0]   bit s
//   rl_op [NSM*2], rl_tb [NSM*TBS_W], rl_st [NSM*3]   [s*w +: w]
//   qst [PQ*3], qk [PQ*KW], qid [PQ*GW], qs [PQ*SMW], qt [PQ*TBS_W]   [i*w +: w]
//   pb, plan_v (1), plan_kc, plan_kv (KW), plan_sm (SMW), plan_left (TC)
//   kl_rej, kdone_v (1), kdone_k (KW): the registered outputs themselves
//   pdirty, pact (1), pcur (SMW), pcnt_ks (PKW), pc [KN*TC] [k*TC +: TC], pacc [4*UW] [x*UW +: UW]
//   pgot [KN-1:0] bit k (spec "Partitions": a partition > 0 on an earlier SM of this run)
//   prun, psrv, ptop [KN-1:0] bit k, prr (KW), prt (PRTW) (spec "Rotation")
//   pph (1), pcand_r, plat_r [KN-1:0] bit k, pkv_r [KN*KYW] [k*KYW +: KYW]: the filling step's
//   registers with drv_pipe = 1 (spec "Partitions"; constant 0 with SMK_DRV_PIPE = 0)
//   request unit (spec "QoS"; NPW = clog2(KN+1)):
//   rq_st (2: IDLE 0, SUM 1, SCAN 2), rq_kr (KW: the spec's rq_k; the port rq_k has the name),
//   rq_s (SMW), rq_j, rq_c (KW+1), rq_q (TC), rq_npk (NPW), rq_pend [NSM-1:0] bit s,
//   rq_pk [NSM*KW-1:0] [s*KW +: KW],
//   rq_g [KN*TC] [j*TC +: TC], acc, w [4*UW] [x*UW +: UW]
//   rq_ack_v (1), rq_ack_st (2), rq_ack_kv (KW), rq_ack_n (TC): the registered outputs themselves
//   decision pipeline (spec "Decision pipeline"; constant 0 with SMK_DRV_PIPE = 0): dp1_v (1),
//   dp2_v (1), dp2_kind (3: NONE 0, EVICT 1, RESV 2, PLAN 3, DISP 4, MISS 5), dp2_s (SMW), dp2_k (KW),
//   dp2_r [NSM-1:0] bit s; stage S1 (the choice's inputs of the previous cycle) s1_*, declared below
// Outputs of an SM that gets no set-up / no command this cycle are all 0.
// ------------------------------------------------------------------------------------------------
module sm_driver (
    input  wire                                     clk,
    input  wire                                     rst,
    // host: kernel launch
    input  wire                                     kl_v,
    input  wire [`SMK_KID_W-1:0]                    kl_k,
    input  wire [`SMK_WID_W:0]                      kl_n,
    input  wire [`SMK_REGN_W-1:0]                   kl_r,
    input  wire [`SMK_SMLN_W-1:0]                   kl_m,
    input  wire [`SMK_GRID_W-1:0]                   kl_grid,
    input  wire                                     kl_qos,
    input  wire                                     kl_idem,
    input  wire [`SMK_NUM_SM-1:0]                   kl_mask,
    input  wire [1:0]                               kl_adm,
    input  wire [`SMK_GRID_W-1:0]                   kl_lim,
    output reg                                      kl_rej /*verilator public_flat_rd*/,
    // host: mask change, kernel completion
    input  wire                                     km_v,
    input  wire [`SMK_KID_W-1:0]                    km_k,
    input  wire [`SMK_NUM_SM-1:0]                   km_mask,
    output reg                                      kdone_v /*verilator public_flat_rd*/,
    output reg  [`SMK_KID_W-1:0]                    kdone_k /*verilator public_flat_rd*/,
    // configuration
    input  wire [2:0]                               cfg_policy,
    input  wire                                     cfg_max2,
    input  wire [1:0]                               cfg_evict,
    input  wire [1:0]                               cfg_pmode,
    input  wire [1:0]                               cfg_qctl,       // bit 0 KEEP, bit 1 PGPU (spec "QoS controls")
    input  wire                                     kl_keep,        // with kl_v: a relaunch of the entry's application
    // SM tops: slot set-up
    output reg  [`SMK_NUM_SM-1:0]                   set_v,
    output reg  [`SMK_NUM_SM*`SMK_TBS_W-1:0]        set_tb,
    output reg  [`SMK_NUM_SM*`SMK_WARPS-1:0]        set_mask,
    output reg  [`SMK_NUM_SM*`SMK_KS_W-1:0]         set_ks,
    output reg  [`SMK_NUM_SM*`SMK_REGN_W-1:0]       set_nreg,
    output reg  [`SMK_NUM_SM*`SMK_SMLN_W-1:0]       set_smem,
    output reg  [`SMK_NUM_SM-1:0]                   set_go,
    // SM tops: engine commands
    output reg  [`SMK_NUM_SM-1:0]                   cmd_v,
    output reg  [`SMK_NUM_SM*2-1:0]                 cmd_op,
    output reg  [`SMK_NUM_SM*`SMK_TBS_W-1:0]        cmd_tb,
    output reg  [`SMK_NUM_SM*`SMK_CTX_PTR_W-1:0]    cmd_ptr,
    output reg  [`SMK_NUM_SM-1:0]                   cmd_idem,
    input  wire [`SMK_NUM_SM-1:0]                   set_rej,
    input  wire [`SMK_NUM_SM-1:0]                   cmd_full,
    // SM tops: engine responses, completions, used warps
    input  wire [`SMK_NUM_SM-1:0]                   rsp_v,
    input  wire [`SMK_NUM_SM*2-1:0]                 rsp_op,
    input  wire [`SMK_NUM_SM*`SMK_TBS_W-1:0]        rsp_tb,
    input  wire [`SMK_NUM_SM*3-1:0]                 rsp_status,
    input  wire [`SMK_NUM_SM*`SMK_CTX_PTR_W-1:0]    rsp_ptr,
    input  wire [`SMK_NUM_SM*`SMK_TB_SLOTS-1:0]     tb_done,
    input  wire [`SMK_NUM_SM*`SMK_WARPS-1:0]        wused,
    // SM tops: TB id of the set-up (spec "QoS": set_id)
    output reg  [`SMK_NUM_SM*`SMK_GRID_W-1:0]       set_id,
    // QoS manager: request port
    input  wire                                     rq_v,
    input  wire [`SMK_KID_W-1:0]                    rq_k,
    input  wire [`SMK_SMW-1:0]                      rq_sm,
    input  wire                                     rq_ret,
    input  wire [`SMK_KERNELS*(`SMK_TBS_W+1)-1:0]   rq_give,
    output wire                                     rq_rdy,
    output reg                                      rq_ack_v /*verilator public_flat_rd*/,
    output reg  [1:0]                               rq_ack_st /*verilator public_flat_rd*/,
    output reg  [`SMK_KID_W-1:0]                    rq_ack_kv /*verilator public_flat_rd*/,
    output reg  [`SMK_TBS_W:0]                      rq_ack_n /*verilator public_flat_rd*/,
    // QoS manager: lookup port (combinational reads of the state)
    input  wire [`SMK_SMW-1:0]                      lk_s,
    input  wire [`SMK_KID_W-1:0]                    lk_k,
    output reg  [`SMK_TBS_W:0]                      lk_cnt,
    output reg  [`SMK_TBS_W:0]                      lk_part,
    output reg                                      lk_ksv,
    output reg  [`SMK_KS_W-1:0]                     lk_ks
);

    // ------------------------------------------------------------------ parameters
    localparam NSM    = `SMK_NUM_SM;
    localparam KN     = `SMK_KERNELS;
    localparam KS     = `SMK_KSLOTS;
    localparam T      = `SMK_TB_SLOTS;
    localparam W      = `SMK_WARPS;
    localparam WID_W  = `SMK_WID_W;
    localparam NW     = WID_W + 1;                 // kn, popcounts of W bits
    localparam KW     = `SMK_KID_W;
    localparam TBS_W  = `SMK_TBS_W;
    localparam TC     = TBS_W + 1;                 // cnt, part, pc, plan_left
    localparam KS_W   = `SMK_KS_W;
    localparam REGN_W = `SMK_REGN_W;
    localparam SMLN_W = `SMK_SMLN_W;
    localparam KDW    = REGN_W + WID_W + 1;        // kdreg = kn * kr
    localparam GW     = `SMK_GRID_W;
    localparam PQ     = `SMK_PTBQ;
    localparam PQW    = `SMK_PQW;
    localparam SMW    = `SMK_SMW;
    localparam UW     = `SMK_UW;
    localparam SHW    = `SMK_SHW;
    localparam PW     = `SMK_CTX_PTR_W;
    localparam PKW    = $clog2(KS + 1);            // pcnt_ks
    localparam AW     = UW + TBS_W + 1;            // q * d_x, LIM_x + q * d_x (q <= T <= 2^TBS_W)
    localparam GUW    = GW + UW;                   // U_tb vs klim compare

    localparam [UW-1:0]  LIM_REG = `SMK_LIM_REG, LIM_SL = `SMK_LIM_SL, LIM_W = `SMK_LIM_W,
                         LIM_TB = `SMK_LIM_TB;
    localparam [SHW:0]   M_REG = `SMK_M_REG, M_SL = `SMK_M_SL, M_W = `SMK_M_W, M_TB = `SMK_M_TB;
    localparam [NW-1:0]  WN = W;
    localparam [REGN_W-1:0] RMAXC = `SMK_MAX_REGS;
    localparam [PW-1:0]  CTXP = `SMK_CTX_MAX_LINES;
    localparam [PKW-1:0] KSP = KS;
    localparam integer  LASTI = NSM - 1;
    localparam [SMW-1:0] LASTSM = LASTI[SMW-1:0];
    localparam PRTW   = `SMK_PROT_W;               // rotation timer
    localparam [PRTW-1:0] PROTV = `SMK_PART_ROT;
    localparam [PRTW-1:0] PRT1 = 1;

    localparam [2:0] P_SPART = 3'd1, P_SMK_OD = 3'd2, P_SMK_P = 3'd3, P_QOS = 3'd4; // FCFS 0: default
    localparam [1:0] RQ_IDLE = 2'd0, RQ_SUM = 2'd1, RQ_SCAN = 2'd2;
    localparam [2:0] A1_IDLE = 3'd0, A1_SMV = 3'd1, A1_KV = 3'd2, A1_P = 3'd3, A1_RNG = 3'd4,
                     A1_R1 = 3'd5, A1_R2 = 3'd6, A1_R3 = 3'd7;   // R1-R3: drv_pipe = 1
    localparam [1:0] ACK_FREE = 2'd1, ACK_VICTIM = 2'd2, ACK_REFUSED = 2'd3;
    localparam NPW    = $clog2(KN + 1);            // rq_npk
    localparam NCW    = (NPW > PKW) ? NPW : PKW;   // rq_npk compared with KS
    localparam [NCW-1:0] KSN = KS;
    localparam integer  LASTK = KN - 1;
    localparam [KW:0]   RQ_LAST = {1'b1, LASTK[KW-1:0]};   // pass 1, v = KN-1
    localparam OWW    = SMW + KW + 3;              // owner(s) compare: s*nq vs rank*NSM
    localparam [OWW-1:0] NSMO = NSM;
    localparam KYW    = (SHW > TC + NW) ? SHW : TC + NW;   // filling key: share or warp count
    localparam [1:0] ADM_CAP = 2'd1, ADM_RESERVE = 2'd2;
    localparam [2:0] Q_FREE = 3'd0, Q_PEND = 3'd1, Q_SAVED = 3'd2, Q_REST = 3'd3, Q_RERUN = 3'd4;
    localparam [1:0] OP_SAVE = `SMK_PE_OP_SAVE, OP_RESTORE = `SMK_PE_OP_RESTORE,
                     OP_DRAIN = `SMK_PE_OP_DRAIN, OP_DROP = `SMK_PE_OP_DROP;
    localparam [2:0] ST_OK = `SMK_PE_ST_OK;
    localparam QC_KEEP = 0, QC_PGPU = 1;                  // cfg_qctl bits
    localparam PIPE   = `SMK_DRV_PIPE;             // decision pipeline (spec "Decision pipeline")
    // The kernel searches of the pipeline (Algorithm 1's KV and R2, stage S2's kernel, the
    // filling's commit) as pairwise compares (depth) with the pipeline and up to 16 kernels;
    // beyond, KN(KN-1)/2 comparators each cost more than the levels they save: the trees
    localparam PWK    = (PIPE != 0) && (KN <= 16);
    localparam [2:0] CH_NONE = 3'd0, CH_EVICT = 3'd1, CH_RESV = 3'd2, CH_PLAN = 3'd3, CH_DISP = 3'd4,
                     CH_MISS = 3'd5;               // the choice's kind (dp2_kind)

    // ------------------------------------------------------------------ state (spec "State")
    reg [KN-1:0]         kv      /*verilator public_flat_rd*/;
    reg [KN*KN-1:0]      kold    /*verilator public_flat_rd*/;
    reg [KN*NW-1:0]      kn      /*verilator public_flat_rd*/;
    reg [KN*REGN_W-1:0]  kr      /*verilator public_flat_rd*/;
    reg [KN*SMLN_W-1:0]  km      /*verilator public_flat_rd*/;
    reg [KN*KDW-1:0]     kdreg   /*verilator public_flat_rd*/;
    reg [KN*GW-1:0]      kgrid   /*verilator public_flat_rd*/;
    reg [KN*GW-1:0]      knext   /*verilator public_flat_rd*/;
    reg [KN*GW-1:0]      kndone  /*verilator public_flat_rd*/;
    reg [KN-1:0]         kqos    /*verilator public_flat_rd*/;
    reg [KN-1:0]         kidem   /*verilator public_flat_rd*/;
    reg [KN*NSM-1:0]     kmask   /*verilator public_flat_rd*/;
    reg [KN*2-1:0]       kadm    /*verilator public_flat_rd*/;
    reg [KN*GW-1:0]      klim    /*verilator public_flat_rd*/;
    reg [KN*4*UW-1:0]    U       /*verilator public_flat_rd*/;
    reg [NSM*4*UW-1:0]   u       /*verilator public_flat_rd*/;
    reg [NSM*KN*TC-1:0]  cnt     /*verilator public_flat_rd*/;
    reg [NSM*KN*TC-1:0]  part    /*verilator public_flat_rd*/;
    reg [NSM*KS-1:0]     ksv     /*verilator public_flat_rd*/;
    reg [NSM*KS*KW-1:0]  ksk     /*verilator public_flat_rd*/;
    reg [NSM*T-1:0]      sv      /*verilator public_flat_rd*/;
    reg [NSM*T*KW-1:0]   sk      /*verilator public_flat_rd*/;
    reg [NSM*T*GW-1:0]   sid     /*verilator public_flat_rd*/;
    reg [NSM*T-1:0]      spre    /*verilator public_flat_rd*/;
    reg [NSM*T-1:0]      sfill   /*verilator public_flat_rd*/;
    reg [NSM-1:0]        busy    /*verilator public_flat_rd*/;
    reg [NSM-1:0]        bpb     /*verilator public_flat_rd*/;
    reg [NSM-1:0]        rl_v    /*verilator public_flat_rd*/;
    reg [NSM*2-1:0]      rl_op   /*verilator public_flat_rd*/;
    reg [NSM*TBS_W-1:0]  rl_tb   /*verilator public_flat_rd*/;
    reg [NSM*3-1:0]      rl_st   /*verilator public_flat_rd*/;
    reg [NSM*T-1:0]      dp      /*verilator public_flat_rd*/;
    reg [PQ*3-1:0]       qst     /*verilator public_flat_rd*/;
    reg [PQ*KW-1:0]      qk      /*verilator public_flat_rd*/;
    reg [PQ*GW-1:0]      qid     /*verilator public_flat_rd*/;
    reg [PQ*SMW-1:0]     qs      /*verilator public_flat_rd*/;
    reg [PQ*TBS_W-1:0]   qt      /*verilator public_flat_rd*/;
    reg                  pb      /*verilator public_flat_rd*/;
    reg                  plan_v  /*verilator public_flat_rd*/;
    reg [KW-1:0]         plan_kc /*verilator public_flat_rd*/;
    reg [KW-1:0]         plan_kv /*verilator public_flat_rd*/;
    reg [SMW-1:0]        plan_sm /*verilator public_flat_rd*/;
    reg [TC-1:0]         plan_left /*verilator public_flat_rd*/;
    // Algorithm 1 unit (docs/sm_driver.md "Algorithm 1: preemption start"): one step per cycle
    reg [2:0]            a1_st   /*verilator public_flat_rd*/;
    reg [KW-1:0]         a1_kc   /*verilator public_flat_rd*/;
    reg [SMW-1:0]        a1_s    /*verilator public_flat_rd*/;
    reg                  a1_f    /*verilator public_flat_rd*/;
    reg [SMW-1:0]        a1_smv  /*verilator public_flat_rd*/;
    reg [SHW-1:0]        a1_best /*verilator public_flat_rd*/;
    reg [KW-1:0]         a1_kv   /*verilator public_flat_rd*/;
    reg [TC-1:0]         a1_q    /*verilator public_flat_rd*/;
    reg [4*AW-1:0]       a1_acc  /*verilator public_flat_rd*/;  // a1_q * d_x(a1_kv), x at [x*AW +: AW]
    // drv_pipe = 1: RNG in steps R1-R3 (spec "With drv_pipe = 1: RNG in four steps"); 0 otherwise
    reg [KN*SHW-1:0]     a1_rk   /*verilator public_flat_rd*/;  // R1: rK(k) at [k*SHW +: SHW]
    reg [KN-1:0]         a1_kvm  /*verilator public_flat_rd*/;  // R1: kv
    reg [SHW-1:0]        a1_rv   /*verilator public_flat_rd*/;  // R1: share(U(Kv) - a1_acc), 0 unless a1_nouf
    reg [SHW:0]          a1_rc   /*verilator public_flat_rd*/;  // R1: share(U(Kc) + d(Kc))
    reg                  a1_nouf /*verilator public_flat_rd*/;  // R1: U(Kv) >= a1_acc
    reg [SHW:0]          a1_omax /*verilator public_flat_rd*/, a1_omin /*verilator public_flat_rd*/;  // R2
    reg [SHW:0]          a1_nmax /*verilator public_flat_rd*/, a1_nmin /*verilator public_flat_rd*/;  // R2
    reg                  a1_ok   /*verilator public_flat_rd*/;  // R3: the range shrinks
    reg [4*UW-1:0]       a1_pw   /*verilator public_flat_rd*/;  // drv_pipe = 1: u(s) - cnt[s][Kc] x d(Kc) of SM a1_s
    reg                  a1_pcd  /*verilator public_flat_rd*/;  // and its candidacy, from the cycle before
    reg                  pdirty  /*verilator public_flat_rd*/;
    reg                  pact    /*verilator public_flat_rd*/;
    reg [SMW-1:0]        pcur    /*verilator public_flat_rd*/;
    reg [KN*TC-1:0]      pc      /*verilator public_flat_rd*/;
    reg [4*UW-1:0]       pacc    /*verilator public_flat_rd*/;
    reg [PKW-1:0]        pcnt_ks /*verilator public_flat_rd*/;
    reg [KN-1:0]         pgot    /*verilator public_flat_rd*/;
    reg [KN-1:0]         prun    /*verilator public_flat_rd*/;
    reg [KN-1:0]         psrv    /*verilator public_flat_rd*/;
    reg [KN-1:0]         ptop    /*verilator public_flat_rd*/;
    reg [KW-1:0]         prr     /*verilator public_flat_rd*/;
    reg [PRTW-1:0]       prt     /*verilator public_flat_rd*/;
    reg                  pph     /*verilator public_flat_rd*/;  // drv_pipe = 1: 0 evaluate, 1 commit
    reg [KN-1:0]         pcand_r /*verilator public_flat_rd*/;  // the evaluated candidates
    reg [KN-1:0]         plat_r  /*verilator public_flat_rd*/;  // their lat bits (0 for the others)
    reg [KN*KYW-1:0]     pkv_r   /*verilator public_flat_rd*/;  // their keys (0 for the others)
    // request unit (spec "QoS", "Request port")
    reg [1:0]            rq_st   /*verilator public_flat_rd*/;
    reg [KW-1:0]         rq_kr   /*verilator public_flat_rd*/;
    reg                  rq_ret_q /*verilator public_flat_rd*/;  // the accepted request is a give-back
    reg [SMW-1:0]        rq_s    /*verilator public_flat_rd*/;
    reg [KW:0]           rq_j    /*verilator public_flat_rd*/;
    reg [KW:0]           rq_c    /*verilator public_flat_rd*/;
    reg [TC-1:0]         rq_q    /*verilator public_flat_rd*/;
    reg [NPW-1:0]        rq_npk  /*verilator public_flat_rd*/;
    reg [NSM-1:0]        rq_pend /*verilator public_flat_rd*/;
    reg [NSM*KW-1:0]     rq_pk   /*verilator public_flat_rd*/;
    reg [KN*TC-1:0]      rq_g    /*verilator public_flat_rd*/;
    reg [4*UW-1:0]       acc     /*verilator public_flat_rd*/;
    reg [4*UW-1:0]       w       /*verilator public_flat_rd*/;
    // decision pipeline (spec "Decision pipeline"; drv_pipe = 1, every one of them constant 0 with
    // drv_pipe = 0): dp1_v = the stage-S1 registers hold the choice inputs of a valid choice; dp2 =
    // the choice executed in this cycle (kind CH_*, S, K, R)
    reg                  dp1_v    /*verilator public_flat_rd*/;
    reg                  dp2_v    /*verilator public_flat_rd*/;
    reg [2:0]            dp2_kind /*verilator public_flat_rd*/;
    reg [SMW-1:0]        dp2_s    /*verilator public_flat_rd*/;
    reg [KW-1:0]         dp2_k    /*verilator public_flat_rd*/;
    reg [NSM-1:0]        dp2_r    /*verilator public_flat_rd*/;
    // stage S1: the values the choice is computed from, of the previous cycle's state and
    // configuration (names of the current values they copy: s1_X <= X, or as commented)
    reg [2:0]            s1_pol    /*verilator public_flat_rd*/;   // cfg_policy
    reg                  s1_evsave /*verilator public_flat_rd*/;   // cfg_evict == SAVE
    reg                  s1_psm    /*verilator public_flat_rd*/;   // qc_psm (QOS, PGPU = 0)
    reg                  s1_pb     /*verilator public_flat_rd*/;
    reg                  s1_qfree  /*verilator public_flat_rd*/;   // a FREE PTBQ entry exists
    reg                  s1_plan   /*verilator public_flat_rd*/;   // decision 3 applies
    reg                  s1_planv  /*verilator public_flat_rd*/;
    reg [SMW-1:0]        s1_plansm /*verilator public_flat_rd*/;
    reg [KW-1:0]         s1_plankc /*verilator public_flat_rd*/;
    reg [NSM-1:0]        s1_ec     /*verilator public_flat_rd*/;   // eviction candidates
    reg [NSM-1:0]        s1_rc     /*verilator public_flat_rd*/;   // reservation-drain candidates
    reg [NSM-1:0]        s1_r      /*verilator public_flat_rd*/;   // R: kmask of the short kernel, 0 if none
    reg [KN-1:0]         s1_elig   /*verilator public_flat_rd*/;
    reg [KN-1:0]         s1_fitany /*verilator public_flat_rd*/;
    reg [NSM*KN-1:0]     s1_fits   /*verilator public_flat_rd*/;   // fits, with resv_block
    reg [KN*SHW-1:0]     s1_rk     /*verilator public_flat_rd*/;
    reg [NSM*SHW-1:0]    s1_rsm    /*verilator public_flat_rd*/;
    reg [KN*KN-1:0]      s1_kold   /*verilator public_flat_rd*/;
    reg [KN*NSM-1:0]     s1_kmask  /*verilator public_flat_rd*/;

    // ------------------------------------------------------------------ helpers
    // Exact dominant share of a usage vector. Every product u_x * M_x is < 2^SHW because the usage
    // counters never exceed NSM * LIM_x (spec invariant: SHW = clog2(NSM*D+1)), so the SHW-bit
    // arithmetic is exact; the multipliers are constants (shift-and-add).
    // The largest of four terms, written for depth: the six compares in parallel, then a one-hot
    // AND-OR select (a term wins iff it is >= every term after it and > every term before it; the
    // value is the maximum whichever equal term wins)
    function [SHW:0] max4(input [SHW:0] ea, input [SHW:0] eb, input [SHW:0] ec, input [SHW:0] ed);
        reg ab, ac, ad, bc, bd, cd;
        begin
            ab = (ea >= eb); ac = (ea >= ec); ad = (ea >= ed);
            bc = (eb >= ec); bd = (eb >= ed); cd = (ec >= ed);
            max4 = (ea & {(SHW+1){ab & ac & ad}}) | (eb & {(SHW+1){~ab & bc & bd}})
                 | (ec & {(SHW+1){~ac & ~bc & cd}}) | (ed & {(SHW+1){~ad & ~bd & ~cd}});
        end
    endfunction
    function [SHW-1:0] share(input [UW-1:0] a, input [UW-1:0] b, input [UW-1:0] c, input [UW-1:0] d);
        reg [SHW:0] ea, eb, ec, ed;
        /* verilator lint_off UNUSEDSIGNAL */
        reg [SHW:0] m;   // m[SHW] is not part of the share (0 for every usage the counters hold)
        /* verilator lint_on UNUSEDSIGNAL */
        begin
            ea = {(SHW+1){1'b0}}; ea[UW-1:0] = a; ea = ea * M_REG;
            eb = {(SHW+1){1'b0}}; eb[UW-1:0] = b; eb = eb * M_SL;
            ec = {(SHW+1){1'b0}}; ec[UW-1:0] = c; ec = ec * M_W;
            ed = {(SHW+1){1'b0}}; ed[UW-1:0] = d; ed = ed * M_TB;
            m = max4(ea, eb, ec, ed);
            share = m[SHW-1:0];
        end
    endfunction
    // Share of a usage of up to (NSM+1) x LIM_x (UW+1 bits): Algorithm 1 step 4's U(Kc) + d(Kc);
    // exact in SHW+1 bits (at most (NSM+1) x D <= 2^(SHW+1) - 1)
    function [SHW:0] share1(input [UW:0] a, input [UW:0] b, input [UW:0] c, input [UW:0] d);
        reg [SHW:0] ea, eb, ec, ed;
        begin
            ea = {(SHW+1){1'b0}}; ea[UW:0] = a; ea = ea * M_REG;
            eb = {(SHW+1){1'b0}}; eb[UW:0] = b; eb = eb * M_SL;
            ec = {(SHW+1){1'b0}}; ec[UW:0] = c; ec = ec * M_W;
            ed = {(SHW+1){1'b0}}; ed[UW:0] = d; ed = ed * M_TB;
            share1 = max4(ea, eb, ec, ed);
        end
    endfunction
    // {found, SM}: the SM of row with the lowest rSM (ties: the lowest index); found = 0 for an
    // empty row (SMK_OD's SMc, SMK_P's / QOS's and SPART's S). {found, kernel}: the kernel of a row
    // with the lowest rK (SMK_OD's Kc, SMK_P's / QOS's K). Balanced trees (docs/sm_driver.md
    // "Implementation notes")
    `SMK_DEF_ARGMIN(min_rsm, NSM, SHW, SMW)
    `SMK_DEF_ARGMIN(min_rk, KN, SHW, KW)
    `SMK_DEF_ARGMIN(min_pkey, KN, KYW + 3, KW)   // the partition unit's pick
    `SMK_DEF_MINV(minv_k, KN, SHW + 1)   // Algorithm 1 step 4's range ends (tree)
    `SMK_DEF_ARGMIN_PW(min_rk_pw, KN, SHW, KW)      // drv_pipe = 1: Algorithm 1's KV, for depth
    `SMK_DEF_MINV_PW(minv_k_pw, KN, SHW + 1)        // drv_pipe = 1: R2's range ends, for depth
    `SMK_DEF_POPCNT(popw, W, NW)    // free warps of an SM
    // inclusive prefix counts of the dispatch SM's free warps: [i*NW +: NW] = free among 0..i (wsel)
    `SMK_DEF_PFXCNT(pfxw, W, NW)
    // thermw(x): bit i = 1 iff at least i + 1 bits of x are 1 (a thermometer code of popcount(x)).
    // Batcher's odd-even merge sort of the bits, ones first, on W rounded up to a power of two (the
    // pad bits are 0): t(t + 1) / 2 stages of compare-exchange for 2^t bits, each an OR and an AND
    // in parallel (10 AND2 levels for 16 bits), where the count and a compare are an adder tree and
    // a comparator in series (spec "Implementation notes": S1's warp test)
    localparam WP2 = 1 << $clog2(W);
    function [W-1:0] thermw(input [W-1:0] x);
        reg [WP2-1:0] v;
        reg hi;
        integer p2, k2, j2, i2;
        begin
            v = {WP2{1'b0}};
            v[W-1:0] = x;
            for (p2 = 1; p2 < WP2; p2 = p2 * 2)
                for (k2 = p2; k2 >= 1; k2 = k2 / 2)
                    for (j2 = k2 % p2; j2 + k2 < WP2; j2 = j2 + 2 * k2)
                        for (i2 = 0; i2 < k2; i2 = i2 + 1)
                            if (i2 + j2 + k2 < WP2 && (i2 + j2) / (2 * p2) == (i2 + j2 + k2) / (2 * p2)) begin
                                hi = v[i2 + j2] | v[i2 + j2 + k2];
                                v[i2 + j2 + k2] = v[i2 + j2] & v[i2 + j2 + k2];
                                v[i2 + j2] = hi;
                            end
            thermw = v[W-1:0];
        end
    endfunction
    // context pointer of PTBQ entry i: i * CTX_MAX_LINES (< 2^PW by the hwgen rule)
    function [PW-1:0] qptr(input [PQW-1:0] i);
        reg [PW-1:0] e;
        begin
            e = {PW{1'b0}};
            e[PQW-1:0] = i;
            qptr = e * CTXP;
        end
    endfunction

    // Selects by a variable id (an SM, a kernel, a slot, a PTBQ entry): one compare per id value and
    // a mux of the rows. Every read of a wide state vector at a variable id goes through these
    // (and every write through a loop of per-element enables in the clock edge), so that synthesis
    // sees decoded selects of one row instead of a shifter over the whole vector: on gtx980 `sid`
    // alone is NSM x T x GW = 10240 bits (docs/area_notes.md). The row of an id >= N reads 0; every
    // id held in the state is < N.
    `SMK_DEF_SEL(k_d4, KN, 4*UW, KW)           // dk, U: the 4 resources of kernel i
    `SMK_DEF_SEL(k_tc, KN, TC, KW)             // a row of cnt / part, pc, rq_g
    `SMK_DEF_SEL(k_gw, KN, GW, KW)             // knext, kndone, kgrid
    `SMK_DEF_SEL(k_nsm, KN, NSM, KW)           // kmask, fitsT: the SMs of kernel i
    `SMK_DEF_SEL(k_nw, KN, NW, KW)             // kn
    `SMK_DEF_SEL(k_pqw, KN, PQW, KW)           // pqsel
    `SMK_DEF_SEL(k_ksw, KN, KS_W, KW)          // a row of ksof
    `SMK_DEF_SEL(s_ktc, NSM, KN*TC, SMW)       // cnt, part: the row of SM i
    `SMK_DEF_SEL(s_kks, NSM, KN*KS_W, SMW)     // ksof
    `SMK_DEF_SEL(s_u4, NSM, 4*UW, SMW)         // u
    `SMK_DEF_SEL(s_kn, NSM, KN, SMW)           // fits, ksof_v, hr, kmT
    `SMK_DEF_SEL(s_t, NSM, T, SMW)             // run, dp
    // One-hot priority picks and their encoders, for depth (docs/sm_driver.md "Implementation
    // notes"): the lowest / highest set bit as a one-hot vector, each bit from an OR of the bits
    // below / above it (a tree), and the index of a one-hot vector as an OR per index bit. The same
    // choices as the scans in index order.
    `SMK_DEF_LO1(lo1_s, NSM)
    `SMK_DEF_LO1(lo1_t, T)
    `SMK_DEF_HI1(hi1_t, T)
    `SMK_DEF_ENC(enc_s, NSM, SMW)
    `SMK_DEF_ENC(enc_t, T, TBS_W)
    `SMK_DEF_ENC(enc_k, KN, KW)
    `SMK_DEF_LO1(lo1_q, PQ)
    `SMK_DEF_OSEL(q_ogw, PQ, GW)
    `SMK_DEF_ENC(enc_q, PQ, PQW)
    `SMK_DEF_SEL(s_tkw, NSM, T*KW, SMW)        // sk
    `SMK_DEF_SEL(s_tgw, NSM, T*GW, SMW)        // sid
    `SMK_DEF_SEL(s_tbs, NSM, TBS_W, SMW)       // rl_tb, slfree
    `SMK_DEF_SEL(s_ksw, NSM, KS_W, SMW)        // ksfree
    `SMK_DEF_SEL(s_pkw, NSM, PKW, SMW)         // nks
    `SMK_DEF_SEL(s_nw, NSM, NW, SMW)           // nfw
    `SMK_DEF_SEL(s_w, NSM, W, SMW)             // wused
    `SMK_DEF_SEL(s_2, NSM, 2, SMW)             // rl_op
    `SMK_DEF_SEL(s_3, NSM, 3, SMW)             // rl_st

    // ------------------------------------------------------------------ demands d_x(k), UW bits
    // kdreg <= LIM_REG, km <= LIM_SL, kn <= W (launch checks), all < 2^UW.
    wire [KN*4*UW-1:0] dk;
    genvar gk, gn, gm, gy;
    generate
        for (gk = 0; gk < KN; gk = gk + 1) begin : g_dk
            wire [KDW+UW-1:0] xr = {{UW{1'b0}}, kdreg[gk*KDW +: KDW]};
            wire [SMLN_W+UW-1:0] xs = {{UW{1'b0}}, km[gk*SMLN_W +: SMLN_W]};
            wire [NW+UW-1:0] xw = {{UW{1'b0}}, kn[gk*NW +: NW]};
            wire unused_hi = &{1'b0, xr[KDW+UW-1:UW], xs[SMLN_W+UW-1:UW], xw[NW+UW-1:UW]};
            assign dk[(gk*4+0)*UW +: UW] = xr[UW-1:0];
            assign dk[(gk*4+1)*UW +: UW] = xs[UW-1:0];
            assign dk[(gk*4+2)*UW +: UW] = xw[UW-1:0];
            assign dk[(gk*4+3)*UW +: UW] = {{(UW-1){1'b0}}, 1'b1};
        end
    endgenerate

    // ------------------------------------------------------------------ combinational decision
    // Derived values (spec "Derived values")
    reg [KN-1:0]        has_pq, elig, fit_any, kv_el;
    reg [KN-1:0]        hwork;               // has_work(k) = work(k) without kv (spec "QoS controls")
    wire                qc_psm = (cfg_policy == P_QOS) & ~cfg_qctl[QC_PGPU];   // per-SM preemptions
    reg [KN*PQW-1:0]    pqsel;
    reg [KN*PQ-1:0]     pq_oh;               // [k*PQ + i]: i is pqsel[k] and has_pq[k]
    reg [KN-1:0]        pq_sv;               // qst[pqsel[k]] == Q_SAVED and has_pq[k]
    reg [PQ-1:0]        pq_m, ds_qoh;        // a kernel's SAVED / RERUN entries; one-hot of ds_qi
    reg [KN*SHW-1:0]    rk;
    reg [NSM*SHW-1:0]   rsm;
    reg [NSM*T-1:0]     run;                 // pre(s) = sv & ~spre & ~sfill & ~dp
    reg [NSM*KN-1:0]    hr;                  // kernel k holds a running TB on s
    reg [NSM*KN-1:0]    ksof_v;
    reg [NSM*KN*KS_W-1:0] ksof;
    reg [NSM-1:0]       ksfree_v, cmd_ok;
    reg [NSM*KS_W-1:0]  ksfree;
    reg [NSM*PKW-1:0]   nks;
    reg [NSM*TBS_W-1:0] slfree;
    reg [NSM*NW-1:0]    nfw;                 // popcount(~wused)
    reg [NSM*W-1:0]     fwt;                 // drv_pipe = 1: thermw(~wused): at least i + 1 free warps
    reg [KN*(W+1)-1:0]  kn_oh;               // drv_pipe = 1: kn one-hot (0 when kn > W)
    reg [NSM*KN-1:0]    nfw_ge;              // nfw >= kn
    reg [NSM*KN-1:0]    fits_b, fits;
    reg                 short_v;
    reg [KN-1:0]        sh_c, sh_lo;         // the short kernels; the kernels below k
    reg                 qfree_v;
    reg [PQW-1:0]       qfree;
    // event
    reg                 ev_rsp, ev_done, ev_ret, ev_kfin, ev_qv;
    reg [SMW-1:0]       es;
    reg [TBS_W-1:0]     et;
    reg [KW-1:0]        ek;
    reg [PQW-1:0]       ev_qi;
    reg                 ev_qwr;
    reg [2:0]           ev_qnew;
    // decision
    reg                 dc_cmd;              // an engine command is issued (any decision)
    reg [SMW-1:0]       dc_s;
    reg [TBS_W-1:0]     dc_t;
    reg [1:0]           dc_op;
    reg [KW-1:0]        dc_k;                // kernel of the commanded slot
    reg                 dc_qalloc;           // SAVE/DROP: lowest FREE entry becomes PEND
    reg                 dc_setpb;
    reg                 dc_pre;              // sets spre of (dc_s, dc_t)
    reg                 dc_planpre, dc_planend, dc_pstart;
    reg                 ds_try;              // a dispatch of (dsK, dsS) is attempted
    reg [KW-1:0]        dsK;
    reg [SMW-1:0]       dsS;
    reg                 ds_go;               // the set-up happens
    reg                 ds_rest, ds_rerun, ds_new;
    reg [TBS_W-1:0]     ds_t;
    reg [GW-1:0]        ds_id;
    reg [PQW-1:0]       ds_qi;
    reg                 od_miss;             // SMK_OD: Kc, SMc found, ~fits(SMc, Kc)
    reg [KW-1:0]        kc;
    reg [SMW-1:0]       ms;
    // choice inputs of this cycle's state that the choice does not otherwise read
    reg [NSM-1:0]       cur_ec, cur_rc, cur_r;
    reg                 cur_plan;
    reg [T-1:0]         rtm;
    // the choice's inputs (current values or S1), and the choice
    reg [2:0]           c_pol;
    reg                 c_evsave, c_psm, c_pb, c_qfree, c_plan, c_planv;
    reg [NSM-1:0]       c_ec, c_rc, c_r;
    reg [KN-1:0]        c_elig, c_fitany;
    reg [NSM*KN-1:0]    c_fits;
    reg [KN*NSM-1:0]    c_fitsT;
    reg [KN*SHW-1:0]    c_rk;
    reg [NSM*SHW-1:0]   c_rsm;
    reg [KN*KN-1:0]     c_kold;
    reg [KN*NSM-1:0]    c_kmask;
    reg [2:0]           ch_kind;
    reg [SMW-1:0]       ch_s;
    reg [KW-1:0]        ch_k;
    reg [NSM-1:0]       ch_r;
    wire [2:0]          pp_kind;             // stage S2's choice (drv_pipe = 1; g_s2)
    wire [SMW-1:0]      pp_s;
    wire [KW-1:0]       pp_k;
    // the execution's (kind, S, K, R), its SM, fits(its SM, *) with R, and whether it acts
    reg                 x_ev, x_rs, x_pl, x_ds, x_ms;   // the kind executed (one-hot or 0)
    reg [SMW-1:0]       ex_s, ex_sm, ex_ds;
    reg [KW-1:0]        ex_dk;
    // the tree-form choice's flags and pairs (drv_pipe = 0)
    reg                 c_evok, c_rvok, cd_ok, cd_miss;
    reg [SMW-1:0]       ev_s, rv_s, cd_s;
    reg [KW-1:0]        cd_k;
    reg [NSM-1:0]       ex_r;
    reg [KN-1:0]        ex_frow;
    reg [KN-1:0]        x_wrow;              // nfw_ge[ex_sm]
    // drv_pipe = 1: the single-pair re-check fits(ex_sm, xk) with resv_block from R, on this
    // cycle's state (the rows of SM ex_sm and kernel xk; the free warps by nfw_ge, S1's warp test)
    reg [KW-1:0]        xk;
    reg                 x_fit, ex_fit;
    reg [W*NW-1:0]      tpf;
    reg [KN-1:0]        x_ks;
    reg [PKW-1:0]       x_nk;
    reg [TC-1:0]        x_c, x_p;
    reg [NSM-1:0]       x_km;
    reg                 act;
    // Algorithm 1 unit: this cycle's step
    reg                 a1_go;               // the unit starts (IDLE) or, in RNG, may start the plan
    reg                 a1_upd;              // SMV: SM a1_s is the best so far
    reg                 a1_lc;               // SMV: SM la_s is a candidate
    reg [SMW-1:0]       la_s;                // SMV: the SM whose value is computed (drv_pipe = 1: one ahead)
    reg [KW-1:0]        la_kc;               // and its Kc
    reg [4*UW-1:0]      dla;                 // d(la_kc)
    reg [4*UW-1:0]      a1_w;                // SMV: its usage without Kc's TBs, x at [x*UW +: UW]
    reg [SHW-1:0]       a1_v;                // SMV: the share of a1_w (drv_pipe = 0), of a1_pw (1)
    reg                 a1_kvok;             // KV: a victim kernel exists
    reg [KW-1:0]        a1_kvn;              // KV: that kernel
    reg                 a1_pok;              // P: q TBs of Kv make room for one of Kc
    reg [TC-1:0]        a1_qn;               // P: q = a1_q + 1
    reg [TC-1:0]        a1_c1;               // P: cnt[SMv][Kv]
    reg [4*AW-1:0]      a1_accn;             // P: q * d_x(Kv)
    reg                 a1_ufok, a_shrink;   // RNG (R1): U(Kv) >= a1_acc; RNG: the range shrinks
    reg [SHW:0]         r2_omax, r2_omin, r2_nmax, r2_nmin;  // R2: the range ends from the R1 registers
    reg [KN*(SHW+1)-1:0] r2_o, r2_n;          // R2: a1_rk, and with a1_rv / a1_rc at Kv / Kc
    // partition unit
    reg                 pu_v;
    reg [KW-1:0]        pu_k;
    reg                 pu_qos, pal, plt;
    reg [KW:0]          pnq, prank;
    reg [OWW-1:0]       ow_s, ow_s1, ow_n, ow_lo, ow_hi;
    reg [NSM-1:0]       pabove;              // the SMs after pcur (0 at SM NSM-1)
    reg [TC+NW-1:0]     pwk;
    reg [KYW-1:0]       pkv;
    reg [KN-1:0]        pcand;               // the pick's candidates, kernel KN-1-j at j
    reg [KN-1:0]        pe_c, pe_l;          // drv_pipe = 1, evaluate: candidates, their lat (kernel k at k)
    reg [KN*KYW-1:0]    pe_kv;               // and their keys (0 for the others)
    reg [KN-1:0]        pw;                  // drv_pipe = 1, commit: the one-hot pick (or 0)
    reg                 pw_v, pw_new;        // a pick; it takes a new kernel slot (its pc is 0)
    reg [4*UW-1:0]      pw_acc;              // pacc + d(k) of the pick
    reg [KN*(KYW+3)-1:0] pkey;               // their keys {pkv, pgot, ~ptop, lat}, same order
    reg [KW-1:0]        pu_r;                // the pick's entry (kernel LASTK - pu_r)
    reg [KN-1:0]        pg_g, pg_n;          // pgot | (pc != 0), and pgot at the end of the SM
    reg [KN-1:0]        pr_n, ps_n, pstv;    // prun | (pc != 0), psrv | candidates, starved
    reg [KN-1:0]        pt_hi, pt_sel, pt_1h; // rotation: starved at or after prr, the set picked from
    reg [KW-1:0]        pt_k, prr_n;         // the turn's index, and prr after it

    integer k, s, t, i, j;
    reg                 f;
    reg [SHW-1:0]       v0;
    reg [UW:0]          fr0, fr1, fr2, fr3;
    reg [UW-1:0]        ua;
    reg [GUW-1:0]       ga, gb;
    reg [TC-1:0]        c0, c1;
    reg [KW-1:0]        kk;
    reg [PKW-1:0]       nk;
    reg [T-1:0]         tm;
    reg [AW-1:0]        rhs;
    reg [SHW:0]         omax, omin, nmax, nmin, rkc_new, rkv_new;
    reg [KN*(SHW+1)-1:0] rk1, rkn;         // rK(k) and step 4's new rK(k), SHW+1 bits
    reg                 oany;
    // rows and entries read at a variable id (through the selects above)
    reg [NSM*KN-1:0]    kmT;                 // kmT[s*KN + k] = kmask[k*NSM + s]
    reg [NSM*KN-1:0]    over;                // over[s*KN + k] = cnt[s][k] > part[s][k]
    reg [KN-1:0]        kres;                // kadm[k] == RESERVE
    reg [NSM-1:0]       short_m, kmc, krow;  // kmask[the short kernel] (0 if none), kmask[Kc], a row of kmask / fitsT
    reg [KN-1:0]        srow, pkm;           // a row of fits / hr / ksof_v; kmT[pcur]
    reg [T-1:0]         trow;                // run[plan_sm]
    reg [T*KW-1:0]      skrow;               // sk[plan_sm]
    reg [4*UW-1:0]      dkc, dkv, dkds, dke, dkp, urow, Uv, Uc;   // d(Kc), d(Kv), d(dsK), d(ek),
                                             // d(pu_k), u(SMv), U(Kv), U(Kc)
    reg                 a_ksv;               // ksof_v[SMv][Kc]
    reg [T-1:0]         et_oh;               // one-hot of et: the dp bit a done event clears
    reg [NSM-1:0]       es_oh;               // one-hot of es, 0 without an event
    reg [T-1:0]         et_oh1;              // one-hot of et, 0 without an event
    reg [NSM-1:0]       rany;                // SMs with a done bit
    reg [T-1:0]         tn;                  // SM s's event slot if s is the event SM, one-hot
    reg [NSM*KN-1:0]    ekn_oh;              // [s*KN + k]: kernel k in SM s's event slot tn
    reg [NSM*4*UW-1:0]  dkn;                 // row s: d(SM s's event-slot kernel), 0 if none
    reg [KN-1:0]        ek_oh;               // one-hot of ek, 0 without an event
    reg [KN-1:0]        kfin;                // kndone[k] + 1 == kgrid[k]
    reg                 ev_c1;               // cnt[es][ek] == 1 (0 without an event)
    reg [T-1:0]         xt_oh;               // one-hot of the slot of decisions 1-3's command, 0 without
    reg                 x_cmd;               // decisions 1-3 command (before a RESTORE's)
    reg [T*GW-1:0]      sidrow;              // sid[ex_sm]
    reg [T-1:0]         kidrow;              // kidem of each slot's kernel on ex_sm
    reg                 x_idem;              // kidem[dc_ks]
    reg [KS_W-1:0]      ev_ks;               // ksof[es][ek]
    reg                 ev_rel;              // the event releases kernel slot ev_ks of SM es
    reg [GW-1:0]        dc_id;               // sid of the commanded slot (dc_s, dc_t)
    reg [KW-1:0]        dc_ks;               // sk of the commanded slot before a RESTORE's (dc_s, dc_t)
    reg                 ds_ksv;              // ksof_v[dsS][dsK]
    reg [KS_W-1:0]      ds_ks;               // the dispatch's kernel slot (set_ks)
    reg [NW-1:0]        ds_n;                // kn(dsK)
    reg [TC-1:0]        pu_pc;               // pc[pu_k]

    // The tests u + d <= LIM_x of a usage and a kernel's demand, from the registers, each the carry
    // out of u + d + (2^(UW+1) - 1 - LIM_x) in UW + 2 bits being 0: a 3:2 carry-save row and a
    // kept prefix adder (spec "Implementation notes", depth). Tests 0-2: the execution's re-check
    // (drv_pipe = 1) for x = REG, SL, W on its pair (dp2's, or the plan's with a plan step); tests
    // 3-6: the request unit's SCAN, w + d(K) for x = REG, SL, W, TB.
    wire            rc_pl = dp2_v & (dp2_kind == CH_PLAN);
    wire [4*UW-1:0] rc_u  = rc_pl ? s_u4(u, plan_sm) : s_u4(u, dp2_s);
    wire [4*UW-1:0] rc_d  = rc_pl ? k_d4(dk, plan_kc) : k_d4(dk, dp2_k);
    wire [4*UW-1:0] rqw_d = k_d4(dk, rq_kr);
    wire [7*UW-1:0] lt_u  = {w, rc_u[3*UW-1:0]};
    wire [7*UW-1:0] lt_d  = {rqw_d, rc_d[3*UW-1:0]};
    wire [6:0]      lt_ok;
    wire [2:0]      rc_ok  = lt_ok[2:0];      // the re-check's u + d <= LIM_x, x = REG, SL, W
    wire [3:0]      rq_wok = lt_ok[6:3];      // SCAN's w + d(K) <= LIM_x, x = REG, SL, W, TB
    genvar gr;
    generate
        for (gr = 0; gr < 7; gr = gr + 1) begin : g_lt
            localparam integer X = (gr < 3) ? gr : gr - 3;  // the resource
            localparam [UW:0] RL = (X == 0) ? {1'b0, LIM_REG} : (X == 1) ? {1'b0, LIM_SL}
                                 : (X == 2) ? {1'b0, LIM_W} : {1'b0, LIM_TB};
            localparam [UW+1:0] RK = {1'b0, ~RL};    // 2^(UW+1) - 1 - LIM_x
            wire [UW+1:0] lt_a = {2'b00, lt_u[gr*UW +: UW]};
            wire [UW+1:0] lt_b = {2'b00, lt_d[gr*UW +: UW]};
            wire [UW+1:0] lt_s = lt_a ^ lt_b ^ RK;
            wire [UW+1:0] lt_c = {(lt_a[UW:0] & lt_b[UW:0]) | (lt_a[UW:0] & RK[UW:0]) | (lt_b[UW:0] & RK[UW:0]), 1'b0};
            wire [UW+1:0] lt_sum;
            `SMK_SKL_ADD(g_add, UW + 2, lt_s, lt_c, 1'b0, lt_sum)
            assign lt_ok[gr] = ~lt_sum[UW+1];
            wire unused_lt = &{1'b0, lt_sum[UW:0]};
        end
    endgenerate

    // Algorithm 1's step 3 (P), from the registers: for x = reg, sl, w, tb, u_x(SMv) + d_x(Kc) <=
    // LIM_x + a1_acc_x + d_x(Kv) as X = LIM_x + 2 + a1_acc_x + ~u_x + ~d_x(Kc) + d_x(Kv) >= 0 (~ on
    // P3W bits): three 3:2 carry-save rows, the late d(Kv) in the last, and the sign of a kept
    // prefix adder; the warps nfw(SMv) + a1_acc_w + d_w(Kv) >= kn(Kc) as R = kn(Kc) - a1_acc_w -
    // d_w(Kv) <= 0 or bit R - 1 of the thermometer code of SMv's free warps (R <= kn <= W), the code
    // beside the sum (spec "Implementation notes", depth)
    localparam P3W = AW + 2;
    wire [4*UW-1:0] p3_u   = s_u4(u, a1_smv);
    wire [4*UW-1:0] p3_dc  = k_d4(dk, a1_kc);
    wire [4*UW-1:0] p3_dv  = k_d4(dk, a1_kv);
    wire [W-1:0]    p3_fwt = thermw(~s_w(wused, a1_smv));   // bit i: at least i + 1 free warps
    wire [NW-1:0]   p3_kn  = k_nw(kn, a1_kc);
    wire [4:0]      p3_ok;                    // tests x = reg, sl, w, tb, then the warps
    generate
        for (gr = 0; gr < 5; gr = gr + 1) begin : g_p3
            localparam [UW-1:0] PL = (gr == 0) ? LIM_REG : (gr == 1) ? LIM_SL : (gr == 2) ? LIM_W : LIM_TB;
            localparam [P3W-1:0] PK = (gr == 4) ? {{(P3W-2){1'b0}}, 2'b10} : {{(P3W-UW){1'b0}}, PL} + 2;
            localparam integer XR = (gr == 4) ? 2 : gr;   // the resource of a1_acc and d(Kv)
            // gr = 4: kn + ~acc_w + 0 + 2 + ~d_w(Kv) = R
            wire [P3W-1:0] p3a = (gr == 4) ? ~{2'b00, a1_acc[XR*AW +: AW]} : {2'b00, a1_acc[XR*AW +: AW]};
            wire [P3W-1:0] p3b = (gr == 4) ? ~{{(P3W-UW){1'b0}}, p3_dv[XR*UW +: UW]} : {{(P3W-UW){1'b0}}, p3_dv[XR*UW +: UW]};
            wire [P3W-1:0] p3c = (gr == 4) ? {{(P3W-NW){1'b0}}, p3_kn} : ~{{(P3W-UW){1'b0}}, p3_u[(gr % 4)*UW +: UW]};
            wire [P3W-1:0] p3d = (gr == 4) ? {P3W{1'b0}} : ~{{(P3W-UW){1'b0}}, p3_dc[(gr % 4)*UW +: UW]};
            // a + c + d, then + K, then + d(Kv)
            wire [P3W-1:0] p3s1 = p3a ^ p3c ^ p3d;
            wire [P3W-1:0] p3c1 = {(p3a[P3W-2:0] & p3c[P3W-2:0]) | (p3a[P3W-2:0] & p3d[P3W-2:0]) | (p3c[P3W-2:0] & p3d[P3W-2:0]), 1'b0};
            wire [P3W-1:0] p3s2 = p3s1 ^ p3c1 ^ PK;
            wire [P3W-1:0] p3c2 = {(p3s1[P3W-2:0] & p3c1[P3W-2:0]) | (p3s1[P3W-2:0] & PK[P3W-2:0]) | (p3c1[P3W-2:0] & PK[P3W-2:0]), 1'b0};
            wire [P3W-1:0] p3s3 = p3s2 ^ p3c2 ^ p3b;
            wire [P3W-1:0] p3c3 = {(p3s2[P3W-2:0] & p3c2[P3W-2:0]) | (p3s2[P3W-2:0] & p3b[P3W-2:0]) | (p3c2[P3W-2:0] & p3b[P3W-2:0]), 1'b0};
            wire [P3W-1:0] p3x;
            `SMK_SKL_ADD(g_add, P3W, p3s3, p3c3, 1'b0, p3x)
            if (gr == 4) begin : g_w
                // R > 0 (then R <= kn <= W < 2^NW: its low NW bits are R), one-hot R - 1 on the code
                wire rpos = ~p3x[P3W-1] & (|p3x[P3W-2:0]);
                wire [W-1:0] roh;
                genvar gq;
                for (gq = 0; gq < W; gq = gq + 1) begin : g_oh
                    localparam [NW-1:0] RJ = gq + 1;
                    assign roh[gq] = (p3x[NW-1:0] == RJ);
                end
                assign p3_ok[gr] = ~rpos | (|(roh & p3_fwt));
            end else begin : g_x
                assign p3_ok[gr] = ~p3x[P3W-1];
                wire unused_p3 = &{1'b0, p3x[P3W-2:0]};
            end
        end
    endgenerate

    always @(*) begin
        // defaults of the temporaries (no latches)
        f = 1'b0; v0 = {SHW{1'b0}}; kv_el = {KN{1'b0}};
        fr0 = {(UW+1){1'b0}}; fr1 = {(UW+1){1'b0}}; fr2 = {(UW+1){1'b0}}; fr3 = {(UW+1){1'b0}};
        ua = {UW{1'b0}}; ga = {GUW{1'b0}}; gb = {GUW{1'b0}};
        c0 = {TC{1'b0}}; c1 = {TC{1'b0}}; kk = {KW{1'b0}}; nk = {PKW{1'b0}}; tm = {T{1'b0}};
        rhs = {AW{1'b0}}; oany = 1'b0;
        krow = {NSM{1'b0}}; trow = {T{1'b0}}; skrow = {(T*KW){1'b0}};
        // ---------------- per kernel: PTBQ selection, eligibility, shares
        for (k = 0; k < KN; k = k + 1) begin
            // the lowest SAVED or RERUN entry of kernel k, one-hot (pq_oh), its index and whether it
            // is SAVED (pq_sv): from the registers, beside the decisions that select by kernel
            for (i = 0; i < PQ; i = i + 1)
                pq_m[i] = (qst[i*3 +: 3] == Q_SAVED || qst[i*3 +: 3] == Q_RERUN) && qk[i*KW +: KW] == k[KW-1:0];
            pq_oh[k*PQ +: PQ] = lo1_q(pq_m);
            has_pq[k] = |pq_m;
            pqsel[k*PQW +: PQW] = enc_q(pq_oh[k*PQ +: PQ]);
            pq_sv[k] = 1'b0;
            for (i = 0; i < PQ; i = i + 1)
                pq_sv[k] = pq_sv[k] | (pq_oh[k*PQ + i] & (qst[i*3 +: 3] == Q_SAVED));
            ga = {GUW{1'b0}}; ga[UW-1:0] = U[(k*4+3)*UW +: UW];
            gb = {GUW{1'b0}}; gb[GW-1:0] = klim[k*GW +: GW];
            hwork[k] = has_pq[k] | (knext[k*GW +: GW] < kgrid[k*GW +: GW]);
            elig[k] = kv[k] & hwork[k] & (kadm[k*2 +: 2] != ADM_CAP | ga < gb);
            rk[k*SHW +: SHW] = share(U[(k*4+0)*UW +: UW], U[(k*4+1)*UW +: UW], U[(k*4+2)*UW +: UW],
                                     U[(k*4+3)*UW +: UW]);
        end

        // ---------------- per SM
        run = sv & ~spre & ~sfill & ~dp;
        for (s = 0; s < NSM; s = s + 1) begin
            rsm[s*SHW +: SHW] = share(u[(s*4+0)*UW +: UW], u[(s*4+1)*UW +: UW], u[(s*4+2)*UW +: UW],
                                      u[(s*4+3)*UW +: UW]);
            cmd_ok[s] = ~busy[s] & ~rl_v[s];
            nk = {PKW{1'b0}};
            ksfree_v[s] = 1'b0;
            ksfree[s*KS_W +: KS_W] = {KS_W{1'b0}};
            for (j = KS - 1; j >= 0; j = j - 1) begin
                if (!ksv[s*KS + j]) begin
                    ksfree_v[s] = 1'b1;
                    ksfree[s*KS_W +: KS_W] = j[KS_W-1:0];
                end
            end
            for (j = 0; j < KS; j = j + 1)
                nk = nk + {{(PKW-1){1'b0}}, ksv[s*KS + j]};
            nks[s*PKW +: PKW] = nk;
            slfree[s*TBS_W +: TBS_W] = {TBS_W{1'b0}};
            for (t = T - 1; t >= 0; t = t - 1)
                if (!sv[s*T + t]) slfree[s*TBS_W +: TBS_W] = t[TBS_W-1:0];
            // drv_pipe = 1: by the prefix-count tree (log depth, stage S1 and the re-check); 0: the
            // in-order sum (fewer cells)
            tpf = pfxw(~wused[s*W +: W]);
            nfw[s*NW +: NW] = (PIPE != 0) ? tpf[(W-1)*NW +: NW] : popw(~wused[s*W +: W]);
            fwt[s*W +: W] = (PIPE != 0) ? thermw(~wused[s*W +: W]) : {W{1'b0}};
            for (k = 0; k < KN; k = k + 1) begin
                ksof_v[s*KN + k] = 1'b0;
                ksof[(s*KN+k)*KS_W +: KS_W] = {KS_W{1'b0}};
                for (j = KS - 1; j >= 0; j = j - 1)
                    if (ksv[s*KS + j] && ksk[(s*KS+j)*KW +: KW] == k[KW-1:0]) begin
                        ksof_v[s*KN + k] = 1'b1;
                        ksof[(s*KN+k)*KS_W +: KS_W] = j[KS_W-1:0];
                    end
                hr[s*KN + k] = 1'b0;
                for (t = 0; t < T; t = t + 1)
                    if (run[s*T + t] && sk[(s*T+t)*KW +: KW] == k[KW-1:0]) hr[s*KN + k] = 1'b1;
            end
        end

        for (k = 0; k < KN; k = k + 1) begin
            kres[k] = (kadm[k*2 +: 2] == ADM_RESERVE);
            for (s = 0; s < NSM; s = s + 1) begin
                kmT[s*KN + k] = kmask[k*NSM + s];
                over[s*KN + k] = (cnt[(s*KN+k)*TC +: TC] > part[(s*KN+k)*TC +: TC]);
            end
        end

        // ---------------- the warp test nfw(s) >= kn(k): drv_pipe = 1 reads the thermometer code fwt,
        // bit kn - 1 (kn = 0: always; kn > W: never) by the one-hot kn (depth: the sort, then one
        // AND-OR); drv_pipe = 0 the compare of the count
        for (k = 0; k < KN; k = k + 1)
            for (j = 0; j <= W; j = j + 1)
                kn_oh[k*(W+1) + j] = (PIPE != 0) && (kn[k*NW +: NW] == j[NW-1:0]);   // constant 0 with drv_pipe = 0
        for (s = 0; s < NSM; s = s + 1)
            for (k = 0; k < KN; k = k + 1)
                nfw_ge[s*KN + k] = (PIPE != 0)
                    ? (kn_oh[k*(W+1)] | (|(kn_oh[k*(W+1) + 1 +: W] & fwt[s*W +: W])))
                    : (nfw[s*NW +: NW] >= kn[k*NW +: NW]);

        // ---------------- fits(s, k) without resv_block
        for (s = 0; s < NSM; s = s + 1) begin
            // free amount LIM_x - u_x(s), UW+1 bits, top bit = over the limit
            fr0 = {1'b0, LIM_REG} - {1'b0, u[(s*4+0)*UW +: UW]};
            fr1 = {1'b0, LIM_SL}  - {1'b0, u[(s*4+1)*UW +: UW]};
            fr2 = {1'b0, LIM_W}   - {1'b0, u[(s*4+2)*UW +: UW]};
            fr3 = {1'b0, LIM_TB}  - {1'b0, u[(s*4+3)*UW +: UW]};
            nk = nks[s*PKW +: PKW];
            for (k = 0; k < KN; k = k + 1) begin
                c0 = cnt[(s*KN+k)*TC +: TC];
                c1 = part[(s*KN+k)*TC +: TC];
                fits_b[s*KN + k] = kmask[k*NSM + s]
                    & ~fr0[UW] & ({1'b0, dk[(k*4+0)*UW +: UW]} <= fr0)
                    & ~fr1[UW] & ({1'b0, dk[(k*4+1)*UW +: UW]} <= fr1)
                    & ~fr2[UW] & ({1'b0, dk[(k*4+2)*UW +: UW]} <= fr2)
                    & ({1'b0, u[(s*4+3)*UW +: UW]} < {1'b0, LIM_TB})
                    & (ksof_v[s*KN + k] | ((nk < KSP) & (~cfg_max2 | ((nk >> 1) == {PKW{1'b0}}))))
                    & nfw_ge[s*KN + k]
                    & ((cfg_policy != P_SMK_P & cfg_policy != P_QOS) | c0 < c1)
                    & (~plan_v | s[SMW-1:0] != plan_sm | k[KW-1:0] == plan_kc);
            end
        end

        // ---------------- admission RESERVE: the lowest short kernel (resv_block is 0 for RESERVE
        // kernels, so their fits is fits_b); short_m = its kmask (0 if none), an AND-OR of the
        // one-hot lowest short kernel (no priority chain over the kernels)
        for (k = 0; k < KN; k = k + 1) begin
            ga = {GUW{1'b0}}; ga[UW-1:0] = U[(k*4+3)*UW +: UW];
            gb = {GUW{1'b0}}; gb[GW-1:0] = klim[k*GW +: GW];
            f = 1'b0;
            for (s = 0; s < NSM; s = s + 1) f = f | fits_b[s*KN + k];
            sh_c[k] = kres[k] & elig[k] & (ga < gb) & ~f;
        end
        short_v = |sh_c;
        short_m = {NSM{1'b0}};
        for (k = 0; k < KN; k = k + 1) begin
            sh_lo = {KN{1'b0}};
            for (j = 0; j < k; j = j + 1) sh_lo[j] = 1'b1;
            if (sh_c[k] && (sh_c & sh_lo) == {KN{1'b0}}) short_m = short_m | kmask[k*NSM +: NSM];
        end
        for (k = 0; k < KN; k = k + 1) begin
            fit_any[k] = 1'b0;
            for (s = 0; s < NSM; s = s + 1) begin
                // SPEC: "non-RESERVE" = kadm != RESERVE (NONE, CAP and the unused code 3)
                fits[s*KN + k] = fits_b[s*KN + k]
                    & ~(short_v & (kadm[k*2 +: 2] != ADM_RESERVE) & short_m[s]);
                fit_any[k] = fit_any[k] | fits[s*KN + k];
            end
        end

        // ---------------- PTBQ: lowest FREE entry
        qfree_v = 1'b0;
        qfree = {PQW{1'b0}};
        for (i = PQ - 1; i >= 0; i = i - 1)
            if (qst[i*3 +: 3] == Q_FREE) begin
                qfree_v = 1'b1;
                qfree = i[PQW-1:0];
            end

        // ---------------- event: lowest SM's response latch, else lowest SM's lowest done bit
        // (one-hot picks: es_oh, et_oh1; es, et their indices; 0 without an event)
        ev_rsp = |rl_v;
        ev_done = 1'b0;
        for (s = 0; s < NSM; s = s + 1)
            rany[s] = |dp[s*T +: T];
        es_oh = lo1_s(ev_rsp ? rl_v : rany);
        et = {TBS_W{1'b0}};
        et_oh1 = {T{1'b0}};
        if (ev_rsp) begin
            for (s = 0; s < NSM; s = s + 1)
                et = et | (rl_tb[s*TBS_W +: TBS_W] & {TBS_W{es_oh[s]}});
            for (t = 0; t < T; t = t + 1)
                et_oh1[t] = (et == t[TBS_W-1:0]);
        end else begin
            ev_done = |rany;
            tm = {T{1'b0}};
            for (s = 0; s < NSM; s = s + 1)
                tm = tm | (dp[s*T +: T] & {T{es_oh[s]}});
            et_oh1 = lo1_t(tm);
            et = enc_t(et_oh1);
        end
        es = enc_s(es_oh);
        // the event's slot and kernel as each SM would have them were it the event SM (its
        // response's slot, else its lowest done slot): computed beside the pick of es, so that the
        // counter updates below depend on es_oh only through their final selects (depth)
        ek_oh = {KN{1'b0}};
        for (s = 0; s < NSM; s = s + 1) begin
            for (t = 0; t < T; t = t + 1)
                tn[t] = (rl_tb[s*TBS_W +: TBS_W] == t[TBS_W-1:0]);
            if (!ev_rsp)
                tn = lo1_t(dp[s*T +: T]);
            kk = {KW{1'b0}};   // the slot's kernel: an AND-OR select by the one-hot slot, decoded
            for (t = 0; t < T; t = t + 1)
                kk = kk | (sk[(s*T+t)*KW +: KW] & {KW{tn[t]}});
            dkn[s*4*UW +: 4*UW] = {4*UW{1'b0}};
            for (k = 0; k < KN; k = k + 1) begin
                ekn_oh[s*KN + k] = (|tn) & (kk == k[KW-1:0]);
                dkn[s*4*UW +: 4*UW] = dkn[s*4*UW +: 4*UW] | (dk[k*4*UW +: 4*UW] & {4*UW{ekn_oh[s*KN + k]}});
                ek_oh[k] = ek_oh[k] | (ekn_oh[s*KN + k] & es_oh[s]);
            end
        end
        ek = enc_k(ek_oh);   // sk[es][et] with an event (every use of ek is under one)
        for (t = 0; t < T; t = t + 1)
            et_oh[t] = (et == t[TBS_W-1:0]);
        // the PTBQ entry of a response: PEND or REST with qs == s (unique)
        ev_qv = 1'b0;
        ev_qi = {PQW{1'b0}};
        for (i = PQ - 1; i >= 0; i = i - 1)
            if ((qst[i*3 +: 3] == Q_PEND || qst[i*3 +: 3] == Q_REST) && qs[i*SMW +: SMW] == es) begin
                ev_qv = 1'b1;
                ev_qi = i[PQW-1:0];
            end
        ev_ret = ev_done;
        ev_qwr = 1'b0;
        ev_qnew = Q_FREE;
        if (ev_rsp) begin
            case (s_2(rl_op, es))
                OP_SAVE, OP_DROP: begin
                    ev_qwr = ev_qv;
                    if (s_3(rl_st, es) == ST_OK) begin
                        ev_ret = 1'b1;
                        ev_qnew = (s_2(rl_op, es) == OP_SAVE) ? Q_SAVED : Q_RERUN;
                    end else
                        ev_qnew = Q_FREE;
                end
                OP_RESTORE: begin
                    ev_qwr = ev_qv & (s_3(rl_st, es) == ST_OK);
                    ev_qnew = Q_FREE;
                end
                default: ;   // DRAIN: nothing more
            endcase
        end
        // a kernel's last TB: each kernel's compare from the registers, then the event's by ek_oh
        for (k = 0; k < KN; k = k + 1)
            kfin[k] = ((kndone[k*GW +: GW] + {{(GW-1){1'b0}}, 1'b1}) == kgrid[k*GW +: GW]);
        ev_kfin = ev_done & |(ek_oh & kfin);

        // ---------------- choice inputs of this cycle's state (spec "Decision pipeline"): per SM,
        // an eviction candidate (decision 1: cmd_ok and a slot of pre whose kernel may not stay,
        // by this cycle's policy) and a reservation candidate (decision 2: in the short kernel's
        // mask, cmd_ok and a slot of pre of a non-RESERVE kernel); the plan step's condition; R
        for (s = 0; s < NSM; s = s + 1) begin
            srow = (cfg_policy == P_SPART) ? ~kmT[s*KN +: KN] : over[s*KN +: KN];
            for (t = 0; t < T; t = t + 1) begin
                kk = sk[(s*T+t)*KW +: KW];
                tm[t] = run[s*T + t] & srow[kk];
                rtm[t] = run[s*T + t] & ~kres[kk];   // "running TB" = pre(s)
            end
            cur_ec[s] = cmd_ok[s] & (tm != {T{1'b0}});
            cur_rc[s] = short_v & short_m[s] & cmd_ok[s] & (rtm != {T{1'b0}});
        end
        cur_r = short_v ? short_m : {NSM{1'b0}};
        cur_plan = plan_v & ~pb & ((plan_left == {TC{1'b0}}) | (cmd_ok[plan_sm] & qfree_v));

        // ---------------- the choice ch() (spec "Decision pipeline"): from the choice inputs, which
        // are this cycle's values with drv_pipe = 0 and the stage-S1 registers (the previous
        // cycle's values) with drv_pipe = 1; nothing else is read here
        c_pol    = (PIPE != 0) ? s1_pol    : cfg_policy;
        c_evsave = (PIPE != 0) ? s1_evsave : (cfg_evict == OP_SAVE);
        c_psm    = (PIPE != 0) ? s1_psm    : qc_psm;
        c_pb     = (PIPE != 0) ? s1_pb     : pb;
        c_qfree  = (PIPE != 0) ? s1_qfree  : qfree_v;
        c_plan   = (PIPE != 0) ? s1_plan   : cur_plan;
        c_planv  = (PIPE != 0) ? s1_planv  : plan_v;
        c_ec     = (PIPE != 0) ? s1_ec     : cur_ec;
        c_rc     = (PIPE != 0) ? s1_rc     : cur_rc;
        c_r      = (PIPE != 0) ? s1_r      : cur_r;
        c_elig   = (PIPE != 0) ? s1_elig   : elig;
        c_fitany = (PIPE != 0) ? s1_fitany : fit_any;
        c_fits   = (PIPE != 0) ? s1_fits   : fits;
        c_rk     = (PIPE != 0) ? s1_rk     : rk;
        c_rsm    = (PIPE != 0) ? s1_rsm    : rsm;
        c_kold   = (PIPE != 0) ? s1_kold   : kold;
        c_kmask  = (PIPE != 0) ? s1_kmask  : kmask;
        for (k = 0; k < KN; k = k + 1)
            for (s = 0; s < NSM; s = s + 1)
                c_fitsT[k*NSM + s] = c_fits[s*KN + k];
        // The tree form, with drv_pipe = 0 (drv_pipe = 1 registers stage S2's parallel form, g_s2
        // below, the same function of the S1 registers): the dispatch pair of decision 4 / 5 is
        // computed whatever decisions 1-3 do, and the kind as flags, so that the dispatch's kernel
        // and SM reach the execution without the kinds' muxes.
        ch_kind = pp_kind; ch_s = pp_s; ch_k = pp_k; ch_r = c_r;
        kc = {KW{1'b0}}; ms = {SMW{1'b0}}; kk = {KW{1'b0}};
        c_evok = (c_pol == P_SPART || c_pol == P_SMK_P || c_pol == P_QOS) && (!c_pb || c_psm)
                 && c_ec != {NSM{1'b0}} && (!c_evsave || c_qfree);
        c_rvok = !c_pb && c_rc != {NSM{1'b0}};   // c_rc is 0 without a short kernel
        // 1. eviction, 2. reservation drain: the lowest candidate SM (a SAVE eviction without a
        // FREE PTBQ entry does not apply; decisions 2-5 are tried)
        ev_s = {SMW{1'b0}};
        rv_s = {SMW{1'b0}};
        for (s = NSM - 1; s >= 0; s = s - 1) begin
            if (c_ec[s]) ev_s = s[SMW-1:0];
            if (c_rc[s]) rv_s = s[SMW-1:0];
        end
        // 3. plan step: c_plan (plan_v & ~pb & (plan_left == 0 | cmd_ok(plan_sm) & FREE entry),
        // under any cfg_policy; a waiting plan lets decision 4 run)
        // 4. dispatch by policy (5: SMK_OD's miss): cd_ok with the pair (cd_k, cd_s), or cd_miss
        cd_ok = 1'b0; cd_miss = 1'b0; cd_k = {KW{1'b0}}; cd_s = {SMW{1'b0}};
        case (c_pol)
            P_SMK_OD: begin
                {f, kc} = min_rk(c_elig, c_rk);
                krow = k_nsm(c_kmask, kc);
                {oany, ms} = min_rsm(krow, c_rsm);
                // SPEC: an empty kmask[Kc] (possible after km_v) gives no SMc: no dispatch,
                // no preemption
                srow = s_kn(c_fits, ms);
                cd_k = kc;
                cd_s = ms;
                cd_ok = f & oany & srow[kc];
                cd_miss = f & oany & ~srow[kc] & ~c_planv & ~c_pb;
            end
            P_SMK_P, P_QOS: begin   // QOS dispatches by SMK_P's rule
                {f, kk} = min_rk(c_elig & c_fitany, c_rk);
                krow = k_nsm(c_fitsT, kk);
                {oany, ms} = min_rsm(krow, c_rsm);
                cd_k = kk;
                cd_s = ms;
                cd_ok = f;
            end
            default: begin   // FCFS, SPART; 5..7 dispatch as FCFS (SPART: the SM by rSM)
                // oldest eligible kernel that fits somewhere (kold is a total order of the
                // kernels in use; lowest index if ever not unique)
                f = 1'b0;
                for (k = KN - 1; k >= 0; k = k - 1)
                    if (c_elig[k] && c_fitany[k] && (c_kold[k*KN +: KN] & c_elig & c_fitany) == {KN{1'b0}}) begin
                        f = 1'b1;
                        kk = k[KW-1:0];
                    end
                krow = k_nsm(c_fitsT, kk);
                if (c_pol == P_SPART) begin
                    // SPART: the SM with the lowest rSM where it fits (spread over the mask)
                    {oany, ms} = min_rsm(krow, c_rsm);
                end else
                    for (s = NSM - 1; s >= 0; s = s - 1)
                        if (krow[s]) ms = s[SMW-1:0];
                cd_k = kk;
                cd_s = ms;
                cd_ok = f;
            end
        endcase
        // SMK_OD's Kc does not fit on SMc and no decision 1-3 applies (plan_v, pb: a waiting miss)
        od_miss = ~c_evok & ~c_rvok & ~c_plan & (c_pol == P_SMK_OD) & f & oany & ~srow[kc];
        // drv_pipe = 1 beyond 16 kernels (PWK = 0): stage S2 is this tree form on the S1 registers,
        // its kind by the decisions' order (g_s2 is the parallel form up to 16 kernels)
        if (PIPE != 0 && !PWK) begin
            if (c_evok) begin
                ch_kind = CH_EVICT; ch_s = ev_s; ch_k = {KW{1'b0}};
            end else if (c_rvok) begin
                ch_kind = CH_RESV; ch_s = rv_s; ch_k = {KW{1'b0}};
            end else if (c_plan) begin
                ch_kind = CH_PLAN; ch_s = s1_plansm; ch_k = s1_plankc;
            end else if (cd_ok | cd_miss) begin
                ch_kind = cd_ok ? CH_DISP : CH_MISS; ch_s = cd_s; ch_k = cd_k;
            end else begin
                ch_kind = CH_NONE; ch_s = {SMW{1'b0}}; ch_k = {KW{1'b0}};
            end
        end

        // ---------------- the execution (spec "Decision pipeline") of (kind, S, K, R): this
        // cycle's choice with drv_pipe = 0, the registered dp2 with drv_pipe = 1, on this cycle's
        // state. With drv_pipe = 0 every re-check holds by construction of the choice and is the
        // constant 1 here; with drv_pipe = 1 each is evaluated now.
        if (PIPE != 0) begin
            x_ev = dp2_v & (dp2_kind == CH_EVICT);
            x_rs = dp2_v & (dp2_kind == CH_RESV);
            x_pl = dp2_v & (dp2_kind == CH_PLAN);
            x_ds = dp2_v & (dp2_kind == CH_DISP);
            x_ms = dp2_v & (dp2_kind == CH_MISS);
            ex_s = dp2_s;
            ex_dk = dp2_k;
            ex_ds = dp2_s;
            ex_r = dp2_r;
        end else begin
            x_ev = c_evok;
            x_rs = ~c_evok & c_rvok;
            x_pl = ~c_evok & ~c_rvok & c_plan;
            x_ds = ~c_evok & ~c_rvok & ~c_plan & cd_ok;
            x_ms = ~c_evok & ~c_rvok & ~c_plan & cd_miss;
            ex_s = c_evok ? ev_s : rv_s;
            ex_dk = cd_k;
            ex_ds = cd_s;
            ex_r = c_r;
        end
        dc_cmd = 1'b0; dc_s = {SMW{1'b0}}; dc_t = {TBS_W{1'b0}}; dc_op = OP_SAVE; dc_k = {KW{1'b0}};
        dc_qalloc = 1'b0; dc_setpb = 1'b0; dc_pre = 1'b0;
        dc_planpre = 1'b0; dc_planend = 1'b0; dc_pstart = 1'b0;
        xt_oh = {T{1'b0}};
        // the SM of an eviction, a drain, a plan step (the plan's SM; the choice's is the same) and,
        // with drv_pipe = 1, of a dispatch; the kernel of a plan step or a dispatch
        ex_sm = x_pl ? plan_sm : ex_s;
        xk = x_pl ? plan_kc : ex_dk;
        // a dispatch's pair (its TB below reads it whether or not ds_try: every use is gated)
        ds_try = 1'b0;
        dsK = xk;
        dsS = x_pl ? plan_sm : ex_ds;
        trow = s_t(run, ex_sm);
        skrow = s_tkw(sk, ex_sm);
        // this cycle's fits(ex_sm, *) (drv_pipe = 0, where R is this cycle's)
        ex_frow = s_kn(fits, ex_sm);
        // nfw(ex_sm) >= kn(xk): the warp test of every pair (nfw_ge, the thermometer code with
        // drv_pipe = 1), its row of ex_sm
        x_wrow = s_kn(nfw_ge, ex_sm);
        x_ks = s_kn(ksof_v, ex_sm);
        x_nk = s_pkw(nks, ex_sm);
        x_c = k_tc(s_ktc(cnt, ex_sm), xk);
        x_p = k_tc(s_ktc(part, ex_sm), xk);
        x_km = k_nsm(kmask, xk);
        // u + d <= limit (rc_ok: u(ex_sm) and d(xk) selected by the registered indices of both
        // sources, the sums by kept prefix adders); the TB slots u < LIM_TB
        x_fit = x_km[ex_sm] & (&rc_ok) & (rc_u[3*UW +: UW] < LIM_TB)
              & (x_ks[xk] | ((x_nk < KSP) & (~cfg_max2 | ((x_nk >> 1) == {PKW{1'b0}}))))
              & x_wrow[xk]
              & ((cfg_policy != P_SMK_P & cfg_policy != P_QOS) | x_c < x_p)
              & (~plan_v | ex_sm != plan_sm | xk == plan_kc)
              & ~(ex_r[ex_sm] & ~kres[xk]);
        // fits(S, K) of the execution: the re-check (drv_pipe = 1), this cycle's fits (0)
        ex_fit = (PIPE != 0) ? x_fit : ex_frow[xk];
        begin
            if (x_ev) begin   // 1. eviction on SM S
                srow = (cfg_policy == P_SPART) ? ~s_kn(kmT, ex_sm) : s_kn(over, ex_sm);
                for (t = 0; t < T; t = t + 1)
                    tm[t] = trow[t] & srow[skrow[t*KW +: KW]];
                if ((PIPE == 0) || ((cfg_policy == P_SPART || cfg_policy == P_SMK_P || cfg_policy == P_QOS)
                                    && (!pb || qc_psm) && cmd_ok[ex_sm] && tm != {T{1'b0}}
                                    && (cfg_evict != OP_SAVE || qfree_v))) begin
                    dc_cmd = 1'b1;
                    dc_s = ex_sm;
                    xt_oh = hi1_t(tm);
                    dc_t = enc_t(xt_oh);
                    dc_op = (cfg_evict == OP_SAVE) ? OP_SAVE : OP_DRAIN;   // DRAIN for any other code
                    dc_pre = 1'b1;
                    dc_qalloc = (cfg_evict == OP_SAVE);
                    dc_setpb = (cfg_evict == OP_SAVE) & ~qc_psm;
                end
            end
            if (x_rs) begin   // 2. reservation drain on SM S
                for (t = 0; t < T; t = t + 1)
                    tm[t] = trow[t] & ~kres[skrow[t*KW +: KW]];
                if ((PIPE == 0) || (!pb && cmd_ok[ex_sm] && tm != {T{1'b0}})) begin
                    dc_cmd = 1'b1;
                    dc_s = ex_sm;
                    xt_oh = hi1_t(tm);
                    dc_t = enc_t(xt_oh);
                    dc_op = OP_DRAIN;
                    dc_pre = 1'b1;
                    dc_setpb = 1'b1;
                end
            end
            if (x_pl) begin   // 3. plan step, its conditions evaluated now
                if (plan_v) begin
                    if (plan_left != {TC{1'b0}}) begin
                        if (!pb && cmd_ok[plan_sm] && qfree_v) begin
                            for (t = 0; t < T; t = t + 1)
                                tm[t] = trow[t] & (skrow[t*KW +: KW] == plan_kv);
                            if (tm != {T{1'b0}}) begin
                                dc_planpre = 1'b1;
                                dc_cmd = 1'b1;
                                dc_s = plan_sm;
                                xt_oh = hi1_t(tm);
                                dc_t = enc_t(xt_oh);
                                dc_op = (cfg_pmode == OP_DROP && kidem[plan_kv]) ? OP_DROP : OP_SAVE;
                                dc_pre = 1'b1;
                                dc_qalloc = 1'b1;
                                dc_setpb = 1'b1;
                            end else
                                dc_planend = 1'b1;   // no such slot: plan_v = 0
                        end
                    end else if (!pb) begin
                        dc_planend = 1'b1;
                        ds_try = elig[plan_kc] & ex_fit;
                    end
                end
            end
            if (x_ds)         // 4. dispatch of K on S
                ds_try = (PIPE == 0) | (elig[ex_dk] & ex_fit);
        end

        // the dispatched TB: PTBQ entry first (SAVED needs cmd_ok(S)), else a fresh id
        x_cmd = dc_cmd;
        sidrow = s_tgw(sid, ex_sm);
        for (t = 0; t < T; t = t + 1)
            kidrow[t] = kidem[skrow[t*KW +: KW]];
        ds_qi = k_pqw(pqsel, dsK);
        ds_qoh = {PQ{1'b0}};   // one-hot of ds_qi when has_pq[dsK], else 0
        for (k = 0; k < KN; k = k + 1)
            ds_qoh = ds_qoh | (pq_oh[k*PQ +: PQ] & {PQ{dsK == k[KW-1:0]}});
        ds_rest = 1'b0; ds_rerun = 1'b0; ds_new = 1'b0;
        if (ds_try) begin
            if (has_pq[dsK]) begin
                if (pq_sv[dsK]) ds_rest = cmd_ok[dsS];   // qst[ds_qi] == Q_SAVED
                else ds_rerun = 1'b1;
            end else
                ds_new = 1'b1;
        end
        ds_go = ds_rest | ds_rerun | ds_new;
        ds_t = s_tbs(slfree, dsS);
        ds_id = ds_new ? k_gw(knext, dsK) : q_ogw(qid, ds_qoh);   // qid[ds_qi]
        if (ds_rest) begin
            dc_cmd = 1'b1;
            dc_s = dsS;
            dc_t = ds_t;
            dc_op = OP_RESTORE;
        end

        // ---------------- 5. preemption start: the Algorithm 1 unit, one step per cycle. A MISS
        // (SMK_OD's Kc does not fit on SMc, ~plan_v, ~pb, no decision 1-4) gives a1_go: it starts
        // the unit from IDLE with Kc = K; in RNG for this Kc decision 5 may start the plan
        a1_go = x_ms && ((PIPE == 0) || (!plan_v && !pb));
        dkc = k_d4(dk, a1_kc);
        // step 1 (SMV), SM a1_s: share(u(s) - cnt[s][Kc] * d(Kc)) (exact: those TBs are in u), a
        // candidate if s is in kmask[Kc] and another kernel has a TB in pre(s); ties to the lowest s
        // (drv_pipe = 1: the usage without Kc's TBs computed one cycle ahead for SM la_s, registered
        // in a1_pw / a1_pcd: SM 0 in the start cycle with the start's Kc, SM a1_s + 1 in SMV; the
        // SMV cycle takes the share of the register and compares it)
        la_s = (PIPE == 0) ? a1_s : (a1_st == A1_IDLE || a1_s == LASTSM) ? {SMW{1'b0}} : a1_s + {{(SMW-1){1'b0}}, 1'b1};
        la_kc = (PIPE != 0 && a1_st == A1_IDLE) ? ex_dk : a1_kc;
        dla = k_d4(dk, la_kc);
        c0 = k_tc(s_ktc(cnt, la_s), la_kc);
        urow = s_u4(u, la_s);
        ua = {UW{1'b0}}; ua[TC-1:0] = c0;
        a1_w = {urow[3*UW +: UW] - ua, urow[2*UW +: UW] - ua * dla[2*UW +: UW],
                urow[1*UW +: UW] - ua * dla[1*UW +: UW], urow[0*UW +: UW] - ua * dla[0*UW +: UW]};
        a1_v = (PIPE != 0) ? share(a1_pw[0*UW +: UW], a1_pw[1*UW +: UW], a1_pw[2*UW +: UW], a1_pw[3*UW +: UW])
                           : share(a1_w[0*UW +: UW], a1_w[1*UW +: UW], a1_w[2*UW +: UW], a1_w[3*UW +: UW]);
        srow = s_kn(hr, la_s);
        f = 1'b0;
        for (k = 0; k < KN; k = k + 1)
            if (k[KW-1:0] != la_kc) f = f | srow[k];
        kmc = k_nsm(kmask, la_kc);
        a1_lc = kmc[la_s] & f;
        a1_upd = ((PIPE != 0) ? a1_pcd : a1_lc) & (~a1_f | a1_v > a1_best);
        // step 2 (KV): Kv = argmax rK over k != Kc with a TB in pre(SMv); ties to the lowest index
        // (the highest rK is the lowest ~rK: a tree of ceil(log2(KN)) compare levels, the same choice
        // as a scan in index order)
        srow = s_kn(hr, a1_smv);
        for (k = 0; k < KN; k = k + 1)
            kv_el[k] = (k[KW-1:0] != a1_kc) & srow[k];
        {a1_kvok, a1_kvn} = PWK ? min_rk_pw(kv_el, ~rk) : min_rk(kv_el, ~rk);
        // step 3 (P), q = a1_q + 1: u_x + d_x(Kc) <= LIM_x + q * d_x(Kv), the warps, a kernel slot
        a1_qn = a1_q + {{(TC-1){1'b0}}, 1'b1};
        a1_c1 = k_tc(s_ktc(cnt, a1_smv), a1_kv);
        nk = s_pkw(nks, a1_smv);
        urow = s_u4(u, a1_smv);
        dkv = k_d4(dk, a1_kv);
        srow = s_kn(ksof_v, a1_smv);
        a_ksv = srow[a1_kc];
        for (i = 0; i < 4; i = i + 1)
            a1_accn[i*AW +: AW] = a1_acc[i*AW +: AW] + {{(AW-UW){1'b0}}, dkv[i*UW +: UW]};
        // the four limit tests and the warp test (p3_ok: carry-save rows and kept prefix adders)
        f = (a1_qn <= a1_c1) & (&p3_ok);
        // "a kernel slot is free" = the fits condition (nks < KS, and < 2 with cfg_max2)
        a1_pok = f & (a_ksv | ((nk < KSP) & (~cfg_max2 | ((nk >> 1) == {PKW{1'b0}}))) | (a1_qn == a1_c1));
        // step 4 (RNG): the range of rK over the kernels in use, with rK(Kv) <- share(U(Kv) - p d(Kv))
        // (no plan if U(Kv) fell below p d(Kv) since step 3) and rK(Kc) <- share(U(Kc) + d(Kc))
        Uv = k_d4(U, a1_kv);
        Uc = k_d4(U, a1_kc);
        a1_ufok = 1'b1;
        for (i = 0; i < 4; i = i + 1) begin
            rhs = {AW{1'b0}}; rhs[UW-1:0] = Uv[i*UW +: UW];
            if (rhs < a1_acc[i*AW +: AW]) a1_ufok = 1'b0;
        end
        rkv_new = {1'b0, share(Uv[0*UW +: UW] - a1_acc[0*AW +: UW], Uv[1*UW +: UW] - a1_acc[1*AW +: UW],
                               Uv[2*UW +: UW] - a1_acc[2*AW +: UW], Uv[3*UW +: UW] - a1_acc[3*AW +: UW])};
        rkc_new = share1({1'b0, Uc[0*UW +: UW]} + {1'b0, dkc[0*UW +: UW]},
                         {1'b0, Uc[1*UW +: UW]} + {1'b0, dkc[1*UW +: UW]},
                         {1'b0, Uc[2*UW +: UW]} + {1'b0, dkc[2*UW +: UW]},
                         {1'b0, Uc[3*UW +: UW]} + {{UW{1'b0}}, 1'b1});
        // the ranges before and after, over the kernels in use (empty: no shrink)
        for (k = 0; k < KN; k = k + 1) begin
            rk1[k*(SHW+1) +: SHW+1] = {1'b0, rk[k*SHW +: SHW]};
            rkn[k*(SHW+1) +: SHW+1] = (k[KW-1:0] == a1_kv) ? rkv_new : (k[KW-1:0] == a1_kc) ? rkc_new
                                      : {1'b0, rk[k*SHW +: SHW]};
        end
        omax = ~minv_k(kv, ~rk1);
        omin = minv_k(kv, rk1);
        nmax = ~minv_k(kv, ~rkn);
        nmin = minv_k(kv, rkn);
        a_shrink = (|kv) & ((nmax - nmin) < (omax - omin));
        // drv_pipe = 1 (spec "With drv_pipe = 1: RNG in four steps"): R2's range ends over a1_kvm from
        // the R1 registers (0 when a1_kvm is 0), R3's flag a1_ok, RNG applies it
        for (k = 0; k < KN; k = k + 1) begin
            r2_o[k*(SHW+1) +: SHW+1] = {1'b0, a1_rk[k*SHW +: SHW]};
            r2_n[k*(SHW+1) +: SHW+1] = (k[KW-1:0] == a1_kc) ? a1_rc : (k[KW-1:0] == a1_kv) ? {1'b0, a1_rv}
                                      : {1'b0, a1_rk[k*SHW +: SHW]};
        end
        r2_omax = (|a1_kvm) ? ~(PWK ? minv_k_pw(a1_kvm, ~r2_o) : minv_k(a1_kvm, ~r2_o)) : {(SHW+1){1'b0}};
        r2_omin = PWK ? minv_k_pw(a1_kvm, r2_o) : minv_k(a1_kvm, r2_o);
        r2_nmax = (|a1_kvm) ? ~(PWK ? minv_k_pw(a1_kvm, ~r2_n) : minv_k(a1_kvm, ~r2_n)) : {(SHW+1){1'b0}};
        r2_nmin = PWK ? minv_k_pw(a1_kvm, r2_n) : minv_k(a1_kvm, r2_n);
        if (a1_go && a1_st == A1_RNG && ex_dk == a1_kc && ((PIPE != 0) ? a1_ok : (a1_ufok & a_shrink)))
            dc_pstart = 1'b1;
        // the execution acts: a command, a set-up, a plan step (including a plan that ends), or
        // a plan start
        act = dc_cmd | ds_go | dc_planend | dc_pstart;

        // ---------------- the commanded slot's kernel and the command's idem flag
        // (the slot's kernel and id from the command's SM and slot before a RESTORE replaces them, so
        // that they do not wait for the dispatch; a RESTORE never allocates a PTBQ entry, the only
        // reader of dc_id)
        // (decisions 1-3 command a slot of ex_sm = dc_s: selected by the one-hot xt_oh; without such a
        // command, the slot (0, 0))
        dc_ks = {KW{1'b0}}; dc_id = {GW{1'b0}}; x_idem = 1'b0;
        for (t = 0; t < T; t = t + 1) begin
            dc_ks = dc_ks | (skrow[t*KW +: KW] & {KW{xt_oh[t]}});
            dc_id = dc_id | (sidrow[t*GW +: GW] & {GW{xt_oh[t]}});
            x_idem = x_idem | (kidrow[t] & xt_oh[t]);
        end
        if (!x_cmd) begin
            dc_ks = sk[0 +: KW];
            dc_id = sid[0 +: GW];
            x_idem = kidem[sk[0 +: KW]];
        end
        dc_k = ds_rest ? dsK : dc_ks;
        dkds = k_d4(dk, dsK);
        dke = k_d4(dk, ek);
        ds_n = k_nw(kn, dsK);
        // the kernel slot is released when the count after both deltas is 0 (a dispatch of the
        // same kernel on the same SM in this cycle keeps it)
        ev_ks = k_ksw(s_kks(ksof, es), ek);
        ev_c1 = 1'b0;   // cnt[es][ek] == 1: each count's compare, then the event's by one-hots
        for (s = 0; s < NSM; s = s + 1)
            for (k = 0; k < KN; k = k + 1)
                ev_c1 = ev_c1 | (es_oh[s] & ekn_oh[s*KN + k]
                                 & (cnt[(s*KN+k)*TC +: TC] == {{(TC-1){1'b0}}, 1'b1}));
        ev_rel = ev_ret & ev_c1 & ~(ds_go & (dsS == es) & (dsK == ek));
        srow = s_kn(ksof_v, dsS);
        ds_ksv = srow[dsK];
        ds_ks = ds_ksv ? k_ksw(s_kks(ksof, dsS), dsK) : s_ksw(ksfree, dsS);

        // ---------------- partition unit: one filling step of SM pcur
        fr0 = {1'b0, LIM_REG} - {1'b0, pacc[0*UW +: UW]};
        fr1 = {1'b0, LIM_SL}  - {1'b0, pacc[1*UW +: UW]};
        fr2 = {1'b0, LIM_W}   - {1'b0, pacc[2*UW +: UW]};
        fr3 = {1'b0, LIM_TB}  - {1'b0, pacc[3*UW +: UW]};
        pu_v = 1'b0;
        pu_k = {KW{1'b0}};
        pg_g = pgot;
        pr_n = prun;
        ps_n = psrv;
        pkm = s_kn(kmT, pcur);
        for (s = 0; s < NSM; s = s + 1)
            pabove[s] = (s[SMW-1:0] > pcur);
        // QOS filling rule (spec "QoS"): candidates also need allowed(k, pcur) = kqos[k] |
        // rank(k) == owner(pcur), owner(s) = floor(s * nq / NSM), compared without a divider as
        // rank * NSM <= s * nq < (rank + 1) * NSM; the key is the warp count pc[k] * kn(k)
        pu_qos = (cfg_policy == P_QOS);
        pnq = {(KW+1){1'b0}};
        for (k = 0; k < KN; k = k + 1)
            pnq = pnq + {{KW{1'b0}}, kv[k] & ~kqos[k]};
        ow_s = {OWW{1'b0}}; ow_s[SMW-1:0] = pcur;
        ow_n = {OWW{1'b0}}; ow_n[KW:0] = pnq;
        ow_s = ow_s * ow_n;
        ow_s1 = ow_s + ow_n;                                    // (pcur + 1) * nq, for lat
        prank = {(KW+1){1'b0}};
        for (k = 0; k < KN; k = k + 1) begin
            c0 = pc[k*TC +: TC];
            ow_lo = {OWW{1'b0}}; ow_lo[KW:0] = prank;
            ow_lo = ow_lo * NSMO;
            ow_hi = ow_lo + NSMO;
            pal = kqos[k] | ((ow_lo <= ow_s) & (ow_s < ow_hi));
            // lat (last chance): allowed on an SM after pcur (pabove is 0 at SM NSM-1); under QOS
            // a non-QoS kernel also needs rank(k) == owner(pcur + 1), which for a candidate (pal:
            // rank * NSM <= pcur * nq) is (pcur + 1) * nq < (rank + 1) * NSM; lat of a
            // non-candidate is not read
            plt = (|(kmask[k*NSM +: NSM] & pabove)) & (~pu_qos | kqos[k] | (ow_s1 < ow_hi));
            prank = prank + {{KW{1'b0}}, kv[k] & ~kqos[k]};
            // pc[k] * d_x(k) <= pacc_x <= LIM_x: exact in UW bits
            ua = {UW{1'b0}}; ua[TC-1:0] = c0;
            v0 = share(ua * dk[(k*4+0)*UW +: UW], ua * dk[(k*4+1)*UW +: UW],
                       ua * dk[(k*4+2)*UW +: UW], ua);
            pwk = {{NW{1'b0}}, c0} * {{TC{1'b0}}, kn[k*NW +: NW]};   // exact warp count
            pkv = {KYW{1'b0}};
            if (pu_qos) pkv[TC+NW-1:0] = pwk;
            else        pkv[SHW-1:0] = v0;
            f = kv[k] & pkm[k] & (~pu_qos | pal)
                & ~fr0[UW] & ({1'b0, dk[(k*4+0)*UW +: UW]} <= fr0)
                & ~fr1[UW] & ({1'b0, dk[(k*4+1)*UW +: UW]} <= fr1)
                & ~fr2[UW] & ({1'b0, dk[(k*4+2)*UW +: UW]} <= fr2)
                & ~fr3[UW] & ({1'b0, dk[(k*4+3)*UW +: UW]} <= fr3)
                & ((c0 != {TC{1'b0}}) | ((pcnt_ks < KSP) & (~cfg_max2 | ((pcnt_ks >> 1) == {PKW{1'b0}}))));
            // lowest share (QOS: warp count); equal: pgot 0 first, then the rotation turn (ptop),
            // then lat 0, then the highest index
            // the pick's entry KN-1-k (reversed, so that the tree's lowest-index tie-break is
            // this order's highest index)
            pcand[KN-1-k] = f;
            pkey[(KN-1-k)*(KYW+3) +: KYW+3] = {pkv, pgot[k], ~ptop[k], plt};
            pe_c[k] = f;                                  // drv_pipe = 1: the evaluate cycle's values
            pe_l[k] = f & plt;
            pe_kv[k*KYW +: KYW] = f ? pkv : {KYW{1'b0}};
            if (f) ps_n[k] = 1'b1;
            if (c0 != {TC{1'b0}}) begin
                pg_g[k] = 1'b1;
                pr_n[k] = 1'b1;
            end
        end
        // lowest key {share (QOS: warp count), pgot, ~ptop, lat}; equal keys: the highest index
        {pu_v, pu_r} = min_pkey(pcand, pkey);
        pu_k = LASTK[KW-1:0] - pu_r;
        // end of SM NSM-1 (spec "Rotation"): the starved kernels of the run, and the turn = the
        // first of them at or after prr, cyclically
        pstv = kv & ((PIPE != 0) ? psrv : ps_n) & ~pr_n;   // drv_pipe = 1: psrv has the step's candidates
        for (k = 0; k < KN; k = k + 1)
            pt_hi[k] = pstv[k] & (k[KW-1:0] >= prr);
        pt_sel = (|pt_hi) ? pt_hi : pstv;
        pt_k = {KW{1'b0}};
        for (k = KN - 1; k >= 0; k = k - 1)
            if (pt_sel[k]) pt_k = k[KW-1:0];
        pt_1h = {KN{1'b0}};
        for (k = 0; k < KN; k = k + 1)
            if (pt_k == k[KW-1:0]) pt_1h[k] = |pstv;
        prr_n = (pt_k == LASTK[KW-1:0]) ? {KW{1'b0}} : pt_k + {{(KW-1){1'b0}}, 1'b1};
        // end of an SM: wrap (clear) once every kernel in use has a partition on an SM of this run
        pg_n = ((pg_g & kv) == kv) ? {KN{1'b0}} : pg_g;
        pu_pc = k_tc(pc, pu_k);
        dkp = k_d4(dk, pu_k);
    end

    // ------------------------------------------------------------------ filling step, commit (drv_pipe = 1)
    // The pick from the evaluate cycle's registers alone (spec "Partitions": the order (key, pgot,
    // ~ptop, lat, KN-1-k), lowest first). Up to 16 kernels (PWK) written for depth: one compare per
    // pair of kernels i < j (plt[i][j] = full key of i < full key of j), and kernel a wins iff it is
    // a candidate, below every candidate of a higher index (strictly) and not above any of a lower
    // index (ties go to the higher index): one-hot, the scan's result. Beyond 16 kernels the tree
    // min_pkey over the kernels in reverse order (as drv_pipe = 0), its result decoded one-hot. The
    // pick's pc, d(k) and slot bit are AND-OR selects.
    generate
        if (PWK) begin : g_pf
            reg [KN*KN-1:0]   pklt;      // [i*KN + j], i < j
            reg [KYW+2:0]     fa, fb;
            integer a, b;
            always @(*) begin
                pklt = {KN*KN{1'b0}};
                for (a = 0; a < KN; a = a + 1)
                    for (b = a + 1; b < KN; b = b + 1) begin
                        fa = {pkv_r[a*KYW +: KYW], pgot[a], ~ptop[a], plat_r[a]};
                        fb = {pkv_r[b*KYW +: KYW], pgot[b], ~ptop[b], plat_r[b]};
                        pklt[a*KN + b] = (fa < fb);
                    end
                pw = pcand_r;
                for (a = 0; a < KN; a = a + 1)
                    for (b = 0; b < KN; b = b + 1)
                        if (b < a) pw[a] = pw[a] & (~pcand_r[b] | ~pklt[b*KN + a]);
                        else if (b > a) pw[a] = pw[a] & (~pcand_r[b] | pklt[a*KN + b]);
            end
        end else if (PIPE != 0) begin : g_pft
            reg [KN-1:0]         rc;        // the candidates in reverse order: entry KN-1-k = kernel k
            reg [KN*(KYW+3)-1:0] rkey;
            reg                  tv;
            reg [KW-1:0]         tr;
            integer a;
            always @(*) begin
                for (a = 0; a < KN; a = a + 1) begin
                    rc[KN-1-a] = pcand_r[a];
                    rkey[(KN-1-a)*(KYW+3) +: KYW+3] = {pkv_r[a*KYW +: KYW], pgot[a], ~ptop[a], plat_r[a]};
                end
                {tv, tr} = min_pkey(rc, rkey);
                for (a = 0; a < KN; a = a + 1)
                    pw[a] = tv & (tr == LASTK[KW-1:0] - a[KW-1:0]);
            end
        end
        if (PIPE != 0) begin : g_pfs
            // pacc + d(k) for every kernel k from the registers, beside the pick; the pick selects
            // one (AND-OR by the one-hot pw): the adders are off the pick's path
            wire [KN*4*UW-1:0] pacc_k;   // row k: pacc + d(k)
            for (gk = 0; gk < KN; gk = gk + 1) begin : g_pacck
                for (gy = 0; gy < 4; gy = gy + 1) begin : g_paccy
                    assign pacc_k[(gk*4+gy)*UW +: UW] = pacc[gy*UW +: UW] + dk[(gk*4+gy)*UW +: UW];
                end
            end
            reg [TC-1:0]      pcw;
            integer a;
            always @(*) begin
                pw_v = |pw;
                pw_new = 1'b0;
                pw_acc = {4*UW{1'b0}};
                for (a = 0; a < KN; a = a + 1) begin
                    pcw = pc[a*TC +: TC];
                    pw_new = pw_new | (pw[a] & (pcw == {TC{1'b0}}));
                    pw_acc = pw_acc | (pacc_k[a*4*UW +: 4*UW] & {4*UW{pw[a]}});
                end
            end
        end else begin : g_pf0
            always @(*) begin
                pw = {KN{1'b0}}; pw_v = 1'b0; pw_new = 1'b0; pw_acc = {4*UW{1'b0}};
            end
        end
    endgenerate

    // ------------------------------------------------------------------ stage S2 (drv_pipe = 1)
    // The choice ch() from the S1 registers alone, written for depth: every compare of two shares
    // runs in parallel (one per pair of kernels, one per pair of SMs), the lowest-key choices are
    // one-hot AND-OR terms of those compares (an entry wins iff it beats every other valid entry:
    // a strictly lower key than every lower index, a lower or equal key than every higher index,
    // which is the tree's and the scan's result), and the SM of every kernel is chosen in parallel
    // with the kernel (per-kernel rows, then a select by the chosen kernel). The same function as
    // the tree form in the decision block above, which drv_pipe = 0 uses, and drv_pipe = 1 beyond
    // 16 kernels (PWK = 0: KN(KN-1)/2 kernel compares and KN x NSM^2 SM terms cost more there).
    generate
        if (PWK) begin : g_s2
            reg [KN*KN-1:0]   kle;     // [i*KN + j], i < j: rK(i) <= rK(j)
            reg [NSM*NSM-1:0] sle;     // [a*NSM + b], a < b: rSM(a) <= rSM(b) (1 when the policy has no SM key)
            reg [KN-1:0]      kvo, kvp, kwo, kwp, kwf, kcf, kw;
            reg [KN*NSM-1:0]  row, sw;  // per kernel: its SM candidates, and the one-hot winner
            reg [KN-1:0]      kfo, kok;  // per kernel: an SM found, and (SMK_OD) K fits on it
            reg [NSM-1:0]     swin, eh, rh;
            reg               skey, isod, ispp, evok, rvok, bt;
            reg [2:0]         r_kind;
            reg [SMW-1:0]     r_s;
            reg [KW-1:0]      r_k;
            integer a, b, q;
            always @(*) begin
                isod = (s1_pol == P_SMK_OD);
                ispp = (s1_pol == P_SMK_P) | (s1_pol == P_QOS);
                skey = (s1_pol == P_SPART) | isod | ispp;   // FCFS (and 5..7): the lowest SM
                kle = {KN*KN{1'b0}};
                for (a = 0; a < KN; a = a + 1)
                    for (b = a + 1; b < KN; b = b + 1)
                        kle[a*KN + b] = (s1_rk[a*SHW +: SHW] <= s1_rk[b*SHW +: SHW]);
                sle = {NSM*NSM{1'b0}};
                for (a = 0; a < NSM; a = a + 1)
                    for (b = a + 1; b < NSM; b = b + 1)
                        sle[a*NSM + b] = ~skey | (s1_rsm[a*SHW +: SHW] <= s1_rsm[b*SHW +: SHW]);
                // the kernel: SMK_OD the lowest rK of the eligible kernels (kvo), SMK_P / QOS of
                // those that fit somewhere (kvp), FCFS / SPART the oldest of those (kcf)
                kvo = s1_elig;
                kvp = s1_elig & s1_fitany;
                for (a = 0; a < KN; a = a + 1) begin
                    kwo[a] = kvo[a];
                    kwp[a] = kvp[a];
                    for (b = 0; b < KN; b = b + 1) begin
                        if (b < a) bt = ~kle[b*KN + a];       // rK(a) < rK(b)
                        else if (b > a) bt = kle[a*KN + b];   // rK(a) <= rK(b)
                        else bt = 1'b1;
                        kwo[a] = kwo[a] & (~kvo[b] | bt);
                        kwp[a] = kwp[a] & (~kvp[b] | bt);
                    end
                    kcf[a] = kvp[a] & ((s1_kold[a*KN +: KN] & kvp) == {KN{1'b0}});
                end
                for (a = 0; a < KN; a = a + 1) begin   // the lowest index among kcf
                    kwf[a] = kcf[a];
                    for (b = 0; b < a; b = b + 1) kwf[a] = kwf[a] & ~kcf[b];
                end
                kw = isod ? kwo : ispp ? kwp : kwf;
                // per kernel: its SM (SMK_OD the lowest rSM of its mask, the others of the SMs
                // where it fits; FCFS the lowest such SM)
                for (q = 0; q < KN; q = q + 1) begin
                    for (a = 0; a < NSM; a = a + 1)
                        row[q*NSM + a] = isod ? s1_kmask[q*NSM + a] : s1_fits[a*KN + q];
                    kfo[q] = |row[q*NSM +: NSM];
                    kok[q] = 1'b0;
                    for (a = 0; a < NSM; a = a + 1) begin
                        sw[q*NSM + a] = row[q*NSM + a];
                        for (b = 0; b < NSM; b = b + 1) begin
                            if (b < a) bt = ~sle[b*NSM + a];
                            else if (b > a) bt = sle[a*NSM + b];
                            else bt = 1'b1;
                            sw[q*NSM + a] = sw[q*NSM + a] & (~row[q*NSM + b] | bt);
                        end
                        kok[q] = kok[q] | (sw[q*NSM + a] & s1_fits[a*KN + q]);
                    end
                end
                swin = {NSM{1'b0}};
                for (q = 0; q < KN; q = q + 1)
                    swin = swin | (sw[q*NSM +: NSM] & {NSM{kw[q]}});
                // decisions 1 and 2: the lowest candidate SM
                eh = s1_ec & ~(s1_ec - {{(NSM-1){1'b0}}, 1'b1});
                rh = s1_rc & ~(s1_rc - {{(NSM-1){1'b0}}, 1'b1});
                evok = (s1_pol == P_SPART || ispp) && (!s1_pb || s1_psm) && s1_ec != {NSM{1'b0}}
                       && (!s1_evsave || s1_qfree);
                rvok = !s1_pb && s1_rc != {NSM{1'b0}};
                r_kind = CH_NONE; r_s = {SMW{1'b0}}; r_k = {KW{1'b0}};
                if (evok) begin
                    r_kind = CH_EVICT;
                    for (a = 0; a < NSM; a = a + 1) if (eh[a]) r_s = r_s | a[SMW-1:0];
                end else if (rvok) begin
                    r_kind = CH_RESV;
                    for (a = 0; a < NSM; a = a + 1) if (rh[a]) r_s = r_s | a[SMW-1:0];
                end else if (s1_plan) begin
                    r_kind = CH_PLAN;
                    r_s = s1_plansm;
                    r_k = s1_plankc;
                end else if ((|kw) && (|(kfo & kw))) begin
                    // a kernel and its SM (SMK_P, QOS, FCFS, SPART: it fits there; SMK_OD: the SM
                    // of its mask, a dispatch if it fits, else a miss if ~plan_v & ~pb)
                    if (!isod || (|(kok & kw)) || (!s1_planv && !s1_pb)) begin
                        r_kind = (!isod || (|(kok & kw))) ? CH_DISP : CH_MISS;
                        for (a = 0; a < NSM; a = a + 1) if (swin[a]) r_s = r_s | a[SMW-1:0];
                        for (q = 0; q < KN; q = q + 1) if (kw[q]) r_k = r_k | q[KW-1:0];
                    end
                end
            end
            assign pp_kind = r_kind;
            assign pp_s = r_s;
            assign pp_k = r_k;
        end else begin : g_s2n
            assign pp_kind = CH_NONE;
            assign pp_s = {SMW{1'b0}};
            assign pp_k = {KW{1'b0}};
        end
    endgenerate

    // ------------------------------------------------------------------ outputs to the SM tops
    // set_mask: the kn(dsK) lowest-numbered free warps of SM dsS, computed once, for the dispatch
    // SM: a warp is taken iff it is free and at most kn(dsK) free warps are at or below it, from
    // prefix counts of ceil(log2(W)) adder levels (docs/sm_driver.md "Implementation notes").
    wire [W-1:0]    ds_free = ~s_w(wused, dsS);
    wire [W*NW-1:0] ds_pfx = pfxw(ds_free);   // [i*NW +: NW]: free warps among 0..i
    wire [W-1:0]    ds_mask;
    genvar gw;
    generate
        for (gw = 0; gw < W; gw = gw + 1) begin : g_wsel
            assign ds_mask[gw] = ds_free[gw] & (ds_pfx[gw*NW +: NW] <= ds_n);
        end
    endgenerate
    integer o;
    always @(*) begin
        set_v = {NSM{1'b0}}; set_tb = {NSM*TBS_W{1'b0}}; set_mask = {NSM*W{1'b0}};
        set_ks = {NSM*KS_W{1'b0}}; set_nreg = {NSM*REGN_W{1'b0}}; set_smem = {NSM*SMLN_W{1'b0}};
        set_go = {NSM{1'b0}}; set_id = {NSM*GW{1'b0}};
        cmd_v = {NSM{1'b0}}; cmd_op = {NSM*2{1'b0}}; cmd_tb = {NSM*TBS_W{1'b0}};
        cmd_ptr = {NSM*PW{1'b0}}; cmd_idem = {NSM{1'b0}};
        for (o = 0; o < NSM; o = o + 1) begin
            if (ds_go && dsS == o[SMW-1:0]) begin
                set_v[o] = 1'b1;
                set_tb[o*TBS_W +: TBS_W] = ds_t;
                set_mask[o*W +: W] = ds_mask;
                set_ks[o*KS_W +: KS_W] = ds_ks;
                set_nreg[o*REGN_W +: REGN_W] = kr[dsK*REGN_W +: REGN_W];
                set_smem[o*SMLN_W +: SMLN_W] = km[dsK*SMLN_W +: SMLN_W];
                set_go[o] = ~ds_rest;
                set_id[o*GW +: GW] = ds_id;          // knext[K] (new), qid[i] (RERUN, RESTORE)
            end
            if (dc_cmd && dc_s == o[SMW-1:0]) begin
                cmd_v[o] = 1'b1;
                cmd_op[o*2 +: 2] = dc_op;
                cmd_tb[o*TBS_W +: TBS_W] = dc_t;
                // the pointer of the command's PTBQ entry (RESTORE, SAVE, DROP), 0 for DRAIN;
                // cmd_idem = kidem of the command's kernel (every op)
                cmd_ptr[o*PW +: PW] = ds_rest ? qptr(ds_qi) : dc_qalloc ? qptr(qfree) : {PW{1'b0}};
                cmd_idem[o] = ds_rest ? kidem[dsK] : x_idem;   // = kidem[dc_k]
            end
        end
    end

    // ------------------------------------------------------------------ range checks of ids
    // (only when KN or NSM is not a power of two; spelled out per case: no constant compares)
    wire rq_k_ok, rq_sm_ok, lk_k_ok, lk_s_ok, rqv_ok;
    generate
        if (KN == (1 << KW)) begin : g_rqkall
            assign rq_k_ok = 1'b1;
            assign lk_k_ok = 1'b1;
            assign rqv_ok = 1'b1;
        end else begin : g_rqkcmp
            localparam [KW-1:0] KNR = KN;
            assign rq_k_ok = (rq_k < KNR);
            assign lk_k_ok = (lk_k < KNR);
            assign rqv_ok = (rq_c[KW-1:0] < KNR);
        end
        if (NSM == (1 << SMW)) begin : g_rqsall
            assign rq_sm_ok = 1'b1;
            assign lk_s_ok = 1'b1;
        end else begin : g_rqscmp
            localparam [SMW-1:0] NSMR = NSM;
            assign rq_sm_ok = (rq_sm < NSMR);
            assign lk_s_ok = (lk_s < NSMR);
        end
    endgenerate

    // ------------------------------------------------------------------ lookup port (spec "QoS")
    // combinational reads of the state; out-of-range lk_s / lk_k read 0
    reg [KN-1:0] lk_row;
    always @(*) begin
        lk_cnt = {TC{1'b0}}; lk_part = {TC{1'b0}}; lk_ksv = 1'b0; lk_ks = {KS_W{1'b0}};
        lk_row = s_kn(ksof_v, lk_s);
        if (lk_s_ok && lk_k_ok) begin
            lk_cnt = k_tc(s_ktc(cnt, lk_s), lk_k);
            lk_part = k_tc(s_ktc(part, lk_s), lk_k);
            lk_ksv = lk_row[lk_k];
            lk_ks = k_ksw(s_kks(ksof, lk_s), lk_k);   // 0 when ksof_v is 0
        end
    end

    // ------------------------------------------------------------------ request unit (spec "QoS")
    // One step per cycle from the registered state; writes only part[rq_s][*] (the partition unit
    // is idle whenever rq_st != IDLE) and its own state.
    assign rq_rdy = (rq_st == RQ_IDLE) & ~pact & ~pdirty & ~(cfg_qctl[QC_PGPU] & (|rq_pend));
    reg            rq_acc;                 // IDLE: a valid request is accepted (latch, go to SUM)
    reg            rq_fin;                 // ack this cycle (grant or refusal)
    reg [1:0]      rq_fst;
    reg [KW-1:0]   rq_fkv;
    reg [TC-1:0]   rq_fn;
    reg            rq_sumend, rq_gfree, rq_gvic, rq_step, rq_next;
    reg [4*UW-1:0] rq_acc_n;               // SUM: acc + part[rq_s][j] * d(j)
    reg [NPW-1:0]  rq_npk_n;
    reg [TC-1:0]   rq_pj, rq_pkk, rq_pv;
    reg [KW-1:0]   rq_cv;                  // SCAN candidate (v)
    reg            rq_fit, rq_ksok;
    reg [UW-1:0]   rq_ua;
    reg [NCW-1:0]  rq_npkx;
    reg [NSM-1:0]  rq_clr;                 // rq_pend clear condition, per SM
    reg [KW-1:0]   rq_pkx;                 // rq_pk[x]
    reg [KN*TC-1:0] rq_prow;               // part[rq_s]
    reg [4*UW-1:0] rq_dj, rq_dv;           // d(rq_j), d(v)
    reg [NSM-1:0]  rq_km;                  // kmask[rq_k] (the port)
    integer        x;
    always @(*) begin
        rq_acc = 1'b0; rq_fin = 1'b0; rq_fst = 2'd0; rq_fkv = {KW{1'b0}}; rq_fn = {TC{1'b0}};
        rq_sumend = 1'b0; rq_gfree = 1'b0; rq_gvic = 1'b0; rq_step = 1'b0; rq_next = 1'b0;
        // SUM addend of kernel j = rq_j (rq_j < KN in SUM)
        rq_prow = s_ktc(part, rq_s);
        rq_dj = k_d4(dk, rq_j[KW-1:0]);
        rq_pj = k_tc(rq_prow, rq_j[KW-1:0]);
        rq_ua = {UW{1'b0}}; rq_ua[TC-1:0] = rq_pj;
        for (x = 0; x < 4; x = x + 1)
            rq_acc_n[x*UW +: UW] = acc[x*UW +: UW] + rq_ua * rq_dj[x*UW +: UW];
        rq_npk_n = rq_npk + {{(NPW-1){1'b0}}, rq_pj != {TC{1'b0}}};
        // SCAN: candidate v = rq_c[KW-1:0], pass P = rq_c[KW]
        rq_cv = rq_c[KW-1:0];
        rq_pkk = k_tc(rq_prow, rq_kr);
        rq_pv = rqv_ok ? k_tc(rq_prow, rq_cv) : {TC{1'b0}};
        rq_dv = k_d4(dk, rq_cv);
        rq_km = k_nsm(kmask, rq_k);
        rq_npkx = {NCW{1'b0}}; rq_npkx[NPW-1:0] = rq_npk;
        rq_ksok = (rq_pkk != {TC{1'b0}}) | ((rq_npkx < KSN) & (~cfg_max2 | ((rq_npkx >> 1) == {NCW{1'b0}})))
                | ((rq_q != {TC{1'b0}}) & (rq_q == rq_pv));
        rq_fit = rq_ksok & (&rq_wok);
        case (rq_st)
            RQ_IDLE: if (rq_v && rq_rdy) begin
                if (!rq_k_ok || !rq_sm_ok || !kv[rq_k] || !rq_km[rq_sm] || !hwork[rq_k] || rq_pend[rq_sm]) begin
                    rq_fin = 1'b1;
                    rq_fst = ACK_REFUSED;
                end else
                    rq_acc = 1'b1;
            end
            RQ_SUM: rq_sumend = (rq_j[KW-1:0] == LASTK[KW-1:0]);
            RQ_SCAN: begin
                if (rq_fit && rq_q == {TC{1'b0}}) begin
                    rq_gfree = 1'b1;
                    rq_fin = 1'b1;
                    rq_fst = ACK_FREE;
                end else if (rq_fit) begin
                    rq_gvic = 1'b1;
                    rq_fin = 1'b1;
                    rq_fst = ACK_VICTIM;
                    rq_fkv = rq_cv;
                    rq_fn = rq_q;
                end else if (rq_cv != rq_kr && rqv_ok && rq_pv > rq_q
                             && (rq_c[KW] ? kqos[rq_cv] && ({1'b0, rq_q} + {{TC{1'b0}}, 1'b1})
                                                           <= {1'b0, k_tc(rq_g, rq_cv)}
                                          : !kqos[rq_cv]))
                    rq_step = 1'b1;
                else if (rq_c == RQ_LAST) begin
                    rq_fin = 1'b1;
                    rq_fst = ACK_REFUSED;
                end else
                    rq_next = 1'b1;
            end
            default: ;   // 3: not reachable from reset; stays
        endcase
        for (x = 0; x < NSM; x = x + 1) begin
            rq_pkx = rq_pk[x*KW +: KW];
            rq_clr[x] = (cfg_policy != P_QOS)
                      | ((k_tc(cnt[x*KN*TC +: KN*TC], rq_pkx) <= k_tc(part[x*KN*TC +: KN*TC], rq_pkx))
                         & ~(cfg_qctl[QC_PGPU] & pb));
        end
    end

    // ------------------------------------------------------------------ counters (drv_pipe = 1)
    // The usage counters and cnt with and without this cycle's set-up, computed beside the
    // execution's re-check; the clock edge selects by ds_go (drv_pipe = 0 adds the deltas)
    wire [NSM*4*UW-1:0]  u_dec, u_inc;
    wire [KN*4*UW-1:0]   U_dec, U_inc;
    wire [NSM*KN*TC-1:0] cnt_dec, cnt_inc;
    // The event's delta is selected after the sums (each SM's own candidate delta dkn, then its
    // event bit), never before them: the adders start from registers and dkn. The sums are kept
    // nets, selected by AND-OR (no mux): synthesis (Yosys share) would otherwise merge two
    // sums used under exclusive selects into one adder behind an operand mux of the late select.
    generate
        for (gn = 0; gn < NSM; gn = gn + 1) begin : g_ucnt
            wire ge = ev_ret & es_oh[gn];                  // this SM is the event's (returns a TB)
            for (gy = 0; gy < 4; gy = gy + 1) begin : g_ux
                wire [UW-1:0] uo = u[(gn*4+gy)*UW +: UW];
                wire [UW-1:0] de = dkn[(gn*4+gy)*UW +: UW];
                // the event alone (uo - de), the set-up alone (uo + d), both (u_p - de): kept prefix
                // adders, the late de entering each at its last adder
                wire [UW-1:0] u_m, u_p, u_pm;
                `SMK_SKL_ADD(g_um, UW, uo, ~de, 1'b1, u_m)
                `SMK_SKL_ADD(g_up, UW, uo, dkds[gy*UW +: UW], 1'b0, u_p)
                `SMK_SKL_ADD(g_upm, UW, u_p, ~de, 1'b1, u_pm)
                assign u_dec[(gn*4+gy)*UW +: UW] = (u_m & {UW{ge}}) | (uo & {UW{~ge}});
                assign u_inc[(gn*4+gy)*UW +: UW] = (u_pm & {UW{ge}}) | (u_p & {UW{~ge}});
            end
            for (gm = 0; gm < KN; gm = gm + 1) begin : g_cx
                wire [TC-1:0] co = cnt[(gn*KN+gm)*TC +: TC];
                wire gc = ge & ekn_oh[gn*KN + gm];
                (* keep *) wire [TC-1:0] c_m = co - {{(TC-1){1'b0}}, 1'b1};
                (* keep *) wire [TC-1:0] c_p = co + {{(TC-1){1'b0}}, 1'b1};
                assign cnt_dec[(gn*KN+gm)*TC +: TC] = (c_m & {TC{gc}}) | (co & {TC{~gc}});
                assign cnt_inc[(gn*KN+gm)*TC +: TC] = (co & {TC{gc}}) | (c_p & {TC{~gc}});
            end
        end
        for (gm = 0; gm < KN; gm = gm + 1) begin : g_Ucnt
            wire ge = ev_ret & ek_oh[gm];
            for (gy = 0; gy < 4; gy = gy + 1) begin : g_Ux
                wire [UW-1:0] Uo = U[(gm*4+gy)*UW +: UW];
                (* keep *) wire [UW-1:0] U_m = Uo - dk[(gm*4+gy)*UW +: UW];
                (* keep *) wire [UW-1:0] U_p = Uo + dk[(gm*4+gy)*UW +: UW];
                assign U_dec[(gm*4+gy)*UW +: UW] = (U_m & {UW{ge}}) | (Uo & {UW{~ge}});
                assign U_inc[(gm*4+gy)*UW +: UW] = (Uo & {UW{ge}}) | (U_p & {UW{~ge}});
            end
        end
    endgenerate

    // ------------------------------------------------------------------ host port checks
    wire [KDW-1:0] kl_prod = {{(KDW-NW){1'b0}}, kl_n} * {{(KDW-REGN_W){1'b0}}, kl_r};
    wire [KDW+UW-1:0] kl_prod_x = {{UW{1'b0}}, kl_prod};
    wire [KDW+UW-1:0] lim_reg_x = {{KDW{1'b0}}, LIM_REG};
    wire [SMLN_W+UW-1:0] kl_m_x = {{UW{1'b0}}, kl_m};
    wire [SMLN_W+UW-1:0] lim_sl_x = {{SMLN_W{1'b0}}, LIM_SL};
    wire kl_r_ok;
    generate
        if (`SMK_MAX_REGS >= (1 << REGN_W) - 1) begin : g_rall
            assign kl_r_ok = 1'b1;                 // every REGN_W-bit value is <= RMAX
        end else begin : g_rcmp
            assign kl_r_ok = (kl_r <= RMAXC);
        end
    endgenerate
    // kernel ids >= KN (only when KN is not a power of two): a launch is refused, a mask change
    // writes nothing (km_v still sets pdirty)
    wire kl_k_ok, km_k_ok;
    generate
        if (KN == (1 << KW)) begin : g_kall
            assign kl_k_ok = 1'b1;
            assign km_k_ok = 1'b1;
        end else begin : g_kcmp
            localparam [KW-1:0] KNC = KN;
            assign kl_k_ok = (kl_k < KNC);
            assign km_k_ok = (km_k < KNC);
        end
    endgenerate
    // KEEP (spec "QoS controls"): a kernel finishing does not set pdirty, nor does an accepted
    // relaunch (kl_keep) into an entry holding partition units (registered part) on some SM
    wire qc_keep = (cfg_policy == P_QOS) & cfg_qctl[QC_KEEP];
    reg  [NSM-1:0] kl_held;
    integer hs;
    always @(*)
        for (hs = 0; hs < NSM; hs = hs + 1)
            kl_held[hs] = (k_tc(part[hs*KN*TC +: KN*TC], kl_k) != {TC{1'b0}});
    wire kl_keeps = qc_keep & kl_keep & (|kl_held);
    wire kl_acc = kl_v & kl_k_ok & ~kv[kl_k] & (kl_grid != {GW{1'b0}}) & (kl_mask != {NSM{1'b0}})
                & (kl_n != {NW{1'b0}}) & (kl_n <= WN) & kl_r_ok
                & (kl_prod_x <= lim_reg_x) & (kl_m_x <= lim_sl_x);

    // ------------------------------------------------------------------ clock edge
    // Every write at a variable id is a loop over the id's values with a per-element enable (see the
    // selects above); the statement order, and so which write wins, is the spec's.
    integer n, m, y;
    always @(posedge clk) begin
        if (rst) begin
            /* verilator lint_off WIDTHCONCAT */ // reset replications of whole state vectors (over 8K bits on large configurations) are meant
            kv <= {KN{1'b0}}; kold <= {KN*KN{1'b0}}; kn <= {KN*NW{1'b0}}; kr <= {KN*REGN_W{1'b0}};
            km <= {KN*SMLN_W{1'b0}}; kdreg <= {KN*KDW{1'b0}}; kgrid <= {KN*GW{1'b0}};
            knext <= {KN*GW{1'b0}}; kndone <= {KN*GW{1'b0}}; kqos <= {KN{1'b0}};
            kidem <= {KN{1'b0}}; kmask <= {KN*NSM{1'b0}}; kadm <= {KN*2{1'b0}};
            klim <= {KN*GW{1'b0}}; U <= {KN*4*UW{1'b0}};
            u <= {NSM*4*UW{1'b0}}; cnt <= {NSM*KN*TC{1'b0}}; part <= {NSM*KN*TC{1'b0}};
            ksv <= {NSM*KS{1'b0}}; ksk <= {NSM*KS*KW{1'b0}};
            sv <= {NSM*T{1'b0}}; sk <= {NSM*T*KW{1'b0}}; for (n = 0; n < NSM*T; n = n + 1) sid[n*GW +: GW] <= {GW{1'b0}};
            spre <= {NSM*T{1'b0}}; sfill <= {NSM*T{1'b0}};
            busy <= {NSM{1'b0}}; bpb <= {NSM{1'b0}}; rl_v <= {NSM{1'b0}};
            rl_op <= {NSM*2{1'b0}}; rl_tb <= {NSM*TBS_W{1'b0}}; rl_st <= {NSM*3{1'b0}};
            dp <= {NSM*T{1'b0}};
            qst <= {PQ*3{1'b0}}; qk <= {PQ*KW{1'b0}}; qid <= {PQ*GW{1'b0}};
            qs <= {PQ*SMW{1'b0}}; qt <= {PQ*TBS_W{1'b0}};
            pb <= 1'b0; plan_v <= 1'b0; plan_kc <= {KW{1'b0}}; plan_kv <= {KW{1'b0}};
            plan_sm <= {SMW{1'b0}}; plan_left <= {TC{1'b0}};
            a1_st <= A1_IDLE; a1_kc <= {KW{1'b0}}; a1_s <= {SMW{1'b0}}; a1_f <= 1'b0; a1_smv <= {SMW{1'b0}};
            a1_best <= {SHW{1'b0}}; a1_kv <= {KW{1'b0}}; a1_q <= {TC{1'b0}}; a1_acc <= {4*AW{1'b0}};
            a1_rk <= {(KN*SHW){1'b0}}; a1_kvm <= {KN{1'b0}}; a1_rv <= {SHW{1'b0}}; a1_rc <= {(SHW+1){1'b0}};
            a1_nouf <= 1'b0; a1_omax <= {(SHW+1){1'b0}}; a1_omin <= {(SHW+1){1'b0}};
            a1_nmax <= {(SHW+1){1'b0}}; a1_nmin <= {(SHW+1){1'b0}}; a1_ok <= 1'b0;
            a1_pw <= {(4*UW){1'b0}}; a1_pcd <= 1'b0;
            kl_rej <= 1'b0; kdone_v <= 1'b0; kdone_k <= {KW{1'b0}};
            pdirty <= 1'b0; pact <= 1'b0; pcur <= {SMW{1'b0}}; pc <= {KN*TC{1'b0}}; pgot <= {KN{1'b0}};
            prun <= {KN{1'b0}}; psrv <= {KN{1'b0}}; ptop <= {KN{1'b0}}; prr <= {KW{1'b0}}; prt <= {PRTW{1'b0}};
            pacc <= {4*UW{1'b0}}; pcnt_ks <= {PKW{1'b0}};
            pph <= 1'b0; pcand_r <= {KN{1'b0}}; plat_r <= {KN{1'b0}}; pkv_r <= {KN*KYW{1'b0}};
            rq_st <= RQ_IDLE; rq_kr <= {KW{1'b0}}; rq_ret_q <= 1'b0; rq_s <= {SMW{1'b0}}; rq_j <= {(KW+1){1'b0}};
            rq_c <= {(KW+1){1'b0}}; rq_q <= {TC{1'b0}}; rq_npk <= {NPW{1'b0}}; rq_pend <= {NSM{1'b0}};
            rq_pk <= {NSM*KW{1'b0}}; rq_g <= {KN*TC{1'b0}}; acc <= {4*UW{1'b0}}; w <= {4*UW{1'b0}};
            rq_ack_v <= 1'b0; rq_ack_st <= 2'd0; rq_ack_kv <= {KW{1'b0}}; rq_ack_n <= {TC{1'b0}};
            dp1_v <= 1'b0; dp2_v <= 1'b0; dp2_kind <= CH_NONE; dp2_s <= {SMW{1'b0}}; dp2_k <= {KW{1'b0}};
            dp2_r <= {NSM{1'b0}};
            s1_pol <= 3'd0; s1_evsave <= 1'b0; s1_psm <= 1'b0; s1_pb <= 1'b0; s1_qfree <= 1'b0;
            s1_plan <= 1'b0; s1_planv <= 1'b0; s1_plansm <= {SMW{1'b0}}; s1_plankc <= {KW{1'b0}};
            s1_ec <= {NSM{1'b0}}; s1_rc <= {NSM{1'b0}}; s1_r <= {NSM{1'b0}};
            s1_elig <= {KN{1'b0}}; s1_fitany <= {KN{1'b0}}; s1_fits <= {NSM*KN{1'b0}};
            s1_rk <= {KN*SHW{1'b0}}; s1_rsm <= {NSM*SHW{1'b0}}; s1_kold <= {KN*KN{1'b0}};
            s1_kmask <= {KN*NSM{1'b0}};
            /* verilator lint_on WIDTHCONCAT */
        end else begin
            // ---------------- latching, busy, slot flags, counters (per SM)
            for (n = 0; n < NSM; n = n + 1) begin
                // SPEC: a response arriving while rl_v is 1 (contract violation) overwrites
                if (rsp_v[n]) begin
                    rl_v[n] <= 1'b1;
                    rl_op[n*2 +: 2] <= rsp_op[n*2 +: 2];
                    rl_tb[n*TBS_W +: TBS_W] <= rsp_tb[n*TBS_W +: TBS_W];
                    rl_st[n*3 +: 3] <= rsp_status[n*3 +: 3];
                end else if (ev_rsp && es == n[SMW-1:0])
                    rl_v[n] <= 1'b0;
                dp[n*T +: T] <= (dp[n*T +: T] & ~((ev_done && es == n[SMW-1:0]) ? et_oh : {T{1'b0}}))
                                | tb_done[n*T +: T];
                // busy / bpb: a response event clears, a command sets (never the same SM)
                if (ev_rsp && es == n[SMW-1:0]) begin
                    busy[n] <= 1'b0;
                    bpb[n] <= 1'b0;
                end
                if (dc_cmd && dc_s == n[SMW-1:0]) begin
                    busy[n] <= 1'b1;
                    bpb[n] <= dc_setpb;
                end
                // drv_pipe = 1: both sums computed beside the execution, ds_go selects at the end
                for (y = 0; y < 4; y = y + 1)
                    if (PIPE != 0)
                        u[(n*4+y)*UW +: UW] <= (ds_go && dsS == n[SMW-1:0]) ? u_inc[(n*4+y)*UW +: UW]
                                                                             : u_dec[(n*4+y)*UW +: UW];
                    else
                        u[(n*4+y)*UW +: UW] <= u[(n*4+y)*UW +: UW]
                            + ((ds_go && dsS == n[SMW-1:0]) ? dkds[y*UW +: UW] : {UW{1'b0}})
                            - ((ev_ret && es == n[SMW-1:0]) ? dke[y*UW +: UW] : {UW{1'b0}});
                for (m = 0; m < KN; m = m + 1)
                    if (PIPE != 0)
                        cnt[(n*KN+m)*TC +: TC] <= (ds_go && dsS == n[SMW-1:0] && dsK == m[KW-1:0])
                            ? cnt_inc[(n*KN+m)*TC +: TC] : cnt_dec[(n*KN+m)*TC +: TC];
                    else
                        cnt[(n*KN+m)*TC +: TC] <= cnt[(n*KN+m)*TC +: TC]
                            + {{(TC-1){1'b0}}, ds_go && dsS == n[SMW-1:0] && dsK == m[KW-1:0]}
                            - {{(TC-1){1'b0}}, ev_ret && es == n[SMW-1:0] && ek == m[KW-1:0]};
            end
            // ---------------- event: slot, kernel slot, PTBQ, kernel completion
            for (n = 0; n < NSM; n = n + 1) begin
                for (y = 0; y < T; y = y + 1)
                    if (es == n[SMW-1:0] && et == y[TBS_W-1:0]) begin
                        if (ev_ret) sv[n*T + y] <= 1'b0;
                        if (ev_rsp) begin
                            spre[n*T + y] <= 1'b0;
                            sfill[n*T + y] <= 1'b0;
                        end
                    end
                // ev_rel: see the decision block (ksof of the kernel on that SM)
                for (y = 0; y < KS; y = y + 1)
                    if (ev_rel && es == n[SMW-1:0] && ev_ks == y[KS_W-1:0]) ksv[n*KS + y] <= 1'b0;
            end
            if (ev_rsp && bpb[es]) pb <= 1'b0;
            for (n = 0; n < PQ; n = n + 1)
                if (ev_qwr && ev_qi == n[PQW-1:0]) qst[n*3 +: 3] <= ev_qnew;
            kdone_v <= ev_kfin;
            if (ev_kfin) kdone_k <= ek;   // kdone_k holds its value when kdone_v is 0
            for (m = 0; m < KN; m = m + 1)
                if (ek == m[KW-1:0]) begin
                    if (ev_done) kndone[m*GW +: GW] <= kndone[m*GW +: GW] + {{(GW-1){1'b0}}, 1'b1};
                    if (ev_kfin) kv[m] <= 1'b0;
                end
            for (m = 0; m < KN; m = m + 1)
                for (y = 0; y < 4; y = y + 1)
                    if (PIPE != 0)
                        U[(m*4+y)*UW +: UW] <= (ds_go && dsK == m[KW-1:0]) ? U_inc[(m*4+y)*UW +: UW]
                                                                          : U_dec[(m*4+y)*UW +: UW];
                    else
                        U[(m*4+y)*UW +: UW] <= U[(m*4+y)*UW +: UW]
                            + ((ds_go && dsK == m[KW-1:0]) ? dk[(m*4+y)*UW +: UW] : {UW{1'b0}})
                            - ((ev_ret && ek == m[KW-1:0]) ? dk[(m*4+y)*UW +: UW] : {UW{1'b0}});
            // ---------------- decision: engine command
            for (n = 0; n < NSM; n = n + 1)
                for (y = 0; y < T; y = y + 1)
                    if (dc_cmd && dc_pre && dc_s == n[SMW-1:0] && dc_t == y[TBS_W-1:0])
                        spre[n*T + y] <= 1'b1;
            if (dc_cmd && dc_setpb) pb <= 1'b1;
            for (n = 0; n < PQ; n = n + 1)
                if (dc_cmd && dc_qalloc && qfree == n[PQW-1:0]) begin
                    qst[n*3 +: 3] <= Q_PEND;
                    qk[n*KW +: KW] <= dc_k;
                    qid[n*GW +: GW] <= dc_id;
                    qs[n*SMW +: SMW] <= dc_s;
                    qt[n*TBS_W +: TBS_W] <= dc_t;
                end
            if (dc_planpre) plan_left <= plan_left - {{(TC-1){1'b0}}, 1'b1};
            if (dc_planend) plan_v <= 1'b0;
            if (dc_pstart) begin
                plan_v <= 1'b1;
                plan_kc <= a1_kc;
                plan_kv <= a1_kv;
                plan_sm <= a1_smv;
                plan_left <= a1_q;
            end
            // ---------------- the Algorithm 1 unit's step
            case (a1_st)
                A1_IDLE: if (a1_go) begin
                    a1_st <= A1_SMV; a1_kc <= ex_dk; a1_s <= {SMW{1'b0}}; a1_f <= 1'b0; a1_best <= {SHW{1'b0}};
                    if (PIPE != 0) begin a1_pw <= a1_w; a1_pcd <= a1_lc; end
                end
                A1_SMV: begin
                    if (a1_upd) begin
                        a1_f <= 1'b1; a1_smv <= a1_s; a1_best <= a1_v;
                    end
                    if (PIPE != 0 && a1_s != LASTSM) begin a1_pw <= a1_w; a1_pcd <= a1_lc; end
                    if (a1_s == LASTSM) begin
                        a1_s <= {SMW{1'b0}};
                        a1_st <= (a1_f | a1_upd) ? A1_KV : A1_IDLE;
                    end else
                        a1_s <= a1_s + {{(SMW-1){1'b0}}, 1'b1};
                end
                A1_KV: if (a1_kvok) begin
                    a1_st <= A1_P; a1_kv <= a1_kvn; a1_q <= {TC{1'b0}}; a1_acc <= {4*AW{1'b0}};
                end else
                    a1_st <= A1_IDLE;
                A1_P: begin
                    a1_q <= a1_qn; a1_acc <= a1_accn;
                    if (a1_pok) a1_st <= (PIPE != 0) ? A1_R1 : A1_RNG;
                    else if (a1_qn >= a1_c1) a1_st <= A1_IDLE;
                end
                A1_R1: begin   // drv_pipe = 1: the shares step 4 reads, registered
                    a1_rk <= rk; a1_kvm <= kv; a1_nouf <= a1_ufok;
                    a1_rv <= a1_ufok ? rkv_new[SHW-1:0] : {SHW{1'b0}};
                    a1_rc <= rkc_new;
                    a1_st <= A1_R2;
                end
                A1_R2: begin
                    a1_omax <= r2_omax; a1_omin <= r2_omin; a1_nmax <= r2_nmax; a1_nmin <= r2_nmin;
                    a1_st <= A1_R3;
                end
                A1_R3: begin
                    a1_ok <= a1_nouf & (|a1_kvm) & ((a1_nmax - a1_nmin) < (a1_omax - a1_omin));
                    a1_st <= A1_RNG;
                end
                default: a1_st <= A1_IDLE;   // RNG (its plan start is decision 5 above)
            endcase
            // ---------------- decision: dispatch (set-up)
            for (n = 0; n < NSM; n = n + 1) begin
                for (y = 0; y < T; y = y + 1)
                    if (ds_go && dsS == n[SMW-1:0] && ds_t == y[TBS_W-1:0]) begin
                        sv[n*T + y] <= 1'b1;
                        spre[n*T + y] <= 1'b0;     // a stale spre of an unanswered command
                        sfill[n*T + y] <= ds_rest;
                        sk[(n*T+y)*KW +: KW] <= dsK;
                        sid[(n*T+y)*GW +: GW] <= ds_id;
                    end
                // a new kernel slot (ds_ks = ksfree[dsS] when ksof_v[dsS][dsK] is 0)
                for (y = 0; y < KS; y = y + 1)
                    if (ds_go && !ds_ksv && dsS == n[SMW-1:0] && ds_ks == y[KS_W-1:0]) begin
                        ksv[n*KS + y] <= 1'b1;
                        ksk[(n*KS+y)*KW +: KW] <= dsK;
                    end
            end
            for (m = 0; m < KN; m = m + 1)
                if (ds_go && ds_new && dsK == m[KW-1:0])
                    knext[m*GW +: GW] <= knext[m*GW +: GW] + {{(GW-1){1'b0}}, 1'b1};
            for (n = 0; n < PQ; n = n + 1)
                if (ds_go && ds_qoh[n]) begin
                    if (ds_rerun) qst[n*3 +: 3] <= Q_FREE;
                    if (ds_rest) begin
                        qst[n*3 +: 3] <= Q_REST;
                        qs[n*SMW +: SMW] <= dsS;
                        qt[n*TBS_W +: TBS_W] <= ds_t;
                    end
                end
            // ---------------- partition unit (and the rotation timer: a start clears it, the end of
            // a run may reload it; it is 0 while pact)
            if (prt != {PRTW{1'b0}}) prt <= prt - PRT1;
            if (pact && PIPE != 0 && !pph) begin
                // drv_pipe = 1, evaluate: the step's candidates, lat and keys; nothing else changes.
                // The commit follows unless the kernel table is written at this edge (then the
                // step is evaluated again on the new table)
                pph <= ~(kl_acc | km_v | ev_kfin);
                pcand_r <= pe_c;
                plat_r <= pe_l;
                pkv_r <= pe_kv;
                psrv <= ps_n;
            end else if (pact) begin
                if (PIPE == 0) psrv <= ps_n;
                pph <= 1'b0;
                if ((PIPE != 0) ? pw_v : pu_v) begin
                    if ((PIPE != 0) ? pw_new : (pu_pc == {TC{1'b0}}))
                        pcnt_ks <= pcnt_ks + {{(PKW-1){1'b0}}, 1'b1};
                    for (m = 0; m < KN; m = m + 1)
                        if ((PIPE != 0) ? pw[m] : (pu_k == m[KW-1:0]))
                            pc[m*TC +: TC] <= pc[m*TC +: TC] + {{(TC-1){1'b0}}, 1'b1};
                    for (y = 0; y < 4; y = y + 1)
                        pacc[y*UW +: UW] <= (PIPE != 0) ? pw_acc[y*UW +: UW] : pacc[y*UW +: UW] + dkp[y*UW +: UW];
                end else begin
                    for (n = 0; n < NSM; n = n + 1)
                        if (pcur == n[SMW-1:0]) part[n*KN*TC +: KN*TC] <= pc;
                    pc <= {KN*TC{1'b0}};
                    pacc <= {4*UW{1'b0}};
                    pcnt_ks <= {PKW{1'b0}};
                    pgot <= pg_n;
                    prun <= pr_n;
                    // SPEC: after SM NSM-1 pcur returns to 0 (not NSM, which may not fit SMW bits)
                    if (pcur == LASTSM) begin
                        pact <= 1'b0;
                        pcur <= {SMW{1'b0}};
                        ptop <= pt_1h;
                        if (|pstv) begin
                            prr <= prr_n;
                            if (cfg_policy == P_SMK_P) prt <= PROTV;
                        end
                    end else
                        pcur <= pcur + {{(SMW-1){1'b0}}, 1'b1};
                end
            end else if (pdirty && rq_st == RQ_IDLE) begin   // spec "QoS": starts only from IDLE
                pact <= 1'b1;
                pdirty <= 1'b0;
                pcur <= {SMW{1'b0}};
                pc <= {KN*TC{1'b0}};
                pacc <= {4*UW{1'b0}};
                pcnt_ks <= {PKW{1'b0}};
                pgot <= {KN{1'b0}};
                prun <= {KN{1'b0}};
                psrv <= {KN{1'b0}};
                prt <= {PRTW{1'b0}};
                pph <= 1'b0;
            end
            // ---------------- request unit (writes part[rq_s][*] only while the partition unit
            // is idle: no write conflict)
            rq_ack_v <= rq_fin;
            rq_ack_st <= rq_fst;
            rq_ack_kv <= rq_fkv;
            rq_ack_n <= rq_fn;
            if (rq_fin) rq_st <= RQ_IDLE;
            if (rq_acc) begin
                rq_kr <= rq_k;
                rq_s <= rq_sm;
                rq_ret_q <= rq_ret;
                rq_g <= rq_give;
                acc <= {4*UW{1'b0}};
                rq_npk <= {NPW{1'b0}};
                rq_j <= {(KW+1){1'b0}};
                rq_st <= RQ_SUM;
            end
            if (rq_st == RQ_SUM) begin
                acc <= rq_acc_n;
                rq_npk <= rq_npk_n;
                rq_j <= rq_j + {{KW{1'b0}}, 1'b1};
                if (rq_sumend) begin
                    w <= rq_acc_n;
                    rq_c <= {rq_ret_q, {KW{1'b0}}};   // a give-back scans pass 1 only
                    rq_q <= {TC{1'b0}};
                    rq_st <= RQ_SCAN;
                end
            end
            for (n = 0; n < NSM; n = n + 1)
                for (m = 0; m < KN; m = m + 1)
                    if (rq_s == n[SMW-1:0]) begin
                        if ((rq_gfree || rq_gvic) && rq_kr == m[KW-1:0])
                            part[(n*KN+m)*TC +: TC] <= rq_pkk + {{(TC-1){1'b0}}, 1'b1};
                        if (rq_gvic && rq_cv == m[KW-1:0])
                            part[(n*KN+m)*TC +: TC] <= rq_pv - rq_q;
                    end
            if (rq_step) begin
                for (y = 0; y < 4; y = y + 1)
                    w[y*UW +: UW] <= w[y*UW +: UW] - rq_dv[y*UW +: UW];
                rq_q <= rq_q + {{(TC-1){1'b0}}, 1'b1};
            end
            if (rq_next) begin
                rq_c <= rq_c + {{KW{1'b0}}, 1'b1};
                rq_q <= {TC{1'b0}};
                w <= acc;
            end
            // rq_pend[x]: cleared by rq_clr[x], set by a VICTIM grant on SM rq_s (the set wins)
            for (n = 0; n < NSM; n = n + 1)
                if (rq_gvic && rq_s == n[SMW-1:0]) begin
                    rq_pend[n] <= 1'b1;
                    rq_pk[n*KW +: KW] <= rq_cv;
                end else if (rq_clr[n])
                    rq_pend[n] <= 1'b0;
            // ---------------- decision pipeline (drv_pipe = 1; the registers stay 0 otherwise):
            // S1 <- this cycle's choice inputs, dp2 <- the choice of S1 (the previous cycle's
            // state); an acting execution drops both (spec "Decision pipeline")
            if (PIPE != 0) begin
                s1_pol <= cfg_policy; s1_evsave <= (cfg_evict == OP_SAVE); s1_psm <= qc_psm;
                s1_pb <= pb; s1_qfree <= qfree_v; s1_plan <= cur_plan; s1_planv <= plan_v;
                s1_plansm <= plan_sm; s1_plankc <= plan_kc;
                s1_ec <= cur_ec; s1_rc <= cur_rc; s1_r <= cur_r;
                s1_elig <= elig; s1_fitany <= fit_any; s1_fits <= fits; s1_rk <= rk; s1_rsm <= rsm;
                s1_kold <= kold; s1_kmask <= kmask;
                dp1_v <= ~act;
                dp2_v <= dp1_v & ~act & (ch_kind != CH_NONE);
                dp2_kind <= ch_kind; dp2_s <= ch_s; dp2_k <= ch_k; dp2_r <= ch_r;
            end
            // ---------------- host ports (a launch writes only an entry with kv = 0)
            kl_rej <= kl_v & ~kl_acc;
            for (m = 0; m < KN; m = m + 1)
                for (y = 0; y < KN; y = y + 1)
                    if (kl_acc && kl_k == y[KW-1:0]) kold[m*KN + y] <= 1'b0;
            for (m = 0; m < KN; m = m + 1)
                if (kl_acc && kl_k == m[KW-1:0]) begin
                    kv[m] <= 1'b1;
                    kold[m*KN +: KN] <= kv;   // bit m is 0: kv[m] == 0
                    kn[m*NW +: NW] <= kl_n;
                    kr[m*REGN_W +: REGN_W] <= kl_r;
                    km[m*SMLN_W +: SMLN_W] <= kl_m;
                    kdreg[m*KDW +: KDW] <= kl_prod;
                    kgrid[m*GW +: GW] <= kl_grid;
                    knext[m*GW +: GW] <= {GW{1'b0}};
                    kndone[m*GW +: GW] <= {GW{1'b0}};
                    kqos[m] <= kl_qos;
                    kidem[m] <= kl_idem;
                    kmask[m*NSM +: NSM] <= kl_mask;
                    kadm[m*2 +: 2] <= kl_adm;
                    klim[m*GW +: GW] <= kl_lim;
                    U[m*4*UW +: 4*UW] <= {4*UW{1'b0}};
                end
            // SPEC: km_v and a launch of the same entry in one cycle: km_mask wins
            for (m = 0; m < KN; m = m + 1)
                if (km_v && km_k_ok && km_k == m[KW-1:0]) kmask[m*NSM +: NSM] <= km_mask;
            // SPEC: a set of pdirty in the cycle the unit starts wins (one more run follows); the
            // rotation timer's set does not (spec "Rotation")
            if ((kl_acc && !kl_keeps) || km_v || (ev_kfin && !qc_keep) || (prt == PRT1 && !(!pact && pdirty && rq_st == RQ_IDLE)))
                pdirty <= 1'b1;
        end
    end

    // state and inputs the step-1 logic does not read
    wire unused_ok = &{1'b0, set_rej, cmd_full, rsp_ptr, ksfree_v, qt, od_miss,   // od_miss: cover points
                          rc_d[4*UW-1:3*UW], dla[4*UW-1:3*UW], dkc[4*UW-1:3*UW], tpf};   // the re-check's d_tb (1), R1's d_tb(Kc) is read as 1, S1's prefix counts (their lower W - 1 counts)

`ifdef SMK_COVER
    // ------------------------------------------------------------------ cover points
    // One labelled point per case of each numbered rule of docs/sm_driver.md (make coverage with
    // --coverage-user +define+SMK_COVER; docs/verification.md "Coverage"): c_drv_ev_* the event,
    // c_drv_d<N>_* decision N, c_drv_p_* a dispatch per policy, c_drv_h_* the host ports,
    // c_drv_pu_* the partition unit and its rotation, c_drv_rq_* the request unit and rq_pend,
    // c_drv_q_* the QoS controls KEEP and PGPU. Not seen by synthesis or the other builds.
    wire [1:0] cv_rop = s_2(rl_op, es);                   // the event's response
    wire [2:0] cv_rst = s_3(rl_st, es);
    wire       cv_rok = (cv_rst == ST_OK);
    wire       cv_cnt1 = (k_tc(s_ktc(cnt, es), ek) == {{(TC-1){1'b0}}, 1'b1});
    // the partition unit's step acts (drv_pipe = 1: the commit cycle), and picks a kernel
    wire       pf_cstep = (PIPE == 0) | pph;
    wire       pf_cpick = (PIPE != 0) ? pw_v : pu_v;
    // decision 1 issued the command (decision 2 is the DRAIN that sets pb, decision 3 the plan's)
    wire cv_d1 = dc_cmd & dc_pre & ~dc_planpre & ~((dc_op == OP_DRAIN) & dc_setpb);
    wire cv_d4 = ~dc_planend;                              // a dispatch is decision 4's
    wire cv_start = ~pact & pdirty & (rq_st == RQ_IDLE);   // the partition unit starts
    wire cv_rqi = (rq_st == RQ_IDLE) & rq_v & rq_rdy;      // IDLE with a request
    wire [NSM-1:0] cv_pset = rq_gvic ? ({{(NSM-1){1'b0}}, 1'b1} << rq_s) : {NSM{1'b0}};
    // decision 1 finds a slot to evict (before its PTBQ check), and cnt[x][rq_pk[x]] <= part[x][rq_pk[x]]
    // per SM: generate loops of plain assignments (no line points of their own)
    wire [NSM*T-1:0] cv_ev;
    wire [NSM-1:0]   cv_le;
    genvar cv_s, cv_u;
    for (cv_s = 0; cv_s < NSM; cv_s = cv_s + 1) begin : g_cv_sm
        wire [KN-1:0]    row = (cfg_policy == P_SPART) ? ~kmT[cv_s*KN +: KN] : over[cv_s*KN +: KN];
        wire [KW-1:0]    pk = rq_pk[cv_s*KW +: KW];
        wire [KN*TC-1:0] cr = cnt[cv_s*KN*TC +: KN*TC];
        wire [KN*TC-1:0] pr = part[cv_s*KN*TC +: KN*TC];
        assign cv_le[cv_s] = (cr[pk*TC +: TC] <= pr[pk*TC +: TC]);
        for (cv_u = 0; cv_u < T; cv_u = cv_u + 1) begin : g_cv_t
            wire [KW-1:0] sk1 = sk[(cv_s*T+cv_u)*KW +: KW];
            assign cv_ev[cv_s*T + cv_u] = cmd_ok[cv_s] & run[cv_s*T + cv_u] & row[sk1];
        end
    end
    wire cv_evany = |cv_ev;
    // the event: a done; each row of the response table (SAVE, DROP OK and FIN / ERR_EMPTY; DRAIN;
    // RESTORE OK and error); a response clearing pb; a response before a pending done; retire
    // releasing a kernel slot; the slot kept by a dispatch of the same kernel on the SM
    c_drv_ev_done:        cover property (@(posedge clk) !rst && ev_done);
    c_drv_ev_save_ok:     cover property (@(posedge clk) !rst && ev_rsp && cv_rop == OP_SAVE && cv_rok);
    c_drv_ev_save_fin:    cover property (@(posedge clk) !rst && ev_rsp && cv_rop == OP_SAVE && !cv_rok);
    c_drv_ev_drop_ok:     cover property (@(posedge clk) !rst && ev_rsp && cv_rop == OP_DROP && cv_rok);
    c_drv_ev_drop_fin:    cover property (@(posedge clk) !rst && ev_rsp && cv_rop == OP_DROP && !cv_rok);
    c_drv_ev_drain:       cover property (@(posedge clk) !rst && ev_rsp && cv_rop == OP_DRAIN);
    c_drv_ev_restore_ok:  cover property (@(posedge clk) !rst && ev_rsp && cv_rop == OP_RESTORE && cv_rok);
    c_drv_ev_restore_err: cover property (@(posedge clk) !rst && ev_rsp && cv_rop == OP_RESTORE && !cv_rok);
    c_drv_ev_pb_clear:    cover property (@(posedge clk) !rst && ev_rsp && bpb[es]);
    c_drv_ev_rsp_first:   cover property (@(posedge clk) !rst && ev_rsp && (|dp));
    c_drv_ev_ks_release:  cover property (@(posedge clk) !rst && ev_rel);
    c_drv_ev_ks_kept:     cover property (@(posedge clk) !rst && ev_ret && cv_cnt1 && ds_go && dsS == es && dsK == ek);
    // decision 1 (eviction): a SAVE; a DRAIN; SPART's mask; a partition's excess; a SAVE eviction
    // not applying for lack of a FREE PTBQ entry
    c_drv_d1_save:        cover property (@(posedge clk) !rst && cv_d1 && dc_op == OP_SAVE);
    c_drv_d1_drain:       cover property (@(posedge clk) !rst && cv_d1 && dc_op == OP_DRAIN);
    c_drv_d1_mask:        cover property (@(posedge clk) !rst && cv_d1 && cfg_policy == P_SPART);
    c_drv_d1_excess:      cover property (@(posedge clk) !rst && cv_d1 && cfg_policy != P_SPART);
    c_drv_d1_no_entry:    cover property (@(posedge clk) !rst && (cfg_policy == P_SPART || cfg_policy == P_SMK_P
                                          || cfg_policy == P_QOS) && (!pb || qc_psm) && cv_evany
                                          && cfg_evict == OP_SAVE && !qfree_v);
    // decision 2 (reservation drain): a short RESERVE kernel blocks the others; its DRAIN
    c_drv_d2_short:       cover property (@(posedge clk) !rst && short_v);
    c_drv_d2_drain:       cover property (@(posedge clk) !rst && dc_cmd && dc_op == OP_DRAIN && dc_setpb);
    // decision 3 (plan step): a victim SAVEd; DROPped; the plan ended for lack of a victim; the final
    // dispatch; the plan abandoned without it; a waiting plan letting decision 4 dispatch
    c_drv_d3_save:        cover property (@(posedge clk) !rst && dc_planpre && dc_op == OP_SAVE);
    c_drv_d3_drop:        cover property (@(posedge clk) !rst && dc_planpre && dc_op == OP_DROP);
    c_drv_d3_no_victim:   cover property (@(posedge clk) !rst && dc_planend && plan_left != {TC{1'b0}});
    c_drv_d3_dispatch:    cover property (@(posedge clk) !rst && dc_planend && plan_left == {TC{1'b0}} && ds_go);
    c_drv_d3_abandon:     cover property (@(posedge clk) !rst && dc_planend && plan_left == {TC{1'b0}} && !ds_go);
    c_drv_d3_wait:        cover property (@(posedge clk) !rst && plan_v && plan_left != {TC{1'b0}} && ds_go);
    // decision 4 (dispatch): a new TB; a RERUN; a RESTORE; a RESTORE blocked by ~cmd_ok; a new
    // kernel slot; a kernel slot the kernel holds
    c_drv_d4_new:         cover property (@(posedge clk) !rst && cv_d4 && ds_new);
    c_drv_d4_rerun:       cover property (@(posedge clk) !rst && cv_d4 && ds_rerun);
    c_drv_d4_restore:     cover property (@(posedge clk) !rst && cv_d4 && ds_rest);
    c_drv_d4_rest_wait:   cover property (@(posedge clk) !rst && cv_d4 && ds_try && has_pq[dsK] && !ds_rest && !ds_rerun);
    c_drv_d4_ks_new:      cover property (@(posedge clk) !rst && ds_go && !ds_ksv);
    c_drv_d4_ks_held:     cover property (@(posedge clk) !rst && ds_go && ds_ksv);
    // a dispatch per policy; SMK_OD's Kc not fitting on SMc without a preemption start
    c_drv_p_fcfs:         cover property (@(posedge clk) !rst && cv_d4 && ds_go && cfg_policy == 3'd0);
    c_drv_p_spart:        cover property (@(posedge clk) !rst && cv_d4 && ds_go && cfg_policy == P_SPART);
    c_drv_p_smk_od:       cover property (@(posedge clk) !rst && cv_d4 && ds_go && cfg_policy == P_SMK_OD);
    c_drv_p_smk_p:        cover property (@(posedge clk) !rst && cv_d4 && ds_go && cfg_policy == P_SMK_P);
    c_drv_p_qos:          cover property (@(posedge clk) !rst && cv_d4 && ds_go && cfg_policy == P_QOS);
    c_drv_p_od_wait:      cover property (@(posedge clk) !rst && od_miss && !dc_pstart);
    // decision 5, the Algorithm 1 unit: a start from IDLE; a miss while the unit is busy; step 1
    // finding a better SM and ending without any SMv; step 2 without a victim kernel; step 3 with
    // a q and ending without one; RNG: a preemption start, and no start because Kc changed (or is
    // served), Kv lost the TBs, or the range would not shrink
    c_drv_d5_a1_start:    cover property (@(posedge clk) !rst && a1_st == A1_IDLE && a1_go);
    c_drv_d5_a1_busy:     cover property (@(posedge clk) !rst && a1_st != A1_IDLE && a1_st != A1_RNG && a1_go);
    c_drv_d5_smv_upd:     cover property (@(posedge clk) !rst && a1_st == A1_SMV && a1_upd && a1_f);
    c_drv_d5_no_smv:      cover property (@(posedge clk) !rst && a1_st == A1_SMV && a1_s == LASTSM && !a1_f && !a1_upd);
    c_drv_d5_no_kv:       cover property (@(posedge clk) !rst && a1_st == A1_KV && !a1_kvok);
    c_drv_d5_p_found:     cover property (@(posedge clk) !rst && a1_st == A1_P && a1_pok);
    c_drv_d5_p_step:      cover property (@(posedge clk) !rst && a1_st == A1_P && !a1_pok && a1_qn < a1_c1);
    c_drv_d5_no_p:        cover property (@(posedge clk) !rst && a1_st == A1_P && !a1_pok && a1_qn >= a1_c1);
    c_drv_d5_start:       cover property (@(posedge clk) !rst && dc_pstart);
    c_drv_d5_rng_kc:      cover property (@(posedge clk) !rst && a1_st == A1_RNG && !(a1_go && ex_dk == a1_kc));
    c_drv_d5_rng_uf:      cover property (@(posedge clk) !rst && a1_st == A1_RNG && a1_go && ex_dk == a1_kc && !((PIPE != 0) ? a1_nouf : a1_ufok));
    c_drv_d5_no_shrink:   cover property (@(posedge clk) !rst && a1_st == A1_RNG && a1_go && ex_dk == a1_kc && ((PIPE != 0) ? (a1_nouf && !a1_ok) : (a1_ufok && !a_shrink)));
    // host ports: a launch accepted; refused; a mask change; a mask change and a launch of the same
    // entry (the mask change wins); a kernel finishing (kdone)
    c_drv_h_launch:       cover property (@(posedge clk) !rst && kl_acc);
    c_drv_h_reject:       cover property (@(posedge clk) !rst && kl_v && !kl_acc);
    c_drv_h_mask:         cover property (@(posedge clk) !rst && km_v);
    c_drv_h_mask_launch:  cover property (@(posedge clk) !rst && km_v && kl_acc && km_k == kl_k);
    c_drv_h_kdone:        cover property (@(posedge clk) !rst && ev_kfin);
    // partition unit: a start; a start waiting for the request unit; a filling pick; a QOS pick; the
    // end of an SM; a wrap of pgot; the run's end; a rotation turn; the timer loaded (SMK_P); the
    // timer setting pdirty; its set dropped by a start; pdirty set during a run
    c_drv_pu_start:       cover property (@(posedge clk) !rst && cv_start);
    c_drv_pu_start_wait:  cover property (@(posedge clk) !rst && !pact && pdirty && rq_st != RQ_IDLE);
    c_drv_pu_pick:        cover property (@(posedge clk) !rst && pact && pf_cstep && pf_cpick);
    c_drv_pu_pick_qos:    cover property (@(posedge clk) !rst && pact && pf_cstep && pf_cpick && pu_qos);
    c_drv_pu_end_sm:      cover property (@(posedge clk) !rst && pact && pf_cstep && !pf_cpick && pcur != LASTSM);
    c_drv_pu_wrap:        cover property (@(posedge clk) !rst && pact && pf_cstep && !pf_cpick && kv != {KN{1'b0}} && (pg_g & kv) == kv);
    c_drv_pu_run_end:     cover property (@(posedge clk) !rst && pact && pf_cstep && !pf_cpick && pcur == LASTSM);
    c_drv_pu_rot_turn:    cover property (@(posedge clk) !rst && pact && pf_cstep && !pf_cpick && pcur == LASTSM && (|pstv));
    c_drv_pu_rot_timer:   cover property (@(posedge clk) !rst && pact && pf_cstep && !pf_cpick && pcur == LASTSM && (|pstv) && cfg_policy == P_SMK_P);
    c_drv_pu_timer:       cover property (@(posedge clk) !rst && prt == PRT1 && !cv_start);
    c_drv_pu_timer_drop:  cover property (@(posedge clk) !rst && prt == PRT1 && cv_start);
    c_drv_pu_dirty_run:   cover property (@(posedge clk) !rst && pact && (kl_acc || km_v));
    // request unit: IDLE accepting; refusing for each reason (kernel id >= KN, SM >= NSM, kernel not
    // in use, SM not in its mask, no work left, a pending preemption on the SM); a request waiting
    // (rq_rdy 0); SUM; SUM's last cycle; SCAN granting FREE, VICTIM, VICTIM with the victim's kernel
    // slot; a step in pass 0, pass 1; next; refusal; a give-back accepted and granted a victim
    c_drv_rq_accept:      cover property (@(posedge clk) !rst && rq_acc);
    c_drv_rq_ref_krange:  cover property (@(posedge clk) !rst && cv_rqi && !rq_k_ok);
    c_drv_rq_ref_smrange: cover property (@(posedge clk) !rst && cv_rqi && !rq_sm_ok);
    c_drv_rq_ref_kv:      cover property (@(posedge clk) !rst && cv_rqi && !kv[rq_k]);
    c_drv_rq_ref_mask:    cover property (@(posedge clk) !rst && cv_rqi && !rq_km[rq_sm]);
    c_drv_rq_ref_work:    cover property (@(posedge clk) !rst && cv_rqi && kv[rq_k] && !hwork[rq_k]);
    c_drv_rq_ref_pend:    cover property (@(posedge clk) !rst && cv_rqi && rq_pend[rq_sm]);
    c_drv_rq_wait:        cover property (@(posedge clk) !rst && rq_v && !rq_rdy);
    c_drv_rq_sum:         cover property (@(posedge clk) !rst && rq_st == RQ_SUM && !rq_sumend);
    c_drv_rq_sum_end:     cover property (@(posedge clk) !rst && rq_st == RQ_SUM && rq_sumend);
    c_drv_rq_grant_free:  cover property (@(posedge clk) !rst && rq_gfree);
    c_drv_rq_grant_vic:   cover property (@(posedge clk) !rst && rq_gvic);
    c_drv_rq_vic_ks:      cover property (@(posedge clk) !rst && rq_gvic && rq_pkk == {TC{1'b0}}
                                          && !((rq_npkx < KSN) && (!cfg_max2 || (rq_npkx >> 1) == {NCW{1'b0}})));
    c_drv_rq_step0:       cover property (@(posedge clk) !rst && rq_step && !rq_c[KW]);
    c_drv_rq_step1:       cover property (@(posedge clk) !rst && rq_step && rq_c[KW]);
    c_drv_rq_next:        cover property (@(posedge clk) !rst && rq_next);
    c_drv_rq_refuse:      cover property (@(posedge clk) !rst && rq_st == RQ_SCAN && rq_fin && rq_fst == ACK_REFUSED);
    c_drv_rq_ret:         cover property (@(posedge clk) !rst && rq_acc && rq_ret);
    c_drv_rq_ret_vic:     cover property (@(posedge clk) !rst && rq_gvic && rq_ret_q);
    // rq_pend: set by a VICTIM grant; cleared (the victim down to its partition); cleared as the
    // policy is not QOS
    c_drv_rq_pend_set:    cover property (@(posedge clk) !rst && rq_gvic);
    c_drv_rq_pend_clr:    cover property (@(posedge clk) !rst && (|(rq_pend & rq_clr & cv_le & ~cv_pset)));
    c_drv_rq_pend_clr_pol: cover property (@(posedge clk) !rst && (|(rq_pend & ~cv_pset)) && cfg_policy != P_QOS);
    // QoS controls. KEEP: a kernel finishing without pdirty; a relaunch keeping its partition
    // units; a relaunch of an entry without any, setting pdirty. PGPU = 1: rq_rdy held by a pending
    // preemption; an eviction SAVE setting pb; rq_pend held while pb. PGPU = 0: an eviction SAVE
    // without pb; an eviction while pb; a VICTIM grant while another SM's is pending
    c_drv_q_keep_kfin:    cover property (@(posedge clk) !rst && ev_kfin && qc_keep);
    c_drv_q_keep_kept:    cover property (@(posedge clk) !rst && kl_acc && kl_keeps);
    c_drv_q_keep_fresh:   cover property (@(posedge clk) !rst && kl_acc && qc_keep && kl_keep && !(|kl_held));
    c_drv_q_pgpu_rdy:     cover property (@(posedge clk) !rst && rq_v && rq_st == RQ_IDLE && !pact && !pdirty
                                          && cfg_qctl[QC_PGPU] && (|rq_pend));
    c_drv_q_pgpu_evict:   cover property (@(posedge clk) !rst && cv_d1 && dc_op == OP_SAVE && cfg_policy == P_QOS && dc_setpb);
    c_drv_q_pgpu_hold:    cover property (@(posedge clk) !rst && (|(rq_pend & cv_le)) && cfg_policy == P_QOS
                                          && cfg_qctl[QC_PGPU] && pb);
    c_drv_q_psm_evict:    cover property (@(posedge clk) !rst && cv_d1 && dc_op == OP_SAVE && qc_psm);
    c_drv_q_psm_evict_pb: cover property (@(posedge clk) !rst && cv_d1 && pb && qc_psm);
    c_drv_q_psm_two:      cover property (@(posedge clk) !rst && rq_gvic && (|(rq_pend & ~cv_pset)));
`endif

endmodule
`default_nettype wire
