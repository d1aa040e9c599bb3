import { useEffect, useRef, useState, type ReactNode } from 'react';
import { thumbnailUrl, typeLabel, type Media } from './mediaApi';

// Small pieces shared by the media library, the picker and the media field.

/** A thumbnail from the transform route, or a type label for files that are not images. */
export function Thumb({ project, media, size = 240, fit = 'cover' }: { project: string; media: Pick<Media, 'filename' | 'mimeType' | 'altText'>; size?: number; fit?: 'cover' | 'inside' }) {
  const url = thumbnailUrl(project, media, size, fit);
  const [failed, setFailed] = useState(false);
  if (!url || failed) return <span className="media-thumb media-typelabel" aria-hidden="true">{typeLabel(media.mimeType)}</span>;
  // Decorative here: the name next to it (or the button's name) says what it is.
  return <img className="media-thumb" src={url} alt="" loading="lazy" decoding="async" onError={() => setFailed(true)} />;
}

/**
 * A modal dialog on the native <dialog>: showModal() makes the page behind it inert (focus stays
 * inside), Escape closes it (the cancel event), and focus returns to where it was.
 */
export function Modal({ title, onClose, children, className, labelId }: { title: string; onClose(): void; children: ReactNode; className?: string; labelId: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const dialog = ref.current;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    const onCancel = (e: Event) => { e.preventDefault(); close.current(); };
    dialog?.addEventListener('cancel', onCancel);
    return () => {
      dialog?.removeEventListener('cancel', onCancel);
      if (dialog?.open) dialog.close();
      if (before && before.isConnected) before.focus();
    };
  }, []);
  return (
    <dialog ref={ref} className={`modal ${className ?? ''}`} aria-labelledby={labelId}>
      <div className="modal-head">
        <h2 id={labelId} className="clip" title={title}>{title}</h2>
        <button type="button" onClick={onClose} aria-label="Close">×</button>
      </div>
      {children}
    </dialog>
  );
}
