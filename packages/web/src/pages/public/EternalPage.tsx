import { Button, Card, Descriptions, Skeleton, Typography } from 'antd';
import { Link } from 'react-router';
import { SiteFooter } from '../../components/SiteFooter.tsx';
import { useSiteInfo } from '../../components/use-site-info.ts';
import { APP_NAME } from '../../routes.tsx';

/** A page that is always reachable, signed in or not: which system and version this is. */
export default function EternalPage() {
  const { site, loading } = useSiteInfo();
  return (
    <div style={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', alignItems: 'center' }}>
      <Card style={{ width: '100%', maxWidth: 480, marginTop: '12vh' }}>
        <div style={{ textAlign: 'center', marginBottom: 16 }}>
          <img src="/favicon.svg" alt="" width={56} height={56} />
          <Typography.Title level={3} style={{ marginBottom: 0 }}>
            {site?.name || APP_NAME}
          </Typography.Title>
        </div>
        {loading ? (
          <Skeleton active paragraph={{ rows: 2 }} title={false} />
        ) : (
          <Descriptions
            column={1}
            bordered
            size="small"
            items={[
              { key: 'version', label: '版本', children: site?.version || '未知' },
              { key: 'record', label: '备案号', children: site?.record_code || '—' },
            ]}
          />
        )}
        <div style={{ textAlign: 'center', marginTop: 24 }}>
          <Link to="/">
            <Button type="primary">进入系统</Button>
          </Link>
        </div>
      </Card>
      <SiteFooter style={{ marginTop: 'auto' }} />
    </div>
  );
}
