#!/bin/bash
# Is this tree's heuristic stronger than an earlier commit's? From the repository's root:
#   bash bench/versus.sh <commit> [scenario] [games] [seed]
# plays a tournament (each agent with each army, sides swapped) between agents/heuristic.ts as it is now
# and agents/heuristic.ts of <commit>, copied to out/ (beside agents/, so that its '../src/' imports are
# this tree's engine: the two agents differ, the rules they play by do not). An old agent that
# imports something the engine no longer exports fails to load, with the name. Defaults: the default
# scenario, 400 games, seed 1 (about 2-3 minutes on 2 cores). Prints the tournament's summary.
set -eu
rev=${1:?usage: bash bench/versus.sh <commit> [scenario] [games] [seed]}
scenario=${2:-scenarios/default.json}
games=${3:-400}
seed=${4:-1}
mkdir -p out
old="out/heuristic-$(git rev-parse --short "$rev").ts"
git show "$rev:agents/heuristic.ts" > "$old"
npx tsx src/cli.ts tournament "$scenario" --agents "heuristic,./$old" --games "$games" --seed "$seed"
