#!/usr/bin/env bash
# coverage.sh - line, toggle and spec-rule cover-point coverage of the RTL over the cosim regression.
#
# Usage: scripts/coverage.sh OUTDIR CONFIG...      (`make coverage` builds the harnesses first)
#
# Runs the quick seed plan (testbench/cosim/plan.sh quick CONFIG...) with the coverage builds of the
# harnesses (build/CONFIG/cov/HARNESS: Verilator --coverage-line --coverage-toggle --coverage-user
# +define+SMK_COVER, the cover points of rtl/warp_sched.v, quota_unit.v, preempt_engine.v, sm_top.v,
# sm_driver.v, qos_mgr.v: every `cover property` of an RTL file, counted per file by covsum.py), each run
# writing its points to OUTDIR/dat/N.dat (SMK_COV_FILE, read by testbench/cosim/lockstep.h); every
# run must still PASS. Then:
#   verilator_coverage --write OUTDIR/merged.dat OUTDIR/dat/*.dat       the merged points
#   verilator_coverage --write-info OUTDIR/merged.info OUTDIR/merged.dat  lcov tracefile
#   genhtml -o OUTDIR/html OUTDIR/merged.info                             HTML (if genhtml exists)
# and (scripts/covsum.py) OUTDIR/coverage.md: per RTL file (= block) and kind (line: Verilator's line
# and branch points; toggle: every bit of every signal, hit if it changed; cover: the labelled cover
# points of the spec rules, hit if the condition held at some clock edge), the points hit and their
# share, a module's point counted once and hit if any instance of it (in any harness) hit it;
# OUTDIR/holes.txt lists every point never hit (file:line, kind, signal or cover-point label).
# Environment: JOBS (parallel runs, default 2).
set -euo pipefail
SELF=$(realpath "$0")
ROOT=$(cd "$(dirname "$SELF")/.." && pwd)
die() { echo "coverage: ERROR: $*" >&2; exit 1; }
[ $# -ge 2 ] || die "usage: $0 OUTDIR CONFIG..."
mkdir -p "$1"
OUTDIR=$(cd "$1" && pwd)
shift
JOBS=${JOBS:-2}
rm -rf "$OUTDIR/dat" "$OUTDIR/html"
mkdir -p "$OUTDIR/dat"
cd "$ROOT"
bash testbench/cosim/plan.sh quick "$@" |
    awk -v d="$OUTDIR/dat" '{ n = split($1, p, "/"); p[n] = "cov/" p[n]; b = p[1]; for (i = 2; i <= n; i++) b = b "/" p[i];
        $1 = b; printf "env SMK_COV_FILE=%s/%d.dat %s\n", d, NR, $0 }' >"$OUTDIR/runs.txt"
for b in $(awk '{ print $3 }' "$OUTDIR/runs.txt" | sort -u); do [ -x "$b" ] || die "$b not built (make coverage builds it)"; done
bash testbench/cosim/run.sh coverage-runs "$JOBS" <"$OUTDIR/runs.txt"
n=$(ls "$OUTDIR/dat" | wc -l)
[ "$n" -eq "$(wc -l <"$OUTDIR/runs.txt")" ] || die "$n coverage files for $(wc -l <"$OUTDIR/runs.txt") runs"
verilator_coverage --write "$OUTDIR/merged.dat" "$OUTDIR"/dat/*.dat
verilator_coverage --write-info "$OUTDIR/merged.info" "$OUTDIR/merged.dat"
if command -v genhtml >/dev/null; then
    genhtml -q -o "$OUTDIR/html" "$OUTDIR/merged.info" >"$OUTDIR/genhtml.log" 2>&1 || die "genhtml failed ($OUTDIR/genhtml.log)"
fi
python3 "$ROOT/scripts/covsum.py" "$OUTDIR/merged.dat" "$ROOT" "$OUTDIR/coverage.md" "$OUTDIR/holes.txt"
echo "coverage: $n runs on $*; wrote $OUTDIR/coverage.md, holes.txt, merged.info$( [ -d "$OUTDIR/html" ] && echo ", html/index.html")"
cat "$OUTDIR/coverage.md"
