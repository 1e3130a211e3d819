import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../lib/api-client';
import { renderWithProviders } from '../test/render';
import { ConfirmModal } from './confirm-modal';

function renderConfirm(onConfirm: () => Promise<unknown>, onClose = vi.fn()) {
  renderWithProviders(
    <ConfirmModal opened onClose={onClose} title="Delete role" onConfirm={onConfirm} confirmLabel="Delete" danger>
      Delete the role Auditors?
    </ConfirmModal>,
  );
  return { onClose, confirm: () => screen.getByRole('button', { name: 'Delete' }) as HTMLButtonElement };
}

describe('ConfirmModal', () => {
  it('runs the action once for a double click, closes on success and re-enables about 1000 ms later', async () => {
    let resolve: () => void = () => {};
    const onConfirm = vi.fn(() => new Promise<void>((done) => (resolve = done)));
    const { onClose, confirm } = renderConfirm(onConfirm);

    fireEvent.click(confirm());
    fireEvent.click(confirm());
    expect(onConfirm).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(confirm().disabled).toBe(true));
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);

    resolve();
    await waitFor(() => expect(onClose).toHaveBeenCalledOnce());
    const succeededAt = Date.now();
    expect(confirm().disabled).toBe(true);
    fireEvent.click(confirm());
    expect(onConfirm).toHaveBeenCalledTimes(1);

    await waitFor(() => expect(confirm().disabled).toBe(false), { timeout: 2000 });
    expect(Date.now() - succeededAt).toBeGreaterThanOrEqual(900);
  });

  it('stays open with the error message when the action fails, and can be retried at once', async () => {
    const user = userEvent.setup();
    const onConfirm = vi
      .fn<() => Promise<unknown>>()
      .mockRejectedValueOnce(new ApiError(409, 'ERROR_ROLE_DELETE_ASSOCIATED_WITH_USER', 'in use'))
      .mockResolvedValueOnce(undefined);
    const { onClose, confirm } = renderConfirm(onConfirm);

    await user.click(confirm());
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Role is assigned to users and cannot be deleted.',
    );
    expect(onClose).not.toHaveBeenCalled();
    expect(confirm().disabled).toBe(false);

    await user.click(confirm());
    await waitFor(() => expect(onClose).toHaveBeenCalledOnce());
    expect(onConfirm).toHaveBeenCalledTimes(2);
  });

  it('closes on cancel without running the action', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn(async () => {});
    const { onClose } = renderConfirm(onConfirm);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledOnce();
    expect(onConfirm).not.toHaveBeenCalled();
  });
});
