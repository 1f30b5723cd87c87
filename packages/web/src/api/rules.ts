import {
  NOTIFY_API,
  RULE_API,
  type FormulaCheck,
  type FormulaTestResult,
  type NotifyObject,
  type NotifyTemplate,
  type Page,
  type RuleDeviceRow,
  type RuleHitRow,
  type RuleRow,
  type addRuleBody,
  type ruleDevicesQuery,
  type ruleHitsQuery,
  type rulesQuery,
  type updateRuleBody,
} from '@se/core';
import { get, post } from './client.ts';
import type { RequestOf } from './request.ts';

// Formula rules (/notify-formula): RULE_API of core; templates and recipients are the
// notify module's lists (NOTIFY_API), read here for the rule dialog's pickers.

export const listRules = (q: RequestOf<typeof rulesQuery>) => get<Page<RuleRow>>(RULE_API.list, { ...q });

export type RuleFields = RequestOf<typeof addRuleBody>;

const form = (f: Partial<RuleFields>) => ({
  ...f,
  device_ids: f.device_ids?.join(','),
  toilet_ids: f.toilet_ids?.join(','),
  object_ids: f.object_ids?.join(','),
});

export const addRule = (f: RuleFields) => post<RuleRow>(RULE_API.add, form(f));

export const updateRule = (f: RequestOf<typeof updateRuleBody>) => post<RuleRow>(RULE_API.update, form(f));

export const checkFormulaRemote = (formula: string) => post<FormulaCheck>(RULE_API.check, { formula });

export const testFormula = (formula: string, deviceId: number) =>
  post<FormulaTestResult>(RULE_API.test, { formula, device_id: deviceId });

export const listRuleHits = (q: RequestOf<typeof ruleHitsQuery>) =>
  get<Page<RuleHitRow>>(RULE_API.hits, { ...q });

export const listRuleDevices = (q: RequestOf<typeof ruleDevicesQuery>) =>
  get<Page<RuleDeviceRow>>(RULE_API.devices, { ...q });

export const listTemplatesForRules = (keywords?: string) =>
  get<Page<NotifyTemplate>>(NOTIFY_API.templates, { keywords, page_size: 100 });

export const listObjectsForRules = (keywords?: string) =>
  get<Page<NotifyObject>>(NOTIFY_API.objects, { keywords, page_size: 100 });
