/**
 * `npm run profile -- [agent] [games] [scenario]`: where complete games spend their time, function by
 * function, with the source file of each. Through tsx, V8 reports every function at line 0 of its
 * module; here the game loop is bundled with esbuild into one plain JS file (each module keeping its own
 * `import.meta.url`, so data paths resolve as in the source), run under `node --cpu-prof` after two
 * warm-up games, and the profile is summed by function: self and total time, and the source file, read
 * from the module comments esbuild writes into the bundle (the top 30 of each list; PROFILE_TOP=N for more). The
 * .cpuprofile is kept (in out/profile/) for Chrome DevTools.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { agentModuleFile } from '../src/core/agent-loader.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// output piped into `head` and closed early: stop quietly
process.stdout.on('error', (e: NodeJS.ErrnoException) => { if (e.code === 'EPIPE') process.exit(0); else throw e; });
const [agent = 'heuristic', gamesArg = '10', scenario = join(root, 'scenarios', 'default.json')] = process.argv.slice(2);
// inside the project (out/ is not committed), so that the bundle finds the packages in node_modules;
// emptied each run (the last profile is kept until the next)
const dir = join(root, 'out', 'profile');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

// the loop that is profiled: the same agent on both sides, seeded games
const entry = join(dir, 'entry.ts');
writeFileSync(entry, `
import { makeAgent } from ${JSON.stringify(join(root, 'src/core/agent-loader.ts'))};
import { gameSeed } from ${JSON.stringify(join(root, 'src/core/rng.ts'))};
import { loadScenario } from ${JSON.stringify(join(root, 'src/data/scenario.ts'))};
import { playGame } from ${JSON.stringify(join(root, 'src/sim/play.ts'))};
import agentModule from ${JSON.stringify(agentFile(agent))};
const [file, n] = [process.argv[2], Number(process.argv[3])];
const sc = loadScenario(file);
const play = (seed) => playGame(sc, { seed, agents: [makeAgent(agentModule, seed, 0), makeAgent(agentModule, seed, 1)] });
for (let i = 0; i < 2; i++) play(gameSeed('profile-warm', i));
const t = performance.now();
for (let i = 0; i < n; i++) play(gameSeed('profile', i));
console.log(((performance.now() - t) / n).toFixed(1) + ' ms a game over ' + n + ' games');
`);

/** The agent's module file (as the CLI resolves it); an unknown agent is a one-line error. */
function agentFile(spec: string): string {
  try {
    return agentModuleFile(spec);
  } catch (e) {
    process.stderr.write(`profile: ${(e as Error).message}\n`);
    process.exit(2);
  }
}

// each module's import.meta.url stays its own source file's (the data folders are found relative to it)
const ownUrl: Plugin = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      loader: 'ts',
    }));
  },
};

const bundle = join(dir, 'games.mjs');
await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile: bundle, packages: 'external', plugins: [ownUrl], logLevel: 'warning', absWorkingDir: root });
const out = execFileSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, bundle, resolve(scenario), gamesArg], { cwd: root, encoding: 'utf8' });
process.stdout.write(`${agent}, ${out.trim()}\n`);

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] }
const profileFile = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).map((f) => join(dir, f))
  .sort((a, b) => statSync(b).size - statSync(a).size)[0];
const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as { nodes: Node[]; samples: number[] };

// bundle line -> source file, from the "// src/..." comments that open each module in the bundle
const starts: { line: number; file: string }[] = [];
readFileSync(bundle, 'utf8').split('\n').forEach((text, line) => {
  const m = /^\/\/ (\S+\.ts)$/.exec(text);
  if (m) starts.push({ line, file: m[1] });
});
const sourceOf = (line: number): string => {
  let file = '';
  for (const s of starts) if (s.line <= line) file = s.file;
  return file;
};

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const key = (n: Node): string => {
  const { functionName, url, lineNumber, columnNumber } = n.callFrame;
  const inBundle = url === pathToFileURL(bundle).href;
  // the bundle's own top level (the profiled loop's module code) starts at its first character
  if (inBundle && !functionName && lineNumber === 0 && columnNumber === 0) return '(the games loop, module top level)';
  const where = inBundle ? sourceOf(lineNumber) : url.startsWith('file:') ? relative(root, fileURLToPath(url)) : url;
  return `${functionName || '(anonymous)'}${where ? `  ${where}` : ''}`;
};
const self = new Map<string, number>();
const total = new Map<string, number>();
const counts = new Map<number, number>();
for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
for (const [id, c] of counts) {
  const k = key(byId.get(id)!);
  self.set(k, (self.get(k) ?? 0) + c);
  const seen = new Set<string>();
  for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) {
    const kk = key(byId.get(x)!);
    if (!seen.has(kk)) { seen.add(kk); total.set(kk, (total.get(kk) ?? 0) + c); }
  }
}
const all = profile.samples.length;
const top = (m: Map<string, number>, title: string) => {
  process.stdout.write(`\n${title}\n`);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, Number(process.env.PROFILE_TOP ?? 30))) {
    process.stdout.write(`${((v * 100) / all).toFixed(1).padStart(6)}%  ${k}\n`);
  }
};
top(self, 'self time (the function itself)');
top(total, 'total time (with what it calls)');
process.stdout.write(`\nprofile: ${profileFile} (open in Chrome DevTools, Performance tab)\n`);
