/**
 * A text file's content without the byte order mark some editors (Notepad, Excel's CSV) put
 * first: JSON.parse refuses it as an unexpected (and invisible) character.
 */
export const withoutBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
