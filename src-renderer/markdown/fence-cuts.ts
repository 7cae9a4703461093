import HighlightJs from 'highlight.js/lib/core';
import type { HLJSApi } from 'highlight.js';
import { common } from 'lowlight';
import type { FenceCutCheck } from '../../src-shared/markdown/open-block';

/**
 * The grammars rehype-highlight highlights with (lowlight's `common` set), in an instance of our own: lowlight keeps
 * its highlight.js instance to itself and returns only the tree, not the state the highlighter ended in.
 */
let highlighter: HLJSApi | null = null;

function sameGrammars(): HLJSApi {
  if (highlighter === null) {
    highlighter = HighlightJs.newInstance();
    for (const [name, grammar] of Object.entries(common)) highlighter.registerLanguage(name, grammar);
  }
  return highlighter;
}

/** Builds the instance now (registering its grammars takes 15 to 35 ms), so the first fence of a reply does not. */
export function prepareFenceCuts(): void {
  sameGrammars();
}

/**
 * Cut decisions already made, by language and then code, so a piece's end is highlighted once however often the
 * block renders again.
 */
const decisions = new Map<string, Map<string, boolean>>();
let decisionCount = 0;
const MAX_DECISIONS = 4_096;

/**
 * A fence's code may end a piece after `code` when highlighting it from the start of the language ends with nothing
 * open (no comment, string or other mode spans the cut): the next piece, highlighted on its own from the start, then
 * gets exactly the spans it gets inside the whole block. Code in a language the highlighter does not know is not
 * highlighted, so it may be cut anywhere.
 */
export const fenceCutAfter: FenceCutCheck = (language, code) => {
  const grammar = language === '' ? undefined : sameGrammars().getLanguage(language);
  if (grammar === undefined) return true;
  const known = decisions.get(language)?.get(code);
  if (known !== undefined) return known;
  // The whole block has a line break after the piece: a line comment, for one, ends there.
  const result = sameGrammars().highlight(`${code}\n`, { language, ignoreIllegals: true });
  const nothingOpen = result._top === grammar;
  if (decisionCount >= MAX_DECISIONS) {
    decisions.clear();
    decisionCount = 0;
  }
  const byCode = decisions.get(language) ?? new Map<string, boolean>();
  decisions.set(language, byCode.set(code, nothingOpen));
  decisionCount += 1;
  return nothingOpen;
};
