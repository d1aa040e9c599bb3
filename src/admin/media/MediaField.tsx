// The image and media fields of the entry editor (and the SEO panel's ogImage, a post's featured
// image). PLACEHOLDER with the agreed interface: a text input for the media id until the media
// picker (pick from or upload into the library, thumbnail, allowedMimeTypes and maxFileSize checked
// before upload) replaces this file.
export interface MediaFieldProps {
  /** The id of the field's main control: the field's <label htmlFor> points at it. */
  id: string;
  label: string;
  project: string;
  /** The media id (UUID) stored in the field, or null when empty. */
  value: string | null;
  onChange(mediaId: string | null): void;
  /** image: only image/* files may be picked or uploaded. */
  kind: 'image' | 'media';
  allowedMimeTypes?: string[];
  /** Bytes. */
  maxFileSize?: number;
  readOnly?: boolean;
  describedBy?: string;
  invalid?: boolean;
}

export function MediaField({ id, value, onChange, readOnly, describedBy, invalid }: MediaFieldProps) {
  return (
    <input id={id} value={value ?? ''} readOnly={readOnly} aria-describedby={describedBy} aria-invalid={invalid || undefined}
      placeholder="Media id" onChange={(e) => onChange(e.target.value.trim() || null)} />
  );
}
