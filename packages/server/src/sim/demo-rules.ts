// The demo tenant's formula rules (issue 19): a run of bad reviews at an evaluation terminal
// and ammonia that stays high, each telling the tenant's duty mailbox. Made through the
// console's own API as the demo user; idempotent (a rule or recipient that exists is left
// alone). The reviews come from the simulated terminals (values.ts), so the rules fire now
// and then and show in 最近触发 and 提醒记录.
import { NOTIFY_API, RULE_API, type NotifyObject, type Page, type RuleRow } from '@se/core';
import type { ConsoleApi } from './fleet.ts';

const RECIPIENT = { name: '值班邮箱', type: 'email', target: 'duty@demo.example.com' } as const;

const RULES = [
  {
    name: '连续差评',
    formula: 'star_level lte 2',
    min_count: 3,
    window_s: 1800,
    cooldown_s: 3600,
  },
  {
    name: '差评：卫生差或有异味',
    formula: 'poorsanitary or smelly and star_level lte 3',
    min_count: 1,
    window_s: 0,
    cooldown_s: 3600,
  },
  {
    name: '氨气持续超标',
    formula: 'nh3 gt 1.5 and not alarm',
    min_count: 1,
    window_s: 0,
    duration_s: 300,
    cooldown_s: 1800,
  },
];

/** `api`: signed in as the demo user. */
export async function demoRules(api: ConsoleApi) {
  const objects = await api.call<Page<NotifyObject>>('GET', NOTIFY_API.objects, {
    keywords: RECIPIENT.name,
    page_size: 100,
  });
  const recipient =
    objects.list.find((o) => o.name === RECIPIENT.name) ??
    (await api.call<NotifyObject>('POST', NOTIFY_API.addObject, { ...RECIPIENT }));
  const rules = await api.call<Page<RuleRow>>('GET', RULE_API.list, { page_size: 100 });
  for (const r of RULES) {
    if (rules.list.some((x) => x.name === r.name)) continue;
    await api.call('POST', RULE_API.add, { ...r, scope: 'all', object_ids: String(recipient.id) });
  }
}
