import { CloseButton, Group, Select, TextInput } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconCalendar, IconSearch } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DATE_FORMATS, FIRST_DAY_OF_WEEK } from '../../lib/dates';
import {
  type DateRange,
  epochToPicker,
  pickerToEpoch,
  presetRange,
  RANGE_PRESETS,
  type RangePreset,
} from './date-range';

export interface SearchValue extends DateRange {
  search: string;
  /** The preset chosen and the custom ends, for a page that keeps them (in the URL). */
  preset: RangePreset;
  custom: DateRange;
}

/** What the bar shows: a list's state (useListParams) can be passed as it is. */
export interface SearchBarValue {
  search?: string;
  preset?: RangePreset;
  custom?: DateRange;
}

interface SearchBarProps {
  onChange: (value: SearchValue) => void;
  /**
   * The bar's value: read at first, and again whenever it changes from outside (the back button,
   * a link); a change that only echoes what the bar emitted is ignored, and so is a render that
   * still shows the value from before, so typing is never undone.
   */
  value?: SearchBarValue;
  /** The range selected when `value` names none (spec: the log pages start on today). */
  initialPreset?: RangePreset;
  /** Hides the range selector for lists that only filter by text. */
  withRange?: boolean;
  /** Typing waits this long before emitting, so that a server search is not called per key. */
  debounceMs?: number;
  placeholder?: string;
  /** The clock, for tests. */
  now?: () => number;
}

const DATE_TIME_FORMAT = DATE_FORMATS.dateTime;

/** What the bar last said, to tell an outside change from an echo; custom ends count only for Custom. */
const snapshot = (text: string, preset: RangePreset, custom: DateRange) =>
  JSON.stringify(preset === 'custom' ? [text.trim(), preset, custom.from, custom.to] : [text.trim(), preset]);

/**
 * The shared search bar (spec section 2, Shell): a text filter and a date range of All, Today,
 * Yesterday, This Week, This Month or Custom, where Custom shows from and to pickers. Weeks run
 * Monday to Sunday, as the calendars do; the To calendar opens on the From date's month and
 * disables the days before it.
 */
export function SearchBar({
  onChange,
  value,
  initialPreset = 'all',
  withRange = true,
  debounceMs = 300,
  placeholder,
  now = Date.now,
}: SearchBarProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(value?.search ?? '');
  const [preset, setPreset] = useState<RangePreset>(value?.preset ?? initialPreset);
  const [custom, setCustom] = useState<DateRange>(() =>
    value?.custom && (value.custom.from !== null || value.custom.to !== null)
      ? value.custom
      : presetRange('today', now()),
  );
  // What the bar emitted and has not yet seen come back, oldest first.
  const unechoed = useRef<string[]>([]);

  // Follow a value changed from outside (back button, a shared link). The value a render passes
  // in counts only when it differs from the last one seen: a parent that renders again before our
  // own change reaches it (the router renders navigations in a transition) changes nothing, and
  // the value coming back as we emitted it is an echo.
  const outside = value ? snapshot(value.search ?? '', value.preset ?? initialPreset, value.custom ?? custom) : null;
  const seen = useRef(outside);
  useEffect(() => {
    if (!value || outside === null || outside === seen.current) return;
    seen.current = outside;
    const echo = unechoed.current.indexOf(outside);
    if (echo >= 0) {
      unechoed.current = unechoed.current.slice(echo + 1);
      return;
    }
    unechoed.current = [];
    setText(value.search ?? '');
    setPreset(value.preset ?? initialPreset);
    if (value.custom && (value.custom.from !== null || value.custom.to !== null)) setCustom(value.custom);
  }, [outside, value, initialPreset]);

  const rangeOf = (nextPreset: RangePreset, nextCustom: DateRange) =>
    nextPreset === 'custom' ? nextCustom : presetRange(nextPreset, now());
  const emit = (nextText: string, nextPreset: RangePreset, nextCustom: DateRange) => {
    unechoed.current.push(snapshot(nextText, nextPreset, nextCustom));
    onChange({ search: nextText.trim(), ...rangeOf(nextPreset, nextCustom), preset: nextPreset, custom: nextCustom });
  };
  const emitTyped = useDebouncedCallback((typed: string) => emit(typed, preset, custom), debounceMs);

  const changeText = (typed: string) => {
    setText(typed);
    if (debounceMs > 0) emitTyped(typed);
    else emit(typed, preset, custom);
  };

  const changePreset = (chosen: string | null) => {
    const next = (RANGE_PRESETS as readonly string[]).includes(chosen ?? '') ? (chosen as RangePreset) : 'all';
    setPreset(next);
    emit(text, next, custom);
  };

  const changeCustom = (end: keyof DateRange, picked: string | null) => {
    const next = { ...custom, [end]: pickerToEpoch(picked) };
    setCustom(next);
    emit(text, 'custom', next);
  };

  const from = epochToPicker(custom.from);
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
          data={RANGE_PRESETS.map((item) => ({ value: item, label: t(`search.ranges.${item}`) }))}
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
            value={from}
            onChange={(picked) => changeCustom('from', picked)}
            valueFormat={DATE_TIME_FORMAT}
            firstDayOfWeek={FIRST_DAY_OF_WEEK}
            maxDate={epochToPicker(custom.to) ?? undefined}
            clearable
            w={220}
          />
          <DateTimePicker
            label={t('search.to')}
            value={epochToPicker(custom.to)}
            onChange={(picked) => changeCustom('to', picked)}
            valueFormat={DATE_TIME_FORMAT}
            firstDayOfWeek={FIRST_DAY_OF_WEEK}
            minDate={from ?? undefined}
            // With no end chosen yet, the calendar opens on the start's month, not the current one.
            defaultDate={from ?? undefined}
            clearable
            w={220}
          />
        </>
      )}
    </Group>
  );
}
