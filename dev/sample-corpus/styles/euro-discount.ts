import { formatEuro, formatDiscount, formatQuantity, fromCents, lineAmountCents, netUnitPrice, sum } from '../money.js';
import { planLines, truthItem, type SampleStyle } from '../sample.js';
import { boldRow, createWorkbook, setRow, setWidths } from '../workbook.js';

const SUPPLIER = 'Têxteis Vale do Ave, Lda.';
const HEADER_ROW = 8;
/** Per-style discounts in tenths of a percent; 0 leaves the cell empty. */
const DISCOUNTS = [0, 0, 30, 50, 50, 75, 100];

export const euroDiscount: SampleStyle = {
  name: 'euro-decimal-comma-discount',
  messes: [4, 5, 13],
  build(context) {
    const { rng } = context;
    const lines = planLines(context, {
      categories: ['Fleece', 'Base Layers', 'Tees'],
      styles: 5,
      variantsPerStyle: [2, 4],
      currency: 'EUR',
    });
    const workbook = createWorkbook('Vale do Ave');
    const sheet = workbook.addWorksheet('Proposta');
    setWidths(sheet, [16, 34, 18, 8, 10, 12, 9, 14]);
    setRow(sheet, 1, [SUPPLIER]);
    sheet.getCell(1, 1).font = { bold: true, size: 14 };
    setRow(sheet, 2, ['Rua da Indústria 214, 4760-123 Vila Nova de Famalicão, Portugal']);
    setRow(sheet, 3, ['NIF PT 509 876 543 · comercial@valedoave.pt']);
    setRow(sheet, 5, ['PROPOSTA / QUOTATION Nº 2025/117']);
    sheet.getCell(5, 1).font = { bold: true };
    setRow(sheet, 6, ['Cliente: Valden Outdoor']);
    setRow(sheet, HEADER_ROW, ['Ref.', 'Description', 'Colour', 'Size', 'Qty', 'Unit Price', 'Disc. %', 'Amount']);
    boldRow(sheet, HEADER_ROW, 1, 8);

    const discountOfStyle = new Map<string, number>();
    const amounts: number[] = [];
    const items = lines.map(({ variant, quantity, unitCents }, i) => {
      const row = HEADER_ROW + 1 + i;
      const style = variant.sku.slice(0, 5);
      const discount = discountOfStyle.get(style) ?? rng.pick(DISCOUNTS);
      discountOfStyle.set(style, discount);
      const amount = lineAmountCents(quantity, unitCents, discount);
      amounts.push(amount);
      setRow(sheet, row, [
        variant.sku,
        variant.name,
        variant.color,
        variant.size,
        rng.next() < 0.3 ? formatQuantity(quantity, 'un.', true) : quantity,
        formatEuro(unitCents),
        discount === 0 ? undefined : formatDiscount(discount, true),
        formatEuro(amount),
      ]);
      return truthItem({
        sheet: sheet.name,
        row,
        sku: variant.sku,
        rawSku: variant.sku,
        description: variant.name,
        color: variant.color,
        size: variant.size,
        quantity,
        unitPrice: netUnitPrice(unitCents, discount),
      });
    });

    const totalRow = HEADER_ROW + lines.length + 2;
    const total = sum(amounts);
    setRow(sheet, totalRow, ['Total líquido / Net total', undefined, formatEuro(total)], 6);
    boldRow(sheet, totalRow, 1, 8);

    const notes = [
      'Condições / Terms:',
      'Pagamento / Payment: 30 days net from invoice date',
      'Entrega / Delivery: EXW Vila Nova de Famalicão',
      'Prazo de entrega / Lead time: 40 days from order confirmation',
      'Validade / Validity: 60 days',
      'All prices in EUR, VAT not included.',
    ];
    notes.forEach((text, i) => setRow(sheet, totalRow + 2 + i, [text]));

    return {
      workbook,
      description:
        'European number formats stored as text ("12,50 €", "1.234,50 €", "1.200 un.", "7,5%") with a Disc. % ' +
        'column: the truth unit price is net of that discount (an empty cell means none), and bilingual PT/EN terms.',
      supplier: SUPPLIER,
      terms: {
        paymentTerms: '30 days net from invoice date',
        leadTimeDays: 40,
        currency: 'EUR',
        incoterm: 'EXW Vila Nova de Famalicão',
        moq: null,
        validityDays: 60,
      },
      items,
      charges: [],
      statedTotal: fromCents(total),
    };
  },
};
