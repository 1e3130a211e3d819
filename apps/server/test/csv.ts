/**
 * Parses RFC 4180 CSV (CRLF records, quoted fields with doubled quotes) into records of fields,
 * strictly: a stray quote or a bare LF between records fails the test that reads it.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] === '"' && field === '') {
      // A quoted field: up to the closing quote, "" being one quote.
      i += 1;
      for (;;) {
        if (i >= text.length) throw new Error('CSV: unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        field += text[i];
        i += 1;
      }
      if (i < text.length && text[i] !== ',' && !text.startsWith('\r\n', i)) {
        throw new Error(`CSV: text after a closing quote at ${i}`);
      }
      continue;
    }
    if (text[i] === ',') {
      record.push(field);
      field = '';
      i += 1;
    } else if (text.startsWith('\r\n', i)) {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 2;
    } else if (text[i] === '"' || text[i] === '\n' || text[i] === '\r') {
      throw new Error(`CSV: unquoted ${JSON.stringify(text[i])} at ${i}`);
    } else {
      field += text[i];
      i += 1;
    }
  }
  if (field !== '' || record.length > 0) throw new Error('CSV: the last record does not end with CRLF');
  return records;
}

/** The records after the header as objects keyed by the header's names. */
export function csvObjects(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) throw new Error('CSV: no header row');
  return rows.map((row) => {
    if (row.length !== header.length) throw new Error(`CSV: ${row.length} fields, header has ${header.length}`);
    return Object.fromEntries(header.map((name, index) => [name, row[index]!]));
  });
}
