/**
 * The signed-in user's profile loading schedule (specification, "Profile"): a failed load is retried after
 * 500 ms, then 1 s, 2 s … up to 16 s between tries; once the first retry has failed too the user is
 * told (an 8 s toast whose tap or hiding retries at once); a loaded profile is read again every
 * 10 minutes. Apart from React and the DOM so that fake timers can drive it.
 */
export const PROFILE_REFRESH_MS = 600_000;
export const PROFILE_BACKOFF_START_MS = 500;
export const PROFILE_BACKOFF_MAX_MS = 16_000;
export const PROFILE_FAIL_TOAST_MS = 8_000;

/** The wait before the next try after `failures` failed tries in a row (1 → 500 ms). */
export const backoffDelay = (failures: number): number => Math.min(PROFILE_BACKOFF_START_MS * 2 ** Math.max(0, failures - 1), PROFILE_BACKOFF_MAX_MS);

export interface ProfileLoaderOptions<T> {
  load: () => Promise<T>;
  onData: (data: T) => void;
  /** After the first retry failed (once per run of failures); `retry` tries again now. */
  onFailure: (error: unknown, retry: () => void) => void;
  /** The first try after this long instead of at once (the profile that came with sign-in is fresh). */
  firstInMs?: number;
}

export interface ProfileLoader {
  /** Tries now, whatever was scheduled. */
  retry(): void;
  stop(): void;
}

export function startProfileLoader<T>({ load, onData, onFailure, firstInMs = 0 }: ProfileLoaderOptions<T>): ProfileLoader {
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  // Each try has a number, so a slow answer to an earlier try never overrides a later one.
  let attempt = 0;
  const schedule = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(run, ms);
  };
  function run() {
    clearTimeout(timer);
    const mine = ++attempt;
    load().then(
      (data) => {
        if (stopped || mine !== attempt) return;
        failures = 0;
        onData(data);
        schedule(PROFILE_REFRESH_MS);
      },
      (error: unknown) => {
        if (stopped || mine !== attempt) return;
        failures += 1;
        if (failures === 2) onFailure(error, () => !stopped && run());
        schedule(backoffDelay(failures));
      },
    );
  }
  if (firstInMs > 0) schedule(firstInMs);
  else run();
  return {
    retry: () => !stopped && run(),
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
