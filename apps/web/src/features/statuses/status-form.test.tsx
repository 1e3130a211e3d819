import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildDepartment, signedIn } from '../../test/builders';
import { renderApp } from '../../test/render';

describe('status form', () => {
  it("refuses a typed colour name such as 'red' instead of turning it into #000000", async () => {
    signedIn(['ACCESS_STATUS_TAB', 'CREATE_STATUS'], {
      'GET /api/status': () => ({ body: [] }),
      'GET /api/department/usersAccessibleDepts': () => ({ body: [buildDepartment({ name: 'Sales' })] }),
    });
    const user = userEvent.setup();
    renderApp('/dashboard/management/statuses');
    await user.click(await screen.findByRole('button', { name: 'Create status' }, { timeout: 15_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Create status' });
    const colour = within(dialog).getByRole('textbox', { name: /^Color/ }) as HTMLInputElement;
    await user.clear(colour);
    await user.type(colour, 'red');
    await user.click(within(dialog).getByRole('textbox', { name: /^Name/ }));
    expect(await within(dialog).findByText('Color must be a hex value such as #1a2b3c.')).toBeTruthy();
    expect(colour.value).toBe('red');
  });
});
