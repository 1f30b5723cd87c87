import {
  MEDIA_API,
  MEDIA_PLAYER_API,
  MEDIA_STATUS,
  type MediaItemRow,
  type MediaPlayerRow,
  type Page,
  type PageQuery,
  type GroupRow,
  type PlayReportRow,
  type PlaylistRow,
  type ScheduleRow,
  type addGroupBody,
  type addPlaylistBody,
  type addScheduleBody,
  type mediaPlayerListQuery,
  type playReportQuery,
  type playerCommandBody,
  type updateGroupBody,
  type updatePlaylistBody,
  type updateScheduleBody,
} from '@se/core';
import { get, post } from './client.ts';
import type { RequestOf } from './request.ts';

// Streaming media part B: screens, playlists, schedules, proof of play (/advisement-players).

export type ScreenQuery = Omit<RequestOf<typeof mediaPlayerListQuery>, 'page' | 'page_size'>;
export const listScreens = (q: ScreenQuery & Partial<PageQuery>) =>
  get<Page<MediaPlayerRow>>(MEDIA_PLAYER_API.players, { ...q });
export const getScreen = (id: number) => get<MediaPlayerRow>(MEDIA_PLAYER_API.player, { id });
export const playerCommand = (body: RequestOf<typeof playerCommandBody>) =>
  post<{ command_id: number }>(MEDIA_PLAYER_API.command, { ...body });

export const listPlaylists = (q: { keywords?: string } & Partial<PageQuery>) =>
  get<Page<PlaylistRow>>(MEDIA_PLAYER_API.playlists, q);
// Items travel as JSON (an ordered list of objects).
export const addPlaylist = (body: RequestOf<typeof addPlaylistBody>) =>
  post<PlaylistRow>(MEDIA_PLAYER_API.addPlaylist, { ...body }, { json: true });
export const updatePlaylist = (body: RequestOf<typeof updatePlaylistBody>) =>
  post<PlaylistRow>(MEDIA_PLAYER_API.updatePlaylist, { ...body }, { json: true });

export const listGroups = (q: { keywords?: string } & Partial<PageQuery>) =>
  get<Page<GroupRow>>(MEDIA_PLAYER_API.groups, q);
export const addGroup = (body: RequestOf<typeof addGroupBody>) =>
  post<GroupRow>(MEDIA_PLAYER_API.addGroup, { ...body }, { json: true });
export const updateGroup = (body: RequestOf<typeof updateGroupBody>) =>
  post<GroupRow>(MEDIA_PLAYER_API.updateGroup, { ...body }, { json: true });

export const listSchedules = (q: { keywords?: string; emergency?: boolean } & Partial<PageQuery>) =>
  get<Page<ScheduleRow>>(MEDIA_PLAYER_API.schedules, q);
export const addSchedule = (body: RequestOf<typeof addScheduleBody>) =>
  post<ScheduleRow>(MEDIA_PLAYER_API.addSchedule, { ...body }, { json: true });
export const updateSchedule = (body: RequestOf<typeof updateScheduleBody>) =>
  post<ScheduleRow>(MEDIA_PLAYER_API.updateSchedule, { ...body }, { json: true });
export const publish = (player_ids: number[] = []) =>
  post<{ published: number }>(MEDIA_PLAYER_API.publish, { player_ids: player_ids.join(',') });

export type PlayReportQuery = Omit<RequestOf<typeof playReportQuery>, 'page' | 'page_size'>;
export const playReport = (q: PlayReportQuery & Partial<PageQuery>) =>
  get<Page<PlayReportRow>>(MEDIA_PLAYER_API.playReport, { ...q });

/** The caller's approved content of every kind (what a playlist may hold). */
export async function approvedItems(): Promise<MediaItemRow[]> {
  const q = { status: MEDIA_STATUS.approved, page_size: 100 };
  const pages = await Promise.all(
    [MEDIA_API.pictures, MEDIA_API.videos, MEDIA_API.texts].map((url) => get<Page<MediaItemRow>>(url, q)),
  );
  return pages.flatMap((p) => (p.code === 200 ? p.data.list : []));
}
