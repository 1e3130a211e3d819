import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../test/csv';
import { csvField, csvLine, csvStream, sendCsv } from './csv';

async function text(stream: NodeJS.ReadableStream) {
  let out = '';
  for await (const chunk of stream) out += chunk.toString();
  return out;
}

async function* listOf<T>(items: readonly T[]) {
  for (const item of items) yield item;
}

describe('csvField and csvLine', () => {
  it('writes plain text and numbers as they are, null and undefined as nothing', () => {
    expect(csvLine(['abc', 42, -1.5, null, undefined, true, 12n])).toBe('abc,42,-1.5,,,true,12\r\n');
  });

  it('quotes a field holding a comma, a quote, CR or LF, and doubles its quotes (RFC 4180)', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('carriage\rreturn')).toBe('"carriage\rreturn"');
    expect(csvField('')).toBe('');
    expect(csvField(' spaced ')).toBe(' spaced ');
    expect(csvField('ünïcødé ✓')).toBe('ünïcødé ✓');
  });

  it('neutralises text that a spreadsheet would run as a formula with a leading apostrophe', () => {
    expect(csvField('=HYPERLINK("http://evil.test")')).toBe('"\'=HYPERLINK(""http://evil.test"")"');
    expect(csvField('+1+2')).toBe("'+1+2");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\t=1')).toBe("'\t=1");
    expect(csvField('\r=1')).toBe('"\'\r=1"');
    // Only at the start, and never numbers.
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField(-3)).toBe('-3');
  });
});

describe('csvStream', () => {
  it('writes a header row and one CRLF-ended record per row, which parse back to the rows', async () => {
    const rows = [
      { id: 1, name: 'Plain', note: null },
      { id: 2, name: 'Comma, "quoted"\r\nand lines', note: '=cmd' },
    ];
    const out = await text(csvStream({ columns: ['id', 'name', 'note'] as const, rows: listOf(rows) }));
    expect(out).toBe('id,name,note\r\n1,Plain,\r\n2,"Comma, ""quoted""\r\nand lines",\'=cmd\r\n');
    expect(parseCsv(out)).toEqual([
      ['id', 'name', 'note'],
      ['1', 'Plain', ''],
      ['2', 'Comma, "quoted"\r\nand lines', "'=cmd"],
    ]);
  });

  it('writes the header alone when there is no row', async () => {
    expect(await text(csvStream({ columns: ['a', 'b'] as const, rows: listOf<{ a: string; b: string }>([]) }))).toBe(
      'a,b\r\n',
    );
  });

  it('reads rows only as fast as the consumer takes the bytes (backpressure)', async () => {
    let produced = 0;
    async function* endless() {
      for (;;) {
        produced += 1;
        yield { id: produced, text: 'x'.repeat(100) };
      }
    }
    const stream = csvStream({ columns: ['id', 'text'] as const, rows: endless() });
    // Nobody reads: asked once, the stream fills its buffer (64 KiB, about 600 rows) and stops asking.
    stream.read(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const whilePaused = produced;
    expect(whilePaused).toBeGreaterThan(0);
    expect(whilePaused).toBeLessThan(3_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(produced).toBe(whilePaused);
    // A consumer reading a little at a time gets more, still a bounded way ahead of it.
    let read = 0;
    for await (const chunk of stream) {
      read += (chunk as Buffer).length;
      if (read > 1_000_000) break;
    }
    expect(produced * 110).toBeLessThan(read + 500_000);
    // Breaking off destroyed the stream, which ends the rows once the chunk under way is done.
    const atEnd = produced;
    await new Promise((resolve) => setTimeout(resolve, 50));
    const afterEnd = produced;
    expect(afterEnd - atEnd).toBeLessThan(1_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(produced).toBe(afterEnd);
  });
});

describe('sendCsv', () => {
  async function appWith(rows: () => AsyncIterable<{ a: string | null; b: number }>) {
    const app = Fastify();
    app.get('/file', (_request, reply) =>
      sendCsv(reply, { fileName: 'things-1-2.csv', columns: ['a', 'b'], rows: rows() }),
    );
    app.setErrorHandler((error: Error, _request, reply) => reply.status(503).send({ key: error.message }));
    await app.ready();
    return app;
  }

  it('answers text/csv as an attachment with the file name', async () => {
    const app = await appWith(() =>
      listOf([
        { a: 'x', b: 1 },
        { a: null, b: 2 },
      ]),
    );
    const response = await app.inject('/file');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="things-1-2.csv"');
    expect(response.body).toBe('a,b\r\nx,1\r\n,2\r\n');
    await app.close();
  });

  it('answers a failure before the first row as an error, not as a file', async () => {
    const app = await appWith(async function* () {
      yield* [];
      throw new Error('database away');
    });
    const response = await app.inject('/file');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ key: 'database away' });
    await app.close();
  });
});
