import {
  HomeFilled,
  HomeOutlined,
  IdcardOutlined,
  KeyOutlined,
  LogoutOutlined,
  MenuFoldOutlined,
  MenuOutlined,
  MenuUnfoldOutlined,
  SafetyCertificateOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { UI_TIMING } from '@se/core';
import { Avatar, Button, Dropdown, Layout, Tooltip, Typography, theme } from 'antd';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { toast } from '../components/toast.ts';
import { AlarmBell } from '../live/AlarmBell.tsx';
import { MessageBadge } from '../pages/messages/MessageBadge.tsx';
import { readHomePath, storeHomePath } from '../session/storage.ts';
import { useSession } from '../session/store.ts';

/** SPEC §4 设为首页: the page shown now becomes the one the console opens after signing in. */
function HomeButton() {
  const { pathname, search } = useLocation();
  const here = pathname + search;
  const [home, setHome] = useState(readHomePath);
  const isHome = home === here;
  return (
    <Tooltip title={isHome ? '当前页面是登录后的首页' : '设为首页：登录后打开此页面'}>
      <Button
        type="text"
        icon={isHome ? <HomeFilled /> : <HomeOutlined />}
        aria-label={isHome ? '当前页面是首页' : '设为首页'}
        aria-pressed={isHome}
        onClick={() => {
          storeHomePath(here);
          setHome(here);
          toast.success('已设为首页，登录后将打开此页面');
        }}
      />
    </Tooltip>
  );
}

interface Props {
  title: string | undefined;
  mobile: boolean;
  collapsed: boolean;
  onToggleMenu: () => void;
  onProfile: () => void;
  /** 登录令牌 (od_token); absent: no menu item. */
  onToken?: () => void;
  onPassword: () => void;
  onLogout: () => void;
}

export function HeaderBar({
  title,
  mobile,
  collapsed,
  onToggleMenu,
  onProfile,
  onToken,
  onPassword,
  onLogout,
}: Props) {
  const userName = useSession((s) => s.userName);
  const { token } = theme.useToken();
  const toggleIcon = mobile ? <MenuOutlined /> : collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />;

  return (
    <Layout.Header
      style={{
        position: 'sticky',
        top: 0,
        zIndex: 10,
        display: 'flex',
        alignItems: 'center',
        gap: 8,
        padding: mobile ? '0 8px' : '0 16px',
        background: token.colorBgContainer,
        boxShadow: '0 1px 4px rgba(0, 21, 41, 0.08)',
      }}
    >
      <Button
        type="text"
        icon={toggleIcon}
        onClick={onToggleMenu}
        aria-label={mobile ? '打开菜单' : collapsed ? '展开菜单' : '收起菜单'}
      />
      {/* The page's one level-one heading (screen readers jump to it), at the header's size. */}
      <Typography.Title
        level={1}
        style={{
          margin: 0,
          flex: 1,
          minWidth: 0,
          fontSize: token.fontSizeHeading5,
          lineHeight: token.lineHeightHeading5,
        }}
        ellipsis
      >
        {title}
      </Typography.Title>
      <HomeButton />
      <MessageBadge />
      <AlarmBell />
      <Dropdown
        trigger={['click']}
        placement="bottomRight"
        mouseEnterDelay={UI_TIMING.dropdownShowMs / 1000}
        mouseLeaveDelay={UI_TIMING.dropdownHideMs / 1000}
        menu={{
          items: [
            { key: 'profile', icon: <IdcardOutlined />, label: '修改信息' },
            { key: 'password', icon: <KeyOutlined />, label: '修改密码' },
            ...(onToken ? [{ key: 'token', icon: <SafetyCertificateOutlined />, label: '登录令牌' }] : []),
            { type: 'divider' },
            { key: 'logout', icon: <LogoutOutlined />, label: '退出登录' },
          ],
          onClick: ({ key }) => {
            if (key === 'profile') onProfile();
            else if (key === 'password') onPassword();
            else if (key === 'token') onToken?.();
            else onLogout();
          },
        }}
      >
        <Button type="text" style={{ paddingInline: 8 }} aria-label={`当前用户：${userName}`}>
          <Avatar size="small" icon={<UserOutlined />} style={{ background: token.colorPrimary }} />
          {!mobile && (
            <span style={{ maxWidth: 160, overflow: 'hidden', textOverflow: 'ellipsis' }}>{userName}</span>
          )}
        </Button>
      </Dropdown>
    </Layout.Header>
  );
}
