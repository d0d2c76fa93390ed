// The CPU-heavy pure steps Parley runs off Bolt's event loop (src/worker/compute.ts), by name. Each takes and returns
// plain data (structured-clonable: no functions, no class instances beyond Buffer/Uint8Array), so the same function
// runs in the worker thread or, for the CLIs and tests, in this one. Measured on the 3,000-line story (reliability
// bench, large part, one CPU profile): the decision 1.3 s in one stretch, the approved PO's workbook 0.8 s, the price
// chart 0.3 s, the review workbook ~0.5 s — each one stretch of the loop no ack could interrupt.
import { decide, type DecisionInput } from '../decision/decide.js';
import { buildPurchaseOrderWorkbook, type PurchaseOrderDocument } from '../decision/po-workbook.js';
import { type PriceTrajectoryInput, renderPriceTrajectory } from '../decision/price-chart.js';
import { buildReviewWorkbook, type ReviewWorkbookInput } from '../quotation/review-workbook.js';

export const COMPUTE_TASKS = {
  /** Scores, allocates and prices the award (src/decision/decide.ts). */
  decide: (input: DecisionInput) => Promise.resolve(decide(input)),
  /** The PO as an XLSX. */
  purchaseOrderWorkbook: (po: PurchaseOrderDocument) => buildPurchaseOrderWorkbook(po),
  /** Every line of a quotation's review as an XLSX ("Download all lines"). */
  reviewWorkbook: (input: ReviewWorkbookInput) => buildReviewWorkbook(input),
  /** The price trajectory as a PNG. */
  priceChart: (input: PriceTrajectoryInput) => renderPriceTrajectory(input),
} as const;

export type ComputeTasks = typeof COMPUTE_TASKS;
export type ComputeTaskName = keyof ComputeTasks;
