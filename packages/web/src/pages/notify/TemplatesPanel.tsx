import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import {
  TEMPLATE_PLACEHOLDERS,
  TEMPLATE_SAMPLE,
  addNotifyTemplateBody,
  renderTemplate,
  unknownPlaceholders,
  type NotifyTemplate,
} from '@se/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Empty,
  Flex,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { useRef, useState } from 'react';
import { addTemplate, listTemplates, previewTemplate, updateTemplate } from '../../api/notify.ts';
import { attempt, loadOrThrow } from '../../components/feedback.ts';
import { zodRule } from '../../components/form-rules.ts';
import { usePager } from '../../components/pager.ts';
import { useIsMobile } from '../../layout/viewport.ts';

const KEY = ['notify', 'templates'] as const;

/**
 * What a template will read like, recomputed on every keystroke from sample values (the
 * same renderTemplate the server uses); unknown placeholders are named under it.
 */
export function TemplatePreview({ content }: { content: string }) {
  const text = renderTemplate(content, TEMPLATE_SAMPLE);
  const unknown = unknownPlaceholders(content);
  return (
    <Flex vertical gap={6}>
      <div
        role="status"
        aria-label="预览"
        style={{
          background: '#f6f8fa',
          border: '1px solid #e5e7eb',
          borderRadius: 6,
          padding: '8px 12px',
          minHeight: 40,
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-all',
        }}
      >
        {content.trim() ? text : <Typography.Text type="secondary">输入内容后在此预览</Typography.Text>}
      </div>
      {unknown.length > 0 && (
        <Alert
          type="warning"
          showIcon
          title={`未知的占位符：${unknown.map((u) => `{${u}}`).join('、')}，发送时会原样显示`}
        />
      )}
    </Flex>
  );
}

interface TemplateForm {
  name: string;
  content: string;
}

/** 新增 / 编辑 a template, with placeholders to insert and a live preview. */
export function TemplateDialog({
  template,
  onSaved,
  onClosed,
}: {
  template: NotifyTemplate | null;
  onSaved: () => void;
  onClosed: () => void;
}) {
  const mobile = useIsMobile();
  const [form] = Form.useForm<TemplateForm>();
  const content = Form.useWatch('content', form) ?? template?.content ?? '';
  const [open, setOpen] = useState(true);
  const [saving, setSaving] = useState(false);
  const [deviceId, setDeviceId] = useState<number | null>(null);
  const [devicePreview, setDevicePreview] = useState<string | null>(null);
  const area = useRef<TextAreaRef>(null);

  const insert = (key: string) => {
    const el = area.current?.resizableTextArea?.textArea;
    const cur = form.getFieldValue('content') ?? '';
    const at = el?.selectionStart ?? cur.length;
    const end = el?.selectionEnd ?? at;
    form.setFieldValue('content', `${cur.slice(0, at)}{${key}}${cur.slice(end)}`);
    void form.validateFields(['content']).catch(() => {});
  };

  const previewDevice = async () => {
    if (!deviceId) return;
    const out = await attempt(() => previewTemplate(content, deviceId));
    if (out.ok) setDevicePreview(out.data.text);
  };

  const save = async () => {
    let v: TemplateForm;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    const body = { name: v.name.trim(), content: v.content.trim() };
    const out = template
      ? await attempt(() => updateTemplate({ id: template.id, ...body }), '修改成功')
      : await attempt(() => addTemplate(body), '新增成功');
    setSaving(false);
    if (!out.ok) return;
    onSaved();
    setOpen(false);
  };

  return (
    <Modal
      title={template ? `编辑模板 ${template.name}` : '新增模板'}
      open={open}
      width={mobile ? '95%' : 640}
      mask={{ closable: false }}
      okText="保存"
      cancelText="取 消"
      confirmLoading={saving}
      onOk={() => void save()}
      onCancel={() => setOpen(false)}
      afterClose={onClosed}
    >
      <Form<TemplateForm>
        form={form}
        layout="vertical"
        name="template"
        autoComplete="off"
        initialValues={{ name: template?.name ?? '', content: template?.content ?? '' }}
      >
        <Form.Item label="名称" name="name" required rules={[zodRule(addNotifyTemplateBody, 'name')]}>
          <Input maxLength={50} placeholder="请输入模板名称" />
        </Form.Item>
        <Form.Item label="内容" name="content" required rules={[zodRule(addNotifyTemplateBody, 'content')]}>
          <Input.TextArea
            ref={area}
            autoSize={{ minRows: 3, maxRows: 8 }}
            maxLength={2000}
            showCount
            placeholder="例如：{desc}（{ser_num}）氨气 {nh3} 超标，请{user_name}尽快处理"
          />
        </Form.Item>
      </Form>
      <Flex wrap gap={4} style={{ marginBottom: 12 }} aria-label="插入占位符">
        {TEMPLATE_PLACEHOLDERS.map((p) => (
          <Tag key={p.key} style={{ cursor: 'pointer' }} title={p.label} onClick={() => insert(p.key)}>
            {`{${p.key}}`} {p.label}
          </Tag>
        ))}
      </Flex>
      <Typography.Text strong>预览（示例数据）</Typography.Text>
      <TemplatePreview content={content} />
      <Flex gap="small" align="center" wrap style={{ marginTop: 12 }}>
        <InputNumber<number>
          min={1}
          precision={0}
          value={deviceId}
          onChange={(v) => setDeviceId(v)}
          placeholder="设备ID"
          aria-label="设备ID"
          style={{ width: 140 }}
        />
        <Button disabled={!deviceId || !content.trim()} onClick={() => void previewDevice()}>
          用设备最新数据预览
        </Button>
      </Flex>
      {devicePreview !== null && (
        <Typography.Paragraph style={{ marginTop: 8, whiteSpace: 'pre-wrap' }}>
          {devicePreview}
        </Typography.Paragraph>
      )}
    </Modal>
  );
}

/** 消息模板: list, search, add, edit, delete. */
export function TemplatesPanel() {
  const mobile = useIsMobile();
  const queryClient = useQueryClient();
  const pager = usePager();
  const [draft, setDraft] = useState('');
  const [keywords, setKeywords] = useState('');
  const [editing, setEditing] = useState<{ template: NotifyTemplate | null } | null>(null);

  const list = useQuery({
    queryKey: [...KEY, keywords, pager.page, pager.pageSize],
    queryFn: () =>
      loadOrThrow(() =>
        listTemplates({ keywords: keywords || undefined, page: pager.page, page_size: pager.pageSize }),
      ),
    placeholderData: keepPreviousData,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: KEY });

  const remove = async (t: NotifyTemplate) => {
    const out = await attempt(() => updateTemplate({ id: t.id, is_delete: true }), '删除成功');
    if (out.ok) refresh();
  };

  const columns: TableColumnsType<NotifyTemplate> = [
    { title: '名称', dataIndex: 'name', width: 160, ellipsis: true },
    { title: '内容', dataIndex: 'content', ellipsis: true },
    ...(mobile ? [] : [{ title: '更新时间', dataIndex: 'updated_at', width: 170 }]),
    {
      title: '操作',
      key: 'actions',
      width: 150,
      render: (_, t) => (
        <Flex gap={4}>
          <Button
            size="small"
            type="link"
            icon={<EditOutlined />}
            onClick={() => setEditing({ template: t })}
          >
            编辑
          </Button>
          <Popconfirm
            title="删除模板"
            description={`确定删除模板「${t.name}」吗？使用它的规则将改用默认内容。`}
            okText="删除"
            okButtonProps={{ danger: true }}
            cancelText="取 消"
            onConfirm={() => remove(t)}
          >
            <Button size="small" type="link" danger icon={<DeleteOutlined />}>
              删除
            </Button>
          </Popconfirm>
        </Flex>
      ),
    },
  ];

  return (
    <>
      <Flex wrap gap="small" style={{ marginBottom: 16 }}>
        <Input.Search
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onSearch={(text) => {
            setKeywords(text.trim());
            pager.reset();
          }}
          allowClear
          placeholder="名称 / 内容"
          style={{ width: mobile ? '100%' : 260 }}
        />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ template: null })}>
          新增模板
        </Button>
      </Flex>
      <Table<NotifyTemplate>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isFetching}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={keywords ? '没有符合条件的模板' : '暂无模板'}
            />
          ),
        }}
        pagination={pager.pagination(list.data?.total ?? 0)}
      />
      {editing && (
        <TemplateDialog template={editing.template} onSaved={refresh} onClosed={() => setEditing(null)} />
      )}
    </>
  );
}
