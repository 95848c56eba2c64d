/**
 * The shapes of a game's board, objectives and mission as a log carries them (game-started, and the
 * scenario it embeds): checked before a replay or a fork builds on them, so that a damaged log is refused
 * naming the field, not met as a TypeError in the reducer or a viewer.
 */
import { z } from 'zod';

export const point = z.object({ x: z.number(), y: z.number() }).loose();
export const polygon = z.array(point).min(3, 'expected a polygon of at least 3 points');
export const seat = z.union([z.literal(0), z.literal(1)], { error: 'expected 0 or 1' });

export const boardSchema = z.object({
  width: z.number().positive(),
  height: z.number().positive(),
  terrain: z.array(z.object({ id: z.string(), kind: z.enum(['ruin', 'area', 'wall', 'impassable']), polygon, height: z.number() }).loose()),
  deploymentZones: z.array(z.object({ player: seat, polygon }).loose()).length(2, 'expected two deployment zones'),
  hatchways: z.array(z.object({ id: z.string(), polygon, startsOpen: z.boolean().optional() }).loose()).optional(),
}).loose();

export const objectiveSchema = z.object({ id: z.string(), pos: point }).loose();

export const missionSchema = z.object({
  name: z.string(),
  mode: z.enum(['strike-force', 'boarding-actions', 'incursion', 'onslaught']),
  rounds: z.number().int().min(1),
  primary: z.string(),
  params: z.record(z.string(), z.unknown()),
}).loose();
