#!/usr/bin/env bash
# calibrate.sh: the measured columns of docs/calibration.md "Measurements": per kernel of a workload,
# alone on the GPU (policy smk, quota mode OFF), its isolated IPC over CYCLES, its steady IPC (the same
# run with grid 1000000, so that no launch ends), the tail loss, the share of the issue slots it
# uses, the front end's and the pipelines' use (docs/workload.md "Front end", "Pipelines"; the
# pipelines' from the kernel's mix), the DRAM channels' use and the class this gives. Run it from the repository's root.
#
#   scripts/calibrate.sh [-b SMK] [-w WORKLOAD] [-c CYCLES] [-j JOBS]
#
#   -b SMK       the smk binary (default build/gtx980/smk; the configuration it was built for)
#   -w WORKLOAD  workload file (default cmodel/sim/workloads/parboil.wl)
#   -c CYCLES    cycles per run (default 2000000)
#   -j JOBS      runs in parallel (default 2)
#
# Output: a Markdown table on stdout. Class: memory-bound when the DRAM channels are at least 90%
# busy, compute-bound when the front end or a pipeline (ALU, SFU or LD/ST: on-chip work) is at
# least 90% busy, otherwise neither (latency-bound). Front end: warp_insts / (fetch_warps x ibuffer
# x NSM x cycles). Pipeline use is expected work over capacity: ALU warp_insts x (mix_alu + mix_fmul)
# / (alu_units x NSM x cycles) (an f32 multiply counted on the ALU, its first choice), SFU warp_insts x
# (mix_sfu x sfu_interval + mix_imul x imul_interval + mix_imad x imad_interval + mix_fdiv x
# fdiv_interval) / (NSM x cycles), LD/ST warp_insts x (mix_shared + mix_global x lines) / (NSM x
# cycles). Errors: one line, exit 1.
set -euo pipefail
smk=build/gtx980/smk wl=cmodel/sim/workloads/parboil.wl cycles=2000000 jobs=2
while [ $# -gt 0 ]; do
  case $1 in
    -b) smk=${2:?}; shift 2 ;;
    -w) wl=${2:?}; shift 2 ;;
    -c) cycles=${2:?}; shift 2 ;;
    -j) jobs=${2:?}; shift 2 ;;
    -h|--help) sed -n '2,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "calibrate: unknown argument \"$1\" (see scripts/calibrate.sh -h)" >&2; exit 1 ;;
  esac
done
[ -x "$smk" ] || { echo "calibrate: $smk is not an executable smk binary (make $smk)" >&2; exit 1; }
[ -r "$wl" ] || { echo "calibrate: cannot read workload $wl" >&2; exit 1; }
cfg=$(basename "$(dirname "$smk")") hdr=$(dirname "$smk")/smk_cfg.h
[ -r "$hdr" ] || { echo "calibrate: no $hdr next to $smk (a binary of build/CONFIG/)" >&2; exit 1; }
nsm=$(awk '$2 == "SMK_NUM_SM" {print $3}' "$hdr") sched=$(awk '$2 == "SMK_SCHED" {print $3}' "$hdr")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# the machine's and each kernel's values, from the workload file (comments stripped)
sed 's/#.*//' "$wl" > "$tmp/wl"
mval() { awk -v k="$1" '$1 == "machine" {m = 1} m && $1 == k {print $2; exit}' "$tmp/wl"; }
kval() { awk -v n="$1" -v k="$2" '$1 == "kernel" {m = ($2 == n)} m && $1 == k {print $2; exit}' "$tmp/wl"; }
kernels=$(awk '$1 == "kernel" {print $2}' "$tmp/wl")
aun=$(mval alu_units) sint=$(mval sfu_interval) nch=$(mval mem_channels) serv=$(mval mem_service)
imi=$(mval imul_interval) iai=$(mval imad_interval) fdi=$(mval fdiv_interval)
fe=$(( $(mval fetch_warps) * $(mval ibuffer) ))
run() { # KERNEL MODE(iso|steady)
  local f=$wl
  if [ "$2" = steady ]; then
    f=$tmp/$1.wl
    sed "/^kernel $1\( \|#\|\$\)/,/^end/s/^\( *grid *\)[0-9]*/\1 1000000/" "$wl" > "$f"
  fi
  "$smk" run --config "$cfg" --workload "$f" --kernels "$1" --policy smk --cycles "$cycles" --iso-cycles 1 --json \
    > "$tmp/$1.$2.json"
}
export -f run; export smk wl cfg cycles tmp
for k in $kernels; do printf '%s iso\n%s steady\n' "$k" "$k"; done | xargs -P "$jobs" -n 2 bash -c 'run "$0" "$1"'
num() { grep -o "\"$2\":[0-9.]*" "$tmp/$1" | head -1 | cut -d: -f2; }
echo "| kernel | isolated IPC | steady IPC | tail loss | issue slots used (steady) | front end (steady) | pipelines (steady): ALU, SFU, LD/ST | DRAM (steady): lines/cycle, % of peak | class measured |"
echo "|---|--:|--:|--:|--:|--:|---|---|---|"
for k in $kernels; do
  ii=$(num "$k.iso.json" ipc) si=$(num "$k.steady.json" ipc) wi=$(num "$k.steady.json" warp_insts)
  dl=$(num "$k.steady.json" dram_lines)
  awk -v k="$k" -v ii="$ii" -v si="$si" -v wi="$wi" -v dl="$dl" -v c="$cycles" -v nsm="$nsm" -v s="$sched" \
      -v aun="$aun" -v sint="$sint" -v fe="$fe" -v nch="$nch" -v serv="$serv" -v ma="$(kval "$k" mix_alu)" \
      -v mf="$(kval "$k" mix_sfu)" -v ms="$(kval "$k" mix_shared)" -v mg="$(kval "$k" mix_global)" \
      -v ln="$(kval "$k" lines)" -v mim="$(kval "$k" mix_imul)" -v mia="$(kval "$k" mix_imad)" \
      -v mfm="$(kval "$k" mix_fmul)" -v mfd="$(kval "$k" mix_fdiv)" -v imi="$imi" -v iai="$iai" -v fdi="$fdi" 'BEGIN {
    slots = wi / (nsm * s * c); front = wi / (fe * nsm * c); alu = wi * (ma + mfm) / (aun * nsm * c)
    sfu = wi * (mf * sint + mim * imi + mia * iai + mfd * fdi) / (nsm * c)
    ldst = wi * (ms + mg * ln) / (nsm * c); lpc = dl / c; peak = nch / serv; dram = lpc / peak
    cls = dram >= 0.9 ? "memory" : (front >= 0.9 || alu >= 0.9 || sfu >= 0.9 || ldst >= 0.9) ? "compute" : "neither"
    printf "| %s | %.2f | %.2f | %.1f%% | %.1f%% | %.1f%% | %.1f%%, %.1f%%, %.1f%% | %.3f, %.1f%% | %s |\n",
      k, ii, si, (si > 0 ? 100 * (1 - ii / si) : 0), 100 * slots, 100 * front, 100 * alu, 100 * sfu, 100 * ldst, lpc, 100 * dram, cls }'
done
