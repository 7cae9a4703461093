import { Component, type ReactNode } from 'react';

interface RenderBoundaryProps {
  /** What shows instead of the children once they threw while rendering. */
  readonly fallback: ReactNode;
  /** The children render again when this changes (a streamed block grew, a message was updated). */
  readonly resetKey: unknown;
  readonly children: ReactNode;
}

interface RenderBoundaryState {
  readonly failed: boolean;
  readonly resetKey: unknown;
}

/**
 * Contains a render failure to the part that failed. Without a boundary React unmounts the whole tree, leaving an
 * empty window: one hostile reply must never do that. React itself reports the caught error on the console.
 */
export class RenderBoundary extends Component<RenderBoundaryProps, RenderBoundaryState> {
  override state: RenderBoundaryState = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(): Partial<RenderBoundaryState> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: RenderBoundaryProps, state: RenderBoundaryState): Partial<RenderBoundaryState> | null {
    return Object.is(props.resetKey, state.resetKey) ? null : { failed: false, resetKey: props.resetKey };
  }

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
