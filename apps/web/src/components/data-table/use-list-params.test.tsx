import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { SearchBar } from '../search-bar/search-bar';
import type { ListDefaults } from './list-params';
import { useListParams } from './use-list-params';

const DEFAULTS: ListDefaults = { sort: { key: 'name', direction: 'asc' } };

function Probe() {
  const list = useListParams(DEFAULTS);
  const location = useLocation();
  return (
    <>
      <output aria-label="query">{location.search}</output>
      <output aria-label="state">{`${list.search}|${list.sort?.key}:${list.sort?.direction}|${list.page}`}</output>
      {/* Two changes before the next render, as a fast user on a busy machine makes them. */}
      <button
        type="button"
        onClick={() => {
          list.setSearch('acme');
          list.setSort({ key: 'email', direction: 'desc' });
          list.setPage(3);
        }}
      >
        change
      </button>
    </>
  );
}

describe('useListParams', () => {
  it('reads the list state from the URL', () => {
    renderWithProviders(<Probe />, { path: '/list?q=x&sort=-email&page=2&tab=1' });
    expect(screen.getByLabelText('state').textContent).toBe('x|email:desc|2');
  });

  it('keeps every change made before the page renders again, and the other keys', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Probe />, { path: '/list?tab=1&page=4' });
    await user.click(screen.getByRole('button', { name: 'change' }));
    expect(screen.getByLabelText('query').textContent).toBe('?tab=1&q=acme&sort=-email&page=3');
    expect(screen.getByLabelText('state').textContent).toBe('acme|email:desc|3');
  });
});

function SearchProbe() {
  const list = useListParams(DEFAULTS);
  const location = useLocation();
  return (
    <>
      <SearchBar value={list} onChange={list.setSearch} debounceMs={20} />
      <output aria-label="query">{location.search}</output>
    </>
  );
}

describe('useListParams with the search bar', () => {
  it('clears the search from the URL when the text is cleared', async () => {
    const user = userEvent.setup();
    renderWithProviders(<SearchProbe />, { path: '/list?q=amara' });
    const box = screen.getByRole('textbox', { name: 'Search' });
    expect((box as HTMLInputElement).value).toBe('amara');
    await user.clear(box);
    await user.type(box, 'mateo');
    await waitFor(() => expect(screen.getByLabelText('query').textContent).toBe('?q=mateo'));
    await user.clear(box);
    await waitFor(() => expect(screen.getByLabelText('query').textContent).toBe(''));
    expect((box as HTMLInputElement).value).toBe('');
  });
});
