import { CopyOutlined } from '@ant-design/icons';
import { Button, type ButtonProps } from 'antd';
import { COPY_FAILURE, COPY_SUCCESS, copyText } from './clipboard.ts';
import { toast } from './toast.ts';

/** Copies `text` and says so in a toast (SPEC §2 base-dialog copy action). */
export async function copyWithToast(text: string): Promise<boolean> {
  const ok = await copyText(text);
  if (ok) toast.success(COPY_SUCCESS);
  else toast.error(COPY_FAILURE);
  return ok;
}

export function CopyButton({
  text,
  children = '复制',
  ...props
}: { text: string } & Omit<ButtonProps, 'onClick'>) {
  return (
    <Button icon={<CopyOutlined />} {...props} onClick={() => void copyWithToast(text)}>
      {children}
    </Button>
  );
}
