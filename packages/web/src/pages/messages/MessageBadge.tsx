import { MailOutlined } from '@ant-design/icons';
import { CODE } from '@se/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button } from 'antd';
import { useCallback, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { MESSAGES_KEY, UNREAD_KEY, getUnread } from '../../api/messages.ts';
import { useLiveChannel } from '../../live/socket.ts';

const MESSAGES_CHANNEL = { channel: 'messages' } as const;
const ALARMS_CHANNEL = { channel: 'alarms' } as const;
// An alarm's inbox messages are written just after the alarm is pushed: ask a moment later.
const AFTER_ALARM_MS = 1_500;

const hasUnread = (data: unknown): data is { unread: number } =>
  typeof data === 'object' && data !== null && typeof (data as { unread: unknown }).unread === 'number';

/** The header's inbox: the user's unread count (message_count), linking to /messages. */
export function MessageBadge() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const unread = useQuery({
    queryKey: UNREAD_KEY,
    // A badge fails quietly: the page it links to reports problems itself.
    queryFn: async () => {
      const r = await getUnread();
      if (r.code !== CODE.ok) throw new Error(r.message);
      return r.data;
    },
    staleTime: 30_000,
    refetchInterval: 5 * 60_000,
  });

  const onMessages = useCallback(
    (data: unknown) => {
      if (hasUnread(data)) queryClient.setQueryData(UNREAD_KEY, { unread: data.unread });
      void queryClient.invalidateQueries({ queryKey: [...MESSAGES_KEY, 'list'] });
    },
    [queryClient],
  );
  useLiveChannel(MESSAGES_CHANNEL, onMessages, {
    onSubscribed: ({ first }) => {
      if (!first) void queryClient.invalidateQueries({ queryKey: UNREAD_KEY });
    },
  });

  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const onAlarm = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(
      () => void queryClient.invalidateQueries({ queryKey: UNREAD_KEY }),
      AFTER_ALARM_MS,
    );
  }, [queryClient]);
  useLiveChannel(ALARMS_CHANNEL, onAlarm);

  const n = unread.data?.unread ?? 0;
  return (
    <Button
      type="text"
      aria-label={n > 0 ? `站内消息，${n} 条未读` : '站内消息'}
      title="站内消息"
      onClick={() => void navigate('/messages')}
    >
      <Badge count={n} size="small" overflowCount={99}>
        <MailOutlined style={{ fontSize: 18 }} />
      </Badge>
    </Button>
  );
}
