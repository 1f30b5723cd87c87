import { updateDocumentBody, type ToiletDocument } from '@se/core';
import { Col, Form, Input, Row } from 'antd';
import { useState } from 'react';
import { updateDocument } from '../../api/toilets.ts';
import { FormModal } from '../../components/FormModal.tsx';
import { attempt } from '../../components/feedback.ts';
import { zodRule } from '../../components/form-rules.ts';
import { useIsMobile } from '../../layout/viewport.ts';
import { NumberField } from '../devices/NumberField.tsx';

interface Values {
  toilet_id: number;
  male_count?: number;
  female_count?: number;
  others_count?: number;
  open_time: string;
  close_time: string;
  content: string;
}

/** 编辑开放时间与厕位: the toilet's document (SPEC §3), one per toilet. */
export function DocumentDialog({
  toiletId,
  toiletName,
  document,
  onSaved,
  onClosed,
}: {
  toiletId: number;
  toiletName: string;
  document: ToiletDocument;
  onSaved: () => void;
  onClosed: () => void;
}) {
  const mobile = useIsMobile();
  const [form] = Form.useForm<Values>();
  const [open, setOpen] = useState(true);
  const [saving, setSaving] = useState(false);
  const rule = (field: string) => [zodRule(updateDocumentBody, field)];

  const submit = async (v: Values) => {
    setSaving(true);
    const outcome = await attempt(
      () =>
        updateDocument({
          toilet_id: toiletId,
          male_count: v.male_count ?? 0,
          female_count: v.female_count ?? 0,
          others_count: v.others_count ?? 0,
          open_time: v.open_time.trim(),
          close_time: v.close_time.trim(),
          content: v.content.trim(),
        }),
      '保存成功',
    );
    setSaving(false);
    if (outcome.ok) {
      onSaved();
      setOpen(false);
    }
  };

  const third = mobile ? 24 : 8;
  const half = mobile ? 24 : 12;
  return (
    <FormModal
      open={open}
      title={`开放时间与厕位 · ${toiletName}`}
      width={640}
      saving={saving}
      onSave={() => form.submit()}
      onCancel={() => setOpen(false)}
      onClosed={onClosed}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        autoComplete="off"
        style={{ marginTop: 16 }}
        initialValues={{
          toilet_id: toiletId,
          male_count: document.male_count,
          female_count: document.female_count,
          others_count: document.others_count,
          open_time: document.open_time,
          close_time: document.close_time,
          content: document.content,
        }}
        onFinish={(v) => void submit(v)}
      >
        <Row gutter={16}>
          <Col span={third}>
            <Form.Item label="男厕位数" name="male_count" rules={rule('male_count')}>
              <NumberField min={0} max={999} aria-label="男厕位数" />
            </Form.Item>
          </Col>
          <Col span={third}>
            <Form.Item label="女厕位数" name="female_count" rules={rule('female_count')}>
              <NumberField min={0} max={999} aria-label="女厕位数" />
            </Form.Item>
          </Col>
          <Col span={third}>
            <Form.Item label="其他厕位数" name="others_count" rules={rule('others_count')}>
              <NumberField min={0} max={999} aria-label="其他厕位数" />
            </Form.Item>
          </Col>
          <Col span={half}>
            <Form.Item label="开放时间" name="open_time" required rules={rule('open_time')}>
              <Input maxLength={5} placeholder="00:00" />
            </Form.Item>
          </Col>
          <Col span={half}>
            <Form.Item
              label="关闭时间"
              name="close_time"
              required
              rules={rule('close_time')}
              extra="早于开放时间表示次日关闭"
            >
              <Input maxLength={5} placeholder="23:59" />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item label="说明" name="content" rules={rule('content')}>
              <Input.TextArea
                autoSize={{ minRows: 2, maxRows: 4 }}
                maxLength={2000}
                placeholder="如 无障碍厕位在一层东侧"
              />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </FormModal>
  );
}
