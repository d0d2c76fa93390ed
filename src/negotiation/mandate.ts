// The buyer's mandate: what the award must respect (walk-away, deadline, invited suppliers, single/split) and what it
// weighs (target, the lead time the buyer accepted, a preference for speed), plus the premiums the buyer agreed to pay
// above the quote. It is set in the start modal and grows with the buyer's answers to the agents' questions: each
// answer is read conservatively into a constraint or a weight of this same mandate (`applyAnswer`), and an answer
// that says nothing Parley can act on changes nothing but is kept, so no answer is lost. What the buyer set in the start
// modal is recorded apart (`setAtStart`): an answer may tighten it but never loosens it unless the question was about
// that very setting. It lives in the negotiation's checkpoint; every field has a default, so a checkpoint written
// before a field existed still parses.
import { z } from 'zod';

export const SOURCING_PREFERENCES = ['any', 'single', 'split'] as const;
export type SourcingPreference = (typeof SOURCING_PREFERENCES)[number];

/** Why the buyer agreed to pay above the quote (what the dearer award buys). */
export const PREMIUM_REASONS = ['lead_time', 'deadline', 'quality', 'terms', 'reliability', 'sourcing'] as const;
export type PremiumReason = (typeof PREMIUM_REASONS)[number];

export const premiumConsentSchema = z.object({
  /** The offer the button carried: which award the buyer saw. */
  optionId: z.string().min(1),
  /** The most the award may cost above the quote's landed cost, in the quote's currency. */
  amountOverQuote: z.number().nonnegative(),
  reasons: z.array(z.enum(PREMIUM_REASONS)).min(1),
  supplierCodes: z.array(z.string()).min(1),
  by: z.string().min(1),
  /** ISO timestamp of the click. */
  at: z.string().min(1),
});
export type PremiumConsent = z.infer<typeof premiumConsentSchema>;

export const mandateAnswerSchema = z.object({
  questionId: z.string(),
  topic: z.string().nullable(),
  question: z.string(),
  answer: z.string(),
  /** What the answer changed, in words; null when Parley could not read a constraint or weight from it. */
  effect: z.string().nullable(),
});
export type MandateAnswer = z.infer<typeof mandateAnswerSchema>;

const money = z.number().positive().finite();
const days = z.number().int().positive().max(3_650);

/** The limits the start modal sets; null (or sourcing `any`): the buyer left it open. */
export const startSettingsSchema = z.object({
  targetTotal: money.nullable(),
  walkAwayTotal: money.nullable(),
  maxLeadTimeDays: days.nullable(),
  sourcing: z.enum(SOURCING_PREFERENCES),
});
export type StartSettings = z.infer<typeof startSettingsSchema>;
export type StartSetting = keyof StartSettings;

export const mandateSchema = z.object({
  /** The order total the buyer aims for (goods, in the quote's currency). */
  targetTotal: money.nullable().default(null),
  /** The most the buyer pays for the goods: an award above it is infeasible. */
  walkAwayTotal: money.nullable().default(null),
  /** Per SKU: the most the buyer pays a unit; a line priced above it cannot go to that supplier. */
  walkAwayUnitPrices: z.record(z.string(), money).default({}),
  /** The date the goods are needed by (YYYY-MM-DD), as the buyer gave it; `maxLeadTimeDays` is what binds. */
  requiredBy: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .nullable()
    .default(null),
  /** Suppliers slower than this are infeasible. */
  maxLeadTimeDays: days.nullable().default(null),
  /** The buyer accepted lead times up to this: no lead-time penalty within it. */
  acceptedLeadTimeDays: days.nullable().default(null),
  sourcing: z.enum(SOURCING_PREFERENCES).default('any'),
  /** A split is awarded only when its landed cost is at least this share below the cheapest single supplier's. */
  minSplitSaving: z.number().min(0).max(1).nullable().default(null),
  /** The buyer said speed matters more than price: lead time weighs at least as much as price. */
  leadTimeOverPrice: z.boolean().default(false),
  /** The simulated suppliers invited (the quoting supplier always is); null invites every one. */
  invitedSuppliers: z.array(z.string()).nullable().default(null),
  premiumConsents: z.array(premiumConsentSchema).default([]),
  answers: z.array(mandateAnswerSchema).default([]),
  /**
   * What the buyer set in the start modal (`createMandate`): answers may tighten these limits but never loosen them,
   * except an answer to a question about that very setting (SETTING_TOPICS). Null on a checkpoint written before it
   * was recorded: nothing is protected there, as before.
   */
  setAtStart: startSettingsSchema.nullable().default(null),
});
export type Mandate = z.infer<typeof mandateSchema>;
/** A mandate as callers give it: any field may be left out and takes its default. */
export type MandateInput = z.input<typeof mandateSchema>;

export const EMPTY_MANDATE: Mandate = mandateSchema.parse({});

/** The mandate the buyer starts with (the start modal's): its limits are recorded as set at the start. */
export function createMandate(input: MandateInput = {}): Mandate {
  const mandate = mandateSchema.parse(input);
  const setAtStart: StartSettings = {
    targetTotal: mandate.targetTotal,
    walkAwayTotal: mandate.walkAwayTotal,
    maxLeadTimeDays: mandate.maxLeadTimeDays,
    sourcing: mandate.sourcing,
  };
  return { ...mandate, setAtStart };
}

/**
 * The question topics about one start setting: only an answer to such a question may loosen that setting (the buyer
 * was asked about it, in so many words). No agent asks them today; a flow that must reopen a setting uses them.
 */
export const SETTING_TOPICS: Readonly<Record<StartSetting, string>> = {
  targetTotal: 'mandate_target',
  walkAwayTotal: 'mandate_walk_away',
  maxLeadTimeDays: 'mandate_deadline',
  sourcing: 'mandate_sourcing',
};

/** Topics the brand asks about, and what in the mandate already answers them. */
const LEAD_TIME_TOPIC = /lead.?time|deliver|deadline|speed|ship/i;
const SOURCING_TOPIC = /split|sourc|supplier/i;
const BUDGET_TOPIC = /budget|walk.?away|max(?:imum)?.?(?:price|total)|price.?limit|spend/i;
const TARGET_TOPIC = /target/i;

/**
 * What the mandate already says about a question's topic, in words (for the agent that wanted to ask), or null when
 * the buyer has not settled it. A question the mandate settles is not put to the buyer: asking would invite an answer
 * that contradicts the start modal. The impasse topics are the engine's own, about one supplier's talks: never
 * settled here. Fields missing from `mandate` (a caller that passes only the totals) count as unset.
 */
export function settledByMandate(mandate: Readonly<Partial<Mandate>>, topic: string | null): string | null {
  if (topic === null || topic.startsWith('impasse:')) return null;
  const { maxLeadTimeDays, acceptedLeadTimeDays, minSplitSaving, walkAwayTotal, targetTotal } = mandate;
  if (LEAD_TIME_TOPIC.test(topic)) {
    if (typeof maxLeadTimeDays === 'number') return `delivery within ${maxLeadTimeDays} days is required`;
    if (typeof acceptedLeadTimeDays === 'number') return `lead times up to ${acceptedLeadTimeDays} days are accepted`;
    if (mandate.leadTimeOverPrice === true) return 'speed matters more than price';
  }
  if (SOURCING_TOPIC.test(topic)) {
    if (mandate.sourcing === 'single') return 'one supplier for the whole order';
    if (mandate.sourcing === 'split') return 'the order is to be split between suppliers';
    if (typeof minSplitSaving === 'number')
      return `a split only if it saves over ${Math.round(minSplitSaving * 100)}% against one supplier`;
  }
  if (BUDGET_TOPIC.test(topic) && typeof walkAwayTotal === 'number') return 'the walk-away total is set';
  if (TARGET_TOPIC.test(topic) && typeof targetTotal === 'number') return 'the target total is set';
  return null;
}

/** Whether a supplier takes part: the quoting supplier always does; the simulated ones when invited. */
export function isInvited(mandate: Mandate, supplierCode: string, quotingSupplierCode: string): boolean {
  if (supplierCode === quotingSupplierCode || mandate.invitedSuppliers === null) return true;
  return mandate.invitedSuppliers.includes(supplierCode);
}

/** The most the buyer has agreed to pay above the quote's landed cost (0 without a consent). */
export function consentedPremium(mandate: Mandate): number {
  return Math.max(0, ...mandate.premiumConsents.map((consent) => consent.amountOverQuote));
}

/** Whole days from `from` to `to` (YYYY-MM-DD), at least 1: the lead time a delivery date allows. */
export function daysUntil(to: string, from: Date): number {
  const target = Date.parse(`${to}T00:00:00Z`);
  const start = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate());
  return Math.max(1, Math.floor((target - start) / 86_400_000));
}

/** Records a premium consent; the same offer consented twice is recorded once. */
export function recordConsent(mandate: Mandate, consent: PremiumConsent): Mandate {
  if (mandate.premiumConsents.some((existing) => existing.optionId === consent.optionId)) return mandate;
  return { ...mandate, premiumConsents: [...mandate.premiumConsents, premiumConsentSchema.parse(consent)] };
}

// ───────────────────────────── The buyer's answers ─────────────────────────────

export interface AnsweredQuestion {
  id: string;
  topic: string | null;
  question: string;
}

export interface AppliedAnswer {
  mandate: Mandate;
  /** What changed, in words; null when the answer was kept but changed nothing. */
  effect: string | null;
}

/**
 * Reads the buyer's answer into the mandate. Conservative: a constraint is taken only from a clear statement (a
 * number with its unit next to the words that give it meaning), an answer that negates what it would otherwise say
 * ("45 days is not fine") is not read as a constraint, and whatever is not understood changes nothing. Every answer
 * is kept in `answers`, with the effect it had. Pure: the same answer gives the same mandate.
 */
export function applyAnswer(mandate: Mandate, question: AnsweredQuestion, answer: string): AppliedAnswer {
  const changes = readAnswer(question, answer).map((change) => keepStartSettings(mandate, question, change));
  let next: Mandate = mandate;
  const effects: string[] = [];
  for (const change of changes) {
    next = { ...next, ...change.patch };
    effects.push(change.effect);
  }
  const effect = effects.length === 0 ? null : effects.join('; ');
  const record: MandateAnswer = {
    questionId: question.id,
    topic: question.topic,
    question: question.question,
    answer,
    effect,
  };
  return { mandate: { ...next, answers: [...next.answers, record] }, effect };
}

interface Change {
  patch: Partial<Mandate>;
  effect: string;
}

/**
 * An answer may tighten what the buyer set in the start modal, never loosen it: a change that would (a higher
 * walk-away, target or deadline; another sourcing than the one chosen) is not made, and its effect says so — unless
 * the question was about that very setting. What only the answers set stays theirs to change.
 */
function keepStartSettings(mandate: Mandate, question: AnsweredQuestion, change: Change): Change {
  const start = mandate.setAtStart;
  if (start === null) return change;
  const loosened = (Object.keys(SETTING_TOPICS) as StartSetting[]).filter(
    (setting) =>
      setting in change.patch && question.topic !== SETTING_TOPICS[setting] && loosens(start, setting, change.patch),
  );
  if (loosened.length === 0) return change;
  return {
    patch: {},
    effect: `not applied: ${startSettingWords(start, loosened)}, as set when the negotiation started`,
  };
}

function loosens(start: StartSettings, setting: StartSetting, patch: Partial<Mandate>): boolean {
  if (setting === 'sourcing') return start.sourcing !== 'any' && patch.sourcing !== start.sourcing;
  const was = start[setting];
  const next = patch[setting];
  // A limit left open at the start is the answers' to set; one set there may only come down.
  return was !== null && (next === null || next === undefined || next > was);
}

function startSettingWords(start: StartSettings, settings: readonly StartSetting[]): string {
  const words: Record<StartSetting, string> = {
    targetTotal: `the target stays ${start.targetTotal?.toLocaleString('en-US') ?? 'open'}`,
    walkAwayTotal: `the walk-away stays ${start.walkAwayTotal?.toLocaleString('en-US') ?? 'open'}`,
    maxLeadTimeDays: `delivery stays within ${start.maxLeadTimeDays ?? '—'} days`,
    sourcing: start.sourcing === 'single' ? 'one supplier for the whole order' : 'the order stays split',
  };
  return settings.map((setting) => words[setting]).join('; ');
}

const WEEK = 7;
const NEGATION = /\b(?:not|no|never|don'?t|doesn'?t|isn'?t|aren'?t|can'?t|cannot|won'?t|without)\b/;
/** Phrases with a "no" that do not negate: "no more than 30 days", "no later than", "no rush", "no problem". */
const BOUNDING_NO = /\bno\s+(?:more|later|longer)\s+than\b|\bno (?:rush|hurry|problem|worries)\b/g;
const LEADING_NO = /^\s*no\b[,.!:;-]*\s*/;

function readAnswer(question: AnsweredQuestion, answer: string): Change[] {
  const text = answer.toLowerCase().replace(/\s+/g, ' ').trim();
  if (text === '') return [];
  // "No, we need delivery within 30 days": the leading "no" answers the question; what follows still says something.
  const body = text.replace(LEADING_NO, '');
  const negated = NEGATION.test(body.replace(BOUNDING_NO, ''));
  const changes: Change[] = [];

  const deadline = readDeadline(body);
  if (deadline !== null && !negated) {
    changes.push({
      patch: { maxLeadTimeDays: deadline },
      effect: `delivery needed within ${deadline} days: suppliers slower than that cannot be awarded`,
    });
  }

  const accepted =
    deadline === null && !negated && !text.startsWith('no') ? readAcceptedLeadTime(question, body) : null;
  if (accepted !== null) {
    changes.push({
      patch: { acceptedLeadTimeDays: accepted },
      effect: `lead times up to ${accepted} days accepted: no lead-time penalty within them`,
    });
  }

  if (
    !negated &&
    /\bspeed\b[^.]*\b(?:matters|counts|is)\b[^.]*\bmore\b[^.]*\bprice\b|\bspeed (?:is|comes) first\b/.test(body)
  ) {
    changes.push({
      patch: { leadTimeOverPrice: true },
      effect: 'speed weighs at least as much as price',
    });
  }

  const sourcing = readSourcing(question, text, body);
  if (sourcing !== null) changes.push(sourcing);

  const amounts = readAmounts(body, negated);
  changes.push(...amounts);
  return changes;
}

/** "Need delivery within 21 days", "must arrive in 3 weeks", "no more than 30 days lead time". */
function readDeadline(text: string): number | null {
  const match =
    /\b(?:need|needs|needed|must|require[sd]?|deliver(?:y|ed)?|arrive|arrival|ship(?:ped|ping)?|lead ?time|deadline|latest)\b[^.?!]*?\b(?:within|in|by|under|before|at most|max(?:imum)?(?: of)?|no (?:more|later|longer) than|inside)\s+(\d{1,4})\s*(days?|weeks?|wks?)\b/.exec(
      text,
    );
  if (!match?.[1] || !match[2]) return null;
  const amount = Number(match[1]);
  const total = match[2].startsWith('w') ? amount * WEEK : amount;
  return Number.isInteger(total) && total > 0 && total <= 3_650 ? total : null;
}

/**
 * "Yes, 45 days is fine", "45 days works", or a plain "Yes"/"OK" to a question about one lead time ("Is a 45-day lead
 * time acceptable?"): lead times up to that many days are accepted.
 */
function readAcceptedLeadTime(question: AnsweredQuestion, text: string): number | null {
  const stated =
    /\b(\d{1,4})\s*(days?|weeks?)\b[^.?!]*\b(?:is|are|sounds?|would be)?\s*(?:fine|ok|okay|acceptable|good|works?|no problem)\b/.exec(
      text,
    );
  if (stated?.[1] && stated[2]) {
    const amount = Number(stated[1]);
    return stated[2].startsWith('w') ? amount * WEEK : amount;
  }
  const plainYes = /^(?:yes|yeah|yep|ok|okay|sure|fine|acceptable|that'?s fine|that works)\b/.test(text);
  const aboutLeadTime = question.topic === 'lead_time' || /\blead[- ]?time\b|\bdeliver|\bship/i.test(question.question);
  if (!plainYes || !aboutLeadTime) return null;
  const asked = [...question.question.matchAll(/\b(\d{1,4})[- ]days?\b(?:[- ]lead[- ]?time)?/gi)];
  // The days the question asks about: the one named with "lead time", else the only number of days it names.
  const withLeadTime = asked.find((m) => /lead/i.test(m[0]));
  const only = asked.length === 1 ? asked[0] : undefined;
  const chosen = withLeadTime ?? only;
  return chosen?.[1] === undefined ? null : Number(chosen[1]);
}

const SPLIT_ALLOWED: Change = {
  patch: { sourcing: 'any' },
  effect: 'a split is allowed when it beats one supplier after the split overhead',
};
/** "Prefer a single supplier", "one supplier please", "keep it single-sourced". */
const WANTS_SINGLE =
  /\b(?:prefer|want|need|keep|use|stay with|stick (?:with|to)|go with)\b[^.]*\b(?:a )?(?:single|one|1) (?:supplier|source|vendor|factory)\b|\bsingle[- ]sourc|^(?:just |only )?(?:a |one |1 |single )(?:supplier|source|vendor)\b|\bonly one (?:supplier|source|vendor)\b/;
/**
 * A requirement, not a permission: "we must split", "split it between at least two suppliers", "dual-source this".
 * Only these forbid the single-supplier award.
 */
const REQUIRES_SPLIT =
  /\b(?:must|have to|has to|need to|needs to|required? to|insist on)\b[^.]*\bsplit|\bat least (?:two|2) (?:suppliers|sources|vendors|factories)\b|\b(?:dual|multi|double)[- ]?sourc/;
/** A yes to "are you open to splitting?": permission, which never forbids the single-supplier award. */
const ALLOWS_SPLIT =
  /^(?:yes|yeah|yep|ok|okay|sure|fine)?[,.!\s]*(?:please\s+)?split\b|\bsplit (?:it|the order|this order)\b|\bsplit between\b|\bopen to (?:a )?split|\b(?:fine|happy|ok|okay|glad|willing) to split\b|\bsplitting is (?:fine|ok|okay)\b|\bsplit is (?:fine|ok|okay)\b/;

function readSourcing(question: AnsweredQuestion, text: string, body: string): Change | null {
  if (/\b(?:don'?t|do not|no|never)\s+split\b/.test(text)) {
    return { patch: { sourcing: 'single' }, effect: 'one supplier for the whole order: no split award' };
  }
  // "No need to split", "we don't want a single supplier": a negation turns these around; too ambiguous to act on.
  if (NEGATION.test(body) || /\bno need\b/.test(text)) return null;
  if (WANTS_SINGLE.test(body)) {
    return { patch: { sourcing: 'single' }, effect: 'one supplier for the whole order: no split award' };
  }
  const threshold = /\bsplit (?:only )?if it saves (?:more than |over |at least )?(\d{1,2}(?:\.\d+)?)\s*%/.exec(body);
  if (threshold?.[1] !== undefined) {
    const share = Number(threshold[1]) / 100;
    return {
      patch: { sourcing: 'any', minSplitSaving: share },
      effect: `a split only if it costs over ${threshold[1]}% less than one supplier, landed`,
    };
  }
  if (/\bsplit only if\b|\bsplit if it saves\b/.test(body)) return SPLIT_ALLOWED;
  if (REQUIRES_SPLIT.test(body)) {
    return {
      patch: { sourcing: 'split' },
      effect: 'the order must be split between suppliers: no single-supplier award',
    };
  }
  if (ALLOWS_SPLIT.test(body)) return SPLIT_ALLOWED;
  const plainYes = /^(?:yes|yeah|yep|ok|okay|sure)\b[.!]*$/.test(text);
  if (plainYes && (question.topic === 'split_order' || /\bsplit/i.test(question.question))) return SPLIT_ALLOWED;
  return null;
}

/** "Walk away above $115,000", "budget is 120k", "target $110,000". */
function readAmounts(text: string, negated: boolean): Change[] {
  if (negated) return [];
  const amount = String.raw`(?:us\$|\$|€|£|¥|usd|eur|gbp|cny|rmb)?\s*(\d[\d,]*(?:\.\d+)?)\s*(k|m|thousand|million)?\b(?!\s*(?:days?|weeks?|%|percent|units?|pcs|pieces))`;
  const changes: Change[] = [];
  const walkAway = new RegExp(
    String.raw`\b(?:walk[- ]?away(?: (?:at|above|over|price|point|is|of))?|budget(?: is| of)?|ceiling(?: is| of)?|cap(?: is| of)?|no more than|at most|under|below|keep it (?:under|below)|won'?t pay (?:more than|over)|maximum(?: is| of)?|max(?: is| of)?)\s*:?\s*${amount}`,
  ).exec(text);
  // A bare small number after "under" or "at most" is more likely a count than a budget: money needs a currency sign
  // or at least four digits.
  const plausible = (match: RegExpExecArray, value: number | null) =>
    value !== null && (value >= 1_000 || /[$€£¥]|usd|eur|gbp|cny|rmb/.test(match[0])) ? value : null;
  const walkAwayTotal = walkAway ? plausible(walkAway, readMoney(walkAway[1], walkAway[2])) : null;
  if (walkAwayTotal !== null) {
    changes.push({
      patch: { walkAwayTotal },
      effect: `walk-away set to ${walkAwayTotal.toLocaleString('en-US')}: no award above it`,
    });
  }
  const target = new RegExp(String.raw`\b(?:target|aim(?: for)?|goal)(?: is| of| at)?\s*:?\s*${amount}`).exec(text);
  const targetTotal = target ? plausible(target, readMoney(target[1], target[2])) : null;
  if (targetTotal !== null) {
    changes.push({ patch: { targetTotal }, effect: `target set to ${targetTotal.toLocaleString('en-US')}` });
  }
  return changes;
}

function readMoney(digits: string | undefined, scale: string | undefined): number | null {
  if (digits === undefined) return null;
  // "115,000" and "115,000.50" are read; "115.000" (a European thousands dot) is ambiguous and is not.
  if (/^\d{1,3}(?:\.\d{3})+$/.test(digits)) return null;
  const value = Number(digits.replace(/,/g, ''));
  const factor = scale === 'k' || scale === 'thousand' ? 1_000 : scale === 'm' || scale === 'million' ? 1_000_000 : 1;
  const total = Math.round(value * factor * 100) / 100;
  return Number.isFinite(total) && total > 0 ? total : null;
}
