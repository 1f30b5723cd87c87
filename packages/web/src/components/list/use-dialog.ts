import { useState } from 'react';

export interface Dialog<T> {
  /** What the dialog is open for (the row to edit, `true` for a new one …); null when closed. */
  target: T | null;
  open: (target: T) => void;
  close: () => void;
}

/** The open/closed state of a list's dialog or drawer: `{dialog.target && <XDialog … />}`. */
export function useDialog<T = true>(): Dialog<T> {
  const [target, setTarget] = useState<T | null>(null);
  return { target, open: setTarget, close: () => setTarget(null) };
}
