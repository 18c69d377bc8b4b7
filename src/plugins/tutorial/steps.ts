/** What decides which steps apply: calling configured (sip.configured) and the logoAdmin feature. */
export interface TourFacts {
  calling: boolean;
  logoAdmin: boolean;
}

export interface Step {
  /** Its strings: `steps.<id>.title` and `.text`. */
  id: 'welcome' | 'calls' | 'navigation' | 'palette' | 'account' | 'callSettings' | 'done';
  /** The part of the screen it explains: highlighted, and the focus moves to `focus` inside it. */
  target: string;
  focus: string;
  /** Steps about calling are skipped when calling is not configured. */
  calling?: boolean;
}

/**
 * The tour, in order (the specification's numbering: step 1 is skipped when calling is not
 * configured; from step 4 without calling, and from step 5, the next is step 6, the last). The
 * last step offers the logo upload to logo admins.
 */
export const STEPS: readonly Step[] = [
  { id: 'welcome', target: '#main-heading', focus: '#main-heading' },
  { id: 'calls', target: '#main-nav [data-nav="calls"]', focus: '#main-nav [data-nav="calls"]', calling: true },
  { id: 'navigation', target: '#main-nav', focus: '#main-nav a' },
  { id: 'palette', target: '.search-btn', focus: '.search-btn' },
  { id: 'account', target: '.profile-btn', focus: '.profile-btn' },
  { id: 'callSettings', target: '.profile-btn', focus: '.profile-btn', calling: true },
  { id: 'done', target: '#main-heading', focus: '#main-heading' },
];

const applies = (i: number, facts: TourFacts) => !STEPS[i]!.calling || facts.calling;

/** The step after `i` that applies, or null after the last. */
export function nextStep(i: number, facts: TourFacts): number | null {
  for (let j = i + 1; j < STEPS.length; j++) if (applies(j, facts)) return j;
  return null;
}

/** The step before `i` that applies, or null before the first. */
export function previousStep(i: number, facts: TourFacts): number | null {
  for (let j = i - 1; j >= 0; j--) if (applies(j, facts)) return j;
  return null;
}

/** "Step 3 of 6": the position among the steps that apply. */
export function position(i: number, facts: TourFacts): { at: number; of: number } {
  const shown = STEPS.map((_, j) => j).filter((j) => applies(j, facts));
  return { at: shown.indexOf(i) + 1, of: shown.length };
}
