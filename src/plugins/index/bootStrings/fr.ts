export default import.meta.glob<Record<string, unknown>>('../../*/locales/fr.json', { eager: true, import: 'default' });
