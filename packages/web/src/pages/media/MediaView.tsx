import type { MediaItemRow } from '@se/core';
import { Typography } from 'antd';
import { TextPreview } from './TextPreview.tsx';

/**
 * The content itself: the picture, the video with its controls (seeking asks the server for
 * ranges), or the notice as the screen shows it. A URL source is shown as its address: the
 * console loads nothing from other origins (its CSP admits only its own media).
 */
export function MediaView({ row, width = 560 }: { row: MediaItemRow; width?: number }) {
  if (row.kind === 'text' && row.text_body) return <TextPreview body={row.text_body} width={width} />;
  if (!row.file_url) {
    return (
      <Typography.Paragraph copyable={{ text: row.url ?? '' }} style={{ wordBreak: 'break-all' }}>
        网络地址（由播放器读取）：{row.url}
      </Typography.Paragraph>
    );
  }
  if (row.kind === 'video') {
    return (
      <video
        src={row.file_url}
        poster={row.thumb_url ?? undefined}
        controls
        preload="metadata"
        style={{ width, maxWidth: '100%', background: '#000' }}
      />
    );
  }
  return (
    <img
      src={row.file_url}
      alt={row.name}
      style={{ maxWidth: '100%', maxHeight: '70vh', display: 'block', margin: '0 auto' }}
    />
  );
}
