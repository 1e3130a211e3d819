import { ZipArchive } from 'archiver';
import {
  parseManifest,
  RAX_FORMAT,
  RAX_LIMITS,
  RAX_MANIFEST,
  RAX_VERSION,
  RaxError,
  type RaxStep,
  unsafePathReason,
} from './format';

/**
 * Every entry's date. A fixed one, so that the same workflow and resources always give the same
 * bytes (a file can be compared or hashed, and tests pin the output); zip dates are UTC here.
 */
export const RAX_ENTRY_DATE = new Date('2020-01-01T00:00:00Z');

export interface RaxWorkflow {
  name: string;
  description?: string;
  steps: RaxStep[];
}

/**
 * Writes a `.rax` file (docs/workflows.md): `workflow.json` first, then the resources in the
 * order of the object's keys, deflated. Throws RaxError 'invalid-manifest' for a workflow that
 * breaks the format's rules, 'unsafe-path' for a resource path `readRax` would refuse (or one it
 * would read under another name), and 'too-large' past the format's limits: whatever this writes,
 * `readRax` reads back.
 */
export async function writeRax(
  workflow: RaxWorkflow,
  resources: Record<string, Uint8Array | string> = {},
): Promise<Uint8Array> {
  const manifest = parseManifest({
    format: RAX_FORMAT,
    version: RAX_VERSION,
    name: workflow?.name,
    description: workflow?.description ?? '',
    steps: workflow?.steps,
  });
  const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  if (manifestBytes.length > RAX_LIMITS.maxManifestBytes) {
    throw new RaxError('too-large', `${RAX_MANIFEST} would be larger than ${RAX_LIMITS.maxManifestBytes} bytes`);
  }

  const files: [string, Buffer][] = [[RAX_MANIFEST, manifestBytes]];
  let unpackedBytes = manifestBytes.length;
  for (const [path, data] of Object.entries(resources)) {
    checkResourcePath(path);
    const bytes = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.length);
    unpackedBytes += bytes.length;
    files.push([path, bytes]);
  }
  if (files.length > RAX_LIMITS.maxEntries) {
    throw new RaxError('too-large', `a workflow file holds at most ${RAX_LIMITS.maxEntries} entries`);
  }
  if (unpackedBytes > RAX_LIMITS.maxUnpackedBytes) {
    throw new RaxError('too-large', `a workflow file unpacks to at most ${RAX_LIMITS.maxUnpackedBytes} bytes`);
  }
  return zip(files);
}

/**
 * Beyond what `readRax` refuses, archiver would rewrite some paths (collapse `//`, drop `./`,
 * make `x/` a directory): those are refused too, so that an entry is stored under the very path
 * it was given.
 */
function checkResourcePath(path: string) {
  const reason = unsafePathReason(path);
  if (reason) throw new RaxError('unsafe-path', reason);
  if (path === RAX_MANIFEST) throw new RaxError('unsafe-path', `a resource cannot be named ${RAX_MANIFEST}`);
  if (path.split('/').some((segment) => segment === '' || segment === '.')) {
    throw new RaxError('unsafe-path', `the resource path "${path}" has an empty or "." segment`);
  }
}

function zip(files: [string, Buffer][]): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const archive = new ZipArchive({ zlib: { level: 9 } });
    const chunks: Buffer[] = [];
    archive.on('data', (chunk: Buffer) => chunks.push(chunk));
    archive.on('end', () => {
      const bytes = Buffer.concat(chunks);
      resolve(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
    });
    archive.on('error', reject);
    archive.on('warning', reject);
    for (const [name, data] of files) archive.append(data, { name, date: RAX_ENTRY_DATE });
    archive.finalize().catch(reject);
  });
}
