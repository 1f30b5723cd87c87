import { PlusOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Flex } from 'antd';
import { Fragment, type ReactNode } from 'react';
import { useIsMobile } from '../../layout/viewport.ts';
import type { ListQuery, RowsPage } from './use-list-query.ts';

/** What a list's primary 新增 button says and does (新增用户, 登记设备 …). */
export interface Add {
  label: string;
  onClick: () => void;
}

/** The primary 新增 button of a list: `add` of `ListToolbar` and `ListPanel`. */
export function AddButton({ label, onClick, size }: Add & { size?: 'small' }) {
  return (
    <Button type="primary" size={size} icon={<PlusOutlined />} onClick={onClick}>
      {label}
    </Button>
  );
}

export interface ListToolbarProps<F, P extends RowsPage<unknown>> {
  list: ListQuery<F, P>;
  buttons?: boolean;
  extra?: ReactNode;
  actions?: ReactNode;
  add?: Add;
  refresh?: boolean;
}

/**
 * A list's filter inputs (from its filter list), 查询 and 重置 (left out with `buttons={false}`:
 * then a typed filter applies on Enter and every other one as soon as it changes), then `extra` (刷新 …) and the right-aligned `actions`
 * (新增, 导出 …); `add` is the usual first action, a primary 新增… button, and `refresh` a 刷新
 * button after the inputs (a list that changes in the background).
 */
export function ListToolbar<F, P extends RowsPage<unknown>>({
  list,
  buttons = true,
  extra,
  actions,
  add,
  refresh,
}: ListToolbarProps<F, P>) {
  const mobile = useIsMobile();
  const { filters, draft } = list;
  return (
    <Flex wrap gap="small" align="center" style={{ marginBottom: 16 }}>
      {(Object.keys(filters) as (keyof F)[]).map((k) => {
        const field = filters[k];
        // Without 查询 nothing would ever apply a picked value that waits for it.
        const now = field.instant || (!buttons && !field.typed);
        return (
          <Fragment key={String(k)}>
            {field.render?.({
              value: draft[k],
              mobile,
              onChange: (value) => (now ? list.apply : list.setDraft)({ [k]: value } as Partial<F>),
              onSearch: (...value) => list.apply(value.length ? ({ [k]: value[0] } as Partial<F>) : {}),
            })}
          </Fragment>
        );
      })}
      {buttons && (
        <>
          <Button type="primary" icon={<SearchOutlined />} onClick={() => list.apply()}>
            查询
          </Button>
          <Button icon={<ReloadOutlined />} onClick={list.reset}>
            重置
          </Button>
        </>
      )}
      {refresh && <Button icon={<ReloadOutlined />} onClick={list.refresh} aria-label="刷新" />}
      {extra}
      {(actions || add) && (
        <Flex wrap gap="small" style={{ marginInlineStart: mobile ? 0 : 'auto' }}>
          {add && <AddButton {...add} />}
          {actions}
        </Flex>
      )}
    </Flex>
  );
}
