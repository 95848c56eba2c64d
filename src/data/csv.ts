/**
 * Reader for the Wahapedia export's `|`-separated files. Quirks it handles: a byte-order mark, a
 * trailing `|` closing every record, CRLF or LF line ends, and records whose text holds a line break
 * (a record is complete once it has as many `|` as the header). The format has no quoting, so a
 * record with too many or too few fields is an error naming the file, the line and the expected count.
 */
import { DataError } from './errors.ts';

export interface CsvRecord {
  /** 1-based line number where the record starts */
  line: number;
  fields: Record<string, string>;
}

export interface CsvTable {
  file: string;
  columns: string[];
  records: CsvRecord[];
}

export function parsePipeCsv(text: string, file: string, requiredColumns: readonly string[] = []): CsvTable {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = body.split(/\r?\n/);
  const header = lines[0] ?? '';
  if (!header.endsWith('|')) {
    throw new DataError(`${file}: line 1: expected a header of '|'-terminated column names, got ${JSON.stringify(header.slice(0, 60))}`, file, 1);
  }
  const columns = header.slice(0, -1).split('|').map((c) => c.trim());
  const missing = requiredColumns.filter((c) => !columns.includes(c));
  if (missing.length) {
    throw new DataError(`${file}: line 1: missing column(s) ${missing.join(', ')} (found: ${columns.join(', ')})`, file, 1);
  }
  const n = columns.length;
  const records: CsvRecord[] = [];
  let buf: string | null = null;
  let start = 0;
  for (let i = 1; i < lines.length; i++) {
    const ln = lines[i];
    if (buf === null) {
      if (ln === '') continue;
      buf = ln;
      start = i + 1;
    } else {
      buf += `\n${ln}`;
    }
    const pipes = countPipes(buf);
    if (pipes < n) continue; // a line break inside a field: the record goes on
    if (pipes > n || !buf.endsWith('|')) {
      const spans = start === i + 1 ? `line ${start}` : `lines ${start}-${i + 1}`;
      throw new DataError(
        `${file}: ${spans}: expected ${n} fields each ending with '|' (${columns.join('|')}|), found ${pipes} '|' separators`,
        file, start);
    }
    const values = buf.slice(0, -1).split('|');
    const fields: Record<string, string> = {};
    columns.forEach((c, j) => { fields[c] = values[j]; });
    records.push({ line: start, fields });
    buf = null;
  }
  if (buf !== null) {
    throw new DataError(
      `${file}: line ${start}: truncated record: expected ${n} fields (${columns.join('|')}|), found ${countPipes(buf)} before the end of the file`,
      file, start);
  }
  return { file, columns, records };
}

function countPipes(s: string): number {
  let c = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 124) c++;
  return c;
}
