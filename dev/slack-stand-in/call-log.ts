// The JSONL record of every Web API call the sandbox received, and the check run over it afterwards: each call must name
// a method in the vendored spec, carry its required arguments, and every message or view in it must keep Block Kit's
// limits. The log is what a demo or benchmark leaves behind; the check says whether real Slack would have taken it.
import { appendFileSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { blockKitViolations, type Surface } from '../../src/slack/views/limits.js';
import { argumentLimitViolations } from './argument-limits.js';
import { missingArguments, specMethod } from './spec.js';
import { isRecord } from './shapes.js';
import type { Json, SandboxCall } from './model.js';

/** One line of the log. `status` and `fault` are extra to the required `{ at, method, args, ok, error? }`. */
export const callLogLineSchema = z.object({
  at: z.string(),
  method: z.string(),
  args: z.record(z.string(), z.unknown()),
  ok: z.boolean(),
  error: z.string().optional(),
  status: z.number().optional(),
  fault: z.string().optional(),
});

export type CallLogLine = z.infer<typeof callLogLineSchema>;

/** Answers to a response_url are logged too (their blocks count), under this pseudo-method the spec does not list. */
export const RESPONSE_URL_METHOD = 'response_url';

export function toLogLine(call: SandboxCall): CallLogLine {
  const line: CallLogLine = { at: call.at, method: call.method, args: call.args, ok: call.ok };
  if (call.error !== undefined) line.error = call.error;
  if (call.status !== 200) line.status = call.status;
  if (call.fault !== undefined) line.fault = call.fault;
  return line;
}

export function appendCallLog(path: string, call: SandboxCall): void {
  // Written when a call is over (a hang's line comes when it ends), synchronously: on disk when a test reads the file
  // right after a call.
  appendFileSync(path, `${JSON.stringify(toLogLine(call))}\n`);
}

export interface CallLogProblem {
  /** 1-based line in the JSONL file. */
  line: number;
  method: string;
  message: string;
}

const MESSAGE_METHODS = new Set(['chat.postMessage', 'chat.update', 'chat.postEphemeral', RESPONSE_URL_METHOD]);
const VIEW_METHODS = new Set(['views.open', 'views.push', 'views.update', 'views.publish']);

function decoded(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** Problems with one logged call's payload (method, arguments, Block Kit). */
export function callProblems(method: string, rawArgs: Json): string[] {
  if (method !== RESPONSE_URL_METHOD && !specMethod(method)) return [`${method} is not in the vendored Web API spec`];
  const args: Json = Object.fromEntries(Object.entries(rawArgs).map(([k, v]) => [k, decoded(v)]));
  const problems =
    method === RESPONSE_URL_METHOD
      ? []
      : [
          ...missingArguments(method, args).map((name) => `missing required ${name}`),
          ...argumentLimitViolations(method, args),
        ];
  if (MESSAGE_METHODS.has(method) && args.blocks !== undefined) {
    for (const v of blockKitViolations({ text: args.text, blocks: args.blocks }, 'message')) problems.push(v);
  }
  if (method === 'files.completeUploadExternal' && args.blocks !== undefined) {
    // The blocks become the file message; it has no separate fallback text, so only the blocks are checked.
    const blockOnly = blockKitViolations({ text: 'file', blocks: args.blocks }, 'message');
    for (const v of blockOnly) problems.push(v);
  }
  if (method === 'chat.stopStream' && args.blocks !== undefined) {
    // Appended to the streamed message, whose text is the stream's own: only the blocks are checked.
    for (const v of blockKitViolations({ text: 'streamed', blocks: args.blocks }, 'message')) problems.push(v);
  }
  if (VIEW_METHODS.has(method) && args.view !== undefined) {
    const view = args.view;
    const surface: Surface = isRecord(view) && view.type === 'home' ? 'home' : 'modal';
    for (const v of blockKitViolations(view, surface)) problems.push(`view ${v}`);
  }
  return problems;
}

/** Every problem in a JSONL call log (empty when real Slack would have accepted every call as sent). */
export function checkCallLog(path: string): CallLogProblem[] {
  const problems: CallLogProblem[] = [];
  const lines = readFileSync(path, 'utf8').split('\n');
  lines.forEach((text, index) => {
    if (text.trim() === '') return;
    const line = index + 1;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      problems.push({ line, method: '?', message: 'not valid JSON' });
      return;
    }
    const parsed = callLogLineSchema.safeParse(json);
    if (!parsed.success) {
      problems.push({ line, method: '?', message: `not a call log line: ${parsed.error.issues[0]?.message ?? ''}` });
      return;
    }
    for (const message of callProblems(parsed.data.method, parsed.data.args)) {
      problems.push({ line, method: parsed.data.method, message });
    }
  });
  return problems;
}

export function formatProblems(problems: CallLogProblem[]): string {
  return problems.map((p) => `line ${p.line} ${p.method}: ${p.message}`).join('\n');
}
