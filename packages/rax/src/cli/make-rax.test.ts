import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRax } from '../read';

const dir = mkdtempSync(path.join(tmpdir(), 'opsdeck-rax-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const logo = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255]);
mkdirSync(path.join(dir, 'local'));
writeFileSync(path.join(dir, 'local', 'logo.png'), logo);

/** Runs the command as `npm run make-rax -- …` does: from the repository's root, with INIT_CWD where the user is. */
const makeRax = (...argv: string[]) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'make-rax.ts'), ...argv], {
      cwd: path.join(import.meta.dirname, '../../../..'),
      env: { ...process.env, INIT_CWD: dir },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });

const read = (file: string) => readRax(readFileSync(path.join(dir, file)));

// Concurrent: each run starts Node and tsx, about a second, and several seconds on a busy machine
// (15 at once took 3 to 5 s each under a load of 12): hence the longer timeout.
describe.concurrent('npm run make-rax', { timeout: 30_000 }, () => {
  it('writes a workflow file named after the workflow, in the folder it was run from', async () => {
    const result = await makeRax('--name', 'Invoice intake', '--step', 'read-excel-range');
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe(`Wrote ${path.join(dir, 'Invoice intake.rax')} (1 step)\n`);
    const { manifest } = await read('Invoice intake.rax');
    expect(manifest).toEqual({
      format: 'opsdeck-workflow',
      version: 1,
      name: 'Invoice intake',
      description: '',
      steps: [{ activity: 'read-excel-range', name: 'Read excel range', expectedSeconds: 30 }],
    });
  });

  it('takes named and timed steps, a description and resources, relative to that folder', async () => {
    const result = await makeRax(
      '--name',
      'Supplier mail',
      '--description',
      'Mails suppliers their open invoices.',
      '--step',
      'open-browser',
      '--step',
      'read-excel-range:Read the open invoices:45',
      '--step',
      'send-outlook-mail:Mail: one per supplier:12.5',
      '--step',
      'delay::5',
      '--resource',
      'images/logo.png=local/logo.png',
      '--out',
      'supplier.rax',
    );
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('(4 steps)');
    const contents = await read('supplier.rax');
    expect(contents.manifest.description).toBe('Mails suppliers their open invoices.');
    expect(contents.manifest.steps).toEqual([
      { activity: 'open-browser', name: 'Open browser', expectedSeconds: 30 },
      { activity: 'read-excel-range', name: 'Read the open invoices', expectedSeconds: 45 },
      { activity: 'send-outlook-mail', name: 'Mail: one per supplier', expectedSeconds: 12.5 },
      { activity: 'delay', name: 'Delay', expectedSeconds: 5 },
    ]);
    expect(contents.activityKeys).toEqual(['open-browser', 'read-excel-range', 'send-outlook-mail', 'delay']);
    expect(contents.entries).toEqual(['workflow.json', 'images/logo.png']);
    expect(contents.unpackedBytes).toBeGreaterThan(logo.length);
  });

  it('replaces characters a file name cannot hold', async () => {
    const result = await makeRax('--name', 'Q3: invoices / credit notes?', '--step', 'delay');
    expect(result.status, result.stderr).toBe(0);
    expect((await read('Q3- invoices - credit notes-.rax')).manifest.name).toBe('Q3: invoices / credit notes?');
  });

  it.each<[string, string[], string]>([
    ['no name', ['--step', 'delay', '--out', 'bad.rax'], '--name is required'],
    ['no step', ['--name', 'X', '--out', 'bad.rax'], 'at least one --step'],
    ['seconds that are not a number', ['--name', 'X', '--step', 'delay:Wait:soon', '--out', 'bad.rax'], 'seconds'],
    ['0 seconds', ['--name', 'X', '--step', 'delay:Wait:0', '--out', 'bad.rax'], 'seconds'],
    ['more than a day', ['--name', 'X', '--step', 'delay:Wait:86401', '--out', 'bad.rax'], 'seconds'],
    ['an empty activity key', ['--name', 'X', '--step', ':Wait:5', '--out', 'bad.rax'], 'no activity key'],
    ['an unknown option', ['--name', 'X', '--step', 'delay', '--colour', 'red', '--out', 'bad.rax'], "'--colour'"],
    ['a name too long', ['--name', 'x'.repeat(256), '--step', 'delay', '--out', 'bad.rax'], 'Not a valid workflow'],
    [
      'an unsafe resource path',
      ['--name', 'X', '--step', 'delay', '--resource', '../x=local/logo.png', '--out', 'bad.rax'],
      '".."',
    ],
    [
      'a resource without a file',
      ['--name', 'X', '--step', 'delay', '--resource', 'x.png', '--out', 'bad.rax'],
      '--resource',
    ],
    [
      'a missing resource file',
      ['--name', 'X', '--step', 'delay', '--resource', 'x=nowhere.png', '--out', 'bad.rax'],
      'cannot read',
    ],
    ['an output not ending in .rax', ['--name', 'X', '--step', 'delay', '--out', 'bad.zip'], '.rax'],
  ])('refuses %s with exit code 1, a message on stderr, and writes nothing', async (_, argv, message) => {
    const result = await makeRax(...argv);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe('');
    expect(existsSync(path.join(dir, 'bad.rax'))).toBe(false);
    expect(existsSync(path.join(dir, 'bad.zip'))).toBe(false);
  });
});
