export default import.meta.glob<Record<string, unknown>>('../../*/locales/kk.json', { eager: true, import: 'default' });
