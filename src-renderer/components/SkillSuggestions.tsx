import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import type { SkillView } from '../../src-shared/api';
import { useAppStore } from '../state/store';
import { refreshSkillSuggestions } from '../state/tool-actions';
import { completedSkillCommand, matchingSkills, typedSkillPrefix } from './skill-suggestions';

const NO_SKILLS: readonly SkillView[] = [];

export interface SkillSuggestionState {
  readonly suggestions: readonly SkillView[];
  readonly activeIndex: number;
  readonly listId: string;
  readonly optionId: (index: number) => string;
  /** Handles the keys the open list owns (arrows, Tab, Enter, Escape); true when the key was used. */
  readonly onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => boolean;
  readonly choose: (skill: SkillView) => void;
  /** Call with every new draft: a fresh `/` fetches the skills again, and the highlight goes back to the top. */
  readonly onDraftChange: (draft: string) => void;
}

/** Suggests skills while the draft is `/` plus the start of a name; picking one completes it to `/name `. */
export function useSkillSuggestions(draft: string, complete: (text: string) => void): SkillSuggestionState {
  const skills = useAppStore((state) => state.skills?.skills ?? NO_SKILLS);
  const [activeIndex, setActiveIndex] = useState(0);
  const [dismissedDraft, setDismissedDraft] = useState<string | null>(null);
  const listId = useId();
  const prefix = typedSkillPrefix(draft);
  const suggestions = useMemo(
    () => (prefix === null || dismissedDraft === draft ? NO_SKILLS : matchingSkills(skills, prefix)),
    [prefix, skills, dismissedDraft, draft],
  );
  const active = Math.min(activeIndex, Math.max(suggestions.length - 1, 0));

  const choose = (skill: SkillView): void => complete(completedSkillCommand(skill));

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (suggestions.length === 0 || event.nativeEvent.isComposing) return false;
    const chosen = suggestions[active];
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const step = event.key === 'ArrowDown' ? 1 : suggestions.length - 1;
      setActiveIndex((active + step) % suggestions.length);
    } else if ((event.key === 'Tab' || (event.key === 'Enter' && !event.shiftKey)) && chosen !== undefined) {
      choose(chosen);
    } else if (event.key === 'Escape') {
      setDismissedDraft(draft);
    } else {
      return false;
    }
    event.preventDefault();
    return true;
  };

  const onDraftChange = (next: string): void => {
    setActiveIndex(0);
    if (next === '/') refreshSkillSuggestions();
  };

  return {
    suggestions,
    activeIndex: active,
    listId,
    optionId: (index) => `${listId}-${index}`,
    onKeyDown,
    choose,
    onDraftChange,
  };
}

export function SkillSuggestionList({ state }: { readonly state: SkillSuggestionState }) {
  const { suggestions, activeIndex, listId, optionId, choose } = state;
  if (suggestions.length === 0) return null;
  return (
    <ul className="skill-suggestions" id={listId} role="listbox" aria-label="Skills" data-testid="skill-suggestions">
      {suggestions.map((skill, index) => (
        <li
          key={skill.name}
          id={optionId(index)}
          role="option"
          aria-selected={index === activeIndex}
          className={index === activeIndex ? 'skill-suggestion is-active' : 'skill-suggestion'}
          data-testid="skill-suggestion"
          data-skill-name={skill.name}
          // Keeps focus in the composer, so typing goes on after a click.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => choose(skill)}
        >
          <code className="skill-suggestion-name">/{skill.name}</code>
          <span className="skill-suggestion-description">{skill.description}</span>
        </li>
      ))}
    </ul>
  );
}
