import { updateDocumentBody, type ToiletDocument } from '@se/core';
import { updateDocument } from '../../api/toilets.ts';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import type { FormField } from '../../components/form-fields.tsx';

interface Values {
  toilet_id: number;
  male_count?: number;
  female_count?: number;
  others_count?: number;
  open_time: string;
  close_time: string;
  content: string;
}

const COUNT = { min: 0, max: 999 };

const FIELDS: FormField<Values>[] = [
  { name: 'male_count', label: '男厕位数', kind: 'number', span: 8, props: COUNT },
  { name: 'female_count', label: '女厕位数', kind: 'number', span: 8, props: COUNT },
  { name: 'others_count', label: '其他厕位数', kind: 'number', span: 8, props: COUNT },
  { name: 'open_time', label: '开放时间', span: 12, required: true, maxLength: 5, placeholder: '00:00' },
  {
    name: 'close_time',
    label: '关闭时间',
    span: 12,
    required: true,
    maxLength: 5,
    placeholder: '23:59',
    extra: '早于开放时间表示次日关闭',
  },
  {
    name: 'content',
    label: '说明',
    kind: 'textarea',
    maxLength: 2000,
    placeholder: '如 无障碍厕位在一层东侧',
  },
];

/** 编辑开放时间与厕位: the toilet's document (SPEC §3), one per toilet. */
export function DocumentDialog({
  toiletId,
  toiletName,
  document,
  onSaved,
  onClosed,
}: DialogProps<{
  toiletId: number;
  toiletName: string;
  document: ToiletDocument;
}>) {
  return (
    <FormModal
      title={`开放时间与厕位 · ${toiletName}`}
      width={640}
      fields={FIELDS}
      schema={updateDocumentBody}
      initialValues={{
        toilet_id: toiletId,
        male_count: document.male_count,
        female_count: document.female_count,
        others_count: document.others_count,
        open_time: document.open_time,
        close_time: document.close_time,
        content: document.content,
      }}
      submit={(v) =>
        updateDocument({
          toilet_id: toiletId,
          male_count: v.male_count ?? 0,
          female_count: v.female_count ?? 0,
          others_count: v.others_count ?? 0,
          open_time: v.open_time.trim(),
          close_time: v.close_time.trim(),
          content: v.content.trim(),
        })
      }
      success="保存成功"
      onSaved={onSaved}
      onClosed={onClosed}
    />
  );
}
