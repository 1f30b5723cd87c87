import { addRecordPath, commentPath } from '@se/core';
import { describe, expect, it } from 'vitest';
import { cameraError, readScanned } from './scan.ts';

const ORIGIN = 'https://console.example.com';

describe('扫码: what a QR code names', () => {
  it("reads a device's code (the add-record link for its serial), a toilet's 报修 link and a bare serial", () => {
    expect(readScanned(`${ORIGIN}${addRecordPath({ ser_num: 'JWB-0012' })}`, ORIGIN)).toEqual({
      ser_num: 'JWB-0012',
    });
    expect(readScanned(`${ORIGIN}${addRecordPath({ toilet_id: 7 })}`, ORIGIN)).toEqual({ toilet_id: 7 });
    expect(readScanned(' MT-00012 ', ORIGIN)).toEqual({ ser_num: 'MT-00012' });
  });

  it("reads a toilet's public 评价 code (its review page link) as that toilet, from any origin", () => {
    const publicId = 'q7Xk2bN9cR4tV1mZ8wYs3A';
    expect(readScanned(`${ORIGIN}${commentPath(publicId)}`, ORIGIN)).toEqual({ toilet_public_id: publicId });
    // Printed on another copy of the console (the demo's, a test server's): the id is the toilet's.
    expect(readScanned(`http://192.168.1.20:8080${commentPath(publicId)}`, ORIGIN)).toEqual({
      toilet_public_id: publicId,
    });
    // Other parameters around the id (a link passed on with some added) do not matter.
    expect(readScanned(`${ORIGIN}/add-comment?from=screen&toilet_id=${publicId}&x=1`, ORIGIN)).toEqual({
      toilet_public_id: publicId,
    });
  });

  it('refuses a review code without a public id (an old printed one) and anything else', () => {
    expect(readScanned(`${ORIGIN}/add-comment?toilet_id=12`, ORIGIN)).toEqual({
      error: '评价二维码已失效，请在厕所详情中重新打印',
    });
    expect(readScanned(`${ORIGIN}/add-comment`, ORIGIN)).toEqual({
      error: '评价二维码已失效，请在厕所详情中重新打印',
    });
    expect(readScanned(`${ORIGIN}${commentPath('a1b2c3')}`, ORIGIN)).toEqual({
      error: '评价二维码已失效，请在厕所详情中重新打印',
    });
    expect(readScanned('https://example.com/somewhere', ORIGIN)).toEqual({ error: '无法识别的二维码' });
    expect(readScanned('你好 世界', ORIGIN)).toEqual({ error: '无法识别的二维码' });
  });

  it('explains a refused permission and a missing camera in Chinese', () => {
    expect(cameraError(new DOMException('denied', 'NotAllowedError'))).toBe(
      '没有相机权限：请在浏览器设置中允许本网站使用相机，或手动输入序列号',
    );
    expect(cameraError(new DOMException('none', 'NotFoundError'))).toBe(
      '没有找到可用的相机，请手动输入序列号',
    );
  });
});
