import yauzl, { type Entry, type ZipFile } from 'yauzl';
import {
  activityKeysOf,
  parseManifest,
  RAX_LIMITS,
  RAX_MANIFEST,
  RaxError,
  type RaxManifest,
  unsafePathReason,
} from './format';

export { RaxError, type RaxErrorReason } from './format';

export interface RaxContents {
  manifest: RaxManifest;
  /** The distinct activity keys of the steps, in the order they are first used. */
  activityKeys: string[];
  /** Every entry's path, `workflow.json` and directories included, in the archive's order. */
  entries: string[];
  /** The bytes of every entry once inflated. */
  unpackedBytes: number;
}

interface Listed {
  path: string;
  entry: Entry;
}

/**
 * Reads a `.rax` file (docs/workflows.md) from its bytes, inflating every entry to check it but
 * keeping only the manifest. Throws RaxError, and nothing else, for anything that is not such a
 * file. Limits are checked twice: against the sizes the central directory declares before
 * anything is inflated (a zip bomb is refused without being opened), then against the bytes
 * actually inflated, counted as they stream, so a header that lies cannot pass either.
 */
export async function readRax(bytes: Uint8Array): Promise<RaxContents> {
  try {
    return await read(bytes);
  } catch (error) {
    if (error instanceof RaxError) throw error;
    throw new RaxError('corrupt', error instanceof Error ? error.message : String(error));
  }
}

async function read(bytes: Uint8Array): Promise<RaxContents> {
  if (!(bytes instanceof Uint8Array)) throw new RaxError('not-zip', 'not bytes');
  const zipfile = await open(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  try {
    const listed = await list(zipfile);
    const manifestEntry = listed.find((item) => item.path === RAX_MANIFEST)?.entry;
    if (!manifestEntry) throw new RaxError('no-manifest', `no ${RAX_MANIFEST} at the root of the archive`);
    if (manifestEntry.uncompressedSize > RAX_LIMITS.maxManifestBytes) throw manifestTooLarge();

    const manifestBytes = await inflate(zipfile, manifestEntry, RAX_LIMITS.maxManifestBytes, true);
    if (!manifestBytes) throw manifestTooLarge();
    const manifest = parseManifest(parseJson(manifestBytes));

    let unpackedBytes = manifestBytes.length;
    for (const { entry } of listed) {
      if (entry === manifestEntry) continue;
      const inflated = await inflate(zipfile, entry, RAX_LIMITS.maxUnpackedBytes - unpackedBytes, false);
      if (inflated === null) throw unpackedTooLarge();
      unpackedBytes += inflated;
    }
    return {
      manifest,
      activityKeys: activityKeysOf(manifest),
      entries: listed.map((item) => item.path),
      unpackedBytes,
    };
  } finally {
    zipfile.close();
  }
}

const manifestTooLarge = () =>
  new RaxError('too-large', `${RAX_MANIFEST} is larger than ${RAX_LIMITS.maxManifestBytes} bytes`);
const unpackedTooLarge = () =>
  new RaxError('too-large', `the archive unpacks to more than ${RAX_LIMITS.maxUnpackedBytes} bytes`);

/** yauzl's errors once the archive is open: an entry inflating past its declared size is a bomb, the rest damage. */
const fromYauzl = (error: Error) =>
  new RaxError(/too many bytes/i.test(error.message) ? 'too-large' : 'corrupt', error.message);

function open(buffer: Buffer): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    // decodeStrings: false, so that every entry name is judged here by one rule (yauzl's own
    // check turns backslashes into slashes and knows nothing of NUL).
    yauzl.fromBuffer(
      buffer,
      { lazyEntries: true, decodeStrings: false, validateEntrySizes: true },
      (error, zipfile) => {
        if (error || !zipfile) reject(new RaxError('not-zip', error?.message ?? 'not a zip archive'));
        else resolve(zipfile);
      },
    );
  });
}

/** The central directory, checked entry by entry before anything is inflated. */
function list(zipfile: ZipFile): Promise<Listed[]> {
  return new Promise((resolve, reject) => {
    // The listener stays for the zipfile's life: an 'error' with no listener would crash the process.
    zipfile.on('error', (error: Error) => reject(fromYauzl(error)));
    if (zipfile.entryCount > RAX_LIMITS.maxEntries) {
      reject(new RaxError('too-large', `the archive has more than ${RAX_LIMITS.maxEntries} entries`));
      return;
    }
    const listed: Listed[] = [];
    const paths = new Set<string>();
    let declaredBytes = 0;
    zipfile.on('end', () => resolve(listed));
    zipfile.on('entry', (entry: Entry) => {
      try {
        const path = entryPath(entry);
        // Two entries of one path are read differently by different tools (first or last wins).
        if (paths.has(path)) throw new RaxError('unsafe-path', `the entry path "${path}" appears twice`);
        if (entry.isEncrypted()) throw new RaxError('corrupt', `the entry "${path}" is encrypted`);
        if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
          throw new RaxError('corrupt', `the entry "${path}" uses compression method ${entry.compressionMethod}`);
        }
        declaredBytes += entry.uncompressedSize;
        if (declaredBytes > RAX_LIMITS.maxUnpackedBytes) throw unpackedTooLarge();
        paths.add(path);
        listed.push({ path, entry });
        zipfile.readEntry();
      } catch (error) {
        reject(error);
      }
    });
    zipfile.readEntry();
  });
}

/**
 * An entry's path as yauzl would decode it (UTF-8 or CP437, or Info-ZIP's Unicode path field),
 * refused when either that or the plain name field is unsafe: unpackers differ on which they use.
 */
function entryPath(entry: Entry): string {
  const path = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
  const plain = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, [], true);
  const reason = unsafePathReason(path) ?? unsafePathReason(plain);
  if (reason) throw new RaxError('unsafe-path', reason);
  return path;
}

/**
 * Inflates an entry, counting its bytes as they come and stopping past `limit`: the entry's
 * bytes when `keep`, else their count; null past the limit. Only what is kept is held in memory.
 */
function inflate(zipfile: ZipFile, entry: Entry, limit: number, keep: true): Promise<Buffer | null>;
function inflate(zipfile: ZipFile, entry: Entry, limit: number, keep: false): Promise<number | null>;
function inflate(zipfile: ZipFile, entry: Entry, limit: number, keep: boolean): Promise<Buffer | number | null> {
  return new Promise((resolve, reject) => {
    zipfile.openReadStream(entry, (error, stream) => {
      if (error || !stream) return reject(error ? fromYauzl(error) : new RaxError('corrupt', 'unreadable entry'));
      const chunks: Buffer[] = [];
      let count = 0;
      stream.on('error', (streamError: Error) => reject(fromYauzl(streamError)));
      stream.on('data', (chunk: Buffer) => {
        count += chunk.length;
        if (count > limit) {
          stream.destroy();
          resolve(null);
        } else if (keep) chunks.push(chunk);
      });
      stream.on('end', () => resolve(keep ? Buffer.concat(chunks) : count));
    });
  });
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (error) {
    throw new RaxError('invalid-manifest', `${RAX_MANIFEST} is not UTF-8 JSON: ${(error as Error).message}`);
  }
}
