import { Col, Form, Input, Row, Select, Switch, type FormItemProps, type FormRule } from 'antd';
import { DatePicker } from './pickers.ts';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import { useIsMobile } from '../layout/viewport.ts';
import { zodRule } from './form-rules.ts';
import { NumberField } from './NumberField.tsx';

/** The widgets a field can be; `render` covers anything else (pickers, role trees). */
export type FieldKind = 'text' | 'password' | 'number' | 'select' | 'textarea' | 'switch' | 'date';

/** One field of a form schema: what a create or edit dialog shows for one value. */
export interface FormField<V> {
  /** The value's name; a field without one is a helper that sets others (浓度 → 出液时间). */
  name?: keyof V & string;
  /** The Chinese label (also the number box's aria-label). */
  label: ReactNode;
  /** `text` unless told. */
  kind?: FieldKind;
  /** Shows the asterisk; the message itself comes from the rules. */
  required?: boolean;
  /**
   * Replaces the default rule, which checks the field with the form's core schema
   * (`zodRule`); `[]` for none.
   */
  rules?: FormRule[];
  options?: { value: string | number; label: ReactNode }[];
  placeholder?: string;
  maxLength?: number;
  extra?: ReactNode;
  /** Columns out of 24 on a desktop (24 unless told); a phone always gives the whole row. */
  span?: number;
  /** Leaves the field out: a fixed condition, or one on the current values. */
  hidden?: boolean | ((values: V) => boolean);
  disabled?: boolean | ((values: V) => boolean);
  /** More props for the widget: NumberField's min/max, Input's inputMode, TextArea's autoSize… */
  props?: Record<string, unknown>;
  /** More props for the Form.Item: getValueFromEvent, valuePropName… */
  item?: Omit<FormItemProps, 'name' | 'label' | 'rules' | 'extra' | 'required' | 'children'>;
  /** A custom widget in place of `kind`; it gets value/onChange from the Form.Item. */
  render?: () => ReactNode;
}

/** SPEC §5 text boxes: at most two to four lines, growing with the text. */
const TEXTAREA_SIZE = { minRows: 2, maxRows: 4 };

function widget<V>(field: FormField<V>, disabled: boolean): ReactNode {
  if (field.render) return field.render();
  const common = { placeholder: field.placeholder, maxLength: field.maxLength, disabled, ...field.props };
  switch (field.kind ?? 'text') {
    case 'password':
      return <Input.Password {...common} />;
    case 'number': {
      const label = typeof field.label === 'string' ? field.label : undefined;
      return <NumberField aria-label={label} {...common} />;
    }
    case 'select':
      return <Select options={field.options} {...common} />;
    case 'textarea':
      return <Input.TextArea autoSize={TEXTAREA_SIZE} {...common} />;
    case 'switch':
      return <Switch disabled={disabled} {...field.props} />;
    case 'date':
      return <DatePicker style={{ width: '100%' }} {...common} />;
    default:
      return <Input {...common} />;
  }
}

function FieldItem<V>({ field, schema, values }: { field: FormField<V>; schema?: z.ZodType; values: V }) {
  const disabled = typeof field.disabled === 'function' ? field.disabled(values) : !!field.disabled;
  const rules = field.rules ?? (schema && field.name ? [zodRule(schema, field.name)] : []);
  return (
    <Form.Item
      {...(field.kind === 'switch' ? { valuePropName: 'checked' } : {})}
      {...field.item}
      label={field.label}
      name={field.name as string}
      required={field.required}
      rules={rules}
      extra={field.extra}
    >
      {widget(field, disabled)}
    </Form.Item>
  );
}

/**
 * The fields of a form schema in a grid: each in its column, checked with the core
 * request schema unless it says otherwise. Render inside an antd Form.
 */
export function SchemaFields<V>({ fields, schema }: { fields: FormField<V>[]; schema?: z.ZodType }) {
  const mobile = useIsMobile();
  const dynamic = fields.some((f) => typeof f.hidden === 'function' || typeof f.disabled === 'function');
  // One column needs no grid (and a Row costs every re-render inside it in tests).
  const columns = fields.some((f) => f.span !== undefined && f.span < 24);
  const grid = (values: V) => {
    const items = fields.map((field, index) => {
      const hidden = typeof field.hidden === 'function' ? field.hidden(values) : field.hidden;
      if (hidden) return null;
      const item = <FieldItem key={field.name ?? index} field={field} schema={schema} values={values} />;
      if (!columns) return item;
      return (
        <Col key={field.name ?? index} span={mobile ? 24 : (field.span ?? 24)}>
          {item}
        </Col>
      );
    });
    return columns ? <Row gutter={16}>{items}</Row> : items;
  };
  if (!dynamic) return grid({} as V);
  // Conditions on values re-render the grid on every change.
  return (
    <Form.Item noStyle shouldUpdate>
      {({ getFieldsValue }) => grid(getFieldsValue(true) as V)}
    </Form.Item>
  );
}

/** Longitude and latitude (of a device, a toilet): they keep the decimals they were typed with. */
export const COORD_FIELDS = [
  {
    name: 'lng',
    label: '经度',
    kind: 'number',
    span: 12,
    placeholder: '-180 ~ 180',
    props: { min: -180, max: 180, controls: false },
  },
  {
    name: 'lat',
    label: '纬度',
    kind: 'number',
    span: 12,
    placeholder: '-90 ~ 90',
    props: { min: -90, max: 90, controls: false },
  },
] as const satisfies FormField<{ lng?: number; lat?: number }>[];

/** An edited row's values for its form: the named fields, with null as undefined (an empty box). */
export function valuesOf<R, K extends keyof R>(
  row: R,
  keys: readonly K[],
): { [P in K]: null extends R[P] ? Exclude<R[P], null> | undefined : R[P] } {
  return Object.fromEntries(keys.map((key) => [key, row[key] ?? undefined])) as never;
}
