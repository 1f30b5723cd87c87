import { describe, expect, it } from 'vitest';
import { addCommentBody, commentFilter, commentLevel, sanitizeCommentText } from './comments.ts';

describe('sanitizeCommentText', () => {
  it('removes markup and invisible characters and collapses whitespace', () => {
    expect(sanitizeCommentText('<b>很干净</b>')).toBe('很干净');
    expect(sanitizeCommentText('地面\n\n  有水\t\r\n')).toBe('地面 有水');
    expect(sanitizeCommentText('a\u0000b\u0007c')).toBe('abc');
    // Bidi overrides and zero-width characters could disguise what operators read.
    expect(sanitizeCommentText('\u202Eabc\u200B\uFEFF')).toBe('abc');
    // Text that merely looks like a comparison stays.
    expect(sanitizeCommentText('1<2 且 3>2')).toBe('1<2 且 3>2');
    // Emoji sequences keep their joiner.
    expect(sanitizeCommentText('👨‍👩‍👧 好')).toBe('👨‍👩‍👧 好');
    expect(sanitizeCommentText('\ud800x')).toBe('x');
  });
});

describe('addCommentBody', () => {
  const base = { toilet_id: 'q7Xk2bN9cR4tV1mZ8wYs3A', star_level: '4', visitor_id: 'abcdef123456' };
  it('reads a form post', () => {
    const r = addCommentBody.parse({ ...base, smelly: 'true', content: ' 有味道 ' });
    expect(r).toMatchObject({
      toilet_id: 'q7Xk2bN9cR4tV1mZ8wYs3A',
      star_level: 4,
      smelly: true,
      badattitude: false,
      content: '有味道',
      sex: 0,
    });
  });
  it('counts characters, not UTF-16 units, against the 200 limit', () => {
    expect(addCommentBody.safeParse({ ...base, content: '😀'.repeat(200) }).success).toBe(true);
    expect(addCommentBody.safeParse({ ...base, content: '😀'.repeat(201) }).success).toBe(false);
  });
});

describe('commentFilter', () => {
  it('reads lists as 1,2 or repeated keys and refuses unknown values', () => {
    expect(commentFilter.parse({ star_levels: '1,5', flags: ['smelly', 'badattitude'] })).toMatchObject({
      star_levels: [1, 5],
      flags: ['smelly', 'badattitude'],
      show_hidden: false,
      sort: 'time',
    });
    expect(commentFilter.safeParse({ star_levels: '0' }).success).toBe(false);
    expect(commentFilter.safeParse({ flags: 'dirty' }).success).toBe(false);
  });
});

describe('commentLevel', () => {
  it('names the SPEC levels 无 极差 差 中 良 优', () => {
    expect([0, 1, 2, 3, 4, 5].map(commentLevel)).toEqual(['无', '极差', '差', '中', '良', '优']);
    expect(commentLevel(4.6)).toBe('优');
    expect(commentLevel(9)).toBe('无');
  });
});
