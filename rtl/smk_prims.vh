// smk_prims.vh: the RTL's shared primitives, written once (found with -I rtl, as smk_cfg.vh is with
// -I build/CONFIG). Verilog-2005 has no functions of generic width, so each primitive is a macro that
// declares a function inside the module that invokes it, with the name and widths given:
//
//   `SMK_DEF_CLOG2(NAME)            integer NAME(v): bits to index v items = ceil(log2(v)), at least 1
//                                   (hw/hwgen.c's clog2; for constant expressions)
//   `SMK_DEF_POPCNT(NAME, W, OW)    [OW-1:0] NAME([W-1:0] x): number of set bits, as a sum of the bits
//                                   in order (Yosys maps it to fewer generic cells than a balanced
//                                   tree of pairwise sums on every block that counts warps)
//   `SMK_DEF_LOWBIT(NAME, W, IW)    [IW-1:0] NAME([W-1:0] m): index of the lowest set bit, 0 if none
//   `SMK_DEF_SEL(NAME, N, WD, IW)   [WD-1:0] NAME([N*WD-1:0] v, [IW-1:0] i): row i of N packed rows
//                                   of WD bits (row a at [a*WD +: WD]); one compare per row and a mux
//                                   of the rows (synthesis sees decoded selects of one row, never a
//                                   shifter over the whole vector); an index >= N reads 0
//   `SMK_DEF_ZX(NAME, WI, WO)       [WO-1:0] NAME([WI-1:0] v): zero extension, WI <= WO
//
// Arguments are constant expressions of the module's parameters; they must not name a, b, i, m, v
// or x (the functions' own inputs and locals).
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

`define SMK_DEF_POPCNT(NAME, W, OW) \
    function [(OW)-1:0] NAME(input [(W)-1:0] x); \
        reg [(OW)-1:0] b; \
        integer i; \
        begin \
            NAME = {(OW){1'b0}}; \
            for (i = 0; i < (W); i = i + 1) begin \
                b = {(OW){1'b0}}; \
                b[0] = x[i]; \
                NAME = NAME + b; \
            end \
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

`define SMK_DEF_ZX(NAME, WI, WO) \
    function [(WO)-1:0] NAME(input [(WI)-1:0] v); \
        begin \
            NAME = {(WO){1'b0}}; \
            NAME[(WI)-1:0] = v; \
        end \
    endfunction

`endif
