#!/usr/bin/env bash
# A sweep of Camelot's start_life (3..6) with the best bot on main for Camelot (MCTS: no
# Camelot policy exists yet), 4 players, the same 12 seeds at every value. CPU-bound and
# slow (about 10 s of CPU per game): run it niced, on one core.
# Writes benchmarks/results/sweep_camelot_start_life/ (sweep.png, chart.png, results.json).
set -euo pipefail
cd "$(dirname "$0")/.."
nice -n 10 grimoire simulate shadows_over_camelot --players 4 --bots mcts --budget 40 --depth 15 \
  --games 12 --seed 1 --jobs 1 --quiet --sweep start_life=3..6 \
  --out benchmarks/results/sweep_camelot_start_life "$@"
