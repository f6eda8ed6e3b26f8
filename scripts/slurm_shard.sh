#!/usr/bin/env bash
#SBATCH --job-name=smk-shard
#SBATCH --output=slurm-%A_%a.out
# slurm_shard.sh COMMAND [ARGS...]: one task of a Slurm job array runs its shard of a sweep or of the
# reproduction (docs/sweep.md "Shards"): COMMAND ARGS -j CPUS --shard I/N, with I the task's index,
# N the array's size and CPUS the task's --cpus-per-task (1 if not given). The array must be
# --array=0-(N-1), so that the N tasks are the shards 0..N-1 of N; for example
#   jid=$(sbatch --parsable --array=0-19 --cpus-per-task=4 scripts/slurm_shard.sh scripts/reproduce.sh -o build/reproduce)
#   sbatch --dependency=afterok:$jid --wrap 'scripts/reproduce.sh -o build/reproduce --merge'
# Errors: one line on stderr, exit status 1.
set -u
die() { echo "slurm_shard: $*" >&2; exit 1; }
[ $# -ge 1 ] || die "usage: sbatch --array=0-(N-1) [--cpus-per-task=C] scripts/slurm_shard.sh COMMAND [ARGS...]"
i=${SLURM_ARRAY_TASK_ID:-} min=${SLURM_ARRAY_TASK_MIN:-0} max=${SLURM_ARRAY_TASK_MAX:-} step=${SLURM_ARRAY_TASK_STEP:-1}
[ -n "$i" ] && [ -n "$max" ] || die "not a task of a Slurm job array (sbatch --array=0-(N-1) scripts/slurm_shard.sh ...)"
n=${SLURM_ARRAY_TASK_COUNT:-$((max + 1))}
[ "$min" = 0 ] && [ "$step" = 1 ] && [ "$n" = $((max + 1)) ] ||
    die "the array must be --array=0-(N-1) (this one: min $min, max $max, step $step, $n tasks)"
exec "$@" -j "${SLURM_CPUS_PER_TASK:-1}" --shard "$i/$n"
