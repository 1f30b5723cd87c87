import { mediaName, mediaUrl, type MediaItemRow } from '@se/core';
import { z } from 'zod';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import { addMediaUrl } from '../../api/media.ts';
import { KIND_WORD } from './media-text.ts';

type Values = { name: string; url: string };
const schema = z.object({ name: mediaName, url: mediaUrl });

/** 添加网络地址: a picture or video the player fetches itself (the console never fetches it). */
export function UrlDialog({ kind, onSaved, onClosed }: DialogProps<{ kind: 'picture' | 'video' }>) {
  return (
    <FormModal<Values, MediaItemRow>
      title={`添加网络${KIND_WORD[kind]}`}
      width={560}
      schema={schema}
      fields={[
        { name: 'name', label: '名称', required: true, maxLength: 100 },
        {
          name: 'url',
          label: '地址',
          required: true,
          maxLength: 1000,
          placeholder: kind === 'video' ? 'rtsp://… 或 https://….mp4' : 'https://….jpg',
          extra: '支持 http、https、ftp、rtsp、mms 地址，由播放器直接读取，控制台不会访问该地址',
        },
      ]}
      initialValues={{ name: '', url: '' }}
      submit={(v) => addMediaUrl({ kind, ...v })}
      success="已添加，待审核"
      onSaved={() => onSaved()}
      onClosed={onClosed}
    />
  );
}
