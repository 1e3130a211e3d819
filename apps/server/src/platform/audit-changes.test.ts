import { AUDIT_REDACTED } from '@opsdeck/contract/audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app';
import { diffChanges, isSecretField, nameOf, redact, safeChange } from './audit-changes';

describe('what a record says changed', () => {
  it('lists the fields that differ, before and after, and nothing the caller may do', () => {
    expect(
      diffChanges(
        { id: 4, name: 'Auditors', authorities: ['VIEW_USER'], editable: true },
        { id: 4, name: 'Senior auditors', authorities: ['VIEW_USER', 'EDIT_USER'], editable: false },
      ),
    ).toEqual([
      { field: 'name', before: 'Auditors', after: 'Senior auditors' },
      { field: 'authorities', before: ['VIEW_USER'], after: ['VIEW_USER', 'EDIT_USER'] },
    ]);
  });

  it('compares the fields both states have on an update: an answer with fewer fields changes nothing by that', () => {
    expect(diffChanges({ id: 1, name: 'A', authorities: ['X'] }, { id: 1, name: 'B', usedBy: 3 })).toEqual([
      { field: 'name', before: 'A', after: 'B' },
    ]);
  });

  it('lists every field of a row created or deleted', () => {
    expect(diffChanges(undefined, { id: 1, name: 'New' })).toEqual([
      { field: 'id', before: null, after: 1 },
      { field: 'name', before: null, after: 'New' },
    ]);
    expect(diffChanges({ id: 1, name: 'Gone' }, undefined)).toEqual([
      { field: 'id', before: 1, after: null },
      { field: 'name', before: 'Gone', after: null },
    ]);
  });

  it('names a row by its name, its full name, its file or its key’s partial form', () => {
    expect(nameOf({ completeName: 'Ana Lima', name: 'x' })).toBe('Ana Lima');
    expect(nameOf({ partialKey: 'ABCD-EF12-…-9Z9Z', key: 'ABCD-EF12-3456-9Z9Z' })).toBe('ABCD-EF12-…-9Z9Z');
    expect(nameOf({ firstName: 'Ana', lastName: 'Lima' })).toBe('Ana Lima');
    expect(nameOf({ ok: true })).toBeNull();
  });
});

describe('secrets', () => {
  const SECRETS = {
    password: 'hunter2-hunter2',
    newPassword: 'Correct-Horse-1',
    confirmPassword: 'Correct-Horse-1',
    token: 'odt_abcdef',
    key: 'ABCD-EF12-3456-9Z9Z',
    resetPasswordKey: 'rk-123',
    secret: 'whsec_xyz',
    tokenHash: 'deadbeef',
    passwordHash: '$argon2id$…',
    text: '-----BEGIN LICENSE-----',
    bytes: 'registration file contents',
  };

  it('are redacted at any depth, whatever their value', () => {
    const redacted = redact({ name: 'Pat', credential: { username: 'pat@x.test', ...SECRETS }, list: [SECRETS] });
    const text = JSON.stringify(redacted);
    for (const value of Object.values(SECRETS)) expect(text).not.toContain(value);
    expect(redacted).toMatchObject({ name: 'Pat', credential: AUDIT_REDACTED });
    expect(JSON.stringify(redact({ list: [SECRETS] }))).not.toContain('hunter2');
  });

  it('are listed as changed with their values hidden', () => {
    expect(diffChanges({ password: null, name: 'a' }, { password: 'x', name: 'a' })).toEqual([
      { field: 'password', before: null, after: AUDIT_REDACTED },
    ]);
    expect(safeChange({ field: 'newPassword', before: 'a', after: 'b' })).toEqual({
      field: 'newPassword',
      before: AUDIT_REDACTED,
      after: AUDIT_REDACTED,
    });
  });

  it('keeps what only looks like a secret: a partial key, a type key, a role key', () => {
    for (const field of ['partialKey', 'licenseTypeKey', 'roleKey', 'name', 'emailAddress', 'macAddress'])
      expect(isSecretField(field), field).toBe(false);
  });
});

describe('every field of the API that could hold a secret', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  /** Fields whose names look secret but hold none, each with why. */
  const NOT_SECRETS: Record<string, string> = {
    partialKey: "a key's public partial form",
    licenseTypeKey: 'the name of a licence type',
    keys: 'a count of keys (allowedKeys, usedKeys are numbers)',
  };

  it('is redacted by the one rule', async () => {
    const document = await t.call<Record<string, unknown>>('/api/openapi.json');
    const names = new Set<string>();
    (function walk(node: unknown) {
      if (Array.isArray(node)) return node.forEach(walk);
      if (typeof node !== 'object' || node === null) return;
      const properties = (node as { properties?: Record<string, unknown> }).properties;
      if (properties) for (const name of Object.keys(properties)) names.add(name);
      for (const value of Object.values(node)) walk(value);
    })(document.body);
    expect(names.size).toBeGreaterThan(100);
    const looksSecret = [...names].filter((name) =>
      /password|token|secret|key$|^key|hash|signature|credential|file(Text|Content)/i.test(name),
    );
    expect(looksSecret).toEqual(expect.arrayContaining(['newPassword', 'confirmPassword', 'token', 'key']));
    const unredacted = looksSecret.filter((name) => !isSecretField(name) && !(name in NOT_SECRETS));
    expect(unredacted).toEqual([]);
  });
});
