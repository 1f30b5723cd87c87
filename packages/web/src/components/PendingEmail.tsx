import type { UserRow } from '@se/core';
import { Alert, Button, Input, Space } from 'antd';
import { useState } from 'react';
import { confirmEmail } from '../api/user.ts';
import { attempt } from './feedback.ts';

/**
 * 待确认邮箱: a changed e-mail counts only once the account's owner enters the code mailed to
 * the new address. The owner gets the code field; anyone else is told who must confirm.
 */
export function PendingEmail({
  pending,
  owner,
  onConfirmed,
}: {
  pending: string;
  owner: boolean;
  onConfirmed?: (row: UserRow) => void;
}) {
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  if (!pending) return null;

  const confirm = async () => {
    setBusy(true);
    const outcome = await attempt(() => confirmEmail(code.trim()), '邮箱已变更');
    setBusy(false);
    if (outcome.ok) onConfirmed?.(outcome.data);
  };

  return (
    <Alert
      type="info"
      showIcon
      style={{ marginTop: 8 }}
      title={`待确认：${pending}`}
      description={
        owner ? (
          <Space.Compact style={{ width: '100%', marginTop: 4 }}>
            <Input
              aria-label="新邮箱验证码"
              value={code}
              maxLength={6}
              inputMode="numeric"
              autoComplete="one-time-code"
              placeholder="发到新邮箱的6位验证码"
              onChange={(e) => setCode(e.target.value.replace(/\D+/g, ''))}
            />
            <Button type="primary" loading={busy} disabled={code.length !== 6} onClick={() => void confirm()}>
              确认邮箱
            </Button>
          </Space.Compact>
        ) : (
          '验证码已发到新邮箱，需账号本人登录后在“修改信息”中输入，变更才生效；在此之前找回密码仍使用原邮箱。'
        )
      }
    />
  );
}
