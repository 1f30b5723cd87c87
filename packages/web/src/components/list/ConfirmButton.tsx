import { DeleteOutlined } from '@ant-design/icons';
import { Button, Popconfirm, type ButtonProps } from 'antd';
import type { ReactNode } from 'react';

/**
 * A button that asks first (删除, 隐藏 …): a Popconfirm with the question, `okText` on its
 * confirm button (danger unless `danger={false}`) and 取 消. A row action by default.
 */
export function ConfirmButton({
  title,
  description,
  okText,
  onConfirm,
  danger = true,
  children,
  size = 'small',
  type = 'link',
  ...button
}: {
  title: string;
  description: ReactNode;
  okText: string;
  onConfirm: () => unknown;
  danger?: boolean;
  children: ReactNode;
} & Pick<ButtonProps, 'icon' | 'loading' | 'disabled' | 'size' | 'type'>) {
  return (
    <Popconfirm
      title={title}
      description={description}
      okText={okText}
      okButtonProps={danger ? { danger: true } : undefined}
      cancelText="取 消"
      disabled={button.disabled}
      onConfirm={onConfirm}
    >
      <Button size={size} type={type} danger={danger} {...button}>
        {children}
      </Button>
    </Popconfirm>
  );
}

/** 删除 that asks first: a ConfirmButton with the delete icon, 删除 on both buttons unless given. */
export function DeleteButton({
  children = '删除',
  ...props
}: Omit<Parameters<typeof ConfirmButton>[0], 'okText' | 'icon' | 'children'> & { children?: ReactNode }) {
  return (
    <ConfirmButton okText="删除" icon={<DeleteOutlined />} {...props}>
      {children}
    </ConfirmButton>
  );
}
