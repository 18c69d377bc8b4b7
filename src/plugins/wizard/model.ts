import type { CompanyAccount } from '../../wire/wizard';
import { WIZARD_COMPLETED_COOKIE, WIZARD_COMPLETED_COOKIE_SECONDS } from '../../wire/wizardSteps';

/** The company step's view: confirm when the configured customer is in the list, otherwise select. */
export function companyView(companies: readonly CompanyAccount[], customerId: string | null): 'confirm' | 'select' {
  return customerId !== null && companies.some((c) => c.customerId === customerId) ? 'confirm' : 'select';
}

/** A CSV by its name or its type (browsers give .csv files text/csv, application/vnd.ms-excel or nothing). */
export function isCsvFile(f: { name: string; type: string }): boolean {
  return /\.csv$/i.test(f.name) && (f.type === '' || /csv|excel|text\/plain/i.test(f.type));
}

/** The cookie that says "just completed": the guard lets the user through for 30 s without asking the server. */
export const completedCookie = () => `${WIZARD_COMPLETED_COOKIE}=1; Max-Age=${WIZARD_COMPLETED_COOKIE_SECONDS}; Path=/; SameSite=Strict`;
export const hasCompletedCookie = (cookie: string) => cookie.split(/;\s*/).some((c) => c === `${WIZARD_COMPLETED_COOKIE}=1`);

/** One line of an address, without its empty parts. */
export const addressLine = (a: { Street1: string; Street2: string; City: string; State: string; ZipCode: string }) =>
  [a.Street1, a.Street2, [a.City, [a.State, a.ZipCode].filter(Boolean).join(' ')].filter(Boolean).join(', ')].filter(Boolean).join(', ');
