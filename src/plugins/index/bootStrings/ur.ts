export default import.meta.glob<Record<string, unknown>>('../../*/locales/ur.json', { eager: true, import: 'default' });
