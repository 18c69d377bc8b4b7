import { isBusyState, type CallState } from './callState';

export interface CallItemView {
  id: string;
  state: CallState;
  /** Set on both legs of a merged 3-way call. */
  mergedWith?: string | null;
}

export const CALL_ITEM_ACTIONS = ['endAndAccept', 'merge', 'holdAndAccept', 'swap', 'accept', 'end', 'dismiss'] as const;
export type CallItemAction = (typeof CALL_ITEM_ACTIONS)[number];
const itemActions: ReadonlySet<string> = new Set(CALL_ITEM_ACTIONS);
/** An action named by a caller (a button, through the callAction command) is one the engine knows. */
export const isCallItemAction = (action: string): action is CallItemAction => itemActions.has(action);
export type CallStatusText = 'ringing' | 'onHold' | null;

export interface ThreeWayGate {
  attendedTransferWithCallRecording: boolean;
  threeWayCalling: boolean;
  threeWayCallingFirefox: boolean;
  isFirefox: boolean;
}

/** The gate from the organisation's feature flags and this browser. */
export function threeWayGate(features: Partial<Record<'attendedTransferWithCallRecording' | 'threeWayCalling' | 'threeWayCallingFirefox', boolean>>, userAgent: string): ThreeWayGate {
  return {
    attendedTransferWithCallRecording: features.attendedTransferWithCallRecording === true,
    threeWayCalling: features.threeWayCalling === true,
    threeWayCallingFirefox: features.threeWayCallingFirefox === true,
    isFirefox: /firefox/i.test(userAgent),
  };
}

/** 3-way calling needs both flags, and on Firefox its own flag as well. */
export function threeWayAllowed(g: ThreeWayGate): boolean {
  return g.attendedTransferWithCallRecording && g.threeWayCalling && (!g.isFirefox || g.threeWayCallingFirefox);
}

/**
 * The buttons of one call item (a ringing or held call shown next to the others), in display order,
 * by these rules:
 * - another call active, outgoing or answering → end-and-accept; merge when allowed (a held item,
 *   no call already three-way); hold-and-accept unless that call is outgoing; swap for a held item;
 * - otherwise → accept (which resumes a held call);
 * - then End for a held call, Dismiss for anything else.
 */
export function callItemActions(item: CallItemView, calls: readonly CallItemView[], gate: ThreeWayGate): CallItemAction[] {
  const others = calls.filter((c) => c.id !== item.id && c.state !== 'none');
  const busy = others.find((c) => isBusyState(c.state));
  const actions: CallItemAction[] = [];
  if (busy) {
    actions.push('endAndAccept');
    const alreadyThreeWay = calls.some((c) => c.mergedWith);
    if (item.state === 'hold' && threeWayAllowed(gate) && !alreadyThreeWay && busy.state === 'active') actions.push('merge');
    if (item.state === 'hold') actions.push('swap');
    else if (busy.state !== 'outgoing') actions.push('holdAndAccept');
  } else {
    actions.push('accept');
  }
  actions.push(item.state === 'hold' ? 'end' : 'dismiss');
  return actions;
}

export function callStatusText(state: CallState): CallStatusText {
  if (state === 'incoming' || state === 'outgoing') return 'ringing';
  if (state === 'hold') return 'onHold';
  return null;
}
