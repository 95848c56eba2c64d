/**
 * Which Bodyguard units a Leader may be attached to: those its datasheet lists (Datasheets_leader of the
 * export), and those whose datasheet ability makes them stand in for one of these (the Corsair Reaver Band's
 * CORSAIRS: "a Leader that can be attached to a Corsair Voidreavers unit can be attached to this unit
 * instead"). A fact of the datasheets, resolved once as a faction's catalog is built (`withStandIns`, for the
 * bundled factions and those built from an export alike), so that a Leader's `leads` lists both and the army
 * and scenario checks, the agent's Declare Battle Formations and BATTLEFIELD COMMAND read one list.
 */
import type { Datasheet } from './datasheet.ts';
import { lookupKey } from './text.ts';

export const CORSAIRS = 'CORSAIRS';

/** Datasheet abilities by which a unit takes the Leaders of another datasheet: ability -> that datasheet's name. */
export const LEADER_STAND_INS: Readonly<Record<string, string>> = { [CORSAIRS]: 'Corsair Voidreavers' };

/** May a Leader of datasheet `leader` be attached to a unit of datasheet `bodyguard` (stand-ins resolved by its catalog)? */
export function mayLead(leader: Datasheet, bodyguard: Datasheet): boolean {
  return leader.leads.includes(bodyguard.id);
}

/**
 * A faction's datasheets with each Leader's `leads` extended by the stand-ins of the datasheets it lists
 * (sorted, as the importer writes them); the datasheets no stand-in changes are returned as they are.
 */
export function withStandIns(datasheets: readonly Datasheet[]): Datasheet[] {
  // stood-for datasheet ids -> the ids of the datasheets standing in for them
  const standIns = new Map<string, string[]>();
  for (const [ability, name] of Object.entries(LEADER_STAND_INS)) {
    const key = lookupKey(name);
    const stood = datasheets.filter((d) => lookupKey(d.name) === key);
    const by = datasheets.filter((d) => d.abilities.includes(ability)).map((d) => d.id);
    if (by.length === 0) continue;
    for (const d of stood) standIns.set(d.id, [...(standIns.get(d.id) ?? []), ...by]);
  }
  if (standIns.size === 0) return [...datasheets];
  return datasheets.map((d) => {
    const extra = d.leads.flatMap((id) => standIns.get(id) ?? []).filter((id) => !d.leads.includes(id));
    return extra.length === 0 ? d : { ...d, leads: [...new Set([...d.leads, ...extra])].sort() };
  });
}
