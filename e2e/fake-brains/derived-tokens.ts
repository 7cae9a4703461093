/**
 * Ids, signatures and opaque reasoning the fake hands out. Each is derived from the request's sequence number (or the
 * signed content), never from a clock or a random source, so replies are byte-stable; signatures are also checkable
 * without remembering them, the way a provider checks its own.
 */
import { createHash } from 'node:crypto';

function digest(...parts: readonly (string | number)[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex');
}

/** An id that looks like a provider's random one: `prefix` and `length` hex characters fixed by the inputs. */
export function derivedId(prefix: string, length: number, ...parts: readonly (string | number)[]): string {
  return `${prefix}${digest(prefix, ...parts).slice(0, length)}`;
}

const ANTHROPIC_SIGNATURE_MARK = 'anybrain-fake-thinking';
const GEMINI_SIGNATURE_MARK = 'anybrain-fake-thought';
const RESPONSES_REASONING_MARK = 'anybrain-fake-reasoning';

/** Gemini's documented value for calls it did not sign (https://ai.google.dev/gemini-api/docs/thought-signatures). */
export const GEMINI_DUMMY_SIGNATURE = 'skip_thought_signature_validator';

function fromBase64(text: string): string {
  return Buffer.from(text, 'base64').toString('utf8');
}

function toBase64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

/** Anthropic binds a thinking signature to the model and the exact thinking text. */
export function anthropicThinkingSignature(model: string, thinking: string): string {
  return toBase64(`${ANTHROPIC_SIGNATURE_MARK}|${model}|${digest(thinking).slice(0, 32)}`);
}

export function isOwnAnthropicSignature(signature: string, model: string, thinking: string): boolean {
  return signature === anthropicThinkingSignature(model, thinking);
}

export function geminiThoughtSignature(model: string, responseId: string): string {
  return toBase64(`${GEMINI_SIGNATURE_MARK}|${model}|${responseId}`);
}

/** Gemini accepts its own signatures (the fake's, here) and the documented dummy; anything else is corrupted. */
export function isAcceptedGeminiSignature(signature: string): boolean {
  return signature === GEMINI_DUMMY_SIGNATURE || fromBase64(signature).startsWith(`${GEMINI_SIGNATURE_MARK}|`);
}

/** OpenAI's encrypted reasoning is opaque Fernet-style base64 (`gAAAAA…`); the fake's only has to look and stay the same. */
export function responsesEncryptedReasoning(model: string, itemId: string): string {
  return `gAAAAA${toBase64(`${RESPONSES_REASONING_MARK}|${model}|${itemId}`)}`;
}
