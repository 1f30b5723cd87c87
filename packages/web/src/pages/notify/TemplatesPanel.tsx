import {
  TEMPLATE_PLACEHOLDERS,
  TEMPLATE_SAMPLE,
  addNotifyTemplateBody,
  renderTemplate,
  unknownPlaceholders,
  type NotifyTemplate,
} from '@se/core';
import { Alert, Button, Flex, Form, Input, InputNumber, Tag, Typography } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { useRef, useState } from 'react';
import { addTemplate, listTemplates, previewTemplate, updateTemplate } from '../../api/notify.ts';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import { attempt } from '../../components/feedback.ts';
import type { FormField } from '../../components/form-fields.tsx';
import { EntityList } from '../../components/EntityList.tsx';
import { text, useListQuery, type FilterFields, type ListColumn } from '../../components/list/index.ts';

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

/** Placeholders to insert, the live preview and one with a device's latest data. */
function TemplateHelp({ onInsert }: { onInsert: (key: string) => void }) {
  const content = (Form.useWatch('content') as string | undefined) ?? '';
  const [deviceId, setDeviceId] = useState<number | null>(null);
  const [devicePreview, setDevicePreview] = useState<string | null>(null);

  const previewDevice = async () => {
    if (!deviceId) return;
    const out = await attempt(() => previewTemplate(content, deviceId));
    if (out.ok) setDevicePreview(out.data.text);
  };

  return (
    <>
      <Flex wrap gap={4} style={{ marginBottom: 12 }} aria-label="插入占位符">
        {TEMPLATE_PLACEHOLDERS.map((p) => (
          <Tag key={p.key} style={{ cursor: 'pointer' }} title={p.label} onClick={() => onInsert(p.key)}>
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
    </>
  );
}

/** 新增 / 编辑 a template, with placeholders to insert and a live preview. */
export function TemplateDialog({
  template,
  onSaved,
  onClosed,
}: DialogProps<{
  template: NotifyTemplate | null;
}>) {
  const [form] = Form.useForm<TemplateForm>();
  const area = useRef<TextAreaRef>(null);

  const insert = (key: string) => {
    const el = area.current?.resizableTextArea?.textArea;
    const cur = form.getFieldValue('content') ?? '';
    const at = el?.selectionStart ?? cur.length;
    const end = el?.selectionEnd ?? at;
    form.setFieldValue('content', `${cur.slice(0, at)}{${key}}${cur.slice(end)}`);
    void form.validateFields(['content']).catch(() => {});
  };

  const fields: FormField<TemplateForm>[] = [
    { name: 'name', label: '名称', required: true, maxLength: 50, placeholder: '请输入模板名称' },
    {
      name: 'content',
      label: '内容',
      required: true,
      render: () => (
        <Input.TextArea
          ref={area}
          autoSize={{ minRows: 3, maxRows: 8 }}
          maxLength={2000}
          showCount
          placeholder="例如：{desc}（{ser_num}）氨气 {nh3} 超标，请{user_name}尽快处理"
        />
      ),
    },
  ];

  return (
    <FormModal
      form={form}
      title={template ? `编辑模板 ${template.name}` : '新增模板'}
      width={640}
      name="template"
      fields={fields}
      schema={addNotifyTemplateBody}
      initialValues={{ name: template?.name ?? '', content: template?.content ?? '' }}
      submit={(v) => {
        const body = { name: v.name.trim(), content: v.content.trim() };
        return template ? updateTemplate({ id: template.id, ...body }) : addTemplate(body);
      }}
      success={template ? '修改成功' : '新增成功'}
      onSaved={onSaved}
      onClosed={onClosed}
      footer={<TemplateHelp onInsert={insert} />}
    />
  );
}

const FILTERS: FilterFields<{ keywords: string }> = {
  keywords: text({ placeholder: '名称 / 内容', width: 260, search: true }),
};

const COLUMNS: ListColumn<NotifyTemplate>[] = [
  { title: '名称', dataIndex: 'name', width: 160, ellipsis: true, card: false },
  { title: '内容', dataIndex: 'content', ellipsis: true },
  { title: '更新时间', dataIndex: 'updated_at', width: 170 },
];

/** 消息模板: list, search, add, edit, delete. */
export function TemplatesPanel() {
  const list = useListQuery({
    key: ['notify', 'templates'],
    filters: FILTERS,
    // /notify shows the history's list too: the templates' search has its own parameters.
    param: 'template.',
    load: (f, paging) => listTemplates({ keywords: f.keywords.trim() || undefined, ...paging }),
  });
  return (
    <EntityList
      list={list}
      columns={COLUMNS}
      add="新增模板"
      empty={list.filtered ? '没有符合条件的模板' : '暂无模板'}
      remove={{
        title: '删除模板',
        question: (t) => `确定删除模板「${t.name}」吗？使用它的规则将改用默认内容。`,
        update: updateTemplate,
      }}
      dialog={(template, props) => <TemplateDialog template={template} {...props} />}
    />
  );
}
