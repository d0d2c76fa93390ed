// The vendored Web API method spec (specs/web-api-methods.json, copied from the shared slack-specs with its `_about`),
// read as data: which methods exist and which arguments each requires. The SDK column is the newest public description
// of the arguments, so required-ness comes from it; methods without one fall back to the 2020 OpenAPI flags.
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const paramSchema = z.object({
  name: z.string(),
  required: z.union([z.boolean(), z.string()]).optional(),
  type: z.string().optional(),
});

const specSchema = z.object({
  _about: z.record(z.string(), z.string()),
  methods: z.record(
    z.string(),
    z.object({
      openapi: z
        .object({ params: z.array(paramSchema), scope_hint: z.string().optional() })
        .nullable()
        .optional(),
      sdk: z
        .object({ params: z.array(paramSchema) })
        .nullable()
        .optional(),
    }),
  ),
});

export type MethodSpec = z.infer<typeof specSchema>['methods'][string];

/** What a method's arguments must satisfy, derived from the spec's free-text `required` notes. */
export interface ArgumentRules {
  required: string[];
  /** At least one of each group must be present (e.g. text | blocks | attachments | markdown_text). */
  oneOf: string[][];
  /** When `if` is present (and not false), `then` must be present too. */
  conditional: { if: string; then: string }[];
}

const spec = specSchema.parse(
  JSON.parse(readFileSync(new URL('./specs/web-api-methods.json', import.meta.url), 'utf8')),
);

/** Method names as Slack spells them; the spec also keys the retired v1 upload as "files.upload (v1, retired)". */
export function specMethod(method: string): MethodSpec | undefined {
  return Object.hasOwn(spec.methods, method) ? spec.methods[method] : undefined;
}

export function argumentRules(method: string): ArgumentRules | undefined {
  const entry = specMethod(method);
  if (!entry) return undefined;
  const rules: ArgumentRules = { required: [], oneOf: [], conditional: [] };
  if (entry.sdk) {
    const group: string[] = [];
    for (const p of entry.sdk.params) {
      const req = p.required;
      if (req === true) {
        // The SDK marks the token required only for app-level tokens; the sandbox takes it from the header.
        if (p.name !== 'token') rules.required.push(p.name);
      } else if (typeof req === 'string') {
        if (/^one[- ]of/.test(req)) group.push(p.name);
        const requiredIf = /required if (\w+) given/.exec(req);
        if (requiredIf?.[1]) rules.conditional.push({ if: requiredIf[1], then: p.name });
        const requires = /requires (\w+)/.exec(req) ?? /then (\w+) required/.exec(req);
        if (requires?.[1]) rules.conditional.push({ if: p.name, then: requires[1] });
      }
    }
    if (group.length > 0) rules.oneOf.push(group);
  } else if (entry.openapi) {
    for (const p of entry.openapi.params) if (p.required === true && p.name !== 'token') rules.required.push(p.name);
  }
  return rules;
}

/**
 * Required arguments whose empty string is a value: an empty `status` clears a thread's status (the reference page of
 * assistant.threads.setStatus; Bolt's `setStatus('')` relies on it).
 */
const EMPTY_IS_A_VALUE: Record<string, readonly string[]> = { 'assistant.threads.setStatus': ['status'] };

function present(args: Record<string, unknown>, name: string, method = ''): boolean {
  const value = args[name];
  if (value === '' && EMPTY_IS_A_VALUE[method]?.includes(name)) return true;
  return value !== undefined && value !== null && value !== '' && value !== false && value !== 'false';
}

/** The arguments a call is missing, in words (empty when the call satisfies the spec). */
export function missingArguments(method: string, args: Record<string, unknown>): string[] {
  const rules = argumentRules(method);
  if (!rules) return [];
  const missing: string[] = [];
  for (const name of rules.required) if (!present(args, name, method)) missing.push(name);
  for (const group of rules.oneOf) {
    if (!group.some((name) => present(args, name))) missing.push(`one of ${group.join('|')}`);
  }
  for (const rule of rules.conditional) {
    if (present(args, rule.if) && !present(args, rule.then)) missing.push(`${rule.then} (required with ${rule.if})`);
  }
  return missing;
}

/**
 * The bot scope the spec names for a method (its 2020 OpenAPI `scope_hint`, "Requires scope: `chat:write`"): [] for
 * `none`, undefined when the spec says nothing.
 */
export function hintedScopes(method: string): string[] | undefined {
  const hint = specMethod(method)?.openapi?.scope_hint;
  const scope = hint === undefined ? undefined : /Requires scope: `([^`]+)`/.exec(hint)?.[1];
  if (scope === undefined) return undefined;
  return scope === 'none' ? [] : [scope];
}
