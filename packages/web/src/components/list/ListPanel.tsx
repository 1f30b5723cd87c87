import { DeleteOutlined, EditOutlined, EyeOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Flex, type ButtonProps } from 'antd';
import { ConfirmButton } from './ConfirmButton.tsx';
import type { ReactNode } from 'react';
import { ListTable, type ListTableProps } from './ListTable.tsx';
import { ListToolbar } from './ListToolbar.tsx';
import type { RowsPage } from './use-list-query.ts';

/** A row action: a small link button (编辑, 详情 …). */
export function LinkButton(props: Omit<ButtonProps, 'size' | 'type'> & { children: ReactNode }) {
  return <Button size="small" type="link" {...props} />;
}

/** The primary 新增 button of a list (新增用户, 登记设备 …). */
export function AddButton({ label, onClick, size }: { label: string; onClick: () => void; size?: 'small' }) {
  return (
    <Button type="primary" size={size} icon={<PlusOutlined />} onClick={onClick}>
      {label}
    </Button>
  );
}

/**
 * A list inside a drawer or tab: a small card with its title and 新增 button, the filters
 * (each applied at once or on Enter, no 查询/重置) and a compact table.
 */
export function ListPanel<Row, F, P extends RowsPage<Row>>({
  title,
  add,
  ...table
}: ListTableProps<Row, F, P> & { title: string; add?: { label: string; onClick: () => void } }) {
  return (
    <Card size="small" title={title} extra={add && <AddButton size="small" {...add} />}>
      <ListToolbar list={table.list} buttons={false} />
      <ListTable {...table} compact />
    </Card>
  );
}

/**
 * The usual actions of a row: 详情 (when `detail` is given), 编辑, and 删除 after the question
 * in `remove`.
 */
export function RowActions({
  detail,
  detailIcon = <EyeOutlined />,
  edit,
  remove,
  wrap,
}: {
  detail?: () => void;
  detailIcon?: ReactNode;
  edit: () => void;
  remove: { title: string; description: string; onConfirm: () => unknown };
  wrap?: boolean;
}) {
  return (
    <Flex wrap={wrap} gap={0}>
      {detail && (
        <LinkButton icon={detailIcon} onClick={detail}>
          详情
        </LinkButton>
      )}
      <LinkButton icon={<EditOutlined />} onClick={edit}>
        编辑
      </LinkButton>
      <ConfirmButton {...remove} okText="删除" icon={<DeleteOutlined />}>
        删除
      </ConfirmButton>
    </Flex>
  );
}
