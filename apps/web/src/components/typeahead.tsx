import { Combobox, Text, TextInput, useCombobox } from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import { useTranslation } from 'react-i18next';
import { errorText } from '../lib/i18n';
import { truncateText } from '../lib/truncate';

export interface TypeaheadProps<T> {
  label: string;
  placeholder?: string;
  required?: boolean;
  /** Everything that may be picked; the typed text filters it. */
  items: readonly T[];
  itemKey: (item: T) => string | number;
  /** The text of an entry, which becomes the input's text when it is picked. */
  itemLabel: (item: T) => string;
  /** A second, dimmed line (an e-mail, say); also searched. */
  itemDescription?: (item: T) => string;
  /** The input's text. */
  text: string;
  /**
   * Typing reports the new text with no entry (a pick is undone by any edit); picking reports
   * the entry's label and the entry. The form tells "nothing typed" from "typed, not picked".
   */
  onChange: (text: string, picked: T | null) => void;
  onBlur?: () => void;
  /** An error key (the form's field error). */
  error?: string;
  disabled?: boolean;
  loading?: boolean;
  /** At most this many suggestions; the spec's typeahead shows 5. */
  limit?: number;
}

/** Entries whose label or description contains the text, case-insensitively, at most `limit`. */
export function typeaheadMatches<T>(
  items: readonly T[],
  text: string,
  itemLabel: (item: T) => string,
  itemDescription?: (item: T) => string,
  limit: number = LIMITS.typeaheadResults,
): T[] {
  const needle = text.trim().toLowerCase();
  const result: T[] = [];
  for (const item of items) {
    if (result.length >= limit) break;
    const haystack = `${itemLabel(item)}\n${itemDescription?.(item) ?? ''}`.toLowerCase();
    if (!needle || haystack.includes(needle)) result.push(item);
  }
  return result;
}

/**
 * The spec's typeahead (section 5: at most 5 results): free text that suggests entries of a list,
 * where only a picked entry counts as a choice.
 */
export function Typeahead<T>({
  label,
  placeholder,
  required,
  items,
  itemKey,
  itemLabel,
  itemDescription,
  text,
  onChange,
  onBlur,
  error,
  disabled,
  loading,
  limit = LIMITS.typeaheadResults,
}: TypeaheadProps<T>) {
  const { t } = useTranslation();
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const matches = typeaheadMatches(items, text, itemLabel, itemDescription, limit);

  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(value) => {
        const item = items.find((candidate) => String(itemKey(candidate)) === value);
        if (item) onChange(itemLabel(item), item);
        combobox.closeDropdown();
      }}
    >
      <Combobox.Target>
        <TextInput
          label={label}
          placeholder={placeholder}
          required={required}
          value={text}
          autoComplete="off"
          disabled={disabled}
          error={errorText(error)}
          onChange={(event) => {
            onChange(event.currentTarget.value, null);
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
          }}
          onClick={() => combobox.openDropdown()}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => {
            combobox.closeDropdown();
            onBlur?.();
          }}
        />
      </Combobox.Target>
      <Combobox.Dropdown>
        <Combobox.Options aria-label={label}>
          {loading ? (
            <Combobox.Empty>{t('table.loading')}</Combobox.Empty>
          ) : matches.length === 0 ? (
            <Combobox.Empty>{t('table.empty')}</Combobox.Empty>
          ) : (
            matches.map((item) => (
              <Combobox.Option value={String(itemKey(item))} key={itemKey(item)}>
                <Text size="sm">{truncateText(itemLabel(item), LIMITS.truncate.dropdownName)}</Text>
                {itemDescription && (
                  <Text size="xs" c="dimmed">
                    {truncateText(itemDescription(item), LIMITS.truncate.dropdownName)}
                  </Text>
                )}
              </Combobox.Option>
            ))
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
