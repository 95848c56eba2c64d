/**
 * Parsers turning the export's ability words into structured entries: weapon abilities
 * ("sustained hits 1", "anti-infantry 4+"), core ability parameters ("D3", "5+", "7\""), transport
 * capacity, damaged profiles and invulnerable save notes. Each returns what it understood and says
 * when it did not, so the importer can report instead of dropping anything.
 */
import type { CoreAbility, DamagedProfile, Datasheet, DiceExpr, WeaponAbility } from './datasheet.ts';
import { parseDiceExpr } from '../core/dice-expr.ts';
import { cleanName, normaliseKeyword, normaliseText } from './text.ts';

/**
 * Weapon abilities the engine plays, by the upper-case name the rules registry uses: the core rules' and
 * LINKED FIRE (a datasheet's, src/rules/battle/linked-fire.ts). Others are reported by the importer.
 */
export const KNOWN_WEAPON_ABILITIES = new Set([
  'ANTI', 'ASSAULT', 'BLAST', 'CONVERSION', 'DEVASTATING WOUNDS', 'EXTRA ATTACKS', 'HAZARDOUS', 'HEAVY',
  'IGNORES COVER', 'INDIRECT FIRE', 'LANCE', 'LETHAL HITS', 'LINKED FIRE', 'MELTA', 'ONE SHOT', 'PISTOL', 'PRECISION',
  'PSYCHIC', 'RAPID FIRE', 'SUSTAINED HITS', 'TORRENT', 'TWIN-LINKED',
]);

/** Abilities that take a value X: "SUSTAINED HITS 1", "RAPID FIRE 2", "MELTA 2". */
export const WITH_X: ReadonlySet<string> = new Set(['SUSTAINED HITS', 'RAPID FIRE', 'MELTA']);

/**
 * Those whose X the engine also plays as a dice expression, rolled (SUSTAINED HITS D3: AttackPlan.sustainedHitsDice).
 * RAPID FIRE D3 or MELTA D3 (no T'au or Aeldari weapon has one) are reported as not played, not read as X = 0.
 */
const DICE_X = new Set(['SUSTAINED HITS']);

export interface WeaponAbilitiesResult {
  abilities: WeaponAbility[];
  /** ability words the engine does not play (kept as `{ name }` entries) */
  unknown: string[];
}

/** Parse a wargear row's `description`: comma-separated, any case ("anti-infantry 4+, DEVASTATING WOUNDS"). */
export function parseWeaponAbilities(text: string): WeaponAbilitiesResult {
  const abilities: WeaponAbility[] = [];
  const unknown: string[] = [];
  for (const raw of cleanName(text).split(',')) {
    const word = raw.trim().toUpperCase();
    if (!word) continue;
    const anti = /^ANTI-(.+?)\s+(\d)\+$/.exec(word);
    if (anti) {
      abilities.push({ name: 'ANTI', keyword: anti[1].trim(), threshold: Number(anti[2]) });
      continue;
    }
    const withX = /^(.+?)\s+(\d+|D3|D6|\d*D[36](?:\+\d+)?)$/.exec(word);
    if (withX && WITH_X.has(withX[1])) {
      const d = parseDiceExpr(withX[2]);
      if (d && d.n === 0) { abilities.push({ name: withX[1], x: d.plus }); continue; }
      if (d && DICE_X.has(withX[1])) { abilities.push({ name: withX[1], x: 0, dice: d }); continue; }
    }
    abilities.push({ name: word });
    if (!KNOWN_WEAPON_ABILITIES.has(word)) unknown.push(word);
  }
  return { abilities, unknown };
}

/** Core abilities by export ability id (Abilities.csv rows without a faction). */
export interface CoreAbilityParse {
  ability: CoreAbility;
  /** set when the parameter could not be read */
  problem?: string;
}

/**
 * A core ability with its parameter: Feel No Pain "5+" -> x 5; Scouts '7"' -> x 7; Firing Deck "6" -> x 6;
 * Deadly Demise "1" -> x 1, "D3" / "D6+2" -> dice. A note after the value ("(Szarekh model only)") is dropped.
 */
export function parseCoreAbility(name: string, parameter: string): CoreAbilityParse {
  const ability: CoreAbility = { name: cleanName(name) };
  const p = normaliseText(parameter).replace(/\(.*\)/, '').trim();
  if (!p) return { ability };
  const m = /^(\d*D[36](?:\s*\+\s*\d+)?|\d+)\s*(?:\+|"|'')?$/i.exec(p);
  const d = m ? parseDiceExpr(m[1]) : null;
  if (!d) return { ability, problem: `cannot read parameter ${JSON.stringify(parameter)} of ${ability.name}` };
  if (d.n === 0) ability.x = d.plus;
  else ability.dice = d;
  return { ability };
}

export interface TransportParse {
  transport: NonNullable<Datasheet['transport']>;
  problem?: string;
}

/**
 * The `transport` column: "This model has a transport capacity of 12 T’au Empire Infantry models. It
 * cannot transport Battlesuit, Kroot or Vespid Stingwings models." `splitKeywords` turns "T’au Empire
 * Infantry" into ["T'AU EMPIRE", "INFANTRY"] using the keywords the faction's datasheets know. A capacity
 * naming more than one kind of model ("10 Necron Warrior models and 1 Necrons Infantry Character model",
 * "Skitarii Infantry or Tech-Priest Infantry") has no keyword list to give: it is kept `unparsed`, with no
 * keywords, rather than read as one list holding the rule's words.
 */
export function parseTransport(html: string, splitKeywords: (words: string) => string[]): TransportParse | null {
  const text = cleanName(html);
  if (!text) return null;
  const sentences = text.split(/(?<=\.)\s+/).map((s) => s.trim()).filter(Boolean);
  const first = /^This model has a transport capacity of (\d+) (.+?) models?\.?$/i.exec(sentences[0] ?? '');
  const fromUnits = /^This model has a transport capacity of (\d+) models from the following units: (.+?)\.?$/i.exec(sentences[0] ?? '');
  const transport: TransportParse['transport'] = { capacity: 0, keywords: [], excludedKeywords: [] };
  const problems: string[] = [];
  if (fromUnits) {
    transport.capacity = Number(fromUnits[1]);
    transport.units = fromUnits[2].split(/,\s*/).map((u) => u.trim()).filter(Boolean);
  } else if (first && namesOneKind(first[2])) {
    transport.capacity = Number(first[1]);
    transport.keywords = splitKeywords(first[2]);
  } else if (first) {
    transport.capacity = Number(first[1]);
    transport.unparsed = true;
    problems.push(`capacity names more than one kind of model: ${first[2].slice(0, 80)}`);
  } else {
    const n = /transport capacity of (\d+)/i.exec(text);
    transport.capacity = n ? Number(n[1]) : 0;
    transport.unparsed = true;
    return { transport, problem: 'capacity sentence not understood' };
  }
  for (const s of sentences.slice(1)) {
    const cannot = /^(?:It|This model) cannot transport (.+?) models?(?: or (.+?) models)?(?: \(excluding (.+?)(?: models)?\))?\.$/i.exec(s);
    const space = modelSpaces(s);
    if (cannot) {
      const list = [cannot[1], cannot[2]].filter(Boolean).join(', ');
      transport.excludedKeywords.push(...list.split(/,\s*|\s+or\s+/).map((k) => normaliseKeyword(k)).filter(Boolean));
      if (cannot[3]) transport.excludedExceptions = cannot[3].split(/,\s*|\s+and\s+/).map((k) => normaliseKeyword(k.replace(/ models$/i, '')));
    } else if (space) {
      (transport.modelSpace ??= []).push(...space);
    } else {
      transport.unparsed = true;
      problems.push(`sentence not understood: ${s.slice(0, 80)}`);
    }
  }
  return problems.length ? { transport, problem: problems.join('; ') } : { transport };
}

/** A capacity's model words are one keyword list: no count, no second "models", no "and"/"or"/comma between kinds. */
function namesOneKind(words: string): boolean {
  return !/\d|\bmodels?\b|,|\s(?:and|or)\s/i.test(words);
}

/**
 * "Each Jump Pack, Wulfen, Gravis or Terminator model takes up the space of 2 models and each Centurion model
 * takes up the space of 3 models." -> one entry per keyword; null when the sentence is not of that shape.
 */
function modelSpaces(sentence: string): { keyword: string; space: number }[] | null {
  if (!/^Each /i.test(sentence)) return null;
  const out: { keyword: string; space: number }[] = [];
  for (const clause of sentence.replace(/\.$/, '').split(/\s+and each\s+/i)) {
    const m = /^(?:Each )?(.+?) models? takes? (?:up )?the space of (\d+) models?$/i.exec(clause.trim());
    if (!m) return null;
    // "Heavy Weapons Team model and Veteran Heavy Weapons Team", "MOUNTED , Centurion or Obliterator"
    for (const k of m[1].split(/\s*,\s*|\s+or\s+|\s+and\s+/i)) {
      const keyword = normaliseKeyword(k.replace(/\s+models?$/i, ''));
      if (keyword) out.push({ keyword, space: Number(m[2]) });
    }
  }
  return out;
}

export interface DamagedParse {
  damaged: DamagedProfile;
  problem?: string;
}

/** damaged_w "1-4" and its description: hit modifier, OC modifier, halved Attacks. */
export function parseDamaged(range: string, description: string): DamagedParse | null {
  const r = /^(\d+)\s*-\s*(\d+)$/.exec(normaliseText(range));
  if (!r) return null;
  const text = cleanName(description);
  const damaged: DamagedProfile = { from: Number(r[1]), to: Number(r[2]), hitModifier: 0 };
  let rest = text.replace(/^While this (?:model|unit's .+? model) has \d+-\d+ wounds remaining,\s*/i, '');
  const hit = /subtract (\d+) from the Hit roll/i.exec(rest);
  if (hit) { damaged.hitModifier = -Number(hit[1]); rest = rest.replace(hit[0], ''); }
  const oc = /subtract (\d+) from (?:this model's|its) Objective Control characteristic/i.exec(rest);
  if (oc) { damaged.ocModifier = -Number(oc[1]); rest = rest.replace(oc[0], ''); }
  const halved = /(halve the Attacks characteristic of [^,.]+|the Attacks characteristics of all of its weapons are halved)/i.exec(rest);
  if (halved) { damaged.attacksHalved = true; rest = rest.replace(halved[0], ''); }
  // what remains should be glue words only ("each time this model makes an attack, and ...")
  const leftover = rest.replace(/each time (?:(?:this|that) (?:model|unit)|it) makes an attack/gi, '')
    .replace(/\band\b/gi, '').replace(/[^a-z0-9]+/gi, ' ').trim();
  if (leftover) {
    damaged.unparsed = true;
    return { damaged, problem: `effect not understood: ${leftover.slice(0, 80)}` };
  }
  return { damaged };
}

export interface InvulnerableParse {
  invulnerable: number | null;
  rangedOnly?: boolean;
  melee?: number;
  problem?: string;
}

/** inv_sv "4", "4*", "-" and its note ("* Against ranged attacks only", "... improved to 4+ against melee attacks"). */
export function parseInvulnerable(value: string, note: string): InvulnerableParse {
  const v = normaliseText(value).replace(/\*$/, '').replace(/\+$/, '');
  const invulnerable = /^\d$/.test(v) ? Number(v) : null;
  const out: InvulnerableParse = { invulnerable };
  const n = cleanName(note);
  if (!n) return out;
  const melee = /(\d)\+ against melee attacks/i.exec(n);
  if (melee) out.melee = Number(melee[1]);
  else if (/against ranged attacks/i.test(n)) out.rangedOnly = true;
  else out.problem = `invulnerable save note not understood: ${n.slice(0, 80)}`;
  return out;
}

/** Characteristic with a trailing + or ": "3+" -> 3, '6"' -> 6, "-" -> null. */
export function parseStat(s: string): number | null {
  const m = /^(\d+)\s*(?:\+|"|'')?\s*$/.exec(normaliseText(s));
  return m ? Number(m[1]) : null;
}

export function parseDice(s: string): DiceExpr | null {
  return parseDiceExpr(normaliseText(s));
}
