import { Drawer } from 'antd';
import { useState, type ReactNode } from 'react';
import { useIsMobile } from '../layout/viewport.ts';
import type { ClosingProps } from './FormModal.tsx';

/**
 * A drawer mounted per use (`{drawer.target && <XDrawer … />}`), like the kit's dialogs: it
 * closes itself (×, Esc, a click outside), the whole screen wide on phones, and runs
 * `onClosed` once it has slid out; the parent unmounts it then.
 */
export function MountedDrawer({
  title,
  extra,
  width,
  onClosed,
  children,
}: ClosingProps & { title: ReactNode; extra?: ReactNode; width: number; children: ReactNode }) {
  const mobile = useIsMobile();
  const [open, setOpen] = useState(true);
  return (
    <Drawer
      title={title}
      extra={extra}
      open={open}
      size={mobile ? '100%' : width}
      onClose={() => setOpen(false)}
      afterOpenChange={(visible) => {
        if (!visible) onClosed();
      }}
      destroyOnHidden
    >
      {children}
    </Drawer>
  );
}
