/**
 * Unit composition ("1 Fire Warrior Shas’ui", "2-5 Crisis Shas’ui"), points ("10 models" -> 70,
 * "Shadow Spectre Exarch" -> "+30") and the default loadout ("<b>Every model is equipped with:</b>
 * pulse pistol; pulse rifle; close combat weapon.").
 */
import { cleanName, keyVariants, lookupKey } from './text.ts';
import { resolveItems, type ItemResolver } from './items.ts';

export type CompositionLine =
  | { kind: 'models'; name: string; min: number; max: number }
  | { kind: 'max-models'; max: number };

export function parseCompositionLine(html: string): CompositionLine | null {
  // drop the keyword suffix ("1 Aun’Shi – EPIC HERO")
  const t = cleanName(html).replace(/(\s*–|\s+-)\s*[A-Z][A-Z' ]*$/, '').trim();
  const max = /^This unit can contain a maximum of (\d+) models\.?$/i.exec(t);
  if (max) return { kind: 'max-models', max: Number(max[1]) };
  const m = /^(\d+)(?:\s*-\s*(\d+))?\s+(.+?)\.?$/.exec(t);
  if (!m) return null;
  const min = Number(m[1]);
  return { kind: 'models', name: m[3], min, max: m[2] ? Number(m[2]) : min };
}

export type CostLine =
  | { kind: 'size'; models: number; points: number }
  | { kind: 'extra'; profile: string; points: number };

/** Datasheets_models_cost: description "10 models" / "5 Shadow Spectres" with cost "70"; or a model with "+30". */
export function parseCostLine(description: string, cost: string): CostLine | null {
  const d = cleanName(description);
  const c = cleanName(cost);
  const extra = /^\+(\d+)$/.exec(c);
  if (extra) return { kind: 'extra', profile: d, points: Number(extra[1]) };
  const size = /^(\d+)\s+\S/.exec(d);
  if (size && /^\d+$/.test(c)) return { kind: 'size', models: Number(size[1]), points: Number(c) };
  return null;
}

/** Which composition profiles a name means ("Guardian Defenders" -> "Guardian Defender"...). */
export function matchProfiles(name: string, profiles: string[]): string[] {
  const variants = new Set(keyVariants(name));
  return profiles.filter((p) => keyVariants(p).some((v) => variants.has(v)));
}

export interface LoadoutParse {
  loadout: Record<string, string[]>;
  /** names of non-weapon items carried */
  wargear: string[];
  problems: string[];
}

/**
 * Default loadout per composition profile. A segment's subject is "Every model", "This model", or
 * names of profiles ("Every Corsair Voidscarred and Voidscarred Felarch", "The 1 Long-quill").
 */
export function parseLoadout(html: string, profiles: string[], resolve: ItemResolver): LoadoutParse {
  const loadout: Record<string, string[]> = {};
  for (const p of profiles) loadout[p] = [];
  const wargear = new Set<string>();
  const problems: string[] = [];
  const segments: { head: string; body: string }[] = [];
  const re = /<b>(.*?)<\/b>(.*?)(?=<b>|$)/gis;
  for (let m = re.exec(html); m; m = re.exec(html)) segments.push({ head: cleanName(m[1]), body: m[2] });
  if (!segments.length) {
    const plain = /^(.*?\bequipped with):\s*(.*)$/is.exec(cleanName(html));
    if (plain) segments.push({ head: `${plain[1]}:`, body: plain[2] });
    else if (cleanName(html)) problems.push(`loadout not understood: ${cleanName(html).slice(0, 80)}`);
  }
  for (const seg of segments) {
    const head = /^(.*?)\s+(?:is|are)\s+equipped with:?$/i.exec(seg.head);
    if (!head) {
      if (!/designer/i.test(seg.head)) problems.push(`loadout heading not understood: ${seg.head}`);
      continue;
    }
    const targets = subjectProfiles(head[1], profiles);
    if (!targets.length) problems.push(`loadout subject "${head[1]}" matches no model of the unit; applied to every model`);
    // a Designer's Note may follow in the same segment; cut at the first sentence end
    const body = cleanName(seg.body).replace(/(?<=\.)\s+.*$/s, '');
    for (const item of resolveItems(body, resolve)) {
      if (item.kind !== 'weapon') wargear.add(item.name);
      if (item.kind === 'unknown') problems.push(`loadout item "${item.name}" is neither a weapon nor a wargear ability of the datasheet`);
      for (const p of targets.length ? targets : profiles) loadout[p].push(item.name);
    }
  }
  return { loadout, wargear: [...wargear].sort(), problems };
}

function subjectProfiles(subject: string, profiles: string[]): string[] {
  const s = cleanName(subject);
  if (/^(every|each) model( in this unit)?$|^this (model|unit)$/i.test(s) || profiles.length === 1) return [...profiles];
  const out = new Set<string>();
  for (const part of s.split(/\s+and\s+|,\s*/)) {
    const name = part.replace(/^(every|each|the|a|an)\s+/i, '').replace(/^\d+\s+/, '');
    for (const p of matchProfiles(name, profiles)) out.add(p);
    if (!out.size) {
      // "Aun'Va" (the profile) vs "1 Aun'Va" composition: compare without counts
      for (const p of profiles) if (lookupKey(p).includes(lookupKey(name)) || lookupKey(name).includes(lookupKey(p))) out.add(p);
    }
  }
  return [...out];
}
