import { describe, expect, it } from 'vitest';
import { objectTargetError } from './api/notify.ts';
import { DEFAULT_TEMPLATE, TEMPLATE_SAMPLE, renderTemplate, unknownPlaceholders } from './template.ts';

describe('renderTemplate', () => {
  it('fills the SPEC placeholders and the readings', () => {
    expect(
      renderTemplate('{user_name}：{desc}（{ser_num}）氨气 {nh3}，硫化氢 {h2s}', {
        user_name: '张三',
        desc: '东门公厕',
        ser_num: 'GW1',
        nh3: 1.62,
        h2s: 0.1 + 0.2,
      }),
    ).toBe('张三：东门公厕（GW1）氨气 1.62，硫化氢 0.3');
  });

  it('leaves unknown or missing placeholders visible', () => {
    expect(renderTemplate('{desc} {nope} {nh3}', { desc: 'A', nh3: null })).toBe('A {nope} {nh3}');
    expect(unknownPlaceholders('{desc} {nope} {nope} {Oops}')).toEqual(['nope', 'Oops']);
  });

  it('reads alarm flags as SPEC words and formats the time in UTC+8', () => {
    expect(renderTemplate('{alarm}/{smk_alarm}', { alarm: 1, smk_alarm: false })).toBe('已触发/无报警');
    expect(renderTemplate('{time}', { time: Date.UTC(2026, 2, 2, 0, 15) })).toBe('2026-03-02 08:15:00');
  });

  it('treats text literally: no regex specials, no nested expansion', () => {
    expect(renderTemplate('{desc}', { desc: '$& {ser_num}', ser_num: 'X' })).toBe('$& {ser_num}');
    expect(renderTemplate('{ desc } {{desc}}', { desc: 'A' })).toBe('{ desc } {A}');
  });

  it('the default template and the sample render without leftovers', () => {
    expect(renderTemplate(DEFAULT_TEMPLATE, TEMPLATE_SAMPLE)).not.toMatch(/[{}]/);
  });
});

describe('objectTargetError', () => {
  it('checks a target against its type', () => {
    expect(objectTargetError('email', 'a@b.cn')).toBeNull();
    expect(objectTargetError('email', 'ab.cn')).toContain('邮箱');
    expect(objectTargetError('user', '12')).toBeNull();
    expect(objectTargetError('user', 'x')).toBe('请选择用户');
    expect(objectTargetError('docking', '0')).toBe('请选择对接接口');
    expect(objectTargetError('wecom', 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=1')).toBeNull();
    expect(objectTargetError('dingtalk', 'javascript:alert(1)')).toContain('网址');
  });
});
