#!/usr/bin/env bash
# test_reproduce.sh BUILD: scripts/reproduce.sh (docs/sweep.md "Every published figure") on a few short
# cases: three kernels, two goals, 20,000 cycles, every case set. Unsharded and as three shards merged
# it must give the same sets and the same report; the report's figures must be those of the sets'
# cases.csv, and a row's command must print the row's figure; Rollover-Time and free switching run
# with smk's own options, and an smk without them (a stand-in that refuses them) makes their rows say
# what they need.
set -u
b=${1:?usage: test_reproduce.sh BUILD (the folder of gtx980/smk and pascal56/smk: build)}
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here" || exit 1
b=$(cd "$b" && pwd) || exit 1
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
pass=0 fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
repro=scripts/reproduce.sh
small=(-B "$b" -k spmv,cutcp,lbm -g 0.5,0.9 -G 0.3,0.6 -c 20000)

# unsharded; then three shards, each in its own directory, merged
o=$("$repro" "${small[@]}" -j 2 -o "$dir/u" -d "$dir/u/doc.md" 2>&1) || bad "unsharded run: $o"
for i in 0 1 2; do o=$("$repro" "${small[@]}" -j 1 -o "$dir/s$i" --shard $i/3 2>&1) || bad "shard $i/3: $o"; done
[ ! -e "$dir/s0/doc.md" ] && [ ! -e "$dir/s0/pairs/cases.csv" ] && ok || bad "a shard wrote a report or a cases.csv"
o=$("$repro" "${small[@]}" -o "$dir/m" -d "$dir/m/doc.md" --merge "$dir/s0" "$dir/s1" "$dir/s2" 2>&1) || bad "merge: $o"
for s in pairs trio1 trio2 pairs56 smk45 ctxfree rtime nohist notlp; do
    [ -s "$dir/u/$s/cases.csv" ] && cmp -s "$dir/u/$s/cases.csv" "$dir/m/$s/cases.csv" && cmp -s "$dir/u/$s/summary.txt" "$dir/m/$s/summary.txt" &&
        ok || bad "set $s: merged shards differ from the unsharded run"
done
# the same report but for its directory and the CPU time
norm() { sed "s|$dir/[um]|DIR|g" "$1" | grep -v '^CPU time of the runs'; }
[ "$(norm "$dir/u/doc.md")" = "$(norm "$dir/m/doc.md")" ] && ok || bad "the merged report differs: $(diff <(norm "$dir/u/doc.md") <(norm "$dir/m/doc.md") | head -5)"
grep -q '^CPU time of the runs: [0-9]* s (.*) over [0-9]* runs' "$dir/m/doc.md" && ok || bad "no CPU time in the report"

# the archive: every set packed (complete or not), unpacked into an empty directory, gives the same
# report without simulating; a packed set already there unpacks nothing
o=$("$repro" "${small[@]}" -o "$dir/m" --pack "$dir/arch" 2>&1) || bad "pack: $o"
o=$("$repro" "${small[@]}" -o "$dir/p" --unpack "$dir/arch" 2>&1) || bad "unpack: $o"
o=$("$repro" "${small[@]}" -o "$dir/p" -d "$dir/p/doc.md" -r 2>&1) || bad "the report of the unpacked sets: $o"
[ "$(norm "$dir/m/doc.md")" = "$(norm "$dir/p/doc.md" | sed "s|$dir/p|DIR|g")" ] && ok || bad "the unpacked report differs: $(diff <(norm "$dir/m/doc.md") <(norm "$dir/p/doc.md" | sed "s|$dir/p|DIR|g") | head -5)"
o=$("$repro" "${small[@]}" -o "$dir/p" -x pairs --unpack "$dir/arch" 2>&1) && [[ $o == "reproduce: pairs: 0 of "*" runs unpacked from $dir/arch/pairs.tsv into $dir/p/pairs" ]] && ok || bad "unpack over itself: '$o'"
# a damaged archive is refused before anything is written, with its file and line
sed '3s/\t/ /' "$dir/arch/pairs.tsv" > "$dir/pairs.tsv" && mkdir -p "$dir/bad" && mv "$dir/pairs.tsv" "$dir/bad/"
o=$("$repro" "${small[@]}" -o "$dir/q" -x pairs --unpack "$dir/bad" 2>&1); rc=$?
[ $rc = 1 ] && [ ! -e "$dir/q/pairs" ] && [[ $o == "reproduce: $dir/bad/pairs.tsv:3: expected \"NAME.csv<TAB>ROW\""* ]] && ok || bad "damaged archive: rc $rc, '$o'"
sed '1s/ seed=1 / seed=2 /' "$dir/arch/pairs.tsv" > "$dir/bad/pairs.tsv"
o=$("$repro" "${small[@]}" -o "$dir/p" -x pairs --unpack "$dir/bad" 2>&1); rc=$?
[ $rc = 1 ] && [[ $o == "reproduce: --unpack: $dir/p/pairs holds a sweep with other parameters"* ]] && ok || bad "archive of other parameters: rc $rc, '$o'"

# every figure has its plot, drawn with the series of the paper
if command -v gnuplot > /dev/null; then
    for f in fig6a:Elastic fig7:Rollover fig8a:Spart fig9:Rollover fig6b:Spart fig8b:Rollover fig6c:Rollover fig8c:Spart \
             fig12:Rollover fig13:Spart fig2-9:'SMK-(P+W)' fig2-11:Spart fig2-10:SMK-P cal4:SMK; do
        n=${f%%:*}
        grep -q '<svg' "$dir/m/doc/$n.svg" 2>/dev/null && grep -qF ">${f#*:}<" "$dir/m/doc/$n.svg" && grep -qF "(doc/$n.svg)" "$dir/m/doc.md" &&
            ok || bad "plot $n: missing, without ${f#*:} or not in the report"
    done
fi

# a row of the report: row FILE LABEL -> its cells, one per line (label, published, where, ours, difference, command)
row() { grep -F "| $2 |" "$1" | head -1 | sed 's/^| //;s/ |$//;s/`//g' | awk -F' [|] ' '{ for (i = 1; i <= NF; i++) print $i }'; }
cell() { row "$1" "$2" | sed -n "${3}p"; }
c=$dir/m/pairs/cases.csv
# ours against cases.csv, recomputed here
want=$(awk -F, '$1 == "rollover" { n++; m += $6 } END { printf "%.1f%%", 100 * m / n }' "$c")
[ "$(cell "$dir/m/doc.md" Rollover 4)" = "$want" ] && ok || bad "Figure 6a Rollover: '$(cell "$dir/m/doc.md" Rollover 4)', want $want"
want=$(awk -F, '$6 == 1 && $1 == "rollover" { r += $7; nr++ } $6 == 1 && $1 == "spart-hc" { s += $7; ns++ }
    END { printf "%+.1f%%", 100 * ((r / nr) / (s / ns) - 1) }' "$c")
got=$(grep -A6 '^### Figure 8a' "$dir/m/doc.md" | grep -F '| Rollover over Spart |' | awk -F' [|] ' '{ print $4 }')
[ "$got" = "$want" ] && ok || bad "Figure 8a Rollover over Spart: '$got', want $want"
# the same over the cases both methods meet (a case: QoS kernel, non-QoS kernel, goal)
want=$(awk -F, 'NR > 1 { k = $2 SUBSEP $3 SUBSEP $4; met[$1, k] = $6; nn[$1, k] = $7; if ($1 == "rollover") key[k] }
    END { for (k in key) if (met["rollover", k] == 1 && met["spart-hc", k] == 1) { r += nn["rollover", k]; s += nn["spart-hc", k] }
          if (s > 0) printf "%+.1f%%", 100 * (r / s - 1) }' "$c")
got=$(cell "$dir/m/doc.md" "Rollover over Spart, both met" 4)
[ -n "$want" ] && [ "$got" = "$want" ] && ok || bad "Figure 8a Rollover over Spart, both met: '$got', want '$want'"
want=$(awk -F, '$1 == "spart-hc" && $2 == "cutcp" { n++; m += $6 } END { printf "%.1f%%", 100 * m / n }' "$c")
[ "$(cell "$dir/m/doc.md" "cutcp: Spart" 4)" = "$want" ] && ok || bad "Figure 7 cutcp Spart: '$(cell "$dir/m/doc.md" "cutcp: Spart" 4)', want $want"
want=$(awk -F, '$1 == "smkp-w" { n++; f += $10 } END { printf "%.2f", f / n }' "$dir/m/smk45/cases.csv")
[ "$(cell "$dir/m/doc.md" "fairness, SMK-(P+W)" 4)" = "$want" ] && [ "$(cell "$dir/m/doc.md" "fairness, SMK-(P+W)" 5)" = "$(awk -v w="$want" 'BEGIN { printf "%+.2f", w - 0.74 }')" ] &&
    ok || bad "Figure 2-9 fairness of SMK-(P+W): '$(row "$dir/m/doc.md" "fairness, SMK-(P+W)" | paste -sd'|')', want $want"
want=$(awk -F, '$1 == "smkp-w" { w[$2 "+" $3] = $8 } $1 == "spart" { s[$2 "+" $3] = $8 }
    END { for (p in w) { r = 100 * (w[p] / s[p] - 1); if (best == "" || r > br) { best = p; br = r } } printf "%s %+.1f%%", best, br }' "$dir/m/smk45/cases.csv")
got=$(grep -F '| STP, SMK-(P+W) over Spart, the best pair (' "$dir/m/doc.md" | sed 's/.*best pair (\([^)]*\)) .*/\1/')" $(cell "$dir/m/doc.md" "STP, SMK-(P+W) over Spart, the best pair ($(echo "$want" | cut -d' ' -f1))" 4)"
[ "$got" = "$want" ] && ok || bad "Figure 2-11 best pair: '$got', want '$want'"

# Rollover-Time and free switching: run by smk itself (smk run --scheme rollover-time, --ctx-free);
# their rows recomputed from the sets' cases.csv: the pairs set's Rollover QoS_reach minus the rtime
# set's, and 100 x (1 - mean non-QoS normalised IPC of Rollover / the same with free switching)
want=$(awk -F, 'FNR == 1 { f++ } f == 1 && $1 == "rollover" { n1++; m1 += $6 } f == 2 && $1 == "rollover-time" { n2++; m2 += $6 }
    END { if (n1 && n2) printf "%.1f%%", 100 * m1 / n1 - 100 * m2 / n2 }' "$c" "$dir/m/rtime/cases.csv")
[ -n "$want" ] && [ "$(cell "$dir/m/doc.md" "QoS_reach, Rollover (the pairs set) minus Rollover-Time" 4)" = "$want" ] && ok ||
    bad "Rollover-Time's QoS_reach row: '$(cell "$dir/m/doc.md" "QoS_reach, Rollover (the pairs set) minus Rollover-Time" 4)', want '$want'"
# the Rollover-Time study's paragraph: the mean STP of each set, and the per-case ratios' median
want=$(awk -F, 'FNR == 1 { f++; next } f == 1 && $1 == "rollover" { n1++; a += $8 } f == 2 && $1 == "rollover-time" { n2++; b += $8 }
    END { if (n1 && n2) printf "its mean STP is %.3f against Rollover'"'"'s %.3f", b / n2, a / n1 }' "$c" "$dir/m/rtime/cases.csv")
med=$(awk -F, 'FNR == 1 { f++; next } f == 1 && $1 == "rollover" { m[$2, $3, $4] = $6; n[$2, $3, $4] = $7 }
    f == 2 && $1 == "rollover-time" && $6 == 1 && m[$2, $3, $4] == 1 && $7 > 0 { print n[$2, $3, $4] / $7 }' "$c" "$dir/m/rtime/cases.csv" |
    sort -g | awk '{ v[NR] = $1 } END { if (NR) printf "median of %.2f,", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
para=$(sed -n '/^\*\*Why the ratio is larger here/,/^$/p' "$dir/m/doc.md" | tr '\n' ' ')
[ -n "$want" ] && [ -n "$med" ] && [[ "$para" == *"$want"* ]] && [[ "$para" == *"$med"* ]] && ok ||
    bad "the Rollover-Time study: want '$want' and '$med' in '$(cut -c1-300 <<< "$para")'"
# ISCA'17 4.8's ablations: Naive's QoS_reach over Naive's with alpha held at 1 (the nohist set, run
# with smk run --qos-hist off), the M+M non-QoS throughput of Rollover over Rollover without TB reallocation
want=$(awk -F, 'FNR == 1 { f++; next } $1 == "naive" { n[f]++; m[f] += $6 } END { if (m[2] > 0) printf "%+.1f%%", 100 * (m[1] / n[1] / (m[2] / n[2]) - 1) }' \
    "$c" "$dir/m/nohist/cases.csv")
got=$(cell "$dir/m/doc.md" "history-based adjustment on against off: QoS_reach, Naive (the pairs set) over Naive with alpha held at 1" 4)
[ -n "$want" ] && [ "$got" = "$want" ] && grep -q " args=--qos-hist off$" "$dir/m/nohist/params" && ok || bad "the history row: '$got', want '$want'"
want=$(awk -F, -v ck=" cutcp mri-q sgemm tpacf " 'FNR == 1 { f++; next }
    $1 == "rollover" && $6 == 1 && !index(ck, " " $2 " ") && !index(ck, " " $3 " ") { n[f]++; x[f] += $7 }
    END { if (n[1] && n[2] && x[2] > 0) printf "%+.1f%%", 100 * (x[1] / n[1] / (x[2] / n[2]) - 1) }' "$c" "$dir/m/notlp/cases.csv")
lab="static resource management on against off: non-QoS kernel (met), M+M, Rollover (the pairs set) over Rollover without TB reallocation"
got=$(cell "$dir/m/doc.md" "$lab" 4)
[ -n "$want" ] && [ "$got" = "$want" ] && grep -q " args=--qos-tlp off$" "$dir/m/notlp/params" && ok || bad "the static-management row: '$got', want '$want'"
fslab="preemption cost: non-QoS kernel's normalised IPC (all cases), Rollover (the pairs set) against Rollover with free switching"
want=$(awk -F, 'FNR == 1 { f++ } f == 1 && $1 == "rollover" { n1++; a += $7 } f == 2 && $1 == "rollover" { n2++; b += $7 }
    END { if (n1 && n2 && b > 0) printf "%.1f%%", 100 * (1 - (a / n1) / (b / n2)) }' "$c" "$dir/m/ctxfree/cases.csv")
[ -n "$want" ] && [ "$(cell "$dir/m/doc.md" "$fslab" 4)" = "$want" ] && grep -q ' args=--ctx-free$' "$dir/m/ctxfree/params" && ok ||
    bad "the free-switching row: '$(cell "$dir/m/doc.md" "$fslab" 4)', want '$want'"
# a row's command prints the row's figure (QoS_reach, fairness in the sweep's summary); it simulates nothing
cmdof() { cell "$dir/m/doc.md" "$1" 6; }
for r in "Rollover#rollover" "cutcp: Spart#spart-hc"; do
    IFS='#' read -r lab m <<< "$r"
    o=$(eval "$(cmdof "$lab")" 2>/dev/null | awk -v m="$m" '$1 == m && NF == 10 { print $4 }')
    [ -n "$o" ] && [ "$o" = "$(cell "$dir/m/doc.md" "$lab" 4)" ] && ok || bad "the command of '$lab' prints '$o', the row '$(cell "$dir/m/doc.md" "$lab" 4)'"
done
o=$(eval "$(cmdof "fairness, SMK-(P+W)")" 2>/dev/null | awk '$1 == "smkp-w" { printf "%.2f", $5 }')
[ "$o" = "$(cell "$dir/m/doc.md" "fairness, SMK-(P+W)" 4)" ] && ok || bad "the command of the SMK-(P+W) fairness prints '$o'"
find "$dir/m" -name '*.cpu' | grep -q . && bad "a row's command left a run behind" || ok

# ... and with an smk that lacks the options (a stand-in that refuses them) the sets are skipped and
# their rows say what they need
mkdir -p "$dir/fake/gtx980" "$dir/fake/pascal56" && ln -s "$b/pascal56/smk" "$dir/fake/pascal56/smk"
printf '#!/usr/bin/env bash\nfor x in "$@"; do case $x in --ctx-free|rollover-time) echo "smk: no $x" >&2; exit 1 ;; esac; done\nexec %s "$@"\n' \
    "$b/gtx980/smk" > "$dir/fake/gtx980/smk" && chmod +x "$dir/fake/gtx980/smk"
o=$("$repro" -B "$dir/fake" -k spmv,cutcp,lbm -g 0.5,0.9 -c 20000 -m rollover,rollover-time -x ctxfree,rtime -j 2 -o "$dir/f" -d "$dir/f/doc.md" 2>&1) || bad "stand-in run: $o"
grep -qF "| $fslab | 1.93% (\"the preemption overhead is 1.93% on the throughput of non-QoS kernels\") | 4.8 | not yet measured: needs smk run --ctx-free" "$dir/f/doc.md" &&
    grep -qF '| QoS_reach, Rollover (the pairs set) minus Rollover-Time | 3 points ("both schemes have similar QoS_reach with a difference of only 3% on average") | 4.5 | not yet measured: needs smk run --scheme rollover-time' "$dir/f/doc.md" &&
    [ ! -e "$dir/f/rtime/cases.csv" ] && ok || bad "an smk without the options: the rows do not say what they need: $(grep -F -e 'free switching |' -e 'Rollover-Time |' "$dir/f/doc.md" | cut -c1-200)"

# bad uses: one line, exit status 1
err() { # WANT ARGS...
    local want=$1 o rc; shift
    o=$("$repro" "$@" 2>&1); rc=$?
    [ $rc = 1 ] && [ "$o" = "reproduce: $want" ] && ok || bad "reproduce.sh $*: rc $rc, '$o', want 'reproduce: $want'"
}
err '-x pairs,nosuch: unknown set "nosuch" (pairs,trio1,trio2,pairs56,smk45,ctxfree,rtime,nohist,notlp)' -x pairs,nosuch
err '--shard 3/3: expected I/N, 0 <= I < N' --shard 3/3
err '-k spmv,nosuch: no kernel "nosuch" in cmodel/sim/workloads/parboil.wl' -k spmv,nosuch
err 'unknown option -q (see scripts/reproduce.sh -h)' -q

echo "reproduce tests: $pass passed, $fail failed"
[ $fail -eq 0 ]
