/** `import wahapedia`: run the importer, print what it could not parse, then write the files. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliError } from '../cli-error.ts';
import { formatImportReport, importWahapedia } from './wahapedia.ts';
import { stableStringify } from './stable-json.ts';
import { writeFilesWhole } from './write-whole.ts';
import type { FactionData } from './faction-data.ts';

const DEFAULT_OUT = fileURLToPath(new URL('../factions/', import.meta.url));

/** Where each faction's file goes: <dir>/<folder>/units.json, or the one .json file given. */
export function outputPaths(factions: FactionData[], out?: string): string[] {
  if (out && out.endsWith('.json')) {
    if (factions.length !== 1) throw new CliError(`--out ${out}: a single .json file holds one faction, but ${factions.length} were imported; give a directory`);
    return [path.resolve(out)];
  }
  const dir = path.resolve(out ?? DEFAULT_OUT);
  return factions.map((f) => path.join(dir, f.faction.folder, 'units.json'));
}

/**
 * The --factions value: export ids separated by commas, each once (ids are case-blind: TAU,tau is TAU),
 * or 'all' alone (an empty list is []: every faction). Nothing named, or 'all' beside ids, is an error
 * rather than a guess at what was meant.
 */
export function factionIds(text: string): string[] {
  const ids = text.split(',').map((f) => f.trim()).filter(Boolean);
  if (!ids.length) throw new CliError(`--factions: expected export faction ids separated by commas (TAU,AE) or 'all', got ${JSON.stringify(text)}`);
  const all = ids.filter((f) => f.toLowerCase() === 'all');
  if (all.length && all.length < ids.length) throw new CliError(`--factions: 'all' imports every faction; give it alone or list the ids without it, got ${JSON.stringify(text)}`);
  if (all.length) return [];
  const seen = new Set<string>();
  return ids.filter((f) => !seen.has(f.toUpperCase()) && seen.add(f.toUpperCase()));
}

export function runImport(dir: string, opts: { factions: string; out?: string }): void {
  const factions = factionIds(opts.factions);
  // everything is parsed and checked before the first file is written
  const result = importWahapedia(dir, { factions });
  const files = outputPaths(result.factions, opts.out);
  const texts = result.factions.map((f) => stableStringify(f));
  process.stdout.write(`${formatImportReport(result.report)}\n`);
  // every file whole or none: a faction that cannot be written leaves the others as they were
  writeFilesWhole(files.map((p, i) => ({ path: p, text: texts[i] })));
  result.factions.forEach((f, i) => {
    process.stdout.write(`wrote ${files[i]}: ${f.faction.name}, ${f.datasheets.length} datasheets, ${f.detachments.length} detachments, ${f.stratagems.length} stratagems, ${f.enhancements.length} enhancements\n`);
  });
}
