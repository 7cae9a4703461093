/**
 * The layer rules in eslint.config.js, run through ESLint's Node API on deliberately wrong imports: each must be
 * reported, and each allowed counterpart must not be, so a rule that stops matching fails here instead of silently.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

/** The restricted-import messages ESLint reports for `source` as if it lived at `file`. */
async function restrictedImports(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const used = value;\n`, { filePath: file });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

describe('layer rules', () => {
  it.each([
    ['the replay importing a tools module that reads files', 'src-main/core/replay/collect.ts', "import { RUN_SKILL_TOOL as value } from '../tools/skills';", 'The replay is pure'],
    ['the replay importing the MCP host', 'src-main/core/replay/call-shaping.ts', "import { McpHost as value } from '../tools/mcp/host';", 'The replay is pure'],
    ['a converter importing a tools module', 'src-main/core/replay/wires/anthropic-messages.ts', "import { RUN_SKILL_TOOL as value } from '../../tools/run-skill-tool';", 'Converters are pure'],
    ['the tool catalogue importing the replay', 'src-main/core/tools/catalogue.ts', "import type { ToolDeclaration as value } from '../replay/types';", 'Tools know nothing of the replay'],
    ['transcripts running their own SQL', 'src-main/core/transcripts/repair.ts', "import { eq as value } from 'drizzle-orm';", 'SQL lives in src-main/core/store'],
    ['transcripts reading the schema', 'src-main/core/transcripts/export.ts', "import { messages as value } from '../../../db/schema';", 'SQL lives in src-main/core/store'],
    ['the engine opening SQLite itself', 'src-main/core/engine/run-turn.ts', "import value from 'better-sqlite3';", 'SQL lives in src-main/core/store'],
    ['a pure tool module reading files', 'src-main/core/tools/run-skill-tool.ts', "import { readFileSync as value } from 'node:fs';", 'This layer runs without Node'],
    ['a pure tool module importing the skills reader', 'src-main/core/tools/run-skill-tool.ts', "import { parseSkill as value } from './skills';", 'A pure tool module imports no I/O'],
  ])('reports %s', async (_case, file, source, message) => {
    const messages = await restrictedImports(file, source);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(message);
  });

  it.each([
    ['the replay importing the pure skill tool name', 'src-main/core/replay/collect.ts', "import { RUN_SKILL_TOOL as value } from '../tools/run-skill-tool';"],
    ['the replay importing store row types', 'src-main/core/replay/collect.ts', "import type { MessageRow as value } from '../store/messages';"],
    ['the store running SQL', 'src-main/core/store/repairs.ts', "import { eq as value } from 'drizzle-orm';"],
    ['a test seeding the database', 'src-main/core/transcripts/repair.test.ts', "import { messages as value } from '../../../db/schema';"],
    ['a tools test reaching into the replay', 'src-main/core/tools/mcp/manager.test.ts', "import { bareToolName as value } from '../../replay/call-shaping';"],
  ])('allows %s', async (_case, file, source) => {
    expect(await restrictedImports(file, source)).toEqual([]);
  });
});
