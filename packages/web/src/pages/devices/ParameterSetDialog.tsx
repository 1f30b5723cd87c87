import { FormModal } from '../../components/FormModal.tsx';
import {
  ENVIRONMENT_PRESETS,
  LIQUID_PRESETS,
  NUMERIC_PARAMS,
  addParameterBody,
  type ParameterSet,
} from '@se/core';
import { Col, Form, Input, Row, Select, Typography } from 'antd';
import { useState } from 'react';
import { addParameterSet, updateParameterSet } from '../../api/devices.ts';
import { zodRule } from '../../components/form-rules.ts';
import { useIsMobile } from '../../layout/viewport.ts';
import { attempt } from '../../components/feedback.ts';
import { NumberField } from './NumberField.tsx';
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

/** 新建参数 / 编辑参数: every numeric parameter, with environment and concentration shortcuts. */
export function ParameterSetDialog({
  set,
  onSaved,
  onClosed,
}: {
  /** null: a new set from the SPEC defaults. */
  set: ParameterSet | null;
  onSaved: (set: ParameterSet) => void;
  onClosed: () => void;
}) {
  const mobile = useIsMobile();
  const [form] = Form.useForm<ParameterFormValues>();
  const [open, setOpen] = useState(true);
  const [saving, setSaving] = useState(false);
  const liquidTime = Form.useWatch('liquid_time', form);

  const submit = async (values: ParameterFormValues) => {
    setSaving(true);
    const body = { ...values, parameter_desc: values.parameter_desc.trim() };
    const outcome = await attempt(
      () => (set ? updateParameterSet({ id: set.id, ...body }) : addParameterSet(body)),
      set ? '参数已保存' : '参数已新建',
    );
    setSaving(false);
    if (outcome.ok) {
      onSaved(outcome.data);
      setOpen(false);
    }
  };

  return (
    <FormModal
      open={open}
      title={set ? `编辑参数 #${set.parameter_num}` : '新建参数'}
      width={760}
      saving={saving}
      onSave={() => form.submit()}
      onCancel={() => setOpen(false)}
      onClosed={onClosed}
    >
      <Form<ParameterFormValues>
        form={form}
        layout="vertical"
        initialValues={set ? parameterValuesOf(set) : defaultParameterValues()}
        onFinish={(v) => void submit(v)}
        autoComplete="off"
        style={{ marginTop: 16 }}
      >
        <Row gutter={16}>
          <Col span={24}>
            <Form.Item
              label="参数说明"
              name="parameter_desc"
              rules={[zodRule(addParameterBody, 'parameter_desc')]}
            >
              <Input maxLength={50} placeholder="如 地铁站男厕夏季" />
            </Form.Item>
          </Col>
          <Col span={mobile ? 24 : 14}>
            <Form.Item
              label="应用环境"
              name="environment"
              extra="选择后自动填写雾化器系数、出液时间和风扇系数"
            >
              <Select
                options={ENVIRONMENT_OPTIONS}
                onChange={(environment: string) => form.setFieldsValue(environmentValues(environment))}
              />
            </Form.Item>
          </Col>
          <Col span={mobile ? 24 : 10}>
            <Form.Item label="浓度" extra="选择后设置出液时间">
              <Select
                value={concentrationOf(liquidTime)}
                placeholder="自定义"
                options={CONCENTRATION_OPTIONS}
                aria-label="浓度"
                onChange={(label: string) => form.setFieldsValue(concentrationValues(label))}
              />
            </Form.Item>
          </Col>
          {NUMERIC_PARAMS.map((key) => {
            const { label, unit, ...rules } = PARAM_FIELDS[key];
            return (
              <Col key={key} span={mobile ? 24 : 12}>
                <Form.Item
                  label={
                    <span>
                      {label}{' '}
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {key}
                      </Typography.Text>
                    </span>
                  }
                  name={key}
                  rules={[{ required: true, message: `请填写${label}` }, zodRule(addParameterBody, key)]}
                >
                  <NumberField {...rules} suffix={unit} aria-label={label} />
                </Form.Item>
              </Col>
            );
          })}
        </Row>
      </Form>
    </FormModal>
  );
}
