import { MESSAGE_API, type MessageRow, type Page, type UnreadCount, type messagesQuery } from '@se/core';
import { get, post } from './client.ts';
import type { RequestOf } from './request.ts';

// 站内消息: the signed-in user's own inbox.

export type MessageFilter = RequestOf<typeof messagesQuery>;

export const listMessages = (f: MessageFilter) => get<Page<MessageRow>>(MESSAGE_API.list, { ...f });
export const getUnread = () => get<UnreadCount>(MESSAGE_API.unread);
export const markRead = (ids: number[]) => post<UnreadCount>(MESSAGE_API.read, { ids: ids.join(',') });
export const readAll = () => post<UnreadCount>(MESSAGE_API.readAll);
export const removeMessages = (ids: number[]) =>
  post<UnreadCount>(MESSAGE_API.remove, { ids: ids.join(',') });

/** The header badge's query; every change of the inbox updates or refetches it. */
export const UNREAD_KEY = ['messages', 'unread'] as const;
export const MESSAGES_KEY = ['messages'] as const;
