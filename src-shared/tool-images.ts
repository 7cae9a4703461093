/**
 * Images a tool result held (an MCP `image` content block): stored whole with the call, shown to a brain only in the
 * turn that made the call, and described everywhere else by one label.
 */
import { formatCount } from './format-count';

/** An image as a tool returned it: its MIME type and its bytes in base64. Model- and tool-provided: never trusted. */
export interface ToolImage {
  readonly mimeType: string;
  readonly data: string;
}

/** What can be said about an image without its bytes. */
export interface ToolImageFacts {
  readonly mimeType: string;
  readonly byteLength: number;
}

/** Decoded size of base64 data, without decoding it. */
export function base64ByteLength(data: string): number {
  const length = data.replace(/\s/g, '').length;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((length * 3) / 4) - padding);
}

export function imageFacts(image: ToolImage): ToolImageFacts {
  return { mimeType: image.mimeType, byteLength: base64ByteLength(image.data) };
}

/** "image/png, 12,345 bytes": the same digits grouping on every machine, so a replay stays byte-stable. */
export function imageLabel(facts: ToolImageFacts): string {
  return `${facts.mimeType}, ${formatCount(facts.byteLength)} byte${facts.byteLength === 1 ? '' : 's'}`;
}
