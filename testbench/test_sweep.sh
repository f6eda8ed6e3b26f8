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

# CPU seconds: the last field of every run file, not in cases.csv
awk -F, 'NF != 11 || $11 !~ /^[0-9]+\.[0-9][0-9][0-9]$/ { exit 1 }' "$dir"/s/runs/*:*.csv && grep -q '^36 cases: .* s CPU' "$dir/s/cpu.txt" &&
    ok || bad "run files without their CPU seconds: $(head -1 "$dir/s/runs/rollover:lbm:histo:0.9.csv"), $(cat "$dir/s/cpu.txt")"

# shards: case c of the list is shard c mod 3's; three shards in their own directories, merged, give
# byte for byte the unsharded sweep's files; so do three shards run at once in one directory
for i in 0 1 2; do "$sweep" "${args[@]}" -j 1 -o "$dir/p$i" --shard $i/3 > /dev/null 2>&1 || bad "shard $i/3 failed"; done
[ "$(cat "$dir"/p?/shard-?-of-3.list | sort)" = "$(sort "$dir/s/list")" ] &&
    [ "$(sed -n 5p "$dir/s/list")" = "$(sed -n 2p "$dir/p1/shard-1-of-3.list")" ] && [ "$(wc -l < "$dir/p2/shard-2-of-3.list")" = 12 ] &&
    ok || bad "shards: not the split of case c to shard c mod 3"
[ ! -e "$dir/p0/cases.csv" ] && [ ! -e "$dir/p0/summary.txt" ] && ok || bad "a shard wrote the sweep's files"
o=$("$sweep" "${args[@]}" -o "$dir/m" --merge "$dir/p0" "$dir/p1" "$dir/p2" 2>&1) || bad "merge failed: $o"
for f in cases.csv summary.txt iso.csv; do cmp -s "$dir/s/$f" "$dir/m/$f" && ok || bad "3 shards merged: $f differs from the unsharded sweep's"; done
for i in 0 1 2; do # through the Slurm wrapper, as tasks 0..2 of an array --array=0-2 with one CPU each
    SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_MAX=2 SLURM_ARRAY_TASK_COUNT=3 SLURM_CPUS_PER_TASK=1 \
        "$here/scripts/slurm_shard.sh" "$sweep" "${args[@]}" -o "$dir/q" > /dev/null 2>&1 &
done; wait
[ "$(cat "$dir/q/shard-1-of-3.list")" = "$(cat "$dir/p1/shard-1-of-3.list")" ] && ok || bad "slurm_shard.sh: task 1 of 3 did not run shard 1/3"
o=$("$sweep" "${args[@]}" -o "$dir/q" --merge 2>&1) && cmp -s "$dir/s/cases.csv" "$dir/q/cases.csv" && cmp -s "$dir/s/summary.txt" "$dir/q/summary.txt" &&
    ok || bad "3 shards at once in one directory, merged: other results ($o)"
# a merge with a shard missing, with two copies of a run that differ, with other parameters: refused
e=$("$sweep" "${args[@]}" -o "$dir/m2" --merge "$dir/p0" "$dir/p2" 2>&1); rc=$?
[ $rc = 1 ] && [ "$e" = "sweep: --merge: 12 of 39 runs missing (the first: $(head -1 "$dir/p1/shard-1-of-3.list" | tr ' ' :).csv); run their shards first" ] &&
    [ ! -e "$dir/m2/cases.csv" ] && ok || bad "merge without shard 1: rc $rc, '$e'"
f=$(head -1 "$dir/p0/shard-0-of-3.list" | tr ' ' :).csv
awk -F, -v OFS=, '{ $5 = $5 + 0.5; print }' "$dir/p0/runs/$f" > "$dir/p1/runs/$f"
e=$("$sweep" "${args[@]}" -o "$dir/m3" --merge "$dir/p0" "$dir/p1" "$dir/p2" 2>&1); rc=$?
[ $rc = 1 ] && grep -q "^sweep: --merge: $dir/p0/runs/$f and $dir/p1/runs/$f differ (another model or machine?): " <<< "$e" &&
    ok || bad "merge of differing copies: rc $rc, '$e'"
e=$("$sweep" "${args[@]}" -s 4 -o "$dir/m4" --merge "$dir/p0" 2>&1); rc=$?
[ $rc = 1 ] && grep -q "^sweep: --merge $dir/p0: other parameters (config=gtx980 .* seed=3 epoch=10000) than this sweep's (.* seed=4 epoch=10000)$" <<< "$e" &&
    ok || bad "merge of other parameters: rc $rc, '$e'"

# -I: the isolated runs of another sweep of the same parameters, not simulated again (0 CPU seconds)
"$sweep" "${args[@]}" -m rollover -g 0.9 -I "$dir/s" -o "$dir/i" > /dev/null 2>&1 && cmp -s "$dir/s/iso.csv" "$dir/i/iso.csv" &&
    [ "$(cut -d, -f5 "$dir/i/runs/iso_lbm.csv")" = 0 ] && [ "$(grep ^rollover "$dir/i/cases.csv")" = "$(grep '^rollover,.*,0.9,' "$dir/s/cases.csv")" ] &&
    ok || bad "-I: $(cat "$dir/i/runs/iso_lbm.csv" 2>&1)"

# --rekey: the same binary with a byte appended (another checksum, the same model): 5 sampled cases
# and the 3 isolated runs rerun, every result equal, so params takes the new checksum and rekey.log
# says so; a set whose results the binary does not give, or of other parameters, is refused
cp -r "$dir/s" "$dir/rk"; cp -r "$dir/s" "$dir/rk2"
{ cat "$smk"; printf '\0'; } > "$dir/smk2"; chmod +x "$dir/smk2"
rargs=("${args[@]}"); rargs[1]=$dir/smk2
sha2=$(sha1sum < "$dir/smk2" | cut -c1-12) sha1=$(sha1sum < "$smk" | cut -c1-12)
o=$("$sweep" "${rargs[@]}" -o "$dir/rk" --rekey 5,7 2>&1)
[ "$(sed "s/ smk=$sha2 / smk=$sha1 /" "$dir/rk/params")" = "$(cat "$dir/s/params")" ] && grep -q " smk=$sha2 " "$dir/rk/params" &&
    [ "$(cat "$dir/rk/rekey.log")" = "smk=$sha1 -> smk=$sha2: 3 isolated runs and 5 of 36 cases (sample seed 7) rerun with the new binary, every result identical" ] &&
    cmp -s "$dir/s/cases.csv" "$dir/rk/cases.csv" && [ -z "$(ls -d "$dir"/rk/rekey.* | grep -v rekey.log)" ] && ok || bad "--rekey: $o"
o=$("$sweep" "${rargs[@]}" -o "$dir/rk" --rekey 5,7 2>&1) && [ "$o" = "sweep: --rekey: $dir/rk already holds this binary's sweep; nothing to do" ] &&
    ok || bad "--rekey twice: '$o'"
for f in "$dir"/rk2/runs/*:*.csv; do awk -F, -v OFS=, '{ $5 = $5 + 0.5; print }' "$f" > "$f.t" && mv "$f.t" "$f"; done
e=$("$sweep" "${rargs[@]}" -o "$dir/rk2" --rekey 2 2>&1); rc=$?
[ $rc = 1 ] && grep -q "^sweep: --rekey: [a-z]*:[a-z]*:[a-z]*:0\.[59]\.csv differs with -b $dir/smk2 (.*) from $dir/rk2's (.*): the binary changed this set's results; run it again" <<< "$e" &&
    cmp -s "$dir/rk2/params" "$dir/s/params" && [ ! -e "$dir/rk2/rekey.log" ] && ok || bad "--rekey of other results: rc $rc, '$e'"
cp -r "$dir/i" "$dir/rki" # isolated runs copied from another sweep (-I): its own sweep checks them
o=$("$sweep" "${rargs[@]}" -m rollover -g 0.9 -o "$dir/rki" --rekey 2 2>&1)
[ "$(tail -1 <<< "$o")" = "sweep: --rekey: smk=$sha1 -> smk=$sha2: 0 isolated runs and 2 of 6 cases (sample seed 1) rerun with the new binary, every result identical" ] &&
    [ "$(wc -l <<< "$o")" = 2 ] && ok || bad "--rekey with copied isolated runs: '$o'"
e=$("$sweep" "${rargs[@]}" -c 40000 -o "$dir/rk2" --rekey 2 2>&1); rc=$?
[ $rc = 1 ] && grep -q "^sweep: --rekey: $dir/rk2 holds a sweep with other parameters than the binary's checksum" <<< "$e" && ok || bad "--rekey, another length: rc $rc, '$e'"

# without goals (-g none): the unordered pairs, a before b, each method; a case is the row of plain
# smk run (smkp, scheme smk: SMK-(P+W)); the summary's means are those of cases.csv
"$sweep" -b "$smk" -w "$wl" -k spmv,lbm,histo -g none -c 30000 -s 3 -j 2 -o "$dir/n" > /dev/null 2>&1 || bad "sweep -g none failed"
[ "$(sed 1d "$dir/n/cases.csv" | cut -d, -f1-4 | paste -sd' ')" = "smk,spmv,lbm,none smk,spmv,histo,none smk,lbm,histo,none smkp,spmv,lbm,none smkp,spmv,histo,none smkp,lbm,histo,none smkp-w,spmv,lbm,none smkp-w,spmv,histo,none smkp-w,lbm,histo,none spart,spmv,lbm,none spart,spmv,histo,none spart,lbm,histo,none" ] &&
    ok || bad "-g none: cases $(sed 1d "$dir/n/cases.csv" | cut -d, -f1-4 | paste -sd' ')"
want=$("$smk" run --config gtx980 --workload "$wl" --kernels lbm,histo --policy smkp --scheme smk --cycles 30000 --seed 3 --csv |
    awk -F, 'NR == 2 { a = $12 } NR == 3 { printf "smkp-w,lbm,histo,none,%s,-,%s,%s,%s,%s\n", a, $12, $14, $15, $16 }')
[ "$(grep '^smkp-w,lbm,histo,' "$dir/n/cases.csv")" = "$want" ] && ok || bad "-g none case: '$(grep '^smkp-w,lbm,histo,' "$dir/n/cases.csv")', smk run '$want'"
want=$(awk -F, '$1 == "smkp" { c++; s += $8; a += $9; f += $10 } END { printf "smkp 3 %.3f %.3f %.3f", s / c, a / c, f / c }' "$dir/n/cases.csv")
[ "$(awk '$1 == "smkp" { print $1, $2, $3, $4, $5 }' "$dir/n/summary.txt")" = "$want" ] && ok || bad "-g none summary: $(cat "$dir/n/summary.txt"), want $want"
# -Q, -N: the pairs of a QoS kernel in -Q and a non-QoS kernel in -N only (without goals: a and b)
"$sweep" -b "$smk" -w "$wl" -k spmv,lbm,histo,sad -Q sad,lbm -N spmv,sad -g 0.5 -m naive -c 2000 -o "$dir/qn" > /dev/null 2>&1
"$sweep" -b "$smk" -w "$wl" -k spmv,lbm,histo,sad -Q spmv -N histo,sad -g none -m smk -c 2000 -o "$dir/qn2" > /dev/null 2>&1
[ "$(cut -d' ' -f2,3 "$dir/qn/list" | paste -sd,)" = "lbm spmv,lbm sad,sad spmv" ] && [ "$(cut -d' ' -f2,3 "$dir/qn2/list" | paste -sd,)" = "spmv histo,spmv sad" ] &&
    ok || bad "-Q/-N: pairs $(cut -d' ' -f2,3 "$dir/qn/list" | paste -sd,), without goals $(cut -d' ' -f2,3 "$dir/qn2/list" | paste -sd,)"
# -a: more smk run options, in every run and in params
"$sweep" -b "$smk" -w "$wl" -k histo,lbm -g none -m spart -a '--evict drain' -c 30000 -s 3 -j 2 -o "$dir/a" > /dev/null 2>&1
want=$("$smk" run --config gtx980 --workload "$wl" --kernels histo,lbm --policy spart --evict drain --cycles 30000 --seed 3 --csv |
    awk -F, 'NR == 2 { a = $12 } NR == 3 { printf "spart,histo,lbm,none,%s,-,%s,%s,%s,%s\n", a, $12, $14, $15, $16 }')
[ "$(sed 1d "$dir/a/cases.csv")" = "$want" ] && grep -q ' args=--evict drain$' "$dir/a/params" && ok || bad "-a: '$(sed 1d "$dir/a/cases.csv")', smk run '$want'"

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
err '-g 0.5,1.5: "1.5" is not a goal 0 < F <= 1 with at most 4 decimals (or none)' -k lbm,spmv -g 0.5,1.5
err '-g 0: "0" is not a goal 0 < F <= 1 with at most 4 decimals (or none)' -k lbm,spmv -g 0
err '-m rollover,fair: unknown method "fair" (rollover | elastic | naive | rollover-time | spart | spart-hc | smk | smkp | smkp-w)' -k lbm,spmv -m rollover,fair
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
err '--shard 3/3: expected I/N, 0 <= I < N' -k lbm,spmv --shard 3/3
err '--shard 1: expected I/N, 0 <= I < N' -k lbm,spmv --shard 1
err '--shard and --merge: one or the other' -k lbm,spmv --shard 0/2 --merge
err '--rekey: not with --shard or --merge' -k lbm,spmv --shard 0/2 --rekey 3
err '--rekey 0: expected N[,SEED] (N >= 1 cases, SEED an unsigned integer)' -k lbm,spmv --rekey 0
err "--rekey: $dir/e holds no sweep (no params)" -k lbm,spmv --rekey 3
err 'unknown option --shards (see scripts/sweep.sh -h)' --shards 0/2
err '--merge /nonexistent: not a sweep directory (no params)' -k lbm,spmv -g 0.5 -m naive -c 1000 --merge /nonexistent
err '-g none: only for pairs (a trio'"'"'s roles need goals)' -k lbm,spmv,histo -t 1 -g none
err '-m rollover: "rollover" needs QoS goals (not -g none)' -k lbm,spmv -g none -m rollover
err '-m smkp-w: "smkp-w" runs without goals (-g none)' -k lbm,spmv -m smkp-w
err '-a --goal lbm=0.5: --goal is set by the sweep itself' -k lbm,spmv -a '--goal lbm=0.5'
err '-Q lbm: only for pairs' -k lbm,spmv,sad -t 1 -Q lbm
err '-N sad: "sad" is not one of the kernels (-k)' -k lbm,spmv -N sad
err '-Q lbm -N lbm: no pair of -k lbm,spmv has its QoS kernel in -Q and its non-QoS kernel in -N' -k lbm,spmv -Q lbm -N lbm
o=$(SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_MAX=3 "$here/scripts/slurm_shard.sh" "$sweep" 2>&1); rc=$?
[ $rc = 1 ] && [ "$o" = "slurm_shard: the array must be --array=0-(N-1) (this one: min 1, max 3, step 1, 4 tasks)" ] && ok || bad "slurm_shard.sh --array=1-3: rc $rc, '$o'"
err "-k lbm,nosuch: no kernel \"nosuch\" in $wl (its kernels: cutcp mri-q sgemm tpacf histo lbm mri-gridding sad spmv stencil)" -w "$wl" -k lbm,nosuch -g 0.5 -m naive -c 1000
err '-k tpacf,,spmv: an empty name in the list' -k tpacf,,spmv
err '-k tpacf,spmv,: an empty name in the list' -k tpacf,spmv,
# the kernels are smk check's: a CRLF file and a comment glued to a kernel's name work as smk reads them
sed 's/$/\r/' "$wl" > "$dir/crlf.wl"; sed 's/^kernel cutcp.*/kernel cutcp#comment/' "$wl" > "$dir/cm.wl"
for w in crlf cm; do
    o=$("$sweep" -b "$smk" -w "$dir/$w.wl" -g 0.5 -m naive -Q cutcp -N spmv -c 1000 -o "$dir/$w" 2>&1) &&
        [ "$(cut -d, -f1 "$dir/$w/iso.csv" | paste -sd' ')" = "kernel cutcp mri-q sgemm tpacf histo lbm mri-gridding sad spmv stencil" ] &&
        [ "$(sed 1d "$dir/$w/cases.csv" | cut -d, -f1-4)" = "naive,cutcp,spmv,0.5" ] && ok || bad "$w workload: $o"
done
printf 'machine\n' > "$dir/bad.wl"
o=$("$sweep" -b "$smk" -w "$dir/bad.wl" -o "$dir/e2" 2>&1); rc=$?
[ $rc = 1 ] && [ "$(wc -l <<< "$o")" = 1 ] && grep -q "^smk: $dir/bad.wl:" <<< "$o" && ok || bad "bad workload: rc $rc, '$o'"

# a signal to the sweep stops its runs too: xargs and every smk it started (a stand-in smk whose runs
# sleep), none left running beside a resume
mkdir -p "$dir/stub"; : > "$dir/kill.wl"
cat > "$dir/stub/smk" <<STUB
#!/usr/bin/env bash
case \$1 in
--help) echo "This binary simulates configuration 'gtx980' (16 SMs x 64 warps); --config must name it." ;;
check) echo "\$3: OK, 2 kernels: a b (fit configuration gtx980)" ;;
run) echo \$\$ >> "$dir/stub/runs"; exec sleep 300 ;;
esac
STUB
chmod +x "$dir/stub/smk"
"$sweep" -b "$dir/stub/smk" -w "$dir/kill.wl" -k a,b -g 0.5 -m naive -c 1000 -j 2 -o "$dir/kill" > /dev/null 2> "$dir/kill.err" &
spid=$!
for i in $(seq 1 100); do [ "$(wc -l 2> /dev/null < "$dir/stub/runs")" = 2 ] && break; sleep 0.1; done
kill -TERM $spid; wait $spid; rc=$?
sleep 0.5
alive() { local st; st=$(ps -o stat= -p "$1" 2> /dev/null) && [[ $st != Z* ]]; } # a zombie is dead (its reaper may be slow)
left=$(for p in $(cat "$dir/stub/runs" 2> /dev/null) $(pgrep -f "$dir/kill.wl"); do alive "$p" && echo "$p"; done)
[ "$(wc -l < "$dir/stub/runs")" = 2 ] && [ $rc = 143 ] && [ -z "$left" ] &&
    [ "$(cat "$dir/kill.err")" = "sweep: stopped by SIGTERM; its runs stopped; the runs done are kept: rerun to resume" ] &&
    ok || bad "kill -TERM of the sweep: rc $rc, $(cat "$dir/kill.err"), processes left: $(ps -o pid=,args= -p "$(echo $left | tr ' ' ,)" 2> /dev/null)"
for p in $left; do kill "$p" 2> /dev/null; done # what a failed check left

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
