import type { MapPoint } from '@se/core';

// Web Mercator (EPSG:3857) in 256-pixel tiles: the scheme of every {z}/{x}/{y} tile server.
const TILE = 256;
const MAX_LAT = 85.05112878;

/** World pixel position of a lng/lat at zoom `z`. */
export function project(lng: number, lat: number, z: number): [number, number] {
  const size = TILE * 2 ** z;
  const phi = (Math.max(-MAX_LAT, Math.min(MAX_LAT, lat)) * Math.PI) / 180;
  const x = ((lng + 180) / 360) * size;
  const y = ((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * size;
  return [x, y];
}

export interface TileView {
  z: number;
  /** World pixel of the view's top-left corner. */
  left: number;
  top: number;
  width: number;
  height: number;
  tiles: { x: number; y: number; url: string; left: number; top: number }[];
}

/** The zoom and tiles that show every point in a box of width × height (China when there are none). */
export function tileView(
  points: readonly Pick<MapPoint, 'lng' | 'lat'>[],
  width: number,
  height: number,
  template: string,
): TileView {
  const pts = points.length
    ? points
    : [
        { lng: 73.5, lat: 18 },
        { lng: 135, lat: 53.5 },
      ];
  const pad = 40;
  let z = 3;
  for (let zoom = 16; zoom >= 3; zoom--) {
    const xy = pts.map((p) => project(p.lng, p.lat, zoom));
    const w = Math.max(...xy.map((p) => p[0])) - Math.min(...xy.map((p) => p[0]));
    const h = Math.max(...xy.map((p) => p[1])) - Math.min(...xy.map((p) => p[1]));
    if (w <= width - 2 * pad && h <= height - 2 * pad) {
      z = zoom;
      break;
    }
  }
  const xy = pts.map((p) => project(p.lng, p.lat, z));
  const cx = (Math.max(...xy.map((p) => p[0])) + Math.min(...xy.map((p) => p[0]))) / 2;
  const cy = (Math.max(...xy.map((p) => p[1])) + Math.min(...xy.map((p) => p[1]))) / 2;
  const left = cx - width / 2;
  const top = cy - height / 2;
  const n = 2 ** z;
  const tiles: TileView['tiles'] = [];
  for (let ty = Math.floor(top / TILE); ty * TILE < top + height; ty++) {
    if (ty < 0 || ty >= n) continue;
    for (let tx = Math.floor(left / TILE); tx * TILE < left + width; tx++) {
      const wx = ((tx % n) + n) % n;
      tiles.push({
        x: wx,
        y: ty,
        url: template.replace('{z}', String(z)).replace('{x}', String(wx)).replace('{y}', String(ty)),
        left: tx * TILE - left,
        top: ty * TILE - top,
      });
    }
  }
  return { z, left, top, width, height, tiles };
}
