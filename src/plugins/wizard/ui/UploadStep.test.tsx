// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { allFeatures, Api, ApiError, Kernel, KernelProvider, Notifications } from '../../../kernel';
import boot from '../locales/en.json';
import { resetWizardState, UPLOAD, wizardState } from '../state';
import strings from '../strings/en.json';
import { UploadStep } from './UploadStep';

let kernel: Kernel;
let progress: (f: number) => void = () => undefined;
let finish: (v: unknown) => void = () => undefined;
let fail: (e: unknown) => void = () => undefined;
const upload = vi.fn((_m: string, _p: string, _f: FormData, onProgress: (f: number) => void) => {
  progress = onProgress;
  return new Promise((resolve, reject) => ((finish = resolve), (fail = reject)));
});
const onUploaded = vi.fn();

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { wizard: { ...boot, ...strings } } }, interpolation: { escapeValue: false } });
});
beforeEach(() => {
  resetWizardState();
  wizardState.info = { active: true, completed: false, step: 2, resellerId: 7, customerId: 'C-1', confirmed: true, hasServiceUser: false };
  upload.mockClear();
  onUploaded.mockReset();
  kernel = new Kernel({ features: allFeatures(true) });
  kernel.provide(Notifications, { toast: vi.fn(() => ''), dismiss: vi.fn(), announce: vi.fn() });
  kernel.provide(Api, { upload } as never);
  render(
    <KernelProvider kernel={kernel}>
      <UploadStep onUploaded={onUploaded} />
    </KernelProvider>,
  );
});
afterEach(cleanup);

const input = () => document.querySelector('input[type="file"]') as HTMLInputElement;
const pick = (name: string, type: string) => act(async () => void fireEvent.change(input(), { target: { files: [new File(['Username,FirstName,LastName,Enabled\n'], name, { type })] } }));
const uploadButton = () => screen.getByRole('button', { name: /^(Upload|Try again)$/ });

describe('the bulk upload step', () => {
  it('keeps one file: a new one replaces it; a file that is not a CSV gets the warning and is not kept', async () => {
    expect(uploadButton()).toHaveProperty('disabled', true);
    await pick('first.csv', 'text/csv');
    expect(screen.getByText(/^Chosen: first\.csv/)).toBeTruthy();
    await pick('second.csv', '');
    expect(screen.getByText(/^Chosen: second\.csv/)).toBeTruthy();
    await pick('photo.png', 'image/png');
    expect(screen.getByRole('alert').textContent).toBe('photo.png is not a CSV file. Only .csv files can be uploaded.');
    expect(wizardState.upload.file?.name).toBe('second.csv');
  });

  it('idle → uploading (a progress bar) → success goes to the next step with the report', async () => {
    await pick('team.csv', 'text/csv');
    expect(wizardState.upload.status).toBe(UPLOAD.IDLE);
    await act(async () => void fireEvent.click(uploadButton()));
    expect(wizardState.upload.status).toBe(UPLOAD.UPLOADING);
    expect(upload.mock.calls[0]![1]).toBe('/v1/organizations/7/users');
    await act(async () => progress(0.4));
    expect(screen.getByRole('progressbar', { name: 'Uploading' }).getAttribute('aria-valuetext')).toBe('40 %');
    await act(async () => finish({ total: 1, accepted: [{ line: 2, Username: 'a', Extension: '2001' }], refused: [] }));
    expect(wizardState.upload.status).toBe(UPLOAD.IDLE);
    expect(wizardState.upload.report?.accepted).toHaveLength(1);
    expect(onUploaded).toHaveBeenCalledTimes(1);
  });

  it('a refused file is the error state with the server’s reason, and can be tried again', async () => {
    await pick('team.csv', 'text/csv');
    await act(async () => void fireEvent.click(uploadButton()));
    await act(async () => fail(new ApiError(400, { error: 'csv_columns_missing', message: 'The header row lacks Enabled' })));
    expect(wizardState.upload.status).toBe(UPLOAD.ERROR);
    expect(screen.getByRole('alert').textContent).toBe('The file was refused: The header row lacks Enabled');
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(uploadButton().textContent).toBe('Try again');
    expect(onUploaded).not.toHaveBeenCalled();
  });
});
