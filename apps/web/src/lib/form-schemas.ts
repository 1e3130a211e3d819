import type { ErrorKey } from '@opsdeck/contract/errors';
import { z } from 'zod';

/**
 * Form-only field rules: what a console control holds before it becomes the contract's request.
 * The request's own rules (names, limits, keys) come from the contract's schemas.
 */

/** A Select's value (an id as text, or null), required with the contract's key for that field. */
export const chosenId = (key: ErrorKey) => z.string({ error: key }).nullable().refine(Boolean, key);

/**
 * The company selector of an admin's form (spec sections 5 and 6: "Company required for admins");
 * anyone else's forms carry their own company and never fail on it.
 */
export const companyChoice = (required: boolean) =>
  z
    .string()
    .nullable()
    .refine((company) => !required || Boolean(company), 'ERROR_COMPANY_REQUIRED');
