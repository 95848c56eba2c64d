/**
 * CLI subcommands of src/data:
 *   import wahapedia <dir> [--factions TAU,AE|all] [--out <file-or-dir>]
 *   army <list.txt | army.json> [--json] [--out file] [--data <wahapedia dir>] [--faction <name>] [--fit-wargear]
 * Modules are loaded when a command runs, so other commands do not pay for them.
 */
import type { Command } from 'commander';

export function register(program: Command): void {
  const imp = program.command('import').description('import data from an external export');
  imp
    .command('wahapedia <dir>')
    .description("build src/factions/<faction>/units.json from Wahapedia's 10th-edition CSV export")
    .option('--factions <ids>', "comma-separated faction ids of the export (TAU,AE), or 'all'", 'TAU,AE')
    .option('--out <file-or-dir>', 'output directory (one <folder>/units.json per faction) or .json file (one faction)')
    .action(async (dir: string, opts: { factions: string; out?: string }) => {
      const { runImport } = await import('./import-command.ts');
      runImport(dir, opts);
    });

  program
    .command('army <file>')
    .description('parse an army list (Warhammer 40,000 app or New Recruit text export) or check an army JSON file')
    .option('--json', 'print the army file as JSON')
    .option('--out <file>', 'write the army file (JSON) here')
    .option('--data <dir>', 'Wahapedia export directory to load factions that are not bundled')
    .option('--faction <name>', 'faction of the list when the list does not say (short formats)')
    .option('--fit-wargear', "a list from another data version: drop the weapons a datasheet does not have (a model left with none takes its default weapons), with a warning for each")
    .action(async (file: string, opts: { json?: boolean; out?: string; data?: string; faction?: string; fitWargear?: boolean }) => {
      const { runArmy } = await import('./army-command.ts');
      await runArmy(file, opts);
    });
}

