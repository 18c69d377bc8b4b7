export default import.meta.glob<Record<string, unknown>>('../../*/locales/ko.json', { eager: true, import: 'default' });
