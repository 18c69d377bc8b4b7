import { Paperclip } from 'lucide-react';
import { formatBytes, type ChatMedia } from '../model/media';
import { useChatT } from './useChatT';

/**
 * A file in a message: a picture inline (its alternative text is the file's name), a video with the
 * browser's controls, anything else a download link with its name and size. The URL is ejabberd's
 * upload service; names come from the sender and are shown as text only.
 */
export function MessageMedia({ media, lang }: { media: ChatMedia; lang: string }) {
  const t = useChatT();
  if (media.type === 'image') {
    return (
      <a className="chat-media-link" href={media.url} target="_blank" rel="noopener noreferrer" aria-label={t('media.openImage', { name: media.ogName })}>
        <img className="chat-media" src={media.url} alt={media.ogName} />
      </a>
    );
  }
  if (media.type === 'video') return <video className="chat-media" src={media.url} controls preload="metadata" aria-label={t('media.video', { name: media.ogName })} />;
  const size = media.bytes === null ? '' : formatBytes(media.bytes, lang);
  return (
    <a className="chat-file" href={media.url} download={media.ogName} target="_blank" rel="noopener noreferrer">
      <Paperclip className="file-glyph" size={14} aria-hidden="true" focusable="false" />{' '}
      <span className="chat-file-name">{media.ogName}</span>
      {size && <span className="muted"> · {size}</span>}
    </a>
  );
}
