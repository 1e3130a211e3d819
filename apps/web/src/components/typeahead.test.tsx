import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render';
import { Typeahead, typeaheadMatches } from './typeahead';

type Person = { id: number; name: string; email: string };
const people: Person[] = Array.from({ length: 8 }, (_, index) => ({
  id: index + 1,
  name: `Person ${index + 1}`,
  email: `p${index + 1}@example.test`,
}));

describe('typeaheadMatches', () => {
  it('shows at most 5 entries (spec section 5)', () => {
    expect(typeaheadMatches(people, '', (person) => person.name)).toHaveLength(5);
    expect(typeaheadMatches(people, 'person', (person) => person.name)).toHaveLength(5);
  });

  it('matches the label or the description, case-insensitively', () => {
    expect(typeaheadMatches(people, 'PERSON 7', (person) => person.name).map((person) => person.id)).toEqual([7]);
    expect(
      typeaheadMatches(
        people,
        'p3@',
        (person) => person.name,
        (person) => person.email,
      ).map((person) => person.id),
    ).toEqual([3]);
  });
});

function Harness({ onChange }: { onChange: (text: string, picked: Person | null) => void }) {
  const [text, setText] = useState('');
  return (
    <Typeahead<Person>
      label="Head"
      items={people}
      itemKey={(person) => person.id}
      itemLabel={(person) => person.name}
      itemDescription={(person) => person.email}
      text={text}
      onChange={(next, picked) => {
        setText(next);
        onChange(next, picked);
      }}
    />
  );
}

describe('Typeahead', () => {
  it('reports typed text with no entry, and a picked entry with its label', async () => {
    const onChange = vi.fn();
    renderWithProviders(<Harness onChange={onChange} />);
    const input = screen.getByRole('textbox', { name: 'Head' });
    await userEvent.type(input, 'Person');
    expect(onChange).toHaveBeenLastCalledWith('Person', null);
    expect(screen.getAllByRole('option')).toHaveLength(5);
    await userEvent.click(screen.getByRole('option', { name: /Person 2/ }));
    expect(onChange).toHaveBeenLastCalledWith('Person 2', people[1]);
    expect(input).toHaveProperty('value', 'Person 2');
  });
});
