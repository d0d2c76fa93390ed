import { webApi } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { classifySlackError } from './classify-slack-error.js';

describe('classifySlackError', () => {
  it('a 429 waits as long as Slack asks', () => {
    expect(classifySlackError(new webApi.WebAPIRateLimitedError(7))).toMatchObject({
      kind: 'rate_limited',
      retryAfterMs: 7_000,
    });
  });

  it('ok:false is permanent, except Slack’s own trouble and rate limiting', () => {
    const platform = (error: string, extra = {}) => new webApi.WebAPIPlatformError({ ok: false, error, ...extra });
    expect(classifySlackError(platform('invalid_blocks'))).toEqual({
      kind: 'permanent',
      code: 'invalid_blocks',
      message: 'Slack error invalid_blocks',
    });
    expect(classifySlackError(platform('channel_not_found'))).toMatchObject({ kind: 'permanent' });
    expect(classifySlackError(platform('internal_error'))).toMatchObject({ kind: 'transient' });
    expect(classifySlackError(platform('ratelimited', { response_metadata: { retryAfter: 3 } }))).toMatchObject({
      kind: 'rate_limited',
      retryAfterMs: 3_000,
    });
    expect(classifySlackError(platform('ratelimited'))).toMatchObject({ kind: 'rate_limited', retryAfterMs: 1_000 });
  });

  it('5xx and 408 are retried, other HTTP statuses are not', () => {
    const http = (status: number) => new webApi.WebAPIHTTPError(status, 'x', {});
    expect(classifySlackError(http(502))).toEqual({ kind: 'transient', message: 'HTTP 502' });
    expect(classifySlackError(http(408))).toMatchObject({ kind: 'transient' });
    expect(classifySlackError(http(400))).toEqual({ kind: 'permanent', code: 'http_400', message: 'HTTP 400' });
  });

  it('network errors, timeouts and anything unknown are retried', () => {
    const refused = new webApi.WebAPIRequestError(new Error('connect ECONNREFUSED'));
    expect(classifySlackError(refused)).toEqual({ kind: 'transient', message: refused.message });
    const timeout = new webApi.WebAPIRequestError(new DOMException('The operation timed out', 'TimeoutError'));
    expect(classifySlackError(timeout)).toMatchObject({ kind: 'transient', timedOut: true });
    expect(classifySlackError(new Error('socket hang up'))).toEqual({ kind: 'transient', message: 'socket hang up' });
    expect(classifySlackError('weird')).toEqual({ kind: 'transient', message: 'weird' });
  });
});
