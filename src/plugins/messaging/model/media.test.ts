import { describe, expect, it } from 'vitest';
import { ATTACHMENT_MAX_TOTAL_BYTES } from '../../../wire/media';
import { messagePreview, visibleBody } from './chat';
import { chatFileProblem, chatFilesProblem, describeFile, formatBytes, isWebUrl, nameFromUrl } from './media';

describe('chat media rules', () => {
  it('allow the listed image, video and document types, case-insensitively, up to 3670016 bytes', () => {
    expect(ATTACHMENT_MAX_TOTAL_BYTES).toBe(3670016);
    for (const name of ['a.jpg', 'B.JPEG', 'c.Png', 'd.gif', 'e.webp', 'f.mp4', 'g.MOV', 'h.pdf', 'i.docx', 'j.zip', 'k.csv']) expect(chatFileProblem({ name, size: 10 })).toBeNull();
    expect(chatFileProblem({ name: 'photo.png', size: 3670016 })).toBeNull();
    expect(chatFileProblem({ name: 'photo.png', size: 3670017 })).toBe('tooLarge');
    expect(chatFileProblem({ name: 'empty.txt', size: 0 })).toBe('empty');
    for (const name of ['run.exe', 'page.html', 'pic.svg', 'noextension', '.png', 'trailingdot.']) expect(chatFileProblem({ name, size: 10 })).toBe('extension');
  });

  it('count several files together against the limit, as attachments do', () => {
    expect(chatFilesProblem([{ name: 'a.png', size: 2_000_000 }, { name: 'b.png', size: 1_670_016 }])).toBeNull();
    expect(chatFilesProblem([{ name: 'a.png', size: 2_000_000 }, { name: 'b.png', size: 1_670_017 }])).toBe('tooLarge');
    expect(chatFilesProblem([{ name: 'a.png', size: 1 }, { name: 'b.exe', size: 1 }])).toBe('extension');
  });

  it('describe a file with its URL: type, lower-case extension, original name and bytes', () => {
    expect(describeFile({ name: 'Team Photo.JPG', size: 1234 }, 'http://h/u/x/Team_Photo.JPG')).toEqual({ url: 'http://h/u/x/Team_Photo.JPG', type: 'image', ext: 'jpg', ogName: 'Team Photo.JPG', bytes: 1234 });
    expect(describeFile({ name: 'clip.webm', size: 1 }, 'http://h/c').type).toBe('video');
    expect(describeFile({ name: 'notes.txt', size: 1 }, 'http://h/n').type).toBe('file');
  });

  it('show no words for a file-only message (its body is the URL), and its name in previews', () => {
    const media = describeFile({ name: 'plan.pdf', size: 9 }, 'http://h/p.pdf');
    expect(visibleBody({ body: 'http://h/p.pdf', media })).toBe('');
    expect(messagePreview({ body: 'http://h/p.pdf', media })).toBe('plan.pdf');
    expect(visibleBody({ body: 'look', media })).toBe('look');
    expect(messagePreview({ body: 'hello', media: null })).toBe('hello');
  });

  it('web URLs only; names from URLs; sizes in the user language', () => {
    expect(isWebUrl('https://x/y')).toBe(true);
    expect(isWebUrl('javascript:alert(1)')).toBe(false);
    expect(isWebUrl('not a url')).toBe(false);
    expect(nameFromUrl('http://h/a/My%20file.pdf')).toBe('My file.pdf');
    expect(formatBytes(12, 'en')).toBe('12 bytes');
    expect(formatBytes(2048, 'en')).toBe('2 kB');
    expect(formatBytes(3670016, 'en')).toBe('3.5 MB');
    expect(formatBytes(3670016, 'de')).toBe('3,5 MB');
  });
});
