import { CAPTCHA_RESEND_S, sendEmailCaptchaBody, type CaptchaPurpose } from '@se/core';
import { Button } from 'antd';
import { sendEmailCaptcha } from '../../api/auth.ts';
import { useCall } from '../../components/run-call.ts';
import { useCountdown } from '../../components/use-countdown.ts';
import { issuesByField } from '../../components/zod-form.ts';

interface Props {
  email: string;
  purpose: CaptchaPurpose;
  /** Shows why the address cannot be used (on the email field). */
  onInvalidEmail: (message: string) => void;
}

/** 发送验证码 with the 60 s wait between mails (the server's resend_after when it says). */
export function CaptchaButton({ email, purpose, onInvalidEmail }: Props) {
  const [left, startCountdown] = useCountdown();
  const { busy: sending, run } = useCall();

  const send = async () => {
    const parsed = sendEmailCaptchaBody.safeParse({ email, purpose });
    if (!parsed.success) return onInvalidEmail(issuesByField(parsed.error).email ?? '邮箱格式不正确');
    await run(() => sendEmailCaptcha(parsed.data.email, purpose), {
      success: '验证码已发送，请查收邮件',
      onOk: (data) => startCountdown(data?.resend_after ?? CAPTCHA_RESEND_S),
    });
  };

  return (
    <Button
      size="large"
      onClick={() => void send()}
      loading={sending}
      disabled={left > 0}
      style={{ minWidth: 120 }}
    >
      {left > 0 ? `${left} 秒后重发` : '发送验证码'}
    </Button>
  );
}
