export default import.meta.glob<Record<string, unknown>>('../../*/locales/it.json', { eager: true, import: 'default' });
