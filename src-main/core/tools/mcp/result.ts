/**
 * An MCP `tools/call` result as a ToolResult: the text parts joined, images kept whole beside them (a brain that takes
 * images in tool results is shown them; the replay labels them for the rest), everything else summarised in one line.
 */
import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { base64ByteLength, type ToolImage } from '../../../../src-shared/tool-images';
import { declaredImageRefusal } from '../../attachments/sniff';
import type { ToolResult } from '../catalogue';

/** What the brain reads when a tool succeeds without saying anything. */
export const EMPTY_OUTPUT = '(no output)';

export function describeContent(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      return `[image: ${block.mimeType}, ${base64ByteLength(block.data)} bytes]`;
    case 'audio':
      return `[audio: ${block.mimeType}, ${base64ByteLength(block.data)} bytes]`;
    case 'resource_link':
      return `[resource link: ${block.name} <${block.uri}>${block.mimeType ? `, ${block.mimeType}` : ''}]`;
    case 'resource': {
      const { resource } = block;
      if ('text' in resource && typeof resource.text === 'string') return `[resource: ${resource.uri}]\n${resource.text}`;
      const size = 'blob' in resource && typeof resource.blob === 'string' ? base64ByteLength(resource.blob) : 0;
      return `[resource: ${resource.uri}, ${resource.mimeType ?? 'binary'}, ${size} bytes]`;
    }
    default:
      return `[${(block as { type: string }).type} content]`;
  }
}

/** The fields of a call result this mapping reads (the SDK's result type has more). */
export interface McpCallResult {
  readonly content?: readonly ContentBlock[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
  /** Results from servers on the 2024-10-07 protocol carry this instead of `content`. */
  readonly toolResult?: unknown;
}

export function toToolResult(result: McpCallResult): ToolResult {
  const content = result.content ?? [];
  // An image that declares more pixels than the window decodes safely is never kept: the brain reads why instead.
  const refusals = new Map(content.flatMap((block) => {
    const refusal = block.type === 'image' ? declaredImageRefusal('The tool\'s image', Buffer.from(block.data, 'base64')) : null;
    return refusal === null ? [] : [[block, refusal] as const];
  }));
  const images: ToolImage[] = content.flatMap((block) => (block.type === 'image' && !refusals.has(block) ? [{ mimeType: block.mimeType, data: block.data }] : []));
  const parts = content
    .filter((block) => block.type !== 'image' || refusals.has(block))
    .map((block) => refusals.get(block) ?? describeContent(block))
    .filter((part) => part !== '');
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent));
  if (parts.length === 0 && result.toolResult !== undefined) {
    parts.push(typeof result.toolResult === 'string' ? result.toolResult : JSON.stringify(result.toolResult));
  }
  const isError = result.isError === true;
  const output = parts.length > 0 ? parts.join('\n') : isError ? 'The tool reported an error without a message.' : images.length > 0 ? '' : EMPTY_OUTPUT;
  return { output, isError, ...(images.length > 0 ? { images } : {}) };
}
