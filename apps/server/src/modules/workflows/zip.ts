import { type Readable, Transform } from 'node:stream';
import { ZipArchive } from 'archiver';

/** How far the archive may run ahead of a slow client. */
const BACKLOG_BYTES = 4 * 1024 * 1024;

/** An entry of a zip download: a folder (its path ends with '/') or a file whose bytes are read when its turn comes. */
export type ZipEntry = { path: string; read?: () => Promise<Uint8Array> };

/**
 * A zip streamed as it is written: each file's bytes are read only when the previous entry has
 * gone into the archive and the client has taken all but a few MiB of what came before, so
 * memory holds about one file whatever the zip's size (bench/workflow-download.mjs measures it). A failure midway aborts
 * the stream, and the client sees a broken download rather than a truncated zip that looks whole.
 */
export function zipStream(
  entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>,
  onError: (err: unknown) => void,
): Readable {
  // Level 0: a .rax is itself a zip, and deflating it again only spends CPU.
  const archive = new ZipArchive({ zlib: { level: 0 }, highWaterMark: 1024 * 1024 });
  // Counts what the client's side has taken in: what the archive was given beyond that is waiting
  // somewhere inside archiver, whose stored entries do not hold back for a slow client.
  let given = 0;
  let taken = 0;
  const out = new Transform({
    highWaterMark: 1024 * 1024,
    transform(chunk: Buffer, _encoding, callback) {
      taken += chunk.length;
      callback(null, chunk);
    },
  });
  archive.pipe(out);
  const date = new Date();

  const appendOne = (entry: ZipEntry, bytes?: Uint8Array) =>
    new Promise<void>((resolve, reject) => {
      const done = () => {
        archive.off('error', reject);
        resolve();
      };
      archive.once('entry', done);
      archive.once('error', reject);
      if (bytes)
        archive.append(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { name: entry.path, date });
      else archive.append(Buffer.alloc(0), { name: entry.path, date, type: 'directory' });
    });

  // The next file is read only when the client has nearly caught up (measured: without this, a
  // paused client had 250 MiB of its zip piled up in memory).
  const room = async () => {
    while (given - taken > BACKLOG_BYTES && !out.destroyed) await new Promise((resolve) => setTimeout(resolve, 20));
  };

  (async () => {
    for await (const entry of entries) {
      await room();
      if (out.destroyed) {
        archive.abort();
        return;
      }
      const bytes = entry.read ? await entry.read() : undefined;
      given += bytes?.byteLength ?? 0;
      await appendOne(entry, bytes);
    }
    await archive.finalize();
  })().catch((err: unknown) => {
    onError(err);
    archive.abort();
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  return out;
}
