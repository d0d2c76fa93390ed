// A supplier's own organisation in the stand-in, connected to the brand through Slack Connect: Ningbo Everbright's
// Slack team, Wei Zhang of it, and #valden-ningbo, the channel the two organisations share (Slack's flags:
// conversations.info `is_ext_shared`, `connected_team_ids`; Wei's events and clicks carry Ningbo's `user_team` /
// `user.team_id`). What `npm run demo -- --connect` and the connected-supplier story play: an approver connects the
// channel with `/parley suppliers`, and Wei answers the buyer's messages there as a person at the supplier would.
import { BLOCK, CALLBACK, SLASH_COMMAND } from '../../src/slack/ids.js';
import type { SandboxView } from './model.js';
import type { StoryOptions, StoryStage } from './play-story.js';
import type { SubmitValues } from './driver.js';

export const SUPPLIER_TEAM = 'T0NINGBO01';
export const WEI = { id: 'U0WEI00001', name: 'wei', realName: 'Wei Zhang', isBot: false, teamId: SUPPLIER_TEAM };
export const SHARED_CHANNEL = { id: 'C0NINGBO01', name: 'valden-ningbo' };
/** The quoting supplier of the bundled sample 02, as its quotation names it. */
export const NINGBO = 'Ningbo Everbright Garments Co., Ltd.';
/** What Wei first writes in words, before any offer: kept and passed to the buyer, and answered with Submit offer. */
export const WEI_WORDS = 'We can do better on the jackets if the order is firm by Friday.';

/** Adds Ningbo's organisation: Wei, and the channel shared with the brand's `members` (and Parley). */
export function addSupplierOrganisation(model: StoryStage['sandbox']['model'], members: readonly string[]): void {
  model.addUser(WEI);
  model.addChannel({
    ...SHARED_CHANNEL,
    isPrivate: false,
    members: [...members, WEI.id, model.botUserId],
    sharedWith: { teamId: SUPPLIER_TEAM },
  });
}

/** `approverId` connects Ningbo to the shared channel with `/parley suppliers`, from `channelId`. */
export async function playConnectSupplier(stage: StoryStage, approverId: string, channelId: string): Promise<string> {
  const { driver, model } = stage.sandbox;
  await driver.slashCommand(approverId, channelId, SLASH_COMMAND, 'suppliers');
  const modal = await stage.sandbox.waitFor(
    () => model.openViews(approverId).find((view) => view.view.callback_id === CALLBACK.suppliersModal),
    { what: 'the suppliers modal' },
  );
  await driver.submitView(approverId, modal.id, {
    [BLOCK.supplierNewName]: NINGBO,
    [BLOCK.supplierChannel]: SHARED_CHANNEL.id,
  });
  await stage.settle();
  return `${model.userName(approverId)} types \`${SLASH_COMMAND} suppliers\` and connects ${NINGBO} to #${SHARED_CHANNEL.name}, shared with Ningbo's own Slack`;
}

/** Wei's offer each round: every line 2% under the form's starting price (their own last one), at 40 days and 30/70. */
export function twoPercentLess(form: SandboxView): SubmitValues {
  const values: Record<string, string> = { [BLOCK.offerLeadTime]: '40', [BLOCK.offerPaymentTerms]: '30/70' };
  const blocks = (form.view.blocks ?? []) as { block_id?: string; element?: { initial_value?: string } }[];
  for (const { block_id: blockId, element } of blocks) {
    if (blockId?.startsWith(`${BLOCK.offerPrice}:`) && element?.initial_value) {
      values[blockId] = String(Math.round(Number(element.initial_value) * 98) / 100);
    }
  }
  return values;
}

/** Wei, as the story's supplier: words first, then Submit offer each round (`answer`), then Accept PO. */
export function weiAnswering(
  answer: (form: SandboxView) => SubmitValues = twoPercentLess,
): NonNullable<StoryOptions['supplier']> {
  return { person: WEI.id, channelId: SHARED_CHANNEL.id, answer, writesFirst: WEI_WORDS, acceptsPo: true };
}
