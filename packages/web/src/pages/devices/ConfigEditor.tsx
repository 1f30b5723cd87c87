import { SendOutlined } from '@ant-design/icons';
import { SCHEDULE_PRESETS, WEEKDAYS, WEEKDAY_LABELS, updateConfigBody, type JwbConfig } from '@se/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Col, Divider, Flex, Form, Input, Row, Select, Spin, Typography } from 'antd';
import { TimePicker } from '../../components/pickers.ts';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { getJwbConfig, updateJwbConfig } from '../../api/devices.ts';
import { zodRule } from '../../components/form-rules.ts';
import { useIsMobile } from '../../layout/viewport.ts';
import { attempt, loadOrThrow } from '../../components/feedback.ts';
import { NumberField } from '../../components/NumberField.tsx';
import {
  CUSTOM_PRESET,
  configToForm,
  formToBody,
  isScheduleKey,
  matchPreset,
  presetValues,
  type ConfigFormValues,
} from './schedule.ts';

const TIME_FORMAT = 'HH:mm';

const toDayjs = (text: string | undefined): Dayjs | null => {
  const m = /^(\d{2}):(\d{2})$/.exec(text ?? '');
  return m ? dayjs().hour(Number(m[1])).minute(Number(m[2])).second(0).millisecond(0) : null;
};

/** A TimePicker holding 'HH:mm' text, so the form (and its tests) deal in the wire format. */
function TimeField({
  value,
  onChange,
  id,
  'aria-label': ariaLabel,
}: {
  value?: string;
  onChange?: (value: string | undefined) => void;
  id?: string;
  'aria-label'?: string;
}) {
  return (
    <TimePicker
      id={id}
      aria-label={ariaLabel}
      format={TIME_FORMAT}
      value={toDayjs(value)}
      onChange={(d) => onChange?.(d ? d.format(TIME_FORMAT) : undefined)}
      needConfirm={false}
      allowClear={false}
      style={{ width: '100%' }}
    />
  );
}

// Apart from the ['devices', …] keys: refreshing a list must not reset a config being edited.
export const configKey = (dispenserId: number) => ['jwb-config', dispenserId] as const;

/** A day's two times: the form field suffix and its label. */
const EDGES = [
  ['start', '开始'],
  ['end', '结束'],
] as const;

const PRESET_OPTIONS = SCHEDULE_PRESETS.map((p) => ({ value: p.config_name, label: p.config_name }));
const SETTING = { min: 0, max: 1_000_000, precision: 0 } as const;
/** The numeric working parameters: the form field and its label. */
const SETTINGS = [
  ['work_mode', '工作模式'],
  ['work_fre', '工作频率'],
  ['all_fre', '总频率'],
  ['work_limit', '工作上限'],
] as const;

/**
 * 配置: the dispenser's weekly working hours and settings. A preset fills the grid; editing
 * the grid by hand turns the preset into 新建. Saving queues the config for the device.
 */
export function ConfigEditor({ dispenserId }: { dispenserId: number }) {
  const mobile = useIsMobile();
  const [form] = Form.useForm<ConfigFormValues>();
  const config = useQuery({
    queryKey: configKey(dispenserId),
    queryFn: () => loadOrThrow(() => getJwbConfig(dispenserId)),
  });

  // The form shows the stored config whenever a fresh one arrives (after a save, too).
  useEffect(() => {
    if (config.data) form.setFieldsValue(configToForm(config.data));
  }, [config.data, form]);

  const save = useSaveConfig(dispenserId);

  if (config.isPending) return <Spin style={{ display: 'block', padding: 48 }} />;
  if (config.isError)
    return <Alert type="warning" showIcon title="配置加载失败" description={config.error.message} />;

  return (
    <Form<ConfigFormValues>
      form={form}
      layout="vertical"
      initialValues={configToForm(config.data)}
      onValuesChange={(changed: Partial<ConfigFormValues>, all: ConfigFormValues) => {
        if (Object.keys(changed).some(isScheduleKey)) form.setFieldValue('config_name', matchPreset(all));
      }}
      onFinish={(values) => void save.run(values)}
    >
      <Form.Item
        label="时间方案"
        name="config_name"
        extra="选择预设方案自动填写下表；选“新建”或直接修改下表即为自定义方案"
        rules={[zodRule(updateConfigBody, 'config_name')]}
      >
        <Select
          options={PRESET_OPTIONS}
          style={{ maxWidth: 240 }}
          onChange={(name: string) => {
            if (name === CUSTOM_PRESET) return;
            const grid = presetValues(name);
            if (grid) form.setFieldsValue(grid);
          }}
        />
      </Form.Item>

      <Row gutter={12} style={{ fontWeight: 500, marginBottom: 8 }}>
        <Col span={4}>日期</Col>
        <Col span={10}>开始时间</Col>
        <Col span={10}>结束时间</Col>
      </Row>
      {WEEKDAYS.map((d) => (
        <Row key={d} gutter={12} align="top">
          <Col span={4} style={{ lineHeight: '32px' }}>
            {WEEKDAY_LABELS[d]}
          </Col>
          {EDGES.map(([edge, label]) => (
            <Col key={edge} span={10}>
              <Form.Item
                name={`${d}_${edge}`}
                rules={[{ required: true, message: `请选择${label}时间` }]}
                style={{ marginBottom: 12 }}
              >
                <TimeField aria-label={`${WEEKDAY_LABELS[d]}${label}时间`} />
              </Form.Item>
            </Col>
          ))}
        </Row>
      ))}
      <Typography.Paragraph type="secondary">
        结束时间 00:00 表示工作到午夜；开始 00:01、结束 00:00 表示当天停用（如“学校”方案的周末）。
      </Typography.Paragraph>

      <Divider titlePlacement="start" plain>
        工作参数
      </Divider>
      <Row gutter={16}>
        {SETTINGS.map(([name, label]) => (
          <Col key={name} span={mobile ? 24 : 12}>
            <Form.Item label={label} name={name} rules={[zodRule(updateConfigBody, name)]}>
              <NumberField {...SETTING} aria-label={label} />
            </Form.Item>
          </Col>
        ))}
        <Col span={24}>
          <Form.Item label="IP 地址" name="ip_address" rules={[zodRule(updateConfigBody, 'ip_address')]}>
            <Input maxLength={100} placeholder="设备连接的服务器地址（可选）" style={{ maxWidth: 360 }} />
          </Form.Item>
        </Col>
      </Row>

      <Flex align="center" gap={12} wrap>
        <Button type="primary" htmlType="submit" icon={<SendOutlined />} loading={save.saving}>
          保存并下发
        </Button>
        <LastSaved config={config.data} />
      </Flex>
    </Form>
  );
}

function LastSaved({ config }: { config: JwbConfig }) {
  return (
    <Typography.Text type="secondary">
      {config.config_date ? `上次下发：${config.config_date}` : '尚未下发过配置（当前显示默认值）'}
    </Typography.Text>
  );
}

/** Saves and queues; the device list and the command history change with it. */
function useSaveConfig(dispenserId: number) {
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  const run = async (values: ConfigFormValues): Promise<boolean> => {
    setSaving(true);
    const outcome = await attempt(
      () => updateJwbConfig(formToBody(dispenserId, values)),
      '配置已保存，等待设备接收',
    );
    setSaving(false);
    if (outcome.ok) {
      queryClient.setQueryData(configKey(dispenserId), outcome.data);
      // config_date shows in the list and the drawer.
      void queryClient.invalidateQueries({ queryKey: ['devices', 'jwb'] });
      void queryClient.invalidateQueries({ queryKey: ['commands', dispenserId] });
    }
    return outcome.ok;
  };
  return { run, saving };
}
