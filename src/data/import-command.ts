/** `import wahapedia`: run the importer, print what it could not parse, then write the files. */
import { writeFileSync } from 'node:fs';
import { makeDirs } from './make-dirs.ts';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliError } from '../cli-error.ts';
import { formatImportReport, importWahapedia } from './wahapedia.ts';
import { stableStringify } from './stable-json.ts';
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

export function runImport(dir: string, opts: { factions: string; out?: string }): void {
  const factions = opts.factions.split(',').map((f) => f.trim()).filter(Boolean);
  // everything is parsed and checked before the first file is written
  const result = importWahapedia(dir, { factions });
  const files = outputPaths(result.factions, opts.out);
  const texts = result.factions.map((f) => stableStringify(f));
  process.stdout.write(`${formatImportReport(result.report)}\n`);
  result.factions.forEach((f, i) => {
    makeDirs(path.dirname(files[i]));
    writeFileSync(files[i], texts[i]);
    process.stdout.write(`wrote ${files[i]}: ${f.faction.name}, ${f.datasheets.length} datasheets, ${f.detachments.length} detachments, ${f.stratagems.length} stratagems, ${f.enhancements.length} enhancements\n`);
  });
}
