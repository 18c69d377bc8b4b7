import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { INBOUND_RULES } from '../../../../wire/inbound';
import { fieldProblems } from '../../routing';
import { RouteForm } from './RouteForm';
import { RulesPending, SaveFailureNotice } from './RulesNotices';
import type { CallingRulesState } from './useCallingRules';

/** The four inbound rules, one form each, below the calling switches. */
export function InboundRules({ rules }: { rules: CallingRulesState }) {
  const { t } = useTranslation('preferences');
  const { inbound } = rules;
  const headingId = useId();
  return (
    <section className="prefs-section" aria-labelledby={headingId}>
      <h3 id={headingId}>{t('calling.route.title')}</h3>
      {rules.load !== 'ready' || !inbound ? (
        <RulesPending load={rules.load} />
      ) : (
        <>
          <p className="prefs-hint">{t('calling.route.hint')}</p>
          {INBOUND_RULES.map((rule) => (
            <RouteForm
              key={`${rule}-${rules.revision}`}
              slot={rule}
              route={inbound[rule]}
              onChange={(r) => rules.setInbound({ ...inbound, [rule]: r })}
              types={rules.types}
              selfId={rules.selfId}
              problems={fieldProblems(rules.problems, rule)}
            />
          ))}
          <SaveFailureNotice failure={rules.failure} />
        </>
      )}
    </section>
  );
}
