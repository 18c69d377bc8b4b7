export default import.meta.glob<Record<string, unknown>>('../../*/locales/ru.json', { eager: true, import: 'default' });
