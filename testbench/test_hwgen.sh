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

# reject NAME CONFIG REGMAP EDITED EXPECTED-MESSAGE: `hwgen --check CONFIG REGMAP` must fail with exactly
# that one line, @ standing for the EDITED file's path
reject() {
  local out rc want=${5//@/$4}
  out=$("$hwgen" --check "$2" "$3" 2>&1); rc=$?
  if [ $rc -eq 0 ]; then bad "$1: accepted"; elif [ "$out" != "$want" ]; then
    bad "$1: got '$out', want '$want'"; else ok; fi
}
# case NAME SED-EXPRESSION EXPECTED-MESSAGE: gtx980.cfg edited (exact message, including file and line)
case_() {
  local f="$dir/$1.cfg"
  sed -e "$2" hw/configs/gtx980.cfg > "$f"
  reject "$1" "$f" hw/regmap.def "$f" "$3"
}
# accept NAME SED-EXPRESSION: gtx980.cfg edited, must be accepted with hw/regmap.def
accept() {
  local f="$dir/$1.cfg"
  sed -e "$2" hw/configs/gtx980.cfg > "$f"
  if "$hwgen" --check "$f" hw/regmap.def; then ok; else bad "$1: rejected"; fi
}
case_ unknown_key   '4a\colour = 3' "@:5: unknown key 'colour' (expected one of num_sm, warps_per_sm, sched_per_sm, kslots_per_sm, kernels_gpu, tb_slots_per_sm, regs_per_sm, smem_per_sm, threads_per_sm, warp_size, cmpl_per_sched, quota_width, epoch_width, stat_width, pe_queue_depth, ctx_line_bytes, ctl_bytes_per_warp, max_regs_per_thread, pe_max_outstanding, ctx_ptr_width, ptbq_depth, grid_width, part_rotate, drv_pipe)"
case_ missing_key   '/^stat_width/d' "@:25: missing key 'stat_width' (every key is required)"
case_ duplicate     '4a\num_sm = 2' "@:5: key 'num_sm' given twice (first at line 3)"
case_ not_integer   's/^num_sm .*/num_sm = sixteen/' "@:3: key 'num_sm': expected an integer, got \"sixteen\""
case_ range_high    's/^warps_per_sm .*/warps_per_sm = 128/' "@:4: key 'warps_per_sm' = 128 out of range (expected 1..64)"
case_ range_low     's/^quota_width .*/quota_width = 4/' "@:14: key 'quota_width' = 4 out of range (expected 8..32)"
case_ epoch_lc      's/^epoch_width .*/epoch_width = 9/' "@:15: epoch_width 9 too small: the QoS manager's computation of 2019 cycles (LC, docs/qos_mgr.md 7.5, from kernels_gpu and num_sm) must fit the epoch length's 10 bits"
case_ no_equals     's/^num_sm .*/num_sm 16/' "@:3: expected \"key = value\", got \"num_sm 16\""
case_ sched_divides 's/^sched_per_sm .*/sched_per_sm = 3/' "@:5: warps_per_sm (64) is not divisible by sched_per_sm (3)"
# warp_size other than 32: refused with the reason (docs/params.md "Warp size")
case_ warp_32       's/^warp_size .*/warp_size = 16/;s/^threads_per_sm .*/threads_per_sm = 1024/;s/^ctx_line_bytes .*/ctx_line_bytes = 64/' "@:12: warp_size (16) must be 32: workload files, the timing model and smk count 32 threads per warp"
case_ warp_24       's/^warp_size .*/warp_size = 24/;s/^threads_per_sm .*/threads_per_sm = 1536/' "@:12: warp_size (24) must be 32: workload files, the timing model and smk count 32 threads per warp"
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
accept pw12 's/^ctx_ptr_width .*/ctx_ptr_width = 12/;s/^ptbq_depth .*/ptbq_depth = 1/'
# 16 slots fit the SM register map exactly: must be accepted
accept k16 's/^kslots_per_sm .*/kslots_per_sm = 16/;s/^kernels_gpu .*/kernels_gpu = 16/'
# integers: a leading 0 is decimal (010 is ten, never octal eight), 0x is hexadecimal
case_ octal_9       's/^num_sm .*/num_sm = 0x/' "@:3: key 'num_sm': expected an integer, got \"0x\""
case_ plus_sign     's/^num_sm .*/num_sm = +16/' "@:3: key 'num_sm': expected an integer, got \"+16\""
accept lead09 's/^num_sm .*/num_sm = 09/'
sed -e 's/^num_sm .*/num_sm = 010/;s/^kernels_gpu .*/kernels_gpu = 0x8/' hw/configs/gtx980.cfg > "$dir/lead0.cfg"
mkdir -p "$dir/lead0"
if "$hwgen" "$dir/lead0.cfg" hw/regmap.def "$dir/lead0" && grep -q '^#define SMK_NUM_SM  *10$' "$dir/lead0/smk_cfg.h" &&
   grep -q '^#define SMK_KERNELS  *8$' "$dir/lead0/smk_cfg.h"; then ok; else bad "num_sm = 010 is not 10 (or kernels_gpu = 0x8 not 8)"; fi
# bytes that are not text: a NUL byte, a control character echoed (as \xHH, never raw)
printf 'num_sm = 1\0 6\n' > "$dir/nul.cfg"
reject nul_byte "$dir/nul.cfg" hw/regmap.def "$dir/nul.cfg" "@:1: NUL byte in the line (not a text file?)"
case_ control_echo  '4a\col\x1bour = 3' "@:5: unknown key 'col\\x1bour' (expected one of num_sm, warps_per_sm, sched_per_sm, kslots_per_sm, kernels_gpu, tb_slots_per_sm, regs_per_sm, smem_per_sm, threads_per_sm, warp_size, cmpl_per_sched, quota_width, epoch_width, stat_width, pe_queue_depth, ctx_line_bytes, ctl_bytes_per_warp, max_regs_per_thread, pe_max_outstanding, ctx_ptr_width, ptbq_depth, grid_width, part_rotate, drv_pipe)"
case_ long_line     "3s/\$/ $(printf '%*s' 520 '' | tr ' ' '#')/" "@:3: line longer than 510 characters"
# a directory given as the configuration or the register map
mkdir -p "$dir/adir"
reject dir_config "$dir/adir" hw/regmap.def "$dir/adir" "@:0: cannot read configuration: Is a directory"
reject dir_regmap hw/configs/small.cfg "$dir/adir" "$dir/adir" "@:0: cannot read register map: Is a directory"
# a file name with '"', '\\', '??-' (a trigraph), '*' and a newline: SMK_CFG_NAME is a C string that gives it back
qn=$'q"b\\c??-*\nd'
mkdir -p "$dir/qdir" "$dir/qout"; cp hw/configs/small.cfg "$dir/qdir/$qn.cfg"
printf '#include "smk_cfg.h"\n#include <stdio.h>\nint main(void) { fputs(SMK_CFG_NAME, stdout); return 0; }\n' > "$dir/qname.c"
if "$hwgen" "$dir/qdir/$qn.cfg" hw/regmap.def "$dir/qout" && ${CC:-gcc} -std=c11 -Wall -Werror -I"$dir/qout" -o "$dir/qname" "$dir/qname.c" 2>/dev/null &&
   [ "$("$dir/qname"; echo .)" = "$qn." ] && [ "$(wc -l < "$dir/qout/smk_cfg.vh")" = "$(grep -c '' "$dir/qout/smk_cfg.vh")" ] &&
   ! grep -q '^d' "$dir/qout/smk_cfg.vh"; then ok; else bad "configuration name '$qn' not escaped in smk_cfg.h / smk_cfg.vh"; fi
# missing file
out=$("$hwgen" --check "$dir/nope.cfg" hw/regmap.def 2>&1) && bad "missing file accepted" || {
  [ "$out" = "$dir/nope.cfg:0: cannot open configuration: No such file or directory" ] && ok || bad "missing file: '$out'"; }
# a bad register map line
printf 'space SM\nconst ADDR_W 8\nconst DATA_W 32\nreg X 0x00 rx\n' > "$dir/bad.def"
out=$("$hwgen" --check hw/configs/small.cfg "$dir/bad.def" 2>&1) && bad "bad regmap accepted" || {
  [ "$out" = "$dir/bad.def:4: reg X: access must be rw, ro or wo" ] && ok || bad "bad regmap: '$out'"; }

# Register maps: a fixture with both spaces (line numbers below refer to it), accepted as written;
# rcase NAME SED-EXPRESSION EXPECTED-MESSAGE edits it and checks it with gtx980 (kernels_gpu = 8).
cat > "$dir/map.def" <<'DEF'
# fixture: both spaces, fields, arrays of a configuration key, windows
space SM
const ADDR_W 8
const DATA_W 32
reg   CTRL  0x00 rw
field CTRL  A  0 2
reg   ARR   0x10 ro KSLOTS
space QM
const ADDR_W 9
const DATA_W 32
const WIN_W  6
reg   CTRL  0x000 rw
field CTRL  A  0 1
field CTRL  B  1 2
reg   STAT  0x001 ro
reg   ARR0  0x040 ro KERNELS
reg   ARR1  0x080 ro KERNELS
enum  E X 0
DEF
if "$hwgen" --check hw/configs/gtx980.cfg "$dir/map.def"; then ok; else bad "register map fixture rejected"; fi
rcase() {
  local f="$dir/$1.def"
  sed -e "$2" "$dir/map.def" > "$f"
  reject "$1" hw/configs/gtx980.cfg "$f" "$f" "$3"
}
rcase space_unknown  's/^space QM/space XM/' "@:8: unknown space 'XM' (expected SM or QM)"
rcase space_twice    's/^space QM/space SM/' "@:8: space SM given twice (first at line 2)"
rcase space_missing  '/^space QM/,$d' "@:7: space QM missing (every space is required: SM, QM)"
rcase before_space   '/^space SM/d' "@:2: const before the first 'space SM' or 'space QM' line"
rcase bad_line       's/^space QM/space/' "@:8: expected 'space NAME', 'const NAME VALUE', 'reg NAME ADDR ACCESS [COUNT]', 'field REG NAME LSB WIDTH' or 'enum GROUP NAME VALUE'"
rcase const_unknown  's/^const WIN_W  6/const WIN 6/' "@:11: unknown const 'WIN' (expected ADDR_W, DATA_W or WIN_W)"
rcase const_twice    '11a\const ADDR_W 10' "@:12: const ADDR_W given twice in space QM (first at line 9)"
rcase addr_w_missing '9d' "@:8: space QM: const ADDR_W (1..16) and const DATA_W 32 are required"
rcase win_range      's/^const WIN_W  6/const WIN_W  9/' "@:11: space QM: const WIN_W = 9 out of range (expected 1..ADDR_W - 1 = 8)"
rcase reg_twice      's/^reg   STAT  0x001/reg   CTRL  0x001/' "@:15: reg CTRL declared twice (first at line 12)"
rcase reg_count      's/ro KERNELS$/ro KERNEL/' "@:16: reg ARR0: count must be a positive integer or a configuration key's macro name (KSLOTS, KERNELS, ...)"
rcase sm_overlap     's/^reg   ARR   0x10/reg   ARR   0x00/' "@:7: reg ARR overlaps reg CTRL with kslots_per_sm = 4"
rcase sm_fit         's/^reg   ARR   0x10/reg   ARR   0xFE/' "@:7: reg ARR does not fit in 8 address bits with kslots_per_sm = 4"
rcase reg_overlap    's/^reg   STAT  0x001/reg   STAT  0x000/' "@:15: reg STAT overlaps reg CTRL"
rcase reg_window     's/^reg   STAT  0x001/reg   STAT  0x050/' "@:15: reg STAT: a single register must lie in window 0 (below 2^WIN_W = 64)"
# CTRL at 0x030 is past ARR0's 8 words but inside its window
rcase array_owns     's/^reg   CTRL  0x000/reg   CTRL  0x030/;s/^reg   STAT  0x001/reg   STAT  0x031/;s/^reg   ARR0  0x040/reg   ARR0  0x000/' "@:16: reg ARR0 overlaps reg CTRL (an array owns its whole window)"
rcase reg_fit        's/^const ADDR_W 9/const ADDR_W 7/' "@:17: reg ARR1 does not fit in 7 address bits (its window of 2^WIN_W = 64 words)"
rcase array_align    's/^reg   ARR1  0x080/reg   ARR1  0x090/' "@:17: reg ARR1: array base 0x90 is not a multiple of the window 2^WIN_W = 64"
rcase array_window   's/^const WIN_W  6/const WIN_W  2/' "@:16: reg ARR0: 8 words with kernels_gpu = 8 exceed the window 2^WIN_W = 4"
rcase field_width    's/^field CTRL  B  1 2/field CTRL  B  1 32/' "@:14: field CTRL.B: expected LSB and WIDTH inside 32 bits"
rcase field_overlap  's/^field CTRL  B  1 2/field CTRL  B  0 2/' "@:14: field CTRL.B [1:0] overlaps field CTRL.A [0:0]"
rcase field_twice    's/^field CTRL  B  1 2/field CTRL  A  1 2/' "@:14: field CTRL.A declared twice (first at line 13)"
# values near 2^63: refused, no signed overflow (hw/hwgen.c's fit checks; UBSan: make fuzz)
rcase addr_huge      's/^reg   STAT  0x001/reg   STAT  0x7fffffffffffffff/' "@:15: reg STAT: a single register must lie in window 0 (below 2^WIN_W = 64)"
rcase sm_addr_huge   's/^reg   ARR   0x10/reg   ARR   0x7ffffffffffffffe/' "@:7: reg ARR does not fit in 8 address bits with kslots_per_sm = 4"
rcase addr_decimal   's/^reg   ARR   0x10/reg   ARR   0253/' "@:7: reg ARR does not fit in 8 address bits with kslots_per_sm = 4"
rcase field_huge     's/^field CTRL  B  1 2/field CTRL  B  9223372036854775807 1/' "@:14: field CTRL.B: expected LSB and WIDTH inside 32 bits"
rcase map_nul        "s/^reg   STAT  0x001/reg   STAT  0x0\x001/" "@:15: NUL byte in the line (not a text file?)"
rcase map_long       "15s/\$/ # $(printf '%*s' 520 '' | tr ' ' 'x')/" "@:15: line longer than 510 characters"
rcase field_space    's/^field CTRL  B  1 2/field ARR   B  1 2/' "@:14: field ARR.B: register ARR not declared before it in space QM"
# 64 kernels fill the QoS manager's 64-word windows exactly: must be accepted
accept k64 's/^kernels_gpu .*/kernels_gpu = 64/'

# docs/params.md holds the generated register-map tables as they are generated today
doc=$(cat docs/params.md)
for s in SM QM; do
  gen=$("$hwgen" --regmap-md hw/regmap.def "$s")
  if [ -n "$gen" ] && [[ "$doc" == *"$gen"* ]]; then ok; else bad "docs/params.md: the $s table differs from: $hwgen --regmap-md hw/regmap.def $s"; fi
done

echo "hwgen: $pass passed, $fail failed"
[ $fail -eq 0 ]
