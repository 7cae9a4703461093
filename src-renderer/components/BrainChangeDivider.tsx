import { selectBrainChangedTo } from '../state/selectors';
import { useAppStore } from '../state/store';
import { brainLabel } from './brain-options';

/** A line above the first reply of another brain on the path shown: "Gemini from here". */
export function BrainChangeDivider({ messageId }: { readonly messageId: string }) {
  const brain = useAppStore((state) => selectBrainChangedTo(state, messageId));
  if (brain === null) return null;
  return (
    <div className="brain-change" data-testid="brain-change" role="separator" aria-label={`${brainLabel(brain)} from here`}>
      <span>{brainLabel(brain)} from here</span>
    </div>
  );
}
