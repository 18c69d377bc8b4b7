import { Announcer } from './toasts';

export const announcer = new Announcer();
