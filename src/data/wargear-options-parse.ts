/**
 * Wargear option lines (Datasheets_options) into structured options: what is replaced, by which
 * choices, for how many models, which models. Only the shapes the rules text actually uses are
 * understood; anything else comes back `unparsed` (the importer reports it, and never stores the text).
 *
 *   "This model’s twin shuriken cannon can be replaced with one of the following: ..."
 *   "Any number of models can each have their burst cannon replaced with 1 fusion blaster."
 *   "Up to 2 Storm Guardians can each have their shuriken pistol replaced with 1 flamer."
 *   "The Fire Warrior Shas’ui can be equipped with up to two of the following, and can take duplicates: ..."
 *   "For every 5 models in this unit, 1 model’s Corsair firearm can be replaced with one of the following: ..."
 *   "Up to 3 Traitor Guardsmen can each have their lasgun replaced with one of the following (duplicates are not allowed): ..."
 */
import type { WargearOption } from './datasheet.ts';
import { cleanName, parseCount } from './text.ts';
import { resolveItems, splitCount, type ItemResolver, type ResolvedItem } from './items.ts';
import { matchProfiles } from './composition-parse.ts';

export interface OptionParse {
  /** null for "None" */
  option: WargearOption | null;
  /** plain text of the line, for the importer's report only */
  text: string;
}

export function parseWargearOption(html: string, profiles: string[], resolve: ItemResolver): OptionParse {
  const list = [...html.matchAll(/<li>(.*?)<\/li>/gis)].map((m) => cleanName(m[1]));
  const head = cleanName(html.replace(/<ul[\s\S]*$/i, '')).replace(/[:*\s]+$/, '');
  const text = list.length ? `${head}: ${list.join('; ')}` : head;
  if (/^none\.?$/i.test(head)) return { option: null, text };
  const option = parseHead(head, list, profiles, resolve);
  return { option: option ?? { replace: [], with: [], count: 0, models: [], unparsed: true }, text };
}

const N = String.raw`(\d+|one|two|three|four|a|an)`;

function parseHead(head: string, list: string[], profiles: string[], resolve: ItemResolver): WargearOption | null {
  let h = head.replace(/\.$/, '');
  let perModels: number | undefined;
  const per = new RegExp(String.raw`^For every (\d+) models in (?:this|the) unit,\s*(.+)$`, 'i').exec(h);
  if (per) {
    perModels = Number(per[1]);
    h = per[2];
    const have = /^it can have (.+)$/i.exec(h);
    if (have) return finish({ replace: [], who: '', count: 1 }, have[1], list, profiles, resolve, perModels);
  }
  if (/^if\b/i.test(h)) return null; // conditional options ("If this unit contains 10 models, ...")

  // "Each of this model's <what> can be replaced with <rest>"
  let m = /^Each of this model's (.+?) can be replaced with (.+)$/i.exec(h);
  if (m) return finish({ who: 'this model', replace: [m[1]], count: 'all' }, m[2], list, profiles, resolve, perModels);
  // "<who>'s <what> can be replaced with <rest>"
  m = /^(.+?)'s (.+?) can be replaced with (.+)$/i.exec(h);
  if (m && !/\bcan each\b/i.test(m[1])) return finish({ who: m[1], replace: [m[2]], count: null }, m[3], list, profiles, resolve, perModels);
  // "Each model can have each <what> it is equipped with replaced with <rest>"
  m = /^Each model can have each (.+?) it is equipped with replaced with (.+)$/i.exec(h);
  if (m) return finish({ who: 'any number of models', replace: [m[1]], count: 'all' }, m[2], list, profiles, resolve, perModels);
  // "<who> can each have their <what> (can be) replaced with <rest>"
  m = /^(.+?) can each have their (.+?) (?:can be )?replaced with (.+)$/i.exec(h);
  if (m) return finish({ who: m[1], replace: [m[2]], count: null }, m[3], list, profiles, resolve, perModels);
  // "<who> can replace its <what> with <rest>"
  m = /^(.+?) can replace its (.+?) with (.+)$/i.exec(h);
  if (m) return finish({ who: m[1], replace: [m[2]], count: null }, m[3], list, profiles, resolve, perModels);
  // "<who> can (each) be equipped with <rest>"
  m = /^(.+?) can (?:each )?be equipped with:?\s*(.*)$/i.exec(h);
  if (m) return finish({ who: m[1], replace: [], count: null }, m[2], list, profiles, resolve, perModels);
  return null;
}

interface Who {
  who: string;
  replace: string[];
  count: number | 'all' | null;
}

function finish(w: Who, rest: string, list: string[], profiles: string[], resolve: ItemResolver, perModels?: number): WargearOption | null {
  // who: "This model", "The Heavy Weapon Platform", "Any number of Fire Warrior models", "Up to 2 Storm Guardians",
  // "1 Kabalite Warrior", "2 models", "1 model in this unit equipped with a pulse carbine"
  let who = cleanName(w.who).replace(/\s+equipped with .*$/i, '').replace(/\s+in this unit$/i, '');
  let count: number | 'all' = w.count ?? 1;
  let m: RegExpExecArray | null;
  if ((m = /^(?:any number of|all of the|all)\s*(.*)$/i.exec(who))) {
    count = 'all';
    who = m[1].replace(/^models in this unit$/i, '').replace(/\s*models?$/i, '');
  } else if ((m = new RegExp(`^(?:up to )?${N}\\s+(.+)$`, 'i').exec(who))) {
    if (w.count === null) count = parseCount(m[1]) ?? 1;
    who = m[2].replace(/\s*models?$/i, '');
  }
  who = who.replace(/^(the|this|each|every)\s+/i, '').replace(/\s+models?$/i, '').trim();
  const models = !who || /^(model|models|unit)$/i.test(who) ? [] : matchProfiles(who, profiles);
  if (who && !models.length && !/^(model|models|unit)$/i.test(who)) return null;

  const replaceItems = w.replace.flatMap((r) => resolveItems(r.replace(/\s+or\s+/gi, ', '), resolve));
  const replace = replaceItems.map((i) => i.name);

  let r = cleanName(rest).replace(/\.\s.*$/, '').replace(/\.$/, '').replace(/[*]+/g, '').trim();
  // "one of the following (duplicates are not allowed)", "(you cannot select the same option more than once)":
  // the models taking it each take a different choice ("up to two of the following (but cannot be equipped
  // with duplicates of the same weapon)": one model's choices differ)
  const noDuplicates = /\s*\((?:duplicates are not allowed|you cannot select the same option more than once|but cannot be equipped with duplicates of the same weapon)\)(?=:?$)/i;
  const distinct = noDuplicates.test(r);
  r = r.replace(noDuplicates, '');
  // "up to two of the following, but cannot take duplicates": one model's choices differ
  const distinctPerModel = /,\s*but cannot take duplicates:?$/i.test(r);
  let items: ResolvedItem[][];
  let choose = 1;
  const following = new RegExp(`^(?:up to )?${N} of the following(?: options)?(?:,.*)?:?$|^the following:?$|^$`, 'i').exec(r);
  const prefixed = new RegExp(`^(.+?) and (?:up to )?${N} of the following(?: options)?(?:,.*)?:?$`, 'i').exec(r);
  if (following) {
    if (!list.length) return null;
    choose = following[1] ? parseCount(following[1]) ?? 1 : 1;
    items = list.map((li) => resolveItems(li.replace(/\s*\(.*?\)/g, ''), resolve));
  } else if (prefixed) {
    if (!list.length) return null;
    const common = resolveItems(prefixed[1], resolve);
    items = list.map((li) => [...common, ...resolveItems(li, resolve)]);
  } else {
    const upTo = /^up to (\d+) (.+)$/i.exec(r);
    if (upTo) {
      choose = Number(upTo[1]);
      items = [resolveItems(splitCount(upTo[2]).text, resolve)];
    } else {
      items = [resolveItems(r, resolve)];
    }
  }
  if (!items.length || items.some((c) => !c.length)) return null;
  // a piece of the rule's wording left where an item should be: the line has a shape not understood here
  if ([...replaceItems, ...items.flat()].some(isRuleWording)) return null;
  const choices = items.map((c) => c.map((i) => i.name));
  const withNames = [...new Set(choices.flat())];
  const out: WargearOption = { replace, with: withNames, count, models, choices };
  if (choose !== 1) out.choose = choose;
  if (perModels) out.perModels = perModels;
  if (distinct) out.distinct = true;
  if (distinctPerModel && choose > 1) out.distinctPerModel = true;
  return out;
}

/**
 * An item name that is the rule's own wording, not wargear: "Or two different weapons from the following
 * list", "Havoc launcher or can replace 1 combi-bolter with 1 havoc launcher", "Of the following", "Nemesis
 * greatsword 1 Nemesis mace" (a count inside a name: two items not split). Only items that resolve to nothing
 * are looked at: a weapon's or wargear ability's own name is never rule wording.
 */
function isRuleWording(item: ResolvedItem): boolean {
  if (item.kind !== 'unknown') return false;
  return /\b(?:following|can|replaced?|equipped|either|list)\b|^(?:or|of|on|with|and|any|up to)\b|[[\]:]|\d/i.test(item.name);
}
