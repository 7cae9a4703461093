/**
 * One round of tool calls: each call the brain asked for in a stream is approved (policy, then the person), run, and
 * stored as an invocation row of the reply, in the order the brain asked.
 */
import type { ApiEvent, InvocationStatus } from '../../../src-shared/api';
import { bareToolName } from '../replay/call-shaping';
import { newId, nowIso } from '../store/clock';
import { insertInvocation, toInvocationView, type InvocationRow } from '../store/invocations';
import type { AppDatabase } from '../store/open';
import { findTool, type ToolDefinition, type ToolResult } from '../tools/catalogue';
import { RUN_SKILL_TOOL } from '../tools/skills';
import type { PendingCall } from './call-arguments';
import type { TurnToolbox } from './turn-toolbox';
import { writeWhenNotBusy } from '../store/busy-retry';

export interface ToolRound {
  readonly db: AppDatabase;
  readonly emit: (event: ApiEvent) => void;
  readonly toolbox: TurnToolbox;
  readonly now: () => Date;
  readonly conversationId: string;
  readonly turnId: string;
  readonly messageId: string;
  /** The tools offered this turn. */
  readonly tools: readonly ToolDefinition[];
  /** The invocation seq of this round's first call: after the turn's context and the calls of earlier rounds. */
  readonly firstSeq: number;
  readonly signal: AbortSignal;
  /** How long a row's write that finds the data folder busy is tried again (store/busy-retry.ts). */
  readonly busyBudgetMs?: number;
}

type Decision = 'allow' | 'deny' | 'cancelled' | 'policy-deny';

/** Asks the policy, and the person where the policy says ask. */
async function approve(round: ToolRound, tool: ToolDefinition, input: Record<string, unknown>): Promise<Decision> {
  const { toolbox } = round;
  const bare = bareToolName(tool.name);
  const policy = toolbox.policyFor(tool.server, bare);
  if (policy === 'allow') return 'allow';
  if (policy === 'deny' || toolbox.approvals === null) return 'policy-deny';
  return toolbox.approvals.ask(
    { approvalId: newId(), conversationId: round.conversationId, turnId: round.turnId, server: tool.server, tool: bare, input },
    round.signal,
  );
}

/** What a call came to: refused, cancelled, or run. */
async function outcomeOf(round: ToolRound, tool: ToolDefinition | undefined, call: PendingCall): Promise<{ result: ToolResult; status: InvocationStatus }> {
  const { signal } = round;
  const bare = bareToolName(call.name);
  // Arguments past what Anybrain reads (call-arguments.ts): neither asked about nor run.
  if (call.notRun !== undefined) return { result: { output: call.notRun, isError: true }, status: 'error' };
  if (!tool) {
    const offered = round.tools.map((entry) => entry.name).join(', ');
    return { result: { output: `No tool named "${call.name}" is offered. Use one of: ${offered}.`, isError: true }, status: 'error' };
  }
  const decision = await approve(round, tool, call.input);
  if (decision === 'policy-deny') {
    return { result: { output: `The user does not allow ${bare} to run. Do not call it again; answer without it.`, isError: true }, status: 'denied' };
  }
  if (decision === 'deny') {
    return { result: { output: `The user denied this call to ${bare}. Do not retry it; answer without it or ask the user.`, isError: true }, status: 'denied' };
  }
  if (decision === 'cancelled' || signal.aborted) {
    return { result: { output: 'The call was cancelled before it ran.', isError: true }, status: 'cancelled' };
  }
  let result: ToolResult;
  try {
    result = await tool.execute(call.input, { signal, now: round.now });
  } catch (thrown) {
    result = { output: `The tool failed: ${thrown instanceof Error ? thrown.message : String(thrown)}`, isError: true };
  }
  return { result, status: signal.aborted ? 'cancelled' : result.isError ? 'error' : 'ok' };
}

/** Executes one call the brain made and stores its invocation row under this turn's id. */
async function runToolCall(round: ToolRound, call: PendingCall, seq: number): Promise<InvocationRow> {
  const { conversationId, turnId, messageId, emit } = round;
  const tool = findTool(round.tools, call.name);
  const isSkillRun = tool?.name === RUN_SKILL_TOOL;
  // A skill a brain runs is a skill use; its row names the skill, and it replays as the run_skill call it was.
  const recordedTool = isSkillRun && typeof call.input.name === 'string' ? call.input.name : bareToolName(call.name);
  const server = tool?.server ?? null;
  const startedAt = nowIso();
  emit({ type: 'tool-call-started', conversationId, turnId, messageId, tool: recordedTool, server, input: call.input });
  const { result, status } = await outcomeOf(round, tool, call);
  const invocation = {
    id: newId(),
    turnId,
    messageId,
    seq,
    kind: isSkillRun ? 'skill' : 'tool',
    server,
    tool: recordedTool,
    providerCallId: call.providerCallId,
    input: call.input,
    output: result.output,
    images: result.images && result.images.length > 0 ? [...result.images] : null,
    status,
    opaque: call.opaque ?? null,
    startedAt,
    endedAt: nowIso(),
  } as const;
  const row = await writeWhenNotBusy(() => insertInvocation(round.db, invocation), round.busyBudgetMs);
  emit({ type: 'tool-call-finished', conversationId, invocation: toInvocationView(row) });
  return row;
}

/** Runs the round's calls one after another, in the order the brain asked; returns their rows. */
export async function runToolRound(round: ToolRound, calls: readonly PendingCall[]): Promise<InvocationRow[]> {
  const rows: InvocationRow[] = [];
  for (const call of calls) rows.push(await runToolCall(round, call, round.firstSeq + rows.length));
  return rows;
}
