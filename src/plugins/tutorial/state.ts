import { proxy } from 'valtio';

/** No tour: the store starts so, and returns to it when the tour ends or the plugin stops. */
export const initialTutorialState = () => ({
  /** The step shown (an index of STEPS), or null when no tour runs. */
  step: null as number | null,
});

export const tutorialState = proxy(initialTutorialState());

export function resetTutorialState(): void {
  Object.assign(tutorialState, initialTutorialState());
}
