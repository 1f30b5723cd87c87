import { SITE_API } from '@se/core';
import { get } from './client.ts';

// Not in @se/core yet: the shape the server answers on GET SITE_API.info.
export interface SiteInfo {
  name: string;
  version: string;
  record_code: string;
  record_url: string;
  /** Map tiles ({z}/{x}/{y}) for the data centres; '' draws the bundled China map. */
  map_tile_url?: string;
}

export const getSite = () => get<SiteInfo>(SITE_API.info);
