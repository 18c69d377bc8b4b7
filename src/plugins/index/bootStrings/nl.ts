export default import.meta.glob<Record<string, unknown>>('../../*/locales/nl.json', { eager: true, import: 'default' });
