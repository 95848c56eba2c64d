/**
 * Deployment maps: converts the deployment-patterns JSON (zones, territories and objective positions
 * of the Leviathan deployments on a 60" x 44" board, origin top-left, y down) into polygons and
 * objective markers.
 *
 * Data credit: deployment patterns from wn-mitch/40kdc-data, CC-BY-4.0.
 *
 * The JSON's shapes are either `{type: 'polygon', points}` or `{type: 'rectangle', width, height}`,
 * each placed at `position` (the points are relative to it). Objectives are absolute points.
 */
import type { ObjectiveMarker, Vec2 } from './types.ts';
import { rectanglePolygon } from './polygon.ts';

export interface DeploymentZone {
  /** 'attacker' | 'defender' in the source data */
  player: string;
  name: string;
  polygon: Vec2[];
}

export interface Territory {
  player: string;
  polygon: Vec2[];
}

export interface DeploymentMap {
  id: string;
  name: string;
  zones: DeploymentZone[];
  territories: Territory[];
  objectives: ObjectiveMarker[];
}

type Json = unknown;

function fail(where: string, what: string): never {
  throw new Error(`deployment pattern ${where}: ${what}`);
}

function num(v: Json, where: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(where, 'expected a number');
  return v;
}

function point(v: Json, where: string): Vec2 {
  if (!v || typeof v !== 'object') fail(where, 'expected a point {x, y}');
  const o = v as Record<string, Json>;
  return { x: num(o.x, `${where}.x`), y: num(o.y, `${where}.y`) };
}

function shapePolygon(shape: Json, position: Json, where: string): Vec2[] {
  if (!shape || typeof shape !== 'object') fail(`${where}.shape`, 'missing');
  const s = shape as Record<string, Json>;
  const at = position === undefined ? { x: 0, y: 0 } : point(position, `${where}.position`);
  if (s.type === 'polygon') {
    if (!Array.isArray(s.points) || s.points.length < 3) fail(`${where}.shape.points`, 'expected at least 3 points');
    return (s.points as Json[]).map((p, i) => {
      const q = point(p, `${where}.shape.points[${i}]`);
      return { x: q.x + at.x, y: q.y + at.y };
    });
  }
  if (s.type === 'rectangle') {
    return rectanglePolygon(at.x, at.y, num(s.width, `${where}.shape.width`), num(s.height, `${where}.shape.height`));
  }
  return fail(`${where}.shape.type`, `unknown shape type ${JSON.stringify(s.type)}`);
}

/** Converts one entry of deployment-patterns.json. Objective ids are "1".."5" in the file's order. */
export function deploymentFromJson(entry: Json): DeploymentMap {
  if (!entry || typeof entry !== 'object') fail('?', 'expected an object');
  const e = entry as Record<string, Json>;
  const id = typeof e.id === 'string' ? e.id : fail('?', 'missing id');
  const name = typeof e.name === 'string' ? e.name : id;
  const zones: DeploymentZone[] = (Array.isArray(e.zones) ? (e.zones as Json[]) : fail(id, 'missing zones')).map((z, i) => {
    const zo = z as Record<string, Json>;
    const player = typeof zo.player === 'string' ? zo.player : fail(`${id}.zones[${i}].player`, 'missing');
    return {
      player,
      name: typeof zo.name === 'string' ? zo.name : player,
      polygon: shapePolygon(zo.shape, zo.position, `${id}.zones[${i}]`),
    };
  });
  const territories: Territory[] = (Array.isArray(e.territories) ? (e.territories as Json[]) : []).map((t, i) => {
    const to = t as Record<string, Json>;
    const player = typeof to.player === 'string' ? to.player : fail(`${id}.territories[${i}].player`, 'missing');
    return { player, polygon: shapePolygon(to.shape, to.position, `${id}.territories[${i}]`) };
  });
  const objectives: ObjectiveMarker[] = (Array.isArray(e.objectives) ? (e.objectives as Json[]) : []).map((o, i) => ({
    id: String(i + 1),
    pos: point(o, `${id}.objectives[${i}]`),
  }));
  return { id, name, zones, territories, objectives };
}

/** Converts the whole deployment-patterns.json array. */
export function deploymentsFromJson(json: Json): DeploymentMap[] {
  if (!Array.isArray(json)) fail('(file)', 'expected an array of deployment patterns');
  return json.map(deploymentFromJson);
}
