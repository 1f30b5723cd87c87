import { Card, Col, Empty, Flex, Progress, Row, Tag, Tooltip, Typography, theme } from 'antd';
import { describeLatest, type LatestItem, type OccupancyItem } from './latest-values.ts';

function Reading({ item }: { item: LatestItem }) {
  const { token } = theme.useToken();
  // Alarm and flag fields say it all in their tag.
  const tagOnly = item.tag && item.tag.text === item.text;
  const body = (
    <Flex
      vertical
      gap={4}
      style={{
        padding: '10px 12px',
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadius,
        minHeight: 76,
      }}
      data-testid={`latest-${item.key}`}
    >
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {item.label}
      </Typography.Text>
      <Flex align="baseline" gap={6} wrap>
        {!tagOnly && (
          <Typography.Text strong style={{ fontSize: 20, lineHeight: 1.2, wordBreak: 'break-all' }}>
            {item.text}
          </Typography.Text>
        )}
        {!tagOnly && item.unit && <Typography.Text type="secondary">{item.unit}</Typography.Text>}
        {item.tag && (
          <Tag color={item.tag.color} style={{ marginInlineEnd: 0 }}>
            {item.tag.text}
          </Tag>
        )}
      </Flex>
    </Flex>
  );
  return item.hint ? <Tooltip title={item.hint}>{body}</Tooltip> : body;
}

function Occupancy({ groups }: { groups: OccupancyItem[] }) {
  const { token } = theme.useToken();
  return (
    <Flex vertical gap={8}>
      {groups.map((g) => (
        <Flex key={g.key} align="center" gap={12} wrap data-testid={`occupancy-${g.key}`}>
          <Typography.Text style={{ width: 64 }}>{g.label}</Typography.Text>
          <Typography.Text strong style={{ width: 72 }}>
            {g.occupy ?? '—'} / {g.count ?? '—'}
          </Typography.Text>
          <Progress
            percent={g.percent ?? 0}
            size="small"
            style={{ flex: 1, minWidth: 120, margin: 0 }}
            // Full is worth noticing, not an error: orange rather than red, never the 'done' tick.
            status="normal"
            strokeColor={g.percent !== null && g.percent >= 100 ? token.colorWarning : undefined}
            format={() => (g.percent === null ? '—' : `${g.percent}%`)}
          />
          {g.times !== null && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              使用 {g.times} 次
            </Typography.Text>
          )}
        </Flex>
      ))}
    </Flex>
  );
}

/** The latest value of every field a device reported, gases with their 优/良/差 band. */
export function LatestValues({ kind, latest }: { kind: string; latest: Record<string, unknown> }) {
  const { items, occupancy } = describeLatest(kind, latest);
  if (items.length === 0 && occupancy.length === 0) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据，设备尚未上报" />;
  }
  return (
    <Flex vertical gap={12}>
      {items.length > 0 && (
        <Row gutter={[8, 8]}>
          {items.map((item) => (
            <Col key={item.key} xs={12} sm={8} md={6}>
              <Reading item={item} />
            </Col>
          ))}
        </Row>
      )}
      {occupancy.length > 0 && (
        <Card size="small" title="厕位占用" styles={{ body: { paddingBlock: 12 } }}>
          <Occupancy groups={occupancy} />
        </Card>
      )}
    </Flex>
  );
}
