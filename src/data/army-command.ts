/** `army`: parse an army list (or check an army JSON file) and print or write the army file. */
import { statSync } from 'node:fs';
import { writeFilesWhole } from './write-whole.ts';
import { CliError } from '../cli-error.ts';
import { armyPointsWarnings, checkArmyAgainstCatalog, isArmyFile, loadArmyFile, readListFile, type ArmyFile } from './army.ts';
import { parseArmyList } from './army-build.ts';
import { bundledSource, exportSource, findFaction, type CatalogSource } from './catalog.ts';
import { stableStringify } from './stable-json.ts';

export interface ArmyCommandOptions {
  json?: boolean;
  out?: string;
  data?: string;
  faction?: string;
  fitWargear?: boolean;
}

export async function runArmy(file: string, opts: ArmyCommandOptions): Promise<void> {
  let stat;
  try {
    stat = statSync(file);
  } catch {
    throw new CliError(`${file}: file not found`);
  }
  if (!stat.isFile()) throw new CliError(`${file}: expected an army list export (.txt) or an army file (.json), found a folder`);
  const sources: CatalogSource[] = [];
  if (opts.data) sources.push(exportSource(opts.data));
  sources.push(bundledSource());
  let army: ArmyFile;
  let warnings: string[];
  if (isArmyFile(file)) {
    if (opts.fitWargear) throw new CliError(`${file}: --fit-wargear fits a list export (.txt) as it is converted; an army file's weapons are edited in the file`);
    army = loadArmyFile(file);
    const src = sources.find((s) => findFaction(army.faction, s.factions()));
    if (!src) {
      const bundled = [...new Set(sources.flatMap((s) => s.factions().map((f) => `${f.name} (${f.id})`)))];
      throw new CliError(`${file}: faction: "${army.faction}" is not bundled (available: ${bundled.join(', ')}); pass --data <Wahapedia export dir> for another`);
    }
    const id = findFaction(army.faction, src.factions())!.id;
    // a file may carry warnings the checks repeat (a hand-written or older file): each is printed once
    const catalog = src.load(id);
    // the file's points against the data and its own battle size (a game checks them against its own)
    warnings = [...new Set([...(army.warnings ?? []), ...checkArmyAgainstCatalog(army, catalog, file), ...armyPointsWarnings(army, catalog, army.detachment || null, army.battleSize)])];
  } else {
    const parsed = parseArmyList(readListFile(file), { file, faction: opts.faction, sources, fitWargear: opts.fitWargear });
    army = parsed.army;
    warnings = parsed.warnings;
  }
  const json = stableStringify(army);
  if (opts.out) writeFilesWhole([{ path: opts.out, text: json }]);
  if (opts.json) {
    process.stdout.write(json);
    // the file keeps no muster warnings (they are checked whenever it is read): said where a script sees them apart
    for (const w of warnings) process.stderr.write(`warning: ${w}\n`);
    return;
  }
  process.stdout.write(summary(army, warnings));
  if (opts.out) process.stdout.write(`wrote ${opts.out}\n`);
}

function summary(army: ArmyFile, warnings: string[]): string {
  const lines = [
    `${army.name}: ${army.factionName ?? army.faction}${army.subfaction ? ` (${army.subfaction})` : ''}, ${army.detachment || 'no detachment'}, ${army.battleSize.name} (${army.battleSize.pointsLimit}), ${army.points} points, ${army.units.length} units`,
  ];
  for (const u of army.units) {
    const models = u.models.reduce((s, m) => s + m.count, 0);
    lines.push(`  ${u.id} ${u.name}: ${models} model${models === 1 ? '' : 's'}, ${u.points} pts${u.enhancement ? `, ${u.enhancement}` : ''}${u.warlord ? ', Warlord' : ''}`);
  }
  if (warnings.length) {
    lines.push(`${warnings.length} warning${warnings.length === 1 ? '' : 's'}:`);
    for (const w of warnings) lines.push(`  ${w}`);
  }
  return `${lines.join('\n')}\n`;
}
