/**
 * A tournament of agents on one scenario: every pair plays, each agent commanding each army (two
 * batches per pair, each with side swapping), so the armies' and sides' advantages cancel out. Win rates
 * carry 95% Wilson intervals.
 */
import type { ResolvedScenario } from '../data/scenario-types.ts';
import { runBatch } from './batch.ts';
import { makeSpec } from './variants.ts';
import { rate, type Rate } from './stats.ts';

export interface PairResult {
  agents: [string, string];
  games: number;
  wins: [number, number];
  draws: number;
  failed: number;
  /** win rate of the first agent (draws count as half a win in `score`) */
  winRate: Rate;
  score: number;
}

export interface TournamentResult {
  scenario: string;
  seed: string;
  gamesPerPair: number;
  pairs: PairResult[];
  /** per agent: wins over all its games, with interval */
  agents: { name: string; games: number; wins: number; draws: number; winRate: Rate }[];
}

export interface TournamentOptions {
  scenario: ResolvedScenario;
  scenarioFile: string | null;
  agents: string[];
  /** games per pair, split between the two ways of giving the armies to the agents (each a side-swapped batch: an even count), so rounded to a multiple of 4 */
  games: number;
  seed: string;
  workers?: number;
  onProgress?: (text: string) => void;
}

export async function runTournament(o: TournamentOptions): Promise<TournamentResult> {
  const pairs: PairResult[] = [];
  const half = Math.max(2, Math.round(o.games / 4) * 2);
  for (let i = 0; i < o.agents.length; i++) {
    for (let j = i + 1; j < o.agents.length; j++) {
      const a = o.agents[i];
      const b = o.agents[j];
      let winsA = 0, winsB = 0, draws = 0, failed = 0, games = 0;
      for (const [first, second, aIsArmy1] of [[a, b, true], [b, a, false]] as const) {
        o.onProgress?.(`${first} (army 1) vs ${second} (army 2): ${half} games`);
        const spec = makeSpec({ scenario: o.scenario, scenarioFile: o.scenarioFile, agents: [first, second], batchSeed: `${o.seed}/${a}-vs-${b}`, games: half });
        const out = await runBatch(spec, { workers: o.workers });
        const st = out.stats;
        const army1 = st.armies[0].wins.count;
        const army2 = st.armies[1].wins.count;
        winsA += aIsArmy1 ? army1 : army2;
        winsB += aIsArmy1 ? army2 : army1;
        draws += st.draws.count;
        failed += st.failed.length;
        games += st.games;
      }
      pairs.push({ agents: [a, b], games, wins: [winsA, winsB], draws, failed, winRate: rate(winsA, games), score: games ? (winsA + draws / 2) / games : 0 });
    }
  }
  const agents = o.agents.map((name) => {
    let games = 0, wins = 0, draws = 0;
    for (const p of pairs) {
      const k = p.agents.indexOf(name);
      if (k < 0) continue;
      games += p.games;
      wins += p.wins[k];
      draws += p.draws;
    }
    return { name, games, wins, draws, winRate: rate(wins, games) };
  });
  return { scenario: o.scenario.name, seed: o.seed, gamesPerPair: half * 2, pairs, agents };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export function formatTournament(t: TournamentResult): string {
  const lines = [`Tournament on ${t.scenario} (seed ${t.seed}, ${t.gamesPerPair} games per pair, each agent with each army, sides swapped)`, ''];
  lines.push('pair                                  games   wins      draws  first agent win rate [95% CI]');
  for (const p of t.pairs) {
    const name = `${p.agents[0]} vs ${p.agents[1]}`.padEnd(36);
    lines.push(`${name}  ${String(p.games).padStart(5)}   ${`${p.wins[0]}-${p.wins[1]}`.padEnd(9)} ${String(p.draws).padStart(5)}  ${pct(p.winRate.rate)} [${pct(p.winRate.ci95[0])}, ${pct(p.winRate.ci95[1])}]${p.failed ? `  (${p.failed} failed)` : ''}`);
  }
  lines.push('');
  lines.push('agent        games   win rate [95% CI]');
  for (const a of t.agents) lines.push(`${a.name.padEnd(12)} ${String(a.games).padStart(5)}   ${pct(a.winRate.rate)} [${pct(a.winRate.ci95[0])}, ${pct(a.winRate.ci95[1])}]`);
  return lines.join('\n') + '\n';
}
