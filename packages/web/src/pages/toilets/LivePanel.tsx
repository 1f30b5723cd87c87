import {
  AIR_LEVELS,
  type AirLevel,
  airOf,
  formatAirScore,
  formatOccupancy,
  type Gas,
  GAS_THRESHOLDS,
  type LiveDevice,
  occupancyOf,
  type ToiletDetail,
} from '@se/core';
import {
  Card,
  Col,
  Empty,
  Flex,
  Progress,
  Row,
  Statistic,
  Table,
  Tag,
  Tooltip,
  Typography,
  theme,
} from 'antd';
import { DeviceLink } from '../../components/ObjectLinks.tsx';
import { FIELD_META, LEVEL_COLORS, numberText } from '../../live/latest-values.ts';
import { OnlineSince } from '../devices/DeviceBits.tsx';
import { useNow } from '../devices/use-now.ts';
import { occupancyPercent } from './detail-text.ts';

const GROUP_LABEL = { male: '男厕位', female: '女厕位', others: '其他厕位' } as const;

function Occupancy({ detail }: { detail: ToiletDetail }) {
  const { token } = theme.useToken();
  const groups = occupancyOf(detail.gateway?.latest ?? {}, detail.document);
  if (!groups.length) {
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={detail.gateway ? '网关尚未上报厕位数据，也未登记厕位数' : '未关联网关，也未登记厕位数'}
      />
    );
  }
  return (
    <Flex vertical gap={10}>
      {groups.map((g) => {
        const percent = occupancyPercent(g.occupy, g.count);
        return (
          <Flex key={g.key} align="center" gap={12} wrap data-testid={`toilet-occupancy-${g.key}`}>
            <Typography.Text style={{ width: 64 }}>{GROUP_LABEL[g.key]}</Typography.Text>
            <Typography.Text strong style={{ width: 80 }}>
              {formatOccupancy(g.occupy, g.count)}
            </Typography.Text>
            <Progress
              percent={percent ?? 0}
              size="small"
              status="normal"
              strokeColor={percent !== null && percent >= 100 ? token.colorWarning : undefined}
              format={() => (g.occupy === null ? '未上报' : `${g.count - g.occupy} 空闲`)}
              style={{ flex: 1, minWidth: 140, margin: 0 }}
            />
            {g.times !== null && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                上次上报以来 {g.times} 人次
              </Typography.Text>
            )}
          </Flex>
        );
      })}
    </Flex>
  );
}

function Air({ detail }: { detail: ToiletDetail }) {
  const air = airOf([
    ...(detail.gateway ? [detail.gateway.latest] : []),
    ...detail.sensors.filter((s) => s.online).map((s) => s.latest),
  ]);
  if (!air) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无空气质量数据" />;
  const level = air.level as AirLevel;
  return (
    <Row gutter={[12, 12]} align="middle">
      <Col xs={24} sm={8}>
        <Statistic
          title="空气质量评分"
          value={formatAirScore(air.score)}
          suffix={<Tag color={LEVEL_COLORS[level]}>{AIR_LEVELS[level]}</Tag>}
        />
      </Col>
      <Col xs={24} sm={16}>
        <Flex wrap gap={8}>
          {air.gases.map((g) => {
            const t = GAS_THRESHOLDS[g.gas as Gas];
            const meta = FIELD_META[g.gas];
            return (
              <Tooltip key={g.gas} title={`低于 ${t.low} 为优，${t.low}–${t.high} 为良，高于 ${t.high} 为差`}>
                <Flex
                  vertical
                  data-testid={`toilet-gas-${g.gas}`}
                  style={{
                    padding: '6px 10px',
                    border: '1px solid rgba(5,5,5,0.06)',
                    borderRadius: 6,
                    minWidth: 110,
                  }}
                >
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {meta?.label ?? g.gas}
                  </Typography.Text>
                  <Flex align="baseline" gap={4}>
                    <Typography.Text strong>{numberText(g.value)}</Typography.Text>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {meta?.unit}
                    </Typography.Text>
                    <Tag color={LEVEL_COLORS[g.level as AirLevel]} style={{ marginInlineEnd: 0 }}>
                      {AIR_LEVELS[g.level as AirLevel]}
                    </Tag>
                  </Flex>
                </Flex>
              </Tooltip>
            );
          })}
        </Flex>
      </Col>
    </Row>
  );
}

function Equipment({ detail }: { detail: ToiletDetail }) {
  const now = useNow();
  const rows = [...(detail.gateway ? [detail.gateway] : []), ...detail.sensors];
  if (!rows.length)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="未关联网关（在“编辑”中选择网关）" />;
  return (
    <Table<LiveDevice>
      rowKey="id"
      size="small"
      pagination={false}
      dataSource={rows}
      scroll={{ x: 520 }}
      columns={[
        {
          title: '类型',
          dataIndex: 'kind',
          width: 80,
          render: (k: string) => (k === 'gateway' ? '网关' : '传感器'),
        },
        {
          title: '序列号',
          dataIndex: 'ser_num',
          width: 150,
          ellipsis: true,
          // A sensor shows in its gateway's drawer (传感器); the gateway opens its own.
          render: (sn: string, d) => <DeviceLink kind={d.kind} id={d.id} serNum={sn} />,
        },
        { title: '描述', key: 'desc', ellipsis: true, render: (_, d) => d.desc || d.location || '—' },
        {
          title: '在线',
          key: 'online',
          width: 170,
          render: (_, d) => <OnlineSince online={d.online} time={d.time} now={now} />,
        },
      ]}
    />
  );
}

/** 实时: occupancy per cubicle group, air quality and the gateway with its sensors, kept live. */
export function LivePanel({ detail }: { detail: ToiletDetail }) {
  return (
    <Flex vertical gap={12}>
      <Card size="small" title="厕位占用">
        <Occupancy detail={detail} />
      </Card>
      <Card size="small" title="空气质量">
        <Air detail={detail} />
      </Card>
      <Card size="small" title="网关与传感器">
        <Equipment detail={detail} />
      </Card>
    </Flex>
  );
}
