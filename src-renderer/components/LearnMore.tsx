import type { ReactNode } from 'react';

/**
 * A one-line help text with its details folded behind "Learn more", so a settings section opens with what it is
 * for rather than a paragraph. The details stay in the document for screen readers and search.
 */
export function LearnMore({ about, children }: { readonly about: string; readonly children: ReactNode }) {
  return (
    <details className="learn-more">
      <summary>
        Learn more<span className="visually-hidden"> about {about}</span>
      </summary>
      <div className="learn-more-body">{children}</div>
    </details>
  );
}
