import { z } from 'zod';
import { DepartmentRef } from './departments';
import type { ErrorKey } from './errors';
import { GENERAL_NAME_KEYS, id, idParams, name } from './fields';
import { LIMITS } from './limits';

/** Spec section 9: threshold 0 to 60 whole minutes (default 0), colour default #000000, png icons. */
export const STATUS_LIMITS = {
  thresholdMin: 0,
  thresholdMax: 60,
  defaultColor: '#000000',
  iconMaxBytes: 512_000,
  iconSizes: [24, 48, 128],
  iconMimeType: 'image/png',
} as const;

export const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

/** A status as other lists and forms name it (the task table and form). */
export const StatusRef = z.object({ id: z.number().int(), name: z.string() }).meta({ id: 'StatusRef' });
export type StatusRef = z.infer<typeof StatusRef>;

/** Spec section 3, Status. `icon` is a data URL of the png, ready for an img element. */
export const Status = z
  .object({
    id: z.number().int(),
    name: z.string(),
    department: DepartmentRef,
    departmentId: z.number().int(),
    threshold: z.number().int(),
    color: z.string(),
    icon: z.string(),
    fileName: z.string(),
    trackIdle: z.boolean(),
    /**
     * Whether the caller may change or delete it (spec section 2: edit and delete only for
     * editable statuses): not built in, and of a department the caller heads or one below.
     */
    editable: z.boolean(),
    /** Built-in statuses the agents rely on: shown, never changed or deleted by anyone. */
    builtIn: z.boolean(),
    tenantId: z.string(),
  })
  .meta({ id: 'Status' });
export type Status = z.infer<typeof Status>;

/** Spec sections 5 and 8: the server answers ERROR_GENERAL_NAME_REQUIRED for a missing name. */
export const StatusName = name(GENERAL_NAME_KEYS);

/**
 * The body of POST /api/status and PUT /api/status/{id} (spec section 7). The icon is a base64
 * data URL; the server checks the decoded bytes (png signature, size, square 24/48/128), never the
 * name or the MIME type. On update an empty or missing icon keeps the stored one.
 */
export const SaveStatus = z
  .object({
    name: StatusName,
    departmentId: id('ERROR_STATUS_DEPARTMENT_REQUIRED'),
    threshold: z
      .number({ error: 'ERROR_STATUS_THRESHOLD_INVALID' })
      .int('ERROR_STATUS_THRESHOLD_INVALID')
      .min(STATUS_LIMITS.thresholdMin, 'ERROR_STATUS_THRESHOLD_INVALID')
      .max(STATUS_LIMITS.thresholdMax, 'ERROR_STATUS_THRESHOLD_INVALID')
      .nullish()
      .transform((value) => value ?? 0),
    color: z
      .string({ error: 'ERROR_STATUS_COLOR_REQUIRED' })
      .trim()
      .min(1, 'ERROR_STATUS_COLOR_REQUIRED')
      .regex(HEX_COLOR, 'ERROR_STATUS_COLOR_INVALID'),
    icon: z.string({ error: 'ERROR_STATUS_ICON_UNSUPPORTED' }).nullish(),
    trackIdle: z.boolean({ error: 'ERROR_GENERAL_INVALID_INPUT' }).default(false),
    fileName: z.string().max(LIMITS.nameMax, 'ERROR_GENERAL_NAME_TOO_LONG').nullish(),
  })
  .meta({ id: 'SaveStatus' });
export type SaveStatus = z.infer<typeof SaveStatus>;
export type SaveStatusInput = z.input<typeof SaveStatus>;

export const StatusIdParams = idParams('ERROR_STATUS_NOT_EXIST');

/** What a png's header says: null when the bytes are not a png at all. */
export type PngInfo = { width: number; height: number } | null;

/**
 * The icon rule of spec sections 5 and 9, shared by the server (decoded bytes) and the console
 * (the chosen file): png, at most 512000 bytes, a square of 24, 48 or 128 pixels.
 */
export function statusIconProblem(icon: { byteLength: number; png: PngInfo }): ErrorKey | null {
  if (icon.byteLength === 0) return 'ERROR_STATUS_ICON_REQUIRED';
  if (!icon.png) return 'ERROR_STATUS_ICON_UNSUPPORTED';
  if (icon.byteLength > STATUS_LIMITS.iconMaxBytes) return 'ERROR_STATUS_ICON_TOO_BIG';
  const { width, height } = icon.png;
  const sizes: readonly number[] = STATUS_LIMITS.iconSizes;
  if (width !== height || !sizes.includes(width)) return 'ERROR_STATUS_ICON_INVALID_DIMENSION';
  return null;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * Width and height from a png's IHDR chunk (which must come first, right after the 8-byte
 * signature), or null when the bytes are not a png. Pure, so the console and server share it.
 */
export function readPngInfo(bytes: Uint8Array): PngInfo {
  if (bytes.length < 24) return null;
  for (let i = 0; i < PNG_SIGNATURE.length; i += 1) if (bytes[i] !== PNG_SIGNATURE[i]) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunkLength = view.getUint32(8);
  const chunkType = String.fromCharCode(bytes[12]!, bytes[13]!, bytes[14]!, bytes[15]!);
  if (chunkType !== 'IHDR' || chunkLength !== 13) return null;
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  if (width === 0 || height === 0) return null;
  return { width, height };
}
