import { notifications } from '@mantine/notifications';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client';
import { notifyDone, notifyError } from './notify';

describe('toasts', () => {
  it('names the item, cut at 50 characters, and closes after 5000 ms', () => {
    const show = vi.spyOn(notifications, 'show').mockReturnValue('id');
    notifyDone('added', 'N'.repeat(60));
    expect(show).toHaveBeenCalledWith(
      expect.objectContaining({ message: `Successfully added ${'N'.repeat(50)}...`, autoClose: 5000 }),
    );
  });

  it("shows an error's catalogue text, or the general one", () => {
    const show = vi.spyOn(notifications, 'show').mockReturnValue('id');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    notifyError(new ApiError(409, 'ERROR_COMPANY_HAS_LICENSE', 'x'), 'Acme');
    expect(show).toHaveBeenLastCalledWith(
      expect.objectContaining({ message: 'Company has licenses and cannot be deleted. (Acme)', color: 'red' }),
    );
    notifyError(new Error('unexpected'));
    expect(show).toHaveBeenLastCalledWith(
      expect.objectContaining({ message: 'Oops! Something went wrong in processing your request.' }),
    );
  });
});
