import { hash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: session tokens and password-reset keys. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Only this digest is stored; a database leak does not leak usable tokens. */
export function digest(secret: string): string {
  return hash('sha256', secret, 'base64url');
}
