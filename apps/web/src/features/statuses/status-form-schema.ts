import type { ErrorKey } from '@opsdeck/contract/errors';
import { readPngInfo, SaveStatus, STATUS_LIMITS, type Status, statusIconProblem } from '@opsdeck/contract/statuses';
import { z } from 'zod';
import { chosenId, companyChoice } from '../../lib/form-schemas';

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
    company: companyChoice(options.needsCompany),
    name: SaveStatus.shape.name,
    departmentId: chosenId('ERROR_STATUS_DEPARTMENT_REQUIRED'),
    /** A NumberInput's value: a number, or '' when empty (which means 0); the contract's rule checks it. */
    threshold: z.union([z.number(), z.string()]).superRefine((value, ctx) => {
      const checked = SaveStatus.shape.threshold.safeParse(value === '' ? null : Number(value));
      for (const issue of checked.error?.issues ?? []) ctx.addIssue({ code: 'custom', message: issue.message });
    }),
    color: SaveStatus.shape.color,
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
