import { CODE, type Envelope } from '@se/core';
import { useState } from 'react';
import { isSessionCode } from '../api/client.ts';
import { errorText } from './error-text.ts';
import { attempt } from './feedback.ts';
import { toast } from './toast.ts';

export interface CallOptions<T> {
  /** The success toast, before `onOk`. */
  success?: string;
  /** After a successful call, still inside the busy state. */
  onOk?: (data: T) => unknown;
  /** A refusal the caller shows itself (under a field); answers whether it did. */
  onRefused?: (code: number, message: string) => boolean;
  /** Told `true` while the call runs, `false` after. */
  busy?: (busy: boolean) => void;
}

/**
 * A call made from a button or a form that is not a `FormModal` (sign-up, a captcha, the
 * password dialog): `success` and `onOk`, or the server's refusal as a warning (session codes
 * are the API client's, SPEC §8), or a failed call as the client's error text.
 */
export async function runCall<T>(call: () => Promise<Envelope<T>>, o: CallOptions<T> = {}): Promise<void> {
  o.busy?.(true);
  try {
    const res = await call();
    if (res.code === CODE.ok) {
      if (o.success) toast.success(o.success);
      await o.onOk?.(res.data);
    } else if (!o.onRefused?.(res.code, res.message) && !isSessionCode(res.code)) {
      toast.warning(res.message);
    }
  } catch (error) {
    toast.error(errorText(error));
  } finally {
    o.busy?.(false);
  }
}

/** `runCall` with its own busy flag (a submit button's loading). */
export function useCall() {
  const [busy, setBusy] = useState(false);
  const run = <T>(call: () => Promise<Envelope<T>>, o: Omit<CallOptions<T>, 'busy'> = {}) =>
    runCall(call, { ...o, busy: setBusy });
  return { busy, run };
}

/** `attempt` with its own busy flag (a dialog's saving, a button's loading); answers the outcome. */
export function useAttempt() {
  const [busy, setBusy] = useState(false);
  const run = async <T>(call: () => Promise<Envelope<T>>, success?: string) => {
    setBusy(true);
    const outcome = await attempt(call, success);
    setBusy(false);
    return outcome;
  };
  return { busy, run };
}
