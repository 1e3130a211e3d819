import type { CatalogueActivity } from '@opsdeck/contract/activities';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { signedIn } from '../../test/builders';
import { renderApp } from '../../test/render';

const item = (id: number, name: string, premium: boolean, isPartial = false): CatalogueActivity => ({
  id,
  name,
  key: name.toLowerCase().replaceAll(' ', '-'),
  category: '',
  partial: isPartial ? 1 : 0,
  isPartial,
  createDate: 0,
  premium,
});

describe('premium activities page', { timeout: 40_000 }, () => {
  it('shows the two lists with stars and Limited, searches, and moves an activity by its button', async () => {
    let catalogue = [item(1, 'Open Browser', false), item(2, 'SAP Logon', true), item(3, 'OCR Document', true, true)];
    const { calls } = signedIn(['ACCESS_ACTIVITY_TAB', 'EDIT_ACTIVITY', 'ADMIN_ACCESS_LEVEL'], {
      'GET /api/license-type/premium': () => ({ body: catalogue }),
      'POST /api/license-type/add-activity': () => {
        catalogue = catalogue.map((activity) => (activity.id === 1 ? { ...activity, premium: true } : activity));
        return { body: { ok: true } };
      },
    });
    const user = userEvent.setup();
    renderApp('/dashboard/license/premium-activities');
    const regular = await screen.findByRole('region', { name: 'Regular activities' }, { timeout: 15_000 });
    const premium = screen.getByRole('region', { name: 'Premium activities' });
    await within(regular).findByText('Open Browser');
    expect(within(premium).getByText('SAP Logon')).toBeTruthy();
    expect(within(premium).getAllByRole('img', { name: 'Premium' })).toHaveLength(2);
    expect(within(premium).getByText('Limited')).toBeTruthy();

    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'sap');
    await waitFor(() => expect(within(premium).queryByText('OCR Document')).toBeNull());
    expect(within(premium).getByText('SAP Logon')).toBeTruthy();
    await user.clear(screen.getByRole('textbox', { name: 'Search' }));

    await user.click(within(regular).getByRole('button', { name: 'Make Open Browser premium' }));
    await waitFor(() => expect(within(premium).getByText('Open Browser')).toBeTruthy());
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ licenseType: 'pro', activities: [{ id: 1 }] });
  });

  it('offers no moves to a company user', async () => {
    signedIn(
      ['ACCESS_ACTIVITY_TAB', 'EDIT_ACTIVITY'],
      {
        'GET /api/license-type/premium': () => ({ body: [item(1, 'Open Browser', false)] }),
      },
      { company: { id: 1, name: 'Northwind', tenantId: 't-1' } },
    );
    renderApp('/dashboard/license/premium-activities');
    const regular = await screen.findByRole('region', { name: 'Regular activities' }, { timeout: 15_000 });
    await within(regular).findByText('Open Browser');
    expect(within(regular).queryByRole('button', { name: /Make/ })).toBeNull();
  });
});
