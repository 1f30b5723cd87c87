import { FormModal } from '../../components/FormModal.tsx';
import { addToiletBody, updateToiletBody, type ToiletRow } from '@se/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Col, Form, Input, Row, Select } from 'antd';
import { useEffect, useState } from 'react';
import { listDevices } from '../../api/devices.ts';
import { addToilet, updateToilet, type ToiletFields } from '../../api/toilets.ts';
import { zodRule } from '../../components/form-rules.ts';
import { useIsMobile } from '../../layout/viewport.ts';
import { attempt, loadOrThrow } from '../../components/feedback.ts';
import { NumberField } from '../devices/NumberField.tsx';

export type ToiletDialogTarget = { mode: 'add' } | { mode: 'edit'; toilet: ToiletRow };

interface FormValues extends ToiletFields {
  id?: number;
  name: string;
  gateway_id?: number;
}

/** SPEC §9: remote select searches wait 300 ms after the last key. */
const SEARCH_DEBOUNCE_MS = 300;

/** The gateways the caller can see, searched by serial or description. */
function GatewayPicker({
  value,
  onChange,
  current,
  id,
}: {
  value?: number;
  onChange?: (value: number | undefined) => void;
  /** The linked gateway, which may not be on the first page of results. */
  current?: { id: number; ser_num: string };
  id?: string;
}) {
  const [search, setSearch] = useState('');
  const [keywords, setKeywords] = useState('');
  useEffect(() => {
    const timer = window.setTimeout(() => setKeywords(search.trim()), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [search]);
  const gateways = useQuery({
    queryKey: ['devices', 'gateway', 'picker', keywords],
    queryFn: () =>
      loadOrThrow(() => listDevices('gateway', { keywords: keywords || undefined, page_size: 50 })),
    placeholderData: keepPreviousData,
  });
  const options = (gateways.data?.list ?? []).map((g) => ({
    value: g.id,
    label: g.desc ? `${g.ser_num}（${g.desc}）` : g.ser_num,
  }));
  if (current && !options.some((o) => o.value === current.id)) {
    options.unshift({ value: current.id, label: current.ser_num });
  }
  return (
    <Select<number>
      id={id}
      value={value}
      onChange={(v) => onChange?.(v)}
      allowClear
      showSearch={{ filterOption: false, onSearch: setSearch }}
      loading={gateways.isFetching}
      placeholder="搜索网关序列号或描述（可不选）"
      notFoundContent={gateways.isFetching ? '加载中…' : '没有可选的网关'}
      options={options}
    />
  );
}

/** 登记厕所 / 编辑厕所: the place fields (AMap's province/city/district naming) and its gateway. */
export function ToiletFormDialog({
  target,
  onSaved,
  onClosed,
}: {
  target: ToiletDialogTarget;
  onSaved: () => void;
  onClosed: () => void;
}) {
  const mobile = useIsMobile();
  const [form] = Form.useForm<FormValues>();
  const [open, setOpen] = useState(true);
  const [saving, setSaving] = useState(false);
  const editing = target.mode === 'edit' ? target.toilet : null;
  const schema = editing ? updateToiletBody : addToiletBody;

  const initialValues: FormValues = editing
    ? {
        id: editing.id,
        name: editing.name,
        pname: editing.pname,
        cityname: editing.cityname,
        adname: editing.adname,
        business_area: editing.business_area,
        address: editing.address,
        lng: editing.lng ?? undefined,
        lat: editing.lat ?? undefined,
        img_url: editing.img_url,
        gateway_id: editing.gateway_id ?? undefined,
      }
    : { name: '', pname: '', cityname: '', adname: '', business_area: '', address: '', img_url: '' };

  const submit = async (v: FormValues) => {
    setSaving(true);
    const fields: ToiletFields = {
      pname: v.pname?.trim() ?? '',
      cityname: v.cityname?.trim() ?? '',
      adname: v.adname?.trim() ?? '',
      business_area: v.business_area?.trim() ?? '',
      address: v.address?.trim() ?? '',
      img_url: v.img_url?.trim() ?? '',
      lng: v.lng,
      lat: v.lat,
    };
    const name = v.name.trim();
    const outcome = await attempt<unknown>(
      () =>
        editing
          ? // 0 unlinks a gateway that was cleared in the picker.
            updateToilet({ id: editing.id, name, ...fields, gateway_id: v.gateway_id ?? 0 })
          : addToilet({ name, ...fields, gateway_id: v.gateway_id }),
      editing ? '保存成功' : '厕所登记成功',
    );
    setSaving(false);
    if (outcome.ok) {
      onSaved();
      setOpen(false);
    }
  };

  const half = mobile ? 24 : 12;
  const third = mobile ? 24 : 8;
  return (
    <FormModal
      open={open}
      title={editing ? `编辑厕所 ${editing.name}` : '登记厕所'}
      width={720}
      saving={saving}
      onSave={() => form.submit()}
      onCancel={() => setOpen(false)}
      onClosed={onClosed}
    >
      <Form<FormValues>
        form={form}
        layout="vertical"
        initialValues={initialValues}
        onFinish={(v) => void submit(v)}
        autoComplete="off"
        style={{ marginTop: 16 }}
      >
        <Row gutter={16}>
          <Col span={half}>
            <Form.Item label="名称" name="name" required rules={[zodRule(schema, 'name')]}>
              <Input maxLength={100} placeholder="如 人民广场公厕" />
            </Form.Item>
          </Col>
          <Col span={half}>
            <Form.Item label="关联网关" name="gateway_id">
              <GatewayPicker
                current={
                  editing?.gateway_id
                    ? { id: editing.gateway_id, ser_num: editing.gateway_ser_num }
                    : undefined
                }
              />
            </Form.Item>
          </Col>
          <Col span={third}>
            <Form.Item label="省份" name="pname" rules={[zodRule(schema, 'pname')]}>
              <Input maxLength={50} placeholder="如 浙江省" />
            </Form.Item>
          </Col>
          <Col span={third}>
            <Form.Item label="城市" name="cityname" rules={[zodRule(schema, 'cityname')]}>
              <Input maxLength={50} placeholder="如 杭州市" />
            </Form.Item>
          </Col>
          <Col span={third}>
            <Form.Item label="区县" name="adname" rules={[zodRule(schema, 'adname')]}>
              <Input maxLength={50} placeholder="如 西湖区" />
            </Form.Item>
          </Col>
          <Col span={half}>
            <Form.Item label="商圈" name="business_area" rules={[zodRule(schema, 'business_area')]}>
              <Input maxLength={100} />
            </Form.Item>
          </Col>
          <Col span={half}>
            <Form.Item label="详细地址" name="address" rules={[zodRule(schema, 'address')]}>
              <Input maxLength={200} />
            </Form.Item>
          </Col>
          <Col span={half}>
            <Form.Item label="经度" name="lng" rules={[zodRule(schema, 'lng')]}>
              <NumberField min={-180} max={180} controls={false} placeholder="-180 ~ 180" aria-label="经度" />
            </Form.Item>
          </Col>
          <Col span={half}>
            <Form.Item label="纬度" name="lat" rules={[zodRule(schema, 'lat')]}>
              <NumberField min={-90} max={90} controls={false} placeholder="-90 ~ 90" aria-label="纬度" />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item label="图片地址" name="img_url" rules={[zodRule(schema, 'img_url')]}>
              <Input maxLength={500} placeholder="https://…（可选）" />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </FormModal>
  );
}
