/**
 * The scenario a log embeds in its game-started event (src/rules/battle/setup.ts writes it: the resolved
 * scenario, its players' datasheets left out for the event's own `datasheets`). It is checked before a game
 * is set up from it again (fork): a damaged one is refused naming its field and what was expected, not met
 * as a TypeError deep inside the set-up. Its armies are checked with the army file's own schema.
 */
import { z } from 'zod';
import { armyFileSchema, fieldPath } from '../data/army.ts';
import { boardSchema, missionSchema, objectiveSchema, seat } from '../data/board-schema.ts';
import type { GameStartedEvent } from '../core/events.ts';

const ids = z.record(z.string(), z.string());

const playerSchema = z.object({
  name: z.string(),
  faction: z.string(),
  detachment: z.string().nullable(),
  agent: z.string().min(1, 'expected an agent'),
  army: armyFileSchema,
  datasheets: z.record(z.string(), z.unknown()),
  leaders: ids,
  transports: ids,
  reserves: z.record(z.string(), z.enum(['deep-strike', 'strategic'])),
  formations: z.literal('agent').optional(),
  zone: seat,
  role: z.enum(['attacker', 'defender']).optional(),
  agentParams: z.record(z.string(), z.unknown()).optional(),
  withoutStratagems: z.array(z.string()).optional(),
}).loose().superRefine((p, ctx) => {
  // the formations name units of the army
  const units = new Set(p.army.units.map((u) => u.id));
  for (const field of ['leaders', 'transports', 'reserves'] as const) {
    for (const [k, v] of Object.entries(p[field])) {
      if (!units.has(k)) ctx.addIssue({ code: 'custom', path: [field, k], message: `expected a unit id of the army, found ${JSON.stringify(k)}` });
      if (field !== 'reserves' && !units.has(v)) ctx.addIssue({ code: 'custom', path: [field, k], message: `expected a unit id of the army, found ${JSON.stringify(v)}` });
    }
  }
});

const scenarioSchema = z.object({
  file: z.string(),
  name: z.string(),
  seed: z.string().nullable(),
  board: boardSchema,
  objectives: z.array(objectiveSchema),
  mission: missionSchema,
  players: z.tuple([playerSchema, playerSchema], { error: 'expected two players' }),
}).loose();

/**
 * Why the event's embedded scenario cannot be set up, as "scenario.players[0].army.units[1].models: ..."
 * (the first problem), or null when it can: the scenario's shape, and a datasheet in the event's
 * `datasheets` for every unit of the armies.
 */
export function embeddedScenarioProblem(e: Pick<GameStartedEvent, 'scenario' | 'datasheets'>): string | null {
  if (e.scenario === undefined) return 'no "scenario" (the log was written before games embedded their scenario: it cannot be played again)';
  const r = scenarioSchema.safeParse(e.scenario);
  if (!r.success) {
    const issue = r.error.issues[0];
    return `${fieldPath(['scenario', ...issue.path])}: ${issue.message}`;
  }
  for (const [i, p] of r.data.players.entries()) {
    for (const [k, u] of p.army.units.entries()) {
      const ds = (typeof e.datasheets === 'object' && e.datasheets !== null ? e.datasheets[u.datasheetId] : undefined) as unknown;
      if (typeof ds !== 'object' || ds === null || Array.isArray(ds)) {
        return `${fieldPath(['scenario', 'players', i, 'army', 'units', k, 'datasheetId'])}: expected a datasheet of the event's "datasheets", found ${JSON.stringify(u.datasheetId)}${ds === undefined ? ' (not there)' : ` (${JSON.stringify(ds)?.slice(0, 40)})`}`;
      }
    }
  }
  return null;
}
