import { QueryClientProvider } from '@tanstack/react-query';
import { Drawer, Layout, Typography } from 'antd';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { useCallback, useEffect, useState } from 'react';
import { loadNotification } from '../components/toast.ts';
import { useNavigate } from 'react-router';
import { SiteFooter } from '../components/SiteFooter.tsx';
import { closeLiveSocket } from '../live/socket.ts';
import { useCurrentRoute } from '../navigation/Root.tsx';
import { APP_NAME, LOGIN_PATH } from '../navigation/names.ts';
import { queryClient } from '../query.ts';
import { signOut } from '../session/actions.ts';
import { HeaderBar } from './HeaderBar.tsx';
import { KeepAliveOutlet } from './KeepAliveOutlet.tsx';
import { PasswordDialog } from './PasswordDialog.tsx';
import { useProfileDialog } from './ProfileDialog.tsx';
import { useTokenDialog } from './TokenDialog.tsx';
import { SideMenu } from './SideMenu.tsx';
import { useBreakpoint } from './viewport.ts';

// Dates appear only in the console, so dayjs's Chinese locale is set up with the shell
// rather than in the entry every visitor downloads.
dayjs.locale('zh-cn');

const SIDER_WIDTH = 216;

function Brand({ compact }: { compact: boolean }) {
  return (
    <div
      style={{
        height: 64,
        display: 'flex',
        alignItems: 'center',
        justifyContent: compact ? 'center' : 'flex-start',
        gap: 10,
        padding: compact ? 0 : '0 20px',
        overflow: 'hidden',
        whiteSpace: 'nowrap',
      }}
    >
      <img src="/favicon.svg" alt="" width={28} height={28} />
      {!compact && (
        <Typography.Text strong style={{ color: '#fff', fontSize: 16 }}>
          {APP_NAME}
        </Typography.Text>
      )}
    </div>
  );
}

/** The console shell (SPEC §2 root view): menu, header, the route outlet and the profile dialog. */
export default function AppLayout() {
  const current = useCurrentRoute();
  const breakpoint = useBreakpoint();
  const mobile = breakpoint === 'xs';
  // sm screens start with the icon-only menu so the content keeps its width.
  const [collapsed, setCollapsed] = useState(breakpoint === 'sm');
  const [drawerOpen, setDrawerOpen] = useState(false);
  const profile = useProfileDialog();
  const tokenDialog = useTokenDialog();
  const navigate = useNavigate();

  const closeDrawer = useCallback(() => setDrawerOpen(false), []);

  // The live socket belongs to the console: leaving it (to /login, after an expiry) closes it.
  useEffect(() => closeLiveSocket, []);
  // Toasts load apart from the first screen. The console fetches them once it is idle, so a
  // toast still shows if the network has gone by then; the sign-in pages load them on demand
  // (their JS budget, e2e/shell.e2e.ts).
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 1000));
    idle(() => void loadNotification().catch(() => {}));
  }, []);

  const [passwordOpen, setPasswordOpen] = useState(false);

  /** `revoked`: the server ended the session and the page forgot it (a changed password). */
  const logout = async (revoked = false) => {
    // Closed first: a reconnect must not try the token being revoked.
    closeLiveSocket();
    if (!revoked) await signOut();
    // Cached answers belong to the previous user.
    queryClient.clear();
    await navigate(LOGIN_PATH, { replace: true });
  };

  return (
    <QueryClientProvider client={queryClient}>
      <Layout style={{ minHeight: '100vh' }}>
        {mobile ? (
          <Drawer
            placement="left"
            open={drawerOpen}
            onClose={closeDrawer}
            size={SIDER_WIDTH + 24}
            closable={false}
            styles={{ body: { padding: 0, background: '#001529' } }}
          >
            <Brand compact={false} />
            <SideMenu current={current} onNavigate={closeDrawer} />
          </Drawer>
        ) : (
          <Layout.Sider
            width={SIDER_WIDTH}
            collapsed={collapsed}
            collapsible
            trigger={null}
            style={{ position: 'sticky', top: 0, height: '100vh', overflow: 'auto' }}
          >
            <Brand compact={collapsed} />
            <SideMenu current={current} collapsed={collapsed} />
          </Layout.Sider>
        )}
        <Layout>
          <HeaderBar
            title={current?.title}
            mobile={mobile}
            collapsed={collapsed}
            onToggleMenu={() => (mobile ? setDrawerOpen(true) : setCollapsed(!collapsed))}
            onProfile={profile.open}
            onToken={tokenDialog.open}
            onPassword={() => setPasswordOpen(true)}
            onLogout={() => void logout()}
          />
          <Layout.Content style={{ padding: mobile ? 8 : 16 }}>
            <KeepAliveOutlet current={current} />
          </Layout.Content>
          <SiteFooter />
        </Layout>
        {profile.element}
        {tokenDialog.element}
        <PasswordDialog
          open={passwordOpen}
          onCancel={() => setPasswordOpen(false)}
          onChanged={() => {
            setPasswordOpen(false);
            void logout(true);
          }}
        />
      </Layout>
    </QueryClientProvider>
  );
}
