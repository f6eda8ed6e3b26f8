#!/usr/bin/env bash
# test_workload.sh SMK: workload files (docs/workload.md) and the smk command's argument errors.
# Good files are accepted; every bad file or command line is rejected with exactly the one-line
# message given here (file and line included) and a non-zero exit, never a crash or a default.
set -u
smk=${1:?usage: test_workload.sh path/to/smk (build/gtx980/smk)}
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
pass=0 fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

base="$dir/base.wl"
cat > "$base" <<'EOF'
# base file of the tests (line numbers matter)
machine
  mem_channels 4
  mem_service 2.78
  mem_latency 200
  l1_latency 82
  l2_latency 200
  alu_latency 6
  sfu_latency 20
  shared_latency 24
  max_inflight 4
  mshr 64
  ctx_priority no
  alu_units 2
  alu_queue 8
  sfu_interval 8
  sfu_queue 9
  ldst_queue 3
  fetch_warps 1
  ibuffer 2
  imul_interval 2
  imad_interval 1
  fmul_interval 1
  fdiv_interval 4
end
kernel a
  threads 128
  regs 25
  smem_bytes 4124
  grid 121
  insts 1000
  mix_alu 0.8
  mix_sfu 0.05
  mix_shared 0.1
  mix_global 0.05
  mix_imul 0
  mix_imad 0
  mix_fmul 0
  mix_fdiv 0
  dep 0.5
  lines 1
  l1_hit 0.5
  l2_hit 0.5
  active 32:0.9 16:0.1
  idempotent yes
end
kernel b    # a comment after the name
  threads 120
  regs 54
  smem_bytes 0
  grid 18000
  insts 600
  mix_alu 0.7
  mix_sfu 0
  mix_shared 0
  mix_global 0.3
  mix_imul 0
  mix_imad 0
  mix_fmul 0
  mix_fdiv 0
  dep 0.5
  lines 2
  l1_hit 0.05
  l2_hit 0.2
  active 32:1
  idempotent no
end
EOF

# ---- good files
for f in "$base" cmodel/sim/workloads/*.wl; do
  if out=$("$smk" check --workload "$f" 2>&1); then ok; else bad "good file $f rejected: $out"; fi
done
printf '\n\n# only comments and blank lines around\n' > "$dir/pad.wl"; cat "$base" >> "$dir/pad.wl"; printf '\n# end\n' >> "$dir/pad.wl"
if "$smk" check --workload "$dir/pad.wl" > /dev/null 2>&1; then ok; else bad "comments and blank lines rejected"; fi
# CRLF line ends and tabs are whitespace
sed -e 's/$/\r/' -e 's/ /\t/g' "$base" > "$dir/crlf.wl"
if "$smk" check --workload "$dir/crlf.wl" > /dev/null 2>&1; then ok; else bad "CRLF/tab file rejected"; fi
# blocks in any order (kernels before the machine)
sed -n '26,67p' "$base" > "$dir/order.wl"; sed -n '2,25p' "$base" >> "$dir/order.wl"
if "$smk" check --workload "$dir/order.wl" > /dev/null 2>&1; then ok; else bad "machine block after the kernels rejected"; fi
# exactly 64 kernels is allowed
{ sed -n '2,25p' "$base"; for i in $(seq 1 64); do sed -n '26,46p' "$base" | sed "s/^kernel a/kernel k$i/"; done; } > "$dir/k64.wl"
if "$smk" check --workload "$dir/k64.wl" > /dev/null 2>&1; then ok; else bad "64 kernels rejected"; fi
# the check output names the kernels
out=$("$smk" check --workload "$base" 2>&1)
[ "$out" = "$base: OK, 2 kernels: a b (fit configuration gtx980)" ] && ok || bad "check output: '$out'"

# ---- bad files: case NAME SED-EXPRESSION EXPECTED-MESSAGE (exact; @ = the file)
case_() {
  local name=$1 expr=$2 want=$3 f="$dir/$1.wl" out rc
  sed -e "$expr" "$base" > "$f"
  out=$("$smk" check --workload "$f" 2>&1); rc=$?
  want="smk: ${want//@/$f}"
  if [ $rc -eq 0 ]; then bad "$name: accepted"; elif [ $rc -gt 1 ]; then bad "$name: exit status $rc (crash?)";
  elif [ "$out" != "$want" ]; then bad "$name: got '$out', want '$want'"; else ok; fi
}
KKEYS="threads, regs, smem_bytes, grid, insts, mix_alu, mix_sfu, mix_shared, mix_global, mix_imul, mix_imad, mix_fmul, mix_fdiv, dep, lines, l1_hit, l2_hit, active, idempotent"
MKEYS="mem_channels, mem_service, mem_latency, l1_latency, l2_latency, alu_latency, sfu_latency, shared_latency, max_inflight, mshr, ctx_priority, alu_units, alu_queue, sfu_interval, sfu_queue, ldst_queue, fetch_warps, ibuffer, imul_interval, imad_interval, fmul_interval, fdiv_interval"
case_ unknown_kkey   '28a\  colour 3' "@:29: unknown key 'colour' in kernel block (expected one of $KKEYS)"
case_ unknown_mkey   '4a\  dram_gb 4' "@:5: unknown key 'dram_gb' in machine block (expected one of $MKEYS)"
case_ missing_kkey   '/^  grid 121/d' "@:45: kernel 'a' (line 26) is missing key 'grid' (every key is required)"
case_ missing_mkey   '/^  mshr/d' "@:24: machine block (line 2) is missing key 'mshr' (every key is required)"
case_ missing_active '44d' "@:45: kernel 'a' (line 26) is missing key 'active' (every key is required)"
case_ duplicate_key  '28a\  regs 30' "@:29: key 'regs' given twice (first at line 28)"
case_ duplicate_kern 's/^kernel b.*/kernel a/' "@:47: kernel 'a' defined twice (first at line 26)"
case_ second_machine '25a\machine' "@:26: second 'machine' block (first at line 2)"
case_ not_integer    's/^  grid 121/  grid many/' "@:30: key 'grid': expected an integer, got \"many\""
case_ negative_int   's/^  grid 121/  grid -5/' "@:30: key 'grid': expected an integer, got \"-5\""
case_ float_for_int  's/^  threads 128/  threads 128.0/' "@:27: key 'threads': expected an integer, got \"128.0\""
case_ hex_int        's/^  regs 25/  regs 0x19/' "@:28: key 'regs': expected an integer, got \"0x19\""
case_ huge_int       's/^  insts 1000/  insts 99999999999999999999/' "@:31: key 'insts' = 99999999999999999999 out of range (expected 1..1000000000)"
case_ int_zero       's/^  grid 121/  grid 0/' "@:30: key 'grid' = 0 out of range (expected 1..16777215)"
case_ threads_high   's/^  threads 128/  threads 1025/' "@:27: key 'threads' = 1025 out of range (expected 1..1024)"
case_ regs_high      's/^  regs 25/  regs 256/' "@:28: key 'regs' = 256 out of range (expected 1..255)"
case_ channels_zero  's/^  mem_channels 4/  mem_channels 0/' "@:3: key 'mem_channels' = 0 out of range (expected 1..64)"
case_ inflight_high  's/^  max_inflight 4/  max_inflight 33/' "@:11: key 'max_inflight' = 33 out of range (expected 1..32)"
case_ not_number     's/^  dep 0.5/  dep half/' "@:40: key 'dep': expected a number, got \"half\""
case_ nan            's/^  dep 0.5/  dep nan/' "@:40: key 'dep': expected a number, got \"nan\""
case_ prob_high      's/^  l1_hit 0.5/  l1_hit 1.5/' "@:42: key 'l1_hit' = 1.5 out of range (expected 0..1)"
case_ prob_negative  's/^  l2_hit 0.5/  l2_hit -0.1/' "@:43: key 'l2_hit': expected a number, got \"-0.1\""
case_ lines_low      's/^  lines 1/  lines 0.5/' "@:41: key 'lines' = 0.5 out of range (expected 1..32)"
case_ service_zero   's/^  mem_service 2.78/  mem_service 0/' "@:4: key 'mem_service' = 0 out of range (expected 0.01..1000)"
case_ trailing       's/^  regs 25/  regs 25 26/' "@:28: key 'regs': unexpected \"26\" after the value"
case_ trailing_unit  's/^  smem_bytes 4124/  smem_bytes 4124 bytes/' "@:29: key 'smem_bytes': unexpected \"bytes\" after the value"
case_ glued_garbage  's/^  regs 25/  regs 25x/' "@:28: key 'regs': expected an integer, got \"25x\""
case_ missing_value  's/^  regs 25/  regs/' "@:28: key 'regs': missing value"
case_ comment_value  's/^  regs 25/  regs # 25/' "@:28: key 'regs': missing value"
case_ yesno          's/^  idempotent yes/  idempotent 1/' "@:45: key 'idempotent': expected yes or no, got \"1\""
case_ yesno_ctx      's/^  ctx_priority no/  ctx_priority maybe/' "@:13: key 'ctx_priority': expected yes or no, got \"maybe\""
case_ alu_units_zero 's/^  alu_units 2/  alu_units 0/' "@:14: key 'alu_units' = 0 out of range (expected 1..64)"
case_ queue_high     's/^  sfu_queue 9/  sfu_queue 65/' "@:17: key 'sfu_queue' = 65 out of range (expected 1..64)"
case_ interval_real  's/^  sfu_interval 8/  sfu_interval 8.5/' "@:16: key 'sfu_interval': expected an integer, got \"8.5\""
case_ missing_ldstq  '/^  ldst_queue/d' "@:24: machine block (line 2) is missing key 'ldst_queue' (every key is required)"
case_ mix_sum        's/^  mix_alu 0.8/  mix_alu 0.7/' "@:46: kernel 'a': the eight mix_ fractions sum to 0.9 (expected 1)"
case_ mix_high       's/^  mix_alu 0.8/  mix_alu 1.8/' "@:32: key 'mix_alu' = 1.8 out of range (expected 0..1)"
case_ act_sum        's/^  active 32:0.9 16:0.1/  active 32:0.9 16:0.2/' "@:44: key 'active': probabilities sum to 1.1 (expected 1)"
case_ act_format     's/^  active 32:0.9 16:0.1/  active 32=0.9 16:0.1/' "@:44: key 'active': expected THREADS:PROBABILITY, got \"32=0.9\""
case_ act_threads    's/^  active 32:0.9 16:0.1/  active 33:0.9 16:0.1/' "@:44: key 'active': thread count in \"33:0.9\" out of range (expected 1..32)"
case_ act_zero_thr   's/^  active 32:0.9 16:0.1/  active 0:0.9 16:0.1/' "@:44: key 'active': thread count in \"0:0.9\" out of range (expected 1..32)"
case_ act_zero_prob  's/^  active 32:0.9 16:0.1/  active 32:1 16:0/' "@:44: key 'active': probability in \"16:0\" out of range (expected > 0 and <= 1)"
case_ act_dup        's/^  active 32:0.9 16:0.1/  active 32:0.5 32:0.5/' "@:44: key 'active': thread count 32 given twice"
case_ act_empty_prob 's/^  active 32:0.9 16:0.1/  active 32: 16:0.1/' "@:44: key 'active': expected THREADS:PROBABILITY, got \"32:\""
case_ key_outside    '1a\threads 128' "@:2: \"threads\" outside a block (expected 'machine' or 'kernel NAME')"
case_ end_outside    '25a\end' "@:26: 'end' outside a block"
case_ end_garbage    '46s/^end/end now/' "@:46: 'end': unexpected \"now\" after it"
case_ nested         '31a\kernel c' "@:32: 'kernel' inside the kernel block opened at line 26 (missing 'end')"
case_ missing_end    '46d' "@:46: 'kernel' inside the kernel block opened at line 26 (missing 'end')"
case_ eof_in_block   '67d' "@:66: end of file inside the kernel block opened at line 47 (missing 'end')"
case_ kernel_noname  's/^kernel a/kernel/' "@:26: 'kernel': missing name (expected 'kernel NAME')"
case_ kernel_2names  's/^kernel a/kernel a b/' "@:26: 'kernel a': unexpected \"b\" after the name"
case_ bad_name       's/^kernel a/kernel a\/b/' "@:26: kernel name \"a/b\": expected 1..31 characters of [A-Za-z0-9_.-]"
case_ long_name      's/^kernel a/kernel aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/' "@:26: kernel name \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\": expected 1..31 characters of [A-Za-z0-9_.-]"
case_ machine_arg    's/^machine/machine gtx980/' "@:2: 'machine': unexpected \"gtx980\" (expected 'machine' alone on its line)"
case_ no_machine     '2,25d' "@:43: no 'machine' block (it is required)"
case_ no_kernel      '26,$d' "@:25: no 'kernel NAME' block (at least one is required)"
case_ control_char   's/^  regs 25/\x01regs 25/' "@:28: non-ASCII or control character (byte 0x01) in the first word"
case_ nul_byte       's/^  regs 25/  regs 2\x005/' "@:28: NUL byte in the line (not a text file?)"
case_ long_line      "28s/\$/ $(printf '%*s' 1100 '' | tr ' ' '#')/" "@:28: line longer than 1024 characters"
case_ too_many_words 's/^  active 32:0.9 16:0.1/  active 32:0.9 16:0.1 a b c d e f g h i j k l m n o p q r s t u v w x y z 1 2 3 4 5 6 7/' "@:44: too many words on one line (at most 35)"

# reals: 1e-310 underflows to a denormal, a number (in range for dep); 1e400 is out of every range
case_ real_huge      's/^  dep 0.5/  dep 1e400/' "@:40: key 'dep' = 1e400 out of range (expected 0..1)"
case_ real_tiny      's/^  mem_service 2.78/  mem_service 1e-310/' "@:4: key 'mem_service' = 1e-310 out of range (expected 0.01..1000)"
case_ act_prob_huge  's/^  active 32:0.9 16:0.1/  active 32:1e400/' "@:44: key 'active': probability in \"32:1e400\" out of range (expected > 0 and <= 1)"
sed -e 's/^  dep 0.5/  dep 1e-310/' "$base" > "$dir/denorm.wl"
if "$smk" check --workload "$dir/denorm.wl" > /dev/null 2>&1; then ok; else bad "dep 1e-310 rejected"; fi
# empty file, only comments, missing file, a directory
: > "$dir/empty.wl"
out=$("$smk" check --workload "$dir/empty.wl" 2>&1) && bad "empty file accepted" || {
  [ "$out" = "smk: $dir/empty.wl:1: empty workload (expected a 'machine' block and at least one 'kernel NAME' block)" ] && ok || bad "empty: '$out'"; }
printf '# nothing\n\n' > "$dir/comments.wl"
out=$("$smk" check --workload "$dir/comments.wl" 2>&1) && bad "comments-only file accepted" || {
  [ "$out" = "smk: $dir/comments.wl:2: no 'machine' block (it is required)" ] && ok || bad "comments only: '$out'"; }
out=$("$smk" check --workload "$dir/nope.wl" 2>&1) && bad "missing file accepted" || {
  [ "$out" = "smk: $dir/nope.wl:0: cannot open workload: No such file or directory" ] && ok || bad "missing file: '$out'"; }
out=$("$smk" check --workload "$dir" 2>&1) && bad "a directory accepted" || {
  [ "$out" = "smk: $dir:0: cannot read workload: Is a directory" ] && ok || bad "directory: '$out'"; }
# 65 kernels: too many
{ sed -n '2,25p' "$base"; for i in $(seq 1 65); do sed -n '26,46p' "$base" | sed "s/^kernel a/kernel k$i/"; done; } > "$dir/k65.wl"
out=$("$smk" check --workload "$dir/k65.wl" 2>&1) && bad "65 kernels accepted" || {
  [ "$out" = "smk: $dir/k65.wl:1369: too many kernels (at most 64)" ] && ok || bad "65 kernels: '$out'"; }
# a kernel that parses but does not fit the configuration (gtx980: 64 warps, 2048 register rows, 96 KB)
case_ fit_regs   's/^  threads 128/  threads 1024/;s/^  regs 25/  regs 255/' "@:26: kernel 'a': one TB needs 32 x 255 x 32 registers, more than the SM's 65536 (configuration gtx980)"
case_ fit_smem   's/^  smem_bytes 4124/  smem_bytes 100000/' "@:26: kernel 'a': 100000 bytes of shared memory per TB exceed the SM's 98304 (configuration gtx980)"
case_ fit_grid   's/^  grid 121/  grid 2000000/' "@:26: kernel 'a': grid of 2000000 TBs exceeds the driver's 1048575 (grid_width) (configuration gtx980)"

# ---- smk run: argument errors (one line, exit 1)
run_() {
  local name=$1 want=$2 out rc; shift 2
  out=$("$smk" "$@" 2>&1); rc=$?
  if [ $rc -eq 0 ]; then bad "$name: accepted"; elif [ $rc -gt 1 ]; then bad "$name: exit status $rc";
  elif [ "$out" != "smk: $want" ]; then bad "$name: got '$out', want 'smk: $want'"; else ok; fi
}
W=(--workload "$base")
run_ no_command    'unknown command "fly" (expected run or check; see smk --help)' fly
run_ wrong_config  "--config small: this binary simulates configuration 'gtx980'; use build/small/smk (make build/small/smk)" run --config small "${W[@]}" --kernels a --policy fcfs
run_ no_config     "run: --config NAME is required (this binary: gtx980)" run "${W[@]}" --kernels a --policy fcfs
cp "$smk" "$dir/smk"; smk_saved=$smk; smk=$dir/smk  # a copy with no sibling smk_rtl: --rtl must name the make target
run_ rtl           "--rtl: the RTL back-end $dir/smk_rtl is not built (make build/gtx980/smk_rtl)" run --config gtx980 "${W[@]}" --kernels a --policy fcfs --rtl
run_ rtl_fst       "--rtl: the RTL back-end with waveforms $dir/wave/smk_rtl is not built (make build/gtx980/wave/smk_rtl)" run --config gtx980 "${W[@]}" --kernels a --policy fcfs --rtl --fst x.fst --window 0:1
smk=$smk_saved
run_ no_kernels    "run: --kernels A,B,... is required" run --config gtx980 "${W[@]}" --policy fcfs
run_ no_policy     "run: --policy fcfs|spart|smk|smkp|qos is required" run --config gtx980 "${W[@]}" --kernels a
run_ bad_policy    '--policy: unknown value "rr" (expected fcfs | spart | smk | smkp | qos)' run --config gtx980 "${W[@]}" --kernels a --policy rr
run_ bad_scheme    '--scheme: unknown value "fair" (expected off | smk | naive | elastic | rollover | rollover-time)' run --config gtx980 "${W[@]}" --kernels a --policy qos --scheme fair
run_ bad_qkeep     '--qos-keep: unknown value "yes" (expected off | on)' run --config gtx980 "${W[@]}" --kernels a,b --policy qos --scheme rollover --goal a=0.5 --qos-keep yes
run_ bad_qpre      '--qos-preempt: unknown value "cta" (expected sm | gpu)' run --config gtx980 "${W[@]}" --kernels a,b --policy qos --scheme rollover --goal a=0.5 --qos-preempt cta
run_ unknown_kern  "--kernels: no kernel 'c' in $base" run --config gtx980 "${W[@]}" --kernels a,c --policy fcfs
run_ dup_kern      "--kernels: 'a' listed twice" run --config gtx980 "${W[@]}" --kernels a,a --policy fcfs
run_ empty_kern    '--kernels "a,": empty name in the list' run --config gtx980 "${W[@]}" --kernels a, --policy fcfs
run_ goal_notlisted "--goal: 'b' is not one of --kernels" run --config gtx980 "${W[@]}" --kernels a --policy qos --scheme rollover --goal b=0.5
run_ goal_range    "--goal a=1.5: expected a fraction of the isolated IPC, 0 < F <= 1" run --config gtx980 "${W[@]}" --kernels a,b --policy qos --scheme rollover --goal a=1.5
run_ goal_format   '--goal "a:0.5": expected KERNEL=FRACTION' run --config gtx980 "${W[@]}" --kernels a,b --policy qos --scheme rollover --goal a:0.5
run_ goal_twice    "--goal: 'a' given twice" run --config gtx980 "${W[@]}" --kernels a,b --policy qos --scheme rollover --goal a=0.5 --goal a=0.6
run_ qos_nogoal    "--scheme rollover: QoS quotas need at least one --goal" run --config gtx980 "${W[@]}" --kernels a,b --policy qos --scheme rollover
run_ cycles_bad    '--cycles: expected an integer 1..100000000000, got "2M"' run --config gtx980 "${W[@]}" --kernels a --policy fcfs --cycles 2M
run_ cycles_zero   "--cycles: 0 out of range (expected 1..100000000000)" run --config gtx980 "${W[@]}" --kernels a --policy fcfs --cycles 0
run_ epoch_small   "--epoch: 10 out of range (expected 100..16777215)" run --config gtx980 "${W[@]}" --kernels a --policy fcfs --epoch 10
run_ bad_preempt   '--preempt: unknown value "kill" (expected save | drop)' run --config gtx980 "${W[@]}" --kernels a --policy smk --preempt kill
run_ bad_evict     '--evict: unknown value "drop" (expected save | drain)' run --config gtx980 "${W[@]}" --kernels a --policy smkp --evict drop
run_ twice         "--policy given twice" run --config gtx980 "${W[@]}" --kernels a --policy fcfs --policy smk
run_ json_csv      "--json and --csv: give at most one of them, once" run --config gtx980 "${W[@]}" --kernels a --policy fcfs --json --csv
run_ unknown_opt   'run: unknown argument "--fast" (see smk --help)' run --config gtx980 "${W[@]}" --kernels a --policy fcfs --fast
run_ missing_val   "--cycles: missing value" run --config gtx980 "${W[@]}" --kernels a --policy fcfs --cycles
run_ bad_workload  "$dir/empty.wl:1: empty workload (expected a 'machine' block and at least one 'kernel NAME' block)" run --config gtx980 --workload "$dir/empty.wl" --kernels a --policy fcfs
run_ iso_format    "--iso a=5/x: expected THREAD_INSTS/WARP_INSTS, two unsigned integers" run --config gtx980 "${W[@]}" --kernels a,b --policy smk --iso a=5/x
run_ iso_sign      "--iso a=-5/2: expected THREAD_INSTS/WARP_INSTS, two unsigned integers" run --config gtx980 "${W[@]}" --kernels a,b --policy smk --iso a=-5/2
run_ iso_notlisted "--iso: 'c' is not one of --kernels" run --config gtx980 "${W[@]}" --kernels a,b --policy smk --iso c=1/1
run_ iso_twice     "--iso: 'a' given twice" run --config gtx980 "${W[@]}" --kernels a,b --policy smk --iso a=1/1,a=2/2
run_ iso_swapped   "--iso b=330/10: not the counts of an isolated run of 1000 cycles (thread instructions <= 32 x warp instructions <= 64 x cycles)" run --config gtx980 "${W[@]}" --kernels a,b --policy smk --cycles 1000 --iso a=10/330,b=330/10
run_ iso_too_many  "--iso a=32/64001: not the counts of an isolated run of 1000 cycles (thread instructions <= 32 x warp instructions <= 64 x cycles)" run --config gtx980 "${W[@]}" --kernels a,b --policy smk --cycles 1000 --iso a=32/64001
run_ hill_range    "--hill: 500 out of range (expected 1000..1000000000)" run --config gtx980 "${W[@]}" --kernels a,b --policy spart --goal a=0.5 --hill 500
run_ hill_policy   "--hill: moves SMs between the kernels of --policy spart, not qos" run --config gtx980 "${W[@]}" --kernels a,b --policy qos --scheme rollover --goal a=0.5 --hill 5000
run_ hill_nogoal   "--hill: needs a QoS kernel (--goal) and a non-QoS kernel to take SMs from" run --config gtx980 "${W[@]}" --kernels a,b --policy spart --hill 5000
{ sed -n '2,25p' "$base"; for i in $(seq 1 9); do sed -n '26,46p' "$base" | sed "s/^kernel a/kernel k$i/"; done; } > "$dir/k9.wl"
run_ too_many_run  "--kernels: more than 8 kernels (the driver's kernel table, configuration gtx980)" run --config gtx980 --workload "$dir/k9.wl" --kernels k1,k2,k3,k4,k5,k6,k7,k8,k9 --policy fcfs
if "$smk" --help | grep -q '^usage: smk run'; then ok; else bad "--help"; fi
# goals that mean nothing and isolated runs with no work (docs/smk.md "Goals that mean nothing")
run_ goal_round    "--goal a=0.00004: F is taken to 4 decimals and this one rounds to 0 (a goal every run meets); expected 0.00005 <= F <= 1" run --config gtx980 "${W[@]}" --kernels a,b --policy qos --scheme rollover --goal a=0.00004
run_ goal_denormal "--goal a=1e-310: F is taken to 4 decimals and this one rounds to 0 (a goal every run meets); expected 0.00005 <= F <= 1" run --config gtx980 "${W[@]}" --kernels a,b --policy qos --scheme rollover --goal a=1e-310
run_ goal_huge     "--goal a=1e400: expected a fraction of the isolated IPC, 0 < F <= 1" run --config gtx980 "${W[@]}" --kernels a,b --policy qos --scheme rollover --goal a=1e400
run_ iso_nowork    "--iso a=0/0: an isolated run with no thread instruction completed, so the goal 0.8 x isolated IPC is 0 and every run would meet it" run --config gtx980 "${W[@]}" --kernels a,b --policy qos --scheme rollover --goal a=0.8 --cycles 1000 --iso a=0/0
run_ iso_cycles1   "isolated run of a: no thread instruction completed in 1 cycles, so the goal 0.8 x isolated IPC is 0 and every run would meet it; give more --iso-cycles" run --config gtx980 "${W[@]}" --kernels a,b --policy qos --scheme rollover --goal a=0.8 --cycles 1000 --iso-cycles 1
run_ cycles1       "isolated run of a: no thread instruction completed in 1 cycles, so the goal 0.8 x isolated IPC is 0 and every run would meet it; give more --iso-cycles" run --config gtx980 "${W[@]}" --kernels a,b --policy qos --scheme rollover --goal a=0.8 --cycles 1
run_ kl_goal0      "--goal a=0.0001: 0.0001 x isolated IPC 0.001000 rounds to an IPC goal of 0 (kl_goal, U16.16), one every run meets; give a larger fraction" run --config gtx980 "${W[@]}" --kernels a,b --policy qos --scheme rollover --goal a=0.0001 --cycles 1000 --iso a=1/1
# a non-QoS kernel without isolated work: its norm, STP, ANTT and fairness are undefined, never 0 or inf
o=$("$smk" run --config gtx980 "${W[@]}" --kernels a,b --policy smk --cycles 1000 --iso-cycles 1 2>&1)
grep -q '^STP -   ANTT -   fairness -   (undefined: the isolated run of a completed no thread instruction in 1 cycles)$' <<< "$o" &&
  grep -q '^a  *no  *-  *[0-9.]*  *0.00  *- -' <<< "$o" && ok || bad "no isolated work, table: $o"
o=$("$smk" run --config gtx980 "${W[@]}" --kernels a,b --policy smk --cycles 1000 --iso-cycles 1 --json 2>&1)
grep -q '"iso_ipc":0.0000,"norm":null,"met":null' <<< "$o" && grep -q '"stp":null,"antt":null,"fairness":null,' <<< "$o" && ok || bad "no isolated work, JSON: $o"
o=$("$smk" run --config gtx980 "${W[@]}" --kernels a,b --policy smk --cycles 1000 --iso-cycles 1 --csv 2>&1)
[ "$(sed -n 2p <<< "$o" | cut -d, -f11-16)" = "0.0000,,-,,," ] && ok || bad "no isolated work, CSV: $o"
# a kernel that completed nothing in the shared run: ANTT inf, naming it
o=$("$smk" run --config gtx980 "${W[@]}" --kernels a,b --policy smk --cycles 1 --iso-cycles 5000 2>&1)
grep -q '^STP 0.000   ANTT inf (a completed no thread instruction in the shared run)   fairness 0.000$' <<< "$o" && ok || bad "ANTT inf: $o"
# --seed: the whole unsigned 64-bit range
o=$("$smk" run --config gtx980 "${W[@]}" --kernels a --policy smk --cycles 100 --seed 18446744073709551615 2>&1)
grep -q ', seed 18446744073709551615$' <<< "$o" && ok || bad "--seed 2^64-1: $o"
run_ seed_2_64     "--seed: 18446744073709551616 out of range (expected 0..18446744073709551615)" run --config gtx980 "${W[@]}" --kernels a --policy smk --seed 18446744073709551616
# control characters of the input are echoed as \xHH, never raw
run_ ctl_kernel    "--kernels: no kernel 'a\\x1b[31mb' in $base" run --config gtx980 "${W[@]}" --kernels $'a\e[31mb' --policy smk
run_ ctl_option    'run: unknown argument "--x\x07\x0a" (see smk --help)' run --config gtx980 "${W[@]}" --kernels a --policy smk $'--x\a\n'
# --config: a file given by path names its build directory as the Makefile does (build/BASE-HASH)
cd_=$(make -s --no-print-directory CONFIG="$dir/own.cfg" print-cfgdir 2>/dev/null)
[[ $cd_ == build/own-* ]] && ok || bad "make print-cfgdir CONFIG=$dir/own.cfg: '$cd_'"
run_ config_path   "--config $dir/own.cfg: this binary simulates configuration 'gtx980'; use $cd_/smk (make CONFIG=$dir/own.cfg $cd_/smk)" run --config "$dir/own.cfg" "${W[@]}" --kernels a --policy smk
rel="./x/../$(basename "$dir")/own.cfg" cd_=$(make -s --no-print-directory CONFIG="$rel" print-cfgdir 2>/dev/null)
[ "$cd_" != "$(make -s --no-print-directory CONFIG="$(pwd)/$(basename "$dir")/own.cfg" print-cfgdir 2>/dev/null)" ] || [ -z "$cd_" ] &&
  bad "make print-cfgdir: $rel is not $(pwd)/$(basename "$dir")/own.cfg" || ok
run_ config_rel    "--config $rel: this binary simulates configuration 'gtx980'; use $cd_/smk (make CONFIG=$rel $cd_/smk)" run --config "$rel" "${W[@]}" --kernels a --policy smk
# --csv (RFC 4180) and --json (RFC 8259) with a workload path holding a comma, quotes, a backslash and a control character
q="$dir/q,\"x\"\\y"$'\001'".wl"; cp "$base" "$q"
o=$("$smk" run --config gtx980 --workload "$q" --kernels a,b --policy smk --cycles 1000 --csv 2>&1)
[ "$(sed -n 2p <<< "$o" | cut -c1-$((${#dir} + 24)))" = "gtx980,\"$dir/q,\"\"x\"\"\\y"$'\001'".wl\"," ] &&
  [ "$(sed -n 2p <<< "$o" | sed 's/"[^"]*\("\("\|$\)[^"]*\)*"//' | tr -cd , | wc -c)" = "$(head -1 <<< "$o" | tr -cd , | wc -c)" ] && ok || bad "CSV quoting: $o"
o=$("$smk" run --config gtx980 --workload "$q" --kernels a,b --policy smk --cycles 1000 --json 2>&1)
grep -qF "\"workload\":\"$dir/q,\\\"x\\\"\\\\y\\u0001.wl\",\"policy\"" <<< "$o" && ok || bad "JSON escaping: $o"

# ---- a short good run: table, JSON and CSV; same seed = same numbers
o1=$("$smk" run --config gtx980 "${W[@]}" --kernels a,b --policy smk --cycles 20000 --seed 7 --json 2>&1) || bad "good run failed: $o1"
o2=$("$smk" run --config gtx980 "${W[@]}" --kernels a,b --policy smk --cycles 20000 --seed 7 --json 2>&1)
strip() { sed -e 's/"seconds":[^,]*,"cycles_per_second":[0-9]*//'; }
[ "$(strip <<< "$o1")" = "$(strip <<< "$o2")" ] && ok || bad "same seed, different results"
grep -q '"stp":' <<< "$o1" && ok || bad "JSON output: $o1"
o3=$("$smk" run --config gtx980 "${W[@]}" --kernels a,b --policy qos --scheme rollover --goal a=0.5 --cycles 20000 --csv 2>&1) || bad "qos run failed: $o3"
[ "$(wc -l <<< "$o3")" = 3 ] && grep -q '^config,workload,policy' <<< "$o3" && ok || bad "CSV output: $o3"
o4=$("$smk" run --config gtx980 "${W[@]}" --kernels a,b --policy qos --scheme rollover --goal a=0.5 --cycles 20000 2>&1)
# many short idempotent kernels under smk with DROP preemption: drops happen, and the self-check
# (every launch issues grid x warps x insts instructions, dropped work excepted) holds
{ sed -n '2,25p' "$base"; for i in 1 2 3 4 5 6; do printf 'kernel d%s\n threads %s\n regs %s\n smem_bytes %s\n grid %s\n insts %s\n mix_alu 0.6\n mix_sfu 0.05\n mix_shared 0.05\n mix_global 0.3\n mix_imul 0\n mix_imad 0\n mix_fmul 0\n mix_fdiv 0\n dep 0.5\n lines 2\n l1_hit 0.3\n l2_hit 0.3\n active 32:0.8 7:0.2\n idempotent yes\nend\n' \
  $i $((32 * (i % 4 + 1))) $((8 + 8 * i)) $((2048 * (i % 3))) $((5 + 10 * i)) $((100 * i)); done; } > "$dir/drop.wl"
o5=$("$smk" run --config gtx980 --workload "$dir/drop.wl" --kernels d1,d2,d3,d4,d5,d6 --policy smk --preempt drop --cycles 200000 --iso-cycles 2000 --json 2>&1)
rc=$?; drops=$(grep -o '"drops":[0-9]*' <<< "$o5" | cut -d: -f2)
[ $rc -eq 0 ] && [ "${drops:-0}" -gt 0 ] && ok || bad "DROP run: rc $rc, drops '${drops:-}': $o5"
# the same with SAVE: TBs saved and restored (possibly on other SMs), self-check holds
o6=$("$smk" run --config gtx980 --workload "$dir/drop.wl" --kernels d1,d2,d3,d4,d5,d6 --policy smk --cycles 200000 --iso-cycles 2000 --json 2>&1)
rc=$?; rest=$(grep -o '"restores":[0-9]*' <<< "$o6" | cut -d: -f2)
[ $rc -eq 0 ] && [ "${rest:-0}" -gt 0 ] && ok || bad "SAVE/RESTORE run: rc $rc, restores '${rest:-}': $o6"
# the QoS manager programs the quotas (no placeholder any more): labelled, goal and manager registers reported
grep -q '^quotas: QoS manager, QOS mode, rollover, TLP on$' <<< "$o4" && grep -q '^goal a: IPC .* against goal ' <<< "$o4" &&
  grep -q '^manager at the end (2 epochs of 10000 cycles' <<< "$o4" && ! grep -qi 'placeholder' <<< "$o4" && ok ||
  bad "QoS manager run not reported: $o4"
o7=$("$smk" run --config gtx980 "${W[@]}" --kernels a,b --policy qos --scheme rollover --goal a=0.5 --cycles 20000 --json 2>&1)
grep -q '"alpha":[0-9.]*,"hist":[0-9.]*' <<< "$o7" && grep -q '"manager":{"mctrl":' <<< "$o7" && ok || bad "manager JSON: $o7"
# --iso: the isolated counts of a run given back to it skip its isolated runs and change nothing else
o9=$("$smk" run --config gtx980 "${W[@]}" --kernels a,b --policy qos --scheme rollover --goal a=0.7 --cycles 30000 --iso-cycles 20000 --seed 5 --json 2>&1)
ia=$(grep -o '"iso_thread_insts":[0-9]*,"iso_warp_insts":[0-9]*' <<< "$o9" | sed 's/"iso_thread_insts"://;s/,"iso_warp_insts":/\//' | paste -sd' ')
read -r ta tb <<< "$ia"
o10=$("$smk" run --config gtx980 "${W[@]}" --kernels a,b --policy qos --scheme rollover --goal a=0.7 --cycles 30000 --iso-cycles 20000 --seed 5 --json --iso "a=$ta" --iso "b=$tb" 2>&1)
[ -n "${tb:-}" ] && [ "$(strip <<< "$o9")" = "$(strip <<< "$o10")" ] && ok || bad "--iso $ta $tb: results differ: $o9 / $o10"
# ... and a wrong count changes the goal the manager is given (the test above can fail)
ha="$(( ${ta%/*} / 2 ))/${ta#*/}"
o11=$("$smk" run --config gtx980 "${W[@]}" --kernels a,b --policy qos --scheme rollover --goal a=0.7 --cycles 30000 --iso-cycles 20000 --seed 5 --json --iso "a=$ha" 2>&1)
g9=$(grep -o '"kl_goal":[0-9]*' <<< "$o9" | head -1 | cut -d: -f2); g11=$(grep -o '"kl_goal":[0-9]*' <<< "$o11" | head -1 | cut -d: -f2)
[ -n "$g11" ] && [ $((g9 / 2 - g11)) -ge -1 ] && [ $((g9 / 2 - g11)) -le 1 ] && ok || bad "--iso a=$ha: kl_goal $g11, want half of $g9"
# --hill (docs/smk.md "Spart with hill climbing"): tpacf + spmv, SMs 0-7 and 8-15 at first. At goal
# 0.8 tpacf is below: it takes spmv's lowest SM first and ends with more than 8 and a higher IPC
# than the static split; at goal 0.2 it is above and gives its highest SM back first. Every move is
# one trace line; the JSON counts them and gives the final split (16 SMs in all)
P=(--config gtx980 --workload "$(cd "$(dirname "$0")/.." && pwd)/cmodel/sim/workloads/parboil.wl" --kernels tpacf,spmv --policy spart
   --cycles 300000 --iso-cycles 100000)
hj=$("$smk" run "${P[@]}" --goal tpacf=0.8 --hill 20000 --json --trace 2> "$dir/hill.tr")
sj=$("$smk" run "${P[@]}" --goal tpacf=0.8 --json)
hn=$(grep -o '"norm":[0-9.]*' <<< "$hj" | head -1 | cut -d: -f2) sn=$(grep -o '"norm":[0-9.]*' <<< "$sj" | head -1 | cut -d: -f2)
hs=$(grep -o '"hill":{"every":20000,"moves":[0-9]*,"sms":\[[0-9]*,[0-9]*\]}' <<< "$hj" | grep -o '[0-9]*,[0-9]*\]' | tr -d ']')
hm=$(grep -o '"moves":[0-9]*' <<< "$hj" | cut -d: -f2)
[ -n "$hs" ] && [ $((${hs%,*} + ${hs#*,})) = 16 ] && [ "${hs%,*}" -gt 8 ] && awk -v h="$hn" -v s="$sn" 'BEGIN { exit !(h > s + 0.1) }' &&
    [ "$(grep -c ' hill: SM ' "$dir/hill.tr")" = "$hm" ] && grep -q '"hill":null' <<< "$sj" &&
    [ "$(grep -m1 ' hill: ' "$dir/hill.tr")" = "trace 19999 hill: SM 8 from spmv to tpacf" ] &&
    ok || bad "--hill goal 0.8: split '$hs', norm $hn against static $sn, moves $hm, first: $(grep -m1 ' hill: ' "$dir/hill.tr")"
lj=$("$smk" run "${P[@]}" --goal tpacf=0.2 --hill 20000 --json --trace 2> "$dir/hill2.tr")
ls=$(grep -o '"sms":\[[0-9]*,[0-9]*\]' <<< "$lj" | grep -o '[0-9]*,[0-9]*')
[ -n "$ls" ] && [ "${ls%,*}" -lt 8 ] && [ "$(grep -m1 ' hill: ' "$dir/hill2.tr")" = "trace 19999 hill: SM 7 from tpacf to spmv" ] &&
    ok || bad "--hill goal 0.2: split '$ls', first: $(grep -m1 ' hill: ' "$dir/hill2.tr")"
# --ctx-free (docs/smk.md): sgemm QoS + lbm under Rollover; the manager's grants SAVE lbm's TBs and
# restore them. Free: no context line reaches memory (ctx_lines 0) and every line is answered in the
# next cycle, so a RESTORE of an lbm TB (n 4, R 54, M 0: L = 220 lines) takes L + 3 = 223 cycles and a
# SAVE of a TB idle at once L + 4 = 224 (docs/preempt_engine.md's formula at latency 1, one line per
# cycle), longer only by its drain (responses with status OK; a FIN, the TB finished while it was
# stopped, is no transfer). Not free: the same run's first SAVE takes 11630 cycles and its first
# RESTORE 12157 through the contended channels, 440 context lines (one SAVE and one RESTORE of 220). One preemption at a time GPU-wide, no kept
# allocation, no rollover debt (--qos-preempt gpu --qos-keep off --qos-debt off): the formula's
# commands reach an idle engine one at a time
X=(--config gtx980 --workload "${P[3]}" --kernels sgemm,lbm --policy qos --scheme rollover --goal sgemm=0.9 --cycles 60000 --iso-cycles 20000 --json --trace --qos-preempt gpu --qos-keep off --qos-debt off)
durs() { awk '$5 == "command" { c[$4 " " $9] = $2 } $5 == "response" { k = $4 " " $9; if ((k in c) && $11 == 0) print $7, $2 - c[k]; delete c[k] }' "$1"; }
fj=$("$smk" run "${X[@]}" --ctx-free 2> "$dir/free.tr")
fd=$(durs "$dir/free.tr")
[ "$(grep -o '"ctx_lines":[0-9]*' <<< "$fj")" = '"ctx_lines":0' ] && [ "$(grep -c '^1 ' <<< "$fd")" -gt 10 ] &&
    [ "$(grep '^1 ' <<< "$fd" | sort -u)" = "1 223" ] && [ "$(grep '^0 ' <<< "$fd" | sort -n -k2 | head -1)" = "0 224" ] &&
    [ "$(grep '^0 ' <<< "$fd" | awk '$2 < 224' | wc -l)" = 0 ] &&
    grep -q '"saves":27,"restores":27' <<< "$fj" && ok ||
    bad "--ctx-free: $(grep -o '"ctx_lines":[0-9]*,"saves":[0-9]*,"restores":[0-9]*' <<< "$fj"), durations $(sort <<< "$fd" | uniq -c | head -5 | tr '\n' ' ')"
nj=$("$smk" run "${X[@]}" 2> "$dir/nfree.tr")
nd=$(durs "$dir/nfree.tr")
grep -q '"ctx_lines":440,"saves":1,"restores":1' <<< "$nj" && [ "$(grep -m1 '^0 ' <<< "$nd")" = "0 11630" ] &&
    [ "$(grep -m1 '^1 ' <<< "$nd")" = "1 12157" ] && ok ||
    bad "without --ctx-free: $(grep -o '"ctx_lines":[0-9]*,"saves":[0-9]*,"restores":[0-9]*' <<< "$nj"), durations $(head -3 <<< "$nd" | tr '\n' ' ')"
run_ ctx_free_val  'run: unknown argument "yes" (see smk --help)' run --config gtx980 "${W[@]}" --kernels a --policy fcfs --ctx-free yes

# ISCA'17 4.8's ablations (docs/smk.md): --qos-hist off holds alpha at 1 (MCTRL.NOHIST) while the
# QoS kernel's history is below its goal, so its effective goal is the goal; --qos-tlp off
# (MCTRL.TLP = 0) keeps the symmetric allocation: no TB reallocation, so no victim SAVE, where the
# same run with Algorithm 3-1 saves TBs
Y=(--default --cycles 100000 --iso-cycles 20000 --kernels tpacf,spmv --goal tpacf=0.95)
oh=$("$smk" run "${Y[@]}" --qos-hist off 2>&1)
qh=$(grep '^  tpacf *QoS' <<< "$oh")
grep -q '^quotas: .*, alpha held at 1 (--qos-hist off)$' <<< "$oh" &&
    awk '{ h = $6; sub(/,/, "", h); eg = $12; sub(/,/, "", eg); exit !($4 == "1.0000," && h + 0 < eg + 0) }' <<< "$qh" &&
    [ "$(sed 's/.*effective goal \([0-9.]*\),.*/\1/' <<< "$qh")" = "$(sed -n 's/^goal tpacf: IPC [0-9.]* against goal \([0-9.]*\) .*/\1/p' <<< "$oh")" ] &&
    ok || bad "--qos-hist off: $qh"
ot=$("$smk" run "${Y[@]}" --qos-tlp off 2>&1); on=$("$smk" run "${Y[@]}" 2>&1)
grep -q '^quotas: QoS manager, QOS mode, rollover, TLP off (--qos-tlp off)$' <<< "$ot" && grep -q '^preemption: 0 TBs saved, 0 restored' <<< "$ot" &&
    grep -q '^quotas: QoS manager, QOS mode, rollover, TLP on$' <<< "$on" && ! grep -q '^preemption: 0 TBs saved' <<< "$on" &&
    ok || bad "--qos-tlp off: $(grep -e '^quotas' -e '^preemption' <<< "$ot" | tr '\n' ' ') / on: $(grep '^preemption' <<< "$on")"
run_ bad_qhist     '--qos-hist: unknown value "no" (expected off | on)' run --config gtx980 "${W[@]}" --kernels a,b --policy qos --scheme rollover --goal a=0.5 --qos-hist no

# the default scenario (built-in workload, no path needed), shortened
sabs=$(cd "$(dirname "$smk")" && pwd)/$(basename "$smk")
o8=$(cd "$dir" && "$sabs" run --default --cycles 20000 2>&1)
grep -q '^smk run: config gtx980, workload cmodel/sim/workloads/parboil.wl (built in), policy qos, scheme rollover, 20000 cycles' <<< "$o8" &&
  grep -q '^goal tpacf: IPC ' <<< "$o8" && ok || bad "default scenario: $o8"

# ---- timing model against hand-computed rates (docs/workload.md "Timing model")
sed -n '2,25p' "$base" | sed 's/mem_service 2.78/mem_service 2.5/' > "$dir/lat.wl"
kern() { # NAME THREADS GRID INSTS ALU GLOBAL DEP LINES L1 ACTIVE
  printf 'kernel %s\n threads %s\n regs 8\n smem_bytes 0\n grid %s\n insts %s\n mix_alu %s\n mix_sfu 0\n mix_shared 0\n mix_global %s\n mix_imul 0\n mix_imad 0\n mix_fmul 0\n mix_fdiv 0\n dep %s\n lines %s\n l1_hit %s\n l2_hit 0\n active %s\n idempotent yes\nend\n' "$@"; }
{ kern alu 32 1 10000 1 0 1 1 1 32:1      # one warp, each instruction waits for the previous: 32 / alu_latency 6
  kern l1 32 1 10000 0 1 1 1 1 16:1       # one warp, L1 hits of 16 active threads: 16 / l1_latency 82
  kern indep 32 1 100000 1 0 0 1 1 32:1   # no dependences: max_inflight 4 per alu_latency 6 -> 4/6 x 32
  kern stream 1024 10000 100 0 1 0 4 0 32:1  # all DRAM: the 4 channels saturate
  # the pipelines (docs/workload.md "Pipelines"): one TB of 32 warps, independent instructions of one
  # class, so the unit is the bound: ALU alu_units 2 per cycle; SFU one per sfu_interval 8; LD/ST one
  # shared instruction or one line per cycle (all L1 hits, 2 lines: one instruction per 2 cycles)
  kern alu32 1024 1 100000 1 0 0 1 1 32:1
  kern ldst2 1024 1 100000 0 1 0 2 1 32:1
  printf 'kernel %s\n threads 1024\n regs 8\n smem_bytes 0\n grid 1\n insts 100000\n mix_alu 0\n mix_sfu %s\n mix_shared %s\n mix_global 0\n mix_imul 0\n mix_imad 0\n mix_fmul 0\n mix_fdiv 0\n dep 0\n lines 1\n l1_hit 1\n l2_hit 0\n active 32:1\n idempotent yes\nend\n' \
    sfu32 1 0 shared32 0 1; } >> "$dir/lat.wl"
rate() { "$smk" run --config gtx980 --workload "$dir/lat.wl" --kernels "$1" --policy fcfs --cycles 60000 --iso-cycles 100 --json |
  grep -o "\"$2\":[0-9.]*" | head -1 | cut -d: -f2; }
near() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b * 0.99 && a <= b * 1.01) }'; }
v=$(rate alu ipc);   near "$v" 5.3333 && ok || bad "dependent ALU chain: IPC $v, want 32/6"
v=$(rate l1 ipc);    near "$v" 0.1951 && ok || bad "dependent L1 hits: IPC $v, want 16/82"
v=$(rate indep ipc); near "$v" 21.333 && ok || bad "independent ALU: IPC $v, want 4/6 x 32"
v=$(rate alu32 ipc);    near "$v" 64 && ok || bad "ALU-bound TB: IPC $v, want alu_units 2 x 32"
v=$(rate sfu32 ipc);    near "$v" 4 && ok || bad "SFU-bound TB: IPC $v, want 32 / sfu_interval 8"
v=$(rate shared32 ipc); near "$v" 32 && ok || bad "shared-memory-bound TB: IPC $v, want one LD/ST instruction per cycle x 32"
v=$(rate ldst2 ipc);    near "$v" 16 && ok || bad "L1-hit TB of 2 lines per instruction: IPC $v, want 32 / 2 lines"
# the arithmetic GPGPU-Sim sends to the SFU (docs/workload.md "Pipelines"), one TB of 32 warps of one
# class: integer mul one start per imul_interval 2, integer mad per imad_interval 1, f32 divide per
# fdiv_interval 4. An f32 multiply takes the ALU (alu_units 2) and, when the ALU does not admit its
# scheduler, the SFU (fmul_interval 1): 3 per cycle, where the ALU class stays at 2; the front end
# fetches for 2 warps per cycle here (4 instructions), so it does not bind
cls1() { # NAME KEY: a one-class TB of 32 independent warps
  printf 'kernel %s\n threads 1024\n regs 8\n smem_bytes 0\n grid 1\n insts 100000\n' "$1"
  for k in alu sfu shared global imul imad fmul fdiv; do printf ' mix_%s %s\n' $k "$([ "$k" = "$2" ] && echo 1 || echo 0)"; done
  printf ' dep 0\n lines 1\n l1_hit 1\n l2_hit 0\n active 32:1\n idempotent yes\nend\n'; }
{ sed -n '2,25p' "$base" | sed 's/^  fetch_warps 1/  fetch_warps 2/'
  cls1 imul32 imul; cls1 imad32 imad; cls1 fdiv32 fdiv; cls1 fmul32 fmul; cls1 alu32f alu; } > "$dir/sfu.wl"
srate() { "$smk" run --config gtx980 --workload "$dir/sfu.wl" --kernels "$1" --policy fcfs --cycles 60000 --iso-cycles 100 --json |
  grep -o '"ipc":[0-9.]*' | head -1 | cut -d: -f2; }
v=$(srate imul32); near "$v" 16 && ok || bad "integer-mul-bound TB: IPC $v, want 32 / imul_interval 2"
v=$(srate imad32); near "$v" 32 && ok || bad "integer-mad-bound TB: IPC $v, want 32 / imad_interval 1"
v=$(srate fdiv32); near "$v" 8 && ok || bad "f32-divide-bound TB: IPC $v, want 32 / fdiv_interval 4"
v=$(srate fmul32); near "$v" 96 && ok || bad "f32-multiply TB: IPC $v, want (alu_units 2 + SFU 1) x 32"
v=$(srate alu32f); near "$v" 64 && ok || bad "ALU-bound TB with a 4-instruction front end: IPC $v, want alu_units 2 x 32"
# the front end (docs/workload.md "Front end"): one fetch per SM and cycle, two instructions each, into
# an empty buffer, usable two cycles after the fetch (fetch, fill, issue). With max_inflight 32 and
# alu_units 4 the pipelines do not bind: one warp issues 2 instructions per 3 cycles (21.33 IPC, 32
# without the front end); 32 warps of one TB take the SM's 2 instructions per cycle (64 IPC, 128)
{ sed -n '2,25p' "$base" | sed 's/^  max_inflight 4/  max_inflight 32/; s/^  alu_units 2/  alu_units 4/'
  kern fe1 32 1 100000 1 0 0 1 1 32:1
  kern fe32 1024 1 100000 1 0 0 1 1 32:1; } > "$dir/fe.wl"
fe() { "$smk" run --config gtx980 --workload "$dir/fe.wl" --kernels "$1" --policy fcfs --cycles 60000 --iso-cycles 100 --json |
  grep -o '"ipc":[0-9.]*' | head -1 | cut -d: -f2; }
v=$(fe fe1);  near "$v" 21.333 && ok || bad "one warp, front-end bound: IPC $v, want 2/3 x 32"
v=$(fe fe32); near "$v" 64 && ok || bad "one TB of 32 warps, front-end bound: IPC $v, want 2 x 32"
v=$("$smk" run --config gtx980 --workload "$dir/lat.wl" --kernels stream --policy fcfs --cycles 60000 --iso-cycles 100 | grep -o '^memory: [0-9.]*' | cut -d' ' -f2)
near "$v" 1.6 && ok || bad "streaming kernel: $v DRAM lines per cycle, want 4 / 2.5 = 1.6"
# a warp held by its quota never claims a pipeline (docs/workload.md "Pipelines", Admission): two
# identical kernels, 60% ALU and 40% shared with dependences, one QoS at goal 0.9 and one non-QoS
# held by its quota most of the time, share every SM. They are bound by the same units, so together
# they keep about the isolated throughput (STP 0.970); when the held kernel's warps still made
# their schedulers want the LD/ST unit, the rotation gave it to schedulers that could not issue and
# STP fell to 0.893 (the QoS kernel 0.864)
{ sed -n '2,25p' "$base"
  for k in ha hb; do printf 'kernel %s\n threads 256\n regs 8\n smem_bytes 0\n grid 4096\n insts 100000\n mix_alu 0.6\n mix_sfu 0\n mix_shared 0.4\n mix_global 0\n mix_imul 0\n mix_imad 0\n mix_fmul 0\n mix_fdiv 0\n dep 0.3\n lines 1\n l1_hit 1\n l2_hit 0\n active 32:1\n idempotent yes\nend\n' $k; done; } > "$dir/held.wl"
v=$("$smk" run --config gtx980 --workload "$dir/held.wl" --kernels ha,hb --policy qos --scheme rollover --goal ha=0.9 --cycles 200000 --iso-cycles 20000 --json | grep -o '"stp":[0-9.]*' | cut -d: -f2)
awk -v a="$v" 'BEGIN { exit !(a >= 0.95) }' && ok || bad "quota-held warps took pipeline slots: STP $v of two identical kernels, want >= 0.95"

# scripts/calibrate.sh (docs/calibration.md "Measurements") on two kernels whose bounds are known: an
# ALU-bound one on every SM (the front end's 2 and the ALU's 2 instructions per cycle: both at 99-100%
# over 20,000 cycles with the first TBs' ramp, class compute), a streaming one (DRAM lines
# requested at 90% of the channels' peak or more, class memory) and an integer-multiply one (the
# SFU, one start per imul_interval 2: SFU at 99-100% through the imul term of the SFU formula, the
# front end at a quarter of its 2 instructions per cycle, class compute)
{ sed -n '2,25p' "$base"
  kern alub 1024 100000 100000 1 0 0 1 1 32:1
  kern stream 1024 100000 100 0 1 0 4 0 32:1
  kern imulb 1024 100000 100000 0 0 0 1 1 32:1 | sed 's/^ mix_imul 0$/ mix_imul 1/'; } > "$dir/cal.wl"
cal=$(cd "$(dirname "$0")/.." && scripts/calibrate.sh -b "$smk" -w "$dir/cal.wl" -c 20000 -j 2 2>&1)
grep -Eq '^\| alub \| .* \| (99\.[0-9]|100\.0)% \| (99\.[0-9]|100\.0)%, 0\.0%, 0\.0% \| 0\.000, 0\.0% \| compute \|$' <<< "$cal" &&
  grep -Eq '^\| stream \| .* \| 1\.[0-9]{3}, (9[0-9]|1[0-9]{2})\.[0-9]% \| memory \|$' <<< "$cal" &&
  grep -Eq '^\| imulb \| .* \| 2[45]\.[0-9]% \| 0\.0%, (99\.[0-9]|100\.0)%, 0\.0% \| 0\.000, 0\.0% \| compute \|$' <<< "$cal" && ok || bad "calibrate.sh: $cal"
# scripts/tlp_curve.sh (docs/reproduce.md, the TB reallocation study): a dependent ALU chain of one warp
# per TB is latency-bound, so with at most T TBs per SM it runs T warps per SM at 32 / alu_latency 6
# each: IPC = NSM x T x 32/6 (the grid keeps every SM full); a cap beyond the kernel's limits changes
# nothing (the same IPC as smk run without a cap); a name the workload lacks and a cap of 0 are refused
nsm=$(awk '$2 == "SMK_NUM_SM" {print $3}' "$(dirname "$smk")/smk_cfg.h")
{ sed -n '2,25p' "$base"; kern chain 32 100000 4000 1 0 1 1 1 32:1 | sed 's/^ smem_bytes 0$/ smem_bytes 128/'; } > "$dir/tlp.wl"
tc=$(cd "$(dirname "$0")/.." && scripts/tlp_curve.sh -b "$smk" -w "$dir/tlp.wl" -c 20000 -j 2 -t 1,2,4,1000 2>&1)
row=$(grep '^| chain |' <<< "$tc" | tr -d ' ')
free=$("$smk" run --config gtx980 --workload "$dir/tlp.wl" --kernels chain --policy smk --cycles 20000 --iso-cycles 1000 --json |
  grep -o '"ipc":[0-9.]*' | head -1 | cut -d: -f2)
IFS='|' read -r _ _ t1 t2 t4 tb _ <<< "$row"
near "$t1" "$(awk -v n="$nsm" 'BEGIN { print n * 32 / 6 }')" && near "$t2" "$(awk -v n="$nsm" 'BEGIN { print n * 2 * 32 / 6 }')" &&
  near "$t4" "$(awk -v n="$nsm" 'BEGIN { print n * 4 * 32 / 6 }')" && [ "$tb" = "$(printf '%.1f' "$free")" ] &&
  ok || bad "tlp_curve.sh: $row, want NSM x T x 32/6 at T = 1, 2, 4 and $free beyond the limits"
e=$(cd "$(dirname "$0")/.." && scripts/tlp_curve.sh -b "$smk" -w "$dir/tlp.wl" -k nope 2>&1) && bad "tlp_curve.sh -k nope accepted" ||
  { [ "$e" = "tlp_curve: -k: $dir/tlp.wl has no kernel \"nope\"" ] && ok || bad "tlp_curve.sh -k nope: $e"; }
e=$(cd "$(dirname "$0")/.." && scripts/tlp_curve.sh -b "$smk" -w "$dir/tlp.wl" -t 2,0 2>&1) && bad "tlp_curve.sh -t 2,0 accepted" ||
  { [ "$e" = "tlp_curve: -t 2,0: expected positive integers separated by commas" ] && ok || bad "tlp_curve.sh -t 2,0: $e"; }
echo "workload tests: $pass passed, $fail failed"
[ $fail -eq 0 ]
