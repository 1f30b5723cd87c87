import {
  DEFAULT_REVIEW_TEMPLATE,
  DEFAULT_TEMPLATE,
  renderTemplate,
  type NotifyObject,
  type TemplateVars,
} from '@se/core';
import type { AppContext } from '../../context.ts';
import { findUser } from '../users/repo.ts';
import { announce, deliver } from '../messages/service.ts';
import type { NewMessage } from '../messages/repo.ts';
import * as repo from './repo.ts';
import { notifierOf } from './runtime.ts';

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
 */
export async function dispatchRuleHit(ctx: AppContext, hit: RuleHit): Promise<void> {
  try {
    await dispatch(ctx, hit);
  } catch (err) {
    ctx.log.error({ err, rule_id: hit.rule_id }, 'rule notification not recorded');
  }
}

/** The notification's title (inbox, e-mail subject). */
export const ruleTitle = (hit: Pick<RuleHit, 'desc' | 'ser_num'>) => `规则提醒：${hit.desc || hit.ser_num}`;

async function dispatch(ctx: AppContext, hit: RuleHit) {
  const [template, objects, owner] = await Promise.all([
    hit.template_id ? repo.findTemplate(ctx.db, hit.template_id) : undefined,
    hit.object_ids.length ? repo.objectsOf(ctx.db, hit.user_id, hit.object_ids) : [],
    findUser(ctx.db, hit.user_id),
  ]);
  if (!owner) return;
  // Only the owner's own, live template counts; otherwise the default text.
  const usable = template && !template.is_delete && template.user_id === hit.user_id;
  const text = usable
    ? template.content
    : typeof hit.values.star_level === 'number'
      ? DEFAULT_REVIEW_TEMPLATE
      : DEFAULT_TEMPLATE;
  const vars: TemplateVars = {
    ...hit.values,
    desc: hit.desc,
    ser_num: hit.ser_num,
    formula: hit.formula,
    time: hit.time,
  };
  const render = (userName: string) => renderTemplate(text, { ...vars, user_name: userName });
  const title = ruleTitle(hit);
  const ownerText = render(owner.user_name);

  // Recipients of type 'user' must still exist; docking objects name a live interface of the owner.
  const userIds = objects.filter((o) => o.type === 'user').map((o) => Number(o.target));
  const dockingIds = objects.filter((o) => o.type === 'docking').map((o) => Number(o.target));
  const [users, interfaces] = await Promise.all([
    userIds.length ? repo.liveUsers(ctx.db, userIds) : [],
    dockingIds.length ? repo.liveDockingsOf(ctx.db, dockingIds, hit.user_id) : [],
  ]);
  const liveUsers = new Map(users.map((u) => [u.id, u]));
  const liveInterfaces = new Map(interfaces.map((d) => [d.id, d]));

  const changes = await ctx.db.transaction(async (tx) => {
    const notificationId = await repo.insertNotification(tx, {
      user_id: hit.user_id,
      rule_id: hit.rule_id,
      template_id: usable ? template.id : null,
      device_id: hit.device_id,
      title,
      content: ownerText,
      values: { ...hit.values, formula: hit.formula },
      created_at: new Date(hit.time),
    });
    const base = { kind: 'rule' as const, title, device_id: hit.device_id, notification_id: notificationId };
    const messages: NewMessage[] = [{ ...base, user_id: hit.user_id, content: ownerText }];
    const inboxed = new Set([hit.user_id]);
    const deliveries: repo.NewDelivery[] = [
      {
        notification_id: notificationId,
        user_id: hit.user_id,
        channel: 'inbox',
        kind: 'rule',
        target: owner.user_name,
        payload: {},
        status: 'sent',
      },
    ];
    for (const o of objects) {
      const content = render(o.name);
      const d = { notification_id: notificationId, object_id: o.id, user_id: hit.user_id, kind: 'rule' };
      deliveries.push(objectDelivery(o, content, title, hit, notificationId, d, liveUsers, liveInterfaces));
      const userId = Number(o.target);
      if (o.type === 'user' && liveUsers.has(userId) && !inboxed.has(userId)) {
        inboxed.add(userId);
        messages.push({ ...base, user_id: userId, content });
      }
    }
    await repo.insertDeliveries(tx, deliveries);
    return deliver(tx, messages);
  });
  announce(ctx, changes);
  notifierOf(ctx)?.kick();
}

function objectDelivery(
  o: NotifyObject,
  content: string,
  title: string,
  hit: RuleHit,
  notificationId: number,
  d: { notification_id: number; object_id: number; user_id: number; kind: string },
  users: Map<number, { user_name: string }>,
  interfaces: Map<number, { name: string; url: string }>,
): repo.NewDelivery {
  switch (o.type) {
    case 'user': {
      const u = users.get(Number(o.target));
      return u
        ? { ...d, channel: 'inbox', target: u.user_name, payload: {}, status: 'sent' }
        : {
            ...d,
            channel: 'inbox',
            target: o.target_label,
            payload: {},
            status: 'failed',
            last_error: '用户不存在或已删除',
          };
    }
    case 'email':
      return { ...d, channel: 'email', target: o.target, payload: { subject: title, text: content } };
    case 'docking': {
      const i = interfaces.get(Number(o.target));
      if (!i)
        return {
          ...d,
          channel: 'docking',
          target: o.target_label,
          payload: {},
          status: 'failed',
          last_error: '对接接口已删除',
        };
      return {
        ...d,
        channel: 'docking',
        docking_id: Number(o.target),
        target: i.url,
        payload: {
          type: 'rule',
          notification_id: notificationId,
          rule_id: hit.rule_id,
          title,
          content,
          device: { id: hit.device_id, ser_num: hit.ser_num, desc: hit.desc, toilet_id: hit.toilet_id },
          formula: hit.formula,
          values: hit.values,
          time: hit.time,
        },
      };
    }
    case 'wecom':
    case 'dingtalk':
      return { ...d, channel: o.type, target: o.target, payload: { msgtype: 'text', text: { content } } };
  }
}
