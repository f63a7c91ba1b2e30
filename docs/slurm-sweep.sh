#!/bin/bash
# A large study on a Slurm cluster: each array task runs one shard of the study's points on
# its own CPUs, and a last job merges the shards into what one process would have printed
# (docs/sim.md, "Fan-out"). Make the points file first, one key a line (the web app's
# "Runs as text", web/engine/point.ts, or a script), e.g. every preset, task count and seed:
#
#   for p in v4.16 v4.17 v5.18; do for t in 1 16 28 56 88 112; do for s in 1 2 3 4 5; do
#     echo "workload=page_fault1 preset=$p cpus=$t pages=4096 iterations=2 seed=$s batch=0 high=0 clear_lines=64 cache_scale=8"
#   done; done; done > study.txt
#
# then submit:   jobid=$(sbatch --parsable docs/slurm-sweep.sh study.txt)
#                sbatch --dependency=afterok:$jobid --wrap 'blab merge shard-*.txt > study-out.txt'
#
#SBATCH --job-name=blab-study
#SBATCH --array=1-16
#SBATCH --cpus-per-task=4
#SBATCH --output=slurm-%A-%a.log
set -euo pipefail
points=${1:?usage: sbatch docs/slurm-sweep.sh POINTS_FILE}
# a shared results cache (keyed by the core build hash): a resubmitted array runs only what
# the last one did not finish
cache=${BLAB_CACHE:-${SCRATCH:-$HOME}/blab-cache}
blab sim --points "$points" --shard "${SLURM_ARRAY_TASK_ID}/${SLURM_ARRAY_TASK_COUNT}" \
  --jobs "${SLURM_CPUS_PER_TASK:-1}" --cache "$cache" > "shard-${SLURM_ARRAY_TASK_ID}.txt"
