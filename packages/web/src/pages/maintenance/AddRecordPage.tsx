import { CameraOutlined, CloseOutlined, SearchOutlined } from '@ant-design/icons';
import { FAULT_SEVERITIES, RECORD_PHOTO_LIMITS, type Prefill } from '@se/core';
import { Alert, Button, Card, Descriptions, Flex, Form, Input, Result, Select, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { addRecord, prefillRecord, uploadPhoto } from '../../api/maintenance.ts';
import { attempt } from '../../components/feedback.ts';
import { toast } from '../../components/toast.ts';
import { useFaultTypes, useEquipmentTypes } from './catalogue.ts';
import { EMPTY_DRAFT, clearDraft, loadDraft, saveDraft, type Draft } from './draft.ts';
import { compressPhoto, dataUrlBlob } from './photos.ts';
import { ScanButton } from './ScanButton.tsx';
import { readScanned } from './scan.ts';

/** What a link from an alarm, a part or a toilet (报修) names; a QR code names ser_num. */
const SOURCES = ['ser_num', 'alarm_id', 'part_id', 'toilet_id'] as const;

function Subject({ s }: { s: Prefill }) {
  return (
    <Descriptions size="small" column={1} bordered>
      {s.ser_num ? (
        <Descriptions.Item label="设备">
          {s.ser_num}
          {s.device_desc ? `（${s.device_desc}）` : ''}
        </Descriptions.Item>
      ) : null}
      {s.toilet_name ? <Descriptions.Item label="厕所">{s.toilet_name}</Descriptions.Item> : null}
      {s.part_name ? <Descriptions.Item label="部件">{s.part_name}</Descriptions.Item> : null}
      {s.alarm_id ? <Descriptions.Item label="来源">告警 #{s.alarm_id}</Descriptions.Item> : null}
    </Descriptions>
  );
}

/**
 * /add-maintenance-record: a technician on a phone scans (the QR code opens this page with
 * ser_num) or types the serial, picks the fault, takes photos and submits. The form is kept
 * across reloads, and a failed submission is retried from where it stopped.
 */
export default function AddRecordPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const [draft, setDraft] = useState<Draft>(() => loadDraft() ?? EMPTY_DRAFT);
  const [finding, setFinding] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<{ id: number; no: string } | null>(null);
  const [photosKept, setPhotosKept] = useState(true);
  const fileInput = useRef<HTMLInputElement>(null);
  const types = useEquipmentTypes();
  const faults = useFaultTypes(draft.equipment_type_id);

  const update = (patch: Partial<Draft>) =>
    setDraft((d) => {
      const next = { ...d, ...patch };
      setPhotosKept(saveDraft(next));
      return next;
    });

  const find = async (query: Record<string, string | number>) => {
    setFinding(true);
    const out = await attempt(() => prefillRecord(query));
    setFinding(false);
    if (!out.ok) return;
    const s = out.data;
    update({
      subject: s,
      ser_num: s.ser_num,
      equipment_type_id: s.equipment_type_id ?? undefined,
      fault_type_id: s.fault_type_id ?? undefined,
      description: s.description || draft.description,
      created: null,
    });
  };

  /** A QR code read by 扫码: a device's serial, a toilet's 报修 link or its 评价 code. */
  const scanned = (text: string) => {
    const r = readScanned(text, window.location.origin);
    if ('error' in r) return toast.warning(r.error);
    if ('ser_num' in r) {
      update({ ser_num: r.ser_num });
      return void find({ ser_num: r.ser_num });
    }
    void find(r);
  };

  // A link (报修 from an alarm, a part, a toilet; a device's QR code) starts a new draft.
  useEffect(() => {
    const source = SOURCES.find((k) => params.get(k));
    if (!source) return;
    const value = params.get(source)!;
    setParams({}, { replace: true });
    setDraft({ ...EMPTY_DRAFT });
    void find({ [source]: source === 'ser_num' ? value : Number(value) });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const addPhotos = async (files: FileList | null) => {
    if (!files?.length) return;
    const room = RECORD_PHOTO_LIMITS.count - draft.photos.length;
    const picked = [...files].filter((f) => f.type.startsWith('image/'));
    if (picked.length < files.length) toast.warning('只能添加图片');
    if (picked.length > room) toast.warning(`最多 ${RECORD_PHOTO_LIMITS.count} 张照片`);
    const added: string[] = [];
    for (const f of picked.slice(0, Math.max(0, room))) {
      try {
        added.push(await compressPhoto(f));
      } catch {
        toast.warning(`无法读取图片 ${f.name}`);
      }
    }
    update({ photos: [...draft.photos, ...added] });
  };

  const submit = async () => {
    const s = draft.subject;
    if (!s) return;
    setSaving(true);
    setFailure(null);
    let created = draft.created;
    if (!created) {
      const out = await attempt(() =>
        addRecord({
          device_id: s.device_id ?? undefined,
          part_id: s.device_id ? undefined : (s.part_id ?? undefined),
          toilet_id: s.device_id || s.part_id ? undefined : (s.toilet_id ?? undefined),
          alarm_id: s.alarm_id ?? undefined,
          equipment_type_id: draft.equipment_type_id!,
          fault_type_id: draft.fault_type_id,
          description: draft.description.trim(),
        }),
      );
      if (!out.ok) {
        setSaving(false);
        setFailure(out.message);
        return;
      }
      created = { ...out.data, uploaded: 0 };
      update({ created });
    }
    for (let i = created.uploaded; i < draft.photos.length; i++) {
      const id = created.id;
      const out = await attempt(() => uploadPhoto(id, dataUrlBlob(draft.photos[i]!)));
      if (!out.ok) {
        setSaving(false);
        setFailure(`维修单 ${created.no} 已提交，第 ${i + 1} 张照片上传失败：${out.message}`);
        return;
      }
      created = { ...created, uploaded: i + 1 };
      update({ created });
    }
    setSaving(false);
    clearDraft();
    setDraft({ ...EMPTY_DRAFT });
    setDone({ id: created.id, no: created.no });
    toast.success('报修成功');
  };

  if (done) {
    return (
      <Result
        status="success"
        title={`报修成功：${done.no}`}
        subTitle="负责人和报修人会收到站内消息"
        extra={[
          <Button
            key="list"
            type="primary"
            onClick={() => navigate(`/maintenance-records?keywords=${done.no}`)}
          >
            查看维修记录
          </Button>,
          <Button key="more" onClick={() => setDone(null)}>
            继续报修
          </Button>,
        ]}
      />
    );
  }

  const s = draft.subject;
  const ready = !!s && draft.equipment_type_id !== undefined && draft.description.trim() !== '';
  return (
    <Flex vertical gap={12} style={{ maxWidth: 560, margin: '0 auto' }}>
      <Card size="small" title="报修对象" extra={<ScanButton onText={scanned} />}>
        <Input.Search
          value={draft.ser_num}
          onChange={(e) => update({ ser_num: e.target.value })}
          onSearch={(v) => v.trim() && void find({ ser_num: v.trim() })}
          placeholder="扫码或输入设备序列号"
          aria-label="设备序列号"
          enterButton={
            <>
              <SearchOutlined /> 查找
            </>
          }
          loading={finding}
          size="large"
          maxLength={64}
        />
        <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
          点「扫码」用手机相机扫描设备的二维码，或输入序列号；厕所部件请在厕所详情中点「报修」。
        </Typography.Paragraph>
        {s && (
          <div style={{ marginTop: 12 }}>
            <Subject s={s} />
          </div>
        )}
      </Card>

      {s && (
        <Card size="small" title="故障">
          <Form layout="vertical" requiredMark>
            <Form.Item label="设备类型" required>
              <Select<number>
                value={draft.equipment_type_id}
                onChange={(v) => update({ equipment_type_id: v, fault_type_id: undefined })}
                options={(types.data?.list ?? []).map((e) => ({ value: e.id, label: e.name }))}
                loading={types.isLoading}
                showSearch={{ optionFilterProp: 'label' }}
                placeholder="请选择设备类型"
                aria-label="设备类型"
                size="large"
              />
            </Form.Item>
            <Form.Item label="故障类型">
              <Select<number>
                value={draft.fault_type_id}
                onChange={(v) => update({ fault_type_id: v ?? undefined })}
                options={(faults.data?.list ?? []).map((f) => ({
                  value: f.id,
                  label: `${f.name}（${FAULT_SEVERITIES[f.severity]}，${f.response_hours} 小时内）`,
                }))}
                loading={faults.isLoading}
                allowClear
                placeholder="请选择故障"
                aria-label="故障类型"
                size="large"
              />
            </Form.Item>
            <Form.Item label="故障描述" required>
              <Input.TextArea
                value={draft.description}
                onChange={(e) => update({ description: e.target.value })}
                autoSize={{ minRows: 2, maxRows: 4 }}
                maxLength={500}
                showCount
                placeholder="现场情况"
                aria-label="故障描述"
              />
            </Form.Item>
            <Form.Item label={`照片（${draft.photos.length}/${RECORD_PHOTO_LIMITS.count}）`}>
              <Flex wrap gap={8}>
                {draft.photos.map((p, i) => (
                  <div key={i} style={{ position: 'relative' }}>
                    <img
                      src={p}
                      alt={`照片 ${i + 1}`}
                      style={{ width: 88, height: 88, objectFit: 'cover', borderRadius: 6 }}
                    />
                    {!draft.created && (
                      <Button
                        size="small"
                        shape="circle"
                        icon={<CloseOutlined />}
                        aria-label={`删除照片 ${i + 1}`}
                        style={{ position: 'absolute', top: 2, right: 2 }}
                        onClick={() => update({ photos: draft.photos.filter((_, j) => j !== i) })}
                      />
                    )}
                  </div>
                ))}
                {draft.photos.length < RECORD_PHOTO_LIMITS.count && (
                  <Button
                    style={{ width: 88, height: 88 }}
                    icon={<CameraOutlined />}
                    onClick={() => fileInput.current?.click()}
                  >
                    拍照
                  </Button>
                )}
              </Flex>
              <input
                ref={fileInput}
                type="file"
                accept="image/*"
                capture="environment"
                multiple
                style={{ display: 'none' }}
                aria-label="选择照片"
                onChange={(e) => {
                  void addPhotos(e.target.files);
                  e.target.value = '';
                }}
              />
              {!photosKept && (
                <Typography.Text type="warning">照片太多，刷新页面后需重新拍摄（文字已保存）</Typography.Text>
              )}
            </Form.Item>
          </Form>
        </Card>
      )}

      {failure && (
        <Alert
          type="error"
          showIcon
          title="提交失败，内容已保存在本机"
          description={failure}
          action={
            <Button size="small" danger onClick={() => void submit()} loading={saving}>
              重试
            </Button>
          }
        />
      )}
      {s && (
        <Flex gap={8}>
          <Button
            block
            size="large"
            onClick={() => {
              clearDraft();
              setDraft({ ...EMPTY_DRAFT });
              setFailure(null);
            }}
            disabled={saving}
          >
            清空
          </Button>
          <Button
            block
            size="large"
            type="primary"
            disabled={!ready}
            loading={saving}
            onClick={() => void submit()}
          >
            {draft.created ? `继续提交 ${draft.created.no}` : '提交报修'}
          </Button>
        </Flex>
      )}
    </Flex>
  );
}
