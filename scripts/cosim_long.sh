#!/usr/bin/env bash
# cosim_long.sh "CONFIGS" SEEDS CYCLES : the long lockstep regression (make cosim-long).
# Seeds 1000..1000+SEEDS-1 per configuration: random stimulus, every fourth with random initial
# register values, every fifth the scenario. Runs 2 at a time; stops at the first failure and
# prints its replay command (the cosim prints it).
set -euo pipefail
configs=${1:?}; n=${2:?}; cyc=${3:?}
jobs=()
for c in $configs; do
  for i in $(seq 0 $((n - 1))); do
    s=$((1000 + i)); extra=""
    [ $((i % 4)) -eq 3 ] && extra="--rand-reset"
    [ $((i % 5)) -eq 4 ] && extra="--mode scenario"
    jobs+=("build/$c/cosim_issue --quiet --seed $s --cycles $cyc $extra")
  done
  # the preemption engine alone (random resets mid-run in some phases); every fourth with random
  # initial register values
  for i in $(seq 0 $((n - 1))); do
    s=$((2000 + i)); extra=""
    [ $((i % 4)) -eq 3 ] && extra="--rand-reset"
    jobs+=("build/$c/cosim_pe --quiet --seed $s --cycles $cyc $extra")
  done
  # the whole SM (sm_top) under the random environment and ledger monitors; every fourth with
  # random initial register values
  for i in $(seq 0 $((n - 1))); do
    s=$((3000 + i)); extra=""
    [ $((i % 4)) -eq 3 ] && extra="--rand-reset"
    jobs+=("build/$c/cosim_sm --quiet --seed $s --cycles $cyc $extra")
  done
done
printf '%s\n' "${jobs[@]}" | xargs -P 2 -I{} bash -c '{} | tail -n 12; exit ${PIPESTATUS[0]}' \
  || { echo "cosim-long: FAILED (see the replay command above)"; exit 1; }
echo "cosim-long: ${#jobs[@]} runs passed"
