import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { presetRange } from './date-range';
import { SearchBar } from './search-bar';

const now = new Date(2026, 2, 18, 14, 30).getTime();

async function chooseRange(user: ReturnType<typeof userEvent.setup>, label: string) {
  await user.click(screen.getByRole('combobox', { name: 'Date range' }));
  await user.click(await screen.findByRole('option', { name: label }));
}

describe('SearchBar', () => {
  it('offers All, Today, Yesterday, This Week, This Month and Custom', async () => {
    const user = userEvent.setup();
    renderWithProviders(<SearchBar onChange={() => {}} now={() => now} />);
    await user.click(screen.getByRole('combobox', { name: 'Date range' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'All',
      'Today',
      'Yesterday',
      'This Week',
      'This Month',
      'Custom',
    ]);
  });

  it('emits the text with the chosen range in epoch milliseconds', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderWithProviders(<SearchBar onChange={onChange} debounceMs={0} now={() => now} />);
    await user.type(screen.getByRole('textbox', { name: 'Search' }), ' acme ');
    expect(onChange).toHaveBeenLastCalledWith({ text: 'acme', from: null, to: null });

    await chooseRange(user, 'Yesterday');
    expect(onChange).toHaveBeenLastCalledWith({ text: 'acme', ...presetRange('yesterday', now) });
    await chooseRange(user, 'This Month');
    expect(onChange).toHaveBeenLastCalledWith({ text: 'acme', ...presetRange('thisMonth', now) });
    await chooseRange(user, 'All');
    expect(onChange).toHaveBeenLastCalledWith({ text: 'acme', from: null, to: null });
  });

  it('shows from and to pickers only for Custom', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderWithProviders(<SearchBar onChange={onChange} now={() => now} />);
    expect(screen.queryByText('From')).toBeNull();
    await chooseRange(user, 'Custom');
    expect(screen.getByText('From')).toBeTruthy();
    expect(screen.getByText('To')).toBeTruthy();
    // Custom starts on today's range until the pickers change it.
    expect(onChange).toHaveBeenLastCalledWith({ text: '', ...presetRange('today', now) });
    await chooseRange(user, 'Today');
    expect(screen.queryByText('From')).toBeNull();
  });

  it('waits for typing to pause before emitting', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderWithProviders(<SearchBar onChange={onChange} debounceMs={150} withRange={false} />);
    expect(screen.queryByRole('combobox', { name: 'Date range' })).toBeNull();
    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'abc');
    expect(onChange).not.toHaveBeenCalled();
    await waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));
    expect(onChange).toHaveBeenCalledWith({ text: 'abc', from: null, to: null });
  });
});
