import { describe, expect, it } from 'vitest';
import {
  applyAnswer,
  consentedPremium,
  createMandate,
  daysUntil,
  EMPTY_MANDATE,
  isInvited,
  mandateSchema,
  recordConsent,
  SETTING_TOPICS,
  settledByMandate,
} from './mandate.js';
import { createRng } from '../commerce/rng.js';

const leadQuestion = {
  id: 'q1',
  topic: 'lead_time',
  question:
    'Ningbo Everbright is the cheapest so far but quotes 45 days, while RapidGear Co can ship in 12. Is a 45-day lead time acceptable for this order?',
};
const splitQuestion = {
  id: 'q2',
  topic: 'split_order',
  question:
    'Alpine Premium can now fill only 60% of the order. Are you open to splitting the order between two suppliers?',
};
const budgetQuestion = { id: 'q3', topic: 'budget', question: 'What is the most you would pay for this order?' };

const apply = (answer: string, question = leadQuestion, mandate = EMPTY_MANDATE) =>
  applyAnswer(mandate, question, answer);

describe('mandateSchema', () => {
  it('parses a checkpoint written before the full mandate: the missing fields take their defaults', () => {
    const old = mandateSchema.parse({ targetTotal: 110_000, walkAwayTotal: null });
    expect(old).toEqual({ ...EMPTY_MANDATE, targetTotal: 110_000 });
    expect(old.sourcing).toBe('any');
    expect(old.invitedSuppliers).toBeNull();
    expect(old.premiumConsents).toEqual([]);
  });

  it('refuses nonsense: a negative walk-away, a lead time of 0, an unknown sourcing preference', () => {
    expect(mandateSchema.safeParse({ walkAwayTotal: -1 }).success).toBe(false);
    expect(mandateSchema.safeParse({ maxLeadTimeDays: 0 }).success).toBe(false);
    expect(mandateSchema.safeParse({ sourcing: 'triple' }).success).toBe(false);
  });
});

describe('applyAnswer: the suggested answers', () => {
  it('"Yes, 45 days is fine" accepts lead times up to 45 days', () => {
    const { mandate, effect } = apply('Yes, 45 days is fine');
    expect(mandate.acceptedLeadTimeDays).toBe(45);
    expect(mandate.maxLeadTimeDays).toBeNull();
    expect(effect).toMatch(/45 days accepted/);
  });

  it('"Need delivery within 21 days" makes slower suppliers infeasible', () => {
    const { mandate } = apply('Need delivery within 21 days');
    expect(mandate.maxLeadTimeDays).toBe(21);
    expect(mandate.acceptedLeadTimeDays).toBeNull();
  });

  it('"Speed matters more than price" weighs lead time over price', () => {
    expect(apply('Speed matters more than price').mandate.leadTimeOverPrice).toBe(true);
  });

  it('reads the split question’s answers', () => {
    // "Are you open to…?" — yes is a permission: a split may be awarded, the single-supplier award is not ruled out.
    expect(apply('Yes, split the order', splitQuestion).mandate.sourcing).toBe('any');
    expect(apply('Prefer a single supplier', splitQuestion).mandate.sourcing).toBe('single');
    const threshold = apply('Split only if it saves more than 5%', splitQuestion).mandate;
    expect(threshold.sourcing).toBe('any');
    expect(threshold.minSplitSaving).toBeCloseTo(0.05);
  });
});

describe('applyAnswer: free text, read conservatively', () => {
  it.each([
    ['No, we need delivery within 30 days', 30],
    ['must arrive in 3 weeks', 21],
    ['Lead time no more than 40 days please', 40],
  ])('%s → a %i-day deadline', (answer, days) => {
    expect(apply(answer).mandate.maxLeadTimeDays).toBe(days);
  });

  it('"no rush" and "no problem" are not negations', () => {
    expect(apply('yeah 45 days is fine, no rush on this one').mandate.acceptedLeadTimeDays).toBe(45);
    expect(apply('45 days, no problem').mandate.acceptedLeadTimeDays).toBe(45);
    expect(apply('No rush, 45 days is not fine though').mandate.acceptedLeadTimeDays).toBeNull();
  });

  it('a plain "Yes" to a question about one lead time accepts that lead time', () => {
    expect(apply('Yes').mandate.acceptedLeadTimeDays).toBe(45);
    expect(apply('ok').mandate.acceptedLeadTimeDays).toBe(45);
  });

  it('a plain "Yes" to the split question allows a split without forcing one', () => {
    expect(apply('Yes', splitQuestion).mandate.sourcing).toBe('any');
  });

  it('reads a walk-away or a target with their money', () => {
    expect(apply('Walk away above $115,000', budgetQuestion).mandate.walkAwayTotal).toBe(115_000);
    expect(apply('Budget is 120k', budgetQuestion).mandate.walkAwayTotal).toBe(120_000);
    expect(apply('keep it under $100,000.50', budgetQuestion).mandate.walkAwayTotal).toBe(100_000.5);
    expect(apply('Our target is $108,000', budgetQuestion).mandate.targetTotal).toBe(108_000);
  });

  it.each([
    '45 days is not fine',
    'No, 45 days is too long',
    "We don't need delivery within 21 days",
    'Hmm, let me check with the team',
    'under 30 units',
    'under 5%',
    'at most 12',
    'Walk away above 115.000',
  ])('"%s" changes nothing but is kept', (answer) => {
    const { mandate, effect } = apply(answer);
    expect(effect).toBeNull();
    expect({ ...mandate, answers: [] }).toEqual(EMPTY_MANDATE);
    expect(mandate.answers).toEqual([
      { questionId: 'q1', topic: 'lead_time', question: leadQuestion.question, answer, effect: null },
    ]);
  });

  it('keeps every answer with its effect, and later answers refine the mandate', () => {
    const first = apply('Yes, 45 days is fine').mandate;
    const second = apply('Need delivery within 30 days', leadQuestion, first).mandate;
    expect(second.acceptedLeadTimeDays).toBe(45);
    expect(second.maxLeadTimeDays).toBe(30);
    expect(second.answers.map((a) => a.answer)).toEqual(['Yes, 45 days is fine', 'Need delivery within 30 days']);
    expect(second.answers.every((a) => a.effect !== null)).toBe(true);
  });

  it('is pure: the mandate it was given is unchanged', () => {
    const before = createMandate({ targetTotal: 100 });
    const copy = structuredClone(before);
    apply('Need delivery within 21 days', leadQuestion, before);
    expect(before).toEqual(copy);
  });
});

describe('invitations and consents', () => {
  it('always invites the quoting supplier; null invites everyone', () => {
    const some = createMandate({ invitedSuppliers: ['SUP-003'] });
    expect(isInvited(some, 'SUP-001', 'SUP-001')).toBe(true);
    expect(isInvited(some, 'SUP-002', 'SUP-001')).toBe(false);
    expect(isInvited(some, 'SUP-003', 'SUP-001')).toBe(true);
    expect(isInvited(EMPTY_MANDATE, 'SUP-002', 'SUP-001')).toBe(true);
  });

  it('records a consent once per offer and reports the largest premium agreed', () => {
    const consent = {
      optionId: 'p1',
      amountOverQuote: 1_547.01,
      reasons: ['lead_time' as const],
      supplierCodes: ['SUP-003'],
      by: 'U1',
      at: '2026-03-01T10:00:00.000Z',
    };
    const once = recordConsent(EMPTY_MANDATE, consent);
    expect(recordConsent(once, { ...consent, amountOverQuote: 9 })).toBe(once);
    expect(consentedPremium(once)).toBe(1_547.01);
    expect(consentedPremium(EMPTY_MANDATE)).toBe(0);
  });

  it('counts the days to a delivery date from a given day', () => {
    expect(daysUntil('2026-03-22', new Date('2026-03-01T15:00:00Z'))).toBe(21);
    expect(daysUntil('2026-02-01', new Date('2026-03-01T15:00:00Z'))).toBe(1);
  });
});

describe('applyAnswer: a permission to split is not a requirement', () => {
  it.each([
    'Yes, split the order',
    'Yes',
    'ok, split it',
    'Split between the two is fine',
    'Sure, we are open to a split',
    'happy to split',
    'Splitting is fine',
    'Split only if it saves money',
  ])('"%s" allows a split without forbidding one supplier', (answer) => {
    const { mandate, effect } = apply(answer, splitQuestion);
    expect(mandate.sourcing).toBe('any');
    expect(effect).toMatch(/split is allowed/);
  });

  it.each([
    'We must split this order',
    'Split it between at least two suppliers',
    'Dual-source this',
    'we need to split it across factories',
    'Multi-source it please',
  ])('"%s" requires a split', (answer) => {
    const { mandate, effect } = apply(answer, splitQuestion);
    expect(mandate.sourcing).toBe('split');
    expect(effect).toMatch(/must be split/);
  });

  it.each([
    ['Prefer a single supplier', 'single'],
    ['One supplier please', 'single'],
    ["Don't split", 'single'],
    ['No, keep it with one supplier', 'single'],
    ["We don't want a single supplier", null],
    ['No need to split', null],
  ] as const)('"%s" → %s', (answer, sourcing) => {
    const { mandate } = apply(answer, splitQuestion);
    if (sourcing === null) expect(mandate.sourcing).toBe('any');
    else expect(mandate.sourcing).toBe(sourcing);
  });

  it('a permission lifts a split an earlier answer required, but never sets one', () => {
    const required = apply('We must split', splitQuestion).mandate;
    expect(required.sourcing).toBe('split');
    expect(apply('Yes, split the order', splitQuestion, required).mandate.sourcing).toBe('any');
  });
});

describe('applyAnswer: the start modal’s settings are tightened, never loosened', () => {
  const start = createMandate({
    targetTotal: 100_000,
    walkAwayTotal: 110_000,
    maxLeadTimeDays: 30,
    sourcing: 'single',
  });

  it('records what the start modal set', () => {
    expect(start.setAtStart).toEqual({
      targetTotal: 100_000,
      walkAwayTotal: 110_000,
      maxLeadTimeDays: 30,
      sourcing: 'single',
    });
    expect(createMandate().setAtStart).toEqual({
      targetTotal: null,
      walkAwayTotal: null,
      maxLeadTimeDays: null,
      sourcing: 'any',
    });
  });

  it.each([
    ['Yes, split the order', 'sourcing', splitQuestion, 'single', /one supplier for the whole order/],
    ['Split only if it saves more than 5%', 'sourcing', splitQuestion, 'single', /one supplier/],
    ['We must split', 'sourcing', splitQuestion, 'single', /one supplier/],
    ['Budget is 120k', 'walkAwayTotal', budgetQuestion, 110_000, /walk-away stays 110,000/],
    ['Our target is $105,000', 'targetTotal', budgetQuestion, 100_000, /target stays 100,000/],
    ['Need delivery within 45 days', 'maxLeadTimeDays', leadQuestion, 30, /within 30 days/],
  ] as const)('"%s" does not loosen %s', (answer, field, question, kept, words) => {
    const { mandate, effect } = apply(answer, question, start);
    expect(mandate[field]).toBe(kept);
    expect(effect).toMatch(/^not applied: /);
    expect(effect).toMatch(words);
    expect(mandate.answers.at(-1)?.answer).toBe(answer);
  });

  it('tightens: a lower walk-away, target or deadline is taken', () => {
    expect(apply('Budget is 105k', budgetQuestion, start).mandate.walkAwayTotal).toBe(105_000);
    expect(apply('Our target is $95,000', budgetQuestion, start).mandate.targetTotal).toBe(95_000);
    expect(apply('Need delivery within 21 days', leadQuestion, start).mandate.maxLeadTimeDays).toBe(21);
    expect(apply('Prefer a single supplier', splitQuestion, start).mandate.sourcing).toBe('single');
  });

  it('an answer that tightened may be loosened again, back to the start modal’s limit and no further', () => {
    const tighter = apply('Budget is 100k', budgetQuestion, start).mandate;
    expect(apply('Budget is 108k', budgetQuestion, tighter).mandate.walkAwayTotal).toBe(108_000);
    expect(apply('Budget is 115k', budgetQuestion, tighter).mandate.walkAwayTotal).toBe(100_000);
  });

  it('only an answer to a question about that very setting may loosen it', () => {
    const about = { id: 'q9', topic: SETTING_TOPICS.sourcing, question: 'You asked for one supplier. Allow a split?' };
    expect(apply('Yes, split the order', about, start).mandate.sourcing).toBe('any');
    const budget = { id: 'q10', topic: SETTING_TOPICS.walkAwayTotal, question: 'Raise the walk-away?' };
    expect(apply('Budget is 120k', budget, start).mandate.walkAwayTotal).toBe(120_000);
    // …and that question reopens only its own setting.
    expect(apply('Budget is 120k', about, start).mandate.walkAwayTotal).toBe(110_000);
  });

  it('what the start modal left open is the answers’ to set, either way', () => {
    const open = createMandate({ walkAwayTotal: 110_000 });
    expect(apply('We must split', splitQuestion, open).mandate.sourcing).toBe('split');
    expect(apply('Prefer a single supplier', splitQuestion, open).mandate.sourcing).toBe('single');
    expect(apply('Need delivery within 45 days', leadQuestion, open).mandate.maxLeadTimeDays).toBe(45);
  });

  it('over many seeds, no answer of any bank loosens a start setting', () => {
    const answers = [
      'Yes, split the order',
      'Prefer a single supplier',
      'Split only if it saves more than 5%',
      'We must split',
      'dual-source this',
      'Yes, 45 days is fine',
      'Need delivery within 21 days',
      'Need delivery within 60 days',
      'Speed matters more than price',
      'keep it under 120k',
      'Budget is 90k',
      'target $80,000',
      'target $130,000',
      'whatever is cheapest',
      'Yes',
    ];
    const questions = [leadQuestion, splitQuestion, budgetQuestion];
    for (let seed = 1; seed <= 300; seed++) {
      const rng = createRng(seed);
      const settings = {
        targetTotal: rng.next() < 0.5 ? null : rng.int(80, 120) * 1_000,
        walkAwayTotal: rng.next() < 0.5 ? null : rng.int(90, 130) * 1_000,
        maxLeadTimeDays: rng.next() < 0.5 ? null : rng.int(14, 60),
        sourcing: rng.pick(['any', 'single', 'split'] as const),
      };
      let mandate = createMandate(settings);
      for (let turn = 0; turn < 4; turn++) {
        mandate = apply(rng.pick(answers), rng.pick(questions), mandate).mandate;
        const label = `seed ${seed} after "${mandate.answers.at(-1)?.answer}"`;
        if (settings.sourcing !== 'any') expect(mandate.sourcing, label).toBe(settings.sourcing);
        for (const field of ['targetTotal', 'walkAwayTotal', 'maxLeadTimeDays'] as const) {
          const set = settings[field];
          if (set === null) continue;
          expect(mandate[field], label).not.toBeNull();
          expect(mandate[field] ?? Infinity, label).toBeLessThanOrEqual(set);
        }
      }
    }
  });
});

describe('settledByMandate', () => {
  it('says what already answers a topic, so it is not asked', () => {
    expect(settledByMandate(createMandate({ sourcing: 'single' }), 'split_order')).toMatch(/one supplier/);
    expect(settledByMandate(createMandate({ maxLeadTimeDays: 30 }), 'lead_time')).toMatch(/within 30 days/);
    expect(settledByMandate({ ...EMPTY_MANDATE, acceptedLeadTimeDays: 45 }, 'lead_time')).toMatch(/45 days/);
    expect(settledByMandate(createMandate({ walkAwayTotal: 100 }), 'budget')).toMatch(/walk-away/);
    expect(settledByMandate({ ...EMPTY_MANDATE, minSplitSaving: 0.05 }, 'split_order')).toMatch(/5%/);
  });

  it('leaves open topics, impasses and callers that pass only the totals alone', () => {
    expect(settledByMandate(EMPTY_MANDATE, 'split_order')).toBeNull();
    expect(settledByMandate(EMPTY_MANDATE, 'lead_time')).toBeNull();
    expect(settledByMandate(createMandate({ sourcing: 'single' }), 'impasse:SUP-002')).toBeNull();
    expect(settledByMandate({ targetTotal: null, walkAwayTotal: null }, 'lead_time')).toBeNull();
    expect(settledByMandate(createMandate({ maxLeadTimeDays: 30 }), null)).toBeNull();
  });
});
