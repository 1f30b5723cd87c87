import { Empty } from 'antd';

/** 考勤记录: written by the schemes-and-records part of issue 16 (this stands in until it lands). */
export function RecordsTab() {
  return <Empty description="考勤记录即将上线" />;
}
