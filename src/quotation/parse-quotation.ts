// Phase 1 of seed 002, whole: XLSX → grid → lines and terms (rules; Claude for the sheets the rules are unsure of)
// → validation flags → catalog matches → supplier identification. Right without an LLM, better with one; any Claude
// failure falls back to the deterministic reading with a warning, never to an error.
import type { CatalogIndex } from '../catalog/catalog-index.js';
import {
  type LlmMatchFallback,
  type MatchQuery,
  type MatchResult,
  type RankedLines,
  rankLines,
  settleWithLlm,
} from '../catalog/matcher.js';
import { identifySupplier, type SupplierIdentification } from '../catalog/supplier-identification.js';
import { MATCH_REVIEW } from '../config/business-rules.js';
import type { Llm } from '../llm/llm.js';
import { type ReadLimits, QuotationError } from './errors.js';
import { structureSheetWithLlm } from './llm-structurer.js';
import { LLM_RESTRUCTURE_BELOW } from './structurer.js';
import { readSheetsInProcess, type SheetReader } from './sheet-reader.js';
import type {
  ExtractedCharge,
  ExtractedLine,
  Extraction,
  QuotationTerms,
  SheetExtraction,
  ValidationFlag,
  SupplierColumn,
  WorkbookGrid,
} from './types.js';
import { allLines, validateExtraction } from './validator.js';

/** The cheap matching tiers run elsewhere (the reader's worker, which holds the index): see CatalogRanker. */
export type RankLines = (queries: readonly MatchQuery[], options: { pools: boolean }) => Promise<RankedLines>;

export interface ParseQuotationOptions {
  data: Buffer;
  /** Matched in this thread against an index, or by a ranker holding it elsewhere (the server: the reader's worker). */
  catalog: CatalogIndex | RankLines;
  suppliers: { id: string; code: string; name: string }[];
  limits: ReadLimits;
  /** Claude, when a key is set; null runs everything offline. */
  llm: Llm | null;
  /** Tier 4 of the matcher (Claude), when a key is set. */
  llmMatchFallback?: LlmMatchFallback;
  /** Where the workbook is unpacked and structured: in this thread unless given (the server uses a worker thread). */
  readSheets?: SheetReader;
  /** The supplier column the buyer picked on a comparison sheet: read as that supplier's quotation. */
  priceColumn?: SupplierColumn;
}

export type ReviewState = 'auto_accepted' | 'needs_review';

export interface ParsedItem extends ExtractedLine {
  flags: ValidationFlag[];
  /** The catalog match, its confidence already lowered by the line's flags. */
  match: MatchResult;
  reviewState: ReviewState;
}

export interface ParsedQuotation {
  supplier: { name: string | null; identification: SupplierIdentification };
  terms: QuotationTerms;
  items: ParsedItem[];
  charges: ExtractedCharge[];
  sheets: { name: string; headerRow: number | null; confidence: number; lines: number; readBy: 'rules' | 'claude' }[];
  /** Problems of a whole sheet (its stated total disagrees with its lines). */
  sheetFlags: ValidationFlag[];
  notes: string[];
  warnings: string[];
  /** True when any line needs a human, or the supplier is not an existing one. */
  needsReview: boolean;
  /**
   * A comparison sheet's suppliers when none was picked: nothing is one supplier's quotation yet, and the buyer is
   * offered a column each (empty for any other file).
   */
  comparison: SupplierColumn[];
}

/**
 * What the matcher is shown of a line's text. Real SKUs, colours and sizes are a few dozen characters; a cell of
 * 32,000 (Excel's limit) is no better a key, and the matcher's colour comparison costs time in proportion to its
 * length times the catalog's colours: a 60 KB file of such cells took minutes to read. The line keeps its full text.
 */
const MATCH_TEXT_LIMITS = { rawSku: 100, description: 1000, color: 60, size: 30 } as const;

const clip = (text: string | null, limit: number) => (text === null ? null : text.slice(0, limit));

export async function parseQuotation(options: ParseQuotationOptions): Promise<ParsedQuotation> {
  const { priceColumn } = options;
  const { grid, extraction } = await (options.readSheets ?? readSheetsInProcess)(
    options.data,
    options.limits,
    priceColumn ? { priceColumn } : {},
  );
  const comparison = extraction.comparison ?? [];
  const warnings = [...extraction.warnings];
  const crossCheck = new Map<ExtractedLine, ValidationFlag[]>();
  const readBy = new Map<string, 'rules' | 'claude'>();

  // A comparison waiting for the buyer's pick is not paid a Claude re-read: its lines are not negotiated as they are.
  if (options.llm && comparison.length === 0) {
    const improved = await restructureUnsureSheets(options.llm, grid, extraction, crossCheck, readBy, warnings, {
      keepSheet: priceColumn?.sheet ?? null,
    });
    extraction.sheets = improved;
  }
  if (allLines(extraction).length === 0) throw noItemTable(grid);

  const { lineFlags, sheetFlags } = validateExtraction(extraction);
  const lines = allLines(extraction);
  const queries = lines.map(({ rawSku, description, color, size }) => ({
    rawSku: clip(rawSku, MATCH_TEXT_LIMITS.rawSku),
    description: clip(description, MATCH_TEXT_LIMITS.description),
    color: clip(color, MATCH_TEXT_LIMITS.color),
    size: clip(size, MATCH_TEXT_LIMITS.size),
  }));
  // The pools the LLM tier chooses from are only worth carrying back when there is one.
  const pools = { pools: options.llmMatchFallback !== undefined };
  const { catalog } = options;
  const ranked = typeof catalog === 'function' ? await catalog(queries, pools) : rankLines(catalog, queries, pools);
  const matches = await settleWithLlm(queries, ranked, {
    llmFallback: options.llmMatchFallback,
    // The lines keep what the cheap tiers found (below auto-accept), so a failure only costs review work.
    onLlmError: (error, batch) =>
      warnings.push(
        `Claude could not help match ${batch.length} line(s) (${(error as Error).message.slice(0, 120)}); ` +
          'they are left for you to confirm.',
      ),
  });

  const items = lines.map((line, index): ParsedItem => {
    const flags = [...(lineFlags[index] ?? []), ...(crossCheck.get(line) ?? [])];
    const match = penalise(matches[index] ?? unmatched(), flags.length);
    const reviewState =
      flags.length === 0 && match.confidence >= MATCH_REVIEW.autoAcceptAt ? 'auto_accepted' : 'needs_review';
    return { ...line, flags, match, reviewState };
  });

  const supplierName =
    extraction.supplierName ?? extraction.sheets.find((sheet) => sheet.supplierName)?.supplierName ?? null;
  const identification = identifySupplier(supplierName, options.suppliers);
  return {
    supplier: { name: supplierName, identification },
    terms: mergedTerms(extraction),
    items,
    charges: extraction.sheets.flatMap((sheet) => sheet.charges),
    sheets: extraction.sheets.map((sheet) => ({
      name: sheet.sheet,
      headerRow: sheet.headerRow,
      confidence: sheet.confidence,
      lines: sheet.lines.length,
      readBy: readBy.get(sheet.sheet) ?? 'rules',
    })),
    sheetFlags,
    notes: extraction.notes,
    warnings,
    needsReview: items.some((item) => item.reviewState === 'needs_review') || identification.status !== 'existing',
    comparison,
  };
}

async function restructureUnsureSheets(
  llm: Llm,
  grid: WorkbookGrid,
  extraction: Extraction,
  crossCheck: Map<ExtractedLine, ValidationFlag[]>,
  readBy: Map<string, 'rules' | 'claude'>,
  warnings: string[],
  // The sheet whose price column the buyer picked: Claude would read its prices afresh, perhaps from another column.
  { keepSheet }: { keepSheet: string | null },
): Promise<SheetExtraction[]> {
  return Promise.all(
    extraction.sheets.map(async (sheet) => {
      const sheetGrid = grid.sheets.find((candidate) => candidate.name === sheet.sheet);
      // The rules rate a sheet of plain text (a terms sheet) as sure, so only sheets with unread numbers get here.
      if (!sheetGrid || sheet.confidence >= LLM_RESTRUCTURE_BELOW || sheet.sheet === keepSheet) return sheet;
      try {
        const result = await structureSheetWithLlm(llm, sheetGrid, sheet);
        for (const [line, flags] of result.flags) crossCheck.set(line, flags);
        warnings.push(...result.warnings);
        readBy.set(sheet.sheet, 'claude');
        return result.sheet;
      } catch (error) {
        warnings.push(
          `Claude could not re-read sheet '${sheet.sheet}' (${(error as Error).message.slice(0, 120)}); ` +
            'kept the rule-based reading.',
        );
        return sheet;
      }
    }),
  );
}

/** Workbook terms, with gaps filled from the sheets (Claude may have found a term on a sheet it re-read). */
function mergedTerms(extraction: Extraction): QuotationTerms {
  const terms = { ...extraction.terms };
  for (const key of Object.keys(terms) as (keyof QuotationTerms)[]) {
    const found = extraction.sheets.find((sheet) => sheet.terms[key] !== null)?.terms[key];
    if (terms[key] === null && found !== undefined) Object.assign(terms, { [key]: found });
  }
  return terms;
}

/** Validation flags cost confidence (seed 002 §6.2): a flagged line always goes to a human. */
function penalise(match: MatchResult, flagCount: number): MatchResult {
  if (flagCount === 0) return match;
  const penalty = MATCH_REVIEW.validationFlagPenalty * flagCount;
  const lower = (confidence: number) => Math.max(0, round(confidence - penalty));
  return {
    ...match,
    confidence: lower(match.confidence),
    candidates: match.candidates.map((candidate) => ({ ...candidate, confidence: lower(candidate.confidence) })),
  };
}

const round = (value: number) => Math.round(value * 1000) / 1000;

const unmatched = (): MatchResult => ({
  productId: null,
  sku: null,
  confidence: 0,
  method: 'unmatched',
  candidates: [],
});

function noItemTable(grid: WorkbookGrid): QuotationError {
  const names = grid.sheets.map((sheet) => `'${sheet.name}'`).join(', ');
  return new QuotationError(
    'no_item_table',
    `I could not find a table of quoted items in ${names}. A quotation needs a header row (for example SKU, ` +
      'Description, Qty, Unit Price) above its lines.',
  );
}
