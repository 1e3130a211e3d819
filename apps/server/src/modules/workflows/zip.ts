import { PassThrough, type Readable } from 'node:stream';
import { ZipArchive } from 'archiver';

/** An entry of a zip download: a folder (its path ends with '/') or a file whose bytes are read when its turn comes. */
export type ZipEntry = { path: string; read?: () => Promise<Uint8Array> };

/**
 * A zip streamed as it is written: each file's bytes are read only when the previous entry has
 * gone into the archive, which waits while the client is slower than the archive (stream
 * backpressure through archiver's Transform and the PassThrough), so memory holds about one file
 * whatever the zip's size (bench/workflow-download.mjs measures it). A failure midway aborts
 * the stream, and the client sees a broken download rather than a truncated zip that looks whole.
 */
export function zipStream(
  entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>,
  onError: (err: unknown) => void,
): Readable {
  const archive = new ZipArchive({ zlib: { level: 6 }, highWaterMark: 1024 * 1024 });
  const out = new PassThrough({ highWaterMark: 1024 * 1024 });
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
        // Stored, not deflated: a .rax is itself a zip, and deflating it again only spends CPU.
        archive.append(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
          name: entry.path,
          date,
          store: true,
        });
      else archive.append(Buffer.alloc(0), { name: entry.path, date, type: 'directory' });
    });

  (async () => {
    for await (const entry of entries) {
      await appendOne(entry, entry.read ? await entry.read() : undefined);
    }
    await archive.finalize();
  })().catch((err: unknown) => {
    onError(err);
    archive.abort();
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  return out;
}
