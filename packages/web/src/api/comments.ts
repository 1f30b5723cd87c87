import {
  COMMENT_API,
  type CommentRow,
  type CommentStats,
  type Page,
  type PageQuery,
  type ToiletCard,
  type addCommentBody,
  type addCommentResult,
  type commentFilter,
} from '@se/core';
import type { z } from 'zod';
import { get, post } from './client.ts';
import type { RequestOf } from './request.ts';

// Reviews: the public page /add-comment and the operators' /comment.

/** `publicId`: the toilet's public id from the QR code (internal ids are refused). */
export const getToiletCard = (publicId: string) =>
  get<ToiletCard>(COMMENT_API.toiletCard, { toilet_id: publicId });

export type NewComment = RequestOf<typeof addCommentBody>;

export const addComment = (body: NewComment) =>
  post<z.infer<typeof addCommentResult>>(COMMENT_API.add, { ...body });

/** The operators' filter; the export takes the same one. */
export type CommentQuery = RequestOf<typeof commentFilter>;

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
