import { TOILET_API, type Page, type PageQuery, type ToiletRow } from '@se/core';
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
