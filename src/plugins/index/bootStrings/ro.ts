export default import.meta.glob<Record<string, unknown>>('../../*/locales/ro.json', { eager: true, import: 'default' });
