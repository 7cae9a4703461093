/**
 * Every wire's exact JSON for one shared conversation (two brains, calls, reasoning, a notice, a summary, Hangul and
 * emoji), and the replay rules that cut across wires.
 */
import { describe, expect, it } from 'vitest';
import { MAX_CALL_CHARS } from '../call-shaping';
import type { LiveTurn, ReplayTurn } from '../types';
import { convertToAnthropicMessages } from './anthropic-messages';
import { convertToChatCompletionsMessages, FOREIGN_REASONING_PLACEHOLDER } from './chat-completions';
import { convertToGeminiContents, DUMMY_THOUGHT_SIGNATURE } from './gemini-generate-content';
import { buildWireRequest } from './index';
import { convertToOllamaMessages } from './ollama-chat';
import { convertToOpenAiResponsesInput } from './openai-responses';
import { fixtureRequest, manyCallsTurn, TOOLS, TURNS } from './replay-fixture';

const json = (value: unknown) => JSON.stringify(value, null, 2);

describe('the shared conversation on every wire', () => {
  it('anthropic-messages (claude, thinking on): calls first, results merged, own thinking back, foreign reasoning dropped', () => {
    const { body, warnings } = convertToAnthropicMessages(fixtureRequest({ reasoningLevel: 'medium' }));
    expect(warnings).toEqual([]);
    expect(json(body)).toMatchInlineSnapshot(`
      "{
        "model": "claude-sonnet-4-6",
        "max_tokens": 32000,
        "system": [
          {
            "type": "text",
            "text": "SYSTEM",
            "cache_control": {
              "type": "ephemeral"
            }
          }
        ],
        "tools": [
          {
            "name": "current_time",
            "description": "The current date and time.",
            "input_schema": {
              "type": "object",
              "properties": {
                "zone": {
                  "type": "string"
                }
              }
            }
          },
          {
            "name": "read_file",
            "description": "Read a file in a granted folder.",
            "input_schema": {
              "type": "object",
              "properties": {
                "path": {
                  "type": "string"
                }
              },
              "required": [
                "path"
              ]
            }
          }
        ],
        "messages": [
          {
            "role": "user",
            "content": [
              {
                "type": "text",
                "text": "지금 몇 시야? 👋"
              }
            ]
          },
          {
            "role": "assistant",
            "content": [
              {
                "type": "tool_use",
                "id": "call_01KIMIREPLY000000000000000_0",
                "name": "current_time",
                "input": {
                  "zone": "Asia/Seoul"
                }
              }
            ]
          },
          {
            "role": "user",
            "content": [
              {
                "type": "tool_result",
                "tool_use_id": "call_01KIMIREPLY000000000000000_0",
                "content": "2026-11-30T20:00:00+09:00"
              }
            ]
          },
          {
            "role": "assistant",
            "content": [
              {
                "type": "text",
                "text": "It is 8 pm in Seoul. 🌙"
              }
            ]
          },
          {
            "role": "user",
            "content": [
              {
                "type": "text",
                "text": "[System line, notice: neither the assistant's words nor the user's]\\nSwitched to Claude."
              },
              {
                "type": "text",
                "text": "Read my notes for today.",
                "cache_control": {
                  "type": "ephemeral"
                }
              }
            ]
          },
          {
            "role": "assistant",
            "content": [
              {
                "type": "thinking",
                "thinking": "Look for the file.",
                "signature": "RXVjbGlkZWFu"
              },
              {
                "type": "tool_use",
                "id": "call_01CLAUDEREPLY0000000000000_0",
                "name": "read_file",
                "input": {
                  "path": "notes/오늘.md"
                }
              }
            ]
          },
          {
            "role": "user",
            "content": [
              {
                "type": "tool_result",
                "tool_use_id": "call_01CLAUDEREPLY0000000000000_0",
                "content": "File not found",
                "is_error": true,
                "cache_control": {
                  "type": "ephemeral"
                }
              }
            ]
          },
          {
            "role": "assistant",
            "content": [
              {
                "type": "text",
                "text": "There is no note for today yet."
              }
            ]
          },
          {
            "role": "user",
            "content": [
              {
                "type": "text",
                "text": "[System line, summary: neither the assistant's words nor the user's]\\nEarlier: the user asked the time in Seoul."
              },
              {
                "type": "text",
                "text": "Thanks. And now?",
                "cache_control": {
                  "type": "ephemeral"
                }
              }
            ]
          }
        ],
        "thinking": {
          "type": "adaptive"
        },
        "output_config": {
          "effort": "medium"
        },
        "stream": true
      }"
    `);
  });

  it('chat-completions (kimi, thinking on): own ids and reasoning back, a placeholder on foreign calls', () => {
    const { body, warnings } = convertToChatCompletionsMessages(fixtureRequest({ brain: 'kimi', model: 'kimi-k2.6', reasoningLevel: 'high' }));
    expect(warnings).toEqual([]);
    expect(json(body)).toMatchInlineSnapshot(`
      "{
        "model": "kimi-k2.6",
        "messages": [
          {
            "role": "system",
            "content": "SYSTEM"
          },
          {
            "role": "user",
            "content": "지금 몇 시야? 👋"
          },
          {
            "role": "assistant",
            "content": null,
            "reasoning_content": "Need the clock first.",
            "tool_calls": [
              {
                "id": "functions.current_time:0",
                "type": "function",
                "function": {
                  "name": "current_time",
                  "arguments": "{\\"zone\\":\\"Asia/Seoul\\"}"
                }
              }
            ]
          },
          {
            "role": "tool",
            "tool_call_id": "functions.current_time:0",
            "content": "2026-11-30T20:00:00+09:00"
          },
          {
            "role": "assistant",
            "content": "It is 8 pm in Seoul. 🌙"
          },
          {
            "role": "user",
            "content": "[System line, notice: neither the assistant's words nor the user's]\\nSwitched to Claude."
          },
          {
            "role": "user",
            "content": "Read my notes for today."
          },
          {
            "role": "assistant",
            "content": null,
            "reasoning_content": "(These calls were made earlier in the conversation; no reasoning was recorded for them.)",
            "tool_calls": [
              {
                "id": "call_01CLAUDEREPLY0000000000000_0",
                "type": "function",
                "function": {
                  "name": "read_file",
                  "arguments": "{\\"path\\":\\"notes/오늘.md\\"}"
                }
              }
            ]
          },
          {
            "role": "tool",
            "tool_call_id": "call_01CLAUDEREPLY0000000000000_0",
            "content": "Error: File not found"
          },
          {
            "role": "assistant",
            "content": "There is no note for today yet."
          },
          {
            "role": "user",
            "content": "[System line, summary: neither the assistant's words nor the user's]\\nEarlier: the user asked the time in Seoul."
          },
          {
            "role": "user",
            "content": "Thanks. And now?"
          }
        ],
        "tools": [
          {
            "type": "function",
            "function": {
              "name": "current_time",
              "description": "The current date and time.",
              "parameters": {
                "type": "object",
                "properties": {
                  "zone": {
                    "type": "string"
                  }
                }
              }
            }
          },
          {
            "type": "function",
            "function": {
              "name": "read_file",
              "description": "Read a file in a granted folder.",
              "parameters": {
                "type": "object",
                "properties": {
                  "path": {
                    "type": "string"
                  }
                },
                "required": [
                  "path"
                ]
              }
            }
          }
        ],
        "max_completion_tokens": 32000,
        "thinking": {
          "type": "enabled",
          "keep": "all"
        },
        "stream": true,
        "stream_options": {
          "include_usage": true
        }
      }"
    `);
  });

  it('openai-responses (codex): function_call items without ids, store:false, encrypted reasoning included', () => {
    const { body, warnings } = convertToOpenAiResponsesInput(fixtureRequest({ brain: 'codex', model: 'gpt-5.5-codex', reasoningLevel: 'medium' }));
    expect(warnings).toEqual([]);
    expect(json(body)).toMatchInlineSnapshot(`
      "{
        "model": "gpt-5.5-codex",
        "instructions": "SYSTEM",
        "input": [
          {
            "role": "user",
            "content": "지금 몇 시야? 👋"
          },
          {
            "type": "function_call",
            "call_id": "call_01KIMIREPLY000000000000000_0",
            "name": "current_time",
            "arguments": "{\\"zone\\":\\"Asia/Seoul\\"}"
          },
          {
            "type": "function_call_output",
            "call_id": "call_01KIMIREPLY000000000000000_0",
            "output": "2026-11-30T20:00:00+09:00"
          },
          {
            "role": "assistant",
            "content": "It is 8 pm in Seoul. 🌙"
          },
          {
            "role": "user",
            "content": "[System line, notice: neither the assistant's words nor the user's]\\nSwitched to Claude."
          },
          {
            "role": "user",
            "content": "Read my notes for today."
          },
          {
            "type": "function_call",
            "call_id": "call_01CLAUDEREPLY0000000000000_0",
            "name": "read_file",
            "arguments": "{\\"path\\":\\"notes/오늘.md\\"}"
          },
          {
            "type": "function_call_output",
            "call_id": "call_01CLAUDEREPLY0000000000000_0",
            "output": "Error: File not found"
          },
          {
            "role": "assistant",
            "content": "There is no note for today yet."
          },
          {
            "role": "user",
            "content": "[System line, summary: neither the assistant's words nor the user's]\\nEarlier: the user asked the time in Seoul."
          },
          {
            "role": "user",
            "content": "Thanks. And now?"
          }
        ],
        "tools": [
          {
            "type": "function",
            "name": "current_time",
            "description": "The current date and time.",
            "parameters": {
              "type": "object",
              "properties": {
                "zone": {
                  "type": "string"
                }
              }
            },
            "strict": false
          },
          {
            "type": "function",
            "name": "read_file",
            "description": "Read a file in a granted folder.",
            "parameters": {
              "type": "object",
              "properties": {
                "path": {
                  "type": "string"
                }
              },
              "required": [
                "path"
              ]
            },
            "strict": false
          }
        ],
        "reasoning": {
          "effort": "medium",
          "summary": "auto"
        },
        "max_output_tokens": 32000,
        "store": false,
        "include": [
          "reasoning.encrypted_content"
        ],
        "prompt_cache_key": "anybrain-c1",
        "stream": true
      }"
    `);
  });

  it('gemini-generate-content: foreign calls carry the dummy signature on the first functionCall part', () => {
    const { body, warnings } = convertToGeminiContents(fixtureRequest({ brain: 'gemini', model: 'gemini-3.1-pro-preview', reasoningLevel: 'low' }));
    expect(warnings).toEqual([]);
    expect(json(body)).toMatchInlineSnapshot(`
      "{
        "systemInstruction": {
          "parts": [
            {
              "text": "SYSTEM"
            }
          ]
        },
        "contents": [
          {
            "role": "user",
            "parts": [
              {
                "text": "지금 몇 시야? 👋"
              }
            ]
          },
          {
            "role": "model",
            "parts": [
              {
                "functionCall": {
                  "name": "current_time",
                  "args": {
                    "zone": "Asia/Seoul"
                  }
                },
                "thoughtSignature": "skip_thought_signature_validator"
              }
            ]
          },
          {
            "role": "user",
            "parts": [
              {
                "functionResponse": {
                  "name": "current_time",
                  "response": {
                    "output": "2026-11-30T20:00:00+09:00"
                  }
                }
              }
            ]
          },
          {
            "role": "model",
            "parts": [
              {
                "text": "It is 8 pm in Seoul. 🌙"
              }
            ]
          },
          {
            "role": "user",
            "parts": [
              {
                "text": "[System line, notice: neither the assistant's words nor the user's]\\nSwitched to Claude."
              },
              {
                "text": "Read my notes for today."
              }
            ]
          },
          {
            "role": "model",
            "parts": [
              {
                "functionCall": {
                  "name": "read_file",
                  "args": {
                    "path": "notes/오늘.md"
                  }
                },
                "thoughtSignature": "skip_thought_signature_validator"
              }
            ]
          },
          {
            "role": "user",
            "parts": [
              {
                "functionResponse": {
                  "name": "read_file",
                  "response": {
                    "error": "File not found"
                  }
                }
              }
            ]
          },
          {
            "role": "model",
            "parts": [
              {
                "text": "There is no note for today yet."
              }
            ]
          },
          {
            "role": "user",
            "parts": [
              {
                "text": "[System line, summary: neither the assistant's words nor the user's]\\nEarlier: the user asked the time in Seoul."
              },
              {
                "text": "Thanks. And now?"
              }
            ]
          }
        ],
        "tools": [
          {
            "functionDeclarations": [
              {
                "name": "current_time",
                "description": "The current date and time.",
                "parametersJsonSchema": {
                  "type": "object",
                  "properties": {
                    "zone": {
                      "type": "string"
                    }
                  }
                }
              },
              {
                "name": "read_file",
                "description": "Read a file in a granted folder.",
                "parametersJsonSchema": {
                  "type": "object",
                  "properties": {
                    "path": {
                      "type": "string"
                    }
                  },
                  "required": [
                    "path"
                  ]
                }
              }
            ]
          }
        ],
        "generationConfig": {
          "maxOutputTokens": 32000,
          "thinkingConfig": {
            "includeThoughts": true,
            "thinkingLevel": "low"
          }
        }
      }"
    `);
  });

  it('ollama-chat: object arguments, tool_name on answers', () => {
    const { body, warnings } = convertToOllamaMessages(fixtureRequest({ brain: 'ollama', model: 'qwen3' }));
    expect(warnings).toEqual([]);
    expect(json(body)).toMatchInlineSnapshot(`
      "{
        "model": "qwen3",
        "messages": [
          {
            "role": "system",
            "content": "SYSTEM"
          },
          {
            "role": "user",
            "content": "지금 몇 시야? 👋"
          },
          {
            "role": "assistant",
            "content": "",
            "tool_calls": [
              {
                "function": {
                  "name": "current_time",
                  "arguments": {
                    "zone": "Asia/Seoul"
                  }
                }
              }
            ]
          },
          {
            "role": "tool",
            "content": "2026-11-30T20:00:00+09:00",
            "tool_name": "current_time"
          },
          {
            "role": "assistant",
            "content": "It is 8 pm in Seoul. 🌙"
          },
          {
            "role": "user",
            "content": "[System line, notice: neither the assistant's words nor the user's]\\nSwitched to Claude."
          },
          {
            "role": "user",
            "content": "Read my notes for today."
          },
          {
            "role": "assistant",
            "content": "",
            "tool_calls": [
              {
                "function": {
                  "name": "read_file",
                  "arguments": {
                    "path": "notes/오늘.md"
                  }
                }
              }
            ]
          },
          {
            "role": "tool",
            "content": "Error: File not found",
            "tool_name": "read_file"
          },
          {
            "role": "assistant",
            "content": "There is no note for today yet."
          },
          {
            "role": "user",
            "content": "[System line, summary: neither the assistant's words nor the user's]\\nEarlier: the user asked the time in Seoul."
          },
          {
            "role": "user",
            "content": "Thanks. And now?"
          }
        ],
        "tools": [
          {
            "type": "function",
            "function": {
              "name": "current_time",
              "description": "The current date and time.",
              "parameters": {
                "type": "object",
                "properties": {
                  "zone": {
                    "type": "string"
                  }
                }
              }
            }
          },
          {
            "type": "function",
            "function": {
              "name": "read_file",
              "description": "Read a file in a granted folder.",
              "parameters": {
                "type": "object",
                "properties": {
                  "path": {
                    "type": "string"
                  }
                },
                "required": [
                  "path"
                ]
              }
            }
          }
        ],
        "think": false,
        "options": {
          "num_ctx": 200000
        },
        "stream": true
      }"
    `);
  });
});

describe('openai-responses: reasoning items in place', () => {
  const reasoning = (id: string, text: string) => ({ id, type: 'reasoning', summary: [{ type: 'summary_text', text }], encrypted_content: `gAAAA-${id}` });
  const [first, second, last] = [reasoning('rs_1', 'First a.'), reasoning('rs_2', 'Then b.'), reasoning('rs_3', 'Answer.')];
  const calls: ReplayTurn['calls'] = [
    { callId: 'call_01CODEXREPLY00000000000000_0', providerCallId: 'call_a', name: 'read_file', input: { path: 'a.txt' }, answer: 'A', isError: false, server: null },
    { callId: 'call_01CODEXREPLY00000000000000_1', providerCallId: 'call_b', name: 'read_file', input: { path: 'b.txt' }, answer: 'B', isError: false, server: null },
  ];
  const codexTurn = (opaque: unknown): ReplayTurn => ({
    messageId: '01CODEXREPLY00000000000000', role: 'assistant', kind: 'chat', text: 'Both read.', calls, brain: 'codex', model: 'gpt-5.5-codex',
    reasoning: { brain: 'codex', model: 'gpt-5.5-codex', text: 'First a. Then b. Answer.', opaque },
  });
  const inputOf = (turn: ReplayTurn, overrides: Parameters<typeof fixtureRequest>[0] = {}) =>
    convertToOpenAiResponsesInput(
      fixtureRequest({
        brain: 'codex', model: 'gpt-5.5-codex', reasoningLevel: 'medium',
        turns: [{ messageId: 'u1', role: 'user', kind: 'chat', text: 'Read a and b.', calls: [] }, turn, { messageId: 'u2', role: 'user', kind: 'chat', text: 'Thanks.', calls: [] }],
        ...overrides,
      }),
    ).body.input;
  const places = [{ before: 'call', providerCallId: 'call_a' }, { before: 'call', providerCallId: 'call_b' }, { before: 'words' }];
  const functionCall = (index: number, path: string) => ({ type: 'function_call', call_id: `call_01CODEXREPLY00000000000000_${index}`, name: 'read_file', arguments: JSON.stringify({ path }) });
  const output = (index: number, text: string) => ({ type: 'function_call_output', call_id: `call_01CODEXREPLY00000000000000_${index}`, output: text });

  it('replays each item, exactly as received, before the call or the words that followed it', () => {
    expect(inputOf(codexTurn({ blocks: [first, second, last], places }))).toEqual([
      { role: 'user', content: 'Read a and b.' },
      first,
      functionCall(0, 'a.txt'),
      second,
      functionCall(1, 'b.txt'),
      output(0, 'A'),
      output(1, 'B'),
      last,
      { role: 'assistant', content: 'Both read.' },
      { role: 'user', content: 'Thanks.' },
    ]);
  });

  it('replays a reply stored before places were recorded with all its items first, as before', () => {
    expect(inputOf(codexTurn({ blocks: [first, second, last] })).slice(1, 6)).toEqual([first, second, last, functionCall(0, 'a.txt'), functionCall(1, 'b.txt')]);
  });

  it('leaves out an item whose call does not replay as a call, so none dangles', () => {
    const withoutReadFile = inputOf(codexTurn({ blocks: [first, second, last], places }), { tools: TOOLS.filter((tool) => tool.name !== 'read_file') });
    expect(withoutReadFile.filter((item) => 'type' in item && item.type === 'reasoning')).toEqual([last]);
  });

  it('gives the items to the same model only', () => {
    const toOtherModel = inputOf(codexTurn({ blocks: [first, second, last], places }), { model: 'gpt-5.6' });
    expect(toOtherModel.filter((item) => 'type' in item && item.type === 'reasoning')).toEqual([]);
  });
});

describe('cross-wire replay rules', () => {
  const wires = ['anthropic-messages', 'chat-completions', 'openai-responses', 'gemini-generate-content', 'ollama-chat'] as const;

  it.each(wires)('%s replays only the last 12 of 20 calls, with a labelled note and a warning', (wire) => {
    const turns: ReplayTurn[] = [{ messageId: 'u1', role: 'user', kind: 'chat', text: 'many', calls: [] }, manyCallsTurn(20), { messageId: 'u2', role: 'user', kind: 'chat', text: 'next', calls: [] }];
    const { body, warnings } = buildWireRequest(wire, fixtureRequest({ turns }));
    const text = JSON.stringify(body);
    expect(text).not.toContain('Zone/7');
    for (let index = 8; index < 20; index += 1) expect(text).toContain(`Zone/${index}`);
    expect(text).toContain('8 earlier calls of this reply are not shown; the last 12 follow.');
    expect(warnings).toEqual([{ messageId: '01MANYCALLS000000000000000', message: '8 older calls of this reply were left out of the replay.' }]);
  });

  it.each(wires)('%s cuts a 2,000-character input and answer to 500, keeping the input a valid object', (wire) => {
    const long: ReplayTurn = {
      messageId: '01LONGCALL0000000000000000', role: 'assistant', kind: 'chat', text: 'ok', brain: 'claude', model: 'claude-sonnet-4-6',
      calls: [{ callId: 'call_01LONGCALL0000000000000000_0', name: 'read_file', input: { path: 'a'.repeat(2000), note: '가'.repeat(10) }, answer: 'z'.repeat(2000), isError: false }],
    };
    const { body } = buildWireRequest(wire, fixtureRequest({ turns: [{ messageId: 'u', role: 'user', kind: 'chat', text: 'go', calls: [] }, long] }));
    const text = JSON.stringify(body);
    expect(text).not.toContain('a'.repeat(501));
    expect(text).not.toContain('z'.repeat(501));
    expect(text).toContain('가'.repeat(10));
    expect(text).toContain(`${'z'.repeat(MAX_CALL_CHARS - 7)}… [cut]`);
  });

  it.each(wires)('%s replays a call to a tool no longer offered as a labelled record, never a native call', (wire) => {
    const { body, warnings } = buildWireRequest(wire, fixtureRequest({ tools: TOOLS.filter((tool) => tool.name !== 'read_file') }));
    const text = JSON.stringify(body);
    expect(text).toContain(
      '[System line, tool record: the assistant called read_file with {\\"path\\":\\"notes/오늘.md\\"}, which failed with: File not found. That tool is not offered now.]',
    );
    expect(text).not.toMatch(/"name":"read_file"/);
    expect(warnings).toEqual([{ messageId: '01CLAUDEREPLY0000000000000', message: '1 call to tools not offered now replays as text.' }]);
  });

  it.each(wires)('%s is byte-stable, and appending a turn keeps the earlier messages as a prefix', (wire) => {
    const first = JSON.stringify(buildWireRequest(wire, fixtureRequest({ turns: TURNS.slice(0, 4) })).body);
    expect(JSON.stringify(buildWireRequest(wire, fixtureRequest({ turns: TURNS.slice(0, 4) })).body)).toBe(first);
    const strip = (value: string) => value.replace(/,"cache_control":\{"type":"ephemeral"\}/g, '');
    const listKey = wire === 'openai-responses' ? 'input' : wire === 'gemini-generate-content' ? 'contents' : 'messages';
    const earlier = (buildWireRequest(wire, fixtureRequest({ turns: TURNS.slice(0, 4) })).body[listKey] as unknown[]).slice(0, -1);
    const later = buildWireRequest(wire, fixtureRequest({ turns: TURNS })).body[listKey] as unknown[];
    expect(strip(JSON.stringify(later.slice(0, earlier.length)))).toBe(strip(JSON.stringify(earlier)));
  });

  it('sends a foreign Kimi id to Claude as a derived, pattern-safe id', () => {
    const { body } = convertToAnthropicMessages(fixtureRequest({}));
    const ids = JSON.stringify(body).match(/"(?:id|tool_use_id)":"([^"]+)"/g) ?? [];
    expect(ids).toEqual([
      '"id":"call_01KIMIREPLY000000000000000_0"',
      '"tool_use_id":"call_01KIMIREPLY000000000000000_0"',
      '"id":"call_01CLAUDEREPLY0000000000000_0"',
      '"tool_use_id":"call_01CLAUDEREPLY0000000000000_0"',
    ]);
    expect(JSON.stringify(body)).not.toContain('functions.current_time:0');
  });

  it('gives a Claude reply to Kimi with thinking on a reasoning placeholder, never Claude\u2019s thinking', () => {
    const { body } = convertToChatCompletionsMessages(fixtureRequest({ brain: 'kimi', model: 'kimi-k2.6', reasoningLevel: 'high' }));
    const text = JSON.stringify(body);
    expect(text).toContain(JSON.stringify(FOREIGN_REASONING_PLACEHOLDER));
    expect(text).not.toContain('Look for the file.');
    expect(text).not.toContain('RXVjbGlkZWFu');
  });

  it('returns Gemini its own signatures, and gives codex none of them', () => {
    const geminiTurn: ReplayTurn = {
      messageId: '01GEMINIREPLY0000000000000', role: 'assistant', kind: 'chat', text: 'Done', brain: 'gemini', model: 'gemini-3.1-pro-preview',
      reasoning: { brain: 'gemini', model: 'gemini-3.1-pro-preview', text: '', opaque: { blocks: [{ thoughtSignature: 'dGV4dFNpZw==' }] } },
      calls: [
        { callId: 'call_01GEMINIREPLY0000000000000_0', name: 'current_time', input: {}, answer: 'noon', isError: false, opaque: { thoughtSignature: 'Y2FsbFNpZzE=' } },
        { callId: 'call_01GEMINIREPLY0000000000000_1', name: 'current_time', input: { zone: 'UTC' }, answer: 'noon UTC', isError: false, opaque: { thoughtSignature: 'Y2FsbFNpZzI=' } },
      ],
    };
    const turns: ReplayTurn[] = [{ messageId: 'u', role: 'user', kind: 'chat', text: 'time?', calls: [] }, geminiTurn, { messageId: 'u2', role: 'user', kind: 'chat', text: 'ok', calls: [] }];
    const toGemini = convertToGeminiContents(fixtureRequest({ brain: 'gemini', model: 'gemini-3.1-pro-preview', reasoningLevel: 'low', turns })).body;
    expect((toGemini.contents as unknown[]).slice(1)).toEqual([
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'current_time', args: {} }, thoughtSignature: 'Y2FsbFNpZzE=' },
          { functionCall: { name: 'current_time', args: { zone: 'UTC' } }, thoughtSignature: 'Y2FsbFNpZzI=' },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'current_time', response: { output: 'noon' } } },
          { functionResponse: { name: 'current_time', response: { output: 'noon UTC' } } },
        ],
      },
      { role: 'model', parts: [{ text: 'Done', thoughtSignature: 'dGV4dFNpZw==' }] },
      { role: 'user', parts: [{ text: 'ok' }] },
    ]);
    const toOtherGemini = JSON.stringify(convertToGeminiContents(fixtureRequest({ brain: 'gemini', model: 'gemini-3-flash-preview', turns })).body);
    expect(toOtherGemini).toContain(DUMMY_THOUGHT_SIGNATURE);
    expect(toOtherGemini).not.toContain('Y2FsbFNpZzE=');
    const toCodex = JSON.stringify(convertToOpenAiResponsesInput(fixtureRequest({ brain: 'codex', model: 'gpt-5.5-codex', reasoningLevel: 'high', turns })).body);
    expect(toCodex).not.toMatch(/Y2FsbFNpZz|dGV4dFNpZw|skip_thought/);
    expect(toCodex).toContain('"type":"function_call","call_id":"call_01GEMINIREPLY0000000000000_0","name":"current_time","arguments":"{}"');
  });

  it('keeps a live reply\u2019s words before its calls so the request never ends on the assistant', () => {
    const { messageId, calls } = manyCallsTurn(1);
    const live: LiveTurn = { messageId, brain: 'claude', model: 'claude-sonnet-4-6', rounds: [{ text: 'Let me check.', calls }] };
    const turns: ReplayTurn[] = [{ messageId: 'u', role: 'user', kind: 'chat', text: 'time?', calls: [] }];
    const anthropic = convertToAnthropicMessages(fixtureRequest({ turns, live })).body.messages as Array<{ role: string; content: Array<{ type: string }> }>;
    expect(anthropic.map((message) => [message.role, message.content.map((block) => block.type)])).toEqual([
      ['user', ['text']],
      ['assistant', ['text', 'tool_use']],
      ['user', ['tool_result']],
    ]);
    const chat = convertToChatCompletionsMessages(fixtureRequest({ brain: 'kimi', model: 'kimi-k2.6', turns, live })).body.messages as Array<{ role: string }>;
    expect(chat.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool']);
  });

  it('anthropic: the previous turn\u2019s and the previous round\u2019s last blocks stay breakpoints after a reply with 12 calls, within 4 breakpoints', () => {
    type Block = { cache_control?: unknown; text?: string };
    type Message = { content: Block[] };
    const before: ReplayTurn[] = [{ messageId: 'u1', role: 'user', kind: 'chat', text: 'Check twelve zones', calls: [] }];
    const previous = convertToAnthropicMessages(fixtureRequest({ turns: before })).body.messages as Message[];
    const previousLast = previous.at(-1)!.content.at(-1)!;
    expect(previousLast.cache_control).toEqual({ type: 'ephemeral' });

    const after: ReplayTurn[] = [...before, manyCallsTurn(12), { messageId: 'u2', role: 'user', kind: 'chat', text: 'And now?', calls: [] }];
    const request = convertToAnthropicMessages(fixtureRequest({ turns: after })).body;
    const blocks = (request.messages as Message[]).flatMap((message) => message.content);
    const marked = blocks.map((block, index) => (block.cache_control ? index : -1)).filter((index) => index >= 0);
    // 12 tool_use + 12 tool_result + the reply + the new message: 26 blocks, beyond one breakpoint's 20-block lookback.
    expect(blocks.length - 1 - blocks.findIndex((block) => block.text === 'Check twelve zones')).toBe(26);
    // The turn before the reply, the last of its calls' results (where its last round's request ended), the newest block.
    expect(marked).toEqual([0, blocks.length - 3, blocks.length - 1]);
    expect(blocks[0]).toEqual(previousLast);
    expect(blocks[blocks.length - 3]).toMatchObject({ type: 'tool_result' });
    expect(JSON.stringify(request).match(/cache_control/g)?.length).toBeLessThanOrEqual(4);
  });
});

