import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { presetRange } from './date-range';
import { SearchBar, type SearchBarValue, type SearchValue } from './search-bar';

const now = new Date(2026, 2, 18, 14, 30).getTime();

async function chooseRange(user: ReturnType<typeof userEvent.setup>, label: string) {
  await user.click(screen.getByRole('combobox', { name: 'Date range' }));
  await user.click(await screen.findByRole('option', { name: label }));
}

/** A page holding the bar's value, as the URL does. */
function Harness({ onChange }: { onChange: (value: SearchValue) => void }) {
  const [value, setValue] = useState<SearchBarValue>({ search: 'old', preset: 'today' });
  return (
    <>
      <SearchBar onChange={onChange} debounceMs={5000} value={value} now={() => now} />
      {/* Another part of the list state changes (a page link): the same search comes back. */}
      <button type="button" onClick={() => setValue({ search: 'old', preset: 'today' })}>
        same
      </button>
      <button type="button" onClick={() => setValue({ search: 'back', preset: 'all' })}>
        back
      </button>
    </>
  );
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
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ search: 'acme', from: null, to: null }));

    await chooseRange(user, 'Yesterday');
    expect(onChange).toHaveBeenLastCalledWith(
      expect.objectContaining({ search: 'acme', ...presetRange('yesterday', now) }),
    );
    await chooseRange(user, 'This Month');
    expect(onChange).toHaveBeenLastCalledWith(
      expect.objectContaining({ search: 'acme', ...presetRange('thisMonth', now) }),
    );
    await chooseRange(user, 'All');
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ search: 'acme', from: null, to: null }));
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
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ search: '', ...presetRange('today', now) }));
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
    expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ search: 'abc', from: null, to: null }));
  });

  it('follows a value changed from outside, and does not undo typing not yet emitted', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderWithProviders(<Harness onChange={onChange} />);
    const box = screen.getByRole('textbox', { name: 'Search' }) as HTMLInputElement;
    expect(box.value).toBe('old');
    expect((screen.getByRole('combobox', { name: 'Date range' }) as HTMLInputElement).value).toBe('Today');
    await user.type(box, 'er');
    await user.click(screen.getByRole('button', { name: 'same' }));
    expect(box.value).toBe('older');
    // The back button brings another value: the bar shows it.
    await user.click(screen.getByRole('button', { name: 'back' }));
    expect(box.value).toBe('back');
    expect((screen.getByRole('combobox', { name: 'Date range' }) as HTMLInputElement).value).toBe('All');
  });
});
