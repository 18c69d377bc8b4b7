/**
 * `node --import tsx server/services/cli.ts start|stop|status|restart [ejabberd|kamailio|rtpengine ...]`
 * Settings come from the environment (UC_RUNTIME_DIR, UC_PORT_BASE, UC_API_PORT, UC_ORIGINS,
 * UC_SIP_GATEWAY, DATABASE_URL); see README.
 */
import { SERVICE_NAMES, readServicesConfig, type ServiceName } from './layout';
import { servicesStatus, startServices, stopServices } from './manager';

const [action = 'status', ...rest] = process.argv.slice(2);
const names = rest.filter((n): n is ServiceName => (SERVICE_NAMES as readonly string[]).includes(n));
const unknown = rest.filter((n) => !names.includes(n as ServiceName));
if (unknown.length) {
  console.error(`Unknown service(s): ${unknown.join(', ')}. Known: ${SERVICE_NAMES.join(', ')}`);
  process.exit(2);
}
const cfg = readServicesConfig();

try {
  switch (action) {
    case 'start':
      await startServices(cfg, names, (line) => console.log(line));
      break;
    case 'stop':
      await stopServices(cfg, names);
      console.log('stopped');
      break;
    case 'restart':
      await stopServices(cfg, names);
      await startServices(cfg, names, (line) => console.log(line));
      break;
    case 'status': {
      const all = await servicesStatus(cfg, names);
      for (const s of all) console.log(`${s.name.padEnd(10)} ${s.pid ? `running (PID ${s.pid})` : 'stopped'}${s.pid ? (s.ready ? ', ready' : ', NOT answering') : ''}`);
      process.exitCode = all.every((s) => s.ready) ? 0 : 3;
      break;
    }
    default:
      console.error('usage: services start|stop|restart|status [ejabberd|kamailio|rtpengine ...]');
      process.exit(2);
  }
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
