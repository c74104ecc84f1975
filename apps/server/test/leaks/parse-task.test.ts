// The parse task's in-memory JSONL block (the sandbox loader's input) gives what the same lines give.
import { describe, expect, it } from 'vitest';
import { type ParseTask, runParseTask } from '../../src/modules/leaks/import/parse-task.ts';

const lines = [
  { line: 3, text: JSON.stringify({ full_name: 'Asha Rao', email: 'asha@example.test', city: 'Pune' }) },
  { line: 9, text: JSON.stringify({ full_name: 'No Contact' }) },
  { line: 10, text: '{not json' },
  { line: 42, text: JSON.stringify({ username: 'rohand90', mobile: '+91 98765 43210', password: 'x' }) },
];
const base: ParseTask = {
  format: 'jsonl',
  sourceName: 'Block Test',
  mapping: undefined,
  delimiter: ',',
  wantRejects: true,
};

describe('parse task, JSONL block', () => {
  it('builds the same COPY rows, rejects and line range as the same lines one by one', async () => {
    const one = await runParseTask({ ...base, lines });
    const block = await runParseTask({
      ...base,
      block: { text: lines.map((l) => l.text).join('\n'), lines: Uint32Array.from(lines.map((l) => l.line)) },
    });
    expect(one.accepted).toBe(3);
    expect(one.rejected).toBe(1);
    // `dropped` names a secret column once per thread and source (the first task here reported it).
    expect(one.dropped).toEqual(['password']);
    expect({ ...block, copy: Buffer.from(block.copy), dropped: [] }).toEqual({
      ...one,
      copy: Buffer.from(one.copy),
      dropped: [],
    });
    expect([block.firstLine, block.lastLine]).toEqual([3, 42]);
  });

  it('skips the rows of committed line ranges', async () => {
    const block = await runParseTask({
      ...base,
      block: { text: lines.map((l) => l.text).join('\n'), lines: Uint32Array.from(lines.map((l) => l.line)) },
      skip: [[40, 50]],
    });
    expect(block).toMatchObject({ accepted: 2, skipped: 1 });
  });
});
