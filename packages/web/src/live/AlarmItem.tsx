import { addRecordPath, type AlarmRow } from '@se/core';
import { Link } from 'react-router';
import { Button, Flex, Typography, theme } from 'antd';
import { DeviceLink, ToiletLink } from '../components/ObjectLinks.tsx';
import { AlarmStatusTag, AlarmTypeTag, alarmDevice } from './AlarmTags.tsx';

/** One alarm as a small block: under the bell, and instead of table rows on a phone. */
export function AlarmItem({ alarm, onAck, acking }: { alarm: AlarmRow; onAck: () => void; acking: boolean }) {
  const { token } = theme.useToken();
  return (
    <Flex
      vertical
      gap={2}
      style={{ padding: '8px 0', borderBottom: `1px solid ${token.colorSplit}` }}
      data-testid="alarm-item"
    >
      <Flex align="center" gap={6}>
        <AlarmTypeTag type={alarm.type} />
        <Typography.Text strong ellipsis style={{ flex: 1, minWidth: 0 }} title={alarmDevice(alarm)}>
          <DeviceLink kind={alarm.kind} id={alarm.device_id} serNum={alarm.ser_num} />
          {alarm.desc && (
            <>
              （<ToiletLink id={alarm.toilet_id} name={alarm.desc} />）
            </>
          )}
        </Typography.Text>
        {alarm.status !== 'closed' && (
          <Link to={addRecordPath({ alarm_id: alarm.id })} style={{ fontSize: 12 }}>
            报修
          </Link>
        )}
        {alarm.status === 'open' ? (
          <Button size="small" type="primary" ghost loading={acking} onClick={onAck}>
            确认
          </Button>
        ) : (
          <AlarmStatusTag status={alarm.status} />
        )}
      </Flex>
      <Typography.Text>{alarm.message || '—'}</Typography.Text>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {alarm.opened_at}
        {alarm.acked_at && ` · ${alarm.acked_by_name || '—'} 已确认`}
        {alarm.closed_at && ` · ${alarm.closed_at} 恢复`}
      </Typography.Text>
    </Flex>
  );
}
