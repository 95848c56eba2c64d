#!/usr/bin/env -S npx tsx
/**
 * Strategium's one command-line tool. Each subcommand lives in its own module, which registers itself
 * on the commander program; this file only lists them.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { CliError } from './cli-error.ts';
import { IllegalDecisionError } from './core/agent.ts';

// the version users quote in a report: package.json's, read beside src/ (no build step copies it), with the
// checkout's commit when it is one (package.json's number does not move between commits; the games may)
const { version: packageVersion } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
const version = process.argv.includes('--version') || process.argv.includes('-V') ? `${packageVersion}${checkoutCommit()}` : packageVersion;

/** " (commit 1a2b3c4d5e6f)", "-dirty" when the checkout has changes; empty outside a git checkout. */
function checkoutCommit(): string {
  try {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const id = execFileSync('git', ['-C', root, 'describe', '--always', '--dirty', '--abbrev=12'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return id ? ` (commit ${id})` : '';
  } catch {
    return '';
  }
}

const program = new Command();
program.name('strategium').description('Warhammer 40,000 (10th edition) simulation engine').version(version).showHelpAfterError();
// commander's own errors (an unknown option, a missing argument) are bad input like the rest: exit code 2
// (set before the commands are added: they inherit it)
program.exitOverride();

// Each module exports `register(program)`. Loaded eagerly: they only import what their command needs lazily.
const commandModules: Array<() => Promise<{ register: (p: Command) => void }>> = [
  () => import('./geometry/commands.ts'),
  () => import('./calc/commands.ts'),
  () => import('./data/commands.ts'),
  () => import('./factions/commands.ts'),
  () => import('./sim/commands.ts'),
  () => import('./sim/tournament-command.ts'),
  () => import('./sim/batch-commands.ts'),
  () => import('./replay/commands.ts'),
];

for (const load of commandModules) (await load()).register(program);

// an option left without its value takes the next option as it ("play --seed --agents a,b" made "--agents"
// the seed and "a,b" the scenario): named as what it is
program.hook('preAction', (_program, command) => {
  for (const o of command.options) {
    const v: unknown = command.getOptionValue(o.attributeName());
    const flag = typeof v === 'string' && v.startsWith('--') ? v.split('=')[0] : null;
    if (flag !== null && command.options.some((x) => x.long === flag)) throw new CliError(`${o.long}: expected a value, got the option ${flag} (give ${o.long} its value)`);
  }
});

try {
  await program.parseAsync(process.argv);
} catch (err) {
  // commander has printed its message (or the help, or the version: exit code 0)
  if (err instanceof CommanderError) process.exit(err.exitCode === 0 ? 0 : 2);
  if (err instanceof CliError) {
    process.stderr.write(`error: ${err.message}\n`);
    process.exit(err.exitCode);
  }
  // an agent's bug, not the engine's: one line naming the agent, the request and the seed
  if (err instanceof IllegalDecisionError) {
    process.stderr.write(`error: ${err.message}\n`);
    process.exit(1);
  }
  throw err;
}
