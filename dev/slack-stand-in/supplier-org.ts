// A supplier's own organisation in the stand-in, connected to the brand through Slack Connect: Ningbo Everbright's
// Slack team, Wei Zhang of it, and #valden-ningbo, the channel the two organisations share (Slack's flags:
// conversations.info `is_ext_shared`, `connected_team_ids`; Wei's events and clicks carry Ningbo's `user_team` /
// `user.team_id`). What `npm run demo -- --connect` and the connected-supplier story play: an approver connects the
// channel with `/parley suppliers`, and Wei answers the buyer's messages there as a person at the supplier would.
import { BLOCK, CALLBACK, SLASH_COMMAND } from '../../src/slack/ids.js';
import type { SandboxView } from './model.js';
import type { StoryStage, SupplierSide } from './play-story.js';
import type { SubmitValues } from './driver.js';

export const SUPPLIER_TEAM = 'T0NINGBO01';
export const WEI = { id: 'U0WEI00001', name: 'wei', realName: 'Wei Zhang', isBot: false, teamId: SUPPLIER_TEAM };
export const SHARED_CHANNEL = { id: 'C0NINGBO01', name: 'valden-ningbo' };
/** The quoting supplier of the bundled sample 02, as its quotation names it. */
export const NINGBO = 'Ningbo Everbright Garments Co., Ltd.';
/** What Wei first writes in words, before any offer: kept and passed to the buyer, and answered with Submit offer. */
export const WEI_WORDS = 'We can do better on the jackets if the order is firm by Friday.';

/** A supplier's organisation in the stand-in: its name as the brand connects it, one person, the shared channel. */
export interface SupplierOrganisation {
  name: string;
  teamId: string;
  person: typeof WEI;
  channel: { id: string; name: string };
}

export const NINGBO_ORG: SupplierOrganisation = {
  name: NINGBO,
  teamId: SUPPLIER_TEAM,
  person: WEI,
  channel: SHARED_CHANNEL,
};

/** A competing supplier with its own organisation, asked to quote beside Ningbo. */
export const DHAKA_ORG: SupplierOrganisation = {
  name: 'Dhaka Knitwear Ltd',
  teamId: 'T0DHAKA001',
  person: { id: 'U0RAHIM001', name: 'rahim', realName: 'Rahim Chowdhury', isBot: false, teamId: 'T0DHAKA001' },
  channel: { id: 'C0DHAKA001', name: 'valden-dhaka' },
};

/** Adds a supplier's organisation (Ningbo's by default): its person, and the channel shared with the brand's `members` (and Parley). */
export function addSupplierOrganisation(
  model: StoryStage['sandbox']['model'],
  members: readonly string[],
  org: SupplierOrganisation = NINGBO_ORG,
): void {
  model.addUser(org.person);
  model.addChannel({
    ...org.channel,
    isPrivate: false,
    members: [...members, org.person.id, model.botUserId],
    sharedWith: { teamId: org.teamId },
  });
}

/** `approverId` connects the supplier (Ningbo by default) to its shared channel with `/parley suppliers`, from `channelId`. */
export async function playConnectSupplier(
  stage: StoryStage,
  approverId: string,
  channelId: string,
  org: SupplierOrganisation = NINGBO_ORG,
): Promise<string> {
  const { driver, model } = stage.sandbox;
  await driver.slashCommand(approverId, channelId, SLASH_COMMAND, 'suppliers');
  const modal = await stage.sandbox.waitFor(
    () => model.openViews(approverId).find((view) => view.view.callback_id === CALLBACK.suppliersModal),
    { what: 'the suppliers modal' },
  );
  await driver.submitView(approverId, modal.id, {
    [BLOCK.supplierNewName]: org.name,
    [BLOCK.supplierChannel]: org.channel.id,
  });
  await stage.settle();
  return `${model.userName(approverId)} types \`${SLASH_COMMAND} suppliers\` and connects ${org.name} to #${org.channel.name}, shared with its own Slack`;
}

/** The price fields of an offer form, by block id, with the price each starts from (the supplier's own last one). */
function startingPrices(form: SandboxView): [string, string | undefined][] {
  const blocks = (form.view.blocks ?? []) as { block_id?: string; element?: { initial_value?: string } }[];
  return blocks.flatMap(({ block_id: blockId, element }) =>
    blockId?.startsWith(`${BLOCK.offerPrice}:`)
      ? [[blockId, element?.initial_value] as [string, string | undefined]]
      : [],
  );
}

/** Wei's offer each round: every line 2% under the form's starting price (their own last one), at 40 days and 30/70. */
export function twoPercentLess(form: SandboxView): SubmitValues {
  const values: Record<string, string> = { [BLOCK.offerLeadTime]: '40', [BLOCK.offerPaymentTerms]: '30/70' };
  for (const [blockId, price] of startingPrices(form)) {
    if (price) values[blockId] = String(Math.round(Number(price) * 98) / 100);
  }
  return values;
}

/**
 * A competitor that never saw the quotation: `firstPrice` a unit for every line when it has offered nothing yet, then
 * 1% under its own last price, at 40 days and 30/70.
 */
export function quotingAt(firstPrice: number): (form: SandboxView) => SubmitValues {
  return (form) => {
    const values: Record<string, string> = { [BLOCK.offerLeadTime]: '40', [BLOCK.offerPaymentTerms]: '30/70' };
    for (const [blockId, price] of startingPrices(form)) {
      values[blockId] = price ? String(Math.round(Number(price) * 99) / 100) : String(firstPrice);
    }
    return values;
  };
}

/** Wei, as the story's supplier: words first, then Submit offer each round (`answer`), then Accept PO. */
export function weiAnswering(answer: (form: SandboxView) => SubmitValues = twoPercentLess): SupplierSide {
  return { person: WEI.id, channelId: SHARED_CHANNEL.id, answer, writesFirst: WEI_WORDS, acceptsPo: true };
}
