import { DeleteOutlined } from '@ant-design/icons';
import type { Envelope } from '@se/core';
import { Button } from 'antd';
import type { ReactNode } from 'react';
import { attempt } from '../feedback.ts';
import { ConfirmButton } from './ConfirmButton.tsx';

/** A row's link button (编辑, 记录 …). */
export function RowAction({
  icon,
  onClick,
  loading,
  children,
}: {
  icon: ReactNode;
  onClick: () => void;
  loading?: boolean;
  children: ReactNode;
}) {
  return (
    <Button size="small" type="link" icon={icon} loading={loading} onClick={onClick}>
      {children}
    </Button>
  );
}

/**
 * A row's 删除: asks `question` under `title`, then makes the `call`, says 删除成功 and runs
 * `onDeleted` (the list loads again); a refusal is shown as a warning.
 */
export function DeleteAction({
  title,
  question,
  call,
  onDeleted,
}: {
  title: string;
  question: string;
  call: () => Promise<Envelope<unknown>>;
  onDeleted: () => void;
}) {
  const remove = async () => {
    const outcome = await attempt(call, '删除成功');
    if (outcome.ok) onDeleted();
  };
  return (
    <ConfirmButton
      title={title}
      description={question}
      okText="删除"
      icon={<DeleteOutlined />}
      onConfirm={remove}
    >
      删除
    </ConfirmButton>
  );
}
