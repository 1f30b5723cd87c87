import { describe, expect, it } from 'vitest';
import { addressText, starAverage, statusFlags, withFlag } from './toilet-text.ts';

describe('toilet list texts', () => {
  it('joins province, city, district and address, dropping empty parts and repeats', () => {
    expect(
      addressText({ pname: '浙江省', cityname: '杭州市', adname: '西湖区', address: '文三路 90 号' }),
    ).toBe('浙江省 杭州市 西湖区 文三路 90 号');
    expect(addressText({ pname: '北京市', cityname: '北京市', adname: '朝阳区', address: '' })).toBe(
      '北京市 朝阳区',
    );
    expect(addressText({ pname: '', cityname: '', adname: '', address: '' })).toBe('');
  });

  it('reads the status flags cleaning 1, repair 2, alarm 4', () => {
    expect(statusFlags(0)).toEqual([]);
    expect(statusFlags(1).map((f) => f.label)).toEqual(['清洁中']);
    expect(statusFlags(6).map((f) => f.label)).toEqual(['维修中', '报警']);
    expect(statusFlags(7)).toHaveLength(3);
  });

  it('switches one flag and keeps the others', () => {
    expect(withFlag(4, 'cleaning', true)).toBe(5);
    expect(withFlag(7, 'repair', false)).toBe(5);
    expect(withFlag(0, 'repair', false)).toBe(0);
  });

  it('averages the stars to one decimal', () => {
    expect(starAverage(0, 0)).toBe('暂无');
    expect(starAverage(9, 2)).toBe('4.5');
    expect(starAverage(14, 3)).toBe('4.7');
    expect(starAverage(10, 2)).toBe('5.0');
  });
});
