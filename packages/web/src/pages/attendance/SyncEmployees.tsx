import { SyncOutlined } from '@ant-design/icons';
import { Button, Card, Popconfirm, Typography } from 'antd';
import { useState } from 'react';
import { syncTerminal } from '../../api/attendance.ts';
import { attempt } from '../../components/feedback.ts';

/** 同步员工: sends the organisation's 在职 employees down to a terminal as a command. */
export function SyncEmployees({ terminalId, onSent }: { terminalId: number; onSent: () => void }) {
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    const outcome = await attempt(() => syncTerminal(terminalId));
    setBusy(false);
    if (outcome.ok) {
      onSent();
    }
  };
  return (
    <Card size="small" title="员工同步">
      <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
        把本组织的在职员工（工号、姓名、卡号、人脸ID）下发到考勤机；考勤机回复后指令记录显示“已完成”。
      </Typography.Paragraph>
      <Popconfirm
        title="同步员工到考勤机？"
        description="考勤机上的员工名单将被本组织当前的在职员工替换。"
        okText="同步"
        cancelText="取 消"
        onConfirm={() => run()}
      >
        <Button type="primary" icon={<SyncOutlined />} loading={busy}>
          同步员工
        </Button>
      </Popconfirm>
    </Card>
  );
}
