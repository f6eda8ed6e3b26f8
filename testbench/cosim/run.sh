#!/usr/bin/env bash
# run.sh NAME [JOBS]: runs the cosim commands read from stdin (plan.sh's output, one command per line,
# words without quotes), JOBS (default 2) at a time. A failing run's command and last lines (its
# mismatch report and replay command) are printed when it fails; at the end one line:
# "NAME: N passed, 0 failed", or "NAME: P passed, F FAILED" and exit status 1.
set -uo pipefail
name=${1:?usage: run.sh NAME [JOBS]}; jobs=${2:-2}
log=$(mktemp -d); trap 'rm -rf "$log"' EXIT
export log
runone() { # INDEX COMMAND...
    local n=$1; shift
    if ! "$@" > "$log/$n.out" 2>&1; then
        { echo "FAILED: $*"; tail -n 12 "$log/$n.out"; } > "$log/$n.fail"
        cat "$log/$n.fail"
    fi
}
export -f runone
mapfile -t cmds
for i in "${!cmds[@]}"; do echo "$i ${cmds[$i]}"; done | xargs -P "$jobs" -L 1 bash -c 'runone "$@"' _
nf=$(find "$log" -name '*.fail' | wc -l)
if [ "$nf" -ne 0 ]; then
    echo "$name: $((${#cmds[@]} - nf)) passed, $nf FAILED"
    exit 1
fi
echo "$name: ${#cmds[@]} passed, 0 failed"
