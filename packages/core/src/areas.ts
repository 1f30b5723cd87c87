import { PERMISSION, type Need } from './permissions.ts';

/**
 * The functional areas of SPEC §1 with the permission bits each needs. The web menu
 * groups routes by area and the server's route hooks read the same bits, so a screen
 * and its API always agree. SPEC leaves the gating "not shown"; this is our design.
 */
export const AREAS = {
  smartToilet: { label: '智慧厕所', permission: PERMISSION.visitor },
  jwb: { label: '除臭机管理', permission: PERMISSION.visitor },
  evaluate: { label: '评价器管理', permission: PERMISSION.visitor },
  gateway: { label: '网关管理', permission: PERMISSION.visitor },
  meter: { label: '仪表管理', permission: PERMISSION.visitor },
  paper: { label: '智能纸巾机', permission: PERMISSION.visitor },
  dataCenter: { label: '数据中心', permission: PERMISSION.dataView },
  campus: { label: '智慧园区', permission: PERMISSION.ssVisitor },
  industry: { label: '智慧工业', permission: PERMISSION.visitor },
  attendance: { label: '考勤管理', permission: PERMISSION.attendance },
  media: { label: '流媒体', permission: PERMISSION.media },
  maintenance: { label: '维修服务', permission: PERMISSION.user },
  notify: { label: '消息提醒', permission: PERMISSION.visitor },
  users: { label: '用户管理', permission: 'manager' },
  system: { label: '系统', permission: PERMISSION.visitor },
  develop: { label: '开发', permission: PERMISSION.develop },
} as const satisfies Record<string, { label: string; permission: Need }>;

export type AreaName = keyof typeof AREAS;
