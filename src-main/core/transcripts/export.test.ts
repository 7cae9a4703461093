import { describe, expect, it } from 'vitest';
import type { TranscriptV1 } from '../../../src-shared/transcript';
import { openTestDatabase } from '../store/test-database';
import { exportConversation } from './export';
import { importTranscript } from './import';

const HOSTILE = '<img src=x onerror="alert(1)">\'&';
const ESCAPED = '&#60;img src=x onerror=&#34;alert(1)&#34;&#62;&#39;&#38;';

function hostileTranscript(): TranscriptV1 {
  return {
    format: 'anybrain.transcript',
    version: 1,
    conversation: { id: 'c', title: `</title><script>alert(0)</script>${HOSTILE}`, created_at: '2026-01-01T00:00:00.000Z' },
    messages: [
      { id: 'u', turn_id: 't1', role: 'user', kind: 'chat', text: `<script>alert(2)</script>\n${HOSTILE}` },
      {
        id: 'a',
        turn_id: 't1',
        role: 'assistant',
        kind: 'chat',
        text: `[x](javascript:alert(3)) ${HOSTILE}`,
        status: 'stopped',
        brain: 'kimi',
        model_requested: 'kimi-k2.6',
        model_responded: `</h2><svg onload=alert(4)>${HOSTILE}`,
        tool_invocations: [
          { id: 'i', kind: 'tool', server: `<b>${HOSTILE}`, tool: 'read_file', input: { path: HOSTILE }, output: HOSTILE, status: 'ok' },
        ],
      },
      { id: 's', turn_id: 't2', role: 'system', kind: 'notice', text: `</p><style>*{background:url(https://attacker.example/)}</style>${HOSTILE}` },
    ],
  };
}

describe('the HTML export', () => {
  it('escapes the title, every message text and the model names, under a CSP that allows no script, fetch, base or form', () => {
    const db = openTestDatabase();
    const conversationId = importTranscript(db, JSON.stringify(hostileTranscript()));
    const { content } = exportConversation(db, conversationId, 'html');
    expect(content).toContain(
      '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'; base-uri \'none\'; form-action \'none\'">',
    );
    expect(content).toContain(`<title>&#60;/title&#62;&#60;script&#62;alert(0)&#60;/script&#62;${ESCAPED}</title>`);
    const body = content.slice(content.indexOf('<body>'));
    expect(body).toBe(
      [
        `<body><h1>&#60;/title&#62;&#60;script&#62;alert(0)&#60;/script&#62;${ESCAPED}</h1>`,
        `<section class="user"><h2>You</h2><div class="text">&#60;script&#62;alert(2)&#60;/script&#62;\n${ESCAPED}</div></section>`,
        `<section class="assistant"><h2>Kimi (&#60;/h2&#62;&#60;svg onload=alert(4)&#62;${ESCAPED}) <span class="status">stopped</span></h2>` +
          `<div class="text">[x](javascript:alert(3)) ${ESCAPED}</div></section>`,
        `<p class="system">Notice: &#60;/p&#62;&#60;style&#62;*{background:url(https://attacker.example/)}&#60;/style&#62;${ESCAPED}</p>`,
        '</body></html>',
        '',
      ].join('\n'),
    );
  });
});
