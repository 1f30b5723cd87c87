import { describe, expect, it } from 'vitest';
import { recordIdOf, recordNo } from './maintenance.ts';

describe('record numbers', () => {
  it('reads back the number shown for a record, typed in any case, with or without zeros', () => {
    for (const id of [1, 17, 123456, 1234567]) expect(recordIdOf(recordNo(id))).toBe(id);
    expect(recordIdOf(' wx000017 ')).toBe(17);
    expect(recordIdOf('WX17')).toBe(17);
  });

  it('names no record for anything else', () => {
    for (const text of ['', 'WX', 'WX-17', '17', 'XW000017', 'WX1234567890'])
      expect(recordIdOf(text)).toBeNull();
  });
});
