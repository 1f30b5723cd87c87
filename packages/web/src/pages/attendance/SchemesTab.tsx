import { Empty } from 'antd';

/** 考勤规则: written by the schemes-and-records part of issue 16 (this stands in until it lands). */
export function SchemesTab() {
  return <Empty description="考勤规则即将上线" />;
}
