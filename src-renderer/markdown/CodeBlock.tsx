import { useRef, type ComponentProps } from 'react';
import type { ExtraProps } from 'react-markdown';
import { useCopy } from '../components/use-copy';


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
  const { copyState, copy } = useCopy();
  const language = languageOfCodeBlock(node);

  return (
    <div className="code-block">
      <div className="code-block-header">
        <span className="code-block-language">{language ?? 'text'}</span>
        <button type="button" className="code-block-copy" data-testid="copy-code" onClick={() => void copy(preRef.current?.textContent ?? '')}>
          {copyState === 'copied' ? 'Copied' : copyState === 'failed' ? 'Copy failed' : 'Copy'}
        </button>
      </div>
      <pre ref={preRef}>{children}</pre>
    </div>
  );
}
