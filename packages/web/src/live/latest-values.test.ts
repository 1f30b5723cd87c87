import { describe, expect, it } from 'vitest';
import { describeField, describeLatest, fieldLabel, numberText } from './latest-values.ts';

const tag = (kind: string, key: string, value: unknown) => describeField(kind, key, value).tag;

describe('实时数据: gas levels (SPEC §9 thresholds)', () => {
  it.each([
    // gas, below low → 优, from low to high → 良, above high → 差
    ['nh3', 0.09, 0.1, 1.5, 1.51],
    ['h2s', 0.019, 0.02, 0.05, 0.051],
    ['voc', 2.4, 2.5, 5, 5.1],
    ['pm25', 1999, 2000, 5000, 5001],
    ['co2', 999, 1000, 1800, 1801],
  ])('%s: %d 优, %d and %d 良, %d 差', (gas, good, low, high, poor) => {
    expect(tag('gateway', gas, good)).toEqual({ text: '优', color: 'green' });
    expect(tag('gateway', gas, low)).toEqual({ text: '良', color: 'orange' });
    expect(tag('gateway', gas, high)).toEqual({ text: '良', color: 'orange' });
    expect(tag('gateway', gas, poor)).toEqual({ text: '差', color: 'red' });
  });

  it('shows the value with its unit and the thresholds as a hint', () => {
    expect(describeField('gateway', 'nh3', 0.12)).toMatchObject({
      label: '氨气 NH₃',
      text: '0.12',
      unit: 'ppm',
      hint: '低于 0.1 为优，0.1–1.5 为良，高于 1.5 为差',
    });
    expect(describeField('gateway', 'co2', 1234)).toMatchObject({ text: '1234', unit: 'ppm' });
  });

  it('gives no level to a value that is not a number', () => {
    const item = describeField('gateway', 'nh3', 'n/a');
    expect(item.text).toBe('—');
    expect(item.tag).toBeUndefined();
  });
});

describe('实时数据: alarm and flag fields (SPEC §4)', () => {
  it('reads smoke and help alarms as 已触发 when non-zero, else 无报警', () => {
    expect(tag('gateway', 'smk_alarm', 1)).toEqual({ text: '已触发', color: 'red' });
    expect(tag('gateway', 'smk_alarm', 0)).toEqual({ text: '无报警', color: 'green' });
    expect(tag('sensor', 'alarm', 2)).toEqual({ text: '已触发', color: 'red' });
    expect(tag('sensor', 'alarm', true)).toEqual({ text: '已触发', color: 'red' });
    expect(describeField('gateway', 'smk_alarm', 0).label).toBe('烟雾报警');
    expect(describeField('gateway', 'alarm', 0).label).toBe('求助报警');
  });

  it("reads a terminal's complaint flags as 正常 / 异常", () => {
    expect(tag('evaluate', 'smelly', 1)).toEqual({ text: '异常', color: 'red' });
    expect(tag('evaluate', 'smelly', 0)).toEqual({ text: '正常', color: 'green' });
  });

  it("names a dispenser's warning bits, 无 when none", () => {
    expect(describeField('jwb', 'warning', 32768 | 4).text).toBe('缺液、断水');
    expect(tag('jwb', 'warning', 0)).toEqual({ text: '无', color: 'green' });
    expect(describeField('paper_machine', 'warning', 2).text).toBe('卡纸');
    expect(describeField('paper_machine', 'warning', 1 | 4).text).toBe('缺纸、纸量低');
    expect(describeField('gateway', 'warning', 2).text).toBe('2');
  });
});

describe('实时数据: other fields', () => {
  it("gives a meter's reading the unit of its kind", () => {
    expect(describeField('electric_meter', 'reading', 1234.5)).toMatchObject({ text: '1234.5', unit: 'kWh' });
    expect(describeField('water_meter', 'reading', 12)).toMatchObject({ unit: 'm³' });
    expect(fieldLabel('electric_meter', 'reading')).toBe('读数 (kWh)');
  });

  it('rounds to three decimals', () => {
    expect(numberText(0.123456)).toBe('0.123');
    expect(numberText(2)).toBe('2');
  });

  it('shows fields it does not know by name, after the known ones', () => {
    const { items } = describeLatest('gateway', { zeta: 3, nh3: 0.05, extra: 'x', co2: 500 });
    expect(items.map((i) => i.key)).toEqual(['nh3', 'co2', 'extra', 'zeta']);
    expect(items[2]).toMatchObject({ label: 'extra', text: 'x' });
  });
});

describe('实时数据: cubicle occupancy (gateways)', () => {
  it('gives occupied of count per group, with a capped percentage', () => {
    const { items, occupancy } = describeLatest('gateway', {
      male_count: 8,
      male_occupy: 3,
      male_times: 120,
      female_count: 10,
      female_occupy: 12,
      nh3: 0.3,
    });
    // Occupancy is shown apart, not among the readings.
    expect(items.map((i) => i.key)).toEqual(['nh3']);
    expect(occupancy).toEqual([
      { key: 'male', label: '男厕位', count: 8, occupy: 3, times: 120, time: null, percent: 38 },
      { key: 'female', label: '女厕位', count: 10, occupy: 12, times: null, time: null, percent: 100 },
    ]);
  });

  it('has no percentage without a cubicle count', () => {
    expect(describeLatest('gateway', { others_occupy: 1 }).occupancy[0]).toMatchObject({ percent: null });
    expect(describeLatest('gateway', { others_count: 0 }).occupancy[0]).toMatchObject({ percent: null });
  });

  it('labels occupancy fields for the chart legend', () => {
    expect(fieldLabel('gateway', 'female_occupy')).toBe('女厕位占用');
    expect(fieldLabel('gateway', 'nh3')).toBe('氨气 NH₃ (ppm)');
    expect(fieldLabel('jwb', 'liquid')).toBe('液体余量');
  });
});
