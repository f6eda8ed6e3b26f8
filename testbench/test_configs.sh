#!/usr/bin/env bash
# test_configs.sh CFG...: every configuration file through the whole check (make test-configs,
# docs/verification.md "Configurations"): hwgen, the build of the C model, the unit tests and every
# cosim harness, lint of every RTL unit, the unit tests (ASan + UBSan), and the short cosims of
# testbench/cosim/plan.sh (every block; the GPU where NUM_SM <= 4). A failing step prints
#   test-configs: FAILED STEP: CFG   (replay: make test-configs CFGS=CFG)
# the configuration file itself (so that it can be replayed from the log alone) and the last lines
# of the step's log, and the next configuration is tried; a configuration that passes prints its
# wall time; the last line counts them and the exit status is 1 when any failed. JOBS (environment,
# default 2): parallel builds and cosims.
set -uo pipefail
jobs=${JOBS:-2}
B=${B:-build}
[ $# -ge 1 ] || { echo "usage: test_configs.sh CFG..." >&2; exit 2; }
pass=0 failed=()
for cfg in "$@"; do
    d=$(make -s --no-print-directory CONFIG="$cfg" print-cfgdir) || { failed+=("$cfg"); continue; }
    n=${d#"$B"/}
    mkdir -p "$d"
    log=$d/test-configs.log
    : > "$log"
    fail() { # STEP
        echo "test-configs: FAILED $1: $cfg   (replay: make test-configs CFGS=$cfg)"
        echo "  the configuration ($cfg):"
        sed 's/^/  cfg| /' "$cfg"
        echo "  the end of $log:"
        tail -n 25 "$log" | sed 's/^/  | /'
        failed+=("$cfg")
    }
    t0=$SECONDS
    echo "== $cfg ($d): $(grep -v '^#' "$cfg" | awk '{ printf "%s=%s ", $1, $3 }')"
    if ! make -s --no-print-directory CONFIG="$cfg" "$d/smk_cfg.h" >> "$log" 2>&1; then fail hwgen; continue; fi
    bins=$(bash testbench/cosim/plan.sh short "$n" | awk '{ print $1 }' | sort -u)
    if ! make -j"$jobs" --no-print-directory CONFIG="$cfg" "$d/unit" $bins >> "$log" 2>&1; then fail build; continue; fi
    if ! make --no-print-directory CONFIG="$cfg" lint >> "$log" 2>&1; then fail lint; continue; fi
    if ! ASAN_OPTIONS=fast_unwind_on_malloc=0 LSAN_OPTIONS=suppressions=$PWD/testbench/lsan.supp:print_suppressions=0 \
         "$d/unit" -j"$jobs" --verbose > "$d/unit.log" 2>&1; then cat "$d/unit.log" >> "$log"; fail unit; continue; fi
    cat "$d/unit.log" >> "$log"
    # what ran and what skipped, per suite: a test skipped here checks nothing on this configuration
    awk '/^\[RUN \]/ { split($3, a, "::"); n[a[1]]++ } /^\[SKIP\]/ { split($2, a, "::"); k[a[1]]++; sk++ }
         END { for (s in n) { t += n[s]; l = l sprintf(" %s %d/%d", s, n[s] - k[s], n[s]) }
               printf "unit: %d of %d tests ran (%d skipped); ran per suite:%s\n", t - sk, t, sk, l }' "$d/unit.log" | tee -a "$log"
    if ! bash testbench/cosim/plan.sh short "$n" | bash testbench/cosim/run.sh "cosim $n" "$jobs" >> "$log" 2>&1; then
        fail cosim; continue; fi
    tail -n 1 "$log"
    echo "test-configs: $cfg passed in $((SECONDS - t0)) s"
    pass=$((pass + 1))
done
if [ ${#failed[@]} -ne 0 ]; then
    echo "test-configs: $pass passed, ${#failed[@]} FAILED: ${failed[*]}"
    exit 1
fi
echo "test-configs: $pass configurations passed, 0 failed"
