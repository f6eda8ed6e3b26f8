#!/usr/bin/env bash
# plan.sh: the cosim seed plan, written once. Prints one cosim command per line; run.sh runs them.
#
#   plan.sh quick CONFIG...               the regression of `make test` (cosim-all) and `make cosim`
#   plan.sh long SEEDS CYCLES CONFIG...   `make cosim-long`: SEEDS seeds per harness, cycles scaled
#                                         from CYCLES as the table below says
#   plan.sh short CONFIG...               `make test-configs` (random configurations): the quick plan's
#                                         first seed of each harness (the issue path's first two, one
#                                         of them the scenario) at a tenth of its cycles
#
# Harness h of configuration c runs seeds BASE, BASE+1, ... (the quick plan is the first seeds of
# the long one). Seed index i: i % 3 == 2 adds --rand-reset (random initial register values,
# +verilator+rand+reset+2); for cosim_issue i % 5 == 4 adds --mode scenario (the timing-model
# scenario instead of the random stimulus). The driver's and the GPU's RTL run slower with more
# SMs: their cycles are divided by max(1, NUM_SM / 4) (NUM_SM from build/c/smk_cfg.h). The GPU cosim
# runs every seed on configurations of at most 4 SMs; on larger ones only in the long plan, an
# eighth of the seeds (at least 2).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
B=${B:-build}

#        harness      base  quick-seeds  quick-cycles  long-cycles (x CYCLES / 1000000)
PLAN=(  "cosim_issue  1000  10           300000        1"
        "cosim_pe     2000  3            1000000       1"
        "cosim_sm     3000  3            400000        1"
        "cosim_drv    4000  3            1000000       1"
        "cosim_gpu    5000  3            300000        1"
        "cosim_qm     6000  3            1000000       4" )

usage() { echo "usage: plan.sh quick CONFIG... | plan.sh short CONFIG... | plan.sh long SEEDS CYCLES CONFIG..." >&2; exit 1; }
mode=${1:-}; shift || true
case $mode in
quick|short) [ $# -ge 1 ] || usage ;;
long) [ $# -ge 3 ] || usage; lseeds=$1; lcyc=$2; shift 2 ;;
*) usage ;;
esac

for c in "$@"; do
    h=$B/$c/smk_cfg.h
    [ -f "$h" ] || { echo "plan.sh: $h missing (make $h)" >&2; exit 1; }
    nsm=$(awk '$2 == "SMK_NUM_SM" { print $3 }' "$h")
    div=$(( nsm / 4 > 1 ? nsm / 4 : 1 ))
    for row in "${PLAN[@]}"; do
        read -r name base qn qc lf <<< "$row"
        case $mode in
        quick) n=$qn; cyc=$qc ;;
        short) n=1; [ "$name" = cosim_issue ] && n=2; cyc=$((qc / 10)) ;;
        long) n=$lseeds; cyc=$((lcyc * lf)) ;;
        esac
        case $name in
        cosim_drv) cyc=$((cyc / div)) ;;
        cosim_gpu)
            if [ "$nsm" -gt 4 ]; then
                [ "$mode" = long ] || continue
                n=$(( n / 8 > 2 ? n / 8 : 2 )); cyc=$((cyc / div))
            fi ;;
        esac
        for ((i = 0; i < n; i++)); do
            extra=""
            [ $((i % 3)) -eq 2 ] && extra+=" --rand-reset"
            [ "$name" = cosim_issue ] && [ $((i % 5)) -eq 4 ] && extra+=" --mode scenario"
            echo "$B/$c/$name --quiet --seed $((base + i)) --cycles $cyc$extra"
        done
    done
done
