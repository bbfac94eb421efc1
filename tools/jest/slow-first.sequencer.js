// Orders test files longest first, so that the long ones start at once and the short ones fill the
// workers around them: a 100 s file that starts last stretches the whole run by 100 s.
//
// Jest's own sequencer does this from the durations of earlier runs in its cache, but a fresh clone
// (CI) has none and falls back to file size, which says nothing about how long an integration file
// waits on sockets and timers. So the durations of a recorded run are kept in durations.json
// (refresh: `npx jest --json --outputFile=/tmp/jest.json && node tools/jest/record-durations.mjs
// /tmp/jest.json`); Jest's cached figure wins when it has one.
const { relative } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const recorded = require('./durations.json');

const root = require('node:path').join(__dirname, '..', '..');
/** Files the table does not know yet: an integration file starts a gateway, a unit file does not. */
const unknownSeconds = (path) => (path.endsWith('.int-spec.ts') ? 5 : 0.5);

class SlowFirstSequencer extends Sequencer {
  sort(tests) {
    const seconds = new Map(
      tests.map((test) => {
        const cached = this._getCache(test)[test.path];
        const fromCache = cached === undefined ? undefined : cached[1] / 1000;
        const known = fromCache ?? recorded[relative(root, test.path)];
        return [test, known ?? unknownSeconds(test.path)];
      }),
    );
    return [...tests].sort((a, b) => seconds.get(b) - seconds.get(a));
  }
}

module.exports = SlowFirstSequencer;
