import { plugins } from './plugins';
import { boot } from './shell/boot';

void boot(document.getElementById('root')!, plugins);
