import type { ErrorKey } from '@opsdeck/contract/errors';
import {
  HEX_COLOR,
  readPngInfo,
  type SaveStatus,
  STATUS_LIMITS,
  type Status,
  StatusName,
  statusIconProblem,
} from '@opsdeck/contract/statuses';
import { z } from 'zod';

/** The chosen icon file, read in the browser; `problem` is the key it fails with, if any. */
export type IconChoice = { dataUrl: string; fileName: string; problem: ErrorKey | null };

/**
 * Reads a chosen file into a data URL and checks it the way the server will (spec section 5):
 * a png by its bytes (and its name or type), at most 512000 bytes, square 24, 48 or 128 px.
 */
export async function readIconFile(file: File): Promise<IconChoice> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const named = file.name.toLowerCase().endsWith('.png') || file.type === STATUS_LIMITS.iconMimeType;
  const png = named ? readPngInfo(bytes) : null;
  const problem = statusIconProblem({ byteLength: bytes.length, png });
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { dataUrl: `data:${STATUS_LIMITS.iconMimeType};base64,${btoa(binary)}`, fileName: file.name, problem };
}

/**
 * The status form (spec section 5). `creating`: the icon is required; on update an empty choice
 * keeps the stored icon. `needsCompany`: admins pick the company.
 */
export function statusFormSchema(options: { creating: boolean; needsCompany: boolean }) {
  return z.object({
    company: z
      .string()
      .nullable()
      .refine((company) => !options.needsCompany || Boolean(company), 'ERROR_COMPANY_REQUIRED'),
    name: StatusName,
    /** A Select's value: the department id as text. */
    departmentId: z
      .string({ error: 'ERROR_STATUS_DEPARTMENT_REQUIRED' })
      .nullable()
      .refine(Boolean, 'ERROR_STATUS_DEPARTMENT_REQUIRED'),
    /** A NumberInput's value: a number, or '' when empty (which means 0). */
    threshold: z.union([z.number(), z.string()]).superRefine((value, ctx) => {
      if (value === '') return;
      const number = typeof value === 'number' ? value : Number(value);
      if (!Number.isInteger(number) || number < STATUS_LIMITS.thresholdMin || number > STATUS_LIMITS.thresholdMax) {
        ctx.addIssue({ code: 'custom', message: 'ERROR_STATUS_THRESHOLD_INVALID' });
      }
    }),
    color: z.string().trim().min(1, 'ERROR_STATUS_COLOR_REQUIRED').regex(HEX_COLOR, 'ERROR_STATUS_COLOR_INVALID'),
    icon: z.custom<IconChoice | null>().superRefine((icon, ctx) => {
      if (!icon) {
        if (options.creating) ctx.addIssue({ code: 'custom', message: 'ERROR_STATUS_ICON_REQUIRED' });
      } else if (icon.problem) ctx.addIssue({ code: 'custom', message: icon.problem });
    }),
    trackIdle: z.boolean(),
  });
}

export type StatusFormValues = z.input<ReturnType<typeof statusFormSchema>>;
export type StatusFormOutput = z.output<ReturnType<typeof statusFormSchema>>;

export function emptyStatusForm(company: string | null): StatusFormValues {
  return {
    company,
    name: '',
    departmentId: null,
    threshold: 0,
    color: STATUS_LIMITS.defaultColor,
    icon: null,
    trackIdle: false,
  };
}

export function statusToForm(status: Status): StatusFormValues {
  return {
    company: status.tenantId,
    name: status.name,
    departmentId: String(status.departmentId),
    threshold: status.threshold,
    color: status.color,
    icon: null,
    trackIdle: status.trackIdle,
  };
}

export function toSaveStatus(values: StatusFormOutput): SaveStatus {
  return {
    name: values.name,
    departmentId: Number(values.departmentId),
    threshold: values.threshold === '' ? 0 : Number(values.threshold),
    color: values.color,
    icon: values.icon?.dataUrl ?? null,
    fileName: values.icon?.fileName ?? null,
    trackIdle: values.trackIdle,
  };
}
