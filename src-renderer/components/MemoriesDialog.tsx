import { useEffect, useRef, useState, type FormEvent } from 'react';
import { errorText } from '../state/api-client';
import { addMemory, closeMemories, loadMemories } from '../state/memory-actions';
import { useAppStore } from '../state/store';
import { Dialog } from './Dialog';
import { FieldError } from './FieldError';
import { SearchIcon } from './icons';
import { MAX_MEMORY_LENGTH, isSubmitKey } from './memory-input';
import { MemoryItem } from './MemoryItem';

const SEARCH_DELAY_MS = 200;

function NewMemoryForm() {
  const [text, setText] = useState('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const canAdd = text.trim() !== '' && !saving;

  const add = async (): Promise<void> => {
    if (!canAdd) return;
    setSaving(true);
    setError(null);
    try {
      await addMemory(text.trim());
      setText('');
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setSaving(false);
    }
  };

  const onSubmit = (event: FormEvent): void => {
    event.preventDefault();
    void add();
  };

  return (
    <form className="memory-new" onSubmit={onSubmit}>
      <label htmlFor="memory-new-input" className="field-label">
        New memory
      </label>
      <div className="field-row">
        <textarea
          id="memory-new-input"
          className="memory-textarea"
          data-testid="memory-new-input"
          rows={2}
          maxLength={MAX_MEMORY_LENGTH}
          placeholder="Something every brain should know, e.g. “I prefer metric units.”"
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (isSubmitKey(event)) {
              event.preventDefault();
              void add();
            }
          }}
        />
        <button type="submit" className="button primary small" data-testid="memory-add" disabled={!canAdd}>
          Add
        </button>
      </div>
      <FieldError error={error} />
    </form>
  );
}

function MemorySearch() {
  const query = useAppStore((state) => state.memoryQuery);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );

  const onChange = (value: string): void => {
    useAppStore.setState({ memoryQuery: value });
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = setTimeout(() => void loadMemories(value), SEARCH_DELAY_MS);
  };

  return (
    <label className="search-field memory-search">
      <SearchIcon />
      <input
        type="search"
        data-testid="memory-search"
        placeholder="Search memories"
        aria-label="Search memories"
        value={query}
        maxLength={2000}
        onChange={(event) => onChange(event.target.value)}
      />
    </label>
  );
}

function MemoryList() {
  const memories = useAppStore((state) => state.memories);
  const status = useAppStore((state) => state.memoriesStatus);
  const error = useAppStore((state) => state.memoriesError);
  const searching = useAppStore((state) => state.memoryQuery.trim() !== '');

  if (status === 'error') {
    return (
      <div className="memory-empty" role="alert">
        <p>Could not load memories: {error}</p>
        <button type="button" className="button small" onClick={() => void loadMemories()}>
          Try again
        </button>
      </div>
    );
  }
  if (memories.length === 0) {
    if (status !== 'ready') return <p className="memory-empty muted">Loading memories…</p>;
    return <p className="memory-empty muted">{searching ? 'No memory matches that search.' : 'No memories yet.'}</p>;
  }
  return (
    <ul className="memory-list" aria-label={searching ? 'Memories matching the search' : 'Memories, newest first'} aria-busy={status === 'loading'}>
      {memories.map((memory) => (
        <MemoryItem key={memory.id} memory={memory} />
      ))}
    </ul>
  );
}

/** The memories brains are given: the ones that best match each message go into that turn's context. */
export function MemoriesDialog() {
  return (
    <Dialog
      title="Memories"
      titleId="memories-title"
      testId="memories-view"
      closeTestId="close-memories"
      closeLabel="Close memories"
      onClose={closeMemories}
    >
      <p className="dialog-intro">
        Each turn, the memories that best match your message are given to the brain that answers. Brains can also save
        and search memories with their memory tools.
      </p>
      <NewMemoryForm />
      <MemorySearch />
      <MemoryList />
    </Dialog>
  );
}
