export default import.meta.glob<Record<string, unknown>>('../../*/locales/tr.json', { eager: true, import: 'default' });
