#!/usr/bin/env bash
# run.sh quick|long FUZZDIR [PARSER...]: the libFuzzer harnesses of every parser a user feeds
# (docs/verification.md "Fuzzing"), built by the Makefile into FUZZDIR (build/fuzz).
#
#   quick  (make fuzz, in make test) each parser for a fixed number of executions from seed 1
#          (deterministic; about 25 s of CPU in all), from a fresh corpus of the seeds
#   long   (make fuzz-long) each parser, one after the other, until 10,000,000 executions or one
#          hour (FUZZ_LONG_RUNS, FUZZ_LONG_SECONDS), niced, keeping its corpus in FUZZDIR/corpus-P
#          between campaigns; the log in FUZZDIR/long-P.log
#
# The seeds of parser P: the project's own files of its kind and testbench/fuzz/corpus/P/.
# Every run: the dictionary testbench/fuzz/numbers.dict (integers and reals at the edges of their types),
# -timeout=10 (an input that takes longer is a hang), -rss_limit_mb=2048, inputs up to
# -max_len bytes. One line per parser: executions, crashes, sanitizer reports, hangs; on a finding
# the input (FUZZDIR/P-crash-... / P-timeout-...) and the command that replays it; exit status 1.
set -uo pipefail
mode=${1:?usage: run.sh quick|long FUZZDIR [PARSER...]} fz=${2:?usage: run.sh quick|long FUZZDIR [PARSER...]}
shift 2
cd "$(dirname "$0")/../.."
parsers=("$@")
[ ${#parsers[@]} -gt 0 ] || parsers=(config regmap workload smk_args)
# quick runs per parser: about 5-8 s of CPU each on the project machine
declare -A QUICK=([config]=200000 [regmap]=60000 [workload]=40000 [smk_args]=200000)
declare -A MAXLEN=([config]=8192 [regmap]=8192 [workload]=20480 [smk_args]=4096)
seeds() { # P DIR: the seed files of parser P into DIR
    mkdir -p "$2"
    case $1 in
    config) cp hw/configs/*.cfg "$2/"; for c in testbench/configs/*.cfg; do cp "$c" "$2/tb-$(basename "$c")"; done ;;
    regmap) cp hw/regmap.def "$2/" ;;
    workload) cp cmodel/sim/workloads/*.wl "$2/" ;;
    smk_args) ;;
    esac
    cp testbench/fuzz/corpus/"$1"/* "$2/" 2>/dev/null || true
}
status=0
for p in "${parsers[@]}"; do
    bin=$fz/fuzz_$p
    [ -x "$bin" ] || { echo "fuzz: $bin is not built (make $bin)"; exit 1; }
    rm -rf "$fz/seed-$p"; seeds "$p" "$fz/seed-$p"
    if [ "$mode" = quick ]; then
        corpus=$fz/quick-$p; rm -rf "$corpus"; mkdir -p "$corpus"
        args=(-seed=1 -runs="${QUICK[$p]}")
        log=$fz/quick-$p.log
        run=("$bin")
    else
        corpus=$fz/corpus-$p; mkdir -p "$corpus"
        args=(-runs="${FUZZ_LONG_RUNS:-10000000}" -max_total_time="${FUZZ_LONG_SECONDS:-3600}" -print_final_stats=1)
        log=$fz/long-$p.log
        run=(nice -n 10 "$bin")
    fi
    cmd=("${run[@]}" "${args[@]}" -dict=testbench/fuzz/numbers.dict -timeout=10 -rss_limit_mb=2048 -max_len="${MAXLEN[$p]}" -artifact_prefix="$fz/$p-" "$corpus" "$fz/seed-$p")
    rm -f "$fz/$p-"crash-* "$fz/$p-"timeout-* "$fz/$p-"oom-* "$fz/$p-"leak-*
    t0=$(date +%s)
    "${cmd[@]}" > "$log" 2>&1
    rc=$?
    secs=$(( $(date +%s) - t0 ))
    runs=$(sed -n 's/^Done \([0-9]*\) runs in .*/\1/p' "$log" | tail -1)
    [ -n "$runs" ] || runs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
    crash=$(ls "$fz/$p-"crash-* "$fz/$p-"leak-* "$fz/$p-"oom-* 2>/dev/null | wc -l)
    hang=$(ls "$fz/$p-"timeout-* 2>/dev/null | wc -l)
    san=$(grep -c -E '^==[0-9]+==ERROR|runtime error:' "$log")
    corp=$(ls "$corpus" | wc -l)
    echo "fuzz $p: ${runs:-0} executions in ${secs} s, $crash crashes, $san sanitizer reports, $hang hangs (corpus $corp inputs; log $log)"
    if [ $rc -ne 0 ] || [ "$crash" != 0 ] || [ "$hang" != 0 ] || [ "$san" != 0 ]; then
        status=1
        grep -m3 -E 'ERROR|runtime error|fuzz_[a-z_]*: ' "$log" | sed 's/^/  /'
        for a in "$fz/$p-"crash-* "$fz/$p-"timeout-* "$fz/$p-"leak-* "$fz/$p-"oom-*; do
            [ -e "$a" ] && echo "  replay: $bin $a"
        done
    fi
done
exit $status
