import { zodResolver } from '@hookform/resolvers/zod';
import { TextInput } from '@mantine/core';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../lib/api-client';
import { errorText } from '../lib/i18n';
import { renderWithProviders } from '../test/render';
import { FormModal } from './form-modal';

const CompanyForm = z.object({ name: z.string().trim().min(1, 'ERROR_COMPANY_NAME_REQUIRED') });

function CompanyModal({
  onSubmit,
  onClose,
}: {
  onSubmit: (values: { name: string }) => Promise<unknown>;
  onClose: () => void;
}) {
  const form = useForm({ resolver: zodResolver(CompanyForm), mode: 'onTouched', defaultValues: { name: '' } });
  return (
    <FormModal opened onClose={onClose} title="Create company" form={form} onSubmit={onSubmit} submitLabel="Create">
      <TextInput label="Name" error={errorText(form.formState.errors.name?.message)} {...form.register('name')} />
    </FormModal>
  );
}

function renderModal(onSubmit: (values: { name: string }) => Promise<unknown>) {
  const onClose = vi.fn();
  renderWithProviders(<CompanyModal onSubmit={onSubmit} onClose={onClose} />);
  return { onClose, submit: () => screen.getByRole('button', { name: 'Create' }) as HTMLButtonElement };
}

describe('FormModal', () => {
  it('disables submit while a field has an error', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn(async () => {});
    const { submit } = renderModal(onSubmit);
    await user.click(submit());
    expect(await screen.findByText('Company name is required.')).toBeTruthy();
    expect(submit().disabled).toBe(true);
    await user.type(screen.getByLabelText('Name'), 'Acme');
    await waitFor(() => expect(submit().disabled).toBe(false));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('submits once for a double submission and closes on success', async () => {
    const user = userEvent.setup();
    let resolve: () => void = () => {};
    const onSubmit = vi.fn(() => new Promise<void>((done) => (resolve = done)));
    const { onClose, submit } = renderModal(onSubmit);
    await user.type(screen.getByLabelText('Name'), 'Acme');
    const form = submit().closest('form')!;
    fireEvent.submit(form);
    fireEvent.submit(form);
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    fireEvent.submit(form);
    resolve();
    await waitFor(() => expect(onClose).toHaveBeenCalledOnce());
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit).toHaveBeenCalledWith({ name: 'Acme' });
  });

  it("puts the server's field keys on the fields and other keys under the form", async () => {
    const user = userEvent.setup();
    const onSubmit = vi
      .fn<(values: { name: string }) => Promise<unknown>>()
      .mockRejectedValueOnce(
        new ApiError(409, 'ERROR_COMPANY_NAME_DUPLICATE', 'dup', { name: 'ERROR_COMPANY_NAME_DUPLICATE' }),
      )
      .mockRejectedValueOnce(new ApiError(500, 'ERROR_GENERAL_INTERNAL', 'boom'));
    const { onClose, submit } = renderModal(onSubmit);
    await user.type(screen.getByLabelText('Name'), 'Acme');
    await user.click(submit());
    expect(await screen.findByText('A company with this name already exists.')).toBeTruthy();
    expect(submit().disabled).toBe(true);

    await user.type(screen.getByLabelText('Name'), ' Two');
    await waitFor(() => expect(submit().disabled).toBe(false));
    await user.click(submit());
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Oops! Something went wrong in processing your request.',
    );
    expect(onClose).not.toHaveBeenCalled();
  });
});
