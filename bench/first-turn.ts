/**
 * `npx tsx bench/first-turn.ts [--agent A] [--games N] [--seed S] [scenario]`: where the first-turn
 * advantage comes from. Plays N games of the scenario (the same agent on both sides, seeds
 * gameSeed(S, i)) and prints, at the end of each turn, averaged over the games that reached it, how many
 * markers the player who took the first turn and the other player hold (more OC there than the other
 * side), the points of army each has left (the agents' unitValue), and their VP; then, for each marker,
 * how often each holds it at the end of the first player's turns and of the second player's, rounds 2-4
 * (what the other side scores at its next Command phase). Scoring starts at round 2's Command phase, so a
 * marker held at the end of the opponent's turn is a marker scored. Markers are labelled by the side
 * whose deployed army is nearer (6" or more). The VP are those at the end of each Fight phase: the
 * second player's score for its last turn comes after it.
 */
import { Command, InvalidArgumentError } from 'commander';
import { agentModuleFile, loadAgentFactory, makeAgent } from '../src/core/agent-loader.ts';
import { gameSeed } from '../src/core/rng.ts';
import { loadScenario } from '../src/data/scenario.ts';
import { playGame } from '../src/sim/play.ts';
import { objectiveSnapshot } from '../src/ai/tactics.ts';
import { unitValue } from '../src/ai/evaluate.ts';
import type { GameState, PlayerIndex } from '../src/core/state.ts';

const count = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number, 1 or more');
  return n;
};
const program = new Command('first-turn')
  .description('markers held, army left and VP at the end of each turn, first player against second')
  .argument('[scenario]', 'scenario file', 'scenarios/default.json')
  .option('--agent <name>', 'the agent on both sides', 'heuristic')
  .option('--games <n>', 'games to play', count, 40)
  .option('--seed <s>', 'batch seed of the games', 'first-turn')
  .showHelpAfterError();
program.parse();
const opts = program.opts<{ agent: string; games: number; seed: string }>();
const scenario = loadScenario(program.args[0] ?? 'scenarios/default.json');
const factory = await loadAgentFactory(agentModuleFile(opts.agent));

/** Sums per turn end, first player's then second's: markers held, army value left, VP; and how many games. */
interface Sums { held: [number, number]; value: [number, number]; vp: [number, number]; n: number }
const turns = new Map<string, Sums>();
/** Per marker, at the end of whose turn: games in which the first / second player held it, and all. */
const markers = new Map<string, { held: [number, number]; n: number }>();
let decided = 0;
let firstWon = 0;

function heldBy(p: PlayerIndex, level: [number[], number[]]): number {
  return level[p].filter((l, k) => l > level[1 - p][k]).length;
}

function centreOf(s: GameState, p: PlayerIndex): { x: number; y: number } {
  let x = 0, y = 0, n = 0;
  for (const id of s.unitOrder) {
    const u = s.units[id];
    if (u.player !== p) continue;
    for (const m of u.models) if (m.alive && m.pos) { x += m.pos.x; y += m.pos.y; n++; }
  }
  return n ? { x: x / n, y: y / n } : { x: 0, y: 0 };
}

for (let i = 0; i < opts.games; i++) {
  const seed = gameSeed(opts.seed, i);
  let first: PlayerIndex = 0;
  // each side's centre once deployed: a marker is on the side of the nearer one (the middle if neither is 6" nearer)
  let centres: { x: number; y: number }[] = [];
  const { result } = playGame(scenario, {
    seed,
    agents: [makeAgent(factory, seed, 0), makeAgent(factory, seed, 1)],
    onEvent: (e, s) => {
      if (e.type === 'first-turn') {
        first = e.player;
        centres = [first, 1 - first].map((p) => centreOf(s, p as PlayerIndex));
      }
      if (e.type !== 'phase-ended' || e.phase !== 'fight') return;
      const order: [PlayerIndex, PlayerIndex] = [first, (1 - first) as PlayerIndex];
      const { level } = objectiveSnapshot(s);
      const whose = e.player === first ? 'first' : 'second';
      const key = `round ${e.round}, ${whose} player's turn`;
      const t = turns.get(key) ?? { held: [0, 0], value: [0, 0], vp: [0, 0], n: 0 };
      order.forEach((p, k) => {
        t.held[k] += heldBy(p, level);
        for (const id of s.unitOrder) if (s.units[id].player === p) t.value[k] += unitValue(s, s.units[id]);
        t.vp[k] += s.players[p].vp;
      });
      t.n++;
      turns.set(key, t);
      if (e.round < 2 || e.round > 4) return;
      s.objectives.forEach((o, k) => {
        const d = centres.map((c) => Math.hypot(c.x - o.pos.x, c.y - o.pos.y));
        const side = d[0] < d[1] - 6 ? "first player's side" : d[1] < d[0] - 6 ? "second player's side" : 'middle';
        const mk = `${side === 'middle' ? `marker ${o.id} (middle)` : `the marker on the ${side}`}, after the ${whose} player's turns`;
        const m = markers.get(mk) ?? { held: [0, 0], n: 0 };
        order.forEach((p, j) => { if (level[p][k] > level[1 - p][k]) m.held[j]++; });
        m.n++;
        markers.set(mk, m);
      });
    },
  });
  if (result.winner !== null) { decided++; if (result.winner === first) firstWon++; }
}

const f = (x: number, d = 2) => x.toFixed(d);
console.log(`${scenario.name}, ${opts.agent} on both sides, ${opts.games} games: the first player won ${firstWon} of ${decided} decided`);
console.log('at the end of                     markers held     army left (points)   VP');
console.log('                                  first  second    first  second        first  second');
for (const [k, t] of turns) {
  console.log(`${k.padEnd(34)}${f(t.held[0] / t.n).padStart(5)}  ${f(t.held[1] / t.n).padStart(6)}    ${f(t.value[0] / t.n, 0).padStart(5)}  ${f(t.value[1] / t.n, 0).padStart(6)}        ${f(t.vp[0] / t.n, 1).padStart(5)}  ${f(t.vp[1] / t.n, 1).padStart(6)}`);
}
console.log('\nrounds 2-4, share of turn ends at which each holds the marker:');
for (const [k, m] of [...markers].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
  console.log(`  ${k.padEnd(72)} first ${f(m.held[0] / m.n)}  second ${f(m.held[1] / m.n)}`);
}
