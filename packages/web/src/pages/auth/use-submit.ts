import { CODE, type Envelope } from '@se/core';
import { useState } from 'react';
import { errorText } from '../../components/error-text.ts';
import { toast } from '../../components/toast.ts';

/**
 * The submit of a sign-up or recovery page: busy while the call runs, then `onOk` with a
 * success toast, the server's refusal as a warning, or a failed call as an error.
 */
export function useSubmit() {
  const [submitting, setSubmitting] = useState(false);
  const run = async <T>(
    call: () => Promise<Envelope<T>>,
    success: string,
    onOk: () => Promise<void> | void,
  ) => {
    setSubmitting(true);
    try {
      const res = await call();
      if (res.code === CODE.ok) {
        toast.success(success);
        await onOk();
      } else {
        toast.warning(res.message);
      }
    } catch (error) {
      toast.error(errorText(error));
    } finally {
      setSubmitting(false);
    }
  };
  return { submitting, run };
}
