// What `npm run parse` prints: its JSON document, or a readable table for a person.
import type { ParsedItem, ParsedQuotation } from './parse-quotation.js';
import type { ValidationFlag } from './types.js';

/** 1-based column → Excel letters (1 → A, 27 → AA). */
export function columnLetters(column: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

export function describeFlag(flag: ValidationFlag): string {
  const cell = flag.column ? `${columnLetters(flag.column)}${flag.row}` : `row ${flag.row}`;
  return `${flag.code} at ${flag.sheet}!${cell}: ${flag.message}`;
}

export function toParseJson(parsed: ParsedQuotation) {
  const { identification } = parsed.supplier;
  return {
    supplier: {
      name: parsed.supplier.name,
      match:
        identification.status === 'unknown'
          ? null
          : {
              status: identification.status,
              code: identification.supplier?.code ?? null,
              name: identification.supplier?.name ?? null,
              confidence: identification.confidence,
            },
    },
    terms: parsed.terms,
    items: parsed.items.map((item) => ({
      sheet: item.sheet,
      row: item.row,
      rawSku: item.rawSku,
      description: item.description,
      quantity: item.quantity,
      unitPrice: item.unitPrice,
      totalPrice: item.totalPrice,
      notes: item.notes,
      tiers: item.tiers,
      flags: item.flags.map(describeFlag),
      match: {
        sku: item.match.sku,
        confidence: item.match.confidence,
        method: item.match.method,
        candidates: item.match.candidates.map(({ sku, confidence }) => ({ sku, confidence })),
      },
    })),
    charges: parsed.charges.map(({ description, amount }) => ({ description, amount })),
    warnings: [...parsed.warnings, ...parsed.sheetFlags.map(describeFlag)],
  };
}

export function toParseTable(parsed: ParsedQuotation): string {
  const { terms, supplier } = parsed;
  const money = (value: number | null) => (value === null ? '—' : value.toFixed(2));
  const out: string[] = [];
  out.push(
    `Supplier   ${supplier.name ?? '(not found)'} — ${supplier.identification.status}` +
      (supplier.identification.supplier ? ` (${supplier.identification.supplier.code})` : ''),
  );
  out.push(
    `Terms      ${terms.paymentTerms ?? '—'} | lead ${terms.leadTimeDays ?? '—'} days | ${terms.currency ?? '—'} | ` +
      `${terms.incoterm ?? '—'} | MOQ ${terms.moq ?? '—'} | valid ${terms.validityDays ?? '—'} days`,
  );
  for (const sheet of parsed.sheets) {
    out.push(
      `Sheet      '${sheet.name}': ${sheet.lines} lines, header row ${sheet.headerRow ?? '—'}, ` +
        `confidence ${sheet.confidence.toFixed(2)}, read by ${sheet.readBy}`,
    );
  }
  out.push('');
  out.push(['where', 'sku as written', 'qty', 'unit', 'total', 'match', 'conf', 'method', 'review'].join('\t'));
  const row = (item: ParsedItem) =>
    [
      `${item.sheet}!${item.row}`,
      item.rawSku ?? item.description?.slice(0, 30) ?? '',
      item.quantity ?? '—',
      money(item.unitPrice),
      money(item.totalPrice),
      item.match.sku ?? '—',
      item.match.confidence.toFixed(2),
      item.match.method,
      item.reviewState === 'auto_accepted' ? 'ok' : `REVIEW${item.flags.length ? ` (${item.flags.length} flag)` : ''}`,
    ].join('\t');
  out.push(...parsed.items.map(row));
  const review = parsed.items.filter((item) => item.reviewState === 'needs_review').length;
  const total = parsed.items.reduce((sum, item) => sum + (item.quantity ?? 0) * (item.unitPrice ?? 0), 0);
  out.push('');
  out.push(
    `${parsed.items.length} lines, ${review} to review, goods total ${total.toFixed(2)} ${terms.currency ?? ''}`,
  );
  for (const charge of parsed.charges) out.push(`Charge     ${charge.description}: ${money(charge.amount)}`);
  for (const flag of parsed.sheetFlags) out.push(`Flag       ${describeFlag(flag)}`);
  for (const warning of parsed.warnings) out.push(`Warning    ${warning}`);
  for (const note of parsed.notes) out.push(`Note       ${note}`);
  return out.join('\n');
}
