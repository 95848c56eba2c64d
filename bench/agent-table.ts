/**
 * The README's "How well they play" table, made from what `bash bench/agent-rows.sh [dir]` wrote:
 *   npx tsx bench/agent-table.ts [dir]     (default out/agent-rows)
 * Win rates with Wilson intervals (src/sim/stats.ts), the side-swapped pairs' margins from
 * bench/pair-margins.ts, a verdict from their z (1.96). Rows whose outputs are missing are named on stderr.
 */
import { existsSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { wilson } from '../src/sim/stats.ts';

const O = process.argv[2] ?? 'out/agent-rows';
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const iv = (lo: number, hi: number) => `[${pct(lo)}, ${pct(hi)}]`;
const rows: string[] = [];
const missing: string[] = [];

function tournaments(file: string): { name: string; j: any }[] {
  if (!existsSync(file)) return [];
  const out: { name: string; j: any }[] = [];
  let name = '';
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('== ')) name = line.slice(3).trim();
    else if (line.startsWith('{')) out.push({ name, j: JSON.parse(line) });
  }
  return out;
}

// heuristic vs random
const hr = tournaments(`${O}/heuristic-vs-random.txt`);
if (hr.length === 30) {
  // the pair is random,heuristic: the heuristic is the second
  const won = (t: { j: any }) => t.j.pairs[0].wins[1];
  const odd = hr.filter((t) => won(t) !== t.j.pairs[0].games);
  const all = hr.reduce((n, t) => n + won(t), 0);
  const games = hr.reduce((n, t) => n + t.j.pairs[0].games, 0);
  const [lo, hi] = wilson(all, games);
  const oddText = odd.map((t) => `${t.name.replace('scenarios/', '')} ${won(t)} wins, ${t.j.pairs[0].draws} draws, ${t.j.pairs[0].wins[0]} losses`).join('; ');
  const below = hr.filter((t) => won(t) / t.j.pairs[0].games < 0.95).length;
  rows.push(`| heuristic vs random, each of the 30 bundled scenarios (the 5 Strike Force scenarios, \`agent-formations.json\`, the 21 mirrors, the 3 Boarding Actions scenarios) | 40 each | won ${all.toLocaleString('en')} of ${games.toLocaleString('en')}, ${pct(all / games)} ${iv(lo, hi)}; every game on ${30 - odd.length} of the 30${odd.length ? ` (${oddText})` : ''} | ${below === 0 ? '≥ 95% on each ✓' : `≥ 95%: not met on ${below}`} |`);
} else missing.push(`heuristic-vs-random (${hr.length} of 30)`);

// lookahead vs heuristic
const la = tournaments(`${O}/lookahead.txt`);
{
  // the pair is heuristic,lookahead: the lookahead is the second
  const rec = new Map(la.map((t) => [t.name.replace('seed ', ''), { w: t.j.pairs[0].wins[1], d: t.j.pairs[0].draws, l: t.j.pairs[0].wins[0], n: t.j.pairs[0].games }]));
  type Rec = { w: number; d: number; l: number; n: number };
  const line = (label: string, seeds: string[]) => {
    const rs = seeds.map((x) => rec.get(x)).filter((r): r is Rec => r !== undefined);
    if (rs.length < seeds.length) { missing.push(`${label} (lookahead seeds ${seeds.join(', ')})`); return; }
    const w = rs.reduce((a, r) => a + r.w, 0), d = rs.reduce((a, r) => a + r.d, 0), l = rs.reduce((a, r) => a + r.l, 0), n = rs.reduce((a, r) => a + r.n, 0);
    const [lo, hi] = wilson(w, n);
    const parts = rs.length > 1 && rs.length < 6 ? `; ${rs.map((r) => `${r.w}-${r.d}-${r.l}`).join(', ')}` : '';
    const ok = w / n >= 0.55 ? (lo >= 0.55 ? '≥ 55% ✓ (the whole interval)' : '≥ 55% ✓ (point estimate)') : '≥ 55%: not met';
    rows.push(`| ${label} | ${n} | ${pct(w / n)} ${iv(lo, hi)} (${w} wins, ${d} ${d === 1 ? 'draw' : 'draws'}, ${l} ${l === 1 ? 'loss' : 'losses'}${parts}) | ${ok} |`);
  };
  line('lookahead vs heuristic, default scenario, seed 3', ['3']);
  line('the same, seed 4', ['4']);
  line('the same, seed 5', ['5']);
  line('seeds 3, 4 and 5 together', ['3', '4', '5']);
  line('the same, seeds 6, 7 and 8', ['6', '7', '8']);
  line('all six seeds', ['3', '4', '5', '6', '7', '8']);
}

function margins(dirs: string[]): string {
  const out = execFileSync('npx', ['tsx', 'bench/pair-margins.ts', ...dirs], { encoding: 'utf8' }).trim().split('\n').pop()!;
  const m = /won twice (\d+) to (\d+); .*: ([+-][\d.]+) points \[([+-][\d.]+), ([+-][\d.]+)\], z (-?[\d.]+)/.exec(out);
  if (!m) throw new Error(out);
  return JSON.stringify(m.slice(1));
}

const batchNames = new Set<string>();
function batchRow(label: string, names: string[], opts: { vp?: boolean; target?: (z: number) => string; mirror?: boolean } = {}): void {
  for (const n of names) if (!existsSync(`${O}/${n}.json`) || readFileSync(`${O}/${n}.json`, 'utf8').trim() === '') { missing.push(`${label} (${names.join(', ')})`); return; }
  // the first-turn share is the mirrors' (the same army on both sides)
  if (opts.mirror !== false) for (const n of names) batchNames.add(n);
  const js = names.map((n) => JSON.parse(readFileSync(`${O}/${n}.json`, 'utf8')));
  const games = js.reduce((a, j) => a + j.games, 0);
  const w0 = js.reduce((a, j) => a + j.wins[0], 0), w1 = js.reduce((a, j) => a + j.wins[1], 0);
  const [a0, a1] = wilson(w0, games), [b0, b1] = wilson(w1, games);
  const [t1, t2, p, plo, phi, z] = JSON.parse(margins(names.map((n) => `${O}/${n}`)));
  const vp = opts.vp ? `; VP ${(js.reduce((a, j) => a + j.meanVp[0] * j.games, 0) / games).toFixed(1)} vs ${(js.reduce((a, j) => a + j.meanVp[1] * j.games, 0) / games).toFixed(1)}` : '';
  const zf = Number(z);
  const verdict = opts.target ? opts.target(zf) : (zf >= 1.96 ? 'detachment ahead ✓' : zf <= -1.96 ? 'detachment behind' : Number(p) >= 0 ? 'ahead, within the interval' : 'behind, within the interval');
  rows.push(`| ${label} | ${games.toLocaleString('en')} | ${pct(w0 / games)} ${iv(a0, a1)} vs ${pct(w1 / games)} ${iv(b0, b1)}${vp}; pairs won twice ${t1} to ${t2}; per side-swapped pair ${p} points [${plo}, ${phi}], z = ${z} | ${verdict} |`);
}

batchRow('the heuristic against itself without the gun-platform doctrine (`bench/no-doctrine-agent.ts`: `gunlineVehicles: 0`, `chargeCost: 0`), default scenario, seed 11', ['no-doctrine'], { mirror: false, target: (z) => (z >= 1.96 ? 'the doctrine helps ✓' : 'the doctrine not shown to help') });
batchRow('Kauyon vs no detachment (`mirror/kauyon-vs-none.json`), heuristic both sides', ['kauyon']);
batchRow('Battle Host vs no detachment (`mirror/battle-host-vs-none.json`)', ['battle-host']);
batchRow("Mont'ka vs no detachment (`mirror/montka-vs-none.json`)", ['montka-1']);
batchRow('the same, seed 5', ['montka-5']);
batchRow("Mont'ka, both runs together", ['montka-1', 'montka-5']);
batchRow('Guardian Battlehost vs no detachment (`mirror/guardian-battlehost-vs-none.json`)', ['guardian-battlehost']);
batchRow('Retaliation Cadre vs no detachment (`mirror/retaliation-vs-none.json`)', ['retaliation']);
batchRow('the same, seed 5', ['retaliation-5']);
batchRow('Kroot Hunting Pack vs no detachment (`mirror/kroot-hunting-pack-vs-none.json`, the Kroot army `armies/tau-kroot-hunting-pack.json`)', ['kroot-hunting-pack']);
batchRow('Auxiliary Cadre vs no detachment (`mirror/auxiliary-cadre-vs-none.json`, the same army)', ['auxiliary-cadre']);
batchRow('the same, seed 5', ['auxiliary-cadre-5']);
batchRow('Windrider Host vs no detachment (`mirror/windrider-host-vs-none.json`, `armies/aeldari-windrider-host.json`)', ['windrider-host']);
batchRow('the same, seed 5', ['windrider-host-5']);
batchRow('Aspect Host vs no detachment (`mirror/aspect-host-vs-none.json`, the Battle Host army)', ['aspect-host']);
batchRow('the same, seed 5', ['aspect-host-5']);
batchRow('Ghosts of the Webway vs no detachment (`mirror/ghosts-of-the-webway-vs-none.json`, the Harlequin army `armies/aeldari-harlequins.json`)', ['ghosts-of-the-webway']);
batchRow('the same, seed 5', ['ghosts-of-the-webway-5']);
batchRow("Serpent's Brood vs no detachment (`mirror/serpents-brood-vs-none.json`, the same army)", ['serpents-brood']);
batchRow('Corsair Coterie vs no detachment (`mirror/corsair-coterie-vs-none.json`, the Corsair army `armies/aeldari-corsairs.json`)', ['corsair-coterie']);
batchRow('Eldritch Raiders vs no detachment (`mirror/eldritch-raiders-vs-none.json`, the same army)', ['eldritch-raiders']);
batchRow('the same, seed 5', ['eldritch-raiders-5']);
batchRow('Seer Council vs no detachment (`mirror/seer-council-vs-none.json`, `armies/aeldari-seer-council.json`)', ['seer-council']);
batchRow('the same, seed 5', ['seer-council-5']);
batchRow('Spirit Conclave vs no detachment (`mirror/spirit-conclave-vs-none.json`, the Wraith army `armies/aeldari-wraiths.json`)', ['spirit-conclave']);
batchRow('Warhost vs no detachment (`mirror/warhost-vs-none.json`, the Battle Host army)', ['warhost']);
batchRow('the same, seed 5', ['warhost-5']);
batchRow('Devoted of Ynnead vs no detachment (`mirror/devoted-of-ynnead-vs-none.json`, the Ynnari army `armies/aeldari-ynnari.json`)', ['devoted-of-ynnead']);
batchRow('Kroot Raiding Party vs no detachment, Boarding Actions (`boarding-actions/kroot-raiding-party-vs-none.json`, `armies/tau-kroot-raiding-party.json`)', ['kroot-raiding-party']);
batchRow('the same, seed 5', ['kroot-raiding-party-5']);
batchRow('Armoured Warhost vs no detachment, Dawn of War (`mirror/armoured-warhost-vs-none.json`), seed 3', ['aw-dawn-of-war'], { vp: true });
batchRow('the same on Crucible of Battle (`mirror/armoured-warhost-vs-none-crucible.json`), seed 7', ['aw-crucible'], { vp: true });
batchRow('the same on Search and Destroy (`mirror/armoured-warhost-vs-none-search-and-destroy.json`), seed 7', ['aw-search-and-destroy'], { vp: true });
batchRow('the same on Hammer and Anvil (`mirror/armoured-warhost-vs-none-hammer-and-anvil.json`), seed 3', ['aw-hammer-and-anvil'], { vp: true });
batchRow('Armoured Warhost, the four deployments together', ['aw-dawn-of-war', 'aw-crucible', 'aw-search-and-destroy', 'aw-hammer-and-anvil'], { vp: true });

console.log('| match | games | result (95% Wilson interval) | target |');
console.log('|---|---|---|---|');
for (const r of rows) console.log(r);
// the first-turn advantage over the mirror batches: the games the player who went first won, of those won
let first = 0, decided = 0;
for (const n of batchNames) {
  const f = `${O}/${n}/results.json`;
  if (!existsSync(f)) continue;
  const st = JSON.parse(readFileSync(f, 'utf8')).stats;
  first += st.firstTurnWins.count;
  decided += st.games - st.draws.count - st.failed.length;
}
if (decided > 0) console.log(`\nfirst turn: ${first.toLocaleString('en')} of the ${decided.toLocaleString('en')} decided games of the batches (${pct(first / decided)}) went to the player who went first`);
if (missing.length) console.error(`missing: ${missing.join('; ')}`);
