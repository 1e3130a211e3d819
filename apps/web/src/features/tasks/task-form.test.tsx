import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildDepartment, buildStatus, buildTask, signedIn } from '../../test/builders';
import { errorBody } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { statusesForDepartment } from './task-form-schema';

const departments = [buildDepartment({ id: 1, name: 'Sales' }), buildDepartment({ id: 2, name: 'Support' })];
const statuses = [
  buildStatus({ id: 11, name: 'Calling', departmentId: 1 }),
  buildStatus({ id: 12, name: 'Ticketing', departmentId: 2 }),
];

function api(handlers = {}) {
  return signedIn(['ACCESS_TASK_TAB', 'CREATE_TASK', 'EDIT_TASK'], {
    'GET /api/task': () => ({ body: [buildTask({ id: 5, name: 'Cold calls' })] }),
    'GET /api/status': () => ({ body: statuses }),
    'GET /api/department/usersAccessibleDepts': () => ({ body: departments }),
    ...handlers,
  });
}

async function openCreate() {
  const user = userEvent.setup();
  renderApp('/dashboard/management/tasks');
  await user.click(await screen.findByRole('button', { name: 'Create task' }, { timeout: 15_000 }));
  const dialog = await screen.findByRole('dialog', { name: 'Create task' });
  const pick = async (label: RegExp, option: string) => {
    await user.click(within(dialog).getByRole('combobox', { name: label }));
    await user.click(await screen.findByRole('option', { name: option }));
  };
  return { user, dialog, pick };
}

// Each test fills a whole form, which is slow when the machine is busy.
describe('task form', { timeout: 40_000 }, () => {
  it("offers only the chosen department's statuses and clears the status when the department changes", async () => {
    api();
    const { user, dialog, pick } = await openCreate();
    const status = within(dialog).getByRole('combobox', { name: /^Status/ }) as HTMLInputElement;
    expect(status.disabled).toBe(true);

    await pick(/^Department/, 'Sales');
    await user.click(status);
    expect(await screen.findByRole('option', { name: 'Calling' })).toBeTruthy();
    expect(screen.queryByRole('option', { name: 'Ticketing' })).toBeNull();
    await user.click(screen.getByRole('option', { name: 'Calling' }));
    expect(status.value).toBe('Calling');

    await pick(/^Department/, 'Support');
    await waitFor(() => expect(status.value).toBe(''));
    await user.click(status);
    expect(await screen.findByRole('option', { name: 'Ticketing' })).toBeTruthy();
    expect(screen.queryByRole('option', { name: 'Calling' })).toBeNull();
  });

  it('shows an unknown create failure under the form and keeps what was typed', async () => {
    const { calls } = api({
      'POST /api/task': () => ({ status: 500, body: errorBody('ERROR_GENERAL_INTERNAL') }),
    });
    const { user, dialog, pick } = await openCreate();
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Follow-ups');
    await pick(/^Department/, 'Sales');
    await pick(/^Status/, 'Calling');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('Oops! Something went wrong');
    expect((within(dialog).getByRole('textbox', { name: /^Name/ }) as HTMLInputElement).value).toBe('Follow-ups');
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Follow-ups',
      statusId: 11,
      departmentId: 1,
    });
  });

  it("closes with a toast naming the task when the server says it is not the caller's", async () => {
    api({
      'POST /api/task': () => ({ status: 403, body: errorBody('ERROR_TASK_INACCESSIBLE') }),
    });
    const { user, dialog, pick } = await openCreate();
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Follow-ups');
    await pick(/^Department/, 'Sales');
    await pick(/^Status/, 'Calling');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create task' })).toBeNull());
    expect(await screen.findByText(/\(Follow-ups\)/)).toBeTruthy();
  });
});

describe('statusesForDepartment', () => {
  const tree = [
    { id: 1, parentId: null },
    { id: 2, parentId: 1 },
    { id: 3, parentId: null },
  ];
  const status = (id: number, departmentId: number, builtIn = false) => ({ id, departmentId, builtIn });

  it("takes the department's own, those above it and the built-ins, never another branch's", () => {
    const statuses = [status(1, 1), status(2, 2), status(3, 3), status(4, 3, true)];
    expect(statusesForDepartment(statuses, tree, '2').map((s) => s.id)).toEqual([1, 2, 4]);
    expect(statusesForDepartment(statuses, tree, '1').map((s) => s.id)).toEqual([1, 4]);
    expect(statusesForDepartment(statuses, tree, '3').map((s) => s.id)).toEqual([3, 4]);
    expect(statusesForDepartment(statuses, tree, null)).toEqual([]);
  });
});
