/** Websocket protocol v1 (SPEC §4): the browser's live channel at /ws. */

export const WS_VERSION = 1;
export const WS_TYPE = { error: 0, request: 1, reply: 2, push: 3 } as const;
export type WsType = (typeof WS_TYPE)[keyof typeof WS_TYPE];

/** What a browser may subscribe to; the server checks each against the user's rights. */
export type WsChannel =
  /** One device: every stored report (latest values), online changes. */
  | { channel: 'device'; id: number }
  /** Every device of a kind the user can see: time/online/warning changes, for live lists. */
  | { channel: 'devices'; kind: string }
  /** Alarms of every device the user can see: opened, acknowledged, closed. */
  | { channel: 'alarms' }
  /** New comments on toilets or terminals the user can see (data: CommentFeedRow). */
  | { channel: 'comments' }
  /** The user's own unread message count (data: MessagesPush). */
  | { channel: 'messages' }
  /** The user's own formula rules firing (data: RuleFiredPush), for 最近触发. */
  | { channel: 'rules' }
  /**
   * A campus organisation's placed devices (issue 15): a report or an alarm of one of them
   * (data: CampusPush); the data centre reloads its figures. org_id only for develop and
   * ssSuperSaled, who name the organisation.
   */
  | { channel: 'campus'; org_id?: number };

/** What the 'campus' channel pushes: which placed device reported or alarmed. */
export interface CampusPush {
  id: number;
  event: 'report' | 'alarm';
}

export type WsRequest =
  | { v: 1; type: 1; id: string; action: 'auth'; data: { token: string } }
  | { v: 1; type: 1; id: string; action: 'subscribe' | 'unsubscribe'; data: WsChannel }
  | { v: 1; type: 1; id: string; action: 'ping'; data?: null };

export interface WsReply {
  v: 1;
  type: 2;
  id: string;
  data: unknown;
}

export interface WsError {
  v: 1;
  type: 0;
  /** The request it answers, when there is one. */
  id?: string;
  data: { code: number; message: string };
}

export interface DevicePush {
  id: number;
  kind: string;
  /** ms of the newest report */
  time: number;
  online: boolean;
  /** Warning bits when the report carried them; null leaves the known value as it is. */
  warning: number | null;
  /** the fields of the report(s) that triggered the push (device channel: merged latest) */
  data: Record<string, unknown>;
}

/** What the 'messages' channel pushes when the user's unread count changes. */
export interface MessagesPush {
  unread: number;
}

/** What the 'rules' channel pushes when one of the user's rules fired. */
export interface RuleFiredPush {
  /** The rule's id. */
  id: number;
  /** ms of the (newest) hit. */
  fired_at: number;
  /** Hits of this round. */
  hits: number;
}

export interface WsPush {
  v: 1;
  type: 3;
  channel: WsChannel['channel'];
  /** device id for 'device', kind for 'devices' */
  key?: number | string;
  data: unknown;
}

export type WsMessage = WsRequest | WsReply | WsError | WsPush;
