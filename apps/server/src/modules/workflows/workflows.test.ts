import type { DeleteCount, DirectoryItem, DirectoryPage, Workflow, WorkflowDetail } from '@opsdeck/contract/workflows';
import { readRax } from '@opsdeck/rax/read';
import { manifestText, rawZip } from '@opsdeck/rax/test-zips';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Endpoint, expectHiddenFromOtherTenant, expectRefusedWithoutAuthority } from '../../../test/access-table';
import { ADMIN, startTestApp, type TestApp } from '../../../test/app';
import { failStatements } from '../../../test/database-faults';
import { createCompany, type TestCompany } from '../../../test/factories';
import { tokenFor, tokenWithEveryAuthority } from '../../../test/sign-in';
import { unzip } from '../../../test/unzip';
import { raxFile, uploadWorkflow, workflowForm } from '../../../test/workflow-files';
import { blobs, workflows, workflowVersions } from '../../db/schema';

let t: TestApp;
let admin: string;
let company: TestCompany;
let other: TestCompany;
let user: string;
let otherUser: string;

/** Upload limit for this app: 1 MB, so that 'over the limit' stays quick. */
const MAX_UPLOAD_MB = 1;

beforeAll(async () => {
  t = await startTestApp({ MAX_UPLOAD_MB: String(MAX_UPLOAD_MB) });
  admin = await t.login(ADMIN.email, ADMIN.password);
  company = await createCompany(t.database.db, { name: 'Acme Robotics' });
  other = await createCompany(t.database.db, { name: 'Globex' });
  user = await tokenWithEveryAuthority(t, company);
  otherUser = await tokenWithEveryAuthority(t, other);
});

afterAll(async () => {
  await t.close();
});

const rax = raxFile;
const form = workflowForm;

const upload = (
  directory: string,
  fileName: string,
  bytes?: Uint8Array,
  options: { token?: string; name?: string; tenantId?: string } = {},
) => uploadWorkflow(t, options.token ?? user, directory, fileName, bytes, options);

async function uploaded(directory: string, fileName: string, bytes?: Uint8Array, token = user) {
  const result = await upload(directory, fileName, bytes, { token });
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  return result.body;
}

const mkdir = (parent: string, name: string, token = user) =>
  t.call<DirectoryItem>('/api/directory/create', { token, json: { name, parent } });

async function madeDirectory(parent: string, name: string, token = user) {
  const result = await mkdir(parent, name, token);
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  return result.body;
}

const view = (parent: string, extra: Record<string, unknown> = {}, token = user) =>
  t.call<DirectoryPage>('/api/directory/view', { token, json: { parent, ...extra } });

const names = (page: DirectoryPage) =>
  page.items.map((item) => `${item.type === 'directory' ? 'd' : 'w'}:${item.fileName}`);

describe('the tree', () => {
  it("gives each company its own root 'Workflows' and the provider a folder per company", async () => {
    expect((await t.call('/api/directory/root-directory', { token: user })).body).toEqual({ name: 'Workflows' });
    const mine = await view('Workflows');
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ path: 'Workflows', tenantId: company.tenantId, total: 0 });

    const root = await view('Workflows', { size: 100 }, admin);
    expect(root.body.tenantId).toBeNull();
    const folder = root.body.items.find((item) => item.name === 'Acme Robotics');
    expect(folder).toMatchObject({ type: 'directory', protected: true });
    const inside = await view('Workflows/Acme Robotics', {}, admin);
    expect(inside.body).toMatchObject({ path: 'Workflows/Acme Robotics', tenantId: company.tenantId });
  });

  it('nests directories to any depth, and the provider acts through the company folder', async () => {
    let parent = 'Workflows';
    for (const level of ['Deep', 'er', 'and', 'deeper', 'still', 'going', 'down', 'here']) {
      await madeDirectory(parent, level);
      parent = `${parent}/${level}`;
    }
    const file = await uploaded(parent, 'Bottom.rax');
    expect(file.directory).toBe(parent);
    const seen = await view(`Workflows/Acme Robotics/${parent.slice('Workflows/'.length)}`, {}, admin);
    expect(names(seen.body)).toEqual(['w:Bottom.rax']);
    // The provider writes in a company's tree through its folder, and nowhere in its own root.
    expect((await mkdir('Workflows/Acme Robotics/Deep', 'By admin', admin)).status).toBe(201);
    expect((await mkdir('Workflows', 'Loose', admin)).body).toMatchObject({ key: 'ERROR_COMPANY_REQUIRED' });
  });

  it("shows each company folder of the provider's root with when it was made and changed, never 1970", async () => {
    const root = (await view('Workflows', {}, admin)).body;
    const folders = root.items.filter((item) => ['Acme Robotics', 'Globex'].includes(item.name));
    expect(folders).toHaveLength(2);
    const longAgo = Date.UTC(2026, 0, 1);
    for (const folder of folders) {
      expect(folder.createDate, folder.name).toBeGreaterThan(longAgo);
      expect(folder.updateDate).toBeGreaterThanOrEqual(folder.createDate);
      expect(folder.updateDate).toBeLessThanOrEqual(Date.now());
    }
  });

  it('checks directory names: trimmed, required, at most 255, no forbidden characters, unique case-insensitively', async () => {
    await madeDirectory('Workflows', 'Finance');
    expect((await mkdir('Workflows', '  ')).body).toMatchObject({ fields: { name: 'ERROR_DIRECTORY_NAME_REQUIRED' } });
    expect((await mkdir('Workflows', 'x'.repeat(256))).body).toMatchObject({
      fields: { name: 'ERROR_DIRECTORY_NAME_TOO_LONG' },
    });
    expect((await mkdir('Workflows', 'a/b')).body).toMatchObject({ fields: { name: 'ERROR_DIRECTORY_NAME_INVALID' } });
    const clash = await mkdir('Workflows', ' FINANCE ');
    expect(clash.status).toBe(409);
    expect(clash.body).toMatchObject({ fields: { name: 'ERROR_DIRECTORY_NAME_EXIST' } });
    expect((await mkdir('Workflows/Nowhere', 'x')).status).toBe(404);
    // The same name in another company's tree is fine.
    expect((await mkdir('Workflows', 'Finance', otherUser)).status).toBe(201);
  });

  it('renames a directory; the unchanged name changes nothing; a company folder is never renamed', async () => {
    await madeDirectory('Workflows', 'Old name');
    // Read once, so that where the path leads is kept (view.ts) before the rename.
    expect((await view('Workflows/Old name')).status).toBe(200);
    const unchanged = await t.call('/api/directory/update', {
      token: user,
      json: { current: 'Old name', new: 'Old name', parent: 'Workflows' },
    });
    expect(unchanged.body).toEqual({ ok: true });
    await madeDirectory('Workflows', 'Taken');
    const clash = await t.call('/api/directory/update', {
      token: user,
      json: { current: 'Old name', new: 'taken', parent: 'Workflows' },
    });
    expect(clash.body).toMatchObject({
      key: 'ERROR_DIRECTORY_NAME_EXIST',
      fields: { new: 'ERROR_DIRECTORY_NAME_EXIST' },
    });
    const renamed = await t.call('/api/directory/update', {
      token: user,
      json: { current: 'Old name', new: 'New name', parent: 'Workflows' },
    });
    expect(renamed.body).toEqual({ ok: true });
    expect(names((await view('Workflows', { size: 100 })).body)).toContain('d:New name');
    // The kept place of the old path went with the rename's event.
    expect((await view('Workflows/Old name')).body).toMatchObject({ key: 'ERROR_DIRECTORY_NOT_EXIST' });
    expect((await view('Workflows/New name')).status).toBe(200);
    const company = await t.call('/api/directory/update', {
      token: admin,
      json: { current: 'Acme Robotics', new: 'Acme', parent: 'Workflows' },
    });
    expect(company.status).toBe(403);
    expect(company.body).toMatchObject({ key: 'ERROR_DIRECTORY_PROTECTED' });
  });
});

describe('workflows', () => {
  it('uploads a .rax file, keeps every version, and downloads each byte for byte', async () => {
    await madeDirectory('Workflows', 'Versions');
    const first = await rax('Versioned', ['open-browser']);
    const created = await uploaded('Workflows/Versions', 'Versioned.rax', first);
    expect(created).toMatchObject({
      name: 'Versioned',
      file: 'Versioned.rax',
      directory: 'Workflows/Versions',
      premium: false,
    });
    expect(created.creator.completeName).not.toBe('');

    const second = await rax('Versioned', ['open-browser', 'sap-logon']);
    const updated = await t.call<Workflow>(`/api/workflow/${created.id}`, {
      method: 'PUT',
      token: user,
      multipart: form(
        { name: 'Versioned', description: 'Second', directory: 'Workflows/Versions' },
        { bytes: second, name: 'Versioned v2.rax' },
      ),
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ file: 'Versioned v2.rax', description: 'Second' });
    expect(updated.body.updateDate).toBeGreaterThanOrEqual(created.updateDate);

    const detail = (await t.call<WorkflowDetail>(`/api/workflow/${created.id}`, { token: user })).body;
    expect(detail.versions.map((version) => [version.number, version.fileName, version.size])).toEqual([
      [2, 'Versioned v2.rax', second.byteLength],
      [1, 'Versioned.rax', first.byteLength],
    ]);
    expect(detail.activities.map((activity) => activity.key)).toEqual(['open-browser', 'sap-logon']);

    const current = await t.call(`/api/workflow/download/${created.id}`, { token: user });
    expect(current.headers.get('content-disposition')).toBe('attachment; filename="Versioned v2.rax"');
    expect(Buffer.from(current.bytes).equals(Buffer.from(second))).toBe(true);
    const earlier = await t.call(`/api/workflow/download/${created.id}?version=${detail.versions[1]!.id}`, {
      token: user,
    });
    expect(Buffer.from(earlier.bytes).equals(Buffer.from(first))).toBe(true);
    expect((await readRax(earlier.bytes)).activityKeys).toEqual(['open-browser']);
  });

  it('names the download after the workflow with rename=true, non-ASCII names by RFC 6266', async () => {
    const created = await uploaded('Workflows', 'plain.rax', undefined);
    await t.call(`/api/workflow/${created.id}`, {
      method: 'PUT',
      token: user,
      multipart: form({ name: 'Fakturí', description: '', directory: 'Workflows' }),
    });
    const download = await t.call(`/api/workflow/download/${created.id}?rename=true`, { token: user });
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="Faktur_.rax"; filename*=UTF-8''Faktur%C3%AD.rax`,
    );
  });

  it('refuses a file not named .rax (ERROR_WORKFLOW_FILE_UNSUPPORTED) and one that is no .rax archive (ERROR_WORKFLOW_FILE_INVALID), and stores nothing', async () => {
    const before = await t.database.db.select({ n: count() }).from(workflows);
    const wrongName = await upload('Workflows', 'not-a-rax.zip', await rax());
    expect([wrongName.status, wrongName.body]).toEqual([
      400,
      expect.objectContaining({ fields: { file: 'ERROR_WORKFLOW_FILE_UNSUPPORTED' } }),
    ]);
    const cases: [string, Uint8Array][] = [
      ['garbage.rax', new TextEncoder().encode('this is not a zip')],
      ['random.rax', crypto.getRandomValues(new Uint8Array(4096))],
      ['no-manifest.rax', rawZip([{ name: 'readme.txt', data: 'hello' }])],
      ['bad-json.rax', rawZip([{ name: 'workflow.json', data: '{not json' }])],
      ['no-steps.rax', rawZip([{ name: 'workflow.json', data: manifestText({ steps: [] }) }])],
      [
        'traversal.rax',
        rawZip([
          { name: 'workflow.json', data: manifestText() },
          { name: '../evil.txt', data: 'x' },
        ]),
      ],
      [
        'absolute.rax',
        rawZip([
          { name: 'workflow.json', data: manifestText() },
          { name: '/etc/passwd', data: 'x' },
        ]),
      ],
      [
        'bomb.rax',
        rawZip([
          { name: 'workflow.json', data: manifestText() },
          { name: 'zeros.bin', data: new Uint8Array(60 * 1024 * 1024), method: 'deflate' },
        ]),
      ],
    ];
    for (const [name, bytes] of cases) {
      const result = await upload('Workflows', name, bytes);
      expect([name, result.status, result.body]).toEqual([
        name,
        400,
        expect.objectContaining({
          key: 'ERROR_WORKFLOW_FILE_INVALID',
          fields: { file: 'ERROR_WORKFLOW_FILE_INVALID' },
        }),
      ]);
    }
    const after = await t.database.db.select({ n: count() }).from(workflows);
    expect(after).toEqual(before);
  });

  it('answers 413 ERROR_WORKFLOW_FILE_TOO_LARGE over MAX_UPLOAD_MB, and stores nothing', async () => {
    const blobsBefore = await t.database.db.select({ n: count() }).from(blobs);
    const big = await rax('Big', ['open-browser'], {
      'noise.bin': crypto.getRandomValues(new Uint8Array(65536)).map((_, i) => (i * 7919) % 251),
    });
    const padded = new Uint8Array(MAX_UPLOAD_MB * 1024 * 1024 + 10);
    padded.set(big);
    const result = await upload('Workflows', 'Big.rax', padded);
    expect(result.status).toBe(413);
    expect(result.body).toMatchObject({
      key: 'ERROR_WORKFLOW_FILE_TOO_LARGE',
      fields: { file: 'ERROR_WORKFLOW_FILE_TOO_LARGE' },
    });
    expect(await t.database.db.select({ n: count() }).from(blobs)).toEqual(blobsBefore);
  });

  it('checks the form: file required, name rules, description length, a known directory', async () => {
    const noFile = await t.call('/api/workflow/create', {
      token: user,
      multipart: form({ name: 'x', description: '', directory: 'Workflows' }),
    });
    expect(noFile.body).toMatchObject({ fields: { file: 'ERROR_WORKFLOW_FILE_REQUIRED' } });
    expect((await upload('Workflows', 'a.rax', undefined, { name: ' ' })).body).toMatchObject({
      fields: { name: 'ERROR_WORKFLOW_NAME_REQUIRED' },
    });
    expect((await upload('Workflows', 'a.rax', undefined, { name: 'a|b' })).body).toMatchObject({
      fields: { name: 'ERROR_WORKFLOW_NAME_INVALID' },
    });
    expect((await upload('Workflows', 'a.rax', undefined, { name: 'n'.repeat(256) })).body).toMatchObject({
      fields: { name: 'ERROR_WORKFLOW_NAME_TOO_LONG' },
    });
    const long = await t.call('/api/workflow/create', {
      token: user,
      multipart: form(
        { name: 'x', description: 'd'.repeat(1025), directory: 'Workflows' },
        { bytes: await rax(), name: 'x.rax' },
      ),
    });
    expect(long.body).toMatchObject({ fields: { description: 'ERROR_WORKFLOW_DESCRIPTION_TOO_LONG' } });
    expect((await upload('Workflows/Missing', 'a.rax')).body).toMatchObject({ key: 'ERROR_DIRECTORY_NOT_EXIST' });
  });

  it('lets one of two concurrent uploads of the same name win; the other gets ERROR_WORKFLOW_FILE_EXIST', async () => {
    await madeDirectory('Workflows', 'Race');
    const results = await Promise.all([1, 2, 3].map(() => upload('Workflows/Race', 'Same.rax')));
    expect(results.map((result) => result.status).sort()).toEqual([201, 409, 409]);
    expect(results.find((result) => result.status === 409)!.body).toMatchObject({
      fields: { file: 'ERROR_WORKFLOW_FILE_EXIST' },
    });
    // A directory's name and a workflow's file name share one namespace.
    expect((await mkdir('Workflows/Race', 'same.RAX')).status).toBe(409);
  });

  it('marks a workflow that uses a premium activity', async () => {
    const created = await t.call<{ id: number; key: string }>('/api/activity', {
      token: admin,
      json: { name: 'Premium OCR', key: 'premium-ocr-test', category: 'AI' },
    });
    expect(created.status).toBe(201);
    const unlocked = await t.call('/api/license-type/add-activity', {
      token: admin,
      json: { licenseType: 'pro', activities: [{ id: created.body.id }] },
    });
    expect(unlocked.status).toBe(200);
    const flow = await uploaded(
      'Workflows',
      'Uses premium.rax',
      await rax('Uses premium', ['open-browser', 'premium-ocr-test']),
    );
    expect(flow.premium).toBe(true);
    const listed = (await view('Workflows', { search: 'Uses premium' })).body.items;
    expect(listed).toEqual([expect.objectContaining({ fileName: 'Uses premium.rax', premium: true })]);
    // The search's page is kept, its rows are not: the activity taken from 'pro' shows at once.
    const locked = await t.call('/api/license-type/remove-activity', {
      token: admin,
      json: { licenseType: 'pro', activities: [{ id: created.body.id }] },
    });
    expect(locked.status).toBe(200);
    const relisted = (await view('Workflows', { search: 'Uses premium' })).body.items;
    expect(relisted).toEqual([expect.objectContaining({ fileName: 'Uses premium.rax', premium: false })]);
  });

  it('archives a workflow given its directory, and frees its file name', async () => {
    await madeDirectory('Workflows', 'Archive');
    const flow = await uploaded('Workflows/Archive', 'Gone.rax');
    const wrongDirectory = await t.call(`/api/workflow/delete/${flow.id}`, {
      token: user,
      json: { directory: 'Workflows' },
    });
    expect(wrongDirectory.body).toMatchObject({ key: 'ERROR_WORKFLOW_NOT_EXIST' });
    const archived = await t.call(`/api/workflow/delete/${flow.id}`, {
      token: user,
      form: { directory: 'Workflows/Archive' },
    });
    expect(archived.body).toEqual({ ok: true });
    expect((await t.call(`/api/workflow/${flow.id}`, { token: user })).status).toBe(404);
    expect((await view('Workflows/Archive')).body.total).toBe(0);
    await uploaded('Workflows/Archive', 'Gone.rax');
  });

  it('answers 503, not 404, when the database fails while the directory is looked up, and archives nothing', async () => {
    await madeDirectory('Workflows', 'Outage');
    const flow = await uploaded('Workflows/Outage', 'Stays.rax');
    // The tree's root is read first on the way to 'Workflows/Outage' (places.ts, `resolve`).
    const restore = failStatements(/from "directories" where .*"parent_id" is null/);
    let during: Awaited<ReturnType<typeof t.call>>;
    try {
      during = await t.call(`/api/workflow/delete/${flow.id}`, {
        token: user,
        form: { directory: 'Workflows/Outage' },
      });
    } finally {
      restore();
    }
    expect(during.status).toBe(503);
    expect(during.body).toMatchObject({ key: 'ERROR_SERVICE_UNAVAILABLE' });
    expect(during.headers.get('retry-after')).not.toBeNull();
    expect((await t.call(`/api/workflow/${flow.id}`, { token: user })).status).toBe(200);
  });
});

describe('multi-file operations', () => {
  it('renames several items after one name, made unique, and renaming to the unchanged names is harmless', async () => {
    await madeDirectory('Workflows', 'Multi');
    await madeDirectory('Workflows/Multi', 'Folder');
    await uploaded('Workflows/Multi', 'One.rax');
    await uploaded('Workflows/Multi', 'Two.rax');
    await uploaded('Workflows/Multi', 'Report.rax');
    const result = await t.call<{ renamed: { from: string; to: string }[] }>('/api/directory/update/multiple', {
      token: user,
      json: { files: ['Folder', 'One.rax', 'Two.rax'], newFileName: 'Report', directory: 'Workflows/Multi' },
    });
    expect(result.status).toBe(200);
    // 'Report.rax' is taken by an item not being renamed; 'Report' (a folder) is free.
    expect(result.body.renamed).toEqual([
      { from: 'Folder', to: 'Report' },
      { from: 'One.rax', to: 'Report (2).rax' },
      { from: 'Two.rax', to: 'Report (3).rax' },
    ]);
    const listed = (await view('Workflows/Multi')).body.items;
    expect(listed.map((item) => [item.type, item.name, item.fileName])).toEqual([
      ['directory', 'Report', 'Report'],
      ['workflow', 'Report', 'Report.rax'],
      ['workflow', 'Report (2)', 'Report (2).rax'],
      ['workflow', 'Report (3)', 'Report (3).rax'],
    ]);
    const again = await t.call<{ renamed: { from: string; to: string }[] }>('/api/directory/update/multiple', {
      token: user,
      json: { files: ['Report (2).rax', 'Report (3).rax'], newFileName: 'Report (2)', directory: 'Workflows/Multi' },
    });
    expect(again.body.renamed.map((entry) => entry.to)).toEqual(['Report (2).rax', 'Report (2) (2).rax']);
  });

  it('deletes a directory after saying how many workflows go: removed, its workflows archived, in one go', async () => {
    await madeDirectory('Workflows', 'Doomed');
    await madeDirectory('Workflows/Doomed', 'Inner');
    await uploaded('Workflows/Doomed', 'A.rax');
    await uploaded('Workflows/Doomed/Inner', 'B.rax');
    await uploaded('Workflows/Doomed/Inner', 'C.rax');
    const preview = await t.call<DeleteCount>('/api/directory/delete/preview', {
      token: user,
      json: { files: ['Doomed'], directory: 'Workflows' },
    });
    expect(preview.body).toEqual({ directories: 2, workflows: 3 });
    const deleted = await t.call<DeleteCount>('/api/directory/delete', {
      token: user,
      json: { name: 'Doomed', parent: 'Workflows' },
    });
    expect(deleted.body).toEqual({ directories: 2, workflows: 3 });
    expect((await view('Workflows/Doomed')).status).toBe(404);
    const archived = await t.database.db.select({ n: count() }).from(workflows).where(eq(workflows.archived, true));
    expect(archived[0]!.n).toBeGreaterThanOrEqual(3);
    // The provider's company folders are never deleted.
    const protectedFolder = await t.call('/api/directory/delete', {
      token: admin,
      json: { name: 'Acme Robotics', parent: 'Workflows' },
    });
    expect(protectedFolder.status).toBe(403);
  });

  it('deletes several items at once', async () => {
    await madeDirectory('Workflows', 'Several');
    await madeDirectory('Workflows/Several', 'Sub');
    await uploaded('Workflows/Several/Sub', 'Deep.rax');
    await uploaded('Workflows/Several', 'Top.rax');
    await uploaded('Workflows/Several', 'Kept.rax');
    const deleted = await t.call<DeleteCount>('/api/directory/delete/multiple', {
      token: user,
      json: { files: ['Sub', 'Top.rax'], directory: 'Workflows/Several' },
    });
    expect(deleted.body).toEqual({ directories: 1, workflows: 2 });
    expect(names((await view('Workflows/Several')).body)).toEqual(['w:Kept.rax']);
  });

  it('downloads a directory and several items as zips that keep the folder structure, byte for byte', async () => {
    await madeDirectory('Workflows', 'Zipped');
    await madeDirectory('Workflows/Zipped', 'Inner');
    await madeDirectory('Workflows/Zipped', 'Empty');
    const a = await rax('Alpha', ['open-browser']);
    const b = await rax('Beta', ['read-excel-range']);
    await uploaded('Workflows/Zipped', 'Alpha.rax', a);
    await uploaded('Workflows/Zipped/Inner', 'Beta.rax', b);

    const whole = await t.call('/api/directory/download?name=Zipped&parent=Workflows', { token: user });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('application/zip');
    expect(whole.headers.get('content-disposition')).toBe('attachment; filename="Zipped.zip"');
    const entries = await unzip(whole.bytes);
    expect([...entries.keys()].sort()).toEqual([
      'Zipped/',
      'Zipped/Alpha.rax',
      'Zipped/Empty/',
      'Zipped/Inner/',
      'Zipped/Inner/Beta.rax',
    ]);
    expect(Buffer.from(entries.get('Zipped/Alpha.rax')!).equals(Buffer.from(a))).toBe(true);
    expect(Buffer.from(entries.get('Zipped/Inner/Beta.rax')!).equals(Buffer.from(b))).toBe(true);

    const some = await t.call(
      '/api/directory/download/multiple?directory=Workflows/Zipped&fileNames=Inner&fileNames=Alpha.rax',
      {
        token: user,
      },
    );
    expect(some.headers.get('content-disposition')).toBe('attachment; filename="Zipped.zip"');
    expect([...(await unzip(some.bytes)).keys()].sort()).toEqual(['Alpha.rax', 'Inner/', 'Inner/Beta.rax']);
    const missing = await t.call('/api/directory/download/multiple?directory=Workflows/Zipped&fileNames=Nope.rax', {
      token: user,
    });
    expect(missing.status).toBe(404);
  });
});

describe('listing', () => {
  it('pages directories first, then workflows, across the boundary, in the order asked', async () => {
    await madeDirectory('Workflows', 'Paged');
    for (const name of ['B dir', 'A dir']) await madeDirectory('Workflows/Paged', name);
    for (const name of ['c.rax', 'a.rax', 'b.rax']) await uploaded('Workflows/Paged', name);
    const pageOf = async (page: number, sort?: string) =>
      names((await view('Workflows/Paged', { page, size: 2, ...(sort ? { sort } : {}) })).body);
    expect([await pageOf(1), await pageOf(2), await pageOf(3)]).toEqual([
      ['d:A dir', 'd:B dir'],
      ['w:a.rax', 'w:b.rax'],
      ['w:c.rax'],
    ]);
    expect([await pageOf(1, 'name,desc'), await pageOf(2, 'name,desc')]).toEqual([
      ['d:B dir', 'd:A dir'],
      ['w:c.rax', 'w:b.rax'],
    ]);
    const small = (await view('Workflows/Paged', { page: 1, size: 3 })).body;
    expect(names(small)).toEqual(['d:A dir', 'd:B dir', 'w:a.rax']);
    expect(small.total).toBe(5);
  });
});

describe('search', () => {
  it('finds workflows by name or description below the current directory, with their paths, paged and sorted', async () => {
    await madeDirectory('Workflows', 'Search');
    await madeDirectory('Workflows/Search', 'Below');
    await uploaded('Workflows/Search', 'Needle one.rax');
    await uploaded('Workflows/Search/Below', 'needle two.rax');
    await uploaded('Workflows/Search/Below', 'Haystack.rax');
    await uploaded('Workflows', 'Needle outside.rax');
    const hits = (await view('Workflows/Search', { search: 'NEEDLE', sort: 'name,desc' })).body;
    expect(hits.items.map((item) => [item.name, item.parent])).toEqual([
      ['needle two', 'Workflows/Search/Below'],
      ['Needle one', 'Workflows/Search'],
    ]);
    const paged = (await view('Workflows/Search', { search: 'needle', size: 1, page: 2, sort: 'name' })).body;
    expect(paged).toMatchObject({ total: 2, page: 2, size: 1 });
    expect(paged.items.map((item) => item.name)).toEqual(['needle two']);
    // Descriptions match too, and the date range compares createDate.
    expect((await view('Workflows/Search', { search: 'a workflow' })).body.total).toBe(3);
    expect((await view('Workflows/Search', { search: 'needle', to: 0 })).body.total).toBe(0);
    // The provider's view spells the company folder into each hit's path.
    const asAdmin = (await view('Workflows/Acme Robotics/Search', { search: 'needle two' }, admin)).body;
    expect(asAdmin.items.map((item) => item.parent)).toEqual(['Workflows/Acme Robotics/Search/Below']);

    // A kept page (view.ts) follows a rename into the search.
    const renamed = await t.call('/api/directory/update/multiple', {
      token: user,
      json: { files: ['Haystack.rax'], newFileName: 'Needle zero', directory: 'Workflows/Search/Below' },
    });
    expect(renamed.status).toBe(200);
    const after = (await view('Workflows/Search', { search: 'NEEDLE', sort: 'name,desc' })).body;
    expect(after.items.map((item) => item.name)).toEqual(['Needle zero', 'needle two', 'Needle one']);
  });
});

describe('the authority and tenant walls', () => {
  let flowId: number;
  beforeAll(async () => {
    await madeDirectory('Workflows', 'Walled');
    flowId = (await uploaded('Workflows/Walled', 'Secret.rax')).id;
  });

  const endpoints = (): Endpoint[] => [
    {
      method: 'POST',
      path: '/api/directory/view',
      json: { parent: 'Workflows/Walled' },
      authorities: ['VIEW_WORKFLOW'],
    },
    {
      method: 'POST',
      path: '/api/workflow/view',
      json: { parent: 'Workflows/Walled' },
      authorities: ['VIEW_WORKFLOW'],
    },
    { method: 'GET', path: `/api/workflow/${flowId}`, authorities: ['VIEW_WORKFLOW'] },
    {
      method: 'PUT',
      path: `/api/workflow/${flowId}`,
      json: { name: 'x', description: '', directory: 'Workflows/Walled' },
      authorities: ['EDIT_WORKFLOW'],
    },
    {
      method: 'POST',
      path: `/api/workflow/delete/${flowId}`,
      json: { directory: 'Workflows/Walled' },
      authorities: ['DELETE_WORKFLOW'],
    },
    { method: 'GET', path: `/api/workflow/download/${flowId}`, authorities: ['DOWNLOAD_WORKFLOW'] },
    {
      method: 'POST',
      path: '/api/directory/create',
      json: { name: 'x', parent: 'Workflows/Walled' },
      authorities: ['CREATE_WORKFLOW'],
    },
    {
      method: 'POST',
      path: '/api/directory/update',
      json: { current: 'Walled', new: 'Open', parent: 'Workflows' },
      authorities: ['EDIT_WORKFLOW'],
    },
    {
      method: 'POST',
      path: '/api/directory/update/multiple',
      json: { files: ['Secret.rax'], newFileName: 'Mine', directory: 'Workflows/Walled' },
      authorities: ['EDIT_WORKFLOW'],
    },
    {
      method: 'POST',
      path: '/api/directory/delete',
      json: { name: 'Walled', parent: 'Workflows' },
      authorities: ['DELETE_WORKFLOW'],
    },
    {
      method: 'POST',
      path: '/api/directory/delete/multiple',
      json: { files: ['Secret.rax'], directory: 'Workflows/Walled' },
      authorities: ['DELETE_WORKFLOW'],
    },
    {
      method: 'POST',
      path: '/api/directory/delete/preview',
      json: { files: ['Secret.rax'], directory: 'Workflows/Walled' },
      authorities: ['DELETE_WORKFLOW'],
    },
    { method: 'GET', path: '/api/directory/download?name=Walled&parent=Workflows', authorities: ['DOWNLOAD_WORKFLOW'] },
    {
      method: 'GET',
      path: '/api/directory/download/multiple?directory=Workflows/Walled&fileNames=Secret.rax',
      authorities: ['DOWNLOAD_WORKFLOW'],
    },
  ];

  it('refuses a user without the authority', async () => {
    await expectRefusedWithoutAuthority(t, company, endpoints());
  });

  it("never lets another company list, download, rename or delete the first's items, whatever path or id it sends", async () => {
    await expectHiddenFromOtherTenant(t, otherUser, company.tenantId, endpoints());
    // Spelling the other company's folder as the provider does leads nowhere either.
    const spelt = await view('Workflows/Acme Robotics/Walled', {}, otherUser);
    expect(spelt.status).toBe(404);
    const upload = await t.call('/api/workflow/create', {
      token: otherUser,
      multipart: form(
        { name: 'x', description: '', directory: 'Workflows/Acme Robotics' },
        { bytes: await rax(), name: 'x.rax' },
      ),
    });
    expect(upload.status).toBe(404);
    // Everything is still there.
    expect(names((await view('Workflows/Walled')).body)).toEqual(['w:Secret.rax']);
  });

  it("refuses the provider whose tenant header names another company than the path's", async () => {
    const result = await view('Workflows/Acme Robotics', {}, admin);
    expect(result.status).toBe(200);
    const mismatched = await t.call('/api/directory/view', {
      token: admin,
      tenantId: other.tenantId,
      json: { parent: 'Workflows/Acme Robotics' },
    });
    expect(mismatched.status).toBe(403);
  });

  it('a company user without the view authority sees nothing', async () => {
    const token = await tokenFor(t, company, ['ACCESS_WORKFLOW_TAB']);
    expect((await view('Workflows', {}, token)).status).toBe(403);
  });
});

describe('deleting the company', () => {
  it('takes its tree, its workflows, their versions and the files no one else holds', async () => {
    const doomed = await createCompany(t.database.db, { name: 'Short Lived' });
    const token = await tokenWithEveryAuthority(t, doomed);
    const unique = await rax('Only here', ['open-browser'], { 'unique.txt': `only ${Date.now()}` });
    await uploaded('Workflows', 'Only.rax', unique, token);
    const removed = await t.call(`/api/company/${doomed.id}`, { method: 'DELETE', token: admin });
    expect(removed.status).toBe(200);
    const versions = await t.database.db
      .select({ n: count() })
      .from(workflowVersions)
      .where(eq(workflowVersions.tenantId, doomed.tenantId));
    expect(versions[0]!.n).toBe(0);
    const { sha256Of } = await import('./blob-store');
    const blob = await t.database.db
      .select({ n: count() })
      .from(blobs)
      .where(eq(blobs.sha256, sha256Of(unique)));
    expect(blob[0]!.n).toBe(0);
  });
});
