import { formatPrefixed, formatQuantity, fromCents, lineAmountCents, sum } from '../money.js';
import { planLines, type SampleStyle, variantTruth } from '../sample.js';
import { boldRow, createWorkbook, setRow, setWidths } from '../workbook.js';

const SUPPLIER = 'Saigon Summit Apparel JSC';
const HEADER_ROW = 8;
const NOTE_DISCOUNT = 'less 3% for orders over 1000 pcs';
const OTHER_REMARKS = ['incl. hangtag & polybag', 'new colour, lab dip needed', 'same fabric as last season'];

export const textNumbers: SampleStyle = {
  name: 'numbers-as-text-usd',
  messes: [4, 5, 13],
  build(context) {
    const { rng } = context;
    const lines = planLines(context, {
      categories: ['Tees', 'Base Layers', 'Shirts'],
      styles: 6,
      variantsPerStyle: [2, 4],
    });
    const workbook = createWorkbook('Saigon Summit');
    const sheet = workbook.addWorksheet('Quotation');
    setWidths(sheet, [16, 34, 18, 8, 12, 12, 16, 34]);
    setRow(sheet, 1, [SUPPLIER]);
    sheet.getCell(1, 1).font = { bold: true, size: 14 };
    setRow(sheet, 2, ['Lot C5, Tan Thuan Export Processing Zone, District 7, Ho Chi Minh City, Vietnam']);
    // Terms as label/value pairs in the header cells, two pairs a row.
    setRow(sheet, 4, ['Quotation for:', 'Valden Outdoor', undefined, undefined, 'Currency:', 'USD']);
    setRow(sheet, 5, [
      'Payment terms:',
      '30% deposit, 70% before shipment',
      undefined,
      undefined,
      'Incoterm:',
      'FOB Ho Chi Minh City',
    ]);
    setRow(sheet, 6, ['Lead time:', '60 days', undefined, undefined, 'Validity:', '45 days']);
    setRow(sheet, HEADER_ROW, ['Style Code', 'Item', 'Color', 'Size', 'Quantity', 'Unit Price', 'Total', 'Remarks']);
    boldRow(sheet, HEADER_ROW, 1, 8);

    const amounts: number[] = [];
    const items = lines.map(({ variant, quantity, unitCents }, i) => {
      const row = HEADER_ROW + 1 + i;
      const amount = lineAmountCents(quantity, unitCents);
      amounts.push(amount);
      // The note sits on every big line and on line 2 whatever its size, so it is always there to tempt a parser.
      const remark =
        quantity > 1000 || i === 1 ? NOTE_DISCOUNT : rng.next() < 0.3 ? rng.pick(OTHER_REMARKS) : undefined;
      setRow(sheet, row, [
        variant.sku,
        variant.name,
        variant.color,
        variant.size,
        // Some quantities are real numbers, most carry a unit; prices always carry a currency sign.
        rng.next() < 0.2 ? quantity : formatQuantity(quantity, 'pcs'),
        formatPrefixed(i % 2 === 0 ? '$' : 'US$ ', unitCents),
        formatPrefixed('US$ ', amount),
        remark,
      ]);
      return variantTruth(sheet.name, row, { variant, quantity, unitCents });
    });

    const totalRow = HEADER_ROW + lines.length + 1;
    const total = sum(amounts);
    setRow(
      sheet,
      totalRow,
      [formatQuantity(sum(lines.map((line) => line.quantity)), 'pcs'), 'TOTAL', formatPrefixed('US$ ', total)],
      5,
    );
    boldRow(sheet, totalRow, 1, 8);

    return {
      workbook,
      description:
        'Numbers stored as text ("1,200 pcs", "$12.50", "US$ 1,234.00") under terms given as label/value header ' +
        'cells; the "less 3% for orders over 1000 pcs" remark is a note, not a discount column, so it is not applied.',
      supplier: SUPPLIER,
      terms: {
        paymentTerms: '30% deposit, 70% before shipment',
        leadTimeDays: 60,
        currency: 'USD',
        incoterm: 'FOB Ho Chi Minh City',
        moq: null,
        validityDays: 45,
      },
      items,
      charges: [],
      statedTotal: fromCents(total),
    };
  },
};
