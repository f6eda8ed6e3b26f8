#!/usr/bin/env bash
# timing.sh - logic depth per RTL unit and configuration: generic gate levels, iCE40 LUT levels, the
# critical path's end points, an FO4 estimate at the papers' 1216 MHz, and the targets.
#
# Usage: scripts/timing.sh OUTDIR CONFIG...        (`make timing` is the normal entry point)
#
# For every unit of hw/blocks.def (scripts/blocks.sh) and configuration, one Yosys at a time under
# `nice -n 10`:
#   generic  synth -flatten -noabc -top M; abc -g AND; opt_clean; write_json
#            -> AND-inverter graph; depth = AND2 levels on the longest register-to-register (or port)
#               path, inverters free (scripts/netdepth.py generic)
#   ice40    synth_ice40 -top M (without its final autoname); write_json
#            -> depth = SB_LUT4 levels on the longest path, its SB_CARRY cells counted beside
#               (scripts/netdepth.py ice40)
# Ports count as registers (out-of-context: a unit's inputs and outputs are assumed registered by
# its neighbours), so a path may start at an input or end at an output.
#
# FO4 estimate: FO4 = levels x FO4_PER_LEVEL + FO4_FLOP, with FO4_PER_LEVEL = 1.0 and FO4_FLOP = 3
# (documented in docs/timing.md: an AND2 level of the graph is a NAND2/NOR2 stage of fan-out about 2
# = (4/3 x 2 + 2) / 5 = 0.93 FO4 by logical effort; 3 FO4 of clock-to-Q, setup and skew per cycle).
# Targets: generic FO4 <= TARGET_FO4 (40: 1216 MHz is about 40 FO4 per cycle in the papers' 28 nm
# process) and iCE40 LUT levels <= TARGET_LUT (12) on small.
#
# Writes OUTDIR/timing.csv, OUTDIR/timing.md, OUTDIR/logs/UNIT.CONFIG.FLOW.{ys,log,res}.
# Results are cached in build/timing-cache keyed on the Yosys script, the sources, the includes, the
# configuration header, the Yosys version and netdepth.py (SMK_TIMING_CACHE=none: no cache).
#
# Environment:
#   SMK_TIMING_UNITS="u1 u2"      units (default: every unit of hw/blocks.def)
#   SMK_TIMING_SKIP="u:cfg[:flow] ..."  unit/configuration pairs (or one flow of them) not run
#                                 (default: sm_driver and gpu_top on gtx980 and pascal56: the flat
#                                 driver is 275K-1M generic cells and hours of Yosys; gpu_top on small
#                                 (ABC on its 113K flat gates ran over 10 minutes on a shared machine)
#                                 and the iCE40 flow of sm_driver on small (synth_ice40 spent over 20
#                                 minutes in resource sharing; the driver alone exceeds any iCE40);
#                                 docs/timing.md says so).
#                                 A skipped row or column says "not run".
#   SMK_TIMING_FLOWS="generic ice40"
set -euo pipefail
SELF=$(realpath "$0")
ROOT=$(cd "$(dirname "$SELF")/.." && pwd)
FO4_PER_LEVEL=1.0
FO4_FLOP=3
TARGET_FO4=40
TARGET_LUT=12
die() { echo "timing: ERROR: $*" >&2; exit 1; }

[ $# -ge 2 ] || die "usage: $0 OUTDIR CONFIG..."
mkdir -p "$1"
OUTDIR=$(cd "$1" && pwd)
shift
CONFIGS=("$@")
LOGDIR=$OUTDIR/logs
mkdir -p "$LOGDIR"
[[ "$LOGDIR$ROOT" != *[[:space:]]* ]] || die "OUTDIR and the repository path must not contain blanks"
command -v yosys >/dev/null || die "yosys not found (scripts/setup.sh)"
command -v python3 >/dev/null || die "python3 not found (scripts/setup.sh)"
YV=$(yosys -V | head -n 1)
read -r -a UNITS <<<"${SMK_TIMING_UNITS:-$(bash "$ROOT/scripts/blocks.sh" units | tr '\n' ' ')}"
read -r -a FLOWS <<<"${SMK_TIMING_FLOWS:-generic ice40}"
SKIP=${SMK_TIMING_SKIP-"sm_driver:gtx980 sm_driver:pascal56 gpu_top:gtx980 gpu_top:pascal56 gpu_top:small sm_driver:small:ice40"}
CACHE=${SMK_TIMING_CACHE:-$ROOT/build/timing-cache}
INCS=$(cd "$ROOT" && ls rtl/*.vh)
# synth_ice40 without its last step's autoname (hours on the driver's netlist in Yosys 0.23): the
# script up to the check label, then the rest of that label
ICE40_CHECK='hierarchy -check; check -noinit; blackbox =A:whitebox'


run_one() { # UNIT CONFIG FLOW -> LOGDIR/TAG.res = "depth carries cells start end cpu"
    local u=$1 c=$2 flow=$3 tag=$1.$2.$3 files synth key
    files=$(bash "$ROOT/scripts/blocks.sh" files "$u" | tr ' ' '\n' | sed "s|^|$ROOT/|" | tr '\n' ' ')
    case $flow in
        generic) synth="synth -flatten -noabc -top $u; abc -g AND; opt_clean" ;;
        ice40) synth="synth_ice40 -top $u -run :check; $ICE40_CHECK" ;;
        *) die "unknown flow $flow" ;;
    esac
    printf 'read_verilog -I %s -I %s %s\n%s\nstat\nwrite_json %s\n' "$ROOT/build/$c" "$ROOT/rtl" "$files" \
        "$synth" "$LOGDIR/$tag.json" >"$LOGDIR/$tag.ys"
    key=$( { sed "s|$LOGDIR|@|g; s|$ROOT|@R|g" "$LOGDIR/$tag.ys"; cat $files; (cd "$ROOT" && cat $INCS);
             cat "$ROOT/build/$c/smk_cfg.vh" "$ROOT/scripts/netdepth.py"; echo "$YV"; } | sha1sum | cut -c1-16)
    if [ "$CACHE" != none ] && [ -s "$CACHE/$key.res" ]; then
        cp "$CACHE/$key.res" "$LOGDIR/$tag.res"
        printf 'timing: cached %-32s %s\n' "$tag" "$(cat "$LOGDIR/$tag.res")"
        return
    fi
    (cd "$ROOT" && nice -n 10 yosys -q -l "$LOGDIR/$tag.log" -s "$LOGDIR/$tag.ys") >/dev/null 2>&1 ||
        die "yosys failed on $tag (log: $LOGDIR/$tag.log)"
    local cpu r
    cpu=$(sed -n 's/.*CPU: user \([0-9.]*\)s system \([0-9.]*\)s.*/\1 \2/p' "$LOGDIR/$tag.log" |
        awk 'END { if (NR) printf "%.0f", $1 + $2; else printf "?" }')
    r=$(python3 "$ROOT/scripts/netdepth.py" "$LOGDIR/$tag.json" "$u" "$flow") || die "netdepth failed on $tag"
    rm -f "$LOGDIR/$tag.json"
    # depth=N carries=C cells=L start=S end=E
    echo "$r" | sed 's/[a-z]*=//g' | awk -v cpu="$cpu" '{ print $1, $2, $3, $4, $5, cpu }' >"$LOGDIR/$tag.res"
    if [ "$CACHE" != none ]; then mkdir -p "$CACHE"; cp "$LOGDIR/$tag.res" "$CACHE/$key.res"; fi
    printf 'timing: done   %-32s %s\n' "$tag" "$(cat "$LOGDIR/$tag.res")"
}

for c in "${CONFIGS[@]}"; do
    [ -f "$ROOT/build/$c/smk_cfg.vh" ] || die "build/$c/smk_cfg.vh missing (make build/$c/smk_cfg.vh)"
done
T0=$(date +%s)
for c in "${CONFIGS[@]}"; do
    for u in "${UNITS[@]}"; do
        [[ " $SKIP " == *" $u:$c "* ]] && continue
        for f in "${FLOWS[@]}"; do [[ " $SKIP " == *" $u:$c:$f "* ]] || run_one "$u" "$c" "$f"; done
    done
done

rows=()
csv=("unit,config,and_levels,fo4,fo4_ok,generic_start,generic_end,lut_levels,carries,lut_ok,ice40_start,ice40_end")
for u in "${UNITS[@]}"; do
    for c in "${CONFIGS[@]}"; do
        if [[ " $SKIP " == *" $u:$c "* ]]; then
            rows+=("| $u | $c | not run | | | | | | |")
            continue
        fi
        g="- - - - - -" i="- - - - - -"
        [ -s "$LOGDIR/$u.$c.generic.res" ] && g=$(cat "$LOGDIR/$u.$c.generic.res")
        [ -s "$LOGDIR/$u.$c.ice40.res" ] && i=$(cat "$LOGDIR/$u.$c.ice40.res")
        read -r gd _ _ gs ge _ <<<"$g"
        read -r id ic _ is ie _ <<<"$i"
        fo4=- fok=- lok=-
        if [ "$gd" != - ]; then
            fo4=$(awk -v l="$gd" -v a="$FO4_PER_LEVEL" -v b="$FO4_FLOP" 'BEGIN { printf "%.0f", l * a + b }')
            fok=$([ "$fo4" -le "$TARGET_FO4" ] && echo yes || echo NO)
        fi
        [ "$id" = - ] || lok=$([ "$id" -le "$TARGET_LUT" ] && echo yes || echo NO)
        ipath="\`$is\` -> \`$ie\`" ilev="$id ($ic)"
        [ "$id" != - ] || { ipath="not run" ilev="-"; }
        rows+=("| $u | $c | $gd | $fo4 | $fok | \`$gs\` -> \`$ge\` | $ilev | $lok | $ipath |")
        csv+=("$u,$c,$gd,$fo4,$fok,$gs,$ge,$id,$ic,$lok,$is,$ie")
    done
done
printf '%s\n' "${csv[@]}" >"$OUTDIR/timing.csv"
{
    echo "| unit | config | AND2 levels | FO4 est. | <= $TARGET_FO4 FO4 | generic critical path | iCE40 LUT levels (carries) | <= $TARGET_LUT LUTs | iCE40 critical path |"
    echo "|---|---|--:|--:|---|---|--:|---|---|"
    printf '%s\n' "${rows[@]}"
} >"$OUTDIR/timing.md"
echo "timing: ${#CONFIGS[@]} configuration(s), $(($(date +%s) - T0)) s wall; $YV; wrote $OUTDIR/timing.md and timing.csv"
cat "$OUTDIR/timing.md"
