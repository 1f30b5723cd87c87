import { ORG_API, type OrgRow, type updateOrgBody } from '@se/core';
import { get, post, sendRaw, tokenHeaders } from './client.ts';
import type { RequestOf } from './request.ts';

// Organisations (/smart-org; attendance shares them).

export const getOrg = () => get<OrgRow>(ORG_API.get);
export const updateOrg = (b: RequestOf<typeof updateOrgBody>) => post<OrgRow>(ORG_API.update, { ...b });

/** Sends a picked image as the raw body; the server checks and re-encodes it. */
export const uploadOrgLogo = (id: number, file: File) =>
  sendRaw<OrgRow>(`${ORG_API.uploadLogo}?id=${id}`, file, 'application/octet-stream');

/**
 * The logo as an object URL (an <img> cannot send the token headers); null when there is
 * none. The caller revokes it.
 */
export async function orgLogoUrl(id: number, key: string): Promise<string | null> {
  const res = await fetch(`${ORG_API.logo}?id=${id}&v=${encodeURIComponent(key)}`, {
    headers: tokenHeaders(),
  });
  if (!res.ok || !(res.headers.get('Content-Type') ?? '').startsWith('image/')) return null;
  return URL.createObjectURL(await res.blob());
}
