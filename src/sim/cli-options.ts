/** Option texts shared by the commands that play games (kept free of heavy imports: commands load lazily). */
import { CliError } from '../cli-error.ts';

/** `--armies` (batch, matrix, play, tournament). */
export const ARMIES_HELP = 'armies of player 1 and player 2 instead of the scenario\'s: army files (.json) or army-list text exports (Warhammer 40,000 app, New Recruit); "-" keeps the scenario\'s. Each plays its own detachment and its agent declares its Leaders, passengers and Reserves';

/** `--fit-wargear` (batch, matrix, play, tournament), beside `--armies`. */
export const FIT_WARGEAR_HELP = 'with --armies: fit each army-list export to the datasheets (a list from another data version): drop the weapons a datasheet does not have (a model left with none takes its default weapons), with a warning for each';

/** `--without-stratagem` (batch, play), repeatable. */
export const WITHOUT_STRATAGEM_HELP = 'a stratagem the army may not use, as <army>:<name> (army 1 or 2, e.g. "1:A TEMPTING TRAP"); repeat for more. What a stratagem is worth: compare a batch with it and one without';

/** Commander's collector for a repeatable option. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** Commander's parser for `--seed`: any text but an empty one (a scenario's seed is refused empty too). */
export function seedArg(value: string): string {
  if (value.trim() === '') throw new CliError(`--seed: expected a seed (any non-empty text), got ${JSON.stringify(value)}`);
  return value;
}
