// `tsx dev/slack-stand-in/check-call-log.ts PATH`: checks a sandbox call log (SLACK_CALL_LOG) against the vendored Web API
// spec and Block Kit limits. Prints one line per problem; exits 1 when there are any, 2 on bad usage.
import { existsSync } from 'node:fs';
import { checkCallLog, formatProblems } from './call-log.js';

const path = process.argv[2];
if (path === undefined || !existsSync(path)) {
  console.error('usage: tsx dev/slack-stand-in/check-call-log.ts CALL_LOG.jsonl');
  process.exit(2);
}
const problems = checkCallLog(path);
if (problems.length > 0) {
  console.log(formatProblems(problems));
  console.log(`${problems.length} problem${problems.length === 1 ? '' : 's'} in ${path}`);
  process.exit(1);
}
console.log(`${path}: no problems`);
