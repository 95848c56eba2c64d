#!/bin/bash
# Plays every agent row of the README's "How well they play" table (docs/agent-measurements.md), from the
# repository's root: about 90 minutes on 2 cores (72-74 in three runs before the four mirrors of 2026-12-04 were added, not timed since the Warhost and Devoted of Ynnead mirrors; the six lookahead tournaments are the longest part). Outputs in $1 (default out/agent-rows): the JSON lines
# of the tournaments and batches, and batch folders (games.csv, results.json) where the README quotes pairs.
set -u
O=${1:-out/agent-rows}; mkdir -p "$O"
T() { npx tsx src/cli.ts "$@"; }
{
  for f in scenarios/*.json scenarios/mirror/*.json scenarios/boarding-actions/*.json; do   # 30 scenarios
    echo "== $f"; T tournament "$f" --agents random,heuristic --games 40 --json; done
} > "$O/heuristic-vs-random.txt" 2>&1 &
{
  for s in 3 4 5 6 7 8; do echo "== seed $s"; T tournament scenarios/default.json --agents heuristic,lookahead --games 40 --seed $s --json; done
} > "$O/lookahead.txt" 2>&1
wait
T batch scenarios/mirror/kauyon-vs-none.json --agents heuristic,heuristic --games 200 --out "$O/kauyon" --replace --json > "$O/kauyon.json" 2>/dev/null &
T batch scenarios/mirror/battle-host-vs-none.json --agents heuristic,heuristic --games 200 --out "$O/battle-host" --replace --json > "$O/battle-host.json" 2>/dev/null
wait
T batch scenarios/mirror/montka-vs-none.json --agents heuristic,heuristic --games 200 --out "$O/montka-1" --replace --json > "$O/montka-1.json" 2>/dev/null &
T batch scenarios/default.json --agents heuristic,./bench/no-doctrine-agent.ts --games 400 --seed 11 --out "$O/no-doctrine" --replace --json > "$O/no-doctrine.json" 2>/dev/null
wait
T batch scenarios/mirror/montka-vs-none.json --agents heuristic,heuristic --games 1000 --seed 5 --out "$O/montka-5" --replace --json > "$O/montka-5.json" 2>/dev/null &
T batch scenarios/mirror/retaliation-vs-none.json --agents heuristic,heuristic --games 200 --out "$O/retaliation" --replace --json > "$O/retaliation.json" 2>/dev/null
T batch scenarios/mirror/guardian-battlehost-vs-none.json --agents heuristic,heuristic --games 200 --out "$O/guardian-battlehost" --replace --json > "$O/guardian-battlehost.json" 2>/dev/null
wait
for m in kroot-hunting-pack auxiliary-cadre windrider-host aspect-host ghosts-of-the-webway serpents-brood corsair-coterie seer-council eldritch-raiders spirit-conclave warhost devoted-of-ynnead; do
  T batch "scenarios/mirror/$m-vs-none.json" --agents heuristic,heuristic --games 200 --out "$O/$m" --replace --json > "$O/$m.json" 2>/dev/null
done
T batch scenarios/boarding-actions/kroot-raiding-party-vs-none.json --agents heuristic,heuristic --games 200 --out "$O/kroot-raiding-party" --replace --json > "$O/kroot-raiding-party.json" 2>/dev/null
for row in "armoured-warhost-vs-none 3 dawn-of-war" "armoured-warhost-vs-none-crucible 7 crucible" \
           "armoured-warhost-vs-none-search-and-destroy 7 search-and-destroy" "armoured-warhost-vs-none-hammer-and-anvil 3 hammer-and-anvil"; do
  set -- $row
  T batch "scenarios/mirror/$1.json" --agents heuristic,heuristic --games 2000 --seed "$2" --out "$O/aw-$3" --replace --json > "$O/aw-$3.json" 2>/dev/null
done
echo "done: $O"
