/**
 * Services the shell provides to every plugin. Plugins reach them through `ctx.services.get(Key)`.
 */
import type { PreferenceKey, Profile, UccConfig } from '../wire';
import type { ApiClient } from './api';
import type { Disposable } from './disposable';
import type { LogLevel } from './log';
import { serviceKey } from './services';

export interface NavigateOptions {
  search?: Record<string, unknown>;
  replace?: boolean;
  /**
   * A change a screen makes by itself (selecting the first row once the list is in, leaving a
   * deleted item): dropped unless the user is still on a path starting with this. The user may have
   * gone elsewhere while the list was loading, and that screen may itself still be loading.
   */
  ifStillOn?: string;
}

export interface Navigator {
  navigate(to: string, opts?: NavigateOptions): void;
}

export type ToastTone = 'info' | 'success' | 'warning' | 'error';

export interface ToastInput {
  /** i18n keys (translated at render time) or literal server text. */
  titleKey?: string;
  title?: string;
  messageKey?: string;
  message?: string;
  values?: Record<string, unknown>;
  tone?: ToastTone;
  /** Milliseconds; null keeps it until dismissed. Default 5000. */
  timeoutMs?: number | null;
  action?: { labelKey: string; run: () => void };
  onClose?: () => void;
}

export interface Notifier {
  toast(input: ToastInput): string;
  dismiss(id: string): void;
  /** Screen-reader announcement through the shell's live regions. */
  announce(text: string, politeness?: 'polite' | 'assertive'): void;
}

export interface SessionInfo {
  readonly userId: number;
  /** A valtio proxy: read it through `useSnapshot` to follow changes (a saved profile, say). */
  readonly profile: Profile;
  readonly config: UccConfig;
  /** Reads the signed-in user's profile again, after something changed it (the account menu follows). */
  refreshProfile(): Promise<void>;
  logout(): void;
}

export interface PreferencesStore {
  /** Resolves false when the preference was never saved (the server answers 404): an unsaved preference is off. */
  get<T>(key: PreferenceKey): Promise<T | false>;
  set(key: PreferenceKey, value: unknown): Promise<void>;
  /**
   * Called with the new value after each successful `set` of this key in this tab, so that what
   * another plugin reads (a cut-off, a sound, a notification switch) follows a saved change at once.
   * Optional: test doubles may leave it out.
   */
  onChange?(key: PreferenceKey, listener: (value: unknown) => void): Disposable;
}

export type ConnectionState = 'connecting' | 'connected' | 'disconnecting' | 'disconnected' | 'reconnected' | 'error';

export interface ConnectionReporter {
  /** A plugin reports its protocol connection; the shell's banner and retry schedule follow it. */
  register(id: string, labelKey: string, reconnect: () => void): ConnectionHandle;
}

export interface ConnectionHandle extends Disposable {
  report(state: ConnectionState): void;
}

/** The client log's settings as read back (a stored size outside 1–25 MB reads as 5). */
export interface LogSettings {
  level: LogLevel;
  maxSizeMb: number;
}

/**
 * The client's own log (every plugin's `ctx.log` writes there), for the Logging panel. Kept in
 * IndexedDB on this browser, oldest lines dropped past the size; secrets are redacted before a line
 * is kept. The first call loads the log chunk.
 */
export interface ClientLogStore {
  settings(): Promise<LogSettings>;
  /** Lines below this level are not kept from now on. Rejects a name not in LOG_LEVELS. */
  setLevel(level: LogLevel): Promise<void>;
  /**
   * Digits only, clamped to 1–25 (0 keeps 1 MB, 40 keeps 25); answers the size kept. Rejects with a
   * RangeError when the input is not digits only. Older lines go at once if the log is now too big.
   */
  setMaxSizeMb(input: string | number): Promise<number>;
  /** The whole log as a text file, one line per entry, named `uc-client-log-YYYY-MM-DD.txt`. */
  download(): Promise<File>;
  clear(): Promise<void>;
  /** False when this browser keeps no log (IndexedDB refused, private mode): lines last the page only. */
  persistent(): Promise<boolean>;
}

/**
 * Notices the server pushes to every client of the user (XMPP headlines from the chat domain, on the
 * messaging plugin's connection): the plugin that holds the connection publishes them by subject,
 * whoever cares subscribes (the shell's maintenance check, voicemail's new-message notice).
 */
export interface ServerPushHub {
  publish(subject: string, body: string): void;
  subscribe(subject: string, listener: (body: string) => void): Disposable;
}

/** Usage counts (`POST /v1/analytics`): what happened, never with whom or with what arguments. */
export interface UsageAnalytics {
  track(action: 'sign_in' | 'call_placed' | 'message_sent' | 'text_sent' | `command:${string}`): void;
}

export const Api = serviceKey<ApiClient>('core.api');
export const Navigation = serviceKey<Navigator>('core.navigation');
export const Notifications = serviceKey<Notifier>('core.notifications');
export const Session = serviceKey<SessionInfo>('core.session');
/** In the guest mode (no account: a meeting's guest), instead of Session: who the guest is and the one meeting they may see. */
export interface GuestVisitInfo {
  readonly name: string;
  readonly guestId: number;
  readonly meetingId: number;
  readonly slug: string;
}
export const GuestVisit = serviceKey<GuestVisitInfo>('core.guest');
export const Preferences = serviceKey<PreferencesStore>('core.preferences');
export const Connections = serviceKey<ConnectionReporter>('core.connections');
export const LogStore = serviceKey<ClientLogStore>('core.log');
export const ServerPush = serviceKey<ServerPushHub>('core.push');
export const Analytics = serviceKey<UsageAnalytics>('core.analytics');

export interface ConfirmOptions {
  titleKey: string;
  messageKey?: string;
  values?: Record<string, unknown>;
  confirmLabelKey: string;
  cancelLabelKey?: string;
  tone?: 'danger' | 'default';
  /** Shows a "don't ask again" checkbox with this label; its state comes back as `remember`. */
  rememberLabelKey?: string;
}

export interface DialogHost {
  /** A modal confirmation owned by the shell's modal host; focus returns where it was. */
  confirm(opts: ConfirmOptions): Promise<{ confirmed: boolean; remember: boolean }>;
}

export const Dialogs = serviceKey<DialogHost>('core.dialogs');

/** A screen the user may choose as their home: a navigation entry they can reach. */
export interface HomeChoice {
  path: string;
  titleKey: string;
}

/**
 * The user's home: where `/` and the first screen after sign-in lead. The product's home is the
 * route marked `home`; the preferences let the user choose another among the navigation entries
 * they can reach (a path they cannot reach, or no choice, falls back to the product's).
 */
export interface HomePageService {
  /** The path `/` leads to now. */
  path(): string | undefined;
  /** The navigation entries the user can reach, in the rail's order. */
  choices(context: import('./contract').ContextSnapshot): HomeChoice[];
  /** Takes effect at once (saving the preference is the caller's). null: the product's home. */
  choose(path: string | null): void;
}
export const HomePage = serviceKey<HomePageService>('core.homePage');
