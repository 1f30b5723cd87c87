import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// API paths come from the *_API constants in @se/core, which the server registers its routes
// with: a typo then fails the build instead of answering 404 at run time. Tests may still
// spell a path out, since the wire path is what they check.
const SRC = resolve(import.meta.dirname, '..');
const LITERAL_PATH = /['"`]\/api\/v1\//;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

describe('API paths in the web', () => {
  it('are never string literals outside tests', () => {
    const files = sourceFiles(SRC);
    expect(files.map((f) => relative(SRC, f))).toContain(join('api', 'auth.ts'));
    const offenders = files.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          LITERAL_PATH.test(line) ? [`${relative(SRC, f)}:${i + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(offenders).toEqual([]);
  });

  it('recognises a literal path in any quote', () => {
    for (const q of ["'", '"', '`']) expect(LITERAL_PATH.test(`get(${q}/api/v1/site${q})`)).toBe(true);
    expect(LITERAL_PATH.test('get(SITE_API.info)')).toBe(false);
  });
});
