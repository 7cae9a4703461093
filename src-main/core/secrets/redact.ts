/**
 * API keys out of text that the app keeps or shows: a provider may echo the key it was sent in its error body (a proxy
 * in front of it, a self-hosted server, an "Incorrect API key provided: …" that does not mask it), and that body would
 * otherwise be stored in the reply's error, logged and exported with every transcript.
 */

/** What stands in a redacted key's place. */
export const REDACTED_KEY = '[redacted key]';

/**
 * The providers' own key formats, as each documents or issues them. Each pattern is anchored on a prefix or shape no
 * ordinary word has, so prose and ids survive.
 */
const KEY_SHAPES: readonly RegExp[] = [
  // Anthropic: sk-ant-api03-…, sk-ant-admin01-…, sk-ant-oat01-… (OAuth).
  /\bsk-ant-[A-Za-z0-9]+-[A-Za-z0-9_-]{16,}/g,
  // OpenAI (sk-…, sk-proj-…, sk-svcacct-…) and Moonshot (sk-…), DeepSeek-style proxies.
  /\bsk-[A-Za-z0-9_-]{20,}/g,
  // xAI: xai- followed by 80 letters and digits.
  /\bxai-[A-Za-z0-9]{20,}/g,
  // Google AI Studio: AIza followed by 35 characters.
  /\bAIza[0-9A-Za-z_-]{30,}/g,
  // Zhipu (GLM) and Ollama's cloud keys: a 32-digit hex id, a dot, then the secret.
  /\b[0-9a-f]{32}\.[A-Za-z0-9_-]{12,}/g,
];

/** Where a key is named rather than shaped: an Authorization header, a `key=` query parameter, an `x-api-key` header. */
const KEY_PLACES: readonly RegExp[] = [/(\bBearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi, /([?&]key=)[^&\s"'<>]{8,}/g, /(\b(?:x-api-key|x-goog-api-key|api-key)["']?\s*[:=]\s*["']?)[A-Za-z0-9._~+/=-]{8,}/gi];

/** The shortest key that is looked for literally: shorter values (a placeholder, "ollama") would match ordinary text. */
const SHORTEST_KNOWN_KEY = 8;

/** `text` with every key in `knownKeys` and everything shaped like a provider's key replaced by `[redacted key]`. */
export function redactKeys(text: string, knownKeys: readonly (string | null | undefined)[] = []): string {
  let redacted = text;
  // Longest first, so a key that contains another is not left half shown.
  const literal = knownKeys.filter((key): key is string => typeof key === 'string' && key.trim().length >= SHORTEST_KNOWN_KEY).sort((a, b) => b.length - a.length);
  for (const key of literal) redacted = redacted.split(key.trim()).join(REDACTED_KEY);
  for (const shape of KEY_SHAPES) redacted = redacted.replace(shape, REDACTED_KEY);
  for (const place of KEY_PLACES) redacted = redacted.replace(place, (_whole, before: string) => `${before}${REDACTED_KEY}`);
  return redacted;
}
