import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildDepartment, buildStatus, signedIn } from '../test/builders';
import { renderApp } from '../test/render';
import { departmentKeys } from './departments';
import { statusKeys } from './statuses';

describe('one owner per resource', { timeout: 40_000 }, () => {
  it("invalidating ['departments'] refreshes the status form's department choices", async () => {
    let departments = [buildDepartment({ id: 1, name: 'Sales' })];
    const { calls } = signedIn(['ACCESS_STATUS_TAB', 'CREATE_STATUS'], {
      'GET /api/status': () => ({ body: [] }),
      'GET /api/department/usersAccessibleDepts': () => ({ body: departments }),
    });
    const user = userEvent.setup();
    const { queryClient } = renderApp('/dashboard/management/statuses');
    await user.click(await screen.findByRole('button', { name: 'Create status' }, { timeout: 15_000 }));
    await user.click(await screen.findByRole('combobox', { name: /^Department/ }));
    expect(await screen.findByRole('option', { name: 'Sales' })).toBeTruthy();
    expect(screen.queryByRole('option', { name: 'Support' })).toBeNull();

    // Another feature (the departments page) changes departments and invalidates its resource root.
    departments = [...departments, buildDepartment({ id: 2, name: 'Support' })];
    await act(() => queryClient.invalidateQueries({ queryKey: departmentKeys.all }));
    expect(await screen.findByRole('option', { name: 'Support' })).toBeTruthy();
    expect(calls.filter((call) => call.url === '/api/department/usersAccessibleDepts')).toHaveLength(2);
  });

  it("the task form reads statuses from the statuses resource, so ['statuses'] refreshes it", async () => {
    let statuses = [buildStatus({ id: 1, name: 'Busy', departmentId: 1 })];
    signedIn(['ACCESS_TASK_TAB', 'CREATE_TASK'], {
      'GET /api/task': () => ({ body: [] }),
      'GET /api/status': () => ({ body: statuses }),
      'GET /api/department/usersAccessibleDepts': () => ({ body: [buildDepartment({ id: 1, name: 'Sales' })] }),
    });
    const user = userEvent.setup();
    const { queryClient } = renderApp('/dashboard/management/tasks');
    await user.click(await screen.findByRole('button', { name: 'Create task' }, { timeout: 15_000 }));
    await user.click(await screen.findByRole('combobox', { name: /^Department/ }));
    await user.click(await screen.findByRole('option', { name: 'Sales' }));
    await user.click(screen.getByRole('combobox', { name: /^Status/ }));
    expect(await screen.findByRole('option', { name: 'Busy' })).toBeTruthy();

    statuses = [...statuses, buildStatus({ id: 2, name: 'Away', departmentId: 1 })];
    await act(() => queryClient.invalidateQueries({ queryKey: statusKeys.all }));
    await waitFor(() => expect(screen.getByRole('option', { name: 'Away' })).toBeTruthy());
  });
});
