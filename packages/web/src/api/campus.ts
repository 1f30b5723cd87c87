import {
  CAMPUS_API,
  type BuildingRow,
  type CampusDataCenter,
  type Page,
  type PageQuery,
  type PlaceableDevice,
  type PlacedDevice,
  type RoomRow,
  type addBuildingBody,
  type addRoomBody,
  type buildingListQuery,
  type placeDeviceBody,
  type roomListQuery,
  type updateBuildingBody,
  type updateRoomBody,
} from '@se/core';
import { get, post } from './client.ts';
import type { RequestOf } from './request.ts';
import { storedImageUrl, uploadImage } from './stored-image.ts';

// Smart campus: /smart-org, /ss-building, /ss-room, /ss-data-center.

export type BuildingQuery = RequestOf<typeof buildingListQuery>;
export const listBuildings = (q: Partial<BuildingQuery> & Partial<PageQuery>) =>
  get<Page<BuildingRow>>(CAMPUS_API.buildings, { ...q });
export const addBuilding = (b: RequestOf<typeof addBuildingBody>) =>
  post<BuildingRow>(CAMPUS_API.addBuilding, { ...b });
export const updateBuilding = (b: RequestOf<typeof updateBuildingBody>) =>
  post<BuildingRow | { id: number }>(CAMPUS_API.updateBuilding, { ...b });

export type RoomQuery = RequestOf<typeof roomListQuery>;
export const listRooms = (q: Partial<RoomQuery> & Partial<PageQuery>) =>
  get<Page<RoomRow>>(CAMPUS_API.rooms, { ...q });
export const addRoom = (r: RequestOf<typeof addRoomBody>) => post<RoomRow>(CAMPUS_API.addRoom, { ...r });
export const updateRoom = (r: RequestOf<typeof updateRoomBody>) =>
  post<RoomRow | { id: number }>(CAMPUS_API.updateRoom, { ...r });

export const listPlacements = (at: { building_id?: number; room_id?: number }) =>
  get<PlacedDevice[]>(CAMPUS_API.placements, { ...at });
export const listPlaceable = (keywords?: string) =>
  get<PlaceableDevice[]>(CAMPUS_API.placeable, { keywords });
export const placeDevice = (b: RequestOf<typeof placeDeviceBody>) =>
  post<PlacedDevice[]>(CAMPUS_API.place, { ...b });
export const unplaceDevice = (device_id: number) =>
  post<{ device_id: number }>(CAMPUS_API.unplace, { device_id });

export const getCampusDataCenter = () => get<CampusDataCenter>(CAMPUS_API.dataCenter);

/** Sends a picked photo of building `id`; the server checks and re-encodes it. */
export const uploadBuildingPhoto = (id: number, file: File) =>
  uploadImage<BuildingRow>(`${CAMPUS_API.uploadBuildingPhoto}?id=${id}`, file);

/** The building's photo as an object URL; null when there is none. The caller revokes it. */
export const buildingPhotoUrl = (id: number, key: string) =>
  storedImageUrl(`${CAMPUS_API.buildingPhoto}?id=${id}&v=${encodeURIComponent(key)}`);
