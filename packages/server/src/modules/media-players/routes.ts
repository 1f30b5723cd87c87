import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  AREAS,
  MEDIA_PLAYER_API,
  addGroupBody,
  addPlaylistBody,
  groupListQuery,
  groupPage,
  groupRow,
  updateGroupBody,
  addScheduleBody,
  getDeviceQuery,
  liveData,
  mediaPlayerListQuery,
  mediaPlayerPage,
  mediaPlayerRow,
  playReportPage,
  playReportQuery,
  playerCommandBody,
  playlistListQuery,
  playlistPage,
  playlistRow,
  publishBody,
  scheduleListQuery,
  schedulePage,
  scheduleRow,
  signedContentQuery,
  signedLiveQuery,
  updatePlaylistBody,
  updateScheduleBody,
} from '@se/core';
import type { AppContext } from '../../context.ts';
import { areaRoutes } from '../../http/route.ts';
import { sendStored } from '../files/send.ts';
import * as media from './service.ts';
import { liveDataFor, storedFor } from './serving.ts';

/** Screens, playlists, schedules, publishing and proof of play (issue 17 part B). */
export function mediaPlayerRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = areaRoutes(app, ctx, { tag: 'media', access: AREAS.media.permission });

  r({
    method: 'GET',
    url: MEDIA_PLAYER_API.players,
    summary: '播放器列表（多媒体网关 43/40 与独立播放器），含下发与播放状态',
    query: mediaPlayerListQuery,
    response: mediaPlayerPage,
    handler: ({ caller, query }) => media.listScreens(ctx, caller, query),
  });
  r({
    method: 'GET',
    url: MEDIA_PLAYER_API.player,
    summary: '播放器详情（正在播放、音量、开关屏、分辨率、剩余存储）',
    query: getDeviceQuery,
    response: mediaPlayerRow,
    handler: ({ caller, query }) => media.getScreen(ctx, caller, query.id),
  });
  r({
    method: 'POST',
    url: MEDIA_PLAYER_API.command,
    summary: '播放器命令：重启、音量、开关屏、开关屏时间、立即同步（设备回复后完成）',
    body: playerCommandBody,
    response: z.object({ command_id: z.number() }),
    handler: ({ caller, body }) => media.command(ctx, caller, body),
  });

  r({
    method: 'GET',
    url: MEDIA_PLAYER_API.playlists,
    summary: '播放列表',
    query: playlistListQuery,
    response: playlistPage,
    handler: ({ caller, query }) => media.listPlaylists(ctx, caller, query),
  });
  r({
    method: 'GET',
    url: MEDIA_PLAYER_API.playlist,
    summary: '获取播放列表',
    query: getDeviceQuery,
    response: playlistRow,
    handler: ({ caller, query }) => media.getPlaylist(ctx, caller, query.id),
  });
  r({
    method: 'POST',
    url: MEDIA_PLAYER_API.addPlaylist,
    summary: '新增播放列表（仅已通过审核的内容）',
    body: addPlaylistBody,
    response: playlistRow,
    handler: ({ req, caller, body }) => media.addPlaylist(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: MEDIA_PLAYER_API.updatePlaylist,
    summary: '修改或删除播放列表（修改后重新下发给排期中的播放器）',
    body: updatePlaylistBody,
    response: playlistRow,
    handler: ({ req, caller, body }) => media.updatePlaylist(ctx, caller, body, req.ip),
  });

  r({
    method: 'GET',
    url: MEDIA_PLAYER_API.groups,
    summary: '播放器分组',
    query: groupListQuery,
    response: groupPage,
    handler: ({ caller, query }) => media.listGroups(ctx, caller, query),
  });
  r({
    method: 'POST',
    url: MEDIA_PLAYER_API.addGroup,
    summary: '新增播放器分组',
    body: addGroupBody,
    response: groupRow,
    handler: ({ req, caller, body }) => media.addGroup(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: MEDIA_PLAYER_API.updateGroup,
    summary: '修改或删除播放器分组（成员变化时重新下发给相关播放器）',
    body: updateGroupBody,
    response: groupRow,
    handler: ({ req, caller, body }) => media.updateGroup(ctx, caller, body, req.ip),
  });

  r({
    method: 'GET',
    url: MEDIA_PLAYER_API.schedules,
    summary: '排期列表',
    query: scheduleListQuery,
    response: schedulePage,
    handler: ({ caller, query }) => media.listSchedules(ctx, caller, query),
  });
  r({
    method: 'POST',
    url: MEDIA_PLAYER_API.addSchedule,
    summary: '新增排期（或紧急插播），立即下发给所选播放器',
    body: addScheduleBody,
    response: scheduleRow,
    handler: ({ req, caller, body }) => media.addSchedule(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: MEDIA_PLAYER_API.updateSchedule,
    summary: '修改或撤销排期（is_delete=true），立即重新下发',
    body: updateScheduleBody,
    response: scheduleRow,
    handler: ({ req, caller, body }) => media.updateSchedule(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: MEDIA_PLAYER_API.publish,
    summary: '发布：向播放器下发当前播放清单（不选则为自己排期中的全部播放器）',
    body: publishBody,
    response: z.object({ published: z.number() }),
    handler: ({ caller, body }) => media.publish(ctx, caller, body.player_ids),
  });
  r({
    method: 'GET',
    url: MEDIA_PLAYER_API.playReport,
    summary: '播放统计（按内容或按播放器：次数、总秒数）',
    query: playReportQuery,
    response: playReportPage,
    handler: ({ caller, query }) => media.playReport(ctx, caller, query),
  });

  // What a screen fetches with the links of its manifest: no session, the signature is the credential.
  r({
    method: 'GET',
    url: MEDIA_PLAYER_API.content,
    summary: '播放器下载内容（清单中为该播放器签名的链接；nosniff、sandbox、支持 Range）',
    access: 'public',
    query: signedContentQuery,
    raw: true,
    handler: async ({ req, reply, query }) => {
      const f = await storedFor(ctx, query);
      await sendStored(ctx, req, reply, f.key, {
        filename: f.filename,
        inline: false,
        cache: 'private, max-age=86400',
      });
      return null;
    },
  });
  r({
    method: 'GET',
    url: MEDIA_PLAYER_API.live,
    summary: '实时数据区：播放器所在厕所的空气质量、使用情况和星级（签名链接）',
    access: 'public',
    query: signedLiveQuery,
    response: liveData,
    handler: ({ query }) => liveDataFor(ctx, query),
  });
}
