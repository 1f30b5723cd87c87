import { z } from 'zod';
import type { MediaItemRow } from '@se/core';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import { decideMedia } from '../../api/media.ts';
import { MediaView } from './MediaView.tsx';

type Values = { reason: string };
const schema = z.object({
  reason: z.string().trim().min(1, '请填写驳回原因').max(200, '驳回原因不能超过200个字符'),
});

/** 驳回: the content once more and the reason the owner will read. */
export function RejectDialog({ row, onSaved, onClosed }: DialogProps<{ row: MediaItemRow }>) {
  return (
    <FormModal<Values, MediaItemRow>
      title={`驳回「${row.name}」`}
      width={600}
      schema={schema}
      fields={[
        {
          name: 'reason',
          label: '驳回原因',
          kind: 'textarea',
          required: true,
          maxLength: 200,
          placeholder: '如：画面含未经授权的商标',
        },
      ]}
      initialValues={{ reason: '' }}
      submit={(v) => decideMedia(row.id, false, v.reason)}
      success="已驳回"
      okText="驳回"
      onSaved={() => onSaved()}
      onClosed={onClosed}
      footer={<MediaView row={row} width={540} />}
    />
  );
}
