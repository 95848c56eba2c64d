/**
 * Events in words, for the terminal replay and the browser viewer: dice with what they were rolled
 * for, damage, moves, decisions (and the agent's reasons when it gives them), CP and VP. Unit ids are
 * shown with their names. Plain text: whoever displays it escapes it.
 */
import type { GameEvent, RollPurpose, UnitFlagEvent } from '../core/events.ts';
import type { GameState, PhaseName, PlayerIndex } from '../core/state.ts';

const PURPOSE: Record<RollPurpose, string> = {
  attacks: 'Attacks roll', hit: 'Hit roll', wound: 'Wound roll', save: 'saving throw', damage: 'Damage roll',
  'feel-no-pain': 'Feel No Pain roll', hazardous: 'Hazardous test', 'mortal-wounds': 'mortal wounds roll',
  advance: 'Advance roll', charge: 'Charge roll', 'battle-shock': 'Battle-shock test', 'desperate-escape': 'Desperate Escape test',
  'deadly-demise': 'Deadly Demise roll', 'first-turn': 'roll-off', 'sustained-hits': 'Sustained Hits roll', fate: 'Fate dice', other: 'roll',
};

export const PHASE_TITLE: Record<PhaseName | 'setup', string> = {
  setup: 'Setup', command: 'Command', movement: 'Movement', shooting: 'Shooting', charge: 'Charge', fight: 'Fight',
};

/** The turn flags a unit-flag event sets, in words. */
const FLAG_TEXT: Record<UnitFlagEvent['flag'], string> = {
  shot: 'has shot', fought: 'has fought', declaredCharge: 'has declared a charge', charged: 'has made a Charge move',
  eligibleToFight: 'is eligible to fight this phase', disembarked: 'has disembarked',
  disembarkedAfterTransportMoved: 'disembarked after its transport moved (no charge this turn)',
};

export function purposeText(p: string): string {
  return (PURPOSE as Record<string, string>)[p] ?? p;
}

/** A category for colouring an event line. */
export type EventClass = 'dice' | 'damage' | 'death' | 'move' | 'decision' | 'phase' | 'round' | 'score' | 'cp' | 'stratagem' | 'note' | 'setup' | 'other' | 'end';

export function eventClass(e: GameEvent): EventClass {
  switch (e.type) {
    case 'dice': case 'reroll': case 'dice-substituted': return 'dice';
    case 'model-damaged': case 'model-healed': case 'model-returned': case 'attack-allocated': return 'damage';
    case 'model-destroyed': case 'unit-destroyed': return 'death';
    case 'models-placed': case 'unit-moved': case 'unit-location': case 'hatchway': case 'fallen-piled-in': return 'move';
    case 'decision': return 'decision';
    case 'phase-started': case 'phase-ended': case 'turn-started': return 'phase';
    case 'round-started': return 'round';
    case 'vp': case 'objective-control': return 'score';
    case 'cp': return 'cp';
    case 'stratagem-used': return 'stratagem';
    case 'note': case 'fork-point': return 'note';
    case 'game-started': case 'unit-created': case 'unit-attached': case 'unit-joined': case 'first-turn': return 'setup';
    case 'game-ended': return 'end';
    default: return 'other';
  }
}

export function playerName(s: GameState, p: PlayerIndex | null | undefined): string {
  if (p !== 0 && p !== 1) return 'nobody';
  return s.players[p]?.name || `player ${p + 1}`;
}

/** "Strike Team (p1-u4)" */
export function unitLabel(s: GameState, id: string | null | undefined): string {
  if (!id) return '-';
  const u = s.units[id];
  return u ? `${u.name} (${id})` : id;
}

function unitShort(s: GameState, id: string | null | undefined): string {
  if (!id) return '-';
  return s.units[id]?.name ?? id;
}

function modelLabel(s: GameState, unit: string, model: string): string {
  const u = s.units[unit];
  const m = u?.models.find((x) => x.id === model);
  return m ? `${m.name} ${model.slice(model.lastIndexOf('-') + 1)}` : model;
}

function round1(n: number): string {
  return (Math.round(n * 10) / 10).toFixed(1);
}

function diceText(values: readonly number[], sides: number, withValues = true): string {
  const head = values.length === 1 ? `D${sides}` : `${values.length}D${sides}`;
  return withValues ? `${head}: ${values.join(' ')}` : head;
}

/** Replace unit ids in a free text ("enemy p1-u13") by their names. */
export function withUnitNames(s: GameState, text: string): string {
  return text.replace(/\bp[12]-u[\w]+(?:-m\d+)?\b/g, (id) => (s.units[id] ? `${s.units[id].name} (${id})` : id));
}

/** A decision's choice, compact: "unit=Strike Team (p1-u4) x=45 y=22". */
export function choiceText(s: GameState, v: unknown, depth = 0): string {
  if (v === null || v === undefined) return String(v);
  if (typeof v === 'string') return withUnitNames(s, v);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Math.round(v * 100) / 100);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map((x) => choiceText(s, x, depth + 1)).join(', ')}]`;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length === 2 && typeof o.x === 'number' && typeof o.y === 'number') return `(${choiceText(s, o.x)}, ${choiceText(s, o.y)})`;
    if (keys.length === 1 && o[keys[0]] === true) return keys[0];
    const parts = keys.map((k) => `${k}=${choiceText(s, o[k], depth + 1)}`);
    return depth > 0 ? `{${parts.join(' ')}}` : parts.join(' ');
  }
  return String(v);
}

/**
 * An agent's reasons. Understood shapes: a string; an object with a list of candidates
 * (`candidates` / `top` / `options` / `scores`) whose items carry a `score` and a label
 * (`label`, `name`, `choice` or `option`); anything else is shown compactly.
 */
export function whyText(s: GameState, why: unknown, max = 400): string {
  if (why === undefined) return '';
  if (typeof why === 'string') return clip(withUnitNames(s, why), max);
  if (typeof why === 'object' && why !== null && !Array.isArray(why)) {
    const o = why as Record<string, unknown>;
    const listKey = ['candidates', 'top', 'options', 'scores'].find((k) => Array.isArray(o[k]));
    if (listKey) {
      const items = (o[listKey] as unknown[]).map((c) => candidateText(s, c));
      const rest = Object.keys(o).filter((k) => k !== listKey).map((k) => `${k}=${choiceText(s, o[k], 1)}`);
      return clip([...rest, `top: ${items.join('; ')}`].join(' '), max);
    }
  }
  if (Array.isArray(why)) return clip(`top: ${why.map((c) => candidateText(s, c)).join('; ')}`, max);
  return clip(choiceText(s, why), max);
}

function candidateText(s: GameState, c: unknown): string {
  if (typeof c !== 'object' || c === null) return choiceText(s, c, 1);
  const o = c as Record<string, unknown>;
  const labelKey = ['label', 'name', 'choice', 'option'].find((k) => k in o);
  const label = labelKey === undefined ? '' : labelKey === 'option' && typeof o.option === 'number' ? `#${o.option}` : choiceText(s, o[labelKey], 1);
  const score = typeof o.score === 'number' ? ` (${Math.round(o.score * 1000) / 1000})` : o.score !== undefined ? ` (${choiceText(s, o.score, 1)})` : '';
  const others = Object.keys(o).filter((k) => k !== labelKey && k !== 'score');
  const extra = others.length ? ` {${others.map((k) => `${k}=${choiceText(s, o[k], 2)}`).join(' ')}}` : '';
  return `${label}${score}${extra}`;
}

function clip(t: string, max: number): string {
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

function expiryText(x: { at: string; phase?: string }): string {
  switch (x.at) {
    case 'end-of-phase': return 'until the end of the phase';
    case 'end-of-turn': return 'until the end of the turn';
    case 'end-of-round': return 'until the end of the battle round';
    case 'start-of-command': return 'until the start of the next Command phase';
    case 'end-of-battle': return 'until the end of the battle';
    default: return x.at;
  }
}

/**
 * One event in words. `before` is the state before the event, `after` the state after it (names of
 * units created by the event, wounds left, totals). `diceValues: false` leaves the values of a roll
 * out (the browser viewer draws them as dice).
 */
export function describeEvent(e: GameEvent, before: GameState, after: GameState, opts: { whyMax?: number; diceValues?: boolean } = {}): string {
  const P = (p: PlayerIndex | null) => playerName(after, p);
  switch (e.type) {
    case 'game-started': {
      const ps = e.players.map((p, i) => `P${i + 1} ${p.name} [${p.agent}${p.withoutStratagems?.length ? `, without ${p.withoutStratagems.join(', ')}` : ''}]`);
      return `Game started: ${ps.join(' vs ')} - ${e.mission.name}, seed ${e.seed}`;
    }
    case 'unit-created': {
      const n = e.unit.models.length;
      return `${P(e.unit.player)} musters ${e.unit.name} (${e.unit.id}): ${n} model${n === 1 ? '' : 's'}, ${e.unit.points} pts${e.unit.warlord ? ', Warlord' : ''}`;
    }
    case 'dice': {
      const who = e.unit ? unitShort(after, e.unit) : P(e.player);
      return `${who}: ${purposeText(e.purpose)}${e.label ? ` [${withUnitNames(after, e.label)}]` : ''} ${diceText(e.values, e.sides, opts.diceValues ?? true)}`;
    }
    case 'reroll': {
      const who = e.unit ? unitShort(after, e.unit) : P(e.player);
      const changes = e.old.map((o, k) => `${o}->${e.values[k]}`).join(' ');
      return `${who}: re-rolls ${e.indices.length} ${purposeText(e.purpose)} ${e.indices.length === 1 ? 'die' : 'dice'} (${e.source}): ${changes}`;
    }
    case 'dice-substituted': {
      const who = e.unit ? unitShort(after, e.unit) : P(e.player);
      return `${who}: ${e.source} turns a ${purposeText(e.purpose)} die ${e.old} into ${e.value}`;
    }
    case 'round-started': return `=== Battle round ${e.round} ===`;
    case 'turn-started': return `--- ${P(e.player)}'s turn (round ${e.round}) ---`;
    case 'phase-started': return `${P(e.player)}: ${PHASE_TITLE[e.phase]} phase`;
    case 'phase-ended': return `${P(e.player)}: end of the ${PHASE_TITLE[e.phase]} phase`;
    case 'first-turn': return `${P(e.player)} takes the first turn`;
    case 'cp': {
      const sign = e.delta >= 0 ? '+' : '';
      return `${P(e.player)} ${sign}${e.delta} CP (${withUnitNames(after, e.reason)}): ${after.players[e.player].cp} CP`;
    }
    case 'vp': return `${P(e.player)} scores ${e.amount} VP (${e.reason}, round ${e.round}): ${after.players[e.player].vp} VP`;
    case 'models-placed': {
      const u = before.units[e.unit];
      let far = 0, moved = 0;
      let cx = 0, cy = 0;
      for (const { model, pos } of e.positions) {
        cx += pos.x; cy += pos.y;
        const m = u?.models.find((x) => x.id === model);
        if (m?.pos) {
          const d = Math.hypot(pos.x - m.pos.x, pos.y - m.pos.y);
          if (d > 1e-9) moved++;
          if (d > far) far = d;
        }
      }
      const n = e.positions.length;
      const where = n ? ` around (${round1(cx / n)}, ${round1(cy / n)})` : '';
      const dist = moved ? `, furthest ${round1(far)}"` : '';
      return `${unitLabel(after, e.unit)}: ${e.mode}, ${n} model${n === 1 ? '' : 's'} set${where}${dist}`;
    }
    case 'unit-moved': {
      const what = e.mode === 'stationary' ? 'remains stationary' : e.mode === 'advance' ? `advances${e.advanceRoll !== undefined ? ` (Advance roll ${e.advanceRoll})` : ''}`
        : e.mode === 'fall-back' ? 'falls back' : e.mode === 'arrived' ? 'arrives from Reserves' : e.mode === 'disembarked' ? 'disembarks' : 'makes a Normal move';
      return `${unitShort(after, e.unit)} ${what}`;
    }
    case 'unit-flag': return `${unitShort(after, e.unit)} ${FLAG_TEXT[e.flag]}${e.value ? '' : ' (cleared)'}`;
    case 'unit-location': {
      const where = e.location === 'embarked' ? `embarked within ${unitShort(after, e.embarkedIn)}` : e.location === 'strategic-reserves' ? 'in Strategic Reserves'
        : e.location === 'reserves' ? 'in Reserves' : e.location === 'battlefield' ? 'on the battlefield' : e.location;
      return `${unitShort(after, e.unit)} is ${where}`;
    }
    case 'unit-attached': return `${unitShort(after, e.leader)} leads ${unitShort(after, e.bodyguard)}`;
    case 'unit-joined': return `${unitShort(after, e.unit)} joins ${unitShort(after, e.into)} for the rest of the battle`;
    case 'unit-detached': return `${unitShort(after, e.leader)} and ${unitShort(after, e.bodyguard)} split (Attached unit broken)`;
    case 'attack-allocated': return `attack allocated to ${modelLabel(after, e.unit, e.model)} of ${unitShort(after, e.unit)}`;
    case 'model-damaged': {
      const m = after.units[e.unit]?.models.find((x) => x.id === e.model);
      const left = m ? `, ${Math.max(0, m.wounds)} W left` : '';
      return `${modelLabel(after, e.unit, e.model)} of ${unitShort(after, e.unit)} loses ${e.wounds} wound${e.wounds === 1 ? '' : 's'}${e.mortal ? ' (mortal)' : ''}${e.by ? ` to ${unitShort(after, e.by)}` : ''}${left}`;
    }
    case 'model-healed': {
      const m = after.units[e.unit]?.models.find((x) => x.id === e.model);
      return `${modelLabel(after, e.unit, e.model)} of ${unitShort(after, e.unit)} regains ${e.wounds} wound${e.wounds === 1 ? '' : 's'}${m ? `, ${m.wounds} W left` : ''}`;
    }
    case 'model-returned': return `${modelLabel(after, e.unit, e.model)} of ${unitShort(after, e.unit)} is set back up with ${e.wounds} W`;
    case 'model-destroyed': {
      const u = after.units[e.unit];
      const alive = u ? u.models.filter((m) => m.alive).length : 0;
      return `${modelLabel(after, e.unit, e.model)} of ${unitShort(after, e.unit)} destroyed (${e.reason})${e.by ? ` by ${unitShort(after, e.by)}` : ''}: ${alive} left`;
    }
    case 'unit-destroyed': return `*** ${P(e.player)}'s ${unitShort(after, e.component)} destroyed${e.by ? ` by ${unitShort(after, e.by)}` : ''} ***`;
    case 'battle-shock': return `${unitShort(after, e.unit)} ${e.value ? 'is Battle-shocked' : 'is no longer Battle-shocked'}`;
    case 'effect-added': {
      const x = e.effect;
      const params = Object.keys(x.params ?? {}).length ? ` ${choiceText(after, x.params, 1)}` : '';
      return `effect ${x.kind}${x.unit ? ` on ${unitShort(after, x.unit)}` : ''} (${P(x.player)}), ${expiryText(x.expires)}${params}`;
    }
    case 'effect-removed': {
      const x = before.effects.find((f) => f.id === e.id);
      return x ? `effect ${x.kind}${x.unit ? ` on ${unitShort(after, x.unit)}` : ''} ends` : `effect #${e.id} ends`;
    }
    case 'stratagem-used': return `${P(e.player)} uses ${e.name} (${e.cp} CP)${e.unit ? ` on ${unitShort(after, e.unit)}` : ''}`;
    case 'objective-control': return `objective ${e.objective}: ${e.controller === null ? 'not controlled' : `controlled by ${P(e.controller)}`}`;
    case 'fallen-piled-in': {
      const n = e.positions.length;
      return `${unitLabel(after, e.unit)}: ${n} fallen model${n === 1 ? '' : 's'} pile in before fighting`;
    }
    case 'hatchway': return `hatchway ${e.hatchway} ${e.open ? 'opened' : 'closed'}${e.unit ? ` by ${unitShort(after, e.unit)}` : ''}`;
    case 'rule-state': return `${P(e.player)} ${e.key} = ${choiceText(after, e.value, 1)}`;
    case 'decision': {
      const why = e.why !== undefined ? ` | why: ${whyText(after, e.why, opts.whyMax)}` : '';
      const opt = e.option >= 0 ? ` #${e.option}` : '';
      return `P${e.player + 1} [${e.agent}] ${e.request}${opt} -> ${choiceText(after, e.choice)}${why}`;
    }
    case 'note': return `note: ${withUnitNames(after, e.text)}`;
    case 'fork-point': {
      const what = [e.seed !== undefined ? `dice from seed ${e.seed}` : '', e.agents ? `agents ${e.agents.join(' vs ')}` : ''].filter(Boolean).join(', ');
      return `=== fork of the game after event ${e.at}: ${what || 'the game goes on'} ===`;
    }
    case 'game-ended': {
      const r = e.result;
      const how = r.endedBy === 'army-destroyed' ? 'an army was destroyed' : r.endedBy === 'error' ? 'an error' : `${r.rounds} battle rounds`;
      return r.winner === null ? `Game over: draw ${r.vp[0]}-${r.vp[1]} (${how})` : `Game over: ${P(r.winner)} wins ${r.vp[0]}-${r.vp[1]} (${how})`;
    }
  }
}

/** "round 2, T'au's turn, Shooting phase" */
export function whereText(s: GameState): string {
  if (s.stage === 'ended') return `game over after round ${s.round}`;
  if (s.round === 0) return 'setup';
  return `round ${s.round}, ${playerName(s, s.turn)}'s turn, ${PHASE_TITLE[s.phase]} phase`;
}
