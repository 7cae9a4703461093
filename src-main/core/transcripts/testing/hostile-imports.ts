/**
 * Exports built to be hard on an importer, made in memory by the tests and benchmarks that use them (never kept as
 * files): a node with tens of thousands of alternatives, alternatives that all go on from one long draft, values
 * nested thousands of levels deep. Test support: only tests and benchmarks import `testing/`.
 */

/** `{ a: { a: … 'x' } }`, `levels` objects deep. */
export function nestedValue(levels: number): unknown {
  let value: unknown = 'x';
  for (let level = 0; level < levels; level += 1) value = { a: value };
  return value;
}

function chatGptNode(id: string, parent: string | null, role: 'user' | 'assistant', text: string): Record<string, unknown> {
  return {
    id,
    parent,
    children: [],
    message: { id, author: { role }, create_time: 1_700_000_000, content: { content_type: 'text', parts: [text] }, ...(role === 'assistant' ? { metadata: { model_slug: 'gpt-4o' } } : {}) },
  };
}

/** One ChatGPT conversation whose question has `count` regenerated replies, each listed by its parent. */
export function chatGptSiblings(count: number): unknown[] {
  const mapping: Record<string, Record<string, unknown>> = { q: chatGptNode('q', null, 'user', 'Name a number.') };
  const children: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const id = `reply-${index}`;
    mapping[id] = chatGptNode(id, 'q', 'assistant', `${index}.`);
    children.push(id);
  }
  mapping.q!.children = children;
  return [{ title: 'Many replies', create_time: 1_700_000_000, mapping, current_node: children.at(-1) ?? 'q' }];
}

export interface SharedDraftShape {
  readonly conversations: number;
  /** The length of the draft every alternative goes on from. */
  readonly draftCharacters: number;
  /** How many alternatives go on from it, each a short reply. */
  readonly alternatives: number;
}

/**
 * ChatGPT conversations each with a reply regenerated part-way: a question, a long draft, and `alternatives` nodes of
 * the same reply going on from it (a fork inside one reply, so every alternative is that draft plus its own end).
 */
export function chatGptSharedDrafts(shape: SharedDraftShape): unknown[] {
  return Array.from({ length: shape.conversations }, (_, conversation) => {
    const draft = `Draft ${conversation}: ${'the same long paragraph, '.repeat(Math.ceil(shape.draftCharacters / 25))}`.slice(0, shape.draftCharacters);
    const mapping: Record<string, Record<string, unknown>> = {
      q: chatGptNode('q', null, 'user', 'Write it out.'),
      draft: chatGptNode('draft', 'q', 'assistant', draft),
    };
    mapping.q!.children = ['draft'];
    const children: string[] = [];
    for (let index = 0; index < shape.alternatives; index += 1) {
      const id = `end-${index}`;
      mapping[id] = chatGptNode(id, 'draft', 'assistant', `Ending ${index}.`);
      children.push(id);
    }
    mapping.draft!.children = children;
    return { id: `conversation-${conversation}`, title: `Drafts ${conversation}`, create_time: 1_700_000_000, mapping, current_node: children.at(-1) ?? 'draft' };
  });
}

/**
 * How many times longer `work` takes on `large` than on `small`, the fastest of three runs each after one warm-up:
 * for inputs four times apart a linear walk gives about 4, a quadratic one about 16.
 */
export function timeGrowth<Input>(small: Input, large: Input, work: (input: Input) => unknown): number {
  const fastest = (input: Input): number => {
    let best = Number.POSITIVE_INFINITY;
    for (let run = 0; run < 3; run += 1) {
      const started = performance.now();
      work(input);
      best = Math.min(best, performance.now() - started);
    }
    return best;
  };
  work(small);
  return fastest(large) / fastest(small);
}
