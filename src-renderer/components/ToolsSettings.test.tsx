// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type Api, type McpServerView, type SkillsView, type ToolView } from '../../src-shared/api';
import { installApi } from '../state/api-client';
import { resetAppStore, useAppStore } from '../state/store';
import { fakeApi, mcpServerFixture, toolFixture } from '../state/test-fixtures';
import { ToolsSettings } from './ToolsSettings';

const builtInTools: ToolView[] = [
  toolFixture(),
  toolFixture({ name: 'current_time', tool: 'current_time', description: 'The current time.' }),
];
const echoTool = toolFixture({ name: 'everything__echo', tool: 'echo', server: 'everything', description: 'Echoes back the input.', policy: 'ask' });
const noSkills: SkillsView = { folder: '/data/skills', skills: [], problems: [] };

/** Every section's loader answers, so a test only supplies the commands it is about. */
function baseCommands(): Partial<Api> {
  return {
    getGrantedFolders: async () => ({ folders: ['/home/me/notes'] }),
    listMcpServers: async () => [],
    listTools: async () => builtInTools,
    listSkills: async () => noSkills,
  };
}

async function settle(): Promise<void> {
  await act(async () => {
    for (let round = 0; round < 8; round += 1) await Promise.resolve();
  });
}

async function renderSettings(commands: Partial<Api>) {
  installApi(fakeApi({ ...baseCommands(), ...commands }));
  const view = render(<ToolsSettings />);
  await settle();
  return view;
}

function serverRow(view: ReturnType<typeof render>, serverId: string) {
  const found = view.getAllByTestId('mcp-server').find((row) => row.dataset.serverId === serverId);
  if (found === undefined) throw new Error(`no server ${serverId}`);
  return within(found);
}

beforeEach(resetAppStore);
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('granted folders', () => {
  it('lists the folders and explains what they allow', async () => {
    const view = await renderSettings({});
    expect(view.getByTestId('tools-settings').textContent).toContain('read_file and list_directory can only read inside these folders');
    expect(view.getAllByTestId('granted-folder').map((row) => row.textContent)).toEqual(['/home/me/notesRemove']);
  });

  it('adds an absolute folder to the list and clears the field', async () => {
    const setGrantedFolders = vi.fn<Api['setGrantedFolders']>(async ({ folders }) => ({ folders }));
    const view = await renderSettings({ setGrantedFolders });
    const input = view.getByTestId('granted-folder-input') as HTMLInputElement;
    fireEvent.change(input, { target: { value: ' /home/me/code ' } });
    fireEvent.click(view.getByTestId('add-granted-folder'));
    await settle();
    expect(setGrantedFolders).toHaveBeenCalledWith({ folders: ['/home/me/notes', '/home/me/code'] });
    expect(view.getAllByTestId('granted-folder').map((row) => row.dataset.folder)).toEqual(['/home/me/notes', '/home/me/code']);
    expect(input.value).toBe('');
  });

  it('refuses a relative path without asking the host, and shows the host refusal otherwise', async () => {
    const setGrantedFolders = vi
      .fn<Api['setGrantedFolders']>()
      .mockRejectedValue(new ApiError('invalid-input', 'Granted folders must be absolute paths.'));
    const view = await renderSettings({ setGrantedFolders });
    fireEvent.change(view.getByTestId('granted-folder-input'), { target: { value: 'notes' } });
    fireEvent.click(view.getByTestId('add-granted-folder'));
    await settle();
    expect(setGrantedFolders).not.toHaveBeenCalled();
    expect(view.getByTestId('granted-folder-error').textContent).toBe('Enter an absolute path, starting with / (or a drive letter on Windows).');
    fireEvent.change(view.getByTestId('granted-folder-input'), { target: { value: 'C:\\Users\\me' } });
    fireEvent.click(view.getByTestId('add-granted-folder'));
    await settle();
    expect(setGrantedFolders).toHaveBeenCalledWith({ folders: ['/home/me/notes', 'C:\\Users\\me'] });
    expect(view.getByTestId('granted-folder-error').textContent).toBe('Granted folders must be absolute paths.');
  });

  it('removes a folder', async () => {
    const setGrantedFolders = vi.fn<Api['setGrantedFolders']>(async ({ folders }) => ({ folders }));
    const view = await renderSettings({ setGrantedFolders });
    const remove = view.getByTestId('remove-granted-folder');
    expect(remove.getAttribute('aria-label')).toBe('Remove access to /home/me/notes');
    fireEvent.click(remove);
    await settle();
    expect(setGrantedFolders).toHaveBeenCalledWith({ folders: [] });
    expect(view.queryAllByTestId('granted-folder')).toEqual([]);
    expect(view.getByText('No folders yet: the file tools can read nothing.')).toBeTruthy();
  });
});

describe('MCP servers', () => {
  function fillForm(view: ReturnType<typeof render>, fields: { label: string; command: string; args: string; env: string }) {
    fireEvent.click(view.getByTestId('mcp-open-add'));
    fireEvent.change(view.getByTestId('mcp-label'), { target: { value: fields.label } });
    fireEvent.change(view.getByTestId('mcp-command'), { target: { value: fields.command } });
    fireEvent.change(view.getByTestId('mcp-args'), { target: { value: fields.args } });
    fireEvent.change(view.getByTestId('mcp-env'), { target: { value: fields.env } });
  }

  it('keeps the add form folded behind one button; it opens on the Name field and Cancel folds it again', async () => {
    const view = await renderSettings({});
    expect(view.queryByTestId('mcp-label')).toBeNull();
    expect(view.queryByRole('heading', { name: 'Add a server' })).toBeNull();
    fireEvent.click(view.getByTestId('mcp-open-add'));
    expect(document.activeElement).toBe(view.getByTestId('mcp-label'));
    fireEvent.change(view.getByTestId('mcp-label'), { target: { value: 'Files' } });
    fireEvent.click(view.getByTestId('mcp-cancel-add'));
    expect(view.queryByTestId('mcp-label')).toBeNull();
    expect(document.activeElement).toBe(view.getByTestId('mcp-open-add'));
    fireEvent.click(view.getByTestId('mcp-open-add'));
    expect((view.getByTestId('mcp-label') as HTMLInputElement).value).toBe('');
  });

  it('shows each server with its command, arguments, status and the error of a failed one', async () => {
    const view = await renderSettings({
      listMcpServers: async () => [
        mcpServerFixture({ envNames: ['API_TOKEN'] }),
        mcpServerFixture({ id: 'files', label: 'Work files', status: 'failed', error: 'spawn npx ENOENT', command: 'npx', args: ['-y', 'server files'] }),
        mcpServerFixture({ id: 'off', label: 'Off', enabled: false, status: 'disabled' }),
      ],
    });
    const everything = serverRow(view, 'everything');
    expect(everything.getByTestId('mcp-server-status').textContent).toBe('running');
    // The id made from the label says nothing more, so the name shows once; an id the label does not spell shows.
    expect(everything.getByTestId('mcp-server-label').parentElement?.textContent).toBe('Everythingrunning');
    expect(everything.queryByTestId('mcp-server-id')).toBeNull();
    expect(serverRow(view, 'files').getByTestId('mcp-server-id').textContent).toBe('files');
    expect(everything.getByText('/usr/bin/node')).toBeTruthy();
    expect(everything.getByText('/srv/everything/index.js')).toBeTruthy();
    expect(view.getByTestId('tools-settings').textContent).toContain('Environment: API_TOKEN');
    expect((everything.getByTestId('mcp-server-enabled') as HTMLInputElement).checked).toBe(true);
    expect(everything.queryByTestId('mcp-server-disabled-note')).toBeNull();
    const files = serverRow(view, 'files');
    expect(files.getByTestId('mcp-server-status').textContent).toBe('failed: spawn npx ENOENT');
    expect(files.getByText('server files')).toBeTruthy();
    expect(serverRow(view, 'off').getByTestId('mcp-server-status').dataset.status).toBe('disabled');
    expect((serverRow(view, 'off').getByTestId('mcp-server-enabled') as HTMLInputElement).checked).toBe(false);
    expect(serverRow(view, 'off').getByTestId('mcp-server-disabled-note').textContent).toBe(
      'Disabled: this command does not run until you enable it. A new server, or a changed command, arguments or environment, always waits for you here.Enable',
    );
    expect(serverRow(view, 'off').getByTestId('mcp-server-enable').getAttribute('aria-label')).toBe('Enable Off');
  });

  it('adds a server with one argument per line and KEY=value variables, disabled until Enable, then lists its tools', async () => {
    const added = mcpServerFixture({ enabled: false, status: 'disabled', envNames: ['API_TOKEN', 'MODE'] });
    const saveMcpServer = vi.fn<Api['saveMcpServer']>().mockResolvedValue([added]);
    const setMcpServerEnabled = vi.fn<Api['setMcpServerEnabled']>().mockResolvedValue([{ ...added, enabled: true, status: 'stopped' }]);
    const listTools = vi.fn<Api['listTools']>().mockResolvedValue(builtInTools);
    let servers: McpServerView[] = [];
    const view = await renderSettings({ saveMcpServer, setMcpServerEnabled, listTools, listMcpServers: async () => servers });
    servers = [added];
    fillForm(view, {
      label: ' Everything ',
      command: ' /usr/bin/node ',
      args: '/srv/my servers/everything/index.js\n\nstdio\n',
      env: 'API_TOKEN=abc=def\n\nMODE=fast\n',
    });
    fireEvent.click(view.getByTestId('mcp-add'));
    await settle();
    expect(saveMcpServer).toHaveBeenCalledWith({
      label: 'Everything',
      command: '/usr/bin/node',
      args: ['/srv/my servers/everything/index.js', 'stdio'],
      env: { API_TOKEN: 'abc=def', MODE: 'fast' },
    });
    expect((view.getByTestId('mcp-label') as HTMLInputElement).value).toBe('');
    expect(view.queryByTestId('mcp-error')).toBeNull();
    expect(view.getByRole('status').textContent).toBe(
      'Added Everything. It is disabled until you check its command below and choose Enable; its tools then ask before they run until you choose otherwise.',
    );
    const row = serverRow(view, 'everything');
    expect(row.getByTestId('mcp-server-status').textContent).toBe('disabled');
    expect(view.getAllByTestId('tool-row').map((tool) => tool.dataset.toolName)).not.toContain('everything__echo');

    servers = [mcpServerFixture({ envNames: ['API_TOKEN', 'MODE'] })];
    listTools.mockResolvedValue([...builtInTools, echoTool]);
    fireEvent.click(row.getByTestId('mcp-server-enable'));
    await settle();
    expect(setMcpServerEnabled).toHaveBeenCalledWith({ id: 'everything', enabled: true });
    expect(serverRow(view, 'everything').getByTestId('mcp-server-status').textContent).toBe('running');
    expect(serverRow(view, 'everything').queryByTestId('mcp-server-disabled-note')).toBeNull();
    expect(view.getAllByTestId('tool-row').map((tool) => tool.dataset.toolName)).toContain('everything__echo');
  });

  it('reports a bad environment line without asking the host', async () => {
    const saveMcpServer = vi.fn<Api['saveMcpServer']>();
    const view = await renderSettings({ saveMcpServer });
    fillForm(view, { label: 'Files', command: 'npx', args: '', env: 'GOOD=1\nnot a variable' });
    fireEvent.click(view.getByTestId('mcp-add'));
    await settle();
    expect(saveMcpServer).not.toHaveBeenCalled();
    expect(view.getByTestId('mcp-error').textContent).toBe('Environment line 2 has no “=”. Write each variable as KEY=value.');
    expect((view.getByTestId('mcp-label') as HTMLInputElement).value).toBe('Files');
  });

  it('shows the host refusal of a shell-like command and keeps the form', async () => {
    const refusal =
      'The command "npx -y server | tee log" looks like a whole command line. Servers run without a shell, so split it.';
    const view = await renderSettings({ saveMcpServer: () => Promise.reject(new ApiError('invalid-input', refusal)) });
    fillForm(view, { label: 'Shell', command: 'npx -y server | tee log', args: '', env: '' });
    fireEvent.click(view.getByTestId('mcp-add'));
    await settle();
    expect(view.getByTestId('mcp-error').textContent).toBe(refusal);
    expect((view.getByTestId('mcp-command') as HTMLInputElement).value).toBe('npx -y server | tee log');
  });

  it('disables a server through setMcpServerEnabled, and removes one after confirming in place', async () => {
    const server = mcpServerFixture({ envNames: ['MODE'] });
    const setMcpServerEnabled = vi.fn<Api['setMcpServerEnabled']>().mockResolvedValue([{ ...server, enabled: false, status: 'disabled' }]);
    const removeMcpServer = vi.fn<Api['removeMcpServer']>().mockResolvedValue([]);
    let servers: McpServerView[] = [server];
    const view = await renderSettings({
      setMcpServerEnabled,
      removeMcpServer,
      listMcpServers: async () => servers,
    });
    servers = [{ ...server, enabled: false, status: 'disabled' }];
    fireEvent.click(serverRow(view, 'everything').getByTestId('mcp-server-enabled'));
    await settle();
    expect(setMcpServerEnabled).toHaveBeenCalledWith({ id: 'everything', enabled: false });
    expect(serverRow(view, 'everything').getByTestId('mcp-server-status').textContent).toBe('disabled');

    const confirm = vi.spyOn(window, 'confirm');
    fireEvent.click(serverRow(view, 'everything').getByTestId('mcp-server-remove'));
    const question = serverRow(view, 'everything').getByTestId('inline-confirm');
    expect(question.textContent).toBe('Remove “Everything” and its tools?RemoveCancel');
    expect(document.activeElement?.textContent).toBe('Cancel');
    fireEvent.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(serverRow(view, 'everything').queryByTestId('inline-confirm')).toBeNull();
    expect(removeMcpServer).not.toHaveBeenCalled();
    fireEvent.click(serverRow(view, 'everything').getByTestId('mcp-server-remove'));
    fireEvent.keyDown(serverRow(view, 'everything').getByTestId('inline-confirm-cancel'), { key: 'Escape' });
    expect(serverRow(view, 'everything').queryByTestId('inline-confirm')).toBeNull();
    expect(view.getByTestId('tools-settings')).toBeTruthy();
    servers = [];
    fireEvent.click(serverRow(view, 'everything').getByTestId('mcp-server-remove'));
    fireEvent.click(serverRow(view, 'everything').getByRole('button', { name: 'Remove' }));
    await settle();
    expect(confirm).not.toHaveBeenCalled();
    expect(removeMcpServer).toHaveBeenCalledWith({ id: 'everything' });
    expect(view.queryAllByTestId('mcp-server')).toEqual([]);
  });
});

describe('editing an MCP server', () => {
  // The Api carries variable names only: the window never has a stored value to show or leak.
  const server = mcpServerFixture({ enabled: false, status: 'disabled', envNames: ['API_TOKEN', 'MODE', 'OLD'] });

  function field(view: ReturnType<typeof render>, testId: string): HTMLInputElement | HTMLTextAreaElement {
    const element = view.getByTestId(testId);
    if (!(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement)) throw new Error(`${testId} is not a field`);
    return element;
  }

  function storedVariable(view: ReturnType<typeof render>, name: string) {
    const found = view.getAllByTestId('mcp-edit-stored-variable').find((row) => row.dataset.name === name);
    if (found === undefined) throw new Error(`no stored variable ${name}`);
    return within(found);
  }

  async function openEdit(commands: Partial<Api> = {}) {
    const view = await renderSettings({ listMcpServers: async () => [server], ...commands });
    fireEvent.click(serverRow(view, 'everything').getByTestId('mcp-server-edit'));
    return view;
  }

  it('turns the row into the form: label, command, one argument per line, and each variable by name with its value kept', async () => {
    const view = await openEdit();
    const row = serverRow(view, 'everything');
    expect(row.queryByTestId('mcp-server-enabled')).toBeNull();
    expect(row.queryByTestId('mcp-server-edit')).toBeNull();
    expect(field(view, 'mcp-edit-label').value).toBe('Everything');
    expect(field(view, 'mcp-edit-command').value).toBe('/usr/bin/node');
    expect(field(view, 'mcp-edit-args').value).toBe('/srv/everything/index.js\nstdio');
    expect(
      view.getAllByTestId('mcp-edit-variable-value').map((input) => {
        const value = input as HTMLInputElement;
        return [value.labels?.[0]?.textContent, value.type, value.placeholder, value.value];
      }),
    ).toEqual([
      ['API_TOKEN', 'password', 'stored value kept', ''],
      ['MODE', 'password', 'stored value kept', ''],
      ['OLD', 'password', 'stored value kept', ''],
    ]);
    expect(document.getElementById('mcp-edit-everything-stored-env-hint')?.textContent).toBe(
      'Stored values are never shown. Leave a field empty to keep its value, or type a new one to replace it.',
    );
    expect(view.getByLabelText('Add variables')).toBe(view.getByTestId('mcp-edit-env'));
    expect(field(view, 'mcp-edit-env').value).toBe('');
    expect(document.activeElement).toBe(view.getByTestId('mcp-edit-label'));
    expect(view.queryByTestId('mcp-label')).toBeNull();
  });

  it('heads the edit form one level under the servers section (axe heading-order)', async () => {
    const view = await openEdit();
    const title = view.getByRole('heading', { name: 'Edit Everything everything' });
    expect([title.tagName, title.id]).toEqual(['H4', 'mcp-edit-everything-title']);
  });

  it('saves the same id with null for each kept value, a typed replacement, a removed variable left out and new ones added', async () => {
    const edited = { ...server, label: 'Everything (edited)', args: ['/srv/everything/index.js', 'stdio', '--verbose'], envNames: ['API_TOKEN', 'MODE', 'NEW_FLAG'] };
    const saveMcpServer = vi.fn<Api['saveMcpServer']>().mockResolvedValue([edited]);
    let servers: McpServerView[] = [server];
    const view = await openEdit({ saveMcpServer, listMcpServers: async () => servers });
    servers = [edited];
    fireEvent.change(view.getByTestId('mcp-edit-label'), { target: { value: ' Everything (edited) ' } });
    fireEvent.change(view.getByTestId('mcp-edit-command'), { target: { value: ' /usr/local/bin/node ' } });
    fireEvent.change(view.getByTestId('mcp-edit-args'), { target: { value: '/srv/everything/index.js\n\nstdio\n--verbose\n' } });
    fireEvent.change(storedVariable(view, 'MODE').getByTestId('mcp-edit-variable-value'), { target: { value: 'slow=er' } });
    fireEvent.click(storedVariable(view, 'OLD').getByTestId('mcp-edit-variable-remove'));
    expect((storedVariable(view, 'OLD').getByTestId('mcp-edit-variable-value') as HTMLInputElement).placeholder).toBe('will be removed');
    expect(storedVariable(view, 'OLD').getByTestId('mcp-edit-variable-remove').getAttribute('aria-label')).toBe('Keep OLD');
    fireEvent.change(view.getByTestId('mcp-edit-env'), { target: { value: 'NEW_FLAG=1\n' } });
    fireEvent.click(view.getByTestId('mcp-edit-save'));
    await settle();
    expect(saveMcpServer).toHaveBeenCalledTimes(1);
    expect(saveMcpServer).toHaveBeenCalledWith({
      id: 'everything',
      label: 'Everything (edited)',
      command: '/usr/local/bin/node',
      args: ['/srv/everything/index.js', 'stdio', '--verbose'],
      env: { API_TOKEN: null, MODE: 'slow=er', NEW_FLAG: '1' },
    });
    const row = serverRow(view, 'everything');
    expect(view.queryByTestId('mcp-edit-label')).toBeNull();
    expect(row.getByTestId('mcp-server-label').textContent).toBe('Everything (edited)');
    expect(row.getByText('--verbose')).toBeTruthy();
    expect(row.getByTestId('mcp-server-enable')).toBeTruthy();
  });

  it('cancels with the button or Esc, restoring the row without saving, and opens again with the stored fields', async () => {
    const saveMcpServer = vi.fn<Api['saveMcpServer']>();
    const view = await openEdit({ saveMcpServer });
    fireEvent.change(view.getByTestId('mcp-edit-label'), { target: { value: 'Typed but cancelled' } });
    fireEvent.change(storedVariable(view, 'API_TOKEN').getByTestId('mcp-edit-variable-value'), { target: { value: 'typed' } });
    fireEvent.click(view.getByTestId('mcp-edit-cancel'));
    expect(view.queryByTestId('mcp-edit-label')).toBeNull();
    expect(serverRow(view, 'everything').getByTestId('mcp-server-label').textContent).toBe('Everything');
    expect(view.getByTestId('tools-settings').textContent).not.toContain('Typed but cancelled');

    fireEvent.click(serverRow(view, 'everything').getByTestId('mcp-server-edit'));
    expect(field(view, 'mcp-edit-label').value).toBe('Everything');
    expect((storedVariable(view, 'API_TOKEN').getByTestId('mcp-edit-variable-value') as HTMLInputElement).value).toBe('');
    fireEvent.change(view.getByTestId('mcp-edit-command'), { target: { value: 'typed' } });
    const dialogEscape = vi.fn();
    window.addEventListener('keydown', dialogEscape);
    try {
      fireEvent.keyDown(view.getByTestId('mcp-edit-command'), { key: 'Escape' });
    } finally {
      window.removeEventListener('keydown', dialogEscape);
    }
    expect(dialogEscape).not.toHaveBeenCalled();
    expect(view.queryByTestId('mcp-edit-command')).toBeNull();
    expect(serverRow(view, 'everything').getByText('/usr/bin/node')).toBeTruthy();
    expect(saveMcpServer).not.toHaveBeenCalled();
  });

  it('shows the host refusal in the row and keeps the form with what was typed', async () => {
    const refusal =
      'The command "npx -y server | tee log" looks like a whole command line. Servers run without a shell, so split it.';
    const saveMcpServer = vi.fn<Api['saveMcpServer']>().mockRejectedValue(new ApiError('invalid-input', refusal));
    const view = await openEdit({ saveMcpServer });
    fireEvent.change(view.getByTestId('mcp-edit-command'), { target: { value: 'npx -y server | tee log' } });
    fireEvent.change(storedVariable(view, 'MODE').getByTestId('mcp-edit-variable-value'), { target: { value: 'typed-value' } });
    fireEvent.click(view.getByTestId('mcp-edit-save'));
    await settle();
    expect(saveMcpServer).toHaveBeenCalledTimes(1);
    const row = serverRow(view, 'everything');
    expect(row.getByTestId('mcp-edit-error').textContent).toBe(refusal);
    expect(field(view, 'mcp-edit-command').value).toBe('npx -y server | tee log');
    expect((storedVariable(view, 'MODE').getByTestId('mcp-edit-variable-value') as HTMLInputElement).value).toBe('typed-value');
    expect((view.getByTestId('mcp-edit-save') as HTMLButtonElement).disabled).toBe(false);
    expect(view.queryByTestId('mcp-error')).toBeNull();
  });

  it('reports a bad added line by its number, and a stored variable added again, without asking the host', async () => {
    const saveMcpServer = vi.fn<Api['saveMcpServer']>();
    const view = await openEdit({ saveMcpServer });
    fireEvent.change(view.getByTestId('mcp-edit-env'), { target: { value: 'NEW=1\npasted-secret-line' } });
    fireEvent.click(view.getByTestId('mcp-edit-save'));
    await settle();
    const error = () => serverRow(view, 'everything').getByTestId('mcp-edit-error').textContent;
    expect(error()).toBe('Environment line 2 has no “=”. Write each variable as KEY=value.');
    expect(field(view, 'mcp-edit-env').value).toBe('NEW=1\npasted-secret-line');
    fireEvent.change(view.getByTestId('mcp-edit-env'), { target: { value: 'MODE=again' } });
    fireEvent.click(view.getByTestId('mcp-edit-save'));
    await settle();
    expect(error()).toBe('MODE is already set above: type its new value there.');
    expect(saveMcpServer).not.toHaveBeenCalled();
  });
});

describe('tool policies', () => {
  it('lists tools as server · tool or the bare name, with their descriptions and policies', async () => {
    const view = await renderSettings({ listTools: async () => [...builtInTools, echoTool] });
    const rows = view.getAllByTestId('tool-row');
    expect(rows.map((row) => row.dataset.toolName)).toEqual(['read_file', 'current_time', 'everything__echo']);
    const echo = within(rows[2] as HTMLElement);
    expect(echo.getByText('everything · echo')).toBeTruthy();
    expect(echo.getByText('Echoes back the input.')).toBeTruthy();
    expect((echo.getByTestId('tool-policy') as HTMLSelectElement).value).toBe('ask');
    expect(echo.getByTestId('tool-policy').getAttribute('aria-label')).toBe('When everything · echo may run');
  });

  it('sets a policy through the Api and shows the answer', async () => {
    const setToolPolicy = vi.fn<Api['setToolPolicy']>().mockResolvedValue([toolFixture({ policy: 'deny' }), builtInTools[1] as ToolView]);
    const view = await renderSettings({ setToolPolicy });
    const select = within(view.getAllByTestId('tool-row')[0] as HTMLElement).getByTestId('tool-policy') as HTMLSelectElement;
    fireEvent.change(select, { target: { value: 'deny' } });
    await settle();
    expect(setToolPolicy).toHaveBeenCalledWith({ server: null, tool: 'read_file', policy: 'deny' });
    expect((within(view.getAllByTestId('tool-row')[0] as HTMLElement).getByTestId('tool-policy') as HTMLSelectElement).value).toBe('deny');
  });

  it('names the server of an MCP tool when setting its policy, and goes back on a refusal', async () => {
    const setToolPolicy = vi.fn<Api['setToolPolicy']>().mockRejectedValue(new ApiError('internal', 'Could not save.'));
    const view = await renderSettings({ listTools: async () => [echoTool], setToolPolicy });
    fireEvent.change(view.getByTestId('tool-policy'), { target: { value: 'allow' } });
    await settle();
    expect(setToolPolicy).toHaveBeenCalledWith({ server: 'everything', tool: 'echo', policy: 'allow' });
    expect((view.getByTestId('tool-policy') as HTMLSelectElement).value).toBe('ask');
    expect(within(view.getByTestId('tool-row')).getByRole('alert').textContent).toBe('Could not save.');
  });

  it('offers a retry when the tools cannot be listed', async () => {
    const listTools = vi.fn<Api['listTools']>().mockRejectedValueOnce(new Error('Timed out.')).mockResolvedValue(builtInTools);
    const view = await renderSettings({ listTools });
    expect(view.getByText('Could not load the tools: Timed out.')).toBeTruthy();
    fireEvent.click(view.getByRole('button', { name: 'Try again' }));
    await settle();
    expect(view.getAllByTestId('tool-row')).toHaveLength(2);
  });
});

describe('skills', () => {
  it('shows the folder, each skill and the files that could not be read', async () => {
    const view = await renderSettings({
      listSkills: async () => ({
        folder: '/data/skills',
        skills: [{ name: 'whale-facts', description: 'Answer with whale facts.', file: '/data/skills/whale-facts.md' }],
        problems: [{ file: '/data/skills/broken.md', problem: 'It has no name in its front matter.' }],
      }),
    });
    expect(view.getByTestId('skills-folder').textContent).toBe('/data/skills');
    expect(view.getByTestId('skill-item').textContent).toBe('/whale-factsAnswer with whale facts.');
    expect(view.getByTestId('skill-problem').textContent).toBe('/data/skills/broken.md: It has no name in its front matter.');
    expect(view.getByTestId('tools-settings').textContent).toContain('/name in the composer');
    expect(useAppStore.getState().skills?.skills).toHaveLength(1);
  });
});

describe('help text', () => {
  it('opens each section on one line of help, its details folded behind a closed Learn more', async () => {
    const view = await renderSettings({});
    const hints = ['granted-folders-title', 'mcp-servers-title', 'tool-policies-title', 'skills-title'].map((titleId) => {
      const section = document.getElementById(titleId)?.closest('section');
      if (!section) throw new Error(`No section headed by ${titleId}.`);
      const details = section.querySelector('details.learn-more');
      return [section.querySelector('.field-hint')?.textContent, details?.hasAttribute('open'), details?.querySelector('summary')?.textContent];
    });
    expect(hints).toEqual([
      ['The file tools can read these folders and their subfolders, and nothing else.', false, 'Learn more about folders brains may read'],
      ['Programs on this computer that give brains more tools.', false, 'Learn more about MCP servers'],
      ['Choose which tools run at once, which ask you first, and which are off.', false, 'Learn more about tool policies'],
      ['Markdown files in /data/skills: start a message with /name in the composer to run one.', false, 'Learn more about skills'],
    ]);
    expect(view.getByTestId('tools-settings').textContent).toContain('Tools of MCP servers ask first until you choose otherwise.');
  });
});

describe('heading levels', () => {
  it('heads each section one level under the dialog title and the add form one under its section (axe heading-order)', async () => {
    const view = await renderSettings({});
    fireEvent.click(view.getByTestId('mcp-open-add'));
    expect(view.getAllByRole('heading').map((heading) => [heading.tagName, heading.textContent])).toEqual([
      ['H3', 'Folders brains may read'],
      ['H3', 'MCP servers'],
      ['H4', 'Add a server'],
      ['H3', 'Tools'],
      ['H3', 'Skills'],
    ]);
  });
});
