import { z } from 'zod';
import { id, idParams, text } from './fields';
import { LIMITS } from './limits';

/** Spec section 3, Activity: the provider's catalogue; `partial` is 0 or 1 as the spec writes it. */
export const Activity = z
  .object({
    id: z.number().int(),
    name: z.string(),
    key: z.string(),
    category: z.string(),
    partial: z.union([z.literal(0), z.literal(1)]),
    isPartial: z.boolean(),
    /** Epoch milliseconds. */
    createDate: z.number().int(),
  })
  .meta({ id: 'Activity' });
export type Activity = z.infer<typeof Activity>;

/** The body of POST /api/activity and PUT /api/activity/{id} (spec sections 5 and 7). */
export const SaveActivity = z
  .object({
    name: text({ required: 'ERROR_ACTIVITY_NAME_REQUIRED', tooLong: 'ERROR_ACTIVITY_NAME_EXCEEDS_CHARACTER_LIMIT' }),
    key: text({ required: 'ERROR_ACTIVITY_KEY_REQUIRED', tooLong: 'ERROR_ACTIVITY_KEY_EXCEEDS_CHARACTER_LIMIT' }),
    /** Default empty (spec section 9). */
    category: z
      .string({ error: 'ERROR_GENERAL_INVALID_INPUT' })
      .trim()
      .max(LIMITS.nameMax, 'ERROR_ACTIVITY_CATEGORY_EXCEEDS_CHARACTER_LIMIT')
      .nullish()
      .transform((value) => value ?? ''),
    /** 0 or 1 (a boolean is read as one); default 0 (spec section 9). */
    partial: z
      .union([z.literal(0), z.literal(1), z.boolean()], { error: 'ERROR_GENERAL_INVALID_INPUT' })
      .nullish()
      .transform((value) => value === 1 || value === true),
  })
  .meta({ id: 'SaveActivity' });
export type SaveActivity = z.infer<typeof SaveActivity>;
export type SaveActivityInput = z.input<typeof SaveActivity>;

export const ActivityIdParams = idParams('ERROR_ACTIVITY_NOT_EXIST');

/** The licence types (spec section 3): 'pro' unlocks the premium activities, 'enterprise' has them all. */
export const LICENSE_TYPE_KEYS = ['pro', 'enterprise'] as const;
export const LicenseTypeKey = z.enum(LICENSE_TYPE_KEYS, { error: 'ERROR_LICENSE_TYPE_INVALID' });
export type LicenseTypeKey = z.infer<typeof LicenseTypeKey>;

/** An activity as the premium page lists it: `premium` when the 'pro' licence type unlocks it. */
export const CatalogueActivity = Activity.extend({ premium: z.boolean() }).meta({ id: 'CatalogueActivity' });
export type CatalogueActivity = z.infer<typeof CatalogueActivity>;

/** GET /api/license-type/activity: `key` names the licence type. */
export const LicenseTypeActivityQuery = z.object({ key: LicenseTypeKey });

/** The body of POST /api/license-type/add-activity and remove-activity (spec section 7). */
export const LicenseTypeActivities = z
  .object({
    licenseType: LicenseTypeKey,
    activities: z
      .array(z.object({ id: id('ERROR_ACTIVITY_ID_REQUIRED') }), { error: 'ERROR_ACTIVITY_ID_REQUIRED' })
      .min(1, 'ERROR_ACTIVITY_ID_REQUIRED')
      .max(1000, 'ERROR_GENERAL_INVALID_INPUT'),
  })
  .meta({ id: 'LicenseTypeActivities' });
export type LicenseTypeActivities = z.infer<typeof LicenseTypeActivities>;
