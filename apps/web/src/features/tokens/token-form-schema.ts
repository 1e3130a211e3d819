import { AUTHORITY_KEYS, type Authority } from '@opsdeck/contract/authorities';
import { API_TOKEN_MAX_DAYS, ApiTokenName, apiTokenExpiryProblem, type CreateApiToken } from '@opsdeck/contract/tokens';
import dayjs from 'dayjs';
import { z } from 'zod';

/** A token expires at the end of its chosen day (the user's time zone). */
export const expiryOfDay = (day: string) => dayjs(day).endOf('day').valueOf();

/** The last day a new token may expire on: its end is still within 365 days of now. */
export const lastExpiryDay = (now = Date.now()) =>
  dayjs(now)
    .add(API_TOKEN_MAX_DAYS - 1, 'day')
    .format('YYYY-MM-DD');

/** The form's expiry: a day (YYYY-MM-DD), the server's rule checked on its end. */
const ExpiryDay = z
  .string({ error: 'ERROR_API_TOKEN_EXPIRY_REQUIRED' })
  .nullable()
  .refine((day): day is string => Boolean(day), 'ERROR_API_TOKEN_EXPIRY_REQUIRED')
  .superRefine((day, context) => {
    const problem = day && apiTokenExpiryProblem(expiryOfDay(day), Date.now());
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

export const tokenFormSchema = z.object({
  name: ApiTokenName,
  expiresOn: ExpiryDay,
  scopes: z
    .array(z.enum(AUTHORITY_KEYS, { error: 'ERROR_API_TOKEN_SCOPE_INVALID' }))
    .min(1, 'ERROR_API_TOKEN_SCOPES_REQUIRED'),
});

export type TokenFormValues = z.input<typeof tokenFormSchema>;
export type TokenFormOutput = z.output<typeof tokenFormSchema>;

/** A new token: no name, 30 days, no scope ticked. */
export const emptyTokenForm = (now = Date.now()): TokenFormValues => ({
  name: '',
  expiresOn: dayjs(now).add(30, 'day').format('YYYY-MM-DD'),
  scopes: [],
});

export const toCreateToken = (values: TokenFormOutput): CreateApiToken => ({
  name: values.name,
  expiresAt: expiryOfDay(values.expiresOn as string),
  scopes: values.scopes as Authority[],
});
