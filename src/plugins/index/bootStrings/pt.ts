export default import.meta.glob<Record<string, unknown>>('../../*/locales/pt.json', { eager: true, import: 'default' });
