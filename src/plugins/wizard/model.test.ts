import { describe, expect, it } from 'vitest';
import { moveStep, startStep } from '../../wire/wizardSteps';
import type { CompanyAccount } from '../../wire/wizard';
import { addressLine, companyView, completedCookie, hasCompletedCookie, isCsvFile } from './model';

const address = { Street1: '1 Main St', Street2: '', City: 'Springfield', State: 'IL', ZipCode: '62701' };
const company = (customerId: string): CompanyAccount => ({ customerId, companyName: customerId, billingPhone: '', organizationId: 1, active: true, billingAddress: address, shippingAddress: address, siteAddress: address });

describe('wizard step rules', () => {
  it('starts at 0, at 2 once the customer is confirmed, at 3 once a services customer user exists', () => {
    expect(startStep({ confirmed: false, hasServiceUser: false })).toBe(0);
    expect(startStep({ confirmed: true, hasServiceUser: false })).toBe(2);
    expect(startStep({ confirmed: true, hasServiceUser: true })).toBe(3);
    expect(startStep({ confirmed: false, hasServiceUser: true })).toBe(3);
  });
  it('moves up or down by one, never past the first or the last step', () => {
    expect(moveStep(0, 1)).toBe(1);
    expect(moveStep(2, -1)).toBe(1);
    expect(moveStep(0, -1)).toBe(0);
    expect(moveStep(3, 1)).toBe(3);
  });
  it('the company step confirms the configured customer when it is listed, else selects', () => {
    const list = [company('A-1'), company('B-2')];
    expect(companyView(list, 'B-2')).toBe('confirm');
    expect(companyView(list, 'Z-9')).toBe('select');
    expect(companyView(list, null)).toBe('select');
    expect(companyView([], 'A-1')).toBe('select');
  });
  it('a CSV by name and type; anything else is not', () => {
    expect(isCsvFile({ name: 'users.csv', type: 'text/csv' })).toBe(true);
    expect(isCsvFile({ name: 'USERS.CSV', type: '' })).toBe(true);
    expect(isCsvFile({ name: 'users.csv', type: 'application/vnd.ms-excel' })).toBe(true);
    expect(isCsvFile({ name: 'users.xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' })).toBe(false);
    expect(isCsvFile({ name: 'photo.png', type: 'image/png' })).toBe(false);
    expect(isCsvFile({ name: 'fake.csv', type: 'image/png' })).toBe(false);
  });
  it('the completed cookie lasts 30 s and is read back', () => {
    expect(completedCookie()).toContain('Max-Age=30');
    expect(hasCompletedCookie('a=1; uc-wizard-completed=1; b=2')).toBe(true);
    expect(hasCompletedCookie('a=1')).toBe(false);
  });
  it('an address is one line without its empty parts', () => {
    expect(addressLine(address)).toBe('1 Main St, Springfield, IL 62701');
  });
});
