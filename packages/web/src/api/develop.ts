import { DEVELOP_API } from '@se/core';
import type { Page, PageQuery } from '@se/core';
import { get } from './client.ts';

// Not in @se/core yet: one row of the mail outbox (GET DEVELOP_API.outbox, develop only).
export interface OutboxMail {
  id: number;
  to_addr: string;
  subject: string;
  body: string;
  created_at: string | number;
  sent_at: string | number | null;
  error: string | null;
}

export const getOutbox = (query: PageQuery) => get<Page<OutboxMail>>(DEVELOP_API.outbox, query);
