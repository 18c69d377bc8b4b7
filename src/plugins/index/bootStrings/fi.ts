export default import.meta.glob<Record<string, unknown>>('../../*/locales/fi.json', { eager: true, import: 'default' });
