import type { AppContext } from '../../context.ts';

/**
 * What a rule hands to the notification side when it fires (contract between
 * modules/rules and modules/notify).
 */
export interface RuleHit {
  rule_id: number;
  /** The rule's owner: whose objects and templates are used, whose inbox gets the message. */
  user_id: number;
  template_id: number | null;
  object_ids: number[];
  device_id: number;
  ser_num: string;
  /** The device's description (usually a place name): {desc}. */
  desc: string;
  toilet_id: number | null;
  /** The formula text that became true. */
  formula: string;
  /** The readings the formula saw (co2, pm25, voc, nh3, h2s, alarm, smk_alarm). */
  values: Record<string, number | boolean>;
  /** ms */
  time: number;
}

/**
 * Records one notification per recipient and channel and queues its delivery (in-app
 * message, e-mail, webhook); never throws for a delivery problem.
 * IMPLEMENTED BY modules/notify (issue 7).
 */
export async function dispatchRuleHit(ctx: AppContext, hit: RuleHit): Promise<void> {
  void ctx;
  void hit;
  throw new Error('dispatchRuleHit: not implemented yet');
}
