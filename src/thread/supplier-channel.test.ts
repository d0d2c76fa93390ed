// What a sent draft puts in a connected supplier's thread: the request, and — when the request has more lines than
// the offer form takes — every line as a file to fill in and share back, once per negotiation.
import { describe, expect, it } from 'vitest';
import { createNegotiation } from '../negotiation/engine.js';
import { OFFER_MODAL_LINES_MAX } from '../slack/views/index.js';
import { manyLinesSetup } from '../../test/support/negotiation-fixtures.js';
import { draftSentCalls } from './supplier-channel.js';

const place = {
  negotiationId: 'cmnegotiation01',
  negotiationSupplierId: 'cmnegsupplier01',
  supplierCode: 'SUP-001',
  channelId: 'C0SHARED01',
  buyerId: 'U0BUYER001',
};
const thread = {
  id: 'cmquotation0001',
  slackChannelId: 'C0SOURCING',
  slackThreadTs: '1767225600.000100',
  slackMessageTs: '1767225600.000100',
  uploadedBySlackUserId: 'U0BUYER001',
  fileName: 'quote.xlsx',
  currency: 'USD',
};

function sent(lineCount: number) {
  const { state } = createNegotiation(manyLinesSetup(1, lineCount));
  const draft = {
    negotiationId: place.negotiationId,
    supplierCode: 'SUP-001',
    sequence: 3,
    round: 1,
    text: 'Hi',
    by: 'U0BUYER001',
  };
  return draftSentCalls(place, { state, thread, draft, replyBy: new Date('2027-01-05T12:00:00Z'), replyDays: 2 });
}

describe('a request sent to a connected supplier', () => {
  it('attaches every line, with an empty Unit price column, when the offer form cannot hold them', () => {
    const calls = sent(OFFER_MODAL_LINES_MAX + 30);
    const files = calls.filter((call) => call.method === 'files.uploadV2');
    expect(files).toHaveLength(1);
    const [file] = files;
    expect(file).toMatchObject({ channelId: place.channelId, threadOf: expect.stringContaining(':supplier:SUP-001') });
    const csv = Buffer.from(String(file?.payload.contentBase64), 'base64').toString('utf8').split('\r\n');
    expect(csv[0]).toBe('SKU,Description,Quantity,Unit price');
    expect(csv.filter((row) => row !== '')).toHaveLength(OFFER_MODAL_LINES_MAX + 31);
    expect(csv[1]).toMatch(/^"ST0000-BLK-XS","Style 0 parka","\d+",""$/);
    // Each sent draft carries it with the same key: the outbox uploads it once per negotiation.
    expect(sent(OFFER_MODAL_LINES_MAX + 30).find((call) => call.method === 'files.uploadV2')?.dedupeKey).toBe(
      file?.dedupeKey,
    );
    const request = JSON.stringify(calls.find((call) => call.method === 'chat.postMessage' && call.threadOf)?.payload);
    expect(request).toContain('share your revised quotation in this thread');
    expect(request).not.toContain('offer_open');
  });

  it('attaches nothing to a request the form holds, and offers the form and a file', () => {
    const calls = sent(OFFER_MODAL_LINES_MAX);
    expect(calls.some((call) => call.method === 'files.uploadV2')).toBe(false);
    const request = JSON.stringify(calls.find((call) => call.method === 'chat.postMessage' && call.threadOf)?.payload);
    expect(request).toContain('offer_open');
    expect(request).toContain('Or share your revised quotation');
  });
});
