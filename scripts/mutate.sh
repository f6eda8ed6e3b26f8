#!/usr/bin/env bash
# mutate.sh CONFIG [N] [SEEDS] : Yosys mutation testing of the issue-path RTL against the cosim.
#
# For each module (warp_sched, quota_unit) N mutants are sampled evenly with Yosys `mutate -list`
# (fixed seed) from the flattened cosim top `issue_path`, restricted to that module's cells. All
# mutants are applied at once behind a control input `mutsel` (mutant i active when mutsel == i,
# 0 = original), so one Verilator build serves every mutant. Each mutant is run by the cosim
# (every output compared every cycle against the C model; registers are also read back through
# the random rd_addr port; the internal-state compare of the normal cosim is unavailable because
# mutations split the netlist's register names) on several seeds; a mismatch kills it. The
# unmutated netlist (mutsel = 0) must pass every seed first, or the run aborts: a broken baseline
# would "kill" every mutant.
# Verilator 5.006 mis-simulates the word-level false combinational loops (UNOPTFLAT) that Yosys
# leaves in the flattened netlist (e.g. a function's result vector whose bits feed each other);
# `splitnets -driver` before write_verilog removes them, and the baseline check guards it.
# Each survivor is then checked for equivalence (eqcheck below); the checker must prove the
# original equal to itself and must not prove a killed mutant equivalent.
#
# MUT_RECHECK=1 skips the cosim runs and redoes only the equivalence checks and the report from
# the previous run's build/mutate/<module>/results.csv.
# Results: build/mutate/<module>.csv and docs/mutation.md.
set -euo pipefail
cfg=${1:?usage: mutate.sh CONFIG [N] [SEEDS]}
N=${2:-120}
SEEDS=${3:-"1 2 3 4 5"}
CYC=${MUT_CYCLES:-200000}
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/build/mutate
inc=$root/build/$cfg
mkdir -p "$out"
rtl="$root/rtl/warp_sched.v $root/rtl/quota_unit.v $root/testbench/cosim/issue_path.v"
readin="read_verilog -I$inc $rtl; hierarchy -top issue_path; proc; flatten; opt_clean"

# Equivalence of mutant ID with the original: two copies of the netlist, mutsel tied to 0 and to
# ID and renamed apart, constants folded and unused nets purged (the mutation's select wire
# `mutsel == ID` is 0 in one copy and 1 in the other and must not be paired), then Yosys
# equiv_make pairs the remaining same-named wires (registers included), equiv_simple and
# equiv_induct (2 steps) prove them. Returns 0 only when every $equiv cell is proven.
eqcheck() { # DIR ID LOG
  timeout "${MUT_EQ_TIMEOUT:-300}" yosys -q -l "$3" -p "read_verilog $1/mutant.v; proc; rename issue_path gold; \
    read_verilog $1/mutant.v; proc; rename issue_path gate; delete -port gold/mutsel; delete -port gate/mutsel; \
    cd gold; connect -set mutsel 8'd0; rename mutsel mutsel_gold; cd ..; \
    cd gate; connect -set mutsel 8'd$2; rename mutsel mutsel_gate; cd ..; \
    opt_expr -mux_bool; opt_clean -purge; \
    equiv_make gold gate equiv; hierarchy -top equiv; equiv_simple -seq 2; equiv_induct -seq 2; \
    equiv_status -assert" >/dev/null 2>&1
}

run_mutants() { # MODULE DIR: list, apply, build, baseline, cosim every mutant -> results.csv (killed/survived)
  local mod=$1 d=$2 inst n i s res last rr line where mmode
  inst=$([ "$mod" = warp_sched ] && echo u_ws || echo u_qu)
  rm -rf "$d"; mkdir -p "$d"
  echo "mutate: $mod: listing $N mutants"
  yosys -q -l "$d/list.log" -p "$readin; mutate -list $N -seed 1 -ctrl mutsel 8 1 -o $d/muts.ys issue_path/c:*$inst.*" >/dev/null
  n=$(grep -c '^mutate' "$d/muts.ys" || true)
  echo "mutate: $mod: applying $n mutants"
  yosys -q -l "$d/apply.log" -p "$readin; script $d/muts.ys; opt_clean; splitnets -driver; opt_clean; write_verilog -noattr $d/mutant.v" >/dev/null
  echo "mutate: $mod: building the cosim with all mutants behind mutsel"
  if ! verilator --cc --exe --build -j 2 --trace-fst -Wno-fatal -Wno-lint -Wno-style -MAKEFLAGS OPT_FAST=-O2 \
      --top-module issue_path -I"$inc" --Mdir "$d/vl" -o cosim_mut \
      -CFLAGS "-std=c++14 -DMUTANT -I$inc -I$root/cmodel -I$root/testbench -I$root/testbench/cosim" \
      "$d/mutant.v" "$root/testbench/cosim/cosim_issue.cpp" "$inc/libtb.a" "$inc/libsmk.a" > "$d/build.log" 2>&1; then
    echo "mutate: $mod: the mutant harness failed to build (every mutant counted as failed to build):"
    tail -15 "$d/build.log"
    echo "id,result,mode,where" > "$d/results.csv"
    for i in $(seq 1 "$n"); do echo "$i,failed_build,," >> "$d/results.csv"; done
    return
  fi
  for s in $SEEDS; do
    if ! "$d/vl/cosim_mut" --quiet --mutant 0 --seed "$s" --cycles "$CYC" > "$d/baseline_$s.log" 2>&1; then
      echo "mutate: $mod: the UNMUTATED netlist (mutsel 0) fails the cosim on seed $s; aborting:"
      tail -8 "$d/baseline_$s.log"
      exit 1
    fi
  done
  echo "mutate: $mod: baseline (mutsel 0) passes seeds $SEEDS"
  echo "id,result,mode,where" > "$d/results.csv"
  last=$(echo $SEEDS | awk '{print $NF}')
  for i in $(seq 1 "$n"); do
    line=$(sed -n "${i}p" "$d/muts.ys")
    where=$(echo "$line" | sed -E 's/.*-cell ([^ ]+).*/\1/')
    mmode=$(echo "$line" | sed -E 's/.*-mode ([a-z0-9_]+).*/\1/')
    res=survived
    for s in $SEEDS; do
      rr=""; [ "$s" = "$last" ] && rr="--rand-reset"
      if ! "$d/vl/cosim_mut" --quiet --mutant "$i" --seed "$s" --cycles "$CYC" $rr > "$d/run_$i.log" 2>&1; then
        res=killed; break
      fi
    done
    [ $res = killed ] && rm -f "$d/run_$i.log"
    echo "$i,$res,$mmode,$where" >> "$d/results.csv"
    printf '  %s mutant %3d/%d %-10s %s\n' "$mod" "$i" "$n" "$res" "$where"
  done
}

check_equivalence() { # MODULE DIR: survivors -> equivalent / unknown; the checker is checked first
  local mod=$1 d=$2 fk tmp id res mmode where
  [ -f "$d/mutant.v" ] || return 0
  if ! eqcheck "$d" 0 "$d/eq_sanity.log"; then
    echo "mutate: $mod: the equivalence checker cannot prove the original equal to itself; aborting"; exit 1
  fi
  fk=$(awk -F, '$2=="killed"{print $1; exit}' "$d/results.csv")
  if [ -n "$fk" ] && eqcheck "$d" "$fk" "$d/eq_sanity_killed.log"; then
    echo "mutate: $mod: the equivalence checker proves killed mutant $fk equivalent; aborting"; exit 1
  fi
  tmp=$d/results.tmp
  head -1 "$d/results.csv" > "$tmp"
  tail -n +2 "$d/results.csv" | while IFS=, read -r id res mmode where; do
    if [ "$res" != killed ] && [ "$res" != failed_build ]; then
      if eqcheck "$d" "$id" "$d/eq_$id.log"; then res=equivalent; else res=unknown; fi
      printf '  %s mutant %3d %-10s %s\n' "$mod" "$id" "$res" "$where"
    fi
    echo "$id,$res,$mmode,$where" >> "$tmp"
  done
  mv "$tmp" "$d/results.csv"
}

md=$out/mutation.md
{
  echo "# Mutation testing"
  echo
  echo "Generated by \`make mutate\` (scripts/mutate.sh) on $(date -u +%Y-%m-%d), configuration \`$cfg\`,"
  echo "$(yosys -V), $(verilator --version | head -1). $N mutants per module sampled by"
  echo "\`mutate -list $N -seed 1\`; each run by the lockstep cosim (every output compared every cycle, registers"
  echo "read back through the random read port; the unmutated netlist must pass every seed first) on seeds"
  echo "$SEEDS for $CYC cycles each (random stimulus, random initial register values on the last seed)."
  echo "Survivors are checked for equivalence with Yosys (equiv_make on two copies of the netlist, mutsel 0 vs the"
  echo "mutant, equiv_simple + equiv_induct over 2 steps; the checker must prove the original equal to itself and"
  echo "must not prove a killed mutant): *equivalent* = proven to behave identically; *unknown* = neither killed"
  echo "nor proven, counted as surviving."
  echo
  echo "| module | mutants | killed | equivalent | survived (unknown) | failed to build | score = killed / (mutants - equivalent - failed) |"
  echo "|---|---|---|---|---|---|---|"
} > "$md.head"
: > "$md.body"

for mod in warp_sched quota_unit; do
  d=$out/$mod
  if [ "${MUT_RECHECK:-0}" = 1 ]; then
    [ -f "$d/results.csv" ] || { echo "mutate: MUT_RECHECK=1 needs a previous run ($d/results.csv)"; exit 1; }
    sed -i 's/,equivalent,/,survived,/; s/,unknown,/,survived,/' "$d/results.csv"
  else
    run_mutants "$mod" "$d"
  fi
  check_equivalence "$mod" "$d"
  n=$(($(wc -l < "$d/results.csv") - 1))
  killed=$(grep -c ',killed,' "$d/results.csv" || true)
  equiv=$(grep -c ',equivalent,' "$d/results.csv" || true)
  unk=$(grep -c ',unknown,' "$d/results.csv" || true)
  fb=$(grep -c ',failed_build,' "$d/results.csv" || true)
  nonequiv=$((n - equiv - fb))
  score=$(awk -v k="$killed" -v n="$nonequiv" 'BEGIN{ if (n>0) printf "%.1f%%", 100*k/n; else print "n/a" }')
  echo "| $mod | $n | $killed | $equiv | $unk | $fb | $score |" >> "$md.head"
  {
    echo
    echo "## $mod: mutants not killed"
    echo
    echo "| id | result | mutation | cell |"
    echo "|---|---|---|---|"
    awk -F, 'NR>1 && $2!="killed" {printf "| %s | %s | %s | `%s` |\n", $1, $2, $3, $4}' "$d/results.csv"
  } >> "$md.body"
  cp "$d/results.csv" "$out/$mod.csv"
  echo "mutate: $mod: $n mutants, $killed killed, $equiv equivalent, $unk unknown, $fb failed to build, score $score"
done
cat "$md.head" "$md.body" > "$md"
rm -f "$md.head" "$md.body"
cp "$md" "$root/docs/mutation.md"
sed -n '1,16p' "$md"
