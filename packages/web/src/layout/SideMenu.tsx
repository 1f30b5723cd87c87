import {
  ApartmentOutlined,
  BankOutlined,
  BellOutlined,
  ClusterOutlined,
  PlaySquareOutlined,
  SettingOutlined,
  TeamOutlined,
  ToolOutlined,
  WifiOutlined,
} from '@ant-design/icons';
import { UI_TIMING } from '@se/core';
import { Menu, Tooltip, type MenuProps } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { AppRoute } from '../routes.tsx';
import { useSession } from '../session/store.ts';
import {
  dataCenterPath,
  DATA_CENTER_PATHS,
  entryKeyOf,
  menuGroups,
  sectionKeyOf,
  type MenuEntry,
} from './menu.ts';

const SECTION_ICONS: Record<string, ReactNode> = {
  toilets: <BankOutlined />,
  devices: <WifiOutlined />,
  campus: <ApartmentOutlined />,
  industry: <ClusterOutlined />,
  attendance: <TeamOutlined />,
  media: <PlaySquareOutlined />,
  maintenance: <ToolOutlined />,
  notify: <BellOutlined />,
  system: <SettingOutlined />,
};

type Item = Required<MenuProps>['items'][number];

interface Props {
  current: AppRoute | undefined;
  collapsed?: boolean;
  onNavigate?: () => void;
}

export function SideMenu({ current, collapsed = false, onNavigate }: Props) {
  const isLogin = useSession((s) => s.isLogin);
  const permission = useSession((s) => s.permission);
  const groups = useMemo(() => menuGroups(isLogin ? permission : null), [isLogin, permission]);
  const section = sectionKeyOf(current?.path);
  const [openKeys, setOpenKeys] = useState<string[]>(section ? [section] : []);
  // Entering a route of a closed group (a link, back navigation) opens that group.
  const [shownSection, setShownSection] = useState(section);
  if (section !== shownSection) {
    setShownSection(section);
    if (section && !openKeys.includes(section)) setOpenKeys([...openKeys, section]);
  }

  // The data-centre entry opens the version used last (read again on every navigation).
  const dataCenter = dataCenterPath();
  const items = useMemo<Item[]>(() => {
    const targetOf = (e: MenuEntry) => (e.paths === DATA_CENTER_PATHS ? dataCenter : e.paths[0]!);
    // The tooltip says what the screen is for (SPEC §9: it opens without delay).
    const link = (e: MenuEntry) => (
      <Tooltip title={e.hint} placement="right" mouseEnterDelay={0}>
        <Link to={targetOf(e)} onClick={onNavigate}>
          {e.title}
        </Link>
      </Tooltip>
    );
    return groups.map(({ key, label, entries }): Item => {
      // A group of one is a plain entry: a submenu holding a single link is one click too many.
      if (entries.length === 1)
        return { key: entries[0]!.key, icon: SECTION_ICONS[key], label: link(entries[0]!) };
      return {
        key,
        icon: SECTION_ICONS[key],
        label,
        children: entries.map((e) => ({ key: e.key, label: link(e) })),
      };
    });
  }, [groups, onNavigate, dataCenter]);

  const selected = entryKeyOf(current?.path);
  return (
    <Menu
      mode="inline"
      theme="dark"
      items={items}
      selectedKeys={selected ? [selected] : []}
      // antd manages open submenus itself while collapsed (as popups).
      {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
      style={{ borderInlineEnd: 'none' }}
      // SPEC §9: submenus open and close after 300 ms.
      subMenuOpenDelay={UI_TIMING.submenuMs / 1000}
      subMenuCloseDelay={UI_TIMING.submenuMs / 1000}
    />
  );
}
