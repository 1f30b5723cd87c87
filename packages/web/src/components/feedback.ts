import { CODE, type Envelope } from '@se/core';
import { isSessionCode } from '../api/client.ts';
import { errorText } from './error-text.ts';
import { toast } from './toast.ts';

// SPEC §8 for every screen: a refusal shows the server's message (it names the field or
// the role) as a warning, a failed load the client's text as an error, a failed save 网络错误.
// Session codes are the API client's business: it signs out and goes to /login.

/** A query function's body: the data of a successful call, or a thrown, already-shown error. */
export async function loadOrThrow<T>(call: () => Promise<Envelope<T>>): Promise<T> {
  let res: Envelope<T>;
  try {
    res = await call();
  } catch (error) {
    toast.error(errorText(error));
    throw error;
  }
  if (res.code === CODE.ok) return res.data;
  if (!isSessionCode(res.code)) toast.warning(res.message);
  throw new Error(res.message);
}

export type Outcome<T> = { ok: true; data: T } | { ok: false; code: number | null; message: string };

/** A save: a success toast when given, a warning or 网络错误 otherwise; dialogs stay open on failure. */
export async function attempt<T>(call: () => Promise<Envelope<T>>, success?: string): Promise<Outcome<T>> {
  try {
    const res = await call();
    if (res.code === CODE.ok) {
      if (success) toast.success(success);
      return { ok: true, data: res.data };
    }
    if (!isSessionCode(res.code)) toast.warning(res.message);
    return { ok: false, code: res.code, message: res.message };
  } catch {
    toast.error('网络错误');
    return { ok: false, code: null, message: '网络错误' };
  }
}
