import {
  ALARM_STATUS_LABELS,
  ALARM_TYPE_LABELS,
  type AlarmStatus,
  type AlarmType,
  COMMENT_FLAGS,
  COMMENT_LEVELS,
  type CommentFeedRow,
  formatShortDateTime,
} from '@se/core';
import { DeviceLink, ToiletLink } from '../../components/ObjectLinks.tsx';
import { Empty, Panel, type WidgetProps } from './widgets.tsx';

// The data centres' live lists: the latest alarms and reviews.

const STATUS_COLOR: Record<AlarmStatus, string> = { open: '#ff4d4f', acked: '#faad14', closed: '#52c41a' };

export function AlarmFeed({ ov, className }: WidgetProps) {
  return (
    <Panel title="报警动态" extra={`未处理 ${ov.totals.alarms_open}`} className={className}>
      {ov.alarms.length === 0 ? (
        <Empty text="暂无报警" />
      ) : (
        <ul className="dc-feed" aria-label="报警列表">
          {ov.alarms.map((a) => (
            <li key={a.id}>
              <span className="dc-feed-time">{formatShortDateTime(a.opened_at)}</span>
              <span
                style={{ color: STATUS_COLOR[a.status as AlarmStatus] ?? undefined, whiteSpace: 'nowrap' }}
              >
                {ALARM_TYPE_LABELS[a.type as AlarmType] ?? a.type}
              </span>
              <span className="dc-feed-main" title={`${a.desc || a.ser_num} ${a.message}`}>
                <DeviceLink kind={a.kind} id={a.device_id} serNum={a.ser_num}>
                  {a.desc || a.ser_num}
                </DeviceLink>{' '}
                {a.message}
              </span>
              <span className="dc-feed-time">{ALARM_STATUS_LABELS[a.status as AlarmStatus] ?? a.status}</span>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

const flagText = (c: CommentFeedRow) =>
  (Object.keys(COMMENT_FLAGS) as (keyof typeof COMMENT_FLAGS)[])
    .filter((f) => c[f])
    .map((f) => COMMENT_FLAGS[f])
    .join('、');

export function CommentFeed({ ov, className }: WidgetProps) {
  return (
    <Panel title="最新评价" extra={`今日 ${ov.totals.comments_today} 条`} className={className}>
      {ov.comments.length === 0 ? (
        <Empty text="暂无评价" />
      ) : (
        <ul className="dc-feed" aria-label="评价列表">
          {ov.comments.map((c) => {
            const flags = flagText(c);
            const text = [c.content, flags].filter(Boolean).join(' · ');
            return (
              <li key={c.id}>
                <span className="dc-feed-time">{formatShortDateTime(c.created_at)}</span>
                <span style={{ color: '#fadb14', whiteSpace: 'nowrap' }} title={COMMENT_LEVELS[c.star_level]}>
                  {'★'.repeat(c.star_level)}
                </span>
                <span className="dc-feed-main" title={`${c.toilet_name} ${text}`}>
                  <ToiletLink id={c.toilet_id} name={c.toilet_name} /> {text}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </Panel>
  );
}
