/**
 * A game state as a board picture for src/geometry/svg.ts: terrain, deployment zones, objectives and
 * every model on the battlefield, labelled by unit.
 */
import { z } from 'zod';
import type { GameState } from '../../core/state.ts';
import { fieldPath } from '../../data/army.ts';
import type { BoardPicture } from '../../geometry/svg.ts';
import { modelBody } from './world.ts';

export function pictureOfState(state: GameState, title?: string): BoardPicture {
  const models: BoardPicture['models'] = [];
  for (const id of state.unitOrder) {
    const u = state.units[id];
    if (u.location !== 'battlefield') continue;
    for (const m of u.models) {
      if (!m.alive || !m.pos) continue;
      models.push({ id: m.id, unitId: u.id, unitName: u.name, player: `Player ${u.player + 1}`, body: modelBody(state, m) });
    }
  }
  return {
    board: { width: state.board.width, height: state.board.height, terrain: state.board.terrain.map((t) => ({ ...t })) },
    // Boarding Actions hatchways as doors, open or closed as they stand (the replay viewer draws them alike)
    hatchways: (state.board.hatchways ?? []).map((h) => ({ id: h.id, polygon: h.polygon, open: (state.openHatchways ?? []).includes(h.id) })),
    title,
    deploymentZones: state.board.deploymentZones.map((z) => ({ player: `Player ${z.player + 1}`, polygon: z.polygon })),
    objectives: state.objectives.map((o) => ({ id: o.id, pos: o.pos })),
    models,
  };
}

const finite = z.number().refine(Number.isFinite, 'expected a finite number');
const point = z.object({ x: finite, y: finite }).loose();
const polygon = z.array(point).min(3, 'expected a polygon of at least 3 points');
const seat = z.union([z.literal(0), z.literal(1)], { error: 'expected 0 or 1' });

const modelSchema = z.object({
  id: z.string(),
  datasheet: z.string(),
  profile: z.number().int().nonnegative(),
  alive: z.boolean(),
  pos: z.object({ x: finite, y: finite, z: finite.optional() }).loose().nullable(),
}).loose();

/** The fields of a game state (`replay --to N --json`) that its picture reads. */
const drawnStateSchema = z.object({
  board: z.object({
    width: finite.positive(),
    height: finite.positive(),
    terrain: z.array(z.object({ id: z.string(), kind: z.enum(['ruin', 'area', 'wall', 'impassable']), polygon, height: finite }).loose()),
    deploymentZones: z.array(z.object({ player: seat, polygon }).loose()),
    hatchways: z.array(z.object({ id: z.string(), polygon }).loose()).optional(),
  }).loose(),
  objectives: z.array(z.object({ id: z.string(), pos: point }).loose()),
  openHatchways: z.array(z.string()).optional(),
  unitOrder: z.array(z.string()),
  units: z.record(z.string(), z.object({ id: z.string(), name: z.string(), player: seat, location: z.string(), models: z.array(modelSchema) }).loose()),
  datasheets: z.record(z.string(), z.object({ models: z.array(z.object({}).loose()) }).loose()),
}).loose().superRefine((s, ctx) => {
  if (s.board.hatchways?.length && !s.openHatchways) ctx.addIssue({ code: 'custom', path: ['openHatchways'], message: 'expected the open hatchways (a list of ids) on a board with hatchways' });
  s.unitOrder.forEach((id, i) => {
    const u = s.units[id];
    if (!u) { ctx.addIssue({ code: 'custom', path: ['unitOrder', i], message: `expected a unit of "units", found ${JSON.stringify(id)}` }); return; }
    u.models.forEach((m, k) => {
      const ds = s.datasheets[m.datasheet];
      if (!ds) ctx.addIssue({ code: 'custom', path: ['units', id, 'models', k, 'datasheet'], message: `expected a datasheet of "datasheets", found ${JSON.stringify(m.datasheet)}` });
      else if (m.profile >= ds.models.length) ctx.addIssue({ code: 'custom', path: ['units', id, 'models', k, 'profile'], message: `expected a model profile of the datasheet (0 to ${ds.models.length - 1}), found ${m.profile}` });
    });
  });
});

/**
 * Why a value (a game state read from a file) cannot be drawn, as "units.p1-u2.models[0].pos: ..." (its first
 * problem), or null when its picture can be made.
 */
export function drawnStateProblem(v: unknown): string | null {
  const r = drawnStateSchema.safeParse(v);
  if (r.success) return null;
  const issue = r.error.issues[0];
  return `${fieldPath(issue.path)}: ${issue.message}`;
}
