/**
 * The bundled faction file (src/factions/<folder>/units.json): everything the engine needs from the
 * export for one faction, facts only (numbers, names, keywords, parsed abilities, ids), never text.
 */
import type { Datasheet } from './datasheet.ts';

export const FACTION_FILE_FORMAT = 'strategium-faction-units/1';

export interface DetachmentEntry {
  id: string;
  name: string;
  /** "Boarding Actions" for Boarding Actions detachments, absent for matched play */
  type?: string;
}

export interface StratagemEntry {
  id: string;
  name: string;
  /** CP cost; null when the export gives none (army-rule manoeuvres) */
  cp: number | null;
  /** "Battle Tactic", "Strategic Ploy", "Epic Deed", "Wargear" */
  type: string;
  /** "Your turn", "Opponent's turn", "Either player's turn" */
  turn: string;
  /** "Shooting phase", "Any phase", "Movement or Charge phase"... */
  phase: string;
  detachment: string;
  detachmentId: string;
}

export interface EnhancementEntry {
  id: string;
  name: string;
  /** points */
  cost: number;
  detachment: string;
  detachmentId: string;
  /** ids of the datasheets that may take it, when the export says */
  datasheets: string[];
}

export interface FactionData {
  format: typeof FACTION_FILE_FORMAT;
  faction: { id: string; name: string; folder: string };
  source: { name: string; lastUpdate: string };
  datasheets: Datasheet[];
  detachments: DetachmentEntry[];
  stratagems: StratagemEntry[];
  enhancements: EnhancementEntry[];
}

/** Folder names for the bundled factions; other factions get a slug of their name. */
const FOLDERS: Record<string, string> = { TAU: 'tau', AE: 'aeldari' };

export function factionFolder(id: string, name: string): string {
  return FOLDERS[id] ?? name.toLowerCase().replace(/['’]/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}
