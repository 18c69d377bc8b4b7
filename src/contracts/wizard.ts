import { serviceKey } from '../kernel';

export interface WizardService {
  /** True while the onboarding wizard must be completed before the app is usable. */
  isRequired(): Promise<boolean>;
}
export const WizardApi = serviceKey<WizardService>('wizard.api');
