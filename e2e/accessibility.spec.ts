/**
 * An axe-core scan of every surface a person lives in, in the light and the dark theme: the main window with no
 * conversation and with a new one, a reply that streams reasoning and uses a memory and a tool (while it streams,
 * done, and with its reasoning and receipt details open; also at 480 px), the shortcuts sheet, a tool approval
 * prompt, each Settings tab and the memories page. Any serious or critical
 * violation of WCAG 2.0/2.1 A and AA, or a skipped heading level, fails the test, listed with its rule, impact,
 * target and summary.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { command, newConversation, openApp, pickBrain, sendMessage } from './support/app';
import { ASKING_TOOL, setUpSurfaceScene } from './support/surface-scene';
import { expectReplyStatus } from './support/waits';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const FAILING_IMPACTS = new Set(['serious', 'critical']);
const THEMES = ['light', 'dark'] as const;
const SETTINGS_TABS = ['general', 'context', 'tools'] as const;

interface Finding {
  readonly where: string;
  readonly id: string;
  readonly impact: string;
  readonly target: string;
  readonly summary: string;
}

type Violation = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

function findingsOf(where: string, violations: readonly Violation[]): Finding[] {
  return violations.flatMap((violation) =>
    violation.nodes.map((node) => ({
      where,
      id: violation.id,
      impact: violation.impact ?? 'unknown',
      target: node.target.join(' '),
      summary: (node.failureSummary ?? violation.help).replace(/\s+/g, ' ').trim(),
    })),
  );
}

/**
 * Scans the page as it stands: serious and critical WCAG violations, and any skipped heading level (axe files
 * heading-order under best practice, at moderate impact, so the WCAG tags alone would let it through).
 */
async function scan(page: Page, where: string): Promise<Finding[]> {
  const wcag = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const headings = await new AxeBuilder({ page }).withRules(['heading-order']).analyze();
  return [
    ...findingsOf(where, wcag.violations.filter((violation) => FAILING_IMPACTS.has(violation.impact ?? ''))),
    ...findingsOf(where, headings.violations),
  ];
}

function report(findings: readonly Finding[]): string {
  return findings.map((finding) => `[${finding.where}] ${finding.id} (${finding.impact}) ${finding.target}: ${finding.summary}`).join('\n');
}


for (const theme of THEMES) {
  test(`no serious or critical axe violations in the ${theme} theme`, async ({ page, request }) => {
    test.setTimeout(180_000);
    const findings: Finding[] = [];
    const { marker, restore } = await setUpSurfaceScene(page, request, theme, 'a11ymarker');
    try {
      await openApp(page);
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      findings.push(...(await scan(page, 'main window')));

      await newConversation(page);
      findings.push(...(await scan(page, 'new conversation')));

      // A reply that recalls the memory, reasons first (Kimi streams reasoning on [think]) and calls a tool; scanned
      // while it streams and once it is done, with its reasoning and a receipt chip's details open.
      await pickBrain(page, 'kimi');
      await sendMessage(page, `[think][slow][tool:${ASKING_TOOL}] what is the cat called? ${marker}`);
      const reply = page.locator('[data-testid="message"][data-role="assistant"]').last();
      await expect(reply.getByTestId('reasoning-toggle')).toBeVisible();
      findings.push(...(await scan(page, 'reply streaming')));
      await expectReplyStatus(page, reply, 'complete');
      await expect(reply.getByTestId('receipt-chip')).toHaveCount(2);
      findings.push(...(await scan(page, 'conversation with receipts and reasoning')));
      await reply.getByTestId('reasoning-toggle').click();
      await expect(reply.getByTestId('reasoning-text')).toBeVisible();
      await reply.getByTestId('receipt-chip').filter({ hasText: ASKING_TOOL }).click();
      await expect(reply.getByTestId('invocation-detail')).toBeVisible();
      findings.push(...(await scan(page, 'reasoning and receipt details open')));

      await page.setViewportSize({ width: 480, height: 800 });
      findings.push(...(await scan(page, 'conversation at 480 px')));
      await page.setViewportSize({ width: 1280, height: 800 });

      await page.keyboard.press('Control+/');
      await expect(page.getByTestId('shortcuts-sheet')).toBeVisible();
      findings.push(...(await scan(page, 'shortcuts sheet')));
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('shortcuts-sheet')).toBeHidden();

      await command(request, 'setToolPolicy', { server: null, tool: ASKING_TOOL, policy: 'ask' });
      await sendMessage(page, `[tool:${ASKING_TOOL}] and the time?`);
      const asking = page.locator('[data-testid="message"][data-role="assistant"]').last();
      const prompt = asking.getByTestId('approval-prompt');
      await expect(prompt).toBeVisible();
      findings.push(...(await scan(page, 'tool approval prompt')));
      await prompt.getByTestId('approval-allow').click();
      await expectReplyStatus(page, asking, 'complete');

      // A failed reply: its one error block, with Retry inside it.
      await sendMessage(page, '[error-midstream] and a failure');
      const failed = page.locator('[data-testid="message"][data-role="assistant"]').last();
      await expectReplyStatus(page, failed, 'failed');
      await expect(failed.getByTestId('message-error').getByTestId('retry-button')).toBeVisible();
      findings.push(...(await scan(page, 'failed reply')));

      await page.getByTestId('open-settings').click();
      for (const tab of SETTINGS_TABS) {
        await page.getByTestId(`settings-tab-${tab}`).click();
        await expect(page.locator(`#settings-panel-${tab}`)).toBeVisible();
        if (tab === 'tools') await expect(page.getByTestId('tools-settings')).toBeVisible();
        findings.push(...(await scan(page, `Settings, ${tab} tab`)));
      }
      await page.getByTestId('close-settings').click();
      await expect(page.getByTestId('settings-dialog')).toBeHidden();

      await page.getByTestId('open-memories').click();
      await expect(page.getByTestId('memories-view')).toBeVisible();
      await expect(page.getByTestId('memory-item').first()).toBeVisible();
      findings.push(...(await scan(page, 'memories page')));
      await page.getByTestId('memory-item').first().getByTestId('memory-delete').click();
      await expect(page.getByTestId('inline-confirm')).toBeVisible();
      findings.push(...(await scan(page, 'memory delete confirmation')));
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('inline-confirm')).toHaveCount(0);
    } finally {
      await restore();
    }

    if (findings.length > 0) console.log(`axe found ${findings.length} serious or critical violations (${theme}):\n${report(findings)}`);
    expect(findings, report(findings)).toEqual([]);
  });
}
