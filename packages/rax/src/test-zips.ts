import { crc32, deflateRawSync } from 'node:zlib';

export interface RawZipEntry {
  /** Written as given, UTF-8: hostile names (`../x`, `/x`, `C:/x`, `a\\b`) included. */
  name: string;
  data: Uint8Array | string;
  /** `store` (the default) or `deflate`. */
  method?: 'store' | 'deflate';
  /** The uncompressed size both headers declare; the true size unless a test wants a header that lies. */
  declaredSize?: number;
  /** Sets the "traditional encryption" flag (the data stays plain). */
  encrypted?: boolean;
  /** An Info-ZIP Unicode Path extra field (0x7075) in the central directory: the name most unzippers show instead. */
  unicodePath?: string;
}

/**
 * A zip archive written byte by byte, for tests that need what no zip library writes: unsafe
 * names, sizes that lie, encryption flags. Local headers, then the central directory, then its
 * end record; no data descriptors, no zip64, entries dated 1980-01-01.
 */
export function rawZip(entries: RawZipEntry[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const data = typeof entry.data === 'string' ? Buffer.from(entry.data) : Buffer.from(entry.data);
    const deflate = entry.method === 'deflate';
    const stored = deflate ? deflateRawSync(data) : data;
    const fields = {
      flags: 0x0800 | (entry.encrypted ? 0x0001 : 0),
      method: deflate ? 8 : 0,
      crc: crc32(data),
      compressedSize: stored.length,
      size: entry.declaredSize ?? data.length,
    };

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed to extract
    writeCommon(local, 6, fields);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28); // extra field length
    locals.push(local, name, stored);

    const extra = entry.unicodePath === undefined ? Buffer.alloc(0) : unicodePathField(name, entry.unicodePath);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // version made by
    central.writeUInt16LE(20, 6); // version needed to extract
    writeCommon(central, 8, fields);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(extra.length, 30);
    // 32 comment length, 34 disk, 36 internal and 38 external attributes: 0
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name, extra);

    offset += local.length + name.length + stored.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

function unicodePathField(name: Buffer, path: string) {
  const unicode = Buffer.from(path, 'utf8');
  const field = Buffer.alloc(9 + unicode.length);
  field.writeUInt16LE(0x7075, 0);
  field.writeUInt16LE(5 + unicode.length, 2);
  field.writeUInt8(1, 4); // version
  field.writeUInt32LE(crc32(name), 5); // of the plain name, which the field stands for
  unicode.copy(field, 9);
  return field;
}

/** The fields local and central headers share, from flags to uncompressed size. */
function writeCommon(
  header: Buffer,
  at: number,
  fields: { flags: number; method: number; crc: number; compressedSize: number; size: number },
) {
  header.writeUInt16LE(fields.flags, at);
  header.writeUInt16LE(fields.method, at + 2);
  header.writeUInt16LE(0, at + 4); // time 00:00:00
  header.writeUInt16LE(0x21, at + 6); // date 1980-01-01
  header.writeUInt32LE(fields.crc, at + 8);
  header.writeUInt32LE(fields.compressedSize, at + 12);
  header.writeUInt32LE(fields.size, at + 16);
}

/** A manifest that passes every rule, with overrides. */
export const validManifest = (overrides: Record<string, unknown> = {}) => ({
  format: 'opsdeck-workflow',
  version: 1,
  name: 'Invoice intake',
  description: 'Reads invoices from a mailbox.',
  steps: [{ activity: 'open-browser', name: 'Open the portal', expectedSeconds: 30 }],
  ...overrides,
});

/** `validManifest` as the text of `workflow.json`. */
export const manifestText = (overrides: Record<string, unknown> = {}) => JSON.stringify(validManifest(overrides));
