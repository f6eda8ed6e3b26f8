#!/usr/bin/env bash
# formal.sh CONFIG [--long | --driver] : prove the `ifdef FORMAL` properties of warp_sched and preempt_engine,
# the quota counters' rules of quota_unit (testbench/formal/quota_unit_props.v) and the QoS
# manager's microprogram timing (qos_mgr_props.v) by temporal induction with Yosys SAT, then show
# each proof is not vacuous: injected bugs must each make it fail; and the shared kept prefix adder
# SMK_SKL_ADD equal to A + B + CI and SMK_DEF_POPCNT equal to the sum of the bits (combinational SAT
# proofs per width). With --long only the slow proof:
# sm_top's slot table (sm_top_props.v; make formal-long). With --driver only the sm_driver proof
# (sm_driver_props.v on testbench/formal/drv_formal.cfg, CONFIG not used; make formal-driver).
# docs/verification.md "Formal proofs".
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
# SMK_DEF_POPCNT equal to the sum of its bits, all but the last DROP (below; 32-48 bits in --long)
pc_prove() { # W OW DROP -> exit status of the proof
  cat > "$tmp/pc_$1_$2.v" <<PC
\`include "smk_prims.vh"
module pc (input [$1-1:0] x, output ok);
    \`SMK_DEF_POPCNT(popcnt, $1, $2)
    function [$2-1:0] ref(input [$1-1:0] v);
        integer i;
        begin
            ref = {$2{1'b0}};
            for (i = 0; i < $1 - $3; i = i + 1) ref = ref + {{($2-1){1'b0}}, v[i]};
        end
    endfunction
    assign ok = (popcnt(x) == ref(x));
endmodule
PC
  yosys -q -p "read_verilog -I$root/rtl $tmp/pc_$1_$2.v; proc; flatten; sat -prove ok 1 -verify" > "$tmp/pc_$1_$2.log" 2>&1
}
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
    hierarchy -top ${unit}_props; proc -norom; ${PROPS_PRE:-} flatten; $con ${PROPS_POST:-} prep -top ${unit}_props; \
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
if [ "$long" = "--driver" ]; then
  # sm_driver (make formal-driver; not in make test): the invariants of testbench/formal/sm_driver_props.v
  # (no SM over any limit, usage = sums over the slot mirror, kernel slots, the TB id ledger, the
  # commands in flight, the PTBQ) by 1-induction on testbench/formal/drv_formal.cfg (DRV_FORMAL_CFG
  # to name another: make formal-driver-large's drv_formal_k4.cfg and drv_formal_s3.cfg), once with
  # its drv_pipe = 1 and once with the key set to 0 (the configuration argument is not used: the
  # proof is tractable on small drivers only; docs/verification.md "Formal proofs").
  # Every input is free but the SM tops' responses and completions (their contract, assumed in the
  # props module). The registers no invariant reads are cut (their flops deleted, so their values
  # are free in every cycle: a sound over-approximation, the invariants hold whatever they hold):
  # the kernel table's policy fields (kold, kr, kqos, kidem, kmask, kadm, klim), part, the plan, the Algorithm 1, partition and request units, the registered host outputs and, with
  # drv_pipe = 1, the decision pipeline's S1 and S2 registers (so the execution's re-checks are
  # proven to keep the invariants whatever SM, kernel and kind the choice names).
  t0=$(date +%s)
  hwgen=$root/build/hwgen
  [ -x "$hwgen" ] || { echo "formal: $hwgen missing (make build/hwgen)"; exit 1; }
  dcfg=${DRV_FORMAL_CFG:-$root/testbench/formal/drv_formal.cfg}
  [ -f "$dcfg" ] || { echo "formal: $dcfg: no such configuration file"; exit 1; }
  dcfg=$(cd "$(dirname "$dcfg")" && pwd)/$(basename "$dcfg")
  grep -q '^drv_pipe *= *1' "$dcfg" || { echo "formal: $dcfg must have drv_pipe = 1"; exit 1; }
  mkdir -p "$tmp/p1" "$tmp/p0"
  sed 's/^drv_pipe *= *1/drv_pipe = 0/' "$dcfg" > "$tmp/p0.cfg"
  "$hwgen" "$dcfg" "$root/hw/regmap.def" "$tmp/p1" >/dev/null && "$hwgen" "$tmp/p0.cfg" "$root/hw/regmap.def" "$tmp/p0" >/dev/null \
    || { echo "formal: hwgen rejected $dcfg"; exit 1; }
  drv=$(unit_file sm_driver)
  regs="kv:kv kn:kn kdreg:kdreg km:km kgrid:kgrid knext:knext kndone:kndone U:U u:u cnt:cnt ksv:ksv \
    ksk:ksk sv:sv spre:spre sfill:sfill dp:dp sk:sk sid:sid busy:busy rlv:rl_v rlop:rl_op rltb:rl_tb \
    rlst:rl_st qst:qst qk:qk qid:qid qs:qs qt:qt pb:pb bpb:bpb"
  cut="kold kr kqos kidem kmask kadm klim part plan_v plan_kc plan_kv plan_sm plan_left \
    a1_st a1_kc a1_s a1_f a1_smv a1_best a1_kv a1_q a1_acc a1_rk a1_kvm a1_rv a1_rc a1_nouf a1_omax \
    a1_omin a1_nmax a1_nmin a1_ok a1_pw a1_pcd pdirty pact pcur pc pacc pcnt_ks pgot prun psrv ptop prr \
    prt pph pcand_r plat_r pkv_r rq_st rq_kr rq_ret_q rq_s rq_j rq_c rq_q rq_npk rq_pend rq_pk rq_g acc \
    w rq_ack_v rq_ack_st rq_ack_kv rq_ack_n kl_rej kdone_v kdone_k dp1_v dp2_v dp2_kind dp2_s dp2_k \
    dp2_r s1_pol s1_evsave s1_psm s1_pb s1_qfree s1_plan s1_planv s1_plansm s1_plankc s1_ec s1_rc s1_r \
    s1_elig s1_fitany s1_fits s1_rk s1_rsm s1_kold s1_kmask"
  # every name must still be a register of the RTL (a renamed one would silently stay in the proof
  # or, worse, a cut that no longer exists would hide nothing)
  for r in $(for nr in $regs; do echo "${nr#*:}"; done) $cut; do
    grep -qE "^ *reg .*[] ]$r( |;|/)" "$drv" || grep -qE "^ *output reg .*[] ]$r( |,|/)" "$drv" \
      || { echo "formal: sm_driver register $r not found in $drv"; exit 1; }
  done
  sel=""; for r in $cut; do if [ -z "$sel" ]; then sel="w:u.$r"; else sel="$sel w:u.$r %u"; fi; done
  export PROPS_POST="delete $sel %ci1:+[Q] t:\$dff %i;"
  dprove() { # PIPE FILE LOG -> exit status
    local oinc=$inc; inc=$tmp/p$1
    # shellcheck disable=SC2086
    prove_props "$2" "$3" sm_driver 1 $regs; local rc=$?
    inc=$oinc; return $rc
  }
  # planted bugs, dbugN.v (drv_pipe 0 and 1 unless noted). 1 (L1): the TB-slot fit test `<=`
  # (one TB over the limit); 2 (L2): a SAVE / DROP retire does not decrement u; 3 (L3): nor U;
  # 4 (C1): nor cnt; 5 (C2): the kernel slot released although a TB of the kernel is dispatched on
  # the SM in the same cycle; 6 (C3): kndone counts a SAVE / DROP retire as a completion; 7 (C4): a
  # done event does not clear its dp bit; 8 (B1): a command does not set busy; 9 (B2): a command
  # does not set spre; 10 (B2): a RESTORE's set-up does not set sfill; 11 (P1): a RESTORE does not
  # record its SM in the PTBQ entry; 12 (P2): a RERUN dispatch leaves its entry RERUN (the TB id
  # twice); 13 (P1, P2): a PTBQ allocation may take a SAVED / RERUN / REST entry; 14 (drv_pipe = 1
  # only): the execution of a dispatch does not re-check fits; 15 (drv_pipe = 0 only): SMK_OD
  # dispatches Kc on SMc without fits; 16 (P3): any response clears pb; 17 (C3): a kernel finishes
  # one completion early (kv = 0 with a TB held); 18 (B1): the response latch loses the slot;
  # 19 (C3): a launch with a grid of 0 TBs accepted; 20 (P1): a DROP OK makes its entry state 5, not
  # RERUN; 21 (P1): a RESTORE OK leaves its entry REST; 22 (P2, C3): a fresh TB does not advance knext;
  # 23 (B1, B2): a SAVED entry's RESTORE set up without cmd_ok (a second command in flight)
  sed -e 's/& ({1.b0, u\[(s\*4+3)\*UW +: UW\]} < {1.b0, LIM_TB})/\& ({1'"'"'b0, u[(s*4+3)*UW +: UW]} <= {1'"'"'b0, LIM_TB})/' \
      -e 's/& (rc_u\[3\*UW +: UW\] < LIM_TB)/\& (rc_u[3*UW +: UW] <= LIM_TB)/' "$drv" > "$tmp/dbug1.v"
  # both of bug 1's edits must apply (the re-check's alone would still hide S1's, and the reverse)
  [ "$(grep -c 'u\[(s\*4+3)\*UW +: UW\]} <= {1.b0, LIM_TB}\|rc_u\[3\*UW +: UW\] <= LIM_TB' "$tmp/dbug1.v")" = 2 ] ||
    { echo "formal: sm_driver bug 1 was not injected in both fit tests (RTL changed?)"; exit 1; }
  sed -e 's/= (u_m \& {UW{ge}}) | (uo \& {UW{~ge}});/= (u_m \& {UW{ge \& ev_done}}) | (uo \& {UW{~(ge \& ev_done)}});/' \
      -e 's/= (u_pm \& {UW{ge}}) | (u_p \& {UW{~ge}});/= (u_pm \& {UW{ge \& ev_done}}) | (u_p \& {UW{~(ge \& ev_done)}});/' \
      -e 's/- ((ev_ret \&\& es == n\[SMW-1:0\]) ? dke/- ((ev_done \&\& es == n[SMW-1:0]) ? dke/' "$drv" > "$tmp/dbug2.v"
  sed -e 's/wire ge = ev_ret \& ek_oh\[gm\];/wire ge = ev_done \& ek_oh[gm];/' \
      -e 's/- ((ev_ret \&\& ek == m\[KW-1:0\]) ? dk/- ((ev_done \&\& ek == m[KW-1:0]) ? dk/' "$drv" > "$tmp/dbug3.v"
  sed -e 's/wire gc = ge \& ekn_oh\[gn\*KN + gm\];/wire gc = ge \& ev_done \& ekn_oh[gn*KN + gm];/' \
      -e 's/- {{(TC-1){1.b0}}, ev_ret \&\& es == n\[SMW-1:0\] \&\& ek == m\[KW-1:0\]}/- {{(TC-1){1'"'"'b0}}, ev_done \&\& es == n[SMW-1:0] \&\& ek == m[KW-1:0]}/' "$drv" > "$tmp/dbug4.v"
  sed 's/ev_rel = ev_ret \& ev_c1 \& ~(ds_go \& (dsS == es) \& (dsK == ek));/ev_rel = ev_ret \& ev_c1;/' "$drv" > "$tmp/dbug5.v"
  sed 's/if (ev_done) kndone\[m\*GW +: GW\] <= /if (ev_ret) kndone[m*GW +: GW] <= /' "$drv" > "$tmp/dbug6.v"
  sed 's/dp\[n\*T +: T\] <= (dp\[n\*T +: T\] \& ~((ev_done \&\& es == n\[SMW-1:0\]) ? et_oh/dp[n*T +: T] <= (dp[n*T +: T] \& ~(1'"'"'b0 ? et_oh/' "$drv" > "$tmp/dbug7.v"
  sed 's/                    busy\[n\] <= 1.b1;/                    busy[n] <= 1'"'"'b0;/' "$drv" > "$tmp/dbug8.v"
  sed 's/                        spre\[n\*T + y\] <= 1.b1;/                        spre[n*T + y] <= 1'"'"'b0;/' "$drv" > "$tmp/dbug9.v"
  sed 's/sfill\[n\*T + y\] <= ds_rest;/sfill[n*T + y] <= 1'"'"'b0;/' "$drv" > "$tmp/dbug10.v"
  sed 's/^ *qs\[n\*SMW +: SMW\] <= dsS;$//' "$drv" > "$tmp/dbug11.v"
  sed 's/if (ds_rerun) qst\[n\*3 +: 3\] <= Q_FREE;/if (ds_rerun) qst[n*3 +: 3] <= Q_RERUN;/' "$drv" > "$tmp/dbug12.v"
  sed 's/            if (qst\[i\*3 +: 3\] == Q_FREE) begin/            if (qst[i*3 +: 3] != Q_PEND) begin/' "$drv" > "$tmp/dbug13.v"
  sed 's/ds_try = (PIPE == 0) | (elig\[ex_dk\] \& ex_fit);/ds_try = (PIPE == 0) | elig[ex_dk];/' "$drv" > "$tmp/dbug14.v"
  sed 's/cd_ok = f \& oany \& srow\[kc\];/cd_ok = f \& oany;/' "$drv" > "$tmp/dbug15.v"
  sed 's/if (ev_rsp \&\& bpb\[es\]) pb <= 1.b0;/if (ev_rsp) pb <= 1'"'"'b0;/' "$drv" > "$tmp/dbug16.v"
  sed 's/kfin\[k\] = ((kndone\[k\*GW +: GW\] + {{(GW-1){1.b0}}, 1.b1})/kfin[k] = ((kndone[k*GW +: GW] + {{(GW-2){1'"'"'b0}}, 2'"'"'b10})/' "$drv" > "$tmp/dbug17.v"
  sed 's/rl_tb\[n\*TBS_W +: TBS_W\] <= rsp_tb\[n\*TBS_W +: TBS_W\];/rl_tb[n*TBS_W +: TBS_W] <= {TBS_W{1'"'"'b0}};/' "$drv" > "$tmp/dbug18.v"
  sed 's/wire kl_acc = kl_v \& kl_k_ok \& ~kv\[kl_k\] \& (kl_grid != {GW{1.b0}})/wire kl_acc = kl_v \& kl_k_ok \& ~kv[kl_k]/' "$drv" > "$tmp/dbug19.v"
  sed 's/? Q_SAVED : Q_RERUN;/? Q_SAVED : 3'"'"'d5;/' "$drv" > "$tmp/dbug20.v"
  sed 's/ev_qwr = ev_qv \& (s_3(rl_st, es) == ST_OK);/ev_qwr = 1'"'"'b0;/' "$drv" > "$tmp/dbug21.v"
  sed 's/knext\[m\*GW +: GW\] <= knext\[m\*GW +: GW\] + {{(GW-1){1.b0}}, 1.b1};/knext[m*GW +: GW] <= knext[m*GW +: GW];/' "$drv" > "$tmp/dbug22.v"
  sed 's/if (pq_sv\[dsK\]) ds_rest = cmd_ok\[dsS\];/if (pq_sv[dsK]) ds_rest = 1'"'"'b1;/' "$drv" > "$tmp/dbug23.v"
  for b in $(seq 1 23); do
    cmp -s "$drv" "$tmp/dbug$b.v" && { echo "formal: sm_driver bug $b was not injected (RTL changed?)"; exit 1; }
  done
  for p in 1 0; do
    t1=$(date +%s)
    dprove $p "$drv" "$tmp/dr${p}_ok.log" \
      || { echo "formal: sm_driver ($(basename "$dcfg" .cfg), drv_pipe = $p): PROOF FAILED; log follows"; grep -i "fail\|error" "$tmp/dr${p}_ok.log" | tail -20; exit 1; }
    [ "$(count_asserts "$tmp/dr${p}_ok.log")" = 1 ] || { echo "formal: sm_driver: the assertion was not imported"; exit 1; }
    echo "formal: sm_driver ($(basename "$dcfg" .cfg), drv_pipe = $p): L1-L3, C1-C4, B1-B2, P1-P3 (testbench/formal/sm_driver_props.v) proven by 1-induction ($(( $(date +%s) - t1 )) s)"
    nb=0
    for b in $(seq 1 23); do
      { [ $b = 14 ] && [ $p = 0 ]; } && continue
      { [ $b = 15 ] && [ $p = 1 ]; } && continue
      if dprove $p "$tmp/dbug$b.v" "$tmp/dbug${p}_$b.log"; then
        echo "formal: sm_driver (drv_pipe = $p) injected bug $b NOT detected: the proof is vacuous"; exit 1
      fi
      grep -q 'failed\|FAIL' "$tmp/dbug${p}_$b.log" || { echo "formal: sm_driver bug $b: yosys did not run the proof"; tail -5 "$tmp/dbug${p}_$b.log"; exit 1; }
      nb=$((nb + 1))
    done
    echo "formal: sm_driver (drv_pipe = $p): $nb injected bugs detected (the proof is not vacuous)"
  done
  unset PROPS_POST
  echo "formal: driver: 2 passed, 0 failed ($(( $(date +%s) - t0 )) s)"
  exit 0
fi
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
  for wo in 32:6 33:6 48:6; do
    pc_prove "${wo%:*}" "${wo#*:}" 0 || { echo "formal: SMK_DEF_POPCNT on ${wo%:*} bits differs from the sum of the bits; log follows"; tail -20 "$tmp/pc_${wo%:*}_${wo#*:}.log"; exit 1; }
  done
  echo "formal: SMK_DEF_POPCNT equals the sum of the bits on 32, 33 and 48 bits"
  echo "formal: long: 2 passed, 0 failed ($(( $(date +%s) - t0 )) s)"
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

# SMK_SKL_ADD (rtl/smk_prims.vh): the kept prefix adder equals A + B + CI on every width the blocks
# use and around the powers of two (a SAT proof over all operands per width); one wrong reference
# (the carry in dropped) must fail
cat > "$tmp/skl.v" <<'SKL'
`include "smk_prims.vh"
module skl #(parameter N = 5, parameter CIOK = 1) (input [N-1:0] a, input [N-1:0] b, input ci, output ok);
    wire [N-1:0] s;
    `SMK_SKL_ADD(g_add, N, a, b, ci, s)
    wire [N-1:0] r = a + b + {{(N-1){1'b0}}, ci & (CIOK != 0)};
    assign ok = (s == r);
endmodule
SKL
skl_prove() { # N CIOK -> exit status of the proof
  yosys -q -p "read_verilog -I$root/rtl $tmp/skl.v; chparam -set N $1 -set CIOK $2 skl; proc; flatten; \
    sat -prove ok 1 -verify" > "$tmp/skl_$1.log" 2>&1
}
for n in 1 2 3 4 5 7 8 9 12 13 16 17 31 33; do
  skl_prove $n 1 || { echo "formal: SMK_SKL_ADD on $n bits differs from A + B + CI; log follows"; tail -20 "$tmp/skl_$n.log"; exit 1; }
done
if skl_prove 12 0; then echo "formal: SMK_SKL_ADD against a wrong reference NOT detected: the check is vacuous"; exit 1; fi
echo "formal: SMK_SKL_ADD equals A + B + CI on 1-33 bits (14 widths; a wrong reference detected)"

# SMK_DEF_POPCNT (rtl/smk_prims.vh): the carry-save population count equals the sum of the bits in
# order, mod 2^OW, on 1-24 bits and a narrow OW (32, 33 and 48 bits in --long: 4 s, 3 s and 160 s
# of SAT beside other jobs; 64 bits did not finish in 29 minutes, 15 of them of CPU: each 3:2 row
# keeps a + b + c = (a ^ b ^ c) + (maj << 1) mod 2^OW, and the gtx980 and pascal56 cosims count 64 warps);
# a reference that drops the last bit must fail. One top per width (parameters written in, not chparam)
for wo in 1:1 2:2 3:2 4:3 5:3 7:3 8:4 9:4 12:4 13:4 16:5 17:5 24:5 16:3; do
  pc_prove "${wo%:*}" "${wo#*:}" 0 || { echo "formal: SMK_DEF_POPCNT on ${wo%:*} bits (OW ${wo#*:}) differs from the sum of the bits; log follows"; tail -20 "$tmp/pc_${wo%:*}_${wo#*:}.log"; exit 1; }
done
if pc_prove 16 5 1; then echo "formal: SMK_DEF_POPCNT against a wrong reference NOT detected: the check is vacuous"; exit 1; fi
echo "formal: SMK_DEF_POPCNT equals the sum of the bits on 1-24 bits (14 widths, one with a narrow OW; a wrong reference detected)"

# quota_unit's depth forms (docs/quota_unit.md "Stage 1", timers and the idle sample), as written in
# rtl/quota_unit.v: the timers' compare x + 1 >= L as S = x + ~L + 1 with S[EW] | &S[EW-1:0], and the
# idle sum's carry select against sat(idle + cnt); a reference off by one must fail
cat > "$tmp/qf.v" <<'QF'
`include "smk_prims.vh"
module qcmp #(parameter EW = 16, parameter OFF = 0) (input [EW-1:0] x, input [EW-1:0] l, output ok);
    wire [EW:0] s;
    `SMK_SKL_ADD(g_c, EW + 1, {1'b0, x}, {1'b0, ~l}, 1'b1, s)
    wire [EW+1:0] xi = {2'b00, x} + 1 + OFF;
    assign ok = (s[EW] | (&s[EW-1:0])) == (xi >= {2'b00, l});
endmodule
module qcsel #(parameter SW = 24, parameter WC = 5, parameter OFF = 0) (input [SW-1:0] a, input [WC-1:0] c, output ok);
    localparam integer HW = SW - WC;
    wire [WC:0]   lo = {1'b0, a[WC-1:0]} + {1'b0, c};
    wire [HW-1:0] hi = a[WC +: HW];
    wire [HW-1:0] h1 = hi + {{(HW-1){1'b0}}, 1'b1};
    wire [SW-1:0] r  = (lo[WC] & (&hi)) ? {SW{1'b1}} : {lo[WC] ? h1 : hi, lo[WC-1:0]};
    wire [SW:0]   w  = {1'b0, a} + {{(SW+1-WC){1'b0}}, c} + OFF;
    assign ok = r == (w[SW] ? {SW{1'b1}} : w[SW-1:0]);
endmodule
QF
qf_prove() { # MODULE PARAMS... -> exit status
  local m=$1 ch=""; shift
  for a in "$@"; do ch="$ch chparam -set ${a%=*} ${a#*=} $m;"; done
  yosys -q -p "read_verilog -I$root/rtl $tmp/qf.v; $ch hierarchy -top $m; proc; flatten; sat -prove ok 1 -verify" > "$tmp/qf.log" 2>&1
}
for ew in 1 2 5 16 20; do
  qf_prove qcmp EW=$ew || { echo "formal: quota_unit's timer compare differs on EW = $ew; log follows"; tail -20 "$tmp/qf.log"; exit 1; }
done
for sw in 8:3 24:5 32:7; do
  qf_prove qcsel SW="${sw%:*}" WC="${sw#*:}" || { echo "formal: quota_unit's idle carry select differs on SW:WCNT_W = $sw; log follows"; tail -20 "$tmp/qf.log"; exit 1; }
done
if qf_prove qcmp EW=5 OFF=1 || qf_prove qcsel SW=8 WC=3 OFF=1; then echo "formal: quota_unit's depth forms against a wrong reference NOT detected: the check is vacuous"; exit 1; fi
echo "formal: quota_unit's timer compare (EW 1-20) and idle carry select (STAT_W:WCNT_W 8:3, 24:5, 32:7) equal their rules (a wrong reference detected)"
echo "formal: 14 passed, 0 failed"
