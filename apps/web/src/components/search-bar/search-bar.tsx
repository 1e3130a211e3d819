import '@mantine/dates/styles.css';
import { CloseButton, Group, Select, TextInput } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconCalendar, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DATE_FORMATS } from '../../lib/dates';
import {
  type DateRange,
  epochToPicker,
  pickerToEpoch,
  presetRange,
  RANGE_PRESETS,
  type RangePreset,
} from './date-range';

export interface SearchValue extends DateRange {
  text: string;
}

interface SearchBarProps {
  onChange: (value: SearchValue) => void;
  /** The range selected at first (spec: the log pages start on today). */
  initialPreset?: RangePreset;
  initialText?: string;
  /** Hides the range selector for lists that only filter by text. */
  withRange?: boolean;
  /** Typing waits this long before emitting, so that a server search is not called per key. */
  debounceMs?: number;
  placeholder?: string;
  /** The clock, for tests. */
  now?: () => number;
}

const DATE_TIME_FORMAT = DATE_FORMATS.dateTime;

/**
 * The shared search bar (spec section 2, Shell): a text filter and a date range of All, Today,
 * Yesterday, This Week, This Month or Custom, where Custom shows from and to pickers.
 */
export function SearchBar({
  onChange,
  initialPreset = 'all',
  initialText = '',
  withRange = true,
  debounceMs = 300,
  placeholder,
  now = Date.now,
}: SearchBarProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(initialText);
  const [preset, setPreset] = useState<RangePreset>(initialPreset);
  const [custom, setCustom] = useState<DateRange>(() => presetRange('today', now()));

  const rangeOf = (nextPreset: RangePreset, nextCustom: DateRange) =>
    nextPreset === 'custom' ? nextCustom : presetRange(nextPreset, now());
  const emit = (nextText: string, nextPreset: RangePreset, nextCustom: DateRange) =>
    onChange({ text: nextText.trim(), ...rangeOf(nextPreset, nextCustom) });
  const emitTyped = useDebouncedCallback((value: string) => emit(value, preset, custom), debounceMs);

  const changeText = (value: string) => {
    setText(value);
    if (debounceMs > 0) emitTyped(value);
    else emit(value, preset, custom);
  };

  const changePreset = (value: string | null) => {
    const next = (RANGE_PRESETS as readonly string[]).includes(value ?? '') ? (value as RangePreset) : 'all';
    setPreset(next);
    emit(text, next, custom);
  };

  const changeCustom = (end: keyof DateRange, value: string | null) => {
    const next = { ...custom, [end]: pickerToEpoch(value) };
    setCustom(next);
    emit(text, 'custom', next);
  };

  return (
    <Group gap="sm" align="flex-end" wrap="wrap" role="search">
      <TextInput
        label={t('search.text')}
        placeholder={placeholder ?? t('search.textPlaceholder')}
        leftSection={<IconSearch size={16} aria-hidden="true" />}
        value={text}
        onChange={(event) => changeText(event.currentTarget.value)}
        rightSection={
          text ? <CloseButton size="sm" aria-label={t('modal.close')} onClick={() => changeText('')} /> : undefined
        }
        style={{ flex: '1 1 240px' }}
      />
      {withRange && (
        <Select
          label={t('search.range')}
          data={RANGE_PRESETS.map((value) => ({ value, label: t(`search.ranges.${value}`) }))}
          value={preset}
          onChange={changePreset}
          allowDeselect={false}
          leftSection={<IconCalendar size={16} aria-hidden="true" />}
          w={180}
        />
      )}
      {withRange && preset === 'custom' && (
        <>
          <DateTimePicker
            label={t('search.from')}
            value={epochToPicker(custom.from)}
            onChange={(value) => changeCustom('from', value)}
            valueFormat={DATE_TIME_FORMAT}
            maxDate={epochToPicker(custom.to) ?? undefined}
            clearable
            w={220}
          />
          <DateTimePicker
            label={t('search.to')}
            value={epochToPicker(custom.to)}
            onChange={(value) => changeCustom('to', value)}
            valueFormat={DATE_TIME_FORMAT}
            minDate={epochToPicker(custom.from) ?? undefined}
            clearable
            w={220}
          />
        </>
      )}
    </Group>
  );
}
