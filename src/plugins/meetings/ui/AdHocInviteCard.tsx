import { useId } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { useKernel } from '../../../kernel';
import type { AdHocInviteCardProps } from '../../../contracts';
import { apply, join } from '../adhoc/invites';
import { current, fromAttrs, type AdHocInvite } from '../adhoc/model';
import { meetingsState } from '../state';
import './adhoc.css';

/**
 * An invite in the chat, in place of its text: who invites whom, what became of it and, for the
 * invitee while the offer stands, Accept and Decline (gone once expired, cancelled or answered).
 * The answers (accept, decline…) are messages of their own and show their text.
 */
export function AdHocInviteCard({ attrs, mine, body }: AdHocInviteCardProps) {
  const { t } = useTranslation('meetings');
  const kernel = useKernel();
  const s = useSnapshot(meetingsState);
  const labelId = useId();
  const p = fromAttrs(attrs);
  const stored = p ? (s.adhoc[p.inviteId] as AdHocInvite | undefined) : undefined;
  if (!p || p.status !== 'offer' || !stored) return <span className="chat-body">{body}</span>;
  const inv = current(stored, Date.now());
  const offered = inv.role === 'invitee' && inv.status === 'offer';
  return (
    <div className="adhoc-card" role="group" aria-labelledby={labelId}>
      <span id={labelId} className="chat-body">
        {mine ? t('adhoc.card.sent', { name: inv.peerName }) : t('adhoc.card.received', { name: inv.peerName })}
      </span>
      <span className="adhoc-status">{t(`adhoc.status.${inv.role}.${inv.status}`, { name: inv.peerName })}</span>
      {offered && (
        <span className="adhoc-actions">
          <Button className="btn primary" onPress={() => void apply(inv.inviteId, { kind: 'accept' })}>
            {t('adhoc.accept')}
          </Button>
          <Button className="btn" onPress={() => void apply(inv.inviteId, { kind: 'decline' })}>
            {t('adhoc.decline')}
          </Button>
        </span>
      )}
      {inv.role === 'inviter' && (inv.status === 'offer' || inv.status === 'accept') && (
        <Button className="btn" onPress={() => void apply(inv.inviteId, { kind: 'cancel' })}>
          {t('adhoc.cancel')}
        </Button>
      )}
      {inv.status === 'available' && (
        <Button className="btn" onPress={() => join(kernel, inv.inviteId)}>
          {t('adhoc.join')}
        </Button>
      )}
    </div>
  );
}
