import {
  MEDIA_KINDS,
  PLAYLIST_LAYOUT_LABELS,
  PLAYLIST_LAYOUTS,
  PLAYLIST_LIMITS,
  TRANSITION_LABELS,
  TRANSITIONS,
  addPlaylistBody,
  type MediaItemRow,
  type PlaylistRow,
} from '@se/core';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex, Form, InputNumber, Select, Tag, Typography } from 'antd';
import { addPlaylist, approvedItems, listPlaylists, updatePlaylist } from '../../api/media-players.ts';
import { EntityList } from '../../components/EntityList.tsx';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import type { FormField } from '../../components/form-fields.tsx';
import { text, useListQuery, type FilterFields, type ListColumn } from '../../components/list/index.ts';
import { secondsText } from './delivery-text.ts';

interface Entry {
  media_id: number;
  duration_s: number;
}
interface PlaylistForm {
  name: string;
  layout: (typeof PLAYLIST_LAYOUTS)[number];
  transition: (typeof TRANSITIONS)[number];
  ticker: string;
  items: Entry[];
}

/** The ordered items: add approved content, set each one's seconds (a video plays its own), reorder. */
function ItemsEditor({
  value = [],
  onChange,
  content,
}: {
  value?: Entry[];
  onChange?: (v: Entry[]) => void;
  content: MediaItemRow[];
}) {
  const byId = new Map(content.map((c) => [c.id, c]));
  const set = (v: Entry[]) => onChange?.(v);
  const move = (i: number, d: number) => {
    const next = [...value];
    [next[i], next[i + d]] = [next[i + d]!, next[i]!];
    set(next);
  };
  return (
    <Flex vertical gap={8}>
      {value.map((e, i) => {
        const m = byId.get(e.media_id);
        const video = m?.kind === 'video';
        return (
          <Flex key={`${e.media_id}-${i}`} gap={8} align="center" wrap aria-label={`第${i + 1}项`}>
            <Typography.Text style={{ width: 24 }}>{i + 1}.</Typography.Text>
            <Tag>{m ? MEDIA_KINDS[m.kind] : '内容'}</Tag>
            <Typography.Text ellipsis style={{ flex: 1, minWidth: 120 }}>
              {m?.name ?? `#${e.media_id}`}
            </Typography.Text>
            {video ? (
              <Typography.Text type="secondary">
                {m.duration_ms ? secondsText(Math.ceil(m.duration_ms / 1000)) : '视频时长'}
              </Typography.Text>
            ) : (
              <InputNumber<number>
                min={PLAYLIST_LIMITS.itemSeconds.min}
                max={PLAYLIST_LIMITS.itemSeconds.max}
                precision={0}
                value={e.duration_s}
                onChange={(v) =>
                  set(
                    value.map((x, j) =>
                      j === i ? { ...x, duration_s: v ?? PLAYLIST_LIMITS.defaultSeconds } : x,
                    ),
                  )
                }
                addonAfter="秒"
                aria-label="时长"
                style={{ width: 120 }}
              />
            )}
            <Button
              size="small"
              icon={<ArrowUpOutlined />}
              disabled={i === 0}
              onClick={() => move(i, -1)}
              aria-label="上移"
            />
            <Button
              size="small"
              icon={<ArrowDownOutlined />}
              disabled={i === value.length - 1}
              onClick={() => move(i, 1)}
              aria-label="下移"
            />
            <Button
              size="small"
              danger
              icon={<DeleteOutlined />}
              onClick={() => set(value.filter((_, j) => j !== i))}
              aria-label="移除"
            />
          </Flex>
        );
      })}
      <Select<number>
        showSearch
        value={null as unknown as number}
        placeholder={content.length ? '添加已通过审核的内容…' : '暂无已通过审核的内容'}
        aria-label="添加内容"
        optionFilterProp="label"
        options={content.map((c) => ({ value: c.id, label: `${MEDIA_KINDS[c.kind]}：${c.name}` }))}
        onChange={(id) => set([...value, { media_id: id, duration_s: PLAYLIST_LIMITS.defaultSeconds }])}
      />
    </Flex>
  );
}

export function PlaylistDialog({
  playlist,
  onSaved,
  onClosed,
}: DialogProps<{ playlist: PlaylistRow | null }>) {
  const content = useQuery({ queryKey: ['media', 'approved'], queryFn: approvedItems });
  const [form] = Form.useForm<PlaylistForm>();
  const fields: FormField<PlaylistForm>[] = [
    { name: 'name', label: '名称', required: true, maxLength: 50, placeholder: '如：大厅屏日常' },
    {
      name: 'layout',
      label: '布局',
      kind: 'select',
      span: 12,
      options: PLAYLIST_LAYOUTS.map((v) => ({ value: v, label: PLAYLIST_LAYOUT_LABELS[v] })),
    },
    {
      name: 'transition',
      label: '转场',
      kind: 'select',
      span: 12,
      options: TRANSITIONS.map((v) => ({ value: v, label: TRANSITION_LABELS[v] })),
    },
    {
      name: 'ticker',
      label: '滚动字幕',
      kind: 'textarea',
      maxLength: 500,
      hidden: (v) => v.layout !== 'zones',
      extra: '分区布局：主区播放内容，底部滚动字幕，侧边实时数据区显示厕所的空气质量、使用情况和星级。',
    },
    {
      name: 'items',
      label: '播放内容',
      required: true,
      render: () => <ItemsEditor content={content.data ?? []} />,
    },
  ];
  return (
    <FormModal
      form={form}
      title={playlist ? `编辑播放列表 ${playlist.name}` : '新增播放列表'}
      width={720}
      name="playlist"
      fields={fields}
      schema={addPlaylistBody}
      initialValues={{
        name: playlist?.name ?? '',
        layout: playlist?.layout ?? 'full',
        transition: playlist?.transition ?? 'none',
        ticker: playlist?.ticker ?? '',
        items: playlist?.items.map((i) => ({ media_id: i.media_id, duration_s: i.duration_s })) ?? [],
      }}
      submit={(v) => {
        const body = { ...v, name: v.name.trim(), ticker: (v.ticker ?? '').trim() };
        return playlist ? updatePlaylist({ id: playlist.id, ...body }) : addPlaylist(body);
      }}
      success={playlist ? '已保存，使用它的播放器将收到新清单' : '新增成功'}
      onSaved={onSaved}
      onClosed={onClosed}
    />
  );
}

const FILTERS: FilterFields<{ keywords: string }> = {
  keywords: text({ placeholder: '名称', width: 220, search: true }),
};

const COLUMNS: ListColumn<PlaylistRow>[] = [
  { title: '名称', dataIndex: 'name', width: 160, ellipsis: true, card: false },
  {
    title: '布局',
    dataIndex: 'layout',
    width: 190,
    render: (v: PlaylistRow['layout']) => PLAYLIST_LAYOUT_LABELS[v],
  },
  {
    title: '内容',
    key: 'items',
    ellipsis: true,
    render: (_, p) => p.items.map((i) => (i.status === 1 ? i.name : `${i.name}（不可播放）`)).join('、'),
  },
  { title: '总时长', dataIndex: 'total_s', width: 110, render: (s: number) => secondsText(s) },
  { title: '更新时间', dataIndex: 'updated_at', width: 170, from: 'lg' },
];

/** 播放列表 */
export function PlaylistsTab() {
  const list = useListQuery({
    key: ['media', 'playlists'],
    filters: FILTERS,
    param: 'playlist.',
    load: (f, paging) => listPlaylists({ keywords: f.keywords.trim() || undefined, ...paging }),
  });
  return (
    <EntityList
      list={list}
      columns={COLUMNS}
      add="新增播放列表"
      empty={list.filtered ? '没有符合条件的播放列表' : '暂无播放列表'}
      remove={{
        title: '删除播放列表',
        question: (p) => `确定删除播放列表「${p.name}」吗？`,
        update: updatePlaylist,
      }}
      dialog={(playlist, props) => <PlaylistDialog playlist={playlist} {...props} />}
    />
  );
}
