#!/usr/bin/env bash
# sweep.sh: the papers' pair and trio evaluation (docs/papers.md section 6, docs/sweep.md) on the C model.
#
# Pairs (default): every ordered pair (QoS kernel, non-QoS kernel) of the kernels, every goal and
# every method is one `smk run` of CYCLES cycles. Trios (-t 1 or -t 2): every set of three kernels
# (or N of them, -n), with one or two QoS kernels, the same goal for both. Without goals (-g none):
# every unordered pair of the kernels under the SMK chapter's policies. Each kernel's isolated run is
# simulated once (same seed and length) and given to every case with --iso, which leaves the results
# exactly as a run that simulates it.
#
#   scripts/sweep.sh [-b SMK] [-w WORKLOAD] [-k K1,K2,...] [-t 0|1|2] [-n N] [-g G1,G2,...|none]
#                    [-Q K1,...] [-N K1,...] [-m M1,M2,...] [-c CYCLES] [-s SEED] [-e EPOCH] [-a 'ARGS']
#                    [-I DIR] [-j JOBS] [-o DIR] [--shard I/N | --merge [DIR...] | --rekey N[,SEED]]
#
#   -b SMK       the smk binary (default build/gtx980/smk); its configuration is the one simulated
#   -w WORKLOAD  workload file (default cmodel/sim/workloads/parboil.wl)
#   -k LIST      kernels of WORKLOAD (default: every one, in file order, as `smk check` lists them)
#   -t T         0: pairs (default); 1: trios with one QoS kernel; 2: trios with two QoS kernels.
#                Trio i (the sets {a, b, c} of -k in order: a before b before c, numbered from 0)
#                gives the QoS role (-t 1) or the non-QoS role (-t 2) to its member i mod 3, so
#                every kernel takes every role
#   -n N         trios: N of the sets, numbers floor(i x SETS / N) for i = 0 .. N-1 (default all;
#                the papers ran 60 of the 120 of ten kernels: -n 60 takes every second one)
#   -g LIST      QoS goals, fractions of the isolated IPC (default 0.5,0.55,...,0.95 as the papers;
#                -t 2: 0.25,0.3,...,0.7, each QoS kernel the same goal, as the papers). none: no
#                goals (pairs only): every unordered pair {a, b} of -k, a before b, a in entry 0
#   -Q LIST      pairs only: only the pairs whose QoS kernel (without goals: kernel a) is in LIST
#   -N LIST      pairs only: only the pairs whose non-QoS kernel (without goals: kernel b) is in LIST
#   -m LIST      methods with goals: rollover | elastic | naive | rollover-time (policy qos, that QoS
#                scheme; rollover-time: ISCA'17 4.5's time-multiplexed Rollover) | spart (policy spart, scheme off: the
#                SMs split evenly, no quotas) | spart-hc (the same with the host's hill climbing of the
#                split, --hill 50000: the papers' Spart); without goals: smk (policy smk: SMK on
#                demand) | smkp (policy smkp: SMK-P) | smkp-w (policy smkp, scheme smk: SMK-(P+W)) |
#                spart (default naive,spart-hc,rollover: the paper's headline; with -g none
#                smk,smkp,smkp-w,spart)
#   -c CYCLES    cycles of every run, isolated runs included (default 2000000 as the papers)
#   -s SEED      seed of every run (default 1); -e EPOCH the manager's epoch (default 10000)
#   -a 'ARGS'    more `smk run` options for every run, isolated runs included (e.g. '--evict drain');
#                recorded in DIR/params
#   -I DIR       take the isolated runs DIR holds (another sweep directory with the same parameters)
#                instead of simulating them again
#   -j JOBS      runs in parallel (default: the number of CPUs)
#   -o DIR       output directory (default build/sweep)
#   --shard I/N  run only shard I (0 <= I < N) of the cases: case number c of the list (from 0) is
#                shard c mod N's. Writes DIR/params and DIR/runs/ only; shards may share DIR
#   --merge DIR...  simulate nothing: take the run files of DIR... (shards' -o, the same parameters)
#                into -o DIR and write its iso.csv, cases.csv and summary.txt, exactly as a sweep
#                that ran every case itself; refused if a run is missing or two copies differ
#   --rekey N[,SEED]  move the complete sweep in -o DIR to the binary -b when nothing but the binary's
#                checksum differs in DIR/params: rerun N of its cases (drawn with SEED, default 1,
#                printed) and every isolated run it simulated itself, with -b, in a directory of
#                their own; if every result equals DIR's (all but the CPU seconds), DIR/params takes
#                -b's checksum and DIR/rekey.log a line saying what was checked; else refused with
#                the first case that differs (then the set must run again). Nothing else changes
#
# DIR/params   the parameters and the checksums of SMK and WORKLOAD: a DIR holding other ones is
#              refused, so a sweep never mixes results; the runs already done are kept (resume)
# DIR/runs/    one file per isolated run (iso_K.csv: the iso.csv row, then its CPU seconds) and per
#              case (METHOD:QOS:NONQOS:GOAL.csv: the cases.csv row, then its CPU seconds)
# DIR/iso.csv  kernel,iso_thread_insts,iso_warp_insts,iso_ipc
# DIR/cases.csv method,qos,nonqos,goal,qos_norm,met,nonqos_norm,stp,antt,fairness (one row per case;
#              in a trio, qos and nonqos name the kernels of the role joined by '+', qos_norm and
#              nonqos_norm are the means over them, met = every QoS kernel met its goal; without
#              goals, qos and nonqos are the pair's kernels a and b, goal is none and met -)
# DIR/summary.txt  per method: QoS_reach, the misses within 5% of the goal, and over the met cases
#              (as the paper) the mean overshoot, non-QoS normalised IPC and STP; those two over all
#              cases too; and QoS_reach per goal (scripts/sweep_plot.sh draws it). Without goals: the
#              mean STP, ANTT and fairness per method
# DIR/cpu.txt  CPU seconds of the runs (they vary from machine to machine; not in the files above)
# Errors: one line on stderr, exit status 1.
set -u
die() { echo "sweep: $*" >&2; exit 1; }

# --shard and --merge are spelled long; the options that take a value keep theirs (-a '--x')
pre=()
while [ $# -gt 0 ]; do
    case $1 in
    -[bwktngmcseaIjoQN]) pre+=("$1"); shift; [ $# -eq 0 ] || { pre+=("$1"); shift; } ;;
    --shard) [ $# -ge 2 ] || die "--shard: missing value I/N"; pre+=(-S "$2"); shift 2 ;;
    --merge) pre+=(-M); shift; break ;;
    --rekey) [ $# -ge 2 ] || die "--rekey: missing value N[,SEED]"; pre+=(-R "$2"); shift 2 ;;
    --*) die "unknown option $1 (see scripts/sweep.sh -h)" ;;
    *) pre+=("$1"); shift ;;
    esac
done
set -- "${pre[@]}" "$@"

smk=build/gtx980/smk wl=cmodel/sim/workloads/parboil.wl kernels="" goals="" trio=0 ntrio="" methods=""
cycles=2000000 seed=1 epoch=10000 jobs=$(nproc 2>/dev/null || echo 1) out=build/sweep
extra="" isodir="" shard="" merge=0 qonly="" nonly="" rekey=""
while getopts ":b:w:k:t:n:g:m:c:s:e:a:I:j:o:S:MQ:N:R:h" opt; do
    case $opt in
    b) smk=$OPTARG ;; w) wl=$OPTARG ;; k) kernels=$OPTARG ;; t) trio=$OPTARG ;; n) ntrio=$OPTARG ;;
    g) goals=$OPTARG ;; m) methods=$OPTARG ;; a) extra=$OPTARG ;; Q) qonly=$OPTARG ;; N) nonly=$OPTARG ;; I) isodir=$OPTARG ;; S) shard=$OPTARG ;; M) merge=1 ;; R) rekey=$OPTARG ;;
    c) cycles=$OPTARG ;; s) seed=$OPTARG ;; e) epoch=$OPTARG ;; j) jobs=$OPTARG ;; o) out=$OPTARG ;;
    h) sed -n '2,/^set -u/p' "$0" | sed '$d;s/^# \{0,1\}//'; exit 0 ;;
    :) die "-$OPTARG: missing value" ;;
    *) die "unknown option -$OPTARG (see scripts/sweep.sh -h)" ;;
    esac
done
shift $((OPTIND - 1))
mdirs=("$@")
[ $merge = 1 ] || [ $# -eq 0 ] || die "unexpected argument \"$1\" (see scripts/sweep.sh -h)"
[ $merge = 0 ] || [ -z "$shard" ] || die "--shard and --merge: one or the other"
[ -z "$rekey" ] || { [ $merge = 0 ] && [ -z "$shard" ]; } || die "--rekey: not with --shard or --merge"
if [ -n "$rekey" ]; then
    [[ $rekey =~ ^([1-9][0-9]{0,5})(,([0-9]{1,9}))?$ ]] || die "--rekey $rekey: expected N[,SEED] (N >= 1 cases, SEED an unsigned integer)"
    rk_n=${BASH_REMATCH[1]} rk_seed=${BASH_REMATCH[3]:-1}
fi
if [ -n "$shard" ]; then
    [[ $shard =~ ^(0|[1-9][0-9]{0,5})/([1-9][0-9]{0,5})$ ]] && [ "${BASH_REMATCH[1]}" -lt "${BASH_REMATCH[2]}" ] ||
        die "--shard $shard: expected I/N, 0 <= I < N"
    si=${BASH_REMATCH[1]} sn=${BASH_REMATCH[2]}
fi
[ -x "$smk" ] || die "-b $smk: not an executable (make $smk)"
[ -r "$wl" ] || die "-w $wl: cannot read the workload file"
[[ $wl != *,* ]] || die "-w $wl: a path with a comma would break the CSV files"
[[ $jobs =~ ^[1-9][0-9]{0,2}$ ]] || die "-j $jobs: expected a number of jobs 1..999"
[[ $trio =~ ^[012]$ ]] || die "-t $trio: expected 0 (pairs), 1 or 2 (trios with that many QoS kernels)"
[ -z "$ntrio" ] || [ "$trio" != 0 ] || die "-n $ntrio: only for trios (-t 1 or -t 2)"
nogoal=0
[ "$goals" != none ] || nogoal=1
[ $nogoal = 0 ] || [ "$trio" = 0 ] || die "-g none: only for pairs (a trio's roles need goals)"
[ -n "$goals" ] || if [ "$trio" = 2 ]; then goals=0.25,0.3,0.35,0.4,0.45,0.5,0.55,0.6,0.65,0.7
    else goals=0.5,0.55,0.6,0.65,0.7,0.75,0.8,0.85,0.9,0.95; fi
[ -n "$methods" ] || if [ $nogoal = 1 ]; then methods=smk,smkp,smkp-w,spart; else methods=naive,spart-hc,rollover; fi
for v in "$cycles" "$seed" "$epoch"; do [[ $v =~ ^[0-9]+$ ]] || die "-c/-s/-e \"$v\": expected an unsigned integer"; done
read -r -a XA <<< "$extra"
for x in "${XA[@]}"; do
    case $x in --config | --workload | --kernels | --policy | --scheme | --goal | --cycles | --iso-cycles | --iso | --seed | \
        --epoch | --hill | --csv | --json | --default | --rtl) die "-a $extra: $x is set by the sweep itself" ;; esac
done
cfg=$("$smk" --help | sed -n "s/^This binary simulates configuration '\([^']*\)'.*/\1/p")
[ -n "$cfg" ] || die "-b $smk: not an smk binary (no configuration in its --help)"
# the workload's kernels as smk reads them ("WL: OK, N kernels: A B ... (fit configuration CFG)"), never
# parsed here (CRLF, comments and any other form the parser takes work alike)
chk=$("$smk" check --workload "$wl" 2>&1) || { printf '%s\n' "$chk" >&2; exit 1; } # its own one-line error
wk=${chk#"$wl: OK, "} && wk=${wk#*: } && wk=${wk%% (fit configuration *}
declare -A WK=()
for k in $wk; do WK[$k]=1; done
[ ${#WK[@]} -gt 0 ] && [[ $chk == "$wl: OK, "* ]] || die "-b $smk: unexpected output of smk check: $chk"
[ -n "$kernels" ] || kernels=${wk// /,}
[[ ,$kernels, != *,,* ]] || die "-k $kernels: an empty name in the list"
IFS=, read -r -a K <<< "$kernels"
for k in "${K[@]}"; do [ -n "${WK[$k]-}" ] || die "-k $kernels: no kernel \"$k\" in $wl (its kernels: $wk)"; done
IFS=, read -r -a G <<< "$goals"
IFS=, read -r -a M <<< "$methods"
[ ${#K[@]} -ge 2 ] || die "-k $kernels: a pair needs at least two kernels"
[ "$trio" = 0 ] || [ ${#K[@]} -ge 3 ] || die "-k $kernels: a trio needs at least three kernels"
if [ "$trio" != 0 ]; then
    sets=$((${#K[@]} * (${#K[@]} - 1) * (${#K[@]} - 2) / 6))
    [ -n "$ntrio" ] || ntrio=$sets
    [[ $ntrio =~ ^[1-9][0-9]{0,5}$ ]] && [ "$ntrio" -le "$sets" ] || die "-n $ntrio: expected a number of trios 1..$sets"
fi
declare -A QO=() NO=() # -Q and -N as sets (empty: every kernel)
for l in "Q:$qonly" "N:$nonly"; do
    [ -n "${l#*:}" ] || continue
    [ "$trio" = 0 ] || die "-${l%%:*} ${l#*:}: only for pairs"
    IFS=, read -r -a L <<< "${l#*:}"
    for k in "${L[@]}"; do
        [[ ",$kernels," == *",$k,"* ]] || die "-${l%%:*} ${l#*:}: \"$k\" is not one of the kernels (-k)"
        if [ "${l%%:*}" = Q ]; then QO[$k]=1; else NO[$k]=1; fi
    done
done
pair_in() { # Q X: the pair passes -Q and -N
    { [ ${#QO[@]} = 0 ] || [ -n "${QO[$1]-}" ]; } && { [ ${#NO[@]} = 0 ] || [ -n "${NO[$2]-}" ]; }
}
if [ "$trio" = 0 ]; then # some pair must pass (without goals: a before b)
    pass=0
    for ((a = 0; a < ${#K[@]}; a++)); do for ((b = nogoal * (a + 1); b < ${#K[@]}; b++)); do
        [ $a != $b ] && pair_in "${K[$a]}" "${K[$b]}" && pass=1; done; done
    [ $pass = 1 ] || die "-Q $qonly -N $nonly: no pair of -k $kernels has its QoS kernel in -Q and its non-QoS kernel in -N"
fi
for l in "k:$kernels" "g:$goals" "m:$methods"; do # a name twice would run its cases twice
    [ "$(tr , '\n' <<< "${l#*:}" | sort | uniq -d)" = "" ] || die "-${l%%:*} ${l#*:}: \"$(tr , '\n' <<< "${l#*:}" | sort | uniq -d | head -1)\" listed twice"
done
[ $nogoal = 1 ] || for g in "${G[@]}"; do
    [[ $g =~ ^(0?\.[0-9]{1,4}|1(\.0{1,4})?)$ ]] && awk -v g="$g" 'BEGIN { exit !(g > 0) }' ||
        die "-g $goals: \"$g\" is not a goal 0 < F <= 1 with at most 4 decimals (or none)"
done
for m in "${M[@]}"; do
    case $m in
    rollover | elastic | naive | rollover-time | spart-hc) [ $nogoal = 0 ] || die "-m $methods: \"$m\" needs QoS goals (not -g none)" ;;
    smk | smkp | smkp-w) [ $nogoal = 1 ] || die "-m $methods: \"$m\" runs without goals (-g none)" ;;
    spart) ;;
    *) die "-m $methods: unknown method \"$m\" (rollover | elastic | naive | rollover-time | spart | spart-hc | smk | smkp | smkp-w)" ;;
    esac
done

[ -z "$rekey" ] || [ -f "$out/params" ] || die "--rekey: $out holds no sweep (no params)"
mkdir -p "$out/runs" || die "-o $out: cannot create the directory"
params="config=$cfg smk=$(sha1sum < "$smk" | cut -c1-12) workload=$wl:$(sha1sum < "$wl" | cut -c1-12) cycles=$cycles seed=$seed epoch=$epoch${extra:+ args=${XA[*]}}"
if [ -n "$rekey" ]; then
    oldp=$(cat "$out/params")
    [ "$oldp" != "$params" ] || { echo "sweep: --rekey: $out already holds this binary's sweep; nothing to do" >&2; exit 0; }
    [ "$(sed 's/ smk=[0-9a-f]* / smk= /' <<< "$oldp")" = "$(sed 's/ smk=[0-9a-f]* / smk= /' <<< "$params")" ] ||
        die "--rekey: $out holds a sweep with other parameters than the binary's checksum ($oldp; these: $params)"
elif [ -f "$out/params" ]; then
    [ "$(cat "$out/params")" = "$params" ] ||
        die "$out holds a sweep with other parameters ($(cat "$out/params")); remove it or give another -o"
else # written whole, then renamed: shards may share the directory
    echo "$params" > "$out/params.$HOSTNAME.$$" && mv "$out/params.$HOSTNAME.$$" "$out/params"
fi
common=(--config "$cfg" --workload "$wl" --seed "$seed" --epoch "$epoch" "${XA[@]}")

# a method's smk run options: METHOD -> pol, sch and the array mo
method_opts() {
    mo=()
    case $1 in
    spart) pol=spart sch=off ;;
    spart-hc) pol=spart sch=off mo=(--hill 50000) ;;
    smk | smkp) pol=$1 sch=off ;;
    smkp-w) pol=smkp sch=smk ;;
    *) pol=qos sch=$1 ;; # rollover, elastic, naive, rollover-time: that QoS scheme
    esac
}

# a run: run_smk FILE ARGS... -> o (the output), FILE.cpu (its CPU seconds, user + system); status of smk
run_smk() {
    local f=$1 TIMEFORMAT='%3U %3S' rc u s
    shift
    { time o=$("$smk" run "${common[@]}" "$@" 2>&1); } 2> "$f.cpu"
    rc=$?
    read -r u s < "$f.cpu" && awk -v u="$u" -v s="$s" 'BEGIN { printf "%.3f\n", u + s }' > "$f.cpu"
    return $rc
}

# one case: sweep_case METHOD QOS NONQOS GOAL -> runs/METHOD:QOS:NONQOS:GOAL.csv (written whole, then
# renamed); QOS and NONQOS are the kernels of the role joined by '+' (no kernel name holds '+' or ':')
sweep_case() {
    local m=$1 qs=$2 ns=$3 g=$4 f="$out/runs/$1:$2:$3:$4.csv" t="$out/runs/$1:$2:$3:$4.$HOSTNAME.$$" pol sch o k
    local -a Q N a=() mo
    [ -s "$f" ] && return 0
    method_opts "$m"
    IFS=+ read -r -a Q <<< "$qs"
    IFS=+ read -r -a N <<< "$ns"
    [ "$g" = none ] || for k in "${Q[@]}"; do a+=(--goal "$k=$g"); done
    for k in "${Q[@]}" "${N[@]}"; do a+=(--iso "$k=${ISO[$k]}"); done
    run_smk "$t" --kernels "${qs//+/,},${ns//+/,}" --policy "$pol" --scheme "$sch" "${mo[@]}" "${a[@]}" \
        --cycles "$cycles" --csv || { rm -f "$t.cpu"; echo "sweep: $m $qs+$ns goal $g: $o" >&2; return 1; }
    # CSV: one row per kernel in --kernels order (the QoS kernels first); columns of docs/smk.md. A
    # role of one kernel copies its normalised IPC as smk prints it, of two prints the mean; without
    # goals met is -. Then the CPU seconds
    awk -F, -v m="$m" -v q="$qs" -v n="$ns" -v g="$g" -v nq=${#Q[@]} -v nk=$((${#Q[@]} + ${#N[@]})) -v cpu="$(cat "$t.cpu")" '
        function mean(sum, cnt, one) { return cnt == 1 ? one : sprintf("%.4f", sum / cnt) }
        NR == 1 { next }
        NR <= 1 + nq { qsum += $12; qone = $12; met += $13 == "met"; next }
        { nsum += $12; none = $12; stp = $14; antt = $15; fair = $16 }
        END { if (NR != 1 + nk || cpu == "") exit 1
              printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", m, q, n, g, mean(qsum, nq, qone), g == "none" ? "-" : (met == nq) "",
                  mean(nsum, nk - nq, none), stp, antt, fair, cpu }' \
        <<< "$o" > "$t" && mv "$t" "$f" && rm -f "$t.cpu" ||
        { rm -f "$t" "$t.cpu"; echo "sweep: $m $qs+$ns goal $g: unexpected output: $o" >&2; return 1; }
}

# isolated runs: one per kernel, in parallel (a shared run of 1 cycle after it)
declare -A ISO
iso_one() {
    local k=$1 f="$out/runs/iso_$1.csv" t="$out/runs/iso_$1.$HOSTNAME.$$" o tt w
    [ -s "$f" ] && return 0
    run_smk "$t" --kernels "$k" --policy smk --cycles 1 --iso-cycles "$cycles" --json ||
        { rm -f "$t.cpu"; echo "sweep: isolated $k: $o" >&2; return 1; }
    tt=$(grep -o '"iso_thread_insts":[0-9]*' <<< "$o" | cut -d: -f2) w=$(grep -o '"iso_warp_insts":[0-9]*' <<< "$o" | cut -d: -f2)
    [ -n "$tt" ] && [ -n "$w" ] || { rm -f "$t.cpu"; echo "sweep: isolated $k: unexpected output: $o" >&2; return 1; }
    echo "$k,$tt,$w,$(awk -v t="$tt" -v c="$cycles" 'BEGIN { printf "%.4f", t / c }'),$(cat "$t.cpu")" > "$t" &&
        mv "$t" "$f" && rm -f "$t.cpu"
}
export -f sweep_case iso_one method_opts run_smk
export smk out cycles
# xargs runs bash -c '...' per item, with the functions exported and the arrays given as the text of
# their definitions (bash cannot export arrays)
# xargs and its runs are a process group of their own (set -m) that the sweep waits for in the
# background, so that a signal to the sweep (kill PID, Ctrl-C) stops them all (stop_runs), never leaving
# them running beside a resume
XPID=""
run_all() { # FUNCTION, then the items on stdin, one per line (fields separated by spaces)
    local rc
    set -m
    xargs -P "$jobs" -L 1 bash -c "$(declare -p common ISO); $1 \"\$@\"" _ &
    XPID=$!
    set +m
    wait "$XPID"; rc=$?
    XPID=""
    return $rc
}
stop_runs() { # SIGNAL
    trap - TERM INT HUP
    [ -z "$XPID" ] || kill -TERM -- "-$XPID" 2> /dev/null
    echo "sweep: stopped by SIG$1; its runs stopped; the runs done are kept: rerun to resume" >&2
    exit $((128 + $(kill -l "$1")))
}
trap 'stop_runs TERM' TERM
trap 'stop_runs INT' INT
trap 'stop_runs HUP' HUP

# the case list, the methods innermost: a sweep stopped part way has every method's results on the
# same cases
n=0 np=0
if [ $nogoal = 1 ]; then
    for ((a = 0; a < ${#K[@]}; a++)); do for ((b = a + 1; b < ${#K[@]}; b++)); do pair_in "${K[$a]}" "${K[$b]}" || continue
        np=$((np + 1))
        for m in "${M[@]}"; do echo "$m ${K[$a]} ${K[$b]} none"; n=$((n + 1)); done; done; done > "$out/list.$HOSTNAME.$$"
    what="$np unordered pairs, no goals"
elif [ "$trio" = 0 ]; then
    for q in "${K[@]}"; do for x in "${K[@]}"; do [ "$q" = "$x" ] && continue; pair_in "$q" "$x" || continue
        np=$((np + 1))
        for g in "${G[@]}"; do for m in "${M[@]}"; do echo "$m $q $x $g"; n=$((n + 1)); done; done; done; done > "$out/list.$HOSTNAME.$$"
    what="$np pairs"
else
    S=() # the sets {a, b, c}, a < b < c (indices of -k), in order
    for ((a = 0; a < ${#K[@]}; a++)); do for ((b = a + 1; b < ${#K[@]}; b++)); do for ((c = b + 1; c < ${#K[@]}; c++)); do
        S+=("$a $b $c"); done; done; done
    for ((i = 0; i < ntrio; i++)); do
        j=$((i * ${#S[@]} / ntrio)) r=0 one="" two=""
        for x in ${S[$j]}; do # member j mod 3 takes the role of its own: QoS (-t 1) or non-QoS (-t 2)
            if [ $r = $((j % 3)) ]; then one=${K[$x]}; else two+=${two:++}${K[$x]}; fi
            r=$((r + 1))
        done
        if [ "$trio" = 1 ]; then q=$one x=$two; else q=$two x=$one; fi
        for g in "${G[@]}"; do for m in "${M[@]}"; do echo "$m $q $x $g"; n=$((n + 1)); done; done
    done > "$out/list.$HOSTNAME.$$"
    what="$ntrio trios with $trio QoS kernel$([ "$trio" = 2 ] && echo s)"
fi
if [ -n "$shard" ]; then # this shard's cases, in the list's order
    awk -v i="$si" -v n="$sn" '(NR - 1) % n == i' "$out/list.$HOSTNAME.$$" > "$out/shard-$si-of-$sn.list" &&
        rm -f "$out/list.$HOSTNAME.$$" || die "$out: cannot write the shard's list"
    list=$out/shard-$si-of-$sn.list
else
    mv "$out/list.$HOSTNAME.$$" "$out/list" || die "$out: cannot write the list"
    list=$out/list
fi

# a run file's line without its CPU seconds (a case row has 10 fields, an isolated run 4): LINE -> r
result() { local c=${1//[^,]/}; r=$1; case ${#c} in 4 | 10) r=${1%,*} ;; esac; }

if [ -n "$rekey" ]; then
    # the set must be complete; the sample: N of its cases, each case's key a draw of awk's rand
    # after srand(SEED), the N smallest keys, in the list's order
    while read -r f; do [ -s "$out/runs/$f" ] || die "--rekey: $out is not complete ($f missing); finish it first"; done \
        < <(printf 'iso_%s.csv\n' "${K[@]}"; awk '{ print $1 ":" $2 ":" $3 ":" $4 ".csv" }' "$list")
    [ "$rk_n" -le "$n" ] || rk_n=$n
    rk=$out/rekey.$HOSTNAME.$$
    rm -rf "$rk" && mkdir -p "$rk/runs" || die "--rekey: cannot create $rk"
    awk -v s="$rk_seed" 'BEGIN { srand(s) } { printf "%.9f %d %s\n", rand(), NR, $0 }' "$list" | sort -n | head -n "$rk_n" |
        sort -k2,2n | cut -d' ' -f3- > "$rk/list"
    own=() # the isolated runs this sweep simulated (a copy from -I has 0 CPU seconds; its own sweep checks it)
    for k in "${K[@]}"; do
        IFS=, read -r -a a < "$out/runs/iso_$k.csv"
        if [ "${a[4]}" = 0 ]; then cp "$out/runs/iso_$k.csv" "$rk/runs/" || die "--rekey: cannot copy into $rk"; else own+=("$k"); fi
    done
    for k in "${K[@]}"; do ISO[$k]=$(cut -d, -f2,3 "$out/runs/iso_$k.csv" | tr , /); done
    echo "sweep: --rekey: $out from $(grep -o 'smk=[0-9a-f]*' <<< "$oldp") to $(grep -o 'smk=[0-9a-f]*' <<< "$params"): rerunning ${#own[@]} isolated runs and $rk_n of its $n cases (seed $rk_seed) in $rk" >&2
    dout=$out out=$rk
    { [ ${#own[@]} = 0 ] || run_all iso_one < <(printf '%s\n' "${own[@]}"); } && run_all sweep_case < "$rk/list" ||
        die "--rekey: a run failed (above)"
    out=$dout
    while read -r f; do
        read -r l < "$rk/runs/$f"; result "$l"; r1=$r
        read -r l < "$out/runs/$f"; result "$l"
        [ "$r1" = "$r" ] || die "--rekey: $f differs with -b $smk ('$r1') from $out's ('$r'): the binary changed this set's results; run it again (its runs are kept in $rk)"
    done < <([ ${#own[@]} = 0 ] || printf 'iso_%s.csv\n' "${own[@]}"; awk '{ print $1 ":" $2 ":" $3 ":" $4 ".csv" }' "$rk/list")
    line="$(grep -o 'smk=[0-9a-f]*' <<< "$oldp") -> $(grep -o 'smk=[0-9a-f]*' <<< "$params"): ${#own[@]} isolated runs and $rk_n of $n cases (sample seed $rk_seed) rerun with the new binary, every result identical"
    echo "$params" > "$out/params.$HOSTNAME.$$" && mv "$out/params.$HOSTNAME.$$" "$out/params" &&
        echo "$line" >> "$out/rekey.log" && rm -rf "$rk" || die "--rekey: cannot write $out/params"
    echo "sweep: --rekey: $line" >&2
    exit 0
fi
if [ $merge = 1 ]; then
    # every run file the list needs, from -o DIR itself or from a DIR of the merge; two copies of one
    # run must agree in all but the CPU seconds (the last field)
    for d in "${mdirs[@]}"; do
        [ -f "$d/params" ] || die "--merge $d: not a sweep directory (no params)"
        [ "$(cat "$d/params")" = "$params" ] || die "--merge $d: other parameters ($(cat "$d/params")) than this sweep's ($params)"
    done
    missing=0 first=""
    while read -r f; do
        line="" from=""
        [ -s "$out/runs/$f" ] && read -r line < "$out/runs/$f" && from=$out
        for d in "${mdirs[@]}"; do
            [ "$d/runs/$f" -ef "$out/runs/$f" ] || [ ! -s "$d/runs/$f" ] && continue
            read -r l < "$d/runs/$f"
            if [ -z "$from" ]; then
                printf '%s\n' "$l" > "$out/runs/$f" || die "$out/runs/$f: cannot write it"
                line=$l from=$d
            else
                result "$l"; r1=$r; result "$line"
                [ "$r1" = "$r" ] || die "--merge: $from/runs/$f and $d/runs/$f differ (another model or machine?): '$r', '$r1'"
            fi
        done
        [ -n "$from" ] || { missing=$((missing + 1)); [ -n "$first" ] || first=$f; }
    done < <(printf 'iso_%s.csv\n' "${K[@]}"; awk '{ print $1 ":" $2 ":" $3 ":" $4 ".csv" }' "$list")
    [ $missing = 0 ] || die "--merge: $missing of $((n + ${#K[@]})) runs missing (the first: $first); run their shards first"
else
    [ -z "$isodir" ] || [ "$(cat "$isodir/params" 2>/dev/null)" = "$params" ] ||
        die "-I $isodir: not a sweep directory with this sweep's parameters ($params)"
    [ -z "$isodir" ] || for k in "${K[@]}"; do # copied with 0 CPU seconds (this sweep spent none), written whole
        t="$out/runs/iso_$k.$HOSTNAME.$$"
        [ -s "$out/runs/iso_$k.csv" ] || [ ! -s "$isodir/runs/iso_$k.csv" ] || { read -r l < "$isodir/runs/iso_$k.csv" &&
            result "$l" && echo "$r,0" > "$t" && mv "$t" "$out/runs/iso_$k.csv"; } || die "-I $isodir: cannot copy its isolated run of $k"
    done
    run_all iso_one < <(printf '%s\n' "${K[@]}") || die "isolated runs failed (above)"
fi
for k in "${K[@]}"; do ISO[$k]=$(cut -d, -f2,3 "$out/runs/iso_$k.csv" | tr , /); done

echo "sweep: $n cases (${#M[@]} methods x $what$([ $nogoal = 1 ] || echo " x ${#G[@]} goals")), $cycles cycles, seed $seed, $jobs jobs, in $out${shard:+, shard $shard: $(wc -l < "$list") of them}" >&2
[ $merge = 1 ] || run_all sweep_case < "$list" || die "a run failed (above); the runs done are kept: rerun to resume"

# CPU seconds of this list's runs (the last field of each run file)
awk -v dir="$out/runs" -v nk=${#K[@]} '
    function cpu(f,   l, n, a) { if ((getline l < f) > 0) { n = split(l, a, ","); close(f); return n == 5 || n == 11 ? a[n] : 0 } return 0 }
    NR <= nk { iso += cpu(dir "/iso_" $1 ".csv"); next }
    { c++; s += cpu(dir "/" $1 ":" $2 ":" $3 ":" $4 ".csv") }
    END { printf "%d cases: %.1f s CPU (%.2f s per case); %d isolated runs: %.1f s CPU\n", c, s, c ? s / c : 0, nk, iso }' \
    <(printf '%s\n' "${K[@]}") "$list" > "$out/cpu${shard:+-$si-of-$sn}.txt"
if [ -n "$shard" ]; then
    echo "sweep: shard $shard done in $out ($(cat "$out/cpu-$si-of-$sn.txt")); when every shard is done, the same options with --merge DIR... give the sweep's files" >&2
    exit 0
fi

{ echo "kernel,iso_thread_insts,iso_warp_insts,iso_ipc"; for k in "${K[@]}"; do cut -d, -f1-4 "$out/runs/iso_$k.csv"; done; } > "$out/iso.csv"
{ echo "method,qos,nonqos,goal,qos_norm,met,nonqos_norm,stp,antt,fairness"
  awk -v dir="$out/runs" '{ f = dir "/" $1 ":" $2 ":" $3 ":" $4 ".csv"; if ((getline l < f) <= 0) exit 1; close(f)
      if (split(l, a, ",") == 11) sub(/,[^,]*$/, "", l); print l }' "$list" | sort -t, -k1,1 -s; } > "$out/cases.csv"

if [ $nogoal = 1 ]; then # per method: the means of STP, ANTT and fairness
    awk -F, -v methods="$methods" -v cycles="$cycles" -v seed="$seed" -v cfg="$cfg" -v what="$what" '
        NR == 1 { next }
        { c[$1]++; stp[$1] += $8; antt[$1] += $9; fair[$1] += $10 }
        END {
            nm = split(methods, M, ",")
            printf "sweep: %s, %d cycles, seed %s: %d cases (%s)\n", cfg, cycles, seed, NR - 1, what
            printf "%-9s %6s %9s %9s %9s\n", "method", "cases", "STP", "ANTT", "fairness"
            for (i = 1; i <= nm; i++) { m = M[i]
                printf "%-9s %6d %9.3f %9.3f %9.3f\n", m, c[m], stp[m] / c[m], antt[m] / c[m], fair[m] / c[m] }
        }' "$out/cases.csv" > "$out/summary.txt"
    cat "$out/summary.txt" "$out/cpu.txt"
    exit 0
fi

# summary: per method, then QoS_reach per goal (rows: goals, columns: methods). As the paper: the
# non-QoS kernel's throughput and STP over the met cases only; the misses within 5% of the goal
# (its Figure 5 categories); also both means over all cases
awk -F, -v methods="$methods" -v cycles="$cycles" -v seed="$seed" -v cfg="$cfg" -v what="$what" '
    NR == 1 { next }
    { m = $1; c[m]++; key = m SUBSEP $4; gc[key]++; gm[key] += $6; stpa[m] += $8; nna[m] += $7
      if (!($4 in seen)) { seen[$4] = 1; goals[++ng] = $4 }
      if ($6) { met[m]++; ov[m] += $5 / $4 - 1; stp[m] += $8; nn[m] += $7 } else if ($5 >= 0.95 * $4) near[m]++ }
    END {
        nm = split(methods, M, ",")
        printf "sweep: %s, %d cycles, seed %s: %d cases (%s)\n", cfg, cycles, seed, NR - 1, what
        printf "%-9s %6s %6s %10s %12s %10s %13s %9s %13s %9s\n", "method", "cases", "met", "QoS_reach", "miss<=5%",
            "overshoot", "nonQoS(met)", "STP(met)", "nonQoS(all)", "STP(all)"
        for (i = 1; i <= nm; i++) { m = M[i]; x = met[m] ? met[m] : 1
            printf "%-9s %6d %6d %9.1f%% %12d %9.1f%% %13.3f %9.3f %13.3f %9.3f\n", m, c[m], met[m], 100 * met[m] / c[m],
                near[m], 100 * ov[m] / x, nn[m] / x, stp[m] / x, nna[m] / c[m], stpa[m] / c[m] }
        printf "\nQoS_reach per goal\n%-6s", "goal"
        for (i = 1; i <= nm; i++) printf " %9s", M[i]
        printf "\n"
        for (j = 1; j <= ng; j++) { printf "%-6s", goals[j]
            for (i = 1; i <= nm; i++) { k = M[i] SUBSEP goals[j]; printf " %8.1f%%", 100 * gm[k] / gc[k] }
            printf "\n" }
    }' "$out/cases.csv" > "$out/summary.txt"
cat "$out/summary.txt" "$out/cpu.txt"
