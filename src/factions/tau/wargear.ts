/**
 * T'au wargear abilities. Muster gives a model the wargear abilities of what it carries
 * (ModelState.wargear) and its unit those abilities; each entry here finds its bearers. Battlesuit and
 * Weapon Support Systems, datasheet abilities of some units and wargear of others, are in battlesuits.ts.
 */
import '../core-first.ts';
import { registerRule, type Rule } from '../../core/rules-registry.ts';
import type { Game } from '../../core/game.ts';
import type { PlayerIndex, UnitState } from '../../core/state.ts';
import { isWithin } from '../../geometry/distance.ts';
import { registerStratagem } from '../../rules/stratagems/registry.ts';
import { arrivalPlan, arrive, inReserves, type ArrivalOption } from '../../rules/battle/reserves.ts';
import { planModels } from '../../rules/battle/placement.ts';
import { isUnitOrItsPart, unitsOnBattlefield } from '../../rules/battle/units.ts';
import { modelBody, unitCentre } from '../../rules/battle/world.ts';
import type { ModelState } from '../../core/state.ts';
import { widerReroll } from '../../rules/attack-plan.ts';
import { gainExtraCp } from '../../rules/battle/command-points.ts';
import { onObserverSelected } from './army-rule.ts';
import { bearerInvulnerable, carries, wargearBearers, withinAuraOf } from '../helpers.ts';

const SHIELD_GENERATOR = 'Shield Generator';
const GUARDIAN_DRONE = 'Advanced Guardian Drone';
const COMMAND_LINK = 'Command-link Drone (Aura)';
const GRAV_INHIBITOR = 'Grav-inhibitor Drone';
const PULSE_ACCELERATOR = 'Pulse Accelerator Drone';
const RECON_DRONE = 'Recon Drone';
const OVERSIGHT_DRONE = 'Oversight Drone';
const HOVER_DRONE = 'Hover Drone';
const BLACKLIGHT = 'Blacklight Marker Drones';
const BAGGAGE_HARNESS = 'Baggage Harness (Aura)';
const MV15 = 'MV15 Gun Drone';

const carrying = (name: string) => (m: ModelState) => carries(m, name);
const NO_WEAPONS: readonly string[] = [];

/** "The bearer is equipped with 1 <weapon>": a weapon of its datasheet it does not carry already. */
function bearerWeapon(wargear: string, weapon: string): NonNullable<Rule['extraWeapons']> {
  return (ctx) => (carries(ctx.model, wargear) && !ctx.model.weapons.includes(weapon) && ctx.state.datasheets[ctx.model.datasheet].weapons.some((w) => w.name === weapon) ? [weapon] : NO_WEAPONS);
}

/** Shield Generator: its bearer has a 4+ invulnerable save. */
registerRule({
  name: SHIELD_GENERATOR, kind: 'wargear-ability',
  invulnerableSave: bearerInvulnerable(SHIELD_GENERATOR, 4),
});

/**
 * Advanced Guardian Drone (Shadowsun): ranged attacks that target the bearer subtract 1 from the Wound
 * roll. An attack targets a unit, so while the bearer is alive in it, every ranged attack at its unit.
 */
registerRule({
  name: GUARDIAN_DRONE, kind: 'wargear-ability',
  attack(plan, ctx, src) {
    if (src.role === 'defender' && !ctx.melee && wargearBearers(ctx.target, GUARDIAN_DRONE).length > 0) plan.woundModifier -= 1;
  },
});

/**
 * Command-link Drone (Aura, Shadowsun): each time its player selects a friendly T'AU EMPIRE unit within 6"
 * of the bearer as the target of a Stratagem, a D6 of 5+ gains 1CP (within the core rules' one extra CP a
 * battle round).
 */
registerRule({
  name: COMMAND_LINK, kind: 'wargear-ability', aura: true,
  stratagemTargeted(g, unit, stratagem, src) {
    // walked as an army-wide aura (src.unit null) for every unit, the bearer's own included
    if (src.unit !== null || !unit.keywords.includes("T'AU EMPIRE")) return;
    if (!withinAuraOf(g.state, unit, COMMAND_LINK, carrying(COMMAND_LINK), 6)) return;
    const [d6] = g.dice.roll(1, 6, 'other', unit.player, unit.id, `Command-link Drone (${stratagem}; 5+: 1CP)`);
    if (d6 >= 5) gainExtraCp(g, unit.player, 'Command-link Drone');
  },
});

/** Grav-inhibitor Drone (Pathfinders): -2 to the Charge roll of an enemy unit that declares a charge against the bearer's unit (see chargeRollModifier). */
registerRule({
  name: GRAV_INHIBITOR, kind: 'wargear-ability',
  chargeRollAgainst: (ctx) => (wargearBearers(ctx.unit, GRAV_INHIBITOR).length > 0 ? -2 : 0),
});

/** Pulse Accelerator Drone (Pathfinders): +6" to the Range of the pulse carbines of the bearer's unit. */
registerRule({
  name: PULSE_ACCELERATOR, kind: 'wargear-ability',
  weaponRangeBonus: (ctx) => (/^pulse carbine/i.test(ctx.profile.name) && wargearBearers(ctx.unit, PULSE_ACCELERATOR).length > 0 ? 6 : 0),
});

/** Recon Drone (Pathfinders): the bearer also carries a drone burst cannon, and the unit has Infiltrators (granted at muster). */
registerRule({
  name: RECON_DRONE, kind: 'wargear-ability', grantsAbilities: ['Infiltrators'],
  extraWeapons: bearerWeapon(RECON_DRONE, 'Drone burst cannon'),
});

/** MV15 Gun Drone (the Twin Lance): the bearer also carries a twin pulse blaster. */
registerRule({
  name: MV15, kind: 'wargear-ability',
  extraWeapons: bearerWeapon(MV15, 'Twin pulse blaster'),
});

/** Markerlight (Heavy Gun Drones): the bearer's unit has the MARKERLIGHT keyword (granted at muster). */
registerRule({ name: 'Markerlight', kind: 'wargear-ability', grantsKeywords: ['MARKERLIGHT'] });

/**
 * Hover Drone (Ethereal): the bearer has FLY and a Move of 10". A unit has every keyword of its models (the
 * core rules' Keywords), so the Ethereal's unit, and an Attached unit he leads, has FLY for the rules that
 * ask of a unit (attacks against FLY units); a unit moves as a FLY unit only when every model has it
 * (allModelsHave reads the keywords wargear gives its bearer), so the unit he leads does not.
 */
registerRule({
  name: HOVER_DRONE, kind: 'wargear-ability', grantsKeywords: ['FLY'],
  characteristic: (which, v, ctx) => (which === 'M' && carries(ctx.model, HOVER_DRONE) ? 10 : v),
  characteristicStage: { M: 'set' },
});

const OVERSIGHT_USED = 'Oversight Drone used';

/**
 * Oversight Drone (Vespid Stingwings): once per battle, when the bearer's unit is selected to shoot, its
 * ranged weapons have IGNORES COVER until the end of the phase (its player chooses when). The entry is also
 * the effect.
 */
registerRule({
  name: OVERSIGHT_DRONE, kind: 'wargear-ability',
  selectedToShoot(g, unit) {
    if (wargearBearers(unit, OVERSIGHT_DRONE).length === 0) return;
    if (g.state.effects.some((e) => e.kind === OVERSIGHT_USED && e.unit === unit.id)) return;
    const { option } = g.decide({
      kind: 'oversight-drone', player: unit.player, prompt: `${unit.name}: use the Oversight Drone (once per battle: IGNORES COVER this phase)?`,
      options: ['keep', 'use'], context: { unit: unit.id },
    });
    if (option !== 'use') return;
    g.addEffect(OVERSIGHT_USED, unit.player, unit.id, { at: 'end-of-battle' });
    g.addEffect(OVERSIGHT_DRONE, unit.player, unit.id, g.untilEndOfPhase());
  },
  attack(plan, ctx, src) {
    if (src.effect && src.role === 'attacker' && !ctx.melee) plan.ignoresCover = true;
  },
});

const BLACKLIGHT_USED = 'Blacklight Marker Drones used';

/**
 * Blacklight Marker Drones (Shas'o R'alai): twice per battle, when his unit becomes an Observer unit, the
 * Guided unit's ranged attacks at the Spotted unit re-roll Wound rolls of 1 until the end of the phase (its
 * player chooses when). The entry is also the effect on the Guided unit (params.spotted).
 */
registerRule({
  name: BLACKLIGHT, kind: 'wargear-ability',
  attack(plan, ctx, src) {
    if (!src.effect || src.role !== 'attacker' || ctx.melee || !isUnitOrItsPart(ctx.target, src.effect.params.spotted)) return;
    plan.rerollWounds = widerReroll(plan.rerollWounds, 'ones');
  },
});

onObserverSelected((g, observer, guided, spotted) => {
  const bearer = wargearBearers(observer, BLACKLIGHT)[0];
  if (!bearer) return;
  // twice per battle for the bearer: its uses are its model's, also once its Bodyguard is destroyed and it stands alone
  const used = g.state.effects.filter((e) => e.kind === BLACKLIGHT_USED && e.params.model === bearer.id).length;
  if (used >= 2) return;
  const { option } = g.decide({
    kind: 'blacklight-marker-drones', player: observer.player, prompt: `${observer.name}: use a Blacklight Marker Drone (${2 - used} left: ${guided.name} re-rolls Wound rolls of 1 at the Spotted unit)?`,
    options: ['keep', 'use'], context: { unit: guided.id, observer: observer.id, spotted },
  });
  if (option !== 'use') return;
  g.addEffect(BLACKLIGHT_USED, observer.player, observer.id, { at: 'end-of-battle' }, { model: bearer.id });
  g.addEffect(BLACKLIGHT, observer.player, guided.id, g.untilEndOfPhase(), { spotted });
});

/** Baggage Harness (Aura, Great Knarloc): ranged weapons of friendly KROOT units within 3" of the bearer have SUSTAINED HITS 1. */
registerRule({
  name: BAGGAGE_HARNESS, kind: 'wargear-ability', aura: true,
  attack(plan, ctx, src) {
    // walked army-wide (src.unit null) for every unit, the bearer's own included
    if (src.role !== 'attacker' || src.unit !== null || ctx.melee || !ctx.attacker.keywords.includes('KROOT')) return;
    if (withinAuraOf(ctx.state, ctx.attacker, BAGGAGE_HARNESS, carrying(BAGGAGE_HARNESS), 3)) plan.sustainedHits = Math.max(plan.sustainedHits, 1);
  },
});

const HOMING_BEACON = 'Homing Beacon';
const BEACON_USED = 'Homing Beacon used';

/** Homing Beacon (Stealth Battlesuits): the wargear; its use is the RAPID INGRESS entry below. */
registerRule({ name: HOMING_BEACON, kind: 'wargear-ability' });

/** A unit set up by a Homing Beacon: more than 9" from all enemy units. */
const BEACON_ENEMY_DISTANCE = 9;

/** The player's units whose alive models carry a Homing Beacon not used yet, on the battlefield. */
function beaconUnits(g: Game, player: PlayerIndex): UnitState[] {
  return unitsOnBattlefield(g.state, player).filter((u) => wargearBearers(u, HOMING_BEACON).length > 0 && !g.state.effects.some((e) => e.kind === BEACON_USED && e.unit === u.id));
}

/**
 * Where a unit arriving through the beacon of `beacon`'s unit can be set up: around that unit, within 3" of
 * it (one of its models within 3", as "within" reads in the core rules) and more than 9" from enemy models
 * (the Deep Strike placement). Eight points around the unit, those the placement fits.
 */
export function homingBeaconArrivals(g: Game, u: UnitState, beacon: UnitState): ArrivalOption[] {
  const s = g.state;
  const anchors = beacon.models.filter((m) => m.alive && m.pos).map((m) => modelBody(s, m));
  const c = unitCentre(beacon);
  const reach = Math.max(...anchors.map((b) => Math.hypot(b.pos.x - c.x, b.pos.y - c.y))) + 2;
  const models = planModels(s, u);
  const out: ArrivalOption[] = [];
  for (let k = 0; k < 8; k++) {
    const x = c.x + reach * Math.cos((k * Math.PI) / 4);
    const y = c.y + reach * Math.sin((k * Math.PI) / 4);
    // the set-up `arrive` makes there (Aethersense's and the like's areas kept out), then checked for the 3"
    const { plan } = arrivalPlan(s, u, { unit: u.id, how: 'deep-strike', x, y }, BEACON_ENEMY_DISTANCE);
    if (!plan.ok) continue;
    // "within" (not "wholly within"): a unit is within 3" when one of its models is
    const near = plan.positions.some((pos, i) => anchors.some((a) => isWithin({ pos, base: models[i].base!, height: models[i].height! }, a, 3)));
    if (near) out.push({ unit: u.id, how: 'deep-strike', x, y });
  }
  return out;
}

/**
 * A Homing Beacon's use (once per battle for each beacon): RAPID INGRESS for 0CP, the unit set up within 3"
 * of the bearer's unit and more than 9" from enemy models (any unit in Reserves, Deep Strike or not). It is the RAPID INGRESS stratagem (one use of it
 * a phase, whichever entry), granted by the wargear (Stratagem.grantedBy).
 */
registerStratagem({
  name: 'RAPID INGRESS', cp: 0, category: 'Strategic Ploy', source: HOMING_BEACON, grantedBy: HOMING_BEACON, turn: 'opponent',
  windows: ['phase/end'],
  targets: (g, w, p) => {
    if (w.data?.phase !== 'movement' || g.state.round < 2) return [];
    const beacons = beaconUnits(g, p);
    if (beacons.length === 0) return [];
    return g.state.unitOrder.map((id) => g.state.units[id]).filter((u) => u.player === p && inReserves(u) && beacons.some((b) => homingBeaconArrivals(g, u, b).length > 0));
  },
  use: (g, _w, p, u) => {
    const options = beaconUnits(g, p).flatMap((b) => homingBeaconArrivals(g, u, b).map((o) => ({ ...o, beacon: b.id })));
    const { option } = g.decide({ kind: 'rapid-ingress', player: p, prompt: `Rapid Ingress (Homing Beacon): where does ${u.name} arrive?`, options });
    g.addEffect(BEACON_USED, p, option.beacon, { at: 'end-of-battle' });
    arrive(g, u, option, BEACON_ENEMY_DISTANCE);
  },
});
