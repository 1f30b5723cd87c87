import {
  DEVICE_INFO_API,
  DEVICE_KINDS,
  JWB_API,
  SENSOR_API,
  SESSION_CODES,
  type DeviceCommand,
  type DeviceInfoRow,
  type updateDeviceInfoBody,
  type DeviceKind,
  type DeviceRow,
  type JwbConfig,
  type Envelope,
  type Page,
  type ParameterSet,
  type UpdateConfigBody,
  type addDeviceBody,
  type addParameterBody,
  type addSensorBody,
  type bindListQuery,
  type bindRow,
  type commandListQuery,
  type deviceListQuery,
  type parameterListQuery,
  type sensorListQuery,
  type updateParameterBody,
  type updateDeviceBody,
} from '@se/core';
import type { z } from 'zod';
import {
  TIMEOUT_MS,
  encodeParams,
  get,
  post,
  sendRaw,
  sessionExpired,
  tokenHeaders,
  type Params,
} from './client.ts';
import type { RequestOf } from './request.ts';

// The device registry (除臭机, 评价器, 网关, 纸巾机, 电表, 水表), their sensors, the
// dispenser's config/parameters/commands and the binding calls of SPEC §7. Paths come from
// core's DEVICE_KINDS / SENSOR_API / JWB_API; nothing here spells a path twice.

export type DeviceFilter = RequestOf<typeof deviceListQuery>;

const kindOf = (kind: DeviceKind) => DEVICE_KINDS[kind];

export const listDevices = (kind: DeviceKind, filter: DeviceFilter) =>
  get<Page<DeviceRow>>(`${kindOf(kind).base}/${kindOf(kind).plural}`, { ...filter });

export const getDevice = (kind: DeviceKind, id: number) =>
  get<DeviceRow>(`${kindOf(kind).base}/get-${kindOf(kind).one}`, { id });

/** What the registration dialog sends; empty optional fields are left out by the form encoding. */
export type DeviceFields = Omit<RequestOf<typeof updateDeviceBody>, 'id' | 'is_delete'>;

export const addDevice = (kind: DeviceKind, body: RequestOf<typeof addDeviceBody>) =>
  post<DeviceRow>(`${kindOf(kind).base}/add-${kindOf(kind).one}`, { ...body });

export const updateDevice = (kind: DeviceKind, body: RequestOf<typeof updateDeviceBody>) =>
  post<DeviceRow>(`${kindOf(kind).base}/update-${kindOf(kind).one}`, { ...body });

export const deleteDevice = (kind: DeviceKind, id: number) => updateDevice(kind, { id, is_delete: true });

/** Undoes a delete: the device's managers only (docs/permissions.md). */
export const restoreDevice = (kind: DeviceKind, id: number) => updateDevice(kind, { id, is_delete: false });

// ---- binding (SPEC §7): the same pair of calls for every kind, toilets included ----

export type BindRow = z.infer<typeof bindRow>;

export type BindListFilter = RequestOf<typeof bindListQuery>;

/** A binding endpoint pair: a device kind's or TOILET_API's. */
export interface BindPaths {
  bindList: string;
  bind: string;
}

export const listBindable = (paths: BindPaths, filter: BindListFilter) =>
  get<Page<BindRow>>(paths.bindList, { ...filter });

/** SPEC §4: additions and removals go together in one call, all or nothing. */
export const bindDevices = (paths: BindPaths, userId: number, addIds: number[], removeIds: number[]) =>
  post<unknown>(paths.bind, {
    user_id: userId,
    // Comma lists keep one key per field; an empty list is sent empty, not left out.
    add_ids: addIds.join(','),
    remove_ids: removeIds.join(','),
  });

// ---- sensors of a gateway ----

export const listSensors = (filter: RequestOf<typeof sensorListQuery>) =>
  get<Page<DeviceRow>>(SENSOR_API.list, { ...filter });

export const getSensor = (id: number) => get<DeviceRow>(SENSOR_API.get, { id });

export const addSensor = (body: RequestOf<typeof addSensorBody>) => post<DeviceRow>(SENSOR_API.add, body);

export const updateSensor = (body: { id: number; is_delete?: boolean; desc?: string; location?: string }) =>
  post<DeviceRow>(SENSOR_API.update, body);

// ---- jwb (the odour dispenser): config, parameter sets and commands ----

export const getJwbConfig = (id: number) => get<JwbConfig>(JWB_API.getConfig, { id });

/** Saves the config and queues it for the device (a 'config' command). */
export const updateJwbConfig = (body: UpdateConfigBody) => post<JwbConfig>(JWB_API.updateConfig, { ...body });

export const listParameterSets = (filter: RequestOf<typeof parameterListQuery>) =>
  get<Page<ParameterSet>>(JWB_API.parameters, { ...filter });

export type ParameterSetFields = RequestOf<typeof addParameterBody>;

export const addParameterSet = (body: ParameterSetFields) =>
  post<ParameterSet>(JWB_API.addParameter, { ...body });

export const updateParameterSet = (body: RequestOf<typeof updateParameterBody>) =>
  post<ParameterSet>(JWB_API.updateParameter, { ...body });

export const applyParameterSet = (jwbId: number, parameterNum: number) =>
  post<DeviceRow>(JWB_API.applyParameter, { id: jwbId, parameter_num: parameterNum });

export const cacheOperation = (jwbId: number, op: number) =>
  post<{ command_id: number }>(JWB_API.cacheOperation, { id: jwbId, op });

export const sensorOperation = (gatewayId: number, op: number, serNum?: string) =>
  post<{ command_id: number }>(JWB_API.sensorOperation, { id: gatewayId, op, ser_num: serNum });

export const listCommands = (filter: RequestOf<typeof commandListQuery>) =>
  get<Page<DeviceCommand>>(JWB_API.commands, { ...filter });

// ---- import / export (files, not envelopes) ----

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface ImportRowError {
  row: number;
  field: string;
  message: string;
}

export interface ImportResult {
  imported: number;
  total_rows: number;
  errors: ImportRowError[];
}

/** `all`: nothing is imported when a row is bad; `valid`: the good rows are, the bad reported. */
export type ImportMode = 'all' | 'valid';

export const exportPath = (kind: DeviceKind) => `${kindOf(kind).base}/export-${kindOf(kind).plural}`;
export const templatePath = (kind: DeviceKind) => `${kindOf(kind).base}/import-template-${kindOf(kind).one}`;
export const importPath = (kind: DeviceKind) => `${kindOf(kind).base}/import-${kindOf(kind).plural}`;

/** A session code on a file call signs out and goes to /login as for any other call. */
function reportSessionCode(code: number, message: string): void {
  if (SESSION_CODES.includes(code)) sessionExpired(message);
}

/** The file name of a Content-Disposition header (RFC 5987 `filename*` first). */
export function fileNameOf(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // Fall through to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(disposition);
  return plain?.[1]?.trim() || fallback;
}

export type FileOutcome = { ok: true; name: string } | { ok: false; message: string };

/**
 * Downloads a file the API produces and saves it. A plain <a href> cannot carry the token
 * headers, so the file comes through fetch and is handed to the browser as a blob. The
 * server answers refusals with its usual JSON envelope instead of a file.
 */
export async function downloadFile(path: string, query: Params, fallbackName: string): Promise<FileOutcome> {
  const qs = encodeParams(query).toString();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  let response: Response;
  let blob: Blob;
  try {
    response = await fetch(`${path}${qs ? `?${qs}` : ''}`, {
      headers: tokenHeaders(),
      signal: controller.signal,
    });
    blob = await response.blob();
  } catch {
    return {
      ok: false,
      message: controller.signal.aborted ? `timeout of ${TIMEOUT_MS}ms exceeded` : 'Network Error',
    };
  } finally {
    clearTimeout(timer);
  }
  if ((response.headers.get('Content-Type') ?? '').includes('application/json')) {
    try {
      const envelope = JSON.parse(await blob.text()) as Envelope;
      reportSessionCode(envelope.code, envelope.message);
      return { ok: false, message: envelope.message || '导出失败' };
    } catch {
      return { ok: false, message: '服务器返回的数据无法识别' };
    }
  }
  if (!response.ok) return { ok: false, message: `Request failed with status code ${response.status}` };
  const name = fileNameOf(response.headers.get('Content-Disposition'), fallbackName);
  saveBlob(blob, name);
  return { ok: true, name };
}

export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Some browsers start the download after the click returns; give them a moment.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The Content-Type the import call expects for a picked file. */
export function importContentType(file: File): string {
  return /\.csv$/i.test(file.name) || file.type === 'text/csv' ? 'text/csv' : XLSX_TYPE;
}

/**
 * Sends a spreadsheet to the import call as the raw body. XMLHttpRequest rather than
 * fetch: only it reports upload progress. Resolves with the envelope (a 400 carries the
 * row errors); rejects with ApiError when no envelope came back.
 */
export function uploadImport(
  kind: DeviceKind,
  file: File,
  mode: ImportMode,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<Envelope<ImportResult | null>> {
  return uploadSheet(importPath(kind), file, mode, onProgress, signal);
}

/** The same upload to any import call of the same shape (employees, …). */
export function uploadSheet(
  path: string,
  file: File,
  mode: ImportMode,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<Envelope<ImportResult | null>> {
  return sendRaw<ImportResult | null>(
    `${path}?mode=${mode}`,
    file,
    importContentType(file),
    (loaded, total) => onProgress(Math.round((loaded / total) * 100)),
    signal,
  );
}

/** 设备信息 (SPEC §3 device info): communication number, versions, IMEI, SIM, MAC. */
export const getDeviceInfo = (id: number) => get<DeviceInfoRow>(DEVICE_INFO_API.get, { id });

export const updateDeviceInfo = (body: RequestOf<typeof updateDeviceInfoBody>) =>
  post<DeviceInfoRow>(DEVICE_INFO_API.update, body);
