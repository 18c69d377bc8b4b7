import { proxy, snapshot } from 'valtio/vanilla';
import { FEATURE_FLAGS, type FeatureFlags } from '../wire/featureFlags';
import type { ContextSnapshot } from './contract';

export type ContextState = {
  -readonly [K in keyof ContextSnapshot]: K extends 'keys' ? Record<string, unknown> : ContextSnapshot[K];
};

export function allFeatures(value: boolean): FeatureFlags {
  return Object.fromEntries(FEATURE_FLAGS.map((f) => [f, value])) as FeatureFlags;
}

export function createContextState(features: FeatureFlags): ContextState {
  return proxy<ContextState>({
    route: '/',
    authenticated: false,
    userId: null,
    roleId: null,
    language: 'en',
    modalOpen: false,
    paletteOpen: false,
    features: { ...features },
    keys: {},
  });
}

export function snapshotContext(state: ContextState): ContextSnapshot {
  return snapshot(state) as ContextSnapshot;
}
