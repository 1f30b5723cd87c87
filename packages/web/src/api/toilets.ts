import {
  TOILET_API,
  TOILET_DETAIL_API,
  type Page,
  type PageQuery,
  type PlaceableKind,
  type PlaceableRow,
  type StatusLogRow,
  type ToiletDetail,
  type ToiletDocument,
  type ToiletPart,
  type ToiletRow,
} from '@se/core';
import { get, post } from './client.ts';

// Smart toilets (SPEC §3 "Toilet"); their binding pair is TOILET_API.bindList/bind, used
// through api/devices.ts's listBindable/bindDevices like every device kind's.

export interface ToiletFilter extends Partial<PageQuery> {
  keywords?: string;
  /** Rows having all of these flags: cleaning 1, repair 2, alarm 4. */
  status?: number;
  owner_id?: number;
}

export const listToilets = (filter: ToiletFilter) => get<Page<ToiletRow>>(TOILET_API.list, { ...filter });

export const getToilet = (id: number) => get<ToiletRow>(TOILET_API.get, { id });

/** The AMap-style place fields a toilet is registered with. */
export interface ToiletFields {
  name?: string;
  lat?: number;
  lng?: number;
  pname?: string;
  cityname?: string;
  adname?: string;
  business_area?: string;
  address?: string;
  img_url?: string;
}

export const addToilet = (body: ToiletFields & { name: string; gateway_id?: number }) =>
  post<ToiletRow>(TOILET_API.add, { ...body });

export const updateToilet = (
  body: ToiletFields & {
    id: number;
    is_delete?: boolean;
    status?: number;
    /** 0 unlinks the gateway. */
    gateway_id?: number;
  },
) => post<ToiletRow>(TOILET_API.update, { ...body });

// ---- the toilet detail (issue 6): document, parts, status with notes, placement ----

export const getToiletDetail = (id: number) => get<ToiletDetail>(TOILET_DETAIL_API.detail, { id });

export const updateDocument = (
  body: { toilet_id: number } & Partial<
    Pick<
      ToiletDocument,
      'male_count' | 'female_count' | 'others_count' | 'open_time' | 'close_time' | 'content'
    >
  >,
) => post<ToiletDocument>(TOILET_DETAIL_API.updateDocument, { ...body });

export const addPart = (body: {
  toilet_id: number;
  type: number;
  name?: string;
  state?: number;
  note?: string;
}) => post<ToiletPart>(TOILET_DETAIL_API.addPart, { ...body });

export const updatePart = (body: {
  id: number;
  is_delete?: boolean;
  type?: number;
  name?: string;
  state?: number;
  note?: string;
}) => post<ToiletPart>(TOILET_DETAIL_API.updatePart, { ...body });

/** Cleaning (1) or repair (2) on or off, with the operator's note. */
export const setToiletStatus = (body: { id: number; flag: number; on: boolean; note?: string }) =>
  post<ToiletRow>(TOILET_DETAIL_API.setStatus, { ...body });

export const listStatusLog = (toiletId: number, page: Partial<PageQuery>) =>
  get<Page<StatusLogRow>>(TOILET_DETAIL_API.statusLog, { toilet_id: toiletId, ...page });

export const listPlaceable = (
  filter: { toilet_id: number; kind: PlaceableKind; keywords?: string } & Partial<PageQuery>,
) => get<Page<PlaceableRow>>(TOILET_DETAIL_API.placeable, { ...filter });

export const placeDevices = (body: { toilet_id: number; add_ids: number[]; remove_ids: number[] }) =>
  post<null>(TOILET_DETAIL_API.place, {
    toilet_id: body.toilet_id,
    add_ids: body.add_ids.join(','),
    remove_ids: body.remove_ids.join(','),
  });
