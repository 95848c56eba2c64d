/**
 * The game as the browser viewer needs it: static tables (units, models with their bases, weapons,
 * objectives) and, per event, its text and only what changed (a delta), computed by comparing the
 * replay's consecutive immer snapshots (structural sharing: an unchanged unit is the same object, so
 * only touched units are looked at). The viewer rebuilds any position from keyframes and deltas.
 */
import { diceExprToString } from '../core/dice-expr.ts';
import type { GameEvent } from '../core/events.ts';
import type { GameState, ModelState, UnitState } from '../core/state.ts';
import type { Datasheet } from '../data/datasheet.ts';
import { HATCHWAY_STYLE } from '../geometry/svg.ts';
import { modelBase } from '../rules/battle/world.ts';
import { describeEvent, eventClass, PHASE_TITLE } from './format.ts';
import { unitsOfEvent } from './board-text.ts';
import type { Replay } from './replay.ts';

/** A base as the viewer draws it: ['c', r] | ['o', rx, ry, angle] | ['r', l, w, angle] (inches, radians). */
export type BaseShape = ['c', number] | ['o', number, number, number] | ['r', number, number, number];

export interface ViewerUnit {
  id: string;
  name: string;
  player: 0 | 1;
  datasheet: string;
  points: number;
  keywords: string[];
  /** weapon profiles of the unit's own models: [name, range, A, BS/WS, S, AP, D, abilities] */
  weapons: [string, string, string, string, number, number, string, string][];
  /** model profiles: [name, M, T, Sv, inv, W, Ld, OC] */
  profiles: [string, number, number, number, number | null, number, number, number][];
  /** longest ranged weapon range (inches), 0 when none */
  maxRange: number;
}

export interface ViewerModel {
  id: string;
  /** index of the unit it was mustered in */
  origin: number;
  name: string;
  base: BaseShape;
  /** starting wounds */
  w: number;
}

/**
 * What changed with one event. Absent keys: nothing of that kind changed.
 * m: flat [model, x, y, w, ...] with x = y = null off the table and w = -1 once destroyed;
 * u: units whose location / Battle-shock / model list / turn flags changed;
 * h: [round, turn, phase, cp1, cp2, vp1, vp2] when any changed; o: [objective, controller] pairs;
 * e: the active effects, when they changed; d: [sides, ...values] of a roll; x: units the event is about;
 * a: the open hatchways (indexes into ViewerData.hatchways), when they changed.
 */
export interface FrameDelta {
  m?: (number | null)[];
  u?: { i: number; l?: string; s?: 0 | 1; m?: number[]; f?: string }[];
  h?: [number, number, string, number, number, number, number];
  o?: [number, number | null][];
  e?: [string, number, number][];
  d?: number[];
  x?: number[];
  a?: number[];
}

/** [text, class, delta] */
export type Frame = [string, string, FrameDelta];

export interface ViewerData {
  title: string;
  players: { name: string; agent: string; faction: string; detachment: string | null }[];
  board: { width: number; height: number };
  objectives: { id: string; x: number; y: number }[];
  /** the board's hatchways (Boarding Actions), by id: the static board numbers its hatchway polygons so */
  hatchways: string[];
  /** how the viewer draws a hatchway closed and open (as the static board does) */
  hatchwayLook: typeof HATCHWAY_STYLE;
  units: ViewerUnit[];
  models: ViewerModel[];
  frames: Frame[];
  /** [position, kind, label] */
  marks: [number, string, string][];
  result: { winner: 0 | 1 | null; vp: [number, number]; rounds: number; endedBy: string } | null;
  problems: string[];
}

const r2 = (v: number) => Math.round(v * 100) / 100;

function baseShape(s: GameState, m: ModelState): BaseShape {
  try {
    const b = modelBase(s, m);
    if (b.kind === 'circle') return ['c', r2(b.r)];
    if (b.kind === 'oval') return ['o', r2(b.rx), r2(b.ry), r2(b.angle)];
    return ['r', r2(b.l), r2(b.w), r2(b.angle)];
  } catch {
    return ['c', 0.5];
  }
}

function unitTables(ds: Datasheet | undefined, u: UnitState): Pick<ViewerUnit, 'weapons' | 'profiles' | 'maxRange'> {
  if (!ds) return { weapons: [], profiles: [], maxRange: 0 };
  const names: string[] = [];
  for (const m of u.models) for (const w of m.weapons) if (!names.includes(w)) names.push(w);
  const weapons: ViewerUnit['weapons'] = [];
  let maxRange = 0;
  for (const n of names) {
    const w = ds.weapons.find((x) => x.name === n);
    if (!w) continue;
    for (const p of w.profiles) {
      if (typeof p.range === 'number' && p.range > maxRange) maxRange = p.range;
      const ab = p.abilities.map((a) => `${a.name}${a.keyword ? `-${a.keyword}` : ''}${a.x ? ` ${a.x}` : a.dice ? ` ${diceExprToString(a.dice)}` : ''}${a.threshold ? ` ${a.threshold}+` : ''}`).join(', ');
      weapons.push([p.name, p.range === 'Melee' ? 'Melee' : `${p.range}"`, diceExprToString(p.attacks), p.skill ? `${p.skill}+` : 'N/A', p.strength, p.ap, diceExprToString(p.damage), ab]);
    }
  }
  const used = new Set(u.models.map((m) => m.profile));
  const profiles: ViewerUnit['profiles'] = ds.models.filter((_, i) => used.has(i)).map((p) => [p.name, p.move, p.toughness, p.save, p.invulnerable, p.wounds, p.leadership, p.oc]);
  return { weapons, profiles, maxRange };
}

function flagsText(u: UnitState): string {
  const f = u.flags;
  const out: string[] = [];
  if (f.moved) out.push(f.moved === 'stationary' ? 'remained stationary' : f.moved === 'normal' ? 'moved' : f.moved === 'advance' ? `advanced (${f.advanceRoll})` : f.moved === 'fall-back' ? 'fell back' : f.moved);
  if (f.shot) out.push('shot');
  if (f.declaredCharge) out.push(f.charged ? 'charged' : 'declared a charge');
  if (f.fought) out.push('fought');
  return out.join(', ');
}

/** The open hatchways of a state, by their index on the board. */
function openHatchways(s: GameState): number[] {
  const open = s.openHatchways ?? [];
  return (s.board.hatchways ?? []).flatMap((h, i) => (open.includes(h.id) ? [i] : []));
}

/** Build the viewer's data from a replay. */
export function buildViewerData(r: Replay, title?: string): ViewerData {
  const events = r.events;
  const last = r.snapshots[r.length];
  const first = r.snapshots[Math.min(1, r.length)];
  // static tables: every unit and model as created (models never disappear from the game)
  const unitIndex = new Map<string, number>();
  const modelIndex = new Map<string, number>();
  const units: ViewerUnit[] = [];
  const models: ViewerModel[] = [];
  for (const e of events) {
    if (e.type !== 'unit-created') continue;
    const u = e.unit;
    unitIndex.set(u.id, units.length);
    const ds = last.datasheets[u.datasheet];
    units.push({ id: u.id, name: u.name, player: u.player, datasheet: ds?.name ?? u.datasheet, points: u.points, keywords: u.keywords.slice(), ...unitTables(ds, u) });
    for (const m of u.models) {
      modelIndex.set(m.id, models.length);
      models.push({ id: m.id, origin: unitIndex.get(u.id)!, name: m.name, base: baseShape(last, m), w: m.wounds });
    }
  }
  const frames: Frame[] = [];
  const NM = models.length;
  const lx: (number | null)[] = new Array(NM).fill(null);
  const ly: (number | null)[] = new Array(NM).fill(null);
  const lw: number[] = models.map((m) => m.w);
  let header = '';
  const objCtrl: (number | null)[] = [];
  for (let i = 1; i <= r.length; i++) {
    const before = r.snapshots[i - 1];
    const after = r.snapshots[i];
    const e: GameEvent = events[i - 1];
    const d: FrameDelta = {};
    if (before.units !== after.units) {
      const m: (number | null)[] = [];
      const ud: NonNullable<FrameDelta['u']> = [];
      for (const id of after.unitOrder) {
        const ua = after.units[id];
        const ub = before.units[id];
        if (ua === ub) continue;
        const entry: NonNullable<FrameDelta['u']>[number] = { i: unitIndex.get(id) ?? -1 };
        let changed = false;
        if (!ub || ua.location !== ub.location) { entry.l = ua.location; changed = true; }
        if (!ub || ua.battleShocked !== ub.battleShocked) { entry.s = ua.battleShocked ? 1 : 0; changed = true; }
        if (!ub || ua.models.length !== ub.models.length || ua.models.some((x, k) => x.id !== ub.models[k].id)) {
          entry.m = ua.models.map((x) => modelIndex.get(x.id) ?? -1);
          changed = true;
        }
        const ft = flagsText(ua);
        if (!ub || ft !== flagsText(ub)) { entry.f = ft; changed = true; }
        if (changed && entry.i >= 0) ud.push(entry);
        if (ub && ua.models === ub.models) continue;
        for (const mo of ua.models) {
          const k = modelIndex.get(mo.id);
          if (k === undefined) continue;
          const x = mo.alive && mo.pos ? r2(mo.pos.x) : null;
          const y = mo.alive && mo.pos ? r2(mo.pos.y) : null;
          const w = mo.alive ? mo.wounds : -1;
          if (x !== lx[k] || y !== ly[k] || w !== lw[k]) {
            m.push(k, x, y, w);
            lx[k] = x; ly[k] = y; lw[k] = w;
          }
        }
      }
      if (m.length) d.m = m;
      if (ud.length) d.u = ud;
    }
    const h: FrameDelta['h'] = [after.round, after.turn, after.stage === 'ended' ? 'ended' : after.round === 0 ? 'setup' : PHASE_TITLE[after.phase], after.players[0].cp, after.players[1].cp, after.players[0].vp, after.players[1].vp];
    const hs = JSON.stringify(h);
    if (hs !== header) { d.h = h; header = hs; }
    if (before.objectives !== after.objectives) {
      const o: [number, number | null][] = [];
      after.objectives.forEach((ob, k) => {
        if (objCtrl[k] !== ob.controller) { o.push([k, ob.controller]); objCtrl[k] = ob.controller; }
      });
      if (o.length) d.o = o;
    }
    if (before.openHatchways !== after.openHatchways) d.a = openHatchways(after);
    if (before.effects !== after.effects) d.e = after.effects.map((x) => [x.kind, x.unit ? unitIndex.get(x.unit) ?? -1 : -1, x.player]);
    if (e.type === 'dice') d.d = [e.sides, ...e.values];
    else if (e.type === 'reroll') d.d = [6, ...e.values];
    else if (e.type === 'dice-substituted') d.d = [6, e.value];
    const about = [...unitsOfEvent(e as never)].map((id) => unitIndex.get(id)).filter((x): x is number => x !== undefined);
    if (about.length) d.x = about;
    frames.push([describeEvent(e, before, after, { whyMax: 1500, diceValues: false }), eventClass(e), d]);
  }
  const res = r.recordedResult;
  const v = r.verify();
  return {
    title: title ?? `${first.players[0].name} vs ${first.players[1].name}`,
    players: first.players.map((p) => ({ name: p.name, agent: p.agent, faction: p.faction, detachment: p.detachment })),
    board: { width: first.board.width, height: first.board.height },
    objectives: first.objectives.map((o) => ({ id: o.id, x: o.pos.x, y: o.pos.y })),
    hatchways: (first.board.hatchways ?? []).map((h) => h.id),
    hatchwayLook: HATCHWAY_STYLE,
    units, models, frames,
    marks: r.marks.map((m) => [m.position, m.kind, m.label]),
    result: res ? { winner: res.winner, vp: [res.vp[0], res.vp[1]], rounds: res.rounds, endedBy: res.endedBy } : null,
    problems: v.problems,
  };
}
