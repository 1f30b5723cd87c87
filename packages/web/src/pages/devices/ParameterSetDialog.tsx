import {
  ENVIRONMENT_PRESETS,
  LIQUID_PRESETS,
  NUMERIC_PARAMS,
  addParameterBody,
  type ParameterSet,
} from '@se/core';
import { Form, Select, Typography, type FormInstance } from 'antd';
import { addParameterSet, updateParameterSet } from '../../api/devices.ts';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import type { FormField } from '../../components/form-fields.tsx';
import { zodRule } from '../../components/form-rules.ts';
import {
  PARAM_FIELDS,
  concentrationOf,
  concentrationValues,
  defaultParameterValues,
  environmentValues,
  parameterValuesOf,
  type ParameterFormValues,
} from './parameter-fields.ts';

const ENVIRONMENT_OPTIONS = ENVIRONMENT_PRESETS.map((e) => ({
  value: e.environment,
  label: `${e.label}（雾化 ${e.atomizer_cps} / 出液 ${e.liquid_time} / 风扇 ${e.fan_cps}）`,
}));
const CONCENTRATION_OPTIONS = LIQUID_PRESETS.map((p) => ({
  value: p.label,
  label: `${p.label}（出液 ${p.liquid_time}）`,
}));

/** 浓度 is not a value of its own: it shows and sets the liquid time. */
function ConcentrationPicker({ form }: { form: FormInstance<ParameterFormValues> }) {
  const liquidTime = Form.useWatch('liquid_time', form);
  return (
    <Select
      value={concentrationOf(liquidTime)}
      placeholder="自定义"
      options={CONCENTRATION_OPTIONS}
      aria-label="浓度"
      onChange={(label: string) => form.setFieldsValue(concentrationValues(label))}
    />
  );
}

/** 新建参数 / 编辑参数: every numeric parameter, with environment and concentration shortcuts. */
export function ParameterSetDialog({
  set,
  onSaved,
  onClosed,
}: DialogProps<
  {
    /** null: a new set from the SPEC defaults. */
    set: ParameterSet | null;
  },
  ParameterSet
>) {
  const [form] = Form.useForm<ParameterFormValues>();

  const fields: FormField<ParameterFormValues>[] = [
    { name: 'parameter_desc', label: '参数说明', maxLength: 50, placeholder: '如 地铁站男厕夏季' },
    {
      name: 'environment',
      label: '应用环境',
      kind: 'select',
      span: 14,
      rules: [],
      options: ENVIRONMENT_OPTIONS,
      extra: '选择后自动填写雾化器系数、出液时间和风扇系数',
      props: { onChange: (environment: string) => form.setFieldsValue(environmentValues(environment)) },
    },
    {
      label: '浓度',
      span: 10,
      rules: [],
      extra: '选择后设置出液时间',
      render: () => <ConcentrationPicker form={form} />,
    },
    ...NUMERIC_PARAMS.map((key): FormField<ParameterFormValues> => {
      const { label, unit, ...rules } = PARAM_FIELDS[key];
      return {
        name: key,
        label: (
          <span>
            {label}{' '}
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {key}
            </Typography.Text>
          </span>
        ),
        kind: 'number',
        span: 12,
        rules: [{ required: true, message: `请填写${label}` }, zodRule(addParameterBody, key)],
        props: { ...rules, suffix: unit, 'aria-label': label },
      };
    }),
  ];

  return (
    <FormModal
      title={set ? `编辑参数 #${set.parameter_num}` : '新建参数'}
      width={760}
      form={form}
      fields={fields}
      schema={addParameterBody}
      initialValues={set ? parameterValuesOf(set) : defaultParameterValues()}
      submit={(values) => {
        const body = { ...values, parameter_desc: values.parameter_desc.trim() };
        return set ? updateParameterSet({ id: set.id, ...body }) : addParameterSet(body);
      }}
      success={set ? '参数已保存' : '参数已新建'}
      onSaved={onSaved}
      onClosed={onClosed}
    />
  );
}
