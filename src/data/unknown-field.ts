/**
 * "unknown field" messages for zod's strict objects: the fields allowed where a misspelt one was found, and
 * the one it was likely meant as (`"detachmnet" (expected one of name, army, ...; did you mean "detachment"?)`).
 * The allowed fields are read from the schema itself by the issue's path.
 */
import { z } from 'zod';
import { closestNames, editDistance } from './fuzzy.ts';

/** Unwrap optional, nullable, default, pipe (its input), lazy and the like to the schema beneath. */
function bare(node: unknown): unknown {
  for (let i = 0; i < 20; i++) {
    if (node instanceof z.ZodOptional || node instanceof z.ZodNullable || node instanceof z.ZodDefault) node = node.unwrap();
    else if (node instanceof z.ZodPipe) node = node.in;
    else if (node instanceof z.ZodLazy) node = node.unwrap();
    else return node;
  }
  return node;
}

/**
 * The fields of the object schema at `path` in `schema`: through arrays (a number key), records (any key) and
 * unions (the branches that are objects; with the value given, the branch whose fields the value has most of).
 */
export function fieldsAt(schema: unknown, path: readonly PropertyKey[]): string[] {
  const objects = (node: unknown): z.ZodObject[] => {
    const n = bare(node);
    if (n instanceof z.ZodObject) return [n];
    if (n instanceof z.ZodUnion) return (n.options as unknown[]).flatMap(objects);
    return [];
  };
  let nodes: unknown[] = [schema];
  for (const key of path) {
    const next: unknown[] = [];
    for (const raw of nodes) {
      const n = bare(raw);
      if (typeof key === 'number' && n instanceof z.ZodArray) next.push(n.element);
      else if (n instanceof z.ZodRecord) next.push(n.valueType);
      else for (const o of objects(n)) { const f = (o.shape as Record<string, unknown>)[String(key)]; if (f) next.push(f); }
    }
    nodes = next;
  }
  return [...new Set(nodes.flatMap(objects).flatMap((o) => Object.keys(o.shape)))];
}

/** The message for zod's `unrecognized_keys` issue: each key, the fields expected there, the closest. */
export function unknownFieldMessage(schema: unknown, issue: { path: readonly PropertyKey[]; keys: readonly string[] }): string {
  const fields = fieldsAt(schema, issue.path);
  return issue.keys.map((key) => {
    const [near] = closestNames(key, fields, 1);
    const hint = near && editDistance(key.toLowerCase(), near.toLowerCase()) <= Math.max(2, Math.floor(near.length / 3)) ? `; did you mean "${near}"?` : '';
    return fields.length ? `unknown field "${key}" (expected one of ${fields.join(', ')}${hint})` : `unknown field "${key}"`;
  }).join('; ');
}
