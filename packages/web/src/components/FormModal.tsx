import { Modal } from 'antd';
import type { ReactNode } from 'react';
import { useIsMobile } from '../layout/viewport.ts';

/**
 * The edit dialog every screen uses: 保存 / 取 消, not closed by a click outside (SPEC §2),
 * 95% wide on phones, contents discarded when closed; `onClosed` runs once it has faded out.
 */
export function FormModal({
  open,
  title,
  width,
  saving,
  onSave,
  onCancel,
  onClosed,
  children,
}: {
  open: boolean;
  title: ReactNode;
  width: number;
  saving: boolean;
  onSave: () => void;
  onCancel: () => void;
  onClosed: () => void;
  children: ReactNode;
}) {
  const mobile = useIsMobile();
  return (
    <Modal
      open={open}
      title={title}
      width={mobile ? '95%' : width}
      okText="保存"
      cancelText="取 消"
      confirmLoading={saving}
      mask={{ closable: false }}
      onOk={onSave}
      onCancel={onCancel}
      afterOpenChange={(visible) => {
        if (!visible) onClosed();
      }}
      destroyOnHidden
    >
      {children}
    </Modal>
  );
}
