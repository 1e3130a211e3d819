import {
  PASSWORD_LIMITS,
  passwordLength,
  passwordProblem,
  passwordStrength,
  passwordUserInputs,
} from '@opsdeck/contract/passwords';
import { describe, expect, it } from 'vitest';
import { strengthLevel } from '../components/password-strength';

/** The shared password rule (packages/contract/src/passwords.ts; docs/security.md, Passwords). */
describe('the password rule', () => {
  it('counts characters as code points and bounds them 8 (12 for an admin) to 128', async () => {
    expect(passwordLength('🦊🐙🦉')).toBe(3);
    expect(await passwordProblem('Qz9!kLm')).toBe('ERROR_PASSWORD_TOO_SHORT');
    expect(await passwordProblem('🦊🐙🦉🐢🦜🐝🦔')).toBe('ERROR_PASSWORD_TOO_SHORT');
    expect(await passwordProblem('Xq7#vLm2p')).toBeNull();
    expect(await passwordProblem('Xq7#vLm2p', { admin: true })).toBe('ERROR_PASSWORD_ADMIN_TOO_SHORT');
    expect(await passwordProblem('violet harbour lantern', { admin: true })).toBeNull();
    const max = 'Vx3!qR8#mK2$'.repeat(11).slice(0, PASSWORD_LIMITS.max);
    expect(await passwordProblem(max)).toBeNull();
    expect(await passwordProblem(`${max}z`)).toBe('ERROR_PASSWORD_TOO_LONG');
  });

  it('allows any characters and keeps spaces', async () => {
    expect(await passwordProblem('  Ünïcødé → ключ 🦊  ')).toBeNull();
    expect(await passwordProblem('correct horse battery staple')).toBeNull();
  });

  it('refuses the common passwords, with the variations zxcvbn sees', async () => {
    for (const password of [
      'password',
      'PASSWORD',
      'p@ssw0rd',
      'drowssap',
      'iloveyou1234',
      'password1234',
      'Summer2024!',
    ]) {
      expect(await passwordProblem(password), password).toBe('ERROR_PASSWORD_TOO_COMMON');
    }
    for (const password of ['qwertyuiop12', 'aaaaaaaaaaaa', 'abcdefghijkl', '1234567890']) {
      expect(await passwordProblem(password), password).toBe('ERROR_PASSWORD_TOO_COMMON');
    }
    expect(await passwordStrength('password')).toMatchObject({ listed: true, score: 0, warning: 'topTen' });
  });

  it("refuses what is built from the user's own names and e-mail", async () => {
    const maria = passwordUserInputs({
      firstName: 'Maria',
      lastName: 'Santos',
      emailAddress: 'Maria.Santos@example.com',
    });
    expect(maria).toEqual(
      expect.arrayContaining(['maria', 'santos', 'maria.santos@example.com', 'maria.santos', 'example.com', 'example']),
    );
    expect(await passwordProblem('maria.santos2024')).toBeNull();
    expect(await passwordProblem('maria.santos2024', { userInputs: maria })).toBe('ERROR_PASSWORD_TOO_COMMON');
  });

  it('names the hint levels from the score, weak whatever the score while too short', async () => {
    const judge = async (password: string, admin = false) =>
      strengthLevel(password, await passwordStrength(password), admin);
    expect(await judge('password')).toBe('weak');
    expect(await judge('Summer2024!')).toBe('fair');
    expect(await judge('Xq7#vLm2p')).toBe('good');
    expect(await judge('Xq7#vLm2p', true)).toBe('weak');
    expect(await judge('violet harbour lantern')).toBe('strong');
  });
});
