import {
  TOILET_API,
  TOILET_DETAIL_API,
  type Page,
  type PageQuery,
  type PlaceableRow,
  type StatusLogRow,
  type ToiletDetail,
  type ToiletDocument,
  type ToiletPart,
  type ToiletRow,
  type addPartBody,
  type addToiletBody,
  type placeableQuery,
  type setStatusBody,
  type toiletListQuery,
  type updateDocumentBody,
  type updatePartBody,
  type updateToiletBody,
} from '@se/core';
import { get, post } from './client.ts';
import type { RequestOf } from './request.ts';

// Smart toilets (SPEC §3 "Toilet"); their binding pair is TOILET_API.bindList/bind, used
// through api/devices.ts's listBindable/bindDevices like every device kind's.

export type ToiletFilter = RequestOf<typeof toiletListQuery>;

export const listToilets = (filter: ToiletFilter) => get<Page<ToiletRow>>(TOILET_API.list, { ...filter });

export const getToilet = (id: number) => get<ToiletRow>(TOILET_API.get, { id });

/** The AMap-style place fields a toilet is registered with. */
export type ToiletFields = Omit<
  RequestOf<typeof updateToiletBody>,
  'id' | 'is_delete' | 'status' | 'gateway_id'
>;

export const addToilet = (body: RequestOf<typeof addToiletBody>) =>
  post<ToiletRow>(TOILET_API.add, { ...body });

/** gateway_id 0 unlinks the gateway. */
export const updateToilet = (body: RequestOf<typeof updateToiletBody>) =>
  post<ToiletRow>(TOILET_API.update, { ...body });

// ---- the toilet detail (issue 6): document, parts, status with notes, placement ----

export const getToiletDetail = (id: number) => get<ToiletDetail>(TOILET_DETAIL_API.detail, { id });

export const updateDocument = (body: RequestOf<typeof updateDocumentBody>) =>
  post<ToiletDocument>(TOILET_DETAIL_API.updateDocument, { ...body });

export const addPart = (body: RequestOf<typeof addPartBody>) =>
  post<ToiletPart>(TOILET_DETAIL_API.addPart, { ...body });

export const updatePart = (body: RequestOf<typeof updatePartBody>) =>
  post<ToiletPart>(TOILET_DETAIL_API.updatePart, { ...body });

/** Cleaning (1) or repair (2) on or off, with the operator's note. */
export const setToiletStatus = (body: RequestOf<typeof setStatusBody>) =>
  post<ToiletRow>(TOILET_DETAIL_API.setStatus, { ...body });

export const listStatusLog = (toiletId: number, page: Partial<PageQuery>) =>
  get<Page<StatusLogRow>>(TOILET_DETAIL_API.statusLog, { toilet_id: toiletId, ...page });

export const listPlaceable = (filter: RequestOf<typeof placeableQuery>) =>
  get<Page<PlaceableRow>>(TOILET_DETAIL_API.placeable, { ...filter });

export const placeDevices = (body: { toilet_id: number; add_ids: number[]; remove_ids: number[] }) =>
  post<null>(TOILET_DETAIL_API.place, {
    toilet_id: body.toilet_id,
    add_ids: body.add_ids.join(','),
    remove_ids: body.remove_ids.join(','),
  });
