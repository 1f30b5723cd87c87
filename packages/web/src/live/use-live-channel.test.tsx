import { act, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LIVE_DEFAULTS } from './socket.ts';
import { liveSocket, useLiveChannel } from './socket.ts';
import { fakeBrowserSockets } from '../test-live.ts';

// Older builds stored the token JSON-encoded; the socket sends it without quotes.
const { made, current, connect } = fakeBrowserSockets('"tok-9"');
const flush = () => act(async () => {});

function Listener({ id, log }: { id: number; log: unknown[] }) {
  useLiveChannel({ channel: 'device', id }, (data) => log.push(data));
  return null;
}

describe('useLiveChannel', () => {
  it('subscribes on mount, shares the channel between components, unsubscribes after the last', async () => {
    const a: unknown[] = [];
    const b: unknown[] = [];
    const view = render(
      <>
        <Listener id={5} log={a} />
        <Listener id={5} log={b} />
      </>,
    );
    expect(made).toHaveLength(1);
    expect(current().url).toMatch(/^ws:\/\/.+\/ws$/);
    current().open();
    expect(current().last('auth').data).toEqual({ token: 'tok-9' });
    current().reply(current().last('auth'));
    await flush();
    expect(current().actions()).toEqual(['auth', 'subscribe device:5']);
    current().reply(current().last('subscribe'));
    await flush();

    current().push('device', 5, { id: 5 });
    expect(a).toEqual([{ id: 5 }]);
    expect(b).toEqual([{ id: 5 }]);

    view.rerender(<Listener id={5} log={a} />);
    expect(current().actions()).toEqual(['auth', 'subscribe device:5']);

    // Another device: the channel moves with the prop.
    view.rerender(<Listener id={6} log={a} />);
    expect(current().actions().slice(2).sort()).toEqual(['subscribe device:6', 'unsubscribe device:5']);

    current().reply(current().last('subscribe'));
    await flush();
    view.unmount();
    expect(current().actions().at(-1)).toBe('unsubscribe device:6');
    expect(liveSocket().channels()).toEqual([]);
  });

  it('calls the newest handler without subscribing again', async () => {
    const first: unknown[] = [];
    const second: unknown[] = [];
    const view = render(<Listener id={5} log={first} />);
    await connect();
    view.rerender(<Listener id={5} log={second} />);
    current().push('device', 5, 'x');
    expect(first).toEqual([]);
    expect(second).toEqual(['x']);
    expect(
      current()
        .actions()
        .filter((x) => x.startsWith('subscribe')),
    ).toHaveLength(1);
  });

  it('does nothing with a null channel', () => {
    function Off() {
      useLiveChannel(null, () => {});
      return null;
    }
    render(<Off />);
    expect(made).toHaveLength(0);
  });

  describe('in a hidden tab', () => {
    let visibility: DocumentVisibilityState = 'visible';
    const show = (state: DocumentVisibilityState) => {
      visibility = state;
      document.dispatchEvent(new Event('visibilitychange'));
    };
    afterEach(() => {
      show('visible');
      vi.useRealTimers();
    });

    it('stops the pushes of a tab left in the background, and resubscribes when it comes back', async () => {
      vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
      vi.useFakeTimers();
      const log: unknown[] = [];
      render(<Listener id={5} log={log} />);
      await connect();
      current().reply(current().last('subscribe'));
      await flush();
      current().push('device', 5, 'seen');

      show('hidden');
      await act(() => vi.advanceTimersByTimeAsync(LIVE_DEFAULTS.hiddenPauseMs));
      expect(current().closedWith).not.toBeNull();
      current().push('device', 5, 'unseen');
      expect(log).toEqual(['seen']);
      expect(made).toHaveLength(1);

      show('visible');
      expect(made).toHaveLength(2);
      await connect();
      expect(current().actions()).toEqual(['auth', 'subscribe device:5']);
      current().reply(current().last('subscribe'));
      await flush();
      current().push('device', 5, 'again');
      expect(log).toEqual(['seen', 'again']);
    });
  });
});
