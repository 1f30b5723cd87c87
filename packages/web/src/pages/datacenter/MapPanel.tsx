import type { DatacenterMap } from '@se/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSiteInfo } from '../../components/use-site-info.ts';
import { Chart, loadChinaMap } from './Chart.tsx';
import { chinaMapOption, tilePointsOption } from './map-options.ts';
import { tileView } from './tiles.ts';

/** Toilets on the bundled China map, or on tiles when the server names a tile URL. */
export function MapPanel({ map }: { map: DatacenterMap | null }) {
  const { site, loading } = useSiteInfo();
  if (loading) return null;
  const tiles = site?.map_tile_url;
  return (
    <div className="dc-map">
      {tiles ? <TileMap map={map} template={tiles} /> : <ChinaMap map={map} />}
      {map?.truncated && <div className="dc-chart-note">仅显示前 {map.points.length} 座厕所</div>}
    </div>
  );
}

function ChinaMap({ map }: { map: DatacenterMap | null }) {
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  useEffect(() => {
    let live = true;
    loadChinaMap().then(
      () => live && setState('ready'),
      () => live && setState('failed'),
    );
    return () => {
      live = false;
    };
  }, []);
  const option = useMemo(
    () => (state === 'ready' && map ? chinaMapOption(map.points, map.provinces) : null),
    [map, state],
  );
  if (state === 'failed') return <div className="dc-chart-note">地图加载失败，请刷新页面</div>;
  return <Chart option={option} label="厕所分布地图" />;
}

function TileMap({ map, template }: { map: DatacenterMap | null; template: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<{ w: number; h: number } | null>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(() => {
      const w = Math.round(el.clientWidth);
      const h = Math.round(el.clientHeight);
      setSize((s) => (s && s.w === w && s.h === h ? s : { w, h }));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const points = useMemo(() => map?.points ?? [], [map]);
  // The view moves only when the set of positions or the box changes, not on every push.
  const positions = points.map((p) => `${p.lng},${p.lat}`).join(';');
  const view = useMemo(
    () => (size && size.w > 0 && size.h > 0 ? tileView(points, size.w, size.h, template) : null),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [positions, size, template],
  );
  const option = useMemo(() => (view ? tilePointsOption(points, view) : null), [points, view]);
  return (
    <div ref={box} className="dc-tiles">
      {view?.tiles.map((t) => (
        <img
          key={`${view.z}/${t.x}/${t.y}/${t.left}`}
          src={t.url}
          alt=""
          draggable={false}
          style={{ position: 'absolute', left: t.left, top: t.top, width: 256, height: 256 }}
        />
      ))}
      <Chart option={option} label="厕所分布地图" style={{ position: 'absolute', inset: 0 }} />
    </div>
  );
}
