import Image from '@tiptap/extension-image';
import { EditorContent, Extension, Mark, mergeAttributes, useEditor, useEditorState, type Editor, type EditorOptions } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { RichTextFieldProps } from './RichTextField.js';
import { cleanPastedHtml, isSafeImageUrl, isSafeLinkUrl, sanitizeWysiwyg } from './sanitize.js';

// The TipTap editor behind RichTextField (lazy-loaded). What it emits is always sanitizeWysiwyg's output.

/** Keeps the contract's class/style attributes of stored HTML through the editor (TipTap's schema would
 * drop them otherwise): class and style on paragraphs, headings and blockquotes, class on lists, list
 * items, code blocks and inline code. */
const KeptAttributes = Extension.create({
  name: 'keptAttributes',
  addGlobalAttributes() {
    const attr = (name: string) => ({
      default: null,
      parseHTML: (el: HTMLElement) => el.getAttribute(name) || null,
      renderHTML: (attrs: Record<string, unknown>) => (attrs[name] ? { [name]: attrs[name] } : {}),
    });
    return [
      { types: ['paragraph', 'heading', 'blockquote'], attributes: { class: attr('class'), style: attr('style') } },
      { types: ['bulletList', 'orderedList', 'listItem', 'codeBlock', 'code'], attributes: { class: attr('class') } },
    ];
  },
});

/** A <span> with a class or style in stored HTML (plain spans are dropped: they carry nothing). */
const Span = Mark.create({
  name: 'span',
  addAttributes() {
    return {
      class: { default: null, parseHTML: (el) => el.getAttribute('class') || null },
      style: { default: null, parseHTML: (el) => el.getAttribute('style') || null },
    };
  },
  parseHTML() {
    return [{ tag: 'span', getAttrs: (el) => (el.getAttribute('class') || el.getAttribute('style') ? null : false) }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['span', mergeAttributes(HTMLAttributes), 0];
  },
});

/** The HTML the field emits: sanitised, and '' for an empty document. */
function emitted(editor: Editor): string {
  return editor.isEmpty ? '' : sanitizeWysiwyg(editor.getHTML());
}

type Naming = Pick<RichTextFieldProps, 'id' | 'label' | 'labelledBy' | 'describedBy' | 'invalid' | 'readOnly'>;

/** The editable element's attributes (a multi-line textbox named by the field label) and the paste filter. */
function editorProps({ id, label, labelledBy, describedBy, invalid, readOnly }: Naming): EditorOptions['editorProps'] {
  return {
    attributes: {
      id,
      role: 'textbox',
      'aria-multiline': 'true',
      ...(labelledBy ? { 'aria-labelledby': labelledBy } : { 'aria-label': label }),
      ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      ...(invalid ? { 'aria-invalid': 'true' } : {}),
      ...(readOnly ? { 'aria-readonly': 'true' } : {}),
      class: 'rt-content',
    },
    transformPastedHTML: (html) => cleanPastedHtml(html),
  };
}

export default function RichTextEditor({ id, label, value, onChange, readOnly, describedBy, invalid, labelledBy, pickImage }: RichTextFieldProps) {
  const last = useRef<string | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        link: {
          openOnClick: false,
          autolink: true,
          defaultProtocol: 'https',
          HTMLAttributes: { target: null, rel: null },
          isAllowedUri: (url) => isSafeLinkUrl(url),
        },
      }),
      Image.configure({ allowBase64: false }),
      KeptAttributes,
      Span,
    ],
    content: sanitizeWysiwyg(value),
    editable: !readOnly,
    // The strict CSP forbids inline <style> elements: the editor's CSS is in styles.css.
    injectCSS: false,
    editorProps: editorProps({ id, label, labelledBy, describedBy, invalid, readOnly }),
    onUpdate: ({ editor: e }) => {
      const html = emitted(e);
      if (html === last.current) return;
      last.current = html;
      onChangeRef.current(html);
    },
  });

  // Props that change after mount update the editable element in place (keeping the undo history).
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    editor.setOptions({ editorProps: editorProps({ id, label, labelledBy, describedBy, invalid, readOnly }) });
    editor.setEditable(!readOnly, false);
  }, [editor, id, label, labelledBy, describedBy, invalid, readOnly]);

  // A <label for={id}> cannot focus a div by itself: a click on it focuses the text.
  useEffect(() => {
    if (!editor) return;
    const labels = [...document.querySelectorAll<HTMLLabelElement>('label')].filter((l) => l.htmlFor === id);
    const focus = (e: MouseEvent) => { e.preventDefault(); if (!editor.isDestroyed) focusText(editor); };
    for (const l of labels) l.addEventListener('click', focus);
    return () => { for (const l of labels) l.removeEventListener('click', focus); };
  }, [editor, id]);

  // A value set from outside (the entry loaded, or reset) replaces the document; the value this editor
  // emitted itself does not (that would move the caret).
  useEffect(() => {
    if (!editor || editor.isDestroyed || value === last.current) return;
    if (value === emitted(editor)) { last.current = value; return; }
    editor.commands.setContent(sanitizeWysiwyg(value), { emitUpdate: false });
    last.current = value;
  }, [editor, value]);

  return (
    <div className={`rt${readOnly ? ' rt-readonly' : ''}${invalid ? ' rt-invalid' : ''}`}>
      {editor && !readOnly && <Toolbar editor={editor} label={label} pickImage={pickImage} />}
      <EditorContent editor={editor} />
    </div>
  );
}

type Panel = 'link' | 'image' | null;

/** Focuses the text now, keeping its selection. TipTap's focus() waits for the next animation frame: until
 * then the keys typed go to whatever had the focus (a toolbar button, or nothing once a panel closed). */
function focusText(editor: Editor): void {
  if (!editor.view.hasFocus()) editor.view.focus();
}

function Toolbar({ editor, label, pickImage }: { editor: Editor; label: string; pickImage?: RichTextFieldProps['pickImage'] }) {
  const [panel, setPanel] = useState<Panel>(null);
  const s = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      h1: e.isActive('heading', { level: 1 }), h2: e.isActive('heading', { level: 2 }), h3: e.isActive('heading', { level: 3 }),
      bold: e.isActive('bold'), italic: e.isActive('italic'), underline: e.isActive('underline'), strike: e.isActive('strike'),
      bulletList: e.isActive('bulletList'), orderedList: e.isActive('orderedList'), blockquote: e.isActive('blockquote'),
      code: e.isActive('code'), codeBlock: e.isActive('codeBlock'), link: e.isActive('link'),
      canUndo: e.can().undo(), canRedo: e.can().redo(),
    }),
  });
  // The editable element is focused synchronously first: when a button was used from the keyboard, the
  // focus is on it, and TipTap's deferred focus() would reset the marks just toggled.
  const run = (f: (c: ReturnType<Editor['chain']>) => ReturnType<Editor['chain']>) => () => {
    focusText(editor);
    f(editor.chain().focus()).run();
  };
  const toggle = (name: string, text: ReactNode, pressed: boolean, action: () => void, shortcut?: string) => (
    <button type="button" className="rt-btn" aria-label={name} aria-pressed={pressed} title={shortcut ? `${name} (${shortcut})` : name}
      onMouseDown={(e) => e.preventDefault()} onClick={action}>{text}</button>
  );
  const closePanel = () => { focusText(editor); setPanel(null); };
  return (
    <>
      <div className="rt-toolbar" role="group" aria-label="Text formatting">
        <span className="rt-group">
          {toggle('Heading 1', 'H1', s.h1, run((c) => c.toggleHeading({ level: 1 })), 'Ctrl+Alt+1')}
          {toggle('Heading 2', 'H2', s.h2, run((c) => c.toggleHeading({ level: 2 })), 'Ctrl+Alt+2')}
          {toggle('Heading 3', 'H3', s.h3, run((c) => c.toggleHeading({ level: 3 })), 'Ctrl+Alt+3')}
        </span>
        <span className="rt-group">
          {toggle('Bold', <b>B</b>, s.bold, run((c) => c.toggleBold()), 'Ctrl+B')}
          {toggle('Italic', <i>I</i>, s.italic, run((c) => c.toggleItalic()), 'Ctrl+I')}
          {toggle('Underline', <u>U</u>, s.underline, run((c) => c.toggleUnderline()), 'Ctrl+U')}
          {toggle('Strikethrough', <s>S</s>, s.strike, run((c) => c.toggleStrike()), 'Ctrl+Shift+S')}
          {toggle('Inline code', <code>{'<>'}</code>, s.code, run((c) => c.toggleCode()), 'Ctrl+E')}
        </span>
        <span className="rt-group">
          {toggle('Bulleted list', '•≡', s.bulletList, run((c) => c.toggleBulletList()), 'Ctrl+Shift+8')}
          {toggle('Numbered list', '1.≡', s.orderedList, run((c) => c.toggleOrderedList()), 'Ctrl+Shift+7')}
          {toggle('Quote', '❝', s.blockquote, run((c) => c.toggleBlockquote()), 'Ctrl+Shift+B')}
          {toggle('Code block', '{ }', s.codeBlock, run((c) => c.toggleCodeBlock()), 'Ctrl+Alt+C')}
        </span>
        <span className="rt-group">
          <button type="button" className="rt-btn" aria-label="Link" aria-pressed={s.link} aria-expanded={panel === 'link'} title="Link (add, edit or remove)"
            onMouseDown={(e) => e.preventDefault()} onClick={() => setPanel(panel === 'link' ? null : 'link')}>Link</button>
          <button type="button" className="rt-btn" aria-label="Image" aria-expanded={panel === 'image'} title="Image"
            onMouseDown={(e) => e.preventDefault()} onClick={() => setPanel(panel === 'image' ? null : 'image')}>Image</button>
          <button type="button" className="rt-btn" aria-label="Horizontal rule" title="Horizontal rule"
            onMouseDown={(e) => e.preventDefault()} onClick={run((c) => c.setHorizontalRule())}>―</button>
        </span>
        <span className="rt-group">
          <button type="button" className="rt-btn" aria-label="Undo" title="Undo (Ctrl+Z)" disabled={!s.canUndo}
            onMouseDown={(e) => e.preventDefault()} onClick={run((c) => c.undo())}>↶</button>
          <button type="button" className="rt-btn" aria-label="Redo" title="Redo (Ctrl+Shift+Z)" disabled={!s.canRedo}
            onMouseDown={(e) => e.preventDefault()} onClick={run((c) => c.redo())}>↷</button>
        </span>
      </div>
      {panel === 'link' && <LinkPanel editor={editor} close={closePanel} />}
      {panel === 'image' && <ImagePanel editor={editor} close={closePanel} pickImage={pickImage} />}
    </>
  );
}

/** Enter applies and Escape cancels; neither reaches an enclosing <form> (the entry form). */
function panelKeys(apply: () => void, close: () => void) {
  return (e: KeyboardEvent) => {
    if (e.key === 'Enter' && (e.target as HTMLElement).tagName === 'INPUT' && (e.target as HTMLInputElement).type !== 'checkbox') { e.preventDefault(); apply(); }
    if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); close(); }
  };
}

function LinkPanel({ editor, close }: { editor: Editor; close: () => void }) {
  const uid = useId();
  const current = editor.getAttributes('link') as { href?: string; target?: string | null };
  const [href, setHref] = useState(current.href ?? '');
  const [newTab, setNewTab] = useState(current.target === '_blank');
  const [error, setError] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => { input.current?.focus(); }, []);
  const apply = () => {
    const url = href.trim();
    if (!url) { setError('Enter the address the link points to.'); input.current?.focus(); return; }
    if (!isSafeLinkUrl(url)) { setError('Use an http(s), mailto: or tel: address, or a relative path.'); input.current?.focus(); return; }
    const attrs = { href: url, target: newTab ? '_blank' : null, rel: newTab ? 'noopener noreferrer' : null };
    const chain = editor.chain().focus();
    if (editor.state.selection.empty && !editor.isActive('link')) {
      chain.insertContent({ type: 'text', text: url, marks: [{ type: 'link', attrs }] }).run();
    } else {
      chain.extendMarkRange('link').setLink(attrs).run();
    }
    close();
  };
  const remove = () => { editor.chain().focus().extendMarkRange('link').unsetLink().run(); close(); };
  return (
    <div className="rt-panel" role="group" aria-label="Link" onKeyDown={panelKeys(apply, close)}>
      <div className="rt-panel-row">
        <label htmlFor={`${uid}-href`}>Link address</label>
        <input ref={input} id={`${uid}-href`} type="url" inputMode="url" value={href} placeholder="https://example.com/"
          aria-invalid={error ? true : undefined} aria-describedby={error ? `${uid}-err` : undefined}
          onChange={(e) => { setHref(e.target.value); setError(''); }} />
      </div>
      <label className="rt-check"><input type="checkbox" checked={newTab} onChange={(e) => setNewTab(e.target.checked)} /> Open in a new tab</label>
      {error && <p id={`${uid}-err`} className="error" role="alert">{error}</p>}
      <div className="rt-panel-actions">
        <button type="button" className="primary" onClick={apply}>{current.href ? 'Update link' : 'Add link'}</button>
        {current.href && <button type="button" onClick={remove}>Remove link</button>}
        <button type="button" onClick={close}>Cancel</button>
      </div>
    </div>
  );
}

function ImagePanel({ editor, close, pickImage }: { editor: Editor; close: () => void; pickImage?: RichTextFieldProps['pickImage'] }) {
  const uid = useId();
  const [src, setSrc] = useState('');
  const [alt, setAlt] = useState('');
  const [error, setError] = useState('');
  const [picking, setPicking] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => { input.current?.focus(); }, []);
  const insert = (image: { src: string; alt?: string }) => {
    editor.chain().focus().setImage({ src: image.src, alt: image.alt || undefined }).run();
    close();
  };
  const apply = () => {
    const url = src.trim();
    if (!url) { setError('Enter the image address.'); input.current?.focus(); return; }
    if (!isSafeImageUrl(url)) { setError('Use an http(s) address or a relative path (data: images are not kept).'); input.current?.focus(); return; }
    insert({ src: url, alt: alt.trim() });
  };
  const pick = async () => {
    if (!pickImage) return;
    setPicking(true);
    try {
      const image = await pickImage();
      if (image && isSafeImageUrl(image.src)) insert(image);
      else if (image) setError('That image has an address the editor cannot keep.');
    } catch {
      setError('The media library could not be opened.');
    } finally {
      setPicking(false);
    }
  };
  return (
    <div className="rt-panel" role="group" aria-label="Image" onKeyDown={panelKeys(apply, close)}>
      {pickImage && (
        <div className="rt-panel-actions">
          <button type="button" onClick={pick} disabled={picking}>{picking ? 'Choosing…' : 'Choose from the media library'}</button>
        </div>
      )}
      <div className="rt-panel-row">
        <label htmlFor={`${uid}-src`}>Image address</label>
        <input ref={input} id={`${uid}-src`} type="url" inputMode="url" value={src} placeholder="https://example.com/photo.jpg"
          aria-invalid={error ? true : undefined} aria-describedby={error ? `${uid}-err` : undefined}
          onChange={(e) => { setSrc(e.target.value); setError(''); }} />
      </div>
      <div className="rt-panel-row">
        <label htmlFor={`${uid}-alt`}>Alternative text</label>
        <input id={`${uid}-alt`} type="text" value={alt} onChange={(e) => setAlt(e.target.value)} />
      </div>
      {error && <p id={`${uid}-err`} className="error" role="alert">{error}</p>}
      <div className="rt-panel-actions">
        <button type="button" className="primary" onClick={apply}>Insert image</button>
        <button type="button" onClick={close}>Cancel</button>
      </div>
    </div>
  );
}
