import { ORG_API, type OrgRow, type updateOrgBody } from '@se/core';
import { get, post } from './client.ts';
import type { RequestOf } from './request.ts';

// Organisations (/smart-org; attendance shares them).

export const getOrg = () => get<OrgRow>(ORG_API.get);
export const updateOrg = (b: RequestOf<typeof updateOrgBody>) => post<OrgRow>(ORG_API.update, { ...b });
