import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import { addToiletBody, updateToiletBody, type ToiletRow } from '@se/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useEffect, useState } from 'react';
import { listDevices } from '../../api/devices.ts';
import { addToilet, updateToilet, type ToiletFields } from '../../api/toilets.ts';
import { loadOrThrow } from '../../components/feedback.ts';
import { COORD_FIELDS, valuesOf, type FormField } from '../../components/form-fields.tsx';

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
}: DialogProps<{
  target: ToiletDialogTarget;
}>) {
  const editing = target.mode === 'edit' ? target.toilet : null;

  const initialValues: FormValues = editing
    ? valuesOf(editing, [
        'id',
        'name',
        'pname',
        'cityname',
        'adname',
        'business_area',
        'address',
        'lng',
        'lat',
        'img_url',
        'gateway_id',
      ])
    : { name: '', pname: '', cityname: '', adname: '', business_area: '', address: '', img_url: '' };

  const submit = (v: FormValues) => {
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
    return editing
      ? // 0 unlinks a gateway that was cleared in the picker.
        updateToilet({ id: editing.id, name, ...fields, gateway_id: v.gateway_id ?? 0 })
      : addToilet({ name, ...fields, gateway_id: v.gateway_id });
  };

  const current = editing?.gateway_id
    ? { id: editing.gateway_id, ser_num: editing.gateway_ser_num }
    : undefined;
  const fields: FormField<FormValues>[] = [
    { name: 'name', label: '名称', span: 12, required: true, maxLength: 100, placeholder: '如 人民广场公厕' },
    {
      name: 'gateway_id',
      label: '关联网关',
      span: 12,
      rules: [],
      render: () => <GatewayPicker current={current} />,
    },
    { name: 'pname', label: '省份', span: 8, maxLength: 50, placeholder: '如 浙江省' },
    { name: 'cityname', label: '城市', span: 8, maxLength: 50, placeholder: '如 杭州市' },
    { name: 'adname', label: '区县', span: 8, maxLength: 50, placeholder: '如 西湖区' },
    { name: 'business_area', label: '商圈', span: 12, maxLength: 100 },
    { name: 'address', label: '详细地址', span: 12, maxLength: 200 },
    ...COORD_FIELDS,
    { name: 'img_url', label: '图片地址', maxLength: 500, placeholder: 'https://…（可选）' },
  ];

  return (
    <FormModal
      title={editing ? `编辑厕所 ${editing.name}` : '登记厕所'}
      width={720}
      fields={fields}
      schema={editing ? updateToiletBody : addToiletBody}
      initialValues={initialValues}
      submit={submit}
      success={editing ? '保存成功' : '厕所登记成功'}
      onSaved={onSaved}
      onClosed={onClosed}
    />
  );
}
