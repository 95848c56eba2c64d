/**
 * Which Bodyguard units a Leader may be attached to: those its datasheet lists (Datasheets_leader of the
 * export), and those whose datasheet ability makes them stand in for one of these (the Corsair Reaver Band's
 * CORSAIRS: "a Leader that can be attached to a Corsair Voidreavers unit can be attached to this unit
 * instead"). A fact of the datasheets, read by the army and scenario checks and by the agent's Declare
 * Battle Formations alike, as BODYGUARD is (./bodyguard.ts).
 */
import type { Datasheet } from './datasheet.ts';
import { loadFactionCatalog } from './catalog.ts';
import { lookupKey } from './text.ts';

export const CORSAIRS = 'CORSAIRS';

/** Datasheet abilities by which a unit takes the Leaders of another datasheet: ability -> that datasheet's name. */
export const LEADER_STAND_INS: Readonly<Record<string, string>> = { [CORSAIRS]: 'Corsair Voidreavers' };

/**
 * May a Leader of datasheet `leader` be attached to a unit of datasheet `bodyguard`? `byId` finds the
 * datasheets the Leader's list names (by default those of the bundled catalog of the Leader's faction); it is
 * asked only when the Bodyguard has a stand-in ability.
 */
export function mayLead(leader: Datasheet, bodyguard: Datasheet, byId: (id: string) => Datasheet | undefined = bundledDatasheets(leader.faction)): boolean {
  if (leader.leads.includes(bodyguard.id)) return true;
  for (const ability of bodyguard.abilities) {
    const standsFor = LEADER_STAND_INS[ability];
    if (standsFor === undefined) continue;
    if (leader.leads.some((id) => { const d = byId(id); return d !== undefined && lookupKey(d.name) === lookupKey(standsFor); })) return true;
  }
  return false;
}

/** The datasheets of a bundled faction by id, none for a faction that is not bundled (an army from an export). */
function bundledDatasheets(faction: string): (id: string) => Datasheet | undefined {
  return (id) => {
    try {
      return loadFactionCatalog(faction).byId(id);
    } catch {
      return undefined;
    }
  };
}
