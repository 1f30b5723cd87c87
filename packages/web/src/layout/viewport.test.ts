import { describe, expect, it } from 'vitest';
import { isWeChat } from './viewport.ts';

describe('viewport helpers', () => {
  it('recognises the WeChat in-app browser by its user agent', () => {
    expect(isWeChat('Mozilla/5.0 (iPhone) AppleWebKit/605.1.15 MicroMessenger/8.0.49 NetType/WIFI')).toBe(
      true,
    );
    expect(isWeChat('Mozilla/5.0 (Windows NT 10.0) Chrome/130.0 Safari/537.36')).toBe(false);
  });
});
