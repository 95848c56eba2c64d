/** Where the shared development data lives (read by tests only; the shipped code never needs it). */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const SHARED_DATA = join(import.meta.dirname, '..', '..', '..', 'shared', 'data');
export const EXPORT_DIR = join(SHARED_DATA, 'wahapedia-10e');
export const LISTS_DIR = join(SHARED_DATA, 'army-lists');
export const HAVE_EXPORT = existsSync(join(EXPORT_DIR, 'Datasheets.csv'));
export const HAVE_LISTS = existsSync(LISTS_DIR);
