// The wysiwyg field of the entry editor. PLACEHOLDER with the agreed interface: a plain textarea
// until the rich text editor (TipTap, sanitised with DOMPurify) replaces this file.
export interface RichTextFieldProps {
  /** The id of the editable element: the field's <label htmlFor> points at it. */
  id: string;
  /** The field's label, used as the accessible name where a <label> cannot point. */
  label: string;
  project: string;
  value: string;
  onChange(html: string): void;
  readOnly?: boolean;
  /** The ids of the help text and error message, for aria-describedby. */
  describedBy?: string;
  invalid?: boolean;
}

export function RichTextField({ id, value, onChange, readOnly, describedBy, invalid }: RichTextFieldProps) {
  return (
    <textarea id={id} value={value} readOnly={readOnly} aria-describedby={describedBy} aria-invalid={invalid || undefined}
      onChange={(e) => onChange(e.target.value)} rows={8} />
  );
}
