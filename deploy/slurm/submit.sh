#!/usr/bin/env bash
# Queue the self-play array and, once every task has succeeded, the merge:
#   GAMES=100000 SEED=1 OUT=$PWD/selfplay bash deploy/slurm/submit.sh
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
array=$(sbatch --parsable "$here/selfplay.sbatch")
sbatch --dependency="afterok:${array%%;*}" "$here/merge.sbatch"
