/** React Query keys of the campus screens; invalidating `campusKey` reloads them all. */
export const campusKey = ['campus'] as const;
export const buildingsKey = [...campusKey, 'buildings'] as const;
export const roomsKey = [...campusKey, 'rooms'] as const;
