export default import.meta.glob<Record<string, unknown>>('../../*/locales/es.json', { eager: true, import: 'default' });
