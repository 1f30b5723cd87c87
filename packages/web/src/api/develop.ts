import { DEVELOP_API, type OutboxMail, type Page, type PageQuery } from '@se/core';
import { get } from './client.ts';

export const getOutbox = (query: PageQuery) => get<Page<OutboxMail>>(DEVELOP_API.outbox, query);
