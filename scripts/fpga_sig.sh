#!/usr/bin/env bash
# fpga_sig.sh - an iCE40 HX8K bitstream of one unit with an on-chip stimulus and a signature register,
# and the proof that the bitstream's netlist is the design: the C model, the RTL, the post-synthesis
# netlist and the post-route netlist read back from the bitstream give the same signature.
#
# Usage: scripts/fpga_sig.sh OUTDIR CONFIG UNIT CYCLES MODEL
#   MODEL: the C model's program (build/CONFIG/sig_model, testbench/fpga/sig_model.c)
#   SMK_SIG_VERILATOR=1: also simulate both netlists (and the planted bugs' netlists) with Verilator
#   SMK_SIG_PLANT=1:  also the planted bugs, each of which must change the signature: one LUT_INIT bit
#                     of the post-synthesis netlist (a copy), one LUT bit of the bitstream (a copy of
#                     the .asc), and one bit of the C model (a copy of cmodel/UNIT.c, rebuilt)
# `make fpga-sig` runs it on preempt_engine, warp_sched, quota_unit and sm_top for 20,000 cycles with
# both, `make fpga-sig-test` (in `make test`) on the first two for 2,000 cycles with the planted bugs.
#
# The top (OUTDIR/sig_top.v, generated from the unit's ports):
#   - a 32-bit Galois LFSR (x^32 + x^22 + x^2 + x + 1, seed 1) whose low bit shifts every cycle into
#     an NI-bit register si; si's bits drive the unit's NI input bits in port order (every input a
#     pseudo-random bit: the stimulus does not follow the unit's input protocol);
#   - the unit's reset: the pin rst, and the first 4 cycles after it;
#   - a 32-bit multiple-input signature register: sig <= {sig[30:0], sig[31]} ^ fold(outputs), fold =
#     the XOR of the unit's output bits (port order) taken 32 at a time;
#   - a cycle counter: after CYCLES cycles the signature freezes and done = 1; from the cycle after
#     done rises sig rotates right, so the pin sig_out (= sig[0]) gives its 32 bits, low bit first;
#   - pins: clk, rst, done, sig_out (OUTDIR/sig.pcf).
# Steps (one tool at a time, nice -n 10):
#   1. the C model's ports (MODEL UNIT --ports) must be the RTL's (Yosys's port order and widths)
#   2. Yosys synth_ice40 -top sig_top -json sig.json (what nextpnr places); splitnets; write_verilog
#      -noattr OUTDIR/netlist.v: the post-synthesis netlist, every multi-bit wire split into 1-bit wires
#      (same cells, same connections: Icarus propagates a whole vector whenever one of its bits
#      changes, and the unsplit netlist simulates about 45 times slower)
#   3. nextpnr-ice40 --hx8k --package ct256 --pcf sig.pcf -> OUTDIR/sig.asc; icepack -> OUTDIR/sig.bin
#   4. the bitstream read back: icepack -u sig.bin -> sig_readback.asc; icebox_vlog -p sig.pcf ->
#      OUTDIR/post_route.v (every LUT, carry, flip-flop and routing switch of the bitstream)
#   5. one testbench (OUTDIR/tb.v: rst for 3 cycles, count the cycles to done, read sig_out for 32
#      cycles; it sees the pins only) on the RTL, the post-synthesis netlist with Yosys's
#      ice40/cells_sim.v and the post-route netlist under Icarus Verilog (and, with SMK_SIG_VERILATOR=1,
#      both netlists under Verilator --binary --timing too), and the C model (MODEL UNIT CYCLES) of the
#      same wrapper; each prints "signature XXXXXXXX after N cycles"; all must be equal (exit 1
#      otherwise).
set -euo pipefail
SELF=$(realpath "$0")
ROOT=$(cd "$(dirname "$SELF")/.." && pwd)
die() { echo "fpga_sig: ERROR: $*" >&2; exit 1; }
[ $# -eq 5 ] || die "usage: $0 OUTDIR CONFIG UNIT CYCLES MODEL"
OUTDIR=$1
mkdir -p "$OUTDIR"
D=$(cd "$OUTDIR" && pwd)
CFG=$2 U=$3 CYC=$4 MODEL=$(realpath "$5")
[[ "$CYC" =~ ^[1-9][0-9]{0,8}$ ]] || die "CYCLES must be 1..999999999"
[ -x "$MODEL" ] || die "$MODEL: no such program"
INC="-I $ROOT/build/$CFG -I $ROOT/rtl"
CELLS=$(dirname "$(command -v yosys)")/../share/yosys/ice40/cells_sim.v
for t in yosys nextpnr-ice40 icepack icebox_vlog iverilog vvp python3 $([ "${SMK_SIG_VERILATOR:-0}" = 1 ] && echo verilator); do
    command -v $t >/dev/null || die "$t not found (scripts/setup.sh)"
done
[ -f "$CELLS" ] || die "Yosys's ice40/cells_sim.v not found at $CELLS"
T0=$(date +%s)
files=$(bash "$ROOT/scripts/blocks.sh" files "$U" | tr ' ' '\n' | sed "s|^|$ROOT/|" | tr '\n' ' ')
yosys -q -p "read_verilog $INC $files; hierarchy -top $U; proc; blackbox $U; write_json $D/ports.json" >/dev/null 2>&1 ||
    die "yosys could not elaborate $U's ports"
python3 - "$D/ports.json" "$U" "$D/sig_top.v" "$CYC" "$D/ports.txt" <<'EOF'
import json, sys
js, top, out, cyc, ptxt = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
ports = json.load(open(js))["modules"][top]["ports"]
ins = [(n, len(p["bits"])) for n, p in ports.items() if p["direction"] == "input" and n not in ("clk", "rst")]
outs = [(n, len(p["bits"])) for n, p in ports.items() if p["direction"] == "output"]
with open(ptxt, "w") as f:
    for n, p in ports.items():
        if n not in ("clk", "rst"):
            f.write("%s %s %d\n" % ("in" if p["direction"] == "input" else "out", n, len(p["bits"])))
ni = max(1, sum(w for _, w in ins)); no = max(1, sum(w for _, w in outs))
conn, pos = [".clk(clk)"], 0
if "rst" in ports:
    conn.append(".rst(urst)")
for n, w in ins:
    conn.append(".%s(si[%d:%d])" % (n, pos + w - 1, pos)); pos += w
pos = 0
for n, w in outs:
    conn.append(".%s(uo[%d:%d])" % (n, pos + w - 1, pos)); pos += w
nw = (no + 31) // 32
fold = " ^ ".join("uop[%d:%d]" % (32 * i + 31, 32 * i) for i in range(nw))
shift_in = "lfsr[0]" if ni == 1 else "{si[%d:0], lfsr[0]}" % (ni - 2)
with open(out, "w") as f:
    f.write("""// generated by scripts/fpga_sig.sh: %(top)s with an LFSR stimulus and a signature register
`default_nettype none
module sig_top (input wire clk, input wire rst, output reg done, output wire sig_out);
    reg [31:0] lfsr, sig, n;
    reg [2:0] hold;
    reg [%(ni1)d:0] si;
    wire [%(no1)d:0] uo;
    wire [%(nw32)d:0] uop = {{%(pad)d{1'b0}}, uo};
    wire urst = rst | (hold != 3'd4);
    always @(posedge clk) begin
        if (rst) begin
            lfsr <= 32'd1; sig <= 32'd0; n <= 32'd0; hold <= 3'd0; done <= 1'b0; si <= {%(ni)d{1'b0}};
        end else begin
            lfsr <= lfsr[0] ? (lfsr >> 1) ^ 32'h80200003 : (lfsr >> 1);
            si <= %(shift_in)s;
            if (hold != 3'd4) hold <= hold + 3'd1;
            if (n == 32'd%(cyc)d) begin
                done <= 1'b1;
                if (done) sig <= {sig[0], sig[31:1]};
            end else begin
                n <= n + 32'd1;
                sig <= {sig[30:0], sig[31]} ^ (%(fold)s);
            end
        end
    end
    assign sig_out = sig[0];
    %(top)s u (%(conn)s);
endmodule
""" % dict(top=top, ni=ni, ni1=ni - 1, no1=no - 1, nw32=32 * nw - 1, pad=32 * nw - no, cyc=cyc,
           shift_in=shift_in, fold=fold, conn=",\n        ".join(conn)))
EOF
"$MODEL" "$U" --ports >"$D/ports_c.txt" || die "$MODEL $U --ports failed"
diff "$D/ports.txt" "$D/ports_c.txt" >"$D/ports.diff" ||
    die "the C model's ports ($MODEL $U --ports) are not the RTL's ($D/ports.diff)"
# the pins: clk on a global-buffer input pin (J3), the others on pins nextpnr chooses without constraints
printf 'set_io clk J3\nset_io rst D6\nset_io done J4\nset_io sig_out T3\n' >"$D/sig.pcf"
cat >"$D/tb.v" <<EOF
\`timescale 1ns/1ps
module tb;
    reg clk = 0, rst = 1;
    wire done, sig_out;
    sig_top dut (.clk(clk), .rst(rst), .done(done), .sig_out(sig_out));
    always #5 clk = ~clk;
    integer i, b;
    reg [31:0] s;
    initial begin
        for (i = 0; i < 3; i = i + 1) @(posedge clk);
        #1 rst = 0;
        i = 0;
        while (done !== 1'b1 && i < $CYC + 8) begin
            @(posedge clk);
            #1 i = i + 1;
        end
        if (done !== 1'b1) begin
            \$display("not done");
            \$finish;
        end
        for (b = 0; b < 32; b = b + 1) begin
            s[b] = sig_out;
            @(posedge clk);
            #1;
        end
        \$display("signature %08x after %0d cycles", s, i);
        \$finish;
    end
endmodule
EOF
nice -n 10 yosys -q -l "$D/synth.log" -p "read_verilog $INC $files $D/sig_top.v; synth_ice40 -top sig_top -json $D/sig.json; \
    tee -o $D/synth.stat stat; splitnets; write_verilog -noattr $D/netlist.v" >/dev/null 2>&1 || die "yosys failed ($D/synth.log)"
nice -n 10 nextpnr-ice40 --hx8k --package ct256 --json "$D/sig.json" --pcf "$D/sig.pcf" --asc "$D/sig.asc" --freq 25 \
    --seed 1 --timing-allow-fail -l "$D/pnr.log" >/dev/null 2>&1 || die "nextpnr failed ($D/pnr.log)"
icepack "$D/sig.asc" "$D/sig.bin" || die "icepack failed"
icepack -u "$D/sig.bin" "$D/sig_readback.asc" || die "icepack -u (unpack) failed"
# icebox_vlog's module header declares the ports ANSI style (in the order of their pins' nets) and its
# body declares them again (wire clk; reg done = 0;), which Icarus accepts and Verilator does not: the
# header, the four pins in any order with these directions, is made non-ANSI
route_vlog() { # ASC OUT
    nice -n 10 icebox_vlog -s -n sig_top -p "$D/sig.pcf" "$1" 2>>"$D/icebox_vlog.log" >"$2.raw" || die "icebox_vlog failed ($D/icebox_vlog.log)"
    python3 - "$2.raw" "$2" <<'PY' || die "icebox_vlog wrote another module header ($2.raw)"
import re, sys
src, dst = sys.argv[1], sys.argv[2]
lines = open(src).read().split("\n")
i = next((i for i, l in enumerate(lines) if l.startswith("module sig_top (")), None)
m = re.fullmatch(r"module sig_top \((.*)\);", lines[i]) if i is not None else None
if not m or sorted(p.strip() for p in m.group(1).split(",")) != \
        ["input clk", "input rst", "output done", "output sig_out"]:
    sys.exit(1)
lines[i:i + 1] = ["module sig_top (rst, clk, done, sig_out);", "input rst, clk;", "output done, sig_out;"]
open(dst, "w").write("\n".join(lines))
PY
    rm -f "$2.raw"
}
: >"$D/icebox_vlog.log"
route_vlog "$D/sig_readback.asc" "$D/post_route.v"
fmax=$(sed -n "s/.*Max frequency for clock '[^']*': \([0-9.]*\) MHz.*/\1/p" "$D/pnr.log" | tail -n 1)
lc=$(sed -n 's/.*ICESTORM_LC: *\([0-9]*\)\/ *\([0-9]*\).*/\1 of \2/p' "$D/pnr.log" | tail -n 1)

# a netlist under Verilator (2-state, cycle-based; the cells' specify blocks are ignored): vl NAME FILES...
vl() {
    local n=$1; shift
    rm -rf "$D/vl_$n"
    nice -n 10 verilator --binary --timing -j 2 -Wno-fatal -Wno-lint -Wno-style -DNO_ICE40_DEFAULT_ASSIGNMENTS \
        --top-module tb --Mdir "$D/vl_$n" -o "V$n" "$D/tb.v" "$@" >"$D/vl_$n.log" 2>&1 || die "verilator ($n) failed ($D/vl_$n.log)"
    "$D/vl_$n/V$n" | grep '^signature\|^not done' || die "the $n simulation (Verilator) gave no signature"
}
# the same under Icarus Verilog (4-state, event-driven): iv NAME FILES...
iv() {
    local n=$1; shift
    iverilog -g2005 -DNO_ICE40_DEFAULT_ASSIGNMENTS -o "$D/$n.vvp" "$D/tb.v" "$@" 2>"$D/iverilog_$n.log" ||
        die "iverilog ($n) failed ($D/iverilog_$n.log)"
    nice -n 10 vvp -n "$D/$n.vvp" | grep '^signature\|^not done' || die "the $n simulation (Icarus) gave no signature"
}
declare -a names=() sigs=()
add() { names+=("$1"); sigs+=("$2"); }
# a netlist under Icarus, and under Verilator if SMK_SIG_VERILATOR=1: net NAME LABEL FILES...
net() {
    local n=$1 l=$2 r; shift 2
    r=$(iv "$n" "$@") || exit 1; add "$l (Icarus Verilog)" "$r"
    if [ "${SMK_SIG_VERILATOR:-0}" = 1 ]; then r=$(vl "$n" "$@") || exit 1; add "$l (Verilator)" "$r"; fi
}
s=$("$MODEL" "$U" "$CYC") || die "$MODEL $U $CYC failed"; add "C model ($(basename "$MODEL") $U $CYC)" "$s"
s=$(iv rtl $INC "$D/sig_top.v" $files) || exit 1; add "RTL (Icarus Verilog)" "$s"
net net "post-synthesis netlist" "$D/netlist.v" "$CELLS"
net route "post-route netlist from sig.bin" "$D/post_route.v"
echo "fpga_sig: $U ($CFG): bitstream ${OUTDIR%/}/sig.bin ($(stat -c %s "$D/sig.bin") bytes, $lc LCs, Fmax $fmax MHz); $CYC cycles:"
bad=0
for i in "${!names[@]}"; do
    printf 'fpga_sig:   %-50s %s\n' "${names[$i]}" "${sigs[$i]}"
    [ "${sigs[$i]}" = "${sigs[0]}" ] || bad=1
done
[ "$bad" = 0 ] || { echo "fpga_sig: the signatures differ: FAILED"; exit 1; }
echo "fpga_sig: ${#names[@]} signatures equal"

if [ "${SMK_SIG_PLANT:-0}" = 1 ]; then
    # planted bugs: each must change the signature (else this check could not see it)
    want=${sigs[0]}
    planted() { # NAME SIGNATURE
        if [ "$2" = "$want" ]; then echo "fpga_sig: planted bug NOT detected: $1 ($2)"; exit 1; fi
        echo "fpga_sig: planted bug detected: $1 ($2)"
    }
    plant_net() { # NAME LABEL FILES...: the netlist under each simulator
        local n=$1 l=$2 r; shift 2
        r=$(iv "$n" "$@") || exit 1; planted "$l (Icarus Verilog)" "$r"
        if [ "${SMK_SIG_VERILATOR:-0}" = 1 ]; then r=$(vl "$n" "$@") || exit 1; planted "$l (Verilator)" "$r"; fi
    }
    # the post-synthesis netlist: set bit 0 (all inputs 0) of one LUT of the unit (instance name u.*)
    # whose LUT_INIT has it clear; not every such change is observable (the LUT's output may be masked
    # there, or the combination not reached in CYCLES cycles), so the first 8 such LUTs in the file's
    # order are tried in turn and the first to change the signature is reported; none of 8: failed
    for k in 0 1 2 3 4 5 6 7; do
        python3 - "$D/netlist.v" "$D/netlist_bug.v" "$k" >"$D/plant_net.txt" <<'EOF'
import re, sys
s, k = open(sys.argv[1]).read(), int(sys.argv[3])
for m in re.finditer(r"SB_LUT4 #\(\s*\.LUT_INIT\(16'h([0-9a-f]{4})\)\s*\) (\\u\.\S+)", s):
    v = int(m.group(1), 16)
    if not v & 1:
        if k == 0:
            open(sys.argv[2], "w").write(s[:m.start(1)] + "%04x" % (v | 1) + s[m.end(1):])
            print("SB_LUT4 %s: LUT_INIT 16'h%s -> 16'h%04x" % (m.group(2)[1:], m.group(1), v | 1))
            break
        k -= 1
else:
    sys.exit("too few LUT_INITs with bit 0 clear")
EOF
        r=$(iv net_bug "$D/netlist_bug.v" "$CELLS") || exit 1
        [ "$r" = "$want" ] || break
        echo "fpga_sig: (planted bug $((k + 1)) of 8 in the netlist not observable: $(cat "$D/plant_net.txt"))"
    done
    plant_net net_bug "post-synthesis netlist, LUT $((k + 1)) tried, $(cat "$D/plant_net.txt")" "$D/netlist_bug.v" "$CELLS"
    # the bitstream: the same change in a copy of the read-back .asc (then icebox_vlog again), the
    # first of up to 8 used LUTs with bit 0 clear, in the file's order, that changes the signature
    for k in 0 1 2 3 4 5 6 7; do
        python3 - "$D/sig_readback.asc" "$D/sig_bug.asc" "$k" >"$D/plant_asc.txt" <<'EOF'
import sys
# .logic_tile X Y: 16 rows of 54 bits; logic cell c's configuration is columns 36..45 of rows 2c and
# 2c+1, of which columns 36..43 are its 16 LUT bits (icebox.py get_lutff_lut_bits: the truth table's
# bit 0, all inputs 0, is row 2c column 40); set bit 0 of the k-th used LUT that has it clear
lines, k = open(sys.argv[1]).read().split("\n"), int(sys.argv[3])
for i, l in enumerate(lines):
    if l.startswith(".logic_tile"):
        for c in range(8):
            r0, r1 = lines[i + 1 + 2 * c], lines[i + 2 + 2 * c]
            if "1" in r0[36:44] + r1[36:44] and r0[40] == "0":
                if k == 0:
                    lines[i + 1 + 2 * c] = r0[:40] + "1" + r0[41:]
                    open(sys.argv[2], "w").write("\n".join(lines))
                    print("%s logic cell %d: LUT bit 0 (row %d column 40) 0 -> 1" % (l, c, 2 * c))
                    sys.exit(0)
                k -= 1
sys.exit("too few used LUTs with bit 0 clear")
EOF
        route_vlog "$D/sig_bug.asc" "$D/post_route_bug.v"
        r=$(iv route_bug "$D/post_route_bug.v") || exit 1
        [ "$r" = "$want" ] || break
        echo "fpga_sig: (planted bug $((k + 1)) of 8 in the bitstream not observable: $(cat "$D/plant_asc.txt"))"
    done
    plant_net route_bug "bitstream, LUT $((k + 1)) tried, $(cat "$D/plant_asc.txt")" "$D/post_route_bug.v"
    # the C model: one bit of one output in a copy of cmodel/UNIT.c, linked before libsmk.a (whose
    # object of the unit is then not pulled in)
    case $U in
    preempt_engine) # rsp_tb of a queue-full reject loses its top bit
        sub='s/o->rsp_tb = in->cmd_tb \& (uint32_t)SMK_MASK(SMK_TBS_W);/o->rsp_tb = in->cmd_tb \& (uint32_t)SMK_MASK(SMK_TBS_W - 1);/' ;;
    warp_sched) # a launch's kernel slot loses its top bit
        sub='s/const uint32_t k = in->launch_ks \& SMK_MASK(SMK_KS_W);/const uint32_t k = in->launch_ks \& SMK_MASK(SMK_KS_W - 1);/' ;;
    quota_unit) # an EPOCH_LEN write loses its top bit
        sub='s/q->epoch_len = d \& (uint32_t)SMK_MASK(EW);/q->epoch_len = d \& (uint32_t)SMK_MASK(EW - 1);/' ;;
    sm_top) # a set-up's TB slot loses its top bit
        sub='s/set_tb = in->set_tb \& (uint32_t)SMK_MASK(SMK_TBS_W);/set_tb = in->set_tb \& (uint32_t)SMK_MASK(SMK_TBS_W - 1);/' ;;
    *) die "no planted C model bug for $U" ;;
    esac
    sed "$sub" "$ROOT/cmodel/$U.c" >"$D/${U}_bug.c"
    ! cmp -s "$ROOT/cmodel/$U.c" "$D/${U}_bug.c" || die "the planted C model bug's sed matched nothing"
    B=$(dirname "$MODEL")
    cc -std=c11 -O2 -I"$B" -I"$ROOT/cmodel" -c -o "$D/${U}_bug.o" "$D/${U}_bug.c" &&
        cc -o "$D/sig_model_bug" "$B/sig_model.o" "$D/${U}_bug.o" "$B/libsmk.a" || die "the planted C model did not build"
    s=$("$D/sig_model_bug" "$U" "$CYC") || die "the planted C model failed"
    planted "C model, cmodel/$U.c with: sed '$sub'" "$s"
fi
echo "fpga_sig: done in $(($(date +%s) - T0)) s"
