import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// `npm run typecheck` is `tsc -b`: it rebuilds a project only when one of its own inputs changed, so a
// workspace that imports the domain package without a project reference to it is reported "up to date"
// after a change in the domain that breaks it. Every importer must therefore reference the domain.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

function sourceFiles(dir: string): string[] {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(dir);
  } catch {
    return [];
  }
  if (stat.isFile()) return /\.(ts|tsx)$/.test(dir) ? [dir] : [];
  return readdirSync(dir).flatMap((name) =>
    name === 'node_modules' || name === 'dist' ? [] : sourceFiles(join(dir, name)),
  );
}

const workspaces = (readJson(join(root, 'package.json')).workspaces as string[]).filter(
  (path) => path !== 'packages/domain',
);

describe('project references', () => {
  it('the root build names every workspace', () => {
    const refs = (readJson(join(root, 'tsconfig.json')).references as { path: string }[]).map((r) => r.path);
    expect(refs.sort()).toEqual(['packages/domain', ...workspaces].sort());
  });

  const config = (workspace: string) => readJson(join(root, workspace, 'tsconfig.json'));
  const importers = workspaces.filter((workspace) =>
    (config(workspace).include as string[])
      .flatMap((entry) => sourceFiles(join(root, workspace, entry)))
      .some((file) => readFileSync(file, 'utf8').includes("from '@footprint/domain'")),
  );

  it('finds the importers', () => {
    expect(importers).toEqual(expect.arrayContaining(['apps/server', 'apps/web']));
  });

  it.each(importers)('%s references packages/domain', (workspace) => {
    const references = ((config(workspace).references as { path: string }[] | undefined) ?? []).map((r) =>
      resolve(root, workspace, r.path),
    );
    expect(references).toContain(join(root, 'packages/domain'));
  });
});
