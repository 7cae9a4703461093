import type { BrainSettingsView } from '../../src-shared/api';
import { createConversation } from '../state/conversation-actions';
import { openBrainSettings } from '../state/settings-actions';
import { useAppStore } from '../state/store';
import { brainStateText, isConfigured } from './brain-state';
import { BrainTest } from './BrainTest';
import { PlusIcon } from './icons';
import { CollapsedSidebarControls } from './SidebarToggle';

/** Each brain with its state, a way to set it up and a Test. */
function BrainList({ brains }: { readonly brains: readonly BrainSettingsView[] }) {
  return (
    <ul className="first-run-brains" aria-label="Brains">
      {brains.map((brain) => {
        const configured = isConfigured(brain);
        const needsKey = brain.keySource !== 'not-needed';
        const setUpText = needsKey ? (configured ? 'Change key' : 'Add key') : 'Set server';
        return (
          <li key={brain.brain} className="first-run-brain" data-testid="first-run-brain" data-brain={brain.brain} data-configured={configured}>
            <div className="first-run-brain-name">
              <span className={configured ? 'state-dot ready' : 'state-dot'} aria-hidden="true" />
              <strong>{brain.label}</strong>
              <span className="first-run-brain-state" data-testid="brain-state">
                {brainStateText(brain)}
              </span>
            </div>
            <div className="first-run-brain-actions">
              <button
                type="button"
                className="button small ghost"
                data-testid="set-up-brain"
                // The accessible name starts with the visible text, so speech control finds the button by what it shows.
                aria-label={`${setUpText} for ${brain.label}`}
                onClick={() => openBrainSettings(brain.brain)}
              >
                {setUpText}
              </button>
              <BrainTest brain={brain.brain} label={brain.label} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}

export function EmptyState() {
  const brains = useAppStore((state) => state.settings?.brains ?? null);
  const anyConfigured = brains?.some(isConfigured) ?? true;

  return (
    <section className="empty-state" aria-label="No conversation open">
      <div className="empty-state-bar">
        <CollapsedSidebarControls />
      </div>
      <div className="empty-card">
        <div className="empty-logo" aria-hidden="true">
          A
        </div>
        {anyConfigured ? (
          <>
            <h1>One conversation, any brain</h1>
            <p>Start a conversation, then let Claude, Kimi, GLM or another brain take the next turn. Each one sees the whole history.</p>
            <button
              type="button"
              className="button primary"
              data-testid="empty-state-new-conversation"
              onClick={() => void createConversation()}
            >
              <PlusIcon />
              New conversation
            </button>
          </>
        ) : (
          <>
            <h1>Welcome to Anybrain</h1>
            <p data-testid="first-run-advice">
              First, give one brain a way in: add an API key for Claude, ChatGPT, Gemini or another brain, or point Ollama at a server
              running on your computer. Then start a conversation.
            </p>
            <div className="first-run-actions">
              <button type="button" className="button primary" data-testid="first-run-add-key" onClick={() => openBrainSettings('claude')}>
                Add an API key
              </button>
              <button type="button" className="button" data-testid="first-run-ollama" onClick={() => openBrainSettings('ollama')}>
                Use a local Ollama
              </button>
            </div>
          </>
        )}
        {brains === null ? null : <BrainList brains={brains} />}
        {anyConfigured ? null : (
          <button
            type="button"
            className="button ghost small first-run-start-anyway"
            data-testid="empty-state-new-conversation"
            onClick={() => void createConversation()}
          >
            Start a conversation anyway
          </button>
        )}
      </div>
    </section>
  );
}
