export default import.meta.glob<Record<string, unknown>>('../../*/locales/en.json', { eager: true, import: 'default' });
