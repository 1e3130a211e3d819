import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation, useNavigate } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { SearchBar } from '../search-bar/search-bar';
import type { ListDefaults } from './list-params';
import { nextSort } from './table-state';
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
      {/* A header clicked twice before the next render: the second click flips the first's sort. */}
      <button
        type="button"
        onClick={() => {
          list.setSort((current) => nextSort(current, 'email'));
          list.setSort((current) => nextSort(current, 'email'));
        }}
      >
        twice
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

  it('applies a header click to the sort written last, not the one rendered', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Probe />, { path: '/list?page=2' });
    await user.click(screen.getByRole('button', { name: 'twice' }));
    expect(screen.getByLabelText('query').textContent).toBe('?sort=-email');
    expect(screen.getByLabelText('state').textContent).toBe('|email:desc|1');
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

function HistoryProbe() {
  const list = useListParams(DEFAULTS);
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <>
      <SearchBar value={list} onChange={list.setSearch} debounceMs={20} />
      <output aria-label="query">{location.search}</output>
      <button type="button" onClick={() => list.setPage(list.page + 1)}>
        next page
      </button>
      <button type="button" onClick={() => list.setSort({ key: 'email', direction: 'desc' })}>
        sort by e-mail
      </button>
      <button type="button" onClick={() => void navigate(-1)}>
        back
      </button>
    </>
  );
}

describe('useListParams and the back button', () => {
  it('steps back through page and sort changes, and over a whole search typed at once', async () => {
    const user = userEvent.setup();
    renderWithProviders(<HistoryProbe />, { path: '/list' });
    const query = () => screen.getByLabelText('query').textContent;
    await user.click(screen.getByRole('button', { name: 'next page' }));
    await user.click(screen.getByRole('button', { name: 'next page' }));
    expect(query()).toBe('?page=3');
    await user.click(screen.getByRole('button', { name: 'sort by e-mail' }));
    expect(query()).toBe('?sort=-email');
    // A search typed letter by letter, each debounced apart: one entry for the whole of it.
    const box = screen.getByRole('textbox', { name: 'Search' });
    for (const letter of 'acme') {
      await user.type(box, letter);
      await waitFor(() => expect(query()).toContain(`q=${(box as HTMLInputElement).value}`));
    }
    expect(query()).toBe('?q=acme&sort=-email');

    const back = async (expected: string) => {
      await user.click(screen.getByRole('button', { name: 'back' }));
      await waitFor(() => expect(query()).toBe(expected));
    };
    await back('?sort=-email');
    await back('?page=3');
    await back('?page=2');
    await back('');
  });
});
