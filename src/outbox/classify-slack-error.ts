// What a failed Web API call means for the outbox row that made it. The WebClient is built with retries off and
// rate-limited calls rejected, so every failure arrives here once and the poster alone decides when to try again.
// Errors are recognised by their `code` (and fields), not `instanceof`: a second copy of @slack/web-api in
// node_modules would make instanceof fail silently.
import { z } from 'zod';

export type SlackFailure =
  /** Slack said 429: nothing was posted; wait as long as it asks. */
  | { kind: 'rate_limited'; retryAfterMs: number; message: string }
  /**
   * A 5xx, a network error, a timeout: the call may or may not have reached Slack; try again later. `timedOut`: the
   * call was abandoned unanswered, so Slack may still be working on it.
   */
  | { kind: 'transient'; message: string; timedOut?: true }
  /** Slack refused the call (`ok: false`, a 4xx): trying again would fail the same way. */
  | { kind: 'permanent'; code: string; message: string };

/** `ok: false` errors that describe Slack's trouble, not ours. */
const TRANSIENT_PLATFORM_ERRORS: ReadonlySet<string> = new Set([
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
]);

const DEFAULT_RETRY_AFTER_MS = 1_000;

const codedErrorSchema = z.object({ code: z.string() });
const rateLimitedSchema = z.object({ retryAfter: z.number().nonnegative() });
const platformSchema = z.object({
  data: z.object({
    error: z.string(),
    response_metadata: z.object({ retryAfter: z.number().optional() }).loose().optional(),
  }),
});
const httpSchema = z.object({ statusCode: z.number() });
/** WebClient's `timeout` aborts fetch with a TimeoutError (or AbortError), wrapped in a request error. */
const timedOutRequestSchema = z.object({ original: z.object({ name: z.enum(['TimeoutError', 'AbortError']) }) });

export function classifySlackError(error: unknown): SlackFailure {
  const message = error instanceof Error ? error.message : String(error);
  const coded = codedErrorSchema.safeParse(error);
  switch (coded.success ? coded.data.code : undefined) {
    case 'slack_webapi_rate_limited_error': {
      const parsed = rateLimitedSchema.safeParse(error);
      const retryAfterMs = parsed.success ? parsed.data.retryAfter * 1000 : DEFAULT_RETRY_AFTER_MS;
      return { kind: 'rate_limited', retryAfterMs, message };
    }
    case 'slack_webapi_platform_error': {
      const parsed = platformSchema.safeParse(error);
      const code = parsed.success ? parsed.data.data.error : 'unknown_error';
      if (code === 'ratelimited' || code === 'rate_limited') {
        const seconds = parsed.success ? parsed.data.data.response_metadata?.retryAfter : undefined;
        return { kind: 'rate_limited', retryAfterMs: seconds ? seconds * 1000 : DEFAULT_RETRY_AFTER_MS, message };
      }
      if (TRANSIENT_PLATFORM_ERRORS.has(code)) return { kind: 'transient', message: `Slack error ${code}` };
      return { kind: 'permanent', code, message: `Slack error ${code}` };
    }
    case 'slack_webapi_http_error': {
      const parsed = httpSchema.safeParse(error);
      const status = parsed.success ? parsed.data.statusCode : 0;
      if (status >= 500 || status === 408 || status === 0) return { kind: 'transient', message: `HTTP ${status}` };
      return { kind: 'permanent', code: `http_${status}`, message: `HTTP ${status}` };
    }
    case 'slack_webapi_request_error':
      return timedOutRequestSchema.safeParse(error).success
        ? { kind: 'transient', message, timedOut: true }
        : { kind: 'transient', message };
    case 'parley_no_bot_token':
      // Parley has no token for the workspace (uninstalled, token revoked): nothing was called, and a retry would
      // find none either — given up like Slack's own not_authed / invalid_auth (permanent, above).
      return { kind: 'permanent', code: 'not_authed', message };
    case 'slack_webapi_file_upload_invalid_args_error':
    case 'slack_webapi_file_upload_read_file_data_error':
      return { kind: 'permanent', code: 'invalid_upload', message };
    default:
      // Request errors (connection refused, reset, the client's own timeout) and anything unexpected: the outcome is
      // unknown, so retry — with a bounded number of attempts, and a lookup before re-posting.
      return { kind: 'transient', message };
  }
}
