/**
 * The calculator's input file: one weapon profile fired by N models at a single-profile target.
 * Validated with zod; errors name the field and what was expected.
 */
import { z } from 'zod';
import { parseDiceExpr } from '../core/dice-expr.ts';
import type { DiceExpr, WeaponAbility } from '../data/datasheet.ts';
import { parseWeaponAbilities as parseAbilityText } from '../data/abilities-parse.ts';
import { closestNames, editDistance } from '../data/fuzzy.ts';
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

const skill = z.number().int().min(2).max(6);
const reroll = z.enum(['none', 'ones', 'failed']).default('none');

const ability = z.string().transform((v, ctx): WeaponAbility => {
  const [a] = parseAbilityText(v).abilities;
  if (!a) {
    ctx.addIssue({ code: 'custom', message: 'expected a weapon ability, got an empty string' });
    return z.NEVER;
  }
  if (!getWeaponAbility(a.name)) {
    ctx.addIssue({ code: 'custom', message: `unknown weapon ability ${JSON.stringify(v)} (known: ${['SUSTAINED HITS X', 'LETHAL HITS', 'DEVASTATING WOUNDS', 'ANTI-KEYWORD X+', 'MELTA X', 'RAPID FIRE X', 'BLAST', 'TORRENT', 'TWIN-LINKED', 'LANCE', 'HEAVY', 'IGNORES COVER', 'PRECISION', 'HAZARDOUS', 'ASSAULT', 'PISTOL', 'INDIRECT FIRE'].join(', ')})` });
    return z.NEVER;
  }
  return a;
});

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
      damage: dice,
      abilities: z.array(ability).default([]),
    }).strict(),
    modifiers: z.object({
      hit: z.number().int().default(0),
      wound: z.number().int().default(0),
      rerollHits: reroll,
      rerollWounds: reroll,
      /** how many "re-roll one Hit roll" / "one Wound roll" / "one Damage roll" rules apply to the whole volley (Soulsight, Crystal Matrix...) */
      rerollOneHit: z.number().int().min(0).max(3).default(0),
      rerollOneWound: z.number().int().min(0).max(3).default(0),
      rerollOneDamage: z.number().int().min(0).max(3).default(0),
      halfRange: z.boolean().default(false),
      charged: z.boolean().default(false),
      remainedStationary: z.boolean().default(false),
    }).strict().default({ hit: 0, wound: 0, rerollHits: 'none', rerollWounds: 'none', rerollOneHit: 0, rerollOneWound: 0, rerollOneDamage: 0, halfRange: false, charged: false, remainedStationary: false }),
  }).strict(),
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

/** The field names the input's object at `path` takes (through defaults), for suggesting a misspelt one. */
function fieldsAt(path: readonly PropertyKey[]): string[] {
  let node: unknown = calcInputSchema;
  for (const key of path) {
    while (node instanceof z.ZodDefault) node = node.unwrap();
    node = node instanceof z.ZodObject ? (node.shape as Record<string, unknown>)[String(key)] : undefined;
  }
  while (node instanceof z.ZodDefault) node = node.unwrap();
  return node instanceof z.ZodObject ? Object.keys(node.shape) : [];
}

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
    const key = unknownKey.keys[0];
    const fields = fieldsAt(unknownKey.path);
    const [near] = closestNames(key, fields, 1);
    const hint = near && editDistance(key.toLowerCase(), near.toLowerCase()) <= Math.max(2, Math.floor(near.length / 3)) ? `; did you mean "${near}"?` : '';
    throw new Error(`${file}: ${where}: unknown field "${key}" (expected one of ${fields.join(', ')}${hint})`);
  }
  const issue = r.error.issues[0];
  const path = issue.path.length ? issue.path.join('.') : '(root)';
  throw new Error(`${file}: ${path}: ${issue.message}`);
}
