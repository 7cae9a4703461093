/** Test support: what a provider call sends, whether its body went as an object or as encoded bytes. */
import type { ProviderCall } from '../stream-parts';

/** The body a call sends: its encoded bytes read back as JSON, else the body object it carries. */
export function sentBody(call: Pick<ProviderCall, 'body' | 'encodedBody'>): Record<string, unknown> {
  return call.encodedBody === undefined ? call.body : (JSON.parse(new TextDecoder().decode(call.encodedBody)) as Record<string, unknown>);
}
