import type { DevicePlace } from '@se/core';
import { Fragment, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  deviceRecordsTarget,
  deviceTarget,
  roomTarget,
  toiletReviewsTarget,
  toiletTarget,
  useMayOpen,
  userTarget,
  type LinkTarget,
} from './object-links.ts';

// One link per kind of object (issue 19): wherever a screen names a device, a toilet, a
// user or a room, it names it with one of these. A user who may not open the target's
// screen sees the plain text; a missing object reads —.

function ObjectLink({
  target,
  title,
  children,
}: {
  target: LinkTarget | null;
  title: string;
  children: ReactNode;
}) {
  const mayOpen = useMayOpen();
  if (!mayOpen(target)) return <>{children}</>;
  return (
    <Link to={target.to} title={title}>
      {children}
    </Link>
  );
}

/** A device by its serial number, opening its drawer on its kind's list. */
export function DeviceLink({
  kind,
  id,
  serNum,
  children,
}: {
  kind: string;
  id: number | null;
  serNum: string;
  children?: ReactNode;
}) {
  if (!serNum && !children) return <>—</>;
  return (
    <ObjectLink target={id === null ? null : deviceTarget(kind, id)} title={`查看设备 ${serNum}`}>
      {children ?? serNum}
    </ObjectLink>
  );
}

/** A toilet by its name, opening its detail drawer. */
export function ToiletLink({
  id,
  name,
  children,
}: {
  id: number | null;
  name: string;
  children?: ReactNode;
}) {
  if (!name && !children) return <>—</>;
  return (
    <ObjectLink target={id === null ? null : toiletTarget(id)} title={`查看厕所 ${name}`}>
      {children ?? name}
    </ObjectLink>
  );
}

/** Opens a toilet's detail from where a link cannot be an element (a chart's bar); nothing without one. */
export function useOpenToilet(): (id: number | undefined) => void {
  const navigate = useNavigate();
  const mayOpen = useMayOpen();
  return (id) => {
    const target = id === undefined ? null : toiletTarget(id);
    if (mayOpen(target)) void navigate(target.to);
  };
}

/** A toilet's reviews on /comment. */
export function ToiletReviewsLink({ id, name, children }: { id: number; name: string; children: ReactNode }) {
  return (
    <ObjectLink target={toiletReviewsTarget(id, name)} title={`查看 ${name} 的全部评价`}>
      {children}
    </ObjectLink>
  );
}

/** Users by name (a list such as a device's 绑定用户 `张三,李四`), each opening /users on them. */
export function UserLinks({ names }: { names: string }) {
  const list = names
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  if (!list.length) return <>—</>;
  return (
    <>
      {list.map((name, i) => (
        <Fragment key={name}>
          {i > 0 && '、'}
          <ObjectLink target={userTarget(name)} title={`查看用户 ${name}`}>
            {name}
          </ObjectLink>
        </Fragment>
      ))}
    </>
  );
}

/** A device's repair history on 维修记录. */
export function DeviceRecordsLink({ serNum, children }: { serNum: string; children: ReactNode }) {
  return (
    <ObjectLink target={deviceRecordsTarget(serNum)} title={`查看 ${serNum} 的维修记录`}>
      {children}
    </ObjectLink>
  );
}

/** Where a device is on a campus: its room (or building), found on 房间管理. */
export function PlaceLink({ place }: { place: DevicePlace }) {
  if (place.building_id === null) return <>—</>;
  const room = [place.room_number, place.room_name].filter(Boolean).join(' ');
  const text = [place.building_name, room].filter(Boolean).join(' · ');
  return (
    <ObjectLink target={roomTarget(place.building_id, place.room_number)} title={`查看 ${text}`}>
      {text}
    </ObjectLink>
  );
}
