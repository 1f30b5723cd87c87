import { mediaName, mediaTextBody, type MediaItemRow, type MediaTextBody } from '@se/core';
import { ColorPicker, Form, Typography } from 'antd';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import type { FormField } from '../../components/form-fields.tsx';
import { addMediaText, updateMediaText } from '../../api/media.ts';
import { TextPreview } from './TextPreview.tsx';

type Values = MediaTextBody & { name: string };

const schema = mediaTextBody.extend({ name: mediaName });

const DEFAULTS: Values = {
  name: '',
  title: '',
  body: '',
  font_size: 48,
  color: '#ffffff',
  background: '#000000',
  scroll_speed: 0,
};

const colour = (label: string) => () => (
  // The form keeps #rrggbb text, as the server takes it (getValueFromEvent below).
  <ColorPicker showText disabledAlpha aria-label={label} />
);

const FIELDS: FormField<Values>[] = [
  { name: 'name', label: '名称', required: true, maxLength: 100, placeholder: '便于查找的名称' },
  { name: 'title', label: '标题', maxLength: 50, placeholder: '可不填' },
  { name: 'body', label: '正文', kind: 'textarea', required: true, maxLength: 2000 },
  { name: 'font_size', label: '字号（屏幕像素）', kind: 'number', span: 8, props: { min: 12, max: 200 } },
  {
    name: 'color',
    label: '文字颜色',
    span: 8,
    render: colour('文字颜色'),
    item: { getValueFromEvent: (c: { toHexString: () => string }) => c.toHexString().slice(0, 7) },
  },
  {
    name: 'background',
    label: '背景颜色',
    span: 8,
    render: colour('背景颜色'),
    item: { getValueFromEvent: (c: { toHexString: () => string }) => c.toHexString().slice(0, 7) },
  },
  {
    name: 'scroll_speed',
    label: '滚动速度（像素/秒，0 为不滚动）',
    kind: 'number',
    props: { min: 0, max: 500 },
  },
];

/** 新增文字 / 编辑: the notice's fields and, under them, the notice as the screen will show it. */
export function TextDialog({ row, onSaved, onClosed }: DialogProps<{ row: MediaItemRow | null }>) {
  const [form] = Form.useForm<Values>();
  const watched = Form.useWatch([], form) as Values | undefined;
  const initial: Values = row?.text_body ? { ...row.text_body, name: row.name } : DEFAULTS;
  const preview = { ...DEFAULTS, ...initial, ...watched };
  return (
    <FormModal<Values, MediaItemRow>
      title={row ? '编辑文字' : '新增文字'}
      width={640}
      form={form}
      fields={FIELDS}
      schema={schema}
      initialValues={initial}
      submit={({ name, ...body }) => {
        const text_body = { ...body, title: body.title ?? '' };
        return row ? updateMediaText({ id: row.id, name, text_body }) : addMediaText({ name, text_body });
      }}
      success={row ? '已保存，修改正文或样式后需重新审核' : '已新增，待审核'}
      onSaved={() => onSaved()}
      onClosed={onClosed}
      footer={
        <div>
          <Typography.Text type="secondary">屏幕预览</Typography.Text>
          <TextPreview body={preview} width={560} />
        </div>
      }
    />
  );
}
