import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import {
  COURIERS,
  EXPRESS_STATUS_LABELS,
  courierLabel,
  recordIdOf,
  trackingNoError,
  type Courier,
  type ExpressItem,
  type ExpressRow,
} from '@se/core';
import { Button, Card, Col, Flex, Form, Input, InputNumber, Row, Select, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { addExpress, listExpress, updateExpress } from '../../api/express.ts';
import { attempt } from '../../components/feedback.ts';
import {
  DeleteAction,
  ListView,
  RowAction,
  select,
  text,
  useListQuery,
  type FilterFields,
  type ListColumn,
} from '../../components/list/index.ts';

const COMPANY_OPTIONS = COURIERS.map((c) => ({ value: c.value, label: c.label }));
const STATUS_OPTIONS = EXPRESS_STATUS_LABELS.map((label, value) => ({ value, label }));
const STATUS_COLORS = ['gold', 'blue', 'green'] as const;

interface OrderForm {
  company: string;
  tracking_no: string;
  sender_name: string;
  sender_phone: string;
  sender_address: string;
  receiver_name: string;
  receiver_phone: string;
  receiver_address: string;
  items: ExpressItem[];
  record_no: string;
  note: string;
}

const need = (label: string) => [{ required: true, whitespace: true, message: `请输入${label}` }];
const phoneRule = (label: string) => [
  ...need(label),
  { pattern: /^(1\d{10}|0\d{2,3}-?\d{7,8}|400-?\d{3}-?\d{4})$/, message: `${label}格式不正确` },
];

/** The new-order form: company, number (checked per company as typed), who, what, which work order. */
function OrderFormCard({ onSaved }: { onSaved: () => void }) {
  const [form] = Form.useForm<OrderForm>();
  const [params] = useSearchParams();
  const [saving, setSaving] = useState(false);
  const save = async (v: OrderForm) => {
    const recordId = recordIdOf(v.record_no);
    setSaving(true);
    const out = await attempt(
      () =>
        addExpress({
          ...v,
          record_no: undefined,
          record_id: recordId ?? undefined,
          items: v.items.map((i) => ({
            ser_num: i.ser_num?.trim() ?? '',
            name: i.name?.trim() ?? '',
            quantity: i.quantity,
          })),
        } as Parameters<typeof addExpress>[0]),
      '快递单已保存',
    );
    setSaving(false);
    if (out.ok) {
      form.resetFields(['tracking_no', 'items', 'note', 'record_no']);
      onSaved();
    }
  };
  const half = { xs: 24, sm: 12 };
  return (
    <Card size="small" title="新建快递单">
      <Form<OrderForm>
        form={form}
        layout="vertical"
        name="express"
        initialValues={{
          company: 'sf',
          items: [{ ser_num: '', name: '', quantity: 1 }],
          record_no: params.get('record') ?? '',
          note: '',
        }}
        onFinish={(v) => void save(v)}
      >
        <Row gutter={12}>
          <Col {...half}>
            <Form.Item name="company" label="快递公司" rules={[{ required: true }]}>
              <Select options={COMPANY_OPTIONS} aria-label="快递公司" />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item
              name="tracking_no"
              label="快递单号"
              dependencies={['company']}
              rules={[
                ...need('快递单号'),
                ({ getFieldValue }) => ({
                  validator: (_, v: string) => {
                    const err = v ? trackingNoError(getFieldValue('company') as string, v) : null;
                    return err ? Promise.reject(new Error(err)) : Promise.resolve();
                  },
                }),
              ]}
            >
              <Input maxLength={30} placeholder="如 SF1234567890123" />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item name="sender_name" label="寄件人" rules={need('寄件人')}>
              <Input maxLength={30} />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item name="sender_phone" label="寄件人电话" rules={phoneRule('寄件人电话')}>
              <Input maxLength={20} inputMode="tel" />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="sender_address" label="寄件地址" rules={need('寄件地址')}>
              <Input maxLength={200} />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item name="receiver_name" label="收件人" rules={need('收件人')}>
              <Input maxLength={30} />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item name="receiver_phone" label="收件人电话" rules={phoneRule('收件人电话')}>
              <Input maxLength={20} inputMode="tel" />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="receiver_address" label="收件地址" rules={need('收件地址')}>
              <Input maxLength={200} />
            </Form.Item>
          </Col>
        </Row>
        <Typography.Text strong>物品</Typography.Text>
        <Form.List name="items">
          {(fields, { add, remove }) => (
            <>
              {fields.map((f) => (
                <Flex key={f.key} gap={8} align="start">
                  <Form.Item name={[f.name, 'ser_num']} style={{ flex: 1 }}>
                    <Input placeholder="设备序列号" aria-label="设备序列号" maxLength={64} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'name']} style={{ flex: 1 }}>
                    <Input placeholder="或配件名称" aria-label="配件名称" maxLength={50} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'quantity']} style={{ width: 80 }}>
                    <InputNumber
                      min={1}
                      max={9999}
                      precision={0}
                      aria-label="数量"
                      style={{ width: '100%' }}
                    />
                  </Form.Item>
                  <Button
                    type="text"
                    icon={<MinusCircleOutlined />}
                    aria-label="删除物品"
                    disabled={fields.length === 1}
                    onClick={() => remove(f.name)}
                  />
                </Flex>
              ))}
              <Button
                type="dashed"
                block
                icon={<PlusOutlined />}
                onClick={() => add({ ser_num: '', name: '', quantity: 1 })}
                style={{ marginBottom: 16 }}
              >
                添加物品
              </Button>
            </>
          )}
        </Form.List>
        <Row gutter={12}>
          <Col {...half}>
            <Form.Item
              name="record_no"
              label="关联维修单"
              rules={[{ pattern: /^(wx\d{1,9})?$/i, message: '维修单号格式如 WX000012' }]}
            >
              <Input placeholder="WX000012（可选）" maxLength={12} />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item name="note" label="备注">
              <Input maxLength={200} />
            </Form.Item>
          </Col>
        </Row>
        <Button type="primary" htmlType="submit" block loading={saving}>
          保存快递单
        </Button>
      </Form>
    </Card>
  );
}

type Filters = { keywords: string; company: Courier | undefined; status: number | undefined };
const FILTERS: FilterFields<Filters> = {
  keywords: text({ placeholder: '单号 / 收件人 / 物品', label: '关键字', width: 180 }),
  company: select({ options: COMPANY_OPTIONS, placeholder: '快递公司', width: 110 }),
  status: select({ options: STATUS_OPTIONS, placeholder: '状态', width: 100 }),
};

const items = (o: ExpressRow) =>
  o.items.map((i) => `${i.ser_num || i.name}${i.quantity > 1 ? ` ×${i.quantity}` : ''}`).join('、');

const COLUMNS: ListColumn<ExpressRow>[] = [
  {
    title: '快递',
    key: 'no',
    width: 200,
    card: false,
    render: (_, o) => `${courierLabel(o.company)} ${o.tracking_no}`,
  },
  {
    title: '状态',
    dataIndex: 'status',
    width: 80,
    render: (s: number) => <Tag color={STATUS_COLORS[s]}>{EXPRESS_STATUS_LABELS[s]}</Tag>,
  },
  { title: '收件人', key: 'to', width: 160, render: (_, o) => `${o.receiver_name} ${o.receiver_phone}` },
  { title: '物品', key: 'items', ellipsis: true, render: (_, o) => items(o) },
  { title: '维修单', dataIndex: 'record_no', width: 100, from: 'lg', render: (n: string) => n || '—' },
  { title: '时间', dataIndex: 'created_at', width: 170, from: 'xl' },
];

/** /add-express-order: the form, and the orders with search and filters beside it. */
export default function ExpressPage() {
  const list = useListQuery({
    key: ['express', 'orders'],
    filters: FILTERS,
    load: (f, paging) =>
      listExpress({
        keywords: f.keywords.trim() || undefined,
        company: f.company,
        status: f.status,
        ...paging,
      }),
  });
  const next = async (o: ExpressRow) => {
    const out = await attempt(() => updateExpress({ id: o.id, status: o.status + 1 }), '状态已更新');
    if (out.ok) list.refresh();
  };
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={9}>
        <OrderFormCard onSaved={list.refresh} />
      </Col>
      <Col xs={24} xl={15}>
        <Card size="small" title="快递单列表">
          <ListView
            list={list}
            columns={COLUMNS}
            rowKey="id"
            empty={list.filtered ? '没有符合条件的快递单' : '暂无快递单'}
            cardTitle={(o) => `${courierLabel(o.company)} ${o.tracking_no}`}
            actionsWidth={150}
            actions={(o) => (
              <Flex gap={0}>
                {o.status < EXPRESS_STATUS_LABELS.length - 1 && (
                  <RowAction onClick={() => void next(o)}>{EXPRESS_STATUS_LABELS[o.status + 1]}</RowAction>
                )}
                <DeleteAction
                  title="删除快递单"
                  question={`确定删除快递单 ${o.tracking_no} 吗？`}
                  call={() => updateExpress({ id: o.id, is_delete: true })}
                  onDeleted={list.refresh}
                />
              </Flex>
            )}
          />
        </Card>
      </Col>
    </Row>
  );
}
