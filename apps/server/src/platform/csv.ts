import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { attachment } from './content-disposition';

/**
 * CSV downloads of any list (docs/reports.md, "CSV"): RFC 4180 (CRLF line ends, a header row, a
 * field quoted when it holds a comma, a double quote, CR or LF, its quotes doubled), UTF-8 without
 * a byte order mark, streamed as the rows are read so that memory stays flat at any size.
 *
 * Formula injection (OWASP "CSV Injection"): a spreadsheet runs a cell that starts with = + - @,
 * tab or CR as a formula, and these cells hold what agents and users typed (error messages, names).
 * Such a text cell is written with a leading apostrophe ("'=1+2"), which spreadsheets show as text;
 * numbers are written as they are (-5 stays a number). A reader parsing the file as data sees the
 * apostrophe: it is part of the cell.
 */

/** What a cell may hold: text, a number, a boolean, or nothing (null and undefined are empty). */
export type CsvValue = string | number | bigint | boolean | null | undefined;

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell, neutralised and quoted as needed. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record: its cells joined by commas, ended by CRLF. */
export const csvLine = (values: readonly CsvValue[]) => `${values.map(csvField).join(',')}\r\n`;

/** Rows are written out in chunks of about this many characters. */
const CHUNK_CHARS = 64 * 1024;

export type CsvFile<Row> = {
  /** The header row, and the key of each column in a row, in order. */
  columns: readonly (keyof Row & string)[];
  rows: AsyncIterable<Row>;
};

/**
 * The file as a byte stream that reads `rows` only as fast as its consumer takes the bytes:
 * `Readable.from` pulls the next chunk when its buffer (highWaterMark) has room, and a consumer
 * that pipes it (the HTTP response) stops reading while the socket is full. Destroying the stream
 * (a client that went away) ends the iteration of `rows`.
 */
export function csvStream<Row extends Record<string, CsvValue>>(file: CsvFile<Row>): Readable {
  const { columns, rows } = file;
  async function* chunks() {
    let chunk = csvLine(columns);
    for await (const row of rows) {
      chunk += csvLine(columns.map((column) => row[column]));
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
  }
  return Readable.from(chunks(), { objectMode: false, highWaterMark: CHUNK_CHARS });
}

/** Answers with a CSV download named `fileName` (`text/csv; charset=utf-8`, `Content-Disposition: attachment`). */
export async function sendCsv<Row extends Record<string, CsvValue>>(
  reply: FastifyReply,
  file: CsvFile<Row> & { fileName: string },
) {
  // The first row is read before a byte is sent: a failure there (the database away, a bad value
  // only the database sees) answers as any other error does, with its status and key. A failure
  // later breaks the download off (the response is destroyed), so a cut file never looks whole.
  const iterator = file.rows[Symbol.asyncIterator]();
  const first = await iterator.next();
  async function* rows() {
    try {
      if (first.done) return;
      yield first.value;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    } finally {
      await iterator.return?.();
    }
  }
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', attachment(file.fileName))
    .header('cache-control', 'no-store')
    .send(csvStream({ columns: file.columns, rows: rows() }));
}
