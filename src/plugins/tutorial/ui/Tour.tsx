import { use, useCallback, useEffect, useRef, useState } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Notifications, Session, useContextSnapshot, useKernel } from '../../../kernel';
import { saveCompleted, saveLogoStepSeen } from '../api';
import { nextStep, position, previousStep, STEPS, type TourFacts } from '../steps';
import { tutorialState } from '../state';
import { strings } from '../strings';
import './tutorial.css';

const TEXT_ID = 'tour-step-text';
const TITLE_ID = 'tour-step-title';
/** The other plugin's command the last step offers to logo admins (commands are the public contract). */
const LOGO_COMMAND = 'branding.upload';

interface Box {
  top: number;
  left: number;
  width: number;
  height: number;
}

/**
 * The tour card: the step's title and text next to the part of the screen it explains, which is
 * outlined and holds the focus (its accessible description is the step's text, so a screen reader
 * reads both). Tab from there reaches the card's buttons; Esc ends the tour; ending it, however,
 * saves uc-tutorial-completed.
 */
export default function Tour() {
  const { t, i18n } = useTranslation('tutorial');
  use(strings(i18n.language));
  const kernel = useKernel();
  const context = useContextSnapshot();
  const { step } = useSnapshot(tutorialState);
  const facts: TourFacts = { calling: kernel.get(Session).config.sip.configured, logoAdmin: context.features.logoAdmin };
  const [box, setBox] = useState<Box | null>(null);
  const focused = useRef<HTMLElement | null>(null);
  const card = useRef<HTMLElement | null>(null);
  const first = useRef<HTMLButtonElement | null>(null);
  const current = step ?? 0;
  const def = STEPS[current]!;
  const last = nextStep(current, facts) === null;
  const { at, of } = position(current, facts);

  const release = () => {
    focused.current?.removeAttribute('aria-describedby');
    focused.current = null;
  };

  const end = useCallback(() => {
    // The card's buttons go with it: the focus returns to the part of the screen the step showed.
    const back = focused.current ?? document.querySelector<HTMLElement>('#main-heading');
    release();
    tutorialState.step = null;
    back?.focus();
    void saveCompleted(kernel);
    kernel.get(Notifications).announce(t('ended'));
  }, [kernel, t]);

  const go = (to: number | null) => {
    if (to === null) return end();
    tutorialState.step = to;
  };

  // The step's part of the screen: outlined, focused, described by the step's text. A part that is
  // not on screen (a narrow window hides the rail) leaves the focus on the card's first button.
  useEffect(() => {
    release();
    const target = document.querySelector<HTMLElement>(def.target);
    const focus = document.querySelector<HTMLElement>(def.focus);
    const rect = target?.getBoundingClientRect();
    setBox(rect && rect.width > 0 ? { top: rect.top, left: rect.left, width: rect.width, height: rect.height } : null);
    if (focus && rect && rect.width > 0) {
      focus.setAttribute('aria-describedby', TEXT_ID);
      focused.current = focus;
      focus.focus();
    } else first.current?.focus();
    if (def.id === 'done' && facts.logoAdmin) void saveLogoStepSeen(kernel);
    return release;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [current]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const active = document.activeElement;
      const inTour = active === focused.current || (active instanceof Node && !!card.current?.contains(active));
      // Esc is the tour's unless another dialog, menu or list (the palette, a menu opened meanwhile) has the focus.
      const elsewhere = active instanceof Element && !inTour && active.closest('[role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"]') !== null;
      if (e.key === 'Escape' && !elsewhere) {
        e.preventDefault();
        e.stopPropagation();
        end();
        return;
      }
      if (!inTour) return;
      if (e.key === 'Tab' && !e.shiftKey && active === focused.current) {
        e.preventDefault();
        first.current?.focus();
      } else if (e.key === 'Tab' && e.shiftKey && active === first.current && focused.current) {
        e.preventDefault();
        focused.current.focus();
      }
    };
    // Capture: before a menu or list on the screen takes the key.
    document.addEventListener('keydown', onKey, true);
    return () => document.removeEventListener('keydown', onKey, true);
  }, [end]);

  const cardStyle = box ? { top: Math.min(box.top + box.height + 12, window.innerHeight - 220), left: Math.max(12, Math.min(box.left, window.innerWidth - 372)) } : undefined;
  const product = kernel.get(Session).config.branding.product_name;
  const canUploadLogo = def.id === 'done' && facts.logoAdmin && kernel.commands.get(LOGO_COMMAND) !== undefined;

  return (
    <>
      {box && <div className="tour-ring" aria-hidden="true" style={{ top: box.top - 4, left: box.left - 4, width: box.width + 8, height: box.height + 8 }} />}
      {/* A non-modal dialog of its own, not React Aria's Dialog: that one takes the focus when it
          opens, and the tour's focus belongs on the part of the screen the step explains. */}
      <section ref={card} role="dialog" aria-modal="false" aria-labelledby={TITLE_ID} aria-describedby={TEXT_ID} className={`tour-card${box ? '' : ' centred'}`} style={cardStyle}>
        <p className="tour-count">{t('count', { at, of })}</p>
        <h2 id={TITLE_ID}>{t(`steps.${def.id}.title`, { product })}</h2>
        <p id={TEXT_ID}>
          {t(`steps.${def.id}.text`, { product })} {t('keys')}
        </p>
        {canUploadLogo && (
          <p>
            <Button className="btn" onPress={() => void kernel.run(LOGO_COMMAND, {}, 'menu').then(end)}>
              {t('uploadLogo')}
            </Button>
          </p>
        )}
        <div className="dialog-actions">
          <Button ref={first} className="btn primary" onPress={() => go(nextStep(current, facts))}>
            {last ? t('finish') : t('next')}
          </Button>
          {previousStep(current, facts) !== null && (
            <Button className="btn" onPress={() => go(previousStep(current, facts))}>
              {t('back')}
            </Button>
          )}
          {!last && (
            <Button className="btn" onPress={end}>
              {t('end')}
            </Button>
          )}
        </div>
      </section>
    </>
  );
}
