import { describe, expect, it } from 'vitest';
import { ApprovalGate, defaultPolicy, policyKey, type ApprovalRequest } from './approvals';

const request = (approvalId: string): ApprovalRequest => ({ approvalId, conversationId: 'c', turnId: 't', server: 'everything', tool: 'echo', input: { message: 'hi' } });

describe('ApprovalGate', () => {
  it('announces a question and settles it with the answer', async () => {
    const log: string[] = [];
    const gate = new ApprovalGate((asked) => log.push(`asked ${asked.approvalId}`), (asked, outcome) => log.push(`${outcome} ${asked.approvalId}`));
    const waiting = gate.ask(request('a1'), new AbortController().signal);
    expect(gate.list().map((entry) => entry.approvalId)).toEqual(['a1']);
    expect(gate.answer('a1', 'deny')).toBe(true);
    expect(await waiting).toBe('deny');
    expect(gate.answer('a1', 'allow')).toBe(false);
    expect(log).toEqual(['asked a1', 'deny a1']);
  });

  it('cancels a pending question when the turn stops', async () => {
    const gate = new ApprovalGate(() => {}, () => {});
    const controller = new AbortController();
    const waiting = gate.ask(request('a2'), controller.signal);
    controller.abort('stop');
    expect(await waiting).toBe('cancelled');
    expect(gate.list()).toEqual([]);
  });

  it('keys and defaults policies by server', () => {
    expect(policyKey(null, 'read_file')).toBe('read_file');
    expect(policyKey('everything', 'echo')).toBe('everything/echo');
    expect(defaultPolicy(null)).toBe('allow');
    expect(defaultPolicy('everything')).toBe('ask');
  });
});
