/**
 * Army-list text exports into a raw list (names as written, counts, line numbers); resolving the
 * names against datasheets is army-build.ts's job. Formats:
 *   gw-app    the Warhammer 40,000 app (10th edition): "Unit (95 Points)" with "•" models / "◦" wargear
 *   nr-plain  New Recruit plain text: "Unit [95 pts]: wargear" and "• 2x Model: wargear"
 *   nr-gw     New Recruit GW-style: "+++" header, "1x Unit (95 pts)", "• 1x Model" then "    • 2x Weapon"
 *   nr-wtc    New Recruit WTC-style: "+++" header, "Char1: 1x Unit (95 pts)", "1 with A, 2x B"
 *   nr-short  New Recruit short: "10x Unit (65pts)" and "Unit (95pts): wargear"
 */
import { BATTLE_SIZES, type BattleSizeName } from './army.ts';
import { normaliseText } from './text.ts';

export type ListFormat = 'gw-app' | 'nr-plain' | 'nr-gw' | 'nr-wtc' | 'nr-short';

export interface RawItem {
  line: number;
  name: string;
  count: number;
  /** true when `count` is for the whole model group ("8x Close combat weapon" for 8 models); false when per model */
  total: boolean;
  /** "Recon drone" carrying "Drone burst cannon": the second is inside parentheses or nested below */
  carried?: string[];
}

export interface RawModelGroup {
  line: number;
  name: string;
  count: number;
  items: RawItem[];
}

export interface RawUnit {
  line: number;
  name: string;
  /** models in the unit when the list says ("10x Kroot Carnivores") */
  count?: number;
  points?: number;
  groups: RawModelGroup[];
  /** items listed for the unit rather than a model group (single-model units) */
  items: RawItem[];
  warlord?: boolean;
  /** "Char2" where the list numbers its CHARACTER units (WTC style), as the header's WARLORD line names them */
  char?: string;
  enhancement?: { name: string; points?: number; line: number };
  /** Enhancements listed after the first (a unit takes one): kept so that the build warns about them */
  moreEnhancements?: { name: string; line: number }[];
}

export interface RawArmyList {
  format: ListFormat;
  name?: string;
  /** the faction as written ("Xenos - T'au Empire", "Space Marines") */
  faction?: string;
  subfaction?: string;
  detachment?: string;
  battleSize?: { name: BattleSizeName; pointsLimit: number };
  points?: number;
  /** unit name the header names as Warlord (GW/WTC style) */
  warlord?: string;
  /** the header's number for that unit ("Char2"), matched to a unit line of that number when the list has them */
  warlordChar?: string;
  units: RawUnit[];
  /** lines passed over that look like they should have meant something ("line 12: ...") */
  warnings?: string[];
}

interface Line {
  n: number;
  raw: string;
  indent: number;
  text: string;
}

/** A points value as the app writes it: "2000", or "2,000" since app v1.46. */
const POINTS = String.raw`\d{1,3}(?:,\d{3})+|\d+`;
const pointsOf = (s: string) => Number(s.replace(/,/g, ''));

/**
 * WTC-style lines: "1 with A, B" below a model; in the compact form of NR v35+, the same after the model's colon
 * ("• 9x Fire Warriors: 9 with A") and a unit's wargear after its points ("1x Devilfish (85 pts): A, B").
 */
const WTC_LINE = /^(?:\d+ with |•\s*\d+x\s[^:]+:\s*\d+ with |[^•].*\(\d+\s*pts\):\s*\S)/;

export function detectFormat(text: string): ListFormat {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const first = lines[0] ?? '';
  if (/^\++$/.test(first)) return lines.some((l) => WTC_LINE.test(l)) ? 'nr-wtc' : 'nr-gw';
  if (lines.some((l) => /^#+ /.test(l))) return 'nr-plain';
  if (new RegExp(String.raw`\((?:${POINTS}) Points\)$`, 'i').test(first) && lines.some((l) => /^[•◦]/.test(l))) return 'gw-app';
  return 'nr-short';
}

export function parseListText(text: string): RawArmyList {
  const lines: Line[] = text.replace(/^\ufeff/, '').split(/\r?\n/).map((raw, i) => {
    const r = raw.replace(/\t/g, '    ').replace(/\s+$/, '');
    return { n: i + 1, raw: r, indent: r.length - r.trimStart().length, text: normaliseText(r) };
  });
  const format = detectFormat(text);
  switch (format) {
    case 'gw-app': return parseGwApp(lines);
    case 'nr-plain': return parseNrPlain(lines);
    case 'nr-gw':
    case 'nr-wtc': return parseNrStyled(lines, format);
    default: return parseNrShort(lines);
  }
}

// ---------------------------------------------------------------------------------------------
// Shared pieces

const BATTLE_SIZE_RE = new RegExp(String.raw`^(Incursion|Strike Force|Onslaught|Boarding Actions)\s*\((${POINTS})\s*Points?(?: limit)?\)$`, 'i');

function battleSize(text: string): RawArmyList['battleSize'] | undefined {
  const m = BATTLE_SIZE_RE.exec(text.trim());
  if (!m) return undefined;
  const name = (Object.keys(BATTLE_SIZES) as BattleSizeName[]).find((k) => k.toLowerCase() === m[1].toLowerCase())!;
  return { name, pointsLimit: pointsOf(m[2]) };
}

/** A heading between units: "CHARACTERS", "OTHER DATASHEETS", "EPIC HERO". */
const isHeading = (t: string) => /^[A-Z][A-Z '&-]+$/.test(t) && !/\d/.test(t);

/** Split "A, 2x B (C, D), E" at commas outside parentheses. */
export function splitList(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if (ch === ',' && depth === 0) { out.push(cur); cur = ''; } else cur += ch;
  }
  out.push(cur);
  return out.map((s) => s.trim()).filter(Boolean);
}

const ABILITY_TAGS = /^(?:Aura|Psychic)(?:\s*,\s*(?:Aura|Psychic))*$/i;

/** "2x Missile Drone (Missile pod)" -> { count 2, name "Missile Drone", carried ["Missile pod"] } */
export function parseItem(text: string, line: number, total: boolean): RawItem {
  let t = text.trim().replace(/^[•◦]\s*/, '');
  let count = 1;
  const m = /^(\d+)\s*x\s+(.+)$/i.exec(t);
  if (m) { count = Number(m[1]); t = m[2]; }
  const item: RawItem = { line, name: t, count, total };
  const paren = /^(.+?)\s*\((.+)\)$/.exec(t);
  // "Infamy (Aura)", "Runes of Sanctuary (Psychic)": the rule's tag is part of the Enhancement's name, not a carried item
  if (paren && !/^\+\d+\s*pts?$/i.test(paren[2].trim()) && !ABILITY_TAGS.test(paren[2].trim())) {
    item.name = paren[1].trim();
    item.carried = splitList(paren[2]);
  }
  return item;
}

function items(text: string, line: number, total: boolean): RawItem[] {
  return splitList(text).map((s) => parseItem(s, line, total));
}

/** Warlord / enhancement items ("Warlord", "Enhancements: X", "X (+10 pts)", "Enhancement: X (+10 pts)") move onto the unit. */
function absorbSpecial(unit: RawUnit, item: RawItem): boolean {
  const t = item.name;
  if (/^warlord$/i.test(t)) { unit.warlord = true; return true; }
  // the text as written, parentheses included: an Enhancement's name may have its own ("Infamy (Aura)")
  const whole = `${t}${item.carried ? ` (${item.carried.join(', ')})` : ''}`;
  const enh = /^Enhancements?:\s*(.+?)(?:\s*\(\+?(\d+)\s*pts?\))?$/i.exec(whole);
  if (enh) { setEnhancement(unit, { name: enh[1].trim(), points: enh[2] ? Number(enh[2]) : undefined, line: item.line }); return true; }
  const plus = /^(.+?)\s*\(\+(\d+)\s*pts?\)$/i.exec(whole);
  if (plus) { setEnhancement(unit, { name: plus[1].trim(), points: Number(plus[2]), line: item.line }); return true; }
  return false;
}

/** The unit's Enhancement: the first listed; any further one is kept aside for a warning, not silently put in its place. */
function setEnhancement(unit: RawUnit, e: { name: string; points?: number; line: number }): void {
  if (!unit.enhancement) unit.enhancement = e;
  else (unit.moreEnhancements ??= []).push({ name: e.name, line: e.line });
}

/** A line a parser passed over, said in the list's warnings (it would otherwise drop a unit without a word). */
function skippedLine(list: RawArmyList, l: Line, expected: string): void {
  // the exporter's own footer ("Created with newrecruit.eu v35.82") names no unit
  if (/^(?:Created|Exported) with\s/i.test(l.text)) return;
  (list.warnings ??= []).push(`line ${l.n}: "${l.text}" is neither a heading nor a unit ("${expected}"); skipped`);
}

function unitHeader(text: string, re: RegExp, line: number): RawUnit | null {
  const m = re.exec(text);
  if (!m?.groups) return null;
  const u: RawUnit = { line, name: m.groups.name.trim(), groups: [], items: [] };
  const char = /^(Char\d+):/i.exec(text);
  if (char) u.char = char[1];
  if (m.groups.count) u.count = Number(m.groups.count);
  if (m.groups.points) u.points = pointsOf(m.groups.points);
  return u;
}

// ---------------------------------------------------------------------------------------------
// Warhammer 40,000 app

function parseGwApp(lines: Line[]): RawArmyList {
  const list: RawArmyList = { format: 'gw-app', units: [] };
  const body = lines.filter((l) => l.text);
  const head = new RegExp(String.raw`^(.+?)\s*\((${POINTS}) Points\)$`, 'i').exec(body[0]?.text ?? '');
  if (head) { list.name = head[1]; list.points = pointsOf(head[2]); }
  // faction, [subfaction], detachment, battle size, until the first heading
  let i = 1;
  const pre: string[] = [];
  for (; i < body.length && !isHeading(body[i].text) && !BATTLE_SIZE_RE.test(body[i].text); i++) pre.push(body[i].text);
  if (i < body.length && BATTLE_SIZE_RE.test(body[i].text)) { list.battleSize = battleSize(body[i].text); i++; }
  if (pre.length >= 1) list.faction = pre[0];
  if (pre.length >= 3) list.subfaction = pre[1];
  if (pre.length >= 2) list.detachment = pre[pre.length - 1];

  let unit: RawUnit | null = null;
  let group: RawModelGroup | null = null;
  const pendingBullets: { line: Line; children: Line[] }[] = [];
  const flush = () => {
    if (!unit) return;
    const hasChildren = pendingBullets.some((b) => b.children.length);
    for (const b of pendingBullets) {
      const it = parseItem(b.line.text, b.line.n, true);
      if (hasChildren) {
        group = { line: b.line.n, name: it.name, count: it.count, items: [] };
        for (const c of b.children) group.items.push(parseItem(c.text, c.n, true));
        unit.groups.push(group);
      } else {
        unit.items.push(it);
      }
    }
    pendingBullets.length = 0;
  };
  const re = new RegExp(String.raw`^(?<name>.+?)\s*\((?<points>${POINTS}) Points\)$`, 'i');
  for (; i < body.length; i++) {
    const l = body[i];
    if (/^Exported with/i.test(l.text) || (l.indent === 0 && isHeading(l.text))) { flush(); unit = null; continue; }
    if (l.indent === 0 && !/^[•◦]/.test(l.text)) {
      const u = unitHeader(l.text, re, l.n);
      if (!u) {
        // a unit line the regex missed would drop the unit without a word: say which line was passed over
        skippedLine(list, l, '<unit> (<points> Points)');
        flush();
        unit = null;
        continue;
      }
      flush();
      unit = u;
      list.units.push(u);
      continue;
    }
    if (!unit) continue;
    if (l.text.startsWith('◦') && pendingBullets.length) pendingBullets[pendingBullets.length - 1].children.push(l);
    else if (l.text.startsWith('•')) {
      // "• Warlord" goes onto the unit at once: the app nests it under a model's bullet, and the "◦" weapons after it are that model's
      if (absorbSpecial(unit, parseItem(l.text, l.n, true))) continue;
      pendingBullets.push({ line: l, children: [] });
    }
  }
  flush();
  return list;
}

// ---------------------------------------------------------------------------------------------
// New Recruit plain text

function parseNrPlain(lines: Line[]): RawArmyList {
  const list: RawArmyList = { format: 'nr-plain', units: [] };
  const first = lines.find((l) => l.text);
  if (first) {
    // "Xenos - T'au Empire - Tauuuu - [1985 pts]"
    const parts = first.text.replace(/\s*-?\s*\[(\d+)\s*pts\]$/i, (_m, p: string) => { list.points = Number(p); return ''; }).split(/\s+-\s+/);
    if (parts.length >= 2) { list.faction = parts.slice(0, -1).join(' - '); list.name = parts[parts.length - 1]; }
    else list.faction = parts[0];
  }
  const re = /^(?<name>[^•#].*?)\s*\[(?<points>\d+)\s*pts\](?::\s*(?<rest>.*))?$/i;
  let unit: RawUnit | null = null;
  for (const l of lines) {
    if (!l.text || l === first) continue;
    let m: RegExpExecArray | null;
    if ((m = /^Battle Size:\s*(.+)$/i.exec(l.text))) { list.battleSize = battleSize(m[1]); continue; }
    if ((m = /^Detachment:\s*(.+)$/i.exec(l.text))) { list.detachment = m[1].trim(); continue; }
    if (/^#/.test(l.text) || /^Show\/Hide Options$/i.test(l.text)) { unit = null; continue; }
    if (l.text.startsWith('•') && unit) {
      const g = /^•\s*(?:(\d+)x\s+)?(.+?)(?::\s*(.*))?$/.exec(l.text);
      // a bullet with no model after it names nothing: passed over, as any other line not understood
      if (!g) continue;
      const group: RawModelGroup = { line: l.n, name: g[2].trim(), count: g[1] ? Number(g[1]) : 1, items: [] };
      for (const it of items(g[3] ?? '', l.n, false)) if (!absorbSpecial(unit, it)) group.items.push(it);
      unit.groups.push(group);
      continue;
    }
    const u = re.exec(l.text);
    if (u?.groups) {
      unit = { line: l.n, name: u.groups.name.trim(), points: Number(u.groups.points), groups: [], items: [] };
      for (const it of items(u.groups.rest ?? '', l.n, false)) if (!absorbSpecial(unit, it)) unit.items.push(it);
      list.units.push(unit);
    } else {
      // a unit line the regex missed: said, and its model lines are not given to the unit above
      skippedLine(list, l, '<unit> [<points> pts]');
      unit = null;
    }
  }
  return list;
}

// ---------------------------------------------------------------------------------------------
// New Recruit GW-style and WTC-style (same header block)

function parseHeaderBlock(lines: Line[], list: RawArmyList): number {
  let i = lines.findIndex((l) => /^\++$/.test(l.text));
  // the block closes with a run of "+" (a lone "+" inside it separates its parts: New Recruit writes one
  // between TOTAL ARMY POINTS and WARLORD)
  for (i = i + 1; i < lines.length && !/^\+{2,}$/.test(lines[i].text); i++) {
    const t = lines[i].text.replace(/^\+\s*/, '');
    let m: RegExpExecArray | null;
    if ((m = /^FACTION KEYWORD:\s*(.+)$/i.exec(t))) list.faction = m[1].trim();
    else if ((m = /^DETACHMENT:\s*(.+)$/i.exec(t))) list.detachment = m[1].trim();
    else if ((m = /^TOTAL ARMY POINTS:\s*(\d+)/i.exec(t))) list.points = Number(m[1]);
    else if ((m = /^WARLORD:\s*(?:(Char\d+):\s*)?(.+)$/i.exec(t))) { list.warlord = m[2].trim(); if (m[1]) list.warlordChar = m[1]; }
    else if ((m = /^BATTLE SIZE:\s*(.+)$/i.exec(t))) list.battleSize = battleSize(m[1]);
  }
  return i + 1;
}

function parseNrStyled(lines: Line[], format: 'nr-gw' | 'nr-wtc'): RawArmyList {
  const list: RawArmyList = { format, units: [] };
  const start = parseHeaderBlock(lines, list);
  // the compact WTC form (NR v35+) lists a unit's wargear after its points: "Char1: 1x Cadre Fireblade (65 pts): Warlord, ..."
  const re = /^(?:Char\d+:\s*)?(?:(?<count>\d+)x\s+)?(?<name>.+?)\s*\((?<points>\d+)\s*pts\)(?::\s*(?<rest>.*))?$/i;
  let unit: RawUnit | null = null;
  let group: RawModelGroup | null = null;
  /** WTC: the last "N with ..." group, which "  • X" lines add to */
  let withGroup: RawModelGroup | null = null;
  /** GW: an indented single item with deeper lines below it (a drone): those lines are what it carries */
  let carrier: RawItem | null = null;
  for (let i = start; i < lines.length; i++) {
    const l = lines[i];
    if (!l.text) continue;
    if (l.indent === 0 && isHeading(l.text)) { unit = null; continue; }
    const u = l.indent === 0 && !l.text.startsWith('•') ? unitHeader(l.text, re, l.n) : null;
    if (u) {
      unit = u; group = null; withGroup = null; carrier = null; list.units.push(u);
      const rest = re.exec(l.text)?.groups?.rest;
      if (rest && /^\d+ with /.test(rest)) u.groups.push(...withGroups(u, u.name, rest, l.n));
      else if (rest) for (const it of items(rest, l.n, false)) if (!absorbSpecial(u, it)) u.items.push(it);
      continue;
    }
    if (l.indent === 0 && !l.text.startsWith('•') && !/^(?:(?:Leading|Attached to)\s|Enhancement:|\d+ with )/i.test(l.text)) {
      // a unit line the regex missed: said, and its model lines are not given to the unit above
      skippedLine(list, l, '<count>x <unit> (<points> pts)');
      unit = null; group = null; withGroup = null; carrier = null;
      continue;
    }
    if (!unit) continue;
    // attachments are not read (the agent declares Leaders): passed over on purpose
    if (/^(?:Leading|Attached to)\s/i.test(l.text)) continue;
    let m: RegExpExecArray | null;
    if ((m = /^Enhancement:\s*(.+)$/i.exec(l.text))) { absorbSpecial(unit, parseItem(`Enhancements: ${m[1]}`, l.n, false)); continue; }
    if ((m = /^(\d+) with (.+)$/.exec(l.text))) {
      // WTC: "N with A, 2x B": N models (of the current model group) each with those items
      withGroup = { line: l.n, name: group?.name ?? unit.name, count: Number(m[1]), items: [] };
      for (const it of items(m[2], l.n, false)) if (!absorbSpecial(unit, it)) withGroup.items.push(it);
      // the model line above was only a heading for its "N with" lines
      if (group && group.items.length === 0) unit.groups = unit.groups.filter((g) => g !== group);
      unit.groups.push(withGroup);
      carrier = null;
      continue;
    }
    if (!l.text.startsWith('•')) continue;
    const body = l.text.replace(/^•\s*/, '');
    const next = lines.slice(i + 1).find((x) => x.text);
    if (l.indent === 0) {
      const it = parseItem(body, l.n, format === 'nr-gw');
      if (absorbSpecial(unit, it)) continue;
      // compact WTC form: "• 9x Fire Warriors: 9 with A, B" or "• 1x Fire Warrior Shas'ui: A, B", the model and its wargear on one line
      const compact = /^(\d+)x\s+([^:]+?):\s*(.+)$/.exec(body);
      if (compact) {
        const made = /^\d+ with /.test(compact[3])
          ? withGroups(unit, compact[2].trim(), compact[3], l.n)
          : [{ line: l.n, name: compact[2].trim(), count: Number(compact[1]), items: items(compact[3], l.n, false).filter((x) => !absorbSpecial(unit!, x)) }];
        unit.groups.push(...made);
        group = made[0];
        withGroup = made[made.length - 1];
        carrier = null;
        continue;
      }
      const opensGroup = next && next.indent >= 4 && (next.text.startsWith('•') || /^\d+ with /.test(next.text));
      if (opensGroup) {
        group = { line: l.n, name: it.name, count: it.count, items: [] };
        unit.groups.push(group);
        withGroup = null;
        carrier = null;
      } else {
        unit.items.push(it);
      }
      continue;
    }
    // indented bullets: wargear of the current group
    const target = format === 'nr-wtc' ? (withGroup ?? group) : group;
    const listed = items(body, l.n, format === 'nr-gw');
    for (const it of listed) {
      if (absorbSpecial(unit, it)) continue;
      if (format === 'nr-gw' && carrier && l.indent > 2) {
        // weapons of a drone listed under it: already on the model's list, or carried by the drone
        (carrier.carried ??= []).push(it.name);
        continue;
      }
      (target ? target.items : unit.items).push(it);
    }
    if (format === 'nr-gw' && l.indent <= 2) {
      const owner = target ?? unit;
      carrier = listed.length === 1 && next && next.indent > l.indent ? owner.items[owner.items.length - 1] ?? null : null;
    }
  }
  return list;
}

/** "1 with A, B, 1 with C": a group of the model per "N with", each of those N models with the items after it. */
function withGroups(unit: RawUnit, name: string, text: string, line: number): RawModelGroup[] {
  return text.split(/,\s*(?=\d+ with )/).map((part) => {
    const m = /^(\d+) with (.*)$/.exec(part.trim());
    const g: RawModelGroup = { line, name, count: m ? Number(m[1]) : 1, items: [] };
    for (const it of items(m ? m[2] : part, line, false)) if (!absorbSpecial(unit, it)) g.items.push(it);
    return g;
  });
}

// ---------------------------------------------------------------------------------------------
// New Recruit short

function parseNrShort(lines: Line[]): RawArmyList {
  const list: RawArmyList = { format: 'nr-short', units: [] };
  const re = /^(?:(?<count>\d+)x\s+)?(?<name>.+?)\s*\((?<points>\d+)\s*pts\)(?::\s*(?<rest>.*))?$/i;
  for (const l of lines) {
    if (!l.text) continue;
    const m = re.exec(l.text);
    if (!m?.groups) { skippedLine(list, l, '<count>x <unit> (<points>pts)'); continue; }
    const unit: RawUnit = { line: l.n, name: m.groups.name.trim(), points: Number(m.groups.points), groups: [], items: [] };
    if (m.groups.count) unit.count = Number(m.groups.count);
    for (const it of items(m.groups.rest ?? '', l.n, false)) if (!absorbSpecial(unit, it)) unit.items.push(it);
    list.units.push(unit);
  }
  return list;
}
