import { z } from 'zod';
import type { ErrorKey } from './errors';

/**
 * The password rule (issue 19, OWASP ASVS 4.0 V2.1; docs/security.md, Passwords): at least 8
 * characters, 12 for a user holding ADMIN_ACCESS_LEVEL, at most 128, any characters (none
 * required, none refused, nothing trimmed), and not a commonly used password. It applies when a
 * password is set (a user registered, a company head, a reset); signing in never checks it, so
 * passwords set before it keep working. Server and console run this one module.
 */
export const PASSWORD_LIMITS = {
  min: 8,
  adminMin: 12,
  max: 128,
  /**
   * zxcvbn's score (0–4) a password needs: 3 is "safely unguessable" (about 10⁸ guesses or more),
   * the threshold zxcvbn's authors recommend; 2 and below is refused as too easy to guess.
   */
  minScore: 3,
} as const;

export type PasswordErrorKey = Extract<
  ErrorKey,
  | 'ERROR_PASSWORD_TOO_SHORT'
  | 'ERROR_PASSWORD_ADMIN_TOO_SHORT'
  | 'ERROR_PASSWORD_TOO_LONG'
  | 'ERROR_PASSWORD_TOO_COMMON'
>;

/** Characters as a person counts them: Unicode code points, so an emoji is one, not two. */
export function passwordLength(password: string): number {
  let count = 0;
  for (const _ of password) count++;
  return count;
}

/** The length part of the rule, without the estimator: what a zod schema checks synchronously. */
export function passwordLengthProblem(password: string, admin = false): PasswordErrorKey | null {
  const length = passwordLength(password);
  if (length > PASSWORD_LIMITS.max) return 'ERROR_PASSWORD_TOO_LONG';
  if (length < PASSWORD_LIMITS.min) return 'ERROR_PASSWORD_TOO_SHORT';
  if (admin && length < PASSWORD_LIMITS.adminMin) return 'ERROR_PASSWORD_ADMIN_TOO_SHORT';
  return null;
}

/**
 * A new password in an API body: `requiredKey` when missing or empty, then the length rule
 * (8 to 128 characters; the admins' 12 and the common passwords are the server's checks, which
 * know who receives it). `maxLength` bounds the UTF-16 length for the OpenAPI document.
 */
export function newPasswordField(requiredKey: ErrorKey) {
  return z
    .string({ error: requiredKey })
    .min(1, { message: requiredKey, abort: true })
    .max(PASSWORD_LIMITS.max * 2, { message: 'ERROR_PASSWORD_TOO_LONG', abort: true })
    .superRefine((password, ctx) => {
      const key = passwordLengthProblem(password);
      if (key) ctx.addIssue({ code: 'custom', message: key });
    })
    .meta({ description: 'At least 8 characters (12 for an administrator), at most 128, not a common password.' });
}

type Estimator = {
  check(
    password: string,
    userInputs?: (string | number)[],
  ): {
    score: 0 | 1 | 2 | 3 | 4;
    feedback: { warning: string | null };
    sequence: { pattern: string; dictionaryName?: string; token: string }[];
  };
};

let estimator: Promise<Estimator> | undefined;

/**
 * zxcvbn with the common dictionaries (the 30,000 most used passwords of the breach corpora,
 * the diceware words and the keyboard layouts), built on first use and kept: the dictionaries
 * are about 430 kB of script, so they load apart (their own chunk in the console, on the first
 * check on the server). The English words and names are left out (1.2 MB more); the user's own
 * name and e-mail come in as user inputs instead.
 */
export function loadPasswordEstimator(): Promise<Estimator> {
  if (!estimator) {
    const loading = Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]).then(
      ([core, common]) => new core.ZxcvbnFactory({ dictionary: common.dictionary, graphs: common.adjacencyGraphs }),
    );
    // A failed load (a chunk the network lost) is tried again on the next check.
    loading.catch(() => {
      if (estimator === loading) estimator = undefined;
    });
    estimator = loading;
  }
  return estimator;
}

/**
 * What of a person the password must not be built from: the names, the whole e-mail, its local
 * part and the words in it, its domain. "maria.santos2024" for maria.santos@example.com is weak.
 */
export function passwordUserInputs(person: {
  firstName?: string | null;
  lastName?: string | null;
  emailAddress?: string | null;
}): string[] {
  const inputs = new Set<string>();
  const add = (value: string | null | undefined) => {
    const trimmed = value?.trim().toLowerCase();
    if (trimmed && trimmed.length >= 3) inputs.add(trimmed);
  };
  add(person.firstName);
  add(person.lastName);
  for (const part of `${person.firstName ?? ''} ${person.lastName ?? ''}`.split(/\s+/)) add(part);
  const email = person.emailAddress?.trim() ?? '';
  add(email);
  const at = email.lastIndexOf('@');
  const local = at >= 0 ? email.slice(0, at) : email;
  add(local);
  for (const word of local.split(/[^\p{L}\p{N}]+/u)) add(word);
  if (at >= 0) {
    const domain = email.slice(at + 1);
    add(domain);
    add(domain.split('.')[0]);
  }
  return [...inputs];
}

export interface PasswordStrength {
  /** zxcvbn's score: 0 too guessable … 4 very unguessable. */
  score: 0 | 1 | 2 | 3 | 4;
  /** zxcvbn's warning key (`topTen`, `common`, `userInputs`, …) or null; the console translates it. */
  warning: string | null;
  /** Whether the password as a whole is an entry of the common passwords list (any case, l33t or reversed). */
  listed: boolean;
}

/** The estimator's judgement of a password, for the strength hint and the rule. */
export async function passwordStrength(
  password: string,
  userInputs: readonly string[] = [],
): Promise<PasswordStrength> {
  const result = (await loadPasswordEstimator()).check(password, [...userInputs]);
  const [only] = result.sequence;
  const listed =
    result.sequence.length === 1 &&
    only?.pattern === 'dictionary' &&
    only.dictionaryName === 'passwords-common' &&
    only.token.length === password.length;
  return { score: result.score, warning: result.feedback.warning, listed };
}

/**
 * The whole rule: the length for who receives the password, then the estimator. A password is
 * too common when it is on the common passwords list, or when zxcvbn scores it below
 * PASSWORD_LIMITS.minScore (a common password with a digit or a year added, a keyboard row, a
 * repeat, the user's own name).
 */
export async function passwordProblem(
  password: string,
  options: { admin?: boolean; userInputs?: readonly string[] } = {},
): Promise<PasswordErrorKey | null> {
  const lengthKey = passwordLengthProblem(password, options.admin ?? false);
  if (lengthKey) return lengthKey;
  const strength = await passwordStrength(password, options.userInputs);
  return strength.listed || strength.score < PASSWORD_LIMITS.minScore ? 'ERROR_PASSWORD_TOO_COMMON' : null;
}

export type PasswordPerson = Parameters<typeof passwordUserInputs>[0];

/**
 * The whole rule on a console form's schema: `read` picks the password from the values, whether
 * an admin receives it and whose it is; a problem is reported on `path` (the password field). It
 * runs once that field has passed its own checks, whatever the other fields hold, and
 * asynchronously (the estimator loads on the first check; zodResolver parses asynchronously).
 */
export function withPasswordRule<S extends z.ZodType>(
  schema: S,
  path: readonly (string | number)[],
  read: (values: z.output<S>) => { password: unknown; admin?: boolean; person?: PasswordPerson } | null,
): S {
  const onPath = (issuePath: readonly PropertyKey[] = []) => path.every((part, index) => issuePath[index] === part);
  return schema.superRefine(
    async (values, ctx) => {
      const wanted = read(values);
      if (!wanted || typeof wanted.password !== 'string' || wanted.password === '') return;
      const key = await passwordProblem(wanted.password, {
        admin: wanted.admin ?? false,
        userInputs: wanted.person ? passwordUserInputs(wanted.person) : [],
      });
      if (key) ctx.addIssue({ code: 'custom', path: [...path], message: key });
    },
    { when: (payload) => !payload.issues.some((issue) => onPath(issue.path)) },
  );
}
