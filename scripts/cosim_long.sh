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
  # the SM driver alone (random host and SM-side responder, driver invariants); every fourth with
  # random initial register values. Its RTL runs slower with more SMs: cycles divided by 4 on gtx980
  # (16 SMs) and other configurations, by 16 on pascal56 (56 SMs), not on small
  case $c in small) dcyc=$cyc ;; pascal56) dcyc=$((cyc / 16)) ;; *) dcyc=$((cyc / 4)) ;; esac
  for i in $(seq 0 $((n - 1))); do
    s=$((4000 + i)); extra=""
    [ $((i % 4)) -eq 3 ] && extra="--rand-reset"
    jobs+=("build/$c/cosim_drv --quiet --seed $s --cycles $dcyc $extra")
  done
  # the QoS manager alone (random host, scripted SM statistics, random driver stub); 4x the cycles:
  # it is small and fast
  for i in $(seq 0 $((n - 1))); do
    s=$((6000 + i)); extra=""
    [ $((i % 4)) -eq 3 ] && extra="--rand-reset"
    jobs+=("build/$c/cosim_qm --quiet --seed $s --cycles $((cyc * 4)) $extra")
  done
done
# the whole GPU (cosim_gpu: SM driver + NUM_SM SM tops, workload-like environment, system ledger): all
# seeds on small, an eighth of them (at least 2) on gtx980 at a quarter of the cycles; every fourth
# with random initial register values
for c in $configs; do
  case $c in small) gn=$n; gcyc=$cyc ;; gtx980) gn=$(( n / 8 > 2 ? n / 8 : 2 )); gcyc=$((cyc / 4)) ;; *) continue ;; esac
  for i in $(seq 0 $((gn - 1))); do
    s=$((5000 + i)); extra=""
    [ $((i % 4)) -eq 3 ] && extra="--rand-reset"
    jobs+=("build/$c/cosim_gpu --quiet --seed $s --cycles $gcyc $extra")
  done
done
printf '%s\n' "${jobs[@]}" | xargs -P 2 -I{} bash -c '{} | tail -n 12; exit ${PIPESTATUS[0]}' \
  || { echo "cosim-long: FAILED (see the replay command above)"; exit 1; }
echo "cosim-long: ${#jobs[@]} runs passed"
