// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Api } from '../../src-shared/api';
import { installApi } from '../state/api-client';
import { applySettings } from '../state/settings-slice';
import { resetAppStore, useAppStore } from '../state/store';
import { brainSettingsFixture as brainSettings, fakeApi, settingsViewFixture as settingsFixture } from '../state/test-fixtures';
import { SettingsDialog } from './SettingsDialog';

async function settle(): Promise<void> {
  await act(async () => {
    await Promise.resolve();
    await Promise.resolve();
  });
}

function kimiSection(view: ReturnType<typeof render>) {
  const section = view.getAllByTestId('brain-settings').find((element) => element.dataset.brain === 'kimi');
  if (section === undefined) throw new Error('no Kimi section');
  return within(section);
}

beforeEach(() => {
  resetAppStore();
  useAppStore.setState({ settingsOpen: true });
});

afterEach(cleanup);

describe('SettingsDialog', () => {
  it('saves a key write-only and clears the field afterwards', async () => {
    const setKey = vi.fn<Api['setKey']>().mockResolvedValue(
      settingsFixture({ brains: [brainSettings({ keySource: 'stored' })] }),
    );
    installApi(fakeApi({ setKey }));
    useAppStore.setState(applySettings(settingsFixture()));
    const view = render(<SettingsDialog />);
    const kimi = kimiSection(view);
    expect(kimi.getByTestId('key-status').textContent).toBe('No key yet.');
    const input = kimi.getByTestId('key-input') as HTMLInputElement;
    expect(input.type).toBe('password');
    fireEvent.change(input, { target: { value: ' sk-secret ' } });
    fireEvent.click(kimi.getByTestId('save-key'));
    await settle();
    expect(setKey).toHaveBeenCalledWith({ brain: 'kimi', key: 'sk-secret' });
    expect((kimiSection(view).getByTestId('key-input') as HTMLInputElement).value).toBe('');
    expect(kimiSection(view).getByTestId('key-status').textContent).toBe('A key is saved in the system keychain.');
    expect(view.container.textContent).not.toContain('sk-secret');
  });

  it("says whose list the model picker offers once the provider has answered, and nothing before", () => {
    const listedAt = new Date().toISOString();
    useAppStore.setState(
      applySettings(
        settingsFixture({ brains: [brainSettings({ models: ['kimi-k3', 'kimi-k2.6'], modelsListedAt: listedAt }), brainSettings({ brain: 'glm', label: 'GLM', keySource: 'environment' })] }),
      ),
    );
    const view = render(<SettingsDialog />);
    expect(kimiSection(view).getByTestId('brain-models-source').textContent).toBe('The model picker offers the 2 models Moonshot AI listed today.');
    expect(view.getAllByTestId('brain-models-source')).toHaveLength(1);
  });

  it('says why keys cannot be stored, and names the environment variable', () => {
    const refusal = "no system keychain answered. To store keys, start GNOME Keyring or KWallet in your desktop session; until then, set each brain's key in the environment";
    const keyStorage = { place: 'the system keychain', answering: true, refusal, refusalDetail: 'DBus error: no session bus' };
    useAppStore.setState(applySettings(settingsFixture({ canStoreKeys: false, keyStorage })));
    const view = render(<SettingsDialog />);
    expect([...view.getByTestId('key-storage-refusal').querySelectorAll('p')].map((line) => line.textContent)).toEqual([
      `Keys cannot be stored here: ${refusal}. Each brain's variable is named below.`,
      'The keychain said: DBus error: no session bus',
    ]);
    const kimi = kimiSection(view);
    expect(kimi.queryByTestId('key-input')).toBeNull();
    expect(kimi.getByTestId('key-environment-note').textContent).toBe(
      'Keys cannot be stored here. Set the environment variable MOONSHOT_API_KEY before starting Anybrain.',
    );
  });

  it('saves and resets a base URL', async () => {
    const setBaseUrl = vi
      .fn<Api['setBaseUrl']>()
      .mockResolvedValueOnce(
        settingsFixture({ brains: [brainSettings({ baseUrl: 'http://127.0.0.1:9000/v1', baseUrlOverride: 'http://127.0.0.1:9000/v1' })] }),
      )
      .mockResolvedValueOnce(settingsFixture());
    installApi(fakeApi({ setBaseUrl }));
    useAppStore.setState(applySettings(settingsFixture()));
    const view = render(<SettingsDialog />);
    expect((kimiSection(view).getByTestId('reset-base-url') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(kimiSection(view).getByTestId('base-url-input'), { target: { value: 'http://127.0.0.1:9000/v1' } });
    fireEvent.click(kimiSection(view).getByTestId('save-base-url'));
    await settle();
    expect(setBaseUrl).toHaveBeenLastCalledWith({ brain: 'kimi', baseUrl: 'http://127.0.0.1:9000/v1' });
    fireEvent.click(kimiSection(view).getByTestId('reset-base-url'));
    await settle();
    expect(setBaseUrl).toHaveBeenLastCalledWith({ brain: 'kimi', baseUrl: null });
    expect((kimiSection(view).getByTestId('base-url-input') as HTMLInputElement).value).toBe('https://api.moonshot.ai/v1');
  });

  it('explains a key-host refusal and confirms the new host with one click', async () => {
    const message = 'Your Kimi key was confirmed for api.moonshot.ai. Send it to llm.example.com? Confirm in Settings → Kimi.';
    const moved = { baseUrl: 'https://llm.example.com/v1', baseUrlOverride: 'https://llm.example.com/v1', keySource: 'environment' as const };
    const confirmKeyHost = vi.fn<Api['confirmKeyHost']>().mockResolvedValue(settingsFixture({ brains: [brainSettings(moved)] }));
    installApi(fakeApi({ confirmKeyHost }));
    useAppStore.setState(
      applySettings(settingsFixture({ brains: [brainSettings({ ...moved, connectionProblem: { code: 'key-host-unconfirmed', message } })] })),
    );
    const view = render(<SettingsDialog />);
    const notice = kimiSection(view).getByTestId('connection-problem');
    expect(within(notice).getByRole('alert').textContent).toBe(message);
    fireEvent.click(within(notice).getByTestId('confirm-key-host'));
    await settle();
    expect(confirmKeyHost).toHaveBeenCalledWith({ brain: 'kimi' });
    expect(kimiSection(view).queryByTestId('connection-problem')).toBeNull();
    expect(kimiSection(view).getByText('The Kimi key may now be sent to llm.example.com.').getAttribute('role')).toBe('status');
  });

  it('puts configured brains first and collapses the rest under "Not set up (n)"', () => {
    useAppStore.setState(applySettings(settingsFixture({ brains: [settingsFixture().brains[1]!, brainSettings({ keySource: 'environment' })] })));
    const view = render(<SettingsDialog />);
    const cards = view.getAllByTestId('brain-settings');
    expect(cards.map((card) => [card.dataset.brain, card.closest('details') === null])).toEqual([
      ['kimi', true],
      ['ollama', false],
    ]);
    const rest = view.getByTestId('brains-not-set-up') as HTMLDetailsElement;
    expect(rest.open).toBe(false);
    expect(rest.querySelector('summary')?.textContent).toBe('Not set up (1)');
    expect(kimiSection(view).getByTestId('brain-state').textContent).toBe('Key from MOONSHOT_API_KEY');
  });

  it("reports a brain's Test answer beside its button", async () => {
    const testBrain = vi.fn<Api['testBrain']>().mockResolvedValue({ ok: false, message: 'Kimi answered HTTP 401: Invalid Authentication' });
    installApi(fakeApi({ testBrain }));
    useAppStore.setState(applySettings(settingsFixture()));
    const view = render(<SettingsDialog />);
    fireEvent.click(kimiSection(view).getByTestId('brain-test'));
    await settle();
    expect(testBrain).toHaveBeenCalledWith({ brain: 'kimi' });
    const result = kimiSection(view).getByTestId('brain-test-result');
    expect([result.textContent, result.className]).toEqual(['Kimi answered HTTP 401: Invalid Authentication', 'brain-test-result failed']);
  });

  it('shows an insecure base URL refusal without a confirm button', () => {
    const message = 'ANYBRAIN_KIMI_BASE_URL is http://llm.example.com/v1, so nothing was sent. Base URLs must use https://.';
    useAppStore.setState(
      applySettings(settingsFixture({ brains: [brainSettings({ connectionProblem: { code: 'insecure-base-url', message } })] })),
    );
    const view = render(<SettingsDialog />);
    const notice = kimiSection(view).getByTestId('connection-problem');
    expect(notice.dataset.code).toBe('insecure-base-url');
    expect(within(notice).getByRole('alert').textContent).toBe(message);
    expect(within(notice).queryByTestId('confirm-key-host')).toBeNull();
  });

  it('changes the theme and shows the data folder', async () => {
    const setTheme = vi.fn<Api['setTheme']>().mockResolvedValue(settingsFixture({ theme: 'dark' }));
    installApi(fakeApi({ setTheme }));
    useAppStore.setState(applySettings(settingsFixture()));
    const view = render(<SettingsDialog />);
    expect(view.getByTestId('data-dir').textContent).toBe('/home/someone/.local/share/anybrain');
    fireEvent.change(view.getByTestId('theme-select'), { target: { value: 'dark' } });
    expect(useAppStore.getState().themePreference).toBe('dark');
    await settle();
    expect(setTheme).toHaveBeenCalledWith({ theme: 'dark' });
  });

  it('closes with its close button and with Escape', () => {
    useAppStore.setState(applySettings(settingsFixture()));
    const view = render(<SettingsDialog />);
    fireEvent.click(view.getByTestId('close-settings'));
    expect(useAppStore.getState().settingsOpen).toBe(false);
    useAppStore.setState({ settingsOpen: true });
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(useAppStore.getState().settingsOpen).toBe(false);
  });

  it('offers the Context windows tab between General and Tools, showing its section', () => {
    installApi(fakeApi({}));
    useAppStore.setState(applySettings(settingsFixture()));
    const view = render(<SettingsDialog />);
    expect(view.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['General', 'Context windows', 'Tools', 'Usage']);
    fireEvent.keyDown(view.getByTestId('settings-tab-general'), { key: 'ArrowRight' });
    expect(useAppStore.getState().settingsTab).toBe('context');
    expect(view.getByTestId('context-settings')).toBeTruthy();
    expect(view.getByTestId('compaction-brain-select')).toBeTruthy();
  });

  it('switches to the Tools tab by click and by arrow keys, each tab naming its panel', async () => {
    installApi(
      fakeApi({
        getGrantedFolders: async () => ({ folders: [] }),
        listMcpServers: async () => [],
        listTools: async () => [],
        listSkills: async () => ({ folder: '/data/skills', skills: [], problems: [] }),
        getUsage: async () => [],
      }),
    );
    useAppStore.setState(applySettings(settingsFixture()));
    const view = render(<SettingsDialog />);
    const general = view.getByTestId('settings-tab-general');
    const tools = view.getByTestId('settings-tab-tools');
    const usage = view.getByTestId('settings-tab-usage');
    expect(general.getAttribute('aria-selected')).toBe('true');
    expect(view.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(general.id);
    expect(view.queryByTestId('tools-settings')).toBeNull();

    fireEvent.click(tools);
    await settle();
    expect(tools.getAttribute('aria-selected')).toBe('true');
    expect(view.getByTestId('tools-settings')).toBeTruthy();
    expect(view.queryByTestId('theme-select')).toBeNull();
    expect(document.activeElement).toBe(tools);

    fireEvent.keyDown(tools, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(usage);
    await settle();
    expect(view.getByTestId('usage-empty')).toBeTruthy();
    fireEvent.keyDown(usage, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(general);
    expect(view.getByTestId('theme-select')).toBeTruthy();
    fireEvent.keyDown(general, { key: 'End' });
    expect(useAppStore.getState().settingsTab).toBe('usage');
    expect(usage.tabIndex).toBe(0);
    expect(general.tabIndex).toBe(-1);
    await settle();
  });
});
