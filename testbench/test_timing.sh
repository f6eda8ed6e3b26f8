#!/usr/bin/env bash
# test_timing.sh: scripts/netdepth.py (the depth measure of `make timing`) on a netlist of known depth
# (testbench/timing/chain.v: the OR of a 32-bit register into another register = 5 AND2 levels, 3
# LUT4 levels, 5 levels of Yosys's fine gates before ABC, from r to y; the named net h at level 4
# on the way). A depth counting inverters, a missed flip-flop boundary, a wrong end point or a
# --path that loses the RTL's names fails it; bad uses and a file that is not a netlist get their
# one-line message. About 3 s.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
fail=0 n=0
verdict() { # NAME GOT EXPECTED-REGEX
    n=$((n + 1))
    if [[ "$2" =~ ^$3$ ]]; then echo "timing-test: $1: ${2//$'\n'/ | }"; else echo "timing-test: $1: FAILED: got '$2', expected /$3/"; fail=$((fail + 1)); fi
}
check() { # FLOW SYNTH EXPECTED
    yosys -q -p "read_verilog $root/testbench/timing/chain.v; $2; write_json $t/$1.json" >/dev/null 2>&1
    verdict "$1" "$(python3 "$root/scripts/netdepth.py" "$t/$1.json" chain "$1")" "$3"
}
check generic "synth -flatten -noabc -top chain; abc -g AND; opt_clean" 'depth=5 carries=0 cells=[0-9]+ start=r\[[0-9]+\] end=y'
check ice40 "synth_ice40 -top chain" 'depth=3 carries=0 cells=3 start=r\[[0-9]+\] end=y'
check gates "synth -flatten -noabc -top chain" 'depth=5 carries=0 cells=5 start=r\[[0-9]+\] end=y'
verdict "gates --path y" "$(python3 "$root/scripts/netdepth.py" "$t/gates.json" chain gates --path y)" \
    $'5 y \\(end\\)\n0 r\\[[0-9]+\\]\n4 h'
verdict "gates --path (unknown end)" "$(python3 "$root/scripts/netdepth.py" "$t/gates.json" chain gates --path q 2>&1; echo "rc=$?")" \
    $'netdepth: no end point named q\nrc=1'
u='netdepth: usage: netdepth\.py JSON TOP generic\|ice40\|gates \[--ends MIN \| --path END\]'
for bad in "" "$t/gates.json chain" "$t/gates.json chain vhdl" "$t/gates.json chain gates --ends x" "$t/gates.json chain gates --path"; do
    # shellcheck disable=SC2086 # the arguments are split on purpose
    verdict "bad use '${bad#"$t/"}'" "$(python3 "$root/scripts/netdepth.py" $bad 2>&1; echo "rc=$?")" "$u"$'\nrc=1'
done
verdict "bad netlist" "$(python3 "$root/scripts/netdepth.py" "$root/testbench/timing/chain.v" chain gates 2>&1; echo "rc=$?")" \
    $'netdepth: [^ ]*/chain\\.v: not a Yosys JSON netlist \\(.*\\)\nrc=1'
verdict "no such module" "$(python3 "$root/scripts/netdepth.py" "$t/gates.json" top gates 2>&1; echo "rc=$?")" \
    $'netdepth: [^ ]*/gates\\.json: no module top\nrc=1'
echo "timing-test: $((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
