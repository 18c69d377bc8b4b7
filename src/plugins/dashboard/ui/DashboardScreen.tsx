import { useEffect, useMemo, useState, type ComponentType } from 'react';
import { useSnapshot } from 'valtio';
import { Navigation, Session, useContextSnapshot, useKernel, useMaybeService, useService, type ServiceLookup } from '../../../kernel';
import { HISTORY_PATH, JoinMeetingDialog, RecentMessagesApi, VOICEMAIL_PATH } from '../../../contracts';
import { fetchCalls, fetchVoicemail } from '../api';
import { log } from '../log';
import { FEED_SOURCE_LIMIT, mergeFeed, type FeedItem, type MessageItem } from '../model';
import { dashboardState } from '../state';
import { ClockCard } from './ClockCard';
import { ContactsCard } from './ContactsCard';
import { FeedCard } from './FeedCard';
import { MeetingsCard } from './MeetingsCard';
import { useBackground } from './useBackground';
import './dashboard.css';

/** Voicemail and calls are read again this often while the dashboard is open (history's own refresh is 180 s). */
const REFRESH_MS = 60_000;

/** The clock, a group's first contacts, meetings and the feed, over the chosen background. */
export default function DashboardScreen() {
  const snap = useSnapshot(dashboardState);
  const background = useBackground();
  const messages = useRecentMessages();
  const nav = useService(Navigation);
  const joinDialog = useMaybeService(JoinMeetingDialog);
  useServerFeed();

  const feed = useMemo(() => (snap.feed ? mergeFeed({ ...split(snap.feed as FeedItem[]), messages }, Date.now()) : null), [snap.feed, messages]);

  const open = (i: FeedItem) => {
    if (i.kind === 'voicemail') nav.navigate(`${VOICEMAIL_PATH}/${encodeURIComponent(i.id)}`);
    else if (i.kind === 'call') nav.navigate(HISTORY_PATH, { search: { id: i.id } });
    else nav.navigate(i.path);
  };

  return (
    <div className="dashboard" style={{ backgroundImage: `url("${background}")` }} data-background={background}>
      <div className="dash-grid">
        <ClockCard />
        <ContactsCard />
        {joinDialog && <MeetingsCard />}
        <FeedCard items={feed} failed={snap.feedFailed} onOpen={open} />
      </div>
      {snap.joinOpen && joinDialog && <JoinPopup load={joinDialog.load} />}
    </div>
  );
}

const split = (items: readonly FeedItem[]) => ({
  voicemail: items.filter((i) => i.kind === 'voicemail'),
  calls: items.filter((i) => i.kind === 'call'),
});

/** Voicemail (when the user has a mailbox) and the last week's calls, now and every minute while shown. */
function useServerFeed(): void {
  const services = useKernel();
  const { features } = useContextSnapshot();
  const mailbox = !!useService(Session).config.mailbox_number;
  const generation = features.voicemail2 ? 2 : 1;
  useEffect(() => {
    const aborts = new AbortController();
    const load = () => void loadFeed(services, mailbox, generation, aborts.signal);
    load();
    const timer = setInterval(load, REFRESH_MS);
    return () => (clearInterval(timer), aborts.abort());
  }, [services, mailbox, generation]);
}

async function loadFeed(services: ServiceLookup, mailbox: boolean, generation: 1 | 2, signal: AbortSignal): Promise<void> {
  const [vm, calls] = await Promise.allSettled([mailbox ? fetchVoicemail(services, generation, signal) : Promise.resolve([]), fetchCalls(services, new Date(), signal)]);
  if (signal.aborted) return;
  for (const r of [vm, calls]) if (r.status === 'rejected') log.warn('feed source failed', r.reason);
  dashboardState.feed = [...(vm.status === 'fulfilled' ? vm.value : []), ...(calls.status === 'fulfilled' ? calls.value : [])];
  dashboardState.feedFailed = vm.status === 'rejected' || calls.status === 'rejected';
}

/** Messages as the messaging plugin holds them (live: a new message appears at once). */
function useRecentMessages(): MessageItem[] {
  const recent = useMaybeService(RecentMessagesApi);
  const read = () =>
    (recent?.recent(FEED_SOURCE_LIMIT) ?? []).map((m): MessageItem => ({ kind: 'message', key: `message:${m.conversation}:${m.at}`, at: m.at, name: m.name, text: m.text, own: m.from === null, path: m.path }));
  const [items, setItems] = useState(read);
  useEffect(() => {
    const sub = recent?.onChange(() => setItems(read()));
    setItems(read());
    return () => sub?.dispose();
    // `read` closes over `recent` only.
  }, [recent]); // eslint-disable-line react-hooks/exhaustive-deps
  return items;
}

/** The join popup, loaded from the meetings plugin when first opened. */
function JoinPopup({ load }: { load: () => Promise<ComponentType<{ onClose(): void }>> }) {
  const [Dialog, setDialog] = useState<ComponentType<{ onClose(): void }> | null>(null);
  useEffect(() => {
    let live = true;
    load().then(
      (c) => live && setDialog(() => c),
      (err: unknown) => (log.error('join popup', err), (dashboardState.joinOpen = false)),
    );
    return () => void (live = false);
  }, [load]);
  return Dialog ? <Dialog onClose={() => (dashboardState.joinOpen = false)} /> : null;
}
