export default import.meta.glob<Record<string, unknown>>('../../*/locales/de.json', { eager: true, import: 'default' });
