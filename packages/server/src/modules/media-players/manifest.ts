import { MEDIA_PLAYER_API, MEDIA_STATUS, PLAYLIST_LIMITS, SCREEN_GATEWAY_TYPES } from '@se/core';
import type { AppContext } from '../../context.ts';
import * as repo from './repo.ts';
import { signer } from './signing.ts';

/** One item as a screen gets it (docs/protocol.md, "Manifests"). */
export interface ManifestItem {
  id: number;
  kind: string;
  name: string;
  /** Seconds on screen: a video's own length, else the playlist's. */
  duration_s: number;
  /** A link signed for this screen (path on the console), or the item's own URL source. */
  url: string | null;
  /** SHA-256 (hex) of the file at `url`; '' for URL sources the console never saw. */
  sha256: string;
  size: number;
  mime: string;
  /** A text notice's content (title, body, font size, colours, scroll speed). */
  text: unknown;
}

export interface Manifest {
  published_at: number;
  schedules: Omit<repo.ManifestSchedule, 'player_ids'>[];
  playlists: {
    id: number;
    name: string;
    layout: string;
    transition: string;
    ticker: string;
    /** The live data zone's source (zones layout): air quality, occupancy, stars of the screen's toilet. */
    live: string | null;
    items: ManifestItem[];
  }[];
}

/**
 * Builds every named screen's manifest (its live schedules and their playlists, content
 * links signed for that screen) and queues it as a 'manifest' command, superseding what is
 * still waiting; screens listening get it now, the others when they subscribe again. A
 * fixed number of queries whatever the number of screens.
 */
export async function buildManifests(ctx: AppContext, deviceIds: number[], now = Date.now()) {
  const screens = await repo.screensByIds(ctx.db, deviceIds, SCREEN_GATEWAY_TYPES);
  const ids = screens.map((s) => s.id);
  if (!ids.length) return new Map<number, Manifest>();
  const schedules = await repo.schedulesOn(ctx.db, ids);
  const playlistIds = [...new Set(schedules.map((s) => s.playlist_id))];
  const [playlists, items] = playlistIds.length
    ? await Promise.all([
        repo.playlistsForManifest(ctx.db, playlistIds),
        repo.playlistItemsForManifest(ctx.db, playlistIds),
      ])
    : [[], []];
  const sign = await signer(ctx);
  const expires = Math.floor(now / 1000) + PLAYLIST_LIMITS.linkTtlSeconds;
  const live = items.filter((i) => i.status === MEDIA_STATUS.approved && !i.is_delete);

  const out = new Map<number, Manifest>();
  for (const device of ids) {
    const mine = schedules.filter((s) => s.player_ids.includes(device));
    const used = new Set(mine.map((s) => s.playlist_id));
    out.set(device, {
      published_at: now,
      schedules: mine.map(({ player_ids, ...s }) => (void player_ids, s)),
      playlists: playlists
        .filter((p) => used.has(p.id))
        .map((p) => ({
          ...p,
          live:
            p.layout === 'zones'
              ? `${MEDIA_PLAYER_API.live}?d=${device}&e=${expires}&s=${sign(0, device, expires)}`
              : null,
          items: live
            .filter((i) => i.playlist_id === p.id)
            .map((i) => ({
              id: i.id,
              kind: i.kind,
              name: i.name,
              duration_s:
                i.kind === 'video' && i.duration_ms ? Math.ceil(i.duration_ms / 1000) : i.duration_s,
              url: i.storage_key
                ? `${MEDIA_PLAYER_API.content}?i=${i.id}&d=${device}&e=${expires}&s=${sign(i.id, device, expires)}`
                : i.url,
              sha256: i.storage_key ? i.sha256 : '',
              size: i.storage_key ? i.size : 0,
              mime: i.mime,
              text: i.kind === 'text' ? i.text_body : null,
            })),
        })),
    });
  }
  return out;
}

/** Publishes: queues each screen's manifest (one statement for all) and sends it to those listening. */
export async function publishTo(ctx: AppContext, deviceIds: number[], createdBy: number | null) {
  if (!deviceIds.length) return [];
  const manifests = await buildManifests(ctx, deviceIds);
  if (!manifests.size) return [];
  const queued = await ctx.db.transaction((tx) =>
    repo.queueManifests(
      tx,
      [...manifests.keys()],
      [...manifests.values()],
      createdBy,
      PLAYLIST_LIMITS.manifestTtlMs,
    ),
  );
  for (const q of queued) void ctx.commands.deliver(q.device_id);
  return queued;
}
