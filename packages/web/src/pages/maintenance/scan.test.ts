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

  it("says where to go for a toilet's public 评价 code, and refuses anything else", () => {
    expect(readScanned(`${ORIGIN}${commentPath('a1b2c3')}`, ORIGIN)).toEqual({
      error: '这是厕所的评价二维码，厕所报修请在厕所详情中点「报修」',
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
