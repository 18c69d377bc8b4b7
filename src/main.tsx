import { start } from './shell/start';

// The plugins load with the app, after the session is known: the login page carries none of them.
void start(document.getElementById('root')!, () => import('./plugins').then((m) => m.plugins));
