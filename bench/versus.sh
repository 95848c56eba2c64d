#!/bin/bash
# Is this tree's heuristic stronger than an earlier commit's? From the repository's root:
#   bash bench/versus.sh <commit> [scenario] [games] [seed]
# plays a tournament (each agent with each army, sides swapped) between agents/heuristic.ts as it is now
# and the heuristic of <commit>: that commit's agents/ folder (agents/heuristic.ts and, since its split into
# modules, agents/heuristic/) is copied to out/versus-<commit>/, beside a link to this tree's src/, so that
# its '../src/' imports reach this tree's engine (Node resolves the link to the same files: one engine, the
# same registries): the two agents differ, the rules they play by do not. An old agent that imports
# something the engine no longer exports fails to load, with the name. Defaults: the default scenario, 400
# games, seed 1 (about 2-3 minutes on 2 cores). Prints the tournament's summary.
set -eu
rev=${1:?usage: bash bench/versus.sh <commit> [scenario] [games] [seed]}
scenario=${2:-scenarios/default.json}
games=${3:-400}
seed=${4:-1}
old="out/versus-$(git rev-parse --short "$rev")"
rm -rf "$old"
mkdir -p "$old"
git archive "$rev" agents | tar -x -C "$old"
ln -s ../../src "$old/src"
npx tsx src/cli.ts tournament "$scenario" --agents "heuristic,./$old/agents/heuristic.ts" --games "$games" --seed "$seed"
