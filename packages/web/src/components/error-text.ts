import { ApiError } from '../api/client.ts';

/**
 * What a failed call says to the user, in Chinese (issue 19, SPEC §8's 网络错误): the HTTP
 * client keeps axios' texts in its errors ('Network Error', 'timeout of …ms exceeded',
 * 'Request aborted'), the screen shows 网络错误 / 请求超时 / 请求已取消.
 */
const TEXT: Record<ApiError['kind'], string | null> = {
  network: '网络错误',
  timeout: '请求超时',
  aborted: '请求已取消',
  http: '服务器错误，请稍后再试',
  format: null, // already Chinese: 服务器返回的数据无法识别
};

export function errorText(error: unknown): string {
  if (error instanceof ApiError) return TEXT[error.kind] ?? error.message;
  if (error instanceof Error && /[\u4e00-\u9fff]/.test(error.message)) return error.message;
  return '网络错误';
}
