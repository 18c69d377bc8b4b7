/**
 * One failure path for every command (issue 17, "an honest command runtime"): whatever a command
 * throws is logged under its plugin's id, told to the user once, and the run answers false; an id
 * that names no command is treated the same way instead of rejecting (callers write `void
 * kernel.run(…)`, where a rejection went unseen).
 */
import { afterEach, expect, it, vi } from 'vitest';
import { definePlugin, Kernel, ReportedError, type CommandFailure } from '../../src/kernel';
import { features } from './fixtures';

afterEach(() => vi.restoreAllMocks());

function kernelWith(run: () => void | Promise<void>) {
  const failures: CommandFailure[] = [];
  const kernel = new Kernel({ features, mac: false, onCommandFailure: (f) => failures.push(f) });
  kernel.load([
    definePlugin({
      id: 'alpha',
      titleKey: 'alpha:title',
      commands: [{ id: 'alpha.go', titleKey: 'alpha:go', run }],
      activate: (ctx) => ctx.log.info('ready'),
    }),
  ]);
  return { kernel, failures };
}

it('a command that throws: logged under its plugin, one notice with its title, the run answers false', async () => {
  const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const boom = new Error('boom');
  const { kernel, failures } = kernelWith(async () => {
    throw boom;
  });
  await expect(kernel.run('alpha.go', {}, 'palette')).resolves.toBe(false);
  expect(failures).toEqual([{ commandId: 'alpha.go', titleKey: 'alpha:go', error: boom }]);
  expect(error).toHaveBeenCalledWith('alpha: command alpha.go failed (run from palette)', boom);
});

it('a command that told the user itself (ReportedError) is logged but not told again', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const { kernel, failures } = kernelWith(() => {
    throw new ReportedError('transfer failed');
  });
  await expect(kernel.run('alpha.go')).resolves.toBe(false);
  expect(failures).toEqual([]);
});

it('an unknown id is reported the same way and never rejects', async () => {
  const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const { kernel, failures } = kernelWith(() => undefined);
  await expect(kernel.run('alpha.nope', {}, 'hotkey')).resolves.toBe(false);
  expect(failures).toEqual([{ commandId: 'alpha.nope', titleKey: null, error: null }]);
  expect(error).toHaveBeenCalledWith('kernel: no command "alpha.nope" (run from hotkey)');
});

it('a command that succeeds answers true and reports nothing; each plugin logs under its own id', async () => {
  const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
  const { kernel, failures } = kernelWith(() => undefined);
  await expect(kernel.run('alpha.go')).resolves.toBe(true);
  expect(failures).toEqual([]);
  expect(info).toHaveBeenCalledWith('alpha: ready');
});
