export default import.meta.glob<Record<string, unknown>>('../../*/locales/ar.json', { eager: true, import: 'default' });
