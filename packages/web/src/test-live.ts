import { act } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { FakeSocket } from './live/fake-socket.ts';
import { closeLiveSocket } from './live/socket.ts';

/**
 * For each test of the calling file: the browser's WebSocket is a FakeSocket, the session
 * token in localStorage is `token`, and the shared live socket is closed afterwards.
 * Gives the sockets the app opened in the current test (newest last), the newest, and
 * `connect()`: the server's side of opening and accepting the sign-in.
 */
export function fakeBrowserSockets(token = 'tok') {
  const made: FakeSocket[] = [];
  class BrowserSocket extends FakeSocket {
    constructor(url: string) {
      super(url);
      made.push(this);
    }
  }
  beforeEach(() => {
    made.length = 0;
    vi.stubGlobal('WebSocket', BrowserSocket);
    localStorage.setItem('token', token);
  });
  afterEach(() => closeLiveSocket());
  const current = () => made.at(-1)!;
  return {
    made,
    current,
    async connect() {
      current().open();
      current().reply(current().last('auth'));
      await act(async () => {});
    },
  };
}
