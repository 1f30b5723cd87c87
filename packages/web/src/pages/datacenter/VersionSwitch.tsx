import { Segmented } from 'antd';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { DC_VERSIONS, storeDcVersion } from '../../session/storage.ts';

/**
 * The smart-toilet data centre's version switch (SPEC §2: one product in three versions):
 * navigates between them and remembers the one shown, so the menu entry opens it next time.
 */
export function VersionSwitch({ current }: { current: (typeof DC_VERSIONS)[number]['path'] }) {
  const navigate = useNavigate();
  useEffect(() => storeDcVersion(current), [current]);
  return (
    <Segmented
      size="small"
      className="dc-version"
      aria-label="数据中心版本"
      value={current}
      options={DC_VERSIONS.map((v) => ({ value: v.path, label: v.label }))}
      onChange={(path) => {
        storeDcVersion(path);
        void navigate(path);
      }}
    />
  );
}
