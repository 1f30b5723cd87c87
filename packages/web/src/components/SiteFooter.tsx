import type { CSSProperties } from 'react';
import { APP_NAME } from '../navigation/names.ts';
import { useSiteInfo } from './use-site-info.ts';

// 0.65, not antd's 0.45: the footer's small text keeps a 4.5:1 contrast on the pages' light grounds.
const muted: CSSProperties = { color: 'rgba(0, 0, 0, 0.65)' };

/** SPEC §2: the site footer shows the filing record code, linked to its URL when set. */
export function SiteFooter({ style }: { style?: CSSProperties }) {
  const { site } = useSiteInfo();
  const code = site?.record_code;
  const version = site?.version ? ` V${site.version.replace(/^v/i, '')}` : '';
  return (
    <footer style={{ padding: 16, textAlign: 'center', fontSize: 12, lineHeight: 1.8, ...muted, ...style }}>
      <span>
        {site?.name || APP_NAME}
        {version}
      </span>
      {code && (
        <>
          <span> · </span>
          {site.record_url ? (
            <a href={site.record_url} target="_blank" rel="noopener noreferrer" style={muted}>
              {code}
            </a>
          ) : (
            <span>{code}</span>
          )}
        </>
      )}
    </footer>
  );
}
