#!/usr/bin/env bash
# test_timing.sh: scripts/netdepth.py (the depth measure of `make timing`) on a netlist of known depth
# (testbench/timing/chain.v: the OR of a 32-bit register into another register = 5 AND2 levels, 3
# LUT4 levels, from r to y). A depth counting inverters, a missed flip-flop boundary or a wrong end
# point fails it. About 2 s.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
fail=0 n=0
check() { # FLOW SYNTH EXPECTED
    yosys -q -p "read_verilog $root/testbench/timing/chain.v; $2; write_json $t/$1.json" >/dev/null 2>&1
    got=$(python3 "$root/scripts/netdepth.py" "$t/$1.json" chain "$1")
    n=$((n + 1))
    if [[ "$got" =~ ^$3$ ]]; then echo "timing-test: $1: $got"; else echo "timing-test: $1: FAILED: got '$got', expected /$3/"; fail=$((fail + 1)); fi
}
check generic "synth -flatten -noabc -top chain; abc -g AND; opt_clean" 'depth=5 carries=0 cells=[0-9]+ start=r\[[0-9]+\] end=y'
check ice40 "synth_ice40 -top chain" 'depth=3 carries=0 cells=3 start=r\[[0-9]+\] end=y'
echo "timing-test: $((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
