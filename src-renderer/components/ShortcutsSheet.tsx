import { closeShortcuts } from '../state/window-actions';
import { isApplePlatform } from './brain-shortcuts';
import { Dialog } from './Dialog';
import { shortcutSections, type KeyLabel } from './shortcuts';

function Keys({ label }: { readonly label: KeyLabel }) {
  return (
    <kbd className="shortcut-keys">
      {label.map((key, index) => (
        <kbd key={index}>{key}</kbd>
      ))}
    </kbd>
  );
}

/** Every keyboard shortcut of the window, with this platform's modifier names. */
export function ShortcutsSheet() {
  const sections = shortcutSections(isApplePlatform());
  return (
    <Dialog
      title="Keyboard shortcuts"
      titleId="shortcuts-title"
      testId="shortcuts-sheet"
      closeTestId="close-shortcuts"
      closeLabel="Close keyboard shortcuts"
      onClose={closeShortcuts}
    >
      {sections.map((section) => (
        <section key={section.title} className="shortcut-section" aria-labelledby={`shortcuts-${section.title}`}>
          <h3 id={`shortcuts-${section.title}`}>{section.title}</h3>
          <dl className="shortcut-list">
            {section.rows.map((row) => (
              <div key={row.description} className="shortcut-row" data-testid="shortcut-row">
                <dt>{row.description}</dt>
                <dd>
                  {row.keys.map((label, index) => (
                    <span key={index} className="shortcut-alternative">
                      {index > 0 ? <span className="shortcut-range">to</span> : null}
                      <Keys label={label} />
                    </span>
                  ))}
                </dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </Dialog>
  );
}
