// The domain's closed lists are the database's enums, so whatever the domain produces can always be stored.
import { describe, expect, it } from 'vitest';
import { MATCH_METHODS } from '../catalog/matcher.js';
import * as prismaEnums from '../generated/prisma/enums.js';
import { IMPASSE_REASONS } from '../negotiation/impasse.js';

describe('database enums', () => {
  it('MatchMethod is the matcher’s list of methods', () => {
    expect(Object.values(prismaEnums.MatchMethod)).toEqual([...MATCH_METHODS]);
  });

  it('ImpasseReason is the impasse detector’s list of reasons', () => {
    expect([...IMPASSE_REASONS].sort()).toEqual(Object.values(prismaEnums.ImpasseReason).sort());
  });
});
