export default import.meta.glob<Record<string, unknown>>('../../*/locales/el.json', { eager: true, import: 'default' });
