// --callgrind: the gateway targets run under valgrind's callgrind, which counts the instructions they
// execute (every thread: the event loop, V8's compiler and collector threads, libuv's pool). Unlike CPU
// seconds, an instruction count does not move with the machine's phase or its neighbours, so an A/B of
// two builds reads the same on a noisy VM as on a quiet one. Counting is off from the start and is
// switched on around each measured run only, so start-up, the warm-up and the settle pause between runs
// are left out; each run is dumped into a file of its own and its total read back.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The command line that starts `name` under callgrind, its dumps in `dir`. */
export function callgrindWrapper(dir, name) {
  return [
    'valgrind',
    '--tool=callgrind',
    '--instr-atstart=no',
    `--callgrind-out-file=${join(dir, `${name}.%p`)}`,
  ];
}

/**
 * The instruction total of one callgrind dump: its `totals:` line. A dump taken with counting off also
 * has a `summary:` line (of the whole run so far, 0 here), which older formats use alone.
 */
export function parseCallgrindTotal(text) {
  const match = /^totals:\s+(\d+)/m.exec(text) ?? /^summary:\s+(\d+)/m.exec(text);
  if (!match) throw new Error('callgrind dump without a totals line');
  return Number(match[1]);
}

/**
 * Counting for the process `pid` (started with `host` as its HOST variable), whose dumps are
 * `dir`/`name`.`pid`.N: `start()` zeroes and switches
 * counting on, `stop()` switches it off, dumps and resolves with the instructions counted in between.
 */
export function callgrindCounter({ dir, name, pid, host }) {
  // vgdb names its pipes after the HOST variable, which the gateway's environment sets (its address).
  const control = (...args) =>
    run('callgrind_control', [...args, String(pid)], { env: { ...process.env, HOST: host } });
  const dumps = () =>
    new Set(readdirSync(dir).filter((file) => file.startsWith(`${name}.${pid}.`) && /\.\d+$/.test(file)));
  return {
    async start() {
      await control('--zero');
      await control('--instr=on');
    },
    async stop(label) {
      const before = dumps();
      await control('--instr=off');
      await control(`--dump=${label}`);
      const added = [...dumps()].filter((file) => !before.has(file));
      if (added.length !== 1)
        throw new Error(`expected one new callgrind dump of ${name}, found ${added.length}`);
      return parseCallgrindTotal(readFileSync(join(dir, added[0]), 'utf8'));
    },
  };
}
