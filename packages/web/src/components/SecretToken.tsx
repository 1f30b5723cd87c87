import { EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import { Button, Flex, Typography } from 'antd';
import { useState } from 'react';
import { CopyButton } from './CopyButton.tsx';

/**
 * A token shown as `masked` until 显示令牌 is pressed, with 复制令牌 either way; `code` draws
 * it as code (a table cell) rather than plain monospace text (a details row).
 */
export function SecretToken({
  token,
  masked,
  code = false,
}: {
  token: string;
  masked: string;
  code?: boolean;
}) {
  const [shown, setShown] = useState(false);
  const label = shown ? '隐藏令牌' : '显示令牌';
  return (
    <Flex align="center" gap={4} wrap={!code}>
      <Typography.Text
        code={code}
        style={{ fontFamily: code ? undefined : 'monospace', wordBreak: 'break-all' }}
      >
        {shown ? token : masked}
      </Typography.Text>
      <Button
        type="text"
        size="small"
        icon={shown ? <EyeInvisibleOutlined /> : <EyeOutlined />}
        aria-label={label}
        title={label}
        onClick={() => setShown(!shown)}
      />
      <CopyButton text={token} type="text" size="small" aria-label="复制令牌" title="复制令牌">
        {null}
      </CopyButton>
    </Flex>
  );
}
