import yauzl from 'yauzl';

/** Every entry of a zip, by path (folders end with '/' and hold no bytes): to compare downloads byte for byte. */
export function unzip(bytes: Uint8Array): Promise<Map<string, Uint8Array>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(Buffer.from(bytes), { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const entries = new Map<string, Uint8Array>();
      zip.on('error', reject);
      zip.on('end', () => resolve(entries));
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) {
          entries.set(entry.fileName, new Uint8Array());
          zip.readEntry();
          return;
        }
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.set(entry.fileName, new Uint8Array(Buffer.concat(chunks)));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
