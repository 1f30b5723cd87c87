import {
  NOTIFY_API,
  RULE_API,
  type FormulaCheck,
  type FormulaTestResult,
  type NotifyObject,
  type NotifyTemplate,
  type Page,
  type PageQuery,
  type RuleDeviceRow,
  type RuleHitRow,
  type RuleRow,
  type RuleScope,
} from '@se/core';
import { get, post } from './client.ts';

// Formula rules (/notify-formula): RULE_API of core; templates and recipients are the
// notify module's lists (NOTIFY_API), read here for the rule dialog's pickers.

export const listRules = (q: Partial<PageQuery> & { keywords?: string; enabled?: boolean }) =>
  get<Page<RuleRow>>(RULE_API.list, { ...q });

export interface RuleFields {
  name: string;
  formula: string;
  scope: RuleScope;
  device_ids: number[];
  toilet_ids: number[];
  duration_s: number;
  cooldown_s: number;
  /** 0: no template. */
  template_id: number;
  object_ids: number[];
  enabled?: boolean;
}

const form = (f: Partial<RuleFields>) => ({
  ...f,
  device_ids: f.device_ids?.join(','),
  toilet_ids: f.toilet_ids?.join(','),
  object_ids: f.object_ids?.join(','),
});

export const addRule = (f: RuleFields) => post<RuleRow>(RULE_API.add, form(f));

export const updateRule = (f: Partial<RuleFields> & { id: number; is_delete?: boolean }) =>
  post<RuleRow>(RULE_API.update, form(f));

export const checkFormulaRemote = (formula: string) => post<FormulaCheck>(RULE_API.check, { formula });

export const testFormula = (formula: string, deviceId: number) =>
  post<FormulaTestResult>(RULE_API.test, { formula, device_id: deviceId });

export const listRuleHits = (q: Partial<PageQuery> & { rule_id?: number; device_id?: number }) =>
  get<Page<RuleHitRow>>(RULE_API.hits, { ...q });

export const listRuleDevices = (q: Partial<PageQuery> & { keywords?: string }) =>
  get<Page<RuleDeviceRow>>(RULE_API.devices, { ...q });

export const listTemplatesForRules = (keywords?: string) =>
  get<Page<NotifyTemplate>>(NOTIFY_API.templates, { keywords, page_size: 100 });

export const listObjectsForRules = (keywords?: string) =>
  get<Page<NotifyObject>>(NOTIFY_API.objects, { keywords, page_size: 100 });
