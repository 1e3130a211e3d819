import zlib from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RAX_LIMITS, type RaxErrorReason } from './format';
import { RaxError, readRax } from './read';
import { manifestText, rawZip, validManifest } from './test-zips';
import { writeRax } from './write';

afterEach(() => vi.restoreAllMocks());

/** The reason readRax refuses the bytes with; fails the test when it accepts them or throws anything else. */
async function refusal(bytes: Uint8Array): Promise<RaxErrorReason> {
  const error = await readRax(bytes).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error, 'readRax accepted the bytes').toBeInstanceOf(RaxError);
  return (error as RaxError).reason;
}

const MB = 1024 * 1024;

describe('readRax', () => {
  it('reads a hand-made archive: manifest, activity keys in first-use order, every entry, unpacked bytes', async () => {
    const steps = [
      { activity: 'open-browser', name: 'Open', expectedSeconds: 5 },
      { activity: 'read-excel-range', name: 'Read', expectedSeconds: 12.5 },
      { activity: 'open-browser', name: 'Open again', expectedSeconds: 5 },
      { activity: 'send-outlook-mail', name: '', expectedSeconds: 86_400 },
    ];
    const text = manifestText({ steps, extra: 'ignored' });
    const contents = await readRax(
      rawZip([
        { name: 'assets/', data: '' },
        { name: 'assets/logo.png', data: new Uint8Array([1, 2, 3]), method: 'deflate' },
        { name: 'workflow.json', data: text, method: 'deflate' },
      ]),
    );
    expect(contents).toEqual({
      manifest: validManifest({ steps }),
      activityKeys: ['open-browser', 'read-excel-range', 'send-outlook-mail'],
      entries: ['assets/', 'assets/logo.png', 'workflow.json'],
      unpackedBytes: 3 + Buffer.byteLength(text),
    });
    expect(contents.manifest).not.toHaveProperty('extra');
  });

  it('refuses what is not a zip', async () => {
    expect(await refusal(new Uint8Array())).toBe('not-zip');
    expect(await refusal(Buffer.from('{"format":"opsdeck-workflow"}'))).toBe('not-zip');
  });

  it('refuses a zip without workflow.json at its root', async () => {
    expect(await refusal(rawZip([]))).toBe('no-manifest');
    expect(await refusal(rawZip([{ name: 'readme.txt', data: 'hello' }]))).toBe('no-manifest');
    expect(await refusal(rawZip([{ name: 'inner/workflow.json', data: manifestText() }]))).toBe('no-manifest');
    expect(await refusal(rawZip([{ name: 'Workflow.JSON', data: manifestText() }]))).toBe('no-manifest');
  });

  it.each<[string, string | Uint8Array]>([
    ['invalid JSON', '{"format":'],
    ['JSON that is not an object', '[1]'],
    ['bytes that are not UTF-8', new Uint8Array([0x7b, 0xff, 0x7d])],
    ['another format', manifestText({ format: 'opsdeck-registration' })],
    ['another version', manifestText({ version: 2 })],
    ['a version written as text', manifestText({ version: '1' })],
    ['no steps', manifestText({ steps: [] })],
    ['501 steps', manifestText({ steps: Array(501).fill({ activity: 'delay', name: 'Wait', expectedSeconds: 1 }) })],
    ['steps that are not an array', manifestText({ steps: { 0: validManifest().steps[0] } })],
    ['a step without activity', manifestText({ steps: [{ name: 'Open', expectedSeconds: 30 }] })],
    ['a step with an empty activity', manifestText({ steps: [{ activity: '', name: 'Open', expectedSeconds: 30 }] })],
    ['a step without name', manifestText({ steps: [{ activity: 'delay', expectedSeconds: 30 }] })],
    ['a step of 0 seconds', manifestText({ steps: [{ activity: 'delay', name: '', expectedSeconds: 0 }] })],
    ['a step of more than a day', manifestText({ steps: [{ activity: 'delay', name: '', expectedSeconds: 86_401 }] })],
    ['seconds written as text', manifestText({ steps: [{ activity: 'delay', name: '', expectedSeconds: '30' }] })],
    ['a step that is not an object', manifestText({ steps: ['delay'] })],
    ['no name', manifestText({ name: undefined })],
    ['a name of 256 characters', manifestText({ name: 'x'.repeat(256) })],
    ['no description', manifestText({ description: undefined })],
    ['a description of 1025 characters', manifestText({ description: 'x'.repeat(1025) })],
    [
      'an activity key of 256 characters',
      manifestText({ steps: [{ activity: 'k'.repeat(256), name: '', expectedSeconds: 1 }] }),
    ],
  ])('refuses a manifest with %s', async (_, data) => {
    expect(await refusal(rawZip([{ name: 'workflow.json', data }]))).toBe('invalid-manifest');
  });

  it('takes a manifest that starts with a byte-order mark, as Windows editors save it', async () => {
    const { manifest } = await readRax(rawZip([{ name: 'workflow.json', data: `\uFEFF${manifestText()}` }]));
    expect(manifest).toEqual(validManifest());
  });

  it('takes a manifest at the limits', async () => {
    const step = { activity: 'k'.repeat(255), name: 'n'.repeat(255), expectedSeconds: 86_400 };
    const text = manifestText({ name: 'x'.repeat(255), description: 'd'.repeat(1024), steps: Array(500).fill(step) });
    const { manifest } = await readRax(rawZip([{ name: 'workflow.json', data: text, method: 'deflate' }]));
    expect(manifest.steps).toHaveLength(500);
  });

  it.each(['../evil.txt', '/etc/passwd', 'a/../../b', '..', 'C:/x', 'c:x', 'a\\b', '..\\evil.txt', 'a\0.txt', ''])(
    'refuses an entry named %j as unsafe',
    async (name) => {
      const zip = rawZip([
        { name: 'workflow.json', data: manifestText() },
        { name, data: 'x' },
      ]);
      expect(await refusal(zip)).toBe('unsafe-path');
    },
  );

  it('takes names that only look odd', async () => {
    const names = ['a..b/c..', '.hidden/x', 'x/C:/y', 'résumé.txt'];
    const contents = await readRax(
      rawZip([{ name: 'workflow.json', data: manifestText() }, ...names.map((name) => ({ name, data: 'x' }))]),
    );
    expect(contents.entries).toEqual(['workflow.json', ...names]);
  });

  it('judges both names of an entry that has two (the plain one and an Info-ZIP Unicode path)', async () => {
    const manifest = { name: 'workflow.json', data: manifestText() };
    const renamed = await readRax(rawZip([manifest, { name: 'plain.txt', data: 'x', unicodePath: 'unicode.txt' }]));
    expect(renamed.entries).toEqual(['workflow.json', 'unicode.txt']);
    expect(await refusal(rawZip([manifest, { name: 'safe.txt', data: 'x', unicodePath: '../evil.txt' }]))).toBe(
      'unsafe-path',
    );
    expect(await refusal(rawZip([manifest, { name: '../evil.txt', data: 'x', unicodePath: 'safe.txt' }]))).toBe(
      'unsafe-path',
    );
  });

  it('refuses two entries of one path, the manifest included', async () => {
    const twice = rawZip([
      { name: 'workflow.json', data: manifestText() },
      { name: 'workflow.json', data: manifestText({ name: 'Other' }) },
    ]);
    expect(await refusal(twice)).toBe('unsafe-path');
  });

  it('refuses encrypted entries and unknown compression', async () => {
    const encrypted = rawZip([
      { name: 'workflow.json', data: manifestText() },
      { name: 'secret.txt', data: 'x', method: 'deflate', encrypted: true },
    ]);
    expect(await refusal(encrypted)).toBe('corrupt');
    const bzip = Buffer.from(rawZip([{ name: 'workflow.json', data: manifestText() }]));
    bzip.writeUInt16LE(12, bzip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 10);
    expect(await refusal(bzip)).toBe('corrupt');
  });

  it('refuses damaged data', async () => {
    const zip = Buffer.from(rawZip([{ name: 'workflow.json', data: manifestText().repeat(20), method: 'deflate' }]));
    zip.fill(0xff, 40, 80); // inside the deflated data
    expect(await refusal(zip)).toBe('corrupt');
    const short = rawZip([{ name: 'workflow.json', data: manifestText(), method: 'deflate', declaredSize: 5000 }]);
    expect(await refusal(short)).toBe('corrupt');
  });

  it(`refuses more than ${RAX_LIMITS.maxEntries} entries`, async () => {
    const many = Array.from({ length: RAX_LIMITS.maxEntries }, (_, index) => ({ name: `r/${index}`, data: '' }));
    expect(await refusal(rawZip([{ name: 'workflow.json', data: manifestText() }, ...many]))).toBe('too-large');
  });

  it('refuses a manifest over 1 MB, whatever its header says', async () => {
    const big = manifestText({ description: 'x', pad: 'x'.repeat(MB) });
    expect(await refusal(rawZip([{ name: 'workflow.json', data: big, method: 'deflate' }]))).toBe('too-large');
    const lying = rawZip([{ name: 'workflow.json', data: big, method: 'deflate', declaredSize: 100 }]);
    expect(await refusal(lying)).toBe('too-large');
  });

  describe('zip bombs', () => {
    const zeros = new Uint8Array(60 * MB);

    it('refuses 60 MB of zeros from the central directory alone, without inflating anything', async () => {
      const bomb = rawZip([
        { name: 'workflow.json', data: manifestText() },
        { name: 'zeros.bin', data: zeros, method: 'deflate' },
      ]);
      expect(bomb.length).toBeLessThan(MB);
      const inflaters = vi.spyOn(zlib, 'createInflateRaw');
      const started = performance.now();
      expect(await refusal(bomb)).toBe('too-large');
      expect(performance.now() - started).toBeLessThan(1000);
      expect(inflaters).not.toHaveBeenCalled();
    });

    it('refuses entries that are each small but together over 50 MB', async () => {
      const part = new Uint8Array(20 * MB);
      const bomb = rawZip([
        { name: 'workflow.json', data: manifestText() },
        ...[1, 2, 3].map((index) => ({ name: `part-${index}.bin`, data: part, method: 'deflate' as const })),
      ]);
      expect(await refusal(bomb)).toBe('too-large');
    });

    it('refuses a bomb whose header lies, streaming it: stops long before 60 MB are inflated', async () => {
      const bomb = rawZip([
        { name: 'workflow.json', data: manifestText() },
        { name: 'zeros.bin', data: zeros, method: 'deflate', declaredSize: 1024 },
      ]);
      let inflated = 0;
      const createInflateRaw = zlib.createInflateRaw;
      vi.spyOn(zlib, 'createInflateRaw').mockImplementation((options) => {
        const inflater = createInflateRaw(options);
        inflater.on('data', (chunk: Buffer) => {
          inflated += chunk.length;
        });
        return inflater;
      });
      expect(await refusal(bomb)).toBe('too-large');
      expect(inflated).toBeGreaterThan(0);
      expect(inflated).toBeLessThan(4 * MB);
    });
  });

  describe('any bytes at all', () => {
    // A fixed seed, so that a failure can be replayed.
    let seed = 0x2f6b_a1c3;
    const random = () => {
      seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0;
      return seed / 2 ** 32;
    };
    const randomBytes = (length: number) => Uint8Array.from({ length }, () => Math.floor(random() * 256));

    /** Resolves to a valid result or refuses with RaxError; anything else (another error, a hang) fails. */
    async function settles(bytes: Uint8Array) {
      try {
        const contents = await readRax(bytes);
        expect(contents.manifest.steps.length).toBeGreaterThan(0);
      } catch (error) {
        expect(error).toBeInstanceOf(RaxError);
      }
    }

    it('refuses random garbage with RaxError', async () => {
      for (let round = 0; round < 300; round++) {
        await settles(randomBytes(Math.floor(random() * 2000)));
      }
      // Garbage that ends like a zip: an end record pointing anywhere.
      for (let round = 0; round < 300; round++) {
        const bytes = randomBytes(22 + Math.floor(random() * 500));
        Buffer.from(bytes.buffer).writeUInt32LE(0x06054b50, bytes.length - 22);
        bytes[bytes.length - 2] = 0;
        bytes[bytes.length - 1] = 0;
        await settles(bytes);
      }
    });

    it('reads damaged copies of a real file as valid or refuses them with RaxError', async () => {
      const original = await writeRax(
        { name: 'Fuzz', steps: [{ activity: 'delay', name: 'Wait', expectedSeconds: 1 }] },
        { 'notes/a.txt': 'alpha '.repeat(50), 'b.bin': randomBytes(300) },
      );
      for (let round = 0; round < 1500; round++) {
        const bytes = Uint8Array.from(original);
        for (let flips = 1 + Math.floor(random() * 4); flips > 0; flips--) {
          bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
        }
        await settles(round % 10 === 0 ? bytes.subarray(0, Math.floor(random() * bytes.length)) : bytes);
      }
    });

    it('refuses what is not bytes', async () => {
      expect(await refusal('PK' as unknown as Uint8Array)).toBe('not-zip');
      expect(await refusal(null as unknown as Uint8Array)).toBe('not-zip');
    });
  });
});
