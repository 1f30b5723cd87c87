import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The "SQL only in repositories" rule is the lint's: plant SQL in a service and in a
// repository and check which one `npm run check` would refuse.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const eslint = new ESLint({ cwd: root });

async function sqlErrors(file: string, code: string) {
  const [r] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return r!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.line);
}

const PLANT = `import type { Db } from '../../db/index.ts';
import { first } from '../../db/index.ts';
export const a = (db: Db) => db.query('select 1');
export const b = (db: Db) => first(db, \`  Delete FROM users WHERE id = 1\`);
export const c = \`UPDATE devices d SET x = 1\`;
export const d = 'WITH x AS (SELECT 1) SELECT * FROM x';
export const e = (x: { exec(s: string): void }) => x.exec('BEGIN');
export const f = 'insert into users (id) values (1)';
export const ok1 = 'Update failed, please select a device';
export const ok2 = /^(\\d+)$/.exec('12');
export const ok3 = \`Selected \${a.length} devices\`;
`;

describe('SQL outside repositories fails the lint', () => {
  it('flags every statement, query call, exec with text and first() import outside a repository', async () => {
    const lines = await sqlErrors('packages/server/src/modules/site/service.ts', PLANT);
    expect([...new Set(lines)]).toEqual([2, 3, 4, 5, 6, 7, 8]);
    const [r] = await eslint.lintText(PLANT, {
      filePath: path.join(root, 'packages/server/src/modules/site/service.ts'),
    });
    expect(r!.messages[0]!.message).toMatch(
      /SQL belongs in a repository: move the statement into the area's repo\.ts/,
    );
  }, 30_000);

  it('lets repositories, db/ and tests hold SQL', async () => {
    for (const file of [
      'packages/server/src/modules/site/repo.ts',
      'packages/server/src/ingest/pipeline-repo.ts',
      'packages/server/src/db/locks.ts',
      'packages/server/src/modules/site/site.test.ts',
    ]) {
      expect(await sqlErrors(file, PLANT), file).toEqual([]);
    }
  }, 30_000);
});

// The "no import cycles" rule is the lint's too: make the reviews repository import its own
// service (which imports the repository) and check the lint refuses it, types aside.
describe('import cycles fail the lint', () => {
  const file = path.join(root, 'packages/server/src/modules/comments/repo.ts');
  const cycles = async (code: string) => {
    const [r] = await eslint.lintText(code, { filePath: file });
    return r!.messages.filter((m) => m.ruleId === 'import-x/no-cycle').map((m) => m.line);
  };

  it('flags an import that closes a cycle', async () => {
    expect(await cycles(`import { list } from './service.ts';\nexport const x = list;\n`)).toEqual([1]);
  }, 30_000);

  it('lets a type-only import through (erased at build time)', async () => {
    expect(await cycles(`import type { list } from './service.ts';\nexport type X = typeof list;\n`)).toEqual(
      [],
    );
  }, 30_000);
});
