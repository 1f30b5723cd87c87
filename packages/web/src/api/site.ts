import { SITE_API, type SiteInfo } from '@se/core';
import { get } from './client.ts';

export const getSite = () => get<SiteInfo>(SITE_API.info);
