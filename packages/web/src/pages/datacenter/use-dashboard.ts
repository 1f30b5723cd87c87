import type { AlarmRow, CommentFeedRow, DatacenterMap, DatacenterOverview, DevicePush } from '@se/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { loadOrThrow } from '../../components/feedback.ts';
import { useLiveChannel } from '../../live/socket.ts';
import { getMap, getOverview, type DashboardArea } from './api.ts';
import { applyAlarm, applyComment, applyDevicePushes, applyMapPushes } from './live-state.ts';

/** Aggregates are fetched again this often; pushes keep them current in between. */
export const REFRESH_MS = 60_000;
/** Pushes are applied in batches: one render (and one chart update) per batch at most. */
export const APPLY_MS = 1000;
/** More pushes than this between two batches: drop them and fetch the state instead. */
export const MAX_QUEUE = 5000;
/** A gateway the snapshot does not know started reporting: fetch again, at most this often. */
export const NEW_GATEWAY_REFETCH_MS = 10_000;

/** Whether a push is from a gateway the snapshot has no occupancy or air row for. */
export function unknownGateway(ov: DatacenterOverview, p: DevicePush): boolean {
  if (p.kind !== 'gateway') return false;
  const shows = Object.keys(p.data).some(
    (k) => /_(count|occupy)$/.test(k) || /^(nh3|h2s|voc|pm25|co2)$/.test(k),
  );
  if (!shows) return false;
  return (
    !ov.occupancy.list.some((r) => r.gateway_id === p.id) && !ov.air.list.some((r) => r.gateway_id === p.id)
  );
}

type Pending =
  { t: 'device'; d: DevicePush } | { t: 'alarm'; d: AlarmRow } | { t: 'comment'; d: CommentFeedRow };

const GATEWAYS = { channel: 'devices', kind: 'gateway' } as const;
const DISPENSERS = { channel: 'devices', kind: 'jwb' } as const;
const ALARMS = { channel: 'alarms' } as const;
const COMMENTS = { channel: 'comments' } as const;

interface Live<T> {
  /** The fetched answer the value started from. */
  base?: T;
  value?: T;
}

/**
 * A dashboard's data: the overview and map, fetched now and every REFRESH_MS, with the
 * live pushes (gateways, dispensers, alarms, comments) applied in between. Holds nothing
 * that grows: the queue is emptied every APPLY_MS and capped, the lists keep their bounds.
 */
export function useDashboard(area: DashboardArea) {
  const client = useQueryClient();
  // Set by a refetch that something newer than the answers asked for (a push, 刷新): the
  // server's shared answer from before then will not do. The timed refreshes take any.
  const since = useRef<{ overview?: number; map?: number }>({});
  const take = (which: 'overview' | 'map') => {
    const t = since.current[which];
    since.current[which] = undefined;
    return t;
  };
  const overviewQuery = useQuery({
    queryKey: ['datacenter', area, 'overview'],
    queryFn: () => loadOrThrow(() => getOverview(area, take('overview'))),
    refetchInterval: REFRESH_MS,
    refetchIntervalInBackground: true,
    retry: 1,
  });
  const mapQuery = useQuery({
    queryKey: ['datacenter', area, 'map'],
    queryFn: () => loadOrThrow(() => getMap(area, take('map'))),
    refetchInterval: REFRESH_MS * 5,
    refetchIntervalInBackground: true,
    retry: 1,
  });

  const [overview, setOverview] = useState<Live<DatacenterOverview>>({});
  const [map, setMap] = useState<Live<DatacenterMap>>({});
  // A new answer replaces what the pushes built (it already holds them).
  if (overviewQuery.data && overview.base !== overviewQuery.data)
    setOverview({ base: overviewQuery.data, value: overviewQuery.data });
  if (mapQuery.data && map.base !== mapQuery.data) setMap({ base: mapQuery.data, value: mapQuery.data });

  const queue = useRef<Pending[]>([]);
  const current = useRef<DatacenterOverview | undefined>(undefined);
  const lastNewGatewayFetch = useRef(0);
  useEffect(() => {
    current.current = overview.value;
  });
  const overflowed = useRef(false);
  const refetch = useCallback(() => {
    const now = Date.now();
    since.current = { overview: now, map: now };
    void client.invalidateQueries({ queryKey: ['datacenter', area] });
  }, [client, area]);

  const enqueue = useCallback((p: Pending) => {
    if (queue.current.length >= MAX_QUEUE) {
      overflowed.current = true;
      return;
    }
    queue.current.push(p);
  }, []);

  useEffect(() => {
    const timer = setInterval(() => {
      if (overflowed.current) {
        overflowed.current = false;
        queue.current = [];
        refetch();
        return;
      }
      if (queue.current.length === 0) return;
      const batch = queue.current;
      queue.current = [];
      const devices = batch.flatMap((p) => (p.t === 'device' ? [p.d] : []));
      // A toilet whose gateway starts reporting joins the lists with the next fetch.
      const ov = current.current;
      if (
        ov &&
        Date.now() - lastNewGatewayFetch.current > NEW_GATEWAY_REFETCH_MS &&
        devices.some((d) => unknownGateway(ov, d))
      ) {
        lastNewGatewayFetch.current = Date.now();
        refetch();
      }
      setOverview((s) => {
        if (!s.value) return s;
        let v = applyDevicePushes(s.value, devices);
        for (const p of batch) {
          if (p.t === 'alarm') v = applyAlarm(v, p.d);
          else if (p.t === 'comment') v = applyComment(v, p.d);
        }
        return v === s.value ? s : { ...s, value: v };
      });
      if (devices.length) {
        setMap((s) => {
          if (!s.value) return s;
          const v = applyMapPushes(s.value, devices);
          return v === s.value ? s : { ...s, value: v };
        });
      }
    }, APPLY_MS);
    return () => {
      clearInterval(timer);
      queue.current = [];
    };
  }, [refetch]);

  // After a reconnect pushes may have been missed: fetch the state again.
  const options = { onSubscribed: ({ first }: { first: boolean }) => !first && refetch() };
  useLiveChannel(GATEWAYS, (d) => enqueue({ t: 'device', d: d as DevicePush }), options);
  useLiveChannel(DISPENSERS, (d) => enqueue({ t: 'device', d: d as DevicePush }), options);
  useLiveChannel(ALARMS, (d) => enqueue({ t: 'alarm', d: d as AlarmRow }), options);
  useLiveChannel(COMMENTS, (d) => enqueue({ t: 'comment', d: d as CommentFeedRow }), options);

  return {
    overview: overview.value ?? null,
    map: map.value ?? null,
    loading: overviewQuery.isPending,
    failed: overviewQuery.isError && !overview.value,
    mapFailed: mapQuery.isError && !map.value,
    refetch,
  };
}
