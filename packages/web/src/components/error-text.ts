/** What a failed call says to the user: the client's SPEC §8 text, or 网络错误. */
export const errorText = (error: unknown): string =>
  error instanceof Error && error.message ? error.message : '网络错误';
