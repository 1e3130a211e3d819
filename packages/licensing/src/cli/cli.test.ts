import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeLicenseFile } from '../license-file';
import { parseRegistrationFile } from '../registration';
import { samplePayload } from '../sample-payload';

const dir = mkdtempSync(path.join(tmpdir(), 'opsdeck-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a command of this folder as `npm run <name> -- …` does, from `dir`. */
const run = (name: string, ...argv: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, `${name}.ts`), ...argv], {
    cwd: path.join(import.meta.dirname, '../..'),
    env: { ...process.env, INIT_CWD: dir },
    encoding: 'utf8',
  });

describe('npm run registration-file', () => {
  it('writes a registration file the server accepts, in the folder it was run from', () => {
    const result = run(
      'registration-file',
      '--name',
      'Amara Okoye',
      '--email',
      'amara@northwind.test',
      '--mac',
      'aa-bb-cc-dd-ee-ff',
      '--out',
      'amara.dat',
    );
    expect(result.status, result.stderr).toBe(0);
    const bytes = readFileSync(path.join(dir, 'amara.dat'));
    expect(parseRegistrationFile({ name: 'amara.dat', bytes })).toMatchObject({ macAddresses: ['AA:BB:CC:DD:EE:FF'] });
  });

  it('refuses what the server would refuse, and writes nothing', () => {
    const result = run(
      'registration-file',
      '--name',
      'X',
      '--email',
      'not-an-email',
      '--mac',
      'AA:BB',
      '--out',
      'bad.dat',
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Not a valid registration');
    expect(() => readFileSync(path.join(dir, 'bad.dat'))).toThrow();
  });
});

describe('npm run verify-license', () => {
  const signer = generateKeyPairSync('ed25519');
  writeFileSync(path.join(dir, 'key.pem'), signer.publicKey.export({ type: 'spki', format: 'pem' }));
  const license = (expirationDate: number) =>
    writeLicenseFile(samplePayload({ license: { id: 1, type: 'pro', expirationDate } }), signer.privateKey);
  /** What the command prints under its first line, for the sample payload's licence 1. */
  const details = [
    '  key        ODK-7F3Q-K2M9-0000-1111-ABCD-EFGH-JKMN-PQRS',
    '  company    Northwind Logistics (licence 1, pro)',
    '  person     Amara Okoye <amara.okoye@northwind.test>',
    '  machines   AA:BB:CC:DD:EE:FF',
    '  premium    sap-logon, ocr-document',
  ];
  const linesOf = (stdout: string) => stdout.replace(/\n$/, '').split('\n');

  it('says a genuine file is genuine, until when, and for which machines', () => {
    const until = Date.now() + 86_400_000;
    writeFileSync(path.join(dir, 'good.lic'), license(until));
    const result = run('verify-license', 'good.lic', '--public-key', 'key.pem');
    expect(result.status, result.stderr).toBe(0);
    expect(linesOf(result.stdout)).toEqual([`GENUINE, valid until ${new Date(until).toISOString()}`, ...details]);
  });

  // An expired file is genuine (its signature holds) but never valid: the command says when it
  // expired and exits 1, and never prints the valid wording.
  for (const [age, ms] of [
    ['a month ago', 30 * 86_400_000],
    ['a moment ago', 1_000],
  ] as const) {
    it(`fails a file that expired ${age}, saying so`, () => {
      const expiredAt = Date.now() - ms;
      writeFileSync(path.join(dir, `old-${ms}.lic`), license(expiredAt));
      const expired = run('verify-license', `old-${ms}.lic`, '--public-key', 'key.pem');
      expect(expired.status, expired.stderr).toBe(1);
      expect(linesOf(expired.stdout)).toEqual([
        `GENUINE, BUT EXPIRED on ${new Date(expiredAt).toISOString()}`,
        ...details,
      ]);
      expect(expired.stdout).not.toContain('valid until');
    });
  }

  it('fails a changed file, saying it is not genuine and nothing of what it claims', () => {
    const text = license(Date.now() + 86_400_000);
    const lines = text.split('\n');
    const payload = Buffer.from(lines[1]!, 'base64');
    payload[10]! ^= 1;
    lines[1] = payload.toString('base64');
    writeFileSync(path.join(dir, 'changed.lic'), lines.join('\n'));
    const result = run('verify-license', 'changed.lic', '--public-key', 'key.pem');
    expect(result.status).toBe(1);
    expect(linesOf(result.stdout)).toEqual([expect.stringMatching(/^NOT GENUINE: \S/)]);
    expect(result.stdout).not.toContain('GENUINE,');
  });

  it('says which address it tried when no server answers there, and how to name another', () => {
    writeFileSync(path.join(dir, 'any.lic'), license(Date.now() + 86_400_000));
    // Port 9 (discard): nothing listens there on a test machine, so the connection is refused.
    const result = run('verify-license', 'any.lic', '--server', 'http://127.0.0.1:9');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('No Opsdeck server answered at http://127.0.0.1:9/api/license/public-key');
    expect(result.stderr).toContain('--server URL');
    expect(result.stderr).toContain('--public-key KEY.pem');
  });
});
