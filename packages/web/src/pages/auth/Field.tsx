import { useState, type ChangeEvent, type ReactNode } from 'react';
import { EyeIcon, EyeOffIcon } from './icons.tsx';
import './field.css';

// Plain controls styled like antd's large ones (field.css): the sign-in page renders them
// without antd (light-app.tsx), and the other sign-in pages and 修改密码 share them.

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

/** What InputField needs of useZodForm's answer. */
interface BoundForm<N extends string> {
  errors: Partial<Record<N, string>>;
  idOf(name: string): string;
  input(name: N): {
    id: string;
    name: string;
    value: string;
    onChange: (e: ChangeEvent<HTMLInputElement>) => void;
    onBlur: () => void;
  };
}

/**
 * A large text (or `password`, with a show/hide button) box bound to one field of a
 * useZodForm form, with its label and message: every box of the sign-in pages and of 修改密码.
 */
export function InputField<N extends string>({
  form,
  name,
  label,
  icon,
  password,
  placeholder,
  autoComplete,
  inputMode,
}: {
  form: BoundForm<N>;
  name: N;
  label: string;
  icon: ReactNode;
  password?: boolean;
  placeholder: string;
  autoComplete: string;
  inputMode?: 'email';
}) {
  const [shown, setShown] = useState(false);
  const bound = form.input(name);
  const error = form.errors[name];
  return (
    <Field label={label} id={bound.id} error={error}>
      <span className={error ? 'auth-input auth-input--error' : 'auth-input'}>
        <span className="auth-input__prefix">{icon}</span>
        <input
          {...bound}
          type={password && !shown ? 'password' : 'text'}
          placeholder={placeholder}
          autoComplete={autoComplete}
          inputMode={inputMode}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${bound.id}-error`}
        />
        {password && (
          <button
            type="button"
            className="auth-input__eye"
            aria-label={shown ? '隐藏密码' : '显示密码'}
            aria-pressed={shown}
            onClick={() => setShown((s) => !s)}
          >
            {shown ? <EyeIcon /> : <EyeOffIcon />}
          </button>
        )}
      </span>
    </Field>
  );
}

/** A checkbox with its text, bound like useZodForm's `checkbox(name)`. */
export function CheckField({
  bound,
  children,
}: {
  bound: { id: string; name: string; checked: boolean; onChange: (e: ChangeEvent<HTMLInputElement>) => void };
  children: ReactNode;
}) {
  return (
    <label className="auth-check">
      <input type="checkbox" {...bound} />
      <span>{children}</span>
    </label>
  );
}

/** The wide primary button that submits a sign-in page's form. */
export function SubmitButton({ loading, children }: { loading: boolean; children: ReactNode }) {
  return (
    <button type="submit" className="auth-submit" disabled={loading} aria-busy={loading || undefined}>
      {loading && <span className="auth-submit__spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}
