import { vi } from 'vitest';

/**
 * For a `vi.mock` factory: the real module with the functions `names` replaced by bare
 * `vi.fn()` stubs (its constants and other functions stay real). Import it through
 * `vi.hoisted`, since `vi.mock` runs before the test file's imports.
 */
export async function withStubs<M extends object>(
  original: () => Promise<M>,
  names: (keyof M)[],
): Promise<M> {
  const real = await original();
  return { ...real, ...Object.fromEntries(names.map((name) => [name, vi.fn()])) };
}
