/**
 * Writing files whole or not at all: each goes to a temporary `<file>.partial` beside its target (same
 * folder, so the final rename is atomic) and is renamed over the target only once every file is written.
 * A file that cannot be written is a CliError naming it and the system's reason. Used by the importer (one
 * file per faction) and, file by file, by the event-log writer (src/replay/log-writer.ts).
 */
import { closeSync, existsSync, openSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CliError } from '../cli-error.ts';
import { makeDirs, removeFolders } from './make-dirs.ts';

/** The temporary file written before `file` is replaced. */
export function partialPath(file: string): string {
  return `${file}.partial`;
}

/** "<file>: cannot write (ENOENT)": the file the user named and the system's reason code. */
export function cannotWrite(file: string, err: unknown): CliError {
  return new CliError(`${file}: cannot write (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
}

/**
 * Refuse to write `file` over one of the command's own inputs (`fork LOG --log LOG`, `batch-game DIR I --log
 * DIR/games.jsonl`): the input would be replaced once the output is done. `option` names the option given,
 * `what` the inputs ("the log being forked").
 */
export function refuseOverwritingInput(file: string | undefined, inputs: readonly string[], option: string, what: string): void {
  if (file === undefined) return;
  const target = resolve(file);
  if (inputs.some((p) => resolve(p) === target)) throw new CliError(`${option}: ${file} is ${what}; write to another file`);
}

/**
 * Refuse a target that is a folder, or names one ("out/"): renaming the written file over it would fail only
 * once everything is done (a played game), and leave the `.partial` behind. Said before anything is written.
 */
export function refuseFolderTarget(file: string): void {
  if (/[\\/]$/.test(file) || (existsSync(file) && statSync(file).isDirectory())) throw new CliError(`${file}: cannot write (it is a folder)`);
}

/** Open `<file>.partial` for writing (a CliError naming `file` when it cannot be). */
export function openPartial(file: string): number {
  try {
    return openSync(partialPath(file), 'w');
  } catch (err) {
    throw cannotWrite(file, err);
  }
}

/** Replace `file` by its written `.partial`. */
export function commitPartial(file: string): void {
  try {
    renamePartial(file);
  } catch (err) {
    discardPartial(file);
    throw cannotWrite(file, err);
  }
}

function renamePartial(file: string): void {
  renameSync(partialPath(file), file);
}

/** Remove `file`'s `.partial`, if any: the target keeps its old content. */
export function discardPartial(file: string): void {
  try { unlinkSync(partialPath(file)); } catch { /* never made, or already gone */ }
}

export interface WholeFile {
  path: string;
  text: string;
}

/**
 * Write every file or none: all `.partial` files (and their folders) first, then the renames. A failure
 * while writing removes the partial files and the folders made for them, leaving every target as it was.
 */
export function writeFilesWhole(files: readonly WholeFile[]): void {
  const paths = files.map((f) => f.path);
  if (new Set(paths).size !== paths.length) throw new Error(`writeFilesWhole: a file is named twice (${paths.join(', ')})`);
  const made: string[] = [];
  const opened: string[] = [];
  try {
    for (const f of files) {
      made.push(...makeDirs(dirname(f.path)));
      // renaming over a folder fails: said now, before anything is written
      refuseFolderTarget(f.path);
      writePartial(f, opened);
    }
  } catch (err) {
    for (const p of opened) discardPartial(p);
    removeFolders(made);
    throw err;
  }
  commitAll(paths);
}

function writePartial(f: WholeFile, opened: string[]): void {
  const fd = openPartial(f.path);
  opened.push(f.path);
  try {
    writeSync(fd, f.text);
  } catch (err) {
    throw cannotWrite(f.path, err);
  } finally {
    closeSync(fd);
  }
}

/** The renames; one failing (rare: the folder changed meanwhile) stops them, and the error says which targets were already replaced. */
function commitAll(paths: readonly string[]): void {
  for (let i = 0; i < paths.length; i++) {
    try {
      renamePartial(paths[i]);
    } catch (err) {
      for (const p of paths.slice(i)) discardPartial(p);
      const done = i ? `; already replaced: ${paths.slice(0, i).join(', ')}` : '';
      throw new CliError(`${cannotWrite(paths[i], err).message}${done}`);
    }
  }
}
