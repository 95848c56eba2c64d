/**
 * Loads every rule registry of the core game. Importing this module is how the engine (and tests) get
 * the rules; factions load their own folders on top.
 */
import './weapon-abilities.ts';
import './core-abilities.ts';
import './battle/transports.ts';
import './battle/missions.ts';
import './stratagems/core.ts';
import './stratagems/boarding-actions.ts';
import './battle/damage-windows.ts';
