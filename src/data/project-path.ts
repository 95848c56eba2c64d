/**
 * Paths as a log records them: relative to the project root, with forward slashes, so that the same
 * scenario played from two checkouts (or machines) writes a byte-identical log.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root (the folder holding scenarios/ and src/). */
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * `file` (absolute, or from the working folder) relative to the project root ("scenarios/default.json";
 * "../elsewhere/x.json" outside it): the same whichever folder the command was typed in.
 */
export function projectRelative(file: string): string {
  return path.relative(PROJECT_ROOT, path.resolve(file)).split(path.sep).join('/');
}

/**
 * For a file that was not found: the bundled files of the same name under scenarios/ (its armies, mirrors,
 * calculator inputs...), as paths from the working folder, as the end of the error ("; the bundled
 * scenarios/armies/x.json has that name"), or '' when none has. Newcomers type `armies/x.json` or
 * `default.json` from the README's words; this points them to the file.
 */
export function bundledNamesake(file: string): string {
  const name = path.basename(file);
  const found: string[] = [];
  const walk = (dir: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    // sorted: the same message whatever order the file system lists them in
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === name) found.push(p);
    }
  };
  walk(path.join(PROJECT_ROOT, 'scenarios'));
  const shown = found.filter((p) => path.resolve(file) !== p).map((p) => path.relative(process.cwd(), p).split(path.sep).join('/'));
  if (shown.length === 0) return '';
  return `; the bundled ${shown.slice(0, 3).join(', ')}${shown.length > 3 ? ` (and ${shown.length - 3} more)` : ''} ${shown.length === 1 ? 'has' : 'have'} that name`;
}
