import type { Prefill } from '@se/core';

/**
 * The add-record form survives a reload (a technician with a weak signal): every change is
 * kept in localStorage, and a record already created whose photos have not all gone up is
 * remembered, so a retry continues it rather than reporting twice.
 */
export interface Draft {
  ser_num: string;
  subject: Prefill | null;
  equipment_type_id?: number;
  fault_type_id?: number;
  description: string;
  /** Compressed photos as data URLs. */
  photos: string[];
  /** Created already: its id, number and how many photos reached it. */
  created: { id: number; no: string; uploaded: number } | null;
}

const KEY = 'maintenance.record-draft';

export const EMPTY_DRAFT: Draft = { ser_num: '', subject: null, description: '', photos: [], created: null };

export function loadDraft(): Draft | null {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return null;
    const d = JSON.parse(raw) as Partial<Draft>;
    return { ...EMPTY_DRAFT, ...d, photos: Array.isArray(d.photos) ? d.photos : [] };
  } catch {
    return null;
  }
}

/** Saves the draft; answers false when the photos did not fit (the fields are kept then). */
export function saveDraft(d: Draft): boolean {
  try {
    localStorage.setItem(KEY, JSON.stringify(d));
    return true;
  } catch {
    try {
      localStorage.setItem(KEY, JSON.stringify({ ...d, photos: [] }));
    } catch {
      // Storage is off (private mode): the form still works, it just does not survive a reload.
    }
    return false;
  }
}

export function clearDraft() {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Nothing kept.
  }
}
