import { TOILET_DETAIL_API, type DisplayData, type DisplayTokenRow, type NewDisplayToken } from '@se/core';
import { get, post } from './client.ts';

// Display tokens of a toilet (managed in the toilet detail) and the public screen call that
// /eternal-page polls with one.

export const listDisplayTokens = (toiletId: number) =>
  get<DisplayTokenRow[]>(TOILET_DETAIL_API.displayTokens, { toilet_id: toiletId });

/** The answer carries the token itself, this once. */
export const addDisplayToken = (toiletId: number, name: string) =>
  post<NewDisplayToken>(TOILET_DETAIL_API.addDisplayToken, { toilet_id: toiletId, name });

export const revokeDisplayToken = (id: number) =>
  post<DisplayTokenRow>(TOILET_DETAIL_API.revokeDisplayToken, { id });

/** Public: no session involved (a 403 means the token no longer works). */
export const getDisplay = (token: string) =>
  get<DisplayData>(TOILET_DETAIL_API.display, { token }, { redirectOnExpiry: false });
