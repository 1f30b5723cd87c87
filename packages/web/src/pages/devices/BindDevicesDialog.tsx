import { DEVICE_KINDS, TOILET_API } from '@se/core';
import { useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Flex, Modal, Tabs, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { bindDevices, listBindable, type BindPaths, type BindRow } from '../../api/devices.ts';
import {
  check,
  text,
  useListQuery,
  type FilterFields,
  type ListColumn,
} from '../../components/list/index.ts';
import { toast } from '../../components/toast.ts';
import { useIsMobile } from '../../layout/viewport.ts';
import { bindingDiff, changeCount, type Picks } from './binding-diff.ts';
import { PickList } from './PickList.tsx';
import { SerNum } from './DeviceBits.tsx';
import { attempt } from '../../components/feedback.ts';

interface BindTab {
  key: string;
  label: string;
  paths: BindPaths;
  /** Toilets list a name and an address where devices list a serial, description and place. */
  toilet?: boolean;
}

export const BIND_TABS: readonly BindTab[] = [
  { key: 'toilet', label: '厕所', paths: TOILET_API, toilet: true },
  { key: 'jwb', label: '除臭机', paths: DEVICE_KINDS.jwb },
  { key: 'evaluate', label: '评价器', paths: DEVICE_KINDS.evaluate },
  { key: 'gateway', label: '网关', paths: DEVICE_KINDS.gateway },
  { key: 'paper_machine', label: '纸巾机', paths: DEVICE_KINDS.paper_machine },
  { key: 'electric_meter', label: '电表', paths: DEVICE_KINDS.electric_meter },
  { key: 'water_meter', label: '水表', paths: DEVICE_KINDS.water_meter },
];

type AllPicks = Record<string, Picks>;
const NO_PICKS: Picks = new Map();

/**
 * The /users page's 绑定设备 dialog: the caller's toilets and devices by kind, ticked where
 * bound to the user. One 保存 sends, per kind that changed, its additions and removals in
 * one call (SPEC §4); each call is all or nothing on the server.
 */
export function BindDevicesDialog({
  userId,
  userName,
  open,
  onClose,
}: {
  userId: number;
  userName: string;
  open: boolean;
  onClose: () => void;
}) {
  const mobile = useIsMobile();
  return (
    <Modal
      open={open}
      title={`绑定设备 - ${userName}`}
      width={mobile ? '95%' : 860}
      footer={null}
      mask={{ closable: false }}
      onCancel={onClose}
      destroyOnHidden
    >
      {/* Keyed by user: another user's dialog starts with nothing ticked. */}
      {open && <BindBody key={userId} userId={userId} onClose={onClose} />}
    </Modal>
  );
}

function BindBody({ userId, onClose }: { userId: number; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [tab, setTab] = useState(BIND_TABS[0]!.key);
  const [picks, setPicks] = useState<AllPicks>({});
  const [saving, setSaving] = useState(false);
  const total = Object.values(picks).reduce((n, p) => n + changeCount(p), 0);

  const save = async () => {
    setSaving(true);
    const left: AllPicks = { ...picks };
    let failed = false;
    // One call per kind; a refused kind keeps its ticks so nothing is lost, the rest are done.
    for (const t of BIND_TABS) {
      const p = picks[t.key];
      if (!p || changeCount(p) === 0) continue;
      const { add_ids, remove_ids } = bindingDiff(p);
      const outcome = await attempt(() => bindDevices(t.paths, userId, add_ids, remove_ids));
      if (outcome.ok) delete left[t.key];
      else {
        failed = true;
        setTab(t.key);
        break;
      }
    }
    setPicks(left);
    setSaving(false);
    void queryClient.invalidateQueries({ queryKey: ['bind'] });
    // The lists show whom each device is bound to.
    void queryClient.invalidateQueries({ queryKey: ['devices'] });
    void queryClient.invalidateQueries({ queryKey: ['toilets'] });
    if (!failed) {
      toast.success('绑定已保存');
      onClose();
    }
  };

  return (
    <>
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={BIND_TABS.map((t) => {
          const n = changeCount(picks[t.key] ?? NO_PICKS);
          return {
            key: t.key,
            label: (
              <Badge count={n} size="small" offset={[8, -2]}>
                <span>{t.label}</span>
              </Badge>
            ),
            children: (
              <BindList
                tab={t}
                userId={userId}
                picks={picks[t.key] ?? NO_PICKS}
                onPicks={(next) => setPicks((all) => ({ ...all, [t.key]: next }))}
              />
            ),
          };
        })}
      />
      <Flex justify="space-between" align="center" gap={8} wrap style={{ marginTop: 12 }}>
        <Typography.Text type="secondary">
          {total > 0 ? `已修改 ${total} 项，保存后生效` : '勾选即绑定，取消勾选即解绑'}
        </Typography.Text>
        <Flex gap={8}>
          <Button onClick={onClose}>取 消</Button>
          <Button type="primary" disabled={total === 0} loading={saving} onClick={() => void save()}>
            保存
          </Button>
        </Flex>
      </Flex>
    </>
  );
}

/** The search of one tab: the name or serial, and whether only the bound rows show. */
const bindFilters = (tab: BindTab): FilterFields<{ keywords: string; only_bound: boolean }> => ({
  keywords: text({
    placeholder: tab.toilet ? '名称 / 地址' : '序列号 / 描述 / 位置',
    label: `搜索${tab.label}`,
    width: 220,
    search: true,
  }),
  only_bound: check({ label: '只看已绑定', instant: true }),
});

const orDash = (v: string) => v || '—';

function BindList({
  tab,
  userId,
  picks,
  onPicks,
}: {
  tab: BindTab;
  userId: number;
  picks: Picks;
  onPicks: (picks: Picks) => void;
}) {
  const filters = useMemo(() => bindFilters(tab), [tab]);
  const list = useListQuery({
    key: ['bind', tab.key, userId],
    filters,
    local: true,
    load: (f, paging) =>
      listBindable(tab.paths, {
        target_user_id: userId,
        keywords: f.keywords || undefined,
        only_bound: f.only_bound || undefined,
        ...paging,
      }),
  });

  const columns: ListColumn<BindRow>[] = tab.toilet
    ? [
        { title: '名称', dataIndex: 'desc', ellipsis: true },
        { title: '地址', dataIndex: 'location', ellipsis: true, render: orDash },
      ]
    : [
        { title: '序列号', dataIndex: 'ser_num', width: 220, render: (v: string) => <SerNum value={v} /> },
        { title: '描述', dataIndex: 'desc', ellipsis: true, render: orDash },
        { title: '位置', dataIndex: 'location', ellipsis: true, render: orDash },
      ];

  return (
    <PickList
      list={list}
      columns={columns}
      height={360}
      empty={`暂无可绑定的${tab.label}`}
      cardTitle={(r) => (tab.toilet ? r.desc : r.ser_num)}
      bound={(r) => r.is_bind}
      picks={picks}
      onPicks={onPicks}
      rowClick
    />
  );
}
