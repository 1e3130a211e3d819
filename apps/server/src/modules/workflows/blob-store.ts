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
  async put(tx, bytes) {
    const sha256 = sha256Of(bytes);
    await tx.insert(blobs).values({ sha256, size: bytes.byteLength, content: bytes }).onConflictDoNothing();
    return { sha256, size: bytes.byteLength };
  },

  async get(db, sha256) {
    const [row] = await db.select({ content: blobs.content }).from(blobs).where(eq(blobs.sha256, sha256));
    return row?.content;
  },

  async sweep(db) {
    const removed = await db
      .delete(blobs)
      .where(sql`not exists (select 1 from workflow_versions v where v.sha256 = ${blobs.sha256})`)
      .returning({ sha256: blobs.sha256 });
    return removed.length;
  },
};
