import { describe, expect, it } from 'vitest';
import { parsePipeCsv } from '../../src/data/csv.ts';
import { DataError } from '../../src/data/errors.ts';

describe('parsePipeCsv (the export format)', () => {
  it('reads a byte-order mark, trailing "|", CRLF and LF line ends', () => {
    const t = parsePipeCsv('\ufeffa|b|\r\n1|x|\r\n2|y|\n', 'F.csv');
    expect(t.columns).toEqual(['a', 'b']);
    expect(t.records.map((r) => r.fields)).toEqual([{ a: '1', b: 'x' }, { a: '2', b: 'y' }]);
    expect(t.records.map((r) => r.line)).toEqual([2, 3]);
  });

  it('joins a record whose text holds a line break', () => {
    const t = parsePipeCsv('a|b|c|\n1|first line\nsecond line|z|\n2|y|w|\n', 'S.csv');
    expect(t.records[0].fields.b).toBe('first line\nsecond line');
    expect(t.records[0].line).toBe(2);
    expect(t.records[1]).toEqual({ line: 4, fields: { a: '2', b: 'y', c: 'w' } });
  });

  it('a truncated last record names the file, the line and the expected fields', () => {
    const run = () => parsePipeCsv('a|b|c|\n1|2|3|\n4|5', 'Datasheets.csv');
    expect(run).toThrow(DataError);
    expect(run).toThrow(/Datasheets\.csv: line 3: truncated record: expected 3 fields \(a\|b\|c\|\), found 1/);
  });

  it('a record with too many fields names the file, the line and the expected count', () => {
    expect(() => parsePipeCsv('a|b|\n1|2|3|\n', 'X.csv')).toThrow(/X\.csv: line 2: expected 2 fields .* found 3/);
  });

  it('a missing column is an error naming it', () => {
    expect(() => parsePipeCsv('a|b|\n1|2|\n', 'X.csv', ['a', 'c'])).toThrow(/X\.csv: line 1: missing column\(s\) c/);
  });
});
