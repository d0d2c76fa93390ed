// The price-trajectory chart: each supplier's offer total per round, with the curveball marked, as a PNG for Slack.
//
// vega-lite spec (a pure function, so it can be tested as data) → vega → SVG with the headless `View` (renderer
// 'none': no canvas, no browser) → PNG with resvg. Nothing reaches the network: the data is inline and resvg only
// reads local font files. The same input gives the same bytes on a given machine (the glyphs come from its fonts).
//
// Fonts. resvg draws no text at all when it finds no font, and it silently drops glyphs a font lacks, so the chart
// names one family (DejaVu Sans, on every Debian/Ubuntu image with fontconfig) and lets resvg fall back to the
// system's sans-serif. Vega measures text without a canvas here, by estimate; DejaVu Sans is wide, so labels get
// generous room (the legend's spacing, the curveball label's offset) rather than exact room.
import { renderAsync } from '@resvg/resvg-js';
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { CURVEBALL } from '../config/business-rules.js';
import { formatMoney } from '../commerce/money.js';
import type { NegotiationEvent } from '../negotiation/engine.js';

/** The chart's size in CSS pixels: Slack's preview box is about this shape. The PNG is drawn at RENDER_SCALE×. */
export const CHART_WIDTH = 800;
export const CHART_HEIGHT = 450;
/** Drawn at twice the preview size, so it stays sharp on high-density screens and when a buyer clicks to zoom. */
export const RENDER_SCALE = 2;
export const CHART_FONT_FAMILY = 'DejaVu Sans';

/**
 * Okabe–Ito: distinguishable with the common colour-vision deficiencies. Yellow is left out: on white it is too faint
 * for a thin line.
 */
const SERIES_COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#D55E00', '#56B4E9', '#000000'];
const CURVEBALL_COLOUR = '#B22222';
/**
 * Legend layout. Without a canvas vega lays text out by its own estimate, 0.8 × the font size a character (12 px at
 * the legend's 15 px; DejaVu Sans really takes about 8), so a row of entries is as wide as that estimate says, and
 * the chart decides with the same figure whether the entries fit on one row. Each entry's symbol and the gap after it
 * take about 60 px.
 */
const LEGEND_FONT_SIZE = 15;
const LEGEND_CHAR_PX = 0.8 * LEGEND_FONT_SIZE;
const LEGEND_ENTRY_PX = 60;
/** The legend starts this far in from the chart's left edge (the y axis's width). */
const LEGEND_INDENT_PX = 90;
const SUBTITLE = "Each supplier's latest offer is next to its name";
const SUBTITLE_CURVEBALL = '; the dashed line marks the curveball';
/** How far the x domain reaches past the first and last round, so the end markers are not cut in half. */
const ROUND_MARGIN = 0.3;

export interface ChartSupplier {
  code: string;
  name: string;
}

export interface TrajectoryPoint {
  supplierCode: string;
  /** 0 is the quotation itself (the quoting supplier's opening offer); negotiation rounds count from 1. */
  round: number;
  total: number;
}

export interface PriceTrajectoryInput {
  /** In legend order; each gets the next colour. */
  suppliers: readonly ChartSupplier[];
  points: readonly TrajectoryPoint[];
  /** The round after which the curveball struck, or null when it did not. */
  curveballAfterRound: number | null;
  /** Whom the curveball capped, for its label; the seed's CURVEBALL supplier when not given. */
  curveballSupplierCode?: string;
  /** To what share of the order, 0–1; the seed's CURVEBALL share when not given. */
  curveballCapacityShare?: number;
  currency: string;
  title?: string;
}

/** The chart's data as negotiation events carry it: each extracted offer's total, and the curveball if it struck. */
export function trajectoryFromEvents(
  events: readonly NegotiationEvent[],
): Pick<PriceTrajectoryInput, 'points' | 'curveballAfterRound' | 'curveballSupplierCode' | 'curveballCapacityShare'> {
  const points: TrajectoryPoint[] = [];
  let curveball: { afterRound: number; supplierCode: string; capacityShare: number } | null = null;
  for (const event of events) {
    if (event.type === 'offer_extracted') {
      points.push({ supplierCode: event.supplierCode, round: event.round, total: event.offer.total });
    } else if (event.type === 'curveball') {
      curveball = event.curveball;
    }
  }
  return curveball === null
    ? { points, curveballAfterRound: null }
    : {
        points,
        curveballAfterRound: curveball.afterRound,
        curveballSupplierCode: curveball.supplierCode,
        curveballCapacityShare: curveball.capacityShare,
      };
}

type LayerItem = Extract<TopLevelSpec, { layer: unknown }>['layer'][number];

interface ChartRow {
  supplier: string;
  round: number;
  total: number;
}

/** The vega-lite spec of the chart. Pure: the same input gives the same spec. */
export function priceTrajectorySpec(input: PriceTrajectoryInput): TopLevelSpec {
  const suppliers = withUnlistedSuppliers(input);
  const names = uniqueNames(suppliers);
  const rows = chartRows(input.points, names);

  const rounds = rows.map((row) => row.round);
  const curveballX = input.curveballAfterRound === null ? null : input.curveballAfterRound + 0.5;
  const lowest = Math.min(...rounds, ...(curveballX === null ? [] : [Math.floor(curveballX)]));
  const highest = Math.max(...rounds, ...(curveballX === null ? [] : [Math.ceil(curveballX)]));
  // With no offers yet the axis still needs a range: show round 1.
  const [first, last] = Number.isFinite(lowest) ? [lowest, highest] : [1, 1];
  const tickValues = Array.from({ length: last - first + 1 }, (_, i) => first + i);

  const domainNames = suppliers.map((s) => names.get(s.code) ?? s.code);
  const colours = domainNames.map((_, i) => SERIES_COLOURS[i % SERIES_COLOURS.length] ?? '#000000');
  const moneyFormat = input.currency === 'USD' ? '$,.0f' : ',.0f';
  const legendLabels = domainNames.map((name) => legendLabel(name, rows, input.currency));
  // One row of entries when they fit across the chart, else one entry a row: a label is never cut short.
  const legendWidth = sumOf(legendLabels.map((label) => LEGEND_ENTRY_PX + label.length * LEGEND_CHAR_PX));
  const legendColumns = legendWidth <= CHART_WIDTH - LEGEND_INDENT_PX ? Math.max(1, legendLabels.length) : 1;

  const x = {
    field: 'round',
    type: 'quantitative' as const,
    scale: { domain: [first - ROUND_MARGIN, last + ROUND_MARGIN], nice: false, zero: false },
    axis: {
      values: tickValues,
      // Round 0 is the supplier's own quotation, not a negotiation round.
      labelExpr: "datum.value === 0 ? 'Quote' : 'Round ' + datum.value",
      title: null,
      grid: false,
    },
  };

  const layers: LayerItem[] = [];
  const series: LayerItem = {
    data: { values: rows },
    mark: { type: 'line', strokeWidth: 3, point: { filled: true, size: 110 } },
    encoding: {
      x,
      y: {
        field: 'total',
        type: 'quantitative',
        // Padding (in pixels) keeps the highest and lowest markers clear of the plot's edges.
        scale: { zero: false, nice: true, padding: 16 },
        axis: { format: moneyFormat, title: `Offer total (${input.currency})`, tickCount: 6 },
      },
      color: {
        field: 'supplier',
        type: 'nominal',
        scale: { domain: domainNames, range: colours },
        legend: {
          title: null,
          orient: 'top',
          direction: 'horizontal',
          columns: legendColumns,
          // Each supplier's name with its latest offer, the figure a buyer looks for first.
          labelExpr: labelExpression(domainNames, legendLabels),
          labelLimit: 0,
          symbolSize: 160,
          offset: 36,
        },
      },
      order: { field: 'round', type: 'quantitative' },
    },
  };

  if (curveballX !== null) {
    // The label goes on whichever side of the rule has more room, so it is not cut off at the chart's edge.
    const onRight = curveballX <= (first + last) / 2;
    layers.push({
      data: { values: [{ x: curveballX, label: curveballLabel(input, suppliers) }] },
      layer: [
        {
          mark: { type: 'rule', color: CURVEBALL_COLOUR, strokeDash: [6, 4], strokeWidth: 2 },
          encoding: { x: { ...x, field: 'x' } },
        },
        {
          mark: {
            type: 'text',
            color: CURVEBALL_COLOUR,
            fontSize: 14,
            fontWeight: 'bold',
            align: onRight ? 'left' : 'right',
            baseline: 'bottom',
            dx: onRight ? 6 : -6,
          },
          // Just above the plot, where no line can run through it.
          encoding: { x: { ...x, field: 'x' }, y: { value: -6 }, text: { field: 'label' } },
        },
      ],
    });
  }

  if (rows.length === 0) {
    layers.push({
      data: { values: [{ message: 'No offers yet' }] },
      mark: { type: 'text', fontSize: 18, color: '#666' },
      // The plot is narrower than CHART_WIDTH once axes and legend take their room: centre on the plot itself.
      encoding: {
        text: { field: 'message' },
        x: { value: { expr: 'width / 2' } },
        y: { value: { expr: 'height / 2' } },
      },
    });
  }

  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: input.title ?? 'Offer total by round',
      subtitle: rows.length === 0 ? '' : SUBTITLE + (curveballX === null ? '' : SUBTITLE_CURVEBALL),
      anchor: 'start',
      fontSize: 20,
      subtitleFontSize: 14,
      subtitleColor: '#555',
      offset: 12,
    },
    width: CHART_WIDTH,
    height: CHART_HEIGHT,
    autosize: { type: 'fit', contains: 'padding' },
    padding: { top: 16, right: 28, bottom: 16, left: 16 },
    background: 'white',
    config: {
      font: CHART_FONT_FAMILY,
      view: { stroke: null },
      axis: {
        labelFontSize: 14,
        titleFontSize: 15,
        titleFontWeight: 'normal',
        labelColor: '#333',
        gridColor: '#e6e6e6',
      },
      legend: { labelFontSize: LEGEND_FONT_SIZE, columnPadding: 28, symbolStrokeWidth: 3 },
    },
    layer: [series, ...layers],
  };
}

/** The chart as SVG text: vega-lite compiled, then drawn by vega's headless view. */
export async function renderPriceTrajectorySvg(input: PriceTrajectoryInput): Promise<string> {
  const { spec } = compile(priceTrajectorySpec(input));
  const view = new View(parse(spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** The chart as a PNG, RENDER_SCALE × CHART_WIDTH pixels wide. */
export async function renderPriceTrajectory(input: PriceTrajectoryInput): Promise<Buffer> {
  const svg = await renderPriceTrajectorySvg(input);
  // On libuv's thread pool: loading the fonts and rasterising take tens of milliseconds that the event loop (and the
  // Slack requests waiting on it) need not wait for.
  const image = await renderAsync(svg, {
    fitTo: { mode: 'width', value: CHART_WIDTH * RENDER_SCALE },
    font: { loadSystemFonts: true, defaultFontFamily: CHART_FONT_FAMILY, sansSerifFamily: CHART_FONT_FAMILY },
    background: 'white',
  });
  return image.asPng();
}

/** "Curveball: Orion Textiles capped at 60%". */
export function curveballLabel(input: PriceTrajectoryInput, suppliers: readonly ChartSupplier[] = input.suppliers) {
  const code = input.curveballSupplierCode ?? CURVEBALL.supplierCode;
  const name = suppliers.find((s) => s.code === code)?.name ?? code;
  const share = input.curveballCapacityShare ?? CURVEBALL.capacityShare;
  return `Curveball: ${name} capped at ${Math.round(share * 100)}%`;
}

/**
 * "Alpine Premium: $203,611", a supplier's name and its latest offer; "(round 2)" after it when that offer is older
 * than the chart's last round (the supplier stopped), "(quote)" when it is the quotation.
 */
function legendLabel(name: string, rows: readonly ChartRow[], currency: string): string {
  const last = rows.filter((row) => row.supplier === name).at(-1);
  if (last === undefined) return name;
  // The thread's one money format (commerce/money.ts), as in every message beside the chart.
  const money = formatMoney(last.total, currency);
  const latestRound = Math.max(...rows.map((row) => row.round));
  const when = last.round === latestRound ? '' : last.round === 0 ? ' (quote)' : ` (round ${last.round})`;
  return `${name}: ${money}${when}`;
}

/** A vega expression mapping each legend entry (a supplier's name) to its label. Names are data: quoted as JSON. */
function labelExpression(names: readonly string[], labels: readonly string[]): string {
  return names.reduceRight(
    (otherwise, name, i) =>
      `datum.label === ${JSON.stringify(name)} ? ${JSON.stringify(labels[i] ?? name)} : ${otherwise}`,
    'datum.label',
  );
}

function sumOf(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0);
}

/** A point from a supplier missing from the list is still drawn, under its code, rather than lost. */
function withUnlistedSuppliers(input: PriceTrajectoryInput): ChartSupplier[] {
  const suppliers = [...input.suppliers];
  for (const point of input.points) {
    if (!suppliers.some((s) => s.code === point.supplierCode)) {
      suppliers.push({ code: point.supplierCode, name: point.supplierCode });
    }
  }
  return suppliers;
}

/** Series are keyed by name; two suppliers with one name would merge into one line, so the second gets its code. */
function uniqueNames(suppliers: readonly ChartSupplier[]): Map<string, string> {
  const names = new Map<string, string>();
  const used = new Set<string>();
  for (const s of suppliers) {
    const name = used.has(s.name) ? `${s.name} (${s.code})` : s.name;
    used.add(name);
    names.set(s.code, name);
  }
  return names;
}

/** One row per supplier and round (the last offer of a round counts), in supplier then round order. */
function chartRows(points: readonly TrajectoryPoint[], names: ReadonlyMap<string, string>): ChartRow[] {
  const latest = new Map<string, TrajectoryPoint>();
  for (const point of points) {
    if (!Number.isInteger(point.round) || point.round < 0) {
      throw new RangeError(`${point.supplierCode}: round must be a whole number ≥ 0, not ${point.round}`);
    }
    if (!Number.isFinite(point.total)) {
      throw new RangeError(`${point.supplierCode} round ${point.round}: total must be a number, not ${point.total}`);
    }
    latest.set(`${point.supplierCode}\u0000${point.round}`, point);
  }
  const order = [...names.keys()];
  return [...latest.values()]
    .sort((a, b) => order.indexOf(a.supplierCode) - order.indexOf(b.supplierCode) || a.round - b.round)
    .map((point) => ({
      supplier: names.get(point.supplierCode) ?? point.supplierCode,
      round: point.round,
      total: point.total,
    }));
}
