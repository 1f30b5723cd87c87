import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client.ts';
import { errorText } from './error-text.ts';

describe('errorText', () => {
  it("says a transport failure in Chinese, not the HTTP client's English", () => {
    expect(errorText(new ApiError('network', 'Network Error'))).toBe('网络错误');
    expect(errorText(new ApiError('timeout', 'timeout of 60000ms exceeded'))).toBe('请求超时');
    expect(errorText(new ApiError('aborted', 'Request aborted'))).toBe('请求已取消');
    expect(errorText(new ApiError('http', 'Request failed with status code 502', 502))).toBe(
      '服务器错误，请稍后再试',
    );
    expect(errorText(new ApiError('format', '服务器返回的数据无法识别'))).toBe('服务器返回的数据无法识别');
    expect(errorText(new Error('设备不存在'))).toBe('设备不存在');
    expect(errorText(new TypeError('Failed to fetch'))).toBe('网络错误');
    expect(errorText('boom')).toBe('网络错误');
  });
});
