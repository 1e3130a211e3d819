import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { unzip } from '../../../test/unzip';
import { type ZipEntry, zipStream } from './zip';

const MiB = 1024 * 1024;

describe('zipStream', () => {
  it('reads the next file only as the client takes the zip, and writes every entry', async () => {
    let reads = 0;
    const file = randomBytes(MiB);
    function* entries(): Generator<ZipEntry> {
      yield { path: 'folder/' };
      for (let index = 0; index < 64; index += 1) {
        yield {
          path: `folder/${index}.rax`,
          read: async () => {
            reads += 1;
            return file;
          },
        };
      }
    }
    const errors: unknown[] = [];
    const stream = zipStream(entries(), (error) => errors.push(error));

    // Nobody reads: the archive may run a few MiB ahead, never through the 64 MiB.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThanOrEqual(8);

    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(reads).toBe(64);
    const unpacked = await unzip(Buffer.concat(chunks));
    expect(unpacked.size).toBe(65);
    expect(Buffer.from(unpacked.get('folder/63.rax')!).equals(file)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('breaks the stream, not the server, when a file cannot be read', async () => {
    const errors: unknown[] = [];
    const stream = zipStream([{ path: 'a.rax', read: () => Promise.reject(new Error('gone')) }], (error) =>
      errors.push(error),
    );
    await expect(async () => {
      for await (const _chunk of stream) {
        // drain
      }
    }).rejects.toThrow('gone');
    expect(errors).toHaveLength(1);
  });
});
