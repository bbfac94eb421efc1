// Postgres and Redis: check that they answer, and start the local ones when they do not (the same
// commands CI uses). Nothing is downloaded.
import { execSync } from 'node:child_process';
import { connect } from 'node:net';

function answers(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const socket = connect({ port, host });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

function tryRun(command) {
  try {
    execSync(command, { stdio: 'ignore', shell: '/bin/bash' });
    return true;
  } catch {
    return false;
  }
}

export async function ensureServices({ log = console.log } = {}) {
  if (!(await answers(5432))) {
    log('Postgres is not answering on 127.0.0.1:5432; starting the local cluster');
    tryRun('pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start');
  }
  if (!(await answers(6379))) {
    log('Redis is not answering on 127.0.0.1:6379; starting a local redis-server');
    tryRun(
      'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /tmp --logfile /tmp/redis-gateway.log',
    );
  }
  for (const [name, port] of [
    ['Postgres', 5432],
    ['Redis', 6379],
  ]) {
    let ok = false;
    for (let i = 0; i < 40 && !ok; i += 1) {
      ok = await answers(port);
      if (!ok) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    if (!ok)
      throw new Error(`${name} is not answering on 127.0.0.1:${port}; start it and try again (see README).`);
  }
}
