// What a process's last output says about why it died, in a few lines: the headline of a crash on
// stderr (Node prints the error, then a dump of hundreds of lines), and the last error records of its
// JSON log on stdout.

// Node's crash output starts its lines at column 0 (the object dump after it is indented), except the
// source line it quotes, which says "Unhandled 'error' event".
const HEADLINE = /^(\w*error\b|emitted|uncaught|fatal|worker failed)|out of memory/i;
const UNHANDLED = /unhandled/i;
const HEADLINE_LINES = 4;
const ERROR_LEVEL = 50;
const LOG_LINES = 3;

function errorRecordText(line) {
  let record;
  try {
    record = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof record?.level !== 'number' || record.level < ERROR_LEVEL) return null;
  const cause = record.err?.message ?? record.error;
  return [record.msg, typeof cause === 'string' ? cause : null].filter(Boolean).join(': ');
}

/**
 * The last four headline lines of stderr (its last lines when none looks like one), and the last error
 * records of the JSON log.
 */
export function exitSummary({ stderr, stdout }) {
  const headlines = stderr.filter((line) => UNHANDLED.test(line) || HEADLINE.test(line));
  return {
    stderr: (headlines.length > 0 ? headlines : stderr).slice(-HEADLINE_LINES).map((line) => line.trim()),
    errorLogs: stdout.map(errorRecordText).filter(Boolean).slice(-LOG_LINES),
  };
}
