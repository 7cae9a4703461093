/**
 * The tree a transcript describes, read one way for import, Markdown and HTML alike: a message follows the message its
 * `parent_id` names, earlier in the file, or without one the message before it in the file; a summary follows nothing.
 * Messages that follow the same message (or that all begin the conversation) are alternatives, in file order, which
 * is the order they were written and the order the window pages them in. Pure: positions in the file, never the
 * database.
 */
import type { TranscriptMessage, TranscriptV1 } from '../../../src-shared/transcript';

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

/** The tree of a transcript, or the first place its `parent_id` or `current_leaf_id` names what it may not. */
export function transcriptTree(transcript: TranscriptV1): TranscriptTree | TreeIssue {
  const parents: (number | null)[] = [];
  // An id repeated in a file names its newest use before the message that refers to it.
  const positionOf = new Map<string, number>();
  let previous: number | null = null;
  for (const [position, message] of transcript.messages.entries()) {
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
  for (const [position, message] of messages.entries()) {
    if (message.kind === 'summary') {
      const host = summaryHost(transcript, position);
      summariesAfter.set(host, [...(summariesAfter.get(host) ?? []), position]);
    } else {
      const parent = tree.parents[position] ?? null;
      children.set(parent, [...(children.get(parent) ?? []), position]);
    }
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
      const pushed: Work[] = following.length === 1
        ? [{ kind: 'message', position: following[0]! }]
        : following.flatMap((position, index): Work[] => [
            { kind: 'step', step: { type: 'alternative-start', index: index + 1, count: following.length, after, current: onLeafPath.has(position) } },
            { kind: 'message', position },
            { kind: 'step', step: { type: 'alternative-end' } },
          ]);
      for (const item of pushed.reverse()) work.push(item);
    }
  }
  return steps;
}

/** The message a summary is shown after (null: before everything), as `walkBranches` says. */
function summaryHost(transcript: TranscriptV1, summary: number): number | null {
  const messages = transcript.messages;
  const throughId = messages[summary]!.covers_through_id;
  let newest: number | null = null;
  for (let position = summary - 1; position >= 0; position -= 1) {
    const message = messages[position]!;
    if (message.kind === 'summary') continue;
    if (throughId === undefined || throughId === null || message.id === throughId) return position;
    newest ??= position;
  }
  return newest;
}
