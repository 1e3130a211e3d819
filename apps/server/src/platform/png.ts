import { deflateSync } from 'node:zlib';
import { type PngInfo, readPngInfo } from '@opsdeck/contract/statuses';

export { readPngInfo };

/** The png's header of a buffer: its dimensions from IHDR, or null when it is no png (signature). */
export function pngInfo(bytes: Buffer): PngInfo {
  return readPngInfo(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The bytes of a base64 data URL (`data:<anything>;base64,<payload>`) or of bare base64. The
 * declared MIME type is ignored on purpose: what the bytes are is decided from the bytes.
 * Null when the text is not base64 at all.
 */
export function decodeDataUrl(text: string): Buffer | null {
  const comma = text.indexOf(',');
  const payload = (text.startsWith('data:') ? (comma < 0 ? '' : text.slice(comma + 1)) : text).replace(/\s+/g, '');
  if (text.startsWith('data:') && !text.slice(0, Math.max(comma, 0)).endsWith(';base64')) return null;
  if (payload.length % 4 === 1 || !BASE64.test(payload)) return null;
  return Buffer.from(payload, 'base64');
}

export const pngDataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** One RGBA pixel. */
export type Rgba = readonly [number, number, number, number];

/**
 * A minimal RGBA png encoder (8-bit, no filtering), enough for the demo's status icons and the
 * tests' fixtures. `extra` appends an ancillary chunk of that many bytes (to make big files).
 */
export function encodePng(
  width: number,
  height: number,
  pixel: (x: number, y: number) => Rgba,
  options: { extraBytes?: number } = {},
): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type RGBA
  const raw = Buffer.alloc((width * 4 + 1) * height);
  let offset = 0;
  for (let y = 0; y < height; y += 1) {
    raw[offset++] = 0; // filter: none
    for (let x = 0; x < width; x += 1) {
      const [r, g, b, a] = pixel(x, y);
      raw[offset++] = r;
      raw[offset++] = g;
      raw[offset++] = b;
      raw[offset++] = a;
    }
  }
  const chunks = [chunk('IHDR', header), chunk('IDAT', deflateSync(raw))];
  // An ancillary, private chunk ('prVt'): decoders skip it, so the image stays valid.
  if (options.extraBytes) chunks.push(chunk('prVt', Buffer.alloc(options.extraBytes, 0x2a)));
  chunks.push(chunk('IEND', Buffer.alloc(0)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ...chunks]);
}

/** '#rrggbb' as RGB numbers. */
export function hexToRgb(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.replace('#', ''), 16);
  return [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
}

/** A filled, anti-aliased circle of `color` on a transparent square: a status icon. */
export function circleIcon(size: number, color: string): Buffer {
  const [r, g, b] = hexToRgb(color);
  const radius = size / 2 - 1;
  const centre = size / 2;
  return encodePng(size, size, (x, y) => {
    const distance = Math.hypot(x + 0.5 - centre, y + 0.5 - centre);
    const coverage = Math.max(0, Math.min(1, radius - distance + 0.5));
    return [r, g, b, Math.round(coverage * 255)];
  });
}
