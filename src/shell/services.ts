import { Connections } from './connections';

/** Shell singletons that live as long as the page. */
export const connections = new Connections();
