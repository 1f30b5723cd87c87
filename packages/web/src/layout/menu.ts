import { canAccess } from '@se/core';
import { routeByPath, type AppRoute } from '../routes.tsx';
import { readDcVersion } from '../session/storage.ts';

/**
 * The side menu, grouped by what people do (issue 19): each entry names one screen once,
 * with a tooltip saying what it is for. An entry may stand for several routes (the three
 * versions of the data centre); routes that repeat another entry's screen are ALIASES,
 * reachable by their URL and by the screen's own tabs but not listed twice.
 */
export interface MenuEntry {
  /** The entry's key: its first path. */
  key: string;
  title: string;
  /** What the screen is for, one short sentence (the item's tooltip). */
  hint: string;
  /** The routes the entry stands for; the first is where it leads unless told otherwise. */
  paths: readonly string[];
}

export interface MenuSection {
  key: string;
  label: string;
  entries: readonly MenuEntry[];
}

/** The data centre's three versions (SPEC §2): one entry, opening the version used last. */
export const DATA_CENTER_PATHS = ['/data-center', '/data-center2', '/display-center'] as const;

const entry = (path: string, hint: string, title?: string, paths: readonly string[] = [path]): MenuEntry => ({
  key: path,
  title: title ?? routeByPath(path)?.title ?? path,
  hint,
  paths,
});

export const MENU: readonly MenuSection[] = [
  {
    key: 'toilets',
    label: '智慧厕所',
    entries: [
      entry('/smart-toilet', '厕所登记、状态开关、详情与所属网关'),
      entry('/comment', '查看和处理群众对厕所的评价'),
      entry('/data-center', '厕所客流、空气质量与报警的大屏看板', '数据中心', DATA_CENTER_PATHS),
    ],
  },
  {
    key: 'devices',
    label: '设备',
    entries: [
      entry('/gateways', '厕所网关的登记、在线状态与传感器', '网关管理'),
      entry('/equipments', '除臭机的液位、告警、配置与指令'),
      entry('/evaluates', '厕所门口评价器的登记与评价统计'),
      entry('/paper-machines', '纸巾机的余量与告警'),
      entry('/electric-meters', '电表读数与用电量'),
      entry('/water-meters', '水表读数与用水量'),
    ],
  },
  {
    key: 'campus',
    label: '智慧校园',
    entries: [
      entry('/smart-org', '园区组织的概况'),
      entry('/ss-building', '楼栋的登记与设备放置'),
      entry('/ss-room', '房间的登记与设备放置'),
      entry('/ss-data-center', '园区各楼栋房间的实时数据看板'),
    ],
  },
  {
    key: 'industry',
    label: '智慧工业',
    entries: [entry('/smart-industrial', '工业监测仪与职业接触统计')],
  },
  {
    key: 'attendance',
    label: '考勤',
    entries: [
      entry('/ci-organization', '考勤的部门与组织架构'),
      entry('/ci-employee', '员工的登记与所属部门'),
      entry('/ci-device', '考勤机的登记与员工同步'),
      entry('/ci-scheme', '班次与考勤规则'),
      entry('/ci-record', '每天的考勤结果与打卡记录'),
    ],
  },
  {
    key: 'media',
    label: '流媒体',
    entries: [
      entry('/advisement-players', '播放器、分组、播放列表与排期'),
      entry('/pictures', '播放用的图片素材'),
      entry('/texts', '播放用的文字素材'),
      entry('/videos', '播放用的视频素材'),
    ],
  },
  {
    key: 'maintenance',
    label: '维修服务',
    entries: [
      entry('/maintenance-records', '报修单的处理进度与维修历史'),
      entry('/add-maintenance-record', '为设备或厕所提交一张报修单'),
      entry('/add-express-order', '登记寄修设备的快递单'),
      entry('/equipment-type', '维修用的设备类型字典'),
      entry('/fault-type', '维修用的故障类型字典'),
    ],
  },
  {
    key: 'notify',
    label: '消息提醒',
    entries: [
      entry('/messages', '收到的报警与提醒消息'),
      entry('/notify', '已发出的提醒记录与消息模板'),
      entry('/notify-object', '提醒发给谁：用户、邮箱与对接接口'),
      entry('/notify-formula', '设置按读数触发提醒的公式'),
    ],
  },
  {
    key: 'system',
    label: '系统',
    entries: [
      entry('/users', '账号、角色与设备绑定'),
      entry('/download', '导出文件的下载'),
      entry('/test', '开发用的接口测试页'),
    ],
  },
];

/**
 * Routes not listed on their own, and the entry that covers them: /st-gateway is the
 * gateway list of 网关管理 on the toilets screen, /st-data-center that screen's 数据中心 tab.
 */
export const MENU_ALIASES: Readonly<Record<string, string>> = {
  '/st-gateway': '/gateways',
  '/st-data-center': '/smart-toilet',
};

/** The entry a route belongs to (itself, one of its versions, or the entry it repeats). */
export function entryKeyOf(path: string | undefined): string | undefined {
  if (!path) return undefined;
  const target = MENU_ALIASES[path] ?? path;
  for (const s of MENU) for (const e of s.entries) if (e.paths.includes(target)) return e.key;
  return undefined;
}

/** The section a route belongs to. */
export const sectionKeyOf = (path: string | undefined): string | undefined => {
  const key = entryKeyOf(path);
  return MENU.find((s) => s.entries.some((e) => e.key === key))?.key;
};

/**
 * Where the data-centre entry leads: the version the user chose last on this browser (the
 * dashboards' version switch stores it), else /data-center.
 */
export const dataCenterPath = (): string => readDcVersion() || DATA_CENTER_PATHS[0];

export interface MenuGroup {
  key: string;
  label: string;
  entries: (MenuEntry & { route: AppRoute })[];
}

/**
 * The menu limited to what the permission number allows. `permission` null means not
 * known yet (the check failed): then everything is listed and the server decides on each call.
 */
export function menuGroups(permission: number | null): MenuGroup[] {
  const groups: MenuGroup[] = [];
  for (const section of MENU) {
    const entries = section.entries.flatMap((e) => {
      const route = routeByPath(e.paths[0]!);
      if (!route || route.access !== 'auth') return [];
      if (permission !== null && !canAccess(permission, route.permission)) return [];
      return [{ ...e, route }];
    });
    if (entries.length > 0) groups.push({ key: section.key, label: section.label, entries });
  }
  return groups;
}
