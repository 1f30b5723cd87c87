import { DEVICE_KINDS, PERMISSION, type DevicePlace, type DeviceRow, type UserRow } from '@se/core';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  bindDevices,
  getDevice,
  getDeviceInfo,
  getSensor,
  listDevices,
  listSensors,
} from '../api/devices.ts';
import { getScreen, listScreens } from '../api/media-players.ts';
import { ScreensTab } from '../pages/media-players/ScreensTab.tsx';
import { listUsers } from '../api/users.ts';
import { AlarmFeed, CommentFeed } from '../pages/datacenter/feeds.tsx';
import { sampleOverview } from '../pages/datacenter/fixtures.ts';
import { DeviceList } from '../pages/devices/DeviceList.tsx';
import { useSession } from '../session/store.ts';
import { deviceRow } from '../test-rows.ts';
import { withProviders } from '../test-render.tsx';
import { routeByPath } from '../routes.tsx';
import { PageRouteContext } from '../navigation/page-route.ts';
import { DeviceLink, ToiletLink, ToiletReviewsLink, UserLinks } from './ObjectLinks.tsx';
import { useLinkedParam } from './object-links.ts';

const { withStubs } = await vi.hoisted(() => import('../test-mock.ts'));
vi.mock(import('../api/devices.ts'), (original) =>
  withStubs(original, [
    'listDevices',
    'getDevice',
    'getDeviceInfo',
    'bindDevices',
    'getSensor',
    'listSensors',
  ]),
);
vi.mock(import('../api/media-players.ts'), (original) => withStubs(original, ['listScreens', 'getScreen']));
vi.mock(import('../api/users.ts'), (original) => withStubs(original, ['listUsers']));

const ok = <T,>(data: T) => ({ code: 200, message: '', data });
const DEALER = PERMISSION.dealer | PERMISSION.user | PERMISSION.visitor;
const signedInAs = (permission: number) =>
  useSession.getState().signIn({ userName: '王经理', permission, userID: 9 });

afterEach(() => useSession.getState().reset());

const hrefOf = (name: string) => screen.getByRole('link', { name }).getAttribute('href');

describe('object links', () => {
  it('link a device, a toilet, its reviews and users to the screens that show them', () => {
    signedInAs(DEALER);
    render(
      <MemoryRouter>
        <DeviceLink kind="gateway" id={5} serNum="GW-5" />
        <ToiletLink id={3} name="东门公厕" />
        <ToiletReviewsLink id={3} name="东门公厕">
          全部评价
        </ToiletReviewsLink>
        <UserLinks names="张三,李四" />
      </MemoryRouter>,
    );
    expect(hrefOf('GW-5')).toBe('/gateways?device=5');
    expect(hrefOf('东门公厕')).toBe('/smart-toilet?toilet=3');
    expect(decodeURIComponent(hrefOf('全部评价')!)).toBe('/comment?toilet=3:东门公厕');
    expect(decodeURIComponent(hrefOf('张三')!)).toBe('/users?keywords=张三');
    expect(decodeURIComponent(hrefOf('李四')!)).toBe('/users?keywords=李四');
  });

  it('link attendance terminals, players and sensors to the lists that open them', () => {
    signedInAs(DEALER | PERMISSION.media | PERMISSION.attendance);
    render(
      <MemoryRouter>
        <DeviceLink kind="attendance" id={8} serNum="KQ-8" />
        <DeviceLink kind="player" id={9} serNum="PL-9" />
        <DeviceLink kind="sensor" id={4} serNum="SN-4" />
      </MemoryRouter>,
    );
    expect(hrefOf('KQ-8')).toBe('/ci-device?dev_device=8');
    expect(hrefOf('PL-9')).toBe('/advisement-players?device=9');
    expect(hrefOf('SN-4')).toBe('/gateways?sensor=4');
  });

  it('are plain text where the user may not open the screen, or there is no screen or object', () => {
    signedInAs(PERMISSION.visitor);
    render(
      <MemoryRouter>
        <UserLinks names="张三" />
        <DeviceLink kind="attendance" id={8} serNum="KQ-8" />
        <DeviceLink kind="jwb" id={null} serNum="JWB-1" />
        <ToiletLink id={null} name="已删除的厕所" />
        <span data-testid="none">
          <DeviceLink kind="jwb" id={2} serNum="" />
        </span>
      </MemoryRouter>,
    );
    expect(screen.queryAllByRole('link')).toHaveLength(0);
    expect(document.body.textContent).toContain('张三KQ-8JWB-1已删除的厕所');
    expect(screen.getByTestId('none').textContent).toBe('—');
  });
});

describe('a link parameter', () => {
  function Reader() {
    const [value] = useLinkedParam('toilet');
    return <output data-testid="toilet">{value ?? 'none'}</output>;
  }
  const readOn = (page: string, url: string) => {
    const { container, unmount } = render(
      <MemoryRouter initialEntries={[url]}>
        <PageRouteContext value={routeByPath(page)!}>
          <Reader />
        </PageRouteContext>
      </MemoryRouter>,
    );
    const text = within(container).getByTestId('toilet').textContent;
    unmount();
    return text;
  };

  it('is read by the page it is meant for, not by a kept-alive page shown under another route', () => {
    expect(readOn('/smart-toilet', '/smart-toilet?toilet=3')).toBe('3');
    expect(readOn('/comment', '/smart-toilet?toilet=3')).toBe('none');
  });
});

describe("the data centres' feeds", () => {
  it('link an alarm to its device and a review to its toilet', () => {
    signedInAs(DEALER | PERMISSION.dataView);
    const ov = sampleOverview();
    ov.comments = [
      {
        id: 1,
        toilet_id: 4,
        toilet_name: '西湖公厕',
        equipment_id: null,
        star_level: 2,
        content: '有异味',
        badattitude: false,
        inefficiency: false,
        poorsanitary: false,
        smelly: true,
        created_at: '2025-06-01 12:00:00',
      },
    ];
    render(
      <MemoryRouter>
        <AlarmFeed ov={ov} />
        <CommentFeed ov={ov} />
      </MemoryRouter>,
    );
    expect(hrefOf('东门网关')).toBe('/gateways?device=11');
    expect(hrefOf('西湖公厕')).toBe('/smart-toilet?toilet=4');
  });
});

const PLACE: DevicePlace = {
  toilet_id: 3,
  toilet_name: '东门公厕',
  building_id: null,
  building_name: '',
  room_id: null,
  room_number: '',
  room_name: '',
};
const terminal: DeviceRow = deviceRow({
  id: 7,
  kind: 'evaluate',
  ser_num: 'EV-7',
  owners: '张三,总部',
  place: PLACE,
  bound_users: [
    { id: 20, user_name: '张三', manageable: true },
    { id: 3, user_name: '总部', manageable: false },
  ],
});
const user = (id: number, name: string) => ({ id, user_name: name }) as UserRow;

function Where() {
  return <output data-testid="where">{useLocation().search}</output>;
}

/** The 评价器 list at `url`, as a link from elsewhere opens it. */
function openList(url: string) {
  render(
    withProviders(
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route
            path="/evaluates"
            element={
              <>
                <DeviceList kind="evaluate" />
                <Where />
              </>
            }
          />
        </Routes>
      </MemoryRouter>,
    ),
  );
}

/** The open drawer: its header (title, 分配, 编辑, close) and body. */
const drawer = () => screen.getByText('评价器 EV-7').closest<HTMLElement>('.ant-drawer-section')!;

describe('a linked device', { timeout: 20_000 }, () => {
  beforeEach(() => {
    vi.mocked(listDevices).mockResolvedValue(ok({ list: [], total: 0, page: 1, page_size: 10 }));
    vi.mocked(getDevice).mockResolvedValue(ok(terminal));
    vi.mocked(getDeviceInfo).mockResolvedValue({ code: 404, message: '无设备信息', data: null as never });
    vi.mocked(listUsers).mockResolvedValue(
      ok({ list: [user(21, '李四'), user(22, '王五')], total: 2, page: 1, page_size: 20 }),
    );
    vi.mocked(bindDevices).mockResolvedValue(ok(null));
  });

  it('opens its drawer on its list, naming its toilet and owners as links; closing drops the link', async () => {
    signedInAs(DEALER);
    openList('/evaluates?device=7');
    await waitFor(() => expect(screen.getByText('评价器 EV-7')).toBeTruthy());
    expect(getDevice).toHaveBeenCalledWith('evaluate', 7);
    const inDrawer = within(drawer());
    expect(inDrawer.getByRole('link', { name: '东门公厕' }).getAttribute('href')).toBe(
      '/smart-toilet?toilet=3',
    );
    expect(decodeURIComponent(inDrawer.getByRole('link', { name: '张三' }).getAttribute('href')!)).toBe(
      '/users?keywords=张三',
    );
    expect(
      decodeURIComponent(inDrawer.getByRole('link', { name: '查看维修记录' }).getAttribute('href')!),
    ).toBe('/maintenance-records?keywords=EV-7');
    expect(screen.getByTestId('where').textContent).toBe('?device=7');

    fireEvent.click(inDrawer.getByRole('button', { name: /close|关闭/i }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe(''));
  });

  it('is assigned to a user from its drawer with the binding call of 用户管理', async () => {
    signedInAs(DEALER);
    openList('/evaluates?device=7');
    await waitFor(() => expect(screen.getByText('评价器 EV-7')).toBeTruthy());
    fireEvent.click(within(drawer()).getByRole('button', { name: /分配/ }));
    const dialog = (await screen.findByText('分配评价器 EV-7')).closest<HTMLElement>('.ant-modal')!;
    expect(within(dialog).getByText('张三')).toBeTruthy();

    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: '分配给用户' }));
    fireEvent.click(await screen.findByTitle('王五'));
    fireEvent.click(within(dialog).getByRole('button', { name: /^分\s?配$/ }));
    await waitFor(() => expect(bindDevices).toHaveBeenCalledWith(DEVICE_KINDS.evaluate, 22, [7], []));
  });

  it('unbinds an account it is bound to from the same dialog, only one the caller manages', async () => {
    signedInAs(DEALER);
    openList('/evaluates?device=7');
    await waitFor(() => expect(screen.getByText('评价器 EV-7')).toBeTruthy());
    fireEvent.click(within(drawer()).getByRole('button', { name: /分配/ }));
    const dialog = (await screen.findByText('分配评价器 EV-7')).closest<HTMLElement>('.ant-modal')!;
    const rowOf = (name: string) => within(dialog).getByText(name).parentElement!;
    expect(within(rowOf('总部')).queryByRole('button', { name: /解\s?绑/ })).toBeNull();
    fireEvent.click(within(rowOf('张三')).getByRole('button', { name: /解\s?绑/ }));
    const confirm = (await screen.findByText('解绑用户')).closest<HTMLElement>('.ant-popover')!;
    expect(within(confirm).getByText(/张三 将不再看到 EV-7/)).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: /解\s?绑/ }));
    await waitFor(() => expect(bindDevices).toHaveBeenCalledWith(DEVICE_KINDS.evaluate, 20, [], [7]));
  });

  it('offers no 分配 to a user who manages nobody', async () => {
    signedInAs(PERMISSION.visitor);
    openList('/evaluates?device=7');
    await waitFor(() => expect(screen.getByText('评价器 EV-7')).toBeTruthy());
    expect(within(drawer()).queryByRole('button', { name: /分配/ })).toBeNull();
  });
});

/** A device list (or the players' tab) at `url`, under `path`. */
function openAt(path: string, url: string, element: React.ReactNode) {
  render(
    withProviders(
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route
            path={path}
            element={
              <>
                {element}
                <Where />
              </>
            }
          />
        </Routes>
      </MemoryRouter>,
    ),
  );
}

describe('a linked sensor or player', { timeout: 20_000 }, () => {
  beforeEach(() => {
    vi.mocked(listDevices).mockResolvedValue(ok({ list: [], total: 0, page: 1, page_size: 10 }));
    vi.mocked(getDeviceInfo).mockResolvedValue({ code: 404, message: '无设备信息', data: null as never });
  });

  it("opens the sensor's gateway on its 传感器 tab, and closing drops the link", async () => {
    signedInAs(DEALER);
    vi.mocked(getSensor).mockResolvedValue(
      ok(deviceRow({ id: 4, kind: 'sensor', ser_num: 'SN-4', gateway_id: 11 })),
    );
    vi.mocked(getDevice).mockResolvedValue(ok(deviceRow({ id: 11, kind: 'gateway', ser_num: 'GW-11' })));
    vi.mocked(listSensors).mockResolvedValue(
      ok({
        list: [deviceRow({ id: 4, kind: 'sensor', ser_num: 'SN-4', gateway_id: 11 })],
        total: 1,
        page: 1,
        page_size: 10,
      }),
    );
    openAt('/gateways', '/gateways?sensor=4', <DeviceList kind="gateway" />);
    const title = await screen.findByText('网关 GW-11');
    expect(getSensor).toHaveBeenCalledWith(4);
    expect(getDevice).toHaveBeenCalledWith('gateway', 11);
    const section = title.closest<HTMLElement>('.ant-drawer-section')!;
    expect(within(section).getByRole('tab', { name: '传感器' }).getAttribute('aria-selected')).toBe('true');
    expect(await within(section).findByText('SN-4')).toBeTruthy();
    fireEvent.click(within(section).getByRole('button', { name: /close|关闭/i }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe(''));
  });

  it("opens a player's drawer on the players' list", async () => {
    signedInAs(DEALER | PERMISSION.media);
    vi.mocked(listScreens).mockResolvedValue(ok({ list: [], total: 0, page: 1, page_size: 10 }));
    vi.mocked(getScreen).mockResolvedValue(
      ok({
        id: 9,
        kind: 'player',
        type: null,
        ser_num: 'PL-9',
        desc: '',
        location: '',
        online: true,
        time: null,
        owners: '',
        toilet_id: null,
        toilet_name: '',
        latest: {},
        manifest_id: null,
        delivery_state: null,
        delivery_progress: 0,
        delivery_error: '',
        delivery_at: null,
        now_item_id: null,
        now_item_name: '',
      }),
    );
    openAt('/advisement-players', '/advisement-players?device=9', <ScreensTab />);
    expect(await screen.findByText('播放器 PL-9')).toBeTruthy();
    expect(getScreen).toHaveBeenCalledWith(9);
  });
});
