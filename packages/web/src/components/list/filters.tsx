import { Checkbox, Flex, Input, Segmented, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { ReactNode } from 'react';
import { DatePicker, nowUtc8 } from '../pickers.ts';
import { onlyDigits } from '../../layout/ProfileDialog.tsx';

/** SPEC §5 date-time form; the server reads it as UTC+8. */
export const SERVER_TIME = 'YYYY-MM-DD HH:mm:ss';

export type Range = [Dayjs | null, Dayjs | null] | null;

export { nowUtc8 };

export interface FieldProps<V> {
  value: V;
  onChange: (value: V) => void;
  /** Applies the search now, with this field set to `value` when given. */
  onSearch: (value?: V) => void;
  mobile: boolean;
}

/**
 * One filter of a list: its blank value, how it is kept in the URL, and its input. A field
 * without `render` is URL state only (a table's sort order, say).
 */
export interface FilterField<V> {
  initial: V;
  /** The URL parameter's text; undefined leaves the parameter out (blank or default). */
  encode: (value: V) => string | undefined;
  decode: (text: string) => V;
  /** Applies as soon as it changes, without 查询. */
  instant?: boolean;
  /**
   * Typed in (free text): applied on Enter or 查询, never per keystroke. In a toolbar without
   * 查询 (`buttons={false}`) every other field applies as soon as it changes.
   */
  typed?: boolean;
  render?: (props: FieldProps<V>) => ReactNode;
}

/** The filter list of a screen: one field per property of its filter values. */
export type FilterFields<F> = { [K in keyof F]: FilterField<F[K]> };

/** The filter list of a list without filters (it only pages). */
export const NO_FILTERS: FilterFields<object> = {};

interface Common {
  placeholder: string;
  /** Accessible name; the placeholder when left out. */
  label?: string;
  /** Width on a desktop; a phone gives every input the whole row. */
  width?: number;
  instant?: boolean;
}

const widthOf = (mobile: boolean, width: number | undefined) => ({ width: mobile ? '100%' : width });

/** Free text, trimmed when applied; `search` draws a search box, `digits` keeps digits only. */
export function text(
  o: Common & { maxLength?: number; search?: boolean; digits?: boolean },
): FilterField<string> {
  return {
    initial: '',
    typed: true,
    encode: (v) => v.trim() || undefined,
    decode: (s) => s,
    render: ({ value, onChange, onSearch, mobile }) => {
      const props = {
        value,
        onChange: (e: { target: { value: string } }) =>
          onChange(o.digits ? onlyDigits(e.target.value) : e.target.value),
        allowClear: true,
        maxLength: o.maxLength ?? 100,
        placeholder: o.placeholder,
        'aria-label': o.label ?? o.placeholder,
        inputMode: o.digits ? ('numeric' as const) : undefined,
        style: widthOf(mobile, o.width),
      };
      return o.search ? (
        <Input.Search {...props} onSearch={(v) => onSearch(v)} />
      ) : (
        <Input {...props} onPressEnter={() => onSearch()} />
      );
    },
  };
}

interface Option<V> {
  value: V;
  label: ReactNode;
}

const decodeOption = <V,>(options: readonly Option<V>[], s: string): V | undefined =>
  options.find((opt) => String(opt.value) === s)?.value;

/** One of a few values, or none. */
export function select<V extends string | number>(
  o: Common & { options: readonly Option<V>[] },
): FilterField<V | undefined> {
  return {
    initial: undefined,
    instant: o.instant,
    encode: (v) => (v === undefined ? undefined : String(v)),
    decode: (s) => decodeOption(o.options, s),
    render: ({ value, onChange, mobile }) => (
      <Select<V>
        value={value}
        onChange={(v) => onChange(v ?? undefined)}
        options={[...o.options]}
        allowClear
        placeholder={o.placeholder}
        aria-label={o.label ?? o.placeholder}
        style={widthOf(mobile, o.width)}
      />
    ),
  };
}

/**
 * One of a few values, never none: the first option (全部, 不限) is the default, and the box
 * shows its name before the value (在线状态 全部).
 */
export function choice<V extends string | number>(o: {
  label: string;
  options: readonly Option<V>[];
  width?: number;
  instant?: boolean;
}): FilterField<V> {
  const initial = o.options[0]!.value;
  return {
    initial,
    instant: o.instant,
    encode: (v) => (v === initial ? undefined : String(v)),
    decode: (s) => decodeOption(o.options, s) ?? initial,
    render: ({ value, onChange, mobile }) => (
      <Select<V>
        value={value}
        onChange={onChange}
        options={[...o.options]}
        prefix={o.label}
        aria-label={o.label}
        style={widthOf(mobile, o.width)}
      />
    ),
  };
}

/** Any number of values (none: all). */
export function multiSelect<V extends string | number>(
  o: Common & { options: readonly Option<V>[] },
): FilterField<V[]> {
  return {
    initial: [],
    instant: o.instant,
    encode: (v) => (v.length ? v.join(',') : undefined),
    decode: (s) => s.split(',').flatMap((part) => decodeOption(o.options, part) ?? []),
    render: ({ value, onChange, mobile }) => (
      <Select<V[]>
        mode="multiple"
        value={value}
        onChange={onChange}
        options={[...o.options]}
        allowClear
        maxTagCount="responsive"
        placeholder={o.placeholder}
        aria-label={o.label ?? o.placeholder}
        style={widthOf(mobile, o.width)}
      />
    ),
  };
}

/** Buttons side by side (全部/未读/已读); the first option is the default. */
export function segmented<V extends string>(o: {
  options: readonly { value: V; label: string }[];
}): FilterField<V> {
  const initial = o.options[0]!.value;
  return {
    initial,
    instant: true,
    encode: (v) => (v === initial ? undefined : v),
    decode: (s) => decodeOption(o.options, s) ?? initial,
    render: ({ value, onChange }) => (
      <Segmented<V> value={value} onChange={onChange} options={[...o.options]} />
    ),
  };
}

/** A tick box that narrows or widens the list (显示已隐藏). */
export function check(o: { label: string; instant?: boolean }): FilterField<boolean> {
  return {
    initial: false,
    instant: o.instant,
    encode: (v) => (v ? '1' : undefined),
    decode: (s) => s === '1',
    render: ({ value, onChange }) => (
      <Checkbox checked={value} onChange={(e) => onChange(e.target.checked)} style={{ alignSelf: 'center' }}>
        {o.label}
      </Checkbox>
    ),
  };
}

/** A range as the list endpoints take it: `start` and `end` in SERVER_TIME, blanks left out. */
export function rangeQuery(range: Range): { start?: string; end?: string } {
  const [start, end] = range ?? [null, null];
  return { start: start?.format(SERVER_TIME), end: end?.format(SERVER_TIME) };
}

const parseTime = (s: string | undefined): Dayjs | null => {
  const day = s ? dayjs(s) : null;
  return day?.isValid() ? day : null;
};

/**
 * A time range: with `time` a range with times and presets (today, 7 and 30 days), else whole
 * days. On a phone, where the range panel does not fit, two day pickers.
 */
export function dateRange(o: { time?: boolean; instant?: boolean } = {}): FilterField<Range> {
  const days = (range: Range): Range =>
    range ? [range[0]?.startOf('day') ?? null, range[1]?.endOf('day') ?? null] : null;
  return {
    initial: null,
    instant: o.instant,
    encode: (r) =>
      r && (r[0] || r[1])
        ? `${r[0]?.format(SERVER_TIME) ?? ''}~${r[1]?.format(SERVER_TIME) ?? ''}`
        : undefined,
    decode: (s) => {
      const [start, end] = s.split('~');
      const range: Range = [parseTime(start), parseTime(end)];
      return range[0] || range[1] ? range : null;
    },
    render: ({ value, onChange, mobile }) => {
      if (mobile) {
        const [start, end] = value ?? [null, null];
        return (
          <Flex gap="small" style={{ width: '100%' }}>
            <DatePicker
              value={start}
              onChange={(day) => onChange([day?.startOf('day') ?? null, end])}
              placeholder="开始日期"
              inputReadOnly
              style={{ flex: 1 }}
            />
            <DatePicker
              value={end}
              onChange={(day) => onChange([start, day?.endOf('day') ?? null])}
              placeholder="结束日期"
              inputReadOnly
              style={{ flex: 1 }}
            />
          </Flex>
        );
      }
      if (!o.time) {
        return (
          <DatePicker.RangePicker
            value={value}
            onChange={(range) => onChange(days(range))}
            placeholder={['开始日期', '结束日期']}
            style={{ width: 260 }}
          />
        );
      }
      const now = nowUtc8();
      return (
        <DatePicker.RangePicker
          value={value}
          onChange={onChange}
          showTime={{ defaultOpenValue: [now.startOf('day'), now.endOf('day')] }}
          format={SERVER_TIME}
          placeholder={['开始时间', '结束时间']}
          presets={[
            { label: '今天', value: [now.startOf('day'), now.endOf('day')] },
            { label: '最近 7 天', value: [now.subtract(6, 'day').startOf('day'), now.endOf('day')] },
            { label: '最近 30 天', value: [now.subtract(29, 'day').startOf('day'), now.endOf('day')] },
          ]}
          style={{ width: 380 }}
        />
      );
    },
  };
}

/** Filter values before any search: every field's `initial`. */
export function blankFilters<F>(fields: FilterFields<F>): F {
  const out = {} as F;
  for (const k in fields) out[k] = fields[k].initial;
  return out;
}
