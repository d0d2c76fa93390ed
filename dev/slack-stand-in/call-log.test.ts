import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { checkCallLog } from './call-log.js';
import { argumentRules, missingArguments, specMethod } from './spec.js';
import { implementedMethods } from './web-api.js';

const run = promisify(execFile);

function logFile(lines: unknown[]): string {
  const path = join(mkdtempSync(join(tmpdir(), 'parley-call-log-')), 'calls.jsonl');
  writeFileSync(path, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return path;
}

const at = '2026-01-01T00:00:00.000Z';
const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });

describe('the vendored spec', () => {
  it('lists every method the sandbox implements', () => {
    expect(implementedMethods().filter((m) => !specMethod(m))).toEqual([]);
  });

  it('reads required, one-of and conditional arguments from the SDK notes', () => {
    expect(argumentRules('chat.postMessage')).toMatchObject({
      required: ['channel'],
      oneOf: [['text', 'blocks', 'attachments', 'markdown_text']],
      conditional: [{ if: 'reply_broadcast', then: 'thread_ts' }],
    });
    expect(missingArguments('files.completeUploadExternal', { files: [{ id: 'F1' }], thread_ts: '1.2' })).toEqual([
      'channel_id (required with thread_ts)',
    ]);
    expect(missingArguments('views.update', { view: {} })).toEqual(['one of view_id|external_id']);
    expect(missingArguments('conversations.replies', { channel: 'C1', ts: '1.2' })).toEqual([]);
  });
});

describe('checkCallLog', () => {
  it('finds unknown methods, missing arguments and Block Kit violations, line by line', () => {
    const path = logFile([
      { at, method: 'chat.postMessage', args: { channel: 'C1', text: 'ok', blocks: [section('fine')] }, ok: true },
      { at, method: 'chat.postMesage', args: { channel: 'C1', text: 'typo' }, ok: false, error: 'unknown_method' },
      { at, method: 'reactions.add', args: { channel: 'C1', timestamp: '1.000001' }, ok: false },
      {
        at,
        method: 'chat.update',
        args: { channel: 'C1', ts: '1.2', blocks: [section('no fallback text')] },
        ok: true,
      },
      {
        at,
        method: 'views.open',
        args: {
          trigger_id: 't',
          view: { type: 'modal', title: { type: 'plain_text', text: 'x'.repeat(25) }, blocks: [] },
        },
        ok: false,
      },
      // Form-encoded calls log their JSON fields as strings; they are decoded before checking.
      {
        at,
        method: 'chat.postMessage',
        args: { channel: 'C1', text: 't', blocks: JSON.stringify([section('y'.repeat(3001))]) },
        ok: false,
      },
      'not json',
    ]);
    const problems = checkCallLog(path);
    expect(problems.map((p) => [p.line, p.method])).toEqual([
      [2, 'chat.postMesage'],
      [3, 'reactions.add'],
      [4, 'chat.update'],
      [5, 'views.open'],
      [6, 'chat.postMessage'],
      [7, '?'],
    ]);
    expect(problems[1]?.message).toBe('missing required name');
    expect(problems[2]?.message).toMatch(/fallback text/);
    expect(problems[3]?.message).toMatch(/view title: modal title text is 25 chars, limit 24/);
  });

  it('checks the limits of the newer methods: loading messages, chunks, recipients in channels', () => {
    const task = (status: string) => ({ type: 'task_update', id: 'parse', title: 'Read the quotation', status });
    const path = logFile([
      { at, method: 'assistant.threads.setStatus', args: { channel_id: 'C1', thread_ts: '1.2', status: '' }, ok: true },
      {
        at,
        method: 'assistant.threads.setStatus',
        args: { channel_id: 'C1', thread_ts: '1.2', status: 'x', loading_messages: Array(11).fill('…') },
        ok: false,
      },
      { at, method: 'assistant.threads.setStatus', args: { channel_id: 'C1', status: 'x' }, ok: false },
      {
        at,
        method: 'chat.startStream',
        args: { channel: 'C1', thread_ts: '1.2', chunks: [task('pending')] },
        ok: false,
      },
      {
        at,
        method: 'chat.startStream',
        args: { channel: 'D1', thread_ts: '1.2', chunks: JSON.stringify([task('pending')]) },
        ok: true,
      },
      { at, method: 'chat.appendStream', args: { channel: 'C1', ts: '1.3', chunks: [task('done')] }, ok: false },
      { at, method: 'chat.appendStream', args: { channel: 'C1', ts: '1.3' }, ok: false },
      { at, method: 'chat.stopStream', args: { channel: 'C1', ts: '1.3' }, ok: true },
    ]);
    const problems = checkCallLog(path);
    expect(problems.map((p) => [p.line, p.message])).toEqual([
      [2, 'loading_messages has 11 messages (max 10)'],
      [3, 'missing required thread_ts'],
      [4, 'recipient_user_id is required when streaming in a channel'],
      [4, 'recipient_team_id is required when streaming in a channel'],
      [6, 'chunks[0] task_update status must be one of pending|in_progress|complete|error'],
      [7, 'missing required one of markdown_text|chunks'],
    ]);
  });

  it('has a CLI that exits 1 on problems and 0 on a clean log', async () => {
    const cli = join(import.meta.dirname, 'check-call-log.ts');
    const clean = logFile([{ at, method: 'auth.test', args: {}, ok: true }]);
    const ok = await run(process.execPath, ['--import', 'tsx', cli, clean]);
    expect(ok.stdout).toContain('no problems');
    const bad = logFile([{ at, method: 'users.info', args: {}, ok: false }]);
    const failed = await run(process.execPath, ['--import', 'tsx', cli, bad]).catch(
      (e: { code: number; stdout: string }) => e,
    );
    expect(failed).toMatchObject({ code: 1 });
    expect('stdout' in failed ? failed.stdout : '').toContain('line 1 users.info: missing required user');
  });
});
