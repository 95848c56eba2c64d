#!/bin/bash
# Plays every row of the README's "How well they play" table, from the repository's root, one command after
# the other (each batch uses both cores): about three and a half hours on 2 cores (sixty-first session: a 200-game row
# ~1-1.5 minutes, a 1,000-game row ~7, a 2,000-game row ~14, so the ten 1,000-game and four 2,000-game rows ~2 hours;
# the lookahead's tournaments ~8 minutes a seed (sixty-second session); about 100 minutes in the fifty-second session). Outputs in $1
# (default out/agent-rows): the JSON lines of the tournaments (heuristic-vs-random.txt, lookahead.txt), a batch folder (games.csv,
# results.json) and its --json summary (<row>.json) for each batch row, and `progress`, a line a row as each
# ends. The table's cells are made from them as docs/agent-measurements.md ("How the README's rows are
# played") says; `npx tsx bench/pair-margins.ts <batch dirs>` gives the pair-by-pair margins.
set -u
O=${1:-out/agent-rows}; mkdir -p "$O"; : > "$O/progress"
T() { npx tsx src/cli.ts "$@"; }
for f in scenarios/*.json scenarios/mirror/*.json scenarios/boarding-actions/*.json; do
  echo "== $f"; T tournament "$f" --agents random,heuristic --games 40 --json; done > "$O/heuristic-vs-random.txt" 2>&1
B() { local name=$1; shift; T batch "$@" --agents heuristic,heuristic --out "$O/$name" --replace --json > "$O/$name.json" 2>/dev/null; echo "$name $(date +%T)" >> "$O/progress"; }
B kauyon scenarios/mirror/kauyon-vs-none.json --games 200
B battle-host scenarios/mirror/battle-host-vs-none.json --games 200
B montka-1 scenarios/mirror/montka-vs-none.json --games 200
B retaliation scenarios/mirror/retaliation-vs-none.json --games 200
B guardian-battlehost scenarios/mirror/guardian-battlehost-vs-none.json --games 200
for m in kroot-hunting-pack auxiliary-cadre windrider-host aspect-host ghosts-of-the-webway serpents-brood corsair-coterie seer-council eldritch-raiders spirit-conclave warhost devoted-of-ynnead; do
  B "$m" "scenarios/mirror/$m-vs-none.json" --games 200
done
B kroot-raiding-party scenarios/boarding-actions/kroot-raiding-party-vs-none.json --games 200
T batch scenarios/default.json --agents heuristic,./bench/no-doctrine-agent.ts --games 400 --seed 11 --out "$O/no-doctrine" --replace --json > "$O/no-doctrine.json" 2>/dev/null; echo "no-doctrine $(date +%T)" >> "$O/progress"
for s in 3 4 5 6 7 8; do echo "== seed $s"; T tournament scenarios/default.json --agents heuristic,lookahead --games 40 --seed $s --json; done > "$O/lookahead.txt" 2>&1
echo "lookahead $(date +%T)" >> "$O/progress"
B montka-5 scenarios/mirror/montka-vs-none.json --games 1000 --seed 5
for m in seer-council eldritch-raiders ghosts-of-the-webway aspect-host warhost retaliation auxiliary-cadre windrider-host; do B "$m-5" "scenarios/mirror/$m-vs-none.json" --games 1000 --seed 5; done
B kroot-raiding-party-5 scenarios/boarding-actions/kroot-raiding-party-vs-none.json --games 1000 --seed 5
for row in "armoured-warhost-vs-none 3 dawn-of-war" "armoured-warhost-vs-none-crucible 7 crucible" \
           "armoured-warhost-vs-none-search-and-destroy 7 search-and-destroy" "armoured-warhost-vs-none-hammer-and-anvil 3 hammer-and-anvil"; do
  set -- $row
  B "aw-$3" "scenarios/mirror/$1.json" --games 2000 --seed "$2"
done
echo "done $(date +%T)" >> "$O/progress"
