import multipart, { type Multipart } from '@fastify/multipart';
import type { ErrorKey } from '@opsdeck/contract/errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, badRequest } from './errors';

/**
 * Form-data calls (spec section 7: "form data company, license, regFile, …"): a route in a scope
 * that called `registerFormData` takes `multipart/form-data` as the console sends it, and JSON (or
 * url-encoded) bodies as scripts and tests send them. A multipart body is turned into a plain
 * object before validation, `{ field: value, file: { filename, bytes } }` (the contract's
 * `UploadedFile`), so the route's zod body schema validates and documents both the same way.
 */
export type FormDataOptions = {
  /** The names of the file fields. A JSON body cannot carry a file: its values under these names are dropped. */
  files: readonly string[];
  /** The largest file accepted, in bytes. */
  maxFileBytes: number;
  /** What a larger file answers, on its field: the area's own key, never a 500. */
  fileTooLarge: ErrorKey;
  /** Its status: 400 (a registration file is simply invalid), or 413 for an upload over the operator's limit. */
  fileTooLargeStatus?: 400 | 413;
  /** At most this many text fields (default 10), each at most `maxFieldBytes` (default 16 KiB). */
  maxFields?: number;
  maxFieldBytes?: number;
};

/**
 * The parts of a multipart body as one plain object: the first value of each text field, and each
 * declared file read whole into memory (these are small files, bounded by `maxFileBytes`). An
 * undeclared file is read and dropped. Malformed multipart is the client's mistake: 400.
 */
export async function multipartBody(
  parts: AsyncIterable<Multipart>,
  options: Pick<FormDataOptions, 'files' | 'fileTooLarge' | 'fileTooLargeStatus'>,
): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  try {
    for await (const part of parts) {
      if (part.type === 'file') {
        const chunks: Buffer[] = [];
        for await (const chunk of part.file) chunks.push(chunk as Buffer);
        if (part.file.truncated) {
          throw new AppError(options.fileTooLargeStatus ?? 400, options.fileTooLarge, {
            [part.fieldname]: options.fileTooLarge,
          });
        }
        if (options.files.includes(part.fieldname) && !(part.fieldname in body)) {
          body[part.fieldname] = { filename: part.filename ?? '', bytes: new Uint8Array(Buffer.concat(chunks)) };
        }
      } else {
        if (part.valueTruncated || part.fieldnameTruncated) {
          throw badRequest('ERROR_GENERAL_INVALID_INPUT', { [part.fieldname]: 'ERROR_GENERAL_INVALID_INPUT' });
        }
        // A field cannot pose as a file, and the first value of a repeated field wins.
        if (!options.files.includes(part.fieldname) && !(part.fieldname in body)) body[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    // The multipart plugin's own limits (too many parts or files: 413) keep their status.
    const status = (error as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) throw error;
    // Busboy's parse failures (no boundary, a truncated body, a bad part header) carry no status.
    throw badRequest('ERROR_GENERAL_INVALID_INPUT');
  }
  return body;
}

/** Drops file fields from a body that did not come as multipart: a file is only ever a real upload. */
function withoutFiles(body: unknown, files: readonly string[]): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const plain = { ...(body as Record<string, unknown>) };
  for (const name of files) delete plain[name];
  return plain;
}

/**
 * Registers `@fastify/multipart` in the caller's plugin scope (so its limits hold there only) and
 * the hook that turns a multipart request into a plain body before validation.
 */
export async function registerFormData(app: FastifyInstance, options: FormDataOptions) {
  const maxFields = options.maxFields ?? 10;
  await app.register(multipart, {
    limits: {
      files: options.files.length,
      fileSize: options.maxFileBytes,
      fields: maxFields,
      fieldSize: options.maxFieldBytes ?? 16 * 1024,
      parts: maxFields + options.files.length,
    },
    // A larger file is truncated and answered with the area's key (multipartBody), not a 413.
    throwFileSizeLimit: false,
  });
  app.addHook('preValidation', async (request: FastifyRequest) => {
    if (request.isMultipart()) {
      request.body = await multipartBody(request.parts(), options);
    } else if (request.body !== undefined) {
      request.body = withoutFiles(request.body, options.files);
    }
  });
}
