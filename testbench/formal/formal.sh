#!/usr/bin/env bash
# formal.sh CONFIG [--long] : prove the `ifdef FORMAL` properties of warp_sched and preempt_engine,
# the quota counters' rules of quota_unit (testbench/formal/quota_unit_props.v) and the QoS
# manager's microprogram timing (qos_mgr_props.v) by temporal induction with Yosys SAT, then show
# each proof is not vacuous: injected bugs must each make it fail. With --long only the slow proof:
# sm_top's slot table (sm_top_props.v; make formal-long). docs/verification.md "Formal proofs".
# warp_sched properties: the issued warp is eligible, at most one per scheduler, present whenever any
# warp is eligible; the age matrix is a strict total order (antisymmetric, transitive, zero
# diagonal) on the valid warps of each scheduler; GTO issues the greedy warp if eligible, else the
# oldest eligible warp; LRR issues the first eligible warp after the last one; the next idle mask
# (docs/warp_sched.md clock-edge rule 5) is within the valid, not stopped, allowed, not issued, not
# launched warps and holds every such pipeline-blocked warp and (IDLE_ARB) every such eligible one.
# preempt_engine properties (safety invariants of the reachable states): queue count and head in
# range; no slot both draining and pending; outstanding requests <= the latched limit <= OMAX and 0
# outside XFER; only SAVE/DROP in STOP and SAVE/RESTORE in XFER, with status OK; after a pop the
# layout position is valid (warps left within the mask, index below C, R or M per phase); stop,
# requests and storage accesses only in their states; never free and launch together.
# The gtx980 configuration (16 warps per scheduler) takes over 10 minutes for warp_sched; small
# proves in seconds (the engine proves in seconds on every configuration).
set -euo pipefail
cfg=${1:-small}
long=${2:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
inc=$root/build/$cfg
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# a unit's RTL file (hw/blocks.def); the units proven here are one file each
unit_file() {
  local f; f=$(bash "$root/scripts/blocks.sh" files "$1")
  [ "${f// /}" = "$f" ] || { echo "formal: $1 is more than one file in hw/blocks.def: $f" >&2; exit 1; }
  echo "$root/$f"
}
prove() { # FILE LOG [TOP] -> exit status of the proof
  local top=${3:-warp_sched}
  yosys -q -l "$2" -p "read_verilog -formal -DFORMAL -I$inc -I$root/rtl $1; prep -top $top; \
    sat -tempinduct -prove-asserts -set-init-zero -seq 1 -maxsteps 6 -verify $top" >/dev/null 2>&1
}
# prove_props FILES LOG UNIT MAXSTEPS NAME:REG... -> exit status: testbench/formal/UNIT_props.v
# instantiates UNIT as u and reads the unit's registers through its p_NAME wires, connected to u.REG
# after flattening (REG a dotted path for a sub-block's register); its assumptions are used
prove_props() {
  local files=$1 log=$2 unit=$3 steps=$4; shift 4
  local con="" nr
  for nr in "$@"; do con="$con connect -nounset -set p_${nr%%:*} \\u.${nr#*:};"; done
  yosys -q -l "$log" -p "read_verilog -formal -DFORMAL -I$inc -I$root/rtl $files $root/testbench/formal/${unit}_props.v; \
    hierarchy -top ${unit}_props; proc -norom; ${PROPS_PRE:-} flatten; $con prep -top ${unit}_props; \
    sat -tempinduct -prove-asserts -set-assumes -set-init-zero -seq 1 -maxsteps $steps -verify ${unit}_props" >/dev/null 2>&1
}
count_asserts() { grep 'Import proof for assert' "$1" | sort -u | wc -l; }
# mutants NAME FILE PREFIX N UNIT MAXSTEPS NAME:REG...: each $tmp/PREFIXi.v (i = 1..N) replaces FILE
# (in the files list of the proof) and must make the proof fail
mutants() {
  local name=$1 file=$2 pre=$3 n=$4 unit=$5; shift 5
  local b
  for b in $(seq 1 "$n"); do
    if cmp -s "$file" "$tmp/$pre$b.v"; then echo "formal: $name bug $b was not injected (RTL changed?)"; exit 1; fi
    if prove_props "${MUT_FILES:-}$tmp/$pre$b.v" "$tmp/$pre$b.log" "$unit" "$@"; then
      echo "formal: $name injected bug $b NOT detected: the proof is vacuous"; exit 1
    fi
  done
}
if [ "$long" = "--long" ]; then
  # sm_top (make formal-long; about 10 minutes): the TB slot table of docs/sm_top.md and "a stopped
  # TB never issues", testbench/formal/sm_top_props.v, with warp_sched, quota_unit and
  # preempt_engine inside and every input free but the pipelines' contract (assumed there). The
  # engine's own invariants (proven above in `make formal`) are proven again with them. Of
  # warp_sched's invariants only the first three (the issued warp is eligible, unique, present
  # whenever one is eligible; proven for every input sequence by `make formal`) are used, as
  # assumptions: in the reachable states of sm_top they hold, and the age-matrix invariants
  # would make this proof far slower. They are the first three assertions of warp_sched.v's
  # FORMAL block; their cells are found by their source lines.
  ws=$(unit_file warp_sched); st=""; sub=""
  for f in $(bash "$root/scripts/blocks.sh" files sm_top); do
    case $f in */sm_top.v) st=$root/$f ;; *) sub="$sub$root/$f " ;; esac
  done
  yosys -q -p "read_verilog -formal -DFORMAL -I$inc -I$root/rtl $ws; hierarchy -top warp_sched; proc -norom; \
    tee -q -o $tmp/ws_asserts.txt select -list t:\$assert" >/dev/null 2>&1
  lines=$(sed -n 's/.*warp_sched\.v:\([0-9]*\)\$.*/\1/p' "$tmp/ws_asserts.txt" | sort -n | uniq | head -3)
  [ "$(echo $lines | wc -w)" = 3 ] || { echo "formal: warp_sched's first three assertions not found"; exit 1; }
  sel=""; for l in $lines; do sel="$sel */a:src=$ws:$l.*"; done
  PROPS_PRE="chformal -assert2assume $sel; chformal -remove *warp_sched*/t:\$assert;"
  regs="alloc:alloc run:run go:go tmask:tmask tks:tks live:live wks:u_ws.ks fsm:u_pe.fsm op:u_pe.cur_op \
    st:u_pe.cur_st ctb:u_pe.cur_tb pmask:u_pe.tmask"
  t0=$(date +%s)
  # shellcheck disable=SC2086
  prove_props "$sub$st" "$tmp/st_ok.log" sm_top 1 $regs \
    || { echo "formal: sm_top ($cfg): PROOF FAILED; log follows"; grep -i "fail\|error" "$tmp/st_ok.log" | tail -20; exit 1; }
  echo "formal: sm_top ($cfg): $(count_asserts "$tmp/st_ok.log") assertions proven by induction ($(( $(date +%s) - t0 )) s)"
  # bug 1: S2 ignores the used warps; bug 2: an exit does not clear live; bug 3: a slot waiting for
  # its go launch is offered to the engine as a RESTORE target; bug 4: warp_sched does not obey stop
  sed 's/ & (|set_mask) & ~|(set_mask & wused);/ \& (|set_mask);/' "$st" > "$tmp/sbug1.v"
  sed 's/ & ~rm_mask_s) & ~wexit; /) \& ~rm_mask_s; /' "$st" > "$tmp/sbug2.v"
  sed 's/        .tb_alloc     (alloc & ~go),/        .tb_alloc     (alloc),/' "$st" > "$tmp/sbug3.v"
  sed 's/        .stop        (stop),/        .stop        ({`SMK_WARPS{1'"'"'b0}}),/' "$st" > "$tmp/sbug4.v"
  # shellcheck disable=SC2086
  MUT_FILES="$sub" mutants sm_top "$st" sbug 4 sm_top 1 $regs
  echo "formal: sm_top: 4 injected bugs detected (the proof is not vacuous)"
  echo "formal: long: 1 passed, 0 failed ($(( $(date +%s) - t0 )) s)"
  exit 0
fi
ws=$(unit_file warp_sched)
if ! prove "$ws" "$tmp/ok.log"; then
  echo "formal: warp_sched ($cfg): PROOF FAILED; log follows"; grep -i "fail\|assert" "$tmp/ok.log" | tail -20; exit 1
fi
n=$(grep -c 'Import proof for assert' "$tmp/ok.log")
echo "formal: warp_sched ($cfg): $n assertions proven by induction"
# bug 1: GTO fallback ignores ages; bug 2: a launched warp is not younger than the staying ones
sed 's/assign oldest\[i\] = e\[i\] & ~|(e \& orow);/assign oldest[i] = e[i];/' "$ws" > "$tmp/bug1.v"
sed 's/assign older_nx\[(s\*LW+i)\*LW+j\] = ls\[i\] ? vs\[j\]$/assign older_nx[(s*LW+i)*LW+j] = ls[i] ? 1'"'"'b0/' \
  "$ws" > "$tmp/bug2.v"
# bug 3: the idle mask ignores the quota (a held, pipeline-blocked warp counted idle)
sed 's/wire \[W-1:0\] isrc  = valid & ~stop & allow & /wire [W-1:0] isrc  = valid \& ~stop \& /' "$ws" > "$tmp/bug3.v"
for b in 1 2 3; do
  if cmp -s "$ws" "$tmp/bug$b.v"; then echo "formal: bug $b was not injected (RTL changed?)"; exit 1; fi
  if prove "$tmp/bug$b.v" "$tmp/bug$b.log"; then echo "formal: injected bug $b NOT detected: the proof is vacuous"; exit 1; fi
done
echo "formal: warp_sched: 3 injected bugs detected (the proof is not vacuous)"

pe=$(unit_file preempt_engine)
if ! prove "$pe" "$tmp/pe_ok.log" preempt_engine; then
  echo "formal: preempt_engine ($cfg): PROOF FAILED; log follows"; grep -i "fail\|assert" "$tmp/pe_ok.log" | tail -20; exit 1
fi
n=$(grep -c 'Import proof for assert' "$tmp/pe_ok.log")
echo "formal: preempt_engine ($cfg): $n assertions proven by induction"
# bug 1: throttle lets one more request out; bug 2: a finished DRAIN stays draining;
# bug 3: the SMEM phase ends one line late
sed 's/assign mem_req_v = (fsm == F_XFER) \& (ph != PH_END) \& (out < klim);/assign mem_req_v = (fsm == F_XFER) \& (ph != PH_END) \& (out <= klim);/' "$pe" > "$tmp/pbug1.v"
sed 's/drain <= dm \& ~tb_done;/drain <= dm;/' "$pe" > "$tmp/pbug2.v"
sed 's/if (p == PH_SMEM \&\& ix >= m) begin/if (p == PH_SMEM \&\& ix > m) begin/' "$pe" > "$tmp/pbug3.v"
for b in 1 2 3; do
  if cmp -s "$pe" "$tmp/pbug$b.v"; then echo "formal: engine bug $b was not injected (RTL changed?)"; exit 1; fi
  if prove "$tmp/pbug$b.v" "$tmp/pbug$b.log" preempt_engine; then
    echo "formal: engine injected bug $b NOT detected: the proof is vacuous"; exit 1
  fi
done
echo "formal: preempt_engine: 3 injected bugs detected (the proof is not vacuous)"

# quota_unit: the counters' clock-edge rules of docs/quota_unit.md, written again in
# testbench/formal/quota_unit_props.v (saturation, Rollover keeping only the QoS leftover, the refill
# rules, writes, OFF, the other boundaries) over every state: the props module reads the unit's
# registers through wires connected after flattening
qu=$(unit_file quota_unit)
prove_qu() { # FILE LOG -> exit status of the proof
  yosys -q -l "$2" -p "read_verilog -formal -DFORMAL -I$inc -I$root/rtl $1 $root/testbench/formal/quota_unit_props.v; \
    hierarchy -top quota_unit_props; proc; flatten; \
    connect -nounset -set p_cnt \\u.cnt; connect -nounset -set p_ctrl \\u.sm_ctrl; \
    connect -nounset -set p_qmask \\u.qos_mask; connect -nounset -set p_quota \\u.quota; \
    connect -nounset -set p_ecnt \\u.ecnt; connect -nounset -set p_elen \\u.epoch_len; \
    connect -nounset -set p_tin \\u.tin_r; connect -nounset -set p_iin \\u.iin_r; \
    prep -top quota_unit_props; \
    sat -tempinduct -prove-asserts -set-init-zero -seq 1 -maxsteps 4 -verify quota_unit_props" >/dev/null 2>&1
}
if ! prove_qu "$qu" "$tmp/qu_ok.log"; then
  echo "formal: quota_unit ($cfg): PROOF FAILED; log follows"; grep -i "fail\|assert\|error" "$tmp/qu_ok.log" | tail -20; exit 1
fi
n=$(grep 'Import proof for assert' "$tmp/qu_ok.log" | sort -u | wc -l)
echo "formal: quota_unit ($cfg): $n assertions proven by induction"
# bug 1: base without saturation (wraps); bug 2: Rollover keeps a non-QoS slot's leftover;
# bug 3: NAIVE / ROLLOVER refill QoS slots on exhaustion too; bug 4: the counters decrement by this
# cycle's completions (no stage-1 latency); bug 5: stage 1 cleared by a CNT write
sed 's/wire \[QW-1:0\]    base = uf ? {1.b1, {(QW-1){1.b0}}} : d1\[QW-1:0\];/wire [QW-1:0]    base = d1[QW-1:0];/' "$qu" > "$tmp/qbug1.v"
sed 's/wire             keep = m_qos \& s_roll \& qos \& /wire             keep = m_qos \& s_roll \& /' "$qu" > "$tmp/qbug2.v"
sed 's/wire             refl = m_smk | (m_qos \& (s_elast | ~qos));/wire             refl = m_smk | m_qos;/' "$qu" > "$tmp/qbug3.v"
sed 's/wire \[DEC_W-1:0\] dec  = m_qos ? tin_r\[/wire [DEC_W-1:0] dec  = m_qos ? tin[/' "$qu" > "$tmp/qbug4.v"
sed 's/            tin_r <= tin;  \/\/ stage 1/            tin_r <= (csr_we \& csr_addr >= `SMK_REG_CNT \& csr_addr < `SMK_REG_CNT + K) ? {K*DEC_W{1'"'"'b0}} : tin;  \/\/ stage 1/' "$qu" > "$tmp/qbug5.v"
for b in 1 2 3 4 5; do
  if cmp -s "$qu" "$tmp/qbug$b.v"; then echo "formal: quota_unit bug $b was not injected (RTL changed?)"; exit 1; fi
  if prove_qu "$tmp/qbug$b.v" "$tmp/qbug$b.log"; then
    echo "formal: quota_unit injected bug $b NOT detected: the proof is vacuous"; exit 1
  fi
done
echo "formal: quota_unit: 5 injected bugs detected (the proof is not vacuous)"

# qos_mgr: the compute microprogram's timing of docs/qos_mgr.md sections 6-7 (the program starts in
# the SNAP cycle et = L - LC, every step takes the cycles of tables 7.1-7.4, each divide exactly D,
# F3 is the cycle et = L - 1 and the position is idle after it; the one-hot pk_oh = 1 << pk), written in
# testbench/formal/qos_mgr_props.v over the manager's position registers, every input free
qm=$(unit_file qos_mgr)
# the datapath's kept adder and carry-save nets ((* keep *), a timing device: docs/timing.md) would
# keep the whole datapath in the SAT problem (918,813 variables); the properties read only position
# registers, so the keep attributes are dropped and prep removes the logic no property depends on
export PROPS_PRE="setattr -unset keep qos_mgr/w:*;"
prove_props "$qm" "$tmp/qm_ok.log" qos_mgr 1 st:st mode:cur_mode et:et L:L Ls:Ls ph:ph sub:sub pn:pn pk:pk pkoh:pk_oh ps:ps cy:cy \
  || { echo "formal: qos_mgr ($cfg): PROOF FAILED; log follows"; grep -i "fail\|error" "$tmp/qm_ok.log" | tail -20; exit 1; }
echo "formal: qos_mgr ($cfg): $(count_asserts "$tmp/qm_ok.log") assertions proven by induction"
# bug 1: C1 starts at sub-step c1.1 (one cycle short); bug 2: every divide one cycle short;
# bug 3: the F steps end after F2 (no EPOCH_START cycle); bug 4: every MUL sub-step one cycle short
sed 's/ph <= PH_C1; pk <= {(KW+1){1.b0}}; pk_oh <= {{KN{1.b0}}, 1.b1}; sub <= 4.d0;/ph <= PH_C1; pk <= {(KW+1){1'"'"'b0}}; pk_oh <= {{KN{1'"'"'b0}}, 1'"'"'b1}; sub <= 4'"'"'d1;/' "$qm" > "$tmp/mbug1.v"
sed 's/wire cy_last  = (cy == CY_DL);/wire cy_last  = (cy == CY_DL - 1'"'"'b1);/' "$qm" > "$tmp/mbug2.v"
sed 's/if (sub == 4.d3) ph <= PH_NONE;/if (sub == 4'"'"'d2) ph <= PH_NONE;/' "$qm" > "$tmp/mbug3.v"
sed 's/wire cy_mlast = (cy == CY_ML);/wire cy_mlast = (cy == CY_ML - 1'"'"'b1);/' "$qm" > "$tmp/mbug4.v"
# bug 5: the SNAP-cycle register Ls loaded with L (not L - LC): the microprogram starts LC cycles late
sed 's/Ls       <= new_Ls;/Ls       <= new_L;/' "$qm" > "$tmp/mbug5.v"
# bug 6: C1's one-hot kernel pointer not advanced with pk (M6; the current-kernel selects read it)
sed '/ph <= PH_C2; pk <= /{n;n;s/ pk_oh <= {pk_oh\[KN-1:0\], 1.b0};//}' "$qm" > "$tmp/mbug6.v"
mutants qos_mgr "$qm" mbug 6 qos_mgr 1 st:st mode:cur_mode et:et L:L Ls:Ls ph:ph sub:sub pn:pn pk:pk pkoh:pk_oh ps:ps cy:cy
unset PROPS_PRE
echo "formal: qos_mgr: 6 injected bugs detected (the proof is not vacuous)"
echo "formal: 11 passed, 0 failed"
