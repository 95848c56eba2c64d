/**
 * Paths as a log records them: relative to the project root, with forward slashes, so that the same
 * scenario played from two checkouts (or machines) writes a byte-identical log.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root (the folder holding scenarios/ and src/). */
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `file` relative to the project root ("scenarios/default.json"; "../elsewhere/x.json" outside it). */
export function projectRelative(file: string): string {
  if (!path.isAbsolute(file)) return file.split(path.sep).join('/');
  return path.relative(PROJECT_ROOT, file).split(path.sep).join('/');
}
