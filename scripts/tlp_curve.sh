#!/usr/bin/env bash
# tlp_curve.sh: how a kernel's isolated IPC depends on its TLP. Per kernel of a workload and per cap T,
# the kernel alone on the GPU (policy smk) with at most T TBs per SM: a copy of the workload whose
# kernel asks for floor(SMEM / T) bytes of shared memory (SMEM the configuration's shared memory per
# SM), so shared memory allows T TBs and the kernel's other limits stay (a cap above them changes
# nothing). An experiment on the model, not a workload: docs/reproduce.md uses it to show whether
# trimming a kernel's TLP can raise its IPC. Run it from the repository's root.
#
#   scripts/tlp_curve.sh [-b SMK] [-w WORKLOAD] [-c CYCLES] [-j JOBS] [-k K1,...] [-t T1,...]
#
#   -b SMK       the smk binary (default build/gtx980/smk; the configuration it was built for)
#   -w WORKLOAD  workload file (default cmodel/sim/workloads/parboil.wl)
#   -c CYCLES    cycles per run (default 600000)
#   -j JOBS      runs in parallel (default 2)
#   -k KERNELS   the kernels (default every kernel of WORKLOAD)
#   -t CAPS      the caps T, TBs per SM (default 1,2,3,4,6,8,12,16,32)
#
# Output: a Markdown table on stdout, one row per kernel, one column per cap: IPC (thread
# instructions per cycle, the run's seed 1). Errors: one line, exit 1.
set -euo pipefail
smk=build/gtx980/smk wl=cmodel/sim/workloads/parboil.wl cycles=600000 jobs=2 kernels= caps=1,2,3,4,6,8,12,16,32
while [ $# -gt 0 ]; do
  case $1 in
    -b) smk=${2:?}; shift 2 ;;
    -w) wl=${2:?}; shift 2 ;;
    -c) cycles=${2:?}; shift 2 ;;
    -j) jobs=${2:?}; shift 2 ;;
    -k) kernels=${2:?}; shift 2 ;;
    -t) caps=${2:?}; shift 2 ;;
    -h|--help) sed -n '2,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "tlp_curve: unknown argument \"$1\" (see scripts/tlp_curve.sh -h)" >&2; exit 1 ;;
  esac
done
[ -x "$smk" ] || { echo "tlp_curve: $smk is not an executable smk binary (make $smk)" >&2; exit 1; }
[ -r "$wl" ] || { echo "tlp_curve: cannot read workload $wl" >&2; exit 1; }
[[ $cycles =~ ^[1-9][0-9]*$ ]] || { echo "tlp_curve: -c $cycles: expected a positive integer" >&2; exit 1; }
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "tlp_curve: -j $jobs: expected a positive integer" >&2; exit 1; }
[[ $caps =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || { echo "tlp_curve: -t $caps: expected positive integers separated by commas" >&2; exit 1; }
cfg=$(basename "$(dirname "$smk")") hdr=$(dirname "$smk")/smk_cfg.h
[ -r "$hdr" ] || { echo "tlp_curve: no $hdr next to $smk (a binary of build/CONFIG/)" >&2; exit 1; }
smem=$(awk '$2 == "SMK_SMEM" {print $3}' "$hdr")
all=$(awk '$1 == "kernel" {print $2}' "$wl" | paste -sd, -)
kernels=${kernels:-$all}
for k in ${kernels//,/ }; do
  [[ ",$all," == *",$k,"* ]] || { echo "tlp_curve: -k: $wl has no kernel \"$k\"" >&2; exit 1; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for k in ${kernels//,/ }; do
  for t in ${caps//,/ }; do
    # the kernel's smem_bytes line replaced (kept as it is when the kernel block has none: then the
    # run fails with the workload's own error, which names the file and line)
    awk -v k="$k" -v b=$((smem / t)) '
      $1 == "kernel" { cur = $2 }
      cur == k && $1 == "smem_bytes" { print "  smem_bytes " b "  # tlp_curve.sh cap"; next }
      { print }' "$wl" > "$tmp/$k-$t.wl"
    echo "$k $t"
  done
done | xargs -P "$jobs" -n 2 sh -c '
  "$0" run --config "$1" --workload "$2/$4-$5.wl" --kernels "$4" --policy smk --cycles "$3" \
      --iso-cycles 1000 --csv > "$2/$4-$5.csv" 2> "$2/$4-$5.err" ||
    { echo "tlp_curve: $4 at $5 TBs per SM: $(head -1 "$2/$4-$5.err")" >&2; exit 255; }' "$smk" "$cfg" "$tmp" "$cycles" ||
  exit 1
printf '| kernel |'; for t in ${caps//,/ }; do printf ' %s |' "$t"; done; echo
printf '|---|'; for t in ${caps//,/ }; do printf -- '---:|'; done; echo
for k in ${kernels//,/ }; do
  printf '| %s |' "$k"
  for t in ${caps//,/ }; do
    ipc=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "ipc") c = i } NR == 2 { print $c }' "$tmp/$k-$t.csv")
    [ -n "$ipc" ] || { echo "tlp_curve: $k at $t TBs per SM: no IPC in the run's output" >&2; exit 1; }
    printf ' %.1f |' "$ipc"
  done
  echo
done
