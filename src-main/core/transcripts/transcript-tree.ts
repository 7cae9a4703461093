/**
 * The tree a transcript describes, read one way for import, Markdown and HTML alike: a message follows the message its
 * `parent_id` names, earlier in the file, or without one the message before it in the file; a summary follows nothing.
 * Messages that follow the same message (or that all begin the conversation) are alternatives, in file order, which
 * is the order they were written and the order the window pages them in. Pure: positions in the file, never the
 * database.
 */
import type { TranscriptMessage, TranscriptV1 } from '../../../src-shared/transcript';
import { IdPlaces } from './unique-ids';

export interface TranscriptTree {
  /** By position in the file: the position of the message each follows, null for a first message and every summary. */
  readonly parents: readonly (number | null)[];
  /** The position of the current leaf: `current_leaf_id`, else the last message that is not a summary; null for none. */
  readonly leaf: number | null;
}

/** Why a file's branches cannot be followed: where (`messages[3].parent_id`) and what is wrong there. */
export interface TreeIssue {
  readonly path: string;
  readonly problem: string;
}

/**
 * The tree of a transcript, or the first place its `parent_id` or `current_leaf_id` names what it may not, or the
 * first message whose id an earlier one has (a link by that id could mean either).
 */
export function transcriptTree(transcript: TranscriptV1): TranscriptTree | TreeIssue {
  const parents: (number | null)[] = [];
  const positionOf = new Map<string, number>();
  const idPlaces = new IdPlaces();
  let previous: number | null = null;
  for (const [position, message] of transcript.messages.entries()) {
    const repeated = idPlaces.claim(message.id, `messages[${position}].id`);
    if (repeated !== null) return { path: `messages[${position}].id`, problem: repeated };
    const named = message.parent_id;
    if (message.kind === 'summary') {
      if (named !== undefined && named !== null) return { path: `messages[${position}].parent_id`, problem: 'a summary follows no message' };
      parents.push(null);
    } else if (named === undefined) {
      parents.push(previous);
    } else if (named === null) {
      parents.push(null);
    } else {
      const parent = positionOf.get(named);
      if (parent === undefined) return { path: `messages[${position}].parent_id`, problem: 'it names no message before this one' };
      if (transcript.messages[parent]!.kind === 'summary') {
        return { path: `messages[${position}].parent_id`, problem: 'it names a summary, and no message follows a summary' };
      }
      parents.push(parent);
    }
    positionOf.set(message.id, position);
    if (message.kind !== 'summary') previous = position;
  }
  const leafId = transcript.conversation.current_leaf_id;
  if (leafId === undefined || leafId === null) return { parents, leaf: previous };
  const leaf = positionOf.get(leafId);
  if (leaf === undefined) return { path: 'conversation.current_leaf_id', problem: 'it names no message of this conversation' };
  if (transcript.messages[leaf]!.kind === 'summary') return { path: 'conversation.current_leaf_id', problem: 'it names a summary, and the leaf is a message' };
  return { parents, leaf };
}

export function isTreeIssue(tree: TranscriptTree | TreeIssue): tree is TreeIssue {
  return 'problem' in tree;
}

/** One step of the walk of every branch: a message, or the start or end of one alternative and what follows it. */
export type BranchWalkStep =
  | { readonly type: 'message'; readonly message: TranscriptMessage; readonly number: number }
  | {
      readonly type: 'alternative-start';
      readonly index: number;
      readonly count: number;
      /** The number of the message the alternatives follow; null when they begin the conversation. */
      readonly after: number | null;
      /** Whether the current leaf is in this alternative: the branch the window shows. */
      readonly current: boolean;
    }
  | { readonly type: 'alternative-end' };

/**
 * Every message once, depth first: a message, then what follows it; where several messages follow one, each
 * alternative whole, in file order, between its start and end. Messages are numbered in the order they are walked.
 * A summary comes right after the newest message before it in the file on a branch through the message it covers
 * through (the leaf when it was written), else after the newest message before it.
 */
export function walkBranches(transcript: TranscriptV1, tree: TranscriptTree): BranchWalkStep[] {
  const messages = transcript.messages;
  const children = new Map<number | null, number[]>();
  const summariesAfter = new Map<number | null, number[]>();
  const hostOf = summaryHosts(transcript);
  for (const [position, message] of messages.entries()) {
    if (message.kind === 'summary') appendTo(summariesAfter, hostOf.get(position) ?? null, position);
    else appendTo(children, tree.parents[position] ?? null, position);
  }
  const onLeafPath = new Set<number>();
  for (let position = tree.leaf; position !== null; position = tree.parents[position] ?? null) onLeafPath.add(position);

  const steps: BranchWalkStep[] = [];
  const numbers = new Map<number, number>();
  const emit = (position: number): void => {
    numbers.set(position, numbers.size + 1);
    steps.push({ type: 'message', message: messages[position]!, number: numbers.size });
  };
  // An explicit stack: a conversation can run to thousands of messages, deeper than a recursion may go.
  type Work = { kind: 'message'; position: number } | { kind: 'follow'; parent: number | null } | { kind: 'step'; step: BranchWalkStep };
  const work: Work[] = [{ kind: 'follow', parent: null }];
  while (work.length > 0) {
    const next = work.pop()!;
    if (next.kind === 'step') {
      steps.push(next.step);
    } else if (next.kind === 'message') {
      emit(next.position);
      work.push({ kind: 'follow', parent: next.position });
    } else {
      for (const summary of summariesAfter.get(next.parent) ?? []) emit(summary);
      const following = children.get(next.parent) ?? [];
      const after = next.parent === null ? null : numbers.get(next.parent)!;
      if (following.length === 1) {
        work.push({ kind: 'message', position: following[0]! });
        continue;
      }
      // Pushed last first, so the first alternative is taken first.
      for (let index = following.length - 1; index >= 0; index -= 1) {
        const position = following[index]!;
        work.push(
          { kind: 'step', step: { type: 'alternative-end' } },
          { kind: 'message', position },
          { kind: 'step', step: { type: 'alternative-start', index: index + 1, count: following.length, after, current: onLeafPath.has(position) } },
        );
      }
    }
  }
  return steps;
}

function appendTo(lists: Map<number | null, number[]>, key: number | null, position: number): void {
  const list = lists.get(key);
  if (list === undefined) lists.set(key, [position]);
  else list.push(position);
}

/**
 * The message each summary is shown after (absent: before everything), as `walkBranches` says: the message it covers
 * through, else the newest message before it. One pass, with the newest position of each id so far.
 */
function summaryHosts(transcript: TranscriptV1): Map<number, number | null> {
  const hosts = new Map<number, number | null>();
  const newestWithId = new Map<string, number>();
  let newest: number | null = null;
  for (const [position, message] of transcript.messages.entries()) {
    if (message.kind !== 'summary') {
      newestWithId.set(message.id, position);
      newest = position;
      continue;
    }
    const throughId = message.covers_through_id;
    hosts.set(position, (throughId === undefined || throughId === null ? undefined : newestWithId.get(throughId)) ?? newest);
  }
  return hosts;
}
