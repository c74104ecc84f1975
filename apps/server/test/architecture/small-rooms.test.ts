// No function in the server's modules is longer than MAX_LINES: a capability is a set of functions that
// can be imported and tested alone, and a `createX(deps)` only binds them. A closure that grows past the
// limit fails here, with its place, rather than growing back into a room nobody can follow.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const MAX_LINES = 150;
const modules = fileURLToPath(new URL('../../src/modules', import.meta.url));

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [path] : [];
  });

/** Every function, arrow function and method longer than `max` lines, as 'file:line name (lines)'. */
function longFunctions(paths: string[], max: number): string[] {
  const found: string[] = [];
  for (const path of paths) {
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (
        ts.isFunctionDeclaration(node) ||
        ts.isFunctionExpression(node) ||
        ts.isArrowFunction(node) ||
        ts.isMethodDeclaration(node)
      ) {
        const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
        const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        if (last - first + 1 > max) {
          const name =
            node.name?.getText() ??
            (ts.isVariableDeclaration(node.parent) ? node.parent.name.getText() : '(anonymous)');
          found.push(`${path.slice(modules.length + 1)}:${first + 1} ${name} (${last - first + 1} lines)`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe('small rooms', () => {
  it(`no function in apps/server/src/modules is over ${MAX_LINES} lines`, () => {
    expect(longFunctions(files(modules), MAX_LINES)).toEqual([]);
  });

  it('finds a long function (the check can fail)', () => {
    // The PDF layout engine has functions over 40 lines: the same check with that limit names them.
    const layout = join(modules, 'reports', 'render', 'layout.ts');
    expect(longFunctions([layout], 40).length).toBeGreaterThan(0);
  });
});
