import { render } from '@testing-library/react';
import { Modal, theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { UiProvider } from './App.tsx';

function Tokens({ onToken }: { onToken: (t: ReturnType<typeof theme.useToken>['token']) => void }) {
  onToken(theme.useToken().token);
  return null;
}

describe('SPEC §9 UI timings, set once for the whole app', () => {
  it('opens dialogs 15vh from the top, above everything from z-index 2000, animating in 200 ms', () => {
    let token: ReturnType<typeof theme.useToken>['token'] | undefined;
    render(
      <UiProvider>
        <Tokens onToken={(t) => (token = t)} />
        <Modal open title="确认">
          内容
        </Modal>
      </UiProvider>,
    );
    expect(document.querySelector<HTMLElement>('.ant-modal')!.style.top).toBe('15vh');
    expect(token!.zIndexPopupBase).toBe(2000);
    expect(token!.motionDurationMid).toBe('0.2s');
  });
});
