export default import.meta.glob<Record<string, unknown>>('../../*/locales/hi.json', { eager: true, import: 'default' });
