// The only reader of process.env. Parsed once, at import, so a bad variable stops the process at start-up with a
// message naming it, rather than failing an hour later in the middle of a negotiation.
import { validate as validateCron } from 'node-cron';
import { z } from 'zod';

const optionalString = z.string().min(1).optional();
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const positiveNumber = (fallback: number) => z.coerce.number().positive().default(fallback);
const cronExpression = (fallback: string) =>
  z.string().refine(validateCron, 'must be a cron expression, e.g. */15 * * * *').default(fallback);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  INSTANCE_ID: optionalString,

  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// URL')
    .optional(),
  PGLITE_DATA_DIR: z.string().min(1).default('data/pglite'),

  SLACK_BOT_TOKEN: z.string().startsWith('xoxb-', 'must start with xoxb-').optional(),
  SLACK_SIGNING_SECRET: optionalString,
  SLACK_APP_TOKEN: z.string().startsWith('xapp-', 'must start with xapp-').optional(),
  SLACK_CLIENT_ID: optionalString,
  SLACK_CLIENT_SECRET: optionalString,
  SLACK_STATE_SECRET: optionalString,
  /**
   * 32 random bytes, base64 (`openssl rand -base64 32`): seals the bot and user tokens the OAuth installation store
   * keeps in the database (AES-256-GCM). Required with OAuth; a single-workspace token stays in the environment.
   */
  TOKEN_ENCRYPTION_KEY: z
    .string()
    .refine((value) => Buffer.from(value, 'base64').length === 32 && /^[A-Za-z0-9+/]+={0,2}$/.test(value), {
      message: 'must be 32 bytes in base64, e.g. the output of `openssl rand -base64 32`',
    })
    .optional(),
  SLACK_API_URL: z.url().default('https://slack.com/api/'),
  PORT: positiveInt(3000),
  /** The local Slack stand-in (demo, tests) appends every Web API call it receives to this JSONL file. */
  SLACK_CALL_LOG: optionalString,
  /** Least time between two posts in one channel; Slack allows about one message per second per channel. */
  SLACK_POST_INTERVAL_MS: z.coerce.number().int().min(0).default(1000),
  /** How long each step of reading a shared file from Slack (files.info, the download) may take. */
  SLACK_FILE_DOWNLOAD_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  /** How long an outbox row stays claimed by a sender; a dead sender's rows are taken over after it. */
  OUTBOX_LOCK_MS: z.coerce.number().int().min(1000).default(60_000),
  /** Background tasks (reading files, driving negotiations) one process runs at once; the rest wait their turn. */
  WORK_CONCURRENCY: z.coerce.number().int().min(1).default(4),
  /** Seeds every negotiation's offline agents (replays, benchmarks); unset = each quotation's own seed. */
  NEGOTIATION_SEED: z.coerce.number().int().min(0).optional(),

  ANTHROPIC_API_KEY: optionalString,
  ANTHROPIC_BASE_URL: z.url().optional(),
  ANTHROPIC_FAST_MODEL: z.string().min(1).default('claude-haiku-4-5-20251001'),
  ANTHROPIC_REASONING_MODEL: z.string().min(1).default('claude-sonnet-4-6'),
  LLM_TIMEOUT_MS: positiveInt(60_000),
  LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  LLM_FAST_CONCURRENCY: positiveInt(3),
  LLM_REASONING_CONCURRENCY: positiveInt(2),

  MAX_UPLOAD_MB: positiveNumber(15),
  MAX_SHEET_ROWS: positiveInt(20_000),
  MAX_WORKBOOK_CELLS: positiveInt(500_000),

  /**
   * The first approvers of the workspace the single-workspace bot token belongs to, written when that workspace has
   * none yet. Never applied to OAuth installs: there the installer is the first approver.
   */
  APPROVER_SLACK_IDS: z
    .string()
    .default('')
    .transform((list) =>
      list
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^[UW][A-Z0-9]+$/, 'must be a comma-separated list of Slack user ids'))),
  /** A workspace's two-approver amount until its approvers set their own in `/parley settings`. */
  PO_DUAL_APPROVAL_ABOVE_USD: positiveNumber(50_000),

  JOBS_ENABLED: z.stringbool().default(true),
  JOB_REMINDERS_CRON: cronExpression('*/15 * * * *'),
  JOB_SWEEP_CRON: cronExpression('* * * * *'),
  QUESTION_REMINDER_AFTER_HOURS: positiveNumber(4),
  EXPIRE_PAUSED_AFTER_DAYS: positiveNumber(7),

  /** The demo's workspace, for `npm run seed` and the command-line tools; `npm start` seeds nothing. */
  SEED_SLACK_TEAM_ID: z
    .string()
    .regex(/^T[A-Z0-9]+$/, 'must be a Slack team id (T…)')
    .default('T0VALDEN01'),
  SEED_BRAND_NAME: z.string().min(1).default('Valden Outdoor'),
});

export type Env = z.infer<typeof envSchema>;

/** Every variable Parley reads (`.env.example` lists the same, line for line). */
export const ENV_VARIABLES = Object.keys(envSchema.shape) as (keyof Env)[];

export class EnvError extends Error {
  override name = 'EnvError';
}

/** Parses an environment; empty strings count as unset, as in a `.env` file with `KEY=`. */
export function loadEnv(source: Record<string, string | undefined>): Env {
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(present);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  throw new EnvError(`Invalid environment — ${problems.join('; ')}`);
}

export const env: Env = loadEnv(process.env);
