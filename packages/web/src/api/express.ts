import {
  EXPRESS_API,
  type ExpressItem,
  type ExpressRow,
  type Page,
  type addExpressBody,
  type expressQuery,
} from '@se/core';
import { get, post } from './client.ts';
import type { RequestOf } from './request.ts';

// 快递单 (/add-express-order). Items travel as JSON text in the form body.

export const listExpress = (q: RequestOf<typeof expressQuery>) => get<Page<ExpressRow>>(EXPRESS_API.list, q);

export type NewExpress = Omit<RequestOf<typeof addExpressBody>, 'items'> & { items: ExpressItem[] };
export const addExpress = (b: NewExpress) =>
  post<ExpressRow>(EXPRESS_API.add, { ...b, items: JSON.stringify(b.items) });

export const updateExpress = (b: { id: number; status?: number; is_delete?: true }) =>
  post<ExpressRow>(EXPRESS_API.update, b);
