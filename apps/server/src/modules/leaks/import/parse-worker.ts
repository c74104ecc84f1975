/** Worker-thread entry of the import's parse pool (./parse-pool.ts): runs one ParseTask. */
import { type ParseResult, type ParseTask, runParseTask } from './parse-task.ts';

export default function parse(task: ParseTask): Promise<ParseResult> {
  return runParseTask(task);
}
