import { COMMENT_FLAG_KEYS, PUBLIC_TOILET_ID, type CommentFlag } from '@se/core';

// The review page's pieces that are not markup: the visitor id and the form's state.

export const VISITOR_KEY = 'comment_visitor_id';

function randomId(): string {
  const bytes = new Uint8Array(16);
  if (globalThis.crypto?.getRandomValues) globalThis.crypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

let memoryId: string | undefined;

/**
 * The random id this browser sends with its reviews (the per-visitor limit counts it).
 * Kept in localStorage; where storage is blocked (some in-app browsers' private modes) it
 * lives as long as the page.
 */
export function visitorId(): string {
  try {
    const kept = localStorage.getItem(VISITOR_KEY);
    if (kept && /^[A-Za-z0-9_-]{8,64}$/.test(kept)) return kept;
    const fresh = randomId();
    localStorage.setItem(VISITOR_KEY, fresh);
    return fresh;
  } catch {
    memoryId ??= randomId();
    return memoryId;
  }
}

/**
 * `toilet_id` of the QR code's link: the toilet's public id, or null when it is missing or
 * not one (an old printed code with the internal number is refused by the server anyway).
 */
export function toiletIdOf(search: string): string | null {
  const raw = new URLSearchParams(search).get('toilet_id')?.trim() ?? '';
  return PUBLIC_TOILET_ID.test(raw) ? raw : null;
}

export interface ReviewDraft {
  stars: number;
  flags: Record<CommentFlag, boolean>;
  content: string;
  sex: 0 | 1 | 2;
}

/** A new review starts at 5 stars (SPEC §3 Comment `star_level (5)`). */
export const EMPTY_DRAFT: ReviewDraft = {
  stars: 5,
  flags: Object.fromEntries(COMMENT_FLAG_KEYS.map((k) => [k, false])) as Record<CommentFlag, boolean>,
  content: '',
  sex: 0,
};
