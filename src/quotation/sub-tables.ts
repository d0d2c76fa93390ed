// Small tables suppliers put under a product line: its measurements by size (Size / Chest / Length / Sleeve across
// S M L XL, in cm or inches) or its specification (Fabric / Weight / Zipper). Their cells land in the item table's
// quantity and price columns, so read as rows they become items with a chest width for a quantity; they describe the
// product above them. These tests look at a row's texts only; the structurer decides what to do with the rows.
import { isSizeLabel, normaliseHeader } from './header-detection.js';
import { anyOf } from './regex-words.js';

/** The body measurements of a size chart, in the languages the header vocabulary covers. */
const MEASURE = anyOf(
  [
    String.raw`\b(?:chest|bust|length|sleeves?|waist|hips?|inseam|outseam|shoulders?|neck|collar|thigh|rise|hem|` +
      String.raw`cuff|armhole|width|height|depth|girth|circumference|sweep|knee|leg\s*opening|measurements?|` +
      String.raw`dimensions?|tolerance|pom|hps)\b`,
    // German, Spanish, Portuguese, Chinese, Vietnamese.
    String.raw`brustweite|\bbrust\b|länge|laenge|ärmel|aermel|\btaille\b|hüfte|schulter|\bweite\b|maße|\bpecho\b|` +
      String.raw`\blargo\b|\bmanga\b|\bcintura\b|\bcadera\b|\bhombro\b|\bancho\b|\bmedidas?\b|comprimento|` +
      String.raw`\bombro\b|胸围|衣长|袖长|腰围|臀围|肩宽|领围|裤长|下摆|尺寸|ngực|dài\s*(?:áo|tay|quần)|vòng\s*\p{L}+|` +
      String.raw`rộng\s*vai`,
  ],
  'u',
);
/** The words a measurement label may carry besides the measurement: units, halves, where it is taken. */
const MEASURE_FILLER =
  /\b(?:cm|mm|inch|inches|in|half|body|across|from|at|back|front|top|bottom|centre|center|full|total|max|min|size|spec|the|of|and|opening|circ|approx|g|kg|gsm)\b|[\d./½¼¾±+\-()"'″′:×x]|\s/gu;

/** A specification's row labels: what the product is made of and how, not how many. */
const SPEC = anyOf(
  [
    String.raw`\b(?:fabric|material|composition|weight|gsm|zipper|zip|lining|filling|fill|insulation|shell|trims?|` +
      String.raw`buttons?|thread|finish|coating|waterproof(?:ness)?|breathability|care|origin|yarn|weave|knit|` +
      String.raw`construction|features?|closure|hood|pockets?|seams?|print|embroidery|label|packing|packaging)\b`,
    String.raw`\b(?:stoff|material|gewicht|futter|reißverschluss|tela|peso|forro|cremallera|tecido)\b|面料|成分|` +
      String.raw`克重|里料|拉链|填充|vải|chất\s*liệu|trọng\s*lượng|khóa`,
  ],
  'u',
);

/** A heading alone on its row that opens such a table: "Size chart (cm)", "Specifications", "尺寸表". */
const HEADING =
  /^(?:size\s*(?:chart|spec(?:ification)?s?|table|guide)|measurements?(?:\s*chart)?|measurement\s*spec|spec(?:ification)?s?|technical\s*(?:data|details|spec(?:ification)?s?)|product\s*(?:details|spec(?:ification)?s?)|dimensions?|größentabelle|maßtabelle|tabla\s*de\s*tallas|medidas|尺寸表|尺码表|规格|bảng\s*size|thông\s*số)\b/u;

/** "Chest (cm)", "Body length from HPS", "1/2 chest", "Ärmellänge": a measurement and nothing that names a product. */
export function isMeasurementLabel(text: string): boolean {
  const label = normaliseHeader(text);
  if (label === '' || label.length > 50 || !MEASURE.test(label)) return false;
  // One letter may remain (a point-of-measure letter, "A. Chest"); a word ("rig", "bag") names a product.
  const rest = label.replace(new RegExp(MEASURE.source, 'gu'), ' ').replace(MEASURE_FILLER, '');
  return rest.length <= 1;
}

/** "Fabric", "Weight (gsm)", "Zipper", "面料": a specification row's label (only inside a spec table). */
export function isSpecLabel(text: string): boolean {
  const label = normaliseHeader(text).replace(/[:：]\s*$/, '');
  if (label === '' || label.length > 40 || !SPEC.test(label)) return false;
  const rest = label.replace(new RegExp(SPEC.source, 'gu'), ' ').replace(MEASURE_FILLER, '');
  return rest.length <= 1;
}

export function isSubTableHeading(text: string): boolean {
  return HEADING.test(normaliseHeader(text));
}

/** A size chart runs over a size range (XXS to 6XL, or 0 to 60): wider rows are something else. */
export const MAX_SUB_TABLE_WIDTH = 24;

/** A size chart's own header row: a "Size" label (or none) and two or more sizes across, nothing else. */
export function isSizeHeaderRow(texts: readonly string[]): boolean {
  if (texts.length > MAX_SUB_TABLE_WIDTH) return false;
  const sizes = texts.filter(isSizeLabel).length;
  const others = texts.filter((t) => !isSizeLabel(t));
  const numericSizes = others.filter((t) => /^\d{1,2}(?:\.5)?$/.test(t.trim()));
  const words = others.filter((t) => !/^\d{1,2}(?:\.5)?$/.test(t.trim()));
  const sizeWord =
    words.length === 1 &&
    /^(?:sizes?|size\s*\(.*\)|größe|talla|tamanho|尺码|尺寸|size\s*\/\s*尺码)$/u.test(normaliseHeader(words[0] ?? ''));
  if (sizeWord) return sizes + numericSizes.length >= 2;
  return words.length === 0 && sizes >= 2;
}

/**
 * A value in a size chart or spec table: a measurement ("52", "27 1/2", "27½", "70±1", "28\"", "52 cm") or a short
 * spec ("100% polyester", "YKK #5").
 */
export function isMeasurementValue(text: string): boolean {
  return /^[\d\s./½¼¾±+\-–,"'″′]*\d[\d\s./½¼¾±+\-–,"'″′]*(?:cm|mm|in|inch|inches|g|gsm|kg)?\.?$/iu.test(text.trim());
}
