// Why a quotation could not be read, in words a buyer understands. Every rejected file gets one of these — never a
// stack trace — and the process stays up.

export type QuotationErrorCode =
  | 'not_xlsx'
  | 'encrypted'
  | 'corrupt'
  | 'empty'
  | 'too_large'
  | 'too_many_rows'
  | 'too_many_cells'
  | 'zip_bomb'
  | 'no_item_table'
  /** Read, but no line is a catalog product with a quantity and a price (an RFQ, a requirements list): no baseline. */
  | 'nothing_to_negotiate'
  /** Slack did not send the file in time: nothing is wrong with it, share it again. */
  | 'download_timeout';

export class QuotationError extends Error {
  override name = 'QuotationError';

  constructor(
    readonly code: QuotationErrorCode,
    /** The sentence shown to the buyer. */
    readonly userMessage: string,
    options?: { cause?: unknown },
  ) {
    super(`${code}: ${userMessage}`, options);
  }
}

export interface ReadLimits {
  maxBytes: number;
  maxRowsPerSheet: number;
  maxCells: number;
}
