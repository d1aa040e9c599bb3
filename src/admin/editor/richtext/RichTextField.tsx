import { Component, lazy, Suspense, type ReactNode } from 'react';

// The wysiwyg field of the entry editor. This module stays light: the editor itself (TipTap, ProseMirror
// and the DOMPurify sanitiser) is a separate chunk, loaded the first time a wysiwyg field renders, so the
// first screen's JavaScript does not carry it.
export interface RichTextFieldProps {
  /** The id of the editable element: the field's <label htmlFor> points at it. */
  id: string;
  /** The field's label, used as the accessible name where a <label> cannot point. */
  label: string;
  project: string;
  value: string;
  /** Called with sanitised HTML (sanitizeWysiwyg), or '' when the editor is empty. */
  onChange(html: string): void;
  readOnly?: boolean;
  /** The ids of the help text and error message, for aria-describedby. */
  describedBy?: string;
  invalid?: boolean;
  /** The id of the element naming the field (instead of aria-label={label}), when there is one. */
  labelledBy?: string;
  /** Picks an image (e.g. from the media library); without it images are inserted by URL only.
   * Resolves null when the person cancels. */
  pickImage?: () => Promise<{ src: string; alt?: string } | null>;
}

const RichTextEditor = lazy(() => import('./RichTextEditor.js'));

export function RichTextField(props: RichTextFieldProps) {
  return (
    <LoadFailure>
      <Suspense fallback={<div className="rt-loading" role="status"><span className="spinner" aria-hidden="true" />Loading the {props.label} editor…</div>}>
        <RichTextEditor {...props} />
      </Suspense>
    </LoadFailure>
  );
}

/** Shown when the editor's chunk cannot be loaded (offline, or the app was redeployed meanwhile). */
class LoadFailure extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() { return { failed: true }; }
  override componentDidCatch(error: unknown) { console.error('The rich text editor failed:', error); }
  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="rt-loading" role="alert">
        The rich text editor could not be loaded. <button type="button" onClick={() => window.location.reload()}>Reload the page</button>
      </div>
    );
  }
}
