import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import yauzl from 'yauzl';
import { RAX_LIMITS, RaxError, type RaxErrorReason, type RaxStep } from './format';
import { readRax } from './read';
import { RAX_ENTRY_DATE, type RaxWorkflow, writeRax } from './write';

const steps: RaxStep[] = [
  { activity: 'open-browser', name: 'Open the supplier portal', expectedSeconds: 20 },
  { activity: 'read-excel-range', name: 'Read the invoice list', expectedSeconds: 45 },
  { activity: 'send-outlook-mail', name: 'Mail the summary', expectedSeconds: 10 },
];
const workflow: RaxWorkflow = { name: 'Invoice intake', description: 'Reads new invoices.', steps };

/** Every entry of a zip with its bytes, its date and how it was stored, as an unzipper other than ours sees them. */
async function unzip(bytes: Uint8Array) {
  const zipfile = await yauzl.fromBufferPromise(Buffer.from(bytes), { lazyEntries: true });
  const entries: { name: string; data: Buffer; date: Date; method: number }[] = [];
  for await (const entry of zipfile.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const chunk of await zipfile.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    entries.push({
      name: entry.fileName,
      data: Buffer.concat(chunks),
      date: entry.getLastModDate({ timezone: 'UTC' }),
      method: entry.compressionMethod,
    });
  }
  return entries;
}

async function refusal(write: Promise<unknown>): Promise<RaxErrorReason> {
  const error = await write.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error, 'writeRax wrote it').toBeInstanceOf(RaxError);
  return (error as RaxError).reason;
}

describe('writeRax', () => {
  it('writes what readRax reads back', async () => {
    const contents = await readRax(await writeRax(workflow, { 'data/invoices.xlsx': 'sheet' }));
    expect(contents).toEqual({
      manifest: { format: 'opsdeck-workflow', version: 1, ...workflow },
      activityKeys: ['open-browser', 'read-excel-range', 'send-outlook-mail'],
      entries: ['workflow.json', 'data/invoices.xlsx'],
      unpackedBytes: expect.any(Number),
    });
  });

  it('writes workflow.json first, exactly: these keys in this order, 2 spaces, a trailing newline', async () => {
    const extra = { ...workflow, owner: 'x', steps: [{ ...steps[0]!, colour: 'red' } as RaxStep] } as RaxWorkflow;
    const [manifest] = await unzip(await writeRax(extra));
    expect(manifest!.name).toBe('workflow.json');
    expect(manifest!.data.toString('utf8')).toBe(
      [
        '{',
        '  "format": "opsdeck-workflow",',
        '  "version": 1,',
        '  "name": "Invoice intake",',
        '  "description": "Reads new invoices.",',
        '  "steps": [',
        '    {',
        '      "activity": "open-browser",',
        '      "name": "Open the supplier portal",',
        '      "expectedSeconds": 20',
        '    }',
        '  ]',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('writes an empty description when none is given', async () => {
    const { manifest } = await readRax(await writeRax({ name: 'No description', steps }));
    expect(manifest.description).toBe('');
  });

  it('keeps resources byte for byte, deflated, in the order given, at a fixed date, with UTF-8 names', async () => {
    const binary = randomBytes(64 * 1024);
    const resources = {
      'images/logo.png': binary,
      'templates/mail.html': '<p>Grüße, 請求書</p>\n',
      'empty.txt': new Uint8Array(),
      'naïve/ünïcode.txt': 'x',
      'offset.bin': binary.subarray(10, 20),
    };
    const entries = await unzip(await writeRax(workflow, resources));
    expect(entries.map((entry) => entry.name)).toEqual(['workflow.json', ...Object.keys(resources)]);
    expect(entries[1]!.data.equals(binary)).toBe(true);
    expect(entries[2]!.data.toString('utf8')).toBe('<p>Grüße, 請求書</p>\n');
    expect(entries[3]!.data.length).toBe(0);
    expect(entries[5]!.data.equals(binary.subarray(10, 20))).toBe(true);
    for (const entry of entries) {
      // An empty entry is stored: deflate has nothing to shrink.
      expect(entry.method).toBe(entry.data.length === 0 ? 0 : 8);
      expect(entry.date).toEqual(RAX_ENTRY_DATE);
    }
  });

  it('gives the same bytes for the same input, whenever it runs', async () => {
    const resources = { 'a.txt': 'alpha', 'b.bin': new Uint8Array([0, 1, 2, 255]) };
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2031-06-15T13:37:42Z'));
      const first = await writeRax(workflow, resources);
      vi.setSystemTime(new Date('1999-12-31T23:59:59Z'));
      const second = await writeRax(structuredClone(workflow), { ...resources });
      expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
      const third = await writeRax(workflow, { ...resources, 'a.txt': 'alphb' });
      expect(Buffer.from(third).equals(Buffer.from(first))).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it.each<[string, unknown]>([
    ['no steps', { name: 'x', steps: [] }],
    ['501 steps', { name: 'x', steps: Array(501).fill(steps[0]) }],
    ['a step without activity', { name: 'x', steps: [{ name: 'Open', expectedSeconds: 30 }] }],
    ['a step of NaN seconds', { name: 'x', steps: [{ ...steps[0], expectedSeconds: Number.NaN }] }],
    ['a step of Infinity seconds', { name: 'x', steps: [{ ...steps[0], expectedSeconds: Infinity }] }],
    ['a step of -1 seconds', { name: 'x', steps: [{ ...steps[0], expectedSeconds: -1 }] }],
    ['a name of 256 characters', { name: 'x'.repeat(256), steps }],
    ['no name', { steps }],
    ['a description of 1025 characters', { name: 'x', description: 'd'.repeat(1025), steps }],
    ['nothing', undefined],
  ])('refuses a workflow with %s', async (_, value) => {
    expect(await refusal(writeRax(value as RaxWorkflow))).toBe('invalid-manifest');
  });

  it.each([
    '../evil.txt',
    '/etc/passwd',
    'a/../../b',
    'C:/x',
    'a\\b',
    'a\0b',
    '',
    'workflow.json',
    'a//b',
    './a',
    'dir/',
  ])('refuses a resource named %j', async (name) => {
    expect(await refusal(writeRax(workflow, { [name]: 'x' }))).toBe('unsafe-path');
  });

  it('refuses resources past the limits', async () => {
    const big = new Uint8Array(RAX_LIMITS.maxUnpackedBytes);
    expect(await refusal(writeRax(workflow, { 'big.bin': big }))).toBe('too-large');
    const many = Object.fromEntries(Array.from({ length: RAX_LIMITS.maxEntries }, (_, index) => [`r/${index}`, '']));
    expect(await refusal(writeRax(workflow, many))).toBe('too-large');
  });
});
