import { useEffect, useRef, useState, type ComponentProps } from 'react';
import type { ExtraProps } from 'react-markdown';

type CopyState = 'idle' | 'copied' | 'failed';

/** The fence's language from the `language-*` class of its code element. */
export function languageOfCodeBlock(node: ExtraProps['node']): string | null {
  const code = node?.children.find((child) => child.type === 'element' && child.tagName === 'code');
  if (code?.type !== 'element') return null;
  const classNames = code.properties.className;
  if (!Array.isArray(classNames)) return null;
  for (const className of classNames) {
    if (typeof className === 'string' && className.startsWith('language-')) return className.slice('language-'.length);
  }
  return null;
}

/** A fenced code block with its language and a Copy button. */
export function CodeBlock({ children, node }: ComponentProps<'pre'> & ExtraProps) {
  const preRef = useRef<HTMLPreElement>(null);
  const [copyState, setCopyState] = useState<CopyState>('idle');
  const language = languageOfCodeBlock(node);

  useEffect(() => {
    if (copyState === 'idle') return;
    const timer = setTimeout(() => setCopyState('idle'), 1_500);
    return () => clearTimeout(timer);
  }, [copyState]);

  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(preRef.current?.textContent ?? '');
      setCopyState('copied');
    } catch {
      setCopyState('failed');
    }
  };

  return (
    <div className="code-block">
      <div className="code-block-header">
        <span className="code-block-language">{language ?? 'text'}</span>
        <button type="button" className="code-block-copy" data-testid="copy-code" onClick={() => void copy()}>
          {copyState === 'copied' ? 'Copied' : copyState === 'failed' ? 'Copy failed' : 'Copy'}
        </button>
      </div>
      <pre ref={preRef}>{children}</pre>
    </div>
  );
}
