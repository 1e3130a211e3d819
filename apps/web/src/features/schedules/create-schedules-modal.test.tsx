import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildDepartment, buildSchedule, buildUser, signedIn } from '../../test/builders';
import { errorBody } from '../../test/fake-api';
import { renderApp } from '../../test/render';

const ada = buildUser({ id: 1, firstName: 'Ada', lastName: 'Byron', completeName: 'Ada Byron', departmentId: 1 });
const bob = buildUser({ id: 2, firstName: 'Bob', lastName: 'Stone', completeName: 'Bob Stone', departmentId: 2 });
const chief = buildUser({ id: 3, completeName: 'Carla Chief', departmentId: null });

function api(auths: string[], handlers = {}) {
  return signedIn(['ACCESS_SCHEDULE_TAB', 'CREATE_SCHEDULE', ...auths], {
    'GET /api/schedule': () => ({ body: [] }),
    'GET /api/user/get-user-list': () => ({ body: [ada, bob, chief] }),
    'GET /api/department/usersAccessibleDepts': () => ({ body: [buildDepartment({ id: 1, name: 'Sales' })] }),
    ...handlers,
  });
}

async function openCreate() {
  const user = userEvent.setup();
  renderApp('/dashboard/management/schedules');
  // The first visit compiles the page's chunk, which takes a while on a busy machine.
  await user.click(await screen.findByRole('button', { name: 'Create schedule' }, { timeout: 15_000 }));
  const dialog = await screen.findByRole('dialog', { name: 'Create schedules' });
  const users = within(dialog).getByRole('combobox', { name: /^Users/ });
  return { user, dialog, users };
}

async function fillDates(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement, from: string, to: string) {
  await user.click(within(dialog).getByRole('textbox', { name: /^Start date/ }));
  await user.paste(from);
  await user.click(within(dialog).getByRole('textbox', { name: /^End date/ }));
  await user.paste(to);
}

// Each test fills a whole form, which is slow when the machine is busy.
describe('create schedules', { timeout: 40_000 }, () => {
  it('offers a department head only the users of the departments he heads', async () => {
    api(['DEPARTMENT_ACCESS_LEVEL']);
    const { user, users } = await openCreate();
    await user.click(users);
    expect(await screen.findByRole('option', { name: 'Ada Byron' })).toBeTruthy();
    expect(screen.queryByRole('option', { name: 'Bob Stone' })).toBeNull();
    expect(screen.queryByRole('option', { name: 'Carla Chief' })).toBeNull();
  });

  it('offers a company-level user everyone of the company', async () => {
    api(['COMPANY_ACCESS_LEVEL']);
    const { user, users } = await openCreate();
    await user.click(users);
    expect(await screen.findByRole('option', { name: 'Bob Stone' })).toBeTruthy();
    expect(screen.getByRole('option', { name: 'Carla Chief' })).toBeTruthy();
  });

  it('does not submit on Enter in the End date field, and asks for the shift times', async () => {
    const { calls } = api(['COMPANY_ACCESS_LEVEL']);
    const { user, dialog, users } = await openCreate();
    await user.click(users);
    await user.click(await screen.findByRole('option', { name: 'Ada Byron' }));
    await fillDates(user, dialog, '2030-01-07', '2030-01-11');
    // The cursor is still in End date: Enter takes the date and submits nothing (no errors yet).
    await user.keyboard('{Enter}');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(within(dialog).queryByText('Select shift start')).toBeNull();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Select shift start')).toBeTruthy();
    expect(within(dialog).getByText('Select shift end')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('names the schedules an overlap would double-book and keeps what was typed', async () => {
    const existing = buildSchedule({
      id: 9,
      userId: 1,
      firstName: 'Ada',
      lastName: 'Byron',
      scheduleStart: new Date(2030, 0, 7, 0, 0).getTime(),
      scheduleEnd: new Date(2030, 0, 7, 23, 59).getTime(),
    });
    const other = buildSchedule({
      id: 10,
      userId: 2,
      scheduleStart: existing.scheduleStart,
      scheduleEnd: existing.scheduleEnd,
    });
    const { calls } = api(['COMPANY_ACCESS_LEVEL'], {
      'POST /api/schedule': () => ({ status: 409, body: errorBody('ERROR_SCHEDULE_OVERLAP') }),
      'GET /api/schedule': () => ({ body: [existing, other] }),
    });
    const { user, dialog, users } = await openCreate();
    await user.click(users);
    await user.click(await screen.findByRole('option', { name: 'Ada Byron' }));
    await fillDates(user, dialog, '2030-01-07', '2030-01-07');
    fireEvent.change(within(dialog).getByLabelText(/^Shift start/), { target: { value: '09:00' } });
    fireEvent.change(within(dialog).getByLabelText(/^Shift end/), { target: { value: '17:00' } });
    await waitFor(() =>
      expect((within(dialog).getByRole('button', { name: 'Create' }) as HTMLButtonElement).disabled).toBe(false),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    const list = await within(dialog).findByRole('list', { name: 'Already scheduled at these times:' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Ada Byron, Jan 07 2030, 12:00 am – 11:59 pm']);
    // The refusal's own message under the form, besides the list.
    expect(within(dialog).getAllByRole('alert')).toHaveLength(2);
    expect((within(dialog).getByLabelText(/^Shift start/) as HTMLInputElement).value).toBe('09:00');
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1);
  });
});
