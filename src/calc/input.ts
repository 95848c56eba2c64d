/**
 * The calculator's input file: one weapon profile fired by N models at a single-profile target.
 * Validated with zod; errors name the field and what was expected.
 */
import { z } from 'zod';
import { parseDiceExpr } from '../core/dice-expr.ts';
import type { DiceExpr, WeaponAbility } from '../data/datasheet.ts';
import { parseWeaponAbilities as parseAbilityText, WITH_X } from '../data/abilities-parse.ts';
import { unknownFieldMessage } from '../data/unknown-field.ts';
import { getWeaponAbility } from '../rules/weapon-abilities.ts';
import type { RerollPolicy } from '../rules/attack-plan.ts';

/**
 * The most a dice expression may roll (Attacks, Damage): the exact distributions are arrays as long as that;
 * no weapon of the data comes near (its largest fixed values are 32 Attacks and 24 Damage).
 */
const MAX_DICE_TOTAL = 100;

const dice = z.union([z.string(), z.number().int().nonnegative()], { error: 'expected a dice expression such as 3, D3, D6+1 or 2D6 (a string or a whole number)' }).transform((v, ctx): DiceExpr => {
  const d = parseDiceExpr(v);
  if (!d) {
    ctx.addIssue({ code: 'custom', message: `expected a dice expression such as 3, D3, D6+1 or 2D6, got ${JSON.stringify(v)}` });
    return z.NEVER;
  }
  if (d.n * d.sides + d.plus > MAX_DICE_TOTAL) {
    ctx.addIssue({ code: 'custom', message: `expected a dice expression of at most ${MAX_DICE_TOTAL}, got ${JSON.stringify(v)}` });
    return z.NEVER;
  }
  return d;
});

/**
 * BS or WS, 2 to 6 (3 means 3+). A TORRENT weapon never rolls to hit and its datasheet says "N/A": it may say
 * so or leave the field out (read as 0, as the importer reads it); any other weapon needs a skill (checked
 * with the abilities, below).
 */
const skill = z.union([z.number().int().min(2).max(6), z.literal('N/A')], { error: 'expected a skill from 2 to 6 (3 means 3+), or "N/A" for a TORRENT weapon' })
  .optional().transform((v) => (typeof v === 'number' ? v : 0));
const reroll = z.enum(['none', 'ones', 'failed']).default('none');

const KNOWN = ['SUSTAINED HITS X', 'LETHAL HITS', 'DEVASTATING WOUNDS', 'ANTI-KEYWORD X+', 'MELTA X', 'RAPID FIRE X', 'BLAST', 'TORRENT', 'TWIN-LINKED', 'LANCE', 'HEAVY', 'IGNORES COVER', 'PRECISION', 'HAZARDOUS', 'ASSAULT', 'PISTOL', 'INDIRECT FIRE'];

/**
 * One entry of `abilities`: an ability, or several separated by commas as the data writes them ("LETHAL HITS,
 * DEVASTATING WOUNDS"; the second was dropped). An ability that takes a value must have it, and an ANTI
 * threshold is 2+ to 6+ (an unmodified 1 always fails; 7+ would never be reached): both were taken and did nothing
 * or played a 1 as a Critical Wound.
 */
const ability = z.string().transform((v, ctx): WeaponAbility[] => {
  const { abilities } = parseAbilityText(v);
  if (!abilities.length) {
    ctx.addIssue({ code: 'custom', message: 'expected a weapon ability, got an empty string' });
    return z.NEVER;
  }
  for (const a of abilities) {
    if (!getWeaponAbility(a.name)) {
      ctx.addIssue({ code: 'custom', message: `unknown weapon ability ${JSON.stringify(abilities.length > 1 ? a.name : v)} (known: ${KNOWN.join(', ')})` });
      return z.NEVER;
    }
    if (WITH_X.has(a.name) && a.x === undefined) {
      ctx.addIssue({ code: 'custom', message: `${a.name} needs its value, e.g. "${a.name} 1"; got ${JSON.stringify(v)}` });
      return z.NEVER;
    }
    if (a.name === 'ANTI' && (a.threshold === undefined || a.threshold < 2 || a.threshold > 6)) {
      ctx.addIssue({ code: 'custom', message: `expected an ANTI threshold from 2+ to 6+, got ${JSON.stringify(v)}` });
      return z.NEVER;
    }
  }
  return abilities;
});

/** The abilities of the weapon, each once: an ability's bonus does not stack with itself (BLAST twice added its attacks twice). */
const abilityList = z.array(ability).default([]).transform((lists, ctx): WeaponAbility[] => {
  const all = lists.flat();
  const seen = new Set<string>();
  for (const a of all) {
    const key = a.name === 'ANTI' ? `ANTI-${a.keyword}` : a.name;
    if (seen.has(key)) {
      ctx.addIssue({ code: 'custom', message: `${key} is listed twice (an ability counts once)` });
      return z.NEVER;
    }
    seen.add(key);
  }
  return all;
});

/** Damage: at least 1 whatever is rolled (0 was taken and each unsaved attack then inflicted 1 wound). */
const damage = dice.refine((d) => (d.n === 0 ? d.plus : d.n + d.plus) >= 1, { message: 'expected a Damage of at least 1 (such as 1, D3, D6+1)' });

export const calcInputSchema = z.object({
  attacker: z.object({
    models: z.number().int().min(1).max(100),
    weapon: z.object({
      name: z.string().default('Weapon'),
      range: z.union([z.number().positive(), z.literal('Melee')], { error: 'expected a range in inches (more than 0) or "Melee"' }),
      attacks: dice,
      skill,
      strength: z.number().int().min(1),
      ap: z.number().int().max(0),
      damage,
      abilities: abilityList,
    }).strict().superRefine((w, ctx) => {
      if (w.skill === 0 && !w.abilities.some((a) => a.name === 'TORRENT')) {
        ctx.addIssue({ code: 'custom', path: ['skill'], message: 'expected a skill from 2 to 6 (3 means 3+); only a TORRENT weapon, which never rolls to hit, may leave it out or say "N/A"' });
      }
    }),
    modifiers: z.object({
      hit: z.number().int().default(0),
      wound: z.number().int().default(0),
      rerollHits: reroll,
      rerollWounds: reroll,
      /** how many "re-roll one Hit roll" / "one Wound roll" / "one Damage roll" rules apply to the whole volley (Soulsight, Crystal Matrix...) */
      rerollOneHit: z.number().int().min(0).max(3).default(0),
      rerollOneWound: z.number().int().min(0).max(3).default(0),
      // one: the exact calculator models a single re-roll of a Damage roll (more were taken and played as one)
      rerollOneDamage: z.number().int().min(0).max(1).default(0),
      halfRange: z.boolean().default(false),
      charged: z.boolean().default(false),
      remainedStationary: z.boolean().default(false),
    }).strict().default({ hit: 0, wound: 0, rerollHits: 'none', rerollWounds: 'none', rerollOneHit: 0, rerollOneWound: 0, rerollOneDamage: 0, halfRange: false, charged: false, remainedStationary: false }),
  }).strict().superRefine((a, ctx) => {
    // the exact calculator picks the Damage die to re-roll among all unsaved attacks, the engine among the failed
    // saves first, then the mortal wounds (src/calc/exact.ts): refused rather than an "exact" result that is not
    if (a.modifiers.rerollOneDamage > 0 && a.weapon.abilities.some((x) => x.name === 'DEVASTATING WOUNDS')) {
      ctx.addIssue({ code: 'custom', path: ['modifiers', 'rerollOneDamage'], message: 'not with DEVASTATING WOUNDS: the exact calculator does not model re-rolling one Damage roll among its mortal wounds' });
    }
    // half range is a ranged attack's distance (RAPID FIRE, MELTA): a Melee weapon with it got their bonuses
    if (a.modifiers.halfRange && a.weapon.range === 'Melee') {
      ctx.addIssue({ code: 'custom', path: ['modifiers', 'halfRange'], message: 'a Melee weapon has no half range (it counts for ranged attacks: RAPID FIRE, MELTA)' });
    }
  }),
  defender: z.object({
    models: z.number().int().min(1).max(100),
    toughness: z.number().int().min(1),
    save: z.number().int().min(2).max(7),
    invulnerable: z.number().int().min(2).max(6).nullable().default(null),
    // the data's largest is 100 (a model's wounds left are the exact calculator's states)
    wounds: z.number().int().min(1).max(100),
    feelNoPain: z.number().int().min(2).max(6).nullable().default(null),
    keywords: z.array(z.string()).default([]),
    cover: z.boolean().default(false),
    stealth: z.boolean().default(false),
  }).strict(),
}).strict();

export type CalcInput = z.output<typeof calcInputSchema>;

export type CalcModifiers = CalcInput['attacker']['modifiers'] & { rerollHits: RerollPolicy; rerollWounds: RerollPolicy };

/**
 * Validate parsed JSON; throws an Error whose message is one line naming the field. A misspelt field is
 * named first, with the field it was likely meant as: its missing twin's "received undefined" would blame
 * the right name.
 */
export function parseCalcInput(json: unknown, file = 'input'): CalcInput {
  const r = calcInputSchema.safeParse(json);
  if (r.success) return r.data;
  const unknownKey = r.error.issues.find((i) => i.code === 'unrecognized_keys');
  if (unknownKey?.code === 'unrecognized_keys') {
    const where = unknownKey.path.length ? unknownKey.path.join('.') : '(root)';
    throw new Error(`${file}: ${where}: ${unknownFieldMessage(calcInputSchema, { path: unknownKey.path, keys: unknownKey.keys.slice(0, 1) })}`);
  }
  const issue = r.error.issues[0];
  const path = issue.path.length ? issue.path.join('.') : '(root)';
  throw new Error(`${file}: ${path}: ${issue.message}`);
}
