/**
 * The console's pages (the route table's login-required screens), each a lazy import. The
 * route table reaches this module through one dynamic import, so the sign-in pages' entry
 * does not carry the download map of every console page and its chunks: that map grows
 * with every area, and the login page's JavaScript budget (e2e/shell.e2e.ts) paid for it.
 */

// The six device lists are one page that reads its kind from the route.
const devices = () => import('./pages/devices/DevicesPage.tsx');
// The three media libraries are one page that reads its kind from the route.
const media = () => import('./pages/media/MediaPage.tsx');

export const CONSOLE_PAGES = {
  users: () => import('./pages/users/UsersPage.tsx'),
  devices,
  download: () => import('./pages/downloads/DownloadsPage.tsx'),
  notify: () => import('./pages/notify/NotifyPage.tsx'),
  messages: () => import('./pages/messages/MessagesPage.tsx'),
  industry: () => import('./pages/industry/IndustryPage.tsx'),
  campus: () => import('./pages/campus/CampusPage.tsx'),
  attendance: () => import('./pages/attendance/AttendancePage.tsx'),
  players: () => import('./pages/media-players/PlayersPage.tsx'),
  media,
  toilets: () => import('./pages/toilets/ToiletsPage.tsx'),
  comment: () => import('./pages/comments/CommentsPage.tsx'),
  dataCenter2: () => import('./pages/datacenter/DataCenter2.tsx'),
  dataCenter: () => import('./pages/datacenter/DataCenter.tsx'),
  displayCenter: () => import('./pages/datacenter/DisplayCenter.tsx'),
  equipmentType: () => import('./pages/maintenance/EquipmentTypePage.tsx'),
  faultType: () => import('./pages/maintenance/FaultTypePage.tsx'),
  addMaintenanceRecord: () => import('./pages/maintenance/AddRecordPage.tsx'),
  maintenanceRecords: () => import('./pages/maintenance/RecordsPage.tsx'),
  addExpressOrder: () => import('./pages/maintenance/ExpressPage.tsx'),
  test: () => import('./pages/develop/TestPage.tsx'),
};

export type ConsolePage = keyof typeof CONSOLE_PAGES;
