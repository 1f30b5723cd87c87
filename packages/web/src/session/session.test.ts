import { describe, expect, it } from 'vitest';
import { clearSession, completeLogin, loginTarget, safeRedirect } from './session.ts';
import { expectSession, expectSignedOut } from './test-session.ts';

const data = { auth_token: 'tok-9', user_name: '王五', permission: 127, user_id: 5 };

describe('session', () => {
  it('stores token and user_name and fills the store on login', () => {
    completeLogin(data);
    expectSession({ token: 'tok-9', userName: '王五', permission: 127, userID: 5 });
  });

  it('returns to the anonymous session when cleared', () => {
    completeLogin(data);
    clearSession();
    expectSignedOut();
  });
});

describe('where login leads', () => {
  it('follows the redirect query first', () => {
    localStorage.setItem('OdHomePagePath', '/gateways');
    expect(loginTarget('?redirect=%2Fusers%3Fpage%3D2')).toBe('/users?page=2');
  });

  it('falls back to OdHomePagePath, then /', () => {
    expect(loginTarget('')).toBe('/');
    localStorage.setItem('OdHomePagePath', '/gateways');
    expect(loginTarget('')).toBe('/gateways');
  });

  it('ignores redirects that leave the site or loop back to login', () => {
    for (const bad of [
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      '/login?redirect=/x',
      'users',
    ]) {
      expect(safeRedirect(bad), bad).toBeNull();
    }
    expect(loginTarget('?redirect=https%3A%2F%2Fevil.example')).toBe('/');
  });
});
