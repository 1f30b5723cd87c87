import { Button, Input } from 'antd';
import type { ChangeEvent, ReactNode } from 'react';

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
 * A large text (or `password`) box bound to one field of a useZodForm form, with its label
 * and message: every box of the sign-in pages and of 修改密码.
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
  const Box = password ? Input.Password : Input;
  return (
    <Field label={label} id={form.idOf(name)} error={form.errors[name]}>
      <Box
        {...form.input(name)}
        size="large"
        prefix={icon}
        placeholder={placeholder}
        autoComplete={autoComplete}
        inputMode={inputMode}
      />
    </Field>
  );
}

/** The wide primary button that submits a sign-in page's form. */
export function SubmitButton({ loading, children }: { loading: boolean; children: ReactNode }) {
  return (
    <Button
      type="primary"
      htmlType="submit"
      size="large"
      block
      loading={loading}
      style={{ marginBottom: 16 }}
    >
      {children}
    </Button>
  );
}
