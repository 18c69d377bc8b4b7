export default import.meta.glob<Record<string, unknown>>('../../*/locales/ja.json', { eager: true, import: 'default' });
