import { render, screen } from '@testing-library/react';
import { PERMISSION } from '@se/core';
import { describe, expect, it } from 'vitest';
import { useSession } from '../session/store.ts';
import { Has, Unhas } from './Guard.tsx';

const as = (permission: number) => useSession.getState().signIn({ userName: 'u', permission, userID: 1 });
const shown = () => screen.queryAllByRole('button').map((b) => b.textContent);

function Controls() {
  return (
    <>
      <Has need="apier">
        <button>对接接口</button>
      </Has>
      <Has need={PERMISSION.dealer | PERMISSION.user}>
        <button>分配设备</button>
      </Has>
      <Unhas need="develop">
        <button>申请开发者权限</button>
      </Unhas>
    </>
  );
}

describe('has / unhas element guards (SPEC §6)', () => {
  it('removes an element unless the mask holds all its bits, or when the user has it', () => {
    as(PERMISSION.user | PERMISSION.visitor);
    const { rerender } = render(<Controls />);
    expect(shown()).toEqual(['申请开发者权限']);

    // dealer alone lacks the user bit: 'has' wants all bits.
    as(PERMISSION.dealer);
    rerender(<Controls />);
    expect(shown()).toEqual(['申请开发者权限']);

    as(PERMISSION.oemer); // 127 holds apier 64, dealer 4 and user 2
    rerender(<Controls />);
    expect(shown()).toEqual(['对接接口', '分配设备', '申请开发者权限']);

    as(PERMISSION.develop);
    rerender(<Controls />);
    expect(shown()).toEqual(['对接接口', '分配设备']);
  });
});
