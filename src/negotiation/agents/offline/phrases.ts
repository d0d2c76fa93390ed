// The offline twins' template banks: several wordings per situation, each tagged with the tactics it uses, filled with
// real SKUs and numbers by the agents. Plain text only — the Slack layer owns formatting and escaping.
import type { SupplierStyle } from './concessions.js';
import { phrase, type Phrase, type Tactic } from './tactics.js';

/** Every value a supplier template may cite, already formatted ("$41,650.00", "4.5%", "MC004-STB-L(Parka)"). */
export interface SupplierFill {
  buyer: string;
  brand: string;
  name: string;
  total: string;
  prevTotal: string;
  saving: string;
  stepPct: string;
  cumPct: string;
  sku: string;
  unit: string;
  prevUnit: string;
  /** Another large line, so a message does not cite one SKU three times. */
  altSku: string;
  altUnit: string;
  units: string;
  lead: string;
  prevLead: string;
  terms: string;
  prevTerms: string;
  /** " for a 1.5% price adjustment", or empty. */
  premiumNote: string;
  extra: string;
  tierSku: string;
  tierQty: string;
  tierUnit: string;
  tierPct: string;
  rival: string;
  rivalTotal: string;
  /**
   * The cited competitor as the brand cited it: "Ningbo Everbright at $41,200.00", or "a competing offer 12% below
   * ours" when the brand did not name it — then no template may quote a competitor's total it was never told.
   */
  rivalQuote: string;
  askTotal: string;
  capPct: string;
  capValue: string;
  quality: string;
  onTime: string;
  defect: string;
  round: string;
  maxRounds: string;
  /** The total is at the supplier's floor for this deal shape: only then may it say so. */
  atFloor: boolean;
  /** What the brand gave this turn, in words ("more paid upfront and the larger volume"); empty when nothing. */
  buyerGave: string;
  /** The total went up this turn (the restructurer charging for softer terms): no template may say prices held. */
  priceRose: boolean;
}

type S = Phrase<SupplierFill>;

/** For a fill value that may open a sentence ("a competing offer …"). */
const capital = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

export interface SupplierBank {
  opening: readonly S[];
  greeting: readonly S[];
  /** The price fell this turn. */
  priceMove: readonly S[];
  /** The price did not fall; the total is stated anyway. */
  priceHold: readonly S[];
  /** Answer to a cited lower competitor. */
  leverage: readonly S[];
  /** The brand asked for less than the supplier's floor. */
  pushBack: readonly S[];
  close: readonly S[];
  finalClose: readonly S[];
  accept: readonly S[];
  walkAway: readonly S[];
}

const margin: SupplierBank = {
  opening: [
    phrase(
      [],
      (f) =>
        `Thanks ${f.buyer}. Our quotation stands at ${f.total} for the full order: ${f.sku} at ${f.unit}, ${f.lead} days production, payment ${f.terms}.`,
    ),
    phrase(
      ['deadline'],
      (f) =>
        `Confirming our quote: ${f.total} in total, ${f.lead}-day lead time, terms ${f.terms}. ${f.sku} is priced at ${f.unit} a unit, and these prices hold while our production slots last.`,
    ),
    phrase(
      ['costBasis'],
      (f) =>
        `Hi ${f.buyer}, the numbers are as quoted: ${f.total}, with ${f.sku} at ${f.unit}. Lead time ${f.lead} days, payment ${f.terms}, built on current fabric and labour costs.`,
    ),
    phrase(
      ['volume'],
      (f) =>
        `Our price is ${f.total} for ${f.units} units. ${f.sku} at ${f.unit}; we ship in ${f.lead} days on ${f.terms} terms. More volume would sharpen it further.`,
    ),
  ],
  greeting: [
    phrase([], (f) => `${f.buyer}, we went back over our costs.`),
    phrase([], (f) => `Understood, ${f.buyer}.`),
    phrase([], () => `We have looked at this again with the factory.`),
    phrase([], () => `Thanks for the feedback.`),
    phrase([], () => `Fair point on price.`),
  ],
  priceMove: [
    phrase(
      ['conditional'],
      (f) =>
        `We can come down to ${f.total} (${f.stepPct} off our last offer), which puts ${f.sku} at ${f.unit}, if you confirm the full quantities.`,
    ),
    phrase(
      [],
      (f) => `New total ${f.total}, down from ${f.prevTotal}. ${f.sku} moves from ${f.prevUnit} to ${f.unit}.`,
    ),
    phrase(
      [],
      (f) => `Best we can do this round is ${f.total}, a further ${f.saving} off, with ${f.sku} at ${f.unit}.`,
    ),
    phrase(
      [],
      (f) => `Revised: ${f.sku} at ${f.unit}, order total ${f.total}. That is ${f.cumPct} below our original quote.`,
    ),
  ],
  priceHold: [
    phrase(
      ['costBasis'],
      (f) =>
        `${f.total} is already our floor; ${f.sku} cannot go under ${f.unit} without losing money on fabric and labour.`,
      (f) => f.atFloor,
    ),
    phrase(
      ['batna'],
      (f) =>
        `We stay at ${f.total}. At ${f.unit} for ${f.sku} there is nothing left in the price, and other buyers are keen to take the slot.`,
      (f) => f.atFloor,
    ),
    phrase(
      ['costBasis'],
      (f) => `We hold ${f.total} for now, ${f.sku} at ${f.unit}; bring us a number we can work with and we will move.`,
      (f) => !f.atFloor,
    ),
  ],
  leverage: [
    phrase([], (f) => `If ${f.rivalQuote} is real, we take it seriously, which is why this step is bigger.`),
    phrase(
      [],
      (f) => `We know about ${f.rivalQuote}; compare lead time and terms too, but we have sharpened our pencil.`,
    ),
    phrase([], (f) => `We can't ignore ${f.rivalQuote}, so we moved more than we planned.`),
  ],
  pushBack: [
    phrase(['costBasis'], (f) => `${f.askTotal} is under our material cost; we cannot go there.`),
    phrase(['costBasis'], (f) => `At ${f.askTotal} we would lose money on every unit of ${f.sku}.`),
    phrase(['costBasis'], (f) => `${f.askTotal} is not possible for us; the fabric alone costs more.`),
  ],
  close: [
    phrase(['deadline'], (f) => `Confirm soon and we hold the production slot for all ${f.units} units.`),
    phrase(['volume', 'conditional'], () => `If you can add quantity, we can talk about a better volume price.`),
    phrase(['deadline'], (f) => `We need your answer by round ${f.maxRounds} to keep the line booked.`),
  ],
  finalClose: [
    phrase([], () => `This is our final price for this order.`),
    phrase([], () => `That is our last step; we are at our limit.`),
    phrase(['deadline'], () => `Final offer. We need confirmation this week to hold the production slot.`),
  ],
  accept: [
    phrase(
      [],
      (f) =>
        `We can accept ${f.askTotal}. ${f.sku} comes to ${f.unit}; ${f.lead} days, payment ${f.terms}. Please send the PO.`,
    ),
    phrase(
      ['summary'],
      (f) =>
        `Agreed at ${f.askTotal}. To recap: all ${f.units} units, ${f.sku} at ${f.unit}, ${f.lead} days, payment ${f.terms}.`,
    ),
    phrase([], (f) => `Deal at ${f.askTotal}, ${f.buyer}. ${f.sku} at ${f.unit}, shipped in ${f.lead} days.`),
  ],
  walkAway: [
    phrase(
      ['costBasis'],
      (f) =>
        `We have tried, but ${f.askTotal} is far below what this order costs us to make. We will step back from this one; ${f.total} was our limit.`,
    ),
    phrase(
      ['batna'],
      (f) =>
        `At ${f.askTotal} there is no deal for us. We withdraw and will give the slot to another customer; our best remains ${f.total}.`,
    ),
  ],
};

const premium: SupplierBank = {
  opening: [
    phrase(
      ['quality'],
      (f) =>
        `Thank you for the opportunity, ${f.buyer}. For the full order we can offer ${f.total}, with ${f.sku} at ${f.unit}. Delivery in ${f.lead} days, payment ${f.terms}, backed by our ${f.quality}/5 quality rating and ${f.defect} defect rate.`,
    ),
    phrase(
      ['partnership'],
      (f) =>
        `We'd be delighted to partner with ${f.brand} on this. Our proposal: ${f.total} in total, ${f.sku} at ${f.unit}, ${f.lead}-day delivery on ${f.terms} terms.`,
    ),
    phrase(
      ['quality'],
      (f) =>
        `Thank you, ${f.buyer}. Our quote is ${f.total}; ${f.sku} comes in at ${f.unit}. That includes our premium fabric standard, ${f.onTime} on-time delivery and a ${f.lead}-day lead time, on ${f.terms}.`,
    ),
  ],
  greeting: [
    phrase(
      ['partnership'],
      (f) =>
        `Thank you, ${f.buyer}. We value the conversation and the chance to build a long-term partnership with ${f.brand}.`,
    ),
    phrase([], (f) => `We appreciate your candour, ${f.buyer}.`),
    phrase([], () => `Thank you for working through this with us.`),
    phrase([], (f) => `We've discussed your note internally, ${f.buyer}.`),
  ],
  priceMove: [
    phrase(
      ['partnership'],
      (f) =>
        `As a gesture of partnership, we can move to ${f.total} (${f.cumPct} off our opening), bringing ${f.sku} to ${f.unit}.`,
    ),
    phrase(
      ['conditional', 'deadline'],
      (f) =>
        `If you can confirm within 7 days, we can refine pricing to ${f.total}, ${f.sku} at ${f.unit}: a ${f.stepPct} adjustment we rarely make.`,
    ),
    phrase(
      ['partnership'],
      (f) => `In the spirit of a long-term relationship, ${f.total} is possible, with ${f.sku} at ${f.unit}.`,
    ),
  ],
  priceHold: [
    phrase(
      ['quality'],
      (f) => `Our price stays at ${f.total}, which reflects the quality you would be getting on ${f.sku}.`,
    ),
    phrase(
      ['quality', 'package'],
      (f) => `We'd prefer to hold ${f.total} and add value rather than cut corners on ${f.sku} at ${f.unit}.`,
    ),
    phrase(
      ['costBasis'],
      (f) =>
        `We're keeping the total at ${f.total}, ${f.sku} at ${f.unit}; our margin is already reinvested in materials and QC.`,
    ),
  ],
  leverage: [
    phrase(
      ['quality'],
      (f) =>
        `${capital(f.rivalQuote)} is a different proposition: our ${f.defect} defect rate means fewer returns and less rework.`,
    ),
    phrase(
      ['quality'],
      (f) => `We've noted ${f.rivalQuote}. We can't match that and keep our standard, but we've sharpened what we can.`,
    ),
    phrase(
      ['quality'],
      (f) =>
        `On price alone ${f.rivalQuote} will look better; we'd ask you to weigh ${f.onTime} on-time delivery and ${f.lead}-day lead time.`,
    ),
  ],
  pushBack: [
    phrase(['quality'], (f) => `Respectfully, ${f.askTotal} is not a level at which we can deliver our standard.`),
    phrase(
      ['quality'],
      (f) => `We can't reach ${f.askTotal} without compromising the product, and we won't do that to ${f.brand}.`,
    ),
  ],
  close: [
    phrase(['partnership'], () => `We'd welcome a call to walk you through our QC process.`),
    phrase(['quality'], (f) => `Happy to send fabric swatches for ${f.altSku} while you decide.`),
    phrase([], () => `We look forward to your thoughts.`),
  ],
  finalClose: [
    phrase(['partnership'], (f) => `This is our best and final proposal; we'd be proud to produce it for ${f.brand}.`),
    phrase([], () => `We've gone as far as we responsibly can; this is our final position.`),
    phrase(['deadline'], () => `This is our final offer, valid for 7 days.`),
  ],
  accept: [
    phrase(
      ['partnership'],
      (f) =>
        `We're pleased to accept ${f.askTotal}, ${f.buyer}. ${f.sku} at ${f.unit}, ${f.lead}-day delivery on ${f.terms}. We look forward to a long partnership.`,
    ),
    phrase(
      ['summary'],
      (f) => `Agreed: ${f.askTotal}, with everything we've discussed included. ${f.sku} comes to ${f.unit}.`,
    ),
  ],
  walkAway: [
    phrase(
      ['quality'],
      (f) =>
        `We've enjoyed the conversation, but at ${f.askTotal} we would have to compromise our standard. We'll step aside on this order; our door remains open at ${f.total}.`,
    ),
    phrase(
      [],
      (f) =>
        `We don't see a path to ${f.askTotal} and will withdraw from this round of business. Our last proposal was ${f.total}.`,
    ),
  ],
};

const restructure: SupplierBank = {
  opening: [
    phrase(
      [],
      (f) =>
        `Hi ${f.buyer}! Great to hear from ${f.brand}. We can do the lot for ${f.total}, ${f.sku} at ${f.unit}, shipped in just ${f.lead} days. Payment is ${f.terms}, which is how we keep things this fast.`,
    ),
    phrase(
      [],
      (f) =>
        `Thanks for the RFQ, ${f.buyer}! Our quote: ${f.total} total, ${f.sku} at ${f.unit}, and we ship in ${f.lead} days. Payment ${f.terms}.`,
    ),
    phrase(
      [],
      (f) =>
        `Love this range! ${f.total} gets you the whole order in ${f.lead} days, ${f.sku} at ${f.unit}. Payment is ${f.terms}.`,
    ),
  ],
  greeting: [
    phrase(['package'], (f) => `Thanks ${f.buyer}, let's find a structure that works!`),
    phrase(['partnership'], (f) => `Great chat so far, ${f.buyer}.`),
    phrase([], () => `Okay, let's get creative.`),
    phrase([], (f) => `Hear you loud and clear on price, ${f.buyer}.`),
  ],
  priceMove: [
    phrase([], (f) => `And we'll trim the price to ${f.total}, ${f.sku} at ${f.unit}.`),
    phrase(
      ['conditional'],
      (f) => `Lock it in this week and we can also take ${f.stepPct} off: ${f.total} all in, ${f.sku} at ${f.unit}.`,
    ),
    phrase([], (f) => `Plus a small price move: ${f.sku} down to ${f.unit}, total ${f.total}.`),
  ],
  priceHold: [
    phrase(
      ['package'],
      (f) =>
        `Rather than just cutting price, here's a different shape. All in, that's ${f.total}, ${f.sku} at ${f.unit}.`,
    ),
    phrase(
      ['package'],
      (f) => `Instead of shaving ${f.sku} below ${f.unit}, let's restructure. The order comes to ${f.total}.`,
    ),
    phrase(
      ['package'],
      (f) => `Unit prices stay put (${f.sku} at ${f.unit}, ${f.total} in total), but the deal changes shape.`,
      (f) => !f.priceRose,
    ),
  ],
  leverage: [
    phrase(
      ['leadTime'],
      (f) => `${capital(f.rivalQuote)}? Fair enough, but they won't have it on your dock in ${f.lead} days.`,
    ),
    phrase(
      ['leadTime'],
      (f) => `I know about ${f.rivalQuote}; what they can't give you is speed. We ship in ${f.lead} days.`,
    ),
    phrase(['package'], (f) => `Heard on ${f.rivalQuote}. Let's compete on total value, not just the sticker price.`),
  ],
  pushBack: [
    phrase(['costBasis'], (f) => `${f.askTotal} is a stretch too far for us, ${f.buyer}; speed costs money to run.`),
    phrase([], (f) => `We can't get to ${f.askTotal}, but here's what we can do.`),
  ],
  close: [
    phrase(['deadline'], (f) => `Want us to hold a production slot for ${f.brand}?`),
    phrase(['package'], () => `Happy to mix and match these options if another shape suits you better.`),
    phrase(['inquiry'], (f) => `Which structure works best for you, ${f.buyer}?`),
  ],
  finalClose: [
    phrase([], () => `That's our best shot: final offer, and we're ready to start cutting fabric.`),
    phrase(['leadTime'], (f) => `This is as far as we can go; say the word and we ship in ${f.lead} days.`),
    phrase([], () => `Final offer from our side, and it's a good one!`),
  ],
  accept: [
    phrase(
      [],
      (f) => `You've got a deal at ${f.askTotal}, ${f.buyer}! ${f.sku} at ${f.unit}, shipped in ${f.lead} days.`,
    ),
    phrase(
      [],
      (f) => `Done: ${f.askTotal} it is. Send the PO and we start production right away, ${f.lead} days to your dock.`,
    ),
  ],
  walkAway: [
    phrase(
      [],
      (f) =>
        `We love the range, but ${f.askTotal} doesn't work at our speed and cost. We'll bow out; ${f.total} was our best.`,
    ),
    phrase([], (f) => `We can't make ${f.askTotal} work, so we'll step back from this one. Good luck with the launch!`),
  ],
};

export const SUPPLIER_BANKS: Readonly<Record<SupplierStyle, SupplierBank>> = { margin, premium, restructure };

/** Concession sentences, shared by every supplier. */
export const CONCESSION_PHRASES: Readonly<Record<'extra' | 'terms' | 'leadTime' | 'tier', readonly S[]>> = {
  extra: [
    phrase(['package'], (f) => `We'll include ${f.extra}.`),
    phrase(['package'], (f) => `On top of that: ${f.extra}, at no charge.`),
    phrase(['package'], (f) => `We can add ${f.extra} to the package.`),
  ],
  terms: [
    phrase(['terms'], (f) => `We can move payment from ${f.prevTerms} to ${f.terms}${f.premiumNote}.`),
    phrase(['terms'], (f) => `Payment terms can change to ${f.terms} instead of ${f.prevTerms}${f.premiumNote}.`),
    phrase(['terms'], (f) => `To help your cash flow: ${f.terms} rather than ${f.prevTerms}${f.premiumNote}.`),
  ],
  leadTime: [
    phrase(['leadTime'], (f) => `We can bring delivery forward from ${f.prevLead} to ${f.lead} days.`),
    phrase(['leadTime'], (f) => `Lead time comes down to ${f.lead} days (from ${f.prevLead}).`),
    phrase(['leadTime'], (f) => `We've found line capacity to ship in ${f.lead} days instead of ${f.prevLead}.`),
  ],
  tier: [
    phrase(
      ['tier', 'volume'],
      (f) => `New volume tier: order ${f.tierQty}+ of ${f.tierSku} and it drops to ${f.tierUnit} (${f.tierPct} off).`,
    ),
    phrase(
      ['tier', 'volume', 'conditional'],
      (f) =>
        `Push ${f.tierSku} to ${f.tierQty} units and we go to ${f.tierUnit} a unit; the same ${f.tierPct} tier applies on every SKU.`,
    ),
    phrase(
      ['tier', 'volume'],
      (f) =>
        `We've added a volume break at 125% of your quantities: ${f.tierSku} at ${f.tierUnit} from ${f.tierQty} units.`,
    ),
  ],
};

/** How a supplier reacts to what the brand did, whatever its personality. */
export const SUPPLIER_REACTIONS: Readonly<Record<'warn' | 'reopen' | 'doubt' | 'trade', readonly S[]>> = {
  /** One more push below its floor and it walks away: it says so, once, plainly. */
  warn: [
    phrase(
      ['batna'],
      (f) => `We can't go to ${f.askTotal}. Ask us for that again and we will have to step back from this order.`,
    ),
    phrase(
      ['costBasis'],
      (f) => `${f.askTotal} is below what this order costs us; one more ask like that and we'll pass on it.`,
    ),
  ],
  /** The brand came back after the supplier walked away. */
  reopen: [
    phrase(
      [],
      (f) => `Thanks for coming back, ${f.buyer}. We're willing to look at this again on a different footing.`,
    ),
    phrase(
      ['partnership'],
      (f) => `Glad you reached out again, ${f.buyer}; let's see if a new approach gets us there.`,
    ),
  ],
  /** A cited competitor price below what anyone can make the order for: not believed, so it moves nothing. */
  doubt: [
    phrase(
      ['costBasis'],
      (f) =>
        `With respect, ${f.rivalQuote} is below what anyone can make these ${f.units} units for; we can't price against it.`,
    ),
    phrase(
      ['costBasis'],
      (f) => `${capital(f.rivalQuote)} doesn't cover fabric and labour for this order, so we won't chase it.`,
    ),
  ],
  /** The brand gave something (more upfront, a later delivery, more volume): the supplier passes its worth on. */
  trade: [
    phrase(
      ['conditional'],
      (f) => `Thank you for ${f.buyerGave}; it saves us money, and we pass that on in the price.`,
    ),
    phrase(['package'], (f) => `With ${f.buyerGave}, we can sharpen the price: that is reflected below.`),
  ],
};

/** Said by the supplier the curveball caps, every turn after it: the buyer must never miss it. */
export const CAPACITY_PHRASES: readonly S[] = [
  phrase(
    ['partnership'],
    (f) =>
      `An important update: a capacity constraint means we can commit to at most ${f.capPct} of the order value, about ${f.capValue} of ${f.total}. We'd rather tell you now than over-promise.`,
  ),
  phrase(
    [],
    (f) =>
      `Transparency first: our line is constrained and we can fill at most ${f.capPct} of this order (roughly ${f.capValue}). The pricing above applies to that share.`,
  ),
  phrase(
    [],
    (f) =>
      `Please note we can now only take ${f.capPct} of the volume, around ${f.capValue} at these prices; we'd suggest pairing us with a second supplier for the rest.`,
  ),
];

/** Every value a brand template may cite. */
export interface BrandFill {
  name: string;
  brand: string;
  total: string;
  lead: string;
  terms: string;
  units: string;
  lineCount: string;
  sku: string;
  unit: string;
  qty: string;
  value: string;
  /** The focus line's share of the order, never "0%" (a small share is "0.4%" or "under 0.1%"). */
  share: string;
  /** "the biggest line", "the second-biggest line", …: the focus SKU rotates, so its rank is stated, not assumed. */
  rank: string;
  askTotal: string;
  askUnit: string;
  askPct: string;
  rival: string;
  rivalTotal: string;
  rivalLead: string;
  rivalUnit: string;
  /** The cited rival is cheaper than this supplier: a price anchor makes sense. */
  rivalIsCheaper: boolean;
  /** Another supplier has an offer on the table: only then may the brand say it weighs other offers. */
  hasRivals: boolean;
  /**
   * The workspace lets the brand name competitors, their prices, lead times and problems. When false, no template may
   * use `rival`, `rivalTotal`, `rivalUnit`, `rivalLead`, `gap` or `capped`: only `gapPctRounded` says how much lower a
   * competitor is, and `rivalSooner` how much faster.
   */
  named: boolean;
  /** How much lower the cheaper competing offer is, rounded down to a whole percent ("15%", "under 1%"). */
  gapPctRounded: string;
  /** How much sooner the faster competitor ships, in words ("weeks sooner than you"): never its days. */
  rivalSooner: string;
  quality: string;
  defect: string;
  gap: string;
  gapPct: string;
  targetLead: string;
  targetTerms: string;
  onTime: string;
  /** The supplier stated these (they are not Parley's assumptions): only then may a template say "your …". */
  leadStated: boolean;
  termsStated: boolean;
  onTimeStated: boolean;
  qualityStated: boolean;
  /** What the quotation left out, as asked for: "a lead time or payment terms"; empty when nothing is missing. */
  missing: string;
  /** "both", "your lead time", "your payment terms". */
  confirmMissing: string;
  /** A package of price, lead time and terms can be named without quoting an assumed figure. */
  packageKnown: boolean;
  /** Few enough SKUs to ask for a sample of each (a 3,000-line order is not sampled line by line). */
  fewLines: boolean;
  capped: string;
  capPct: string;
  capValue: string;
  restPct: string;
  restValue: string;
  round: string;
  maxRounds: string;
  roundsLeft: string;
}

type B = Phrase<BrandFill>;

const stated = (f: BrandFill): boolean => f.leadStated && f.termsStated;

export const BRAND_PHRASES = {
  ack: [
    phrase(
      [],
      (f) => `Thanks, ${f.name}. We've reviewed your ${f.total} offer at ${f.lead} days and ${f.terms}.`,
      stated,
    ),
    phrase([], (f) => `Appreciate the update, ${f.name}; ${f.total} is noted.`),
    phrase([], (f) => `Thank you for the revised number of ${f.total}.`),
    phrase([], (f) => `Thanks for coming back to us at ${f.total}, ${f.name}.`),
  ],
  ackQuote: [
    phrase([], (f) => `Thanks for your quotation of ${f.total} for ${f.units} units.`),
    phrase(['skuMix'], (f) => `We've gone through your quote line by line: ${f.total} across ${f.lineCount} SKUs.`),
    phrase([], (f) => `Thank you, ${f.name}. We have your quote at ${f.total}, ${f.lead} days, ${f.terms}.`, stated),
  ],
  /** What the quotation left out is asked for, never filled in: said while the supplier has not stated it. */
  askFacts: [
    phrase(
      ['inquiry'],
      (f) => `Your quotation does not state ${f.missing}; please confirm ${f.confirmMissing} in your reply.`,
    ),
    phrase(
      ['inquiry'],
      (f) => `We couldn't find ${f.missing} in your quote, so please state ${f.confirmMissing} with your next offer.`,
    ),
  ],
  /** Asked once, in the first message to a supplier without a track record with us. */
  askTrackRecord: [
    phrase(['supplyRisk', 'inquiry'], () => `We'd also welcome your on-time delivery record for the past year.`),
    phrase(['quality', 'inquiry'], () => `Please share your on-time delivery rate and defect rate as well.`),
  ],
  leverage: [
    phrase(
      ['anchor'],
      (f) => `For context, ${f.rival} is at ${f.rivalTotal}, ${f.gapPct} below you, with ${f.sku} at ${f.rivalUnit}.`,
      (f) => f.named,
    ),
    phrase(
      ['batna'],
      (f) => `We have a competing offer from ${f.rival} at ${f.rivalTotal}, a gap of ${f.gap}.`,
      (f) => f.named,
    ),
    phrase(
      ['anchor'],
      (f) => `${f.rival} has already come in at ${f.rivalTotal} (${f.sku} at ${f.rivalUnit}), so that is the bar.`,
      (f) => f.named,
    ),
    phrase(
      ['anchor'],
      (f) => `For context, a competing offer is ${f.gapPctRounded} lower than yours.`,
      (f) => !f.named,
    ),
    phrase(
      ['batna'],
      (f) => `We hold a competing quote ${f.gapPctRounded} below your total.`,
      (f) => !f.named,
    ),
    phrase(
      ['anchor'],
      (f) => `Another supplier has come in ${f.gapPctRounded} under you, so that is the bar.`,
      (f) => !f.named,
    ),
  ],
  leverageSpeed: [
    phrase(
      ['batna'],
      (f) => `You're the lowest bid, but ${f.rival} ships in ${f.rivalLead} days against your ${f.lead}.`,
      (f) => f.named && f.leadStated,
    ),
    phrase(
      ['batna'],
      (f) =>
        `Price is competitive, yet ${f.rival} quotes ${f.rivalLead} days to your ${f.lead}, and time is money for us.`,
      (f) => f.named && f.leadStated,
    ),
    phrase(
      ['batna'],
      (f) => `Your price leads, but ${f.rival} can deliver in ${f.rivalLead} days; ${f.lead} is a long wait.`,
      (f) => f.named && f.leadStated,
    ),
    phrase(
      ['batna', 'leadTime'],
      (f) => `${f.rival} is ready in ${f.rivalLead} days; at ${f.lead} days your price has to carry the difference.`,
      (f) => f.named && f.leadStated,
    ),
    phrase(
      ['batna'],
      (f) => `You're the lowest bid, but a competing supplier ships ${f.rivalSooner}.`,
      (f) => !f.named && f.leadStated,
    ),
    phrase(
      ['batna', 'leadTime'],
      (f) => `Another supplier is ready ${f.rivalSooner}; at ${f.lead} days your price has to carry the difference.`,
      (f) => !f.named && f.leadStated,
    ),
    // Without a stated lead time of this supplier's there is nothing to compare with: only that a rival is faster.
    phrase(
      ['batna', 'leadTime'],
      () => `A competing supplier can ship sooner, so your lead time matters as much as your price.`,
      (f) => !f.leadStated,
    ),
    phrase(
      ['batna'],
      () => `Your price leads, but another supplier can deliver sooner, and delivery weighs in our decision.`,
      (f) => !f.leadStated,
    ),
  ],
  focus: [
    phrase(['skuMix'], (f) => `${f.sku} is ${f.rank} at ${f.share} of the order, so its ${f.unit} unit price matters.`),
    // The unit price here is the supplier's: "you're at", never "we'd pay".
    phrase(
      ['skuMix'],
      (f) => `On ${f.sku} (${f.qty} units) you're at ${f.unit} a unit; that line alone is ${f.value}.`,
    ),
    phrase(['skuMix'], (f) => `${f.sku} carries ${f.qty} units, ${f.share} of the spend, at ${f.unit} each.`),
  ],
  ask: [
    phrase([], (f) => `To close, we need ${f.askTotal} for the order, about ${f.askUnit} a unit on ${f.sku}.`),
    phrase(
      ['conditional'],
      (f) => `We can commit at ${f.askTotal}, ${f.askPct} below where you are, with ${f.sku} at ${f.askUnit}.`,
    ),
    phrase([], (f) => `Our number is ${f.askTotal}; that means ${f.sku} at ${f.askUnit}.`),
    phrase(['conditional'], (f) => `Meet us at ${f.askTotal} and ${f.sku} at ${f.askUnit}, and we can move quickly.`),
  ],
  speed: [
    phrase(['leadTime'], (f) => `We also need delivery within ${f.targetLead} days.`),
    phrase(
      ['leadTime'],
      (f) => `Lead time matters: can you do ${f.targetLead} days instead of ${f.lead}?`,
      (f) => f.leadStated,
    ),
  ],
  cashflow: [
    phrase(
      ['terms'],
      (f) => `On terms, ${f.targetTerms} instead of ${f.terms} would help our cash flow.`,
      (f) => f.termsStated,
    ),
    phrase(
      ['terms'],
      (f) => `We'd also like to pay ${f.targetTerms} rather than ${f.terms}.`,
      (f) => f.termsStated,
    ),
    phrase(['terms'], (f) => `On terms, ${f.targetTerms} would help our cash flow.`),
  ],
  quality: [
    phrase(
      ['nibble'],
      (f) => `Please include pre-production samples for all ${f.lineCount} SKUs and a 24-month warranty.`,
      (f) => f.fewLines,
    ),
    phrase(['nibble'], () => `Free samples and an extended 24-month warranty would strengthen your offer.`),
  ],
  volume: [
    phrase(
      ['volume'],
      (f) => `A volume tier at 125% of quantity would let us consolidate more of the ${f.units} units with you.`,
    ),
    phrase(
      ['tier', 'conditional'],
      (f) => `If you add a price break above ${f.qty} units on ${f.sku}, we may raise quantities.`,
    ),
  ],
  riskCapped: [
    phrase(
      ['supplyRisk'],
      (f) =>
        `We understand you can fill only ${f.capPct} (about ${f.capValue}); please confirm which SKUs you can cover.`,
    ),
    phrase(
      ['supplyRisk'],
      (f) => `With your capacity at ${f.capPct}, we need firm dates for that ${f.capValue} share.`,
    ),
  ],
  riskCappedSingle: [
    phrase(
      ['supplyRisk'],
      (f) =>
        `We'd prefer a single supplier, so we need to know if you can go beyond ${f.capPct} (${f.capValue}) of the order.`,
    ),
    phrase(
      ['supplyRisk'],
      (f) =>
        `Your ${f.capPct} cap is a concern: we want one supplier for all ${f.units} units, so tell us what it takes to lift it.`,
    ),
  ],
  /** Another supplier's capacity problem: only when the workspace lets the brand disclose it (see brand-agent.ts). */
  riskOpen: [
    phrase(
      ['volume'],
      (f) =>
        `With ${f.capped} capped at ${f.capPct}, about ${f.restValue} of volume is open, and a firm price wins it.`,
      (f) => f.named,
    ),
    phrase(
      ['supplyRisk'],
      (f) =>
        `${f.capped} can only cover ${f.capPct}, so the other ${f.restPct} (${f.restValue}) needs a reliable home.`,
      (f) => f.named,
    ),
  ],
  riskNone: [
    phrase(
      ['supplyRisk'],
      (f) => `Reliability counts too: we weigh your ${f.onTime} on-time record against the others.`,
      (f) => f.onTimeStated,
    ),
    // Only with another offer on the table: told to a supplier with no competitor, it would be a bluff on the record.
    phrase(
      ['batna'],
      (f) => `We're keeping two suppliers in play for the ${f.units} units, so every point counts.`,
      (f) => f.hasRivals,
    ),
    phrase(
      ['supplyRisk'],
      () => `Delivery dates and reliability weigh in our decision as much as the price does.`,
      (f) => !f.hasRivals,
    ),
  ],
  closer: [
    phrase([], (f) => `We're in round ${f.round} of ${f.maxRounds}; a firm move now keeps you in the running.`),
    phrase([], (f) => `We'd like to wrap this up within ${f.roundsLeft}.`),
    phrase(['conditional'], (f) => `Show us movement this round (${f.round} of ${f.maxRounds}) and we'll reciprocate.`),
  ],
  finalCloser: [
    phrase([], () => `This is our final round, so this number decides it.`),
    phrase([], (f) => `Round ${f.round} of ${f.maxRounds} is our last; we need your best and final offer.`),
  ],
  filler: [
    phrase([], (f) => `The order covers ${f.units} units across ${f.lineCount} SKUs.`),
    phrase([], () => `We're ready to issue the PO within 2 days once the numbers work.`),
    phrase(['partnership'], (f) => `We'd like ${f.brand} to build a repeat program from this first order.`),
  ],
  accept: [
    phrase([], (f) => `Thank you, ${f.name}: ${f.total} works for us.`),
    phrase([], (f) => `We accept ${f.total}, ${f.lead} days, ${f.terms}.`, stated),
    phrase([], (f) => `Good news, ${f.name}: we can accept ${f.total}.`),
  ],
  acceptDetail: [
    phrase(['summary'], (f) => `That puts ${f.sku} at ${f.unit} for ${f.qty} units.`),
    phrase(
      ['summary'],
      (f) => `For the record: ${f.sku} at ${f.unit}, ${f.units} units in total, payment ${f.terms}.`,
      (f) => f.termsStated,
    ),
  ],
  /** Extra sentences for an acceptance that runs short of the word budget. */
  acceptExtra: [
    phrase(['partnership'], (f) => `Thanks for the flexibility over ${f.round} rounds.`),
    phrase([], (f) => `The order covers ${f.units} units across ${f.lineCount} SKUs.`),
    phrase(
      ['deadline'],
      (f) => `Please hold the ${f.lead}-day production slot from today.`,
      (f) => f.leadStated,
    ),
    phrase([], () => `We'll confirm the delivery address and carton labelling with the PO.`),
    phrase(['partnership'], (f) => `We hope this is the first of many orders with ${f.brand}'s team.`),
  ],
  acceptNext: [
    phrase([], () => `Next step: we'll draft the purchase order for internal approval and send it within 2 days.`),
    phrase(
      ['partnership'],
      (f) => `We'll prepare the PO for approval on our side; thanks for working through ${f.round} rounds with us.`,
    ),
  ],
} satisfies Readonly<Record<string, readonly B[]>>;

/** The RFQ: opening and closing lines around the item list. */
export interface RfqFill {
  name: string;
  brand: string;
  lineCount: string;
  units: string;
  sku: string;
  unit: string;
}

export const RFQ_PHRASES = {
  intro: [
    phrase<RfqFill>(
      [],
      (f) =>
        `Hi ${f.name} team, this is Alex, buying for ${f.brand}. We'd like your quote for the ${f.lineCount} items below (${f.units} units in total):`,
    ),
    phrase<RfqFill>(
      [],
      (f) =>
        `Hello ${f.name}, Alex here from ${f.brand}. We're placing an order of ${f.units} units across ${f.lineCount} SKUs and would value your best price on:`,
    ),
    phrase<RfqFill>(
      ['batna'],
      (f) =>
        `Hi ${f.name}, Alex from ${f.brand}. We're comparing suppliers for ${f.lineCount} lines (${f.units} units) and invite you to quote:`,
    ),
  ],
  outro: [
    phrase<RfqFill>([], () => `Please include unit prices, any volume tiers, lead time in days and payment terms.`),
    phrase<RfqFill>(
      ['tier'],
      () => `Please quote unit prices per SKU, volume breaks if you have them, your lead time and payment terms.`,
    ),
    phrase<RfqFill>(
      ['deadline'],
      () => `Unit prices, volume tiers, lead time and payment terms would be ideal; we're deciding within 2 weeks.`,
    ),
  ],
};

/** One sentence per tactic, for a turn whose templates used none of the offered strategies. */
export const SUPPLIER_STRATEGY_LINES: Readonly<Record<Tactic, readonly S[]>> = {
  anchor: [
    phrase(['anchor'], (f) => `Other brands are paying more than ${f.altUnit} for ${f.altSku} this season.`),
    phrase(['anchor'], (f) => `For comparison, the market price for ${f.altSku} is well above ${f.altUnit}.`),
  ],
  batna: [
    phrase(['batna'], () => `Our line is in demand, and other customers are waiting on this capacity.`),
    phrase(['batna'], (f) => `We have other buyers interested in the ${f.altSku} capacity.`),
  ],
  volume: [phrase(['volume'], () => `More volume would let us sharpen the price further.`)],
  tier: [phrase(['tier'], (f) => `We can add a price break if you take ${f.tierSku} past ${f.tierQty} units.`)],
  terms: [
    phrase(['terms'], () => `A larger deposit would let us look at the price again.`),
    phrase(['terms'], (f) => `Paid ${f.terms}, this is as sharp as we can be; more upfront would change that.`),
  ],
  leadTime: [
    phrase(
      ['leadTime'],
      (f) => `If you can accept a few days more than ${f.lead} on delivery, we can look at the price again.`,
    ),
  ],
  package: [
    phrase(['package'], () => `We'd like to settle price, terms and lead time together as one package.`),
    phrase(['package'], (f) => `Take it as a package: ${f.total}, ${f.lead} days, ${f.terms}.`),
  ],
  conditional: [phrase(['conditional'], (f) => `If you confirm all ${f.units} units this week, we hold these terms.`)],
  splitDifference: [
    phrase(['splitDifference'], () => `If we're still apart after this, we're open to meeting halfway.`),
  ],
  partnership: [phrase(['partnership'], (f) => `We see this as the start of a long-term partnership with ${f.brand}.`)],
  skuMix: [phrase(['skuMix'], (f) => `The margin is thinnest on ${f.altSku}; other lines have a little more room.`)],
  supplyRisk: [phrase(['supplyRisk'], (f) => `Our ${f.onTime} on-time rate takes risk off your launch.`)],
  quality: [
    phrase(['quality'], (f) => `Our ${f.quality}/5 quality rating and ${f.defect} defect rate are behind every unit.`),
  ],
  deadline: [
    phrase(['deadline'], () => `These prices hold while our production slots last.`),
    phrase(['deadline'], (f) => `We can hold this slot until the end of round ${f.maxRounds}.`),
  ],
  costBasis: [phrase(['costBasis'], (f) => `Fabric and labour make up most of the ${f.altUnit} on ${f.altSku}.`)],
  nibble: [phrase(['nibble'], () => `In return, we'd ask you to cover the cost of custom hangtags.`)],
  inquiry: [phrase(['inquiry'], () => `What would you need from us to confirm this order?`)],
  summary: [phrase(['summary'], (f) => `To recap: ${f.lead} days and ${f.terms} are settled; only price is open.`)],
};

export const BRAND_STRATEGY_LINES: Readonly<Record<Tactic, readonly B[]>> = {
  anchor: [
    phrase(
      ['anchor'],
      (f) => `Our reference is ${f.rival}'s ${f.rivalUnit} on ${f.sku}.`,
      (f) => f.rivalIsCheaper && f.named,
    ),
    phrase(
      ['anchor'],
      (f) => `${f.rival} prices ${f.sku} at ${f.rivalUnit}; that is the number to beat.`,
      (f) => f.rivalIsCheaper && f.named,
    ),
    phrase(
      ['anchor'],
      (f) => `Our reference is the best competing offer, ${f.gapPctRounded} below yours.`,
      (f) => f.rivalIsCheaper && !f.named,
    ),
  ],
  batna: [phrase(['batna'], () => `We have other suppliers ready to take this order, so give us a reason to stay.`)],
  volume: [phrase(['volume'], () => `If the price works, we can add volume on the next order.`)],
  tier: [
    phrase(
      ['tier', 'conditional'],
      (f) => `If you add a price break above ${f.qty} units on ${f.sku}, we may raise quantities.`,
    ),
  ],
  terms: [
    phrase(['terms'], () => `We could pay a larger deposit if it brings the price down.`),
    phrase(
      ['terms'],
      (f) => `We'd move off ${f.terms} to a bigger deposit for a better price.`,
      (f) => f.termsStated,
    ),
  ],
  leadTime: [
    phrase(
      ['leadTime'],
      (f) => `We can accept a few days more than ${f.lead} if it lowers the price.`,
      (f) => f.leadStated,
    ),
  ],
  package: [
    phrase(
      ['package'],
      (f) => `We'll take it as one package: ${f.askTotal}, ${f.targetLead} days, ${f.targetTerms}.`,
      (f) => f.packageKnown,
    ),
    phrase(
      ['package'],
      (f) => `Price, ${f.targetLead}-day delivery and ${f.targetTerms} terms go together for us.`,
      (f) => f.packageKnown,
    ),
  ],
  conditional: [
    phrase(['conditional'], (f) => `If you meet ${f.askTotal}, we'll confirm all ${f.units} units this week.`),
  ],
  splitDifference: [
    phrase(['splitDifference'], () => `If we're still apart after this round, we're open to meeting halfway.`),
  ],
  partnership: [phrase(['partnership'], () => `Get this first order right and there is a repeat program behind it.`)],
  skuMix: [phrase(['skuMix'], (f) => `${f.sku} is where the volume is, so that is where the price has to move.`)],
  supplyRisk: [
    phrase(
      ['supplyRisk'],
      (f) => `Your ${f.onTime} on-time record is part of our risk assessment.`,
      (f) => f.onTimeStated,
    ),
    phrase(
      ['supplyRisk'],
      () => `Please share your on-time delivery record; it is part of our risk assessment.`,
      (f) => !f.onTimeStated,
    ),
  ],
  quality: [
    phrase(
      ['quality'],
      (f) => `Your ${f.quality}/5 quality rating is part of the decision.`,
      (f) => f.qualityStated,
    ),
    phrase(
      ['quality'],
      () => `Tell us about your QC process and defect rate; quality is part of the decision.`,
      (f) => !f.qualityStated,
    ),
  ],
  deadline: [
    phrase(['deadline'], () => `We plan to place this order within 2 weeks.`),
    phrase(['deadline'], (f) => `We decide after round ${f.maxRounds}, so timing matters.`),
  ],
  costBasis: [
    phrase(['costBasis', 'inquiry'], (f) => `Walk us through the cost basis of ${f.sku}; at ${f.unit} it looks high.`),
  ],
  nibble: [phrase(['nibble'], (f) => `We'd also ask for free samples of ${f.sku}.`)],
  inquiry: [phrase(['inquiry'], (f) => `What would it take for you to move on ${f.sku}?`)],
  summary: [phrase(['summary'], (f) => `Agreed so far: ${f.lead} days and ${f.terms}; price is what's open.`, stated)],
};

/** The RFQ's strategy sentences: what each tactic sounds like before any offer exists. */
export const RFQ_STRATEGY_LINES: Readonly<Record<Tactic, readonly Phrase<RfqFill>[]>> = {
  // The quote we hold is another supplier's: its prices are not told to a competitor.
  anchor: [phrase(['anchor'], () => `For reference, we already hold a competitive quote for these lines.`)],
  batna: [phrase(['batna'], () => `We're inviting several suppliers to quote.`)],
  volume: [phrase(['volume'], () => `Repeat orders of similar volume are likely if the price is right.`)],
  tier: [phrase(['tier'], () => `Please include price breaks for larger quantities.`)],
  terms: [phrase(['terms'], () => `Tell us your payment terms and any discount for a larger deposit.`)],
  leadTime: [phrase(['leadTime'], () => `Quote your standard lead time, and the price for a faster one.`)],
  package: [phrase(['package'], () => `We'll compare price, terms and lead time as one package.`)],
  conditional: [phrase(['conditional'], () => `If your quote is competitive, we can confirm within 5 days.`)],
  splitDifference: [phrase(['splitDifference'], () => `We expect to negotiate, and we're fair about meeting halfway.`)],
  partnership: [phrase(['partnership'], () => `We're looking for a long-term supplier, not a one-off.`)],
  skuMix: [phrase(['skuMix'], (f) => `${f.sku} is the largest line, so its price matters most.`)],
  supplyRisk: [phrase(['supplyRisk'], (f) => `Please confirm you have capacity for all ${f.units} units.`)],
  quality: [phrase(['quality'], () => `Please state your quality standards and defect rate.`)],
  deadline: [phrase(['deadline'], () => `We'd like your quote within 5 days.`)],
  costBasis: [phrase(['costBasis'], (f) => `A cost breakdown for ${f.sku} would help us compare.`)],
  nibble: [phrase(['nibble'], (f) => `Free samples of ${f.sku} would be appreciated.`)],
  inquiry: [phrase(['inquiry'], () => `Let us know what would help you give your sharpest price.`)],
  summary: [phrase(['summary'], (f) => `To summarise: ${f.lineCount} SKUs, ${f.units} units, priced per SKU.`)],
};
