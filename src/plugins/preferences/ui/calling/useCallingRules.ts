import { useEffect, useState } from 'react';
import { ApiError, Session, useKernel, useService } from '../../../../kernel';
import { findMeProblems, inboundProblems, type InboundRoutes, type RouteProblemDetail } from '../../../../wire/inbound';
import { ROLE } from '../../../../wire/roles';
import { loadCallingRules, saveFindMe, saveInbound, type CallingRules } from '../../api';
import { log } from '../../log';
import { fromDraft, saveFailure, toDraft, type FindMeDraft, type SaveFailure } from '../../routing';

export type RulesLoad = 'loading' | 'forbidden' | 'failed' | 'ready';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The inbound rules and find-me of the Calling panel: loaded (not for limited-access users, who
 * may not view them), drafted, checked with the server's own rules before saving, and saved each
 * on its own. What the user typed stays in the draft whatever the save's outcome.
 */
export function useCallingRules() {
  const kernel = useKernel();
  const session = useService(Session);
  const limited = session.profile.role_id === ROLE.LIMITED_ACCESS;
  const [load, setLoad] = useState<RulesLoad>(limited ? 'forbidden' : 'loading');
  const [saved, setSaved] = useState<CallingRules | null>(null);
  const [inbound, setInbound] = useState<InboundRoutes | null>(null);
  const [findMe, setFindMe] = useState<FindMeDraft | null>(null);
  // Problems show once a save was tried, and follow the draft from then on.
  const [checked, setChecked] = useState(false);
  const [serverProblems, setServerProblems] = useState<RouteProblemDetail[]>([]);
  const [failure, setFailure] = useState<SaveFailure | null>(null);
  // Bumped by a discard: the forms start again from the saved rules, typed text included.
  const [revision, setRevision] = useState(0);

  useEffect(() => {
    if (limited) return;
    let live = true;
    loadCallingRules(kernel).then(
      (r) => {
        if (!live) return;
        setSaved(r);
        setInbound(r.inbound);
        setFindMe(toDraft(r.findMe));
        setLoad('ready');
      },
      (err: unknown) => {
        if (!live) return;
        if (err instanceof ApiError && (err.status === 403 || /authorized/i.test(err.message))) return setLoad('forbidden');
        log.error('calling rules', err);
        setLoad('failed');
      },
    );
    return () => void (live = false);
  }, [kernel, limited]);

  const inboundDirty = !!saved && !!inbound && !same(inbound, saved.inbound);
  const findMeDirty = !!saved && !!findMe && !same(fromDraft(findMe), saved.findMe);
  const clientProblems = [...(inbound && inboundDirty ? inboundProblems(inbound) : []), ...(findMe && findMeDirty ? findMeProblems(fromDraft(findMe)) : [])];

  const edited = () => (setServerProblems([]), setFailure(null));
  return {
    load,
    types: saved?.types ?? [],
    selfId: String(session.userId),
    revision,
    inbound,
    findMe,
    dirty: inboundDirty || findMeDirty,
    /** Inbound paths are the rules' names, find-me's its own fields': one list serves both tabs. */
    problems: [...(checked ? clientProblems : []), ...serverProblems],
    failure,
    setInbound: (r: InboundRoutes) => (setInbound(r), edited()),
    setFindMe: (f: FindMeDraft) => (setFindMe(f), edited()),
    check: (): boolean => {
      setChecked(true);
      setFailure(null);
      return clientProblems.length === 0;
    },
    store: async (): Promise<void> => {
      if (!saved) return;
      let now = saved;
      try {
        if (inbound && inboundDirty) now = { ...now, inbound: await saveInbound(kernel, inbound) };
        if (findMe && findMeDirty) {
          now = { ...now, findMe: await saveFindMe(kernel, fromDraft(findMe)) };
          setFindMe(toDraft(now.findMe));
        }
        if (now.inbound !== saved.inbound) setInbound(now.inbound);
        setChecked(false);
      } catch (err) {
        const f = saveFailure(err);
        setFailure(f);
        setServerProblems(f.kind === 'failed' ? f.problems : []);
        throw err;
      } finally {
        // What did save stays saved (and is no longer "unsaved"), even when the other part failed.
        setSaved(now);
      }
    },
    discard: () => {
      if (!saved) return;
      setInbound(saved.inbound);
      setFindMe(toDraft(saved.findMe));
      setChecked(false);
      setRevision((r) => r + 1);
      edited();
    },
  };
}

export type CallingRulesState = ReturnType<typeof useCallingRules>;
