// The pieces every thread stage shares: the question's key (posted by negotiation-events.ts, edited by the answer and
// by expiry.ts), a file upload as an outbox call, and who a question is from when no supplier asked it.
import { describe, expect, it } from 'vitest';
import { BRAND_AGENT_NAME } from '../slack/views/index.js';
import { askerName, edit, message, questionKey, upload } from './thread.js';

const thread = { slackChannelId: 'C0THREAD01', slackThreadTs: '1700000000.000100' };

describe('thread helpers', () => {
  it('keys a question by its negotiation and the engine’s question id', () => {
    expect(questionKey('neg1', 'q3')).toBe('neg:neg1:q:q3');
  });

  it('posts into the thread, edits by the key of what was posted, and uploads a file there', () => {
    const body = { text: 'hello', blocks: [] };
    expect(message(thread, 'k', body)).toEqual({
      dedupeKey: 'k',
      method: 'chat.postMessage',
      channelId: 'C0THREAD01',
      threadTs: '1700000000.000100',
      payload: { text: 'hello', blocks: [], unfurl_links: false, unfurl_media: false },
    });
    expect(edit(thread, 'k:edited', 'k', body)).toEqual({
      dedupeKey: 'k:edited',
      method: 'chat.update',
      channelId: 'C0THREAD01',
      updateOf: 'k',
      payload: { text: 'hello', blocks: [] },
    });
    expect(upload(thread, 'k:file', { filename: 'a.png', title: 'A', content: Buffer.from('png') })).toEqual({
      dedupeKey: 'k:file',
      method: 'files.uploadV2',
      channelId: 'C0THREAD01',
      threadTs: '1700000000.000100',
      payload: { filename: 'a.png', title: 'A', contentBase64: Buffer.from('png').toString('base64') },
    });
  });

  it('credits every question to the brand agent, naming the supplier it is about', () => {
    expect(askerName('Ningbo Everbright')).toBe(`${BRAND_AGENT_NAME} (about Ningbo Everbright)`);
    expect(askerName('Ningbo Everbright')).not.toMatch(/^Ningbo/);
    expect(askerName(null)).toBe(BRAND_AGENT_NAME);
    expect(askerName(undefined)).toBe(BRAND_AGENT_NAME);
  });
});
