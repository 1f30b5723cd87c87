import type { Envelope } from '@se/core';
import { useQuery, type QueryKey } from '@tanstack/react-query';
import { Form, Modal, Spin, type FormInstance } from 'antd';
import { useEffect, useState, type ReactElement, type ReactNode } from 'react';
import type { z } from 'zod';
import { useIsMobile } from '../layout/viewport.ts';
import { attempt, loadOrThrow } from './feedback.ts';
import { SchemaFields, type FormField } from './form-fields.tsx';
import { toast } from './toast.ts';

/** The dialog around a form whose body and saving the caller writes itself. */
export interface FormModalFrameProps {
  open: boolean;
  title: ReactNode;
  width: number;
  saving: boolean;
  onSave: () => void;
  onCancel: () => void;
  onClosed: () => void;
  /** 保存 unless told (开始导出…). */
  okText?: string;
  /** The save button is off (nothing loaded yet). */
  okDisabled?: boolean;
  /** No 取 消 (a dialog that has saved and only shows the result). */
  cancelHidden?: boolean;
  children: ReactNode;
}

/**
 * What a dialog mounted per use is given besides its target (`{dialog.target && <XDialog … />}`):
 * `onClosed` runs once it has faded out, and the parent unmounts it then.
 */
export interface ClosingProps {
  onClosed: () => void;
}

/**
 * The props of a create/edit dialog: its own `P` (the row to edit, its owner …), `onSaved`
 * after a successful save (with what the server answered, when `R` says) and `onClosed`.
 */
export type DialogProps<P = object, R = void> = P &
  ClosingProps & { onSaved: [R] extends [void] ? () => void : (data: R) => void };

/** Where the initial values come from when they are not at hand: a query run on opening. */
export interface FormLoad<V, D> {
  queryKey: QueryKey;
  queryFn: () => Promise<Envelope<D>>;
  values: (data: D) => V;
}

/** A create or edit dialog from a form schema; see `FormModal`. */
export interface FormModalProps<V, R, D = unknown> {
  title: ReactNode;
  width: number;
  fields: FormField<V>[];
  /** The core request schema the fields are checked with (`zodRule`), so they say what the server would. */
  schema?: z.ZodType;
  /** The values the form starts from … */
  initialValues?: V;
  /** … or a query that loads them; save is off until it has, and a failed load closes the dialog. */
  load?: FormLoad<V, D>;
  /** The call that saves the checked values. */
  submit: (values: V) => Promise<Envelope<R>>;
  /** The success toast, fixed or from the answer; none when undefined. */
  success?: string | ((data: R) => string | undefined);
  /** After a successful save, before the dialog closes. */
  onSaved?: (data: R) => void;
  /** A refusal whose message belongs under a field (a taken serial number) instead of only in the toast. */
  errorField?: (code: number | null, message: string) => (keyof V & string) | undefined;
  /** Runs once the dialog has faded out; the parent unmounts it then. */
  onClosed: () => void;
  /** Controlled opening (a dialog kept mounted); without it the dialog opens when mounted. */
  open?: boolean;
  onCancel?: () => void;
  /** The antd form name, which prefixes the inputs' ids. */
  name?: string;
  okText?: string;
  /** Shown under the fields (a hint, a preview). */
  footer?: ReactNode;
  /** The form instance when the caller needs it (a field that fills others). */
  form?: FormInstance<V>;
  /** A change the form reacts to (a new type empties the target). */
  onValuesChange?: (changed: Partial<V>, values: V) => void;
}

/**
 * The one create/edit dialog: 保存 / 取 消, not closed by a click outside (SPEC §2), 95%
 * wide on phones, contents discarded when closed; `onClosed` runs once it has faded out.
 *
 * Given `fields`, it is the whole dialog: it renders the form schema in an antd Form,
 * loads the initial values if asked, saves through `submit` with the saving state, shows
 * the server's refusal (a warning toast, and under the field `errorField` names), toasts
 * success and closes. Without `fields` it is the frame around a form the caller writes.
 */
export function FormModal<V, R, D = unknown>(props: FormModalProps<V, R, D>): ReactElement;
export function FormModal(props: FormModalFrameProps): ReactElement;
export function FormModal<V, R, D>(props: FormModalProps<V, R, D> | FormModalFrameProps): ReactElement {
  return 'fields' in props ? <SchemaFormModal {...props} /> : <Frame {...props} />;
}

function Frame({
  open,
  title,
  width,
  saving,
  onSave,
  onCancel,
  onClosed,
  okText = '保存',
  okDisabled,
  cancelHidden,
  children,
}: FormModalFrameProps) {
  const mobile = useIsMobile();
  return (
    <Modal
      open={open}
      title={title}
      width={mobile ? '95%' : width}
      okText={okText}
      cancelText="取 消"
      confirmLoading={saving}
      okButtonProps={okDisabled ? { disabled: true } : undefined}
      cancelButtonProps={cancelHidden ? { style: { display: 'none' } } : undefined}
      mask={{ closable: false }}
      onOk={onSave}
      onCancel={onCancel}
      afterOpenChange={(visible) => {
        if (!visible) onClosed();
      }}
      destroyOnHidden
    >
      {children}
    </Modal>
  );
}

function SchemaFormModal<V, R, D>(props: FormModalProps<V, R, D>) {
  const { title, width, submit, success, onSaved, errorField, onClosed, okText } = props;
  const [own] = Form.useForm<V>();
  const form = props.form ?? own;
  const [selfOpen, setSelfOpen] = useState(true);
  const [saving, setSaving] = useState(false);
  const [loaded, setLoaded] = useState(!props.load);
  const open = props.open ?? selfOpen;
  const close = props.onCancel ?? (() => setSelfOpen(false));

  const save = async (values: V) => {
    setSaving(true);
    const outcome = await attempt(() => submit(values));
    setSaving(false);
    if (!outcome.ok) {
      // The warning toast has said why; the typed values stay.
      const field = errorField?.(outcome.code, outcome.message);
      if (field) form.setFields([{ name: field as never, errors: [outcome.message] }]);
      return;
    }
    const message = typeof success === 'function' ? success(outcome.data) : success;
    if (message) toast.success(message);
    onSaved?.(outcome.data);
    close();
  };

  const body = (initialValues: V | undefined) => (
    <Form<V>
      form={form}
      name={props.name}
      layout="vertical"
      initialValues={initialValues as never}
      onValuesChange={props.onValuesChange}
      onFinish={(v) => void save(v)}
      autoComplete="off"
      style={{ marginTop: 16 }}
    >
      <SchemaFields fields={props.fields} schema={props.schema} />
      {props.footer}
    </Form>
  );

  return (
    <Frame
      open={open}
      title={title}
      width={width}
      saving={saving}
      okText={okText}
      okDisabled={!loaded}
      onSave={() => form.submit()}
      onCancel={close}
      onClosed={onClosed}
    >
      {props.load ? (
        <Loaded load={props.load} onLoaded={() => setLoaded(true)} onFailed={close}>
          {body}
        </Loaded>
      ) : (
        body(props.initialValues)
      )}
    </Frame>
  );
}

/** The form once its values have loaded; a spinner before. */
function Loaded<V, D>({
  load,
  onLoaded,
  onFailed,
  children,
}: {
  load: FormLoad<V, D>;
  onLoaded: () => void;
  onFailed: () => void;
  children: (values: V) => ReactNode;
}) {
  const query = useQuery({
    queryKey: load.queryKey,
    queryFn: () => loadOrThrow(load.queryFn),
    // The dialog edits what is stored now, not what an earlier opening saw.
    gcTime: 0,
  });
  const { isSuccess, isError } = query;
  useEffect(() => {
    if (isSuccess) onLoaded();
    // Nothing to edit when the values cannot be read; the toast has said why.
    if (isError) onFailed();
    // Both callbacks only set state, so running them again on a later render is harmless.
  }, [isSuccess, isError, onLoaded, onFailed]);
  if (query.isSuccess) return children(load.values(query.data));
  return (
    <Spin spinning description="加载中">
      <div style={{ height: 160 }} />
    </Spin>
  );
}
