// smk_prims.vh: the RTL's shared primitives, written once (found with -I rtl, as smk_cfg.vh is with
// -I build/CONFIG). Verilog-2005 has no functions of generic width, so each primitive is a macro that
// declares a function inside the module that invokes it, with the name and widths given:
//
//   `SMK_DEF_CLOG2(NAME)            integer NAME(v): bits to index v items = ceil(log2(v)), at least 1
//                                   (hw/hwgen.c's clog2; for constant expressions)
//   `SMK_DEF_POPCNT(NAME, W, OW)    [OW-1:0] NAME([W-1:0] x): number of set bits (mod 2^OW): the
//                                   bits counted in groups of four, the group counts reduced by
//                                   3:2 carry-save rows taken from a queue (row j of the
//                                   reduction reads rows 3j, 3j+1, 3j+2 and writes rows N+2j,
//                                   N+2j+1 of N groups, so the rows of one level are consumed
//                                   before the next level's and every index is linear in the loop
//                                   counter: Yosys and Verilator both unroll it to constants), one
//                                   final add (16 bits: 18 AND2 levels where the sum of the bits
//                                   in order maps to 23; 64: 33-34 against 44; make formal proves
//                                   it equal to that sum)
//   `SMK_DEF_LOWBIT(NAME, W, IW)    [IW-1:0] NAME([W-1:0] m): index of the lowest set bit, 0 if none
//   `SMK_DEF_SEL(NAME, N, WD, IW)   [WD-1:0] NAME([N*WD-1:0] v, [IW-1:0] i): row i of N packed rows
//                                   of WD bits (row a at [a*WD +: WD]); one compare per row and a mux
//                                   of the rows (synthesis sees decoded selects of one row, never a
//                                   shifter over the whole vector); an index >= N reads 0
//   `SMK_DEF_OSEL(NAME, N, WD)      [WD-1:0] NAME([N*WD-1:0] v, [N-1:0] m): the OR of the rows whose
//                                   bit of m is set (row i with a one-hot m = 1 << i: an AND-OR
//                                   select without a decoder)
//   `SMK_DEF_ZX(NAME, WI, WO)       [WO-1:0] NAME([WI-1:0] v): zero extension, WI <= WO
//   `SMK_DEF_PFXCNT(NAME, W, OW)    [W*OW-1:0] NAME([W-1:0] x): inclusive prefix counts, field i
//                                   ([i*OW +: OW]) = set bits of x[i:0]; a Sklansky tree of
//                                   ceil(log2(W)) adder levels (field W-1 is the popcount)
//   `SMK_DEF_MINV(NAME, N, KWD)     [KWD-1:0] NAME([N-1:0] v, [N*KWD-1:0] key): the lowest key of the
//                                   valid entries, 0 if none; a balanced tree (the highest key of a
//                                   non-empty set is ~NAME(v, ~key))
//   `SMK_DEF_ARGMIN(NAME, N, KWD, IW)  [IW:0] NAME([N-1:0] v, [N*KWD-1:0] key): {found, index} of
//                                   the valid entry with the lowest key, ties to the lowest index
//                                   ({0, 0} if none); a balanced tree of ceil(log2(N)) compare
//                                   levels (the same result as a scan in index order that takes
//                                   an entry only if its key is strictly lower)
//   `SMK_DEF_LO1(NAME, W)           [W-1:0] NAME([W-1:0] x): the lowest set bit of x as a one-hot vector
//                                   (0 if none); bit i = x[i] and no set bit below it, an OR tree
//                                   per bit (the choice of a scan in index order, without its chain)
//   `SMK_DEF_HI1(NAME, W)           [W-1:0] NAME([W-1:0] x): the highest set bit of x, one-hot
//   `SMK_DEF_ENC(NAME, W, IW)       [IW-1:0] NAME([W-1:0] x): the index of a one-hot x, one OR of
//                                   the set bits per index bit (0 if x is 0)
//
// One primitive is a generate block, not a function, because its nets must be kept:
//
//   `SMK_SKL_ADD(BLK, N, A, B, CI, S)  S = A + B + CI on N >= 1 bits (the carry out of bit N - 1
//                                   dropped: zero-extend the operands by a bit to read it in S's
//                                   top bit). A Sklansky parallel-prefix adder, ceil(log2(N))
//                                   levels of {generate, propagate}, each level's nets `(* keep *)`:
//                                   the area-oriented AIG rewriting of the timing flow (`abc -g
//                                   AND`) turns any adder without kept nets back into a ripple
//                                   chain (docs/timing.md "Kept adder nets"). BLK names the
//                                   generate block (an `if (1)`); A, B, CI are expressions of
//                                   wires or registers of any process; S is a wire of N bits.
//                                   Simulated right by Verilator 5.006 only with
//                                   -fno-const-bit-op-tree (docs/verification.md "Tool problems").
//
// Arguments are constant expressions of the module's parameters; they must not name a, b, i, m, v
// or x, or aw, key, l, r, ti, tk, tv (the functions' own inputs and locals); SMK_SKL_ADD's names
// begin with skl_ and SKL_.
`ifndef SMK_PRIMS_VH
`define SMK_PRIMS_VH

`define SMK_DEF_CLOG2(NAME) \
    function integer NAME(input integer v); \
        integer b; \
        begin \
            b = 0; \
            while ((1 << b) < v) b = b + 1; \
            NAME = (b < 1) ? 1 : b; \
        end \
    endfunction

// SMK_DEF_POPCNT's row count: the 4-bit groups of W bits, at least 2 (a zero row for W <= 4)
`define SMK_PPC_N(W) ((((W)+3)/4) < 2 ? 2 : (((W)+3)/4))

`define SMK_DEF_POPCNT(NAME, W, OW) \
    function [(OW)-1:0] NAME(input [(W)-1:0] x); \
        reg [4*`SMK_PPC_N(W)-1:0] ppc_x; \
        reg [(OW)-1:0] ppc_q [0:3*`SMK_PPC_N(W)-5]; \
        reg [(OW)-1:0] ppc_a, ppc_b, ppc_c; \
        integer ppc_j; \
        begin \
            ppc_x = {(4*`SMK_PPC_N(W)){1'b0}}; \
            ppc_x[(W)-1:0] = x; \
            for (ppc_j = 0; ppc_j < `SMK_PPC_N(W); ppc_j = ppc_j + 1) \
                ppc_q[ppc_j] = {{((OW)-1){1'b0}}, ppc_x[4*ppc_j]} + {{((OW)-1){1'b0}}, ppc_x[4*ppc_j+1]} \
                             + {{((OW)-1){1'b0}}, ppc_x[4*ppc_j+2]} + {{((OW)-1){1'b0}}, ppc_x[4*ppc_j+3]}; \
            for (ppc_j = 0; ppc_j < `SMK_PPC_N(W) - 2; ppc_j = ppc_j + 1) begin \
                ppc_a = ppc_q[3*ppc_j]; \
                ppc_b = ppc_q[3*ppc_j+1]; \
                ppc_c = ppc_q[3*ppc_j+2]; \
                ppc_q[`SMK_PPC_N(W)+2*ppc_j] = ppc_a ^ ppc_b ^ ppc_c; \
                ppc_q[`SMK_PPC_N(W)+2*ppc_j+1] = ((ppc_a & ppc_b) | (ppc_a & ppc_c) | (ppc_b & ppc_c)) << 1; \
            end \
            NAME = ppc_q[3*`SMK_PPC_N(W)-6] + ppc_q[3*`SMK_PPC_N(W)-5]; \
        end \
    endfunction

`define SMK_DEF_LOWBIT(NAME, W, IW) \
    function [(IW)-1:0] NAME(input [(W)-1:0] m); \
        integer i; \
        begin \
            NAME = {(IW){1'b0}}; \
            for (i = (W) - 1; i >= 0; i = i - 1) \
                if (m[i]) NAME = i[(IW)-1:0]; \
        end \
    endfunction

`define SMK_DEF_SEL(NAME, N, WD, IW) \
    function [(WD)-1:0] NAME(input [(N)*(WD)-1:0] v, input [(IW)-1:0] i); \
        integer a; \
        begin \
            NAME = {(WD){1'b0}}; \
            for (a = 0; a < (N); a = a + 1) \
                if (i == a[(IW)-1:0]) NAME = v[a*(WD) +: (WD)]; \
        end \
    endfunction

`define SMK_DEF_OSEL(NAME, N, WD) \
    function [(WD)-1:0] NAME(input [(N)*(WD)-1:0] v, input [(N)-1:0] m); \
        integer a; \
        begin \
            NAME = {(WD){1'b0}}; \
            for (a = 0; a < (N); a = a + 1) \
                NAME = NAME | (v[a*(WD) +: (WD)] & {(WD){m[a]}}); \
        end \
    endfunction

`define SMK_DEF_ZX(NAME, WI, WO) \
    function [(WO)-1:0] NAME(input [(WI)-1:0] v); \
        begin \
            NAME = {(WO){1'b0}}; \
            NAME[(WI)-1:0] = v; \
        end \
    endfunction

`define SMK_DEF_PFXCNT(NAME, W, OW) \
    function [(W)*(OW)-1:0] NAME(input [(W)-1:0] x); \
        integer i, l; \
        begin \
            NAME = {((W)*(OW)){1'b0}}; \
            for (i = 0; i < (W); i = i + 1) \
                NAME[i*(OW)] = x[i]; \
            for (l = 1; l < (W); l = l * 2) \
                for (i = 0; i < (W); i = i + 1) \
                    if ((i / l) % 2 == 1) \
                        NAME[i*(OW) +: (OW)] = NAME[i*(OW) +: (OW)] + NAME[((i / l) * l - 1)*(OW) +: (OW)]; \
        end \
    endfunction

`define SMK_DEF_MINV(NAME, N, KWD) \
    function [(KWD)-1:0] NAME(input [(N)-1:0] v, input [(N)*(KWD)-1:0] key); \
        reg [(1 << $clog2(N))-1:0] tv; \
        reg [(1 << $clog2(N))*(KWD)-1:0] tk; \
        reg r; \
        integer i, aw; \
        begin \
            tv = {(1 << $clog2(N)){1'b0}}; \
            tk = {((1 << $clog2(N))*(KWD)){1'b0}}; \
            for (i = 0; i < (N); i = i + 1) begin \
                tv[i] = v[i]; \
                tk[i*(KWD) +: (KWD)] = key[i*(KWD) +: (KWD)]; \
            end \
            for (aw = (1 << $clog2(N)) / 2; aw >= 1; aw = aw / 2) \
                for (i = 0; i < aw; i = i + 1) begin \
                    r = tv[2*i+1] & (~tv[2*i] | (tk[(2*i+1)*(KWD) +: (KWD)] < tk[2*i*(KWD) +: (KWD)])); \
                    tv[i] = tv[2*i] | tv[2*i+1]; \
                    tk[i*(KWD) +: (KWD)] = r ? tk[(2*i+1)*(KWD) +: (KWD)] : tk[2*i*(KWD) +: (KWD)]; \
                end \
            NAME = tv[0] ? tk[0 +: (KWD)] : {(KWD){1'b0}}; \
        end \
    endfunction

`define SMK_DEF_ARGMIN(NAME, N, KWD, IW) \
    function [(IW):0] NAME(input [(N)-1:0] v, input [(N)*(KWD)-1:0] key); \
        reg [(1 << $clog2(N))-1:0] tv; \
        reg [(1 << $clog2(N))*(KWD)-1:0] tk; \
        reg [(1 << $clog2(N))*(IW)-1:0] ti; \
        reg r; \
        integer i, aw; \
        begin \
            tv = {(1 << $clog2(N)){1'b0}}; \
            tk = {((1 << $clog2(N))*(KWD)){1'b0}}; \
            ti = {((1 << $clog2(N))*(IW)){1'b0}}; \
            for (i = 0; i < (N); i = i + 1) begin \
                tv[i] = v[i]; \
                tk[i*(KWD) +: (KWD)] = key[i*(KWD) +: (KWD)]; \
                ti[i*(IW) +: (IW)] = i[(IW)-1:0]; \
            end \
            for (aw = (1 << $clog2(N)) / 2; aw >= 1; aw = aw / 2) \
                for (i = 0; i < aw; i = i + 1) begin \
                    r = tv[2*i+1] & (~tv[2*i] | (tk[(2*i+1)*(KWD) +: (KWD)] < tk[2*i*(KWD) +: (KWD)])); \
                    tv[i] = tv[2*i] | tv[2*i+1]; \
                    tk[i*(KWD) +: (KWD)] = r ? tk[(2*i+1)*(KWD) +: (KWD)] : tk[2*i*(KWD) +: (KWD)]; \
                    ti[i*(IW) +: (IW)] = r ? ti[(2*i+1)*(IW) +: (IW)] : ti[2*i*(IW) +: (IW)]; \
                end \
            NAME = {tv[0], ti[0 +: (IW)]}; \
        end \
    endfunction

// The same functions written for depth (all pairs compared in parallel, then a one-hot AND-OR
// select): entry a wins iff it is valid, its key is below every valid key of a lower index and not
// above any valid key of a higher index (lowest key, ties to the lowest index: the tree's result).
// N(N-1)/2 comparators instead of N-1: for the KN-sized searches of the decision pipeline.
`define SMK_DEF_ARGMIN_PW(NAME, N, KWD, IW) \
    function [(IW):0] NAME(input [(N)-1:0] v, input [(N)*(KWD)-1:0] key); \
        reg [(N)*(N)-1:0] pw_le; \
        reg [(N)-1:0] pw_w; \
        reg [(IW)-1:0] pw_ix; \
        integer a, b; \
        begin \
            pw_le = {((N)*(N)){1'b0}}; \
            for (a = 0; a < (N); a = a + 1) \
                for (b = a + 1; b < (N); b = b + 1) \
                    pw_le[a*(N) + b] = (key[a*(KWD) +: (KWD)] <= key[b*(KWD) +: (KWD)]); \
            pw_w = v; \
            for (a = 0; a < (N); a = a + 1) \
                for (b = 0; b < (N); b = b + 1) \
                    if (b < a) pw_w[a] = pw_w[a] & (~v[b] | ~pw_le[b*(N) + a]); \
                    else if (b > a) pw_w[a] = pw_w[a] & (~v[b] | pw_le[a*(N) + b]); \
            pw_ix = {(IW){1'b0}}; \
            for (a = 0; a < (N); a = a + 1) \
                pw_ix = pw_ix | (a[(IW)-1:0] & {(IW){pw_w[a]}}); \
            NAME = {|v, pw_ix}; \
        end \
    endfunction

`define SMK_DEF_MINV_PW(NAME, N, KWD) \
    function [(KWD)-1:0] NAME(input [(N)-1:0] v, input [(N)*(KWD)-1:0] key); \
        reg [(N)*(N)-1:0] pw_le; \
        reg [(N)-1:0] pw_w; \
        integer a, b; \
        begin \
            pw_le = {((N)*(N)){1'b0}}; \
            for (a = 0; a < (N); a = a + 1) \
                for (b = a + 1; b < (N); b = b + 1) \
                    pw_le[a*(N) + b] = (key[a*(KWD) +: (KWD)] <= key[b*(KWD) +: (KWD)]); \
            pw_w = v; \
            for (a = 0; a < (N); a = a + 1) \
                for (b = 0; b < (N); b = b + 1) \
                    if (b < a) pw_w[a] = pw_w[a] & (~v[b] | ~pw_le[b*(N) + a]); \
                    else if (b > a) pw_w[a] = pw_w[a] & (~v[b] | pw_le[a*(N) + b]); \
            NAME = {(KWD){1'b0}}; \
            for (a = 0; a < (N); a = a + 1) \
                NAME = NAME | (key[a*(KWD) +: (KWD)] & {(KWD){pw_w[a]}}); \
        end \
    endfunction

`define SMK_DEF_LO1(NAME, W) \
    function [(W)-1:0] NAME(input [(W)-1:0] x); \
        integer i; \
        begin \
            for (i = 0; i < (W); i = i + 1) \
                NAME[i] = x[i] & ~(|(x & ({(W){1'b1}} >> ((W) - i)))); \
        end \
    endfunction

`define SMK_DEF_HI1(NAME, W) \
    function [(W)-1:0] NAME(input [(W)-1:0] x); \
        integer i; \
        begin \
            for (i = 0; i < (W); i = i + 1) \
                NAME[i] = x[i] & ~(|(x & ({(W){1'b1}} << (i + 1)))); \
        end \
    endfunction

`define SMK_DEF_ENC(NAME, W, IW) \
    function [(IW)-1:0] NAME(input [(W)-1:0] x); \
        reg [(W)-1:0] m; \
        integer i, b; \
        begin \
            for (b = 0; b < (IW); b = b + 1) begin \
                for (i = 0; i < (W); i = i + 1) m[i] = (((i >> b) & 1) != 0); \
                NAME[b] = |(x & m); \
            end \
        end \
    endfunction

`define SMK_SKL_ADD(BLK, N, A, B, CI, S) \
    if (1) begin : BLK \
        localparam integer SKL_NL = $clog2(N); \
        wire [(N)-1:0] skl_u = A; \
        wire [(N)-1:0] skl_v = B; \
        wire           skl_c0 = CI; \
        wire [(N)-1:0] skl_p = skl_u ^ skl_v; \
        (* keep *) wire [(SKL_NL+1)*2*(N)-1:0] skl_lv /*verilator split_var*/; \
        assign skl_lv[0 +: 2*(N)] = {skl_p, (skl_u & skl_v) | {{((N)-1){1'b0}}, skl_p[0] & skl_c0}}; \
        genvar skl_gl, skl_gb; \
        for (skl_gl = 0; skl_gl < SKL_NL; skl_gl = skl_gl + 1) begin : g_lv \
            localparam integer SKL_SD = 1 << skl_gl; \
            localparam integer SKL_SI = skl_gl * 2 * (N); \
            localparam integer SKL_SO = (skl_gl + 1) * 2 * (N); \
            for (skl_gb = 0; skl_gb < (N); skl_gb = skl_gb + 2 * SKL_SD) begin : g_bk \
                localparam integer SKL_LLO = (skl_gb + SKL_SD < (N)) ? SKL_SD : (N) - skl_gb; \
                localparam integer SKL_LHI = (skl_gb + SKL_SD < (N)) ? ((skl_gb + 2 * SKL_SD <= (N)) ? SKL_SD : (N) - skl_gb - SKL_SD) : 0; \
                assign skl_lv[SKL_SO + skl_gb +: SKL_LLO]       = skl_lv[SKL_SI + skl_gb +: SKL_LLO]; \
                assign skl_lv[SKL_SO + (N) + skl_gb +: SKL_LLO] = skl_lv[SKL_SI + (N) + skl_gb +: SKL_LLO]; \
                if (SKL_LHI > 0) begin : g_hi \
                    localparam integer SKL_ST = skl_gb + SKL_SD - 1; \
                    assign skl_lv[SKL_SO + skl_gb + SKL_SD +: SKL_LHI]       = skl_lv[SKL_SI + skl_gb + SKL_SD +: SKL_LHI] \
                                                         | (skl_lv[SKL_SI + (N) + skl_gb + SKL_SD +: SKL_LHI] & {SKL_LHI{skl_lv[SKL_SI + SKL_ST]}}); \
                    assign skl_lv[SKL_SO + (N) + skl_gb + SKL_SD +: SKL_LHI] = skl_lv[SKL_SI + (N) + skl_gb + SKL_SD +: SKL_LHI] & {SKL_LHI{skl_lv[SKL_SI + (N) + SKL_ST]}}; \
                end \
            end \
        end \
        wire [(N):0]   skl_c = {skl_lv[SKL_NL*2*(N) +: (N)], skl_c0}; \
        assign S = skl_p ^ skl_c[(N)-1:0]; \
        wire unused_skl = &{1'b0, skl_lv[SKL_NL*2*(N)+(N) +: (N)], skl_c[(N)]}; \
    end

`endif
