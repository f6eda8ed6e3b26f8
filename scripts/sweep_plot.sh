#!/usr/bin/env bash
# sweep_plot.sh DIR: draws DIR/cases.csv of scripts/sweep.sh with gnuplot (docs/sweep.md):
#   DIR/reach.svg    QoS_reach per goal, one line per method (the papers' pair figure)
#   DIR/nonqos.svg   mean normalised IPC of the non-QoS kernel per goal, one line per method
# Errors: one line on stderr, exit status 1.
set -u
die() { echo "sweep_plot: $*" >&2; exit 1; }
[ $# -eq 1 ] || die "usage: scripts/sweep_plot.sh DIR (the -o of scripts/sweep.sh)"
dir=$1 csv=$1/cases.csv
[ -r "$csv" ] || die "$csv: cannot read it (run scripts/sweep.sh -o $dir first)"
[ "$(head -1 "$csv")" = "method,qos,nonqos,goal,qos_norm,met,nonqos_norm,stp,antt,fairness" ] ||
    die "$csv:1: expected the header of scripts/sweep.sh's cases.csv"
[ "$(sed -n '2s/^[^,]*,[^,]*,[^,]*,\([^,]*\),.*/\1/p' "$csv")" != none ] ||
    die "$csv: a sweep without goals (-g none) has nothing to draw per goal (scripts/reproduce.sh draws the SMK chapter's figures)"
command -v gnuplot >/dev/null || die "gnuplot is not installed (scripts/setup.sh installs gnuplot-nox)"

# per method and goal: cases, met, sum of the non-QoS normalised IPC -> DIR/plot.dat, one block per
# method (gnuplot's index), goals in file order
awk -F, 'NR > 1 {
        if (!($1 in sm)) { sm[$1] = 1; m[++nm] = $1 }
        if (!($4 in sg)) { sg[$4] = 1; g[++ng] = $4 }
        k = $1 SUBSEP $4; c[k]++; met[k] += $6; nn[k] += $7 }
    END {
        for (i = 1; i <= nm; i++) {
            printf "# %s\n", m[i]
            for (j = 1; j <= ng; j++) { k = m[i] SUBSEP g[j]; if (c[k]) printf "%s %.4f %.4f\n", g[j], 100 * met[k] / c[k], nn[k] / c[k] }
            printf "\n\n"
        }
    }' "$csv" > "$dir/plot.dat" || die "$csv: cannot summarise it"
read -r -a methods <<< "$(awk -F, 'NR > 1 && !s[$1]++ { print $1 }' "$csv" | paste -sd' ')"
[ ${#methods[@]} -gt 0 ] || die "$csv: no cases"
params=$(cat "$dir/params" 2>/dev/null | sed 's/ smk=[^ ]*//;s/:[0-9a-f]\{12\}//')

plot() { # FILE YLABEL COLUMN YRANGE
    local cmd="" i
    for i in "${!methods[@]}"; do
        cmd+="${cmd:+, }'$dir/plot.dat' index $i using 1:$3 with linespoints lw 2 title '${methods[$i]}'"
    done
    gnuplot <<EOF || die "gnuplot failed on $1"
set terminal svg size 720,480 dynamic font 'sans,12'
set output '$1'
set title "${params//_/\\_}" font 'sans,9'
set xlabel 'QoS goal (fraction of isolated IPC)'
set ylabel '$2'
set yrange [$4]
set grid
set key outside right
plot $cmd
EOF
}
plot "$dir/reach.svg" 'QoS_reach (%)' 2 '0:100'
plot "$dir/nonqos.svg" 'non-QoS kernel, normalised IPC' 3 '0:*'
echo "sweep_plot: $dir/reach.svg $dir/nonqos.svg"
