/**
 * CLI subcommand of src/factions:
 *   coverage [--faction X] [--armies] [--json] [--markdown] [--out file]
 * What of the bundled factions' data the engine plays (see ./coverage.ts).
 */
import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('coverage')
    .description('which datasheets, abilities, detachments and stratagems of the bundled factions the engine plays')
    .option('--faction <name>', 'one faction (tau, aeldari, TAU, AE...)')
    .option('--armies', 'only the datasheets of the bundled armies')
    .option('--json', 'print the report as JSON')
    .option('--markdown', 'print the report as Markdown (docs/coverage.md)')
    .option('--out <file>', 'write the report to a file')
    .action(async (opts: { faction?: string; armies?: boolean; json?: boolean; markdown?: boolean; out?: string }) => {
      await import('../rules/index.ts');
      await import('./index.ts');
      const { readdirSync, readFileSync } = await import('node:fs');
      const { writeFilesWhole } = await import('../data/write-whole.ts');
      const path = await import('node:path');
      const { bundledFactions, loadFactionCatalog } = await import('../data/catalog.ts');
      const { SCENARIOS_DIR } = await import('../data/scenario.ts');
      const { CliError } = await import('../cli-error.ts');
      if (opts.json && opts.markdown) throw new CliError('--json and --markdown: give one of them (one report format)');
      const { factionCoverage, formatCoverageMarkdown, formatCoverageText } = await import('./coverage.ts');
      let factions = bundledFactions();
      if (opts.faction) {
        try {
          const c = loadFactionCatalog(opts.faction);
          factions = factions.filter((f) => f.id === c.faction.id);
        } catch (e) {
          throw new CliError((e as Error).message);
        }
      }
      // datasheets the bundled armies use
      const used = new Set<string>();
      const dir = path.join(SCENARIOS_DIR, 'armies');
      for (const f of readdirSync(dir).filter((x) => x.endsWith('.json')).sort()) {
        const army = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as { units?: { datasheetId: string }[] };
        for (const u of army.units ?? []) used.add(u.datasheetId);
      }
      const report = factions.map((f) => factionCoverage(loadFactionCatalog(f.folder).data, used));
      const text = opts.json
        ? JSON.stringify(opts.armies ? report.map((r) => ({ ...r, datasheets: r.datasheets.filter((d) => d.inArmies) })) : report, null, 2)
        : opts.markdown ? formatCoverageMarkdown(report, { armiesOnly: opts.armies }) : formatCoverageText(report, { armiesOnly: opts.armies });
      // whole or not at all, a one-line error when it cannot be written
      if (opts.out) writeFilesWhole([{ path: opts.out, text: text.endsWith('\n') ? text : `${text}\n` }]);
      else process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    });
}
