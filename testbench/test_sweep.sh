#!/usr/bin/env bash
# test_sweep.sh SMK: scripts/sweep.sh and scripts/sweep_plot.sh (docs/sweep.md) on a small sweep.
# Its cases must be the results of plain `smk run` commands (no --iso), its summary must count what
# cases.csv holds, a rerun must resume (only the missing runs), a directory of other parameters must
# be refused, and bad options must give one line and exit status 1.
set -u
smk=${1:?usage: test_sweep.sh path/to/smk (build/gtx980/smk)}
here=$(cd "$(dirname "$0")/.." && pwd)
sweep=$here/scripts/sweep.sh plot=$here/scripts/sweep_plot.sh wl=$here/cmodel/sim/workloads/parboil.wl
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
pass=0 fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# 3 kernels (6 ordered pairs) x 2 goals x 3 methods = 36 cases of 30,000 cycles, seed 3
args=(-b "$smk" -w "$wl" -k spmv,lbm,histo -g 0.5,0.9 -m naive,spart,rollover -c 30000 -s 3 -j 2 -o "$dir/s")
out=$("$sweep" "${args[@]}" 2>&1) || bad "sweep failed: $out"
[ "$(wc -l < "$dir/s/cases.csv")" = 37 ] && ok || bad "cases.csv: $(wc -l < "$dir/s/cases.csv") lines, want 1 + 36"
[ "$(sed 1d "$dir/s/cases.csv" | cut -d, -f1-4 | sort -u | wc -l)" = 36 ] && ok || bad "cases.csv: cases repeated or missing"

# two cases against smk run without --iso (its own isolated runs): the same values
direct() { # METHOD Q N GOAL -> the case's row as sweep.sh writes it
    local pol=qos sch=$1
    [ "$1" = spart ] && pol=spart sch=off
    "$smk" run --config gtx980 --workload "$wl" --kernels "$2,$3" --policy $pol --scheme $sch --goal "$2=$4" --cycles 30000 \
        --seed 3 --csv | awk -F, -v c="$1,$2,$3,$4" 'NR == 2 { q = $12; m = $13 == "met" }
        NR == 3 { printf "%s,%s,%d,%s,%s,%s,%s\n", c, q, m, $12, $14, $15, $16 }'
}
for c in "rollover lbm histo 0.9" "spart histo spmv 0.5"; do
    set -- $c
    want=$(direct "$@") got=$(grep "^$1,$2,$3,$4," "$dir/s/cases.csv")
    [ -n "$want" ] && [ "$got" = "$want" ] && ok || bad "case $c: sweep '$got', smk run '$want'"
done
# the isolated counts are those smk run prints for the kernel
iso=$("$smk" run --config gtx980 --workload "$wl" --kernels lbm --policy smk --cycles 30000 --seed 3 --json |
    grep -o '"iso_thread_insts":[0-9]*,"iso_warp_insts":[0-9]*' | sed 's/"iso_thread_insts"://;s/"iso_warp_insts"://')
[ "$(grep '^lbm,' "$dir/s/iso.csv" | cut -d, -f2,3)" = "$iso" ] && ok || bad "iso.csv lbm: $(grep '^lbm,' "$dir/s/iso.csv"), smk run $iso"

# the summary counts what cases.csv holds (QoS_reach, misses within 5%, non-QoS IPC over the met
# cases, per method, recomputed here)
for m in naive spart rollover; do
    want=$(awk -F, -v m=$m '$1 == m { c++; met += $6; if ($6) nn += $7; else if ($5 >= 0.95 * $4) near++ }
        END { printf "%d %d %.1f%% %d %.3f", c, met, 100 * met / c, near, met ? nn / met : 0 }' "$dir/s/cases.csv")
    got=$(awk -v m=$m '$1 == m && NF == 10 { print $2, $3, $4, $5, $7; exit }' "$dir/s/summary.txt")
    [ "$got" = "$want" ] && ok || bad "summary $m: '$got', want '$want'"
done
# a spread of results: some goals met and some not, so the counts above are not trivially equal
awk -F, 'NR > 1 { m += $6; n++ } END { exit !(m > 0 && m < n) }' "$dir/s/cases.csv" && ok || bad "every case met or none: $(cat "$dir/s/summary.txt")"

# resume: a missing run is redone, the others are kept as they are
cp "$dir/s/cases.csv" "$dir/cases.before"
rm "$dir/s/runs/naive:spmv:lbm:0.5.csv"
touch -d '2000-01-01' "$dir/s/runs/rollover:lbm:histo:0.9.csv"
"$sweep" "${args[@]}" > /dev/null 2>&1 && [ -s "$dir/s/runs/naive:spmv:lbm:0.5.csv" ] &&
    [ "$(stat -c %Y "$dir/s/runs/rollover:lbm:histo:0.9.csv")" = "$(date -d '2000-01-01' +%s)" ] &&
    cmp -s "$dir/s/cases.csv" "$dir/cases.before" && ok || bad "resume: a run redone or not redone, or other results"
# another length in the same directory: refused
e=$("$sweep" "${args[@]}" -c 40000 2>&1); rc=$?
[ $rc = 1 ] && grep -q "^sweep: $dir/s holds a sweep with other parameters (config=gtx980 .* cycles=30000 seed=3 epoch=10000); remove it or give another -o$" <<< "$e" &&
    ok || bad "other parameters: rc $rc, '$e'"

# trios: the sets and roles of -t / -n, and cases against plain smk run (no --iso). Of the 4 sets of
# spmv,lbm,histo,sad, -n 3 takes numbers 0, 1, 2: {spmv,lbm,histo} {spmv,lbm,sad} {spmv,histo,sad};
# member j mod 3 of set j has the role of its own (-t 2: non-QoS)
targs=(-b "$smk" -w "$wl" -k spmv,lbm,histo,sad -t 2 -n 3 -g 0.3,0.45 -m rollover -c 30000 -s 3 -j 2 -o "$dir/t")
out=$("$sweep" "${targs[@]}" 2>&1) || bad "trio sweep failed: $out"
got=$(sed 1d "$dir/t/cases.csv" | cut -d, -f2,3,4 | paste -sd' ')
[ "$got" = "lbm+histo,spmv,0.3 lbm+histo,spmv,0.45 spmv+sad,lbm,0.3 spmv+sad,lbm,0.45 spmv+histo,sad,0.3 spmv+histo,sad,0.45" ] &&
    ok || bad "trios -t 2 -n 3: cases '$got'"
trio_direct() { # Q1 Q2 N GOAL -> the case's row: the QoS kernels' mean, met if both met
    "$smk" run --config gtx980 --workload "$wl" --kernels "$1,$2,$3" --policy qos --scheme rollover --goal "$1=$4" \
        --goal "$2=$4" --cycles 30000 --seed 3 --csv | awk -F, -v c="rollover,$1+$2,$3,$4" '
        NR == 2 || NR == 3 { q += $12; m += $13 == "met" }
        NR == 4 { printf "%s,%.4f,%d,%s,%s,%s,%s\n", c, q / 2, m == 2, $12, $14, $15, $16 }'
}
# the second and third: one QoS kernel meets its goal and the other does not (so the case is not met)
for c in "spmv sad lbm 0.3" "lbm histo spmv 0.45" "spmv histo sad 0.45"; do
    set -- $c
    want=$(trio_direct "$@") got=$(grep "^rollover,$1+$2,$3,$4," "$dir/t/cases.csv")
    [ -n "$want" ] && [ "$got" = "$want" ] && ok || bad "trio case $c: sweep '$got', smk run '$want'"
done
grep -q '^sweep: gtx980, 30000 cycles, seed 3: 6 cases (3 trios with 2 QoS kernels)$' "$dir/t/summary.txt" && ok ||
    bad "trio summary: $(head -1 "$dir/t/summary.txt")"
# -t 1 -n 4 of the 10 sets of five kernels: numbers 0, 2, 5, 7 = {spmv,lbm,histo} {spmv,lbm,stencil}
# {spmv,sad,stencil} {lbm,histo,stencil}; member j mod 3 (0, 2, 2, 1) is the QoS kernel
"$sweep" -b "$smk" -w "$wl" -k spmv,lbm,histo,sad,stencil -t 1 -n 4 -g 0.5 -m spart -c 20000 -s 3 -j 2 -o "$dir/t1" > /dev/null 2>&1
got=$(sed 1d "$dir/t1/cases.csv" | cut -d, -f2,3 | paste -sd' ')
[ "$got" = "spmv,lbm+histo stencil,spmv+lbm stencil,spmv+sad histo,lbm+stencil" ] && ok || bad "trios -t 1: cases '$got'"

# spart-hc: the case is smk run --policy spart --hill 50000, and the host moved SMs in it (so it is
# not the static split's result)
"$sweep" -b "$smk" -w "$wl" -k lbm,spmv -g 0.9 -m spart,spart-hc -c 120000 -s 3 -j 2 -o "$dir/h" > /dev/null 2>&1
hj=$("$smk" run --config gtx980 --workload "$wl" --kernels lbm,spmv --policy spart --hill 50000 --goal lbm=0.9 --cycles 120000 --seed 3 --json)
want=$("$smk" run --config gtx980 --workload "$wl" --kernels lbm,spmv --policy spart --hill 50000 --goal lbm=0.9 --cycles 120000 \
    --seed 3 --csv | awk -F, 'NR == 2 { q = $12; m = $13 == "met" } NR == 3 { printf "spart-hc,lbm,spmv,0.9,%s,%d,%s,%s,%s,%s\n", q, m, $12, $14, $15, $16 }')
got=$(grep '^spart-hc,lbm,spmv,0.9,' "$dir/h/cases.csv")
[ -n "$want" ] && [ "$got" = "$want" ] && grep -q '"moves":[1-9]' <<< "$hj" &&
    [ "$(cut -d, -f5 <<< "$got")" != "$(grep '^spart,lbm,spmv,0.9,' "$dir/h/cases.csv" | cut -d, -f5)" ] &&
    ok || bad "spart-hc case: sweep '$got', smk run '$want', $(grep -o '"hill":{[^}]*}' <<< "$hj")"

# bad options: one line, exit status 1
err() { # WANT ARGS...
    local want=$1 o rc; shift
    o=$("$sweep" -b "$smk" -o "$dir/e" "$@" 2>&1); rc=$?
    [ $rc = 1 ] && [ "$o" = "sweep: $want" ] && ok || bad "sweep $*: rc $rc, '$o', want 'sweep: $want'"
}
err '-g 0.5,1.5: "1.5" is not a goal 0 < F <= 1 with at most 4 decimals' -k lbm,spmv -g 0.5,1.5
err '-g 0: "0" is not a goal 0 < F <= 1 with at most 4 decimals' -k lbm,spmv -g 0
err '-m rollover,fair: unknown method "fair" (rollover | elastic | naive | spart | spart-hc)' -k lbm,spmv -m rollover,fair
err '-k lbm: a pair needs at least two kernels' -k lbm
err '-j 0: expected a number of jobs 1..999' -j 0
err '-k lbm,spmv,lbm: "lbm" listed twice' -k lbm,spmv,lbm
err '-g 0.5,0.7,0.5: "0.5" listed twice' -k lbm,spmv -g 0.5,0.7,0.5
err 'unknown option -x (see scripts/sweep.sh -h)' -x
err '-c/-s/-e "2M": expected an unsigned integer' -c 2M
err '-t 3: expected 0 (pairs), 1 or 2 (trios with that many QoS kernels)' -t 3
err '-n 5: only for trios (-t 1 or -t 2)' -n 5
err '-n 5: expected a number of trios 1..4' -k lbm,spmv,histo,sad -t 1 -n 5
err '-k lbm,spmv: a trio needs at least three kernels' -k lbm,spmv -t 2
o=$("$sweep" -b "$smk" -o "$dir/e" -k lbm,nosuch -g 0.5 -m naive -c 1000 2>&1); rc=$?
[ $rc = 1 ] && grep -q "^sweep: isolated nosuch: smk: --kernels: no kernel 'nosuch' in " <<< "$o" && ok || bad "unknown kernel: rc $rc, '$o'"
printf 'machine\n' > "$dir/bad.wl"
o=$("$sweep" -b "$smk" -w "$dir/bad.wl" -o "$dir/e2" 2>&1); rc=$?
[ $rc = 1 ] && [ "$(wc -l <<< "$o")" = 1 ] && grep -q "^smk: $dir/bad.wl:" <<< "$o" && ok || bad "bad workload: rc $rc, '$o'"

# the plots
if command -v gnuplot > /dev/null; then
    o=$("$plot" "$dir/s" 2>&1) && grep -q '<svg' "$dir/s/reach.svg" && grep -q 'rollover' "$dir/s/reach.svg" &&
        grep -q '<svg' "$dir/s/nonqos.svg" && ok || bad "sweep_plot: $o"
    # plot.dat: QoS_reach of rollover at 0.9, as cases.csv gives it
    want=$(awk -F, '$1 == "rollover" && $4 == "0.9" { c++; m += $6 } END { printf "%.4f", 100 * m / c }' "$dir/s/cases.csv")
    got=$(awk '/^# rollover/ { r = 1; next } /^#/ { r = 0 } r && $1 == "0.9" { print $2 }' "$dir/s/plot.dat")
    [ "$got" = "$want" ] && ok || bad "plot.dat rollover 0.9: '$got', want '$want'"
fi
o=$("$plot" "$dir/none" 2>&1); [ $? = 1 ] && [ "$o" = "sweep_plot: $dir/none/cases.csv: cannot read it (run scripts/sweep.sh -o $dir/none first)" ] && ok || bad "plot of nothing: '$o'"

echo "sweep tests: $pass passed, $fail failed"
[ $fail -eq 0 ]
