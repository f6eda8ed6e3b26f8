`default_nettype none
`include "smk_cfg.vh"
`include "smk_prims.vh"
// qos_mgr: the GPU-wide QoS manager (issue 5).
// Spec (normative): docs/qos_mgr.md; section numbers below refer to it.
//
// One instance per GPU. Snoops the driver's launches into a kernel table (section 4), owns the
// epoch (section 6), and in the last LC cycles of each epoch runs a fixed microprogram (section 7)
// on one shared multiplier (combinational, 1 cycle) and one shared restoring divider (1 quotient
// bit per cycle); at the start of each epoch the TLP unit (section 8) sends TB requests to the
// driver. Every output is a function of the registers only (Moore), except m_raddr -> m_rdata.
//
// Microprogram position (free encoding, section 13): ph (phase), pn (G / W cycle), pk (kernel,
// lookup kernel, A / B index), ps (SM), sub (sub-step), cy (cycle inside a divide sub-step).
// The S cycle is decoded from the timeline (et == L - LC), F3 coincides with et == L - 1.
//
// Packed vectors put element i at [i*w +: w]. Synchronous active-high reset.
module qos_mgr #(
    parameter NSM    = `SMK_NUM_SM,
    parameter KN     = `SMK_KERNELS,
    parameter KS     = `SMK_KSLOTS,
    parameter SCHED  = `SMK_SCHED,
    parameter QW     = `SMK_QUOTA_W,
    parameter EW     = `SMK_EPOCH_W,
    parameter SW     = `SMK_STAT_W,
    parameter TBS_W  = `SMK_TBS_W,
    parameter WID_W  = `SMK_WID_W,
    parameter KS_W   = `SMK_KS_W,
    parameter KW     = `SMK_KID_W,
    parameter SMW    = `SMK_SMW,
    parameter ADDR_W = `SMK_ADDR_W,
    parameter MA_W   = `SMK_QM_ADDR_W,    // host register address (hw/regmap.def, space QM)
    parameter GVW    = TBS_W + 1          // rq_give field, lk_cnt (section 1)
) (
    input  wire                  clk,
    input  wire                  rst,
    // host port (section 5)
    input  wire                  m_we,
    input  wire [MA_W-1:0]       m_addr,
    input  wire [31:0]           m_wdata,
    input  wire [MA_W-1:0]       m_raddr,
    output reg  [31:0]           m_rdata,
    output wire                  own,
    // SM register ports
    output reg  [NSM-1:0]        csr_we,
    output reg  [NSM*ADDR_W-1:0] csr_addr,
    output reg  [NSM*32-1:0]     csr_wdata,
    output reg  [NSM*ADDR_W-1:0] rd_addr,
    input  wire [NSM*32-1:0]     rd_data,
    // snooped launches and completions
    input  wire                  kl_v,
    input  wire [KW-1:0]         kl_k,
    input  wire [WID_W:0]        kl_n,
    input  wire                  kl_qos,
    input  wire [31:0]           kl_goal,
    input  wire [16:0]           kl_x,
    input  wire [GVW-1:0]        kl_t,
    input  wire                  kl_keep,   // relaunch: keep the entry's history (section 4)
    input  wire                  kl_rej,
    input  wire                  kdone_v,
    input  wire [KW-1:0]         kdone_k,
    // driver lookup port
    output reg  [SMW-1:0]        lk_s,
    output reg  [KW-1:0]         lk_k,
    input  wire [GVW-1:0]        lk_cnt,
    input  wire [GVW-1:0]        lk_part,
    input  wire                  lk_ksv,
    input  wire [KS_W-1:0]       lk_ks,
    // driver request port
    output wire                  rq_v,
    output wire [KW-1:0]         rq_k,
    output wire [SMW-1:0]        rq_sm,
    output wire                  rq_ret,
    output wire [KN*GVW-1:0]     rq_give,
    input  wire                  rq_rdy,
    input  wire                  rq_ack_v,
    input  wire [1:0]            rq_ack_st,
    input  wire [KW-1:0]         rq_ack_kv,
    input  wire [GVW-1:0]        rq_ack_n
);

    // ------------------------------------------------------------------ helpers
    `SMK_DEF_CLOG2(clog2)

    // ------------------------------------------------------------------ constants (section 1)
    localparam D     = 33;                    // cycles of a long division (QD = 32)
    localparam QT    = WID_W + 1;             // quotient bits of the idle-TB division
    localparam DT    = QT + 1;                // its cycles
    localparam NW    = WID_W + 1;             // mkn
    localparam IW    = SW + SMW;              // isum, ga_i
    localparam TW    = SMW + GVW;             // tsum, ga_t
    localparam GNW   = 32 + SMW + GVW;        // gN
    localparam NP    = KN * NSM;              // (s, k) pairs
    localparam MM    = 4;                     // cycles of one MUL (section 2; the pipeline below needs 4)
    localparam PNW   = clog2(NP + MM + 1);    // pn: 0 .. NP + MM
    localparam CYW   = clog2(D);              // cy, tl_c: 0 .. D - 1
    localparam LC_QOS = 2 * KN * NSM + KN * (6 + 6 * D + 5 * (MM - 1)) + MM + 7;
    localparam LC_SMK = 5 + KN * D + NSM * (2 * KN + 2 * MM + D);

    localparam [31:0]    ONE   = 32'h0001_0000;
    localparam [31:0]    VMAX  = 32'hFFFF_FFFF;
    localparam [31:0]    QMAX  = (32'd1 << (QW - 1)) - 32'd1;
    localparam [31:0]    GMAX  = (32'd1 << GVW) - 32'd1;
    localparam [EW:0]    LCQ   = LC_QOS;
    localparam [EW:0]    LCS   = LC_SMK;
    localparam [47:0]    SCH48 = SCHED;
    localparam [PNW-1:0] PN_NP = NP;
    localparam [CYW-1:0] CY_DL = D - 1;
    localparam [CYW-1:0] CY_TL = DT - 1;
    localparam [CYW-1:0] CY_ML = MM - 1;
    localparam           PIW   = KW + 1 + CYW;    // A / B position: pk + cy
    localparam [PIW-1:0] PI_M  = MM;
    localparam [PIW-1:0] PI_M1 = MM - 1;
    localparam [PIW-1:0] PI_KM = KN + MM - 2;
    localparam [PNW-1:0] PN_M  = MM;
    localparam [PNW-1:0] PN_KM = NP + MM - 1;
    localparam [PNW-1:0] PN_END = NP + MM;
    localparam [KW:0]    KNX   = KN;
    localparam [KW:0]    KLAST = KN - 1;
    localparam [SMW:0]   SLAST = NSM - 1;
    localparam integer   SLI   = NSM - 1;
    localparam [SMW-1:0] SLASTN = SLI[SMW-1:0];
    localparam [16:0]    ONE17 = 17'h10000;

    // enums
    localparam [1:0] ST_IDLE = 2'd0, ST_INIT = 2'd1, ST_RUN = 2'd2, ST_STOP = 2'd3;
    localparam [1:0] QM_OFF = `SMK_QMODE_OFF, QM_SMK = `SMK_QMODE_SMK, QM_QOS = `SMK_QMODE_QOS;
    localparam [3:0] TL_IDLE = 4'd0, TL_SMP = 4'd1, TL_LK = 4'd2, TL_RD = 4'd3, TL_MU = 4'd4,
                     TL_DV = 4'd5, TL_REQ = 4'd6, TL_WRDY = 4'd7, TL_WACK = 4'd8;
    localparam [1:0] ACK_VICTIM = 2'd2;
    localparam [3:0] PH_NONE = 4'd0, PH_G = 4'd1, PH_C1 = 4'd2, PH_C2 = 4'd3, PH_W = 4'd4,
                     PH_F = 4'd5, PH_R = 4'd6, PH_A = 4'd7, PH_FD = 4'd8, PH_B = 4'd9;

    // host registers (section 5; hw/regmap.def, space QM). An array owns a window of 2^WIN_W words:
    // window = the address bits above WIN_W, kernel index = the bits below.
    localparam           WIN_W = `SMK_QM_WIN_W;
    localparam [WIN_W:0] KNX_W = KN;           // KN <= 2^WIN_W (hw/)
    localparam [MA_W-1:0] M_MCTRL = `SMK_QM_REG_MCTRL, M_EPOCH_LEN = `SMK_QM_REG_EPOCH_LEN,
                          M_SAMPLE_PER = `SMK_QM_REG_SAMPLE_PER, M_STATUS = `SMK_QM_REG_STATUS,
                          M_EPOCHS = `SMK_QM_REG_EPOCHS, M_ET = `SMK_QM_REG_ET, M_CUR_LEN = `SMK_QM_REG_CUR_LEN,
                          M_PROD = `SMK_QM_REG_PROD, M_IPC_EP = `SMK_QM_REG_IPC_EP, M_HIST = `SMK_QM_REG_HIST,
                          M_ALPHA = `SMK_QM_REG_ALPHA, M_AGOAL = `SMK_QM_REG_AGOAL, M_QPT = `SMK_QM_REG_QPT,
                          M_TBS = `SMK_QM_REG_TBS, M_GOAL = `SMK_QM_REG_GOAL;
    localparam MC_EN = `SMK_QM_MCTRL_EN_LSB, MC_MODE = `SMK_QM_MCTRL_MODE_LSB,
               MC_SCHEME = `SMK_QM_MCTRL_SCHEME_LSB, MC_ROLLNEG = `SMK_QM_MCTRL_ROLLNEG_LSB,
               MC_POLICY = `SMK_QM_MCTRL_POLICY_LSB, MC_TLP = `SMK_QM_MCTRL_TLP_LSB,
               MC_DEBT = `SMK_QM_MCTRL_DEBT_LSB, MC_TLPQ = `SMK_QM_MCTRL_TLPQ_LSB,
               MC_GIVE = `SMK_QM_MCTRL_GIVE_LSB, MC_NOHIST = `SMK_QM_MCTRL_NOHIST_LSB, MCB = `SMK_QM_REG_MCTRL_BITS;
    localparam SF_ST = `SMK_QM_STATUS_ST_LSB, SF_MODE = `SMK_QM_STATUS_CUR_MODE_LSB,
               SF_OWN = `SMK_QM_STATUS_OWN_LSB, SF_TL = `SMK_QM_STATUS_TL_ST_LSB;

    // SM register addresses
    localparam [ADDR_W-1:0] A_SM_CTRL = `SMK_REG_SM_CTRL, A_EPOCH_LEN = `SMK_REG_EPOCH_LEN,
                            A_SAMPLE_PER = `SMK_REG_SAMPLE_PER, A_QOS_MASK = `SMK_REG_QOS_MASK,
                            A_CMD = `SMK_REG_CMD, A_EP_SAMPLES = `SMK_REG_EP_SAMPLES,
                            A_QUOTA = `SMK_REG_QUOTA, A_STAT_THR = `SMK_REG_STAT_THR,
                            A_STAT_IDLE = `SMK_REG_STAT_IDLE;
    localparam [31:0] CMD_START = 32'd1 << `SMK_CMD_EPOCH_START_LSB;
    localparam [31:0] CMD_SNAP  = 32'd1 << `SMK_CMD_SNAP_LSB;

    // ------------------------------------------------------------------ state (section 13 names)
    // host registers and timeline
    reg [MCB-1:0]      mctrl      /*verilator public_flat_rd*/;
    reg [EW-1:0]       epoch_len  /*verilator public_flat_rd*/;
    reg [EW-1:0]       sample_per /*verilator public_flat_rd*/;
    reg [1:0]          st         /*verilator public_flat_rd*/;
    reg [2:0]          init_i     /*verilator public_flat_rd*/;
    reg [EW:0]         et         /*verilator public_flat_rd*/;
    reg [EW:0]         L          /*verilator public_flat_rd*/;
    reg [EW:0]         Ls;        // L - LC(cur_mode), loaded with them: the S-cycle decode is one compare
    reg [1:0]          cur_mode   /*verilator public_flat_rd*/;
    reg [31:0]         epochs     /*verilator public_flat_rd*/;
    reg                own_r      /*verilator public_flat_rd*/;
    // kernel table
    reg [KN-1:0]       mv         /*verilator public_flat_rd*/;
    reg [KN-1:0]       mqos       /*verilator public_flat_rd*/;
    reg [KN*NW-1:0]    mkn        /*verilator public_flat_rd*/;
    reg [KN*32-1:0]    mgoal      /*verilator public_flat_rd*/;
    reg [KN*17-1:0]    mx         /*verilator public_flat_rd*/;
    reg [KN*GVW-1:0]   mt         /*verilator public_flat_rd*/;
    reg [KN-1:0]       fresh      /*verilator public_flat_rd*/;
    reg [KN*32-1:0]    wcnt       /*verilator public_flat_rd*/;
    reg [KN*32-1:0]    wc         /*verilator public_flat_rd*/;
    reg [KN*IW-1:0]    isum       /*verilator public_flat_rd*/;
    reg [KN*TW-1:0]    tsum       /*verilator public_flat_rd*/;
    reg [KN*48-1:0]    cum_i      /*verilator public_flat_rd*/;
    reg [KN*32-1:0]    cum_c      /*verilator public_flat_rd*/;
    reg [KN*32-1:0]    ipc_ep     /*verilator public_flat_rd*/;
    reg [KN*32-1:0]    hist       /*verilator public_flat_rd*/;
    reg [KN*32-1:0]    alpha      /*verilator public_flat_rd*/;
    reg [KN*32-1:0]    agoal      /*verilator public_flat_rd*/;
    reg [KN*32-1:0]    dbt        /*verilator public_flat_rd*/;
    reg [KN*GVW-1:0]   hgive      /*verilator public_flat_rd*/;
    reg [KN*32-1:0]    qpt        /*verilator public_flat_rd*/;
    reg [KN*32-1:0]    smk_r      /*verilator public_flat_rd*/;
    reg                pl_v       /*verilator public_flat_rd*/;
    reg [KW-1:0]       pl_k       /*verilator public_flat_rd*/;
    reg [NW-1:0]       pl_n       /*verilator public_flat_rd*/;
    reg                pl_qos     /*verilator public_flat_rd*/;
    reg [31:0]         pl_goal    /*verilator public_flat_rd*/;
    reg [16:0]         pl_x       /*verilator public_flat_rd*/;
    reg [GVW-1:0]      pl_t       /*verilator public_flat_rd*/;
    reg                pl_keep    /*verilator public_flat_rd*/;
    // compute
    reg [31:0]         P          /*verilator public_flat_rd*/;
    reg [31:0]         ratio      /*verilator public_flat_rd*/;
    reg [GNW-1:0]      gN         /*verilator public_flat_rd*/;
    reg [31:0]         Q          /*verilator public_flat_rd*/;
    reg [NSM*KS-1:0]   qm         /*verilator public_flat_rd*/;
    reg [IW-1:0]       ga_i       /*verilator public_flat_rd*/;
    reg [TW-1:0]       ga_t       /*verilator public_flat_rd*/;
    reg [SMW-1:0]      g_s        /*verilator public_flat_rd*/;
    reg [KW-1:0]       g_k        /*verilator public_flat_rd*/;
    reg                g_ksv      /*verilator public_flat_rd*/;
    reg [KS_W-1:0]     g_ks       /*verilator public_flat_rd*/;
    reg [GVW-1:0]      g_cnt      /*verilator public_flat_rd*/;
    reg [QW-2:0]       x_q        /*verilator public_flat_rd*/;
    reg                x_v        /*verilator public_flat_rd*/;
    reg [SMW-1:0]      x_s        /*verilator public_flat_rd*/;
    reg [KS_W-1:0]     x_ks       /*verilator public_flat_rd*/;
    reg [KN*32-1:0]    cb         /*verilator public_flat_rd*/;
    reg [KN*(KS_W+1)-1:0] kb      /*verilator public_flat_rd*/;   // {v, ks} per kernel
    reg [31:0]         sumc       /*verilator public_flat_rd*/;
    reg [31:0]         F          /*verilator public_flat_rd*/;
    // TLP
    reg [3:0]          tl_st      /*verilator public_flat_rd*/;
    reg [SMW:0]        tl_s       /*verilator public_flat_rd*/;
    reg [SMW:0]        tl_n       /*verilator public_flat_rd*/;   // SMs done in this pass
    reg [KW:0]         tl_v       /*verilator public_flat_rd*/;
    reg [31:0]         smp        /*verilator public_flat_rd*/;
    reg [SW-1:0]       idl        /*verilator public_flat_rd*/;
    reg [31:0]         sk         /*verilator public_flat_rd*/;
    reg [KN*GVW-1:0]   itb        /*verilator public_flat_rd*/;
    reg [KN*GVW-1:0]   give       /*verilator public_flat_rd*/;
    reg [KW-1:0]       rq_k_r     /*verilator public_flat_rd*/;
    reg [SMW-1:0]      rq_sm_r    /*verilator public_flat_rd*/;
    reg                rq_ret_r   /*verilator public_flat_rd*/;   // the request is a give-back (GIVE)
    // microprogram position and divider (not architectural)
    reg [3:0]          ph;
    reg [PNW-1:0]      pn;
    reg [KW:0]         pk;
    reg [KN:0]         pk_oh;     // 1 << pk (0 for pk > KN): the current-kernel selects without a decoder
    reg [SMW:0]        ps;
    reg [3:0]          sub;
    reg [CYW-1:0]      cy;
    reg [CYW-1:0]      tl_c;
    reg [31:0]         dv_rem;
    reg [31:0]         dv_lo;
    reg [31:0]         dv_d;
    reg                dv_sat;
    reg                dv_first;   // the cycle after a load: saturation is decided from dv_rem / dv_d

    assign own = own_r;

    // ------------------------------------------------------------------ array element selects
    // kernel-indexed (KW+1-bit index: pk, tl_v and the host read's index reach KN) and SM-indexed rows
    `SMK_DEF_SEL(sel32, KN, 32, KW + 1)
    `SMK_DEF_SEL(sel_tw, KN, TW, KW + 1)
    `SMK_DEF_SEL(sel_nw, KN, NW, KW + 1)
    `SMK_DEF_SEL(sel_gv, KN, GVW, KW + 1)
    `SMK_DEF_SEL(sel1, KN, 1, KW + 1)
    `SMK_DEF_OSEL(osel32, KN, 32)
    `SMK_DEF_OSEL(osel48, KN, 48)
    `SMK_DEF_OSEL(osel17, KN, 17)
    `SMK_DEF_OSEL(osel_iw, KN, IW)
    `SMK_DEF_OSEL(osel_tw, KN, TW)
    `SMK_DEF_OSEL(osel_gv, KN, GVW)
    `SMK_DEF_OSEL(osel_kb, KN, KS_W + 1)
    `SMK_DEF_OSEL(osel1, KN, 1)
    `SMK_DEF_SEL(sel_rd, NSM, 32, SMW + 1)
    // zero extensions to 32 bits
    `SMK_DEF_ZX(zx_gv, GVW, 32)
    `SMK_DEF_ZX(zx_tw, TW, 32)
    `SMK_DEF_ZX(zx_el, EW + 1, 32)
    // ------------------------------------------------------------------ kept prefix adders
    // The wide adds and compares go through SKW-bit Sklansky parallel-prefix adders whose levels are
    // kept nets (without the keep the AIG rewriting of the timing flow, `abc -g AND`, turns any
    // adder back into a ripple chain: docs/timing.md "Kept adder nets"). Adder i computes
    // sk_s[i] = sk_a[i] + sk_b[i] + sk_ci[i] (SKW bits; narrower operands zero-extended, so bit W
    // of a W-bit add is its carry out; a - b on W bits is a + ~b + 1 with ~b of W bits).
    localparam SKW = 64;
    localparam SKL = 6;                        // log2(SKW) prefix levels
    localparam SK_STEP = 0, SK_SAT = 1, SK_DEN = 2, SK_DD = 3, SK_DLT = 4, SK_SI = 5, SK_SC = 6,
               SK_SUMC = 7, SK_GI = 8, SK_HD0 = 9, SK_HD1 = 10, SK_M0 = 11, SK_MS = 15, NSK = 16;
    wire [NSK*SKW-1:0] sk_a, sk_b, sk_x, sk_s;
    wire [NSK-1:0]     sk_ci;
    genvar ga, gl, gb;
    generate
        for (ga = 0; ga < NSK; ga = ga + 1) begin : g_skx
            if (ga != SK_DD) begin : g_x0
                assign sk_x[ga*SKW +: SKW] = {SKW{1'b0}};
            end
        end
    endgenerate
    generate
        for (ga = 0; ga < NSK; ga = ga + 1) begin : g_sk
            wire [SKW-1:0] a = sk_a[ga*SKW +: SKW];
            wire [SKW-1:0] b = sk_b[ga*SKW +: SKW];
            wire [SKW-1:0] x = sk_x[ga*SKW +: SKW];   // third operand (SK_DD only), else 0
            wire [SKW-1:0] u, v;                       // the two rows the prefix adds
            if (ga == SK_DD) begin : g_csa            // carry-save 3:2, the carry in at bit 0
                assign u = a ^ b ^ x;
                assign v = {(a[SKW-2:0] & b[SKW-2:0]) | (a[SKW-2:0] & x[SKW-2:0])
                            | (b[SKW-2:0] & x[SKW-2:0]), sk_ci[ga]};
            end else begin : g_two
                assign u = a;
                assign v = b;
            end
            wire [SKW-1:0] p = u ^ v;
            wire           c0 = (ga == SK_DD) ? 1'b0 : sk_ci[ga];
            (* keep *) wire [(SKL+1)*2*SKW-1:0] lv /*verilator split_var*/;
            assign lv[0 +: 2*SKW] = {p, (u & v) | {{(SKW-1){1'b0}}, p[0] & c0}};
            // Sklansky level gl, span d = 2^gl: in each 2d-bit block the upper d bits (those with
            // (i / d) odd) take the group {p, g} of the block's lower half, ending at its top bit
            for (gl = 0; gl < SKL; gl = gl + 1) begin : g_lv
                localparam integer SD = 1 << gl;
                localparam integer SI = gl * 2 * SKW;       // this level's {p, g} (g low)
                localparam integer SO = (gl + 1) * 2 * SKW; // the next level's
                for (gb = 0; gb < SKW; gb = gb + 2 * SD) begin : g_bk
                    localparam integer ST = gb + SD - 1;     // the lower half's top bit
                    assign lv[SO + gb +: SD]             = lv[SI + gb +: SD];
                    assign lv[SO + SKW + gb +: SD]       = lv[SI + SKW + gb +: SD];
                    assign lv[SO + gb + SD +: SD]         = lv[SI + gb + SD +: SD]
                                                       | (lv[SI + SKW + gb + SD +: SD] & {SD{lv[SI + ST]}});
                    assign lv[SO + SKW + gb + SD +: SD]   = lv[SI + SKW + gb + SD +: SD] & {SD{lv[SI + SKW + ST]}};
                end
            end
            wire [SKW-1:0] c = lv[SKL*2*SKW +: SKW];   // carry out of each bit
            assign sk_s[ga*SKW +: SKW] = p ^ {c[SKW-2:0], c0};
            wire unused_sk = &{1'b0, lv[SKL*2*SKW+SKW +: SKW], c[SKW-1], a[SKW-1], b[SKW-1], x[SKW-1]};
        end
    endgenerate

    // x > ONE (1.0 in U16.16)
    function gt_one(input [31:0] x);
        gt_one = (|x[31:17]) | (x[16] & (|x[15:0]));
    endfunction

    // QMODE of an MCTRL.MODE value (3 -> OFF)
    function [1:0] qmode_of(input [1:0] m);
        qmode_of = (m == 2'd3) ? QM_OFF : m;
    endfunction
    function [EW:0] lc_of(input [1:0] qmode);
        lc_of = (qmode == QM_SMK) ? LCS : LCQ;
    endfunction
    // SM_CTRL word {ROLLNEG, SCHEME, QMODE, POLICY} from MCTRL and a QMODE
    function [31:0] ctrl_word(input [MCB-1:0] mc, input [1:0] qmode);
        begin
            ctrl_word = 32'd0;
            ctrl_word[`SMK_SM_CTRL_POLICY_LSB]                            = mc[MC_POLICY];
            ctrl_word[`SMK_SM_CTRL_QMODE_LSB +: `SMK_SM_CTRL_QMODE_W]     = qmode;
            ctrl_word[`SMK_SM_CTRL_QSCHEME_LSB +: `SMK_SM_CTRL_QSCHEME_W] = mc[MC_SCHEME +: 2];
            ctrl_word[`SMK_SM_CTRL_ROLLNEG_LSB]                           = mc[MC_ROLLNEG];
        end
    endfunction

    // ------------------------------------------------------------------ timeline decode
    wire          run      = (st == ST_RUN);
    wire          w_mctrl  = m_we & (m_addr == M_MCTRL);
    wire          en_edge  = w_mctrl & m_wdata[MC_EN] & (st == ST_IDLE);
    wire          dis      = w_mctrl & ~m_wdata[MC_EN] & ((st == ST_INIT) | run);
    wire          act      = run & ~dis;           // microprogram and TLP edge actions
    wire          s_cyc    = run & (ph == PH_NONE) & (et == Ls);
    wire          ep_end   = run & (et == L - {{EW{1'b0}}, 1'b1});
    wire          init_end = (st == ST_INIT) & (init_i == 3'd4) & ~dis;
    wire          latch    = init_end | (act & ep_end);  // epoch-start latches
    wire [1:0]    new_mode = qmode_of(mctrl[MC_MODE +: 2]);
    wire [EW:0]   elen_x   = {1'b0, epoch_len};
    wire [EW:0]   lc_new   = lc_of(new_mode);
    wire [EW:0]   new_L    = (elen_x > lc_new) ? elen_x : lc_new;
    wire [EW:0]   new_Ls   = (elen_x > lc_new) ? elen_x - lc_new : {(EW+1){1'b0}};  // new_L - lc_new
    wire [EW:0]   Lq       = new_L;                 // c2.1: same formula on this cycle's registers
    wire          snap_e   = act & s_cyc;           // SNAP edge

    // ------------------------------------------------------------------ per-kernel need (section 8)
    reg [KN-1:0] need;
    always @* begin : p_need
        integer k;
        for (k = 0; k < KN; k = k + 1)
            need[k] = mv[k] & mqos[k] & (|cum_c[k*32 +: 32]) & (hist[k*32 +: 32] < mgoal[k*32 +: 32]) &
                      (~mctrl[MC_TLPQ] | (ipc_ep[k*32 +: 32] < agoal[k*32 +: 32]));
    end
    // GIVE: some QoS kernel has a history margin to give (hgive, c1.8)
    reg hg_any;
    always @* begin : p_hg_any
        integer k;
        hg_any = 1'b0;
        for (k = 0; k < KN; k = k + 1)
            hg_any = hg_any | (mv[k] & mqos[k] & (|hgive[k*GVW +: GVW]));
    end
    wire tl_start = mctrl[MC_TLP] & (new_mode == QM_QOS) & ((|need) | (mctrl[MC_GIVE] & hg_any));

    // ------------------------------------------------------------------ step decode
    wire c1_div   = (sub == 4'd1) | (sub == 4'd2) | (sub == 4'd3) | (sub == 4'd5) | (sub == 4'd8);
    wire c1_mul   = (sub == 4'd4) | (sub == 4'd6) | (sub == 4'd7);
    wire cy_last  = (cy == CY_DL);
    wire cy_mlast = (cy == CY_ML);
    wire [PIW-1:0] pi = {{(CYW){1'b0}}, pk} + {{(KW+1){1'b0}}, cy};   // A / B: cycle pk + cy
    wire in_c1    = (ph == PH_C1);
    wire in_c2    = (ph == PH_C2);
    wire g_look   = (pn < PN_NP);                   // G / W: a lookup this cycle
    wire g_gath   = (ph == PH_G) & (pn != {PNW{1'b0}});
    wire w_x      = (ph == PH_W) & (pn >= PN_M) & (pn <= PN_KM);    // pair pn - MM's MUL ends
    wire w_wr     = (ph == PH_W) & (pn > PN_M);
    wire a_look   = (ph == PH_A) & (pk != KNX);
    wire a_x      = (ph == PH_A) & (pi >= PI_M);                    // kernel pi - MM's MUL ends
    wire a_clr    = (ph == PH_A) & (pi == {PIW{1'b0}});
    wire b_lat    = (ph == PH_B) & (pi >= PI_M1) & (pi <= PI_KM);   // kernel pi - MM + 1's MUL ends
    wire b_wr     = (ph == PH_B) & (pi >= PI_M);

    // current-kernel fields (C1 / C2 / R: pk, selected by its one-hot copy pk_oh)
    wire [31:0]    k_wc    = osel32(wc, pk_oh[KN-1:0]);
    wire [IW-1:0]  k_isum  = osel_iw(isum, pk_oh[KN-1:0]);
    wire [TW-1:0]  k_tsum  = osel_tw(tsum, pk_oh[KN-1:0]);
    wire [47:0]    k_cumi  = osel48(cum_i, pk_oh[KN-1:0]);
    wire [31:0]    k_cumc  = osel32(cum_c, pk_oh[KN-1:0]);
    wire [31:0]    k_goal  = osel32(mgoal, pk_oh[KN-1:0]);
    wire [31:0]    k_hist  = osel32(hist, pk_oh[KN-1:0]);
    wire [31:0]    k_alpha = osel32(alpha, pk_oh[KN-1:0]);
    wire [31:0]    k_agoal = osel32(agoal, pk_oh[KN-1:0]);
    wire [31:0]    k_dbt   = osel32(dbt, pk_oh[KN-1:0]);
    wire           k_qos   = osel1(mqos, pk_oh[KN-1:0]);
    wire [31:0]    k_ipc   = osel32(ipc_ep, pk_oh[KN-1:0]);
    wire [16:0]    k_mx    = osel17(mx, pk_oh[KN-1:0]);
    wire [GVW-1:0] k_mt    = osel_gv(mt, pk_oh[KN-1:0]);
    wire           k_fresh = osel1(fresh, pk_oh[KN-1:0]);
    wire [31:0]    k_cb    = osel32(cb, pk_oh[KN-1:0]);
    wire [KS_W:0]  k_kb    = osel_kb(kb, pk_oh[KN-1:0]);
    wire [KW:0]    gkx     = {1'b0, g_k};
    wire           gk_mv   = sel1(mv, gkx);
    wire           gk_qos  = sel1(mqos, gkx);
    wire [31:0]    gk_qpt  = sel32(qpt, gkx);
    wire [31:0]    gk_smkr = sel32(smk_r, gkx);
    wire           tv_mv   = sel1(mv, tl_v);
    wire [NW-1:0]  tv_mkn  = sel_nw(mkn, tl_v);
    wire           tv_need = sel1(need, tl_v);
    wire           tv_qos  = sel1(mqos, tl_v);
    wire [GVW-1:0] tv_itb  = sel_gv(itb, tl_v);

    // c1.4: dbt = (DEBT & mqos) ? min(max(dbt + agoal - ipc_ep, 0), agoal) : 0 (values before the edge)
    // c_dd = dbt + agoal - ipc_ep in one carry-save add (SK_DD, 64-bit two's complement); when it is
    // positive, c_dd < agoal <=> dbt < ipc_ep (SK_DLT), beside it
    assign sk_a[SK_DD*SKW +: SKW] = {32'd0, k_dbt};
    assign sk_b[SK_DD*SKW +: SKW] = {32'd0, k_agoal};
    assign sk_x[SK_DD*SKW +: SKW] = ~{32'd0, k_ipc};
    assign sk_ci[SK_DD]           = 1'b1;
    assign sk_a[SK_DLT*SKW +: SKW] = {32'd0, k_dbt};
    assign sk_b[SK_DLT*SKW +: SKW] = {32'd0, ~k_ipc};
    assign sk_ci[SK_DLT]           = 1'b1;
    wire [63:0] c_dr   = sk_s[SK_DD*SKW +: SKW];
    wire        c_dpos = ~c_dr[63] & (|c_dr[33:0]);
    wire [31:0] c_dd   = c_dr[31:0];
    wire        c_dlt  = ~sk_s[SK_DLT*SKW + 32];                // dbt < ipc_ep
    wire [31:0] c_dbt  = (mctrl[MC_DEBT] & k_qos & c_dpos) ? (c_dlt ? c_dd : k_agoal) : 32'd0;
    // c1.5: the divisor min(agoal + dbt, VMAX)
    assign sk_a[SK_DEN*SKW +: SKW] = {32'd0, k_agoal};
    assign sk_b[SK_DEN*SKW +: SKW] = {32'd0, k_dbt};
    assign sk_ci[SK_DEN]           = 1'b0;
    wire [32:0] c_ds   = sk_s[SK_DEN*SKW +: 33];
    wire [31:0] c_den  = c_ds[32] ? VMAX : c_ds[31:0];

    // ------------------------------------------------------------------ the multiplier (section 2)
    reg [31:0] mu_a, mu_b;
    reg        mu_16;
    always @* begin : p_mul_sel
        mu_a = 32'd0;
        mu_b = 32'd0;
        mu_16 = 1'b1;
        if (in_c1 && sub == 4'd4) begin           // agoal = MUL(alpha, mgoal, 16)
            mu_a = k_alpha; mu_b = k_goal;
        end else if (in_c1 && sub == 4'd6) begin  // P = MUL(P, ratio, 16)
            mu_a = P; mu_b = ratio;
        end else if (in_c1 && sub == 4'd7) begin  // gN = mgoal x tsum, exact
            mu_a = k_goal; mu_b = zx_tw(k_tsum); mu_16 = 1'b0;
        end else if (in_c2 && sub == 4'd0) begin  // MUL(g, P, 16)
            mu_a = k_fresh ? ONE : k_ipc; mu_b = P;
        end else if (in_c2 && sub == 4'd1) begin  // Q = MUL(agoal, Lq, 16)
            mu_a = k_agoal; mu_b = zx_el(Lq);
        end else if (ph == PH_W) begin            // MUL(qpt[g_k], g_cnt, 0)
            mu_a = gk_qpt; mu_b = zx_gv(g_cnt); mu_16 = 1'b0;
        end else if (ph == PH_A) begin            // MUL(smk_r[g_k], g_cnt, 16)
            mu_a = gk_smkr; mu_b = zx_gv(g_cnt);
        end else if (ph == PH_B) begin            // MUL(cb[b], F, 16)
            mu_a = k_cb; mu_b = F;
        end else if (tl_st == TL_MU) begin        // sk = MUL(smp, mkn, 0)
            mu_a = smp; mu_b = 32'd0; mu_b[NW-1:0] = tv_mkn; mu_16 = 1'b0;
        end
    end
    // MM = 4 cycles, pipelined (one MUL may start every cycle), free-running: the operands the mux
    // presents in a MUL's first cycle c are registered at its edge (mu_ar, mu_br); cycle c+1 forms
    // four 32 x 8 products, each by a 3:2 carry-save tree of its eight partial products and a kept
    // Sklansky adder (mu_pp); cycle c+2 adds the four (carry-save, Sklansky) into the exact 64-bit
    // product (mu_pr); cycle c+3 saturates it (mu_r) for the step's commit at its edge. The kernel,
    // SM and slot of a W / A / B position travel beside it (md_*), so the commit uses the values of
    // the MUL's first cycle. The carry-save rows are kept nets, like the adders' prefix levels.
    reg [31:0]        mu_ar, mu_br;
    reg [2:0]         mu_16d;            // mu_16 of the MULs in stages 1, 2, 3
    reg [4*SKW-1:0]   mu_pp;             // stage 2: a x b[8g+7:8g], g = 0..3
    reg [63:0]        mu_pr;             // stage 3: a x b
    // one 3:2 carry-save level: {carry << 1, sum} of three SKW-bit rows
    function [2*SKW-1:0] csa(input [SKW-1:0] x, input [SKW-1:0] y, input [SKW-1:0] z);
        csa = {{(x[SKW-2:0] & y[SKW-2:0]) | (x[SKW-2:0] & z[SKW-2:0]) | (y[SKW-2:0] & z[SKW-2:0]), 1'b0},
               x ^ y ^ z};
    endfunction
    generate
        for (ga = 0; ga < 4; ga = ga + 1) begin : g_mpp
            wire [8*SKW-1:0] r;          // the eight partial products a x b[8g+j] << j
            for (gl = 0; gl < 8; gl = gl + 1) begin : g_row
                assign r[gl*SKW +: SKW] = mu_br[8*ga+gl] ? ({32'd0, mu_ar} << gl) : {SKW{1'b0}};
            end
            // 8 -> 6 -> 4 -> 3 -> 2 rows
            (* keep *) wire [2*SKW-1:0] l1a /*verilator split_var*/, l1b /*verilator split_var*/;
            (* keep *) wire [2*SKW-1:0] l2a /*verilator split_var*/, l2b /*verilator split_var*/;
            (* keep *) wire [2*SKW-1:0] l3 /*verilator split_var*/, l4 /*verilator split_var*/;
            assign l1a = csa(r[0*SKW +: SKW], r[1*SKW +: SKW], r[2*SKW +: SKW]);
            assign l1b = csa(r[3*SKW +: SKW], r[4*SKW +: SKW], r[5*SKW +: SKW]);
            assign l2a = csa(l1a[0 +: SKW], l1a[SKW +: SKW], l1b[0 +: SKW]);
            assign l2b = csa(l1b[SKW +: SKW], r[6*SKW +: SKW], r[7*SKW +: SKW]);
            assign l3  = csa(l2a[0 +: SKW], l2a[SKW +: SKW], l2b[0 +: SKW]);
            assign l4  = csa(l3[0 +: SKW], l3[SKW +: SKW], l2b[SKW +: SKW]);
            assign sk_a[(SK_M0+ga)*SKW +: SKW] = l4[0 +: SKW];
            assign sk_b[(SK_M0+ga)*SKW +: SKW] = l4[SKW +: SKW];
            assign sk_ci[SK_M0+ga]             = 1'b0;
        end
    endgenerate
    // stage 3: the four products, shifted, 4 -> 3 -> 2 rows
    (* keep *) wire [2*SKW-1:0] mu_s1 /*verilator split_var*/, mu_s2 /*verilator split_var*/;
    assign mu_s1 = csa(mu_pp[0 +: SKW], mu_pp[SKW +: SKW] << 8, mu_pp[2*SKW +: SKW] << 16);
    assign mu_s2 = csa(mu_s1[0 +: SKW], mu_s1[SKW +: SKW], mu_pp[3*SKW +: SKW] << 24);
    assign sk_a[SK_MS*SKW +: SKW] = mu_s2[0 +: SKW];
    assign sk_b[SK_MS*SKW +: SKW] = mu_s2[SKW +: SKW];
    assign sk_ci[SK_MS]           = 1'b0;
    wire [31:0] mu_r = mu_16d[2] ? ((|mu_pr[63:48]) ? VMAX : mu_pr[47:16])
                                 : ((|mu_pr[63:32]) ? VMAX : mu_pr[31:0]);
    // W / A / B: the position's tuple {v, qos, s, ks, k} of the MUL's first cycle, MM - 1 stages
    localparam MDW = 2 + SMW + KS_W + KW;
    reg  [(MM-1)*MDW-1:0] md;
    wire [MDW-1:0] md_in = (ph == PH_B) ? {k_kb[KS_W], 1'b0, {SMW{1'b0}}, k_kb[KS_W-1:0], {KW{1'b0}}}
                                        : {g_ksv & gk_mv, gk_qos, g_s, g_ks, g_k};
    wire [MDW-1:0] md_o  = md[(MM-2)*MDW +: MDW];
    wire           o_v   = md_o[MDW-1];
    wire           o_q   = md_o[MDW-2];
    wire [SMW-1:0] o_s   = md_o[KS_W+KW +: SMW];
    wire [KS_W-1:0] o_ks = md_o[KW +: KS_W];
    wire [KW-1:0]  o_k   = md_o[0 +: KW];
    always @(posedge clk) begin : p_mul
        integer g;
        if (rst) begin
            mu_ar <= 32'd0; mu_br <= 32'd0; mu_16d <= 3'd0; mu_pp <= {4*SKW{1'b0}}; mu_pr <= 64'd0;
            md <= {(MM-1)*MDW{1'b0}};
        end else begin
            mu_ar <= mu_a;
            mu_br <= mu_b;
            mu_16d <= {mu_16d[1:0], mu_16};
            for (g = 0; g < 4; g = g + 1)
                mu_pp[g*SKW +: SKW] <= sk_s[(SK_M0+g)*SKW +: SKW];
            mu_pr <= sk_s[SK_MS*SKW +: SKW];
            md <= {md[0 +: (MM-2)*MDW], md_in};
        end
    end

    // ------------------------------------------------------------------ the divider (section 2)
    // Restoring, 1 quotient bit per cycle. Load cycle: rem = A >> q, lo = A's low q bits at the
    // top, d = B. Each further cycle shifts one dividend bit into the remainder and one quotient bit
    // into lo; the first of them also sets sat = (B == 0) | (A >> q >= B) from the loaded rem and d
    // (dv_first); the last cycle's result is combinational (dv_q*).
    reg [63:0] dv_a;
    reg [31:0] dv_b;
    reg        dv_qt;    // q = QT (idle-TB division), else q = 32
    reg        dv_load;
    always @* begin : p_div_sel
        dv_a = 64'd0;
        dv_b = 32'd0;
        dv_qt = 1'b0;
        dv_load = 1'b0;
        if (in_c1) begin
            dv_load = c1_div & (cy == {CYW{1'b0}});
            case (sub)
                4'd1: begin dv_a[16 +: IW] = k_isum; dv_b = k_wc; end
                4'd2: begin dv_a[63:16] = k_cumi; dv_b = k_cumc; end
                4'd3: begin dv_a[47:16] = k_goal; dv_b = k_hist; end
                4'd5: begin dv_a[47:16] = k_ipc; dv_b = c_den; end
                default: begin dv_a[GNW-1:0] = gN; dv_b = k_hist; end
            endcase
        end else if (in_c2) begin
            dv_load = (sub == 4'd2) & (cy == {CYW{1'b0}});
            dv_a[31:0] = Q;
            dv_b = (k_tsum == {TW{1'b0}}) ? 32'd1 : zx_tw(k_tsum);
        end else if (ph == PH_R) begin
            dv_load = (cy == {CYW{1'b0}});
            dv_a[32:16] = k_mx;
            dv_b = (k_mt == {GVW{1'b0}}) ? 32'd1 : zx_gv(k_mt);
        end else if (ph == PH_FD) begin
            dv_load = (cy == {CYW{1'b0}});
            dv_a[63:16] = {{(47-EW){1'b0}}, L} * SCH48;
            dv_b = sumc;
        end else if (tl_st == TL_DV) begin
            dv_load = (tl_c == {CYW{1'b0}});
            dv_a[SW-1:0] = idl;
            dv_b = sk;
            dv_qt = 1'b1;
        end
    end
    wire [63:0] dv_sh  = dv_a >> QT;
    wire [31:0] dv_ahi = dv_qt ? dv_sh[31:0] : dv_a[63:32];
    reg  [31:0] dv_alo;
    always @* begin : p_div_lo
        dv_alo = dv_a[31:0];
        if (dv_qt) begin
            dv_alo = 32'd0;
            dv_alo[31 -: QT] = dv_a[QT-1:0];
        end
    end
    wire [32:0] dv_r2   = {dv_rem, dv_lo[31]};
    // step: dv_r2 - dv_d = dv_r2 + ~dv_d + 1 on 33 bits (SK_STEP), its carry out = (dv_r2 >= dv_d)
    assign sk_a[SK_STEP*SKW +: SKW] = {31'd0, dv_r2};
    assign sk_b[SK_STEP*SKW +: SKW] = {31'd0, ~{1'b0, dv_d}};
    assign sk_ci[SK_STEP]           = 1'b1;
    wire        dv_ge   = sk_s[SK_STEP*SKW + 33];
    wire [32:0] dv_diff = sk_s[SK_STEP*SKW +: 33];
    // saturation, decided in the cycle after the load from the loaded dv_rem = A >> q and dv_d = B
    assign sk_a[SK_SAT*SKW +: SKW] = {32'd0, dv_rem};
    assign sk_b[SK_SAT*SKW +: SKW] = {32'd0, ~dv_d};
    assign sk_ci[SK_SAT]           = 1'b1;
    wire        dv_sge  = sk_s[SK_SAT*SKW + 32];             // dv_rem >= dv_d
    wire [31:0] dv_q32  = dv_sat ? VMAX : {dv_lo[30:0], dv_ge};
    wire [31:0] dv_qraw = {dv_lo[30:0], dv_ge};
    wire [31:0] dv_qtv  = dv_sat ? ((32'd1 << QT) - 32'd1) : {{(32-QT){1'b0}}, dv_qraw[QT-1:0]};

    // ------------------------------------------------------------------ C1 / C2 values
    // c1.0
    assign sk_a[SK_SI*SKW +: SKW] = {16'd0, k_cumi};
    assign sk_b[SK_SI*SKW +: SKW] = {{(SKW-IW){1'b0}}, k_isum};
    assign sk_ci[SK_SI]           = 1'b0;
    assign sk_a[SK_SC*SKW +: SKW] = {32'd0, k_cumc};
    assign sk_b[SK_SC*SKW +: SKW] = {32'd0, k_wc};
    assign sk_ci[SK_SC]           = 1'b0;
    wire [48:0] c_si   = sk_s[SK_SI*SKW +: 49];
    wire [32:0] c_sc   = sk_s[SK_SC*SKW +: 33];
    wire        c_half = c_si[48] | c_sc[32];
    wire [47:0] c_ci   = c_half ? c_si[48:1] : c_si[47:0];
    wire [31:0] c_cc   = c_half ? c_sc[32:1] : c_sc[31:0];
    // c1.3
    wire [31:0] c_alpha = (k_cumc == 32'd0 || mctrl[MC_NOHIST]) ? ONE : (gt_one(dv_q32) ? dv_q32 : ONE);
    // c1.8: hgive = (hist == 0 or hq >= tsum) ? 0 : min(tsum - 1 - hq, 2^GVW - 1), with
    // tsum - 1 - hq = tsum + ~hq (SK_HD0 / SK_HD1: carry out = hq < tsum), for both values of the
    // last quotient bit dv_ge, which picks one at the end
    wire [31:0] c_ts32  = zx_tw(k_tsum);
    wire [31:0] c_hq0   = dv_sat ? VMAX : {dv_lo[30:0], 1'b0};
    wire [31:0] c_hq1   = dv_sat ? VMAX : {dv_lo[30:0], 1'b1};
    assign sk_a[SK_HD0*SKW +: SKW] = {32'd0, c_ts32};
    assign sk_b[SK_HD0*SKW +: SKW] = {32'd0, ~c_hq0};
    assign sk_ci[SK_HD0]           = 1'b0;
    assign sk_a[SK_HD1*SKW +: SKW] = {32'd0, c_ts32};
    assign sk_b[SK_HD1*SKW +: SKW] = {32'd0, ~c_hq1};
    assign sk_ci[SK_HD1]           = 1'b0;
    wire [32:0] c_hd0   = sk_s[SK_HD0*SKW +: 33];
    wire [32:0] c_hd1   = sk_s[SK_HD1*SKW +: 33];
    wire [GVW-1:0] c_hg0 = ((k_hist == 32'd0) || !c_hd0[32]) ? {GVW{1'b0}}
                         : ((|c_hd0[31:GVW]) ? GMAX[GVW-1:0] : c_hd0[GVW-1:0]);
    wire [GVW-1:0] c_hg1 = ((k_hist == 32'd0) || !c_hd1[32]) ? {GVW{1'b0}}
                         : ((|c_hd1[31:GVW]) ? GMAX[GVW-1:0] : c_hd1[GVW-1:0]);
    wire [GVW-1:0] c_hgive = dv_ge ? c_hg1 : c_hg0;
    // c2.0
    wire [31:0] c_ag2 = gt_one(mu_r) ? mu_r : ONE;
    // W / B: x_q = min(MUL(...), QMAX)
    wire [QW-2:0] c_xq = (|mu_r[31:QW-1]) ? QMAX[QW-2:0] : mu_r[QW-2:0];
    // A: sumc += cb (saturating)
    wire [31:0] a_cb   = o_v ? mu_r : 32'd0;            // the kernel of the MUL ending (md_o)
    assign sk_a[SK_SUMC*SKW +: SKW] = {32'd0, sumc};
    assign sk_b[SK_SUMC*SKW +: SKW] = {32'd0, a_cb};
    assign sk_ci[SK_SUMC]           = 1'b0;
    wire [32:0] a_sum  = sk_s[SK_SUMC*SKW +: 33];
    // G: gather
    wire [31:0]    g_rd32 = sel_rd(rd_data, {1'b0, g_s});
    wire [SW-1:0]  g_rd   = g_rd32[SW-1:0];
    wire [IW-1:0]  g_add  = g_ksv ? {{SMW{1'b0}}, g_rd} : {IW{1'b0}};
    assign sk_a[SK_GI*SKW +: SKW] = {{(SKW-IW){1'b0}}, ga_i};
    assign sk_b[SK_GI*SKW +: SKW] = {{(SKW-IW){1'b0}}, g_add};
    assign sk_ci[SK_GI]           = 1'b0;
    wire [IW-1:0]  g_isum = sk_s[SK_GI*SKW +: IW];
    wire [TW-1:0]  g_tsum = ga_t + {{SMW{1'b0}}, g_cnt};
    // TLP: itb of the DV state
    wire [31:0]    t_itbq = dv_qtv;
    wire [GVW-1:0] t_itb  = (g_ksv & tv_mv & (sk != 32'd0))
                          ? ((|t_itbq[31:GVW]) ? GMAX[GVW-1:0] : t_itbq[GVW-1:0]) : {GVW{1'b0}};
    wire [31:0]    t_rd   = sel_rd(rd_data, tl_s);

    // REQ: give[v] = min(max(itb[v] - 1 (0 if itb = 0), hgive[v]), 2^GVW - 1) (GVW bits: no clamp)
    reg [KN*GVW-1:0] give_nx;
    always @* begin : p_give
        integer k;
        reg [GVW-1:0] gi, hg;
        for (k = 0; k < KN; k = k + 1) begin
            gi = (itb[k*GVW +: GVW] == {GVW{1'b0}}) ? {GVW{1'b0}}
                 : itb[k*GVW +: GVW] - {{(GVW-1){1'b0}}, 1'b1};
            hg = hgive[k*GVW +: GVW];
            give_nx[k*GVW +: GVW] = (gi > hg) ? gi : hg;
        end
    end

    // commit of a snooped launch (section 4)
    wire        commit = pl_v & ~kl_rej;
    wire [16:0] kl_xc  = (kl_x > ONE17) ? ONE17 : kl_x;

    // ------------------------------------------------------------------ clock edge
    always @(posedge clk) begin : p_seq
        integer k, s;
        if (rst) begin
            mctrl <= {MCB{1'b0}}; epoch_len <= {EW{1'b0}}; sample_per <= {EW{1'b0}};
            st <= ST_IDLE; init_i <= 3'd0; et <= {(EW+1){1'b0}}; L <= {(EW+1){1'b0}};
            Ls <= {(EW+1){1'b0}} - lc_of(2'd0);
            cur_mode <= 2'd0; epochs <= 32'd0; own_r <= 1'b0;
            mv <= {KN{1'b0}}; mqos <= {KN{1'b0}}; mkn <= {KN*NW{1'b0}};
            mgoal <= {KN*32{1'b0}}; mx <= {KN*17{1'b0}}; mt <= {KN*GVW{1'b0}};
            fresh <= {KN{1'b0}}; wcnt <= {KN*32{1'b0}}; wc <= {KN*32{1'b0}};
            isum <= {KN*IW{1'b0}}; tsum <= {KN*TW{1'b0}}; cum_i <= {KN*48{1'b0}};
            cum_c <= {KN*32{1'b0}}; hist <= {KN*32{1'b0}}; agoal <= {KN*32{1'b0}}; dbt <= {KN*32{1'b0}};
            hgive <= {KN*GVW{1'b0}}; qpt <= {KN*32{1'b0}}; smk_r <= {KN*32{1'b0}};
            for (k = 0; k < KN; k = k + 1) begin
                ipc_ep[k*32 +: 32] <= ONE;
                alpha[k*32 +: 32]  <= ONE;
            end
            pl_v <= 1'b0; pl_k <= {KW{1'b0}}; pl_n <= {NW{1'b0}}; pl_qos <= 1'b0;
            pl_goal <= 32'd0; pl_x <= 17'd0; pl_t <= {GVW{1'b0}}; pl_keep <= 1'b0;
            P <= ONE; ratio <= 32'd0; gN <= {GNW{1'b0}}; Q <= 32'd0; qm <= {NSM*KS{1'b0}};
            ga_i <= {IW{1'b0}}; ga_t <= {TW{1'b0}};
            g_s <= {SMW{1'b0}}; g_k <= {KW{1'b0}}; g_ksv <= 1'b0; g_ks <= {KS_W{1'b0}};
            g_cnt <= {GVW{1'b0}};
            x_q <= {(QW-1){1'b0}}; x_v <= 1'b0; x_s <= {SMW{1'b0}}; x_ks <= {KS_W{1'b0}};
            cb <= {KN*32{1'b0}}; kb <= {KN*(KS_W+1){1'b0}}; sumc <= 32'd0; F <= 32'd0;
            tl_st <= TL_IDLE; tl_s <= {(SMW+1){1'b0}}; tl_n <= {(SMW+1){1'b0}}; tl_v <= {(KW+1){1'b0}};
            smp <= 32'd0; idl <= {SW{1'b0}}; sk <= 32'd0;
            itb <= {KN*GVW{1'b0}}; give <= {KN*GVW{1'b0}};
            rq_k_r <= {KW{1'b0}}; rq_sm_r <= {SMW{1'b0}}; rq_ret_r <= 1'b0;
            ph <= PH_NONE; pn <= {PNW{1'b0}}; pk <= {(KW+1){1'b0}}; pk_oh <= {{KN{1'b0}}, 1'b1}; ps <= {(SMW+1){1'b0}};
            sub <= 4'd0; cy <= {CYW{1'b0}}; tl_c <= {CYW{1'b0}};
            dv_rem <= 32'd0; dv_lo <= 32'd0; dv_d <= 32'd0; dv_sat <= 1'b0; dv_first <= 1'b0;
        end else begin
            // ---------------------------------------------------------- host registers
            if (w_mctrl) mctrl <= m_wdata[MCB-1:0];
            if (m_we && m_addr == M_EPOCH_LEN)  epoch_len  <= m_wdata[EW-1:0];
            if (m_we && m_addr == M_SAMPLE_PER) sample_per <= m_wdata[EW-1:0];

            // ---------------------------------------------------------- divider
            dv_first <= dv_load;
            if (dv_first) dv_sat <= (dv_d == 32'd0) | dv_sge;   // (B == 0) | (A >> q >= B)
            if (dv_load) begin
                dv_rem <= dv_ahi;
                dv_lo  <= dv_alo;
                dv_d   <= dv_b;
            end else begin
                dv_rem <= dv_ge ? dv_diff[31:0] : dv_r2[31:0];
                dv_lo  <= {dv_lo[30:0], dv_ge};
            end

            // ---------------------------------------------------------- timeline (section 6)
            case (st)
                ST_IDLE: if (en_edge) begin
                    st <= ST_INIT; init_i <= 3'd0; own_r <= 1'b1;
                end
                ST_INIT: if (dis) begin
                    st <= ST_STOP; init_i <= 3'd0;
                end else if (init_end) begin
                    st <= ST_RUN; init_i <= 3'd0;
                end else begin
                    init_i <= init_i + 3'd1;
                end
                ST_RUN: if (dis) st <= ST_STOP;
                default: begin st <= ST_IDLE; own_r <= 1'b0; end   // STOP
            endcase
            if (act) et <= et + {{EW{1'b0}}, 1'b1};
            if (latch) begin
                cur_mode <= new_mode;
                L        <= new_L;
                Ls       <= new_Ls;
                epochs   <= (epochs == VMAX) ? VMAX : epochs + 32'd1;
                et       <= {(EW+1){1'b0}};
            end

            // ---------------------------------------------------------- microprogram (section 7)
            if (dis) begin
                ph <= PH_NONE;
            end else if (snap_e) begin
                // S: windows end
                for (k = 0; k < KN; k = k + 1)
                    wc[k*32 +: 32] <= (wcnt[k*32 +: 32] == VMAX) ? VMAX
                                      : wcnt[k*32 +: 32] + {31'd0, mv[k]};
                P <= ONE;
                qm <= {NSM*KS{1'b0}};
                ga_i <= {IW{1'b0}};
                ga_t <= {TW{1'b0}};
                ph <= (cur_mode == QM_SMK) ? PH_R : PH_G;
                pn <= {PNW{1'b0}}; pk <= {(KW+1){1'b0}}; pk_oh <= {{KN{1'b0}}, 1'b1}; ps <= {(SMW+1){1'b0}};
                sub <= 4'd0; cy <= {CYW{1'b0}};
            end else if (act) begin
                case (ph)
                    PH_G, PH_W: begin
                        if (g_look) begin   // lookup (ps, pk)
                            g_s <= ps[SMW-1:0]; g_k <= pk[KW-1:0];
                            g_ksv <= lk_ksv; g_ks <= lk_ks; g_cnt <= lk_cnt;
                            if (ps == SLAST) begin
                                ps <= {(SMW+1){1'b0}}; pk <= pk + {{KW{1'b0}}, 1'b1}; pk_oh <= {pk_oh[KN-1:0], 1'b0};
                            end else begin
                                ps <= ps + {{SMW{1'b0}}, 1'b1};
                            end
                        end
                        if (g_gath) begin
                            if (g_s == SLASTN) begin
                                for (k = 0; k < KN; k = k + 1)
                                    if (g_k == k[KW-1:0]) begin
                                        isum[k*IW +: IW] <= g_isum;
                                        tsum[k*TW +: TW] <= g_tsum;
                                    end
                                ga_i <= {IW{1'b0}};
                                ga_t <= {TW{1'b0}};
                            end else begin
                                ga_i <= g_isum;
                                ga_t <= g_tsum;
                            end
                        end
                        if (w_x) begin     // pair pn - MM, values of its MUL's first cycle pn - MM + 1
                            x_q <= c_xq;
                            x_v <= o_v;
                            x_s <= o_s;
                            x_ks <= o_ks;
                            for (s = 0; s < NSM; s = s + 1)
                                for (k = 0; k < KS; k = k + 1)
                                    if (o_s == s[SMW-1:0] && o_ks == k[KS_W-1:0] && o_v && o_q)
                                        qm[s*KS + k] <= 1'b1;
                        end
                        pn <= pn + {{(PNW-1){1'b0}}, 1'b1};
                        if (ph == PH_G && pn == PN_NP) begin
                            ph <= PH_C1; pk <= {(KW+1){1'b0}}; pk_oh <= {{KN{1'b0}}, 1'b1}; sub <= 4'd0; cy <= {CYW{1'b0}};
                        end
                        if (ph == PH_W && pn == PN_END) begin
                            ph <= PH_F; sub <= 4'd0;
                        end
                    end
                    PH_C1: begin
                        if ((c1_div && !cy_last) || (c1_mul && !cy_mlast)) begin
                            cy <= cy + {{(CYW-1){1'b0}}, 1'b1};
                        end else begin
                            cy <= {CYW{1'b0}};
                            for (k = 0; k < KN; k = k + 1)
                                if (pk_oh[k] && mv[k]) begin
                                    case (sub)
                                        4'd0: if (k_wc != 32'd0) begin
                                            cum_i[k*48 +: 48] <= c_ci;
                                            cum_c[k*32 +: 32] <= c_cc;
                                        end
                                        4'd1: if (k_wc != 32'd0) ipc_ep[k*32 +: 32] <= dv_q32;
                                        4'd2: hist[k*32 +: 32]  <= (k_cumc == 32'd0) ? 32'd0 : dv_q32;
                                        4'd3: alpha[k*32 +: 32] <= c_alpha;
                                        4'd4: begin
                                            agoal[k*32 +: 32] <= mu_r;
                                            dbt[k*32 +: 32] <= c_dbt;
                                        end
                                        4'd5: ratio <= dv_q32;
                                        4'd6: if (mqos[k]) P <= mu_r;
                                        4'd7: gN <= mu_pr[GNW-1:0];
                                        default: hgive[k*GVW +: GVW] <= c_hgive;
                                    endcase
                                end
                            if (sub == 4'd8) begin
                                sub <= 4'd0;
                                if (pk == KLAST) begin
                                    ph <= PH_C2; pk <= {(KW+1){1'b0}}; pk_oh <= {{KN{1'b0}}, 1'b1};
                                end else begin
                                    pk <= pk + {{KW{1'b0}}, 1'b1}; pk_oh <= {pk_oh[KN-1:0], 1'b0};
                                end
                            end else begin
                                sub <= sub + 4'd1;
                            end
                        end
                    end
                    PH_C2: begin
                        if ((sub == 4'd2) ? !cy_last : !cy_mlast) begin
                            cy <= cy + {{(CYW-1){1'b0}}, 1'b1};
                        end else begin
                            cy <= {CYW{1'b0}};
                            for (k = 0; k < KN; k = k + 1)
                                if (pk_oh[k] && mv[k]) begin
                                    case (sub)
                                        4'd0: begin
                                            if (!mqos[k]) begin
                                                agoal[k*32 +: 32] <= c_ag2;
                                                alpha[k*32 +: 32] <= ONE;
                                            end
                                            fresh[k] <= 1'b0;
                                        end
                                        4'd1: Q <= mu_r;
                                        default: qpt[k*32 +: 32] <= dv_q32;
                                    endcase
                                end
                            if (sub == 4'd2) begin
                                sub <= 4'd0;
                                if (pk == KLAST) begin
                                    ph <= PH_W; pk <= {(KW+1){1'b0}}; pk_oh <= {{KN{1'b0}}, 1'b1}; ps <= {(SMW+1){1'b0}};
                                    pn <= {PNW{1'b0}};
                                end else begin
                                    pk <= pk + {{KW{1'b0}}, 1'b1}; pk_oh <= {pk_oh[KN-1:0], 1'b0};
                                end
                            end else begin
                                sub <= sub + 4'd1;
                            end
                        end
                    end
                    PH_F: begin
                        sub <= sub + 4'd1;
                        if (sub == 4'd3) ph <= PH_NONE;
                    end
                    PH_R: begin
                        if (!cy_last) begin
                            cy <= cy + {{(CYW-1){1'b0}}, 1'b1};
                        end else begin
                            cy <= {CYW{1'b0}};
                            for (k = 0; k < KN; k = k + 1)
                                if (pk_oh[k]) smk_r[k*32 +: 32] <= dv_q32;
                            if (pk == KLAST) begin
                                ph <= PH_A; pk <= {(KW+1){1'b0}}; pk_oh <= {{KN{1'b0}}, 1'b1}; ps <= {(SMW+1){1'b0}};
                            end else begin
                                pk <= pk + {{KW{1'b0}}, 1'b1}; pk_oh <= {pk_oh[KN-1:0], 1'b0};
                            end
                        end
                    end
                    PH_A: begin
                        if (a_look) begin
                            g_s <= ps[SMW-1:0]; g_k <= pk[KW-1:0];
                            g_ksv <= lk_ksv; g_ks <= lk_ks; g_cnt <= lk_cnt;
                        end
                        if (a_x) begin     // kernel pi - MM, values of its MUL's first cycle
                            for (k = 0; k < KN; k = k + 1)
                                if (o_k == k[KW-1:0]) begin
                                    cb[k*32 +: 32] <= a_cb;
                                    kb[k*(KS_W+1) +: KS_W+1] <= {o_v, o_ks};
                                end
                            sumc <= a_sum[32] ? VMAX : a_sum[31:0];
                        end else if (a_clr) begin
                            sumc <= 32'd0;
                        end
                        if (pk != KNX) begin
                            pk <= pk + {{KW{1'b0}}, 1'b1}; pk_oh <= {pk_oh[KN-1:0], 1'b0};
                        end else if (!cy_mlast) begin
                            cy <= cy + {{(CYW-1){1'b0}}, 1'b1};
                        end else begin
                            ph <= PH_FD; cy <= {CYW{1'b0}};
                        end
                    end
                    PH_FD: begin
                        if (!cy_last) begin
                            cy <= cy + {{(CYW-1){1'b0}}, 1'b1};
                        end else begin
                            cy <= {CYW{1'b0}};
                            F <= dv_q32;
                            ph <= PH_B; pk <= {(KW+1){1'b0}}; pk_oh <= {{KN{1'b0}}, 1'b1};
                        end
                    end
                    PH_B: begin
                        if (b_lat) begin   // kernel pi - MM + 1, kb of its MUL's first cycle
                            x_q <= c_xq;
                            x_v <= o_v;
                            x_ks <= o_ks;
                        end
                        if (pk != KNX) begin
                            pk <= pk + {{KW{1'b0}}, 1'b1}; pk_oh <= {pk_oh[KN-1:0], 1'b0};
                        end else if (!cy_mlast) begin
                            cy <= cy + {{(CYW-1){1'b0}}, 1'b1};
                        end else begin
                            pk <= {(KW+1){1'b0}}; pk_oh <= {{KN{1'b0}}, 1'b1}; cy <= {CYW{1'b0}};
                            if (ps == SLAST) begin
                                ph <= PH_F; sub <= 4'd0;
                            end else begin
                                ph <= PH_A; ps <= ps + {{SMW{1'b0}}, 1'b1};
                            end
                        end
                    end
                    default: ;
                endcase
            end

            // ---------------------------------------------------------- TLP unit (section 8)
            if (dis) begin
                tl_st <= TL_IDLE;
            end else if (latch) begin
                tl_st <= tl_start ? TL_SMP : TL_IDLE;
                if (tl_start) tl_n <= {(SMW+1){1'b0}};   // tl_s holds: the pass resumes where the last stopped
            end else if (act) begin
                case (tl_st)
                    TL_SMP: begin
                        smp <= t_rd; tl_v <= {(KW+1){1'b0}}; tl_st <= TL_LK;
                    end
                    TL_LK: begin
                        g_s <= tl_s[SMW-1:0]; g_k <= tl_v[KW-1:0];
                        g_ksv <= lk_ksv; g_ks <= lk_ks; g_cnt <= lk_cnt;
                        tl_st <= TL_RD;
                    end
                    TL_RD: begin
                        idl <= t_rd[SW-1:0]; tl_st <= TL_MU; tl_c <= {CYW{1'b0}};
                    end
                    TL_MU: begin   // MM cycles
                        if (tl_c != CY_ML) begin
                            tl_c <= tl_c + {{(CYW-1){1'b0}}, 1'b1};
                        end else begin
                            sk <= mu_r; tl_st <= TL_DV; tl_c <= {CYW{1'b0}};
                        end
                    end
                    TL_DV: begin
                        if (tl_c != CY_TL) begin
                            tl_c <= tl_c + {{(CYW-1){1'b0}}, 1'b1};
                        end else begin
                            tl_c <= {CYW{1'b0}};
                            for (k = 0; k < KN; k = k + 1)
                                if (tl_v == k[KW:0]) itb[k*GVW +: GVW] <= t_itb;
                            if (tl_v == KLAST) begin
                                tl_v <= {(KW+1){1'b0}}; tl_st <= TL_REQ;
                            end else begin
                                tl_v <= tl_v + {{KW{1'b0}}, 1'b1}; tl_st <= TL_LK;
                            end
                        end
                    end
                    TL_REQ: begin
                        if (tv_need && tv_itb <= {{(GVW-1){1'b0}}, 1'b1}) begin
                            give <= give_nx;
                            rq_k_r <= tl_v[KW-1:0];
                            rq_sm_r <= tl_s[SMW-1:0];
                            rq_ret_r <= 1'b0;
                            tl_st <= TL_WRDY;
                        end else if (mctrl[MC_GIVE] && tv_mv && !tv_qos && tv_itb <= {{(GVW-1){1'b0}}, 1'b1} && hg_any) begin
                            give <= hgive;              // give-back: the history margins only
                            rq_k_r <= tl_v[KW-1:0];
                            rq_sm_r <= tl_s[SMW-1:0];
                            rq_ret_r <= 1'b1;
                            tl_st <= TL_WRDY;
                        end else begin
                            tl_next();
                        end
                    end
                    TL_WRDY: if (rq_rdy) tl_st <= TL_WACK;
                    TL_WACK: if (rq_ack_v) begin
                        if (rq_ack_st == ACK_VICTIM)
                            for (k = 0; k < KN; k = k + 1)
                                if (rq_ack_kv == k[KW-1:0]) begin
                                    itb[k*GVW +: GVW] <= (itb[k*GVW +: GVW] > rq_ack_n)
                                                         ? itb[k*GVW +: GVW] - rq_ack_n : {GVW{1'b0}};
                                    hgive[k*GVW +: GVW] <= (hgive[k*GVW +: GVW] > rq_ack_n)
                                                         ? hgive[k*GVW +: GVW] - rq_ack_n : {GVW{1'b0}};
                                end
                        tl_next();
                    end
                    default: ;
                endcase
                if (s_cyc) tl_st <= TL_IDLE;   // abort at the SNAP edge
            end

            // ---------------------------------------------------------- kernel table (section 4)
            pl_v <= kl_v;
            if (kl_v) begin
                pl_k <= kl_k; pl_n <= kl_n; pl_qos <= kl_qos; pl_goal <= kl_goal;
                pl_x <= kl_xc; pl_t <= kl_t; pl_keep <= kl_keep;
            end
            for (k = 0; k < KN; k = k + 1) begin
                if (snap_e || init_end)
                    wcnt[k*32 +: 32] <= 32'd0;
                else if (wcnt[k*32 +: 32] != VMAX)
                    wcnt[k*32 +: 32] <= wcnt[k*32 +: 32] + {31'd0, mv[k]};
                if (kdone_v && kdone_k == k[KW-1:0])
                    mv[k] <= 1'b0;
                if (commit && pl_k == k[KW-1:0]) begin   // the commit wins
                    mv[k] <= 1'b1;
                    mqos[k] <= pl_qos;
                    mkn[k*NW +: NW] <= pl_n;
                    mgoal[k*32 +: 32] <= pl_goal;
                    mx[k*17 +: 17] <= pl_x;
                    mt[k*GVW +: GVW] <= pl_t;
                    isum[k*IW +: IW] <= {IW{1'b0}};
                    tsum[k*TW +: TW] <= {TW{1'b0}};
                    wc[k*32 +: 32] <= 32'd0;
                    if (pl_keep) begin
                        // relaunch with keep: the history continues (wcnt, cum_*, ipc_ep, hist,
                        // alpha, agoal, dbt, hgive, qpt keep the value of their normal rule)
                        fresh[k] <= fresh[k] | (cum_c[k*32 +: 32] == 32'd0);
                    end else begin
                        fresh[k] <= 1'b1;
                        wcnt[k*32 +: 32] <= 32'd0;
                        cum_i[k*48 +: 48] <= 48'd0;
                        cum_c[k*32 +: 32] <= 32'd0;
                        ipc_ep[k*32 +: 32] <= ONE;
                        hist[k*32 +: 32] <= 32'd0;
                        alpha[k*32 +: 32] <= ONE;
                        agoal[k*32 +: 32] <= 32'd0;
                        dbt[k*32 +: 32] <= 32'd0;
                        hgive[k*GVW +: GVW] <= {GVW{1'b0}};
                        qpt[k*32 +: 32] <= 32'd0;
                    end
                end
            end
        end
    end

    // NEXT of the TLP unit (section 8): called inside p_seq only
    task tl_next;
        begin
            if (tl_v == KLAST) begin
                tl_s <= (tl_s == SLAST) ? {(SMW+1){1'b0}} : tl_s + {{SMW{1'b0}}, 1'b1};   // mod NSM
                if (tl_n == SLAST) begin
                    tl_st <= TL_IDLE;                 // NSM SMs visited
                end else begin
                    tl_n <= tl_n + {{SMW{1'b0}}, 1'b1};
                    tl_st <= TL_SMP;
                end
            end else begin
                tl_v <= tl_v + {{KW{1'b0}}, 1'b1};
                tl_st <= TL_REQ;
            end
        end
    endtask

    // ------------------------------------------------------------------ outputs (Moore)
    assign rq_v    = (tl_st == TL_WRDY);
    assign rq_k    = rq_v ? rq_k_r : {KW{1'b0}};
    assign rq_sm   = rq_v ? rq_sm_r : {SMW{1'b0}};
    assign rq_ret  = rq_v & rq_ret_r;
    assign rq_give = give;

    always @* begin : p_out
        integer s;
        reg          aw;        // write to all SMs
        reg [ADDR_W-1:0] aa;
        reg [31:0]   ad;
        reg          ow;        // write to one SM
        reg [SMW:0]  os;
        reg [ADDR_W-1:0] oa;
        reg [31:0]   od;
        reg          rv;        // read address on one SM
        reg [SMW:0]  rs;
        reg [ADDR_W-1:0] ra;
        aw = 1'b0; aa = {ADDR_W{1'b0}}; ad = 32'd0;
        ow = 1'b0; os = {(SMW+1){1'b0}}; oa = {ADDR_W{1'b0}}; od = 32'd0;
        rv = 1'b0; rs = {(SMW+1){1'b0}}; ra = {ADDR_W{1'b0}};
        lk_s = {SMW{1'b0}};
        lk_k = {KW{1'b0}};
        if (st == ST_INIT) begin
            aw = 1'b1;
            case (init_i)
                3'd0: begin aa = A_SM_CTRL; ad = ctrl_word(mctrl, QM_OFF); end
                3'd1: begin aa = A_EPOCH_LEN; ad = 32'd0; end
                3'd2: begin aa = A_SAMPLE_PER; ad = 32'd0; ad[EW-1:0] = sample_per; end
                3'd3: begin aa = A_QOS_MASK; ad = 32'd0; end
                default: begin aa = A_CMD; ad = CMD_START | CMD_SNAP; end
            endcase
        end else if (st == ST_STOP) begin
            aw = 1'b1; aa = A_SM_CTRL; ad = ctrl_word(mctrl, QM_OFF);
        end else if (run) begin
            if (s_cyc) begin
                aw = 1'b1; aa = A_CMD; ad = CMD_SNAP;
            end
            case (ph)
                PH_G, PH_W: begin
                    if (g_look) begin
                        lk_s = ps[SMW-1:0]; lk_k = pk[KW-1:0];
                    end
                    if (g_gath && g_ksv) begin
                        rv = 1'b1; rs = {1'b0, g_s}; ra = A_STAT_THR + {{(ADDR_W-KS_W){1'b0}}, g_ks};
                    end
                    if (w_wr && x_v) begin
                        ow = 1'b1; os = {1'b0, x_s}; oa = A_QUOTA + {{(ADDR_W-KS_W){1'b0}}, x_ks};
                        od = 32'd0; od[QW-2:0] = x_q;
                    end
                end
                PH_A: if (a_look) begin
                    lk_s = ps[SMW-1:0]; lk_k = pk[KW-1:0];
                end
                PH_B: if (b_wr && x_v) begin
                    ow = 1'b1; os = ps; oa = A_QUOTA + {{(ADDR_W-KS_W){1'b0}}, x_ks};
                    od = 32'd0; od[QW-2:0] = x_q;
                end
                PH_F: begin
                    aw = 1'b1;
                    case (sub)
                        4'd0: begin aa = A_SAMPLE_PER; ad = 32'd0; ad[EW-1:0] = sample_per; end
                        4'd1: aa = A_QOS_MASK;     // per-SM data below
                        4'd2: begin aa = A_SM_CTRL; ad = ctrl_word(mctrl, cur_mode); end
                        default: begin aa = A_CMD; ad = CMD_START; end
                    endcase
                end
                default: ;
            endcase
            case (tl_st)
                TL_SMP: begin rv = 1'b1; rs = tl_s; ra = A_EP_SAMPLES; end
                TL_LK:  begin lk_s = tl_s[SMW-1:0]; lk_k = tl_v[KW-1:0]; end
                TL_RD:  begin
                    rv = 1'b1; rs = tl_s; ra = A_STAT_IDLE + {{(ADDR_W-KS_W){1'b0}}, g_ks};
                end
                default: ;
            endcase
        end
        for (s = 0; s < NSM; s = s + 1) begin
            csr_we[s] = aw | (ow & (os == s[SMW:0]));
            csr_addr[s*ADDR_W +: ADDR_W] = aw ? aa : ((ow && os == s[SMW:0]) ? oa : {ADDR_W{1'b0}});
            csr_wdata[s*32 +: 32] = aw ? ad : ((ow && os == s[SMW:0]) ? od : 32'd0);
            if (aw && run && ph == PH_F && sub == 4'd1) begin
                csr_wdata[s*32 +: 32] = 32'd0;
                csr_wdata[s*32 +: KS] = qm[s*KS +: KS];
            end
            rd_addr[s*ADDR_W +: ADDR_W] = (rv && rs == s[SMW:0]) ? ra : {ADDR_W{1'b0}};
        end
    end

    // ------------------------------------------------------------------ host read (section 5)
    // window 0 holds the single registers, every other window one kernel-indexed array (hw/ rule)
    always @* begin : p_mrd
        reg [WIN_W:0] ix;    // index in the window, one bit wider (KW <= WIN_W)
        reg [KW:0]    kx;
        reg           inr;
        ix = {1'b0, m_raddr[WIN_W-1:0]};
        kx = ix[KW:0];
        inr = (ix < KNX_W);
        m_rdata = 32'd0;
        case (m_raddr[MA_W-1:WIN_W])
            M_IPC_EP[MA_W-1:WIN_W]: if (inr) m_rdata = sel32(ipc_ep, kx);
            M_HIST[MA_W-1:WIN_W]:   if (inr) m_rdata = sel32(hist, kx);
            M_ALPHA[MA_W-1:WIN_W]:  if (inr) m_rdata = sel32(alpha, kx);
            M_AGOAL[MA_W-1:WIN_W]:  if (inr) m_rdata = sel32(agoal, kx);
            M_QPT[MA_W-1:WIN_W]:    if (inr) m_rdata = sel32(qpt, kx);
            M_TBS[MA_W-1:WIN_W]:    if (inr) m_rdata = zx_tw(sel_tw(tsum, kx));
            M_GOAL[MA_W-1:WIN_W]:   if (inr) m_rdata = sel32(mgoal, kx);
            {(MA_W-WIN_W){1'b0}}: case (m_raddr[WIN_W-1:0])
                M_MCTRL[WIN_W-1:0]:      m_rdata[MCB-1:0] = mctrl;
                M_EPOCH_LEN[WIN_W-1:0]:  m_rdata[EW-1:0] = epoch_len;
                M_SAMPLE_PER[WIN_W-1:0]: m_rdata[EW-1:0] = sample_per;
                M_STATUS[WIN_W-1:0]: begin
                    m_rdata[SF_ST +: 2]   = st;
                    m_rdata[SF_MODE +: 2] = cur_mode;
                    m_rdata[SF_OWN]       = own_r;
                    m_rdata[SF_TL +: 4]   = tl_st;
                end
                M_EPOCHS[WIN_W-1:0]:     m_rdata = epochs;
                M_ET[WIN_W-1:0]:         m_rdata[EW:0] = et;
                M_CUR_LEN[WIN_W-1:0]:    m_rdata[EW:0] = L;
                M_PROD[WIN_W-1:0]:       m_rdata = P;
                default: ;
            endcase
            default: ;
        endcase
    end

    // inputs and bits that no register holds
    wire unused_in = &{1'b0, lk_part, m_wdata[31:8], dv_diff[32], dv_sh[63:32], dv_qraw[31:QT], g_rd32, sk_s, c_dr[62:34], mu_pr[63:GNW]};

`ifdef SMK_COVER
    // ------------------------------------------------------------------ cover points
    // One labelled point per case of each numbered rule and step of docs/qos_mgr.md (make coverage
    // with --coverage-user +define+SMK_COVER; docs/verification.md "Coverage"): c_qm_4_* the kernel
    // table (section 4), c_qm_5_* the host port (5), c_qm_6_* the timeline (6), c_qm_7_* the
    // microprogram steps (7.1-7.4: c_qm_7_c1<N>_* sub-step c1.N, c_qm_7_c2<N>_* c2.N), c_qm_8_* the
    // TLP unit (8). A point names the edge at which its case acts (its condition holds in the cycle
    // that edge ends). Not seen by synthesis or the other builds. Plain expressions only in the
    // conditions (with a function call in one this tool version never counts the point); the
    // helper wires cv_* and the generate block g_cv_k (plain assignments) are computed from the
    // module's own signals.
    wire cv_c1e  = act & in_c1 & ~((c1_div & ~cy_last) | (c1_mul & ~cy_mlast)); // last cycle of a C1 sub-step
    wire cv_c2e  = act & in_c2 & ((sub == 4'd2) ? cy_last : cy_mlast);         // last cycle of a C2 sub-step
    wire cv_ld   = act & (cy == {CYW{1'b0}});                                    // first cycle of a step
    wire cv_pmv  = mv[pk[KW-1:0]];                                               // mv of the C1 / C2 kernel
    // a C1 / C2 result written into entry pk at this edge (c1.0, c1.1 with wc != 0; c1.2, c1.3,
    // c1.4, c1.8; c2.0, c2.2)
    wire cv_c12w = (cv_c1e & cv_pmv & ((sub == 4'd2) | (sub == 4'd3) | (sub == 4'd4) | (sub == 4'd8)
                                       | (((sub == 4'd0) | (sub == 4'd1)) & (k_wc != 32'd0))))
                 | (cv_c2e & cv_pmv & ((sub == 4'd0) | (sub == 4'd2)));
    wire cv_hdc = dv_ge ? c_hd1[32] : c_hd0[32];               // c1.8: hq < tsum (tsum - 1 - hq >= 0)
    wire cv_hdx = dv_ge ? (|c_hd1[31:GVW]) : (|c_hd0[31:GVW]); // c1.8: tsum - 1 - hq above 2^GVW - 1
    wire cv_dve  = act & (tl_st == TL_DV) & (tl_c == CY_TL);  // DV's last cycle: itb[tl_v] written
    wire cv_itb1 = (tv_itb <= {{(GVW-1){1'b0}}, 1'b1});       // itb[tl_v] <= 1
    wire cv_rqq  = tv_need & cv_itb1;                                                  // REQ: a QoS request
    wire cv_rqg  = ~cv_rqq & mctrl[MC_GIVE] & tv_mv & ~tv_qos & cv_itb1 & hg_any;      // REQ: a give-back
    wire cv_next = act & (((tl_st == TL_REQ) & ~cv_rqq & ~cv_rqg) | ((tl_st == TL_WACK) & rq_ack_v)); // NEXT
    // host addresses (section 5): mapped for a read (window 0's registers, an array element < KN);
    // read-write, read-only for a write
    wire [MA_W-WIN_W-1:0] cv_rw = m_raddr[MA_W-1:WIN_W];
    wire [MA_W-WIN_W-1:0] cv_ww = m_addr[MA_W-1:WIN_W];
    wire [WIN_W-1:0]      cv_ri = m_raddr[WIN_W-1:0];
    wire [WIN_W-1:0]      cv_wi = m_addr[WIN_W-1:0];
    wire cv_rarr = (cv_rw == M_IPC_EP[MA_W-1:WIN_W]) | (cv_rw == M_HIST[MA_W-1:WIN_W]) | (cv_rw == M_ALPHA[MA_W-1:WIN_W])
                 | (cv_rw == M_AGOAL[MA_W-1:WIN_W]) | (cv_rw == M_QPT[MA_W-1:WIN_W]) | (cv_rw == M_TBS[MA_W-1:WIN_W])
                 | (cv_rw == M_GOAL[MA_W-1:WIN_W]);
    wire cv_warr = (cv_ww == M_IPC_EP[MA_W-1:WIN_W]) | (cv_ww == M_HIST[MA_W-1:WIN_W]) | (cv_ww == M_ALPHA[MA_W-1:WIN_W])
                 | (cv_ww == M_AGOAL[MA_W-1:WIN_W]) | (cv_ww == M_QPT[MA_W-1:WIN_W]) | (cv_ww == M_TBS[MA_W-1:WIN_W])
                 | (cv_ww == M_GOAL[MA_W-1:WIN_W]);
    wire cv_rrange = ({1'b0, cv_ri} >= KNX_W);                 // an array index >= KN
    wire cv_wrange = ({1'b0, cv_wi} >= KNX_W);
    wire cv_r0 = (m_raddr == M_MCTRL) | (m_raddr == M_EPOCH_LEN) | (m_raddr == M_SAMPLE_PER) | (m_raddr == M_STATUS)
               | (m_raddr == M_EPOCHS) | (m_raddr == M_ET) | (m_raddr == M_CUR_LEN) | (m_raddr == M_PROD);
    wire cv_wrw = (m_addr == M_MCTRL) | (m_addr == M_EPOCH_LEN) | (m_addr == M_SAMPLE_PER);
    wire cv_wro = (m_addr == M_STATUS) | (m_addr == M_EPOCHS) | (m_addr == M_ET) | (m_addr == M_CUR_LEN)
                | (m_addr == M_PROD) | (cv_warr & ~cv_wrange);
    // per kernel: cum_c == 0; wcnt saturated while valid; the VICTIM ack's kernel with itb or hgive
    // below n (the reduction saturates at 0); need without its TLPQ term
    wire [KN-1:0] cv_cum0, cv_wsat, cv_vsat, cv_nq;
    genvar cv_k;
    for (cv_k = 0; cv_k < KN; cv_k = cv_k + 1) begin : g_cv_k
        localparam [KW-1:0] CK = cv_k;
        assign cv_cum0[cv_k] = (cum_c[cv_k*32 +: 32] == 32'd0);
        assign cv_wsat[cv_k] = mv[cv_k] & (wcnt[cv_k*32 +: 32] == VMAX);
        assign cv_vsat[cv_k] = (rq_ack_kv == CK) & ((itb[cv_k*GVW +: GVW] < rq_ack_n) | (hgive[cv_k*GVW +: GVW] < rq_ack_n));
        assign cv_nq[cv_k]   = mv[cv_k] & mqos[cv_k] & (|cum_c[cv_k*32 +: 32]) & (hist[cv_k*32 +: 32] < mgoal[cv_k*32 +: 32]);
    end

    // 4 kernel table: a commit of a new application (pl_keep 0); a relaunch keeping a history
    // (pl_keep 1, cum_c != 0); a relaunch into an entry without one (fresh | (cum_c == 0) sets
    // fresh); a refused launch (dropped); kdone of a valid entry; a commit and a kdone of one entry
    // at one edge (the commit wins); a commit at the edge of a C1 / C2 result for its entry (pl_keep
    // 0: the commit wins; pl_keep 1: the result applies); a commit at the SNAP edge (S's wc) and at
    // G's store into its entry; a commit while the manager is IDLE (the table is maintained); kl_x
    // above ONE clamped at the launch; wcnt saturating; a pl_k or kdone_k >= KN (nothing changes)
    c_qm_4_commit_new:       cover property (@(posedge clk) !rst && commit && !pl_keep);
    c_qm_4_commit_keep:      cover property (@(posedge clk) !rst && commit && pl_keep && !cv_cum0[pl_k]);
    c_qm_4_commit_keep_cum0: cover property (@(posedge clk) !rst && commit && pl_keep && cv_cum0[pl_k] && !fresh[pl_k]);
    c_qm_4_refused:          cover property (@(posedge clk) !rst && pl_v && kl_rej);
    c_qm_4_kdone:            cover property (@(posedge clk) !rst && kdone_v && mv[kdone_k]);
    c_qm_4_commit_kdone:     cover property (@(posedge clk) !rst && commit && kdone_v && kdone_k == pl_k);
    c_qm_4_commit_c12_new:   cover property (@(posedge clk) !rst && commit && !pl_keep && cv_c12w && pk[KW-1:0] == pl_k);
    c_qm_4_commit_c12_keep:  cover property (@(posedge clk) !rst && commit && pl_keep && cv_c12w && pk[KW-1:0] == pl_k);
    c_qm_4_commit_snap:      cover property (@(posedge clk) !rst && commit && snap_e);
    c_qm_4_commit_g:         cover property (@(posedge clk) !rst && commit && act && g_gath && g_s == SLASTN && g_k == pl_k);
    c_qm_4_commit_idle:      cover property (@(posedge clk) !rst && commit && st == ST_IDLE);
    c_qm_4_x_clamp:          cover property (@(posedge clk) !rst && kl_v && kl_x > ONE17);
    c_qm_4_wcnt_sat:         cover property (@(posedge clk) !rst && (|cv_wsat));
    c_qm_4_k_range:          cover property (@(posedge clk) !rst && ((commit && {1'b0, pl_k} >= KNX)
                                                                    || (kdone_v && {1'b0, kdone_k} >= KNX)));

    // 5 host port: a write to a read-only address, to an unmapped one (both ignored); a read of an
    // unmapped address, of an array element >= KN (both read 0)
    c_qm_5_wr_ro:            cover property (@(posedge clk) !rst && m_we && cv_wro);
    c_qm_5_wr_unmapped:      cover property (@(posedge clk) !rst && m_we && !cv_wrw && !cv_wro);
    c_qm_5_rd_unmapped:      cover property (@(posedge clk) !rst && !cv_r0 && !cv_rarr);
    c_qm_5_rd_range:         cover property (@(posedge clk) !rst && cv_rarr && cv_rrange);

    // 6 timeline: enable; each INIT step (init 4: CMD = 3, RUN and the latches at its edge); the
    // epoch-start latches at an epoch's end; MODE OFF, 3 (-> OFF), SMK, QOS latched; a mode change;
    // EPOCH_LEN below LC raised to LC, above it taken; epochs saturating; the SNAP cycle; a disable in
    // INIT, in RUN, inside the microprogram, with the TLP unit running, at the SNAP cycle and at the
    // epoch's last cycle (the disable wins); the STOP cycle; EN = 1 during STOP (ignored), while
    // running, EN = 0 while IDLE (only MCTRL changes); an MCTRL write at a latch edge (the old MODE
    // latched)
    c_qm_6_enable:           cover property (@(posedge clk) !rst && en_edge);
    c_qm_6_init0:            cover property (@(posedge clk) !rst && st == ST_INIT && init_i == 3'd0 && !dis);
    c_qm_6_init1:            cover property (@(posedge clk) !rst && st == ST_INIT && init_i == 3'd1 && !dis);
    c_qm_6_init2:            cover property (@(posedge clk) !rst && st == ST_INIT && init_i == 3'd2 && !dis);
    c_qm_6_init3:            cover property (@(posedge clk) !rst && st == ST_INIT && init_i == 3'd3 && !dis);
    c_qm_6_init4_latch:      cover property (@(posedge clk) !rst && init_end);
    c_qm_6_latch_epoch:      cover property (@(posedge clk) !rst && act && ep_end);
    c_qm_6_mode_off:         cover property (@(posedge clk) !rst && latch && mctrl[MC_MODE +: 2] == QM_OFF);
    c_qm_6_mode_3:           cover property (@(posedge clk) !rst && latch && mctrl[MC_MODE +: 2] == 2'd3);
    c_qm_6_mode_smk:         cover property (@(posedge clk) !rst && latch && new_mode == QM_SMK);
    c_qm_6_mode_qos:         cover property (@(posedge clk) !rst && latch && new_mode == QM_QOS);
    c_qm_6_mode_change:      cover property (@(posedge clk) !rst && act && ep_end && new_mode != cur_mode);
    c_qm_6_len_raised:       cover property (@(posedge clk) !rst && latch && elen_x < lc_new);
    c_qm_6_len_reg:          cover property (@(posedge clk) !rst && latch && elen_x > lc_new);
    c_qm_6_epochs_sat:       cover property (@(posedge clk) !rst && latch && epochs == VMAX);
    c_qm_6_snap:             cover property (@(posedge clk) !rst && snap_e);
    c_qm_6_dis_init:         cover property (@(posedge clk) !rst && dis && st == ST_INIT);
    c_qm_6_dis_run:          cover property (@(posedge clk) !rst && dis && run);
    c_qm_6_dis_mp:           cover property (@(posedge clk) !rst && dis && run && ph != PH_NONE);
    c_qm_6_dis_tlp:          cover property (@(posedge clk) !rst && dis && tl_st != TL_IDLE);
    c_qm_6_dis_snap:         cover property (@(posedge clk) !rst && dis && s_cyc);
    c_qm_6_dis_ep_end:       cover property (@(posedge clk) !rst && dis && ep_end);
    c_qm_6_stop:             cover property (@(posedge clk) !rst && st == ST_STOP);
    c_qm_6_stop_en:          cover property (@(posedge clk) !rst && st == ST_STOP && w_mctrl && m_wdata[MC_EN]);
    c_qm_6_en_running:       cover property (@(posedge clk) !rst && w_mctrl && m_wdata[MC_EN] && (st == ST_INIT || run));
    c_qm_6_dis_idle:         cover property (@(posedge clk) !rst && w_mctrl && !m_wdata[MC_EN] && st == ST_IDLE);
    c_qm_6_latch_mctrl:      cover property (@(posedge clk) !rst && latch && w_mctrl);

    // 7.1 S in QOS (or OFF) and in SMK mode; G: a pair read (g_ksv), a pair without a slot, the
    // sums stored with mv and (written whatever mv) without
    c_qm_7_s_qos:            cover property (@(posedge clk) !rst && snap_e && cur_mode != QM_SMK);
    c_qm_7_s_smk:            cover property (@(posedge clk) !rst && snap_e && cur_mode == QM_SMK);
    c_qm_7_g_read:           cover property (@(posedge clk) !rst && act && g_gath && g_ksv);
    c_qm_7_g_noslot:         cover property (@(posedge clk) !rst && act && g_gath && !g_ksv);
    c_qm_7_g_store:          cover property (@(posedge clk) !rst && act && g_gath && g_s == SLASTN && mv[g_k]);
    c_qm_7_g_store_nomv:     cover property (@(posedge clk) !rst && act && g_gath && g_s == SLASTN && !mv[g_k]);
    // 7.2 C1: a sub-step of a kernel with mv = 0 (nothing committed); c1.0 accumulating, halving,
    // no window (wc = 0); c1.1 ipc_ep, saturated, not written (wc = 0); c1.2 hist = 0 (cum_c = 0),
    // divided, saturated; c1.3 alpha = ONE without history, held at ONE by MCTRL.NOHIST where the
    // history would raise it, raised above ONE, floored at ONE, a0 =
    // VMAX (hist = 0 with cycles); c1.4 agoal, saturated, dbt carried, clamped at agoal, clamped at
    // 0, cleared (DEBT off or not QoS); c1.5 ratio, its divisor clamped at VMAX, a zero divisor;
    // c1.6 P of a QoS kernel, saturated, a non-QoS kernel skipped; c1.7 gN; c1.8 hgive 0 by hist = 0,
    // 0 by hq >= tsum, a margin, clamped at 2^GVW - 1
    c_qm_7_c1_skip:          cover property (@(posedge clk) !rst && cv_c1e && !cv_pmv);
    c_qm_7_c10_acc:          cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd0 && cv_pmv && k_wc != 32'd0 && !c_half);
    c_qm_7_c10_half:         cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd0 && cv_pmv && k_wc != 32'd0 && c_half);
    c_qm_7_c10_nowin:        cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd0 && cv_pmv && k_wc == 32'd0);
    c_qm_7_c11_ipc:          cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd1 && cv_pmv && k_wc != 32'd0 && !dv_sat);
    c_qm_7_c11_sat:          cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd1 && cv_pmv && k_wc != 32'd0 && dv_sat);
    c_qm_7_c11_nowin:        cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd1 && cv_pmv && k_wc == 32'd0);
    c_qm_7_c12_zero:         cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd2 && cv_pmv && k_cumc == 32'd0);
    c_qm_7_c12_div:          cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd2 && cv_pmv && k_cumc != 32'd0 && !dv_sat);
    c_qm_7_c12_sat:          cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd2 && cv_pmv && k_cumc != 32'd0 && dv_sat);
    c_qm_7_c13_nohist:       cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd3 && cv_pmv && k_cumc == 32'd0);
    c_qm_7_c13_raise:        cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd3 && cv_pmv && k_cumc != 32'd0 && c_alpha != ONE);
    c_qm_7_c13_fixed:        cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd3 && cv_pmv && k_cumc != 32'd0 && mctrl[MC_NOHIST] && gt_one(dv_q32));
    c_qm_7_c13_one:          cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd3 && cv_pmv && k_cumc != 32'd0 && c_alpha == ONE);
    c_qm_7_c13_starved:      cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd3 && cv_pmv && k_cumc != 32'd0 && k_hist == 32'd0);
    c_qm_7_c14_agoal:        cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd4 && cv_pmv && mu_r != VMAX);
    c_qm_7_c14_sat:          cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd4 && cv_pmv && mu_r == VMAX);
    c_qm_7_c14_dbt_carry:    cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd4 && cv_pmv && mctrl[MC_DEBT] && k_qos && c_dpos && c_dlt);
    c_qm_7_c14_dbt_max:      cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd4 && cv_pmv && mctrl[MC_DEBT] && k_qos && c_dpos && !c_dlt);
    c_qm_7_c14_dbt_zero:     cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd4 && cv_pmv && mctrl[MC_DEBT] && k_qos && !c_dpos);
    c_qm_7_c14_dbt_off:      cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd4 && cv_pmv && !(mctrl[MC_DEBT] && k_qos) && k_dbt != 32'd0);
    c_qm_7_c15_ratio:        cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd5 && cv_pmv);
    c_qm_7_c15_den_sat:      cover property (@(posedge clk) !rst && cv_ld && in_c1 && sub == 4'd5 && cv_pmv && c_ds[32]);
    c_qm_7_c15_den_zero:     cover property (@(posedge clk) !rst && cv_ld && in_c1 && sub == 4'd5 && cv_pmv && c_den == 32'd0);
    c_qm_7_c16_p:            cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd6 && cv_pmv && k_qos && mu_r != VMAX);
    c_qm_7_c16_sat:          cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd6 && cv_pmv && k_qos && mu_r == VMAX);
    c_qm_7_c16_nonqos:       cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd6 && cv_pmv && !k_qos);
    c_qm_7_c17_gn:           cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd7 && cv_pmv);
    c_qm_7_c18_hist0:        cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd8 && cv_pmv && k_hist == 32'd0);
    c_qm_7_c18_met:          cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd8 && cv_pmv && k_hist != 32'd0 && !cv_hdc);
    c_qm_7_c18_give:         cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd8 && cv_pmv && k_hist != 32'd0 && c_hgive != {GVW{1'b0}});
    c_qm_7_c18_clamp:        cover property (@(posedge clk) !rst && cv_c1e && sub == 4'd8 && cv_pmv && k_hist != 32'd0 && cv_hdc && cv_hdx);
    // 7.3 C2: a sub-step of a kernel with mv = 0; c2.0 a non-QoS goal from 1.0 (fresh), from
    // ipc_ep, floored at 1.0, a QoS kernel (fresh cleared only); c2.1 Q, Lq raised to LC, Q
    // saturated; c2.2 qpt with T = 0 (divided by 1), with T > 0
    c_qm_7_c2_skip:          cover property (@(posedge clk) !rst && cv_c2e && !cv_pmv);
    c_qm_7_c20_fresh:        cover property (@(posedge clk) !rst && cv_c2e && sub == 4'd0 && cv_pmv && !k_qos && k_fresh);
    c_qm_7_c20_ipc:          cover property (@(posedge clk) !rst && cv_c2e && sub == 4'd0 && cv_pmv && !k_qos && !k_fresh);
    c_qm_7_c20_floor:        cover property (@(posedge clk) !rst && cv_c2e && sub == 4'd0 && cv_pmv && !k_qos && mu_r < ONE);
    c_qm_7_c20_qos:          cover property (@(posedge clk) !rst && cv_c2e && sub == 4'd0 && cv_pmv && k_qos);
    c_qm_7_c21_q:            cover property (@(posedge clk) !rst && cv_c2e && sub == 4'd1 && cv_pmv && mu_r != VMAX);
    c_qm_7_c21_lc:           cover property (@(posedge clk) !rst && cv_ld && in_c2 && sub == 4'd1 && cv_pmv && elen_x < lc_new);
    c_qm_7_c21_sat:          cover property (@(posedge clk) !rst && cv_c2e && sub == 4'd1 && cv_pmv && mu_r == VMAX);
    c_qm_7_c22_t0:           cover property (@(posedge clk) !rst && cv_c2e && sub == 4'd2 && cv_pmv && k_tsum == {TW{1'b0}});
    c_qm_7_c22_qpt:          cover property (@(posedge clk) !rst && cv_c2e && sub == 4'd2 && cv_pmv && k_tsum != {TW{1'b0}});
    // 7.1 W: a QUOTA write; a pair not written; a pair with a slot of a kernel with mv = 0 (not
    // written); x_q clamped at QMAX; a QoS kernel's qm bit set. F0-F3 each; F1 with a QoS mask
    c_qm_7_w_write:          cover property (@(posedge clk) !rst && act && w_wr && x_v);
    c_qm_7_w_skip:           cover property (@(posedge clk) !rst && act && w_wr && !x_v);
    c_qm_7_w_nomv:           cover property (@(posedge clk) !rst && act && ph == PH_W && pn != {PNW{1'b0}} && pn <= PN_NP && g_ksv && !gk_mv);
    c_qm_7_w_clamp:          cover property (@(posedge clk) !rst && act && w_x && o_v && (|mu_r[31:QW-1]));
    c_qm_7_w_qmask:          cover property (@(posedge clk) !rst && act && w_x && o_v && o_q);
    c_qm_7_f0:               cover property (@(posedge clk) !rst && act && ph == PH_F && sub == 4'd0);
    c_qm_7_f1:               cover property (@(posedge clk) !rst && act && ph == PH_F && sub == 4'd1);
    c_qm_7_f1_mask:          cover property (@(posedge clk) !rst && act && ph == PH_F && sub == 4'd1 && (|qm));
    c_qm_7_f2:               cover property (@(posedge clk) !rst && act && ph == PH_F && sub == 4'd2);
    c_qm_7_f3:               cover property (@(posedge clk) !rst && act && ph == PH_F && sub == 4'd3);
    // 7.4 SMK: R (smk_r), with mt = 0 (divided by 1), saturated (x / T = 1); A: cb of a kernel with
    // a slot, cb = 0 without, sumc saturating; Fd: F, saturated with sumc != 0, sumc = 0; B: a
    // QUOTA write, a kernel not written, x_q clamped at QMAX; the next SM's A after B
    c_qm_7_r:                cover property (@(posedge clk) !rst && act && ph == PH_R && cy_last && !dv_sat);
    c_qm_7_r_t0:             cover property (@(posedge clk) !rst && cv_ld && ph == PH_R && k_mt == {GVW{1'b0}});
    c_qm_7_r_sat:            cover property (@(posedge clk) !rst && act && ph == PH_R && cy_last && dv_sat);
    c_qm_7_a_cb:             cover property (@(posedge clk) !rst && act && a_x && o_v);
    c_qm_7_a_none:           cover property (@(posedge clk) !rst && act && a_x && !o_v);
    c_qm_7_a_sumsat:         cover property (@(posedge clk) !rst && act && a_x && a_sum[32]);
    c_qm_7_fd:               cover property (@(posedge clk) !rst && act && ph == PH_FD && cy_last && !dv_sat);
    c_qm_7_fd_sat:           cover property (@(posedge clk) !rst && act && ph == PH_FD && cy_last && dv_sat && sumc != 32'd0);
    c_qm_7_fd_sum0:          cover property (@(posedge clk) !rst && act && ph == PH_FD && cy_last && sumc == 32'd0);
    c_qm_7_b_write:          cover property (@(posedge clk) !rst && act && b_wr && x_v);
    c_qm_7_b_skip:           cover property (@(posedge clk) !rst && act && b_wr && !x_v);
    c_qm_7_b_clamp:          cover property (@(posedge clk) !rst && act && b_lat && o_v && (|mu_r[31:QW-1]));
    c_qm_7_b_next_sm:        cover property (@(posedge clk) !rst && act && ph == PH_B && pk == KNX && cy_mlast && ps != SLAST);

    // 8 TLP unit: a pass started by a need, by GIVE alone; TLP on but not started as the mode is
    // not QOS, as nothing needs or gives; each state SMP, LK, RD, MU; DV: an idle-TB count, 0
    // without a slot, 0 with sk = 0, clamped at 2^GVW - 1; REQ's three outcomes (a QoS request, a
    // give-back request, NEXT) and a request TLPQ withholds; WRDY waiting, accepted; WACK waiting,
    // VICTIM (itb and hgive reduced), VICTIM saturating at 0, another status; NEXT: the next kernel,
    // the next SM, the pass's end, a pass wrapping modulo NSM; the SNAP abort in each non-IDLE
    // state, with a request accepted at its edge (the ack ignored), with an ack at its edge (the
    // reduction applies); an ack outside WACK (ignored)
    c_qm_8_start_need:       cover property (@(posedge clk) !rst && latch && tl_start && (|need));
    c_qm_8_start_give:       cover property (@(posedge clk) !rst && latch && tl_start && !(|need));
    c_qm_8_nostart_mode:     cover property (@(posedge clk) !rst && latch && mctrl[MC_TLP] && new_mode != QM_QOS && (|need));
    c_qm_8_nostart_need:     cover property (@(posedge clk) !rst && latch && mctrl[MC_TLP] && new_mode == QM_QOS && !tl_start);
    c_qm_8_smp:              cover property (@(posedge clk) !rst && act && tl_st == TL_SMP);
    c_qm_8_lk:               cover property (@(posedge clk) !rst && act && tl_st == TL_LK);
    c_qm_8_rd:               cover property (@(posedge clk) !rst && act && tl_st == TL_RD);
    c_qm_8_mu:               cover property (@(posedge clk) !rst && act && tl_st == TL_MU);
    c_qm_8_dv_itb:           cover property (@(posedge clk) !rst && cv_dve && t_itb != {GVW{1'b0}});
    c_qm_8_dv_noslot:        cover property (@(posedge clk) !rst && cv_dve && !(g_ksv && tv_mv));
    c_qm_8_dv_sk0:           cover property (@(posedge clk) !rst && cv_dve && g_ksv && tv_mv && sk == 32'd0);
    c_qm_8_dv_clamp:         cover property (@(posedge clk) !rst && cv_dve && g_ksv && tv_mv && sk != 32'd0 && (|t_itbq[31:GVW]));
    c_qm_8_req_qos:          cover property (@(posedge clk) !rst && act && tl_st == TL_REQ && cv_rqq);
    c_qm_8_req_give:         cover property (@(posedge clk) !rst && act && tl_st == TL_REQ && cv_rqg);
    c_qm_8_req_next:         cover property (@(posedge clk) !rst && act && tl_st == TL_REQ && !cv_rqq && !cv_rqg);
    c_qm_8_req_tlpq:         cover property (@(posedge clk) !rst && act && tl_st == TL_REQ && cv_nq[tl_v[KW-1:0]] && !tv_need);
    c_qm_8_wrdy_wait:        cover property (@(posedge clk) !rst && act && tl_st == TL_WRDY && !rq_rdy);
    c_qm_8_wrdy_acc:         cover property (@(posedge clk) !rst && act && tl_st == TL_WRDY && rq_rdy);
    c_qm_8_wack_wait:        cover property (@(posedge clk) !rst && act && tl_st == TL_WACK && !rq_ack_v);
    c_qm_8_wack_victim:      cover property (@(posedge clk) !rst && act && tl_st == TL_WACK && rq_ack_v && rq_ack_st == ACK_VICTIM);
    c_qm_8_wack_sat0:        cover property (@(posedge clk) !rst && act && tl_st == TL_WACK && rq_ack_v && rq_ack_st == ACK_VICTIM && (|cv_vsat));
    c_qm_8_wack_other:       cover property (@(posedge clk) !rst && act && tl_st == TL_WACK && rq_ack_v && rq_ack_st != ACK_VICTIM);
    c_qm_8_next_k:           cover property (@(posedge clk) !rst && cv_next && tl_v != KLAST);
    c_qm_8_next_sm:          cover property (@(posedge clk) !rst && cv_next && tl_v == KLAST && tl_n != SLAST);
    c_qm_8_pass_end:         cover property (@(posedge clk) !rst && cv_next && tl_v == KLAST && tl_n == SLAST);
    c_qm_8_wrap:             cover property (@(posedge clk) !rst && cv_next && tl_v == KLAST && tl_s == SLAST && tl_n != SLAST);
    c_qm_8_abort_smp:        cover property (@(posedge clk) !rst && snap_e && tl_st == TL_SMP);
    c_qm_8_abort_lk:         cover property (@(posedge clk) !rst && snap_e && tl_st == TL_LK);
    c_qm_8_abort_rd:         cover property (@(posedge clk) !rst && snap_e && tl_st == TL_RD);
    c_qm_8_abort_mu:         cover property (@(posedge clk) !rst && snap_e && tl_st == TL_MU);
    c_qm_8_abort_dv:         cover property (@(posedge clk) !rst && snap_e && tl_st == TL_DV);
    c_qm_8_abort_req:        cover property (@(posedge clk) !rst && snap_e && tl_st == TL_REQ);
    c_qm_8_abort_wrdy:       cover property (@(posedge clk) !rst && snap_e && tl_st == TL_WRDY);
    c_qm_8_abort_wack:       cover property (@(posedge clk) !rst && snap_e && tl_st == TL_WACK);
    c_qm_8_abort_acc:        cover property (@(posedge clk) !rst && snap_e && tl_st == TL_WRDY && rq_rdy);
    c_qm_8_abort_ack:        cover property (@(posedge clk) !rst && snap_e && tl_st == TL_WACK && rq_ack_v);
    c_qm_8_ack_stray:        cover property (@(posedge clk) !rst && rq_ack_v && !(act && tl_st == TL_WACK));
`endif

endmodule
`default_nettype wire
