import { CODE, type Envelope } from '@se/core';
import { isSessionCode } from '../../api/client.ts';
import { errorText } from '../../components/error-text.ts';
import { toast } from '../../components/toast.ts';

// SPEC §8 for every call of this screen: the server's refusal is shown as a warning with
// its own message (it names the field or the role), a missing answer as an error. Session
// codes are left to the API client, which signs out and goes to the login page.

/** The data of a successful call; the query fails (and says why) otherwise. */
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

export type Outcome<T> = { ok: true; data: T } | { ok: false; code: number | null };

/**
 * Runs a save. A dialog stays open on failure so nothing typed is lost; `success` is the
 * toast of the good case (none when omitted).
 */
export async function attempt<T>(call: () => Promise<Envelope<T>>, success?: string): Promise<Outcome<T>> {
  try {
    const res = await call();
    if (res.code === CODE.ok) {
      if (success) toast.success(success);
      return { ok: true, data: res.data };
    }
    if (!isSessionCode(res.code)) toast.warning(res.message);
    return { ok: false, code: res.code };
  } catch {
    toast.error('网络错误');
    return { ok: false, code: null };
  }
}
