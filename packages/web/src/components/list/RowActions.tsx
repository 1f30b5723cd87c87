import { EditOutlined, EyeOutlined } from '@ant-design/icons';
import type { Envelope } from '@se/core';
import { Button, Flex, type ButtonProps } from 'antd';
import type { ReactNode } from 'react';
import { attempt } from '../feedback.ts';
import { DeleteButton } from './ConfirmButton.tsx';

/** A row's small link button (编辑, 记录, 发送测试 …). */
export function RowAction(props: Omit<ButtonProps, 'size' | 'type'> & { children: ReactNode }) {
  return <Button size="small" type="link" {...props} />;
}

/** What a row's 删除 asks and calls: see `DeleteAction`. */
export interface Deletion {
  title: string;
  question: string;
  call: () => Promise<Envelope<unknown>>;
  /** The success toast; `false` when `onDeleted` says it itself (a toast with 撤销). */
  done?: string | false;
  onDeleted: () => void;
}

/**
 * A row's 删除: asks `question` under `title`, then makes the `call`, says `done` (删除成功)
 * and runs `onDeleted` (the list loads again); a refusal is shown as a warning.
 */
export function DeleteAction({ title, question, call, done = '删除成功', onDeleted }: Deletion) {
  const remove = async () => {
    const outcome = await attempt(call, done || undefined);
    if (outcome.ok) onDeleted();
  };
  return <DeleteButton title={title} description={question} onConfirm={remove} />;
}

/**
 * The usual actions of a row: 详情 (when `detail` is given), 编辑, the row's own buttons
 * (`children`: 记录, 发送测试 …) and the `remove` 删除.
 */
export function RowActions({
  detail,
  detailIcon = <EyeOutlined />,
  edit,
  remove,
  wrap,
  children,
}: {
  detail?: () => void;
  detailIcon?: ReactNode;
  edit: () => void;
  remove: Deletion;
  wrap?: boolean;
  children?: ReactNode;
}) {
  return (
    <Flex wrap={wrap} gap={0}>
      {detail && (
        <RowAction icon={detailIcon} onClick={detail}>
          详情
        </RowAction>
      )}
      <RowAction icon={<EditOutlined />} onClick={edit}>
        编辑
      </RowAction>
      {children}
      <DeleteAction {...remove} />
    </Flex>
  );
}
