import type { ReactNode } from 'react';

interface Props {
  label: string;
  /** The control's id (from useZodForm's `idOf`), for the label and the error text. */
  id: string;
  error: string | undefined;
  children: ReactNode;
}

/** A labelled form row with its validation message, laid out like an antd vertical form item. */
export function Field({ label, id, error, children }: Props) {
  return (
    <div className="auth-field">
      <label className="auth-field__label" htmlFor={id}>
        {label}
      </label>
      {children}
      <div id={`${id}-error`} className="auth-field__error" role={error ? 'alert' : undefined}>
        {error}
      </div>
    </div>
  );
}
