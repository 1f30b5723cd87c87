import { CODE, type AlarmCount, type AlarmRow, type Page } from '@se/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ackAlarm, getAlarmCount, listAlarms, type AlarmFilter } from '../api/live.ts';
import { attempt, loadOrThrow } from '../components/feedback.ts';
import { useListQuery, type FilterFields, type ListQuery } from '../components/list/index.ts';
import { alarmTracker } from './alarm-count.ts';

// Queries of the alarm centre and the device drawer's 告警记录, under one key prefix so
// a push or an acknowledgement refreshes whichever of them is on screen.

export const ALARMS_KEY = ['alarms'] as const;
export const ALARM_COUNT_KEY = ['alarms', 'count'] as const;
export const ALARM_LISTS_KEY = ['alarms', 'list'] as const;

/** The bell's numbers. A failure leaves the badge empty rather than toasting on every page. */
export function useAlarmCount(enabled: boolean) {
  return useQuery({
    queryKey: ALARM_COUNT_KEY,
    enabled,
    queryFn: async (): Promise<AlarmCount> => {
      const res = await getAlarmCount();
      if (res.code !== CODE.ok) throw new Error(res.message);
      return res.data;
    },
  });
}

/** A page of alarms; `scope` keeps the bell's, the centre's and a device's lists apart. */
export function useAlarmList(scope: string, filter: AlarmFilter) {
  const query = useQuery({
    queryKey: [...ALARM_LISTS_KEY, scope, filter],
    queryFn: () => loadOrThrow(() => listAlarms(filter)),
    placeholderData: keepPreviousData,
  });
  useRemembered(query.data?.list);
  return query;
}

/** Alarms shown are remembered, so their pushes change nothing twice. */
function useRemembered(list: AlarmRow[] | undefined) {
  useEffect(() => {
    if (list) alarmTracker.remember(list);
  }, [list]);
}

export type AlarmPages<F> = ListQuery<F, Page<AlarmRow>>;

/**
 * A paged alarm list on the list kit (the alarm centre's, a device's 告警记录): its paging and
 * `filters` kept in the component (both live in drawers), `query` turning them into the
 * request; `scope` as for `useAlarmList`.
 */
export function useAlarmPages<F>(
  scope: string,
  filters: FilterFields<F>,
  query: (f: F) => Omit<AlarmFilter, 'page' | 'page_size'>,
): AlarmPages<F> {
  const list = useListQuery({
    key: [...ALARM_LISTS_KEY, scope],
    filters,
    local: true,
    load: (f, paging) => listAlarms({ ...query(f), ...paging }),
  });
  useRemembered(list.query.data?.list);
  return list;
}

/** 确认: acknowledges an alarm and refreshes the lists and the count. */
export function useAckAlarm() {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<number | null>(null);
  const ack = async (alarm: Pick<AlarmRow, 'id'>) => {
    setPending(alarm.id);
    const outcome = await attempt(() => ackAlarm(alarm.id), '告警已确认');
    setPending(null);
    if (outcome.ok) {
      // Its push, arriving before or after, then changes nothing twice.
      alarmTracker.remember([outcome.data]);
      void queryClient.invalidateQueries({ queryKey: ALARMS_KEY });
    }
  };
  return { ack, pending };
}
