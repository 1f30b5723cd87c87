import type { FastifyInstance } from 'fastify';
import { MESSAGE_API, messageIdsBody, messageRow, messagesQuery, pageOf, unreadCount } from '@se/core';
import type { AppContext } from '../../context.ts';
import { areaRoutes } from '../../http/route.ts';
import * as messages from './service.ts';

/** The caller's own inbox: every signed-in user has one, whatever their permission bits. */
export function messageRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = areaRoutes(app, ctx, { tag: 'messages', access: 0 });
  r({
    method: 'GET',
    url: MESSAGE_API.list,
    summary: '站内消息列表（已读/未读、类型、时间、关键字）',
    query: messagesQuery,
    response: pageOf(messageRow),
    handler: ({ caller, query }) => messages.list(ctx, caller, query),
  });
  r({
    method: 'GET',
    url: MESSAGE_API.unread,
    summary: '未读消息数（即用户的 message_count）',
    response: unreadCount,
    handler: ({ caller }) => messages.unread(ctx, caller),
  });
  r({
    method: 'POST',
    url: MESSAGE_API.read,
    summary: '标记消息已读',
    body: messageIdsBody,
    response: unreadCount,
    handler: ({ caller, body }) => messages.markRead(ctx, caller, body.ids),
  });
  r({
    method: 'POST',
    url: MESSAGE_API.readAll,
    summary: '全部标记已读',
    response: unreadCount,
    handler: ({ caller }) => messages.readAll(ctx, caller),
  });
  r({
    method: 'POST',
    url: MESSAGE_API.remove,
    summary: '删除消息',
    body: messageIdsBody,
    response: unreadCount,
    handler: ({ caller, body }) => messages.remove(ctx, caller, body.ids),
  });
}
