import { AREAS, type AreaName } from '@se/core';
import { indexRoutes, type AppRoute } from './navigation/names.ts';
import type { ConsolePage } from './console-pages.ts';
import { defineScreen, type Screen } from './navigation/screen.ts';

/**
 * THE route table (SPEC §2). Titles, the navigation guard, keep-alive, the side menu and
 * the permission check all read it; no route is declared anywhere else.
 */

// The entry type lives in navigation/names.ts so pages can use it without this table.
export type { AppRoute };

// The console's pages load through one small module (console-pages.ts): the sign-in pages'
// entry then carries one download map entry for it instead of one per console page. Routes
// that share a page in SPEC §2 keep their own Screen (key) so kept-alive lists do not share state.
const page = (name: ConsolePage) => () => import('./console-pages.ts').then((m) => m.CONSOLE_PAGES[name]());

const screens = {
  eternalPage: defineScreen('eternalPage', () => import('./pages/display/EternalPage.tsx')),
  miniProgramLogin: defineScreen('miniProgramLogin', () => import('./pages/auth/MiniProgramLogin.tsx')),
  login: defineScreen('login', () => import('./pages/auth/Login.tsx')),
  register: defineScreen('register', () => import('./pages/auth/Register.tsx')),
  findPassword: defineScreen('findPassword', () => import('./pages/auth/FindPassword.tsx')),
  addComment: defineScreen('addComment', () => import('./pages/public/AddComment.tsx')),
  agreement: defineScreen('agreement', () => import('./pages/public/Agreement.tsx')),

  users: defineScreen('users', page('users')),
  equipments: defineScreen('equipments', page('devices')),
  evaluates: defineScreen('evaluates', page('devices')),
  download: defineScreen('download', page('download')),
  notify: defineScreen('notify', page('notify')),
  messages: defineScreen('messages', page('messages')),
  industry: defineScreen('industry', page('industry')),
  campus: defineScreen('campus', page('campus')),
  attendance: defineScreen('attendance', page('attendance')),
  players: defineScreen('players', page('players')),
  pictures: defineScreen('pictures', page('media')),
  texts: defineScreen('texts', page('media')),
  videos: defineScreen('videos', page('media')),
  toilets: defineScreen('toilets', page('toilets')),
  comment: defineScreen('comment', page('comment')),
  dataCenter2: defineScreen('dataCenter2', page('dataCenter2')),
  dataCenter: defineScreen('dataCenter', page('dataCenter')),
  displayCenter: defineScreen('displayCenter', page('displayCenter')),
  gateways: defineScreen('gateways', page('devices')),
  electricMeters: defineScreen('electricMeters', page('devices')),
  waterMeters: defineScreen('waterMeters', page('devices')),
  paperMachines: defineScreen('paperMachines', page('devices')),
  equipmentType: defineScreen('equipmentType', page('equipmentType')),
  faultType: defineScreen('faultType', page('faultType')),
  addMaintenanceRecord: defineScreen('addMaintenanceRecord', page('addMaintenanceRecord')),
  maintenanceRecords: defineScreen('maintenanceRecords', page('maintenanceRecords')),
  addExpressOrder: defineScreen('addExpressOrder', page('addExpressOrder')),
  test: defineScreen('test', page('test')),
};

const open = (path: string, name: string, title: string, screen: Screen): AppRoute => ({
  path,
  name,
  title,
  access: 'public',
  keepAlive: false,
  area: null,
  permission: 0,
  screen,
});

const auth = (
  path: string,
  name: string,
  title: string,
  area: AreaName,
  screen: Screen,
  keepAlive: 'keepAlive' | false = false,
): AppRoute => ({
  path,
  name,
  title,
  access: 'auth',
  keepAlive: keepAlive === 'keepAlive',
  area,
  permission: AREAS[area].permission,
  screen,
});

const KEEP = 'keepAlive';
const s = screens;

export const ROUTES: readonly AppRoute[] = [
  // Public (SPEC §2 "no login")
  open('/eternal-page', 'EternalPage', '系统信息', s.eternalPage),
  open('/mini-program-login', 'MiniProgramLogin', '小程序登录', s.miniProgramLogin),
  open('/login', 'Login', '用户登录', s.login),
  open('/register', 'Register', '用户注册', s.register),
  open('/find_password', 'FindPassword', '找回密码', s.findPassword),
  open('/add-comment', 'AddComment', '发表评价', s.addComment),
  open('/agreement', 'Agreement', '声明', s.agreement),

  // Login required
  auth('/users', 'Users', '用户管理', 'users', s.users, KEEP),
  auth('/equipments', 'Equipments', '除臭机管理', 'jwb', s.equipments, KEEP),
  auth('/evaluates', 'Evaluates', '评价器管理', 'evaluate', s.evaluates, KEEP),
  auth('/download', 'Download', '下载中心', 'system', s.download),
  auth('/notify', 'Notify', '消息提醒', 'notify', s.notify),
  auth('/notify-object', 'NotifyObject', '提醒对象', 'notify', s.notify),
  auth('/notify-formula', 'NotifyFormula', '提醒公式', 'notify', s.notify),
  auth('/messages', 'Messages', '站内消息', 'notify', s.messages),
  auth('/smart-industrial', 'SmartIndustrial', '智慧工业', 'industry', s.industry),
  auth('/smart-org', 'SmartOrg', '智慧园区', 'campus', s.campus),
  auth('/ss-building', 'SsBuilding', '楼栋管理', 'campus', s.campus),
  auth('/ss-room', 'SsRoom', '房间管理', 'campus', s.campus),
  auth('/ss-data-center', 'SsDataCenter', '园区数据中心', 'campus', s.campus),
  auth('/ci-organization', 'CiOrganization', '组织架构', 'attendance', s.attendance),
  auth('/ci-employee', 'CiEmployee', '员工管理', 'attendance', s.attendance),
  auth('/ci-device', 'CiDevice', '考勤设备', 'attendance', s.attendance),
  auth('/ci-scheme', 'CiScheme', '考勤规则', 'attendance', s.attendance),
  auth('/ci-record', 'CiRecord', '考勤记录', 'attendance', s.attendance),
  auth('/advisement-players', 'AdvisementPlayers', '智能播放器', 'media', s.players, KEEP),
  auth('/pictures', 'Pictures', '图片管理', 'media', s.pictures, KEEP),
  auth('/texts', 'Texts', '文字管理', 'media', s.texts, KEEP),
  auth('/videos', 'Videos', '视频管理', 'media', s.videos, KEEP),
  auth('/smart-toilet', 'Toilets', '智慧厕所', 'smartToilet', s.toilets, KEEP),
  auth('/st-gateway', 'StGateway', '智慧网关', 'smartToilet', s.toilets, KEEP),
  auth('/st-data-center', 'StDataCenter', '智慧厕所数据中心', 'smartToilet', s.toilets, KEEP),
  auth('/comment', 'Comment', '评价管理', 'smartToilet', s.comment),
  auth('/data-center2', 'DataCenter2', '数据中心 V2', 'dataCenter', s.dataCenter2),
  auth('/data-center', 'DataCenter', '数据中心', 'dataCenter', s.dataCenter),
  auth('/display-center', 'DisplayCenter', '数据中心展示版', 'dataCenter', s.displayCenter),
  auth('/gateways', 'Gateways', '网关管理', 'gateway', s.gateways, KEEP),
  auth('/electric-meters', 'ElectricMeters', '电表管理', 'meter', s.electricMeters),
  auth('/water-meters', 'WaterMeters', '水表管理', 'meter', s.waterMeters),
  auth('/paper-machines', 'PaperMachines', '智能纸巾机', 'paper', s.paperMachines),
  auth('/equipment-type', 'EquipmentType', '设备类型', 'maintenance', s.equipmentType, KEEP),
  auth('/fault-type', 'FaultType', '故障类型', 'maintenance', s.faultType, KEEP),
  auth(
    '/add-maintenance-record',
    'AddMaintenanceRecord',
    '添加维修记录',
    'maintenance',
    s.addMaintenanceRecord,
  ),
  auth('/maintenance-records', 'MaintenanceRecords', '维修记录', 'maintenance', s.maintenanceRecords, KEEP),
  auth('/add-express-order', 'AddExpressOrder', '添加快递单', 'maintenance', s.addExpressOrder),
  auth('/test', 'Test', '测试页', 'develop', s.test),
];

indexRoutes(ROUTES);
const byPath = new Map(ROUTES.map((r) => [r.path, r]));

export const routeByPath = (path: string): AppRoute | undefined => byPath.get(path);
