import { SendOutlined } from '@ant-design/icons';
import type { DeviceRow, ParameterSet } from '@se/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Descriptions, Flex, Popconfirm, Select, Tag } from 'antd';
import { useState } from 'react';
import { applyParameterSet, listParameterSets, updateParameterSet } from '../../api/devices.ts';
import { EntityList } from '../../components/EntityList.tsx';
import { text, useListQuery, type ListColumn } from '../../components/list/index.ts';
import { useHas } from '../../components/Guard.tsx';
import { commandsKey } from './CommandsTab.tsx';
import { attempt, loadOrThrow } from '../../components/feedback.ts';
import { environmentLabel } from './parameter-fields.ts';
import { ParameterSetDialog } from './ParameterSetDialog.tsx';
import { useDebounced } from '../../components/use-debounced.ts';

const parameterSetsKey = ['parameter-sets'] as const;

/** SPEC §9: remote select searches wait 300 ms after the last key. */

const setLabel = (p: Pick<ParameterSet, 'parameter_num' | 'parameter_desc'>) =>
  `#${p.parameter_num} ${p.parameter_desc || '未命名参数'}`;

/** 参数: which parameter set the dispenser runs, applying another one, and the sets themselves. */
export function ParameterTab({ device }: { device: DeviceRow }) {
  return (
    <Flex vertical gap={16}>
      <ApplyParameter device={device} />
      <ParameterSets />
    </Flex>
  );
}

function ApplyParameter({ device }: { device: DeviceRow }) {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const keywords = useDebounced(search.trim());
  const [chosen, setChosen] = useState<number | undefined>(undefined);
  const [applying, setApplying] = useState(false);
  const options = useQuery({
    queryKey: [...parameterSetsKey, 'options', keywords],
    queryFn: () => loadOrThrow(() => listParameterSets({ keywords: keywords || undefined, page_size: 50 })),
    placeholderData: keepPreviousData,
  });

  const apply = async () => {
    if (chosen === undefined) return;
    setApplying(true);
    const outcome = await attempt(() => applyParameterSet(device.id, chosen), '参数已应用，等待设备接收');
    setApplying(false);
    if (outcome.ok) {
      setChosen(undefined);
      void queryClient.invalidateQueries({ queryKey: ['devices', 'jwb'] });
      void queryClient.invalidateQueries({ queryKey: commandsKey(device.id) });
    }
  };

  return (
    <Card size="small" title="当前参数">
      <Descriptions
        size="small"
        column={1}
        items={[
          {
            key: 'num',
            label: '参数编号',
            children: device.parameter_num === null ? '未设置' : `#${device.parameter_num}`,
          },
        ]}
      />
      <Flex wrap gap={8} style={{ marginTop: 8 }}>
        <Select<number>
          showSearch={{ filterOption: false, onSearch: setSearch }}
          value={chosen}
          onChange={(num) => {
            setChosen(num);
            setSearch('');
          }}
          placeholder="选择参数（可搜索说明）"
          aria-label="选择参数"
          loading={options.isFetching}
          notFoundContent={options.isFetching ? '加载中…' : '没有参数，请先在下方新建'}
          options={(options.data?.list ?? []).map((p) => ({ value: p.parameter_num, label: setLabel(p) }))}
          style={{ minWidth: 260, flex: 1 }}
        />
        <Popconfirm
          title="应用并下发"
          description="设备将使用所选参数工作，确定吗？"
          okText="下发"
          cancelText="取 消"
          onConfirm={() => apply()}
          disabled={chosen === undefined}
        >
          <Button type="primary" icon={<SendOutlined />} disabled={chosen === undefined} loading={applying}>
            应用并下发
          </Button>
        </Popconfirm>
      </Flex>
    </Card>
  );
}

const SET_FILTERS = {
  keywords: text({ placeholder: '参数说明', label: '搜索参数', width: 260, search: true }),
};

const SET_COLUMNS: ListColumn<ParameterSet>[] = [
  { title: '编号', dataIndex: 'parameter_num', width: 70, render: (n: number) => `#${n}`, card: false },
  {
    title: '说明',
    dataIndex: 'parameter_desc',
    ellipsis: true,
    render: (v: string, p) => (
      <Flex gap={4} align="center">
        <span>{v || '未命名参数'}</span>
        {p.shared && <Tag color="blue">公共</Tag>}
      </Flex>
    ),
  },
  { title: '应用环境', dataIndex: 'environment', width: 90, render: environmentLabel },
  { title: '出液时间', dataIndex: 'liquid_time', width: 90, align: 'right' },
];

function ParameterSets() {
  const developer = useHas('develop');
  const list = useListQuery({
    // The whole prefix: a change also refreshes the sets offered in 当前参数.
    key: parameterSetsKey,
    filters: SET_FILTERS,
    local: true,
    load: (f, paging) => listParameterSets({ keywords: f.keywords.trim() || undefined, ...paging }),
  });

  // Shared sets belong to the platform: only developers change them (the server says so too).
  const canEdit = (p: ParameterSet) => !p.shared || developer;

  return (
    <EntityList
      panel="参数管理"
      add="新建参数"
      list={list}
      columns={SET_COLUMNS}
      empty="暂无参数"
      cardTitle={(p) => `#${p.parameter_num}`}
      locked={(p) => (canEdit(p) ? undefined : '仅开发者可改')}
      remove={{
        title: '删除参数',
        question: (p) => `确定删除 ${setLabel(p)} 吗？已在使用的设备不受影响。`,
        update: updateParameterSet,
        done: '参数已删除',
      }}
      dialog={(set, props) => <ParameterSetDialog set={set} {...props} />}
    />
  );
}
