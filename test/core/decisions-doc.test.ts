/**
 * docs/decisions.md lists every decision kind the engine asks an agent: this test scans src/ for the
 * kinds and checks that the doc's tables name exactly those, each once.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const srcDir = join(root, 'src');
const docFile = join(root, 'docs', 'decisions.md');

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...tsFiles(p));
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/**
 * `.decide(` calls whose argument is not an object literal, so that the kind cannot be read there. Only
 * these are expected: the engine forwarding a request to the agent, the batch's watcher of stratagem offers
 * forwarding it to the agent it wraps, and the protocol's doc comment. A new call that passes a request built
 * elsewhere fails the test until it is handled here.
 */
const FORWARDING_CALLS = new Set([
  'src/core/game.ts: .decide(view, request as DecisionRequest)',
  'src/core/agent.ts: .decide(view, request)',
  'src/sim/stratagem-offers.ts: .decide(view, request)',
  // a fork shows the agents that play on the requests of the replayed prefix (their answers dropped)
  'src/replay/fork.ts: .decide(view, request)',
]);

/**
 * Shared helpers whose decide call asks a kind given by their callers (`kind` shorthand): the kind is read at
 * each call of the helper instead, its second argument a string literal.
 */
const KIND_FROM_CALLERS = [
  { file: 'src/factions/helpers.ts', call: /intoReservesAtTurnEnd\(\s*'[^']*',\s*'([a-z0-9-]+)'/g },
  { file: 'src/factions/helpers.ts', call: /embarkAtEndOfFight\(\s*\w+,\s*\w+,\s*'([a-z0-9-]+)'/g },
  { file: 'src/factions/aeldari/harlequin-detachments.ts', call: /registerStride\(\s*(?:"[^"]*"|'[^']*'),\s*[A-Z_]+,\s*'([a-z0-9-]+)'/g },
];

interface Scan { kinds: Map<string, string[]>; unreadable: string[] }

function scanEngine(): Scan {
  const kinds = new Map<string, string[]>();
  const unreadable: string[] = [];
  const add = (kind: string, where: string) => kinds.set(kind, [...(kinds.get(kind) ?? []), where]);
  for (const file of tsFiles(srcDir)) {
    const text = readFileSync(file, 'utf8');
    const rel = relative(root, file).split('\\').join('/');
    const lineOf = (i: number) => text.slice(0, i).split('\n').length;
    // every `.decide(` and `.decide<...>(` (a typed call: g.decide<{ none: true } | { fate: number }>({ ... }))
    for (const m of text.matchAll(/\.decide\s*([(<])/g)) {
      let i = m.index + m[0].length - 1;
      if (text[i] === '<') {
        // skip the type arguments (nested <> counted; the `>` of `=>` is not a closing bracket)
        let depth = 0;
        for (; i < text.length; i++) {
          if (text[i] === '<') depth++;
          else if (text[i] === '>' && text[i - 1] !== '=' && --depth === 0) break;
        }
        i++;
        while (/\s/.test(text[i])) i++;
        if (text[i] !== '(') { unreadable.push(`${rel}:${lineOf(m.index)}: no call after type arguments`); continue; }
      }
      // the argument: an object literal (possibly over several lines) whose first key is `kind`
      const arg = text.slice(i + 1, i + 401);
      if (!/^\s*\{/.test(arg)) {
        const call = text.slice(m.index, text.indexOf(')', i) + 1);
        if (!FORWARDING_CALLS.has(`${rel}: ${call}`)) unreadable.push(`${rel}:${lineOf(m.index)}: ${call}`);
        continue;
      }
      const k = /kind:\s*'([a-z0-9-]+)'/.exec(arg);
      // a shared helper that asks the kind its callers name (read at the calls below)
      if (!k && KIND_FROM_CALLERS.some((h) => h.file === rel && /^\s*\{\s*kind,/.test(arg))) continue;
      if (!k) { unreadable.push(`${rel}:${lineOf(m.index)}: no kind: '...' within 400 characters`); continue; }
      add(k[1], `${rel}:${lineOf(m.index)}`);
    }
    for (const h of KIND_FROM_CALLERS) {
      for (const m of text.matchAll(h.call)) add(m[1], `${rel}:${lineOf(m.index)}`);
    }
    // Re-roll policies are not asked through decide: the engine calls the agent's optional rerollPolicy
    // method and records the answer with g.recordAnswer(player, agent, '<kind>', choice). Those kinds
    // are decisions too (src/rules/attack-sequence.ts: 'reroll-policy').
    for (const m of text.matchAll(/\.recordAnswer\(([^)]*)\)/g)) {
      const k = /'([a-z0-9-]+)'/.exec(m[1]);
      if (k) add(k[1], `${rel}:${lineOf(m.index)}`);
      else unreadable.push(`${rel}:${lineOf(m.index)}: recordAnswer without a literal kind`);
    }
  }
  return { kinds, unreadable };
}

/** The first cell of every table row written as | `kind` |, in the doc's order (duplicates kept). */
function docKinds(): string[] {
  const text = readFileSync(docFile, 'utf8');
  return [...text.matchAll(/^\|\s*`([a-z0-9-]+)`\s*\|/gm)].map((m) => m[1]);
}

describe('docs/decisions.md', () => {
  const scan = scanEngine();
  const engine = [...scan.kinds.keys()].sort();
  const doc = docKinds();

  it('the scan of src/ reads the kind of every decide call', () => {
    expect(scan.unreadable, 'decide calls whose kind the scan cannot read (handle them in this test)').toEqual([]);
    expect(engine.length).toBeGreaterThanOrEqual(40);
  });

  it('lists each kind once', () => {
    const twice = doc.filter((k, i) => doc.indexOf(k) !== i);
    expect(twice, `kinds listed more than once in docs/decisions.md: ${twice.join(', ')}`).toEqual([]);
  });

  it('lists exactly the kinds the engine asks', () => {
    const listed = [...new Set(doc)].sort();
    const missing = engine.filter((k) => !listed.includes(k));
    const extra = listed.filter((k) => !scan.kinds.has(k));
    const message = `missing from docs/decisions.md: ${missing.map((k) => `${k} (${scan.kinds.get(k)!.join(', ')})`).join('; ') || 'none'}; ` +
      `in docs/decisions.md but never asked by the engine: ${extra.join(', ') || 'none'}`;
    expect(listed, message).toEqual(engine);
  });
});
