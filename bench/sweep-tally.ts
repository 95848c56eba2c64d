/**
 * What bench/rule-sweep.ts and bench/datasheet-sweep.ts share: play a seeded game with the rule checks of
 * the invariants test (test/helpers/rule-checks.ts), print each broken rule with where it happened, and
 * count what was checked and what broke, by kind.
 */
import type { AgentFactory } from '../src/core/agent.ts';
import { makeAgent } from '../src/core/agent-loader.ts';
import type { ResolvedScenario } from '../src/data/scenario-types.ts';
import { playGame } from '../src/sim/play.ts';
import { ruleChecker } from '../test/helpers/rule-checks.ts';

export class SweepTally {
  played = 0;
  private readonly broken = new Map<string, number>();
  private readonly checked = new Map<string, number>();

  constructor(private readonly factory: AgentFactory) {}

  /** Play one game (the same agent on both sides, seeded with `seed`); `where` opens each broken rule's line. */
  play(sc: ResolvedScenario, seed: string, where: string): void {
    const rules = ruleChecker();
    try {
      playGame(sc, { seed, agents: [makeAgent(this.factory, seed, 0), makeAgent(this.factory, seed, 1)], onEvent: rules.onEvent });
    } catch (err) {
      rules.violations.push(`the game threw: ${(err as Error).message}`);
    }
    this.played++;
    for (const [k, v] of rules.checked) this.checked.set(k, (this.checked.get(k) ?? 0) + v);
    for (const v of rules.violations) {
      console.log(`${where}: ${v}`);
      // by kind: without the event number, model ids and distances
      const kind = v.replace(/^event \d+: /, '').replace(/p\d-u\d+(-m\d+)?/g, '…').replace(/[\d.]+"/g, '…"');
      this.broken.set(kind, (this.broken.get(kind) ?? 0) + 1);
    }
  }

  /** Print what was checked and what broke (after `summary`, the games played); exit code 1 when a rule broke. */
  report(summary: string): void {
    console.log(`\n${this.played} games (${summary}); checked:`);
    for (const [k, v] of this.checked) console.log(`  ${k.padEnd(26)} ${v}`);
    console.log(this.broken.size ? '\nbroken rules by kind:' : '\nno rule broken');
    for (const [k, v] of [...this.broken].sort((a, b) => b[1] - a[1])) console.log(`  ${String(v).padStart(6)}  ${k}`);
    process.exitCode = this.broken.size ? 1 : 0;
  }
}
