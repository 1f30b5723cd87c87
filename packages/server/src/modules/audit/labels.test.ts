import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from '@se/core';

// The audit log shows each entry's action by its Chinese label; an action written by the
// server without one would show its code to the user.
describe('audit action labels', () => {
  it('has a Chinese label for every action the server records', () => {
    const root = path.resolve(import.meta.dirname, '..');
    const actions = new Set<string>();
    for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
      const text = fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
      // An owned() area names its prefix; the service records <prefix>.add/.update/.delete.
      const suffixes = text.includes('owned(') ? ['.add', '.update', '.delete'] : [''];
      for (const m of text.matchAll(/action:\s*([^,\n]+),/g)) {
        for (const q of m[1]!.matchAll(/'([a-z_]+(?:\.[a-z_]+)+)'/g))
          for (const s of q[1]! in AUDIT_ACTIONS ? [''] : suffixes) actions.add(q[1]! + s);
        // `area.thing.${cond ? 'delete' : 'update'}`: each literal in the braces is a last segment.
        for (const q of m[1]!.matchAll(/`([a-z_]+(?:\.[a-z_]+)+)\.\$\{([^}]*)\}`/g))
          for (const s of q[2]!.matchAll(/'([a-z_]+)'/g)) actions.add(`${q[1]!}.${s[1]!}`);
      }
    }
    expect(actions.size).toBeGreaterThan(20);
    expect([...actions].filter((a) => !(a in AUDIT_ACTIONS))).toEqual([]);
  });
});
