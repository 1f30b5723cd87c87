import { canAccess, type DeviceKind } from '@se/core';
import { useContext } from 'react';
import { matchPath, useLocation, useSearchParams } from 'react-router';
import { routeByName, type AppRoute } from '../navigation/names.ts';
import { PageRouteContext } from '../navigation/page-route.ts';
import { useSession } from '../session/store.ts';

/*
 * Where each kind of object is shown (issue 19 "everything links to what it names"): the
 * list route of its screen and the URL parameter that opens its drawer there. The link
 * components (ObjectLinks.tsx) build these; the screens read the parameter with
 * useLinkedParam().
 */

/** URL parameter that opens a toilet's detail drawer on /smart-toilet. */
export const TOILET_PARAM = 'toilet';
/** URL parameter that opens a device's drawer on its kind's list (the device's id). */
export const DEVICE_PARAM = 'device';

/** URL parameter that opens a sensor's gateway on its 传感器 tab, on /gateways (the sensor's id). */
export const SENSOR_PARAM = 'sensor';

/**
 * The list route of each device kind (by route name, see routes.tsx) and the parameter there
 * that opens its drawer: the attendance terminals' list shares /ci-device with the punches
 * (its parameters start `dev_`), and a sensor shows in its gateway's drawer.
 */
const DEVICE_ROUTE: Record<DeviceKind | 'sensor', [route: string, param: string]> = {
  jwb: ['Equipments', DEVICE_PARAM],
  evaluate: ['Evaluates', DEVICE_PARAM],
  gateway: ['Gateways', DEVICE_PARAM],
  electric_meter: ['ElectricMeters', DEVICE_PARAM],
  water_meter: ['WaterMeters', DEVICE_PARAM],
  paper_machine: ['PaperMachines', DEVICE_PARAM],
  attendance: ['CiDevice', `dev_${DEVICE_PARAM}`],
  player: ['AdvisementPlayers', DEVICE_PARAM],
  sensor: ['Gateways', SENSOR_PARAM],
};

/** Where a link leads, and the route it opens (whose permission decides whether it is a link). */
export interface LinkTarget {
  to: string;
  route: AppRoute;
}

const target = (routeName: string, query: Record<string, string>): LinkTarget | null => {
  const route = routeByName(routeName);
  return route ? { to: `${route.path}?${new URLSearchParams(query).toString()}`, route } : null;
};

/** The device's drawer on its kind's list, or null for an unknown kind. */
export function deviceTarget(kind: string, id: number): LinkTarget | null {
  const known = Object.hasOwn(DEVICE_ROUTE, kind) ? DEVICE_ROUTE[kind as DeviceKind] : undefined;
  return known ? target(known[0], { [known[1]]: String(id) }) : null;
}

/** The toilet's detail drawer on /smart-toilet. */
export const toiletTarget = (id: number) => target('Toilets', { [TOILET_PARAM]: String(id) });

/** The reviews of one toilet on /comment (its filter keeps `id:name`, see ToiletPicker). */
export const toiletReviewsTarget = (id: number, name: string) =>
  target('Comment', { toilet: `${id}:${name}` });

/** A user on /users, found by name. */
export const userTarget = (name: string) => target('Users', { keywords: name });

/** The repair records of a device: its history of faults and repairs. */
export const deviceRecordsTarget = (serNum: string) => target('MaintenanceRecords', { keywords: serNum });

/** A campus room on /ss-room (its building's rooms, found by number), or a building's rooms. */
export const roomTarget = (buildingId: number, roomNumber?: string) =>
  target('SsRoom', { building_id: String(buildingId), ...(roomNumber ? { keywords: roomNumber } : {}) });

/**
 * Whether the signed-in user may open a target's route; while the permission is not known
 * the link is shown and the server decides.
 */
export function useMayOpen(): (t: LinkTarget | null) => t is LinkTarget {
  const isLogin = useSession((s) => s.isLogin);
  const permission = useSession((s) => s.permission);
  return (t): t is LinkTarget => t !== null && (!isLogin || canAccess(permission, t.route.permission));
}

/**
 * A parameter of the page's URL that names an object to open (a link's target), while this
 * page is the one shown (a kept-alive page does not react to another route's URL), and a
 * way to drop it once its drawer is closed.
 */
export function useLinkedParam(name: string): [string | null, () => void] {
  const route = useContext(PageRouteContext);
  const { pathname } = useLocation();
  const [params, setParams] = useSearchParams();
  const shown = !route || matchPath(route.path, pathname) !== null;
  const value = shown ? params.get(name) : null;
  // Reads the address as it is when called, so a callback kept from an older render clears
  // no more than `name`.
  const clear = () =>
    setParams(
      (prev) => {
        if (!prev.has(name)) return prev;
        const next = new URLSearchParams(prev);
        next.delete(name);
        return next;
      },
      { replace: true },
    );
  return [value, clear];
}

/** A positive integer id from a URL parameter, or null. */
export const idParam = (text: string | null): number | null => {
  const n = Number(text);
  return text !== null && Number.isInteger(n) && n > 0 ? n : null;
};
