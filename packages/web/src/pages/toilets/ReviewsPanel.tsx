import { COMMENT_LEVELS, type RecentComment } from '@se/core';
import { Empty, Flex, List, Rate, Statistic, Tag, Typography } from 'antd';
import { DeviceLink, ToiletReviewsLink } from '../../components/ObjectLinks.tsx';

const FLAGS: { key: 'badattitude' | 'inefficiency' | 'poorsanitary' | 'smelly'; label: string }[] = [
  { key: 'badattitude', label: '态度差' },
  { key: 'inefficiency', label: '效率低' },
  { key: 'poorsanitary', label: '卫生差' },
  { key: 'smelly', label: '有异味' },
];

/** 评价: the star average and the latest reviews (the full list and moderation are /comment). */
export function ReviewsPanel({
  toiletId,
  toiletName,
  comments,
  starAverage,
  starCount,
}: {
  toiletId: number;
  toiletName: string;
  comments: RecentComment[];
  starAverage: number | null;
  starCount: number;
}) {
  return (
    <Flex vertical gap={12}>
      <Flex gap={32} wrap align="center">
        <Statistic
          title="平均评分"
          value={starAverage ?? '暂无'}
          precision={starAverage === null ? undefined : 1}
        />
        <Statistic title="评价次数" value={starCount} />
        {starAverage !== null && <Rate disabled allowHalf value={Math.round(starAverage * 2) / 2} />}
      </Flex>
      <List<RecentComment>
        size="small"
        header={
          <Flex justify="space-between" align="center">
            <Typography.Text strong>最近评价</Typography.Text>
            <ToiletReviewsLink id={toiletId} name={toiletName}>
              全部评价
            </ToiletReviewsLink>
          </Flex>
        }
        dataSource={comments}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无评价" /> }}
        renderItem={(c) => (
          <List.Item key={c.id}>
            <Flex vertical gap={4} style={{ width: '100%' }}>
              <Flex gap={8} align="center" wrap>
                <Rate disabled value={c.star_level} style={{ fontSize: 14 }} />
                <Typography.Text>{COMMENT_LEVELS[c.star_level] ?? ''}</Typography.Text>
                {FLAGS.filter((f) => c[f.key]).map((f) => (
                  <Tag key={f.key} color="error" style={{ marginInlineEnd: 0 }}>
                    {f.label}
                  </Tag>
                ))}
                <Typography.Text type="secondary" style={{ marginInlineStart: 'auto', fontSize: 12 }}>
                  {c.created_at}
                  {c.equipment_ser_num ? (
                    <>
                      {' · 评价器 '}
                      <DeviceLink kind="evaluate" id={c.equipment_id} serNum={c.equipment_ser_num} />
                    </>
                  ) : c.source === 'terminal' ? (
                    ''
                  ) : (
                    ' · 扫码评价'
                  )}
                </Typography.Text>
              </Flex>
              {c.content && <Typography.Paragraph style={{ margin: 0 }}>{c.content}</Typography.Paragraph>}
            </Flex>
          </List.Item>
        )}
      />
    </Flex>
  );
}
