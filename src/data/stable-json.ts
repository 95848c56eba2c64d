/**
 * Deterministic JSON: object keys sorted, two-space indentation, and any array or object whose
 * one-line form fits in the line width written on one line. Re-running the importer on the same
 * export therefore gives a byte-identical, diff-friendly file.
 */
const WIDTH = 110;

export function stableStringify(value: unknown): string {
  return `${render(value, 0)}\n`;
}

function inline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inline).join(', ')}]`;
  if (value && typeof value === 'object') {
    const entries = sortedEntries(value as Record<string, unknown>);
    return entries.length ? `{ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${inline(v)}`).join(', ')} }` : '{}';
  }
  return JSON.stringify(value ?? null);
}

function sortedEntries(obj: Record<string, unknown>): [string, unknown][] {
  return Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort()
    .map((k) => [k, obj[k]]);
}

function render(value: unknown, depth: number): string {
  const one = inline(value);
  if (one.length + depth * 2 <= WIDTH || !value || typeof value !== 'object') return one;
  const pad = '  '.repeat(depth + 1);
  const end = '  '.repeat(depth);
  if (Array.isArray(value)) return `[\n${value.map((v) => pad + render(v, depth + 1)).join(',\n')}\n${end}]`;
  const entries = sortedEntries(value as Record<string, unknown>);
  return `{\n${entries.map(([k, v]) => `${pad}${JSON.stringify(k)}: ${render(v, depth + 1)}`).join(',\n')}\n${end}}`;
}
