// A brand brings its own catalog, as a person does it in Slack: `/parley catalog` opens the upload modal, they pick
// the CSV in its file field and press Preview, read what Merge and Replace would each do, and click one. Every step
// is a signed request into Parley's Bolt receiver; the modal is read back from the stand-in as the person sees it.
import { ACTION, BLOCK, CALLBACK } from '../../src/slack/ids.js';
import type { SandboxView } from './model.js';
import type { StoryStage } from './play-story.js';
import { blockLines } from './transcript.js';

export interface CatalogImportOptions {
  /** Who imports: an approver or a workspace admin. */
  by: { id: string; name: string };
  /** Where they run `/parley catalog`. */
  channelId: string;
  file: { name: string; bytes: Buffer };
  mode?: 'merge' | 'replace';
}

export interface CatalogImportResult {
  actions: string[];
  /** The modal's last words, as the person reads them (what the import did). */
  outcome: string[];
}

const hasBlock = (view: SandboxView, blockId: string) =>
  Array.isArray(view.view.blocks) &&
  view.view.blocks.some(
    (block) => typeof block === 'object' && block !== null && 'block_id' in block && block.block_id === blockId,
  );

export async function playCatalogImport(
  stage: StoryStage,
  options: CatalogImportOptions,
): Promise<CatalogImportResult> {
  const { sandbox } = stage;
  const { driver, model } = sandbox;
  const who = options.by.id;
  const actions: string[] = [];
  const catalogModal = () =>
    model
      .openViews(who)
      .find((view) => view.view.callback_id === CALLBACK.catalogModal && hasBlock(view, BLOCK.catalogFile));

  actions.push(`${options.by.name} runs /parley catalog`);
  await driver.slashCommand(who, options.channelId, '/parley', 'catalog');
  const modal = await sandbox.waitFor(catalogModal, { what: 'the catalog upload modal', timeoutMs: 10_000 });

  actions.push(`${options.by.name} picks ${options.file.name} in the modal and clicks [Preview]`);
  const fileId = driver.uploadInForm(who, options.file);
  await driver.submitView(who, modal.id, { [BLOCK.catalogFile]: [fileId] });
  const preview = await sandbox
    .waitFor(() => model.openViews(who).find((view) => hasBlock(view, BLOCK.catalogActions)), {
      what: 'the catalog preview',
      timeoutMs: 60_000,
    })
    .catch((error: unknown) => {
      // Say what the person sees instead: the modal's words (a field error, a failure) and what was said privately.
      const seen = model.openViews(who).flatMap((view) => {
        const blocks = Array.isArray(view.view.blocks) ? view.view.blocks : [];
        return [...blocks.flatMap((block) => blockLines(model, block)), ...Object.values(view.errors)];
      });
      const told = model.ephemerals(who).map((e) => e.text);
      throw new Error(`${String(error)}; the modal shows: ${seen.join(' | ') || 'nothing'}; told: ${told.join(' | ')}`);
    });

  const button = options.mode === 'replace' ? ACTION.catalogReplace : ACTION.catalogMerge;
  actions.push(`${options.by.name} clicks [${options.mode === 'replace' ? 'Replace' : 'Merge'}] on the preview`);
  await driver.clickButton(who, { viewId: preview.id }, button);
  await stage.settle();
  const done = await sandbox.waitFor(
    () => {
      const view = model.view(preview.id);
      return view &&
        !hasBlock(view, BLOCK.catalogActions) &&
        !/Importing|Reading/i.test(JSON.stringify(view.view.blocks))
        ? view
        : undefined;
    },
    { what: 'the catalog import to finish', timeoutMs: 120_000 },
  );
  const blocks = Array.isArray(done.view.blocks) ? done.view.blocks : [];
  return { actions, outcome: blocks.flatMap((block) => blockLines(model, block)) };
}
