import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';

/**
 * zxcvbn's estimate with its common-password dictionaries. Only the strength meter imports this
 * module, and only lazily: the sign-in bundle never carries the dictionaries.
 */
const zxcvbn = new ZxcvbnFactory({
  dictionary: common.dictionary,
  graphs: common.adjacencyGraphs,
});

/** 0 (very weak) to 4 (very strong); the name and e-mail typed in the form count as guessable. */
export function estimate(password: string, userInputs: string[] = []): 0 | 1 | 2 | 3 | 4 {
  return zxcvbn.check(password.slice(0, 128), userInputs).score;
}
