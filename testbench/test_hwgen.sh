#!/usr/bin/env bash
# test_hwgen.sh HWGEN: the configuration checker accepts every named configuration and rejects
# bad ones with "FILE:LINE: reason" and a non-zero exit. Each case states the exact line expected.
set -u
hwgen=${1:?usage: test_hwgen.sh path/to/hwgen}
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
pass=0 fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

for c in hw/configs/*.cfg; do
  if "$hwgen" --check "$c" hw/regmap.def; then ok; else bad "named configuration $c rejected"; fi
done

# case NAME SED-EXPRESSION EXPECTED-MESSAGE (exact, including file and line)
case_() {
  local name=$1 expr=$2 want=$3 f="$dir/$1.cfg" out rc
  sed -e "$expr" hw/configs/gtx980.cfg > "$f"
  out=$("$hwgen" --check "$f" hw/regmap.def 2>&1); rc=$?
  want=${want//@/$f}
  if [ $rc -eq 0 ]; then bad "$name: accepted"; elif [ "$out" != "$want" ]; then
    bad "$name: got '$out', want '$want'"; else ok; fi
}
case_ unknown_key   '4a\colour = 3' "@:5: unknown key 'colour' (expected one of num_sm, warps_per_sm, sched_per_sm, kslots_per_sm, kernels_gpu, tb_slots_per_sm, regs_per_sm, smem_per_sm, threads_per_sm, warp_size, cmpl_per_sched, quota_width, epoch_width, stat_width, pe_queue_depth, ctx_line_bytes, ctl_bytes_per_warp, max_regs_per_thread, pe_max_outstanding, ctx_ptr_width, ptbq_depth, grid_width, part_rotate)"
case_ missing_key   '/^stat_width/d' "@:24: missing key 'stat_width' (every key is required)"
case_ duplicate     '4a\num_sm = 2' "@:5: key 'num_sm' given twice (first at line 3)"
case_ not_integer   's/^num_sm .*/num_sm = sixteen/' "@:3: key 'num_sm': expected an integer, got \"sixteen\""
case_ range_high    's/^warps_per_sm .*/warps_per_sm = 128/' "@:4: key 'warps_per_sm' = 128 out of range (expected 1..64)"
case_ range_low     's/^quota_width .*/quota_width = 4/' "@:14: key 'quota_width' = 4 out of range (expected 8..32)"
case_ no_equals     's/^num_sm .*/num_sm 16/' "@:3: expected \"key = value\", got \"num_sm 16\""
case_ sched_divides 's/^sched_per_sm .*/sched_per_sm = 3/' "@:5: warps_per_sm (64) is not divisible by sched_per_sm (3)"
case_ warp_pow2     's/^warp_size .*/warp_size = 24/;s/^threads_per_sm .*/threads_per_sm = 1536/' "@:12: warp_size (24) must be a power of two"
case_ threads       's/^threads_per_sm .*/threads_per_sm = 3072/' "@:11: threads_per_sm (3072) must equal warps_per_sm x warp_size (2048)"
case_ tb_slots      's/^warps_per_sm .*/warps_per_sm = 16/;s/^threads_per_sm .*/threads_per_sm = 512/' "@:8: tb_slots_per_sm (32) exceeds warps_per_sm (16): every TB has a warp"
case_ kslots        's/^kernels_gpu .*/kernels_gpu = 2/' "@:6: kslots_per_sm (4) exceeds kernels_gpu (2)"
case_ quota_narrow  's/^quota_width .*/quota_width = 31/' "@:14: quota_width 31 too small: one epoch of up to 2^24 cycles at 128 thread instructions per cycle needs 31 magnitude bits + sign = 32"
case_ stat_narrow   's/^stat_width .*/stat_width = 30/' "@:16: stat_width 30 too small: one epoch of up to 2^24 cycles at 128 thread instructions per cycle needs 31 bits"
# preemption engine keys (docs/preempt_engine.md "Parameters"): range and one bad input per rule
case_ pe_qdepth     's/^pe_queue_depth .*/pe_queue_depth = 0/' "@:17: key 'pe_queue_depth' = 0 out of range (expected 1..16)"
case_ ctx_line      's/^ctx_line_bytes .*/ctx_line_bytes = 64/' "@:18: ctx_line_bytes (64) must equal 4 x warp_size (128): one line holds one register of one warp"
case_ max_regs      's/^regs_per_sm .*/regs_per_sm = 4096/' "@:20: max_regs_per_thread (255) x warp_size (32) exceeds regs_per_sm (4096): one warp must fit"
case_ ctx_ptr       's/^ctx_ptr_width .*/ctx_ptr_width = 11/' "@:22: ctx_ptr_width 11 too small: the largest context (2880 lines) needs 12 bits"
# the smallest pointer width that addresses the largest context (2880 lines): must be accepted
# SM driver keys (docs/sm_driver.md "Parameters")
case_ ptbq_range    's/^ptbq_depth .*/ptbq_depth = 65/' "@:23: key 'ptbq_depth' = 65 out of range (expected 1..64)"
case_ ptbq_fit      's/^ctx_ptr_width .*/ctx_ptr_width = 12/;s/^ptbq_depth .*/ptbq_depth = 2/' "@:23: ptbq_depth 2 too large: 2 contexts of 2880 lines do not fit in 2^12 lines (ctx_ptr_width)"
case_ share_d       's/^regs_per_sm .*/regs_per_sm = 65504/' "@:10: the dominant-share denominator lcm(regs_per_sm / warp_size, shared-memory lines, warps_per_sm, tb_slots_per_sm) = 1572096 exceeds 2^20"
f="$dir/pw12.cfg"; sed -e 's/^ctx_ptr_width .*/ctx_ptr_width = 12/;s/^ptbq_depth .*/ptbq_depth = 1/' hw/configs/gtx980.cfg > "$f"
if "$hwgen" --check "$f" hw/regmap.def; then ok; else bad "ctx_ptr_width 12 rejected"; fi
# 16 slots fit the register map exactly: must be accepted
f="$dir/k16.cfg"; sed -e 's/^kslots_per_sm .*/kslots_per_sm = 16/;s/^kernels_gpu .*/kernels_gpu = 16/' hw/configs/gtx980.cfg > "$f"
if "$hwgen" --check "$f" hw/regmap.def; then ok; else bad "16 kernel slots rejected"; fi
# missing file
out=$("$hwgen" --check "$dir/nope.cfg" hw/regmap.def 2>&1) && bad "missing file accepted" || {
  [ "$out" = "$dir/nope.cfg:0: cannot open configuration: No such file or directory" ] && ok || bad "missing file: '$out'"; }
# a bad register map line
printf 'const ADDR_W 8\nconst DATA_W 32\nreg X 0x00 rx\n' > "$dir/bad.def"
out=$("$hwgen" --check hw/configs/small.cfg "$dir/bad.def" 2>&1) && bad "bad regmap accepted" || {
  [ "$out" = "$dir/bad.def:3: reg X: access must be rw, ro or wo" ] && ok || bad "bad regmap: '$out'"; }

echo "hwgen: $pass passed, $fail failed"
[ $fail -eq 0 ]
