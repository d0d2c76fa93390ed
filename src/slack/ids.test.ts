import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ACTION,
  BLOCK,
  CALLBACK,
  OPTION_VALUE_MAX,
  answerCodec,
  candidateOptionCodec,
  itemIdFromReviewLineBlockId,
  poRefCodec,
  quotationIdFromPageJumpBlockId,
  reviewLineBlockId,
  reviewPageJumpBlockId,
  supplierChoiceCodec,
  valueCodec,
} from './ids.js';

// A cuid as Prisma makes them: 25 chars.
const CUID = 'clx9q2k7d0000abcd1234efgh';

describe('ids', () => {
  it('has unique action ids and unique callback ids, all within 255 chars', () => {
    const actions = Object.values(ACTION);
    expect(new Set(actions).size).toBe(actions.length);
    const callbacks = Object.values(CALLBACK);
    expect(new Set(callbacks).size).toBe(callbacks.length);
    for (const id of [...actions, ...callbacks, ...Object.values(BLOCK)]) expect(id.length).toBeLessThanOrEqual(255);
  });

  it('matches the manifest shortcut', () => {
    expect(CALLBACK.negotiateShortcut).toBe('negotiate_quote');
  });

  it('round-trips per-item block ids and rejects others', () => {
    expect(itemIdFromReviewLineBlockId(reviewLineBlockId(CUID))).toBe(CUID);
    expect(itemIdFromReviewLineBlockId('review_line:<!channel>')).toBeNull();
    expect(itemIdFromReviewLineBlockId('other')).toBeNull();
    expect(quotationIdFromPageJumpBlockId(reviewPageJumpBlockId(CUID))).toBe(CUID);
    expect(quotationIdFromPageJumpBlockId(reviewLineBlockId(CUID))).toBeNull();
  });
});

describe('value codecs', () => {
  it('round-trips and stays short', () => {
    const v = answerCodec.encode({ q: CUID, a: 2 });
    expect(answerCodec.decode(v)).toEqual({ q: CUID, a: 2 });
    // Product ids may be uuids (the seed's): still within the limit.
    const uuid = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const option = candidateOptionCodec.encode({ p: uuid });
    expect(option.length).toBeLessThanOrEqual(OPTION_VALUE_MAX);
    expect(candidateOptionCodec.decode(option)).toEqual({ p: uuid });
    const po = poRefCodec.encode({ po: CUID, v: 3 });
    expect(poRefCodec.decode(po)).toEqual({ po: CUID, v: 3 });
    expect(supplierChoiceCodec.decode(supplierChoiceCodec.encode({ qt: CUID }))).toEqual({ qt: CUID });
  });

  it('decodes garbage, forged and oversized values to null', () => {
    expect(answerCodec.decode(undefined)).toBeNull();
    expect(answerCodec.decode('')).toBeNull();
    expect(answerCodec.decode('not json')).toBeNull();
    expect(answerCodec.decode('{"q":"x","a":99}')).toBeNull();
    expect(answerCodec.decode('{"q":"<!channel>","a":1}')).toBeNull();
    expect(answerCodec.decode(`{"q":"${CUID}","a":1,"extra":true}`)).toBeNull();
    expect(candidateOptionCodec.decode('x'.repeat(200))).toBeNull();
  });

  it('refuses to encode what does not fit or does not match', () => {
    const tiny = valueCodec(z.strictObject({ s: z.string() }), 10);
    expect(() => tiny.encode({ s: 'far too long for ten' })).toThrow(RangeError);
    expect(() => answerCodec.encode({ q: 'bad id!', a: 1 })).toThrow();
  });
});
