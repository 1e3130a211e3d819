import type { FastifyReply } from 'fastify';

/**
 * `Content-Disposition: attachment` with a file name (RFC 6266): an ASCII `filename` for old
 * clients (characters outside printable ASCII, quotes and backslashes replaced by '_') and, when
 * the name is not plain ASCII, `filename*` in UTF-8 (RFC 8187), which every current browser and
 * the console's `fileNameFromDisposition` prefer.
 */
export function attachment(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  if (fallback === fileName) return `attachment; filename="${fileName}"`;
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** A file as a download: its bytes as they are, named by `attachment()`. */
export function sendFile(reply: FastifyReply, file: { fileName: string; bytes: Uint8Array }) {
  return reply
    .type('application/octet-stream')
    .header('content-disposition', attachment(file.fileName))
    .send(Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength));
}
