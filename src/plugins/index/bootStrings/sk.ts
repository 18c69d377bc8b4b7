export default import.meta.glob<Record<string, unknown>>('../../*/locales/sk.json', { eager: true, import: 'default' });
