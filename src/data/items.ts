/**
 * Resolving the item names a datasheet's loadout and options use ("2 fusion blasters", "the Eye of
 * Wrath", "1 shield drone") to the datasheet's weapon names, or to wargear that is not a weapon.
 */
import type { Weapon } from './datasheet.ts';
import { editDistance } from './fuzzy.ts';
import { capitaliseFirst, cleanName, keyVariants, lookupKey, parseCount } from './text.ts';

export interface ResolvedItem {
  /** the datasheet's spelling for weapons and wargear abilities; otherwise the text, first letter capitalised */
  name: string;
  kind: 'weapon' | 'wargear' | 'unknown';
}

export type ItemResolver = (text: string) => ResolvedItem;

/**
 * The weapon an item name misspells (the export's typos: "Demilklaives", "dart-bow and tri-bade", "Twin
 * lighting claws"): the one nearest weapon within two edits, for names of six letters or more; none when two
 * are as near.
 */
function misspeltWeapon(text: string, weapons: readonly Weapon[]): string | undefined {
  const key = lookupKey(text);
  if (key.length < 6) return undefined;
  let best: string | undefined;
  let bestDistance = 3;
  let tied = false;
  for (const w of weapons) {
    const d = editDistance(lookupKey(w.name), key);
    if (d < bestDistance) { best = w.name; bestDistance = d; tied = false; }
    else if (d === bestDistance && w.name !== best) tied = true;
  }
  return tied ? undefined : best;
}

/**
 * Item names to the datasheet's weapons and wargear. A name that is neither but misspells one weapon is read as
 * that weapon, and `onMisspelling` is told (the importer reports it).
 */
export function makeItemResolver(weapons: Weapon[], wargearAbilities: string[], onMisspelling?: (text: string, weapon: string) => void): ItemResolver {
  const exact = new Map<string, ResolvedItem>();
  const loose = new Map<string, ResolvedItem>();
  const add = (name: string, kind: ResolvedItem['kind']) => {
    const item = { name, kind };
    const k = lookupKey(name);
    if (!exact.has(k)) exact.set(k, item);
    for (const v of keyVariants(name)) if (!loose.has(v)) loose.set(v, item);
  };
  for (const w of weapons) add(w.name, 'weapon');
  for (const a of wargearAbilities) add(a.replace(/\s*\(.*?\)\s*/g, ' ').trim(), 'wargear');
  return (text: string) => {
    const t = cleanName(text).replace(/\*+$/, '').replace(/\s*\(.*?\)\s*$/, '').trim();
    const candidates = [t, t.replace(/^the\s+/i, '')];
    for (const c of candidates) {
      const hit = exact.get(lookupKey(c));
      if (hit) return hit;
    }
    for (const c of candidates) {
      for (const v of keyVariants(c)) {
        const hit = loose.get(v);
        if (hit) return hit;
      }
    }
    const meant = misspeltWeapon(t, weapons);
    if (meant) {
      onMisspelling?.(t, meant);
      return { name: meant, kind: 'weapon' };
    }
    return { name: capitaliseFirst(t), kind: 'unknown' };
  };
}

/** "2 shuriken cannons" -> { count: 2, text: "shuriken cannons" }; no count -> 1. */
export function splitCount(text: string): { count: number; text: string } {
  const t = cleanName(text);
  const m = /^(\d+|one|two|three|four|a|an)\s+(.+)$/i.exec(t);
  if (m) {
    const n = parseCount(m[1]);
    if (n !== null) return { count: n, text: m[2] };
  }
  return { count: 1, text: t };
}

/**
 * Items joined by ";", "," or "and" ("1 Phantom starcannon, 1 pulse laser and 1 wraith glaive"), each
 * with its count, as a flat list of names (repeated per count). "and" splits only when the whole text
 * is not itself a known name ("dart-bow and tri-blade" is one weapon).
 */
export function resolveItems(text: string, resolve: ItemResolver): ResolvedItem[] {
  const out: ResolvedItem[] = [];
  for (const part of cleanName(text).replace(/\.$/, '').split(/\s*[;,]\s*/)) {
    if (!part || /^nothing$/i.test(part)) continue;
    const whole = splitCount(part);
    const r = resolve(whole.text);
    if (r.kind !== 'unknown' || !/\s+and\s+/i.test(whole.text)) {
      for (let i = 0; i < whole.count; i++) out.push(r);
      continue;
    }
    for (const sub of part.split(/\s+and\s+/i)) {
      const s = splitCount(sub);
      const rs = resolve(s.text);
      for (let i = 0; i < s.count; i++) out.push(rs);
    }
  }
  return out;
}
