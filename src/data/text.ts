/**
 * Text normalisation shared by the importer and the army-list parser. The export and the army-list
 * tools spell the same names differently (curly or straight apostrophes, non-breaking hyphens,
 * "Commander In Crisis Battlesuit" vs "Commander in Crisis Battlesuit"), so names are compared by key.
 */

const HTML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', rsquo: "'", lsquo: "'" };

/** Straight apostrophes and quotes, ASCII hyphens and spaces, single spaces, trimmed. */
export function normaliseText(s: string): string {
  return s
    .replace(/[\u2018\u2019\u02bc\u0060\u00b4]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2010\u2011]/g, '-')
    .replace(/[\u00a0\u2009\u202f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Drop HTML tags and decode the few entities the export uses. */
export function stripHtml(s: string): string {
  return s
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<\/?[a-z][^>]*>/gi, ' ')
    .replace(/&(#\d+|[a-z]+);/gi, (m, e: string) =>
      e.startsWith('#') ? String.fromCharCode(Number(e.slice(1))) : (HTML_ENTITIES[e.toLowerCase()] ?? m));
}

/** A display name: HTML stripped, normalised. */
export function cleanName(s: string): string {
  return normaliseText(stripHtml(s));
}

/** Keywords are upper-case with straight apostrophes (T’au Empire -> T'AU EMPIRE). */
export function normaliseKeyword(s: string): string {
  return cleanName(s).toUpperCase();
}

/** Comparison key: case-, apostrophe- and punctuation-insensitive ("Shas’ui" = "shas'ui" = "Shasui"). */
export function lookupKey(s: string): string {
  return cleanName(s).toLowerCase().replace(/'/g, '').replace(/[^a-z0-9+]+/g, ' ').trim();
}

/** Keys a name could be written under, singular and plural ("Fire Warriors" ~ "Fire Warrior"). */
export function keyVariants(s: string): string[] {
  const k = lookupKey(s);
  const out = new Set([k]);
  if (k.endsWith('ies')) out.add(`${k.slice(0, -3)}y`);
  if (k.endsWith('es')) out.add(k.slice(0, -2));
  if (k.endsWith('s')) out.add(k.slice(0, -1));
  else out.add(`${k}s`);
  return [...out];
}

/** "GUARDIAN DEFENDER" -> "Guardian Defender"; names with lower-case letters are kept. */
export function titleCaseIfUpper(s: string): string {
  if (/[a-z]/.test(s) || !/[A-Z]/.test(s)) return s;
  return s.toLowerCase().replace(/(^|[\s\-&(])([a-z])/g, (_m, p: string, c: string) => p + c.toUpperCase());
}

/** Upper-case the first letter only ("shield drone" -> "Shield drone"), as datasheets print weapon names. */
export function capitaliseFirst(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

const WORD_NUMBERS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6 };

/** "2" -> 2, "two" -> 2; null otherwise. */
export function parseCount(s: string): number | null {
  const t = s.trim().toLowerCase();
  if (/^\d+$/.test(t)) return Number(t);
  return WORD_NUMBERS[t] ?? null;
}
