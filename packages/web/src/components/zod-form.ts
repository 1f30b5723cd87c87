import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import type { z } from 'zod';

type Values = Record<string, unknown>;
type Errors<V> = Partial<Record<keyof V & string, string>>;

/** The first message per field of a failed parse. */
export function issuesByField(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '');
    out[field] ??= issue.message;
  }
  return out;
}

/**
 * A small form state validated by one of core's request schemas, so each field says
 * what the server would say. The sign-in pages use it instead of antd's Form: that one
 * brings its label tooltips, validator and grid (about a fifth of the login page's
 * JavaScript) for features these four short forms do not use.
 *
 * A field is checked when it loses focus and, once it shows an error, on every change;
 * `also` names fields whose check depends on another (the second password).
 */
export function useZodForm<S extends z.ZodType, V extends Values>(
  schema: S,
  initial: V,
  also: Partial<Record<keyof V & string, (keyof V & string)[]>> = {},
) {
  const formId = useId();
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<Errors<V>>({});

  const check = (next: V, fields: (keyof V & string)[]) => {
    const result = schema.safeParse(next);
    const found = result.success ? {} : issuesByField(result.error);
    setErrors((prev) => {
      const out = { ...prev };
      for (const field of fields) {
        // A dependent field is only re-checked once the user has filled it in.
        if (field !== fields[0] && next[field] === '' && prev[field] === undefined) continue;
        out[field] = found[field];
      }
      return out;
    });
  };

  const set = (name: keyof V & string, value: unknown) => {
    const next = { ...values, [name]: value };
    setValues(next);
    if (errors[name] !== undefined) check(next, [name, ...(also[name] ?? [])]);
    else if (also[name]) check(next, also[name]);
  };

  const idOf = (name: string) => `${formId}-${name}`;

  /** Props for an antd Input (or Input.Password) bound to `name`. */
  const input = (name: keyof V & string) => ({
    id: idOf(name),
    name,
    value: values[name] as string,
    status: errors[name] ? ('error' as const) : undefined,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${idOf(name)}-error` : undefined,
    onChange: (e: ChangeEvent<HTMLInputElement>) => set(name, e.target.value),
    onBlur: () => check(values, [name]),
  });

  /** Props for an antd Checkbox bound to a boolean `name`. */
  const checkbox = (name: keyof V & string) => ({
    id: idOf(name),
    name,
    checked: values[name] === true,
    onChange: (e: { target: { checked: boolean } }) => set(name, e.target.checked),
  });

  /** Validates everything; calls `onValid` with the parsed (trimmed, normalised) data. */
  const onSubmit = (onValid: (data: z.output<S>) => void) => (event: FormEvent) => {
    event.preventDefault();
    const result = schema.safeParse(values);
    if (result.success) {
      setErrors({});
      onValid(result.data);
      return;
    }
    const found = issuesByField(result.error) as Errors<V>;
    setErrors(found);
    const first = Object.keys(values).find((name) => found[name as keyof V & string]);
    if (first) document.getElementById(idOf(first))?.focus();
  };

  return { values, errors, setErrors, set, input, checkbox, idOf, onSubmit };
}
