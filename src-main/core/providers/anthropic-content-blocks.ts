/**
 * Anthropic's content blocks while they stream: each block's state from its start, the parts its deltas yield, and
 * what its stop yields (https://docs.claude.com/en/docs/build-with-claude/streaming#content-block-delta-types).
 */
import { isRecord, recordField, stringField, type JsonRecord } from './json-fields';
import { streamedToolCall } from './stream-mapping';
import type { StreamPart } from './stream-parts';

export type BlockState =
  | { readonly kind: 'text' }
  | { readonly kind: 'thinking'; readonly start: JsonRecord; thinking: string; signature: string }
  | { readonly kind: 'redacted-thinking'; readonly block: JsonRecord }
  | { readonly kind: 'tool-use'; readonly start: JsonRecord; readonly id: string; readonly name: string; inputJson: string }
  | { readonly kind: 'other' };

export function blockStateFor(block: JsonRecord): BlockState {
  switch (block.type) {
    case 'text':
      return { kind: 'text' };
    case 'thinking':
      return { kind: 'thinking', start: block, thinking: stringField(block, 'thinking') ?? '', signature: stringField(block, 'signature') ?? '' };
    case 'redacted_thinking':
      return { kind: 'redacted-thinking', block };
    case 'tool_use':
      return { kind: 'tool-use', start: block, id: stringField(block, 'id') ?? '', name: stringField(block, 'name') ?? '', inputJson: '' };
    default:
      // Server tool blocks (web search, code execution) run on Anthropic's side and need no client action.
      return { kind: 'other' };
  }
}

export function* applyDelta(state: BlockState, delta: JsonRecord): Iterable<StreamPart> {
  switch (delta.type) {
    case 'text_delta': {
      const text = stringField(delta, 'text');
      if (state.kind === 'text' && text) yield { type: 'text-delta', text };
      return;
    }
    case 'thinking_delta': {
      const text = stringField(delta, 'thinking');
      if (state.kind === 'thinking' && text) {
        state.thinking += text;
        yield { type: 'reasoning-delta', text };
      }
      return;
    }
    case 'signature_delta': {
      if (state.kind === 'thinking') state.signature += stringField(delta, 'signature') ?? '';
      return;
    }
    case 'input_json_delta': {
      if (state.kind === 'tool-use') state.inputJson += stringField(delta, 'partial_json') ?? '';
      return;
    }
    default:
      // citations_delta and unknown delta types: nothing the neutral stream carries.
      return;
  }
}

export function* finishBlock(state: BlockState): Iterable<StreamPart> {
  switch (state.kind) {
    case 'thinking':
      // Replayed verbatim to the same model: the signature must match the thinking text exactly.
      yield { type: 'reasoning-opaque', opaque: { ...state.start, thinking: state.thinking, signature: state.signature } };
      return;
    case 'redacted-thinking':
      yield { type: 'reasoning-opaque', opaque: state.block };
      return;
    case 'tool-use':
      yield streamedToolCall(state, parseToolInput(state), { name: 'input', text: state.inputJson });
      return;
    case 'text':
    case 'other':
      return;
    default: {
      const unhandled: never = state;
      throw new Error(`Unhandled block state ${JSON.stringify(unhandled)}`);
    }
  }
}

function parseToolInput(state: Extract<BlockState, { kind: 'tool-use' }>): Record<string, unknown> | null {
  // A tool without parameters streams no input_json_delta (or only an empty one): the start block's `input` stands.
  if (state.inputJson.trim() === '') {
    const startInput = recordField(state.start, 'input');
    return startInput ?? {};
  }
  try {
    const parsed: unknown = JSON.parse(state.inputJson);
    return isRecord(parsed) ? parsed : null;
  } catch {
    return null;
  }
}
