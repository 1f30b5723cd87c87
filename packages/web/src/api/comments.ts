import {
  COMMENT_API,
  type CommentFlag,
  type CommentRow,
  type CommentSource,
  type CommentStats,
  type Page,
  type PageQuery,
  type ToiletCard,
} from '@se/core';
import { get, post } from './client.ts';

// Reviews: the public page /add-comment and the operators' /comment.

/** `publicId`: the toilet's public id from the QR code (internal ids are refused). */
export const getToiletCard = (publicId: string) =>
  get<ToiletCard>(COMMENT_API.toiletCard, { toilet_id: publicId });

export interface NewComment {
  /** The toilet's public id. */
  toilet_id: string;
  star_level: number;
  badattitude: boolean;
  inefficiency: boolean;
  poorsanitary: boolean;
  smelly: boolean;
  content: string;
  sex?: number;
  visitor_id: string;
}

export const addComment = (body: NewComment) =>
  post<{ id: number; star_level: number; toilet: ToiletCard }>(COMMENT_API.add, { ...body });

/** The operators' filter; the export takes the same one. */
export interface CommentQuery {
  toilet_id?: number;
  equipment_id?: number;
  star_levels?: number[];
  flags?: CommentFlag[];
  source?: CommentSource;
  /** 'YYYY-MM-DD HH:mm:ss' (UTC+8) */
  start?: string;
  end?: string;
  keywords?: string;
  show_hidden?: boolean;
  sort?: 'time' | 'star_asc' | 'star_desc';
}

// Lists travel as `1,2`: one query key, whatever the client's array encoding.
const encode = (q: CommentQuery) => ({
  ...q,
  star_levels: q.star_levels?.length ? q.star_levels.join(',') : undefined,
  flags: q.flags?.length ? q.flags.join(',') : undefined,
});

export const listComments = (q: CommentQuery & Partial<PageQuery>) =>
  get<Page<CommentRow>>(COMMENT_API.list, encode(q));

export const commentStats = (q: CommentQuery) => get<CommentStats>(COMMENT_API.stats, encode(q));

/** Hide (true) or restore (false) one review. */
export const setCommentHidden = (id: number, hidden: boolean) =>
  post<CommentRow>(COMMENT_API.update, { id, is_delete: hidden });
