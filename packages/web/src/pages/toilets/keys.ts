/** React Query keys of the toilet screens: everything under one prefix, so a save refreshes all. */
export const toiletsKey = ['toilets'] as const;
export const toiletDetailKey = (id: number) => [...toiletsKey, 'detail', id] as const;
