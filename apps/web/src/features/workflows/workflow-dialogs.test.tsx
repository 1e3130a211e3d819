import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it, vi } from 'vitest';
import { signedIn } from '../../test/builders';
import { errorBody, type RecordedCall } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import {
  ALL_WORKFLOW_AUTHORITIES,
  buildWorkflowDetail,
  companyTree,
  FINANCE,
  viewCalls,
  workflowFile,
} from './test-data';

type Handlers = Parameters<typeof signedIn>[1];
type User = ReturnType<typeof userEvent.setup>;

async function openFinance() {
  const view = renderApp('/dashboard/workflow/list?path=Workflows/Finance');
  const table = await screen.findByRole('table', { name: 'Workflows and directories' }, { timeout: 15_000 });
  await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(5));
  return { ...view, table };
}

const rowOf = (table: HTMLElement, name: RegExp) => within(table).getByRole('row', { name });

async function act(table: HTMLElement, row: RegExp, action: string) {
  fireEvent.contextMenu(rowOf(table, row));
  fireEvent.click(await screen.findByRole('menuitem', { name: action }));
}

const posted = (calls: RecordedCall[], url: string) => calls.filter((call) => call.url === url);
const formOf = (call: RecordedCall | undefined) => {
  if (!(call?.body instanceof FormData)) throw new Error('Expected a multipart call');
  return Object.fromEntries(call.body.entries());
};

/** Downloads saved through a link, by name and the URL asked for. */
function captureDownloads() {
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:console/1');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  const saved: string[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
  return saved;
}

/** The error text the file field's control is described by. */
function fileErrorOf(dialog: HTMLElement) {
  const control = within(dialog).getByRole('button', { name: /Workflow file/ });
  if (control.getAttribute('aria-invalid') !== 'true') return null;
  const ids = control.getAttribute('aria-describedby')?.split(' ') ?? [];
  const error = ids.find((id) => id.endsWith('-error'));
  return error ? (document.getElementById(error)?.textContent ?? null) : null;
}

async function openCreateWorkflow(user: User) {
  await user.click(screen.getByRole('button', { name: 'Create' }));
  await user.click(await screen.findByRole('menuitem', { name: 'Create workflow' }));
  return screen.findByRole('dialog', { name: 'Create workflow' });
}

describe('workflow dialogs', { timeout: 60_000 }, () => {
  it('creates a workflow as form data with the file, its name from the file, the upload progress shown, and file errors on the file field', async () => {
    const answers: Array<() => { status: number; body: unknown }> = [
      // The proxy's limit answers with no field: the key alone puts it on the file field.
      () => ({ status: 413, body: errorBody('ERROR_WORKFLOW_FILE_TOO_LARGE') }),
      () => ({
        status: 409,
        body: errorBody('ERROR_WORKFLOW_FILE_EXIST', 'taken', { file: 'ERROR_WORKFLOW_FILE_EXIST' }),
      }),
    ];
    let finish: () => void = () => {};
    const { calls } = signedIn(
      ALL_WORKFLOW_AUTHORITIES,
      companyTree({
        'POST /api/workflow/create': () =>
          answers.shift()?.() ??
          new Promise((resolve) => {
            finish = () => resolve({ status: 201, body: buildWorkflowDetail() });
          }),
      }),
    );
    const user = userEvent.setup();
    await openFinance();
    const dialog = await openCreateWorkflow(user);
    expect((within(dialog).getByRole('textbox', { name: 'Directory' }) as HTMLInputElement).readOnly).toBe(true);

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Workflow file is required.')).toBeTruthy();
    expect(within(dialog).getByText('Workflow name is required.')).toBeTruthy();

    const input = dialog.querySelector('input[type=file]') as HTMLInputElement;
    expect(input.accept).toBe('.rax');
    await user.upload(input, workflowFile());
    const name = within(dialog).getByRole('textbox', { name: /^Name/ }) as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe('Invoice intake'));
    await user.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'Reads invoices');

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('The workflow file is larger than the upload limit.')).toBeTruthy();
    // The error sits on the file field, and what was typed is kept.
    expect(fileErrorOf(dialog)).toBe('The workflow file is larger than the upload limit.');
    expect(name.getAttribute('aria-invalid')).not.toBe('true');
    expect(name.value).toBe('Invoice intake');

    await user.upload(input, workflowFile('Invoice intake v2.rax'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fileErrorOf(dialog)).toBe('A workflow file with this name already exists.'));
    expect(name.value).toBe('Invoice intake');

    await user.upload(input, workflowFile('Invoice intake v3.rax'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const progress = await within(dialog).findByRole('progressbar', { name: 'Upload progress' });
    await waitFor(() => expect(progress.getAttribute('aria-valuenow')).toBe('100'));
    const before = viewCalls(calls).length;
    finish();
    expect(await screen.findByText('Successfully added Invoice intake')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(viewCalls(calls).length).toBeGreaterThan(before));

    const create = posted(calls, '/api/workflow/create').at(-1);
    expect(create?.headers.get('x-tenant-id')).toBe('tenant-acme');
    const form = formOf(create);
    expect({ ...form, file: undefined }).toEqual({
      name: 'Invoice intake',
      description: 'Reads invoices',
      directory: FINANCE,
      file: undefined,
    });
    expect((form.file as File).name).toBe('Invoice intake v3.rax');
    expect(await (form.file as File).text()).toBe('<rax version="1"/>');
  });

  it("fills the name and description from a .rax file's manifest, never over a name the user typed", async () => {
    signedIn(ALL_WORKFLOW_AUTHORITIES, companyTree());
    const rax = (fileName: string, name: string, description: string) => {
      const manifest = {
        format: 'opsdeck-workflow',
        version: 1,
        name,
        description,
        steps: [{ activity: 'open-browser', name: 'Open', expectedSeconds: 5 }],
      };
      return new File([zipSync({ 'workflow.json': strToU8(JSON.stringify(manifest)) })], fileName);
    };
    const user = userEvent.setup();
    await openFinance();
    let dialog = await openCreateWorkflow(user);
    const field = (label: RegExp | string) => within(dialog).getByRole('textbox', { name: label }) as HTMLInputElement;
    await user.upload(
      dialog.querySelector('input[type=file]') as HTMLInputElement,
      rax('close-v7.rax', 'Monthly close', 'Closes the books'),
    );
    await waitFor(() => expect(field(/^Name/).value).toBe('Monthly close'));
    expect(field('Description').value).toBe('Closes the books');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // A name typed first stays; the empty description still takes the manifest's.
    dialog = await openCreateWorkflow(user);
    await user.type(field(/^Name/), 'My own name');
    await user.upload(
      dialog.querySelector('input[type=file]') as HTMLInputElement,
      rax('close-v8.rax', 'Monthly close', 'Closes the books'),
    );
    await waitFor(() => expect(field('Description').value).toBe('Closes the books'));
    expect(field(/^Name/).value).toBe('My own name');
  });

  it('updates a workflow without a new file, lists its versions and activities, and shows a reader the details only', async () => {
    const saved = captureDownloads();
    const handlers: Handlers = companyTree({
      'GET /api/workflow/2': () => ({ body: buildWorkflowDetail() }),
      'PUT /api/workflow/2': () => ({ body: buildWorkflowDetail({ name: 'Invoice intake 2' }) }),
      'GET /api/workflow/download/2': () => ({ body: 'rax' }),
    });
    const { calls } = signedIn(ALL_WORKFLOW_AUTHORITIES, handlers);
    const user = userEvent.setup();
    const editor = await openFinance();
    await user.dblClick(rowOf(editor.table, /Invoice intake/));
    const dialog = await screen.findByRole('dialog', { name: 'Update workflow Invoice intake' });
    expect(within(dialog).getByText('New version (.rax)')).toBeTruthy();
    const versions = within(dialog).getByRole('table', { name: 'Versions' });
    expect(within(versions).getAllByRole('row')).toHaveLength(3);
    const activities = within(dialog).getByRole('list', { name: 'Activities used' });
    expect(
      within(within(activities).getByText('Scan document').closest('li') as HTMLElement).getByText('Premium'),
    ).toBeTruthy();
    expect(
      within(within(activities).getByText('Read Excel').closest('li') as HTMLElement).queryByText('Premium'),
    ).toBeNull();

    await user.click(within(versions).getByRole('button', { name: 'Download version 1' }));
    await waitFor(() => expect(saved).toEqual(['invoice.rax']));
    const download = calls.find((call) => call.url.startsWith('/api/workflow/download/2'));
    expect(download?.url).toBe('/api/workflow/download/2?version=11');
    expect(download?.headers.get('x-tenant-id')).toBe('tenant-acme');

    const name = within(dialog).getByRole('textbox', { name: /^Name/ });
    await user.clear(name);
    await user.type(name, 'Invoice intake 2');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Successfully updated Invoice intake 2')).toBeTruthy();
    const update = posted(calls, '/api/workflow/2').find((call) => call.method === 'PUT');
    expect(formOf(update)).toEqual({ name: 'Invoice intake 2', description: 'Reads invoices', directory: FINANCE });
    editor.unmount();

    signedIn(['ACCESS_WORKFLOW_TAB', 'VIEW_WORKFLOW'], handlers);
    const reader = await openFinance();
    fireEvent.keyDown(rowOf(reader.table, /Invoice intake/), { key: 'Enter' });
    const details = await screen.findByRole('dialog', { name: 'Workflow Invoice intake' });
    expect(within(details).queryByRole('textbox')).toBeNull();
    expect(within(details).getByRole('table', { name: 'Versions' })).toBeTruthy();
  });

  it('closes a workflow delete that finds none with the not-exist toast and reloads; other failures give the workflow toast', async () => {
    const answers = [
      { status: 404, body: errorBody('ERROR_WORKFLOW_NOT_EXIST') },
      { status: 500, body: errorBody('ERROR_GENERAL_INTERNAL') },
    ];
    const { calls } = signedIn(
      ALL_WORKFLOW_AUTHORITIES,
      companyTree({ 'POST /api/workflow/delete/2': () => answers.shift() ?? { body: { ok: true } } }),
    );
    const { table } = await openFinance();
    const before = viewCalls(calls).length;
    await act(table, /Invoice intake/, 'Delete');
    const dialog = await screen.findByRole('dialog', { name: 'Delete workflow' });
    expect(
      within(dialog).getByText('Delete the workflow Invoice intake? It is archived and leaves the list.'),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('The workflow cannot be found or is archived. (Invoice intake)')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(viewCalls(calls).length).toBeGreaterThan(before));
    expect(posted(calls, '/api/workflow/delete/2')[0]?.body).toEqual({ directory: FINANCE });

    await act(table, /Invoice intake/, 'Delete');
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete workflow' })).getByRole('button', { name: 'Delete' }),
    );
    expect(
      await screen.findByText('Oops! Something went wrong while processing the workflow. (Invoice intake)'),
    ).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('renames a directory: the unchanged name closes without a call, a taken name shows on the field', async () => {
    const answers = [
      { status: 409, body: errorBody('ERROR_DIRECTORY_NAME_EXIST', 'taken', { new: 'ERROR_DIRECTORY_NAME_EXIST' }) },
      { body: { ok: true } },
    ];
    const { calls } = signedIn(
      ALL_WORKFLOW_AUTHORITIES,
      companyTree({ 'POST /api/directory/update': () => answers.shift() ?? { body: { ok: true } } }),
    );
    const user = userEvent.setup();
    const { table } = await openFinance();
    await act(table, /Directory Invoices/, 'Rename');
    let dialog = await screen.findByRole('dialog', { name: 'Rename directory Invoices' });
    const field = within(dialog).getByRole('textbox', { name: /New name/ }) as HTMLInputElement;
    expect(field.value).toBe('Invoices');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posted(calls, '/api/directory/update')).toHaveLength(0);
    expect(screen.queryByText('Successfully updated Invoices')).toBeNull();

    await act(table, /Directory Invoices/, 'Rename');
    dialog = await screen.findByRole('dialog', { name: 'Rename directory Invoices' });
    const name = within(dialog).getByRole('textbox', { name: /New name/ });
    await user.clear(name);
    await user.type(name, 'Payroll');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(await within(dialog).findByText('A file or directory with this name already exists.')).toBeTruthy();
    await user.clear(name);
    await user.type(name, 'Bills');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(await screen.findByText('Successfully updated Bills')).toBeTruthy();
    expect(posted(calls, '/api/directory/update').map((call) => call.body)).toEqual([
      { current: 'Invoices', new: 'Payroll', parent: FINANCE },
      { current: 'Invoices', new: 'Bills', parent: FINANCE },
    ]);
  });

  it("says how many workflows a directory's delete archives before it deletes, and the same for several items", async () => {
    const { calls } = signedIn(
      ALL_WORKFLOW_AUTHORITIES,
      companyTree({
        'POST /api/directory/delete/preview': (call) => ({
          body:
            (call.body as { files: string[] }).files.length === 1
              ? { directories: 3, workflows: 12 }
              : { directories: 1, workflows: 3 },
        }),
        'POST /api/directory/delete': () => ({ body: { directories: 3, workflows: 12 } }),
        'POST /api/directory/delete/multiple': () => ({ body: { directories: 1, workflows: 3 } }),
      }),
    );
    const { table } = await openFinance();
    await act(table, /Directory Invoices/, 'Delete');
    const dialog = await screen.findByRole('dialog', { name: 'Delete directory' });
    expect(
      within(dialog).getByText('This deletes the directory Invoices and archives the 12 workflows in it.'),
    ).toBeTruthy();
    expect(within(dialog).getByText('The 2 folders inside it are deleted too.')).toBeTruthy();
    expect(posted(calls, '/api/directory/delete/preview')[0]?.body).toEqual({
      files: ['Invoices'],
      directory: FINANCE,
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Successfully deleted Invoices')).toBeTruthy();
    expect(posted(calls, '/api/directory/delete')[0]?.body).toEqual({ name: 'Invoices', parent: FINANCE });

    fireEvent.click(rowOf(table, /Directory Invoices/));
    fireEvent.click(rowOf(table, /Payroll/), { ctrlKey: true });
    await act(table, /Payroll/, 'Delete selected');
    const several = await screen.findByRole('dialog', { name: 'Delete selected items' });
    expect(
      within(several).getByText(/Delete the 2 selected items\? The 3 workflows in them are archived\./),
    ).toBeTruthy();
    fireEvent.click(within(several).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Successfully deleted 2 items')).toBeTruthy();
    expect(posted(calls, '/api/directory/delete/multiple')[0]?.body).toEqual({
      files: ['Invoices', 'Payroll.rax'],
      directory: FINANCE,
    });
  });

  it('renames several items after one name, explaining the numbering', async () => {
    const { calls } = signedIn(
      ALL_WORKFLOW_AUTHORITIES,
      companyTree({ 'POST /api/directory/update/multiple': () => ({ body: { renamed: [] } }) }),
    );
    const user = userEvent.setup();
    const { table } = await openFinance();
    fireEvent.click(rowOf(table, /Directory Invoices/));
    fireEvent.click(rowOf(table, /Reconcile/), { shiftKey: true });
    await act(table, /Payroll/, 'Rename selected');
    const dialog = await screen.findByRole('dialog', { name: 'Rename 4 items' });
    await user.type(within(dialog).getByRole('textbox', { name: /New name/ }), 'Archive');
    expect(within(dialog).getByText(/Archive, Archive \(2\), Archive \(3\)…/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(await screen.findByText('Successfully renamed 4 items')).toBeTruthy();
    const call = posted(calls, '/api/directory/update/multiple')[0];
    expect(call?.body).toEqual({
      files: ['Invoices', 'Invoice intake.rax', 'Payroll.rax', 'Reconcile.rax'],
      newFileName: 'Archive',
      directory: FINANCE,
    });
    expect(call?.headers.get('x-tenant-id')).toBe('tenant-acme');
  });

  it('downloads a workflow named after itself, a directory as a zip, and several items in one zip', async () => {
    const saved = captureDownloads();
    const { calls } = signedIn(
      ALL_WORKFLOW_AUTHORITIES,
      companyTree({
        'GET /api/workflow/download/2': () => ({ body: 'rax' }),
        'GET /api/directory/download': () => ({ body: 'zip' }),
        'GET /api/directory/download/multiple': () => ({ body: 'zip' }),
      }),
    );
    const user = userEvent.setup();
    const { table } = await openFinance();
    const downloads = () => calls.filter((call) => call.url.includes('/download')).map((call) => call.url);

    await act(table, /Invoice intake/, 'Download');
    const one = await screen.findByRole('dialog', { name: 'Download workflow' });
    await user.click(within(one).getByRole('checkbox', { name: 'Name the file after the workflow' }));
    await user.click(within(one).getByRole('button', { name: 'Download' }));
    expect(await screen.findByText('Downloaded Invoice intake')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await act(table, /Directory Invoices/, 'Download as zip');
    const directory = await screen.findByRole('dialog', { name: 'Download directory' });
    await user.click(within(directory).getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(rowOf(table, /Directory Invoices/));
    fireEvent.click(rowOf(table, /Payroll/), { ctrlKey: true });
    await act(table, /Payroll/, 'Download selected');
    const several = await screen.findByRole('dialog', { name: 'Download selected items' });
    const listed = within(several).getByRole('list', { name: 'Items in the zip' });
    expect(
      within(listed)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Invoices/', 'Payroll.rax']);
    await user.click(within(several).getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    expect(downloads()).toEqual([
      '/api/workflow/download/2?rename=true',
      '/api/directory/download?name=Invoices&parent=Workflows%2FFinance',
      '/api/directory/download/multiple?directory=Workflows%2FFinance&fileNames=Invoices&fileNames=Payroll.rax',
    ]);
    expect(saved).toEqual(['Invoice intake.rax', 'Invoices.zip', 'Finance.zip']);
  });
});
