export default import.meta.glob<Record<string, unknown>>('../../*/locales/ne.json', { eager: true, import: 'default' });
