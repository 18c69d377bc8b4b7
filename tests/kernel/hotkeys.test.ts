// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { definePlugin, HotkeyManager, Kernel, allFeatures, type HotkeyContribution } from '../../src/kernel';

function press(key: string, init: KeyboardEventInit = {}, target: EventTarget = window) {
  target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init }));
}

function setup(hotkeys: HotkeyContribution[], ids: string[]) {
  const ran: string[] = [];
  const kernel = new Kernel({ features: allFeatures(true), mac: false });
  kernel.load([
    definePlugin({
      id: 't',
      titleKey: 't',
      commands: ids.map((id) => ({ id, titleKey: id, run: () => void ran.push(id) })),
      hotkeys,
    }),
  ]);
  const manager = new HotkeyManager(kernel, window);
  return { kernel, manager, ran };
}

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
  document.body.innerHTML = '';
});

describe('hotkey listener', () => {
  it('runs the highest-weight command whose `when` holds, scoped by context', async () => {
    const { kernel, manager, ran } = setup(
      [
        { command: 't.list', keys: 'Delete', scope: 'list', weight: 10, when: (c) => c.route === '/list' },
        { command: 't.global', keys: 'Delete', scope: 'global' },
      ],
      ['t.list', 't.global'],
    );
    cleanup = () => manager.dispose();
    kernel.context.route = '/list';
    press('Delete');
    kernel.context.route = '/other';
    press('Delete');
    await vi.waitFor(() => expect(ran).toEqual(['t.list', 't.global']));
  });

  it('a chord half typed survives the bindings being read again (the user\'s preferences arriving after sign-in)', async () => {
    const { manager, ran } = setup([{ command: 't.go', keys: 'g r' }], ['t.go']);
    cleanup = () => manager.dispose();
    press('g');
    manager.setOverrides({});
    press('r');
    await vi.waitFor(() => expect(ran).toEqual(['t.go']));
  });

  it('the last key of a chord is not also a single-key shortcut ("g c" goes to contacts, it does not call back with "c")', async () => {
    // Registered with the single key first: the order plugins load in must not matter.
    const { manager, ran } = setup(
      [
        { command: 't.callBack', keys: 'c', scope: 'history' },
        { command: 't.contacts', keys: 'g c' },
        { command: 't.hidden', keys: 'g h', when: () => false },
        { command: 't.help', keys: 'h', scope: 'history' },
      ],
      ['t.callBack', 't.contacts', 't.hidden', 't.help'],
    );
    cleanup = () => manager.dispose();
    press('g');
    press('c');
    // A chord that does not apply still owns its keys: "g h" is not "h".
    press('g');
    press('h');
    press('c');
    await vi.waitFor(() => expect(ran).toEqual(['t.contacts', 't.callBack']));
  });

  describe('pressed before the plugin knows whether its command applies (just after sign-in)', () => {
    function settling() {
      const ran: string[] = [];
      let know!: (visible: boolean) => void;
      const kernel = new Kernel({ features: allFeatures(true), mac: false });
      kernel.load([
        definePlugin({
          id: 'rec',
          titleKey: 'rec',
          commands: [
            { id: 'rec.go', titleKey: 'go', when: (c) => c.keys['rec.visible'] === true, run: () => void ran.push('rec.go') },
            { id: 'rec.other', titleKey: 'other', run: () => void ran.push('rec.other') },
          ],
          hotkeys: [
            { command: 'rec.go', keys: 'g r' },
            { command: 'rec.other', keys: 'o' },
          ],
          activate(ctx) {
            const settled = ctx.settling();
            know = (v) => (ctx.setContextKey('visible', v), settled());
          },
        }),
      ]);
      const manager = new HotkeyManager(kernel, window);
      cleanup = () => manager.dispose();
      return { kernel, ran, know: (v: boolean) => know(v) };
    }

    it('is held and runs as soon as the plugin knows it applies', async () => {
      const { kernel, ran, know } = settling();
      press('g');
      press('r');
      await Promise.resolve();
      expect(ran).toEqual([]);
      expect(kernel.isSettling).toBe(true);
      know(true);
      await vi.waitFor(() => expect(ran).toEqual(['rec.go']));
      expect(kernel.isSettling).toBe(false);
    });

    it('is dropped when it turns out not to apply, or when the user has pressed another key or clicked meanwhile', async () => {
      const first = settling();
      press('g');
      press('r');
      first.know(false);
      await vi.waitFor(() => expect(first.kernel.isSettling).toBe(false));
      await new Promise((r) => setTimeout(r, 0));
      expect(first.ran).toEqual([]);
      cleanup?.();

      const second = settling();
      press('g');
      press('r');
      press('o');
      second.know(true);
      await vi.waitFor(() => expect(second.kernel.isSettling).toBe(false));
      await new Promise((r) => setTimeout(r, 0));
      expect(second.ran).toEqual(['rec.other']);
      cleanup?.();

      const third = settling();
      press('g');
      press('r');
      window.dispatchEvent(new Event('pointerdown'));
      third.know(true);
      await vi.waitFor(() => expect(third.kernel.isSettling).toBe(false));
      await new Promise((r) => setTimeout(r, 0));
      expect(third.ran).toEqual([]);
    });

    it('is not held in a text field', async () => {
      const { ran, know } = settling();
      const input = document.body.appendChild(document.createElement('input'));
      input.focus();
      press('g', {}, input);
      press('r', {}, input);
      know(true);
      await new Promise((r) => setTimeout(r, 0));
      expect(ran).toEqual([]);
    });
  });

  it('does nothing on a tie, and warns', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { manager, ran } = setup(
      [
        { command: 't.a', keys: 'x', scope: 'a' },
        { command: 't.b', keys: 'x', scope: 'b' },
      ],
      ['t.a', 't.b'],
    );
    cleanup = () => manager.dispose();
    press('x');
    expect(ran).toEqual([]);
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it('is off in text fields and while a modal owns focus, except allowInInputs', async () => {
    const { manager, ran } = setup(
      [
        { command: 't.single', keys: 'c' },
        { command: 't.palette', keys: '$mod+k', allowInInputs: true },
      ],
      ['t.single', 't.palette'],
    );
    cleanup = () => manager.dispose();
    const input = document.createElement('input');
    document.body.append(input);
    press('c', {}, input);
    press('k', { ctrlKey: true }, input);
    const modal = document.createElement('div');
    modal.setAttribute('aria-modal', 'true');
    document.body.append(modal);
    press('c');
    modal.remove();
    press('c');
    await vi.waitFor(() => expect(ran).toEqual(['t.palette', 't.single']));
  });

  it('applies user remaps and switch-offs live', async () => {
    const { manager, ran } = setup([{ command: 't.a', keys: 'a' }], ['t.a']);
    cleanup = () => manager.dispose();
    manager.setOverrides({ 't.a': 'Shift+B' });
    press('a');
    press('B', { shiftKey: true });
    manager.setOverrides({ 't.a': null });
    press('B', { shiftKey: true });
    press('a');
    manager.setOverrides({});
    press('a');
    await vi.waitFor(() => expect(ran).toEqual(['t.a', 't.a']));
    expect(manager.effective()[0]).toMatchObject({ keys: 'a', overridden: false });
  });

  it('reports conflicts for the remap dialog within the same scope', () => {
    const { manager } = setup(
      [
        { command: 't.a', keys: 'a' },
        { command: 't.b', keys: 'b' },
      ],
      ['t.a', 't.b'],
    );
    cleanup = () => manager.dispose();
    expect(manager.conflictFor('t.a', 'B')?.hotkey.command).toBe('t.b');
    expect(manager.conflictFor('t.a', 'z')).toBeUndefined();
  });
});
