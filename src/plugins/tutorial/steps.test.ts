import { describe, expect, it } from 'vitest';
import { nextStep, position, previousStep, STEPS } from './steps';

const calling = { calling: true, logoAdmin: false };
const noCalling = { calling: false, logoAdmin: false };

describe('tutorial steps', () => {
  it('with calling every step is shown in order', () => {
    const seen = [0];
    for (let s = nextStep(0, calling); s !== null; s = nextStep(s, calling)) seen.push(s);
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(position(5, calling)).toEqual({ at: 6, of: 7 });
  });

  it('without calling, step 1 is skipped and step 4 goes to step 6 (the specification)', () => {
    expect(nextStep(0, noCalling)).toBe(2);
    expect(nextStep(4, noCalling)).toBe(6);
    expect(nextStep(5, calling)).toBe(6);
    expect(previousStep(6, noCalling)).toBe(4);
    expect(previousStep(2, noCalling)).toBe(0);
    expect(position(6, noCalling)).toEqual({ at: 5, of: 5 });
  });

  it('the last step has no next and the first no previous', () => {
    expect(nextStep(STEPS.length - 1, calling)).toBeNull();
    expect(previousStep(0, calling)).toBeNull();
  });
});
