/** Characters per part of a large text handed from a worker to the page, cut at the next line break. */
export const PART_CHARS = 64 * 1024;

/** `text` as parts of whole lines: joined with '\n' they give `text` back, less one trailing line break. */
export function wholeLineParts(text: string, size = PART_CHARS): string[] {
  const parts: string[] = [];
  const length = text.endsWith('\n') ? text.length - 1 : text.length;
  let pos = 0;
  while (pos < length) {
    let end = pos + size >= length ? length : text.indexOf('\n', pos + size);
    if (end < 0 || end > length) end = length;
    parts.push(text.slice(pos, end));
    pos = end + 1;
  }
  return parts;
}
