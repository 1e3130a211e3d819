import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { blobs } from '../../db/schema';

/**
 * Where workflow files live (docs/workflows.md, Storage): content-addressed blobs, named by the
 * SHA-256 of their bytes. This one keeps them in the database, written in the caller's
 * transaction, so that an upload that fails leaves nothing and every instance over one PostgreSQL
 * sees every file. An object store can take its place behind the same three calls.
 */
export type BlobStore = {
  /** Stores the bytes (once, whoever else holds the same content) and names them. */
  put: (tx: Executor, bytes: Uint8Array) => Promise<{ sha256: string; size: number }>;
  /** The bytes of a stored blob, or undefined. */
  get: (db: Executor, sha256: string) => Promise<Uint8Array | undefined>;
  /** Removes the blobs no workflow version points at any more (after a company is deleted). */
  sweep: (db: Executor) => Promise<number>;
};

export const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export const databaseBlobStore: BlobStore = {
  // The bytes cross to the database as hex text, decoded and encoded by PostgreSQL: PGlite turns a
  // bytea parameter or result into hex one byte at a time in JavaScript (16 s for 20 MB; 2.7 s as
  // text), and pg costs the same either way (docs/performance.md, Workflows).
  async put(tx, bytes) {
    const sha256 = sha256Of(bytes);
    const hex = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
    await tx
      .insert(blobs)
      .values({ sha256, size: bytes.byteLength, content: sql`decode(${hex}, 'hex')` })
      .onConflictDoNothing();
    return { sha256, size: bytes.byteLength };
  },

  async get(db, sha256) {
    const [row] = await db
      .select({ hex: sql<string>`encode(${blobs.content}, 'hex')` })
      .from(blobs)
      .where(eq(blobs.sha256, sha256));
    return row ? new Uint8Array(Buffer.from(row.hex, 'hex')) : undefined;
  },

  async sweep(db) {
    const removed = await db
      .delete(blobs)
      .where(sql`not exists (select 1 from workflow_versions v where v.sha256 = ${blobs.sha256})`)
      .returning({ sha256: blobs.sha256 });
    return removed.length;
  },
};
