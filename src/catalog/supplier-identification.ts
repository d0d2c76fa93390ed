// Which of our suppliers sent this quotation (seed 002 §11: a supplier not found in the DB stops for a human). The
// sheet's name for itself rarely matches the DB letter for letter — "Ningbo Huamei Garment Co., Ltd." against
// "Ningbo Huamei Garment" — so both are reduced to the words that identify a company before comparing.
import { MATCH_REVIEW } from '../config/business-rules.js';
import { editDistance } from './sku.js';

export interface SupplierRef {
  id: string;
  code: string;
  name: string;
}

export interface SupplierCandidate extends SupplierRef {
  confidence: number;
}

export interface SupplierIdentification {
  /**
   * existing: exactly one supplier matches strongly. new: the sheet names someone and no single supplier matches
   * strongly (none does, or two do equally; the candidates say which). unknown: the sheet names nobody.
   */
  status: 'existing' | 'new' | 'unknown';
  supplier: SupplierRef | null;
  /** existing: how sure the match is; new: how sure it is that none of ours is meant (1 − best similarity); else 0. */
  confidence: number;
  /** Suppliers worth offering a human, best first, up to MATCH_REVIEW.maxCandidates. */
  candidates: SupplierCandidate[];
}

/**
 * Words that say what kind of company it is, not which: legal forms and the generic trade words the brief names.
 * Latin ones are whole words; CJK ones are substrings, since Chinese names have no spaces.
 */
const LEGAL_WORDS = new Set(
  (
    'co company corp corporation cooperative ltd limited inc incorporated llc llp lp plc pty pvt gmbh ag kg mbh ' +
    'sarl sas srl spa bv nv oy ab as jsc trading trade industrial industries industry manufacturing mfg'
  ).split(' '),
);
const CJK_LEGAL_SUFFIXES = ['股份有限公司', '有限责任公司', '有限公司', '贸易', '实业', '工业', '公司'];

/** At or above this similarity a supplier is "existing" without a human: the same line the matcher uses. */
const STRONG = MATCH_REVIEW.autoAcceptAt;
/** Below this a supplier is not worth offering as a candidate. */
const WORTH_OFFERING = MATCH_REVIEW.mustActBelow;
/** Two suppliers this close to the name cannot be told apart by it: neither is strong. */
const TIE_MARGIN = 0.05;

/** The words of a company name that identify it: lower case, no punctuation, no legal form or trade words. */
export function normalizeSupplierName(name: string): string[] {
  let text = name.normalize('NFKC').toLowerCase();
  for (const suffix of CJK_LEGAL_SUFFIXES) text = text.replaceAll(suffix, ' ');
  const words = text
    .replace(/&/g, ' and ')
    .replace(/['’.]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
  const identifying = words.filter((word) => !LEGAL_WORDS.has(word));
  // "Trading Co., Ltd." alone is still a name; keep it rather than compare nothing with nothing.
  return identifying.length > 0 ? identifying : words;
}

/**
 * How alike two normalised names are, 0..1: the better of the spelling similarity of the names written without
 * spaces ("RapidGear" = "Rapid Gear") and the share of words they have in common (word order, extra branch words).
 */
export function supplierNameSimilarity(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const joinedA = a.join('');
  const joinedB = b.join('');
  if (joinedA === joinedB) return 1;
  const spelling = 1 - editDistance(joinedA, joinedB) / Math.max(joinedA.length, joinedB.length);
  const setB = new Set(b);
  const shared = new Set(a.filter((word) => setB.has(word))).size;
  const words = (2 * shared) / (new Set(a).size + setB.size);
  return Math.max(spelling, words);
}

const round = (value: number) => Math.round(value * 1000) / 1000;

export function identifySupplier(
  nameFromSheet: string | null,
  suppliers: readonly SupplierRef[],
): SupplierIdentification {
  const wanted = nameFromSheet?.trim() ? normalizeSupplierName(nameFromSheet) : [];
  if (wanted.length === 0) return { status: 'unknown', supplier: null, confidence: 0, candidates: [] };

  const codeAsName = nameFromSheet?.trim().toUpperCase();
  const ranked = suppliers
    .map((supplier) => ({
      supplier,
      confidence:
        supplier.code.toUpperCase() === codeAsName
          ? 1
          : supplierNameSimilarity(wanted, normalizeSupplierName(supplier.name)),
    }))
    .filter(({ confidence }) => confidence >= WORTH_OFFERING)
    .sort((a, b) => b.confidence - a.confidence);
  const candidates = ranked
    .slice(0, MATCH_REVIEW.maxCandidates)
    .map(({ supplier: { id, code, name }, confidence }) => ({ id, code, name, confidence: round(confidence) }));

  const [best, runnerUp] = ranked;
  const notOurs = round(1 - (best?.confidence ?? 0));
  // Two suppliers the name fits equally (a group's branches) are not a strong match for either: a human picks.
  const tied = best && runnerUp && best.confidence - runnerUp.confidence < TIE_MARGIN;
  if (!best || best.confidence < STRONG || tied)
    return { status: 'new', supplier: null, confidence: notOurs, candidates };
  const { id, code, name } = best.supplier;
  return { status: 'existing', supplier: { id, code, name }, confidence: round(best.confidence), candidates };
}
