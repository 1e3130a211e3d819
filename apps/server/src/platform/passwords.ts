import { hash, verify } from '@node-rs/argon2';
import { passwordProblem, passwordUserInputs } from '@opsdeck/contract/passwords';
import { badRequest } from './errors';

// Algorithm.Argon2id; the package exports it as a const enum, which isolated modules cannot read.
const ARGON2ID = 2;

// OWASP's argon2id baseline (19 MiB, 2 passes): ~16 ms a hash on this machine
// (docs/architecture.md, "Facts about the stack").
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/**
 * Whether `password` is the one `passwordHash` was made from. A stored hash the library cannot
 * read (corrupt, truncated, not an argon2 hash) matches no password: `onCorrupt` is told why, in
 * the library's words (never the hash, never the password), for the caller to log, and the check
 * still spends a real check's time, so the answer looks like any wrong password's.
 */
export async function verifyPassword(
  passwordHash: string,
  password: string,
  onCorrupt?: (reason: string) => void,
): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch (error) {
    if (!onCorrupt) return false;
    onCorrupt(corruptHashReason(error, [passwordHash, password]));
    await verifyAgainstNothing(password);
    return false;
  }
}

/** The library's reason ("InvalidArg Decoding failed"), with the secrets cut out should it ever quote them. */
function corruptHashReason(error: unknown, secrets: readonly string[]): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  let reason = [code, message].filter((part) => typeof part === 'string' && part).join(' ') || 'unreadable';
  for (const secret of secrets) if (secret.length >= 4) reason = reason.replaceAll(secret, '[redacted]');
  return reason;
}

let dummyHash: Promise<string> | undefined;

/** Spends the same time as a real check, so an unknown e-mail is not told apart by timing. */
export async function verifyAgainstNothing(password: string): Promise<false> {
  dummyHash ??= hashPassword('opsdeck-no-such-user');
  await verifyPassword(await dummyHash, password);
  return false;
}

/**
 * The password rule (`@opsdeck/contract/passwords`, docs/security.md) for a password being set:
 * refused with its key (400) on `field`, the body's path of the password. `admin`: the user who
 * receives it holds ADMIN_ACCESS_LEVEL or belongs to no company (12 characters, not 8).
 */
export async function requireAcceptablePassword(
  password: string,
  options: {
    admin: boolean;
    person: { firstName?: string | null; lastName?: string | null; emailAddress?: string | null };
    field: string;
  },
): Promise<void> {
  const key = await passwordProblem(password, { admin: options.admin, userInputs: passwordUserInputs(options.person) });
  if (key) throw badRequest(key, { [options.field]: key });
}
