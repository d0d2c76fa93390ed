import { describe, expect, it } from 'vitest';
import type { NegotiationEvent } from '../negotiation/engine.js';
import type { Offer } from '../negotiation/types.js';
import {
  CHART_HEIGHT,
  CHART_WIDTH,
  curveballLabel,
  type PriceTrajectoryInput,
  priceTrajectorySpec,
  RENDER_SCALE,
  renderPriceTrajectory,
  trajectoryFromEvents,
} from './price-chart.js';

const suppliers = [
  { code: 'SUP-001', name: 'Northwind Apparel' },
  { code: 'SUP-002', name: 'Orion Textiles' },
  { code: 'SUP-003', name: 'Pacific Stitch Co.' },
];

const input: PriceTrajectoryInput = {
  suppliers,
  points: [
    { supplierCode: 'SUP-001', round: 0, total: 48_200 },
    { supplierCode: 'SUP-001', round: 1, total: 46_900 },
    { supplierCode: 'SUP-002', round: 1, total: 52_400 },
    { supplierCode: 'SUP-003', round: 1, total: 42_800 },
    { supplierCode: 'SUP-001', round: 2, total: 45_100 },
    { supplierCode: 'SUP-002', round: 2, total: 51_200 },
    { supplierCode: 'SUP-003', round: 2, total: 42_100 },
    { supplierCode: 'SUP-001', round: 3, total: 44_350 },
    { supplierCode: 'SUP-002', round: 3, total: 50_650 },
    { supplierCode: 'SUP-003', round: 3, total: 41_650 },
  ],
  curveballAfterRound: 1,
  currency: 'USD',
};

/** The spec as plain JSON, so tests can walk it without the vega-lite types' unions. */
function json(spec: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(spec)) as Record<string, unknown>;
}

function layers(spec: Record<string, unknown>): Record<string, unknown>[] {
  const layer = spec.layer;
  if (!Array.isArray(layer)) throw new Error('the spec is layered');
  return layer as Record<string, unknown>[];
}

function rows(layer: Record<string, unknown>): Record<string, unknown>[] {
  const data = layer.data as { values?: unknown };
  if (!Array.isArray(data.values)) throw new Error('inline data');
  return data.values as Record<string, unknown>[];
}

/** Width and height from the PNG's IHDR chunk, which the format puts first. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('priceTrajectorySpec', () => {
  it('draws one coloured line with point markers per supplier, x = round, y = total', () => {
    const spec = json(priceTrajectorySpec(input));
    const [series] = layers(spec);
    if (series === undefined) throw new Error('a series layer');
    expect(series.mark).toMatchObject({ type: 'line', point: { filled: true } });
    const encoding = series.encoding as Record<string, Record<string, unknown>>;
    expect(encoding.x).toMatchObject({ field: 'round', type: 'quantitative', axis: { values: [0, 1, 2, 3] } });
    expect(encoding.y).toMatchObject({ field: 'total', type: 'quantitative', axis: { title: 'Offer total (USD)' } });
    expect(encoding.color).toMatchObject({
      field: 'supplier',
      scale: { domain: ['Northwind Apparel', 'Orion Textiles', 'Pacific Stitch Co.'] },
    });
    const data = rows(series);
    expect(data).toHaveLength(10);
    expect(data.filter((row) => row.supplier === 'Orion Textiles').map((row) => row.total)).toEqual([
      52_400, 51_200, 50_650,
    ]);
  });

  it('marks the curveball with a rule between its round and the next, labelled with who was capped', () => {
    const spec = json(priceTrajectorySpec(input));
    const all = layers(spec);
    expect(all).toHaveLength(2);
    const curveball = all[1];
    if (curveball === undefined) throw new Error('a curveball layer');
    expect(rows(curveball)).toEqual([{ x: 1.5, label: 'Curveball: Orion Textiles capped at 60%' }]);
    const [rule, label] = layers(curveball);
    expect(rule?.mark).toMatchObject({ type: 'rule' });
    expect(rule?.encoding).toMatchObject({ x: { field: 'x' } });
    expect(label?.mark).toMatchObject({ type: 'text', align: 'left' });
    expect(label?.encoding).toMatchObject({ text: { field: 'label' } });
  });

  it('names each supplier with its latest offer in the legend, never cut short, one row only when it fits', () => {
    const legendOf = (spec: Record<string, unknown>) => {
      const [series] = layers(spec);
      const encoding = series?.encoding as Record<string, Record<string, unknown>>;
      return encoding.color?.legend as Record<string, unknown>;
    };
    const long = {
      ...input,
      suppliers: [{ code: 'SUP-001', name: 'Ningbo Everbright Garments Co., Ltd.' }, ...suppliers.slice(1)],
    };
    const legend = legendOf(json(priceTrajectorySpec(long)));
    expect(legend).toMatchObject({ labelLimit: 0, columns: 1 });
    // The label expression is vega's; evaluate it as the legend would, for each entry.
    const label = (name: string) =>
      new Function('datum', `return ${String(legend.labelExpr)};`)({ label: name }) as string;
    expect(label('Ningbo Everbright Garments Co., Ltd.')).toBe('Ningbo Everbright Garments Co., Ltd.: $44,350.00');
    expect(label('Orion Textiles')).toBe('Orion Textiles: $50,650.00');
    // A supplier whose last offer is older than the last round says when it was made.
    const stopped = { ...input, points: input.points.filter((p) => !(p.supplierCode === 'SUP-003' && p.round > 1)) };
    const stoppedLegend = legendOf(json(priceTrajectorySpec(stopped)));
    const stoppedLabel = new Function('datum', `return ${String(stoppedLegend.labelExpr)};`)({
      label: 'Pacific Stitch Co.',
    }) as string;
    expect(stoppedLabel).toBe('Pacific Stitch Co.: $42,800.00 (round 1)');
    // Money is written as in every message of the thread (commerce/money.ts), whatever the currency.
    const yuan = legendOf(json(priceTrajectorySpec({ ...input, currency: 'CNY' })));
    expect(new Function('datum', `return ${String(yuan.labelExpr)};`)({ label: 'Orion Textiles' })).toBe(
      'Orion Textiles: CNY 50,650.00',
    );
    // Short names fit on one row.
    const short = { ...input, suppliers: suppliers.map((s, i) => ({ ...s, name: 'ABC'[i] ?? s.name })) };
    expect(legendOf(json(priceTrajectorySpec(short)))).toMatchObject({ columns: 3 });
    // A quote mark in a name stays data inside the expression.
    const quoted = { ...input, suppliers: [{ code: 'SUP-001', name: 'O"Brien \\ Sons' }, ...suppliers.slice(1)] };
    const quotedLegend = legendOf(json(priceTrajectorySpec(quoted)));
    expect(new Function('datum', `return ${String(quotedLegend.labelExpr)};`)({ label: 'O"Brien \\ Sons' })).toBe(
      'O"Brien \\ Sons: $44,350.00',
    );
    expect(json(priceTrajectorySpec(input)).title).toMatchObject({
      subtitle: "Each supplier's latest offer is next to its name; the dashed line marks the curveball",
    });
  });

  it('has no curveball layer when there was none', () => {
    const spec = json(priceTrajectorySpec({ ...input, curveballAfterRound: null }));
    expect(layers(spec)).toHaveLength(1);
  });

  it('labels the curveball from the given supplier and share, on the side with room', () => {
    const late = { ...input, curveballAfterRound: 3, curveballSupplierCode: 'SUP-003', curveballCapacityShare: 0.45 };
    expect(curveballLabel(late)).toBe('Curveball: Pacific Stitch Co. capped at 45%');
    const curveball = layers(json(priceTrajectorySpec(late)))[1];
    if (curveball === undefined) throw new Error('a curveball layer');
    expect(rows(curveball)[0]).toMatchObject({ x: 3.5 });
    expect(layers(curveball)[1]?.mark).toMatchObject({ align: 'right' });
    // The x axis reaches the rule after the last round.
    const series = layers(json(priceTrajectorySpec(late)))[0];
    expect(series?.encoding).toMatchObject({ x: { axis: { values: [0, 1, 2, 3, 4] } } });
  });

  it('keeps the last offer of a round, draws unlisted suppliers under their code, and refuses bad rounds', () => {
    const spec = json(
      priceTrajectorySpec({
        ...input,
        points: [
          { supplierCode: 'SUP-001', round: 1, total: 100 },
          { supplierCode: 'SUP-001', round: 1, total: 90 },
          { supplierCode: 'SUP-404', round: 1, total: 80 },
        ],
      }),
    );
    const series = layers(spec)[0];
    if (series === undefined) throw new Error('a series layer');
    expect(rows(series)).toEqual([
      { supplier: 'Northwind Apparel', round: 1, total: 90 },
      { supplier: 'SUP-404', round: 1, total: 80 },
    ]);
    expect(() =>
      priceTrajectorySpec({ ...input, points: [{ supplierCode: 'SUP-001', round: 1.5, total: 1 }] }),
    ).toThrow(RangeError);
  });

  it('is a pure function of its input', () => {
    expect(priceTrajectorySpec(input)).toEqual(priceTrajectorySpec(structuredClone(input)));
  });
});

describe('trajectoryFromEvents', () => {
  const offer = (supplierCode: string, round: number, total: number): Offer => ({
    supplierCode,
    round,
    lines: [{ sku: 'X', quantity: 1, unitPrice: total, tiers: [] }],
    total,
    leadTimeDays: 30,
    paymentTerms: '100',
    incoterm: null,
    currency: 'USD',
    concessions: [],
    conditions: [],
    capacityShare: 1,
  });

  it("reads each extracted offer's total and the curveball", () => {
    const events: NegotiationEvent[] = [
      { type: 'round_start', round: 1, phase: 'initial' },
      {
        type: 'offer_extracted',
        round: 1,
        supplierCode: 'SUP-002',
        offer: offer('SUP-002', 1, 52_400),
        adjustments: [],
      },
      {
        type: 'curveball',
        curveball: {
          supplierCode: 'SUP-002',
          capacityShare: 0.6,
          afterRound: 1,
          impact: 'Orion Textiles can fill only 60% of the order',
          strategies: [],
          chosen: 'split',
        },
      },
      {
        type: 'offer_extracted',
        round: 2,
        supplierCode: 'SUP-002',
        offer: offer('SUP-002', 2, 51_200),
        adjustments: [],
      },
    ];
    expect(trajectoryFromEvents(events)).toEqual({
      points: [
        { supplierCode: 'SUP-002', round: 1, total: 52_400 },
        { supplierCode: 'SUP-002', round: 2, total: 51_200 },
      ],
      curveballAfterRound: 1,
      curveballSupplierCode: 'SUP-002',
      curveballCapacityShare: 0.6,
    });
    expect(trajectoryFromEvents(events.slice(0, 2)).curveballAfterRound).toBeNull();
  });
});

describe('renderPriceTrajectory', () => {
  it(`renders a ${CHART_WIDTH * RENDER_SCALE}×${CHART_HEIGHT * RENDER_SCALE} PNG`, async () => {
    const png = await renderPriceTrajectory(input);
    expect(pngSize(png)).toEqual({ width: CHART_WIDTH * RENDER_SCALE, height: CHART_HEIGHT * RENDER_SCALE });
    // Lines, markers, axes and text in a 1600×900 image: far more than an empty canvas's few hundred bytes.
    expect(png.length).toBeGreaterThan(20_000);
  });

  it('gives the same bytes for the same input', async () => {
    const [first, second] = await Promise.all([
      renderPriceTrajectory(input),
      renderPriceTrajectory(structuredClone(input)),
    ]);
    expect(second.equals(first)).toBe(true);
  });

  // resvg draws no text when it finds no font. If this fails, the machine has no usable font: install fonts-dejavu-core.
  it('draws its text: a different title gives different pixels', async () => {
    const [plain, titled] = await Promise.all([
      renderPriceTrajectory(input),
      renderPriceTrajectory({ ...input, title: 'Offers per round, PO-2026-0001' }),
    ]);
    expect(titled.equals(plain)).toBe(false);
  });

  it('renders with no curveball, another currency and no offers', async () => {
    const euro = await renderPriceTrajectory({ ...input, curveballAfterRound: null, currency: 'EUR' });
    expect(pngSize(euro).width).toBe(CHART_WIDTH * RENDER_SCALE);
    const empty = await renderPriceTrajectory({ ...input, points: [], curveballAfterRound: null });
    expect(pngSize(empty).height).toBe(CHART_HEIGHT * RENDER_SCALE);
  });
});
