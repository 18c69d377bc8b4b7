import { useEffect, useState, useSyncExternalStore } from 'react';
import { Button, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { bindingFromEvent, bindingToKeys, Notifications, Preferences, useKernel, useRegistry, useService } from '../kernel';
import type { EffectiveHotkey } from '../kernel';
import { hotkeyManager } from './hotkeysInstance';
import { shellState } from './uiState';

function Keys({ binding }: { binding: string | null }) {
  const { t } = useTranslation('shell');
  if (!binding) return <span className="muted">{t('shortcuts.off')}</span>;
  return (
    <span className="keys">
      {bindingToKeys(binding).map((press, i) => (
        <span key={i} className="press">
          {i > 0 && <span className="muted"> {t('shortcuts.then')} </span>}
          {press.map((k) => (
            <kbd key={k}>{k}</kbd>
          ))}
        </span>
      ))}
    </span>
  );
}

/** "?" — every hotkey of the registry, grouped by plugin, each remappable or switchable off. */
export function ShortcutsDialog() {
  const { shortcutsOpen } = useSnapshot(shellState);
  const { t } = useTranslation('shell');
  return (
    <ModalOverlay isOpen={shortcutsOpen} onOpenChange={(o) => (shellState.shortcutsOpen = o)} isDismissable className="modal-overlay">
      <Modal className="modal wide">
        <Dialog className="dialog">
          <Heading slot="title">{t('shortcuts.title')}</Heading>
          {shortcutsOpen && <ShortcutsList />}
          <div className="dialog-actions">
            <Button className="btn" slot="close">
              {t('close')}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

function ShortcutsList() {
  const kernel = useKernel();
  const prefs = useService(Preferences);
  const notify = useService(Notifications);
  const { t } = useTranslation();
  useRegistry(kernel.hotkeys);
  useSyncExternalStore(hotkeyManager().subscribe, hotkeyManager().getVersion);
  const [capturing, setCapturing] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const effective = hotkeyManager().effective();

  const save = async (next: Record<string, string | null>) => {
    const previous = hotkeyManager().getOverrides();
    hotkeyManager().setOverrides(next);
    try {
      await prefs.set('uc-hotkeys', next);
    } catch {
      hotkeyManager().setOverrides(previous);
      notify.toast({ titleKey: 'shell:shortcuts.saveFailed', tone: 'error' });
    }
  };

  useEffect(() => {
    if (!capturing) return;
    hotkeyManager().suspend(true);
    const onKey = (e: KeyboardEvent) => {
      e.preventDefault();
      e.stopPropagation();
      if (e.key === 'Escape') {
        setCapturing(null);
        return;
      }
      const binding = bindingFromEvent(e);
      if (!binding) return;
      const clash = hotkeyManager().conflictFor(capturing, binding);
      if (clash) {
        const other = kernel.commands.get(clash.hotkey.command)?.item;
        setError(t('shell:shortcuts.conflict', { keys: binding, command: other ? t(other.titleKey) : clash.hotkey.command }));
        setCapturing(null);
        return;
      }
      setError(null);
      setCapturing(null);
      void save({ ...hotkeyManager().getOverrides(), [capturing]: binding });
    };
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      hotkeyManager().suspend(false);
    };
  });

  const groups = new Map<string, EffectiveHotkey[]>();
  for (const e of effective) groups.set(e.plugin, [...(groups.get(e.plugin) ?? []), e]);

  return (
    <div className="shortcuts">
      <p className="muted">{t('shell:shortcuts.intro')}</p>
      {error && (
        <p role="alert" className="field-error">
          {error}
        </p>
      )}
      {[...groups.entries()].map(([plugin, list]) => {
        const manifest = kernel.plugins.get(plugin);
        const groupTitle = manifest ? t(manifest.titleKey) : plugin;
        return (
          <section key={plugin} aria-label={groupTitle}>
            <h3>{groupTitle}</h3>
            <table className="shortcuts-table">
              <thead className="visually-hidden">
                <tr>
                  <th scope="col">{t('shell:shortcuts.command')}</th>
                  <th scope="col">{t('shell:shortcuts.keys')}</th>
                  <th scope="col">{t('shell:shortcuts.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {list.map((e) => {
                  const cmd = kernel.commands.get(e.hotkey.command)?.item;
                  const title = cmd ? t(cmd.titleKey) : e.hotkey.command;
                  const isCapturing = capturing === e.hotkey.command;
                  return (
                    <tr key={e.hotkey.command}>
                      <th scope="row">{title}</th>
                      <td>{isCapturing ? <span role="status">{t('shell:shortcuts.pressKeys')}</span> : <Keys binding={e.keys} />}</td>
                      <td className="shortcut-actions">
                        <Button className="btn" aria-label={t('shell:shortcuts.change', { command: title })} onPress={() => setCapturing(e.hotkey.command)}>
                          {t('shell:shortcuts.changeShort')}
                        </Button>
                        <Button
                          className="btn"
                          aria-label={e.keys ? t('shell:shortcuts.turnOff', { command: title }) : t('shell:shortcuts.turnOn', { command: title })}
                          onPress={() => {
                            const next = hotkeyManager().getOverrides();
                            if (e.keys) next[e.hotkey.command] = null;
                            else delete next[e.hotkey.command];
                            void save(next);
                          }}
                        >
                          {e.keys ? t('shell:shortcuts.turnOffShort') : t('shell:shortcuts.turnOnShort')}
                        </Button>
                        {e.overridden && (
                          <Button
                            className="btn"
                            aria-label={t('shell:shortcuts.reset', { command: title })}
                            onPress={() => {
                              const next = hotkeyManager().getOverrides();
                              delete next[e.hotkey.command];
                              void save(next);
                            }}
                          >
                            {t('shell:shortcuts.resetShort')}
                          </Button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </section>
        );
      })}
    </div>
  );
}
