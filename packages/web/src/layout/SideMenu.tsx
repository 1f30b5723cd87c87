import {
  ApartmentOutlined,
  AppstoreOutlined,
  BankOutlined,
  BarChartOutlined,
  BellOutlined,
  ClusterOutlined,
  CodeOutlined,
  CommentOutlined,
  DashboardOutlined,
  ExperimentOutlined,
  FileTextOutlined,
  PlaySquareOutlined,
  SettingOutlined,
  TeamOutlined,
  ToolOutlined,
  WifiOutlined,
} from '@ant-design/icons';
import { UI_TIMING, type AreaName } from '@se/core';
import { Menu, type MenuProps } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { AppRoute } from '../routes.tsx';
import { useSession } from '../session/store.ts';
import { menuGroups } from './menu.ts';

const AREA_ICONS: Record<AreaName, ReactNode> = {
  smartToilet: <BankOutlined />,
  jwb: <ExperimentOutlined />,
  evaluate: <CommentOutlined />,
  gateway: <WifiOutlined />,
  meter: <DashboardOutlined />,
  paper: <FileTextOutlined />,
  dataCenter: <BarChartOutlined />,
  campus: <ApartmentOutlined />,
  industry: <ClusterOutlined />,
  attendance: <TeamOutlined />,
  media: <PlaySquareOutlined />,
  maintenance: <ToolOutlined />,
  notify: <BellOutlined />,
  users: <SettingOutlined />,
  system: <AppstoreOutlined />,
  develop: <CodeOutlined />,
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
  const [openKeys, setOpenKeys] = useState<string[]>(current?.area ? [current.area] : []);
  // Entering a route of a closed group (a link, back navigation) opens that group.
  const [shownArea, setShownArea] = useState(current?.area);
  if (current?.area !== shownArea) {
    setShownArea(current?.area);
    if (current?.area && !openKeys.includes(current.area)) setOpenKeys([...openKeys, current.area]);
  }

  const items = useMemo<Item[]>(() => {
    const link = (route: AppRoute) => (
      <Link to={route.path} onClick={onNavigate}>
        {route.title}
      </Link>
    );
    return groups.map(({ area, label, routes }): Item => {
      // A group of one is a plain entry: a submenu holding a single link is one click too many.
      if (routes.length === 1)
        return { key: routes[0]!.path, icon: AREA_ICONS[area], label: link(routes[0]!) };
      return {
        key: area,
        icon: AREA_ICONS[area],
        label,
        children: routes.map((route) => ({ key: route.path, label: link(route) })),
      };
    });
  }, [groups, onNavigate]);

  return (
    <Menu
      mode="inline"
      theme="dark"
      items={items}
      selectedKeys={current ? [current.path] : []}
      // antd manages open submenus itself while collapsed (as popups).
      {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
      style={{ borderInlineEnd: 'none' }}
      // SPEC §9: submenus open and close after 300 ms.
      subMenuOpenDelay={UI_TIMING.submenuMs / 1000}
      subMenuCloseDelay={UI_TIMING.submenuMs / 1000}
    />
  );
}
