import { CheckOutlined, CloseOutlined, EyeOutlined, LinkOutlined } from '@ant-design/icons';
import {
  MEDIA_STATUS,
  MEDIA_STATUS_LABELS,
  PERMISSION,
  has,
  type MediaItemRow,
  type MediaKind,
  type MediaStatus,
} from '@se/core';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Image, Modal, Progress, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import {
  decideMedia,
  listMedia,
  mediaQuota,
  removeMedia,
  renameMedia,
  reviewQueue,
} from '../../api/media.ts';
import { attempt, loadOrThrow } from '../../components/feedback.ts';
import { FormModal } from '../../components/FormModal.tsx';
import {
  ConfirmButton,
  DeleteAction,
  ListTable,
  ListToolbar,
  RowAction,
  segmented,
  select,
  text,
  useDialog,
  useListQuery,
  type FilterFields,
  type ListColumn,
} from '../../components/list/index.ts';
import { useIsMobile } from '../../layout/viewport.ts';
import { usePageRoute } from '../../navigation/page-route.ts';
import { useSession } from '../../session/store.ts';
import { mediaName } from '@se/core';
import { z } from 'zod';
import { MediaView } from './MediaView.tsx';
import { RejectDialog } from './ReviewDialog.tsx';
import { TextDialog } from './TextDialog.tsx';
import { TextPreview } from './TextPreview.tsx';
import { UploadDialog } from './UploadDialog.tsx';
import { UrlDialog } from './UrlDialog.tsx';
import {
  KIND_OF_ROUTE,
  KIND_WORD,
  STATUS_COLOR,
  STATUS_OPTIONS,
  bytesText,
  detailText,
} from './media-text.ts';

type View = 'mine' | 'review';
interface Filters {
  view: View;
  status: MediaStatus | undefined;
  keywords: string;
}

const FILTERS = (reviewer: boolean): FilterFields<Filters> => ({
  ...(reviewer
    ? {
        view: segmented<View>({
          options: [
            { value: 'mine', label: '内容库' },
            { value: 'review', label: '待我审核' },
          ],
        }),
      }
    : { view: { initial: 'mine' as View, encode: () => undefined, decode: () => 'mine' as View } }),
  status: select({ options: STATUS_OPTIONS, placeholder: '审核状态', width: 120 }),
  keywords: text({ placeholder: '名称', label: '关键字', width: 180 }),
});

function StatusTag({ row }: { row: MediaItemRow }) {
  const tag = (
    <Tag color={STATUS_COLOR[row.status as MediaStatus]}>
      {MEDIA_STATUS_LABELS[row.status as MediaStatus]}
    </Tag>
  );
  if (row.status === MEDIA_STATUS.rejected && row.reject_reason) {
    return (
      <Flex vertical gap={2}>
        {tag}
        <Typography.Text type="danger" style={{ fontSize: 12 }}>
          {row.reject_reason}
        </Typography.Text>
      </Flex>
    );
  }
  if (row.reviewer_name)
    return <Tooltip title={`${row.reviewer_name} 于 ${row.reviewed_at} 审核`}>{tag}</Tooltip>;
  return tag;
}

function Thumb({ row }: { row: MediaItemRow }) {
  if (row.kind === 'text' && row.text_body)
    return <TextPreview body={{ ...row.text_body, scroll_speed: 0 }} width={96} />;
  if (row.thumb_url)
    return (
      <Image
        src={row.thumb_url}
        alt={row.name}
        width={96}
        height={54}
        style={{ objectFit: 'cover' }}
        preview={false}
      />
    );
  return (
    <Flex align="center" justify="center" style={{ width: 96, height: 54, background: '#f5f5f5' }}>
      <LinkOutlined />
    </Flex>
  );
}

function Quota() {
  const q = useQuery({ queryKey: ['media', 'quota'], queryFn: () => loadOrThrow(mediaQuota) });
  if (!q.data) return null;
  const pct = q.data.quota ? Math.min(100, Math.round((q.data.used / q.data.quota) * 100)) : 100;
  return (
    <Flex align="center" gap={8} style={{ minWidth: 260 }} data-testid="media-quota">
      <Typography.Text type="secondary">存储空间</Typography.Text>
      <Progress
        percent={pct}
        size="small"
        style={{ width: 120, margin: 0 }}
        status={pct >= 90 ? 'exception' : 'normal'}
      />
      <Typography.Text type="secondary">
        {bytesText(q.data.used)} / {bytesText(q.data.quota)}
      </Typography.Text>
    </Flex>
  );
}

type Open =
  | { what: 'upload' }
  | { what: 'url' }
  | { what: 'text'; row: MediaItemRow | null }
  | { what: 'rename'; row: MediaItemRow }
  | { what: 'reject'; row: MediaItemRow };

const renameSchema = z.object({ name: mediaName });

/** /pictures, /videos, /texts: one library each, its uploads, previews and review (审核). */
export default function MediaPage() {
  const route = usePageRoute();
  const kind: MediaKind | undefined = KIND_OF_ROUTE[route.name];
  if (!kind) throw new Error(`no media kind for route ${route.name}`);
  return <Library kind={kind} />;
}

function Library({ kind }: { kind: MediaKind }) {
  const mobile = useIsMobile();
  const perm = useSession((s) => s.permission);
  const me = useSession((s) => s.userID);
  const reviewer = has(perm, PERMISSION.dealer) || has(perm, PERMISSION.develop);
  const word = KIND_WORD[kind];
  const [filters] = useState(() => FILTERS(reviewer));
  const list = useListQuery({
    key: ['media', kind],
    filters,
    load: (f, paging) =>
      (f.view === 'review' ? reviewQueue : listMedia)(kind, {
        status: f.status,
        keywords: f.keywords || undefined,
        ...paging,
      }),
  });
  const dialog = useDialog<Open>();
  const [previewing, setPreviewing] = useState<MediaItemRow | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const refresh = () => list.refresh();

  const approve = async (r: MediaItemRow) => {
    setBusy(r.id);
    const o = await attempt(() => decideMedia(r.id, true), '已通过审核');
    setBusy(null);
    if (o.ok) refresh();
  };

  const canDecide = (r: MediaItemRow) => reviewer && (r.user_id !== me || has(perm, PERMISSION.develop));

  const columns: ListColumn<MediaItemRow>[] = [
    { title: '预览', key: 'thumb', width: 120, card: false, render: (_, r) => <Thumb row={r} /> },
    {
      title: '名称',
      dataIndex: 'name',
      render: (_, r) => <Typography.Text strong>{r.name}</Typography.Text>,
    },
    { title: '状态', key: 'status', width: 110, render: (_, r) => <StatusTag row={r} /> },
    { title: '信息', key: 'detail', width: 200, from: 'md', render: (_, r) => detailText(r) },
    { title: '所属账号', dataIndex: 'user_name', width: 110, from: 'lg' },
    { title: '上传时间', dataIndex: 'created_at', width: 170, from: 'xl' },
  ];

  const actions = (r: MediaItemRow) => (
    <Flex wrap gap={0}>
      <RowAction icon={<EyeOutlined />} onClick={() => setPreviewing(r)}>
        预览
      </RowAction>
      {canDecide(r) && r.status !== MEDIA_STATUS.approved && (
        <ConfirmButton
          title="通过审核"
          description={`通过后「${r.name}」可被编入节目单播放，确定通过吗？`}
          okText="通过"
          danger={false}
          icon={<CheckOutlined />}
          loading={busy === r.id}
          onConfirm={() => approve(r)}
        >
          通过
        </ConfirmButton>
      )}
      {canDecide(r) && r.status !== MEDIA_STATUS.rejected && (
        <RowAction danger icon={<CloseOutlined />} onClick={() => dialog.open({ what: 'reject', row: r })}>
          驳回
        </RowAction>
      )}
      <RowAction
        onClick={() => dialog.open(kind === 'text' ? { what: 'text', row: r } : { what: 'rename', row: r })}
      >
        {kind === 'text' ? '编辑' : '重命名'}
      </RowAction>
      <DeleteAction
        title={`删除${word}`}
        question={`确定删除「${r.name}」吗？正在节目单中使用的内容不能删除。`}
        call={() => removeMedia({ id: r.id })}
        onDeleted={refresh}
      />
    </Flex>
  );

  const add =
    kind === 'text'
      ? { label: '新增文字', onClick: () => dialog.open({ what: 'text', row: null }) }
      : { label: `上传${word}`, onClick: () => dialog.open({ what: 'upload' }) };

  const t = dialog.target;
  const done = () => {
    refresh();
  };
  return (
    <Card styles={{ body: { padding: mobile ? 12 : 24 } }}>
      <ListToolbar
        list={list}
        add={add}
        extra={<Quota />}
        actions={
          kind === 'text' ? undefined : (
            <Button icon={<LinkOutlined />} onClick={() => dialog.open({ what: 'url' })}>
              添加网络地址
            </Button>
          )
        }
      />
      <ListTable
        list={list}
        columns={columns}
        rowKey="id"
        empty={
          list.applied.view === 'review'
            ? '没有待审核的内容'
            : `暂无${word}，${kind === 'text' ? '点击“新增文字”添加' : `点击“上传${word}”添加`}`
        }
        cardTitle={(r) => r.name}
        cardExtra={(r) => <StatusTag row={r} />}
        actions={actions}
        actionsWidth={230}
      />
      {previewing && (
        <Modal
          open
          title={previewing.name}
          footer={null}
          width={mobile ? '95%' : 640}
          onCancel={() => setPreviewing(null)}
          destroyOnHidden
        >
          <MediaView row={previewing} width={mobile ? 300 : 590} />
          <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
            {detailText(previewing)}
          </Typography.Paragraph>
        </Modal>
      )}
      {t?.what === 'upload' && kind !== 'text' && (
        <UploadDialog kind={kind} onSaved={done} onClosed={dialog.close} />
      )}
      {t?.what === 'url' && kind !== 'text' && (
        <UrlDialog kind={kind} onSaved={done} onClosed={dialog.close} />
      )}
      {t?.what === 'text' && <TextDialog row={t.row} onSaved={done} onClosed={dialog.close} />}
      {t?.what === 'reject' && <RejectDialog row={t.row} onSaved={done} onClosed={dialog.close} />}
      {t?.what === 'rename' && (
        <FormModal<{ name: string }, MediaItemRow>
          title="重命名"
          width={480}
          schema={renameSchema}
          fields={[{ name: 'name', label: '名称', required: true, maxLength: 100 }]}
          initialValues={{ name: t.row.name }}
          submit={(v) => renameMedia(t.row.id, v.name)}
          success="已保存"
          onSaved={done}
          onClosed={dialog.close}
        />
      )}
    </Card>
  );
}
