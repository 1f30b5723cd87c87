import { ORG_API, type OrgRow, type updateOrgBody } from '@se/core';
import { get, post } from './client.ts';
import type { RequestOf } from './request.ts';
import { storedImageUrl, uploadImage } from './stored-image.ts';

// Organisations (/smart-org; attendance shares them).

export const getOrg = () => get<OrgRow>(ORG_API.get);
export const updateOrg = (b: RequestOf<typeof updateOrgBody>) => post<OrgRow>(ORG_API.update, { ...b });

/** Sends a picked image; the server checks and re-encodes it. */
export const uploadOrgLogo = (id: number, file: File) =>
  uploadImage<OrgRow>(`${ORG_API.uploadLogo}?id=${id}`, file);

/** The logo as an object URL; null when there is none. The caller revokes it. */
export const orgLogoUrl = (id: number, key: string) =>
  storedImageUrl(`${ORG_API.logo}?id=${id}&v=${encodeURIComponent(key)}`);
