/**
 * The approval policy: every tool is allowed, asked about, or denied. "Ask" shows the call and waits for the person;
 * Stop cancels every pending question of its turn.
 */
import type { ApprovalView } from '../../../src-shared/api';
import { policyKeyOf } from '../../../src-shared/tool-key';
import type { ToolPolicyValue } from '../../../src-shared/tool-rules';

export type ToolPolicy = ToolPolicyValue;

/** The key a policy is stored under (tool-key.ts): `server/tool`, or the bare tool for a built-in. */
export function policyKey(server: string | null, tool: string): string {
  return policyKeyOf({ server, tool });
}

/** Built-in tools run unless the user says otherwise; a tool from an MCP server asks first. */
export function defaultPolicy(server: string | null): ToolPolicy {
  return server === null ? 'allow' : 'ask';
}

/** A pending question is exactly what the window is shown of it. */
export type ApprovalRequest = ApprovalView;

export type ApprovalOutcome = 'allow' | 'deny' | 'cancelled';

interface Pending {
  readonly request: ApprovalRequest;
  readonly settle: (outcome: ApprovalOutcome) => void;
}

export class ApprovalGate {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly announce: (request: ApprovalRequest) => void,
    private readonly resolved: (request: ApprovalRequest, outcome: ApprovalOutcome) => void,
  ) {}

  /** Waits for the person's answer; an aborted signal (Stop, shutdown) settles it as cancelled. */
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalOutcome> {
    if (signal.aborted) return Promise.resolve('cancelled');
    return new Promise((resolve) => {
      const onAbort = () => this.settle(request.approvalId, 'cancelled');
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(request.approvalId, {
        request,
        settle: (outcome) => {
          signal.removeEventListener('abort', onAbort);
          resolve(outcome);
        },
      });
      this.announce(request);
    });
  }

  /** The person's answer; false when the question is gone (answered, cancelled, or never asked). */
  answer(approvalId: string, decision: 'allow' | 'deny'): boolean {
    return this.settle(approvalId, decision);
  }

  list(): ApprovalRequest[] {
    return [...this.pending.values()].map((entry) => entry.request);
  }

  private settle(approvalId: string, outcome: ApprovalOutcome): boolean {
    const entry = this.pending.get(approvalId);
    if (!entry) return false;
    this.pending.delete(approvalId);
    entry.settle(outcome);
    this.resolved(entry.request, outcome);
    return true;
  }
}
