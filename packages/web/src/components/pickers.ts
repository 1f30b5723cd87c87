import dayjsConfig from '@rc-component/picker/generate/dayjs';
import { formatDateTime } from '@se/core';
import { DatePicker as AntDatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';

/**
 * Now as the product's wall clock (UTC+8, SPEC §5) whatever the browser's zone: its day, hour
 * … are UTC+8's, so `startOf('day')` is a UTC+8 midnight and `format('YYYY-MM-DD HH:mm:ss')`
 * the time the server reads. Pickers, presets and defaults (today, this month) start from it,
 * not `dayjs()`.
 */
export const nowUtc8 = (): Dayjs => dayjs(formatDateTime(Date.now()));

/**
 * antd's pickers built on a dayjs config whose "now" is UTC+8's: the calendar's 今天 mark,
 * the 今天 / 此刻 buttons and the panel a picker opens on follow the console's clock in any
 * browser zone. The console imports pickers from here, never from antd (eslint.config.js).
 */
export const DatePicker = AntDatePicker.generatePicker<Dayjs>({ ...dayjsConfig, getNow: nowUtc8 });
export const TimePicker = DatePicker.TimePicker;
