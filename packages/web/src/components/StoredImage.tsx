import type { Envelope } from '@se/core';
import { Button, Upload, type ButtonProps } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { attempt } from './feedback.ts';

/**
 * The object URL of a stored picture (`load` fetches it with the token headers), revoked when
 * the key changes or the component goes; null while loading or when there is none.
 */
export function useStoredImage(key: string, load: () => Promise<string | null>): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    setUrl(null);
    if (!key) return;
    let alive = true;
    let made: string | null = null;
    void load().then((u) => {
      made = u;
      if (alive) setUrl(u);
      else if (u) URL.revokeObjectURL(u);
    });
    return () => {
      alive = false;
      if (made) URL.revokeObjectURL(made);
    };
    // `load` follows `key`: a new key is a new picture.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return url;
}

/**
 * A button that picks a PNG/JPEG/WebP and sends it (`send`); a file above `maxBytes` is
 * refused before sending. `onDone` gets the server's answer (the row with its new key).
 */
export function ImageUploadButton<T>({
  maxBytes,
  send,
  onDone,
  success,
  children,
  button,
}: {
  maxBytes: number;
  send: (file: File) => Promise<Envelope<T>>;
  onDone: (data: T) => void;
  success: string;
  children: ReactNode;
  /** The button's look (a row's small link, say). */
  button?: ButtonProps;
}) {
  const mb = Math.round(maxBytes / 1024 / 1024);
  return (
    <Upload
      accept="image/png,image/jpeg,image/webp"
      showUploadList={false}
      beforeUpload={(file) => {
        if (file.size > maxBytes) {
          void attempt(async () => ({ code: 413, message: `图片不能超过 ${mb} MB`, data: null }));
          return false;
        }
        void attempt(() => send(file), success).then((out) => {
          if (out.ok) onDone(out.data);
        });
        return false;
      }}
    >
      <Button {...button}>{children}</Button>
    </Upload>
  );
}
