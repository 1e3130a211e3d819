import type { Page } from '@opsdeck/contract/paging';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import { type ZodType, z } from 'zod';
import { type CsvValue, sendCsv } from './csv';

/**
 * CSV export of the console's tables (docs/csv-export.md): a table's own list call with
 * `format=csv` answers every row its filter and sort match, all pages, through `sendCsv`
 * (platform/csv.ts: RFC 4180, a header row, formula cells neutralised, streamed).
 *
 * - Whole lists (the calls answering an array) declare `csv` on `resourceRoutes`, or call
 *   `sendTableCsv` with the array their service answers.
 * - Server-paged lists read their service's own paged query page after page (`pagedRows`), so the
 *   file is the pages joined, and at most two pages are held at a time, whatever the total.
 */

/** A table as a file: the stem of its name (`<table>-<YYYY-MM-DD>.csv`) and its columns in order. */
export interface CsvTable<Row> {
  table: string;
  /** Each column's header (the console column's key) and its cell, as text the console shows. */
  columns: Readonly<Record<string, (row: Row) => CsvValue>>;
}

/** A time as ISO 8601 in UTC (epoch milliseconds in, null stays empty). */
export const isoTime = (ms: number | null | undefined): string | null =>
  ms === null || ms === undefined ? null : new Date(ms).toISOString();

/** `<table>-<YYYY-MM-DD>.csv`, the day in UTC. */
export const csvFileName = (table: string, now = Date.now()) =>
  `${table}-${new Date(now).toISOString().slice(0, 10)}.csv`;

/** Rows of a page read at a time: big enough for few round trips, small enough to hold two. */
export const CSV_PAGE_SIZE = 1000;

const CSV_DOCS =
  'With `format=csv`: every row the filter and sort match (page and size ignored), all pages, as an RFC 4180 ' +
  '`text/csv` attachment named `<table>-<YYYY-MM-DD>.csv`: a header row, times in ISO 8601 UTC, text cells ' +
  'starting with = + - @, tab or CR prefixed with an apostrophe (docs/csv-export.md).';

/** The sentence a list call's description ends with when it offers CSV. */
export const csvDescription = (description?: string) => (description ? `${description} ${CSV_DOCS}` : CSV_DOCS);

/** A list call's 200 answer: its JSON, or the CSV file (`format=csv`), both in the OpenAPI document. */
export const csvAnswer = (json: ZodType) => ({
  description: 'The list as JSON, or with `format=csv` as a CSV file',
  content: {
    'application/json': { schema: json },
    'text/csv': { schema: z.string().meta({ description: 'RFC 4180 CSV with a header row' }) },
  },
});

async function* records<Row>(
  rows: Iterable<Row> | AsyncIterable<Row>,
  table: CsvTable<Row>,
): AsyncGenerator<Record<string, CsvValue>> {
  const cells = Object.entries(table.columns);
  for await (const row of rows) {
    const record: Record<string, CsvValue> = {};
    for (const [header, cell] of cells) record[header] = cell(row);
    yield record;
  }
}

/** Answers with `rows` as the table's CSV download. */
export function sendTableCsv<Row>(
  reply: FastifyReply,
  table: CsvTable<Row>,
  rows: Iterable<Row> | AsyncIterable<Row>,
  now = Date.now(),
) {
  return sendCsv(reply, {
    fileName: csvFileName(table.table, now),
    columns: Object.keys(table.columns),
    rows: records(rows, table),
  });
}

/**
 * Every row of a server-paged list, read through its own paged call (`read(page, size)`, the same
 * query, search and sort as the console's pages) one page after another, the next page read while
 * the current one is written. Ends at a short page or at the total.
 */
export async function* pagedRows<Row>(
  read: (page: number, size: number) => Promise<Page<Row>>,
  { size = CSV_PAGE_SIZE, log }: { size?: number; log?: Pick<FastifyBaseLogger, 'debug'> } = {},
): AsyncGenerator<Row> {
  let page = 1;
  let ahead: Promise<Page<Row>> | undefined = read(page, size);
  try {
    while (ahead) {
      const current: Page<Row> = await ahead;
      const more = current.items.length === size && page * size < current.total;
      page += 1;
      ahead = more ? read(page, size) : undefined;
      yield* current.items;
    }
  } finally {
    // A download the client left: the page read ahead is not wanted, nor its failure (the
    // connection it ran on may be gone too, and nobody is waiting for the answer).
    await ahead?.catch((err: unknown) =>
      log?.debug({ err }, 'CSV export: the page read ahead failed after the client left'),
    );
  }
}

/** The page of a list call that answers an array without `page` and a `Page` with it. */
export const asPage = async <Row>(answer: Promise<Row[] | Page<Row>>): Promise<Page<Row>> => {
  const value = await answer;
  if (Array.isArray(value)) throw new Error('pagedRows: the list answered an array to a paged call');
  return value;
};
