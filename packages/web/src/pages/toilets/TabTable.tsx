import { PlusOutlined } from '@ant-design/icons';
import { Button, Empty, Flex, Table, type TableProps } from 'antd';
import type { ReactNode } from 'react';

/**
 * A toilet detail tab's table (parts, devices, display tokens): a line about the rows with
 * the tab's small add button (for a manager), then every row in a small table.
 */
export function TabTable<Row extends { id: number }>({
  summary,
  add,
  rows,
  empty,
  width,
  ...table
}: {
  summary: ReactNode;
  add?: { label: string; icon?: ReactNode; onClick: () => void };
  rows: Row[];
  empty: string;
  /** Under this width the table scrolls inside itself. */
  width: number;
} & Pick<TableProps<Row>, 'columns' | 'loading' | 'pagination'>) {
  return (
    <>
      <Flex align="center" gap={8} wrap>
        {summary}
        {add && (
          <Button
            type="primary"
            size="small"
            icon={add.icon ?? <PlusOutlined />}
            style={{ marginInlineStart: 'auto' }}
            onClick={add.onClick}
          >
            {add.label}
          </Button>
        )}
      </Flex>
      <Table<Row>
        rowKey="id"
        size="small"
        dataSource={rows}
        pagination={false}
        scroll={{ x: width }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} /> }}
        {...table}
      />
    </>
  );
}
