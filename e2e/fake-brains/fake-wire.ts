/**
 * What each wire contributes to the fake server: where it listens, how it checks a request, and how it frames a
 * scripted reply. The server owns HTTP, timing and recording; a wire only produces bytes.
 */
import type { WireId } from '../../src-shared/brains';
import type { ReplyPlan } from './script';

export type RequestHeaders = Readonly<Record<string, string>>;

/** An HTTP answer in the provider's own error shape. */
export interface ErrorReply {
  readonly status: number;
  readonly body: unknown;
}

/** The facts of one request a reply is built from; ids are deterministic per server so tests can compare bytes. */
export interface ReplyContext {
  readonly plan: ReplyPlan;
  readonly body: Record<string, unknown>;
  /** 1 for the first reply since the server started or was reset. */
  readonly sequence: number;
  /** Seconds since the epoch, as the providers' `created` fields count. */
  readonly createdAt: number;
  readonly inputTokens: number;
}

export interface RouteMatch {
  /** Whether the reply streams (`stream: true`, a streaming path, or the wire's default). */
  readonly streaming: boolean;
  /** The model named in the path, for wires that put it there. */
  readonly pathModel: string | null;
}

export interface FakeWire {
  readonly wire: WireId;
  /** `path` is what follows the brain prefix, query string removed. */
  route(method: string, path: string, body: Record<string, unknown>): RouteMatch | null;
  hasCredentials(headers: RequestHeaders, query: URLSearchParams): boolean;
  readonly missingCredentials: ErrorReply;
  notFound(path: string): ErrorReply;
  invalidJson(): ErrorReply;
  /** The provider's own 400 for the first rule the request breaks, or null when it passes. */
  checkRequest(body: Record<string, unknown>, route: RouteMatch): ErrorReply | null;
  lastUserText(body: Record<string, unknown>): string;
  requestedModel(body: Record<string, unknown>, route: RouteMatch): string;
  statusError(status: number): ErrorReply;
  tooLarge(): ErrorReply;
  /** Extra response headers the provider sends (request ids). */
  responseHeaders(sequence: number): Readonly<Record<string, string>>;
  readonly streamContentType: string;
  streamOpening(context: ReplyContext): string;
  streamTextDelta(context: ReplyContext, text: string, chunkIndex: number): string;
  streamClosing(context: ReplyContext): string;
  streamError(context: ReplyContext): string;
  /** The non-streaming response object. */
  wholeReply(context: ReplyContext): unknown;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Rough token count (four characters a token) so usage numbers are plausible and deterministic. */
export function estimateTokens(value: unknown): number {
  return Math.max(1, Math.ceil(JSON.stringify(value ?? '').length / 4));
}

export function hasBearerOrHeader(headers: RequestHeaders, headerName: string): boolean {
  const authorization = headers.authorization ?? '';
  return (headers[headerName] ?? '') !== '' || /^Bearer \S/.test(authorization);
}
