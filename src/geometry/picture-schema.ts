/**
 * Input validation of board pictures (the `board` command's JSON), with errors naming the file and
 * the field, e.g. `scene.json: models[3].body.base.r: Invalid input: expected number, received string`.
 */
import { z } from 'zod';
import { CliError } from '../cli-error.ts';
import type { BoardPicture } from './svg.ts';

const finite = z.number().refine(Number.isFinite, 'expected a finite number');
const vec2 = z.object({ x: finite, y: finite });
const vec3 = z.object({ x: finite, y: finite, z: finite.default(0) });
const base = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('circle'), r: finite.positive() }),
  z.object({ kind: z.literal('oval'), rx: finite.positive(), ry: finite.positive(), angle: finite.default(0) }),
  z.object({ kind: z.literal('rect'), w: finite.positive(), l: finite.positive(), angle: finite.default(0) }),
]);
const body = z.object({ pos: vec3, base, height: finite.nonnegative().default(0) });
const terrain = z.object({
  id: z.string(),
  kind: z.enum(['ruin', 'area', 'wall', 'impassable']),
  polygon: z.array(vec2).min(3),
  height: finite.nonnegative().default(0),
});
const board = z.object({ width: finite.positive(), height: finite.positive(), terrain: z.array(terrain).default([]) });
const picture = z.object({
  board,
  title: z.string().optional(),
  deploymentZones: z.array(z.object({ player: z.string(), polygon: z.array(vec2).min(3), name: z.string().optional() })).optional(),
  objectives: z.array(z.object({ id: z.string(), pos: vec2 })).optional(),
  models: z
    .array(
      z.object({
        id: z.string(),
        unitId: z.string(),
        unitName: z.string().optional(),
        player: z.string(),
        body,
        destroyed: z.boolean().optional(),
      }),
    )
    .default([]),
  hatchways: z.array(z.object({ id: z.string(), polygon: z.array(vec2).min(3), open: z.boolean().default(false) })).optional(),
  highlights: z
    .object({
      modelIds: z.array(z.string()).optional(),
      paths: z.array(z.array(vec2)).optional(),
      points: z.array(vec2).optional(),
      color: z.string().optional(),
    })
    .optional(),
  scale: finite.positive().optional(),
});

function fieldPath(path: PropertyKey[]): string {
  let s = '';
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : s ? `.${String(p)}` : String(p);
  return s || '(root)';
}

/** Parses a board picture, throwing a CliError naming the file and the first bad field. */
export function parseBoardPicture(json: unknown, file: string): BoardPicture {
  const r = picture.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new CliError(`${file}: ${fieldPath(issue.path)}: ${issue.message}`);
  }
  return r.data as BoardPicture;
}
