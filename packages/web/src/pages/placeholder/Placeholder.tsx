import { Card, Empty, Typography } from 'antd';
import { usePageRoute } from '../../navigation/page-route.ts';

/** Stands in for every screen whose area arrives in a later issue: one component, not one per route. */
export default function Placeholder() {
  const route = usePageRoute();
  return (
    // Public pages have no console frame around them to give the card its margins.
    <Card
      variant="borderless"
      style={route.access === 'public' ? { maxWidth: 720, margin: '12vh auto 0' } : undefined}
    >
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={
          <>
            <Typography.Title level={4} style={{ marginTop: 8 }}>
              {route.title}
            </Typography.Title>
            <Typography.Text type="secondary">该功能开发中</Typography.Text>
          </>
        }
      />
    </Card>
  );
}
