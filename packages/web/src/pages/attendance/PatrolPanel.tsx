import { PATROL_LIMITS, type PatrolInfo } from '@se/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Flex, InputNumber, Skeleton, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { getPatrols, setPatrol } from '../../api/attendance.ts';
import { attempt, loadOrThrow } from '../../components/feedback.ts';

const key = (toiletId: number) => ['attendance', 'patrols', toiletId] as const;

/**
 * A toilet's cleaner patrols (issue 16): the required interval during opening hours, whether
 * one is overdue (a missed patrol also raises a 巡检超时 alarm), and the last patrols — punches
 * at the clock-in terminal placed in the toilet.
 */
export function PatrolPanel({ toiletId, canEdit }: { toiletId: number; canEdit: boolean }) {
  const qc = useQueryClient();
  const { data, isLoading, error } = useQuery({
    queryKey: key(toiletId),
    queryFn: () => loadOrThrow(() => getPatrols(toiletId)),
  });
  const [every, setEvery] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  if (isLoading) return <Skeleton active />;
  if (error || !data) return <Alert type="error" showIcon title="巡检信息加载失败" />;
  const value = every ?? data.every_min;
  const save = async () => {
    setBusy(true);
    const outcome = await attempt(
      () => setPatrol({ toilet_id: toiletId, every_min: value }),
      '巡检要求已保存',
    );
    setBusy(false);
    if (outcome.ok) {
      qc.setQueryData<PatrolInfo>(key(toiletId), outcome.data);
      setEvery(null);
    }
  };
  return (
    <Flex vertical gap={12}>
      <Card size="small" title="巡检要求">
        <Flex gap={8} align="center" wrap>
          <span>
            开放时间（{data.open_time}–{data.close_time}）内每
          </span>
          <InputNumber
            aria-label="巡检间隔（分钟）"
            min={0}
            max={PATROL_LIMITS.maxMinutes}
            value={value}
            onChange={(v) => setEvery(v ?? 0)}
            disabled={!canEdit}
            style={{ width: 100 }}
          />
          <span>分钟至少巡检一次（0 为不要求）</span>
          {canEdit && (
            <Button
              type="primary"
              loading={busy}
              disabled={value === data.every_min}
              onClick={() => void save()}
            >
              保存
            </Button>
          )}
        </Flex>
        <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
          保洁员在厕所内的考勤机打卡即为一次巡检；超时未巡检会产生“巡检超时”告警，按提醒规则通知。
        </Typography.Paragraph>
      </Card>
      <Card
        size="small"
        title="最近巡检"
        extra={
          data.every_min > 0 && (data.overdue ? <Tag color="red">已超时</Tag> : <Tag color="green">按时</Tag>)
        }
      >
        {data.recent.length === 0 ? (
          <Empty description="暂无巡检记录" />
        ) : (
          <Table
            size="small"
            rowKey="id"
            pagination={false}
            dataSource={data.recent}
            columns={[
              { title: '时间', dataIndex: 'punched_at', width: 170 },
              { title: '巡检人', dataIndex: 'employee_name' },
              { title: '考勤机', dataIndex: 'device_ser_num' },
            ]}
          />
        )}
      </Card>
    </Flex>
  );
}
