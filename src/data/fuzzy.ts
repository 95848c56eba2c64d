/** Closest-name suggestions for error messages (unknown unit or wargear names). */
import { lookupKey } from './text.ts';

/** Levenshtein edit distance. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/**
 * The `limit` known names closest to `name`, best first. Names containing the query (or contained in
 * it) rank first, since a list often abbreviates or extends a datasheet name.
 */
export function closestNames(name: string, known: Iterable<string>, limit = 3): string[] {
  const q = lookupKey(name);
  const scored: { name: string; score: number }[] = [];
  const seen = new Set<string>();
  for (const k of known) {
    if (seen.has(k)) continue;
    seen.add(k);
    const key = lookupKey(k);
    let score = editDistance(q, key);
    if (q && key && (key.includes(q) || q.includes(key))) score = Math.min(score, Math.abs(key.length - q.length) / 4);
    scored.push({ name: k, score });
  }
  scored.sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return scored.slice(0, limit).map((s) => s.name);
}
