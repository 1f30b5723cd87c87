import { get } from './client.ts';

// Not in @se/core yet: the shape the server answers on GET /api/v1/site.
export interface SiteInfo {
  name: string;
  version: string;
  record_code: string;
  record_url: string;
}

export const getSite = () => get<SiteInfo>('/api/v1/site');
