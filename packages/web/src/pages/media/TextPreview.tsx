import type { MediaTextBody } from '@se/core';
import { useEffect, useRef } from 'react';

/**
 * A notice as the screen shows it: its colours and font size on a 16:9 screen scaled down to
 * `width`, the body scrolling right to left at `scroll_speed` screen pixels per second (still
 * when 0). The screen is 1920 px wide; sizes are scaled by width / 1920.
 */
export function TextPreview({ body, width = 480 }: { body: MediaTextBody; width?: number }) {
  const scale = width / 1920;
  const track = useRef<HTMLDivElement>(null);
  const line = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = line.current;
    const box = track.current;
    if (!el || !box || !body.scroll_speed) return;
    const from = box.clientWidth;
    const to = -el.scrollWidth;
    const seconds = (from - to) / (body.scroll_speed * scale);
    const a = el.animate([{ transform: `translateX(${from}px)` }, { transform: `translateX(${to}px)` }], {
      duration: seconds * 1000,
      iterations: Infinity,
    });
    return () => a.cancel();
  }, [body.scroll_speed, body.body, body.font_size, scale]);
  const scrolls = body.scroll_speed > 0;
  return (
    <div
      data-testid="text-preview"
      style={{
        width,
        height: Math.round(width * (9 / 16)),
        background: body.background,
        color: body.color,
        overflow: 'hidden',
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'center',
        borderRadius: 4,
        padding: 16 * scale * 4,
        boxSizing: 'border-box',
      }}
    >
      {body.title && (
        <div
          style={{
            fontSize: body.font_size * scale * 1.25,
            fontWeight: 600,
            textAlign: 'center',
            marginBottom: 8,
          }}
        >
          {body.title}
        </div>
      )}
      <div ref={track} style={{ overflow: 'hidden', whiteSpace: scrolls ? 'nowrap' : 'pre-wrap' }}>
        <div
          ref={line}
          style={{
            fontSize: Math.max(8, body.font_size * scale),
            display: scrolls ? 'inline-block' : 'block',
            textAlign: scrolls ? undefined : 'center',
          }}
        >
          {body.body || '（正文）'}
        </div>
      </div>
    </div>
  );
}
