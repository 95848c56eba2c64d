/** Option texts shared by the commands that play games (kept free of imports: commands load lazily). */

/** `--armies` (batch, matrix, play, tournament). */
export const ARMIES_HELP = 'armies of player 1 and player 2 instead of the scenario\'s: army files (.json) or army-list text exports (Warhammer 40,000 app, New Recruit); "-" keeps the scenario\'s. Each plays its own detachment and its agent declares its Leaders, passengers and Reserves';
