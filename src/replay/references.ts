/**
 * The units an event names, checked against the state before the reducer applies it: a corrupted log's
 * event that names a unit no earlier event created is reported as that, rather than as the reducer's
 * TypeError. Only the fields the reducer reads a unit through are listed (a dice event's `unit` is a label).
 */
import type { EventType, GameEvent } from '../core/events.ts';
import type { GameState } from '../core/state.ts';

/** Per event type, its fields that must name a unit of the state (null allowed where the event allows it). */
const UNIT_FIELDS: Partial<Record<EventType, readonly string[]>> = {
  'models-placed': ['unit'],
  'unit-moved': ['unit'],
  'unit-flag': ['unit'],
  'unit-location': ['unit'],
  'unit-attached': ['leader', 'bodyguard'],
  'unit-detached': ['leader', 'bodyguard'],
  'unit-joined': ['unit', 'into'],
  'attack-allocated': ['unit'],
  'model-damaged': ['unit', 'by'],
  'model-healed': ['unit'],
  'model-returned': ['unit'],
  'model-destroyed': ['unit', 'by'],
  'unit-destroyed': ['unit'],
  'battle-shock': ['unit'],
};

/** A message naming the first field of `event` that names no unit of `state`, or null when all do. */
export function unknownUnitReference(state: GameState, event: GameEvent): string | null {
  const fields = UNIT_FIELDS[event.type];
  if (!fields) return null;
  for (const f of fields) {
    const id = (event as unknown as Record<string, unknown>)[f];
    if (id === null || (typeof id === 'string' && Object.hasOwn(state.units, id))) continue;
    return `"${f}" names unit ${JSON.stringify(id)}, which no earlier event created`;
  }
  return null;
}
