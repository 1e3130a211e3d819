import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../lib/api-client';
import type { FailurePolicy } from '../lib/failure-policy';
import { renderWithProviders } from '../test/render';
import { DeleteModal } from './delete-modal';

const ROLE_DELETE: FailurePolicy = { toast: ['ERROR_ROLE_DELETE_ASSOCIATED_WITH_USER'], otherwise: 'general' };

function renderDelete(remove: () => Promise<unknown>, failure: FailurePolicy = ROLE_DELETE) {
  const onClose = vi.fn();
  renderWithProviders(<DeleteModal area="roles" name="Auditors" remove={remove} failure={failure} onClose={onClose} />);
  return { onClose, confirm: () => screen.getByRole('button', { name: 'Delete' }) };
}

describe('DeleteModal', () => {
  it("asks with the area's strings, deletes, toasts the name and closes", async () => {
    const user = userEvent.setup();
    const remove = vi.fn(async () => ({ ok: true }));
    const { onClose, confirm } = renderDelete(remove);
    expect(screen.getByRole('dialog', { name: 'Delete role' })).toBeTruthy();
    expect(screen.getByText('Delete the role Auditors? This cannot be undone.')).toBeTruthy();
    await user.click(confirm());
    await waitFor(() => expect(onClose).toHaveBeenCalledOnce());
    expect(await screen.findByText('Successfully deleted Auditors')).toBeTruthy();
    expect(remove).toHaveBeenCalledOnce();
  });

  it("toasts an area's listed refusal with the name, and closes", async () => {
    const user = userEvent.setup();
    const { onClose, confirm } = renderDelete(async () => {
      throw new ApiError(409, 'ERROR_ROLE_DELETE_ASSOCIATED_WITH_USER', 'in use');
    });
    await user.click(confirm());
    await waitFor(() => expect(onClose).toHaveBeenCalledOnce());
    expect(await screen.findByText('Role is assigned to users and cannot be deleted. (Auditors)')).toBeTruthy();
  });

  it('reads any other refusal as the general error', async () => {
    const user = userEvent.setup();
    const { onClose, confirm } = renderDelete(async () => {
      throw new ApiError(409, 'ERROR_DEPARTMENT_DELETE_HAS_CHILDREN', 'children');
    });
    await user.click(confirm());
    await waitFor(() => expect(onClose).toHaveBeenCalledOnce());
    expect(await screen.findByText('Oops! Something went wrong in processing your request. (Auditors)')).toBeTruthy();
  });

  it("passes the server's own key through when the area says so (users)", async () => {
    const user = userEvent.setup();
    const { onClose, confirm } = renderDelete(
      async () => {
        throw new ApiError(409, 'ERROR_GENERAL_PROTECTED', 'protected');
      },
      { otherwise: 'server' },
    );
    await user.click(confirm());
    await waitFor(() => expect(onClose).toHaveBeenCalledOnce());
    expect(await screen.findByText(/protected and cannot be deleted/)).toBeTruthy();
  });
});
